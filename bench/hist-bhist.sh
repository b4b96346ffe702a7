#!/bin/bash
# bhist over a large history: histgen (bench/tools/histgen.c) fills a
# history database with N finished jobs through mbatchd's writer, then
# bhist -l of one job, bhist of one job and bhist -a -u of one user (N/100
# jobs) are timed, R runs each, median and worst in ms.
#
#	BUILD=build bench/hist-bhist.sh [N] [R]
set -eu
BTOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$BTOP/build}
N=${1:-100000}
R=${2:-50}
dir=$(mktemp -d "${TMPDIR:-/tmp}/histbench.XXXXXX")
trap 'munge_stop "$dir"; rm -rf "$dir"' EXIT
. "$BTOP/tools/cluster-conf.sh"
cluster_conf "$dir" 1 LOG_ERR root >/dev/null
cc -O2 -std=c11 -D_GNU_SOURCE -I"$BTOP/include" -o "$dir/histgen" \
    "$BTOP/bench/tools/histgen.c" "$BUILD/lib/liblsf.a" -lsqlite3 -lm
db="$dir/work/c1/logdir/lsb.history.db"
mkdir -p "$(dirname "$db")"
t0=$(date +%s.%N)
"$dir/histgen" "$db" "$N"
t1=$(date +%s.%N)
echo "histgen $N jobs: $(echo "$t1 - $t0" | bc) s," \
    "$(du -sh "$(dirname "$db")" | cut -f1)"
timeit() {
	local what=$1
	shift
	for _ in $(seq "$R"); do
		local a b
		a=${EPOCHREALTIME/./}
		"$@" >/dev/null 2>&1
		b=${EPOCHREALTIME/./}
		echo $((b - a))
	done | sort -n | awk -v w="$what" '{ v[NR] = $1 }
	    END { p = int(NR * 0.99); if (p < 1) p = 1
	    printf "%-28s median %.2f ms, p99 %.2f ms\n", w,
	    v[int(NR / 2) + 1] / 1000, v[p] / 1000 }'
}
mid=$((N / 2))
timeit "bhist -l (one job)" "$BUILD/bin/bhist" -l "$mid"
timeit "bhist (one job)" "$BUILD/bin/bhist" "$mid"
timeit "bhist -a -u u7 ($((N / 100)) jobs)" "$BUILD/bin/bhist" -a -u u7
