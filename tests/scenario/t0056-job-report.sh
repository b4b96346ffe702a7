#!/bin/bash
# The job report appended to the -o file, in LSF's shape: the resource
# usage summary with its "Max Processes" and "Max Threads" lines (the
# most the job's process tree had, "-" for a job too short to be seen),
# and, when -e names a file of its own, the trailer "PS:" / "Read file
# <file> for stderr output of this job." that scripts wait for.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cluster_start
cd "$T_DIR/jobs"

# The summary's labels in order, values masked where they vary.
summary() {
	sed -n '/^Resource usage summary:$/,$p' "$1" |
	    sed -E 's/^(    [A-Za-z ]+ :) +[0-9.]+ (sec\.|MB)$/\1 N \2/'
}

# Three processes (the shell and two sleeps) for a few seconds.
a=$(submit -o a.out -e a.err 'sleep 3 & sleep 3; wait; echo done-a')
check "a job with -o and -e ends DONE" wait_for job_is "$a" DONE
expect_eq "the summary and the trailer, line by line" \
"Resource usage summary:

    CPU time : N sec.
    Max Memory : N MB
    Average Memory : N MB
    Total Requested Memory :                     -
    Delta Memory :                               -
    Max Swap :                                   -
    Max Processes :                              3
    Max Threads :                                3
    Run time : N sec.
    Turnaround time : N sec.

The output (if any) is above this job summary.



PS:

Read file <a.err> for stderr output of this job." "$(summary a.out)"
expect_eq "the file ends with the trailer and one blank line" \
    "$(printf 'job.\n\n' | od -c)" "$(tail -c 6 a.out | od -c)"
expect_eq "the values line up at column 50" 1 \
    "$(grep -E '^    Max Processes : {30}3$' a.out | wc -l)"

# Too short to be sampled: "-", and no trailer without -e.
b=$(submit -o b.out 'echo done-b')
check "a short job ends DONE" wait_for job_is "$b" DONE
expect_eq "a short job's counts are -" \
"    Max Processes :                              -
    Max Threads :                                -" \
    "$(grep -E '^    Max (Processes|Threads) :' b.out)"
expect_eq "no trailer without -e" 0 "$(grep -c '^PS:' b.out)"
expect_eq "the report ends with its last line and one blank line" \
    "$(printf 'summary.\n\n' | od -c)" "$(tail -c 10 b.out | od -c)"

# -e the same file as -o: stderr is in it, no trailer.
c=$(submit -o c.out -e c.out 'echo err-c >&2')
check "-e same as -o: DONE" wait_for job_is "$c" DONE
expect_eq "-e same as -o: no trailer" 0 "$(grep -c '^PS:' c.out)"
finish
