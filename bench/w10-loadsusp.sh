#!/bin/bash
# Workload 10: load-based suspension (issue 20).
#
# Latency: one host, a queue with r1m = 0.5/1.0 (per CPU, as thresholds
# compare), two jobs running (the later started is the one suspended;
# the other, then the only running job, is not, as `it` is 100).  The
# host's r1m and it come from an ELIM (tools/fifoelim.c) that prints
# the line last written to a FIFO at once (and again every 0.2 s), so a
# load step is one write.  tools/suspwatch.c writes the high load (2.0
# per CPU), polls /proc/PID/stat of the job's process every millisecond
# until it is stopped (T), then writes the low load (0) and polls until
# it runs again; a random pause before each step.  Distributions over the steps
# with SBD_SLEEP_TIME = 1 (the benchmarks' and scenario tests') and
# with SBD_SLEEP_TIME = 5; EXINTERVAL is 1 (tools/cluster-conf.sh), so
# the LIM samples every second.  The steps are spread over rounds, each
# on a cluster started afresh: where sbatchd's timer falls against the
# LIM's is set when they start, and it can shift a whole round.
#
#	RESULT|w10.stop_pNN_ms / stop_max_ms	load step to the process in T
#	RESULT|w10.run_pNN_ms / run_max_ms	load back to it out of T
#	RESULT|w10.stop5_... / run5_...		the same, SBD_SLEEP_TIME = 5
#
# CPU: 50 jobs (sleep) running on one host, nothing suspended, the ELIM
# giving all 11 built-in indices; sbatchd's CPU time (the sum of
# /proc/PID/task/*/schedstat, ns) over CPU_SECS: with no job, with the
# 50 jobs in a queue with no threshold, and in a queue with a
# scheduling and a suspending threshold on every built-in index and a
# STOP_COND (none reached), all with SBD_SLEEP_TIME = 1; then the last
# again on a cluster with SBD_SLEEP_TIME = 3600, where the check never
# runs.  The LIM sends its sample every second in every case.
#
#	RESULT|w10.cpu_sbd_idle_pct	sbatchd, no job (% of one core)
#	RESULT|w10.cpu_sbd_50_pct	50 jobs, no threshold
#	RESULT|w10.cpu_sbd_50thr_pct	50 jobs, every threshold and STOP_COND
#	RESULT|w10.cpu_sbd_50nocheck_pct  the same, no check (3600 s)
#	RESULT|w10.cpu_check_pct	the check's share: 50thr - 50nocheck
#	RESULT|w10.cpu_check_us		one check of the 50 jobs
#
# Sizes at BENCH_SCALE 1: 40 steps (4 rounds of 10) at SBD_SLEEP_TIME
# = 1, 10 (2 rounds of 5) at 5; CPU_SECS = 60.  W10_PARTS picks parts
# (default "lat1 lat5 cpu").  Every step goes to
# $BENCH_OUT/w10_latency.tsv: SBD_SLEEP_TIME, round, stop ms, run ms.
. "$(dirname "$0")/lib.sh"

N1=$(scaled 10 2)
N5=$(scaled 5 2)
CPU_SECS=$(scaled 60 10)
W10_PARTS=${W10_PARTS:-lat1 lat5 cpu}
WATCH=$(need_tool suspwatch)
FIFOELIM=$(need_tool fifoelim)
LAT=$BENCH_OUT/w10_latency.tsv

# w10_cluster SLEEP MXJ "ELIM LINE": a one-host cluster whose ELIM
# (elim.fifo in LSF_SERVERDIR) starts with that line.
w10_cluster() {
	local f
	bench_init 1 "$2"
	sed -i "s/^SBD_SLEEP_TIME = .*/SBD_SLEEP_TIME = $1/" \
	    "$LSB_CONF/lsb.params"
	mkdir -p "$B_DIR/serverdir" "$B_DIR/elim"
	for f in "$SBIN"/*; do ln -s "$f" "$B_DIR/serverdir/"; done
	# tools/fifoelim.c: the line last written to the host's FIFO,
	# printed as soon as it is whole and again every 0.2 s.
	cat >"$B_DIR/serverdir/elim.fifo" <<EOF
#!/bin/sh
d=\$LSF_ENVDIR/../elim
exec $FIFOELIM "\$d/fifo.\$LSF_LOCAL_HOST" "\$d/load.\$LSF_LOCAL_HOST"
EOF
	chmod 755 "$B_DIR/serverdir/elim.fifo"
	mkfifo "$B_DIR/elim/fifo.$MASTER"
	echo "$3" >"$B_DIR/elim/load.$MASTER"
	echo "LSF_SERVERDIR=$B_DIR/serverdir" >>"$LSF_CONF/lsf.conf"
}

job_stat() {
	bjobs -noheader -o stat "$1" 2>/dev/null
}
job_is() {
	[ "$(job_stat "$1")" = "$2" ]
}
# The ELIM's value of it (minutes, printed as is) is in the LIM's load.
it_is() {
	[ "$(lsload -I it "$MASTER" 2>/dev/null |
	    awk 'NR == 2 { print $3 }')" = "$1" ]
}
ncpus_of() {
	lshosts "$MASTER" | awk 'NR == 2 { print $5 }'
}

# pct P SLEEP COLUMN [ROUND]: the P quantile (nearest rank) of a column
# of $LAT (3 stop, 4 run) for one SBD_SLEEP_TIME (and round).
pct() {
	awk -v s="$2" -v c="$3" -v r="${4:-}" \
	    '$1 == s && (r == "" || $2 == r) { print $c }' "$LAT" |
	    sort -g | awk -v p="$1" '{ v[NR] = $1 } END {
		i = int(p * NR + 0.999999); if (i < 1) i = 1
		if (i > NR) i = NR; print v[i] }'
}

# round SLEEP N R: N steps on a fresh cluster, appended to $LAT.
round() {
	local sleep=$1 n=$2 r=$3 ncpus high a b pid
	w10_cluster "$sleep" 4 "2 r1m 0 it 99"
	cat >"$LSB_CONF/lsb.queues" <<EOF
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
r1m = 0.5/1.0
DESCRIPTION = r1m per CPU: scheduling 0.5, suspending 1.0.
End Queue
EOF
	# sbatchd checks on its own timer, the LIM samples on its own; how
	# one falls against the other is set when they start.  Started
	# together (bench_start) sbatchd would always check just after the
	# sample; in a real cluster they start apart, so here sbatchd starts
	# a random fraction of the LIM's sample interval (1 s) after it.
	start_daemon lim "$MASTER"
	nap "0.$(printf '%03d' $((RANDOM % 1000)))"
	start_daemon sbatchd "$MASTER"
	wait_for all_hosts_ok || { dump_logs; say "cluster did not come up"
	    exit 1; }
	# The ELIM's first line is in (it 99 is no real host's).
	wait_for it_is 99 || { dump_logs; say "the ELIM's load never came"
	    exit 1; }
	ncpus=$(ncpus_of)
	high=$(awk -v n="$ncpus" 'BEGIN { printf "%g", 2.0 * n }')
	a=$(submit -o /dev/null sleep 1000000) || { say "bsub failed"; exit 1; }
	wait_for job_is "$a" RUN || { say "job $a did not start"; exit 1; }
	b=$(submit -o /dev/null \
	    "echo \$\$ >$B_DIR/out/b.pid; exec sleep 1000000") ||
	    { say "bsub failed"; exit 1; }
	wait_for job_is "$b" RUN || { say "job $b did not start"; exit 1; }
	wait_for test -s "$B_DIR/out/b.pid" ||
	    { say "no pid of job $b"; exit 1; }
	pid=$(cat "$B_DIR/out/b.pid")
	# A job is checked once it has run one SBD_SLEEP_TIME (its own load
	# is not in the indices before): a bounded wait, nothing to poll.
	nap $((sleep + 1))
	say "SBD_SLEEP_TIME $sleep, $ncpus CPUs, round $r: $n steps of r1m" \
	    "0 -> $high -> 0 (per CPU 0 -> 2.0 -> 0) on job $b (pid $pid)," \
	    "job $a beside it"
	# it 100 throughout: the host is not in interactive use.
	"$WATCH" "$B_DIR/elim/fifo.$MASTER" "$pid" "$n" \
	    "2 r1m $high it 100" "2 r1m 0 it 100" \
	    600 $((600 + sleep * 1000)) $((3 * sleep + 20)) \
	    >"$B_DIR/out/lat" || { dump_logs; say "suspwatch failed"; exit 1; }
	[ "$(wc -l <"$B_DIR/out/lat")" = "$n" ] || { say "lost steps"; exit 1; }
	# The other job ran throughout.
	job_is "$a" RUN || { say "job $a is $(job_stat "$a")"; exit 1; }
	awk -v s="$sleep" -v r="$r" '{ print s, r, $1, $2 }' \
	    "$B_DIR/out/lat" >>"$LAT"
	say "round $r: stop $(pct 0 "$sleep" 3 "$r")" \
	    "- $(pct 1 "$sleep" 3 "$r") ms, run $(pct 0 "$sleep" 4 "$r")" \
	    "- $(pct 1 "$sleep" 4 "$r") ms"
	bench_stop
}

# latency SLEEP N ROUNDS TAG: results w10.stopTAG_* and w10.runTAG_*.
latency() {
	local sleep=$1 n=$2 rounds=$3 tag=$4 r p
	for ((r = 1; r <= rounds; r++)); do
		round "$sleep" "$n" "$r"
	done
	for p in 50 90 99; do
		result "w10.stop${tag}_p${p}_ms" "$(pct 0.$p "$sleep" 3)" ms
	done
	result "w10.stop${tag}_max_ms" "$(pct 1 "$sleep" 3)" ms
	for p in 50 90 99; do
		result "w10.run${tag}_p${p}_ms" "$(pct 0.$p "$sleep" 4)" ms
	done
	result "w10.run${tag}_max_ms" "$(pct 1 "$sleep" 4)" ms
}

# CPU time of a process and its threads, in ns.
cpu_ns() {
	local f t s=0
	for f in /proc/"$1"/task/*/schedstat; do
		read -r t _ <"$f" && s=$((s + t))
	done
	echo "$s"
}

# cpu_pct PID SECS: its CPU over SECS as a % of one core.
cpu_pct() {
	local pid=$1 secs=$2 c0 c1 t0 t1
	c0=$(cpu_ns "$pid")
	now_us t0
	nap "$secs"
	c1=$(cpu_ns "$pid")
	now_us t1
	awk -v c="$((c1 - c0))" -v a="$t0" -v b="$t1" \
	    'BEGIN { printf "%.4f\n", c / 1e3 / (b - a) * 100 }'
}

# run50 QUEUE: 50 jobs running in QUEUE; prints the array's ID.
run50() {
	local id
	id=$(submit -q "$1" -J "w10$1[1-50]" -o /dev/null sleep 1000000) ||
	    { say "bsub failed"; exit 1; }
	wait_for sh -c "[ \"\$(bjobs -noheader -o stat -q $1 2>/dev/null |
	    grep -c '^RUN\$')\" = 50 ]" ||
	    { say "the 50 jobs of $1 did not all start"; exit 1; }
	echo "$id"
}

all_running() {
	[ "$(bjobs -noheader -o stat -q "$1" 2>/dev/null |
	    grep -c '^RUN$')" = 50 ] ||
	    { say "a job of $1 is not running: not the check alone"; exit 1; }
}

# cpu_cluster SLEEP: a cluster with the queues normal (no threshold)
# and thr (every index, none reached), the ELIM giving every index.
cpu_cluster() {
	w10_cluster "$1" 60 "11 r15s 0 r1m 0 r15m 0 ut 0 pg 0 io 0 ls 0 it 100 tmp 10000 swp 10000 mem 10000"
	cat >"$LSB_CONF/lsb.queues" <<EOF
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
DESCRIPTION = No threshold.
End Queue

Begin Queue
QUEUE_NAME = thr
PRIORITY = 40
r15s = 50/100
r1m = 50/100
r15m = 50/100
ut = 0.9/0.95
pg = 500/1000
io = 100000/200000
ls = 100/200
it = 1/0.5
tmp = 10/5
swp = 10/5
mem = 10/5
STOP_COND = select[r1m > 60 && ut > 0.9 || pg > 900]
DESCRIPTION = Every index thresholded, none reached.
End Queue
EOF
	bench_start
	wait_for it_is 100 || { dump_logs; say "the ELIM's load never came"
	    exit 1; }
}

cpu() {
	local sbd id v thr nocheck
	cpu_cluster 1
	sbd=$PID_sbatchd_hosta
	# After the start's own work, as for the jobs below.
	nap 5
	say "sbatchd's CPU over $CPU_SECS s: no job"
	result w10.cpu_sbd_idle_pct "$(cpu_pct "$sbd" "$CPU_SECS")" %
	id=$(run50 normal)
	# The start's own work (the supervisors' reports, the thresholds
	# from mbatchd) fades within a second or two: measured after it.
	nap 5
	say "50 jobs, no threshold"
	v=$(cpu_pct "$sbd" "$CPU_SECS")
	all_running normal
	result w10.cpu_sbd_50_pct "$v" %
	bkill "$id" >/dev/null 2>&1
	wait_queue_empty normal 60 || { say "the jobs did not end"; exit 1; }
	run50 thr >/dev/null
	nap 5
	say "50 jobs, every threshold and STOP_COND"
	thr=$(cpu_pct "$sbd" "$CPU_SECS")
	all_running thr
	result w10.cpu_sbd_50thr_pct "$thr" %
	bench_stop
	cpu_cluster 3600
	sbd=$PID_sbatchd_hosta
	run50 thr >/dev/null
	nap 5
	say "50 jobs, every threshold and STOP_COND, SBD_SLEEP_TIME 3600"
	nocheck=$(cpu_pct "$sbd" "$CPU_SECS")
	all_running thr
	result w10.cpu_sbd_50nocheck_pct "$nocheck" %
	bench_stop
	# One check a second.
	result w10.cpu_check_pct "$(awk -v a="$thr" -v b="$nocheck" \
	    'BEGIN { printf "%.4f\n", a - b }')" %
	result w10.cpu_check_us "$(awk -v a="$thr" -v b="$nocheck" \
	    'BEGIN { printf "%.1f\n", (a - b) / 100 * 1e6 }')" us
}

mkdir -p "$BENCH_OUT"
: >"$LAT"
for part in $W10_PARTS; do
	case $part in
	lat1) latency 1 "$N1" 4 "" ;;
	lat5) latency 5 "$N5" 2 5 ;;
	cpu) cpu ;;
	*) say "W10_PARTS: lat1, lat5, cpu"; exit 2 ;;
	esac
done
