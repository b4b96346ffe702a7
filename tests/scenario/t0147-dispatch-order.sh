#!/bin/bash
# DISPATCH_ORDER = QUEUE (lsb.queues, issue 35): in an ordered
# cross-queue fairshare set (q1 the master at priority 30 with
# FAIRSHARE_QUEUES = q2 at 20) jobs go by queue priority first, then by
# user priority.  root holds a slot in q1, so daemon's dynamic priority
# is the higher (1/3 against 1/6); yet when the last slot frees, root's
# job of q1 starts before daemon's of q2.  bqueues -l shows the key in
# the master.
. "$(dirname "$0")/lib.sh"
need_root

cluster_init 1
queues "q1 30 FAIRSHARE = USER_SHARES[[root, 1] [daemon, 1]]; \
FAIRSHARE_QUEUES = q2; DISPATCH_ORDER = QUEUE" \
	"q2 20" \
	"other 10"
params CPU_TIME_FACTOR=0 RUN_TIME_FACTOR=0
host_mxj 2
cluster_start
cd "$T_DIR/jobs"

dsub() {
	as_user daemon bsub -o /dev/null "$@" |
	    sed -n 's/^Job <\([0-9]*\)>.*/\1/p'
}

expect_match "bqueues -l: the master shows DISPATCH_ORDER" \
	"DISPATCH_ORDER:  QUEUE" "$(bqueues -l q1)"
hold=$(submit -q q1 -o /dev/null sleep 300)
block=$(submit -q other -o /dev/null sleep 300)
check "root's first job runs" wait_for job_is "$hold" RUN
check "the blocker runs" wait_for job_is "$block" RUN
b=$(dsub -q q2 sleep 300)
a=$(submit -q q1 -o /dev/null sleep 300)
stays_pending "daemon's job waits for a slot" "$b"
bkill "$block" >/dev/null
check "root's job of the higher queue takes the slot" \
	wait_for job_is "$a" RUN
check "daemon's, of the higher user priority but the lower queue, waits" \
	job_is "$b" PEND
bkill -u all 0 >/dev/null 2>&1
finish
