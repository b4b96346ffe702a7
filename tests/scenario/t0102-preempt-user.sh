#!/bin/bash
# While preemption is configured a suspended job does not count against
# its user's own job slot limit (MAX_JOBS in lsb.users, LSF-REFERENCE
# §4.5): a user at the limit whose job of a higher queue is pending
# preempts the user's own lower job, even where host slots are free, and
# the preempted job resumes when the high one ends.  A job its user
# stopped (USUSP) leaves the limit free too.
. "$(dirname "$0")/lib.sh"
need_root

cluster_init 1
queues "low 10 PREEMPTION = PREEMPTABLE" \
	"high 50"
host_mxj 4
sed -i 's/^End Parameters/PREEMPT_FOR = GROUP_MAX\n&/' "$LSB_CONF/lsb.params"
cat >"$LSB_CONF/lsb.users" <<EOF2
Begin User
USER_NAME  MAX_JOBS
default    1
End User
EOF2
cluster_start
cd "$T_DIR/jobs"

l=$(submit -q low -o /dev/null 'sleep 600')
wait_for job_is "$l" RUN || fail "low job did not start"
h=$(submit -q high -o /dev/null 'touch h.go; while [ -f h.go ]; do sleep 0.1; done')
check "the user's high job starts" wait_for job_is "$h" RUN
check "by preempting the user's low job" job_is "$l" SSUSP
expect_match "which names it" "The job was preempted by job <$h>;" \
	"$(bjobs -l "$l")"
rm -f h.go
check "the high job ends" wait_for job_is "$h" DONE
check "the low job resumes" wait_for job_is "$l" RUN
bkill "$l" >/dev/null
wait_for job_is "$l" EXIT

# A bstopped (USUSP) job does not count either: another job starts.
a=$(submit -q low -o /dev/null 'sleep 600')
wait_for job_is "$a" RUN
bstop "$a" >/dev/null
wait_for job_is "$a" USUSP
b=$(submit -q low -o /dev/null 'touch b.go; while [ -f b.go ]; do sleep 0.1; done')
check "a stopped job leaves the user's limit free" wait_for job_is "$b" RUN
# bresumed, it waits (SSUSP) while the user is at the limit.
bresume "$a" >/dev/null
wait_for job_is "$a" SSUSP || fail "the bresumed job is not SSUSP"
waits() {
	badmin statedump | grep -q "^job $a\\[0\\] status=0x8 .* susp=3/"
}
wait_for waits
# Another user's job starts and ends: passes came and went.
x=$(as_nobody bsub -q low -o /dev/null true | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
wait_for job_is "$x" DONE || fail "another user's job did not run"

check "it waits while its user is at the limit" job_is "$a" SSUSP
rm -f b.go
check "then it runs" wait_for job_is "$a" RUN
bkill 0 >/dev/null 2>&1
expect_match "bparams -l shows PREEMPT_FOR" \
	$'Limits that leave suspended jobs out, and how victims are chosen:\n    PREEMPT_FOR = GROUP_MAX\n' "$(bparams -l)"
finish
