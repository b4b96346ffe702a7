#!/bin/bash
# Workload 1: durable submission, one client: N bsub one after another
# (into an inactive queue, so only submission is measured); jobs/s.
. "$(dirname "$0")/lib.sh"

N=$(scaled 2000 20)
bench_init 1 2
bench_start
bench_idle_queue
bsub -q idle -o /dev/null /bin/true >/dev/null	# warm the caches
say "$N sequential bsub"
now_us t0
done_n=$(submit_loop "$N" 300 -q idle -o /dev/null /bin/true)
now_us t1
got=$(queue_njobs idle)
[ "$got" = $((done_n + 1)) ] || { say "expected $((done_n + 1)) jobs, got $got";
    exit 1; }
result w1.submit_rate "$(rate "$done_n" "$t0" "$t1")" jobs/s
