#!/bin/bash
# bjobs <id> of a finished job mbatchd no longer has, answered from the
# history database: histgen (bench/tools/histgen.c) fills the database
# with N finished jobs before mbatchd starts (so none is in its memory),
# then `bjobs <id>` of R jobs spread over the history is timed through
# the shell, p50 and p99 in ms; `bjobs <id>` of an unknown job beside it.
#
#	BUILD=build bench/bjobs-hist.sh [N] [R]
. "$(dirname "$0")/lib.sh"
N=${1:-1000000}
R=${2:-1000}

bench_init 1 1
mkdir -p "$LSB_LOGDIR"
cc -O2 -std=c11 -D_GNU_SOURCE -I"$BTOP/include" -o "$B_DIR/histgen" \
    "$BTOP/bench/tools/histgen.c" "$BUILD/lib/liblsf.a" -lsqlite3 -lm
t0=$EPOCHREALTIME
"$B_DIR/histgen" "$LSB_LOGDIR/lsb.history.db" "$N"
say "histgen $N jobs: $(echo "$EPOCHREALTIME - $t0" | bc) s," \
    "$(du -sh "$LSB_LOGDIR" | cut -f1)"
bench_start
wait_for sh -c "bjobs 1 2>/dev/null | grep -q DONE" ||
    { say "bjobs 1 is not answered from history"; exit 1; }
timeit() {
	# timeit KEY ID-COMMAND: R calls of bjobs <id>
	local key=$1 gen=$2 a b
	for i in $(seq "$R"); do
		id=$($gen "$i")
		a=${EPOCHREALTIME/./}
		bjobs "$id" >/dev/null 2>&1
		b=${EPOCHREALTIME/./}
		echo $((b - a))
	done | sort -n | awk -v k="$key" '{ v[NR] = $1 }
	    END { p = int(NR * 0.99); if (p < 1) p = 1
	    printf "RESULT|%s_p50_ms|%.3f|ms\nRESULT|%s_p99_ms|%.3f|ms\n",
	    k, v[int(NR / 2) + 1] / 1000, k, v[p] / 1000 }'
}
spread() { echo $(( ($1 * 7919) % N + 1 )); }
unknown() { echo $(( N + $1 )); }
timeit hist_one spread
timeit unknown_one unknown
