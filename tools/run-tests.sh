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

for t in tests/scenario/t[0-9]*.sh; do
	[ -n "$pattern" ] && ! echo "$t" | grep -q -- "$pattern" && continue
	start=$(date +%s)
	out=$(bash "$t" 2>&1)
	rc=$?
	line=$(echo "$out" | tail -n 1)
	echo "$(basename "$t" .sh): $line ($(( $(date +%s) - start )) s)"
	if [ "$rc" -ne 0 ]; then
		echo "$out" | grep -v '^ok ' | head -n 80
	fi
	count "$(basename "$t")" "$rc" \
	    "$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')" \
	    "$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')"
done

[ -n "$failures" ] && echo "failing:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
