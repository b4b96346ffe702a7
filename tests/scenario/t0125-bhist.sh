#!/bin/bash
# bhist from the history database mbatchd's history thread keeps: jobs
# that were done, exited, killed, suspended and resumed (bstop/bresume),
# requeued (brequeue), switched (bswitch) and modified (bmod), shown by
# bhist and bhist -l as they happened, field by field; a finished job
# visible within a second of its end; the same answers after an mbatchd
# restart, and after the database is removed and rebuilt from the logs.
# MAX_JOB_NUM = 3 switches lsb.events a few times meanwhile, with jobs
# alive across the switches (their records copied forward are not new
# history).
. "$(dirname "$0")/lib.sh"

cluster_init 1
sed -i 's/^End Parameters/MAX_JOB_NUM = 3\n&/' "$LSB_CONF/lsb.params"
cat >>"$LSB_CONF/lsb.queues" <<EOF2

Begin Queue
QUEUE_NAME = other
PRIORITY = 20
End Queue
EOF2
cluster_start
cd "$T_DIR/jobs"
DB="$T_DIR/work/c1/logdir/lsb.history.db"
me=$(id -un)

# Done at once; exits 3; killed while running.
done_j=$(submit -J okjob -o /dev/null true)
exit_j=$(submit -J bad -o /dev/null 'exit 3')
kill_j=$(submit -J victim -o /dev/null 'sleep 600')
wait_for job_is "$kill_j" RUN || fail "victim did not start"
bkill "$kill_j" >/dev/null
# Stopped and resumed, then released to finish.
susp_j=$(submit -J susp -o /dev/null 'while [ ! -f susp.go ]; do sleep 0.1; done')
wait_for job_is "$susp_j" RUN || fail "susp did not start"
bstop "$susp_j" >/dev/null
wait_for job_is "$susp_j" USUSP || fail "susp was not stopped"
sleep 1
bresume "$susp_j" >/dev/null
wait_for job_is "$susp_j" RUN || fail "susp was not resumed"
# Requeued once, then finished.
rq_j=$(submit -J rq -o /dev/null 'if [ -f rq.once ]; then exit 0; fi; touch rq.once; sleep 600')
wait_for test -f rq.once || fail "rq did not start"
brequeue "$rq_j" >/dev/null
# Held (pending), switched and modified, then killed before it ran.
sw_j=$(submit -H -J sw -o /dev/null true)
sleep 1		# a second held, to show in PSUSP
bswitch other "$sw_j" >/dev/null
bmod -J renamed "$sw_j" >/dev/null
bkill "$sw_j" >/dev/null
touch susp.go
for j in "$done_j" "$exit_j" "$kill_j" "$susp_j" "$rq_j" "$sw_j"; do
	wait_for sh -c "bjobs -noheader -o stat $j | grep -Eq 'DONE|EXIT'" ||
	    fail "job $j did not finish"
done

check "lsb.events was switched meanwhile" \
    test -f "$T_DIR/work/c1/logdir/lsb.events.2"

# Visible within a second of its end (the thread is woken by the flush).
last=$(submit -J quick -o /dev/null true)
wait_for sh -c "bjobs -noheader -o stat $last | grep -q DONE"
t0=${EPOCHREALTIME/./}
until bhist -l "$last" 2>/dev/null | grep -q 'Done successfully'; do
	[ $(( ${EPOCHREALTIME/./} - t0 )) -gt 1000000 ] && break
	sleep 0.02
done
ms=$(( (${EPOCHREALTIME/./} - t0) / 1000 ))
check "a finished job is in bhist within a second ($ms ms after bjobs)" \
    sh -c "[ $ms -le 1000 ] && bhist -l $last | grep -q 'Done successfully'"

long() { bhist -l "$1"; }
row() { bhist -a -w | awk -v j="$1" '$1 == j'; }

out=$(long "$done_j")
expect_match "done: header" "^Job <$done_j>, Job Name <okjob>, User <$me>, Project <default>, Command <true>$" "$out"
expect_match "done: submitted" ": Submitted from host <[^>]+>, to Queue <normal>, CWD <$T_DIR/jobs>, Output File </dev/null>;" "$out"
expect_match "done: dispatched" ": Dispatched to <hosta>" "$out"
expect_match "done: started" ": Starting \(Pid [0-9]+\);" "$out"
expect_match "done: done" ": Done successfully. The CPU time used is [0-9.]+ seconds;" "$out"
expect_match "done: summary" "^Summary of time in seconds spent in various states by  " "$out"
out=$(long "$exit_j")
expect_match "exit: exit code" ": Exited with exit code 3. The CPU time used is" "$out"
out=$(long "$kill_j")
expect_match "killed: signal" ": Signal <KILL> requested by the user or administrator <$me>;" "$out"
expect_match "killed: exited" ": Exited (by signal|with exit code)" "$out"
expect_match "killed: reason" "Completed <exit>; TERM_OWNER: job killed by owner." "$out"
out=$(long "$susp_j")
expect_match "susp: suspended" ": Suspended by the user or administrator <$me>;" "$out"
expect_match "susp: resumed" ": Resumed by the user or administrator <$me>;" "$out"
expect_eq "susp: no record twice across the switches" "" \
    "$(printf '%s\n' "$out" | sort | uniq -d)"
ususp=$(row "$susp_j" | awk '{ print $7 }')
check "susp: time in USUSP counted ($ususp)" test "${ususp:-0}" -ge 1
out=$(long "$rq_j")
expect_match "requeue: signal" ": Signal <REQUEUE_PEND> requested by the user or administrator <$me>;" "$out"
expect_match "requeue: pending again" ": Pending: Job has been requeued;" "$out"
expect_eq "requeue: dispatched twice" 2 "$(printf '%s\n' "$out" | grep -c ': Dispatched to')"
out=$(long "$sw_j")
expect_match "switch" ": Switched to Queue <other> by user or administrator <$me>;" "$out"
expect_match "modify" ": Parameters of Job are changed: Job name changes to : renamed;" "$out"
expect_match "held: its time counts as PSUSP" "^$sw_j +$me +renamed +0 +[1-9][0-9]* +0 " "$(row "$sw_j")"
expect_eq "killed while pending: never ran" 0 "$(printf '%s\n' "$out" | grep -c ': Dispatched to')"

# The summary table: LSF's header and one row per job, the totals adding
# up.
sum=$(bhist -a)
expect_eq "summary title" "Summary of time in seconds spent in various states:" "$(printf '%s\n' "$sum" | sed -n 1p)"
expect_eq "summary header" "JOBID   USER    JOB_NAME  PEND    PSUSP   RUN     USUSP   SSUSP   UNKWN   TOTAL" "$(printf '%s\n' "$sum" | sed -n 2p)"
expect_eq "summary rows" 7 "$(printf '%s\n' "$sum" | tail -n +3 | wc -l)"
bad=$(printf '%s\n' "$sum" | tail -n +3 | awk '$4+$5+$6+$7+$8+$9 != $10')
expect_eq "summary: states add up to TOTAL" "" "$bad"
expect_match "summary: renamed job" "^$sw_j +$me +renamed " "$sum"
# Filters.
expect_eq "-q other" "$sw_j" "$(bhist -a -q other | awk 'NR > 2 { print $1 }')"
expect_eq "-J okjob" "$done_j" "$(bhist -a -J okjob | awk 'NR > 2 { print $1 }')"
expect_eq "-d: finished only" 7 "$(bhist -d | tail -n +3 | wc -l)"
expect_eq "default: unfinished only" "No matching job found" "$(bhist 2>&1)"
run=$(submit -J runner -o /dev/null 'sleep 600')
wait_for job_is "$run" RUN
# History follows within a second.
wait_for sh -c "bhist -l $run | grep -q ': Running with'"
expect_eq "default: the running job" "$run" "$(bhist | awk 'NR > 2 { print $1 }')"
expect_eq "-r" "$run" "$(bhist -r | awk 'NR > 2 { print $1 }')"
expect_eq "-p: none pending" "No matching job found" "$(bhist -p 2>&1)"
bkill "$run" >/dev/null
wait_for sh -c "bhist -l $run | grep -q 'Completed <exit>'"
expect_eq "-u nobody" "No matching job found" "$(bhist -a -u nobody 2>&1)"
expect_match "-t: each line names its job" "^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8}: Job <$done_j>, Submitted from host" "$(bhist -t $done_j $exit_j)"

# Arrays: one row per element, named as bjobs names it; the array's own
# row only while no element has run.
arr=$(submit -J "arr[1-2]" -o /dev/null true)
harr=$(submit -J "harr[1-2]" -H -o /dev/null true)
bkill "$harr" >/dev/null
wait_for sh -c "bhist -a -J arr | grep -q '^$arr\[2\]'"
wait_for sh -c "bhist -l $harr | grep -q 'Completed <exit>'"
expect_eq "array: one row per element" "$arr[1] arr[1]
$arr[2] arr[2]" "$(bhist -a -J arr | awk 'NR > 2 { print $1, $3 }')"
expect_match "array: an element's -l" "^Job <$arr\[2\]>, Job Name <arr\[2\]>," "$(bhist -l "$arr[2]")"
expect_eq "array killed before any element ran: its own row" "$harr harr[1-2]" \
    "$(bhist -a -J 'harr*' | awk 'NR > 2 { print $1, $3 }')"

# An ordinary user reads it too (read-only: the WAL's index is root's).
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	expect_eq "bhist as another user" "$(bhist -a -u all -w)" \
	    "$(as_nobody bhist -a -u all -w 2>&1)"
fi

# The same after mbatchd restarts, and after the database is rebuilt.
before_l=$(for j in "$done_j" "$exit_j" "$kill_j" "$susp_j" "$rq_j" "$sw_j"; do long "$j" | grep -v '^Summary of time'; done)
before_s=$(bhist -a -w)
mbd_restart
after=$(submit -J post -o /dev/null true)
wait_for sh -c "bhist -l $after | grep -q 'Done successfully'" ||
    fail "a job after the restart is not in the history"
expect_eq "same history after a restart" "$before_l" \
    "$(for j in "$done_j" "$exit_j" "$kill_j" "$susp_j" "$rq_j" "$sw_j"; do long "$j" | grep -v '^Summary of time'; done)"
old=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
kill -9 "$old"
rm -f "$DB" "$DB-wal" "$DB-shm"
wait_for sh -c "p=\$(pgrep -P $PID_sbatchd_hosta -x mbatchd) && [ \"\$p\" != $old ] && bqueues >/dev/null" ||
    fail "mbatchd did not come back"
wait_for sh -c "bhist -l $after | grep -q 'Done successfully'" ||
    fail "the database was not rebuilt"
expect_eq "same history after a rebuild" "$before_l" \
    "$(for j in "$done_j" "$exit_j" "$kill_j" "$susp_j" "$rq_j" "$sw_j"; do long "$j" | grep -v '^Summary of time'; done)"
expect_eq "same summary after a rebuild" "$before_s" \
    "$(bhist -a -w | grep -v "^$after ")"
# A damaged database is moved aside and rebuilt the same.
old=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
kill -9 "$old"
rm -f "$DB-wal" "$DB-shm"
head -c 65536 /dev/urandom >"$DB"
wait_for sh -c "p=\$(pgrep -P $PID_sbatchd_hosta -x mbatchd) && [ \"\$p\" != $old ] && bqueues >/dev/null" ||
    fail "mbatchd did not come back"
wait_for sh -c "bhist -l $after | grep -q 'Done successfully'" ||
    fail "the damaged database was not rebuilt"
check "the damaged database was kept aside" test -f "$DB.bad"
expect_eq "same history after a damaged database" "$before_l" \
    "$(for j in "$done_j" "$exit_j" "$kill_j" "$susp_j" "$rq_j" "$sw_j"; do long "$j" | grep -v '^Summary of time'; done)"
finish
