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

# A supervisor killed with the job: reported as exited, not forgotten.
c=$(submit -m hostb sleep 30)
wait_for job_is "$c" RUN
sleep 0.3
pkill -KILL -f "jobsup $c" || pkill -KILL -x "jobsup $c"
sup=$(pgrep -f "^jobsup $c\$")
[ -n "$sup" ] && kill -9 $sup
wait_for job_is "$c" EXIT
check "a job whose supervisor died is EXIT" job_is "$c" EXIT
finish
