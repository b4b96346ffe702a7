#!/bin/bash
# Workload 2: durable submission, 8 concurrent clients, each N/8 bsub one
# after another (inactive queue); jobs/s over all.
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
for ((c = 0; c < C; c++)); do
	submit_loop "$per" 300 -q idle -o /dev/null /bin/true \
	    >"$B_DIR/out/client.$c" &
	cpids="${cpids:-} $!"
done
for p in $cpids; do wait "$p"; done
now_us t1
done_n=$(cat "$B_DIR"/out/client.* | awk '{ s += $1 } END { print s }')
got=$(queue_njobs idle)
[ "$got" = $((done_n + 1)) ] || { say "expected $((done_n + 1)) jobs, got $got";
    exit 1; }
result w2.submit_rate "$(rate "$done_n" "$t0" "$t1")" jobs/s
