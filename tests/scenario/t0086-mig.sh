#!/bin/bash
# MIG (lsb.queues, lsb.hosts): a rerunnable job system-suspended (SSUSP)
# for MIG minutes is migrated as bmig migrates it: a MIG record, its run
# killed, back to PEND at the head of its queue with the same job ID, and
# run again on another host with LSB_RESTART=Y.  MIG=0 migrates at once,
# which keeps this fast; the jobs are made SSUSP by locking their host
# (lsadmin limlock).  The lower of the queue's and the host's MIG
# applies; a job that is not rerunnable, or that its user stopped
# (USUSP), stays where it is.  Last, a job suspended by load (a queue's
# suspending threshold, the load set through an ELIM) migrates the same
# way.
. "$(dirname "$0")/lib.sh"

cluster_init 3
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = mig0
PRIORITY = 40
MIG = 0
DESCRIPTION = Suspended jobs migrate at once.
End Queue

Begin Queue
QUEUE_NAME = slow
PRIORITY = 40
MIG = 60
DESCRIPTION = Suspended jobs migrate after an hour.
End Queue

Begin Queue
QUEUE_NAME = loadq
PRIORITY = 40
r1m = 0.25/1.75
MIG = 0
DESCRIPTION = Suspended by load, migrated at once.
End Queue
EOF
# hosta waits an hour, hostc not at all; hostb has no MIG.
cat >"$LSB_CONF/lsb.hosts" <<EOF
Begin Host
HOST_NAME  MXJ  MIG
hosta      4    60
hostc      4    0
default    4    -
End Host
EOF
elim_install
for h in hosta hostb hostc; do set_load $h "r1m 0 it 100"; done
cluster_start
cd "$T_DIR/jobs"
ev="$T_DIR/work/c1/logdir/lsb.events"

# The MIG records of a job.
mig_records() {
	grep -c "^\"MIG\" \"[^\"]*\" [0-9]* $1 " "$ev"
}
# A job that writes its environment to env.<name>.<host> and sleeps.
envjob() {
	local name=$1
	shift
	submit "$@" -J "$name" -o /dev/null \
	    "env >env.tmp.$name.\$LSB_HOSTS; mv env.tmp.$name.\$LSB_HOSTS \
	    env.$name.\$LSB_HOSTS; sleep 600"
}

# ---- Queue MIG=0 (host 60): the lower applies, the job migrates at once.
# hostb is full for now, so the migrated job has to wait in its queue.
fill1=$(submit -m hostb -o /dev/null sleep 600)
fill2=$(submit -m hostb -o /dev/null sleep 600)
fill3=$(submit -m hostb -o /dev/null sleep 600)
fill4=$(submit -m hostb -o /dev/null sleep 600)
r=$(envjob r -q mig0 -r -m "hosta+1 hostb")
n=$(envjob n -q mig0 -m "hosta+1 hostb")
u=$(envjob u -q mig0 -r -m "hosta+1 hostb")
for j in $fill1 $fill2 $fill3 $fill4 $r $n $u; do wait_for job_is "$j" RUN; done
wait_for test -s env.r.hosta
expect_eq "the rerunnable job starts on hosta" hosta "$(exec_host "$r")"
expect_eq "so does the one that is not rerunnable" hosta "$(exec_host "$n")"
bstop "$u" >/dev/null
wait_for job_is "$u" USUSP
expect_eq "the third is stopped by its user" USUSP "$(job_stat "$u")"
# A job submitted before the lock waits in the same queue: the migrated
# one goes before it, at the head of its queue.
early=$(submit -q mig0 -m hostb -o /dev/null sleep 600)
wait_for job_is "$early" PEND

LSF_LOCAL_HOST=hosta lsadmin limlock >/dev/null 2>&1
check "the rerunnable job is migrated: back to PEND" wait_for job_is "$r" PEND
expect_match "pending as a migrating job, LSB_RESTART=Y for its next run" \
    "^job $r\\[0\\] status=0x1 .* run_count=1 .* note=19 .* restart=1" \
    "$(badmin statedump)"
expect_eq "at the head of its queue, before the earlier job" "$r $early" \
    "$(pend_order mig0)"
expect_eq "one MIG record" 1 "$(mig_records "$r")"
expect_match "written as bmig by the LSF administrator would be" \
    "^\"MIG\" \"[^\"]*\" [0-9]+ $r 0 0 0 \"root\" @" "$(grep '^"MIG"' "$ev")"
expect_match "with its JOB_SIGNAL, KILL" \
    "^\"JOB_SIGNAL\" \"[^\"]*\" [0-9]+ $r 0 1 \"KILL\" 0 \"root\" 32 @" \
    "$(grep '^"JOB_SIGNAL"' "$ev")"
wait_for job_is "$n" SSUSP
expect_eq "the job that is not rerunnable stays SSUSP" SSUSP \
    "$(job_stat "$n")"
expect_eq "the stopped job stays USUSP" USUSP "$(job_stat "$u")"

bkill "$fill1" >/dev/null
check "the migrated job runs again" wait_for job_is "$r" RUN
expect_eq "on hostb" hostb "$(exec_host "$r")"
check "with LSB_RESTART=Y" wait_for grep -qx 'LSB_RESTART=Y' env.r.hostb
check "which the first run did not have" \
    test -z "$(grep LSB_RESTART env.r.hosta)"
expect_eq "the same job ID" "$r" "$(bjobs -noheader -o jobid "$r")"
expect_eq "still one MIG record" 1 "$(mig_records "$r")"
expect_eq "none for the other jobs" "0 0" \
    "$(mig_records "$n") $(mig_records "$u")"
expect_eq "the job that is not rerunnable is still SSUSP" SSUSP \
    "$(job_stat "$n")"
expect_eq "the stopped job is still USUSP" USUSP "$(job_stat "$u")"
bkill "$early" "$fill2" "$fill3" "$fill4" >/dev/null

# ---- Queue MIG=60: on hosta (60) it stays; on hostc (0) it migrates.
LSF_LOCAL_HOST=hosta lsadmin limunlock >/dev/null 2>&1
wait_for sh -c "bhosts -w hosta | grep -q ' ok '"
x=$(envjob x -q slow -r -m "hosta+1 hostb")
y=$(envjob y -q slow -r -m "hostc+1 hostb")
wait_for job_is "$x" RUN
wait_for job_is "$y" RUN
wait_for test -s env.y.hostc
expect_eq "the slow-queue job runs on hosta" hosta "$(exec_host "$x")"
expect_eq "its sibling on hostc" hostc "$(exec_host "$y")"
LSF_LOCAL_HOST=hosta lsadmin limlock >/dev/null 2>&1
wait_for job_is "$x" SSUSP
expect_eq "locked hosta suspends it" SSUSP "$(job_stat "$x")"
LSF_LOCAL_HOST=hostc lsadmin limlock >/dev/null 2>&1
check "host MIG=0 under queue MIG=60: migrated, run again" \
    wait_for grep -qx 'LSB_RESTART=Y' env.y.hostb
expect_eq "on hostb" hostb "$(exec_host "$y")"
expect_eq "one MIG record for it" 1 "$(mig_records "$y")"
expect_eq "queue 60 and host 60: the other stays SSUSP" SSUSP \
    "$(job_stat "$x")"
expect_eq "with no MIG record" 0 "$(mig_records "$x")"

LSF_LOCAL_HOST=hosta lsadmin limunlock >/dev/null 2>&1
LSF_LOCAL_HOST=hostc lsadmin limunlock >/dev/null 2>&1
bkill 0 >/dev/null 2>&1
wait_for sh -c "[ -z \"\$(bjobs -noheader 2>/dev/null)\" ]"

# ---- Suspended by load: hosta's r1m past loadq's 1.75 (someone logged
# in, it = 0, so even the host's only job is suspended); MIG=0.
wait_for sh -c "bhosts -w hosta | grep -q ' ok '"
l=$(envjob l -q loadq -r -m "hosta+1 hostb")
wait_for test -s env.l.hosta
expect_eq "the job runs on hosta" hosta "$(exec_host "$l")"
set_load hosta "r1m 100 it 0"
check "suspended by load, migrated, run again" \
    wait_for grep -qx 'LSB_RESTART=Y' env.l.hostb
expect_eq "on hostb" hostb "$(exec_host "$l")"
expect_eq "one MIG record" 1 "$(mig_records "$l")"
expect_eq "after the JOB_STATUS that made it SSUSP (8) for load (5)" \
    "8 5" \
    "$(awk -v j="$l" '$1 == "\"JOB_STATUS\"" && $4 == j && $5 == 8 \
    { print $5, $6 }' "$ev")"

bkill 0 >/dev/null 2>&1
finish
