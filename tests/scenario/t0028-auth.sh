#!/bin/bash
# Daemons prove who they are with MUNGE (include/auth.h).  An ordinary
# user who binds a host's address cannot act as its sbatchd or LIM, a
# credential cannot be replayed or used against another daemon, and a
# user who squats the master's mbatchd port while mbatchd restarts gets
# nothing: the sbatchds refuse to talk to it and run none of its jobs.
. "$(dirname "$0")/lib.sh"

need_root

cluster_init 3
cluster_start
fake="$BUILD/tests/fakepeer"
mport=$(sed -n 's/^LSB_MBD_PORT=//p' "$LSF_CONF/lsf.conf")
lport=$(sed -n 's/^LSF_LIM_PORT=//p' "$LSF_CONF/lsf.conf")
mlog="$T_DIR/log/mbatchd.log.hosta"

out=$(as_nobody "$fake" sbd 127.0.0.12 127.0.0.11 "$mport" hostb hosta)
expect_eq "a user's credential does not make it sbatchd" 0 "$?"
expect_match "mbatchd says why" 'refused: User permission denied: uid 65534 may not act as sbatchd' "$out"
expect_match "and logs it with the peer's address" \
    'sbatchd at 127\.0\.0\.12:[0-9]+: authentication refused: uid 65534 may not act as sbatchd' \
    "$(cat "$mlog")"

out=$(as_nobody "$fake" noauth 127.0.0.12 127.0.0.11 "$mport" hostb)
expect_eq "registering without a credential is refused" 0 "$?"
expect_match "as unauthenticated" 'MSG_SBD_REGISTER before authenticating' "$out"

out=$(as_nobody "$fake" query 127.0.0.12 127.0.0.11 "$mport")
expect_eq "a command's request without a credential is refused" 0 "$?"
expect_match "before it is read" 'MSG_JOB_QUERY before authenticating' "$out"

out=$("$fake" replay 127.0.0.12 127.0.0.11 "$mport" hostb hosta)
expect_eq "root's credential works once, not twice" 0 "$?"
expect_match "the first use is answered" '^first use: accepted: MSG_AUTH_OK$' "$out"
expect_match "the replay is refused by munged" '^replayed: refused: .*Replayed credential' "$out"

out=$("$fake" sbd 127.0.0.12 127.0.0.11 "$mport" hostb hostb)
expect_eq "a credential for another daemon is refused" 0 "$?"
expect_match "as not ours" 'the credential is for mbatchd on hostb, not us' "$out"

out=$("$fake" sbd 127.0.0.12 127.0.0.11 "$mport" hostc hosta)
expect_eq "claiming another host's name is refused" 0 "$?"
expect_match "by its address" "sbatchd hostc: the address is not that host's" "$out"

out=$(as_nobody "$fake" limreport 127.0.0.12 127.0.0.11 "$lport" hostb)
expect_eq "a load report without a handshake is refused" 0 "$?"
expect_match "by the master LIM" 'refused: User permission denied' "$out"
expect_match "which logs it" 'load report for hostb refused: not an authenticated LIM' \
    "$(cat "$T_DIR/log/lim.log.hosta")"

# The port squat: hold the master's sbatchd so it does not restart
# mbatchd, kill mbatchd, and bind its port as an ordinary user.
kill -STOP "$PID_sbatchd_hosta"
old=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
kill -9 "$old"
port_free() {
	! ss -ltnH "sport = :$mport" | grep -q .
}
wait_for port_free || fail "mbatchd's port stayed bound"
marker="$T_DIR/jobs/pwned"
as_nobody "$fake" squat 127.0.0.11 "$mport" 4 "$marker" >"$T_DIR/squat.out" 2>&1 &
squatter=$!
wait_for grep -q '^listening' "$T_DIR/squat.out" || fail "the squatter did not bind"
refused() {
	grep -q 'mbatchd on hosta: not talking to it: it did not prove to be mbatchd on hosta' \
	    "$T_DIR/log/sbatchd.log.$1"
}
check "hostb's sbatchd refuses the squatter" wait_for refused hostb
check "and so does hostc's" wait_for refused hostc
expect_match "because its credential is the user's" \
    'its credential is uid 65534' "$(cat "$T_DIR/log/sbatchd.log.hostb")"
wait "$squatter"
expect_match "the squatter was reached" '^connections [1-9]' \
    "$(cat "$T_DIR/squat.out")"
check "no forged job ran" test ! -e "$marker"

# The real mbatchd comes back and the cluster works as before.
kill -CONT "$PID_sbatchd_hosta"
check "mbatchd is back" wait_for bqueues
check "every host registers again" wait_for all_hosts_ok
id=$(submit -o /dev/null true)
check "a job runs" wait_for job_is "$id" DONE
check "still no forged job" test ! -e "$marker"

finish
