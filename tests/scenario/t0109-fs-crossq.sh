#!/bin/bash
# Cross-queue fairshare (issue 22): q1 has FAIRSHARE and FAIRSHARE_QUEUES
# = q2 (on hosta), q3 has FAIRSHARE and QUEUE_GROUP = q4 (on hostb); q2
# and q4 have none.  Each pair is one share tree, so slots held in one
# queue of it count in the other:
#  - root holds 3 of hosta's 4 slots in q1; in q2, root's job, submitted
#    first, waits and daemon's takes the last slot (1/4 < 1/1 with equal
#    shares; by submission root's would go first);
#  - the other way round on hostb: daemon holds 3 slots in q4; in q3,
#    root's job goes before daemon's, which was submitted first.
. "$(dirname "$0")/lib.sh"
need_root

cluster_init 2
queues "q1 30 FAIRSHARE = USER_SHARES[[root, 1] [daemon, 1]]; \
HOSTS = hosta; FAIRSHARE_QUEUES = q2" \
	"q2 20 HOSTS = hosta" \
	"q3 30 FAIRSHARE = USER_SHARES[[daemon, 1] [root, 1]]; \
HOSTS = hostb; QUEUE_GROUP = q4" \
	"q4 20 HOSTS = hostb"
sed -i 's/^End Parameters/CPU_TIME_FACTOR = 0\nRUN_TIME_FACTOR = 0\n&/' \
	"$LSB_CONF/lsb.params"
host_mxj 4
cluster_start
cd "$T_DIR/jobs"

dsub() {
	as_user daemon bsub -o /dev/null "$@" |
	    sed -n 's/^Job <\([0-9]*\)>.*/\1/p'
}
nrun() {
	[ "$(bjobs -u all -r -noheader -q "$1" 2>/dev/null | wc -l)" -eq "$2" ]
}

dump=$(badmin statedump)
expect_match "FAIRSHARE_QUEUES: one tree for q1 and q2" \
	"^fstree queue/q1 queues=q1,q2$" "$dump"
expect_match "QUEUE_GROUP: one tree for q3 and q4" \
	"^fstree queue/q3 queues=q3,q4$" "$dump"

submit -q q1 -J "r[1-3]" -o /dev/null sleep 300 >/dev/null
dsub -q q4 -J "d[1-3]" sleep 300 >/dev/null
wait_for nrun q1 3 || fail "root's jobs in q1 did not start"
wait_for nrun q4 3 || fail "daemon's jobs in q4 did not start"

badmin qinact q2 >/dev/null
badmin qinact q3 >/dev/null
r2=$(submit -q q2 -o /dev/null sleep 300)
d2=$(dsub -q q2 sleep 300)
d3=$(dsub -q q3 sleep 300)
r3=$(submit -q q3 -o /dev/null sleep 300)
badmin qact q2 >/dev/null
badmin qact q3 >/dev/null

check "q2: daemon's job takes hosta's last slot" wait_for job_is "$d2" RUN
check "q2: root's, with 3 slots in q1, waits" job_is "$r2" PEND
check "q3: root's job takes hostb's last slot" wait_for job_is "$r3" RUN
check "q3: daemon's, with 3 slots in q4, waits" job_is "$d3" PEND
dump=$(badmin statedump)
expect_match "q1's tree: root has 3 slots in q1, 1 job pending in q2" \
	"^fs root/ shares=1 leaf=1 .* slots=3 .* q2=$r2\[0\]" "$dump"
bkill -u all 0 >/dev/null 2>&1
finish
