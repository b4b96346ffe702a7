#!/bin/bash
# Seed 003: "If the suspended job still counts towards the total number
# of jobs allowed in the system, based on the limits imposed in the
# lsb.resources file, suspending the job may not be enough to allow the
# preemptive job to run."  A user group may hold 2 slots (USERS = grp,
# SLOTS = 2) and two low jobs hold them.  Without PREEMPT_FOR a job of
# the PREEMPTIVE high queue waits with the limit's reason and nothing is
# suspended.  With PREEMPT_FOR=GROUP_MAX (badmin reconfig) suspended jobs
# leave the group's count: one low job is preempted (SSUSP, its process
# stopped) and the high job runs; when it ends, the low job resumes.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cat >"$LSB_CONF/lsb.queues" <<EOF2
Begin Queue
QUEUE_NAME = low
PRIORITY = 10
End Queue

Begin Queue
QUEUE_NAME = high
PRIORITY = 50
PREEMPTION = PREEMPTIVE
End Queue
EOF2
cat >"$LSB_CONF/lsb.hosts" <<EOF2
Begin Host
HOST_NAME  MXJ
default    10
End Host
EOF2
cat >"$LSB_CONF/lsb.users" <<EOF2
Begin UserGroup
GROUP_NAME  GROUP_MEMBER
grp         (root)
End UserGroup
EOF2
cat >"$LSB_CONF/lsb.resources" <<EOF2
Begin Limit
NAME  = grp_slots
USERS = grp
SLOTS = 2
End Limit
EOF2
cluster_start
cd "$T_DIR/jobs"

l1=$(submit -q low 'echo $$ >l1.pid; while [ ! -f stop ]; do sleep 0.1; done')
l2=$(submit -q low 'echo $$ >l2.pid; while [ ! -f stop ]; do sleep 0.1; done')
wait_for test -s l2.pid || fail "low jobs did not start"
wait_for test -s l1.pid || fail "low jobs did not start"
pg1=$(sed 's/.*) [A-Za-z] [0-9]* \([0-9]*\).*/\1/' "/proc/$(cat l1.pid)/stat")
pg2=$(sed 's/.*) [A-Za-z] [0-9]* \([0-9]*\).*/\1/' "/proc/$(cat l2.pid)/stat")

h=$(submit -q high 'while [ ! -f hstop ]; do sleep 0.1; done')
wait_for sh -c "bjobs -p $h | grep -q 'has been reached'" ||
	fail "the high job does not wait for the group's limit"
expect_match "without PREEMPT_FOR: the limit's reason" \
	"^ Resource \(slot\) limit defined for the user or user group has been reached;$" \
	"$(bjobs -p "$h")"
sleep 2		# passes that could preempt, and must not
check "no low job is suspended" sh -c "[ \"$(job_stat "$l1") $(job_stat "$l2")\" = 'RUN RUN' ]"
check "the high job still waits" job_is "$h" PEND

sed -i '/^End Parameters/i PREEMPT_FOR = GROUP_MAX' "$LSB_CONF/lsb.params"
badmin reconfig >/dev/null 2>&1 || fail "reconfig failed"
check "with PREEMPT_FOR=GROUP_MAX the high job runs" wait_for job_is "$h" RUN
st="$(job_stat "$l1") $(job_stat "$l2")"
case $st in
"SSUSP RUN") victim=$l1 vpg=$pg1 ;;
"RUN SSUSP") victim=$l2 vpg=$pg2 ;;
*) victim= vpg= ; fail "one low job should be SSUSP, not: $st" ;;
esac
[ -n "$victim" ] && check "the victim's processes are stopped" \
	wait_for pg_is "$vpg" T
expect_match "bjobs -l names the preemptor" \
	"The job was preempted by job <$h>;" "$(bjobs -l "$victim")"
expect_match "blimits: the group holds 2 of 2, the suspended job left out" \
	"grp_slots +grp .* 2/2 " "$(blimits)"
expect_match "blimits -u of a member shows the group's limit" \
	"grp_slots +grp " "$(blimits -u root)"
expect_eq "blimits -u of another user does not" "No resource usage found." \
	"$(blimits -u nobody)"

touch hstop
check "the high job ends" wait_for job_is "$h" DONE
check "the preempted job runs again" wait_for job_is "$victim" RUN
check "its processes run" wait_for pg_runs "$vpg"
touch stop
check "both low jobs complete" wait_for sh -c \
	"[ \"\$(bjobs -noheader -o stat $l1 $l2 | tr '\n' ' ')\" = 'DONE DONE ' ]"
finish
