#!/bin/bash
# An mbatchd restart (kill -9) in the middle of preemption changes no
# decision: killed as soon as the preemption is in lsb.events, the new
# mbatchd has the victim SSUSP (its processes stopped), the preemptor
# running once, and logs no second preemption; killed again while the
# victim waits, it keeps waiting; when the preemptor ends it resumes and
# completes.
. "$(dirname "$0")/lib.sh"

cluster_init 1
queues "low 10" \
	"high 50 PREEMPTION = PREEMPTIVE"
host_mxj 1
cluster_start
cd "$T_DIR/jobs"
ev=$T_DIR/work/c1/logdir/lsb.events

l=$(submit -q low -o /dev/null 'echo $$ >l.pid; i=0; while [ ! -f l.stop ]; do i=$((i+1)); echo $i >l.count; sleep 0.1; done')
wait_for test -s l.pid || fail "low job did not start"
lpg=$(pgid_of l.pid)
h=$(submit -q high -o /dev/null 'echo run >>h.runs; while [ ! -f h.stop ]; do sleep 0.1; done')
precs() { grep -c "^\"JOB_STATUS\" \"[^\"]*\" [0-9]* $l 8 8 $h " "$ev"; }
wait_for sh -c "grep -q '^\"JOB_STATUS\" \"[^\"]*\" [0-9]* $l 8 8 $h ' $ev" ||
	fail "no preemption record"
mbd_restart
check "the victim is SSUSP after the restart" wait_for job_is "$l" SSUSP
check "the preemptor runs" wait_for job_is "$h" RUN
check "the victim's processes are stopped" wait_for pg_is "$lpg" T
expect_match "bjobs -l still names the preemptor" \
	"The job was preempted by job <$h>;" "$(bjobs -l "$l")"
wait_for lines_ge h.runs 1
expect_eq "the preemptor ran once" 1 "$(lines h.runs)"
expect_eq "one preemption in lsb.events" 1 "$(precs)"

mbd_restart
wait_for job_is "$h" RUN || fail "the preemptor is not RUN after a second restart"
check "the victim still waits" job_is "$l" SSUSP
check "... stopped" pg_is "$lpg" T
expect_eq "still one preemption" 1 "$(precs)"

touch h.stop
check "the preemptor ends" wait_for job_is "$h" DONE
check "the victim resumes" wait_for job_is "$l" RUN
check "its processes run" wait_for pg_runs "$lpg"
c=$(cat l.count)
wait_for sh -c "[ \$(cat l.count) -gt $c ]" || fail "its count did not grow"
touch l.stop
check "the victim completes" wait_for job_is "$l" DONE
expect_eq "the preemptor still ran once" 1 "$(lines h.runs)"
finish
