#!/bin/bash
# A job outlives a restart of its sbatchd: its supervisor keeps it, and
# its end is reported even when it came while sbatchd was down.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cluster_start
cd "$T_DIR/jobs"

a=$(submit -m hostb -o a.%J sleep 2)
b=$(submit -m hostb -o b.%J sleep 6)
wait_for job_is "$b" RUN
kill -9 "$PID_sbatchd_hostb"
wait "$PID_sbatchd_hostb" 2>/dev/null
check "jobs stay RUN while their sbatchd is down" job_is "$b" RUN
expect_match "bhosts shows the host unreachable" '^hostb +unreach' \
    "$(bhosts | grep '^hostb')"
# Job a ends while nobody listens.
sleep 2.5
start_daemon sbatchd hostb
wait_for job_is "$a" DONE
check "an end that came while sbatchd was down is reported" job_is "$a" DONE
check "the job still running is still RUN" job_is "$b" RUN
wait_for job_is "$b" DONE
check "and it finishes DONE" job_is "$b" DONE
expect_eq "with its report" "Successfully completed." \
    "$(grep -B2 '^Resource usage summary:' "b.$b" | head -n 1)"
expect_eq "the state directory is cleaned" "" \
    "$(ls "$T_DIR/work/c1/sbd/hostb/jobs")"

# bkill while the job's sbatchd is down, and mbatchd crashes before the
# host is back: the termination is in lsb.events and still reaches it.
d=$(submit -m hostb sleep 60)
wait_for job_is "$d" RUN
kill -9 "$PID_sbatchd_hostb"
wait "$PID_sbatchd_hostb" 2>/dev/null
expect_eq "bkill answers while the host is down" "Job <$d> is being terminated" \
    "$(bkill "$d")"
check "the job is still RUN meanwhile" job_is "$d" RUN
kill -9 "$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)"
wait_for sh -c "pgrep -P $PID_sbatchd_hosta -x mbatchd >/dev/null && bjobs $d"
start_daemon sbatchd hostb
wait_for job_is "$d" EXIT
check "the kill reached it after both restarts" job_is "$d" EXIT
expect_match "killed by its owner" '^TERM_OWNER' \
    "$(bjobs -noheader -o exit_reason "$d")"

# A supervisor killed with the job: reported as exited, not forgotten.
c=$(submit -m hostb sleep 30)
wait_for job_is "$c" RUN
sleep 0.3
# The supervisor is named "jobsup <jobid>"; only this cluster's (its
# environment names $T_DIR): other tests' clusters have a job $c too.
for p in $(pgrep -x "jobsup $c"); do
	tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -q "$T_DIR" &&
	    kill -KILL "$p"
done
wait_for job_is "$c" EXIT
check "a job whose supervisor died is EXIT" job_is "$c" EXIT
finish
