#!/bin/bash
# Configuration reaches running jobs' load-based suspension: bswitch into
# a queue with thresholds makes a running job suspendable; badmin
# reconfig after an edited threshold changes what a running job is
# suspended at; STOP_COND suspends with LSF's reason and RESUME_COND
# governs resumption even where the scheduling thresholds would allow
# it; lsb.hosts thresholds suspend, and badmin reconfig of them reaches
# the running job; a decreasing index (mem = 100/10)
# suspends when it falls to 10 and resumes at 100.  One job at a time,
# each ended before the next, so none disturbs another.  it = 0
# (interactive use): a host's only job may be suspended.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.queues" <<EOF2

Begin Queue
QUEUE_NAME = plain
PRIORITY = 20
End Queue

Begin Queue
QUEUE_NAME = thr
PRIORITY = 20
r1m = 0.1/0.5
End Queue

Begin Queue
QUEUE_NAME = rc
PRIORITY = 20
r1m = 0.5/3.0
End Queue

Begin Queue
QUEUE_NAME = cond
PRIORITY = 20
r1m = 1.5
STOP_COND = select[r1m > 2.0]
RESUME_COND = select[r1m < 0.5]
End Queue

Begin Queue
QUEUE_NAME = mq
PRIORITY = 20
mem = 100/10
End Queue
EOF2
cat >"$LSB_CONF/lsb.hosts" <<EOF2
Begin Host
HOST_NAME  MXJ  r1m
hosta      2    0.5/1.0
default    2    ()
End Host
EOF2
elim_install
set_load hosta "r1m 0 it 0"
set_load hostb "r1m 0 it 0 mem 500"
cluster_start
cd "$T_DIR/jobs"

# load HOST R1M [MEM]: the host's r1m per CPU (what thresholds and
# conditions compare, set as a raw value) and mem (MB); waits until
# lsload shows them.
load() {
	local n raw want m=${3:-500}
	n=$(lshosts "$1" | awk 'NR == 2 { print $5 }')
	raw=$(awk -v e="$2" -v n="$n" 'BEGIN { printf "%g", e * n }')
	want=$(awk -v v="$raw" 'BEGIN { printf "%.1f", v }')
	set_load "$1" "r1m $raw it 0 mem $m"
	wait_for sh -c "lsload -I r1m:mem $1 |
	    awk 'NR == 2 && \$3 == \"$want\" && \$4 + 0 == $m { ok = 1 }
	    END { exit !ok }'" || fail "$1: r1m never became $want, mem $m"
}
proc_state() { awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null; }
state_is() { [ "$(proc_state "$1")" = "$2" ]; }
# start NAME OPTIONS...: a job that waits for NAME.go; sets job and pid.
start() {
	local n=$1
	shift
	job=$(submit "$@" -J "$n" -o /dev/null \
	    "echo \$\$ > $n.pid; while test ! -f $n.go; do sleep 0.1; done")
	wait_for job_is "$job" RUN || fail "$n: did not start"
	wait_for test -s "$n.pid"
	pid=$(cat "$n.pid")
}
end() {
	touch "$1.go"
	wait_for job_is "$job" DONE || fail "$1: did not end"
}
suspended() {
	# suspended WHAT REASON
	wait_for job_is "$job" SSUSP
	expect_eq "$1: SSUSP" SSUSP "$(job_stat "$job")"
	expect_eq "$1: bjobs -s gives the reason" "$2" \
	    "$(bjobs -s "$job" | tail -1)"
	wait_for state_is "$pid" T
	expect_eq "$1: the process is stopped" T "$(proc_state "$pid")"
}
resumed() {
	wait_for job_is "$job" RUN
	expect_eq "$1: RUN" RUN "$(job_stat "$job")"
	wait_for state_is "$pid" S
	expect_eq "$1: the process runs" S "$(proc_state "$pid")"
}
# Stays in its state: given three SBD_SLEEP_TIMEs (1 s each) to change,
# it must not; nothing to wait for when nothing is to happen.
stays() {
	sleep 3
	expect_eq "$1: still $2" "$2" "$(job_stat "$job")"
}
R1M=' Host load exceeded threshold: 1-minute CPU run queue length (r1m);'

# bswitch: from a queue without thresholds to one with r1m = 0.1/0.5.
start sw -q plain -m hostb
load hostb 1.0
stays "a job of a queue without thresholds at r1m 1.0" RUN
bswitch thr "$job" >/dev/null
suspended "switched to a queue with r1m = 0.1/0.5" "$R1M"
load hostb 0.3
stays "at 0.3, above its queue's 0.1" SSUSP
load hostb 0.05
resumed "at 0.05"
end sw

# badmin reconfig: rc's suspending threshold goes from 3.0 to 0.8.
load hostb 0
start rc -q rc -m hostb
load hostb 1.0
stays "r1m 1.0, below rc's 3.0" RUN
sed -i 's|^r1m = 0.5/3.0$|r1m = 0.5/0.8|' "$LSB_CONF/lsb.queues"
badmin reconfig >/dev/null 2>&1
suspended "after badmin reconfig to 0.5/0.8" "$R1M"
load hostb 0.2
resumed "at 0.2"
end rc

# STOP_COND suspends; RESUME_COND, not the r1m scheduling threshold 1.5,
# decides the resumption.
load hostb 0
start cond -q cond -m hostb
load hostb 1.8
stays "STOP_COND r1m > 2.0 false at 1.8" RUN
load hostb 2.5
suspended "STOP_COND true at 2.5" ' STOP_COND is true with current host load;'
load hostb 1.0
stays "at 1.0: within r1m = 1.5 but RESUME_COND r1m < 0.5 false" SSUSP
load hostb 0.3
resumed "RESUME_COND true at 0.3"
end cond

# lsb.hosts: hosta's r1m = 0.5/1.0 suspends a job of a queue without
# thresholds, and its scheduling threshold governs the resumption.
start ht -q plain -m hosta
load hosta 1.2
suspended "hosta's lsb.hosts r1m 0.5/1.0 at 1.2" "$R1M"
load hosta 0.8
stays "at 0.8, above hosta's 0.5" SSUSP
load hosta 0.2
resumed "at 0.2"
# badmin reconfig of lsb.hosts reaches the running job too.
sed -i 's|^hosta      2    0.5/1.0$|hosta      2    0.5/3.0|' \
    "$LSB_CONF/lsb.hosts"
badmin reconfig >/dev/null 2>&1
wait_for sh -c "bhosts -l hosta | grep -Eq '^ loadStop +- +3\\.0 '" ||
    fail "bhosts -l never showed hosta's new loadStop"
load hosta 1.2
stays "after badmin reconfig to 0.5/3.0, at 1.2" RUN
load hosta 3.5
suspended "at 3.5" "$R1M"
load hosta 0.2
resumed "at 0.2 again"
end ht

# A decreasing index: mem = 100/10 suspends at mem <= 10 (MB), resumes
# at mem >= 100.
load hostb 0 500
start mem -q mq -m hostb
load hostb 0 11
stays "mem 11 MB, above 10" RUN
load hostb 0 10
suspended "mem 10 MB" ' Host load exceeded threshold: Available memory (mem);'
load hostb 0 99
stays "mem 99 MB, below 100" SSUSP
load hostb 0 100
resumed "mem 100 MB"
end mem

finish
