#!/bin/bash
# Replay equals live: drive mbatchd through every kind of state change
# the project has, dump its state (badmin statedump), kill -9 it, let
# the restarted one replay lsb.events and take the sbatchds back, and
# dump again: the two must be identical.  The cluster is left still
# (long jobs, full hosts) so that nothing changes between the dumps but
# the restart.  Each later issue that adds a record adds it here.
. "$(dirname "$0")/lib.sh"

cluster_init 3
sed -i 's/^End Parameters/MAX_JOB_NUM = 4\nENABLE_HIST_RUN_TIME = Y\nGLOBAL_EXIT_RATE = 20\n&/' \
    "$LSB_CONF/lsb.params"
cat >>"$LSB_CONF/lsb.queues" <<EOT

Begin Queue
QUEUE_NAME = other
PRIORITY = 20
ADMINISTRATORS = nobody
End Queue

Begin Queue
QUEUE_NAME = rq
PRIORITY = 10
REQUEUE_EXIT_VALUES = 7
End Queue

Begin Queue
QUEUE_NAME = ls
PRIORITY = 5
r1m = 0.5/1.0
End Queue

Begin Queue
QUEUE_NAME = victim
PRIORITY = 3
PREEMPTION = PREEMPTABLE
End Queue

Begin Queue
QUEUE_NAME = pre
PRIORITY = 60
End Queue

Begin Queue
QUEUE_NAME = fs
PRIORITY = 1
FAIRSHARE = USER_SHARES[[root, 2] [default, 1]]
End Queue

Begin Queue
QUEUE_NAME = tvictim
PRIORITY = 2
PREEMPTION = PREEMPTABLE
TERMINATE_WHEN = PREEMPT
JOB_CONTROLS = TERMINATE[true]
End Queue
EOT
cat >"$LSB_CONF/lsb.applications" <<EOT
Begin Application
NAME = fluent
RUNLIMIT = 100
End Application
EOT
# hostb takes a third job, suspended by its load.
sed -i 's/^default /hostb      3\nhostc      3\n&/' "$LSB_CONF/lsb.hosts"
elim_install
cp "$TOP/etc/serverdir/echkpnt.sample" "$T_DIR/serverdir/"
mkdir -p "$T_DIR/ck"
set_load hostb "r1m 0"	# not the machine's own: ls dispatches at r1m <= 0.5
cluster_start
cd "$T_DIR/jobs"
S=600

# Finished jobs: done, exited, killed while pending, killed running.
d=$(submit -o /dev/null true)
e=$(submit -o /dev/null "exit 3")
kp=$(submit -H -o /dev/null true)
bkill "$kp" >/dev/null
kr=$(submit -o /dev/null sleep $S)
wait_for job_is "$kr" RUN
bkill "$kr" >/dev/null
wait_for job_is "$kr" EXIT
wait_for job_is "$d" DONE
wait_for job_is "$e" EXIT

# MBD_DIE and MBD_START: badmin mbdrestart, the state replayed.
badmin mbdrestart >/dev/null 2>&1
check "mbatchd is back after mbdrestart" wait_for sh -c "bqueues >/dev/null"
wait_for all_hosts_ok
# MIG: a rerunnable job migrated by bmig runs again (LSB_RESTART=Y
# makes its second run end at once).
mg=$(submit -r -m hostc -o /dev/null "[ \"\$LSB_RESTART\" = Y ] || sleep $S")
wait_for job_is "$mg" RUN
bmig "$mg" >/dev/null 2>&1
check "the migrated job runs again and ends" wait_for job_is "$mg" DONE

# Fairshare: history from the finished jobs of two accounts (root's, and
# nobody's by default), a running job charged on hostc, a pending one
# in its account's list (the queue inactive).
# f1 runs more than a second, so that its run time counts too.
f1=$(submit -q fs -o /dev/null 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; sleep 1.1')
f2=$(as_nobody bsub -q fs -o /dev/null true | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
wait_for job_is "$f1" DONE || fail "fairshare job f1 did not end"
wait_for job_is "$f2" DONE || fail "fairshare job f2 did not end"
fr=$(submit -q fs -m hostc -o /dev/null sleep $S)
wait_for job_is "$fr" RUN || fail "fairshare job fr did not start"
badmin qinact fs >/dev/null
fp=$(submit -q fs -o /dev/null sleep $S)

# On hostc, an array: one element done, one running, one killed, the
# rest pending behind its %limit; and a job that depends on it.
arr=$(submit -m hostc -J "a[1-6]%1" -o /dev/null \
    "sleep \$((LSB_JOBINDEX == 1 ? 0 : $S))")
wait_for job_is "$arr[2]" RUN
bkill "$arr[3]" >/dev/null
dep=$(submit -w "done($arr)" -o /dev/null true)
# A checkpointable job (JOB_NEW's chkpntDir and chkpntPeriod), with a new
# period and a checkpoint taken (CHKPNT records).
ck=$(submit -k "$T_DIR/ck 20 method=sample" -q other -m hostc -o /dev/null \
    'while :; do rm -f "$LSB_CHKPNT_DIR/chkpnt.request"; sleep 0.1; done')
wait_for job_is "$ck" RUN
bchkpnt -p 40 "$ck" >/dev/null
chkpnted() {
	badmin statedump | grep -q "^job $ck\\[0\\] .* period=2400/1 taken=1 "
}
check "the checkpointable job is checkpointed" wait_for chkpnted
# brestart of it once killed: a JOB_NEW with SUB_RESTART, held by -b.
bchkpnt -k "$ck" >/dev/null
check "the checkpointed job is killed" wait_for job_is "$ck" EXIT
rs=$(brestart -b "$(date -d '+3 hours' +%Y:%m:%d:%H:%M)" "$T_DIR/ck" "$ck" |
    sed -n 's/^Job <\([0-9]*\)> is submitted.*/\1/p')
check "brestart gives a new job" test -n "$rs"

# On hosta and hostb, running jobs: stopped by the user; stopped and
# resumed; switched to another queue and given new limits and output
# file (bmod of a started job); requeued, so that it runs again.
r1=$(submit -m hosta -o /dev/null sleep $S)
r2=$(submit -m hosta -o /dev/null sleep $S)
r3=$(submit -m hostb -o /dev/null sleep $S)
r4=$(submit -m hostb -o /dev/null sleep $S)
r5=$(submit -m hostb -q ls -o /dev/null sleep $S)
for j in $r1 $r2 $r3 $r4 $r5; do wait_for job_is "$j" RUN; done
bstop "$r1" >/dev/null
wait_for job_is "$r1" USUSP
bstop "$r2" >/dev/null
wait_for job_is "$r2" USUSP
bresume "$r2" >/dev/null
wait_for job_is "$r2" RUN
bswitch other "$r3" >/dev/null
expect_eq "a started job takes new limits, rusage and output file" \
    "Parameters of job <$r3> are being changed" \
    "$(bmod -W 500 -M 100 -cn -R "rusage[mem=20]" -o "$T_DIR/jobs/r3.%J" \
    "$r3")"
brequeue "$r4" >/dev/null
ran_twice() {
	badmin statedump | grep -q "^job $r4\\[0\\] status=0x4 .* run_count=2 "
}
check "the requeued job runs again" wait_for ran_twice
# hostb's r1m per CPU goes to 2 and stays: r5 is suspended by load, and
# the load keeps it so through both restarts.
ncpus=$(lshosts hostb | awk 'NR == 2 { print $5 }')
set_load hostb "r1m $((2 * ncpus))"
check "the job in queue ls is suspended by load" wait_for job_is "$r5" SSUSP
load_susp() {
	badmin statedump | grep -q "^job $r5\\[0\\] status=0x8 .* susp=[1-9][0-9]*/1 "
}
check "statedump shows its reason and load index" wait_for load_susp

# Preemption on hosta: with preemption configured r1 (USUSP) holds no
# slot there, so v1 runs beside r2; x1 of a higher queue preempts it.
v1=$(submit -m hosta -q victim -o /dev/null sleep $S)
wait_for job_is "$v1" RUN
x1=$(submit -m hosta -q pre -o /dev/null sleep $S)
wait_for job_is "$x1" RUN
check "the victim job is preempted" job_is "$v1" SSUSP
preempted() {
	badmin statedump | grep -q "^job $v1\\[0\\] status=0x8 .* susp=8/$x1 .* npreempt=1 "
}
check "statedump shows the preemption" wait_for preempted
# On hostb (r5, SSUSP, holds no slot): tv is ended for x2 rather than
# suspended, by a TERMINATE action that leaves it running, so that the
# JOB_SIGNAL with SIG_F_PREEMPT stays in force across the restart.
tv=$(submit -m hostb -q tvictim -o /dev/null sleep $S)
wait_for job_is "$tv" RUN
x2=$(submit -m hostb -q pre -o /dev/null sleep $S)
wait_for job_is "$x2" RUN
ended() {
	badmin statedump | grep -q "^job $tv\\[0\\] status=0x4 .* kill_asked=1 npreempt=0 preempt_kill=1 slots_free=1"
}
check "statedump shows the job ended for its preemptor" wait_for ended

# Pending jobs, with every queue inactive so that they stay so: held,
# released, reordered, modified, switched; one forced to run on hostc's
# free slot, which exits with a REQUEUE_EXIT_VALUES code and so pends
# again.
badmin qinact normal >/dev/null
badmin qinact rq >/dev/null
badmin qinact other >/dev/null
p1=$(submit -o /dev/null sleep $S)
p2=$(submit -o /dev/null sleep $S)
p3=$(submit -q rq -o /dev/null "exit 7")
h=$(submit -H -o /dev/null sleep $S)
p4=$(submit -o /dev/null sleep $S)
# -m with a group, "others" and levels; -outdir with patterns.
p5=$(submit -m "all+1 ~hosta hostc+2 others" -outdir "od/%J_%I" \
    -o /dev/null sleep $S)
# An application profile (the JOB_NEW field).
p6=$(submit -app fluent -o /dev/null sleep $S)
btop "$p4" >/dev/null 2>&1
bbot "$p1" >/dev/null 2>&1
# A queue administrator who is not a cluster one (nobody, of queue
# other) moves root's job among all jobs of its priority; replay must
# not decide again with what it knows (JOB_MOVE's scope).
o1=$(submit -q other -o /dev/null sleep $S)
o2=$(as_nobody bsub -q other -o /dev/null sleep $S | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
o3=$(submit -q other -o /dev/null sleep $S)
as_nobody btop "$o3" >/dev/null 2>&1
as_nobody bbot "$o1" >/dev/null 2>&1
order_other() {
	badmin statedump | sed -n 's/^queue other .* pending=\([^ ]*\) .*/\1/p'
}
expect_match "the queue administrator's btop and bbot" \
    "^$o3\\[0\\],.*$o2\\[0\\],$o1\\[0\\]\$" "$(order_other)"
bmod -J renamed "$p2" >/dev/null
bswitch other "$p2" >/dev/null
bstop "$p1" >/dev/null
bresume "$h" >/dev/null
brun -m hostc "$p3" >/dev/null
requeued() {
	badmin statedump |
	    grep -q "^job $p3\\[0\\] status=0x1 .* run_count=1 .* note=20 .*nrequeue=1 "
}
check "the forced job is back in its queue" wait_for requeued
badmin hclose -C "closed for the replay" hostc >/dev/null
# HOST_CTRL for an sbatchd restart: the jobs on hostb go on.
badmin hrestart -f hostb >/dev/null 2>&1
check "hostb's sbatchd comes back" wait_for all_hosts_ok
badmin qclose other >/dev/null
badmin reconfig -f >/dev/null 2>&1
sleep 1	# reconfig applies in the turn after its answer

check "lsb.events was switched at MAX_JOB_NUM" \
    test -e "$T_DIR/work/c1/logdir/lsb.events.1"
before=$(badmin statedump)
check "badmin statedump answers" test -n "$before"
echo "$before" >"$T_DIR/dump.before"

nreg=$(grep -c 'sbatchd registered' "$T_DIR/log/mbatchd.log.hosta")
old=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
kill -9 "$old"
restarted() {
	p=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd) && [ "$p" != "$old" ] &&
	    all_hosts_ok
}
check "mbatchd comes back and the hosts register" wait_for restarted
# Registration is asynchronous: wait until three sbatchds have.
regs() {
	[ "$(grep -c 'sbatchd registered' "$T_DIR/log/mbatchd.log.hosta")" \
	    -ge $((nreg + 3)) ]
}
wait_for regs
after=$(badmin statedump)
echo "$after" >"$T_DIR/dump.after"
if [ "$before" = "$after" ]; then
	pass "the state after the restart is the state before it"
else
	fail "the state after the restart is the state before it"
	diff "$T_DIR/dump.before" "$T_DIR/dump.after" | head -n 40 | sed 's/^/#   /'
fi
expect_match "the dump holds every job" "^job $dep\\[0\\]" "$after"
expect_match "... and queue other in the queue administrator's order" \
    "^queue other .* pending=$o3\\[0\\],.*$o2\\[0\\],$o1\\[0\\][, ]" "$after"
# Every record type EVLOG_RECORDS declares was written, so replayed,
# here, but JOB_CLEAN: cleaning would change the state between the
# dumps (check_mbd replays every type).
declared=$(sed -n 's/^[[:space:]]*R(\([A-Z_0-9]*\),.*/\1/p' "$TOP/include/evlog.h" |
    grep -vx JOB_CLEAN | sort)
written=$(cat "$T_DIR/work/c1/logdir/lsb.events"* "$T_DIR/work/c1/logdir/lsb.envs" |
    sed -n 's/^"\([A-Z_0-9]*\)" .*/\1/p' | sort -u)
expect_eq "every declared record type is in the log" "$declared" \
    "$(comm -12 <(echo "$declared") <(echo "$written"))"
expect_match "... and a checkpointable job's checkpoint" \
    "^job $ck\\[0\\] .* chkpnt=$T_DIR/ck method=sample period=2400/1 taken=1 " \
    "$after"
expect_match "... and brestart's job, to restart" \
    "^job $rs\\[0\\] .* chkpnt=$T_DIR/ck .*taken=1 " "$after"
expect_match "... and a job's application profile" \
    "^job $p6\\[0\\] .* app=fluent " "$after"
expect_match "... and root's fairshare account: history, a running job, \
a pending one" "^fs root/ shares=2 leaf=1 cpu=[0-9.e-]*[1-9][0-9.e-]*@[1-9][0-9]* \
hrun=[0-9.e-]*[1-9][0-9.e-]*@[1-9][0-9]* jobs=1 slots=1 start_sum=[1-9][0-9]* fs=$fp\\[0\\]$" \
    "$after"
expect_match "... and nobody's, made by [default, 1]" \
    "^fs nobody/ shares=1 leaf=1 cpu=" "$after"

bkill 0 >/dev/null 2>&1
finish
