#!/bin/bash
# What an application profile does to its jobs: its RUNLIMIT ends them
# (TERM_RUNLIMIT) unless the job has its own -W, and a queue's maximum
# still bounds it; its MEMLIMIT applies the same way; SUSPEND_CONTROL
# replaces the queue's SUSPEND action for bstop; RERUNNABLE makes a job
# rerunnable (bmig) in a queue that is not, and "no" overrides a
# queue's yes.  LSF's limits are minutes: the run limit job starts first
# and the other checks run while its minute passes.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = capped
PRIORITY = 30
RUNLIMIT = 10
MEMLIMIT = 100
End Queue

Begin Queue
QUEUE_NAME = rerun
PRIORITY = 30
RERUNNABLE = yes
End Queue
EOF
cat >"$LSB_CONF/lsb.applications" <<EOF
Begin Application
NAME = short
RUNLIMIT = 1
SUSPEND_CONTROL = SIGTSTP
RERUNNABLE = yes
End Application

Begin Application
NAME = big
RUNLIMIT = 20
MEMLIMIT = 500
RERUNNABLE = no
End Application
EOF
cat >"$LSB_CONF/lsb.hosts" <<EOF
Begin Host
HOST_NAME  MXJ
default    10
End Host
EOF
cluster_start
cd "$T_DIR/jobs"

reason() {
	bjobs -noheader -o exit_reason "$1" 2>/dev/null
}
limit_of() {	# limit_of JOB NAME: the value line under " NAME"
	bjobs -l "$1" | grep -A1 "^ $2\$" | sed -n 2p
}

# The job that waits for its minute.
run=$(submit -app short -m hosta -o /dev/null sleep 300)
wait_for job_is "$run" RUN

# Limits: the profile's, the job's own over it, the queue's maximum
# over the profile's.
own=$(submit -H -app short -W 5 -o /dev/null true)
cap=$(submit -H -app big -q capped -o /dev/null true)
expect_match "the profile's RUNLIMIT" "^ 1\\.0 min" "$(limit_of "$run" RUNLIMIT)"
expect_match "the job's -W wins over it" "^ 5\\.0 min" \
    "$(limit_of "$own" RUNLIMIT)"
expect_match "the queue's maximum bounds the profile's RUNLIMIT" \
    "^ 10\\.0 min" "$(limit_of "$cap" RUNLIMIT)"
expect_match "... and its MEMLIMIT" "^ +100\\.0 M$" "$(limit_of "$cap" MEMLIMIT)"
bkill "$own" "$cap" >/dev/null

# SUSPEND_CONTROL = SIGTSTP: bstop sends it (the queue has none).
s=$(submit -app short -m hostb -o /dev/null \
    'trap "echo TSTP >>s.trap; kill -STOP 0" TSTP
echo $$ >s.pid
while :; do sleep 0.1; done')
wait_for test -s s.pid
wait_for job_is "$s" RUN
bstop "$s" >/dev/null
wait_for job_is "$s" USUSP
check "bstop: USUSP" job_is "$s" USUSP
wait_for test -s s.trap
expect_eq "the job got SIGTSTP, the profile's SUSPEND_CONTROL" TSTP \
    "$(cat s.trap 2>&1)"
pgid=$(ps -o pgid= -p "$(cat s.pid)" | tr -d ' ')
wait_for pg_is "$pgid" T
expect_eq "... and stopped itself" T "$(pg_states "$pgid")"
bkill "$s" >/dev/null

# RERUNNABLE: yes in the profile, the queue says nothing.
m=$(submit -app short -m hosta -o /dev/null sleep 300)
wait_for job_is "$m" RUN
out=$(bmig "$m" 2>&1)
expect_eq "RERUNNABLE = yes: bmig takes the job" \
    "Job <$m> is being migrated" "$out"
# No in the profile, yes in the queue.
nr=$(submit -app big -q rerun -o /dev/null sleep 300)
wait_for job_is "$nr" RUN
err=$(bmig "$nr" 2>&1)
expect_eq "RERUNNABLE = no overrides the queue's yes" \
    "Job <$nr>: Job is not checkpointable" "$err"
# The job's -r over the profile's no.
r=$(submit -r -app big -o /dev/null sleep 300)
wait_for job_is "$r" RUN
out=$(bmig "$r" 2>&1)
expect_eq "bsub -r over the profile's no" "Job <$r> is being migrated" "$out"
bkill "$m" "$nr" "$r" >/dev/null

# The minute is up.
WAIT_SECS=120 wait_for job_is "$run" EXIT
check "the profile's RUNLIMIT ends the job" job_is "$run" EXIT
expect_eq "... with TERM_RUNLIMIT" \
    "TERM_RUNLIMIT: job killed after reaching LSF run time limit" \
    "$(reason "$run")"

finish
