#!/bin/bash
# Fairshare accuracy (issue 22): bench/sim/fsacc.c's checks, a day of
# bursts by users of shares 5:3:1:1 and a burst of 10,000 jobs, run on
# the real scheduling pass.  Prints its RESULT lines and a PASS or FAIL
# line per check; exits 1 when a check fails.  Then the same with the
# queue FCFS (fsacc -F), a control: its day and burst_fresh checks must
# fail, or the checks could not tell fairshare from FCFS (exit 1 too).
#
# Environment: O, the build directory (default build); BENCH_OUT.
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
O=${O:-build}
OUT=${BENCH_OUT:-$TOP/bench/out}/w9acc
mkdir -p "$OUT"
SIM=$(O="$O" "$TOP/bench/sim/build.sh") || exit 1
ACC=${SIM%/sim}/fsacc
rc=0
"$ACC" | tee "$OUT/fsacc.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
"$ACC" -F >"$OUT/fsacc-fcfs.txt" 2>&1
for c in day burst_fresh; do
	if grep -q "^FAIL $c:" "$OUT/fsacc-fcfs.txt"; then
		echo "PASS control: FCFS fails $c"
	else
		echo "FAIL control: FCFS passes $c (see $OUT/fsacc-fcfs.txt)"
		rc=1
	fi
done
exit $rc
