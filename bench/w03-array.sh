#!/bin/bash
# Workload 3: one array of 10,000 /bin/true elements on one host of 2
# slots: ms for bsub to answer; elements/s from submission to the last
# DONE.
. "$(dirname "$0")/lib.sh"

N=$(scaled 10000 10)
bench_init 1 2
bench_start
bsub -o /dev/null /bin/true >/dev/null	# warm up, and let it end
wait_queue_empty normal 30 || { say "warm-up job did not end"; exit 1; }
say "array of $N"
now_us t0
out=$(bsub -J "a[1-$N]" -o /dev/null /bin/true 2>&1)
now_us t1
case $out in
"Job <"*) ;;
*) say "bsub: $out"; exit 1 ;;
esac
result w3.array_submit_ms "$(ms "$t0" "$t1")" ms
wait_queue_empty normal 600 || { say "array not done in 600 s"; exit 1; }
now_us t2
got=$(count_stat DONE -J a)
[ "$got" = "$N" ] || { say "expected $N DONE elements, got $got"; exit 1; }
result w3.array_run_rate "$(rate "$N" "$t0" "$t2")" jobs/s
