#!/bin/bash
# Workload 4: 2,000 /bin/true jobs submitted held (-H), released at once
# (bresume 0), run to DONE on 2 slots; jobs/s from the release to the
# last DONE.  With BENCH_W4_OUT=dir, each job's -o is a new file of its
# own in a fresh directory under dir, removed after; the figure is then
# w4.release_run_rate_ofile.
. "$(dirname "$0")/lib.sh"

N=$(scaled 2000 10)
bench_init 1 2
bench_start
out=/dev/null metric=w4.release_run_rate
if [ -n "${BENCH_W4_OUT:-}" ]; then
	odir=$(mktemp -d "$BENCH_W4_OUT/lsfb.w4.XXXXXX") || exit 1
	B_RMDIRS+=("$odir")
	out=$odir/%J.out metric=w4.release_run_rate_ofile
fi
say "submitting $N held jobs"
done_n=$(submit_loop "$N" 300 -H -o "$out" /bin/true)
[ "$done_n" = "$N" ] || { say "only $done_n submitted"; exit 1; }
got=$(queue_counts normal)
[ "$got" = "$N $N 0 0" ] || [ "${got%% *}" = "$N" ] ||
    { say "expected $N held jobs, bqueues says $got"; exit 1; }
now_us t0
bresume 0 >/dev/null 2>&1 || { say "bresume 0 failed"; exit 1; }
wait_queue_empty normal 600 || { say "jobs not done in 600 s"; exit 1; }
now_us t1
got=$(count_stat DONE)
[ "$got" = "$N" ] || { say "expected $N DONE jobs, got $got"; exit 1; }
result "$metric" "$(rate "$N" "$t0" "$t1")" jobs/s
