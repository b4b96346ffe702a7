#!/bin/bash
# bsub -C 0, the usual way to turn core files off, was refused as a bad
# argument; so were -D, -F, -S and -v of 0.  Those limits are set with
# setrlimit, where 0 is a limit like any other: bsub takes it and the job
# runs with it.  A limit not given is still none.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cluster_start
cd "$T_DIR/jobs"

out=$(bsub -C 0 -o zero.%J 'ulimit -c' 2>&1)
expect_match "bsub -C 0 is taken" '^Job <[0-9]+> is submitted' "$out"
z=$(echo "$out" | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
check "the job runs to the end" wait_for job_is "$z" DONE
expect_eq "with no core file allowed" 0 "$(head -n 1 "zero.$z")"

# LSF_UNIT_FOR_LIMITS is MB in the test clusters: 2 MB, which the job's
# /bin/sh counts in 512-byte blocks.
s=$(submit -C 2 -o two.%J 'ulimit -c')
check "a job with -C 2 runs" wait_for job_is "$s" DONE
expect_eq "with 2 MB" 4096 "$(head -n 1 "two.$s")"

d=$(submit -o none.%J 'ulimit -c')
check "a job without -C runs" wait_for job_is "$d" DONE
expect_eq "with sbatchd's own core limit" "$(sh -c 'ulimit -c')" \
    "$(head -n 1 "none.$d")"

for o in -D -F -S -v; do
	out=$(bsub $o 0 -o /dev/null true 2>&1)
	expect_match "bsub $o 0 is taken too" '^Job <[0-9]+> is submitted' "$out"
done
out=$(bsub -M 0 -o /dev/null true 2>&1)
expect_match "but -M 0 is still a bad argument" 'Bad argument' "$out"
bkill 0 >/dev/null 2>&1
finish
