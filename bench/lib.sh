# Shared by the benchmark scripts: a private cluster of this project in a
# temporary directory, tuned for throughput and quiet logging, plus timing
# and result helpers.  Modelled on tests/scenario/lib.sh (hosts are
# loopback addresses 127.0.0.11.., every daemon runs with -N <host>).
#
#	. "$(dirname "$0")/lib.sh"
#	bench_init 1 2			# 1 host, MXJ 2
#	(edit $LSB_CONF/lsb.queues etc. if needed)
#	bench_start			# lim + sbatchd (which starts mbatchd)
#	...
#	result w1.submit_rate 412.3 jobs/s
#	(bench_stop runs at exit)
#
# Measurements go to stdout as RESULT|key|value|unit; everything else to
# stderr (say).  Sizes scale with BENCH_SCALE (see scaled).

set -u

BTOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$BTOP/build}
export PATH="$BUILD/bin:$PATH"
SBIN="$BUILD/sbin"
BTOOLS=${BTOOLS:-$BUILD/bench}
BENCH_SCALE=${BENCH_SCALE:-1}
BENCH_TMP=${BENCH_TMP:-${TMPDIR:-/tmp}}
BENCH_OUT=${BENCH_OUT:-$BTOP/bench/out}
B_NAME=$(basename "$0" .sh)
B_DIR=""
B_PIDS=""
B_SBD_STATE=""
B_RMDIRS=()		# a workload's own directories, gone with the cluster
WAIT_SECS=${WAIT_SECS:-60}

say() {
	echo "# $B_NAME: $*" >&2
}

result() {
	# result KEY VALUE UNIT
	echo "RESULT|$1|$2|$3"
	say "$1 = $2 $3"
}

# scaled N [MIN]: N * BENCH_SCALE, rounded, at least MIN (default 1).
scaled() {
	awk -v n="$1" -v s="$BENCH_SCALE" -v m="${2:-1}" \
	    'BEGIN { v = int(n * s + 0.5); if (v < m) v = m; print v }'
}

# Wall clock in ns without a fork (bash 5's EPOCHREALTIME).
now_ns() {
	local t=$EPOCHREALTIME
	echo "${t%.*}${t#*.}000"
}

# A microsecond clock, as a number, in a variable: now_us VAR.
now_us() {
	local t=$EPOCHREALTIME
	printf -v "$1" '%s' "${t%.*}${t#*.}"
}

# median_ms K CMD...: median wall time of K runs of CMD, in ms (ours and
# Slurm's queries are timed alike: each call the whole command).
median_ms() {
	local k=$1 i a b
	shift
	for ((i = 0; i < k; i++)); do
		now_us a
		"$@" >/dev/null 2>&1 || { say "$* failed"; exit 1; }
		now_us b
		echo $((b - a))
	done | median | awk '{ printf "%.2f\n", $1 / 1e3 }'
}

# median: the median of the numbers on stdin, one a line (the lower of
# the middle two when there is an even count).
median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# ratio A B SCALE: A / B * SCALE with 1 decimal (4 for small numbers).
ratio() {
	awk -v a="$1" -v b="$2" -v s="${3:-1}" 'BEGIN {
		if (b == 0) { print "nan"; exit }
		v = a / b * s
		if (v < 10 && v > -10) printf "%.4g\n", v; else printf "%.1f\n", v }'
}

. "$BTOP/tools/cluster-conf.sh"

# bench_init NHOSTS MXJ [extra lsf.conf lines...]
bench_init() {
	local n=$1 mxj=$2
	shift 2
	B_DIR=$(mktemp -d "$BENCH_TMP/lsfb.$B_NAME.XXXXXX")
	chmod 755 "$B_DIR"
	mkdir -p "$B_DIR/jobs" "$B_DIR/out"
	chmod 1777 "$B_DIR/jobs" "$B_DIR/out"
	# sbatchd's job directories on tmpfs (BENCH_SBD_TMP, default
	# /dev/shm), as docs/PERFORMANCE.md and lsf.conf(5) recommend:
	# they carry jobs across a restart of sbatchd, never of the host.
	B_SBD_STATE=$(mktemp -d "${BENCH_SBD_TMP:-/dev/shm}/lsfb.sbd.$B_NAME.XXXXXX")
	# BENCH_LOCALDIR=1: duplicate logging, lsb.events also in
	# $B_DIR/local (lsf.conf LSB_LOCALDIR), to measure its cost.
	cluster_conf "$B_DIR" "$n" LOG_WARNING "root $(id -un)" \
	    "LSB_SBD_STATEDIR=$B_SBD_STATE" \
	    ${BENCH_LOCALDIR:+"LSB_LOCALDIR=$B_DIR/local"} "$@"
	LSB_SHARE="$B_DIR/work"
	LSB_LOGDIR="$B_DIR/work/c1/logdir"
	# Throughput: dispatch at once, no pause between dispatches; jobs
	# that end are kept an hour so they can be counted.
	cat >"$LSB_CONF/lsb.params" <<EOF
Begin Parameters
DEFAULT_QUEUE = normal
MBD_SLEEP_TIME = 1
SBD_SLEEP_TIME = 1
JOB_ACCEPT_INTERVAL = 0
JOB_TERMINATE_INTERVAL = 1
CLEAN_PERIOD = 3600
MAX_JOB_ARRAY_SIZE = 1000000
End Parameters
EOF
	# "idle" is made inactive by bench_idle_queue: what is submitted
	# there stays pending (submission alone is measured).
	cat >"$LSB_CONF/lsb.queues" <<EOF
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
DESCRIPTION = The default queue.
End Queue

Begin Queue
QUEUE_NAME = idle
PRIORITY = 20
DESCRIPTION = Inactive: jobs stay pending.
End Queue
EOF
	cat >"$LSB_CONF/lsb.hosts" <<EOF
Begin Host
HOST_NAME  MXJ
default    $mxj
End Host
EOF
	: >"$LSB_CONF/lsb.users"
	export LSB_NTRIES=100
	trap bench_stop EXIT
	trap 'exit 130' INT TERM
}

start_daemon() {
	# start_daemon NAME HOST
	"$SBIN/$1" -f -N "$2" >>"$B_DIR/log/$1.$2.stderr" 2>&1 &
	B_PIDS="$B_PIDS $!"
	eval "PID_${1}_$2=$!"
}

# The whole cluster: lim and sbatchd on every host; the master's sbatchd
# starts mbatchd.
bench_start() {
	local h
	for h in $HOSTS; do start_daemon lim "$h"; done
	for h in $HOSTS; do start_daemon sbatchd "$h"; done
	wait_for all_hosts_ok || { dump_logs; say "cluster did not come up";
	    exit 1; }
}

# Only the master's lim: for mbatchd started by hand (bench_mbd_start).
bench_start_lim() {
	start_daemon lim "$MASTER"
	wait_for lsid || { dump_logs; say "lim did not come up"; exit 1; }
}

# mbatchd by hand, on the master; MBD_PID is its pid, MBD_T0_US the time
# just before it started.
bench_mbd_start() {
	now_us MBD_T0_US
	"$SBIN/mbatchd" -f -N "$MASTER" >>"$B_DIR/log/mbatchd.stderr" 2>&1 &
	MBD_PID=$!
	B_PIDS="$B_PIDS $MBD_PID"
}

bench_mbd_stop() {
	[ -n "${MBD_PID:-}" ] || return 0
	kill "$MBD_PID" 2>/dev/null
	wait "$MBD_PID" 2>/dev/null
	B_PIDS=$(echo " $B_PIDS " | sed "s/ $MBD_PID / /; s/^ *//; s/ *\$//")
	MBD_PID=""
}

# The pid of the mbatchd the master's sbatchd started.
mbd_pid() {
	pgrep -P "$PID_sbatchd_hosta" -x mbatchd
}

# VmRSS of a process, in kB.
rss_kb() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}

# Make queue "idle" inactive (jobs there stay pending).
bench_idle_queue() {
	badmin qinact idle >/dev/null 2>&1 || { say "badmin qinact failed";
	    exit 1; }
}

bench_stop() {
	local p f
	[ -n "$B_DIR" ] || return 0
	for p in $B_PIDS; do kill "$p" 2>/dev/null; done
	for p in $B_PIDS; do wait "$p" 2>/dev/null; done
	# Jobs outlive sbatchd by design: end those of this cluster.
	pkill -KILL -f "$B_DIR" 2>/dev/null
	for f in "$B_SBD_STATE"/*/jobs/*/lock; do
		[ -e "$f" ] && fuser -k -KILL "$f" >/dev/null 2>&1
	done
	if [ -z "${KEEP:-}" ]; then
		rm -rf "$B_DIR" "$B_SBD_STATE" "${B_RMDIRS[@]}"
	else
		say "kept $B_DIR and $B_SBD_STATE ${B_RMDIRS[*]}"
	fi
	B_DIR=""
	B_SBD_STATE=""
	B_PIDS=""
	B_RMDIRS=()
}

dump_logs() {
	local f
	for f in "$B_DIR"/log/*; do
		echo "# ---- $f" >&2
		tail -n 20 "$f" | sed 's/^/# /' >&2
	done
}

# nap SECS: sleep without a fork (a read that times out on a FIFO nobody
# writes), so polling loops do not steal the CPU they measure.
nap() {
	if [ -z "${B_NAPFD:-}" ]; then
		local f
		f=$(mktemp -u "$BENCH_TMP/lsfb.nap.XXXXXX")
		mkfifo "$f" && exec {B_NAPFD}<>"$f" && rm -f "$f"
	fi
	read -r -t "$1" -u "$B_NAPFD" _ || true
}

# Seconds since the epoch, without a fork.
now_s() {
	echo "${EPOCHREALTIME%.*}"
}

# wait_for CMD ARGS...: retry (every 50 ms) until it succeeds or WAIT_SECS.
wait_for() {
	local deadline=$(( $(now_s) + WAIT_SECS ))
	while ! "$@" >/dev/null 2>&1; do
		[ "$(now_s)" -ge "$deadline" ] && return 1
		nap 0.05
	done
	return 0
}

# rate COUNT T0_US T1_US: COUNT per second.
rate() {
	awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.1f\n", n / ((b - a) / 1e6) }'
}

# ms T0_US T1_US
ms() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", (b - a) / 1e3 }'
}

# submit_loop N SECS BSUB-ARGS...: run bsub N times one after another,
# stopping after SECS seconds; prints how many were submitted.  A small C
# parent (tools/spawnloop) runs them, as the spawn limit is measured, so
# the shell's own fork is not counted against bsub.
submit_loop() {
	local n=$1 secs=$2
	shift 2
	"$(need_tool spawnloop)" -t "$secs" "$n" bsub "$@"
}

# The NJOBS PEND RUN ... columns of bqueues for one queue, e.g.
# queue_counts normal -> "NJOBS PEND RUN SUSP".
queue_counts() {
	bqueues "$1" 2>/dev/null | awk 'NR == 2 { print $8, $9, $10, $11 }'
}

# Unfinished jobs of a queue (NJOBS of bqueues).
queue_njobs() {
	local c
	c=$(queue_counts "$1")
	echo "${c%% *}"
}

# wait_queue_empty QUEUE SECS: wait (polling every 20 ms) until no job of
# the queue is unfinished.  The timed workloads wait here while their
# jobs run, so a poll is one bqueues and nothing else: with a command
# substitution, a pipe to awk and the clock read in a subshell it was
# four forks of bash and two execs, 8% of the two cores during w4.
wait_queue_empty() {
	local q=$1 deadline=$(( ${EPOCHREALTIME%.*} + $2 )) f n rc=0
	f=$(mktemp "$BENCH_TMP/lsfb.wq.XXXXXX") || return 1
	while :; do
		n=
		bqueues "$q" >"$f" 2>/dev/null &&
		    { read -r _; read -r _ _ _ _ _ _ _ n _; } <"$f"
		[ "$n" = 0 ] && break
		if (( ${EPOCHREALTIME%.*} >= deadline )); then
			rc=1
			break
		fi
		nap 0.02
	done
	rm -f "$f"
	return $rc
}

# Count jobs in a state: count_stat STAT [bjobs args...]
count_stat() {
	local s=$1
	shift
	bjobs -a -u all -noheader -o stat "$@" 2>/dev/null | grep -c "^$s\$"
}

# Submit and print the job ID.
submit() {
	local out
	out=$(bsub "$@" 2>/dev/null) || return 1
	out=${out#Job <}
	echo "${out%%>*}"
}

# A tool of bench/tools, built by bench/run.sh (or here if missing).
need_tool() {
	local t=$1
	if [ ! -x "$BTOOLS/$t" ] || [ "$BTOP/bench/tools/$t.c" -nt "$BTOOLS/$t" ]; then
		mkdir -p "$BTOOLS"
		cc -O2 -std=c11 -D_GNU_SOURCE -I"$BTOP/include" -o "$BTOOLS/$t" \
		    "$BTOP/bench/tools/$t.c" "$BUILD/lib/liblsf.a" \
		    $(pkg-config --libs libevent sqlite3 yaml-0.1 2>/dev/null) -lm ||
		    { say "cannot build $t"; exit 1; }
	fi
	echo "$BTOOLS/$t"
}

# Big systems (workloads 6-8): bench_bigsys_init makes a one-host cluster
# of lim and a hand-started mbatchd (no sbatchd: nothing runs), and a
# template log holding one job in the inactive queue "idle".
# bench_bigsys_load N then writes an lsb.events of N such jobs (mklog),
# starts mbatchd on it and sets LOAD_S to the seconds from its start to
# its first answer to bjobs.
bench_bigsys_init() {
	bench_init 1 2
	MKLOG=$(need_tool mklog)
	bench_start_lim
	bench_mbd_start
	wait_for bqueues || { dump_logs; say "mbatchd did not come up";
	    exit 1; }
	bench_idle_queue
	submit -q idle /bin/true >/dev/null || { say "bsub failed"; exit 1; }
	bench_mbd_stop
	cp "$LSB_LOGDIR/lsb.events" "$B_DIR/template.events"
	cp "$LSB_LOGDIR/lsb.envs" "$B_DIR/template.envs"
}

# bjobs answers (a single job, or "No unfinished job found" when there is
# none; no retry when mbatchd is not up yet).
mbd_answers() {
	if [ "$1" -gt 0 ]; then
		LSB_NTRIES=0 bjobs -noheader -o stat 1 >/dev/null 2>&1
	else
		LSB_NTRIES=0 bjobs 2>&1 | grep -q "No unfinished job"
	fi
}

bench_bigsys_load() {
	local n=$1 t1 deadline
	bench_mbd_stop
	# A log put in place of another: the seal of the old one would
	# refuse it (a cluster's own log is never swapped like this).
	rm -f "$LSB_LOGDIR/lsb.events" "$LSB_LOGDIR/lsb.envs" \
	    "$LSB_LOGDIR/lsb.events.seal"
	if [ "$n" -gt 0 ]; then
		"$MKLOG" "$B_DIR/template.events" "$LSB_LOGDIR/lsb.events" "$n" ||
		    { say "mklog failed"; exit 1; }
		cp "$B_DIR/template.envs" "$LSB_LOGDIR/lsb.envs"
	else
		# No job: only the queue made inactive.
		grep -v '"JOB_' "$B_DIR/template.events" >"$LSB_LOGDIR/lsb.events"
	fi
	# Start from the page cache, as a restart after a crash would.
	cat "$LSB_LOGDIR/lsb.events" >/dev/null
	deadline=$(( $(now_s) + 600 ))
	bench_mbd_start
	while ! mbd_answers "$n"; do
		[ "$(now_s)" -ge "$deadline" ] && { dump_logs;
		    say "mbatchd did not answer"; exit 1; }
		kill -0 "$MBD_PID" 2>/dev/null || { dump_logs;
		    say "mbatchd died"; exit 1; }
		nap 0.01
	done
	now_us t1
	LOAD_S=$(awk -v a="$MBD_T0_US" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')
	# Are the jobs really there?
	LOADED=$(queue_njobs idle)
	if [ "$LOADED" != "$n" ]; then
		say "expected $n pending jobs, bqueues says ${LOADED:-nothing}"
		exit 1
	fi
}

# Workload 11's watch on a victim's process (tools/statewatch.c, every
# 0.5 ms), ours and Slurm's alike: a log of lines "T secs" (stopped) and
# "R secs" (out of T), read without a fork.  wlog_start PID FILE starts
# it, its log in FILE and its pid in WLOG_PID, and returns once it is
# watching a process that is not stopped.
WLOG=""
WLOG_PID=""
wlines=()
wlog_start() {
	WLOG=$2
	: >"$WLOG"
	"$(need_tool statewatch)" "$1" 500 >"$WLOG" &
	WLOG_PID=$!
	wlog_last R 10
}

# The number of lines so far, in WL_N.
wlog_count() {
	mapfile -t wlines <"$WLOG"
	WL_N=${#wlines[@]}
}

# wlog_first N0 STATE SECS: until a line after the first N0 is STATE;
# the first such line's time in WL_SECS.
wlog_first() {
	local n0=$1 deadline=$(( $(now_s) + $3 )) k
	while :; do
		mapfile -t wlines <"$WLOG"
		for ((k = n0; k < ${#wlines[@]}; k++)); do
			[ "${wlines[k]%% *}" = "$2" ] || continue
			WL_SECS=${wlines[k]#* }
			return 0
		done
		[ "$(now_s)" -ge "$deadline" ] && return 1
		nap 0.002
	done
}

# wlog_last STATE SECS: until the last line is STATE; its time in
# WL_SECS, the number of lines in WL_N.
wlog_last() {
	local deadline=$(( $(now_s) + $2 ))
	while mapfile -t wlines <"$WLOG"; WL_N=${#wlines[@]}
	    [ "$WL_N" -eq 0 ] || [ "${wlines[WL_N - 1]%% *}" != "$1" ]; do
		[ "$(now_s)" -ge "$deadline" ] && return 1
		nap 0.002
	done
	WL_SECS=${wlines[WL_N - 1]#* }
}

# wlog_stops N0: how many times the process was stopped after the first
# N0 lines (of the log as last read).
wlog_stops() {
	local k n=0
	for ((k = $1; k < ${#wlines[@]}; k++)); do
		[ "${wlines[k]%% *}" = T ] && n=$((n + 1))
	done
	echo "$n"
}

# ms_since T0_US SECS: SECS (s.ns of the wall clock, as tools/stamp
# writes it) - T0_US (now_us), in ms.
ms_since() {
	awk -v a="$1" -v s="$2" 'BEGIN { split(s, p, ".");
	    printf "%.3f\n", (p[1] * 1e6 + substr(p[2], 1, 6) - a) / 1e3 }'
}

# random_pause MIN_MS SPAN_MS: a pause of MIN_MS to MIN_MS + SPAN_MS ms,
# evenly spread, so that samples fall at every phase of the daemons'
# timers (one second, the longest of them, is SPAN_MS 1000).
random_pause() {
	local ms=$(( $1 + (RANDOM * 32768 + RANDOM) % $2 )) s
	printf -v s '%d.%03d' $((ms / 1000)) $((ms % 1000))
	nap "$s"
}

# pct_col P COL FILE: the P quantile (nearest rank) of a column.
pct_col() {
	cut -f "$2" "$3" | sort -g | awk -v p="$1" '{ v[NR] = $1 } END {
		i = int(p * NR + 0.999999); if (i < 1) i = 1
		if (i > NR) i = NR; print v[i] }'
}
