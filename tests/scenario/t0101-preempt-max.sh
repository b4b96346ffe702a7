#!/bin/bash
# MAX_JOB_PREEMPT (seed 003): a job preempted that many times runs to
# completion and is not preempted again; lsb.queues overrides
# lsb.params, lsb.applications overrides lsb.queues; the counts survive
# an mbatchd restart and badmin reconfig.
. "$(dirname "$0")/lib.sh"

cluster_init 1
sed -i 's/^End Parameters/MAX_JOB_PREEMPT = 1\n&/' "$LSB_CONF/lsb.params"
queues "low 10 PREEMPTION = PREEMPTABLE" \
	"low2 10 PREEMPTION = PREEMPTABLE; MAX_JOB_PREEMPT = 2" \
	"high 50"
cat >"$LSB_CONF/lsb.applications" <<EOF2
Begin Application
NAME = three
MAX_JOB_PREEMPT = 3
End Application
EOF2
host_mxj 1
cluster_start
cd "$T_DIR/jobs"

# preempt_once VICTIM: a high job preempts it, ends, and it resumes.
preempt_once() {
	local h
	h=$(submit -q high -o /dev/null 'sleep 1')
	wait_for job_is "$h" RUN || { fail "high job $h did not start"; return; }
	job_is "$1" SSUSP || fail "job $1 was not preempted by $h"
	wait_for job_is "$h" DONE || fail "high job $h did not end"
	wait_for job_is "$1" RUN || fail "job $1 did not resume"
}
# not_again VICTIM: a high job now waits, and the victim runs on.
not_again() {
	local h
	h=$(submit -q high -o /dev/null 'sleep 1')
	wait_for judged "$h" || fail "high job $h never judged"
	check "$2" job_is "$h" PEND
	check "... and job $1 runs on" job_is "$1" RUN
	last_high=$h
}

# ---- lsb.params: once.
l=$(submit -q low -o /dev/null 'sleep 600')
wait_for job_is "$l" RUN
preempt_once "$l"
not_again "$l" "MAX_JOB_PREEMPT = 1 (lsb.params): not a second time"
mbd_restart
wait_for judged "$last_high"
check "after an mbatchd restart, still not" job_is "$last_high" PEND
nrc=$(grep -c 'reconfig: [0-9]* hosts' "$T_DIR/log/mbatchd.log.hosta")
badmin reconfig >/dev/null 2>&1
# It applies in the turn after its answer: wait for its log line, then
# for a pass after it.
wait_for sh -c "[ \$(grep -c 'reconfig: [0-9]* hosts' $T_DIR/log/mbatchd.log.hosta) -gt $nrc ]" ||
	fail "reconfig was not applied"
x=$(submit -q high -o /dev/null 'sleep 1')
wait_for judged "$x"
bkill "$x" >/dev/null
check "after badmin reconfig, still not" job_is "$last_high" PEND
check "the job still runs" job_is "$l" RUN
bkill "$l" >/dev/null
check "then the high job runs" wait_for job_is "$last_high" RUN
bkill "$last_high" >/dev/null
wait_for job_is "$last_high" EXIT

# ---- lsb.queues overrides it: twice.
l=$(submit -q low2 -o /dev/null 'sleep 600')
wait_for job_is "$l" RUN
preempt_once "$l"
preempt_once "$l"
not_again "$l" "MAX_JOB_PREEMPT = 2 (lsb.queues): not a third time"
bkill "$l" "$last_high" >/dev/null
wait_for job_is "$last_high" EXIT

# ---- lsb.applications overrides the queue: three times.
l=$(submit -q low2 -app three -o /dev/null 'sleep 600')
wait_for job_is "$l" RUN
preempt_once "$l"
preempt_once "$l"
preempt_once "$l"
not_again "$l" "MAX_JOB_PREEMPT = 3 (lsb.applications): not a fourth time"
bkill "$l" "$last_high" >/dev/null
finish
