#!/bin/bash
# Master failover with two candidates and the jobs on a third host.
# (a) The master's sbatchd and mbatchd killed, its lim alive: the lim
# resigns and the next candidate's sbatchd starts mbatchd.  (b) lim,
# sbatchd and mbatchd killed: the next candidate takes over.  Each time
# bsub is accepted again within seconds, the jobs on hostc run on, and a
# job that ends during the outage shows DONE.  The first candidate comes
# back and is master again, and no job is lost, listed twice or run
# twice.  A second mbatchd started by hand refuses, naming the holder.
. "$(dirname "$0")/lib.sh"

cluster_init 3
sed -i 's/^LSF_MASTER_LIST=.*/LSF_MASTER_LIST="hosta hostb"/' \
    "$LSF_CONF/lsf.conf"
cluster_start
cd "$T_DIR/jobs"

master() { lsid 2>/dev/null | sed -n 's/^My master name is //p'; }
master_is() { [ "$(master)" = "$1" ]; }
mbd_of() { pgrep -P "$1" -x mbatchd; }
now_ms() { date +%s%3N; }
# A job that notes each start of it, then waits for file $1.
waiter() {
	submit -m hostc -o /dev/null \
	    "echo \$LSB_JOBID >>runs; while [ ! -e $1 ]; do sleep 0.1; done"
}
# Submit until accepted; the job ID in $NEW.
accepted() {
	NEW=$(submit -o /dev/null 'echo $LSB_JOBID >>runs; sleep 1')
	[ -n "$NEW" ]
}
started() { job_is "$NEW" RUN || job_is "$NEW" DONE; }

# kill -9 the PIDs given, then time the return of batch service.
failover() {
	local t0 t1 t2
	t0=$(now_ms)
	kill -9 "$@"
	touch "$GO"
	LSB_NTRIES=1 wait_for accepted || { fail "no bsub accepted"; return; }
	t1=$(now_ms)
	wait_for started
	t2=$(now_ms)
	echo "# failover: accepted after $((t1 - t0)) ms," \
	    "started after $((t2 - t0)) ms"
}

wait_for master_is hosta
wait_for sh -c "pgrep -P $PID_sbatchd_hosta -x mbatchd >/dev/null"
mbd=$(mbd_of "$PID_sbatchd_hosta")
lock="$T_DIR/work/c1/logdir/mbatchd.lock"
out=$("$SBIN/mbatchd" -f -N hosta 2>&1)
expect_eq "a second mbatchd refuses" 1 "$?"
expect_match "and names the holder" \
    "another mbatchd \\(pid $mbd on hosta\\) holds .*/logdir/mbatchd.lock; not starting" \
    "$out"
expect_eq "the lock file names the holder" "hosta $mbd" \
    "$(cat "$lock")"

long=$(submit -m hostc -o /dev/null sleep 300)
ends=$(waiter go1)
wait_for job_is "$long" RUN
wait_for job_is "$ends" RUN
expect_eq "jobs run on hostc" RUN "$(job_stat "$ends")"

# (a) sbatchd and mbatchd of the master, not its lim.
GO=go1
failover "$mbd" "$PID_sbatchd_hosta"
wait "$PID_sbatchd_hosta" 2>/dev/null
wait_for master_is hostb
expect_eq "(a) a new job is accepted" 1 "$([ -n "$NEW" ] && echo 1)"
expect_eq "(a) the next candidate is master" hostb "$(master)"
check "(a) and its sbatchd runs mbatchd" \
    sh -c "pgrep -P $PID_sbatchd_hostb -x mbatchd >/dev/null"
wait_for job_is "$NEW" DONE
expect_eq "(a) the new job runs to its end" DONE "$(job_stat "$NEW")"
wait_for job_is "$ends" DONE
expect_eq "(a) the job that ended in the outage is DONE" DONE \
    "$(job_stat "$ends")"
expect_eq "(a) the long job still runs" RUN "$(job_stat "$long")"

# Its sbatchd back, hosta stands again and is master again.
start_daemon sbatchd hosta
wait_for master_is hosta
expect_eq "(a) sbatchd back: hosta is master again" hosta "$(master)"
wait_for sh -c "pgrep -P $PID_sbatchd_hosta -x mbatchd && bqueues 2>&1"
check "(a) and its sbatchd runs mbatchd" \
    sh -c "pgrep -P $PID_sbatchd_hosta -x mbatchd >/dev/null"
wait_for sh -c "! pgrep -P $PID_sbatchd_hostb -x mbatchd >/dev/null"
check "(a) hostb's mbatchd has stopped" \
    sh -c "! pgrep -P $PID_sbatchd_hostb -x mbatchd >/dev/null"

# (b) the whole master: lim, sbatchd and mbatchd.
ends=$(waiter go2)
wait_for job_is "$ends" RUN
GO=go2
failover "$PID_lim_hosta" "$PID_sbatchd_hosta" \
    "$(mbd_of "$PID_sbatchd_hosta")"
wait "$PID_lim_hosta" "$PID_sbatchd_hosta" 2>/dev/null
wait_for master_is hostb
expect_eq "(b) the next candidate is master" hostb "$(master)"
wait_for job_is "$NEW" DONE
expect_eq "(b) the new job runs to its end" DONE "$(job_stat "$NEW")"
wait_for job_is "$ends" DONE
expect_eq "(b) the job that ended in the outage is DONE" DONE \
    "$(job_stat "$ends")"
expect_eq "(b) the long job still runs" RUN "$(job_stat "$long")"

start_daemon lim hosta
start_daemon sbatchd hosta
wait_for master_is hosta
expect_eq "(b) hosta back: master again" hosta "$(master)"
wait_for sh -c "pgrep -P $PID_sbatchd_hosta -x mbatchd && bqueues 2>&1"
last=$(submit -o /dev/null 'echo $LSB_JOBID >>runs')
wait_for job_is "$last" DONE
expect_eq "(b) and serves jobs" DONE "$(job_stat "$last")"
expect_eq "the long job ran through both failovers" RUN \
    "$(job_stat "$long")"
ids=$(bjobs -a -noheader -o jobid 2>/dev/null | sort)
expect_eq "bjobs -a lists each job once" "$(echo "$ids" | sort -u)" "$ids"
expect_eq "every job is listed" 6 "$(echo "$ids" | wc -l)"
expect_eq "no job ran twice" "" "$(sort runs | uniq -d)"
expect_eq "every job but the sleep ran" 5 "$(sort -u runs | wc -l)"
finish
