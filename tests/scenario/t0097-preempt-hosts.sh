#!/bin/bash
# Preemption across hosts (seed 003): a job needing several slots
# preempts as many jobs as it needs and no more, taking them from the
# least-loaded hosts (loads set exactly by an ELIM); a preempted job is
# resumed as soon as a slot is free on its host, while its preemptor
# still runs; a PREEMPTABLE queue's jobs are preempted by a higher queue
# that is not itself PREEMPTIVE; nothing is preempted for a job that
# could not run anyway.
. "$(dirname "$0")/lib.sh"

cluster_init 3
queues "low 10 PREEMPTION = PREEMPTABLE" \
	"mid 20" \
	"high 50"
elim_install
# hostc the least loaded, then hostb, then hosta.
set_load hosta "r15s 1.5 r1m 0 it 30"
set_load hostb "r15s 0.8 r1m 0 it 30"
set_load hostc "r15s 0.1 r1m 0 it 30"
cluster_start
cd "$T_DIR/jobs"
wait_for sh -c "lsload -I r15s hosta | awk 'NR == 2 && \$3 == \"1.5\" { ok = 1 } END { exit !ok }'" ||
	fail "hosta's load never showed"

# Two low jobs on each host (MXJ 2): each writes its pid.
declare -A on
for h in hosta hostb hostc; do
	for k in 1 2; do
		j=$(submit -q low -m $h -o /dev/null "echo \$\$ >$h.$k.pid; sleep 600")
		on[$j]=$h
	done
done
for j in "${!on[@]}"; do wait_for job_is "$j" RUN || fail "job $j did not start"; done
for h in hosta hostb hostc; do
	for k in 1 2; do wait_for test -s $h.$k.pid; done
done

# A 3-slot job of a higher queue (not PREEMPTIVE; low is PREEMPTABLE).
big=$(submit -q high -n 3 -o /dev/null 'sleep 600')
wait_for job_is "$big" RUN || fail "the 3-slot job did not start"
susp=""
for j in "${!on[@]}"; do job_is "$j" SSUSP && susp="$susp ${on[$j]}"; done
expect_eq "three jobs preempted: both on hostc, one on hostb" \
	"hostb hostc hostc" "$(echo $susp | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')"
expect_eq "the job runs where they were" "2*hostc:hostb" \
	"$(exec_host "$big")"
for k in 1 2; do
	check "hostc job $k is stopped (T)" wait_for pg_is "$(pgid_of hostc.$k.pid)" T
done
for k in 1 2; do
	check "hosta job $k still runs" pg_runs "$(pgid_of hosta.$k.pid)"
done

# On hostb one low job runs, one is preempted: end the running one.
for j in "${!on[@]}"; do
	[ "${on[$j]}" = hostb ] || continue
	if job_is "$j" RUN; then brun_b=$j; else susp_b=$j; fi
done
bkill "$brun_b" >/dev/null
check "the preempted hostb job resumes while its preemptor runs" \
	wait_for job_is "$susp_b" RUN
check "its preemptor still runs" job_is "$big" RUN
n=0
for j in "${!on[@]}"; do
	[ "${on[$j]}" = hostc ] && job_is "$j" SSUSP && n=$((n + 1))
done
expect_eq "the hostc jobs stay preempted" 2 "$n"

# A job that cannot run even with every slot (7 > 6) preempts nothing.
huge=$(submit -q high -n 7 -o /dev/null 'sleep 1')
stays_pending "the 7-slot job pends" "$huge"
n=0
for j in "${!on[@]}"; do job_is "$j" SSUSP && n=$((n + 1)); done
expect_eq "no more jobs preempted" 2 "$n"
bkill "$huge" >/dev/null

# mid (not PREEMPTIVE) takes the slot of a PREEMPTABLE low job: the
# one on hostb, less loaded than hosta, preempted a second time.
m=$(submit -q mid -o /dev/null 'sleep 600')
check "a mid job starts by preemption" wait_for job_is "$m" RUN
expect_eq "on hostb" hostb "$(exec_host "$m")"
check "the hostb job is preempted again" job_is "$susp_b" SSUSP
expect_match "it names the mid job as its preemptor" \
	"The job was preempted by job <$m>;" "$(bjobs -l "$susp_b")"
for k in 1 2; do
	check "hosta job $k still runs" pg_runs "$(pgid_of hosta.$k.pid)"
done
bkill 0 >/dev/null 2>&1
finish
