#!/bin/bash
# Workload 11: preemption latency (issue 21).
#
# One host with one slot (MXJ 1) and two queues: low (PRIORITY 10,
# PREEMPTION = PREEMPTABLE) and high (PRIORITY 50, PREEMPTION =
# PREEMPTIVE).  A long job runs in low: `exec sleep`, so its process is
# the job's and its pid is known.  tools/statewatch.c polls that
# process's /proc/PID/stat every 0.5 ms for the whole run and logs the
# wall-clock time of every entry into and exit from state T.  Each
# sample, after a random pause of 50-1,050 ms (so that samples fall at
# every phase of the daemons' one-second timers, ours and Slurm's; a
# short pause keeps them in step with the timer that resumed the victim
# the sample before): the time is taken just before bsub runs, as
# workload 5 does, and a job is submitted to high whose first act is to
# write its start time (tools/stamp, as in workload 5).  The sample is
#
#	preempt		stamp - time before bsub: submission to the
#			preemptor's process running, a victim suspended
#			first
#	victim_stop	the victim's entry into T - time before bsub
#
# The preemptor then runs until the script has seen the victim stopped:
# tools/stamp, after writing its time, waits for a file (HOLD) that the
# script makes then.  (Exiting at once, it held the victim stopped for
# 1-2 ms, which a watch every 0.5 ms missed now and then with both
# cores busy.)  Then the sample waits until the victim has been resumed
# (its process out of T and bjobs says RUN) and the high queue is
# empty.  N = 200 at BENCH_SCALE 1 (at least 10); a warm-up sample
# before them is not counted.  Every sample goes to
# $BENCH_OUT/w11_latency.tsv: sample, preempt ms, victim_stop ms, and,
# shown but not results, resume (the victim out of T for the last time
# in the sample, ms after the preemptor was let go) and how many times
# the victim was stopped in the sample (1 unless it was resumed and
# stopped again; any other count is said).
#
#	RESULT|w11.preempt_pNN_ms / preempt_max_ms	(NN = 50, 90, 99)
#	RESULT|w11.victim_stop_pNN_ms / victim_stop_max_ms
#
# Slurm's side is bench/peers/slurm.sh's workload 11, measured alike.
#
# W11_STANDIN=1 checks the harness on a build without preemption: MXJ 2
# (the high job starts at once) and the script itself stops the victim
# (bstop) just after bsub and resumes it (bresume) once the high job has
# ended; its figures are bstop's, not preemption's, and are not printed
# as results.
. "$(dirname "$0")/lib.sh"

N=$(scaled 200 10)
STAMP=$(need_tool stamp)
LAT=$BENCH_OUT/w11_latency.tsv
STANDIN=${W11_STANDIN:-}

job_stat() {
	bjobs -noheader -o stat "$1" 2>/dev/null
}
job_is() {
	[ "$(job_stat "$1")" = "$2" ]
}

pct() {
	pct_col "$1" "$2" "$LAT"
}

bench_init 1 "$([ -n "$STANDIN" ] && echo 2 || echo 1)"
sed -i 's/^DEFAULT_QUEUE = .*/DEFAULT_QUEUE = low/' "$LSB_CONF/lsb.params"
cat >"$LSB_CONF/lsb.queues" <<EOF
Begin Queue
QUEUE_NAME = low
PRIORITY = 10
PREEMPTION = PREEMPTABLE
DESCRIPTION = The victims.
End Queue

Begin Queue
QUEUE_NAME = high
PRIORITY = 50
PREEMPTION = PREEMPTIVE
DESCRIPTION = The preemptors.
End Queue
EOF
bench_start
# Warm the commands' and daemons' paths, as workload 5 does.
bsub -q high -o /dev/null /bin/true >/dev/null
wait_queue_empty high 30 || { say "warm-up job did not end"; exit 1; }

low=$(submit -q low -o /dev/null \
    "echo \$\$ >$B_DIR/out/victim.pid; exec sleep 1000000") ||
    { say "bsub failed"; exit 1; }
wait_for job_is "$low" RUN || { say "job $low did not start"; exit 1; }
wait_for test -s "$B_DIR/out/victim.pid" || { say "no pid of job $low"
    exit 1; }
vpid=$(cat "$B_DIR/out/victim.pid")
wlog_start "$vpid" "$B_DIR/out/watch" || { say "the watch on pid $vpid" \
    "did not start"; exit 1; }
B_PIDS="$B_PIDS $WLOG_PID"

mkdir -p "$BENCH_OUT"
: >"$LAT"
say "$N samples (and one warm-up): job $low (pid $vpid) in low," \
    "a job to high each time${STANDIN:+ (STAND-IN: bstop/bresume by" \
    "hand, MXJ 2)}"
extra=0
for ((i = 0; i <= N; i++)); do
	f="$B_DIR/out/start.$i"
	h="$B_DIR/out/hold.$i"
	random_pause 50 1000
	wlog_count
	n0=$WL_N
	now_us t0
	bsub -q high -o /dev/null "$STAMP" "$f" "$h" >/dev/null 2>&1 ||
	    { say "bsub failed"; exit 1; }
	[ -n "$STANDIN" ] && bstop "$low" >/dev/null 2>&1
	deadline=$(( $(now_s) + 30 ))
	while [ ! -s "$f" ]; do
		if [ "$(now_s)" -ge "$deadline" ]; then
			say "sample $i: the high job did not start in 30 s" \
			    "(job $low is $(job_stat "$low")): no preemption?"
			exit 1
		fi
		nap 0.002
	done
	# The preemptor runs until it is let go (tools/stamp's HOLD): a
	# victim stopped for a millisecond or two is not missed.
	wlog_first "$n0" T 10 || { say "sample $i: job $low's process" \
	    "was not stopped while the high job ran (low $(job_stat "$low")," \
	    "high $(bjobs -noheader -o stat -q high 2>/dev/null))"; exit 1; }
	stop=$WL_SECS
	read -r start <"$f"
	now_us t1
	: >"$h"
	wait_queue_empty high 30 || { say "sample $i: high job did not end"
	    exit 1; }
	[ -n "$STANDIN" ] && bresume "$low" >/dev/null 2>&1
	wlog_last R 30 ||
	    { say "sample $i: job $low's process was not resumed"; exit 1; }
	resume=$WL_SECS
	wait_for job_is "$low" RUN || { say "sample $i: job $low is" \
	    "$(job_stat "$low"), not RUN"; exit 1; }
	# Stopped more than once in a sample: said, and counted.
	stops=$(wlog_stops "$n0")
	[ "$stops" -ne 1 ] && { say "sample $i: job $low's process was" \
	    "stopped $stops times"; extra=$((extra + 1)); }
	[ "$i" -eq 0 ] && continue
	printf '%d\t%s\t%s\t%s\t%s\n' "$i" "$(ms_since "$t0" "$start")" \
	    "$(ms_since "$t0" "$stop")" "$(ms_since "$t1" "$resume")" \
	    "$stops" >>"$LAT"
done
[ "$(wc -l <"$LAT")" = "$N" ] || { say "lost samples"; exit 1; }
if [ -n "$STANDIN" ]; then
	say "STAND-IN (no preemption; bstop by hand): start p50" \
	    "$(pct 0.5 2) max $(pct 1 2) ms, stopped p50 $(pct 0.5 3)" \
	    "max $(pct 1 3) ms; not results"
	exit 0
fi
for p in 50 90 99; do
	result "w11.preempt_p${p}_ms" "$(pct 0.$p 2)" ms
done
result w11.preempt_max_ms "$(pct 1 2)" ms
for p in 50 90 99; do
	result "w11.victim_stop_p${p}_ms" "$(pct 0.$p 3)" ms
done
result w11.victim_stop_max_ms "$(pct 1 3)" ms
say "resumed after the preemptor was let go: p50 $(pct 0.5 4), max $(pct 1 4)" \
    "ms; samples where the victim was stopped more than once: $extra"
