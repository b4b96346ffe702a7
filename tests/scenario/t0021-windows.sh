#!/bin/bash
# Queue time windows: a closed DISPATCH_WINDOW keeps jobs pending with
# LSF's reason; a closed RUN_WINDOW suspends a running job that comes
# into the queue (and it resumes when it leaves), or kills it with
# TERMINATE_WHEN=WINDOW; brun -f jobs are never suspended.
. "$(dirname "$0")/lib.sh"

cluster_init 1
# Windows that are closed now: two hours from now, for an hour.
h=$(date +%-H)
closed="$(( (h + 2) % 24 )):00-$(( (h + 3) % 24 )):00"
cat >>"$LSB_CONF/lsb.queues" <<EOT
Begin Queue
QUEUE_NAME      = night
PRIORITY        = 10
DISPATCH_WINDOW = $closed
End Queue
Begin Queue
QUEUE_NAME      = runwin
PRIORITY        = 10
RUN_WINDOW      = $closed
End Queue
Begin Queue
QUEUE_NAME      = killwin
PRIORITY        = 10
RUN_WINDOW      = $closed
TERMINATE_WHEN  = WINDOW
End Queue
EOT
cluster_start
cd "$T_DIR/jobs"
jid() { sed 's/Job <\([0-9]*\)>.*/\1/'; }

n=$(bsub -q night true | jid)
r=$(bsub -q runwin true | jid)
sleep 1
expect_eq "closed dispatch window: pending" PEND "$(job_stat "$n")"
expect_eq "its reason" " The queue is inactivated by its time windows;" \
    "$(bjobs -p "$n" | sed -n 3p)"
expect_eq "closed run window: nothing starts either" PEND "$(job_stat "$r")"

j=$(bsub sleep 60 | jid)
wait_for job_is "$j" RUN
bswitch runwin "$j" >/dev/null
wait_for job_is "$j" SSUSP
expect_eq "a running job moved into a closed run window is suspended" \
    SSUSP "$(job_stat "$j")"
expect_eq "with LSF's reason" " The run windows of the queue are closed;" \
    "$(bjobs -s "$j" | grep '^ ' | head -n 1)"
mbd_restart
expect_eq "still suspended after a restart" SSUSP "$(job_stat "$j")"
bswitch normal "$j" >/dev/null
wait_for job_is "$j" RUN
check "back in an open queue, it resumes" job_is "$j" RUN

k=$(bsub sleep 60 | jid)
wait_for job_is "$k" RUN
bswitch killwin "$k" >/dev/null
wait_for job_is "$k" EXIT
expect_match "TERMINATE_WHEN=WINDOW kills it" "^TERM_WINDOW" \
    "$(bjobs -noheader -o exit_reason "$k")"

f=$(bsub -q runwin sleep 60 | jid)
brun -f -m hosta "$f" >/dev/null
wait_for job_is "$f" RUN
sleep 1.5
expect_eq "brun -f: never suspended for the window" RUN "$(job_stat "$f")"
finish
