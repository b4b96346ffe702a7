#!/bin/bash
# Run every test layer: the Check unit suites (also under ASan and UBSan),
# the golden configuration cases, the fuzz targets over their corpora,
# the scenario tests that start real clusters (some of them again on the
# ASan build), and then check that nothing they started still runs.
# Prints a line per test, the ten slowest, and "N passed, M failed";
# exits non-zero if anything failed.
#
#	tools/run-tests.sh			everything (make check)
#	tools/run-tests.sh PATTERN		the scenario tests whose names
#						match (grep), on $BUILD
#	tools/run-tests.sh fuzz			the fuzz targets alone
#
# Two lanes run side by side (docs/HACKING.md, "Keeping the suite
# fast"): the work that uses the CPU (unit suites, fuzz targets) NPROC at
# a time, niced, and the scenario tests, which mostly wait on their
# daemons, SCENARIO_JOBS at a time (3 per CPU), each on its own cluster,
# the longest first (tests/scenario/times).  The few that load the
# machine on purpose, or time how fast something answers, run after
# both lanes, alone (ALONE).  Every cluster's directory is under one
# directory of this run, so that what any test leaves running is found
# at the end, reported as a failure, and killed.
set -u
cd "$(dirname "$0")/.."
pattern=${1:-}
NPROC=$(nproc 2>/dev/null || echo 2)
SCENARIO_JOBS=${SCENARIO_JOBS:-$((NPROC * 3))}
CPU_JOBS=${CPU_JOBS:-$NPROC}
ALONE="t0024-demo t0025-hostile t0033-logdamage"
ASAN_SCENARIOS=${ASAN_SCENARIOS:-"t0002 t0008 t0012 t0016 t0028 t0034 t0073 t0097 t0107 t0125 t0126 t0128 t0133"}
TIMES=tests/scenario/times

# The run's own directory: outputs, and TMPDIR for every cluster (a
# test acting as another user needs the way down to its cluster open).
RUN=$(mktemp -d "${TMPDIR:-/tmp}/lsfcheck.XXXXXX") || exit 1
chmod 755 "$RUN"
OUT=$RUN/out
mkdir -p "$OUT" "$RUN/tmp"
chmod 1777 "$RUN/tmp"
export TMPDIR=$RUN/tmp
# The tests name their own clusters; the caller's must not leak in.
unset LSF_ENVDIR LSF_LOCAL_HOST

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

# ---------------------------------------------------------------- items
# An item is one test: "unit:PATH", "asanunit:PATH", "conf", "fuzz:NAME",
# "scen:NAME", "asan:NAME".  Its output, exit status and milliseconds
# are kept under its file name in $OUT.
item_file() {
	echo "$1" | tr ':/' '__'
}

# fuzz_one NAME: one fuzz target for FUZZ_TIME seconds, from its
# committed corpus (replayed first, so every crash once found is a
# regression test).  New inputs and any crash go to a scratch directory,
# never into the repository; what failed is kept in build-fuzz/artifacts.
fuzz_one() {
	local scratch rc f
	scratch=$(mktemp -d "$RUN/fuzz.XXXXXX") || return 1
	mkdir -p "$scratch/new"
	"build-fuzz/$1" -max_total_time="${FUZZ_TIME:-4}" -timeout=10 \
	    -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix="$scratch/" "$scratch/new" \
	    "tests/fuzz/corpus/${1#fuzz_}"
	rc=$?
	for f in "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* \
	    "$scratch"/oom-*; do
		[ -f "$f" ] || continue
		mkdir -p build-fuzz/artifacts
		cp "$f" "build-fuzz/artifacts/$1-${f##*/}"
		echo "kept build-fuzz/artifacts/$1-${f##*/}"
	done
	rm -rf "$scratch"
	return $rc
}

# A scenario test on the ASan build: any sanitizer report fails it.
asan_scenario() {
	local t=$1 san rc
	san=$OUT/san.$t
	mkdir -p "$san"
	BUILD="$PWD/build-asan" \
	ASAN_OPTIONS="detect_leaks=0:log_path=$san/asan" \
	UBSAN_OPTIONS="print_stacktrace=1:log_path=$san/ubsan" \
	    bash "tests/scenario/$t.sh"
	rc=$?
	if ls "$san"/* >/dev/null 2>&1; then
		echo "# sanitizer reports:"
		head -n 40 "$san"/*
		echo "0 passed, 1 failed"
		rc=1
	fi
	return $rc
}

do_item() {
	# The unit suites run niced beside the scenario tests: Check's
	# timeout of 4 s a test is made 40, for a test that waits on sqlite
	# or a thread while the CPUs are busy.
	export CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-10}
	case $1 in
	unit:*)
		"${1#unit:}" ;;
	asanunit:*)
		ASAN_OPTIONS=detect_leaks=0 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		    "${1#asanunit:}" ;;
	conf)
		tests/conf/run.sh ;;
	fuzz:*)
		fuzz_one "${1#fuzz:}" ;;
	scen:*)
		bash "tests/scenario/${1#scen:}.sh" ;;
	asan:*)
		asan_scenario "${1#asan:}" ;;
	esac
}

run_item() {
	local f t0
	f=$(item_file "$1")
	t0=$(date +%s%N)
	do_item "$1" >"$OUT/$f.out" 2>&1 </dev/null
	echo "$? $(( ($(date +%s%N) - t0) / 1000000 ))" >"$OUT/$f.rc"
}

# lane MAX NICE ITEM...: the items, MAX at a time.
lane() {
	local max=$1 nice=$2 it
	shift 2
	for it in "$@"; do
		while [ "$(jobs -rp | wc -l)" -ge "$max" ]; do
			wait -n
		done
		(
			[ "$nice" -gt 0 ] &&
			    renice -n "$nice" -p "$BASHPID" >/dev/null
			run_item "$it"
		) &
	done
	wait
}

# The scenario items, the longest first by tests/scenario/times (one
# "NAME SECONDS" a line; a test not there yet goes first).
by_length() {
	local it name s
	for it in "$@"; do
		name=${it#*:}
		case $it in asan:*) name="asan $name" ;; esac
		s=$(awk -v n="$name" '$0 ~ "^" n " [0-9]+$" { print $NF }' \
		    "$TIMES" 2>/dev/null)
		echo "${s:-100000} $it"
	done | sort -rn -k1,1 | cut -d' ' -f2-
}

# ------------------------------------------------------------ reporting
report_unit() {
	# report_unit ITEM LABEL
	local f out rc line n fl e
	f=$(item_file "$1")
	[ -f "$OUT/$f.rc" ] || return
	read -r rc _ <"$OUT/$f.rc"
	out=$(cat "$OUT/$f.out")
	line=$(echo "$out" | grep -E '^[0-9]+%: Checks:' | tail -n 1)
	echo "$2: ${line:-no summary}"
	n=$(echo "$line" | sed -n 's/.*Checks: \([0-9]*\).*/\1/p')
	fl=$(echo "$line" | sed -n 's/.*Failures: \([0-9]*\).*/\1/p')
	e=$(echo "$line" | sed -n 's/.*Errors: \([0-9]*\).*/\1/p')
	n=${n:-0}; fl=${fl:-0}; e=${e:-0}
	[ "$rc" -ne 0 ] && echo "$out" | grep -v '^100%' | head -n 40
	count "$2" "$rc" $((n - fl - e)) $((fl + e))
}

report_conf() {
	local rc line
	[ -f "$OUT/conf.rc" ] || return
	read -r rc _ <"$OUT/conf.rc"
	line=$(tail -n 1 "$OUT/conf.out")
	echo "conf golden: $line"
	[ "$rc" -ne 0 ] && tail -n 40 "$OUT/conf.out"
	count conf "$rc" \
	    "$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')" \
	    "$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')"
}

report_fuzz() {
	local name=$1 f rc runs seeds verdict=ok
	f=$(item_file "fuzz:$name")
	[ -f "$OUT/$f.rc" ] || return
	read -r rc _ <"$OUT/$f.rc"
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
	    "$OUT/$f.out" | tail -n 1)
	seeds=$(ls "tests/fuzz/corpus/${name#fuzz_}" 2>/dev/null | wc -l)
	[ "$rc" -ne 0 ] && verdict=FAILED
	echo "fuzz $name: $seeds seeds, ${runs:-0} runs, $verdict"
	if [ "$rc" -eq 0 ]; then
		count "fuzz-$name" 0 1 0
	else
		grep -v '^#\|^INFO\|^stat::' "$OUT/$f.out" | head -n 60
		count "fuzz-$name" "$rc" 0 1
	fi
}

report_scenario() {
	# report_scenario ITEM LABEL
	local f rc ms line
	f=$(item_file "$1")
	[ -f "$OUT/$f.rc" ] || return
	read -r rc ms <"$OUT/$f.rc"
	line=$(tail -n 1 "$OUT/$f.out")
	echo "$2: $line ($((ms / 1000)) s)"
	[ "$rc" -ne 0 ] && grep -v '^ok ' "$OUT/$f.out" | head -n 80
	count "$2" "$rc" \
	    "$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')" \
	    "$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')"
}

# Processes of this run's clusters still running: daemons, munged and
# jobs carry its directory in their environment or arguments.
leftovers() {
	local p
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" = "$$" ] && continue
		if grep -qzF "LSF_ENVDIR=$RUN/" "$p/environ" 2>/dev/null ||
		    grep -qzF "$RUN/tmp/" "$p/cmdline" 2>/dev/null; then
			echo "${p#/proc/} $(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)"
		fi
	done
}

# -------------------------------------------------------------- the run
units=() cpu=() scen=() alone=() fuzz=()
if [ -z "$pattern" ]; then
	for t in "${BUILD:-build}"/tests/check_*; do
		[ -x "$t" ] && units+=("unit:$t")
	done
	if [ -z "${BUILD:-}" ] && [ -d build-asan/tests ]; then
		for t in build-asan/tests/check_*; do
			[ -x "$t" ] && units+=("asanunit:$t")
		done
	fi
	cpu=("${units[@]}" conf)
fi
if { [ -z "$pattern" ] && [ -z "${BUILD:-}" ]; } || [ "$pattern" = fuzz ]; then
	for src in tests/fuzz/fuzz_*.c; do
		fuzz+=("$(basename "$src" .c)")
	done
	for name in "${fuzz[@]}"; do
		# make fuzz builds them with clang: without them this fails.
		[ -x "build-fuzz/$name" ] && cpu+=("fuzz:$name")
	done
fi
if [ "$pattern" != fuzz ]; then
	for t in tests/scenario/t[0-9]*.sh; do
		name=$(basename "$t" .sh)
		[ -n "$pattern" ] && ! echo "$t" | grep -q -- "$pattern" && continue
		case " $ALONE " in
		*" $name "*) alone+=("scen:$name"); continue ;;
		esac
		scen+=("scen:$name")
	done
	if [ -z "$pattern" ] && [ -z "${BUILD:-}" ] && [ -x build-asan/sbin/mbatchd ]; then
		for n in $ASAN_SCENARIOS; do
			t=$(ls tests/scenario/$n-*.sh 2>/dev/null | head -n 1)
			[ -n "$t" ] && scen+=("asan:$(basename "$t" .sh)")
		done
	fi
fi

t_start=$(date +%s)
[ ${#cpu[@]} -gt 0 ] && lane "$CPU_JOBS" 10 "${cpu[@]}" &
cpu_lane=$!
if [ ${#scen[@]} -gt 0 ]; then
	# shellcheck disable=SC2046
	lane "$SCENARIO_JOBS" 0 $(by_length "${scen[@]}")
fi
wait "$cpu_lane" 2>/dev/null
for it in "${alone[@]}"; do
	run_item "$it"
done

# The results, in a fixed order.
for it in "${units[@]}"; do
	case $it in
	unit:*) report_unit "$it" "$(basename "${it#unit:}")" ;;
	asanunit:*) report_unit "$it" "asan $(basename "${it#asanunit:}")" ;;
	esac
done
[ -z "$pattern" ] && report_conf
for name in "${fuzz[@]}"; do
	if [ ! -x "build-fuzz/$name" ]; then
		echo "fuzz $name: not built (make fuzz needs clang)"
		count "fuzz-$name" 1 0 1
		continue
	fi
	report_fuzz "$name"
done
for it in $(printf '%s\n' "${scen[@]}" "${alone[@]}" | grep '^scen:' | sort); do
	report_scenario "$it" "${it#scen:}"
done
for it in $(printf '%s\n' "${scen[@]}" | grep '^asan:' | sort); do
	report_scenario "$it" "asan ${it#asan:}"
done

# What outlived its test: a failure, then gone.
left=$(leftovers)
if [ -n "$left" ]; then
	echo "left running by the tests:"
	echo "$left" | sed 's/^/  /'
	count "leftovers" 1 0 1
	for sig in TERM CONT KILL; do
		echo "$left" | awk '{ print $1 }' | xargs -r kill -"$sig" 2>/dev/null
		[ "$sig" = CONT ] && sleep 1
	done
fi

# Waits that ran out without failing their test: time lost, and most
# likely a step that asserts nothing (lib.sh, wait_for).
vain=$(grep -h '^# waited .* in vain' "$OUT"/scen_*.out "$OUT"/asan_*.out \
    2>/dev/null | sort | uniq -c | sort -rn)
if [ -n "$vain" ]; then
	echo "waits that ran out:"
	echo "$vain" | head -n 20 | sed 's/^/  /'
fi

# The ten slowest, so that a slow new test is seen when it lands; the
# times of this run, for tests/scenario/times.
for f in "$OUT"/*.rc; do
	[ -f "$f" ] || continue
	read -r _ ms <"$f"
	n=$(basename "$f" .rc)
	case $n in
	scen_*) echo "$ms ${n#scen_}" ;;
	asan_*) echo "$ms asan ${n#asan_}" ;;
	esac
done | sort -rn >"$RUN/times"
if [ -s "$RUN/times" ]; then
	echo "slowest:"
	head -n 10 "$RUN/times" | awk '{ ms = $1; $1 = ""; printf "  %5.1f s %s\n", ms / 1000, substr($0, 2) }'
	mkdir -p "${BUILD:-build}"
	awk '{ ms = $1; $1 = ""; printf "%s %d\n", substr($0, 2), (ms + 999) / 1000 }' \
	    "$RUN/times" | sort >"${BUILD:-build}/scenario-times"
fi
echo "wall time: $(( $(date +%s) - t_start )) s"

if [ -n "$failures" ]; then
	echo "failing:$failures"
	echo "# kept $RUN"
elif [ -n "${KEEP:-}" ]; then
	echo "# kept $RUN (KEEP)"
else
	rm -rf "$RUN"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
