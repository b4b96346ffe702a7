#!/bin/bash
# A host lost while jobs run on it (its sbatchd and LIM killed): its jobs
# are UNKWN while it is in doubt; after MAX_SBD_FAIL probes the rerunnable
# one runs again elsewhere with LSB_RESTART=Y, the other ends EXIT
# (TERM_ZOMBIE), both owners are mailed, other jobs are untouched.  When
# the host comes back its old processes are killed, never left running
# beside the new run.  A host back before MAX_SBD_FAIL keeps its jobs.
. "$(dirname "$0")/lib.sh"

cluster_init 3
sed -i 's/^End Parameters/MAX_SBD_FAIL = 4\nEnd Parameters/' \
    "$LSB_CONF/lsb.params"
mail_capture
cluster_start
cd "$T_DIR/jobs"

alive() { kill -0 "$1" 2>/dev/null; }
dead() { ! kill -0 "$1" 2>/dev/null; }

# The two jobs of hostb start there, hostc's job there; hosta stays
# closed until hostb is back, so the rerun waits for it.
badmin hclose hosta hostc >/dev/null
r=$(submit -r -o /dev/null 'env >>r.env; echo $$ >>r.pids; exec sleep 300')
n=$(submit -o /dev/null 'echo $$ >n.pid; exec sleep 300')
wait_for job_is "$r" RUN
wait_for job_is "$n" RUN
badmin hopen hostc >/dev/null
c=$(submit -m hostc -o /dev/null 'echo $$ >c.pid; exec sleep 300')
p=$(submit -H -o /dev/null true)
wait_for job_is "$c" RUN
badmin hclose hostc >/dev/null
q=$(submit -m hostc -o /dev/null true)
wait_for sh -c '[ -s c.pid ] && [ -s n.pid ] && [ -s r.pids ]'
expect_eq "both jobs run on hostb" "hostb hostb" \
    "$(exec_host "$r") $(exec_host "$n")"
rpid1=$(head -n 1 r.pids)
npid=$(cat n.pid)
cpid=$(cat c.pid)

kill -9 "$PID_sbatchd_hostb" "$PID_lim_hostb"
wait "$PID_sbatchd_hostb" "$PID_lim_hostb" 2>/dev/null
wait_for job_is "$n" UNKWN
check "a job of a host in doubt is UNKWN" job_is "$n" UNKWN
expect_match "bjobs -sum counts it as UNKNOWN" '^1 +0 +0 +2 +1 +0 +1 *$' \
    "$(bjobs -sum | sed -n 2p)"
check "a job elsewhere is still RUN" job_is "$c" RUN

wait_for job_is "$n" EXIT
check "the job that is not rerunnable ends EXIT" job_is "$n" EXIT
expect_match "with TERM_ZOMBIE" '^TERM_ZOMBIE' \
    "$(bjobs -noheader -o exit_reason "$n")"
expect_match "bjobs -l says why" 'Completed <exit>; TERM_ZOMBIE: job exited while LSF is not' \
    "$(bjobs -l "$n")"
wait_for job_is "$r" PEND
check "the rerunnable job is PEND again" job_is "$r" PEND
expect_eq "at the head of its queue" "$r $p $q" "$(pend_order normal)"
check "the job on hostc is untouched" job_is "$c" RUN
check "its process too" alive "$cpid"
check "the pending job stays pending" job_is "$q" PEND
check "the held job stays held" job_is "$p" PSUSP
wait_for sh -c "[ \$(ls '$MAILDIR' | wc -l) -ge 2 ]"
expect_match "the owner of the lost job is mailed" \
    "Subject: Job $n: .* Exited" "$(cat "$MAILDIR"/*)"
expect_match "the owner of the rerun job is mailed" \
    "Subject: Job $r: .* Requeued" "$(cat "$MAILDIR"/*)"

fates() {
	bjobs -a -noheader -o 'jobid stat exec_host exit_reason' \
	    "$r" "$n" "$c" "$p" "$q"
}
before=$(fates)
mbd_restart
expect_eq "a restarted mbatchd replays the same fates" "$before" "$(fates)"

# hostb comes back (closed, so that the rerun goes elsewhere) with both
# old processes still running: they are killed, and the jobs' fates stay
# as settled.
check "the old processes outlived their host's daemons" \
    sh -c "kill -0 $rpid1 && kill -0 $npid"
badmin hclose hostb >/dev/null
start_daemon lim hostb
start_daemon sbatchd hostb
wait_for dead "$rpid1"
check "the first run of the requeued job is killed" dead "$rpid1"
wait_for dead "$npid"
check "the lost job's process is killed" dead "$npid"
check "the requeued job is still PEND" job_is "$r" PEND
check "the lost job is still EXIT" job_is "$n" EXIT

badmin hopen hosta >/dev/null
wait_for sh -c "[ \$(wc -l <r.pids) -eq 2 ]"
wait_for job_is "$r" RUN
check "the rerunnable job runs again" job_is "$r" RUN
expect_eq "on another host" hosta "$(exec_host "$r")"
expect_eq "with LSB_RESTART=Y on its second run only" 1 \
    "$(grep -c '^LSB_RESTART=Y$' r.env)"
expect_eq "same job ID both times" "LSB_JOBID=$r LSB_JOBID=$r" \
    "$(grep '^LSB_JOBID=' r.env | tr '\n' ' ' | sed 's/ $//')"
check "its second run lives" alive "$(sed -n 2p r.pids)"
check "the first is still gone" dead "$rpid1"

# A host back before MAX_SBD_FAIL probes: UNKWN, then RUN again.
kill -9 "$PID_sbatchd_hostc" "$PID_lim_hostc"
wait "$PID_sbatchd_hostc" "$PID_lim_hostc" 2>/dev/null
wait_for job_is "$c" UNKWN
check "hostc's job is UNKWN" job_is "$c" UNKWN
start_daemon lim hostc
start_daemon sbatchd hostc
wait_for job_is "$c" RUN
check "and RUN again when its daemons are back" job_is "$c" RUN
check "the same process" alive "$cpid"
sleep 5
check "still RUN after MAX_SBD_FAIL probes' time" job_is "$c" RUN
bkill "$r" "$c" "$q" >/dev/null
finish
