#!/bin/bash
# Run every test layer, in order of cost: the Check unit suites, the
# golden configuration cases, the fuzz targets over their corpora, then
# the scenario tests that start real clusters.  Prints one summary line,
# "N passed, M failed", and exits non-zero if anything failed.
#
#	tools/run-tests.sh [scenario-name-pattern]
#	tools/run-tests.sh fuzz		(the fuzz targets alone)
set -u
cd "$(dirname "$0")/.."
pattern=${1:-}
passed=0
failed=0
failures=""

count() {
	# count NAME STATUS PASSES FAILS
	local p=${3:-0} f=${4:-0}
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$2" -ne 0 ] || [ "$f" -ne 0 ]; then
		failures="$failures $1"
		# A test that died without counting still counts as a failure.
		[ "$f" -eq 0 ] && failed=$((failed + 1))
	fi
}

# run_units DIR [PREFIX]: the Check suites built in DIR.
run_units() {
	local t out rc line n f e
	for t in "$1"/tests/check_*; do
		[ -x "$t" ] || continue
		out=$("$t" 2>&1)
		rc=$?
		line=$(echo "$out" | grep -E '^[0-9]+%: Checks:' | tail -n 1)
		echo "${2:-}$(basename "$t"): ${line:-no summary}"
		n=$(echo "$line" | sed -n 's/.*Checks: \([0-9]*\).*/\1/p')
		f=$(echo "$line" | sed -n 's/.*Failures: \([0-9]*\).*/\1/p')
		e=$(echo "$line" | sed -n 's/.*Errors: \([0-9]*\).*/\1/p')
		n=${n:-0}; f=${f:-0}; e=${e:-0}
		[ "$rc" -ne 0 ] && echo "$out" | grep -v '^100%' | head -n 40
		count "${2:-}$(basename "$t")" "$rc" $((n - f - e)) $((f + e))
	done
}

# fuzz_one NAME OUTFILE: one fuzz target for FUZZ_TIME seconds, from its
# committed corpus (replayed first, so every crash once found is a
# regression test).  New inputs and any crash go to a scratch directory,
# never into the repository.
fuzz_one() {
	local scratch
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/fuzz.XXXXXX") || return 1
	mkdir -p "$scratch/new"
	"build-fuzz/$1" -max_total_time="${FUZZ_TIME:-4}" -timeout=10 \
	    -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix="$scratch/" "$scratch/new" \
	    "tests/fuzz/corpus/${1#fuzz_}" >"$2" 2>&1
	echo $? >"$2.rc"
	# Keep what failed: it becomes a seed once the bug is fixed.
	for f in "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* \
	    "$scratch"/oom-*; do
		[ -f "$f" ] || continue
		mkdir -p build-fuzz/artifacts
		cp "$f" "build-fuzz/artifacts/$1-${f##*/}"
		echo "kept build-fuzz/artifacts/$1-${f##*/}" >>"$2"
	done
	rm -rf "$scratch"
}

# run_fuzz: every target of tests/fuzz, two at a time (make fuzz builds
# them with clang; without them this step fails, it does not skip).
run_fuzz() {
	local src name out n=0 rc runs seeds verdict
	out=$(mktemp -d "${TMPDIR:-/tmp}/fuzzlog.XXXXXX") || return
	for src in tests/fuzz/fuzz_*.c; do
		name=$(basename "$src" .c)
		if [ ! -x "build-fuzz/$name" ]; then
			echo "fuzz $name: not built (make fuzz needs clang)"
			count "fuzz-$name" 1 0 1
			continue
		fi
		fuzz_one "$name" "$out/$name" &
		n=$((n + 1))
		[ $n -ge 2 ] && { wait -n; n=$((n - 1)); }
	done
	wait
	for src in tests/fuzz/fuzz_*.c; do
		name=$(basename "$src" .c)
		[ -f "$out/$name.rc" ] || continue
		rc=$(cat "$out/$name.rc")
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
		    "$out/$name" | tail -n 1)
		seeds=$(ls "tests/fuzz/corpus/${name#fuzz_}" 2>/dev/null |
		    wc -l)
		verdict=ok
		[ "$rc" -ne 0 ] && verdict=FAILED
		echo "fuzz $name: $seeds seeds, ${runs:-0} runs, $verdict"
		[ "$rc" -ne 0 ] && grep -v '^#\|^INFO\|^stat::' \
		    "$out/$name" | head -n 60
		if [ "$rc" -eq 0 ]; then
			count "fuzz-$name" 0 1 0
		else
			count "fuzz-$name" "$rc" 0 1
		fi
	done
	rm -rf "$out"
}

if [ -z "$pattern" ]; then
	run_units "${BUILD:-build}"
	# The same suites under ASan and UBSan (make check builds them):
	# any report fails the test it happens in.
	if [ -z "${BUILD:-}" ] && [ -d build-asan/tests ]; then
		ASAN_OPTIONS=detect_leaks=0 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		    run_units build-asan "asan "
	fi

	out=$(tests/conf/run.sh 2>&1)
	rc=$?
	line=$(echo "$out" | tail -n 1)
	echo "conf golden: $line"
	[ "$rc" -ne 0 ] && echo "$out" | tail -n 40
	count conf "$rc" "$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')" \
	    "$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')"

	# The fuzz targets (make check builds them), a few seconds each.
	[ -z "${BUILD:-}" ] && run_fuzz
fi

[ "$pattern" = fuzz ] && run_fuzz

# scenario_report NAME OUTFILE RC SECONDS [PREFIX]
scenario_report() {
	local line
	line=$(tail -n 1 "$2")
	echo "${5:-}$1: $line ($4 s)"
	[ "$3" -ne 0 ] && grep -v '^ok ' "$2" | head -n 80
	count "${5:-}$1" "$3" \
	    "$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')" \
	    "$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')"
}

# run_scenario FILE OUTDIR: one test, its output, status and time kept.
run_scenario() {
	local name start
	name=$(basename "$1" .sh)
	start=$(date +%s)
	bash "$1" >"$2/$name.out" 2>&1
	echo "$? $(( $(date +%s) - start ))" >"$2/$name.rc"
}

# The scenario tests mostly wait, each on its own cluster, so they run
# SCENARIO_JOBS at a time (2); those that load the machine on purpose,
# or time how fast something answers, run alone.
ALONE="t0024-demo t0025-hostile t0033-logdamage"
jobs_max=${SCENARIO_JOBS:-2}
sdir=$(mktemp -d "${TMPDIR:-/tmp}/scenarios.XXXXXX")
tests=""
for t in tests/scenario/t[0-9]*.sh; do
	[ -n "$pattern" ] && ! echo "$t" | grep -q -- "$pattern" && continue
	tests="$tests $t"
done
for t in $tests; do
	name=$(basename "$t" .sh)
	case " $ALONE " in
	*" $name "*)
		wait
		run_scenario "$t" "$sdir"
		continue
		;;
	esac
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n
	done
	run_scenario "$t" "$sdir" &
done
wait
for t in $tests; do
	name=$(basename "$t" .sh)
	read -r rc secs <"$sdir/$name.rc"
	scenario_report "$name" "$sdir/$name.out" "$rc" "$secs"
done

# Some of them again, on daemons and commands built with ASan and UBSan
# (make check builds build-asan): a report fails them.
ASAN_SCENARIOS=${ASAN_SCENARIOS:-"t0002 t0008 t0012 t0016 t0028 t0034 t0073 t0097 t0107 t0125 t0126 t0128"}
if [ -z "$pattern" ] && [ -z "${BUILD:-}" ] && [ -x build-asan/sbin/mbatchd ]; then
	for n in $ASAN_SCENARIOS; do
		t=$(ls tests/scenario/$n-*.sh 2>/dev/null | head -n 1)
		[ -n "$t" ] || continue
		name=$(basename "$t" .sh)
		rm -rf "$sdir/san" && mkdir -p "$sdir/san"
		start=$(date +%s)
		BUILD="$PWD/build-asan" \
		ASAN_OPTIONS="detect_leaks=0:log_path=$sdir/san/asan" \
		UBSAN_OPTIONS="print_stacktrace=1:log_path=$sdir/san/ubsan" \
		    bash "$t" >"$sdir/$name.asan" 2>&1
		rc=$?
		if ls "$sdir"/san/* >/dev/null 2>&1; then
			echo "# sanitizer reports:" >>"$sdir/$name.asan"
			head -n 40 "$sdir"/san/* >>"$sdir/$name.asan"
			echo "0 passed, 1 failed" >>"$sdir/$name.asan"
			rc=1
		fi
		scenario_report "$name" "$sdir/$name.asan" "$rc" \
		    "$(( $(date +%s) - start ))" "asan "
	done
fi
rm -rf "$sdir"

[ -n "$failures" ] && echo "failing:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
