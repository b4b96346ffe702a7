#!/bin/bash
# Daemons prove who they are with MUNGE (include/auth.h), each side's
# credential bound to one connection: an ordinary user who binds a
# host's address cannot act as its sbatchd or LIM, a credential made for
# one connection is refused on another (replayed or relayed), a squatter
# on a free daemon port gets no credential, a user cannot bind mbatchd's
# port while mbatchd restarts (its sbatchd holds
# it), and commands on the master host wait for mbatchd's socket
# instead of going to that port meanwhile.
. "$(dirname "$0")/lib.sh"

need_root ss

cluster_init 3
cluster_start
fake="$TOOLS/fakepeer"
mport=$(sed -n 's/^LSB_MBD_PORT=//p' "$LSF_CONF/lsf.conf")
lport=$(sed -n 's/^LSF_LIM_PORT=//p' "$LSF_CONF/lsf.conf")
mlog="$T_DIR/log/mbatchd.log.hosta"

out=$(as_nobody "$fake" sbd 127.0.0.12 127.0.0.11 "$mport" hostb hosta)
expect_eq "a user's credential does not make it sbatchd" 0 "$?"
expect_match "mbatchd says why" \
    "refused: User permission denied: its credential is uid 65534's, who may not act as sbatchd" \
    "$out"
expect_match "and logs it with the peer's address" \
    'sbatchd at 127\.0\.0\.12:[0-9]+: authentication refused: its credential is uid 65534.s' \
    "$(cat "$mlog")"

out=$(as_nobody "$fake" noauth 127.0.0.12 127.0.0.11 "$mport" hostb)
expect_eq "registering without a credential is refused" 0 "$?"
expect_match "as unauthenticated" 'MSG_SBD_REGISTER before authenticating' "$out"

out=$(as_nobody "$fake" query 127.0.0.12 127.0.0.11 "$mport")
expect_eq "a command's request without a credential is refused" 0 "$?"
expect_match "before it is read" 'MSG_JOB_QUERY before authenticating' "$out"

out=$("$fake" replay 127.0.0.12 127.0.0.11 "$mport" hostb hosta)
expect_eq "root's credential works once, not twice" 0 "$?"
expect_match "the first use is accepted" '^first use: accepted: MSG_AUTH_OK$' "$out"
expect_match "the replay is refused by munged" '^replayed: refused: .*Replayed credential' "$out"

# A credential made for one connection's challenge, never used there,
# presented on another: what a relay would have to do.
out=$("$fake" relay 127.0.0.12 127.0.0.11 "$mport" sbatchd hostb hosta)
expect_eq "root's sbatchd credential relayed to another connection is refused" 0 "$?"
expect_match "as made for another connection" \
    '^relayed: refused: .*it was made for another connection' "$out"
expect_match "mbatchd logs the peer" \
    'sbatchd at 127\.0\.0\.12:[0-9]+: authentication refused: it was made for another connection' \
    "$(cat "$mlog")"
out=$("$fake" relay 127.0.0.13 127.0.0.11 "$mport" command hostc hosta)
expect_eq "root's command credential, relayed, is refused" 0 "$?"
expect_match "the same way" '^relayed: refused: .*another connection' "$out"
out=$(as_nobody "$fake" relay 127.0.0.13 127.0.0.11 "$mport" command hostc hosta)
expect_eq "a user's command credential, relayed, is refused" 0 "$?"
expect_match "the same way" '^relayed: refused: .*another connection' "$out"

out=$("$fake" sbd 127.0.0.12 127.0.0.11 "$mport" hostb hostb)
expect_eq "a hello for another daemon is refused" 0 "$?"
expect_match "as not ours" 'it asked for mbatchd on hostb, not us' "$out"

out=$("$fake" sbd 127.0.0.12 127.0.0.11 "$mport" hostc hosta)
expect_eq "claiming another host's name is refused" 0 "$?"
expect_match "by its address" "sbatchd hostc: the address is not that host's" "$out"

out=$(as_nobody "$fake" limreport 127.0.0.12 127.0.0.11 "$lport" hostb)
expect_eq "a load report without a handshake is refused" 0 "$?"
expect_match "by the master LIM" 'refused: User permission denied' "$out"
expect_match "which logs it" 'load report for hostb refused: not an authenticated LIM' \
    "$(cat "$T_DIR/log/lim.log.hosta")"

# A daemon's port that no daemon holds (hostc's LIM is dead): a user can
# bind it, but the daemons that come to it refuse its challenge, made
# with the user's own credential, and send it none of theirs.
kill "$PID_lim_hostc"
wait "$PID_lim_hostc" 2>/dev/null
out=$(as_nobody "$fake" squat 127.0.0.13 "$lport" 3)
expect_eq "the squatter of hostc's LIM port got no credential" 0 "$?"
expect_match "though hostc's sbatchd came to it" '^connections [1-9][0-9]*, credentials 0$' "$out"
expect_match "which refused it, and says why" \
    'LIM: not talking to it: it did not prove to be lim on hostc: its credential is uid 65534.s' \
    "$(cat "$T_DIR/log/sbatchd.log.hostc")"
start_daemon lim hostc
check "hostc's LIM is back" wait_for all_hosts_ok

# mbatchd's port while mbatchd is down: its sbatchd holds it, so a user
# cannot take it, and the next mbatchd is handed the same socket.
held() {
	ss -ltnpH "sport = :$mport" | grep -q "sbatchd"
}
check "sbatchd holds mbatchd's port" held
mbd_down
check "the port stays bound while mbatchd is down" held
out=$(as_nobody "$fake" squat 127.0.0.11 "$mport" 1)
expect_eq "a user cannot bind it" 2 "$?"
expect_match "says so" 'Address already in use' "$out"

# A command on the master host waits for mbatchd's socket: it does not
# go to the TCP port (mbatchd would log a command's handshake there).
before=$(grep -c 'authenticated as command' "$mlog")
( bjobs -u all >"$T_DIR/wait.out" 2>&1; echo "rc $?" >>"$T_DIR/wait.out" ) &
waiter=$!
check "the command is waiting" wait_for grep -q 'still trying' "$T_DIR/wait.out"
mbd_up
wait "$waiter"
expect_match "and is answered once mbatchd is back" '^rc 0$' "$(cat "$T_DIR/wait.out")"
expect_eq "through the socket, not TCP" "$before" \
    "$(grep -c 'authenticated as command' "$mlog")"
mpid=$(mbd_pid)
check "the new mbatchd listens on the socket sbatchd held" \
    sh -c "ss -ltnpH 'sport = :$mport' | grep -q 'pid=$mpid,'"

# hostb's sbatchd, restarted by hrestart, keeps its own port all along.
check "every host registers with the new mbatchd" wait_for all_hosts_ok
sport=$(sed -n 's/^LSB_SBD_PORT=//p' "$LSF_CONF/lsf.conf")
bpid=$PID_sbatchd_hostb
badmin hrestart hostb >"$T_DIR/hrestart.out" 2>&1
check "hostb's sbatchd restarted" wait_for grep -q 'restarting' \
    "$T_DIR/log/sbatchd.log.hostb"
check "and registered again" wait_for all_hosts_ok
check "with the same socket on its port" \
    sh -c "ss -ltnpH 'src 127.0.0.12:$sport' | grep -q 'pid=$bpid,'"

id=$(submit -o /dev/null true)
check "a job runs" wait_for job_is "$id" DONE

finish
