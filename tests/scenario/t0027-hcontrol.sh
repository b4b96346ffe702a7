#!/bin/bash
# Daemon control as administrators use it: badmin hshutdown, hstartup
# and hrestart for sbatchd on hostb, lsadmin limshutdown, limstartup and
# limrestart for the LIM on hostc, while a job keeps running on hostb;
# LSF's messages, the hosts' states in bhosts and lsload on the way; and
# nobody but an administrator may do any of it.  All hosts live on this
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

out=$(badmin hrestart hostb 2>&1)
expect_eq "hrestart says done" \
    "Restart slave batch daemon on <hostb> ...... done" "$out"
wait_for grep -q "restarting" "$T_DIR/log/sbatchd.log.hostb"
wait_for sh -c "[ \$(grep -c 'sbatchd starting' $T_DIR/log/sbatchd.log.hostb) -ge 3 ]"
check "sbatchd executed itself again" \
    grep -q "mbatchd asks for a restart" "$T_DIR/log/sbatchd.log.hostb"
wait_for sh -c "bhosts -w hostb | grep -q ' ok '"
expect_eq "bhosts shows hostb ok again" ok "$(host_status hostb)"
check "the job runs on" job_alive
expect_eq "and is still RUN" RUN "$(job_stat "$job")"
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
out=$(lsadmin limrestart hostc 2>/dev/null)
expect_eq "limrestart says done" "Restart LIM on <hostc> ...... done" "$out"
wait_for sh -c "lsload hostc | awk 'NR == 2 { exit \$2 != \"ok\" }'"
expect_eq "lsload shows hostc ok after the restart" ok "$(load_status hostc)"
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
