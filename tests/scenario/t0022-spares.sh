#!/bin/bash
# Spare supervisors: sbatchd forks one ahead of the next job, which then
# starts in it with its user, environment, cwd, signals and output as
# from a supervisor forked for it, and a supervisor whose job is over
# waits for another, keeping its connection to sbatchd.  A spare is no
# job, and none outlives its sbatchd.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cluster_start
cd "$T_DIR/jobs"

# The spares of host $1 (children of its sbatchd, named "jobsup spare").
spares_of() {
	eval "pgrep -P \$PID_sbatchd_$1 -x 'jobsup spare'"
}
one_spare() {
	[ "$(spares_of "$1" | wc -l)" -ge 1 ]
}
gone() {
	[ $# -gt 0 ] || return 1	# nothing to wait for is a mistake
	for p in "$@"; do kill -0 "$p" 2>/dev/null && return 1; done
	return 0
}

wait_for one_spare hostb
spare=$(spares_of hostb | head -n 1)
check "an idle host keeps a spare supervisor" test -n "$spare"
expect_eq "which is no job" "No unfinished job found" "$(bjobs -u all 2>&1)"
expect_match "nor a slot taken" '^hostb +ok +- +[0-9]+ +0 +0 ' \
    "$(bhosts | grep '^hostb')"

# A job started in the spare: its shell's parent is the spare.
mkdir -p sub
export SPARE_VAR="from the submitter"
printf '%s\n' 'echo "sup $PPID"' 'echo "user $(id -un)"' 'pwd' \
    'echo "var $SPARE_VAR"' "grep -E '^Sig(Blk|Ign)' /proc/self/status" \
    >probe.sh
id=$(submit -m hostb -cwd sub -o "$T_DIR/jobs/p.%J" sh "$T_DIR/jobs/probe.sh")
wait_for job_is "$id" DONE
expect_eq "the job ran in the spare" "sup $spare" "$(grep '^sup' "p.$id")"
expect_eq "as its submitter" "user $(id -un)" "$(grep '^user' "p.$id")"
expect_eq "in its cwd" "$T_DIR/jobs/sub" "$(sed -n 3p "p.$id")"
expect_eq "with its environment" "var from the submitter" \
    "$(grep '^var' "p.$id")"
expect_eq "with no signal ignored or blocked" \
    "SigBlk: 0000000000000000 SigIgn: 0000000000000000" \
    "$(grep -E '^Sig(Blk|Ign)' "p.$id" | xargs)"
check "and its report in its output" grep -q '^Successfully completed.' "p.$id"
back() {
	spares_of hostb | grep -qx "$spare"
}
wait_for back
check "its supervisor is a spare again for the next job" back

# It keeps its connection to sbatchd for the next job (fd 3 is its line
# to sbatchd's pool), and requests for that job come down it.
sup_sockets() {
	local f
	for f in /proc/"$1"/fd/*; do
		[ "${f##*/}" = 3 ] || readlink "$f"
	done 2>/dev/null | grep '^socket:' | sort
}
kept=$(sup_sockets "$spare")
check "a spare keeps its connection to sbatchd between jobs" test -n "$kept"
id=$(submit -m hostb -o /dev/null sleep 60)
wait_for job_is "$id" RUN
expect_eq "the next job runs in the spare freed last" "$spare" \
    "$(pgrep -P "$PID_sbatchd_hostb" -x "jobsup $id")"
expect_eq "on the same connection" "$kept" "$(sup_sockets "$spare")"
bkill "$id" >/dev/null
wait_for job_is "$id" EXIT
check "bkill reaches its job there" job_is "$id" EXIT
wait_for back
check "and it is a spare again after" back

# A user sbatchd had not looked up when the spare was forked (nor when
# it served the job above).
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	spare=$(spares_of hostb | head -n 1)
	id=$(setpriv --reuid=65534 --regid=65534 --clear-groups -- \
	    bsub -m hostb -o "$T_DIR/jobs/n.%J" 'echo "sup $PPID"; id -un; echo "$HOME"' |
	    sed -n 's/^Job <\([0-9]*\)> is submitted.*/\1/p')
	wait_for job_is "$id" DONE
	expect_eq "a new user's job ran in a spare" "sup $spare" \
	    "$(grep '^sup' "n.$id")"
	expect_eq "as that user, with its home" \
	    "nobody $(getent passwd nobody | cut -d: -f6)" \
	    "$(sed -n '2,3p' "n.$id" | xargs)"
fi

# SIGHUP (the log reopened): the spares are replaced.
wait_for one_spare hostb
old=$(spares_of hostb)
kill -HUP "$PID_sbatchd_hostb"
wait_for gone $old
check "SIGHUP lets the old spares go" gone $old
wait_for one_spare hostb
check "and forks new ones" one_spare hostb
expect_match "sbatchd logs to its file after SIGHUP" \
    "supervisor $(spares_of hostb | head -n 1) forked" \
    "$(cat "$T_DIR/log/sbatchd.log.hostb")"

# A spare killed: the next job still runs, and a new spare comes.
old=$(spares_of hostb)
kill -KILL $old
wait_for gone $old
id=$(submit -m hostb -o /dev/null true)
wait_for job_is "$id" DONE
check "a job runs when its spare was killed" job_is "$id" DONE
wait_for one_spare hostb
check "and the pool is filled again" one_spare hostb

# sbatchd killed: its spares go with it, its running job stays, and the
# new sbatchd takes no spare for a job.
r=$(submit -m hostb -o "$T_DIR/jobs/r.%J" sleep 3)
wait_for job_is "$r" RUN
wait_for one_spare hostb
old=$(spares_of hostb)
sup=$(pgrep -P "$PID_sbatchd_hostb" -x "jobsup $r")
kill -9 "$PID_sbatchd_hostb"
wait "$PID_sbatchd_hostb" 2>/dev/null
wait_for gone $old
check "no spare outlives its sbatchd" gone $old
check "the running job does" job_is "$r" RUN
start_daemon sbatchd hostb
wait_for one_spare hostb
wait_for job_is "$r" DONE
check "and ends DONE under the new sbatchd" job_is "$r" DONE
wait_for gone $sup
check "after which its supervisor exits" gone $sup
wait_for test -z "$(ls "$T_DIR/work/c1/sbd/hostb/jobs")"
expect_eq "which holds no other job" "" \
    "$(ls "$T_DIR/work/c1/sbd/hostb/jobs")"
expect_eq "and reports none" "No unfinished job found" "$(bjobs -u all 2>&1)"
finish
