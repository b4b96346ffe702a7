#!/bin/bash
# Checkpointing from the configuration: lsb.applications' CHKPNT_DIR,
# CHKPNT_PERIOD and CHKPNT_METHOD make a profile's jobs checkpointable
# (the job's bsub -k wins value by value, LSF merging the two); a queue's
# JOB_CONTROLS = SUSPEND[CHKPNT] TERMINATE[CHKPNT] runs echkpnt before it
# stops (bstop) or kills (bkill) a checkpointable job, each checkpoint
# logged as a CHKPNT record (a stopped job is killed without one), while
# a job that is not checkpointable is just stopped.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.applications" <<EOF

Begin Application
NAME = cka
CHKPNT_DIR = $T_DIR/achk
CHKPNT_PERIOD = 45
CHKPNT_METHOD = sample
End Application
EOF
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = ctlq
PRIORITY = 40
JOB_CONTROLS = SUSPEND[CHKPNT] TERMINATE[CHKPNT]
End Queue
EOF
serverdir_init
cp "$TOP/etc/serverdir/echkpnt.sample" "$TOP/etc/serverdir/erestart.sample" \
    "$T_DIR/serverdir/"
mkdir -p "$T_DIR/chk" "$T_DIR/achk"
cluster_start
cd "$T_DIR/jobs"
ev="$T_DIR/work/c1/logdir/lsb.events"

# The counting job (chkpnt-counter.sh).
cp "$TOP/tests/scenario/chkpnt-counter.sh" counter.sh
long_of() { bjobs -l "$1" | tr -d ' \n'; }
count_ge() { [ "$(cat "count.$1" 2>/dev/null || echo 0)" -ge "$2" ]; }
ok_records() {
	grep -c "^\"CHKPNT\" \"[^\"]*\" [0-9]* $1 -1 [0-9]* 1 0 0 @" "$ev"
}
ok_record() { [ "$(ok_records "$1")" -ge "$2" ]; }

# ---- The profile's checkpointing.
a=$(submit -app cka -m hosta -o /dev/null ./counter.sh a)
wait_for test -s start.a || fail "job a never started"
expect_eq "the profile's CHKPNT_DIR gives LSB_CHKPNT_DIR" \
    "start 0 N hosta $T_DIR/achk/$a" "$(cat start.a)"
expect_match "bjobs -l shows the profile's period, directory and method" \
    "Checkpointperiod45min\\.,Checkpointdirectory<$T_DIR/achk/$a>,Checkpointmethod<sample>" \
    "$(long_of "$a")"
wait_for count_ge a 5
out=$(bchkpnt "$a" 2>&1)
expect_eq "bchkpnt takes the profile's job" \
    "Job <$a> is being checkpointed" "$out"
check "the profile's method (sample) saved the count" \
    wait_for test -s "$T_DIR/achk/$a/state"
check "and it is logged" wait_for ok_record "$a" 1
b=$(submit -app cka -k "$T_DIR/chk 20" -m hosta -o /dev/null sleep 600)
wait_for job_is "$b" RUN
expect_match "bsub -k wins for what it gives, the profile gives the rest" \
    "Checkpointperiod20min\\.,Checkpointdirectory<$T_DIR/chk/$b>,Checkpointmethod<sample>" \
    "$(long_of "$b")"
bkill "$a" "$b" >/dev/null

# ---- SUSPEND[CHKPNT]: checkpointed, then stopped.
s=$(submit -q ctlq -k "$T_DIR/chk method=sample" -m hostb -o /dev/null \
    ./counter.sh s)
wait_for test -s start.s || fail "job s never started"
wait_for count_ge s 10
pg=$(pgid_of pid.s)
[ -n "$pg" ] || fail "no process group for job s"
expect_eq "no checkpoint before bstop" 0 "$(ok_records "$s")"
bstop "$s" >/dev/null
check "bstop has echkpnt save the count" \
    wait_for test -s "$T_DIR/chk/$s/state"
check "the host's checkpoint is logged" wait_for ok_record "$s" 1
check "then the job is stopped" wait_for pg_is "$pg" T
check "and USUSP" wait_for job_is "$s" USUSP
first=$(cat "$T_DIR/chk/$s/state")
expect_match "mbatchd knows it has a checkpoint" " taken=1 " \
    "$(badmin statedump | grep "^job $s\\[0\\] ")"

# ---- TERMINATE[CHKPNT]: checkpointed, then killed.
bresume "$s" >/dev/null
check "resumed, it runs again" wait_for pg_runs "$pg"
wait_for count_ge s $((first + 10))
bkill "$s" >/dev/null
check "killed" wait_for job_is "$s" EXIT
last=$(cat "$T_DIR/chk/$s/state")
[ "$last" -ge $((first + 10)) ] &&
    pass "bkill checkpointed it first ($first, then $last)" ||
    fail "bkill checkpointed it first ($first, then $last)"
check "two checkpoints logged" wait_for ok_record "$s" 2

# ---- A job SUSPEND[CHKPNT] stopped is killed at once: it could not
# answer echkpnt, and its checkpoint was taken when it stopped.
u=$(submit -q ctlq -k "$T_DIR/chk method=sample" -m hostb -o /dev/null \
    ./counter.sh u)
wait_for count_ge u 5
bstop "$u" >/dev/null
check "job u is checkpointed and stopped" wait_for ok_record "$u" 1
wait_for job_is "$u" USUSP
out=$(bkill "$u" 2>&1)
expect_eq "bkill takes it" "Job <$u> is being terminated" "$out"
WAIT_SECS=20 check "bkill of the stopped job kills it at once" \
    wait_for job_is "$u" EXIT
expect_eq "without a second checkpoint" 1 "$(ok_records "$u")"

# ---- Not checkpointable: SUSPEND[CHKPNT] just stops it.
printf '#!/bin/sh\necho $$ >pid.p\nexec sleep 600\n' >plain.sh
chmod 755 plain.sh
p=$(submit -q ctlq -m hostb -o /dev/null ./plain.sh)
wait_for job_is "$p" RUN
wait_for test -s pid.p
ppg=$(pgid_of pid.p)
bstop "$p" >/dev/null
check "a job without a checkpoint directory is stopped" \
    wait_for pg_is "$ppg" T
expect_eq "with no CHKPNT record" 0 \
    "$(grep -c "^\"CHKPNT\" \"[^\"]*\" [0-9]* $p " "$ev")"
bkill "$p" >/dev/null

finish
