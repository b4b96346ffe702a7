#!/bin/bash
# lsb.queues JOB_CONTROLS with signals: SUSPEND[SIGTSTP] suspends a job
# with SIGTSTP, not SIGSTOP: a job that catches it and stops itself is
# stopped, one that only traps it says so and keeps running, yet is USUSP
# (LSF trusts the action).  (The kernel discards a SIGTSTP nobody
# catches: a job is an orphaned process group, in a session of its own.)
# RESUME keeps its default (SIGCONT); TERMINATE[SIGTERM] makes bkill send
# SIGTERM alone, not SIGINT, SIGTERM, SIGKILL.  A bad JOB_CONTROLS is a
# file:line error of badmin ckconfig and mbatchd -n.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cp "$LSB_CONF/lsb.queues" "$T_DIR/lsb.queues.good"
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME   = broken
JOB_CONTROLS = SUSPEND[SIGTSTP] RESUME[SIGNOPE]
End Queue

Begin Queue
QUEUE_NAME   = unclosed
JOB_CONTROLS = TERMINATE[kill -TERM \$LSB_JOBPIDS
End Queue
EOF
l1=$(grep -n 'SIGNOPE' "$LSB_CONF/lsb.queues" | cut -d: -f1)
l2=$(grep -n 'TERMINATE\[kill' "$LSB_CONF/lsb.queues" | cut -d: -f1)
out=$(badmin ckconfig 2>&1)
rc=$?
check "badmin ckconfig fails on a bad JOB_CONTROLS" test "$rc" -ne 0
expect_match "an unknown signal: file:line and why" \
    "lsb\.queues:$l1: queue broken: bad JOB_CONTROLS \"SUSPEND\[SIGTSTP\] RESUME\[SIGNOPE\]\": RESUME: unknown signal SIGNOPE$" \
    "$out"
expect_match "an action without its ]: file:line and why" \
    "lsb\.queues:$l2: queue unclosed: bad JOB_CONTROLS \"TERMINATE\[kill -TERM \\\$LSB_JOBPIDS\": TERMINATE: no \] to end it$" \
    "$out"
out=$("$SBIN/mbatchd" -n 2>&1)
rc=$?
check "mbatchd -n fails too" test "$rc" -ne 0
expect_match "... with the same words" \
    "lsb\.queues:$l1: queue broken: bad JOB_CONTROLS .*: RESUME: unknown signal SIGNOPE$" \
    "$out"
cp "$T_DIR/lsb.queues.good" "$LSB_CONF/lsb.queues"

cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME   = tstp
PRIORITY     = 30
JOB_CONTROLS = SUSPEND[SIGTSTP] TERMINATE[SIGTERM]
DESCRIPTION  = Jobs stopped with SIGTSTP and ended with SIGTERM.
End Queue
EOF
cat >"$LSB_CONF/lsb.hosts" <<EOF
Begin Host
HOST_NAME  MXJ
default    10
End Host
EOF
out=$(badmin ckconfig 2>&1)
expect_eq "a good JOB_CONTROLS passes ckconfig" 0 "$?"
cluster_start
cd "$T_DIR/jobs"

# The process state letter of a pid (/proc/PID/stat).
proc_state() {
	sed 's/.*) \([A-Za-z]\).*/\1/' "/proc/$1/stat" 2>/dev/null
}

proc_is() {
	[ "$(proc_state "$1")" = "$2" ]
}

lines() {
	if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi
}

lines_ge() {
	[ "$(lines "$1")" -ge "$2" ]
}

# ---- SUSPEND[SIGTSTP]: a job that catches it and stops its process
# group, as LSF expects of the programs it sends SIGTSTP to.
a=$(submit -q tstp -o /dev/null 'trap "echo TSTP >>a.trap; kill -STOP 0" TSTP
echo $$ >a.pid
while :; do echo x >>a.ticks; sleep 0.1; done')
wait_for test -s a.pid
apid=$(cat a.pid)
wait_for job_is "$a" RUN
out=$(bstop "$a")
expect_eq "bstop" "Job <$a> is being stopped" "$out"
wait_for job_is "$a" USUSP
check "the job is USUSP" job_is "$a" USUSP
wait_for proc_is "$apid" T
expect_eq "its shell is stopped (state T)" T "$(proc_state "$apid")"
expect_eq "by its trap: it got SIGTSTP" TSTP "$(cat a.trap 2>&1)"
n=$(lines a.ticks)
sleep 0.3
expect_eq "... and does nothing" "$n" "$(lines a.ticks)"
expect_match "bjobs -l says why" \
    $'SUSPENDING REASONS:\n The job was suspended by user;' "$(bjobs -l "$a")"

# RESUME keeps its default: SIGCONT.
bresume "$a" >/dev/null
wait_for job_is "$a" RUN
check "bresume: RUN again" job_is "$a" RUN
wait_for lines_ge a.ticks $((n + 2))
check "... and it makes progress" lines_ge a.ticks $((n + 2))
check "its shell is no longer stopped" test "$(proc_state "$apid")" != T

# ---- A job that traps SIGTSTP: it hears it and goes on; SIGSTOP could
# not be caught.
b=$(submit -q tstp -o /dev/null 'trap "echo TSTP >>b.trap" TSTP
echo $$ >b.pid
while :; do echo x >>b.ticks; sleep 0.1 & wait $!; done')
wait_for test -s b.pid
bpid=$(cat b.pid)
wait_for job_is "$b" RUN
bstop "$b" >/dev/null
wait_for job_is "$b" USUSP
check "the trapping job is USUSP too (the action is trusted)" \
    job_is "$b" USUSP
wait_for test -s b.trap
expect_eq "its trap ran: it got SIGTSTP" TSTP "$(cat b.trap 2>&1)"
n=$(lines b.ticks)
wait_for lines_ge b.ticks $((n + 2))
check "and it goes on running" lines_ge b.ticks $((n + 2))
check "its shell is not stopped" test "$(proc_state "$bpid")" != T

# ---- TERMINATE[SIGTERM]: bkill sends SIGTERM, and nothing before it.
c=$(submit -q tstp -o /dev/null 'trap "echo INT >>c.trap" INT
trap "echo TERM >>c.trap; exit 7" TERM
echo $$ >c.pid
while :; do sleep 0.1 & wait $!; done')
wait_for test -s c.pid
wait_for job_is "$c" RUN
out=$(bkill "$c")
expect_eq "bkill" "Job <$c> is being terminated" "$out"
wait_for job_is "$c" EXIT
check "the job ends EXIT" job_is "$c" EXIT
expect_eq "it got SIGTERM alone (no SIGINT first)" TERM "$(cat c.trap 2>&1)"
expect_match "and exited as its trap said" "Exited with exit code 7" \
    "$(bjobs -l "$c")"

# The same on a job stopped by bstop: it continues to act on it.
bstop "$a" >/dev/null
wait_for job_is "$a" USUSP
wait_for proc_is "$apid" T
bkill "$a" >/dev/null
wait_for job_is "$a" EXIT
check "a stopped job is ended by its SIGTERM" job_is "$a" EXIT
check "its shell is gone" test ! -e "/proc/$apid"

# The default sequence still holds in a queue without JOB_CONTROLS.
d=$(submit -o /dev/null 'trap "echo INT >>d.trap" INT
trap "echo TERM >>d.trap; exit 7" TERM
echo $$ >d.pid
while :; do sleep 0.1 & wait $!; done')
wait_for test -s d.pid
wait_for job_is "$d" RUN
bkill "$d" >/dev/null
wait_for job_is "$d" EXIT
expect_eq "the normal queue sends SIGINT, then SIGTERM" "INT TERM" \
    "$(tr '\n' ' ' <d.trap | sed 's/ $//')"
bkill "$b" >/dev/null
wait_for job_is "$b" EXIT
check "the trapping job is ended by bkill's SIGTERM" job_is "$b" EXIT
finish
