#!/bin/bash
# lsf.cluster RUNWINDOW: outside it the host is lockW in lsload and
# closed_Lock in bhosts -w, and mbatchd sends it no job ("Host is
# locked"); a host whose window is open takes jobs, and a LIM busy
# threshold shows as LSF shows it: busy, the value marked with '*'.
. "$(dirname "$0")/lib.sh"

cluster_init 2
# A window that is closed now and for the next hours on hostb; none
# (always open) on hosta, which is busy instead: it can never have this
# much memory free.
h=$(( ($(date +%H | sed 's/^0//') + 3) % 24 ))
sed -i -e 's/^HOSTNAME  model  type  server  RESOURCES$/& RUNWINDOW mem/' \
    -e "s/^hosta  !  !  1  ()\$/& () 999999999/" \
    -e "s/^hostb  !  !  1  ()\$/& $h:00-$h:30 ()/" "$LSF_CONF/lsf.cluster.c1"
cluster_start
cd "$T_DIR/jobs"

load_status() {
	lsload "$1" 2>/dev/null | awk 'NR == 2 { print $2 }'
}
host_status() {
	bhosts -w "$1" 2>/dev/null | awk 'NR == 2 { print $2 }'
}
load_is() { [ "$(load_status "$1")" = "$2" ]; }
host_is() { [ "$(host_status "$1")" = "$2" ]; }

wait_for load_is hostb lockW
expect_eq "closed run window: lockW" lockW "$(load_status hostb)"
wait_for load_is hosta busy
expect_eq "open run window, busy threshold: busy" busy \
    "$(load_status hosta)"
expect_match "the value past the threshold is marked" \
    '^hosta +busy( +[0-9.%MG]+){9} +\*[0-9.]+[MG]$' "$(lsload hosta)"
wait_for host_is hostb closed_Lock
expect_eq "bhosts -w says closed_Lock" closed_Lock "$(host_status hostb)"
expect_match "lshosts -l shows the window" "^RUN_WINDOWS:  $h:00-$h:30\$" \
    "$(lshosts -l hostb)"

job=$(submit -m hostb -o /dev/null true)
wait_for sh -c "bjobs -p $job | grep -q 'Host is locked'"
expect_match "a job for hostb waits" '^ Host is locked: 1 host;$' \
    "$(bjobs -p "$job")"
other=$(submit -o /dev/null true)
wait_for job_is "$other" DONE
expect_eq "hosta takes jobs" DONE "$(job_stat "$other")"

finish
