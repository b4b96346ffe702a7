#!/bin/bash
# Automatic requeue (REQUEUE_EXIT_VALUES) bounded.  A job that exits at
# once with a requeue value, with no MAX_JOB_REQUEUE, waits before each
# next dispatch (1 s doubled at each requeue, at most 60 s): in 20 s it
# runs at most 6 times, and each requeue is one JOB_STATUS record (no
# JOB_REQUEUE).  MAX_JOB_REQUEUE at each level (lsb.params, lsb.queues,
# lsb.applications, the narrower winning): after that many requeues the
# job is suspended (PSUSP) with the requeue limit as its reason, as IBM
# documents; the count survives an mbatchd restart.  SUCCESS_EXIT_VALUES
# (queue, application winning): the job ends DONE.  An application's
# REQUEUE_EXIT_VALUES replaces its queue's.
. "$(dirname "$0")/lib.sh"

cluster_init 1
queues "normal 30" \
    "storm 40 REQUEUE_EXIT_VALUES = 5" \
    "rq1 40 REQUEUE_EXIT_VALUES = 5;MAX_JOB_REQUEUE = 2" \
    "ok 40 SUCCESS_EXIT_VALUES = 3 4"
cat >"$LSB_CONF/lsb.applications" <<EOF
Begin Application
NAME = once
MAX_JOB_REQUEUE = 1
SUCCESS_EXIT_VALUES = 6
End Application
Begin Application
NAME = rqapp
REQUEUE_EXIT_VALUES = 7
MAX_JOB_REQUEUE = 1
End Application
EOF
cluster_start
cd "$T_DIR/jobs"
ev="$T_DIR/work/c1/logdir/lsb.events"

runs() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }
recs() {
	awk -v t="\"$1\"" -v j="$2" '$1 == t && $4 == j' "$ev" | wc -l
}

# The storm: no MAX_JOB_REQUEUE anywhere.  The measure is of time.
s=$(submit -q storm -o /dev/null 'echo x >>runs.s; exit 5')
sleep 20
n=$(runs runs.s)
bkill "$s" >/dev/null
wait_for job_is "$s" EXIT || fail "storm job not killed"
check "storm: at most 6 runs in 20 s (ran $n)" [ "$n" -le 6 ]
check "storm: it was requeued (ran $n)" [ "$n" -ge 3 ]
expect_eq "one JOB_START a run" "$n" "$(recs JOB_START "$s")"
expect_eq "no JOB_REQUEUE for an automatic requeue" 0 \
    "$(recs JOB_REQUEUE "$s")"
# Each run: a PEND (requeue) or the final EXIT, and its RUN.
check "storm: few JOB_STATUS records ($(recs JOB_STATUS "$s"))" \
    [ "$(recs JOB_STATUS "$s")" -le $((2 * n + 2)) ]

# MAX_JOB_REQUEUE = 2 in the queue: three runs, then PSUSP.
a=$(submit -q rq1 -o /dev/null 'echo x >>runs.a; exit 5')
wait_for job_is "$a" PSUSP || fail "rq1 job not PSUSP at its limit"
expect_eq "queue MAX_JOB_REQUEUE=2: three runs" 3 "$(runs runs.a)"
expect_match "its reason" "reached its requeue limit .MAX_JOB_REQUEUE." \
    "$(bjobs -p "$a")"
sleep 3	# nothing to wait for: it must not run again
check "held at its limit" job_is "$a" PSUSP
expect_eq "still three runs" 3 "$(runs runs.a)"
expect_match "bjobs -l: the count" "Requeued 2 times by REQUEUE_EXIT_VALUES" \
    "$(bjobs -l "$a")"
bkill "$a" >/dev/null

# The application's MAX_JOB_REQUEUE = 1 wins over the queue's 2.
b=$(submit -q rq1 -app once -o /dev/null 'echo x >>runs.b; exit 5')
wait_for job_is "$b" PSUSP || fail "app job not PSUSP at its limit"
expect_eq "application MAX_JOB_REQUEUE=1: two runs" 2 "$(runs runs.b)"
bkill "$b" >/dev/null

# lsb.params' 2 where the queue sets none; the count survives a
# restart: one requeue before it, two in all, then PSUSP (three runs;
# a count lost would give four).
params "MAX_JOB_REQUEUE=2"
badmin reconfig >/dev/null 2>&1
c=$(submit -q storm -o /dev/null 'echo x >>runs.c
[ "$(wc -l <runs.c)" -eq 2 ] && while [ ! -f go.c ]; do sleep 0.2; done
exit 5')
wait_for sh -c '[ "$(wc -l <runs.c 2>/dev/null)" = 2 ]' ||
    fail "job c did not run twice"
mbd_restart
touch go.c
wait_for job_is "$c" PSUSP || fail "job c not PSUSP at its limit"
expect_eq "lsb.params MAX_JOB_REQUEUE=2 across a restart: three runs" 3 \
    "$(runs runs.c)"
expect_match "bjobs -l: the count after a restart" \
    "Requeued 2 times by REQUEUE_EXIT_VALUES" "$(bjobs -l "$c")"

# SUCCESS_EXIT_VALUES: the queue's 3 4; the application's 6 wins.
d=$(submit -q ok -o /dev/null 'exit 3')
wait_for job_is "$d" DONE || fail "exit 3 under SUCCESS_EXIT_VALUES=3 4 not DONE"
expect_match "bjobs -l: done" "Done successfully" "$(bjobs -l "$d")"
wait_for sh -c "bhist -l $d 2>/dev/null | grep -q 'Done successfully'"
expect_match "bhist -l: done" "Done successfully" "$(bhist -l "$d" 2>&1)"
e=$(submit -q ok -o /dev/null 'exit 5')
wait_for job_is "$e" EXIT || fail "exit 5 not EXIT"
f=$(submit -q ok -app once -o /dev/null 'exit 6')
wait_for job_is "$f" DONE || fail "exit 6 under the application's 6 not DONE"
g=$(submit -q ok -app once -o /dev/null 'exit 3')
wait_for job_is "$g" EXIT || fail "exit 3: the application's list wins"

# The application's REQUEUE_EXIT_VALUES: 7 requeues in a queue that
# lists none; in a queue that lists 5, the profile's list replaces it.
h=$(submit -q normal -app rqapp -o /dev/null 'echo x >>runs.h; exit 7')
wait_for job_is "$h" PSUSP || fail "exit 7 under the application's list not requeued to its limit"
expect_eq "application REQUEUE_EXIT_VALUES=7, MAX_JOB_REQUEUE=1: two runs" \
    2 "$(runs runs.h)"
bkill "$h" >/dev/null
i=$(submit -q storm -app rqapp -o /dev/null 'echo x >>runs.i; exit 5')
wait_for job_is "$i" EXIT || fail "exit 5: the application's list replaces the queue's"
expect_eq "exit 5 under the application's list: one run" 1 "$(runs runs.i)"
finish
