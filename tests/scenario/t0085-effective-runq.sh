#!/bin/bash
# r15s/r1m/r15m thresholds are compared with the effective run queue
# length, per CPU (lsload -E), as LSF does: on a host of N CPUs a raw r1m
# of 0.75*N is within a 1.0 threshold (of lsb.hosts or lsb.queues), so
# jobs start there, bhosts shows it ok, and a job bresumed there runs
# again; a raw r1m of 1.25*N is over it, so jobs wait with the load
# pending reason and bhosts shows closed_Busy.  Loads come from the test
# ELIM; the CPU count is the one LIM reports for this machine.
. "$(dirname "$0")/lib.sh"

cluster_init 2
# hostb: a 1.0 host threshold; hosta none, so that the queue's shows.
cat >"$LSB_CONF/lsb.hosts" <<EOF
Begin Host
HOST_NAME  MXJ  r1m
hostb      4    1.0/
default    4    ()
End Host
EOF
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = eff
PRIORITY = 40
r1m = 1.0/
End Queue
EOF
elim_install
set_load hosta "r1m 0.0"
set_load hostb "r1m 0.0"
cluster_start
cd "$T_DIR/jobs"

n=$(lshosts -w hostb | awk 'NR == 2 { print $5 }')
if ! [ "${n:-0}" -ge 2 ] 2>/dev/null; then
	fail "needs a host of 2 or more CPUs; lshosts says ${n:-nothing}"
	finish
	exit 1
fi
below=$(awk -v n="$n" 'BEGIN { printf "%.1f", 0.75 * n }')
above=$(awk -v n="$n" 'BEGIN { printf "%.1f", 1.25 * n }')
# lsload's r1m column of a host, raw or effective.
r1m_of() { lsload $2 -I r1m "$1" | awk 'NR == 2 { print $3 }'; }
bhosts_status() { bhosts -w "$1" | awk 'NR == 2 { print $2 }'; }

# Raw over 1.0, effective under: within the thresholds.
set_load hosta "r1m $below"
set_load hostb "r1m $below"
wait_for sh -c "lsload -I r1m hostb | grep -q ' $below\$'" ||
    fail "hostb's r1m never became $below"
wait_for sh -c "lsload -I r1m hosta | grep -q ' $below\$'" ||
    fail "hosta's r1m never became $below"
expect_eq "lsload -E: $below on $n CPUs is 0.8 per CPU (0.75)" "0.8" \
    "$(r1m_of hostb -E)"
j1=$(submit -q eff -m hostb -o /dev/null sleep 600)
wait_for job_is "$j1" RUN ||
    fail "job $j1 did not start on hostb (r1m $below on $n CPUs)"
j2=$(submit -q eff -m hosta -o /dev/null sleep 600)
wait_for job_is "$j2" RUN ||
    fail "job $j2 did not start on hosta (queue r1m 1.0, raw $below)"
expect_eq "bhosts: hostb is ok, not closed_Busy" "ok" "$(bhosts_status hostb)"
expect_match "bhosts -l marks no index of hostb" '^ Total +[0-9.]+ +[0-9.]+ ' \
    "$(bhosts -l hostb | grep '^ Total')"

# A bstopped job bresumed is resumed by mbatchd once the thresholds hold:
# they do, per CPU.
bstop "$j1" >/dev/null
wait_for job_is "$j1" USUSP || fail "job $j1 was not stopped"
bresume "$j1" >/dev/null
wait_for job_is "$j1" RUN ||
    fail "job $j1 was not resumed (r1m $below on $n CPUs, threshold 1.0)"

# Raw above n * 1.0: over the thresholds, jobs wait.
set_load hosta "r1m $above"
set_load hostb "r1m $above"
wait_for sh -c "[ \"\$(bhosts -w hostb | awk 'NR == 2 { print \$2 }')\" = closed_Busy ]" ||
    fail "hostb never became closed_Busy at r1m $above"
expect_eq "bhosts -w: hostb over its threshold per CPU" "closed_Busy" \
    "$(bhosts_status hostb)"
expect_match "bhosts -l marks r1m, the raw value shown" \
    "^ Total +[0-9.]+ +\\*$above " "$(bhosts -l hostb | grep '^ Total')"
expect_eq "hosta has no host threshold: ok" "ok" "$(bhosts_status hosta)"
j3=$(submit -q eff -m hostb -o /dev/null sleep 600)
wait_for sh -c "bjobs -p $j3 | grep -q '^ Load threshold reached: 1 host;\$'" ||
    fail "job $j3 shows no host load pending reason"
expect_eq "job on hostb waits" "PEND" "$(job_stat "$j3")"
j4=$(submit -q eff -m hosta -o /dev/null sleep 600)
wait_for sh -c "bjobs -p $j4 | grep -q \"^ Queue's load threshold reached: 1 host;\$\"" ||
    fail "job $j4 shows no queue load pending reason"
expect_eq "job on hosta waits" "PEND" "$(job_stat "$j4")"

# Back under: both start.
set_load hosta "r1m $below"
set_load hostb "r1m $below"
wait_for job_is "$j3" RUN || fail "job $j3 did not start once r1m was $below"
wait_for job_is "$j4" RUN || fail "job $j4 did not start once r1m was $below"
expect_eq "then they run" "RUN RUN" "$(job_stat "$j3") $(job_stat "$j4")"
bkill "$j1" "$j2" "$j3" "$j4" >/dev/null 2>&1

finish
