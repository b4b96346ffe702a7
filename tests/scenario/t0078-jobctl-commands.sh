#!/bin/bash
# lsb.queues JOB_CONTROLS with commands: each runs under /bin/sh -c, in
# the job's working directory, as the job's user, with the job's
# environment and LSB_JOBPGIDS, LSB_JOBPIDS, LS_EXEC_T=JOB_CONTROLS, and
# for SUSPEND LSB_SUSP_REASONS (lsbatch.h's bits: 2 = SUSP_USER_STOP,
# 16384 = SUSP_ADMIN_STOP).  The job's state is what was asked (USUSP,
# RUN); its processes are what the commands made them.  A RESUME asked
# while the SUSPEND command runs waits for it.  A job still stopped when
# its TERMINATE command is done is continued, to act on what it was sent.
# A suspension by load gives LSB_SUSP_REASONS 64 (SUSP_LOAD_REASON) and
# LSB_SUSP_SUBREASONS the index (1, r1m), and its resumption runs RESUME.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cat >>"$LSB_CONF/lsb.queues" <<'EOF'

Begin Queue
QUEUE_NAME   = cmds
PRIORITY     = 30
JOB_CONTROLS = SUSPEND[echo "$LSB_JOBPGIDS|$LSB_JOBPIDS|$LSB_SUSP_REASONS|${LSB_SUSP_SUBREASONS-unset}|$LS_EXEC_T|$LSB_JOBID|$(id -u)" >>susp.$LSB_JOBID; sleep 0.3; kill -STOP -$LSB_JOBPGIDS] \
               RESUME[echo "resumed $LSB_JOBID $LSB_JOBPIDS" >>resume.$LSB_JOBID; kill -CONT -$LSB_JOBPGIDS] \
               TERMINATE[echo "$LSB_JOBPIDS" >>term.$LSB_JOBID; kill -TERM $LSB_JOBPIDS]
DESCRIPTION  = Job controls by commands.
End Queue

Begin Queue
QUEUE_NAME   = loadq
PRIORITY     = 20
r1m          = 0.5/1.0
JOB_CONTROLS = SUSPEND[echo "$LSB_SUSP_REASONS|${LSB_SUSP_SUBREASONS-unset}" >>susp.$LSB_JOBID; kill -STOP -$LSB_JOBPGIDS] \
               RESUME[echo resumed >>resume.$LSB_JOBID; kill -CONT -$LSB_JOBPGIDS]
DESCRIPTION  = Suspended by load, with commands.
End Queue
EOF
cat >"$LSB_CONF/lsb.hosts" <<EOF
Begin Host
HOST_NAME  MXJ
default    10
End Host
EOF
elim_install
set_load hosta "r1m 0 it 100"
cluster_start
cd "$T_DIR/jobs"

loop='echo $$ >$LSB_JOBID.pid; while :; do echo x >>$LSB_JOBID.ticks; sleep 0.1; done'

# ---- SUSPEND[command]: it sees the job's processes and why.
j=$(submit -q cmds -o /dev/null "$loop")
wait_for test -s "$j.pid"
pid=$(cat "$j.pid")
wait_for job_is "$j" RUN
out=$(bstop "$j")
expect_eq "bstop" "Job <$j> is being stopped" "$out"
wait_for job_is "$j" USUSP
check "the job is USUSP" job_is "$j" USUSP
wait_for test -s "susp.$j"
line=$(cat "susp.$j")
expect_match "the command ran in the job's directory, with LSB_JOBPGIDS, \
LSB_JOBPIDS, LSB_SUSP_REASONS (2, by the user), no subreason, LS_EXEC_T, \
the job's environment, as its user" \
    "^$pid\|$pid( [0-9]+)*\|2\|unset\|JOB_CONTROLS\|$j\|0$" "$line"
wait_for pg_is "$pid" T
expect_eq "and stopped the job's process group" T "$(pg_states "$pid")"
n=$(lines "$j.ticks")
sleep 0.3
expect_eq "which does nothing" "$n" "$(lines "$j.ticks")"
expect_match "bjobs -l says why" \
    $'SUSPENDING REASONS:\n The job was suspended by user;' "$(bjobs -l "$j")"

# ---- RESUME[command].
out=$(bresume "$j")
expect_eq "bresume" "Job <$j> is being resumed" "$out"
wait_for job_is "$j" RUN
check "the job is RUN" job_is "$j" RUN
wait_for test -s "resume.$j"
expect_match "the RESUME command ran, with LSB_JOBPIDS" \
    "^resumed $j $pid( [0-9]+)*$" "$(cat "resume.$j" 2>&1)"
wait_for pg_runs "$pid"
check "and continued the job" pg_runs "$pid"
n=$(lines "$j.ticks")
wait_for lines_ge "$j.ticks" $((n + 2))
check "which makes progress" lines_ge "$j.ticks" $((n + 2))

# ---- bstop and bresume at once: the RESUME command waits for the
# SUSPEND one (which takes 0.3 s), so the job ends up running.
bstop "$j" >/dev/null
bresume "$j" >/dev/null
wait_for lines_ge "resume.$j" 2
wait_for job_is "$j" RUN
check "after both commands the job is RUN" job_is "$j" RUN
expect_eq "each command ran once more" "2 2" \
    "$(lines "susp.$j") $(lines "resume.$j")"
wait_for pg_runs "$pid"
check "and its processes run (RESUME came last)" pg_runs "$pid"
n=$(lines "$j.ticks")
wait_for lines_ge "$j.ticks" $((n + 2))
check "... and make progress" lines_ge "$j.ticks" $((n + 2))

# ---- TERMINATE[command]: bkill runs it; its SIGTERM ends the job.
out=$(bkill "$j")
expect_eq "bkill" "Job <$j> is being terminated" "$out"
wait_for job_is "$j" EXIT
check "the job ends EXIT" job_is "$j" EXIT
expect_match "the TERMINATE command had the job's processes" \
    "^$pid( [0-9]+)*$" "$(cat "term.$j" 2>&1)"
check "the job's shell is gone" test ! -e "/proc/$pid"
expect_match "killed by the command's SIGTERM" "Exited with exit code 143" \
    "$(bjobs -l "$j")"

# ---- bkill of a stopped job: its TERMINATE command's SIGTERM waits
# until the job is continued, once the command is done.
k=$(submit -q cmds -o /dev/null "$loop")
wait_for test -s "$k.pid"
kpid=$(cat "$k.pid")
wait_for job_is "$k" RUN
bstop "$k" >/dev/null
wait_for pg_is "$kpid" T
bkill "$k" >/dev/null
wait_for job_is "$k" EXIT
check "a stopped job is ended by its TERMINATE command" job_is "$k" EXIT
check "its shell is gone" test ! -e "/proc/$kpid"

# ---- Another user's job: the commands run as that user; an
# administrator's stop is SUSP_ADMIN_STOP (16384).
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	u=$(as_nobody bsub -q cmds -o /dev/null "$loop" |
	    sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
	wait_for test -s "$u.pid"
	upid=$(cat "$u.pid")
	wait_for job_is "$u" RUN
	bstop "$u" >/dev/null
	wait_for test -s "susp.$u"
	expect_match "as the job's user, stopped by an administrator" \
	    "^$upid\|$upid( [0-9]+)*\|16384\|unset\|JOB_CONTROLS\|$u\|65534$" \
	    "$(cat "susp.$u" 2>&1)"
	wait_for pg_is "$upid" T
	expect_eq "and the job is stopped" T "$(pg_states "$upid")"
	bkill "$u" >/dev/null
	wait_for job_is "$u" EXIT
	check "bkill ends it" job_is "$u" EXIT
else
	echo "# skipping the other-user checks: not root or no setpriv"
fi

# ---- Suspended and resumed by load.  The only job of the host is
# suspended only while the host is in interactive use (it 0).
ncpus=$(lshosts hosta | awk 'NR == 2 { print $5 }')
l=$(submit -q loadq -o /dev/null "$loop")
wait_for test -s "$l.pid"
lpid=$(cat "$l.pid")
wait_for job_is "$l" RUN
set_load hosta "r1m $((3 * ncpus)) it 0"
wait_for job_is "$l" SSUSP
check "r1m above the queue's loadStop: SSUSP" job_is "$l" SSUSP
wait_for test -s "susp.$l"
expect_eq "the SUSPEND command got SUSP_LOAD_REASON and the index r1m" \
    "64|1" "$(cat "susp.$l" 2>&1)"
wait_for pg_is "$lpid" T
expect_eq "and stopped the job" T "$(pg_states "$lpid")"
set_load hosta "r1m 0 it 100"
wait_for job_is "$l" RUN
check "the load gone, the job is resumed" job_is "$l" RUN
wait_for test -s "resume.$l"
expect_eq "by the RESUME command" resumed "$(cat "resume.$l" 2>&1)"
wait_for pg_runs "$lpid"
check "which continued it" pg_runs "$lpid"
bkill "$l" >/dev/null
wait_for job_is "$l" EXIT
finish
