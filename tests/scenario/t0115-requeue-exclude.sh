#!/bin/bash
# REQUEUE_EXIT_VALUES with EXCLUDE(v): a job exiting with 3 is requeued
# and never sent again to the host it exited on.  On two hosts it runs
# once on each, then pends with the host reason of the exclusion (bjobs
# -p) on both.  mbatchd forgets exclusions when it restarts, as LSF
# documents: the job then runs a third time and ends DONE.
. "$(dirname "$0")/lib.sh"

cluster_init 2
queues "normal 30" "rq 40 REQUEUE_EXIT_VALUES = 9 EXCLUDE(3 5)"
cluster_start
cd "$T_DIR/jobs"

j=$(submit -q rq -o /dev/null \
    'echo $LSB_HOSTS >>runs; [ $(wc -l <runs) -ge 3 ] && exit 0; exit 3')
wait_for sh -c "[ \$(wc -l <runs 2>/dev/null || echo 0) -ge 2 ]" ||
    fail "the job did not run twice"
wait_for job_is "$j" PEND || fail "job not pending after two runs"
hosts=$(sort runs | tr '\n' ' ')
expect_eq "one run on each host" "hosta hostb " "$hosts"
# Once its requeue back-off (lsb.queues(5)) has passed.
excluded() { bjobs -p "$j" | grep -q "EXCLUDE requeue exit value: 2 hosts"; }
wait_for excluded
r=$(bjobs -p "$j" | sed -n '3,$p')
expect_match "both hosts excluded" \
    "Job exited on this host with an EXCLUDE requeue exit value: 2 hosts" "$r"
stays_pending "no third run while both are excluded" "$j"
expect_eq "still two runs" 2 "$(wc -l <runs)"

# A restart forgets the exclusions.
mbd_restart
wait_for job_is "$j" DONE || fail "job did not run again after restart"
expect_eq "three runs" 3 "$(wc -l <runs)"
finish
