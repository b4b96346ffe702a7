#!/bin/bash
# A job suspended by load stays suspended, with its reason, across
# restarts: (a) mbatchd killed -9 and restarted replays its SSUSP and
# reason from lsb.events and the job is still resumed and suspended by
# the load afterwards; (b) the host's sbatchd restarted: the job's
# supervisor keeps it stopped, mbatchd never sees it running meanwhile,
# and the new sbatchd gets its thresholds again (mbatchd resends them on
# registration) and goes on deciding; (c) with mbatchd stopped (SIGSTOP)
# sbatchd suspends on its own, and mbatchd shows and logs it when it
# goes on; (d) or, killed while stopped, the new mbatchd learns of it
# from the host's registration; (e) a job resumed and suspended again
# for another reason (STOP_COND) while mbatchd was away shows and logs
# the new reason.  Every suspension and resumption is a JOB_STATUS record.
# it = 0 on hostb (interactive use): its only job may be suspended.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.queues" <<EOF2

Begin Queue
QUEUE_NAME = lq
PRIORITY = 20
r1m = 0.5/1.0
STOP_COND = select[mem < 50]
RESUME_COND = select[r1m <= 0.5 && mem >= 50]
End Queue
EOF2
elim_install
set_load hosta "r1m 0 it 100"
set_load hostb "r1m 0 it 0"
cluster_start
cd "$T_DIR/jobs"

REASON=' Host load exceeded threshold: 1-minute CPU run queue length (r1m);'
ev=$T_DIR/work/c1/logdir/lsb.events
ncpus=$(lshosts hostb | awk 'NR == 2 { print $5 }')
# hostb's r1m per CPU (what thresholds compare), set as a raw value.
load_r1m() {
	local raw want
	raw=$(awk -v e="$1" -v n="$ncpus" 'BEGIN { printf "%g", e * n }')
	want=$(awk -v v="$raw" 'BEGIN { printf "%.1f", v }')
	set_load hostb "r1m $raw it 0"
	wait_for sh -c "[ \"\$(lsload -I r1m hostb | awk 'NR == 2 { print \$3 }')\" = $want ]" ||
	    fail "r1m never became $want"
}
proc_state() { awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null; }
state_is() { [ "$(proc_state "$1")" = "$2" ]; }
# The job's JOB_STATUS records: "status subreason," each.
statuses() {
	awk -v j="$job" '$1 == "\"JOB_STATUS\"" && $4 == j {
	    printf "%s %s,", $5, $7 }' "$ev"
}
nstatus() { statuses | tr ',' '\n' | grep -c .; }
suspended_ok() {
	# suspended_ok WHEN: SSUSP, LSF's reason, process stopped.
	wait_for job_is "$job" SSUSP
	expect_eq "$1: SSUSP" SSUSP "$(job_stat "$job")"
	expect_eq "$1: bjobs -s gives the reason" "$REASON" \
	    "$(bjobs -s "$job" | tail -1)"
	wait_for state_is "$pid" T
	expect_eq "$1: the process is stopped" T "$(proc_state "$pid")"
}
resumed_ok() {
	wait_for job_is "$job" RUN
	expect_eq "$1: RUN" RUN "$(job_stat "$job")"
	wait_for state_is "$pid" S
	expect_eq "$1: the process runs" S "$(proc_state "$pid")"
}

job=$(submit -q lq -m hostb -J lj -o /dev/null \
    'echo $$ > j.pid; while [ ! -f j.go ]; do sleep 0.1; done')
wait_for job_is "$job" RUN || fail "the job did not start"
wait_for test -s j.pid
pid=$(cat j.pid)

load_r1m 1.5
suspended_ok "suspended by load"
n0=$(nstatus)

# (a) mbatchd killed -9: the new one replays the suspension and reason.
mbd_restart
expect_eq "(a) after mbatchd's restart: SSUSP" SSUSP "$(job_stat "$job")"
expect_eq "(a) the same reason" "$REASON" "$(bjobs -s "$job" | tail -1)"
expect_match "(a) bjobs -l too" \
    'SUSPENDING REASONS:.* Host load exceeded threshold: 1-minute CPU run queue length \(r1m\);' \
    "$(bjobs -l "$job" | tr '\n' ' ')"
expect_eq "(a) the process is still stopped" T "$(proc_state "$pid")"
load_r1m 0.1
resumed_ok "(a) resumed when the load drops"
load_r1m 1.5
suspended_ok "(a) suspended again when it rises"

# (b) hostb's sbatchd killed and started again while the job is SSUSP,
# beside one its user stopped (USUSP).
u=$(submit -m hostb -J uj -o /dev/null sleep 600)
wait_for job_is "$u" RUN || fail "the second job did not start"
bstop "$u" >/dev/null
wait_for job_is "$u" USUSP || fail "the second job was not stopped"
nu=$(awk -v j="$u" '$1 == "\"JOB_STATUS\"" && $4 == j' "$ev" | wc -l)
nb=$(nstatus)
kill -9 "$PID_sbatchd_hostb"
wait "$PID_sbatchd_hostb" 2>/dev/null
start_daemon sbatchd hostb
reg() {
	[ "$(grep -c 'host hostb: sbatchd registered' \
	    "$T_DIR/log/mbatchd.log.hosta")" -ge 3 ]
}
wait_for reg || fail "hostb's sbatchd did not register again"
wait_for all_hosts_ok
expect_eq "(b) after sbatchd's restart: SSUSP" SSUSP "$(job_stat "$job")"
expect_eq "(b) the same reason" "$REASON" "$(bjobs -s "$job" | tail -1)"
expect_eq "(b) the process is still stopped" T "$(proc_state "$pid")"
expect_eq "(b) no state change was logged for the restart" "$nb" \
    "$(nstatus)"
expect_eq "(b) the job its user stopped is still USUSP" USUSP \
    "$(job_stat "$u")"
expect_eq "(b) and nothing was logged for it either" "$nu" \
    "$(awk -v j="$u" '$1 == "\"JOB_STATUS\"" && $4 == j' "$ev" | wc -l)"
bkill "$u" >/dev/null
wait_for job_is "$u" EXIT
load_r1m 0.1
resumed_ok "(b) resumed by the new sbatchd"
load_r1m 1.5
suspended_ok "(b) suspended again by the new sbatchd"
load_r1m 0.1
resumed_ok "(b) and resumed"

# (c) mbatchd stopped: sbatchd suspends on its own.
mbd=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
kill -STOP "$mbd"
load_r1m 1.5
wait_for state_is "$pid" T
expect_eq "(c) suspended by sbatchd while mbatchd is stopped" T \
    "$(proc_state "$pid")"
kill -CONT "$mbd"
suspended_ok "(c) mbatchd shows it when it goes on"
nc=$(nstatus)
load_r1m 0.1
resumed_ok "(c) resumed"

# (d) mbatchd stopped, the job suspended, then mbatchd killed: what it
# never read is lost with it, and the new one learns of the suspension
# from hostb's registration.
mbd=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
kill -STOP "$mbd"
load_r1m 1.5
wait_for state_is "$pid" T
expect_eq "(d) suspended while mbatchd is stopped" T "$(proc_state "$pid")"
kill -KILL "$mbd"
wait_for sh -c "p=\$(pgrep -P $PID_sbatchd_hosta -x mbatchd) &&
    [ \"\$p\" != $mbd ] && bqueues >/dev/null" ||
    fail "mbatchd did not come back"
suspended_ok "(d) the new mbatchd has it from the registration"
load_r1m 0.1
resumed_ok "(d) resumed"

# (e) suspended by r1m; while mbatchd is stopped the load drops (the job
# is resumed) and mem falls below STOP_COND's 50 MB (it is suspended
# again, for that); mbatchd is killed before it reads either.  The new
# one replays the r1m suspension, and the registration brings the new
# reason, logged.
load_r1m 1.5
suspended_ok "(e) suspended by r1m"
mbd=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
kill -STOP "$mbd"
set_load hostb "r1m 0 it 0"
wait_for state_is "$pid" S || fail "(e) sbatchd did not resume it"
set_load hostb "r1m 0 it 0 mem 10"
stopcond() {
	grep -q "job $job\\[0\\]: suspended: STOP_COND" \
	    "$T_DIR/log/sbatchd.log.hostb"
}
wait_for stopcond || fail "(e) sbatchd did not suspend it by STOP_COND"
kill -KILL "$mbd"
wait_for sh -c "p=\$(pgrep -P $PID_sbatchd_hosta -x mbatchd) &&
    [ \"\$p\" != $mbd ] && bqueues >/dev/null" ||
    fail "mbatchd did not come back"
newreason() {
	[ "$(bjobs -s "$job" | tail -1)" = \
	    " STOP_COND is true with current host load;" ]
}
wait_for newreason
expect_eq "(e) the new mbatchd shows the reason the host has" \
    " STOP_COND is true with current host load;" \
    "$(bjobs -s "$job" | tail -1)"
expect_eq "(e) SSUSP" SSUSP "$(job_stat "$job")"
expect_eq "(e) the process is stopped" T "$(proc_state "$pid")"
load_r1m 0.1
resumed_ok "(e) resumed when mem is back and r1m low"

# Each suspension (SSUSP 8, subreason r1m's index 1) and resumption
# (RUN 4) is one record, and nothing else was logged; in (e) the new
# reason (STOP_COND, no subreason) is the one record for what mbatchd
# missed.
expect_eq "every change is in lsb.events, once" \
    "8 1,4 0,8 1,4 0,8 1,4 0,8 1,4 0,8 1,4 0,8 1,8 0,4 0," "$(statuses)"
expect_eq "record counts add up" "1 3 7 13" \
    "$n0 $nb $nc $(nstatus)"

touch j.go
wait_for job_is "$job" DONE
expect_eq "the job finishes DONE" DONE "$(job_stat "$job")"
finish
