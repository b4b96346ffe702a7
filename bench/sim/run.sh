#!/bin/bash
# Workload 9 (issue 4): the real scheduling code driven by a simulated
# cluster.  Generates the cluster and job lists (sizes scale with
# BENCH_SCALE: 1 = 10,000 hosts, 1,000,000 pending jobs), builds the
# simulator, times one scheduling pass, then a full drain, and prints
# RESULT lines (see bench/sim/sim.c for what is and is not simulated).
#
# Environment:
#   BENCH_SCALE         default 1
#   O                   build directory for the library and the simulator
#                       (default build)
#   BENCH_OUT           output directory (default bench/out)
#   BENCH_W9_DRAIN      0 skips the drain (default 1)
#   BENCH_W9_DRAIN_WALL stop the drain after this many wall seconds
#                       (default 3600; a stopped drain prints
#                       w9.drain_unfinished instead of finishing)
#   BENCH_W9_TICK       simulated seconds between passes while jobs pend
#                       and nothing ends sooner (default 1, mbatchd's tick)
#   BENCH_W9_PERF       1: perf record -g of one pass into BENCH_OUT/w9/
#   BENCH_W9_SHARE_RR   1: jobs with the same -R in a queue share one
#                       parsed requirement (sim -S); mbatchd keeps one per
#                       job, which is the default here
#   BENCH_W9_PREEMPT    0 skips the run with preemption (default 1)
#   BENCH_W9_FAIRSHARE  0 skips the run with fairshare (default 1)
#
# With preemption (issue 21): the same sizes with three more queues (gen.py
# --preempt: one preemptive, two preemptable) in BENCH_OUT/w9/preempt.  Its
# first pass is timed right after the one without (w9.preempt_pass_s, and
# w9.preempt_pass_ratio to w9.pass_s), and on the same files with
# preemption not configured (sim -P: w9.preempt_off_pass_s); its drain
# prints w9.preempt_drain_*, the number of preemptions, the two checks
# (w9.preempt_flipflops, w9.preempt_superfluous, both must be 0) and the
# first pass that preempts timed with and without preemption
# (w9.preempt_busy_pass_s, w9.preempt_busy_off_pass_s).
#
# With fairshare (issue 22): gen.py --fairshare in BENCH_OUT/w9/fairshare,
# 1,000 users (x BENCH_SCALE) in groups of 20 with USER_SHARES, every
# queue FAIRSHARE over the groups.  Its first pass (w9.fs_pass_s), the
# same files with fairshare ignored (sim -F: w9.fs_off_pass_s), their
# ratio (w9.fs_pass_ratio), and a drain (w9.fs_drain_*, with
# w9.fs_drain_rate, jobs started per second of wall time).  The accuracy
# checks are bench/sim/fsacc.sh (bench/run.sh's part w9acc).
set -eu

TOP=$(cd "$(dirname "$0")/../.." && pwd)
SCALE=${BENCH_SCALE:-1}
SIMFLAGS=""
[ "${BENCH_W9_SHARE_RR:-0}" = 1 ] && SIMFLAGS="-S"
O=${O:-build}
OUT=${BENCH_OUT:-$TOP/bench/out}/w9
mkdir -p "$OUT"

read -r NH NJ NU NFU < <(awk -v s="$SCALE" 'BEGIN {
	h = int(10000 * s); j = int(1000000 * s); u = int(2000 * s);
	f = int(1000 * s);
	if (h < 10) h = 10; if (j < 100) j = 100; if (u < 10) u = 10;
	if (f < 20) f = 20;
	print h, j, u, f }')

echo "w9: building the simulator in $O" >&2
SIM=$(O="$O" "$TOP/bench/sim/build.sh")

STAMP="$NH $NJ $NU $(md5sum "$TOP/bench/sim/gen.py" | cut -c1-32)"
if [ ! -s "$OUT/jobs.txt" ] || [ "$(cat "$OUT/stamp" 2>/dev/null)" != "$STAMP" ]; then
	echo "w9: generating $NH hosts, $NJ jobs, $NU users into $OUT" >&2
	python3 "$TOP/bench/sim/gen.py" --hosts "$NH" --jobs "$NJ" \
	    --users "$NU" "$OUT"
	echo "$STAMP" >"$OUT/stamp"
fi
PRE=$OUT/preempt
PSTAMP="$STAMP preempt"
if [ "${BENCH_W9_PREEMPT:-1}" != 0 ] && { [ ! -s "$PRE/jobs.txt" ] ||
    [ "$(cat "$PRE/stamp" 2>/dev/null)" != "$PSTAMP" ]; }; then
	echo "w9: generating the mix with preemption into $PRE" >&2
	python3 "$TOP/bench/sim/gen.py" --hosts "$NH" --jobs "$NJ" \
	    --users "$NU" --preempt "$PRE"
	echo "$PSTAMP" >"$PRE/stamp"
fi
FS=$OUT/fairshare
FSTAMP="$NH $NJ $NFU $(md5sum "$TOP/bench/sim/gen.py" | cut -c1-32) fairshare"
if [ "${BENCH_W9_FAIRSHARE:-1}" != 0 ] && { [ ! -s "$FS/jobs.txt" ] ||
    [ "$(cat "$FS/stamp" 2>/dev/null)" != "$FSTAMP" ]; }; then
	echo "w9: generating the mix with fairshare ($NFU users) into $FS" >&2
	python3 "$TOP/bench/sim/gen.py" --hosts "$NH" --jobs "$NJ" \
	    --users "$NFU" --fairshare "$FS"
	echo "$FSTAMP" >"$FS/stamp"
fi

echo "w9: one scheduling pass ($NH hosts, $NJ pending jobs; least of 3)" >&2
"$SIM" $SIMFLAGS -n -r 3 "$OUT/cluster.txt" "$OUT/jobs.txt" |
    tee "$OUT/pass.txt"
if [ "${BENCH_W9_PREEMPT:-1}" != 0 ]; then
	echo "w9: the same with preemption configured, then the same files" \
	    "without it" >&2
	"$SIM" $SIMFLAGS -n -r 3 -k w9.preempt_ "$PRE/cluster.txt" \
	    "$PRE/jobs.txt" | tee "$PRE/pass.txt"
	"$SIM" $SIMFLAGS -P -n -r 3 -k w9.preempt_off_ "$PRE/cluster.txt" \
	    "$PRE/jobs.txt" | grep '^RESULT|w9\.preempt_off_pass_s|'
	awk -F'|' '$2 == "w9.pass_s" { a = $3 }
	    $2 == "w9.preempt_pass_s" { b = $3 }
	    END { if (a > 0 && b != "")
		printf "RESULT|w9.preempt_pass_ratio|%.3f|x\n", b / a }' \
	    "$OUT/pass.txt" "$PRE/pass.txt"
fi

if [ "${BENCH_W9_FAIRSHARE:-1}" != 0 ]; then
	echo "w9: the same with fairshare (every queue), then the same files" \
	    "without it" >&2
	"$SIM" $SIMFLAGS -n -r 3 -k w9.fs_ "$FS/cluster.txt" "$FS/jobs.txt" |
	    tee "$FS/pass.txt"
	"$SIM" $SIMFLAGS -F -n -r 3 -k w9.fs_off_ "$FS/cluster.txt" \
	    "$FS/jobs.txt" | grep '^RESULT|w9\.fs_off_pass_s|' |
	    tee -a "$FS/pass.txt"
	awk -F'|' '$2 == "w9.fs_off_pass_s" { a = $3 }
	    $2 == "w9.fs_pass_s" { b = $3 }
	    END { if (a > 0 && b != "")
		printf "RESULT|w9.fs_pass_ratio|%.3f|x\n", b / a }' \
	    "$FS/pass.txt"
fi

if [ "${BENCH_W9_PERF:-0}" = 1 ] && command -v perf >/dev/null; then
	echo "w9: perf record of one pass -> $OUT/perf.txt" >&2
	perf record -q --call-graph dwarf -F 250 -o "$OUT/perf.data" \
	    "$SIM" $SIMFLAGS -n -r 1 "$OUT/cluster.txt" "$OUT/jobs.txt" >/dev/null 2>&1 || true
	perf report -i "$OUT/perf.data" --children --stdio -g none \
	    --percent-limit 2 >"$OUT/perf.txt" 2>/dev/null || true
	grep -v '^#' "$OUT/perf.txt" | grep -v '^$' | head -25 >&2 || true
fi

if [ "${BENCH_W9_DRAIN:-1}" != 0 ]; then
	echo "w9: full drain (wall limit ${BENCH_W9_DRAIN_WALL:-3600} s)" >&2
	# The first pass is printed again: keep only the drain's lines.
	"$SIM" $SIMFLAGS -r 1 -t "${BENCH_W9_TICK:-1}" -w "${BENCH_W9_DRAIN_WALL:-3600}" \
	    "$OUT/cluster.txt" "$OUT/jobs.txt" | grep '^RESULT|w9\.drain' || true
	if [ "${BENCH_W9_PREEMPT:-1}" != 0 ]; then
		echo "w9: full drain with preemption" >&2
		"$SIM" $SIMFLAGS -r 3 -t "${BENCH_W9_TICK:-1}" \
		    -w "${BENCH_W9_DRAIN_WALL:-3600}" -k w9.preempt_ \
		    "$PRE/cluster.txt" "$PRE/jobs.txt" | grep -v \
		    '^RESULT|w9\.preempt_\(setup_s\|pass_s\|jobs_per_pass\)|' ||
		    true
	fi
	if [ "${BENCH_W9_FAIRSHARE:-1}" != 0 ]; then
		echo "w9: full drain with fairshare" >&2
		"$SIM" $SIMFLAGS -r 1 -t "${BENCH_W9_TICK:-1}" \
		    -w "${BENCH_W9_DRAIN_WALL:-3600}" -k w9.fs_ \
		    "$FS/cluster.txt" "$FS/jobs.txt" |
		    grep '^RESULT|w9\.fs_drain' || true
	fi
fi
