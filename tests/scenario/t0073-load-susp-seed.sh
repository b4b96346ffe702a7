#!/bin/bash
# Seed 000's worked example, end to end on one host.  A low-priority
# queue with an r1m scheduling threshold of 0.25 and a suspending
# threshold of 1.75, a high-priority queue with a scheduling threshold of
# 1.5 and none for suspending.  The low-priority job starts on the idle
# host; r1m rises to 1.25; the high-priority job is sent there too; r1m
# reaches 2.25 and the low-priority job is stopped (SSUSP, its process
# in state T) while the high-priority one runs on; r1m stays above 0.25
# until the high-priority job exits, and the low-priority job stays
# stopped; then r1m drops to idle, it is resumed and ends DONE.  Loads
# are run queue lengths per CPU (what the thresholds compare), set
# through an ELIM as raw values: effective * ncpus.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cat >>"$LSB_CONF/lsb.queues" <<EOF2

Begin Queue
QUEUE_NAME = low
PRIORITY = 20
r1m = 0.25/1.75
End Queue

Begin Queue
QUEUE_NAME = high
PRIORITY = 70
r1m = 1.5
End Queue
EOF2
elim_install
set_load hosta "r1m 0 it 100"
cluster_start
cd "$T_DIR/jobs"

ncpus=$(lshosts hosta | awk 'NR == 2 { print $5 }')
raw() { awk -v e="$1" -v n="$ncpus" 'BEGIN { printf "%g", e * n }'; }
r1m_of() { lsload -I r1m hosta | awk 'NR == 2 { print $3 }'; }
load_r1m() {
	local want
	want=$(awk -v v="$(raw "$1")" 'BEGIN { printf "%.1f", v }')
	set_load hosta "r1m $(raw "$1") it 100"
	wait_for sh -c "[ \"\$(lsload -I r1m hosta | awk 'NR == 2 { print \$3 }')\" = $want ]" ||
	    fail "r1m never became $want"
}
proc_state() {
	awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null
}
state_is() { [ "$(proc_state "$1")" = "$2" ]; }

# The low-priority job starts on the idle host.
low=$(submit -q low -o /dev/null \
    'echo $$ > low.pid; while [ ! -f low.go ]; do sleep 0.1; done')
wait_for job_is "$low" RUN || fail "the low-priority job did not start"
wait_for test -s low.pid
lowpid=$(cat low.pid)

# Its CPU load: r1m about 1.25.  The high-priority queue (1.5) still
# sends its job.
load_r1m 1.25
high=$(submit -q high -o /dev/null \
    'while [ ! -f high.go ]; do sleep 0.1; done')
wait_for job_is "$high" RUN || fail "the high-priority job did not start"
expect_eq "the high-priority job runs beside it" RUN "$(job_stat "$high")"
expect_eq "the low-priority job runs on at 1.25" RUN "$(job_stat "$low")"

# 2.25 exceeds the low queue's suspending threshold: the low-priority job
# is stopped, the high-priority one is not (it has none).
load_r1m 2.25
wait_for job_is "$low" SSUSP || fail "the low-priority job was not suspended"
expect_eq "the low-priority job is SSUSP" SSUSP "$(job_stat "$low")"
wait_for state_is "$lowpid" T
expect_eq "its process is stopped (state T)" T "$(proc_state "$lowpid")"
expect_eq "the high-priority job runs on" RUN "$(job_stat "$high")"
expect_eq "bjobs -s gives LSF's reason" \
    ' Host load exceeded threshold: 1-minute CPU run queue length (r1m);' \
    "$(bjobs -s "$low" | tail -1)"
expect_match "bjobs -s lists it SSUSP" "^$low +root +SSUSP +low " \
    "$(bjobs -s "$low" | sed -n 2p)"
expect_match "bjobs -l gives it too" \
    'SUSPENDING REASONS:.* Host load exceeded threshold: 1-minute CPU run queue length \(r1m\);' \
    "$(bjobs -l "$low" | tr '\n' ' ')"

# Still above 0.25 while the high-priority job runs: no resumption.
load_r1m 1.25
sleep 3
expect_eq "at 1.25 it stays suspended" SSUSP "$(job_stat "$low")"
expect_eq "and stopped" T "$(proc_state "$lowpid")"

# The high-priority job exits; the run queue drops to idle.
touch high.go
wait_for job_is "$high" DONE || fail "the high-priority job did not end"
load_r1m 0.1
wait_for job_is "$low" RUN || fail "the low-priority job was not resumed"
expect_eq "the low-priority job is resumed" RUN "$(job_stat "$low")"
wait_for sh -c "! grep -q '^[^ ]* ([^)]*) T' /proc/$lowpid/stat"
expect_eq "its process runs again" S "$(proc_state "$lowpid")"
touch low.go
wait_for job_is "$low" DONE || fail "the low-priority job did not finish"
expect_eq "and finishes DONE" DONE "$(job_stat "$low")"

# Both changes are in lsb.events: SSUSP (8) with the index of r1m (1)
# as the subreason, then RUN (4) again.
ev=$T_DIR/work/c1/logdir/lsb.events
out=$(awk -v j="$low" '$1 == "\"JOB_STATUS\"" && $4 == j { print $5, $7 }' "$ev" |
    tr '\n' ' ')
expect_match "the suspension and resumption are logged" "8 1 4 0 " "$out"
finish
