#!/bin/bash
# A silent master loss with a slow host (lib.sh's netns mode): the
# master's link cut, then its daemons killed, while hostc's and hostd's
# LIM and sbatchd are stopped, so they find the new master late.  hostc
# comes back after more than MAX_SBD_FAIL probes of the new mbatchd but
# within the time a host has to find it (include/hostfail.h): its running
# job keeps its process and state, its rerunnable job is not run again.
# hostd stays away past that time and is lost as before: its job ends
# EXIT (TERM_ZOMBIE), its rerunnable job runs again elsewhere, and when
# it comes back its old processes are killed.
. "$(dirname "$0")/lib.sh"

cluster_init 4
sed -i 's/^LSF_MASTER_LIST=.*/LSF_MASTER_LIST="hosta hostb"/' \
    "$LSF_CONF/lsf.conf"
sed -i 's/^End Parameters/MAX_SBD_FAIL = 3\nEnd Parameters/' \
    "$LSB_CONF/lsb.params"
netns_init "hosta"
cluster_start
cd "$T_DIR/jobs"

master_on() { on "$1" lsid 2>/dev/null | sed -n 's/^My master name is //p'; }
master_on_is() { [ "$(master_on "$1")" = "$2" ]; }
alive() { kill -0 "$1" 2>/dev/null; }
dead() { ! kill -0 "$1" 2>/dev/null; }
lines_are() { [ "$(lines "$1")" -eq "$2" ]; }
# Host $2's LIM reports and its sbatchd is registered, as $1 sees it
# (a full host is closed: no matter).
host_up_on() {
	on "$1" bhosts -w "$2" 2>/dev/null | awk 'NR == 2 { print $2 }' |
	    grep -Eqx 'ok|closed(_Full)?'
}
stop_host() { kill -STOP "$(eval echo \$PID_lim_$1)" "$(eval echo \$PID_sbatchd_$1)"; }
cont_host() { kill -CONT "$(eval echo \$PID_lim_$1)" "$(eval echo \$PID_sbatchd_$1)"; }
MBD_LOG="$T_DIR/log/mbatchd.log.hostb"

wait_for master_on_is hostd hosta
n=$(submit_on hosta -m hostc -o /dev/null 'echo $$ >>n.pids; exec sleep 300')
r=$(submit_on hosta -r -m hostc -o /dev/null 'echo $$ >>r.pids; exec sleep 300')
g=$(submit_on hosta -m hostd -o /dev/null 'echo $$ >>g.pids; exec sleep 300')
# The rerunnable job of hostd may run again on hostb, not at first.
on hosta badmin hclose hostb >/dev/null
gr=$(submit_on hosta -r -m "hostd hostb" -o /dev/null \
    'echo $$ >>gr.pids; exec sleep 300')
wait_for sh -c '[ -s n.pids ] && [ -s r.pids ] && [ -s g.pids ] && [ -s gr.pids ]'
on hosta badmin hopen hostb >/dev/null
expect_eq "the jobs run on hostc and hostd" "hostc hostc hostd hostd" \
    "$(exec_host "$n") $(exec_host "$r") $(exec_host "$g") $(exec_host "$gr")"
npid=$(cat n.pids)
rpid=$(cat r.pids)
gpid=$(cat g.pids)
grpid=$(cat gr.pids)

# hostc and hostd slow; the master cut off, then killed: nobody hears.
stop_host hostc
stop_host hostd
mbd_a=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
netns_cut
kill -9 "$mbd_a" "$PID_sbatchd_hosta" "$PID_lim_hosta"
wait "$PID_sbatchd_hosta" "$PID_lim_hosta" 2>/dev/null
wait_for master_on_is hostb hostb
check "hostb takes over" master_on_is hostb hostb
WAIT_SECS=60 wait_for sh -c "pgrep -P $PID_sbatchd_hostb -x mbatchd &&
    LSB_NTRIES=1 bjobs $n" || fail "no mbatchd on hostb"
in_doubt() { grep -q "host $1: no sbatchd and no LIM; in doubt" "$MBD_LOG"; }
wait_for in_doubt hostc
check "the new mbatchd finds hostc in doubt" in_doubt hostc
wait_for job_is "$n" UNKWN
check "so its job is UNKWN" job_is "$n" UNKWN
# Slow for real: more than MAX_SBD_FAIL probes (1 s each) of the new
# mbatchd, less than the time a host has to find it.
sleep 6
check "hostd's job is not lost before its time" job_is "$g" UNKWN
cont_host hostc
wait_for host_up_on hostb hostc
check "hostc finds the new master" host_up_on hostb hostc
wait_for job_is "$n" RUN
expect_eq "its job is RUN" RUN "$(job_stat "$n")"
check "with its process" alive "$npid"
expect_eq "started once" 1 "$(lines n.pids)"
expect_eq "its rerunnable job is RUN there" "RUN hostc" \
    "$(bjobs -noheader -o 'stat exec_host' "$r")"
check "with its process" alive "$rpid"
expect_eq "not run again" 1 "$(lines r.pids)"
check "the mbatchd did not give hostc up" sh -c \
    "! grep -q 'host hostc: .*its jobs are lost' '$MBD_LOG'"

# hostd stays away past its time: lost as before.
WAIT_SECS=60 wait_for job_is "$g" EXIT
expect_match "hostd's job ends EXIT, TERM_ZOMBIE" '^EXIT +TERM_ZOMBIE' \
    "$(bjobs -noheader -o 'stat exit_reason' "$g")"
check "mbatchd logs hostd lost" \
    grep -q "host hostd: no sbatchd and no LIM for .*its jobs are lost" \
    "$MBD_LOG"
wait_for lines_are gr.pids 2
wait_for job_is "$gr" RUN
expect_eq "its rerunnable job runs again on hostb" "RUN hostb" \
    "$(bjobs -noheader -o 'stat exec_host' "$gr")"
check "the jobs of hostc still run" sh -c "kill -0 $npid && kill -0 $rpid"
expect_eq "and still RUN" "RUN RUN" "$(job_stat "$n") $(job_stat "$r")"

# hostd back: its old processes are killed, the fates stand.
cont_host hostd
wait_for host_up_on hostb hostd
wait_for dead "$gpid"
check "hostd back: the lost job's process is killed" dead "$gpid"
wait_for dead "$grpid"
check "the first run of the requeued job is killed" dead "$grpid"
expect_eq "the fates stand" "EXIT RUN" "$(job_stat "$g") $(job_stat "$gr")"
expect_eq "each job started as often as it should" "1 1 1 2" \
    "$(lines n.pids) $(lines r.pids) $(lines g.pids) $(lines gr.pids)"
finish
