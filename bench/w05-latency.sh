#!/bin/bash
# Workload 5: submit-to-start latency on an idle cluster: 200 single
# jobs, one at a time (each submitted once the one before has ended);
# each job's first act is to write its start time (tools/stamp).  The
# submit time is taken just before bsub runs.  p50 / p95 / max in ms;
# every latency goes to $BENCH_OUT/w5_latency.tsv.
. "$(dirname "$0")/lib.sh"

N=$(scaled 200 10)
STAMP=$(need_tool stamp)
bench_init 1 2
bench_start
bsub -o /dev/null /bin/true >/dev/null
wait_queue_empty normal 30 || { say "warm-up job did not end"; exit 1; }
lat="$B_DIR/out/latency"
: >"$lat"
say "$N jobs, one at a time"
for ((i = 0; i < N; i++)); do
	f="$B_DIR/out/start.$i"
	now_us t0
	bsub -o /dev/null "$STAMP" "$f" >/dev/null 2>&1 ||
	    { say "bsub failed"; exit 1; }
	deadline=$(( $(now_s) + 30 ))
	while [ ! -s "$f" ]; do
		[ "$(now_s)" -ge "$deadline" ] && { say "job $i did not start";
		    exit 1; }
		nap 0.002
	done
	awk -v a="$t0" '{ split($1, p, "."); printf "%.3f\n",
	    (p[1] * 1e6 + substr(p[2], 1, 6) - a) / 1e3 }' "$f" >>"$lat"
	wait_queue_empty normal 30 || { say "job $i did not end"; exit 1; }
done
[ "$(wc -l <"$lat")" = "$N" ] || { say "lost latencies"; exit 1; }
mkdir -p "$BENCH_OUT"
sort -n "$lat" >"$BENCH_OUT/w5_latency.tsv"
pct() {
	awk -v p="$1" '{ v[NR] = $1 } END { i = int(p * NR + 0.999999);
	    if (i < 1) i = 1; if (i > NR) i = NR; print v[i] }' \
	    "$BENCH_OUT/w5_latency.tsv"
}
result w5.latency_p50_ms "$(pct 0.50)" ms
result w5.latency_p95_ms "$(pct 0.95)" ms
result w5.latency_max_ms "$(pct 1.0)" ms
