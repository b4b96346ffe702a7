#!/bin/bash
# Submissions at and over the limits: a script over what mbatchd takes
# is refused by bsub with a clear message (it used to abort on a BUG),
# and nothing reaches mbatchd; a large environment and a dependency of
# three thousand terms are taken, logged, replayed and run.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cluster_start
cd "$T_DIR/jobs"

{ echo '#!/bin/sh'; head -c 20000000 /dev/zero | tr '\0' '#'; echo; echo true; } >big
out=$(bsub -o /dev/null <big 2>&1)
rc=$?
expect_eq "bsub refuses a 20 MB script" 255 "$rc"
expect_match "saying why" \
    "^bsub: the job's script, command and environment take [0-9]+ bytes; a submission may take 16 MB$" \
    "$out"
expect_match "as LSF ends a refusal" "^Bad argument\\. Job not submitted\\.\$" "$out"
expect_eq "nothing was submitted" "No unfinished job found" "$(bjobs 2>&1)"

# Environment strings are bounded by the kernel (128 KB each, ~2 MB in
# all); take a large one.
big=$(head -c 120000 /dev/zero | tr '\0' x)
first=$(BIGVAR=$big submit -o out.%J 'echo ${#BIGVAR}')
check "a job with a 120 KB variable runs" wait_for job_is "$first" DONE
expect_eq "and has it" 120000 "$(head -n 1 "out.$first")"

w=$(for i in $(seq 1 3000); do printf 'done(%d) && ' "$first"; done)
dep=$(submit -w "${w}done($first)" -o /dev/null true)
check "a dependency of 3000 terms is taken" test -n "$dep"
check "and met" wait_for job_is "$dep" DONE
mbd_restart
check "both replay after a restart" sh -c \
    "bjobs -a -noheader -o stat $first $dep | grep -c DONE | grep -qx 2"
finish
