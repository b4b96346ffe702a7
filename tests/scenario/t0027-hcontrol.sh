#!/bin/bash
# Daemon control as administrators use it: badmin hshutdown, hstartup
# and hrestart for sbatchd on hostb, lsadmin limshutdown, limstartup and
# limrestart for the LIM on hostc, while a job keeps running on hostb;
# LSF's messages, the hosts' states in bhosts and lsload on the way; and
# nobody but an administrator may do any of it.  A daemon executed again
# keeps its name (pgrep -x, ps -o comm): detached, with a new pid, in
# the foreground (the master's sbatchd, and the mbatchd it starts again)
# with the same; and it runs the file it was started by, replaced by an
# upgrade or not.  All hosts live on this
# machine, so LSF_RSH is a script that runs the command here with
# LSF_LOCAL_HOST naming the host the daemon is to be.
. "$(dirname "$0")/lib.sh"

cluster_init 3
cat >"$T_DIR/rsh" <<'EOS'
#!/bin/sh
host=$1
shift
LSF_LOCAL_HOST=$host exec "$@"
EOS
chmod 755 "$T_DIR/rsh"
echo "LSF_RSH=$T_DIR/rsh" >>"$LSF_CONF/lsf.conf"
# hstartup and limstartup start the daemons of LSF_SERVERDIR (links).
serverdir_init

# The daemons started through the commands are stopped by cluster_stop
# too: it finds them by this cluster's LSF_ENVDIR in their environment.
cluster_start
cd "$T_DIR/jobs"

host_status() {
	bhosts -w "$1" 2>/dev/null | awk 'NR == 2 { print $2 }'
}
load_status() {
	lsload "$1" 2>/dev/null | awk 'NR == 2 { print $2 }'
}
job_alive() {
	[ -s "$T_DIR/jobs/job.pid" ] &&
	    kill -0 "$(cat "$T_DIR/jobs/job.pid")" 2>/dev/null
}
SBD_PORT=$(lsf_conf_get LSB_SBD_PORT)
LIM_PORT=$(lsf_conf_get LSF_LIM_PORT)
# The one process listening as daemon $1 of host $2, found by its port.
daemon_pid() {
	local port=$SBD_PORT p
	[ "$1" = lim ] && port=$LIM_PORT
	p=$(listen_pids "$2" "$port")
	[ -n "$p" ] && [ "$(echo "$p" | wc -l)" -eq 1 ] && echo "$p"
}
# found_as NAME PID: pgrep -x NAME finds it (as pidof and systemd do),
# and ps names it NAME.
found_as() {
	pgrep -x "$1" | grep -qx "$2" &&
	    [ "$(ps -o comm= -p "$2")" = "$1" ]
}
# new_daemon DAEMON HOST OLD: a daemon other than pid OLD listens there.
new_daemon() {
	local p
	p=$(daemon_pid "$1" "$2") && [ "$p" != "$3" ]
}

job=$(submit -m hostb -o /dev/null "echo \$\$ >$T_DIR/jobs/job.pid; exec sleep 300")
wait_for job_is "$job" RUN && wait_for job_alive
check "a job runs on hostb" job_alive

# ---- sbatchd on hostb
out=$(badmin hshutdown hostb 2>&1)
expect_eq "hshutdown says done" \
    "Shut down slave batch daemon on <hostb> ...... done" "$out"
wait_for sh -c "! kill -0 $PID_sbatchd_hostb 2>/dev/null"
check "sbatchd on hostb is gone" sh -c "! kill -0 $PID_sbatchd_hostb 2>/dev/null"
wait_for sh -c "bhosts -w hostb | grep -q unreach"
expect_eq "bhosts shows hostb unreach" unreach "$(host_status hostb)"
check "the job runs on" job_alive
expect_eq "and is still RUN" RUN "$(job_stat "$job")"

out=$(badmin hshutdown hostb 2>&1)
expect_eq "hshutdown of a host whose sbatchd is down says so" \
    "Shut down slave batch daemon on <hostb> ...... Slave batch daemon (sbatchd) is unreachable" \
    "$out"

out=$(badmin hstartup hostb 2>&1)
expect_eq "hstartup says done" \
    "Start up slave batch daemon on <hostb> ...... done" "$out"
wait_for sh -c "bhosts -w hostb | grep -q ' ok '"
expect_eq "bhosts shows hostb ok" ok "$(host_status hostb)"
check "the job runs on" job_alive
expect_eq "and is still RUN" RUN "$(job_stat "$job")"
out=$(badmin hstartup hostb 2>/dev/null)
expect_match "a second hstartup fails: one sbatchd per host" \
    "^Start up slave batch daemon on <hostb> \.\.\.\.\.\. failed" "$out"
wait_for daemon_pid sbatchd hostb
sbd_b=$(daemon_pid sbatchd hostb)
check "the sbatchd hstartup started is found by pgrep -x sbatchd" \
    found_as sbatchd "$sbd_b"

# An upgrade: a new file in place of the link hstartup ran.
cp --remove-destination "$SBIN/sbatchd" "$T_DIR/serverdir/sbatchd"
out=$(badmin hrestart hostb 2>&1)
expect_eq "hrestart says done" \
    "Restart slave batch daemon on <hostb> ...... done" "$out"
wait_for grep -q "restarting" "$T_DIR/log/sbatchd.log.hostb"
wait_for sh -c "[ \$(grep -c 'sbatchd starting' $T_DIR/log/sbatchd.log.hostb) -ge 3 ]"
check "sbatchd executed itself again" \
    grep -q "mbatchd asks for a restart" "$T_DIR/log/sbatchd.log.hostb"
# Detached, it detached again: a new pid, with its name.
wait_for new_daemon sbatchd hostb "$sbd_b"
sbd_b2=$(daemon_pid sbatchd hostb)
check "the restarted sbatchd is a new process" new_daemon sbatchd hostb "$sbd_b"
check "pgrep -x sbatchd finds it, ps names it sbatchd" \
    found_as sbatchd "$sbd_b2"
expect_eq "it runs the upgraded file" "$T_DIR/serverdir/sbatchd" \
    "$(readlink "/proc/$sbd_b2/exe")"
wait_for sh -c "bhosts -w hostb | grep -q ' ok '"
expect_eq "bhosts shows hostb ok again" ok "$(host_status hostb)"
check "the job runs on" job_alive
expect_eq "and is still RUN" RUN "$(job_stat "$job")"
# In the foreground (-f, as under systemd) the pid stays, and the name:
# the master's sbatchd, which starts mbatchd again.
n0=$(grep -c 'sbatchd starting' "$T_DIR/log/sbatchd.log.hosta")
mbd0=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
out=$(badmin hrestart hosta 2>&1)
expect_eq "hrestart of the master's sbatchd says done" \
    "Restart slave batch daemon on <hosta> ...... done" "$out"
wait_for sh -c "[ \$(grep -c 'sbatchd starting' $T_DIR/log/sbatchd.log.hosta) -gt $n0 ]"
check "it executed itself again" test \
    "$(grep -c 'sbatchd starting' "$T_DIR/log/sbatchd.log.hosta")" -gt "$n0"
check "with the same pid, found by pgrep -x sbatchd, named sbatchd" \
    found_as sbatchd "$PID_sbatchd_hosta"
wait_for sh -c "p=\$(pgrep -P $PID_sbatchd_hosta -x mbatchd) &&
    [ \"\$p\" != '$mbd0' ] && bqueues >/dev/null"
mbd1=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
check "the mbatchd it started again is found by pgrep -x mbatchd" \
    sh -c "[ -n '$mbd1' ] && [ '$mbd1' != '$mbd0' ]"
check "and named mbatchd" found_as mbatchd "$mbd1"
wait_for all_hosts_ok

out=$(badmin hhist hostb 2>&1)
expect_match "badmin hhist shows the shutdown" \
    "sbatchd on host <hostb> shut down by administrator <root>" "$out"
expect_match "and the restart" \
    "sbatchd on host <hostb> restarted by administrator <root>" "$out"

# "all" asks first on a terminal; "n" leaves every host alone.
if command -v script >/dev/null; then
	out=$(echo n | script -qec "badmin hshutdown all" /dev/null 2>&1 |
	    tr -d '\r')
	expect_match "hshutdown all asks" \
	    "Do you really want to shut down slave batch daemons on all hosts\? \[y/n\]" \
	    "$out"
	out=$(echo n | script -qec "lsadmin limshutdown all" /dev/null 2>&1 |
	    tr -d '\r')
	expect_match "limshutdown all asks" \
	    "Do you really want to shut down LIMs on all hosts\? \[y/n\]" "$out"
	sleep 0.5
	check "and the answer n leaves every host up" all_hosts_ok
fi

# ---- LIM on hostc
out=$(lsadmin limshutdown hostc 2>&1)
expect_eq "limshutdown says done" "Shut down LIM on <hostc> ...... done" "$out"
wait_for sh -c "! kill -0 $PID_lim_hostc 2>/dev/null"
check "the LIM on hostc is gone" sh -c "! kill -0 $PID_lim_hostc 2>/dev/null"
wait_for sh -c "lsload hostc | grep -q unavail"
expect_eq "lsload shows hostc unavail" unavail "$(load_status hostc)"
out=$(lsadmin limstartup hostc 2>&1)
expect_eq "limstartup says done" "Start up LIM on <hostc> ...... done" "$out"
wait_for sh -c "lsload hostc | awk 'NR == 2 { exit \$2 != \"ok\" }'"
expect_eq "lsload shows hostc ok" ok "$(load_status hostc)"
wait_for daemon_pid lim hostc
lim_c=$(daemon_pid lim hostc)
check "the LIM limstartup started is found by pgrep -x lim" \
    found_as lim "$lim_c"
out=$(lsadmin limrestart hostc 2>/dev/null)
expect_eq "limrestart says done" "Restart LIM on <hostc> ...... done" "$out"
wait_for sh -c "lsload hostc | awk 'NR == 2 { exit \$2 != \"ok\" }'"
expect_eq "lsload shows hostc ok after the restart" ok "$(load_status hostc)"
wait_for new_daemon lim hostc "$lim_c"
lim_c2=$(daemon_pid lim hostc)
check "the restarted LIM is a new process" new_daemon lim hostc "$lim_c"
check "pgrep -x lim finds it, ps names it lim" found_as lim "$lim_c2"
wait_for all_hosts_ok
check "every host is ok in bhosts" all_hosts_ok

# ---- only administrators
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	as_nobody() {
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	}
	out=$(as_nobody badmin hshutdown hostb 2>&1)
	expect_eq "nobody cannot shut down sbatchd" \
	    "badmin: User permission denied" "$out"
	out=$(as_nobody badmin hrestart -f all 2>&1)
	expect_eq "nor restart them" "badmin: User permission denied" "$out"
	out=$(as_nobody badmin hstartup hostb 2>&1)
	expect_eq "nor start one" "badmin: User permission denied" "$out"
	out=$(as_nobody lsadmin limshutdown hostc 2>&1)
	expect_eq "nobody cannot shut down a LIM" \
	    "Shut down LIM on <hostc> ...... User permission denied" "$out"
	out=$(as_nobody lsadmin limstartup hostc 2>&1)
	expect_eq "nor start one" "lsadmin: User permission denied" "$out"
	check "every host is still ok" all_hosts_ok
else
	echo "# skipping the non-administrator checks: not root or no setpriv"
fi

# The restarted sbatchd still controls the job.
bkill "$job" >/dev/null 2>&1
wait_for job_is "$job" EXIT
expect_eq "bkill ends the job through the new sbatchd" EXIT "$(job_stat "$job")"
check "its process is gone" sh -c "! kill -0 \$(cat $T_DIR/jobs/job.pid) 2>/dev/null"

finish
