#!/bin/bash
# lsb.resources: a per-user SLOTS limit in one queue.  Each user's jobs
# in that queue hold at most 2 slots; the third waits with LSF's reason
# for a user's limit in bjobs -p, while another user's job and the same
# user's job in another queue run.  When one job ends the waiting one
# starts.  The vertical (table) form of a Limit section adds a JOBS limit
# for the short queue.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cat >"$LSB_CONF/lsb.hosts" <<EOF2
Begin Host
HOST_NAME  MXJ
default    10
End Host
EOF2
cat >"$LSB_CONF/lsb.resources" <<EOF2
Begin Limit
NAME     = user_normal
PER_USER = all
QUEUES   = normal
SLOTS    = 2
End Limit

Begin Limit
NAME        QUEUES    JOBS
short_jobs  short     1
End Limit
EOF2
cluster_start
cd "$T_DIR/jobs"

j1=$(submit -q normal 'while [ ! -f stop1 ]; do sleep 0.1; done')
j2=$(submit -q normal 'while [ ! -f stop2 ]; do sleep 0.1; done')
j3=$(submit -q normal 'sleep 1000')
wait_for job_is "$j2" RUN || fail "the first two jobs did not start"
check "the first job runs" job_is "$j1" RUN
wait_for sh -c "bjobs -p $j3 | grep -q 'has been reached'" ||
	fail "no limit reason for the third job"
check "the third job waits" job_is "$j3" PEND
expect_match "bjobs -p gives the user limit's reason" \
	"^ Resource \(slot\) limit defined for the user or user group has been reached;$" \
	"$(bjobs -p "$j3")"

n1=$(as_nobody bsub -q normal 'sleep 1000' | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
check "another user's job in the queue runs" wait_for job_is "$n1" RUN
s1=$(submit -q short 'sleep 1000')
check "the user's job in another queue runs" wait_for job_is "$s1" RUN
s2=$(submit -q short 'sleep 1000')
wait_for sh -c "bjobs -p $s2 | grep -q 'has been reached'" ||
	fail "no limit reason for the second short job"
expect_match "a JOBS limit on a queue (table form) gives the queue's reason" \
	"^ Resource \(jobs\) limit defined on queue has been reached;$" \
	"$(bjobs -p "$s2")"

touch stop1
check "the first job ends" wait_for job_is "$j1" DONE
check "then the waiting job starts" wait_for job_is "$j3" RUN
check "the second short job still waits" job_is "$s2" PEND
finish
