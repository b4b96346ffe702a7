#!/bin/bash
# ELIMs: lim starts every elim* of LSF_SERVERDIR, takes built-in indices
# and lsf.shared Numeric resources from its lines, passes them to lsload
# and to mbatchd's scheduling, restarts an ELIM that dies, ignores
# malformed lines, drops values that are not refreshed, and stops its
# ELIMs when it exits.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSF_CONF/lsf.shared" <<EOF2

Begin Resource
RESOURCENAME  TYPE     INTERVAL  INCREASING  DESCRIPTION
nlic          Numeric  1         N           (licenses)
End Resource
EOF2
elim_install
set_load hosta "r1m 0.5 nlic 1"
set_load hostb "r1m 3.5 nlic 4"
cluster_start
cd "$T_DIR/jobs"

elim_pid() { cat "$T_DIR/elim/pid.$1" 2>/dev/null; }
nlic_of() { lsload -I nlic "$1" | awk 'NR == 2 { print $3 }'; }
r1m_of() { lsload -I r1m "$1" | awk 'NR == 2 { print $3 }'; }
wait_for sh -c "lsload -I r1m hostb | grep -q ' 3.5\$'" ||
    fail "hostb's r1m never became 3.5"
# hosta's too: until its ELIM's first line, it is this machine's own
# load, which a busy machine may well have at 3.5.
wait_for sh -c "lsload -I r1m hosta | grep -q ' 0.5\$'" ||
    fail "hosta's r1m never became 0.5"

expect_eq "r1m of hostb comes from its ELIM" "3.5" "$(r1m_of hostb)"
expect_eq "r1m of hosta from its own" "0.5" "$(r1m_of hosta)"
wait_for sh -c "lsload -I nlic hosta | grep -q ' 1.0\$'" ||
    fail "hosta's nlic never came"
out=$(lsload -I nlic | sort)
expect_eq "lsload -I nlic" "HOST_NAME       status   nlic
hosta               ok    1.0
hostb               ok    4.0" "$out"
out=$(lsload -I r1m:nlic hostb)
expect_eq "lsload -I r1m:nlic" "HOST_NAME       status   r1m   nlic
hostb               ok   3.5    4.0" "$out"
out=$(lsload -l hostb | head -1)
expect_match "lsload -l has an nlic column after mem" " mem +nlic\$" "$out"
expect_match "lsload -l shows the value" " 4\\.0\$" \
    "$(lsload -l hostb | tail -1)"
out=$(lsload -R "select[nlic > 2]" | awk 'NR > 1 { print $1 }')
expect_eq "lsload -R select[nlic > 2]" "hostb" "$out"
err=$(lsload -I nosuch 2>&1)
expect_eq "an unknown index is refused" "nosuch: Unknown resource name" "$err"

# mbatchd schedules on them.
j=$(submit -R "select[nlic > 2]" -o /dev/null sleep 60)
wait_for job_is "$j" RUN || fail "job $j did not start"
expect_eq "the job runs where nlic > 2" "hostb" \
    "$(bjobs -noheader -o exec_host "$j" | tr -d ' ')"
j2=$(submit -R "select[nlic > 5]" -o /dev/null sleep 60)
sleep 2
expect_eq "no host has nlic > 5: pending" "PEND" "$(job_stat "$j2")"
set_load hosta "r1m 0.5 nlic 6"
wait_for job_is "$j2" RUN || fail "job $j2 did not start once nlic was 6"
expect_eq "then it runs on hosta" "hosta" \
    "$(bjobs -noheader -o exec_host "$j2" | tr -d ' ')"
bkill 0 >/dev/null 2>&1

# Malformed lines are logged and ignored; lim goes on.
elim_raw hostb "3 r1m 2"
wait_for grep -q "fewer values than the count" "$T_DIR/log/lim.log.hostb" ||
    fail "a short line was not reported"
elim_raw hostb "$(head -c 6000 /dev/zero | tr '\0' x)"
wait_for grep -q "line longer than" "$T_DIR/log/lim.log.hostb" ||
    fail "a long line was not reported"
elim_raw hostb "1 nosuch 3"
wait_for grep -q "nosuch is not a load index" "$T_DIR/log/lim.log.hostb" ||
    fail "an unknown name was not reported"
check "lim of hostb still runs" kill -0 "$PID_lim_hostb"
expect_eq "and still reports" "3.5" "$(r1m_of hostb)"

# A killed ELIM is started again.
old=$(elim_pid hostb)
kill -9 "$old"
wait_for sh -c "[ -n \"\$(cat $T_DIR/elim/pid.hostb)\" ] &&
    [ \"\$(cat $T_DIR/elim/pid.hostb)\" != $old ]" ||
    fail "the ELIM of hostb was not restarted"
check "the new ELIM runs" kill -0 "$(elim_pid hostb)"
wait_for sh -c "lsload -I nlic hostb | grep -q ' 4.0\$'" ||
    fail "hostb's nlic did not come back"
expect_eq "its values come back" "4.0" "$(nlic_of hostb)"

# A value no longer reported becomes unknown.
set_load hostb "r1m 3.5"
wait_for sh -c "lsload -I nlic hostb | grep -q ' -\$'" ||
    fail "hostb's nlic stayed"
expect_eq "nlic no longer reported: unknown" "-" "$(nlic_of hostb)"

# lim stops its ELIMs when it exits.
pid=$(elim_pid hostb)
kill "$PID_lim_hostb"
wait "$PID_lim_hostb" 2>/dev/null
check "the ELIM of hostb is gone with its lim" sh -c "! kill -0 $pid 2>/dev/null"
finish
