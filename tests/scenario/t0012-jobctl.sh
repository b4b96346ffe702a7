#!/bin/bash
# The job control commands: bstop, bresume, bkill -s STOP/CONT, brequeue,
# btop, bbot, bswitch, brun and bmig, through the real commands: LSF's
# messages and exit codes, the effect on the job (its processes really
# stop and continue, it really runs again), and that every effect
# survives a kill -9 of mbatchd between the command and the check.
. "$(dirname "$0")/lib.sh"

cluster_init 3
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = private
PRIORITY = 20
USERS = root
DESCRIPTION = Only root may use it.
End Queue

Begin Queue
QUEUE_NAME = busy
PRIORITY = 40
mem = 999999999/
DESCRIPTION = A threshold no host meets: nothing is dispatched or resumed.
End Queue
EOF
cluster_start
cd "$T_DIR/jobs"

mbd_pid() {
	pgrep -P "$PID_sbatchd_hosta" -x mbatchd
}

# kill -9 mbatchd (and then start the sbatchd of host $1, if given);
# wait until sbatchd has started another mbatchd and every sbatchd has
# registered with it again.
mbd_restart() {
	local old
	old=$(mbd_pid)
	kill -9 "$old"
	[ $# -eq 0 ] || start_daemon sbatchd "$1"
	wait_for sh -c "p=\$(pgrep -P $PID_sbatchd_hosta -x mbatchd) &&
	    [ \"\$p\" != $old ]"
	wait_for all_hosts_ok
}

# count_events TYPE JOBID: records of that type for the job.
count_events() {
	grep -c "^\"$1\" \"[^\"]*\" [0-9]* $2 " "$T_DIR/work/c1/logdir/lsb.events"
}

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	as_nobody() {
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	}
else
	as_nobody() {
		return 1
	}
	echo "# skipping the other-user checks: not root or no setpriv"
fi

# ---- bstop and bresume of a running job: its processes stop.
r1=$(submit -m hostb -J r1 -o /dev/null \
    'echo $$ >r1.pid; while :; do echo x >>r1.ticks; sleep 0.1; done')
wait_for test -s r1.pid
pid=$(cat r1.pid)
pgid=$(sed 's/.*) [A-Za-z] [0-9]* \([0-9]*\).*/\1/' "/proc/$pid/stat")
check "the job runs" job_is "$r1" RUN
out=$(bstop "$r1")
expect_eq "bstop of a running job" "Job <$r1> is being stopped" "$out"
wait_for job_is "$r1" USUSP
check "a stopped running job is USUSP" job_is "$r1" USUSP
wait_for pg_is "$pgid" T
expect_eq "its processes are stopped" T "$(pg_states "$pgid")"
n=$(lines r1.ticks)
sleep 0.3
expect_eq "... and do nothing" "$n" "$(lines r1.ticks)"
expect_match "bjobs -s lists it with its reason" \
    "^$r1 +root +USUSP .*"$'\n'" The job was suspended by user;$" "$(bjobs -s)"
expect_match "bjobs -l shows the reason" \
    $'SUSPENDING REASONS:\n The job was suspended by user;' "$(bjobs -l "$r1")"
out=$(bstop "$r1")
rc=$?
expect_eq "bstop of a stopped job is no error" "0 Job <$r1> is being stopped" \
    "$rc $out"

# brequeue -H of a running job: killed, held.
rh=$(submit -J rh -o /dev/null 'echo x >>rh.runs; sleep 600')
wait_for lines_ge rh.runs 1
out=$(brequeue -H "$rh")
expect_eq "brequeue -H" "Job <$rh> is being requeued" "$out"
wait_for job_is "$rh" PSUSP
check "brequeue -H leaves it held (PSUSP)" job_is "$rh" PSUSP

mbd_restart
check "USUSP survives an mbatchd restart" job_is "$r1" USUSP
expect_eq "the processes are still stopped" T "$(pg_states "$pgid")"
expect_match "with its reason" " The job was suspended by user;" \
    "$(bjobs -s "$r1")"
check "brequeue -H survives it (PSUSP)" job_is "$rh" PSUSP

out=$(bresume "$r1")
expect_eq "bresume of a stopped job" "Job <$r1> is being resumed" "$out"
st=$(job_stat "$r1")
check "it is SSUSP until resumed, then RUN ($st)" \
    test "$st" = SSUSP -o "$st" = RUN
wait_for job_is "$r1" RUN
check "the job runs again" job_is "$r1" RUN
wait_for pg_runs "$pgid"
check "its processes run again" pg_runs "$pgid"
n=$(lines r1.ticks)
wait_for lines_ge r1.ticks $((n + 2))
check "... and make progress" lines_ge r1.ticks $((n + 2))

# bkill -s STOP and -s CONT are bstop and bresume.
out=$(bkill -s STOP "$r1")
expect_eq "bkill -s STOP" "Job <$r1> is being signaled" "$out"
wait_for job_is "$r1" USUSP
check "bkill -s STOP makes it USUSP" job_is "$r1" USUSP
wait_for pg_is "$pgid" T
expect_eq "and stops its processes" T "$(pg_states "$pgid")"
expect_match "suspended by user" " The job was suspended by user;" \
    "$(bjobs -s "$r1")"
out=$(bkill -s CONT "$r1")
expect_eq "bkill -s CONT" "Job <$r1> is being signaled" "$out"
wait_for job_is "$r1" RUN
check "bkill -s CONT resumes it" job_is "$r1" RUN
wait_for pg_runs "$pgid"
check "and its processes" pg_runs "$pgid"

# bstop then bresume at once, just after the start (the host may not
# have reported the stop yet): the job runs, whatever the timing.
ok=0
for i in 1 2 3 4; do
	q=$(submit -m hostc -o /dev/null sleep 600)
	wait_for job_is "$q" RUN
	bstop "$q" >/dev/null
	bresume "$q" >/dev/null 2>&1 && sleep 1 && job_is "$q" RUN &&
	    ok=$((ok + 1))
	bkill "$q" >/dev/null
	wait_for job_is "$q" EXIT
done
expect_eq "bstop and bresume right after the start: RUN" 4 "$ok"

# A bresumed job waits (SSUSP) while its host is over the thresholds of
# its queue; brun starts it there in spite of them.
w=$(submit -q busy -J w -o /dev/null \
    'echo $$ >w.pid; while :; do echo x >>w.ticks; sleep 0.1; done')
wait_for job_is "$w" PEND
expect_match "the busy queue dispatches nothing" \
    "Queue's load threshold reached: 3 hosts;" "$(bjobs -p "$w")"
out=$(brun -m hostb "$w")
expect_eq "brun of a job the load holds back" \
    "Job <$w> is being forced to run." "$out"
wait_for test -s w.pid
wpg=$(cat w.pid)
check "the forced job runs" job_is "$w" RUN
bstop "$w" >/dev/null
wait_for job_is "$w" USUSP
out=$(bresume "$w")
expect_eq "bresume" "Job <$w> is being resumed" "$out"
check "a bresumed job waits for the load as SSUSP" job_is "$w" SSUSP
expect_match "bjobs -s says why" \
    " Waiting for re-scheduling after being resumed by user;" "$(bjobs -s "$w")"
expect_eq "its processes stay stopped" T "$(pg_states "$wpg")"
out=$(bstop "$w")
expect_eq "bstop of a job waiting to be resumed" \
    "Job <$w> is being stopped" "$out"
check "makes it USUSP again" job_is "$w" USUSP
expect_match "stopped by the user" " The job was suspended by user;" \
    "$(bjobs -s "$w")"
bresume "$w" >/dev/null
check "SSUSP again after bresume" job_is "$w" SSUSP
# In a queue without thresholds it is resumed.
out=$(bswitch normal "$w")
expect_eq "bswitch of a started job" "Job <$w> is switched to queue <normal>" \
    "$out"
wait_for job_is "$w" RUN
check "the new queue's thresholds let it run" job_is "$w" RUN
wait_for pg_runs "$wpg"
check "and its processes continue" pg_runs "$wpg"
bkill "$w" >/dev/null

# ---- brequeue of a running job: same ID, runs again from the start.
rq=$(submit -m hosta -J rq -o /dev/null 'echo $LSB_JOBID >>rq.runs; sleep 600')
wait_for lines_ge rq.runs 1
sub_l=$(bjobs -l "$rq" | grep 'Submitted from host')
sub_o=$(bjobs -noheader -o submit_time "$rq")
start1=$(bjobs -l "$rq" | grep 'Started ')
# A requeue in the same second could not show a new time.  The job
# started before it wrote rq.runs, so before now; not rq.runs' mtime,
# which the kernel's coarse clock can set a second short of the start.
# mbatchd's time(2) reads that coarse clock too, which turns a tick
# after date(1)'s: wait until the next second is 50 ms old.
later_than() {
	[ "$(date +%s%N)" -gt $(( ($1 + 1) * 1000000000 + 50000000 )) ]
}
wait_for later_than "$(date +%s)"
out=$(brequeue "$rq")
expect_eq "brequeue of a running job" "Job <$rq> is being requeued" "$out"
wait_for lines_ge rq.runs 2
wait_for job_is "$rq" RUN
expect_eq "it ran again under the same ID" "$rq $rq" \
    "$(tr '\n' ' ' <rq.runs | sed 's/ $//')"
check "and runs" job_is "$rq" RUN
expect_eq "two starts in lsb.events" 2 "$(count_events JOB_START "$rq")"
expect_eq "one requeue in lsb.events" 1 "$(count_events JOB_REQUEUE "$rq")"
check "it went back to PEND in between" grep -q \
    "^\"JOB_STATUS\" \"[^\"]*\" [0-9]* $rq 1 " "$T_DIR/work/c1/logdir/lsb.events"
expect_eq "the submit time is kept (bjobs -l)" "$sub_l" \
    "$(bjobs -l "$rq" | grep 'Submitted from host')"
expect_eq "the submit time is kept (bjobs -o)" "$sub_o" \
    "$(bjobs -noheader -o submit_time "$rq")"
check "the start time is the new one" test \
    "$(bjobs -l "$rq" | grep 'Started ')" != "$start1"
out=$(brequeue -r "$rq")
expect_eq "brequeue -r of a running job" "Job <$rq> is being requeued" "$out"
wait_for lines_ge rq.runs 3
check "it ran a third time" lines_ge rq.runs 3
err=$(brequeue -d "$rq" 2>&1)
rc=$?
expect_eq "brequeue -d of a running job" \
    "255 Job <$rq>: Job has already started" "$rc $err"

# brequeue of finished jobs: -d DONE, -e EXIT, -a both.
d=$(submit -o /dev/null 'echo x >>d.runs')
e=$(submit -o /dev/null 'echo x >>e.runs; exit 3')
wait_for job_is "$d" DONE
wait_for job_is "$e" EXIT
err=$(brequeue "$d" 2>&1)
rc=$?
expect_eq "brequeue of a DONE job without -d" \
    "255 Job <$d>: Job has already finished" "$rc $err"
err=$(brequeue -e "$d" 2>&1)
expect_eq "brequeue -e of a DONE job" \
    "Job <$d>: Job has already finished" "$err"
out=$(brequeue -d "$d")
expect_eq "brequeue -d" "Job <$d> is being requeued" "$out"
wait_for lines_ge d.runs 2
wait_for job_is "$d" DONE
check "the DONE job ran again" lines_ge d.runs 2
err=$(brequeue -d "$e" 2>&1)
expect_eq "brequeue -d of an EXIT job" \
    "Job <$e>: Job has already finished" "$err"
out=$(brequeue -e "$e")
expect_eq "brequeue -e" "Job <$e> is being requeued" "$out"
wait_for lines_ge e.runs 2
wait_for job_is "$e" EXIT
check "the EXIT job ran again" lines_ge e.runs 2
out=$(brequeue -a "$d" "$e")
expect_eq "brequeue -a" "Job <$d> is being requeued"$'\n'"Job <$e> is being requeued" \
    "$out"
wait_for lines_ge d.runs 3
wait_for lines_ge e.runs 3
check "both ran again" lines_ge e.runs 3
wait_for job_is "$d" DONE
out=$(brequeue -d -H "$d")
expect_eq "brequeue -d -H" "Job <$d> is being requeued" "$out"
check "brequeue -d -H holds it" job_is "$d" PSUSP
bkill "$d" >/dev/null
wait_for job_is "$e" EXIT

# ---- bmig of a rerunnable job: killed, run again elsewhere, LSB_RESTART.
m=$(submit -r -m hostc -J mig -o /dev/null \
    'env >mig.tmp.$LSB_HOSTS; mv mig.tmp.$LSB_HOSTS mig.env.$LSB_HOSTS
    sleep 600')
wait_for test -s mig.env.hostc
out=$(bmig -m hostb "$m")
expect_eq "bmig" "Job <$m> is being migrated" "$out"
wait_for test -s mig.env.hostb
wait_for job_is "$m" RUN
expect_eq "the job runs on the new host" hostb "$(exec_host "$m")"
check "with LSB_RESTART=Y" grep -qx 'LSB_RESTART=Y' mig.env.hostb
check "which the first run did not have" \
    test -z "$(grep LSB_RESTART mig.env.hostc)"
nr=$(submit -m hostc -o /dev/null sleep 600)
wait_for job_is "$nr" RUN
err=$(bmig -m hostb "$nr" 2>&1)
rc=$?
expect_eq "bmig of a job that is not rerunnable" \
    "255 Job <$nr>: Job is not checkpointable" "$rc $err"
check "... which keeps running" job_is "$nr" RUN
bkill "$m" "$nr" "$r1" "$rq" "$rh" >/dev/null
wait_for sh -c "[ -z \"\$(bjobs -noheader 2>/dev/null)\" ]"

# ---- Pending jobs: fill every slot (MXJ 2 on three hosts) first.
fills=""
for h in hosta hosta hostb hostb hostc hostc; do
	fills="$fills $(submit -m $h -J fill -o /dev/null sleep 600)"
done
for f in $fills; do wait_for job_is "$f" RUN; done
p1=$(submit -J pend -o /dev/null 'echo p1 >>pend.runs')
p2=$(submit -J pend -o /dev/null 'echo p2 >>pend.runs')
p3=$(submit -J pend -o /dev/null 'echo p3 >>pend.runs')
p4=$(submit -J pend -o /dev/null 'echo p4 >>pend.runs')
q1=$(submit -q short -J sq -o /dev/null true)
wait_for job_is "$p4" PEND
expect_eq "pending jobs in submission order" "$p1 $p2 $p3 $p4" \
    "$(pend_order normal)"

out=$(bstop "$p1")
expect_eq "bstop of a pending job" "Job <$p1> is being stopped" "$out"
check "a stopped pending job is PSUSP" job_is "$p1" PSUSP
expect_match "bjobs -p says why" \
    "^$p1 .*"$'\n'" The job was suspended by the user while pending;" \
    "$(bjobs -p "$p1")"
expect_match "bjobs -l says why" \
    $'PENDING REASONS:\n The job was suspended by the user while pending;' \
    "$(bjobs -l "$p1")"

# btop and bbot, with and without a position; they answer on standard
# error, as LSF does.
out=$(btop "$p3" 2>&1 >/dev/null)
expect_eq "btop" "Job <$p3> has been moved to position 1 from top." "$out"
expect_eq "btop puts it first" "$p3 $p1 $p2 $p4" "$(pend_order normal)"
out=$(bbot "$p3" 2>&1 >/dev/null)
expect_eq "bbot" "Job <$p3> has been moved to position 1 from bottom." "$out"
expect_eq "bbot puts it last" "$p1 $p2 $p4 $p3" "$(pend_order normal)"
out=$(btop "$p4" 2 2>&1 >/dev/null)
expect_eq "btop with a position" \
    "Job <$p4> has been moved to position 2 from top." "$out"
expect_eq "btop 2 puts it second" "$p1 $p4 $p2 $p3" "$(pend_order normal)"
out=$(bbot "$p1" 2 2>&1 >/dev/null)
expect_eq "bbot with a position" \
    "Job <$p1> has been moved to position 2 from bottom." "$out"
expect_eq "bbot 2 puts it second from the bottom" "$p4 $p2 $p1 $p3" \
    "$(pend_order normal)"
expect_eq "bjobs lists pending jobs in that order" "$p4 $p2 $p1 $p3" \
    "$(bjobs -noheader -q normal | awk '$3 ~ /PEND|PSUSP/ { print $1 }' |
    tr '\n' ' ' | sed 's/ $//')"
err=$(btop "$(echo $fills | cut -d' ' -f1)" 2>&1)
rc=$?
expect_eq "btop of a running job" \
    "255 Job <$(echo $fills | cut -d' ' -f1)>: Job has already started" \
    "$rc $err"

# Job 0 and the filters.
out=$(bstop -q short 0)
expect_eq "bstop -q short 0" "Job <$q1> is being stopped" "$out"
check "... stops that queue's job" job_is "$q1" PSUSP
check "... and no other" job_is "$p2" PEND
out=$(bresume -q short 0)
expect_eq "bresume -q short 0" "Job <$q1> is being resumed" "$out"
check "... resumes it" job_is "$q1" PEND
out=$(bstop -J pend 0 | sort)
expect_eq "bstop -J pend 0" "$(for p in $p1 $p2 $p3 $p4; do
	echo "Job <$p> is being stopped"; done | sort)" "$out"
check "... stops every job of that name" test \
    "$(bjobs -noheader -o stat -J pend | sort -u)" = PSUSP
out=$(bresume -J pend 0 | sort)
expect_eq "bresume -J pend 0" "$(for p in $p1 $p2 $p3 $p4; do
	echo "Job <$p> is being resumed"; done | sort)" "$out"
check "... resumes them" test "$(bjobs -noheader -o stat -J pend | sort -u)" = PEND
check "... in the same order" test "$(pend_order normal)" = "$p4 $p2 $p1 $p3"
bstop "$p1" >/dev/null
hb=$(bjobs -noheader -m hostb -o jobid | sort | tr '\n' ' ' | sed 's/ $//')
out=$(bstop -m hostb 0 | sort)
expect_eq "bstop -m hostb 0" "$(for j in $hb; do
	echo "Job <$j> is being stopped"; done | sort)" "$out"
for j in $hb; do wait_for job_is "$j" USUSP; done
check "... stops the jobs running there" test \
    "$(bjobs -noheader -o stat -m hostb | sort -u)" = USUSP
out=$(bresume -u root -m hostb 0 | sort)
expect_eq "bresume -u root -m hostb 0" "$(for j in $hb; do
	echo "Job <$j> is being resumed"; done | sort)" "$out"
for j in $hb; do wait_for job_is "$j" RUN; done
check "... resumes them" test "$(bjobs -noheader -o stat -m hostb | sort -u)" = RUN
err=$(bstop -u nosuchuser 0 2>&1)
rc=$?
expect_eq "bstop 0 matching nothing" "255 No matching job found" "$rc $err"

# Another user's jobs.
if n1=$(as_nobody bsub -q short -J nob -o /dev/null true 2>/dev/null |
    sed -n 's/Job <\([0-9]*\)>.*/\1/p') && [ -n "$n1" ]; then
	err=$(as_nobody bstop "$p2" 2>&1)
	rc=$?
	expect_eq "a user cannot stop another's job" \
	    "255 Job <$p2>: User permission denied" "$rc $err"
	check "... which still pends" job_is "$p2" PEND
	err=$(as_nobody btop "$p2" 2>&1)
	expect_eq "nor move it" "Job <$p2>: User permission denied" "$err"
	out=$(bstop -q short 0)
	expect_eq "job 0 means the caller's jobs, even for root" \
	    "Job <$q1> is being stopped" "$out"
	check "... the other user's job still pends" job_is "$n1" PEND
	out=$(bstop -u all -q short 0 | sort)
	expect_eq "-u all: everyone's" "$(printf 'Job <%s> is being stopped\n' \
	    "$q1" "$n1" | sort)" "$out"
	expect_match "an administrator's stop says so" \
	    "The job was suspended by LSF admin or root while pending;" \
	    "$(bjobs -u all -p "$n1")"
	err=$(as_nobody bresume "$n1" 2>&1)
	expect_eq "the user cannot resume what an administrator stopped" \
	    "Job <$n1>: User permission denied" "$err"
	out=$(bresume -u all -q short 0 | sort)
	expect_eq "bresume -u all" "$(printf 'Job <%s> is being resumed\n' \
	    "$q1" "$n1" | sort)" "$out"
	# A user moves a job only among his own: alone, it stays.
	q2=$(submit -q short -J sq2 -o /dev/null true)
	as_nobody btop "$n1" 2>/dev/null
	expect_eq "a user's only job stays where it is (btop)" \
	    "$q1 $n1 $q2" "$(bjobs -u all -p -noheader -q short |
	    awk '/^[0-9]/ { print $1 }' | tr '\n' ' ' | sed 's/ $//')"
	as_nobody bbot "$n1" 2>/dev/null
	expect_eq "... and (bbot)" "$q1 $n1 $q2" "$(bjobs -u all -p -noheader \
	    -q short | awk '/^[0-9]/ { print $1 }' | tr '\n' ' ' | sed 's/ $//')"
	bkill "$q2" >/dev/null
	err=$(as_nobody bswitch private "$n1" 2>&1)
	rc=$?
	expect_eq "bswitch to a queue the user cannot use" \
	    "255 Job <$n1>: User cannot use the queue" "$rc $err"
	err=$(bswitch private "$n1" 2>&1)
	expect_eq "... not even when an administrator asks" \
	    "Job <$n1>: User cannot use the queue" "$err"
	check "... leaves the job where it was" test \
	    "$(bjobs -u all -noheader -o queue "$n1")" = short
	err=$(as_nobody brun -m hosta "$n1" 2>&1)
	rc=$?
	expect_match "only administrators may brun" \
	    "User permission denied" "$rc $err"
	check "... which exits 255" test "$rc" -eq 255
	bkill -u all "$n1" >/dev/null
fi

# bswitch.
out=$(bswitch short "$p2")
expect_eq "bswitch" "Job <$p2> is switched to queue <short>" "$out"
expect_eq "the job is in the new queue" short "$(bjobs -noheader -o queue "$p2")"
err=$(bswitch nosuch "$p3" 2>&1)
rc=$?
expect_eq "bswitch to a queue that does not exist" \
    "255 Job <$p3>: No such queue" "$rc $err"
err=$(bswitch nosuch 0 2>&1)
rc=$?
expect_eq "... with job 0" "255 nosuch: No such queue" "$rc $err"

# A bstop that cannot reach the job's host yet is kept, across a restart
# of mbatchd too, and done when the host's sbatchd is back.
fb=$(bjobs -noheader -m hostb -o jobid | head -n 1)
fb2=$(bjobs -noheader -m hostb -o jobid | sed -n 2p)
{
	kill -9 "$PID_sbatchd_hostb"
	wait "$PID_sbatchd_hostb"
} 2>/dev/null
host_unreach() {
	bhosts "$1" | grep -q " unreach "
}
wait_for host_unreach hostb
out=$(bstop "$fb")
expect_eq "bstop of a job whose host is unreachable" \
    "Job <$fb> is being stopped" "$out"
check "... stays RUN meanwhile" job_is "$fb" RUN
bstop "$fb2" >/dev/null
out=$(bresume "$fb2")
expect_eq "a bresume then cancels a bstop still waiting for the host" \
    "Job <$fb2> is being resumed" "$out"

mbd_restart hostb
wait_for job_is "$fb" USUSP
check "the bstop is done when the host is back, after the restart" \
    job_is "$fb" USUSP
check "the cancelled one is not" job_is "$fb2" RUN
check "PSUSP survives an mbatchd restart" job_is "$p1" PSUSP
expect_match "with its reason" \
    "The job was suspended by the user while pending;" "$(bjobs -p "$p1")"
expect_eq "the btop/bbot order survives it" "$p4 $p1 $p3" "$(pend_order normal)"
expect_eq "bswitch survives it" short "$(bjobs -noheader -o queue "$p2")"
expect_eq "the switched job is last in its new queue" "$q1 $p2" \
    "$(pend_order short)"

# brun: an administrator starts a pending job on a full host.
out=$(brun -m hostc "$p4")
expect_eq "brun" "Job <$p4> is being forced to run." "$out"
wait_for job_is "$p4" DONE
check "the forced job ran" grep -qx p4 pend.runs
expect_eq "on the host given, although it is full" hostc "$(exec_host "$p4")"
out=$(brun -f -m hostb "$p3")
expect_eq "brun -f" "Job <$p3> is being forced to run." "$out"
wait_for job_is "$p3" DONE
check "brun -f ran it" grep -qx p3 pend.runs
expect_eq "on hostb" hostb "$(exec_host "$p3")"
f1=$(echo $fills | cut -d' ' -f1)
err=$(brun -m hostc "$f1" 2>&1)
rc=$?
expect_eq "brun of a running job" \
    "255 Job <$f1>: Job has already started" "$rc $err"
check "the other jobs still wait" test -z "$(grep -x 'p[12]' pend.runs)"

# Errors: finished and unknown jobs.
for c in bstop bresume "btop" "bbot" "bswitch short" "brun -m hosta" \
    "bmig" "brequeue"; do
	err=$($c 424242 2>&1)
	rc=$?
	expect_eq "$c of an unknown job" \
	    "255 Job <424242>: No matching job found" "$rc $err"
done
for c in bstop bresume "btop" "bbot" "bswitch short" "brun -m hosta" \
    "bmig"; do
	err=$($c "$p4" 2>&1)
	rc=$?
	expect_eq "$c of a finished job" \
	    "255 Job <$p4>: Job has already finished" "$rc $err"
done
err=$(bmig "$p1" 2>&1)
expect_eq "bmig of a pending job" "Job <$p1>: Job has not started yet" "$err"
err=$(brequeue "$p1" 2>&1)
expect_eq "brequeue of a pending job" "Job <$p1>: Job has not started yet" \
    "$err"

# The slots free up: the resumed job runs.
bkill -J fill 0 >/dev/null
out=$(bresume "$p1")
expect_eq "bresume of a held job" "Job <$p1> is being resumed" "$out"
wait_for job_is "$p1" DONE
check "the resumed job ran" grep -qx p1 pend.runs
wait_for job_is "$p2" DONE
check "and the switched one" grep -qx p2 pend.runs

finish
