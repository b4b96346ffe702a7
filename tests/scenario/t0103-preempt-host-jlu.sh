#!/bin/bash
# PREEMPT_FOR = HOST_JLU on a live cluster: a host of two slots with
# JL/U 1 runs one low job of root's and one of another user's.  root's
# job of a higher queue cannot start by preempting the other user's job
# (root would still be at JL/U), so without the keyword it waits and
# nothing is preempted; with it, it preempts root's own low job, which
# then no longer counts against JL/U, and starts.
. "$(dirname "$0")/lib.sh"
need_root

cluster_init 1
queues "low 10 PREEMPTION = PREEMPTABLE" \
	"high 50"
cat >"$LSB_CONF/lsb.hosts" <<EOF2
Begin Host
HOST_NAME  MXJ  JL/U
default    2    1
End Host
EOF2
cluster_start
cd "$T_DIR/jobs"

mine=$(submit -q low -o /dev/null 'sleep 600')
wait_for job_is "$mine" RUN || fail "root's low job did not start"
other=$(as_nobody bsub -q low -o /dev/null 'sleep 600' | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
wait_for job_is "$other" RUN || fail "the other user's low job did not start"

h=$(submit -q high -o /dev/null 'sleep 600')
stays_pending "without HOST_JLU the high job waits" "$h"
check "root's low job runs on" job_is "$mine" RUN
check "the other user's job runs on" job_is "$other" RUN

sed -i 's/^End Parameters/PREEMPT_FOR = HOST_JLU\n&/' "$LSB_CONF/lsb.params"
badmin reconfig >/dev/null 2>&1
check "with HOST_JLU it starts" wait_for job_is "$h" RUN
check "by preempting root's own low job" job_is "$mine" SSUSP
check "not the other user's" job_is "$other" RUN
bkill "$h" >/dev/null
check "root's low job resumes" wait_for job_is "$mine" RUN
bkill 0 >/dev/null 2>&1
as_nobody bkill 0 >/dev/null 2>&1
finish
