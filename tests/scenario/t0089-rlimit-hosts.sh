#!/bin/bash
# lsb.resources limits by host: PER_HOST gives each listed host its own
# maximum (one slot on hosta and one on hostb), HOSTS one maximum for
# the listed hosts together (two slots on hostc, whichever jobs hold
# them).  A job only counts where it runs: the host limits leave other
# hosts alone, and a job waiting for them gives the by-host reason in
# bjobs -p.
. "$(dirname "$0")/lib.sh"

cluster_init 3
cat >"$LSB_CONF/lsb.hosts" <<EOF2
Begin Host
HOST_NAME  MXJ
default    10
End Host
EOF2
cat >"$LSB_CONF/lsb.resources" <<EOF2
Begin Limit
NAME     = one_each
PER_HOST = hosta hostb
SLOTS    = 1
End Limit

Begin Limit
NAME  = c_two
HOSTS = hostc
SLOTS = 2
End Limit
EOF2
cluster_start
cd "$T_DIR/jobs"

a1=$(submit -m hosta 'sleep 1000')
check "a job on hosta runs" wait_for job_is "$a1" RUN
a2=$(submit -m hosta 'sleep 1000')
wait_for sh -c "bjobs -p $a2 | grep -q 'has been reached'" ||
	fail "no by-host reason for the second hosta job"
expect_match "the second one waits with the by-host reason" \
	"^ Resource \(slot\) limit defined on host\(s\) and/or host group has been reached: 1 host;$" \
	"$(bjobs -p "$a2")"
b1=$(submit -m hostb 'sleep 1000')
check "hostb has its own slot" wait_for job_is "$b1" RUN

c1=$(submit -n 2 -m hostc 'sleep 1000')
check "two slots on hostc run" wait_for job_is "$c1" RUN
c2=$(submit -m hostc 'sleep 1000')
wait_for sh -c "bjobs -p $c2 | grep -q 'has been reached'" ||
	fail "no by-host reason for the third hostc slot"
check "a third slot on hostc waits" job_is "$c2" PEND
any=$(submit -n 2 'sleep 1000')
wait_for sh -c "bjobs -p $any | grep -q 'has been reached'" ||
	fail "the 2-slot job did not wait"
expect_match "a 2-slot job anywhere finds no host with room" \
	"has been reached: 3 hosts;$" "$(bjobs -p "$any")"

bkill "$a1" >/dev/null
check "when hosta's job ends the waiting one starts" \
	wait_for job_is "$a2" RUN
bkill "$c1" >/dev/null
check "when hostc's slots free the waiting one starts" \
	wait_for job_is "$c2" RUN
check "the 2-slot job still waits: hostc has one slot left" \
	job_is "$any" PEND
bkill "$b1" >/dev/null
check "with hostb's slot free it runs on hostb and hostc" \
	wait_for job_is "$any" RUN
expect_eq "its hosts" "hostb hostc" \
	"$(exec_host "$any" | tr ':' '\n' | sed 's/^[0-9]*\*//' | sort | tr '\n' ' ' | sed 's/ $//')"
finish
