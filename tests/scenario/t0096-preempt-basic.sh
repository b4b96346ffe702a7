#!/bin/bash
# Seed 003's first sentences on a live cluster: a long job of a low
# queue runs on the only slot; a job of a higher PREEMPTIVE queue
# suspends it (SSUSP, its process stopped, LSF's reason naming the
# preemptor in bjobs -l), starts at once in its slot, and when the
# preemptor ends the preempted job runs again and completes.  The
# preemption and the resumption are in lsb.events (JOB_STATUS with
# reason SUSP_PREEMPTED) and bhosts counts the slot once.
. "$(dirname "$0")/lib.sh"

cluster_init 1
queues "low 10" \
	"high 50 PREEMPTION = PREEMPTIVE"
host_mxj 1
cluster_start
cd "$T_DIR/jobs"

# A job that counts while it runs, until low.stop appears.
low=$(submit -q low -o low.out 'echo $$ >low.pid; i=0; while [ ! -f low.stop ]; do i=$((i+1)); echo $i > low.count; sleep 0.1; done')
wait_for test -s low.pid || fail "low job did not start"
lpgid=$(pgid_of low.pid)

high=$(submit -q high -o high.out 'while [ ! -f high.stop ]; do sleep 0.1; done')
wait_for job_is "$high" RUN || fail "high job did not start by preemption"
check "the low job is SSUSP" job_is "$low" SSUSP
check "its processes are stopped (T)" wait_for pg_is "$lpgid" T
out=$(bjobs -l "$low")
expect_match "bjobs -l names the preemptor" \
	"The job was preempted by job <$high>;" "$out"
expect_eq "both on hosta" "hosta hosta" \
	"$(exec_host "$low") $(exec_host "$high")"
expect_eq "bhosts: MAX 1, NJOBS 2, RUN 1, SSUSP 1" "1 2 1 1" \
	"$(bhosts hosta | awk 'NR == 2 { print $4, $5, $6, $7 }')"
ev=$T_DIR/work/c1/logdir/lsb.events
expect_match "lsb.events has the preemption" \
	"^\"JOB_STATUS\" \"[^\"]*\" [0-9]+ $low 8 8 $high " "$(cat "$ev")"

# A second low job waits: the preempted one comes first.
low2=$(submit -q low -o /dev/null 'sleep 1')
touch high.stop
wait_for job_is "$high" DONE || fail "high job did not end"
check "the preempted job runs again" wait_for job_is "$low" RUN
check "its processes run" wait_for pg_runs "$lpgid"
check "the later low job still waits" job_is "$low2" PEND
c1=$(cat low.count)
wait_for sh -c "[ \$(cat low.count) -gt $c1 ]" || fail "low job's count did not grow"
touch low.stop
check "the preempted job completes DONE" wait_for job_is "$low" DONE
check "then the other low job runs" wait_for job_is "$low2" DONE
finish
