#!/bin/bash
# brestart: a job checkpointed and killed (bchkpnt -k) comes back as a new
# job with a new ID; erestart.sample runs it with LSB_RESTART=Y in
# dir/newID, which is dir/oldID renamed (the old name left as a link), so
# it goes on from its saved count; -m and -q are honoured; a job never
# checkpointed, a running job and a missing directory are refused and
# change nothing; a restarted mbatchd still knows the new job restarts.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = rq
PRIORITY = 40
End Queue
EOF
serverdir_init
cp "$TOP/etc/serverdir/echkpnt.sample" "$TOP/etc/serverdir/erestart.sample" \
    "$T_DIR/serverdir/"
mkdir -p "$T_DIR/chk"
cluster_start
cd "$T_DIR/jobs"
ev="$T_DIR/work/c1/logdir/lsb.events"

# The counting job (chkpnt-counter.sh).
cp "$TOP/tests/scenario/chkpnt-counter.sh" counter.sh
count_ge() { [ "$(cat "count.$1" 2>/dev/null || echo 0)" -ge "$2" ]; }
njobs() { grep -c '^"JOB_NEW"' "$ev"; }

j=$(submit -k "$T_DIR/chk method=sample" -m hosta -o /dev/null \
    ./counter.sh a)
wait_for test -s start.a || fail "job a never started"
wait_for count_ge a 10

# ---- Refused: a running job, a job never checkpointed, bsub's -o.
p=$(submit -o /dev/null true)
wait_for job_is "$p" DONE
n=$(njobs)
out=$(brestart "$T_DIR/chk" "$j" 2>&1)
expect_match "a running job is refused" "Job has already started" "$out"
out=$(brestart "$T_DIR/chk" "$p" 2>&1)
expect_match "a job never checkpointed is refused" \
    "Job is not checkpointable" "$out"
out=$(brestart -o x "$T_DIR/chk" "$j" 2>&1)
expect_match "bsub's -o is refused with the usage" "Usage: brestart" "$out"
expect_eq "nothing was submitted" "$n" "$(njobs)"

# ---- bchkpnt -k; a missing directory; then brestart -m hostb -q rq.
out=$(bchkpnt -k "$j" 2>&1)
expect_eq "bchkpnt -k says so" "Job <$j> is being checkpointed" "$out"
check "the job is killed once checkpointed" wait_for job_is "$j" EXIT
saved=$(cat "$T_DIR/chk/$j/state")
mv "$T_DIR/chk/$j" "$T_DIR/chk/away"
out=$(brestart "$T_DIR/chk" "$j" 2>&1)
expect_match "a missing directory is refused" \
    "$T_DIR/chk/$j: No such file or directory" "$out"
expect_eq "nothing was submitted" "$n" "$(njobs)"
mv "$T_DIR/chk/away" "$T_DIR/chk/$j"
# Only the job's own directory: mbatchd renames in it.
mkdir -p "$T_DIR/other/$j"
out=$(brestart "$T_DIR/other" "$j" 2>&1)
expect_match "another directory is refused" \
    "not the checkpoint directory of job $j" "$out"
check "and left as it was" test -d "$T_DIR/other/$j" -a -d "$T_DIR/chk/$j"
out=$(as_user nobody brestart "$T_DIR/chk" "$j" 2>&1)
expect_match "another user's job is refused" "permission denied" "$out"
expect_eq "nothing was submitted" "$n" "$(njobs)"

out=$(brestart -m hostb -q rq "$T_DIR/chk" "$j" 2>&1)
r=$(echo "$out" |
    sed -n 's/^Job <\([0-9]*\)> is submitted to queue <rq>\.$/\1/p')
[ -n "$r" ] && [ "$r" != "$j" ] && pass "a new job ID ($out)" ||
    fail "a new job ID ($out)"
check "the directory is renamed" test -d "$T_DIR/chk/$r" -a \
    ! -L "$T_DIR/chk/$r"
expect_eq "the old name is a link to it" "$r" \
    "$(readlink "$T_DIR/chk/$j")"
opts=$(grep "^\"JOB_NEW\" \"[^\"]*\" [0-9]* $r " "$ev" | awk '{print $6}')
[ $((opts & 0x2000)) -ne 0 ] && pass "JOB_NEW has SUB_RESTART ($opts)" ||
    fail "JOB_NEW has SUB_RESTART ($opts)"
check "the new job starts" wait_for lines_ge start.a 2
expect_eq "on hostb, from the saved count, in the renamed directory" \
    "start $saved Y hostb $T_DIR/chk/$r" "$(sed -n 2p start.a)"
expect_eq "in queue rq" rq "$(bjobs -noheader -o queue "$r")"
wait_for count_ge a $((saved + 5))
now=$(cat count.a)
[ "$now" -gt "$saved" ] && pass "the count goes on from $saved ($now)" ||
    fail "the count goes on from $saved ($now)"

# ---- A restarted mbatchd knows it is a restart.
before=$(badmin statedump | grep "^job $r\\[0\\] ")
expect_match "statedump: the new job restarts" " taken=1 " "$before"
mbd_restart
after=$(badmin statedump | grep "^job $r\\[0\\] ")
expect_eq "the same after a restart of mbatchd" "$before" "$after"
expect_eq "it still runs" RUN "$(job_stat "$r")"
bkill "$r" >/dev/null
wait_for job_is "$r" EXIT

finish
