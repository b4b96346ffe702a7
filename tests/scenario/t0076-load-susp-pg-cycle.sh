#!/bin/bash
# Load-based suspension: the paging rate is ignored while the host has
# been idle longer than PG_SUSP_IT and checked once someone uses it
# (LSF's pg reason text); a job that raises the load itself is suspended
# when it rises and resumed when it drops, as often as that happens, and
# loses nothing (its output counts on without a gap or a repeat, and it
# ends DONE); every change is a JOB_STATUS record.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.queues" <<EOF2

Begin Queue
QUEUE_NAME = pgq
PRIORITY = 10
pg = 2/5
End Queue

Begin Queue
QUEUE_NAME = selfq
PRIORITY = 10
r1m = 0.5/1.0
End Queue
EOF2
sed -i 's/^End Parameters/PG_SUSP_IT = 180\nEnd Parameters/' \
    "$LSB_CONF/lsb.params"
elim_install
set_load hostb "r1m 0 pg 0 it 100"
cluster_start
cd "$T_DIR/jobs"

ncpus=$(lshosts hostb | awk 'NR == 2 { print $5 }')
# load "r1m 1.5 pg 0 it 100": r1m per CPU; wait until LIM shows it.
load() {
	local r pg it raw want
	read -r _ r _ pg _ it <<<"$1"
	raw=$(awk -v e="$r" -v n="$ncpus" 'BEGIN { printf "%g", e * n }')
	want=$(awk -v v="$raw" 'BEGIN { printf "%.1f", v }')
	set_load hostb "r1m $raw pg $pg it $it"
	wait_for sh -c "lsload -I r1m:pg:it hostb | awk -v r=$want -v p=$pg \
	    -v i=$it 'NR == 2 && \$3 == r && \$4 == p && \$5 == i { ok = 1 }
	    END { exit !ok }'" || fail "hostb never showed $1"
}
proc_state() { awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null; }
state_is() { [ "$(proc_state "$1")" = "$2" ]; }

# pg: idle for 100 minutes, longer than PG_SUSP_IT (180 s): ignored.
p1=$(submit -q pgq -m hostb -o /dev/null sleep 600)
p2=$(submit -q pgq -m hostb -o /dev/null sleep 600)
wait_for job_is "$p1" RUN
wait_for job_is "$p2" RUN
load "r1m 0 pg 10 it 100"
# Three turns of SBD_SLEEP_TIME: nothing may happen.
sleep 3
expect_eq "an idle host's paging rate suspends nothing" "RUN RUN" \
    "$(job_stat "$p1") $(job_stat "$p2")"
# Idle for 2 minutes only: pg counts.
load "r1m 0 pg 10 it 2"
wait_for sh -c "bjobs -noheader -o stat $p1 $p2 | grep -q SSUSP" ||
    fail "the paging rate suspended nothing"
susp=$(bjobs -noheader -o 'jobid stat' "$p1" "$p2" | awk '$2 == "SSUSP" { print $1 }')
expect_eq "one job is suspended" 1 "$(echo "$susp" | wc -w)"
expect_eq "with LSF's paging reason" \
    ' Job was suspended due to paging rate (pg) and the host is not idle yet;' \
    "$(bjobs -s "$susp" | tail -1)"
load "r1m 0 pg 0 it 2"
wait_for job_is "$susp" RUN || fail "job $susp was not resumed"
expect_eq "resumed once pg is back under 2" RUN "$(job_stat "$susp")"
bkill "$p1" "$p2" >/dev/null
wait_for job_is "$p1" EXIT
wait_for job_is "$p2" EXIT

# A job that loads the host itself (someone at the console, so it may
# be stopped even alone): stopped and continued three times.
load "r1m 0 pg 0 it 0"
s=$(submit -q selfq -m hostb -o /dev/null \
    'echo $$ > self.pid; i=0; while [ ! -f self.stop ]; do i=$((i + 1)); echo $i >> self.out; sleep 0.05; done')
wait_for job_is "$s" RUN
wait_for test -s self.pid
spid=$(cat self.pid)
for round in 1 2 3; do
	load "r1m 1.5 pg 0 it 0"
	wait_for job_is "$s" SSUSP || fail "round $round: not suspended"
	wait_for state_is "$spid" T
	n1=$(wc -l <self.out)
	# Stopped means stopped: nothing is written for a while.
	sleep 0.5
	n2=$(wc -l <self.out)
	expect_eq "round $round: stopped, it writes nothing" "$n1" "$n2"
	load "r1m 0.1 pg 0 it 0"
	wait_for job_is "$s" RUN || fail "round $round: not resumed"
	wait_for sh -c "[ \$(wc -l <self.out) -gt $n2 ]" ||
	    fail "round $round: it did not go on"
done
touch self.stop
wait_for job_is "$s" DONE || fail "the job did not end"
expect_eq "it ends DONE" DONE "$(job_stat "$s")"
expect_eq "its count has no gap and no repeat" yes \
    "$(awk '$1 != NR { bad = 1 } END { print (NR > 0 && !bad) ? "yes" : "no" }' self.out)"
ev=$T_DIR/work/c1/logdir/lsb.events
out=$(awk -v j="$s" '$1 == "\"JOB_STATUS\"" && $4 == j && ($5 == 8 || $5 == 4) { printf "%s ", $5 }' "$ev")
expect_eq "three suspensions and resumptions logged" "8 4 8 4 8 4 " "$out"
finish
