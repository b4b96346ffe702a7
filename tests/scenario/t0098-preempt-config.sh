#!/bin/bash
# The three ways PREEMPTION names what may be preempted (seed 003), on
# a live cluster: PREEMPTIVE[idle+1 low+2] prefers low's jobs even on
# the busier host; PREEMPTIVE[low] preempts only low (idle's job keeps
# its slot and the pending job waits); PREEMPTABLE[top] is preempted by
# top only; no queue preempts its own jobs or a queue of the same
# PRIORITY; a job started with brun is never preempted.
. "$(dirname "$0")/lib.sh"

cluster_init 2
queues "idle 5" \
	"low 10" \
	"res 15 PREEMPTION = PREEMPTABLE[top]" \
	"mid 20 PREEMPTION = PREEMPTIVE[low]" \
	"top 40 PREEMPTION = PREEMPTIVE[idle+1 low+2]" \
	"peer 40 PREEMPTION = PREEMPTIVE"
host_mxj 1
elim_install
set_load hosta "r15s 0.1 r1m 0 it 30"	# hosta the least loaded
set_load hostb "r15s 1.5 r1m 0 it 30"
cluster_start
cd "$T_DIR/jobs"
loaded() {
	lsload -I r15s 2>/dev/null | awk '$1 == "hosta" && $3 == "0.1" { a = 1 }
	    $1 == "hostb" && $3 == "1.5" { b = 1 } END { exit !(a && b) }'
}
wait_for loaded || fail "the ELIM's loads never showed"

run_on() {	# run_on QUEUE HOST: a long job there, started
	local j
	j=$(submit -q "$1" -m "$2" -o /dev/null 'sleep 600')
	wait_for job_is "$j" RUN || fail "$1 job on $2 did not start"
	echo "$j"
}
clean() {
	bkill 0 >/dev/null 2>&1
	wait_for sh -c "[ -z \"\$(bjobs -noheader 2>/dev/null | grep -v 'No unfinished')\" ]" ||
		fail "jobs did not end"
}

# ---- PREEMPTIVE[idle+1 low+2]: low first, though on the busier host.
i=$(run_on idle hosta)
l=$(run_on low hostb)
t=$(submit -q top -o /dev/null 'sleep 600')
check "top preempts" wait_for job_is "$t" RUN
check "the low job, preferred (+2)" job_is "$l" SSUSP
check "not the idle job on the idler host" job_is "$i" RUN
expect_eq "top runs on hostb" hostb "$(exec_host "$t")"

# ---- PREEMPTIVE[low] preempts low only.
bkill "$t" >/dev/null
check "the low job resumes" wait_for job_is "$l" RUN
m=$(submit -q mid -o /dev/null 'sleep 600')
check "mid preempts the low job" wait_for job_is "$m" RUN
check "... and not idle's" job_is "$i" RUN
check "low is SSUSP" job_is "$l" SSUSP
clean
i=$(run_on idle hosta)
i2=$(run_on idle hostb)
m=$(submit -q mid -o /dev/null 'sleep 600')
stays_pending "mid does not preempt idle's jobs" "$m"
check "they run on" sh -c "bjobs -noheader -o stat $i $i2 | grep -c RUN | grep -qx 2"
clean

# ---- PREEMPTABLE[top]: by top only.
r1=$(run_on res hosta)
r2=$(run_on res hostb)
m=$(submit -q mid -o /dev/null 'sleep 600')
stays_pending "mid (higher, not listed) does not preempt res" "$m"
bkill "$m" >/dev/null
t=$(submit -q top -o /dev/null 'sleep 600')
check "top preempts res" wait_for job_is "$t" RUN
check "res's job on the least-loaded host" job_is "$r1" SSUSP
clean

# ---- Own queue and equal priority: never.
t1=$(run_on top hosta)
t2=$(run_on top hostb)
t3=$(submit -q top -o /dev/null 'sleep 600')
stays_pending "top does not preempt its own jobs" "$t3"
p=$(submit -q peer -o /dev/null 'sleep 600')
stays_pending "peer (same PRIORITY, PREEMPTIVE) does not preempt top" "$p"
clean

# ---- brun: never preempted.
badmin hclose hostb >/dev/null
badmin qinact low >/dev/null
f=$(submit -q low -o /dev/null 'sleep 600')
brun -m hosta "$f" >/dev/null
wait_for job_is "$f" RUN || fail "brun did not start the job"
badmin qact low >/dev/null
t=$(submit -q top -o /dev/null 'sleep 600')
stays_pending "top does not preempt a job started with brun" "$t"
check "the forced job runs on" job_is "$f" RUN
clean
badmin hopen hostb >/dev/null
finish
