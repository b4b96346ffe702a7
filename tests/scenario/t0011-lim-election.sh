#!/bin/bash
# The master LIM is the first reachable host of LSF_MASTER_LIST: when it
# goes the next candidate takes over, and when it returns it is master
# again.  (LIMs only: moving mbatchd with the master is a later issue.)
. "$(dirname "$0")/lib.sh"

cluster_init 3
sed -i 's/^LSF_MASTER_LIST=.*/LSF_MASTER_LIST="hosta hostb"/' "$LSF_CONF/lsf.conf"
for h in $HOSTS; do start_daemon lim "$h"; done

master() {
	lsid 2>/dev/null | sed -n 's/^My master name is //p'
}
master_is() {
	[ "$(master)" = "$1" ]
}
all_ok() {
	[ "$(lsload 2>/dev/null | awk 'NR > 1 && $2 == "ok"' | wc -l)" -eq "$1" ]
}

wait_for master_is hosta
expect_eq "the first candidate is master" hosta "$(master)"
wait_for all_ok 3
expect_eq "every LIM reports to it" 3 "$(lsload | awk 'NR > 1 && $2 == "ok"' | wc -l)"
expect_match "lsclusters names it" '^c1 +ok +hosta ' "$(lsclusters | sed -n 2p)"

kill "$PID_lim_hosta"
wait "$PID_lim_hosta" 2>/dev/null
wait_for master_is hostb
expect_eq "the next candidate takes over" hostb "$(master)"
wait_for sh -c "lsload | grep -q '^hosta *unavail'"
expect_match "and sees the old master gone" '^hosta +unavail' \
    "$(lsload | grep '^hosta')"
check "hostc reports to the new master" sh -c \
    "lsload | grep -Eq '^hostc +ok'"

start_daemon lim hosta
wait_for master_is hosta
expect_eq "the preferred master takes over again" hosta "$(master)"
wait_for all_ok 3
expect_eq "and every LIM reports to it" 3 \
    "$(lsload | awk 'NR > 1 && $2 == "ok"' | wc -l)"
finish
