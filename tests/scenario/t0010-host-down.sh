#!/bin/bash
# A host whose LIM or sbatchd is down: lsload and bhosts say so, it gets
# no jobs, and it takes work again when its daemons come back.
. "$(dirname "$0")/lib.sh"

cluster_init 3
cluster_start
cd "$T_DIR/jobs"

kill "$PID_lim_hostc"
wait "$PID_lim_hostc" 2>/dev/null
wait_for sh -c "lsload | grep -q '^hostc *unavail'"
expect_match "lsload: a host whose LIM is down is unavail" '^hostc +unavail$' \
    "$(lsload | grep '^hostc')"
wait_for sh -c "bhosts -w | grep -q '^hostc *closed_LIM'"
expect_match "bhosts -w: LIM down, sbatchd up" '^hostc +closed_LIM ' \
    "$(bhosts -w | grep '^hostc')"
kill "$PID_sbatchd_hostc"
wait "$PID_sbatchd_hostc" 2>/dev/null
wait_for sh -c "bhosts | grep -q '^hostc *unavail'"
expect_match "bhosts: both down is unavail" '^hostc +unavail ' \
    "$(bhosts | grep '^hostc')"

j=$(submit -m hostc -o /dev/null true)
sleep 0.5
check "a job for that host waits" job_is "$j" PEND
expect_match "and says why" 'Load information unavailable: 1 host' \
    "$(bjobs -p "$j")"
others=$(submit -o /dev/null true)
wait_for job_is "$others" DONE
check "other hosts still work" job_is "$others" DONE

kill "$PID_sbatchd_hostb"
wait "$PID_sbatchd_hostb" 2>/dev/null
wait_for sh -c "bhosts | grep -q '^hostb *unreach'"
expect_match "bhosts: sbatchd down, LIM up is unreach" '^hostb +unreach ' \
    "$(bhosts | grep '^hostb')"
start_daemon sbatchd hostb

start_daemon lim hostc
start_daemon sbatchd hostc
wait_for job_is "$j" DONE
check "the job runs once its host is back" job_is "$j" DONE
wait_for all_hosts_ok
expect_eq "every host is ok again" 3 "$(bhosts | grep -c ' ok ')"
finish
