#!/bin/bash
# An ELIM learns whether its host is the master (LSF_MASTER=Y or N, as
# LSF sets it for a MELIM): when the master changes, the LIMs whose
# mastership changed start their ELIMs again with the new value.
. "$(dirname "$0")/lib.sh"

cluster_init 2
sed -i 's/^LSF_MASTER_LIST=.*/LSF_MASTER_LIST="hosta hostb"/' "$LSF_CONF/lsf.conf"
elim_install
cluster_start

master_of() { cat "$T_DIR/elim/master.$1" 2>/dev/null; }
is_master() { [ "$(master_of "$1")" = "$2" ]; }

wait_for is_master hosta Y || fail "hosta's ELIM never had LSF_MASTER=Y"
wait_for is_master hostb N || fail "hostb's ELIM never had LSF_MASTER=N"
expect_eq "the master's ELIM runs with LSF_MASTER=Y" Y "$(master_of hosta)"
expect_eq "the other's with LSF_MASTER=N" N "$(master_of hostb)"

# hosta's LIM dies: hostb takes over, its ELIM is told.
old=$(cat "$T_DIR/elim/pid.hostb")
kill -9 "$PID_lim_hosta"
wait_for is_master hostb Y || fail "hostb's ELIM was not told it is master"
expect_eq "the new master's ELIM is started again with Y" Y \
    "$(master_of hostb)"
expect_eq "as a new process" yes \
    "$([ "$(cat "$T_DIR/elim/pid.hostb")" != "$old" ] && echo yes || echo no)"
expect_match "lsid names the new master" "My master name is hostb" \
    "$(LSF_LOCAL_HOST=hostb lsid)"

# hosta comes back: it is the first candidate and takes over again.
start_daemon lim hosta
wait_for is_master hostb N || fail "hostb's ELIM was not told it no longer is"
expect_eq "the old master's ELIM is back to N" N "$(master_of hostb)"
wait_for is_master hosta Y
expect_eq "and hosta's has Y" Y "$(master_of hosta)"
finish
