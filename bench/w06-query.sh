#!/bin/bash
# Workload 6: queries.  With 10,000 and 100,000 pending jobs in the
# system (an lsb.events written by tools/mklog, jobs in an inactive
# queue): ms per `bjobs -u all -noheader -o "jobid stat"` and per
# single-job `bjobs <id>`, the median of several calls (each call is the
# whole command, as a user sees it), and the same timing of a program
# that does nothing, the floor of a query timed so.  Then submission
# throughput (as in workload 1) with and without 20 clients polling
# `bjobs` in a loop, on fresh clusters, in alternating rounds.
. "$(dirname "$0")/lib.sh"

bench_bigsys_init
for size in 10k 100k; do
	case $size in
	10k) n=$(scaled 10000 10); k=11 ;;
	100k) n=$(scaled 100000 10); k=7 ;;
	esac
	bench_bigsys_load "$n"
	# The listing has every job.
	got=$(bjobs -u all -noheader -o "jobid stat" 2>/dev/null | wc -l)
	[ "$got" = "$n" ] || { say "bjobs lists $got jobs, not $n"; exit 1; }
	result "w6.list_${size}_ms" "$(median_ms "$k" bjobs -u all -noheader \
	    -o "jobid stat")" ms
	result "w6.one_${size}_ms" "$(median_ms 21 bjobs $((n / 2)))" ms
done
# The floor of a query timed this way: the minimal program of the limits
# (static, built as the commands are), started and timed by bash exactly
# as `bjobs <id>` is above, beside the same cluster.
[ -x "$BTOOLS/nop" ] &&
    result w6.one_floor_ms "$(median_ms 21 "$BTOOLS/nop")" ms
bench_stop

# Submission with and without pollers.
N=$(scaled 1000 20)
P=20
POLL_SECS=300
# Pause between one poller's calls.  The target run pauses 0.1 s (20
# clients: up to 200 bjobs a second, far more than workflow tools poll),
# so that what is measured is whether queries stall mbatchd.  A second
# run without any pause is reported too (w6.*_tight): on a 2-core
# machine 20 such loops of process spawns take most of the CPU the
# submitting client needs, so it measures CPU share more than mbatchd.
PAUSE=${BENCH_POLL_PAUSE:-0.1}
submit_rate() {
	local t0 t1 done_n
	bench_init 1 2
	bench_start
	bench_idle_queue
	bsub -q idle -o /dev/null /bin/true >/dev/null
	if [ "$1" = polled ]; then
		local stop="$B_DIR/out/stop" i
		ppids=""
		for ((i = 0; i < P; i++)); do
			(
				end=$(( $(now_s) + POLL_SECS ))
				n=0
				# No $(...) here: a subshell per call would
				# be charged to polling.
				while [ ! -e "$stop" ] &&
				    [ "${EPOCHREALTIME%.*}" -lt "$end" ]; do
					bjobs >/dev/null 2>&1
					n=$((n + 1))
					[ "$n" = 1 ] && : >"$B_DIR/out/up.$i"
					[ "$PAUSE" = 0 ] || nap "$PAUSE"
				done
				echo "$n" >"$B_DIR/out/polls.$i"
			) &
			ppids="$ppids $!"
		done
		# The clock starts once every poller is polling: what is
		# measured is submission while they poll, not their start.
		local up=() deadline=$(( $(now_s) + 30 ))
		while up=("$B_DIR"/out/up.*); [ "${#up[@]}" -lt "$P" ] ||
		    [ ! -e "${up[0]}" ]; do
			[ "$(now_s)" -lt "$deadline" ] ||
			    { say "the pollers did not start"; exit 1; }
			nap 0.01
		done
	fi
	now_us t0
	done_n=$(submit_loop "$N" 300 -q idle -o /dev/null /bin/true)
	now_us t1
	if [ "$1" = polled ]; then
		touch "$stop"
		for p in $ppids; do wait "$p"; done
		polls=$(cat "$B_DIR"/out/polls.* | awk '{ s += $1 } END { print s }')
		say "$P pollers ran $polls bjobs"
		# Each poller's first call came before the clock started.
		POLL_RATE=$(rate $((polls - P)) "$t0" "$t1")
	fi
	got=$(queue_njobs idle)
	[ "$got" = $((done_n + 1)) ] || { say "expected $((done_n + 1)) jobs, got $got";
	    exit 1; }
	RATE=$(rate "$done_n" "$t0" "$t1")
	bench_stop
}
# One run of each takes about a second, and on this kind of machine one
# unpolled run alone measured anything from 1,230 to 1,630 jobs/s (the
# disk's sync time drifts), which a single pair puts straight into the
# ratio: so ROUNDS pairs, alternating, and the median of each.
ROUNDS=${BENCH_W6_ROUNDS:-3}
unpolled_rates=""
polled_rates=""
poll_rates=""
for ((round = 1; round <= ROUNDS; round++)); do
	say "round $round: $N bsub without pollers"
	submit_rate unpolled
	unpolled_rates="$unpolled_rates $RATE"
	say "round $round: $N bsub with $P clients polling bjobs, $PAUSE s apart"
	submit_rate polled
	polled_rates="$polled_rates $RATE"
	poll_rates="$poll_rates $POLL_RATE"
done
# shellcheck disable=SC2086 # word splitting wanted
unpolled=$(printf '%s\n' $unpolled_rates | median)
# shellcheck disable=SC2086
polled=$(printf '%s\n' $polled_rates | median)
say "unpolled:$unpolled_rates; polled:$polled_rates jobs/s"
result w6.submit_rate_unpolled "$unpolled" jobs/s
result w6.submit_rate_polled "$polled" jobs/s
# shellcheck disable=SC2086
result w6.polls_per_s "$(printf '%s\n' $poll_rates | median)" calls/s
result w6.polled_ratio "$(ratio "$polled" "$unpolled")" x
say "$N bsub with $P clients polling bjobs without a pause"
PAUSE=0
submit_rate polled
result w6.polls_per_s_tight "$POLL_RATE" calls/s
result w6.submit_rate_polled_tight "$RATE" jobs/s
result w6.polled_ratio_tight "$(ratio "$RATE" "$unpolled")" x
