#!/bin/bash
# All hosts down at once (every daemon, supervisor and job killed -9),
# then only the first master candidate back: its mbatchd replays
# lsb.events; the jobs that were running are lost: the rerunnable ones
# run again on the one host back with LSB_RESTART=Y, the others end EXIT
# (TERM_ZOMBIE), each owner mailed once, whether the job's host came
# back (its sbatchd finds the job without a supervisor) or stayed away
# (MAX_SBD_FAIL probes).  Pending jobs stay pending and start as their
# hosts come back one by one; no job runs twice.
. "$(dirname "$0")/lib.sh"

cluster_init 3
sed -i 's/^LSF_MASTER_LIST=.*/LSF_MASTER_LIST="hosta hostb"/' \
    "$LSF_CONF/lsf.conf"
sed -i 's/^End Parameters/MAX_SBD_FAIL = 3\nEnd Parameters/' \
    "$LSB_CONF/lsb.params"
printf 'Begin Host\nHOST_NAME  MXJ\nhosta      2\ndefault    1\nEnd Host\n' \
    >"$LSB_CONF/lsb.hosts"
mail_capture
cluster_start
cd "$T_DIR/jobs"

# Each run of a job notes its ID, LSB_RESTART and PID in runs.
JOB='echo $LSB_JOBID ${LSB_RESTART:-N} $$ >>runs; exec sleep 300'
runs_of() { awk -v j="$1" '$1 == j' runs | wc -l; }
runs_are() { [ "$(runs_of "$1")" -eq "$2" ]; }
mails() { cat "$MAILDIR"/* 2>/dev/null; }
mails_about() { mails | grep -c "^Subject: Job $1: "; }
reason() { bjobs -noheader -o exit_reason "$1"; }
none_alive() {
	local p
	for p; do ! kill -0 "$p" 2>/dev/null || return 1; done
}

ra=$(submit -r -m hosta -o /dev/null "$JOB")
na=$(submit -m hosta -o /dev/null "$JOB")
nb=$(submit -m hostb -o /dev/null "$JOB")
rc=$(submit -r -m "hostc hosta" -o /dev/null "$JOB")
for j in $ra $na $nb $rc; do wait_for runs_are "$j" 1; done
p1=$(submit -m "hostb hostc" -o /dev/null "$JOB")
p2=$(submit -m "hostb hostc" -o /dev/null "$JOB")
stays_pending "the job beyond the slots pends" "$p1"
for j in $ra $na $nb $rc; do
	check "job $j runs before the power loss" job_is "$j" RUN
done
check "the jobs beyond the slots pend" sh -c \
    "[ \"\$(bjobs -noheader -o stat $p1 $p2 | tr '\n' ' ')\" = 'PEND PEND ' ]"

# The power loss: every daemon, every supervisor, every job (the job
# last, so that no supervisor lives to see its end).  The daemons are
# stopped first, all at once as power goes: killed one after the other,
# hostb's LIM once saw the master's go, elected itself, and its sbatchd
# started an mbatchd before their own kills came, which then held the
# lock against the one the test starts.
mbd=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
kill -STOP $mbd $T_PIDS 2>/dev/null
kill -9 $mbd $T_PIDS 2>/dev/null
for f in "$T_DIR"/work/c1/sbd/*/jobs/*/lock; do
	[ -e "$f" ] && fuser -k -KILL "$f" >/dev/null 2>&1
done
oldpids=$(awk '{ print $3 }' runs)
kill -9 $oldpids
for p in $T_PIDS; do wait "$p" 2>/dev/null; done
T_PIDS=""
wait_for none_alive $oldpids $mbd
check "no job outlives the power loss" none_alive $oldpids $mbd
expect_eq "no mail yet" 0 "$(ls "$MAILDIR" | wc -l)"

# The first candidate comes back alone.
start_daemon lim hosta
start_daemon sbatchd hosta
wait_for sh -c "pgrep -P $PID_sbatchd_hosta -x mbatchd >/dev/null &&
    bqueues >/dev/null" || fail "mbatchd did not come back"
check "mbatchd is back on hosta" sh -c \
    "pgrep -P $PID_sbatchd_hosta -x mbatchd >/dev/null"
wait_for job_is "$na" EXIT
check "the lost job of the host back ends EXIT" job_is "$na" EXIT
expect_match "with TERM_ZOMBIE" '^TERM_ZOMBIE' "$(reason "$na")"
wait_for runs_are "$ra" 2
wait_for job_is "$ra" RUN
check "the rerunnable job of the host back runs again" job_is "$ra" RUN
expect_eq "on hosta" hosta "$(exec_host "$ra")"

# hostb and hostc stay away: their jobs are settled after the probes.
wait_for job_is "$nb" EXIT
check "the lost job of a host still down ends EXIT" job_is "$nb" EXIT
expect_match "with TERM_ZOMBIE" '^TERM_ZOMBIE' "$(reason "$nb")"
wait_for runs_are "$rc" 2
wait_for job_is "$rc" RUN
check "the rerunnable job of a host still down runs again" job_is "$rc" RUN
expect_eq "on the one host back" hosta "$(exec_host "$rc")"
expect_eq "each rerun with LSB_RESTART=Y" "$ra Y $rc Y" \
    "$(awk -v a="$ra" -v c="$rc" '($1 == a || $1 == c) && $2 == "Y" {
	print $1, $2 }' runs | sort -n | tr '\n' ' ' | sed 's/ $//')"
expect_eq "and only the reruns" 2 "$(grep -c ' Y ' runs)"
check "the pending jobs still pend" sh -c \
    "[ \"\$(bjobs -noheader -o stat $p1 $p2 | tr '\n' ' ')\" = 'PEND PEND ' ]"
wait_for sh -c "[ \$(ls '$MAILDIR' | wc -l) -ge 4 ]"
expect_match "the lost job's owner is told it exited" \
    "Subject: Job $na: .* Exited" "$(mails)"
expect_match "so is the other's" "Subject: Job $nb: .* Exited" "$(mails)"
expect_match "the rerun jobs' owners are told they were requeued" \
    "Subject: Job $ra: .* Requeued" "$(mails)"
expect_match "both" "Subject: Job $rc: .* Requeued" "$(mails)"

fates() {
	bjobs -a -noheader -o 'jobid stat exec_host exit_reason' \
	    $ra $na $nb $rc $p1 $p2
}
before=$(fates)
mbd_restart
expect_eq "a restarted mbatchd replays the same fates" "$before" "$(fates)"

# The other hosts come back one by one; the pending jobs start there.
start_daemon lim hostb
start_daemon sbatchd hostb
wait_for sh -c "bjobs -noheader -o 'stat exec_host' $p1 $p2 |
    grep -q '^RUN hostb'"
expect_eq "hostb back: one pending job starts there" \
    "RUN hostb PEND -" \
    "$(bjobs -noheader -o 'stat exec_host' $p1 $p2 | sort -r |
	tr '\n' ' ' | sed 's/ *$//')"
start_daemon lim hostc
start_daemon sbatchd hostc
wait_for sh -c "bjobs -noheader -o stat $p1 $p2 | grep -vq PEND &&
    ! bjobs -noheader -o stat $p1 $p2 | grep -q PEND"
expect_eq "hostc back: the other starts there" "hostb hostc" \
    "$(bjobs -noheader -o exec_host $p1 $p2 | sort | tr '\n' ' ' |
	sed 's/ $//')"
wait_for runs_are "$p2" 1

# Nothing twice: each job ran as often as it should, each owner was
# mailed once, the fates stand with all hosts back.
sleep 2
for j in $na $nb $p1 $p2; do
	expect_eq "job $j ran once" 1 "$(runs_of "$j")"
done
for j in $ra $rc; do
	expect_eq "job $j ran twice" 2 "$(runs_of "$j")"
done
for j in $ra $na $nb $rc; do
	expect_eq "the owner of job $j was mailed once" 1 "$(mails_about "$j")"
done
expect_eq "no other mail" 4 "$(ls "$MAILDIR" | wc -l)"
expect_eq "the lost jobs stay EXIT" "EXIT EXIT" \
    "$(bjobs -noheader -o stat $na $nb | tr '\n' ' ' | sed 's/ $//')"
expect_eq "the live jobs run" "RUN RUN RUN RUN" \
    "$(bjobs -noheader -o stat $ra $rc $p1 $p2 | tr '\n' ' ' |
	sed 's/ $//')"
live=0
for p in $(awk '{ print $3 }' runs); do
	kill -0 "$p" 2>/dev/null && live=$((live + 1))
done
expect_eq "one live process per running job" 4 "$live"
bkill $ra $rc $p1 $p2 >/dev/null
finish
