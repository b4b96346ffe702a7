#!/bin/bash
# Crash consistency (issue 23): a stream of submissions, kills, stops and
# resumes and completions while mbatchd is killed with SIGKILL at random
# moments.  At the end every job bsub acknowledged exists exactly once,
# has ended in the state its story gives it (DONE, or EXIT if bkill was
# tried on it), no job ID was given twice, and no job ran twice at the
# same time: each run takes a directory named after its job (mkdir is atomic),
# leaves a mark when it finds the directory already taken, and gives it
# back at its end.
. "$(dirname "$0")/lib.sh"

cluster_init 3
host_mxj 4
cluster_start
cd "$T_DIR/jobs"
mkdir runs
ROUNDS=${ROUNDS:-8}
RANDOM=$$

mbd_pid() {
	pgrep -P "$PID_sbatchd_hosta" -x mbatchd
}
# A job: holds runs/<id> while it runs, for 0.2-1 s.
JOB='mkdir runs/$LSB_JOBID 2>/dev/null || echo "$LSB_JOBID" >>runs/DOUBLE;
sleep 0.$((RANDOM % 8 + 2)); rmdir runs/$LSB_JOBID'

# Two submitters, each writing the IDs bsub acknowledged.
subs=""
for s in 1 2; do
	(
		RANDOM=$((s * 7919 + $$))
		for i in $(seq 1 "${NSUB:-40}"); do
			out=$(bsub -o /dev/null "$JOB" 2>/dev/null) &&
			    echo "$out" | sed -n 's/^Job <\([0-9]*\)>.*/\1/p' \
			    >>acked.$s
			sleep 0.0$((RANDOM % 5))
		done
	) &
	subs="$subs $!"
done
# Job control on what has been acknowledged so far: kill some, stop and
# resume others.  Every job bkill was tried on is noted: a bkill whose
# answer was lost with mbatchd may still have been carried out.
(
	RANDOM=$(($$ + 17))
	while [ ! -e done.subs ]; do
		id=$(cat acked.* 2>/dev/null | shuf -n 1)
		[ -n "$id" ] || { sleep 0.1; continue; }
		case $((RANDOM % 3)) in
		0)	echo "$id" >>killed; bkill "$id" >/dev/null 2>&1 ;;
		1)	bstop "$id" >/dev/null 2>&1 ;;
		2)	bresume "$id" >/dev/null 2>&1 ;;
		esac
		sleep 0.2
	done
) &
ctl=$!
# mbatchd killed at random moments, each time after the last one came
# back.
for r in $(seq 1 "$ROUNDS"); do
	sleep 0.$((RANDOM % 9 + 1))
	p=$(mbd_pid)
	[ -n "$p" ] && kill -9 "$p"
	wait_for sh -c "p=\$(pgrep -P $PID_sbatchd_hosta -x mbatchd) &&
	    [ \"\$p\" != \"$p\" ]" || fail "mbatchd did not come back ($r)"
done
for p in $subs; do wait "$p"; done
touch done.subs
wait "$ctl"
cat acked.* | sort -n >acked
nacked=$(wc -l <acked)
check "jobs were acknowledged ($nacked)" test "$nacked" -gt 20

# Whatever is still stopped is resumed; then every job must end.
wait_for sh -c "bqueues >/dev/null" || fail "mbatchd is not answering"
bresume -u all 0 >/dev/null 2>&1
ended() {
	! bjobs -u all -noheader 2>/dev/null | grep -q .
}
WAIT_SECS=120 wait_for ended || fail "jobs did not all end"

bjobs -a -u all -noheader -o "jobid stat" 2>/dev/null | sort -n >final
expect_eq "no job ID is listed twice" "" "$(awk '{ print $1 }' final |
	uniq -d)"
missing=$(awk 'NR == FNR { have[$1] = 1; next } !($1 in have)' final acked)
expect_eq "every acknowledged job exists" "" "$missing"
bad=""
while read -r id st; do
	grep -qx "$id" acked || continue
	if grep -qx "$id" killed 2>/dev/null; then
		[ "$st" = DONE ] || [ "$st" = EXIT ] || bad="$bad $id:$st"
	else
		[ "$st" = DONE ] || bad="$bad $id:$st"
	fi
done <final
expect_eq "each ended as its story says (DONE, or EXIT if killed)" "" \
	"$bad"
expect_eq "no job ran twice at the same time" "" \
	"$(cat runs/DOUBLE 2>/dev/null)"
# A run ended by bkill leaves its directory; any other gives it back.
touch killed
left=$(ls runs | grep -vxF -f killed)
expect_eq "every run not killed let its job's directory go" "" "$left"
finish
