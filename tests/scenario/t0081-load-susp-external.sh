#!/bin/bash
# Thresholds on external load indices (lsf.shared dynamic Numeric
# resources an ELIM reports), in lsb.queues and as lsb.hosts columns:
# they hold back dispatch, suspend running jobs and hold back their
# resumption like the built-in ones, in the resource's own direction;
# the reason names the index; bqueues -l, bhosts -l and bjobs -l show
# them in a table after the built-in one.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSF_CONF/lsf.shared" <<EOF2

Begin Resource
RESOURCENAME  TYPE     INTERVAL  INCREASING  DESCRIPTION
nlic          Numeric  1         N           (licenses)
hot           Numeric  1         Y           (temperature)
End Resource
EOF2
cat >>"$LSB_CONF/lsb.queues" <<EOF2

Begin Queue
QUEUE_NAME = licq
PRIORITY = 10
nlic = 2/1
End Queue
EOF2
cat >"$LSB_CONF/lsb.hosts" <<EOF2
Begin Host
HOST_NAME  MXJ  hot
hostb      4    40/60
default    4    ()
End Host
EOF2
elim_install
set_load hosta "it 100 nlic 5 hot 20"
set_load hostb "it 100 nlic 5 hot 20"
cluster_start
cd "$T_DIR/jobs"

# ext HOST "nlic 5 hot 20": set and wait until lsload shows it.
ext() {
	local n h
	read -r _ n _ h <<<"$2"
	set_load "$1" "it 100 $2"
	wait_for sh -c "lsload -I nlic:hot $1 | awk -v n=$n -v h=$h \
	    'NR == 2 && \$3 == n && \$4 == h { ok = 1 } END { exit !ok }'" ||
	    fail "$1 never showed $2"
}
ext hostb "nlic 5.0 hot 20.0"
# The table after the built-in one: from the first empty line after the
# first loadStop row to the next.
ext_table() {
	awk '/loadStop/ && !seen { seen = 1; next }
	    seen == 1 && /^$/ { seen = 2; next }
	    seen == 2 && /^$/ { exit }
	    seen == 2 { print }'
}

# The tables.
expect_eq "bqueues -l shows the queue's external threshold" \
"            nlic
 loadSched   2.0
 loadStop    1.0" "$(bqueues -l licq | ext_table)"
expect_eq "bhosts -l shows the host's" \
"             hot
 loadSched  40.0
 loadStop   60.0" "$(bhosts -l hostb | ext_table)"

a=$(submit -q licq -m hostb -o /dev/null sleep 600)
b=$(submit -q licq -m hostb -o /dev/null sleep 600)
wait_for job_is "$a" RUN
wait_for job_is "$b" RUN
expect_eq "bjobs -l merges queue and host external thresholds" \
"            nlic   hot
 loadSched   2.0  40.0
 loadStop    1.0  60.0" "$(bjobs -l "$a" | ext_table)"

# nlic is decreasing: at 1 (the stop value) a job is suspended.
ext hostb "nlic 1.0 hot 20.0"
wait_for sh -c "bjobs -noheader -o stat $a $b | grep -q SSUSP" ||
    fail "no job was suspended at nlic 1"
s=$(bjobs -noheader -o 'jobid stat' "$a" "$b" | awk '$2 == "SSUSP" { print $1 }')
expect_eq "the reason names the external index" \
    ' Host load exceeded threshold: licenses (nlic);' \
    "$(bjobs -s "$s" | tail -1)"
# Dispatch holds back too: nlic under 2 for the queue.
c=$(submit -q licq -m hostb -o /dev/null sleep 600)
wait_for sh -c "bjobs -p $c | grep -q \"Queue's load threshold reached\"" ||
    fail "job $c was not held back by nlic"
expect_match "a new job pends on the queue's threshold" \
    "Queue's load threshold reached: 1 host" "$(bjobs -p "$c")"
# 1.5: still under the scheduling threshold, no resumption.
ext hostb "nlic 1.5 hot 20.0"
sleep 2
expect_eq "nlic 1.5 < 2: still suspended" SSUSP "$(job_stat "$s")"
ext hostb "nlic 3.0 hot 20.0"
wait_for job_is "$s" RUN || fail "job $s was not resumed at nlic 3"
expect_eq "resumed at nlic 3" RUN "$(job_stat "$s")"
wait_for job_is "$c" RUN || fail "job $c did not start at nlic 3"
bkill "$c" >/dev/null

# The host's column: hot is increasing, 60 stops.
ext hostb "nlic 3.0 hot 60.0"
wait_for sh -c "bhosts -w hostb | grep -q closed_Busy" ||
    fail "hostb did not become closed_Busy at hot 60"
expect_match "past its external scheduling threshold the host is busy" \
    "^hostb +closed_Busy " "$(bhosts -w hostb | sed -n 2p)"
wait_for sh -c "bjobs -noheader -o stat $a $b | grep -q SSUSP" ||
    fail "no job was suspended at hot 60"
s=$(bjobs -noheader -o 'jobid stat' "$a" "$b" | awk '$2 == "SSUSP" { print $1 }')
expect_eq "the host's external threshold suspends" \
    ' Host load exceeded threshold: temperature (hot);' \
    "$(bjobs -s "$s" | tail -1)"
ext hostb "nlic 3.0 hot 30.0"
wait_for job_is "$s" RUN || fail "job $s was not resumed at hot 30"
expect_eq "and resumed under 40" RUN "$(job_stat "$s")"

# A bad value is a configuration error.
sed -i 's|^nlic = 2/1$|nlic = 2/x|' "$LSB_CONF/lsb.queues"
out=$(badmin ckconfig 2>&1)
expect_match "badmin ckconfig names the line" \
    "lsb.queues:[0-9]+: queue licq: bad threshold nlic = 2/x: not a number" "$out"
finish
