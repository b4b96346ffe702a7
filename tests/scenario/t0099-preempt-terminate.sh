#!/bin/bash
# TERMINATE_WHEN = PREEMPT: the victim is ended instead of suspended, its
# slot goes to the preemptor at once; a rerunnable victim (bsub -r, or
# RERUNNABLE = yes) goes back to its queue and runs again from the start
# when the slot is free; another ends EXIT with LSF's reason.
. "$(dirname "$0")/lib.sh"

cluster_init 1
queues "low 10 PREEMPTION = PREEMPTABLE; TERMINATE_WHEN = PREEMPT" \
	"rer 10 PREEMPTION = PREEMPTABLE; TERMINATE_WHEN = PREEMPT; RERUNNABLE = yes" \
	"high 50"
host_mxj 1
cluster_start
cd "$T_DIR/jobs"

# Not rerunnable: ended, EXIT.
l=$(submit -q low -o /dev/null 'echo $$ >l.pid; sleep 600')
wait_for test -s l.pid || fail "low job did not start"
lpid=$(cat l.pid)
h=$(submit -q high -o /dev/null 'sleep 600')
check "the preemptor starts" wait_for job_is "$h" RUN
check "the victim ends EXIT" wait_for job_is "$l" EXIT
check "its process is gone" wait_for sh -c "! kill -0 $lpid 2>/dev/null"
expect_match "bjobs -l says why" "job killed after preemption|TERM_PREEMPT" \
	"$(bjobs -l "$l"; bjobs -o 'exit_reason' "$l" 2>/dev/null)"
bkill "$h" >/dev/null
wait_for job_is "$h" EXIT

# Rerunnable by the queue, and by bsub -r: requeued, then run again.
for q in "rer" "low -r"; do
	rm -f r.runs
	r=$(submit -q $q -o /dev/null 'echo run >>r.runs; sleep 600')
	wait_for lines_ge r.runs 1 || fail "$q: the job did not start"
	h=$(submit -q high -o /dev/null 'touch h.stop; while [ -f h.stop ]; do sleep 0.1; done')
	check "$q: the preemptor starts" wait_for job_is "$h" RUN
	check "$q: the victim is back in its queue" wait_for job_is "$r" PEND
	rm -f h.stop
	check "$q: then it runs again from the start" wait_for lines_ge r.runs 2
	check "$q: ... as the same job" job_is "$r" RUN
	bkill "$r" >/dev/null
	wait_for job_is "$r" EXIT
done
finish
