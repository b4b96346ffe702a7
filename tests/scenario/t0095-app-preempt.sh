#!/bin/bash
# MAX_JOB_PREEMPT by precedence on a live cluster: lsb.params says 5,
# the low queue 3, the profile "once" 1.  A job of the profile is
# preempted once; after it runs again, a second preemptor waits instead
# of preempting it again.  A job without the profile in the same queue
# can be preempted again (the queue's 3 applies).
. "$(dirname "$0")/lib.sh"

cluster_init 2
sed -i 's/^End Parameters/MAX_JOB_PREEMPT = 5\n&/' "$LSB_CONF/lsb.params"
cat >"$LSB_CONF/lsb.queues" <<EOF
Begin Queue
QUEUE_NAME = low
PRIORITY = 10
MAX_JOB_PREEMPT = 3
End Queue

Begin Queue
QUEUE_NAME = high
PRIORITY = 50
PREEMPTION = PREEMPTIVE
End Queue
EOF
cat >"$LSB_CONF/lsb.applications" <<EOF
Begin Application
NAME = once
MAX_JOB_PREEMPT = 1
End Application
EOF
cat >"$LSB_CONF/lsb.hosts" <<EOF
Begin Host
HOST_NAME  MXJ
default    1
End Host
EOF
cluster_start
cd "$T_DIR/jobs"

# first_preemption VICTIM HOST WHAT: a short high job on the victim's
# host preempts it; when it ends the victim runs again.
first_preemption() {
	local h
	h=$(submit -q high -m "$2" -o /dev/null sleep 2)
	wait_for job_is "$h" RUN || fail "$h did not start"
	check "$3: preempted once (SSUSP)" job_is "$1" SSUSP
	wait_for job_is "$h" DONE
	check "$3: runs again" wait_for job_is "$1" RUN
}

a=$(submit -q low -app once -m hosta -o /dev/null sleep 600)
b=$(submit -q low -m hostb -o /dev/null sleep 600)
wait_for job_is "$a" RUN
wait_for job_is "$b" RUN
expect_eq "bapp -l shows the profile's MAX_JOB_PREEMPT" "MAX_JOB_PREEMPT: 1" \
    "$(bapp -l once | grep '^MAX_JOB_PREEMPT')"
first_preemption "$a" hosta "the profile's job"
first_preemption "$b" hostb "the other job"

ha=$(submit -q high -m hosta -o /dev/null sleep 600)
hb=$(submit -q high -m hostb -o /dev/null sleep 600)
wait_for job_is "$hb" RUN
check "the queue's MAX_JOB_PREEMPT 3: the other job is preempted again" \
    job_is "$b" SSUSP
check "the profile's 1: its job is not" job_is "$a" RUN
check "... and the second preemptor waits" job_is "$ha" PEND

bkill 0 >/dev/null 2>&1
finish
