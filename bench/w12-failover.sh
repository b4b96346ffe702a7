#!/bin/bash
# Workload 12: master failover (issue 23).
#
# Three hosts, LSF_MASTER_LIST="hosta hostb": hosta is master, hostb the
# next candidate, hostc only runs jobs.  Rounds of two kinds, alternated,
# N of each (N = 20 at BENCH_SCALE 1, at least 3):
#
#	a	hosta's sbatchd and mbatchd killed (kill -9), its lim
#		alive: the lim resigns after its grace (SBD_GRACE_MS,
#		daemons/lim/lim-elect.c) and hostb's sbatchd starts mbatchd
#	b	hosta's lim, sbatchd and mbatchd killed: hostb's lim
#		elects itself when its connection to hosta's closes
#
# Each round, after a random pause of 50-1,050 ms (kills at every phase
# of the daemons' one-second timers, as workload 11's samples): the time
# is taken just before the kill, then bsub (LSB_NTRIES=1, so one try
# each) is run every 10 ms until a job is accepted, then bjobs every
# 10 ms until that job is RUN or DONE.  The job is `-m hostc`, the host
# nobody kills, so that its start is the new master's dispatch and not a
# dead sbatchd's timeout.  Then the lost daemons are started again, and
# the round ends once hosta is master again, its sbatchd's mbatchd
# answers and hostb's has stopped (failback; its time is said, not a
# result).  Every round goes to $BENCH_OUT/w12_failover.tsv: round,
# kind, accepted ms, started ms, failback ms.
#
#	RESULT|w12.K_accept_p50_ms / p90 / max	(K = a, b): kill to accepted
#	RESULT|w12.K_start_p50_ms / p90 / max	kill to the job started
#
# Loopback addresses on one machine: a vanished host's connections are
# reset at once here, where on a network one that stops answering costs
# the LIMs' probe timeout as well.
. "$(dirname "$0")/lib.sh"

N=$(scaled 20 3)
FO=$BENCH_OUT/w12_failover.tsv

master() { lsid 2>/dev/null | sed -n 's/^My master name is //p'; }
master_is() { [ "$(master)" = "$1" ]; }
mbd_of() { pgrep -P "$1" -x mbatchd; }
job_stat() { bjobs -noheader -o stat "$1" 2>/dev/null; }

# Pids killed on purpose leave B_PIDS: bench_stop must not signal
# whatever process reuses one.
drop_pids() {
	local p
	for p in "$@"; do
		B_PIDS=$(echo " $B_PIDS " | sed "s/ $p / /; s/^ *//; s/ *\$//")
	done
}

# hosta master, its sbatchd's mbatchd answering, none on hostb.
failed_back() {
	master_is hosta &&
	    mbd_of "$PID_sbatchd_hosta" >/dev/null &&
	    ! mbd_of "$PID_sbatchd_hostb" >/dev/null &&
	    LSB_NTRIES=0 bqueues >/dev/null 2>&1
}

# until CMD...: CMD every 10 ms until it succeeds, at most 60 s.
until_ok() {
	local deadline=$(( $(now_s) + 60 ))
	until "$@" >/dev/null 2>&1; do
		[ "$(now_s)" -ge "$deadline" ] && return 1
		nap 0.01
	done
}

# One try of bsub; the job ID in NEW.
accepted() {
	local out
	out=$(LSB_NTRIES=1 bsub -m hostc -o /dev/null /bin/true 2>/dev/null) ||
	    return 1
	out=${out#Job <}
	NEW=${out%%>*}
	[ -n "$NEW" ]
}
started() {
	case $(job_stat "$NEW") in RUN | DONE) return 0 ;; esac
	return 1
}

# round I KIND: kill, time the return of batch service, restore.
round() {
	local i=$1 kind=$2 mbd t0 t1 t2 t3 pids
	mbd=$(mbd_of "$PID_sbatchd_hosta") ||
	    { say "round $i: no mbatchd under hosta's sbatchd"; exit 1; }
	case $kind in
	a) pids="$PID_sbatchd_hosta $mbd" ;;
	b) pids="$PID_lim_hosta $PID_sbatchd_hosta $mbd" ;;
	esac
	# Out of the job table: no "Killed" notice from bash (bash still
	# reaps them).
	disown $pids 2>/dev/null
	random_pause 50 1000
	now_us t0
	kill -9 $pids
	until_ok accepted || { dump_logs; say "round $i ($kind):" \
	    "no bsub accepted in 60 s"; exit 1; }
	now_us t1
	until_ok started || { dump_logs; say "round $i ($kind): job $NEW" \
	    "is $(job_stat "$NEW") after 60 s"; exit 1; }
	now_us t2
	# Said, not fatal: the figures above are batch service's return.
	wait_for master_is hostb || say "round $i ($kind): master is" \
	    "$(master), not hostb"
	drop_pids $PID_sbatchd_hosta
	[ "$kind" = b ] && { drop_pids "$PID_lim_hosta"
	    start_daemon lim hosta; }
	start_daemon sbatchd hosta
	wait_for failed_back || { dump_logs; say "round $i ($kind): no" \
	    "failback to hosta in $WAIT_SECS s (master $(master))"; exit 1; }
	now_us t3
	wait_for all_hosts_ok || { dump_logs; say "round $i ($kind):" \
	    "hosts not ok after failback"; exit 1; }
	printf '%d\t%s\t%s\t%s\t%s\n' "$i" "$kind" "$(ms "$t0" "$t1")" \
	    "$(ms "$t0" "$t2")" "$(ms "$t2" "$t3")" >>"$FO"
	say "round $i ($kind): accepted $(ms "$t0" "$t1") ms, started" \
	    "$(ms "$t0" "$t2") ms, failback $(ms "$t2" "$t3") ms"
}

bench_init 3 4
sed -i 's/^LSF_MASTER_LIST=.*/LSF_MASTER_LIST="hosta hostb"/' \
    "$LSF_CONF/lsf.conf"
bench_start
wait_for failed_back || { dump_logs; say "hosta is not master"; exit 1; }
# Warm the commands' and daemons' paths, and hostc's.
NEW=$(submit -m hostc -o /dev/null /bin/true) || { say "bsub failed"
    exit 1; }
wait_for started || { say "warm-up job did not start"; exit 1; }

mkdir -p "$BENCH_OUT"
: >"$FO"
say "$N failovers of each kind, alternated"
for ((i = 1; i <= 2 * N; i++)); do
	round "$i" "$([ $((i % 2)) -eq 1 ] && echo a || echo b)"
done

for k in a b; do
	awk -F'\t' -v k="$k" -v OFS='\t' '$2 == k' "$FO" >"$B_DIR/out/$k"
	[ "$(wc -l <"$B_DIR/out/$k")" = "$N" ] ||
	    { say "lost rounds of kind $k"; exit 1; }
	for c in 3:accept 4:start; do
		for p in 50 90; do
			result "w12.${k}_${c#*:}_p${p}_ms" \
			    "$(pct_col "0.$p" "${c%%:*}" "$B_DIR/out/$k")" ms
		done
		result "w12.${k}_${c#*:}_max_ms" \
		    "$(pct_col 1 "${c%%:*}" "$B_DIR/out/$k")" ms
	done
	say "kind $k: failback p50 $(pct_col 0.5 5 "$B_DIR/out/$k")," \
	    "max $(pct_col 1 5 "$B_DIR/out/$k") ms (not a result)"
done
