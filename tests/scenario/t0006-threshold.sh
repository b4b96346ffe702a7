#!/bin/bash
# A host whose load is over a scheduling threshold gets no jobs: bhosts
# shows it closed_Busy, bjobs -p says why, and the other hosts take the
# work.  The threshold here is one no machine meets (more free memory
# than exists), so the test does not depend on this machine's load.
. "$(dirname "$0")/lib.sh"

cluster_init 3
cat >"$LSB_CONF/lsb.hosts" <<EOT
Begin Host
HOST_NAME  MXJ  r1m   mem
default    1    ()    ()
hostb      1    ()    999999999/
End Host
EOT
cluster_start
cd "$T_DIR/jobs"

expect_match "bhosts -w shows hostb busy" '^hostb +closed_Busy ' \
    "$(bhosts -w | grep '^hostb')"
expect_match "bhosts shows it closed" '^hostb +closed ' \
    "$(bhosts | grep '^hostb')"

for i in 1 2 3 4; do submit -o /dev/null sleep 30 >/dev/null; done
wait_for sh -c "[ \$(bjobs -noheader -r -o jobid | wc -l) -eq 2 ]"
hosts=$(bjobs -noheader -r -o exec_host | sort | tr '\n' ' ')
expect_eq "only the hosts within their thresholds run jobs" "hosta hostc " "$hosts"
expect_eq "two jobs wait" 2 "$(bjobs -noheader -p -o jobid 2>/dev/null | wc -l)"
reasons=$(bjobs -p)
expect_match "pending reason names the load threshold" \
    '^ Load threshold reached: 1 host;$' "$reasons"
expect_match "and the full hosts" '^ Job slot limit reached: 2 hosts;$' "$reasons"
bhl=$(bhosts -l hostb)
expect_match "bhosts -l marks the index over its threshold" '\*[0-9.]+[MG]' \
    "$(echo "$bhl" | grep '^ Total')"

finish
