#!/bin/bash
# Crash consistency (issue 23): a stream of submissions, kills, stops,
# resumes and completions while, in a first phase, mbatchd is killed
# with SIGKILL at random moments and, in a second, the whole master host
# (lim, sbatchd and mbatchd) is, the other candidate taking over and
# the first coming back.  At the end of each phase every job bsub
# acknowledged exists exactly once, has ended in the state its story
# gives it (DONE, or EXIT if bkill was tried on it), no job ID was given
# twice, and no job ran twice at the same time: each run takes a
# directory named after its job (mkdir is atomic), leaves a mark when it
# finds it already taken, and gives it back at its end.
. "$(dirname "$0")/lib.sh"

cluster_init 3
host_mxj 4
sed -i 's/^LSF_MASTER_LIST=.*/LSF_MASTER_LIST="hosta hostb"/' \
    "$LSF_CONF/lsf.conf"
# A master host's jobs are in doubt while it is down; it comes back
# long before they would be declared lost.
sed -i 's/^End Parameters/MAX_SBD_FAIL = 60\n&/' "$LSB_CONF/lsb.params"
cluster_start
cd "$T_DIR/jobs"
ROUNDS=${ROUNDS:-6}
RANDOM=$$

master() { lsid 2>/dev/null | sed -n 's/^My master name is //p'; }
# A job: holds runs/<id> while it runs, for 0.2-1 s.
JOB='mkdir runs/$LSB_JOBID 2>/dev/null || echo "$LSB_JOBID" >>runs/DOUBLE;
sleep 0.$((RANDOM % 8 + 2)); rmdir runs/$LSB_JOBID'

# One round of phase 1: kill the master's mbatchd, wait for another.
kill_mbd() {
	local h p
	h=$(master)
	[ -n "$h" ] || return 0
	eval "p=\$(pgrep -P \$PID_sbatchd_$h -x mbatchd)"
	[ -n "$p" ] || return 0
	kill -9 "$p"
	wait_for sh -c "q=\$(pgrep -x mbatchd | grep -vx $p) &&
	    bqueues >/dev/null" || fail "mbatchd did not come back"
}
# One round of phase 2: kill the master host's daemons together; once
# the other candidate serves, start them again and wait for every host.
kill_master() {
	local h l s m
	h=$(master)
	[ -n "$h" ] || return 0
	eval "l=\$PID_lim_$h s=\$PID_sbatchd_$h"
	m=$(pgrep -P "$s" -x mbatchd)
	kill -9 "$l" "$s" $m
	wait "$l" "$s" 2>/dev/null
	wait_for sh -c "[ \"\$(lsid 2>/dev/null |
	    sed -n 's/^My master name is //p')\" != $h ] &&
	    bqueues >/dev/null" || fail "no master after $h was lost"
	echo "# $h lost, $(master) took over"
	start_daemon lim "$h"
	start_daemon sbatchd "$h"
	wait_for all_hosts_ok || fail "$h did not come back"
}

# storm NAME KILLER: submissions and job control while KILLER runs
# ROUNDS times at random moments; then the checks.
storm() {
	local name=$1 killer=$2 subs ctl p nacked missing bad left id st
	mkdir "$name" "$name/runs"
	cd "$name"
	subs=""
	for s in 1 2; do
		(
			RANDOM=$((s * 7919 + $$))
			for i in $(seq 1 "${NSUB:-40}"); do
				out=$(bsub -o /dev/null "$JOB" 2>/dev/null) &&
				    echo "$out" |
				    sed -n 's/^Job <\([0-9]*\)>.*/\1/p' >>acked.$s
				sleep 0.0$((RANDOM % 5))
			done
		) &
		subs="$subs $!"
	done
	# Kill some acknowledged jobs, stop and resume others.  Every job
	# bkill was tried on is noted: a bkill whose answer was lost with
	# mbatchd may still have been carried out.
	touch killed
	(
		RANDOM=$(($$ + 17))
		while [ ! -e done.subs ]; do
			id=$(cat acked.* 2>/dev/null | shuf -n 1)
			[ -n "$id" ] || { sleep 0.1; continue; }
			case $((RANDOM % 3)) in
			0)	echo "$id" >>killed
				bkill "$id" >/dev/null 2>&1 ;;
			1)	bstop "$id" >/dev/null 2>&1 ;;
			2)	bresume "$id" >/dev/null 2>&1 ;;
			esac
			sleep 0.2
		done
	) &
	ctl=$!
	for r in $(seq 1 "$ROUNDS"); do
		sleep 0.$((RANDOM % 9 + 1))
		"$killer"
	done
	for p in $subs; do wait "$p"; done
	touch done.subs
	wait "$ctl"
	cat acked.* | sort -n >acked
	nacked=$(wc -l <acked)
	check "$name: jobs were acknowledged ($nacked)" test "$nacked" -gt 20

	# Whatever is still stopped is resumed; then every job must end.
	wait_for sh -c "bqueues >/dev/null" || fail "mbatchd is not answering"
	bresume -u all 0 >/dev/null 2>&1
	WAIT_SECS=120 wait_for sh -c "! bjobs -u all -noheader 2>/dev/null |
	    grep -q ." || fail "$name: jobs did not all end"
	bjobs -a -u all -noheader -o "jobid stat" 2>/dev/null | sort -n >final
	expect_eq "$name: no job ID is listed twice" "" \
	    "$(awk '{ print $1 }' final | uniq -d)"
	missing=$(awk 'NR == FNR { have[$1] = 1; next } !($1 in have)' \
	    final acked)
	expect_eq "$name: every acknowledged job exists" "" "$missing"
	bad=""
	while read -r id st; do
		grep -qx "$id" acked || continue
		if grep -qx "$id" killed; then
			[ "$st" = DONE ] || [ "$st" = EXIT ] ||
			    bad="$bad $id:$st"
		else
			[ "$st" = DONE ] || bad="$bad $id:$st"
		fi
	done <final
	expect_eq "$name: each ended as its story says" "" "$bad"
	expect_eq "$name: no job ran twice at the same time" "" \
	    "$(cat runs/DOUBLE 2>/dev/null)"
	# A run ended by bkill leaves its directory; any other gives it back.
	left=$(ls runs | grep -vxF -f killed)
	expect_eq "$name: every run not killed let its job's directory go" \
	    "" "$left"
	cd ..
}

storm mbd kill_mbd
storm master kill_master
bkill -u all 0 >/dev/null 2>&1
finish
