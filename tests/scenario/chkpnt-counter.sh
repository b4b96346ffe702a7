#!/bin/sh
# The checkpointing tests' job (t0119, t0123, t0124): counts in tenths of
# a second into count.<name>, saves the count when echkpnt.sample asks
# (it leaves chkpnt.request in the checkpoint directory), starts from the
# saved one when restarted; each start appends "start N restart hosts
# dir" to start.<name> and writes its pid to pid.<name>.
name=$1
d=$LSB_CHKPNT_DIR
n=0
if [ "$LSB_RESTART" = Y ] && [ -f "$d/state" ]; then n=$(cat "$d/state"); fi
echo $$ >"pid.$name"
echo "start $n ${LSB_RESTART:-N} $LSB_HOSTS $d" >>"start.$name"
while :; do
	n=$((n + 1))
	echo $n >"count.$name.tmp"; mv "count.$name.tmp" "count.$name"
	if [ -e "$d/chkpnt.request" ]; then
		echo $n >"$d/state.tmp"; mv "$d/state.tmp" "$d/state"
		rm -f "$d/chkpnt.request"
	fi
	sleep 0.1
done
