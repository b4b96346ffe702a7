#!/bin/bash
# bjobs -A of a job that is not an array said nothing and exited 0; LSF
# says "Job <N> is not a job array" (on stderr, as its other answers
# about IDs), and fails when no ID given was an array.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cluster_start
cd "$T_DIR/jobs"

plain=$(submit -o /dev/null sleep 60)
arr=$(submit -J "a[1-3]" -o /dev/null sleep 60)

err=$(bjobs -A "$plain" 2>&1 >/dev/null)
rc=$?
expect_eq "bjobs -A of a plain job says so" \
    "Job <$plain> is not a job array" "$err"
expect_eq "and fails" 255 "$rc"
out=$(bjobs -A -noheader "$arr" 2>/dev/null)
expect_match "bjobs -A of an array lists it" "^$arr +" "$out"
out=$(bjobs -A -noheader "$arr" "$plain" 2>"$T_DIR/err")
rc=$?
expect_match "both IDs: the array is listed" "^$arr +" "$out"
expect_eq "the plain job is named on stderr" \
    "Job <$plain> is not a job array" "$(cat "$T_DIR/err")"
expect_eq "and it succeeds, as something was listed" 0 "$rc"
err=$(bjobs -A 99999 2>&1 >/dev/null)
expect_eq "an unknown ID is still not found" "Job <99999> is not found" "$err"
bkill 0 >/dev/null 2>&1

# Only -J makes an array: a command with brackets, which is also the
# job's default name, is one job (before, "[1-3]" made three).
j=$(submit -o /dev/null 'echo x[1-3]')
out=$(bjobs -A "$j" 2>&1)
expect_eq "a command with brackets is not an array" \
    "Job <$j> is not a job array" "$out"
expect_eq "bjobs lists it once" 1 \
    "$(bjobs -a -noheader -o jobid "$j" | wc -l)"
finish
