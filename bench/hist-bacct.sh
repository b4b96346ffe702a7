#!/bin/bash
# bacct over a large history: histgen (bench/tools/histgen.c) fills a
# history database with N finished jobs (users u0..u99, one job a second
# from 2026-01-01 UTC), then bacct -u all (the SUMMARY over all N), bacct
# -u u7 (N/100 jobs) and bacct -u all -C over one day (86400 jobs when N
# is larger) are timed, R runs each, median and p99 in ms.
#
#	BUILD=build bench/hist-bacct.sh [N] [R]
set -eu
BTOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$BTOP/build}
N=${1:-1000000}
R=${2:-20}
dir=$(mktemp -d "${TMPDIR:-/tmp}/acctbench.XXXXXX")
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
# The day after the first: jobs are one a second from its midnight UTC.
export TZ=UTC
timeit() {
	local what=$1
	shift
	"$@" >/dev/null || { echo "$what: failed" >&2; exit 1; }
	for _ in $(seq "$R"); do
		local a b
		a=${EPOCHREALTIME/./}
		"$@" >/dev/null 2>&1
		b=${EPOCHREALTIME/./}
		echo $((b - a))
	done | sort -n | awk -v w="$what" '{ v[NR] = $1 }
	    END { p = int(NR * 0.99); if (p < 1) p = 1
	    printf "%-32s median %.2f ms, p99 %.2f ms\n", w,
	    v[int(NR / 2) + 1] / 1000, v[p] / 1000 }'
}
timeit "bacct -u all ($N jobs)" "$BUILD/bin/bacct" -u all
timeit "bacct -u u7 ($((N / 100)) jobs)" "$BUILD/bin/bacct" -u u7
timeit "bacct -u all -C one day" "$BUILD/bin/bacct" -u all \
    -C 2026/1/2/0:00,2026/1/2/23:59
