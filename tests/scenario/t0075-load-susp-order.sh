#!/bin/bash
# Load-based suspension, the rules of order on a two-host cluster: at
# most one job per host per SBD_SLEEP_TIME, the lowest-priority queue
# first and the next one on a later turn if the load stays high; the
# only running job stays unless the host is in interactive use (it < 1
# minute); resumption one job per turn, the highest-priority queue
# first; a job started with brun -f is never suspended; another host's
# jobs are not touched.  Loads come from an ELIM (raw = per CPU * ncpus).
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.queues" <<EOF2

Begin Queue
QUEUE_NAME = lowq
PRIORITY = 10
r1m = 0.5/1.0
End Queue

Begin Queue
QUEUE_NAME = midq
PRIORITY = 20
r1m = 0.5/1.0
End Queue

Begin Queue
QUEUE_NAME = topq
PRIORITY = 40
r1m = 0.5/1.0
End Queue
EOF2
cat >"$LSB_CONF/lsb.hosts" <<EOF2
Begin Host
HOST_NAME  MXJ
default    4
End Host
EOF2
elim_install
set_load hosta "r1m 0 it 100"
set_load hostb "r1m 0 it 100"
cluster_start
cd "$T_DIR/jobs"

ncpus=$(lshosts hostb | awk 'NR == 2 { print $5 }')
# load HOST PER_CPU [IT]: set r1m to PER_CPU * ncpus and wait for LIM.
load() {
	local raw want
	raw=$(awk -v e="$2" -v n="$ncpus" 'BEGIN { printf "%g", e * n }')
	want=$(awk -v v="$raw" 'BEGIN { printf "%.1f", v }')
	set_load "$1" "r1m $raw it ${3:-100}"
	wait_for sh -c "lsload -I r1m:it $1 | awk -v w=$want -v i=${3:-100} \
	    'NR == 2 && \$3 == w && \$4 == i { ok = 1 } END { exit !ok }'" ||
	    fail "$1: r1m never became $want"
}
sbd_log=$T_DIR/log/sbatchd.log.hostb
# The time (seconds, ms precision) sbatchd logged "job N...: WHAT".
acted_at() {
	grep "job $1\\[0\\]: $2" "$sbd_log" | tail -1 |
	    awk '{ split($3, t, ":"); printf "%.3f\n", t[1] * 3600 + t[2] * 60 + t[3] }'
}

low=$(submit -q lowq -m hostb -o /dev/null sleep 600)
mid=$(submit -q midq -m hostb -o /dev/null sleep 600)
top=$(submit -q topq -m hostb -o /dev/null sleep 600)
other=$(submit -q lowq -m hosta -o /dev/null sleep 600)
for j in $low $mid $top $other; do
	wait_for job_is "$j" RUN || fail "job $j did not start"
done

# Too busy: the lowest-priority job goes first, the next one a turn
# later, and the last running job stays (nobody at the console).
load hostb 1.5
wait_for job_is "$low" SSUSP || fail "the lowq job was not suspended"
expect_eq "the lowq job is suspended first" SSUSP "$(job_stat "$low")"
wait_for job_is "$mid" SSUSP || fail "the midq job was not suspended"
expect_eq "then the midq job" SSUSP "$(job_stat "$mid")"
gap=$(awk -v a="$(acted_at "$low" suspended)" -v b="$(acted_at "$mid" suspended)" \
    'BEGIN { print (b - a >= 0.9) ? "yes" : "no (" b - a ")" }')
expect_eq "one job per SBD_SLEEP_TIME" yes "$gap"
# Two more turns: the only running job is left alone (it = 100 min).
sleep 2.5
expect_eq "the only running job runs on" RUN "$(job_stat "$top")"
expect_eq "the other host's job is not touched" RUN "$(job_stat "$other")"

# Someone at the console (it < 1 minute): the last one goes too.
load hostb 1.5 0
wait_for job_is "$top" SSUSP || fail "the topq job was not suspended"
expect_eq "in interactive use even the only job is suspended" SSUSP \
    "$(job_stat "$top")"
expect_match "with the load index as reason" \
    'Host load exceeded threshold: 1-minute CPU run queue length \(r1m\);' \
    "$(bjobs -s "$top")"

# Idle again: resumed one per turn, the highest priority first.
load hostb 0.2
for j in $top $mid $low; do
	wait_for job_is "$j" RUN || fail "job $j was not resumed"
done
t_top=$(acted_at "$top" resumed)
t_mid=$(acted_at "$mid" resumed)
t_low=$(acted_at "$low" resumed)
order=$(awk -v a="$t_top" -v b="$t_mid" -v c="$t_low" \
    'BEGIN { print (a < b && b < c && b - a >= 0.9 && c - b >= 0.9) ? "yes" : "no " a " " b " " c }')
expect_eq "resumed topq, midq, lowq, one per turn" yes "$order"
bkill "$low" "$mid" "$top" >/dev/null
for j in $low $mid $top; do wait_for job_is "$j" EXIT; done

# brun -f: never suspended by load, whatever its queue.
a=$(submit -q lowq -m hostb -o /dev/null sleep 600)
b=$(submit -q topq -m hostb -o /dev/null sleep 600)
# Held back by a start time an hour away, then forced.
f=$(submit -b "$(date -d '+1 hour' +%H:%M)" -q lowq -o /dev/null sleep 600)
wait_for job_is "$a" RUN
wait_for job_is "$b" RUN
out=$(brun -f -m hostb "$f")
expect_eq "brun -f" "Job <$f> is being forced to run." "$out"
wait_for job_is "$f" RUN || fail "the forced job did not start"
load hostb 1.5 0
wait_for job_is "$a" SSUSP || fail "job $a was not suspended"
wait_for job_is "$b" SSUSP || fail "job $b was not suspended"
# Two more turns: the forced job is the only one left running.
sleep 2.5
expect_eq "the job started with brun -f runs on" RUN "$(job_stat "$f")"
expect_eq "a lowq job beside it was suspended" SSUSP "$(job_stat "$a")"
expect_eq "a topq job too" SSUSP "$(job_stat "$b")"

# A parallel job gets SIGTSTP, which the kernel drops for a job that does
# not catch it (its group is orphaned): what still runs is then stopped.
p=$(submit -n 2 -R "span[hosts=1]" -m hosta -o /dev/null \
    'echo $$ > par.pid; while :; do sleep 0.1; done')
wait_for job_is "$p" RUN
wait_for test -s par.pid
bstop "$p" >/dev/null
wait_for job_is "$p" USUSP
state_of() { awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null; }
wait_for sh -c "[ \"\$(awk '{ print \$3 }' /proc/$(cat par.pid)/stat)\" = T ]"
expect_eq "a parallel job is really stopped" T "$(state_of "$(cat par.pid)")"
finish
