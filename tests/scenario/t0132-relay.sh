#!/bin/bash
# A man in the middle gets no credential to relay.  An ordinary user
# listens at the address that some clients were told is hosta's (their
# hosts file, as a poisoned name service would) and relays every byte to
# the real mbatchd, from an address that passes mbatchd's checks: the
# real mbatchd's challenge reaches the victims, but it names the
# connection the relay made, not theirs, so root's commands, a user's
# commands and an sbatchd all refuse it and send no credential of their
# own; mbatchd accepts nothing from the relay and does nothing it asked.
. "$(dirname "$0")/lib.sh"

need_root ss

cluster_init 3
cluster_start
fake="$TOOLS/fakepeer"
mport=$(sed -n 's/^LSB_MBD_PORT=//p' "$LSF_CONF/lsf.conf")

# The victims' configuration: the cluster's, but hosta is 127.0.0.99.
alt="$T_DIR/alt"
cp -r "$LSF_CONF" "$alt"
sed -i "s|^LSF_CONFDIR=.*|LSF_CONFDIR=$alt|" "$alt/lsf.conf"
sed -i 's/^127\.0\.0\.11 hosta$/127.0.0.99 hosta/' "$alt/hosts"
expect_match "the victims' hosts file sends hosta elsewhere" \
    '^127\.0\.0\.99 hosta$' "$(cat "$alt/hosts")"

# The relay, from hostb's address: mbatchd's own address check passes.
as_nobody "$fake" mitm 127.0.0.99 "$mport" 127.0.0.11 "$mport" 127.0.0.12 \
    120 >"$T_DIR/mitm.out" 2>&1 &
mitm=$!
check "the relay listens" wait_for grep -q '^listening' "$T_DIR/mitm.out"

# Commands from hostc (a client host: TCP to the master).
victim() {
	env LSF_ENVDIR="$alt" LSF_LOCAL_HOST=hostc LSB_NTRIES=0 "$@"
}
out=$(victim badmin hclose hostc 2>&1)
expect_eq "root's badmin fails" 255 "$?"
expect_match "because the answer was not mbatchd's for this connection" \
    'mbatchd cannot be used: it did not prove to be mbatchd on hosta: it was made for the connection 127\.0\.0\.12:[0-9]+ to 127\.0\.0\.11:'"$mport"', not [0-9.]+:[0-9]+ to 127\.0\.0\.99:'"$mport" \
    "$out"
out=$(victim bsub -o /dev/null touch "$T_DIR/jobs/root-ran" 2>&1)
expect_eq "root's bsub fails" 255 "$?"
expect_match "the same way" 'it did not prove to be mbatchd on hosta' "$out"
out=$(as_user daemon env LSF_ENVDIR="$alt" LSF_LOCAL_HOST=hostc bsub -o /dev/null touch "$T_DIR/jobs/user-ran" 2>&1)
expect_eq "a user's bsub fails" 255 "$?"
expect_match "the same way" 'it did not prove to be mbatchd on hosta' "$out"

# hostb's sbatchd, started on the victims' configuration.
kill "$PID_sbatchd_hostb"
wait "$PID_sbatchd_hostb" 2>/dev/null
LSF_ENVDIR=$alt "$SBIN/sbatchd" -f -N hostb \
    >>"$T_DIR/log/sbatchd.victim.stderr" 2>&1 &
T_PIDS="$T_PIDS $!"
victim_sbd=$!
refused() {
	grep -q 'mbatchd on hosta: not talking to it: it did not prove to be mbatchd on hosta: it was made for the connection 127\.0\.0\.12:[0-9]* to 127\.0\.0\.11:'"$mport"', not 127\.0\.0\.12:[0-9]* to 127\.0\.0\.99:'"$mport" \
	    "$T_DIR/log/sbatchd.log.hostb"
}
check "the sbatchd refuses the relayed challenge, and says why" \
    wait_for refused

pkill -TERM -P "$mitm"
wait "$mitm"
rc=$?
expect_eq "the relay got no credential and no handshake through" 0 "$rc"
expect_match "though it relayed every victim" \
    '^relayed ([4-9]|[1-9][0-9]+), credentials 0, accepted 0$' "$(cat "$T_DIR/mitm.out")"
expect_eq "hostc is still open" ok "$(bhosts -w hostc | awk 'NR == 2 { print $2 }')"
check "and nothing the victims asked ran" \
    test ! -e "$T_DIR/jobs/root-ran" -a ! -e "$T_DIR/jobs/user-ran"
expect_match "the cluster never had the jobs" "No job found" \
    "$(bjobs -a -u all 2>&1)"

# The real sbatchd back on hostb: the cluster works as before.
kill "$victim_sbd"
wait "$victim_sbd" 2>/dev/null
start_daemon sbatchd hostb
check "every host registers again" wait_for all_hosts_ok
id=$(submit -o /dev/null true)
check "a job runs" wait_for job_is "$id" DONE

finish
