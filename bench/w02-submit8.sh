#!/bin/bash
# Workload 2: durable submission, 8 concurrent clients, each N/8 bsub one
# after another (inactive queue; tools/spawnloop -c 8); jobs/s over all.
. "$(dirname "$0")/lib.sh"

C=8
N=$(scaled 4000 $((C * 5)))
per=$((N / C))
bench_init 1 2
bench_start
bench_idle_queue
bsub -q idle -o /dev/null /bin/true >/dev/null
say "$C clients x $per bsub"
now_us t0
done_n=$("$(need_tool spawnloop)" -c "$C" -t 300 "$N" bsub -q idle \
    -o /dev/null /bin/true)
now_us t1
got=$(queue_njobs idle)
[ "$got" = $((done_n + 1)) ] || { say "expected $((done_n + 1)) jobs, got $got";
    exit 1; }
result w2.submit_rate "$(rate "$done_n" "$t0" "$t1")" jobs/s
