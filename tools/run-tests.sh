#!/bin/bash
# Run every test layer, in order of cost: the Check unit suites, the
# golden configuration cases, then the scenario tests that start real
# clusters.  Prints one summary line, "N passed, M failed", and exits
# non-zero if anything failed.
#
#	tools/run-tests.sh [scenario-name-pattern]
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
fi

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
