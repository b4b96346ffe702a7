#!/bin/bash
# NEW_JOB_SCHED_DELAY (lsb.queues, issue 35): a job of a queue with a
# delay of 3 s is not scheduled before 3 s after its submission, and
# pends meanwhile with "New job is waiting for scheduling"; a job of a
# queue without one, submitted after it, starts at once.
. "$(dirname "$0")/lib.sh"

cluster_init 1
host_mxj 4
queues "slow 30 NEW_JOB_SCHED_DELAY = 3" "fast 30"
cluster_start
cd "$T_DIR/jobs"

t0=$(date +%s)
s=$(submit -q slow -o /dev/null sleep 300)
f=$(submit -q fast -o /dev/null sleep 300)
check "the queue without a delay starts its job at once" \
	wait_for job_is "$f" RUN
# A pass has run since both were submitted: the delayed job waits.
check "the delayed job still pends" job_is "$s" PEND
expect_match "bjobs -p: its reason" "New job is waiting for scheduling" \
	"$(bjobs -p "$s" 2>&1)"
check "it starts once its delay is over" wait_for job_is "$s" RUN
t1=$(date +%s)
check "not before 3 s after its submission" test $((t1 - t0)) -ge 3

# A value that is no number of seconds is an error naming its line.
sed -i 's/^NEW_JOB_SCHED_DELAY = 3$/NEW_JOB_SCHED_DELAY = soon/' \
	"$LSB_CONF/lsb.queues"
expect_match "badmin ckconfig: a bad NEW_JOB_SCHED_DELAY, with its line" \
	"lsb.queues:[0-9]*:.*NEW_JOB_SCHED_DELAY" "$(badmin ckconfig 2>&1)"
bkill -u all 0 >/dev/null 2>&1
finish
