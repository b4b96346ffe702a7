#!/bin/bash
# Checkpointable jobs with the sample method (etc/serverdir): bsub -k and
# its bad forms; bjobs -l and the job's environment (LSB_CHKPNT_DIR is
# dir/jobID); bchkpnt runs echkpnt.sample, which has the job save its
# count into LSB_CHKPNT_DIR, and logs a CHKPNT record; bmig checkpoints
# the job again, then moves it to another host where erestart.sample runs
# it again with LSB_RESTART=Y and it goes on from that count, not from 0; a restarted mbatchd
# knows the checkpoint (statedump); bchkpnt -k checkpoints, then kills
# (TERM_CHKPNT); a job that is not checkpointable is refused; a queue's
# CHKPNT makes its jobs checkpointable; brequeue starts from scratch.
. "$(dirname "$0")/lib.sh"

cluster_init 3
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = ckq
PRIORITY = 40
CHKPNT = $T_DIR/qchk 30
End Queue
EOF
elim_install
cp "$TOP/etc/serverdir/echkpnt.sample" "$TOP/etc/serverdir/erestart.sample" \
    "$T_DIR/serverdir/"
mkdir -p "$T_DIR/chk" "$T_DIR/qchk"
cluster_start
cd "$T_DIR/jobs"
ev="$T_DIR/work/c1/logdir/lsb.events"

# The counting job (chkpnt-counter.sh).
cp "$TOP/tests/scenario/chkpnt-counter.sh" counter.sh
# bjobs -l without its blanks and line breaks (it wraps anywhere).
long_of() { bjobs -l "$1" | tr -d ' \n'; }
count_ge() { [ "$(cat "count.$1" 2>/dev/null || echo 0)" -ge "$2" ]; }
chkpnt_records() {
	grep -c "^\"CHKPNT\" \"[^\"]*\" [0-9]* $1 " "$ev"
}

# A period of 1 minute: checkpointed by mbatchd alone, once the minute
# is up (checked at the end, the rest of the test running meanwhile).
pj=$(submit -k "$T_DIR/chk 1 method=sample" -m hosta -o /dev/null \
    ./counter.sh p)

# ---- Bad forms.
out=$(bsub -k "$T_DIR/chk 0" -o /dev/null true 2>&1)
expect_match "-k with period 0 is refused" "period must be a positive" "$out"
out=$(bsub -k "$T_DIR/chk 5 6" -o /dev/null true 2>&1)
expect_match "-k with two periods is refused" "period must be a positive" \
    "$out"
out=$(bsub -k "$T_DIR/chk init=5" -o /dev/null true 2>&1)
expect_match "-k init= is refused by name" "init=5: an initial" "$out"
out=$(bsub -k "$T_DIR/chk method=a/b" -o /dev/null true 2>&1)
expect_match "a method with a slash is refused" "bad checkpoint method" "$out"
out=$(bsub -k "" -o /dev/null true 2>&1)
expect_match "-k without a directory is refused" "no checkpoint directory" \
    "$out"

expect_eq "the periodic job has no checkpoint before its period" 0 \
    "$(grep -c "^\"CHKPNT\" \"[^\"]*\" [0-9]* $pj " "$ev")"

# ---- bsub -k, bjobs -l, bchkpnt, bmig: the count goes on.
j=$(submit -k "$T_DIR/chk 45 method=sample" -m "hosta+1 hostb" -o /dev/null \
    ./counter.sh a)
wait_for test -s start.a || fail "job a never started"
expect_eq "it starts on hosta" hosta "$(exec_host "$j")"
expect_eq "it starts from 0 with LSB_CHKPNT_DIR=dir/jobID" \
    "start 0 N hosta $T_DIR/chk/$j" "$(cat start.a)"
long=$(long_of "$j")
expect_match "bjobs -l shows the checkpoint directory" \
    "Checkpointdirectory<$T_DIR/chk/$j>" "$long"
expect_match "bjobs -l shows the period" "Checkpointperiod45min\\." "$long"
grep -q "^\"JOB_NEW\" \"[^\"]*\" [0-9]* $j .* 2700 0 " "$ev" &&
    pass "JOB_NEW carries chkpntPeriod in seconds" ||
    fail "JOB_NEW carries chkpntPeriod in seconds"
wait_for count_ge a 10
out=$(bchkpnt "$j" 2>&1)
expect_eq "bchkpnt says so" "Job <$j> is being checkpointed" "$out"
check "echkpnt.sample had the job save its count" \
    wait_for test -s "$T_DIR/chk/$j/state"
check "a CHKPNT record says it worked" \
    wait_for sh -c "grep -q '^\"CHKPNT\" \"[^\"]*\" [0-9]* $j -1 [0-9]* 1 0 0 @' $ev"
saved=$(cat "$T_DIR/chk/$j/state")
wait_for count_ge a $((saved + 10))
expect_eq "the job runs on after its checkpoint" RUN "$(job_stat "$j")"

before=$(badmin statedump | grep "^job $j\\[0\\] ")
expect_match "statedump knows the checkpoint" " taken=1 " "$before"
n=$(grep -c 'sbatchd registered' "$T_DIR/log/mbatchd.log.hosta")
mbd_restart
wait_for sh -c "[ \$(grep -c 'sbatchd registered' \
    $T_DIR/log/mbatchd.log.hosta) -ge $((n + 3)) ]" ||
    fail "the sbatchds did not register again"
after=$(badmin statedump | grep "^job $j\\[0\\] ")
expect_eq "the same after a restart of mbatchd" "$before" "$after"

out=$(bmig -m hostb "$j" 2>&1)
expect_eq "bmig takes the checkpointable job" "Job <$j> is being migrated" \
    "$out"
check "it restarts" wait_for lines_ge start.a 2
# bmig checkpoints the running job first: it goes on from that fresh
# checkpoint, well past the one bchkpnt took.
fresh=$(cat "$T_DIR/chk/$j/state")
[ "$fresh" -ge $((saved + 10)) ] &&
    pass "bmig took a fresh checkpoint ($saved, then $fresh)" ||
    fail "bmig took a fresh checkpoint ($saved, then $fresh)"
expect_eq "bmig's checkpoint is logged before the migration" 2 \
    "$(grep -c "^\"CHKPNT\" \"[^\"]*\" [0-9]* $j -1 [0-9]* 1 0 0 @" "$ev")"
expect_eq "on hostb, from the fresh count, with LSB_RESTART=Y" \
    "start $fresh Y hostb $T_DIR/chk/$j" "$(sed -n 2p start.a)"
expect_eq "it runs there" hostb "$(exec_host "$j")"
saved=$fresh
wait_for count_ge a $((saved + 5))
now=$(cat count.a)
[ "$now" -gt "$saved" ] && pass "the count goes on from $saved ($now)" ||
    fail "the count goes on from $saved ($now)"

# ---- bchkpnt -k: checkpoint, then kill.
out=$(bchkpnt -k "$j" 2>&1)
expect_eq "bchkpnt -k says so" "Job <$j> is being checkpointed" "$out"
check "the job is killed once checkpointed" wait_for job_is "$j" EXIT
expect_match "with TERM_CHKPNT's words" \
    "TERM_CHKPNT:jobkilledaftercheckpointing" "$(long_of "$j")"
check "the CHKPNT record has the kill flag" \
    grep -q "^\"CHKPNT\" \"[^\"]*\" [0-9]* $j -1 [0-9]* 1 1 0 @" "$ev"

# ---- Not checkpointable; not started.
p=$(submit -o /dev/null sleep 600)
wait_for job_is "$p" RUN
out=$(bchkpnt "$p" 2>&1)
expect_match "a plain job is not checkpointable" \
    "Job <$p>: Job is not checkpointable" "$out"
bkill "$p" >/dev/null

# ---- The queue's CHKPNT, bchkpnt -p, brequeue from scratch.
q=$(submit -q ckq -m hostc -o /dev/null ./counter.sh q)
wait_for test -s start.q || fail "job q never started"
expect_eq "the queue's CHKPNT gives LSB_CHKPNT_DIR" \
    "start 0 N hostc $T_DIR/qchk/$q" "$(cat start.q)"
long=$(long_of "$q")
expect_match "bjobs -l shows the queue's period" \
    "Checkpointperiod30min\\.,Checkpointdirectory<$T_DIR/qchk/$q>" \
    "$long"
# No method: the host's echkpnt; there is none here, so it fails.
out=$(bchkpnt -p 90 "$q" 2>&1)
expect_eq "bchkpnt -p says so" "Job <$q> is being checkpointed" "$out"
check "without echkpnt the checkpoint fails (ok 0)" \
    wait_for sh -c "grep -q '^\"CHKPNT\" \"[^\"]*\" [0-9]* $q -1 [0-9]* 0 0 0 @' $ev"
check "the new period is logged" \
    grep -q "^\"CHKPNT\" \"[^\"]*\" [0-9]* $q 5400 [0-9]* 0 2 0 @" "$ev"
long=$(long_of "$q")
expect_match "bjobs -l shows the new period" "Checkpointperiod90min\\." \
    "$long"
expect_match "no checkpoint: nothing to restart from" " taken=0 " \
    "$(badmin statedump | grep "^job $q\\[0\\] ")"

# ---- brequeue: from scratch, whatever was checkpointed (LSF).
r=$(submit -k "$T_DIR/chk method=sample" -m hostc -o /dev/null ./counter.sh r)
wait_for test -s start.r || fail "job r never started"
wait_for count_ge r 5
bchkpnt "$r" >/dev/null
check "job r is checkpointed" wait_for test -s "$T_DIR/chk/$r/state"
check "its CHKPNT record is there" \
    wait_for sh -c "grep -q '^\"CHKPNT\" \"[^\"]*\" [0-9]* $r -1 [0-9]* 1 0 0 @' $ev"
brequeue "$r" >/dev/null
check "requeued, it starts again" wait_for lines_ge start.r 2
expect_eq "from 0, without LSB_RESTART" "start 0 N hostc $T_DIR/chk/$r" \
    "$(sed -n 2p start.r)"
bkill "$q" "$r" >/dev/null

# ---- The period: no bchkpnt, yet a checkpoint within a minute and more.
WAIT_SECS=90 check "mbatchd checkpoints it when its period is up" \
    wait_for test -s "$T_DIR/chk/$pj/state"
check "and logs it" wait_for sh -c \
    "grep -q '^\"CHKPNT\" \"[^\"]*\" [0-9]* $pj -1 [0-9]* 1 0 0 @' $ev"
bkill "$pj" >/dev/null

finish
