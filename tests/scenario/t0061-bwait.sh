#!/bin/bash
# bwait -w "condition": returns 0 once the dependency expression over the
# caller's jobs is true, fails at once when it can never be, when it does
# not parse or names no job, and after the -t timeout (minutes).
. "$(dirname "$0")/lib.sh"

cluster_init 1
cluster_start
cd "$T_DIR/jobs"

quick=$(submit -o /dev/null sleep 2)
bad=$(submit -J failing -o /dev/null sh -c "sleep 1; exit 3")
start=$(date +%s)
out=$(bwait -w "done($quick)" 2>&1)
rc=$?
expect_eq "bwait: done() of a job that ends well returns 0" 0 "$rc"
expect_eq "bwait: and prints nothing" "" "$out"
check "bwait: it waited for the job" job_is "$quick" DONE
out=$(bwait -w "ended($quick) && done($quick)" 2>&1)
expect_eq "bwait: an expression true already returns at once" 0 "$?"

out=$(bwait -w "done(failing)" 2>&1)
rc=$?
expect_eq "bwait: a condition that can never be true" \
    "bwait: The wait condition can never be satisfied" "$out"
expect_eq "bwait: fails" 255 "$rc"
out=$(bwait -w "exit($bad, 3)" 2>&1)
expect_eq "bwait: exit(job, code) by ID" 0 "$?"

out=$(bwait -w "done(99999)" 2>&1)
rc=$?
expect_eq "bwait: a job that does not exist" \
    "done(99999): No matching job found" \
    "$out"
expect_eq "bwait: fails" 255 "$rc"
out=$(bwait -w "done($quick" 2>&1)
rc=$?
expect_eq "bwait: a syntax error" \
    "done($quick: Dependency condition syntax error" "$out"
expect_eq "bwait: fails" 255 "$rc"
out=$(bwait -w "done($quick)" -t 0 2>&1)
rc=$?
expect_eq "bwait -t 0 is refused" \
    "bwait: -t: the value must be an integer between 1 and 525600 minutes" \
    "$out"
expect_eq "bwait -t 0: fails" 255 "$rc"
bwait >/dev/null 2>&1
expect_eq "bwait without -w: usage" 255 "$?"

# A restart of mbatchd does not end the wait.
mid=$(submit -o /dev/null sleep 4)
bwait -w "done($mid)" >"$T_DIR/bwait.out" 2>&1 &
bw=$!
mbd_restart
wait "$bw"
rc=$?
expect_eq "bwait: waits through an mbatchd restart, then returns 0" 0 "$rc"
expect_eq "bwait: and says nothing" "" "$(cat "$T_DIR/bwait.out")"
check "bwait: the job is done" job_is "$mid" DONE

long=$(submit -o /dev/null sleep 600)
wait_for job_is "$long" RUN
start=$(date +%s)
out=$(bwait -w "done($long)" -t 1 2>&1)
rc=$?
took=$(( $(date +%s) - start ))
expect_eq "bwait -t 1: gives up after a minute" \
    "bwait: The wait condition is not satisfied before the timeout" "$out"
expect_eq "bwait -t: fails" 255 "$rc"
check "bwait -t 1: waited 60 to 75 seconds (took $took)" \
    test "$took" -ge 60 -a "$took" -le 75
bkill "$long" >/dev/null 2>&1
finish
