#!/bin/bash
# Workload 13: job packs (issue 24).  N jobs from one bsub -pack file
# (LSB_MAX_PACK_JOBS to a request, each request's records written with
# one fdatasync), against M bsub calls one after another in the same
# cluster, as workload 1 makes them; jobs/s of each, into an inactive
# queue so only submission is measured.
. "$(dirname "$0")/lib.sh"

N=$(scaled 10000 100)
M=$(scaled 1000 20)
PACK=${W13_PACK:-1000}
bench_init 1 2 "LSB_MAX_PACK_JOBS=$PACK"
bench_start
bench_idle_queue
bsub -q idle -o /dev/null /bin/true >/dev/null	# warm the caches
pf="$B_DIR/pack.txt"
for ((i = 0; i < N; i++)); do
	echo "-q idle -o /dev/null /bin/true"
done >"$pf"
say "bsub -pack of $N lines, $PACK to a request"
now_us t0
ok=$(bsub -pack "$pf" | grep -c '^Job <')
now_us t1
[ "$ok" = "$N" ] || { say "expected $N jobs submitted, got $ok"; exit 1; }
got=$(queue_njobs idle)
[ "$got" = $((N + 1)) ] || { say "expected $((N + 1)) jobs, got $got"; exit 1; }
result w13.pack_rate "$(rate "$N" "$t0" "$t1")" jobs/s
say "$M sequential bsub"
now_us t0
done_n=$(submit_loop "$M" 300 -q idle -o /dev/null /bin/true)
now_us t1
result w13.seq_rate "$(rate "$done_n" "$t0" "$t1")" jobs/s
