#!/bin/bash
# blimits shows each limit's consumers and what jobs hold of it as
# used/limit (only limits in use; -a all of them; -u, -q and -n select;
# -c the configuration), and badmin reconfig applies a changed limit to
# the jobs already running: lowered below what runs, nothing more starts;
# raised, the waiting job starts.  A broken lsb.resources is reported by
# badmin ckconfig as file:line and refused by badmin reconfig.  A
# restarted mbatchd counts the same from its log.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cat >"$LSB_CONF/lsb.hosts" <<EOF2
Begin Host
HOST_NAME  MXJ
default    10
End Host
EOF2
cat >"$LSB_CONF/lsb.resources" <<EOF2
Begin Limit
NAME     = per_user
PER_USER = all
SLOTS    = 3
JOBS     = 5
End Limit

Begin Limit
NAME   = short_q
QUEUES = short
SLOTS  = 4
End Limit
EOF2
cluster_start
cd "$T_DIR/jobs"

out=$(blimits)
expect_eq "nothing in use yet" "No resource usage found." "$out"
out=$(blimits -a)
expect_match "-a lists configured limits not in use" \
	"^    short_q +- +short +- +- +0/4 +- +- +- +-$" "$out"

j1=$(submit -n 2 'sleep 1000')
j2=$(submit 'sleep 1000')
wait_for job_is "$j2" RUN || fail "jobs did not start"
out=$(blimits)
expect_eq "blimits: the table of limits in use" \
"INTERNAL RESOURCE LIMITS:

    NAME       USERS   QUEUES   HOSTS   PROJECTS   SLOTS   MEM   TMP   SWP   JOBS
    per_user   root    -        -       -            3/3     -     -     -    2/5" "$out"
n1=$(as_nobody bsub -q short 'sleep 1000' | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
wait_for job_is "$n1" RUN || fail "nobody's job did not start"
out=$(blimits -u nobody)
expect_match "-u: the limits of that user" "^    per_user +nobody .* 1/3 .* 1/5$" "$out"
expect_match "-u: and the limits that apply to every user" "^    short_q " "$out"
out=$(blimits -u nobody -n per_user)
expect_eq "-n: that limit only" 1 "$(echo "$out" | grep -c '^    [a-z]')"
out=$(blimits -q normal)
expect_match "-q: per_user applies to every queue" "per_user +root" "$out"
expect_eq "-q normal: not short's limit" "" "$(echo "$out" | grep short_q)"
expect_match "-c prints the configuration" \
	"^Begin Limit
NAME = per_user
PER_USER = all
SLOTS = 3
JOBS = 5
End Limit" "$(blimits -c)"

j3=$(submit 'sleep 1000')
wait_for sh -c "bjobs -p $j3 | grep -q 'has been reached'" ||
	fail "the third job does not wait for the limit"
sed -i 's/SLOTS    = 3/SLOTS    = 2/' "$LSB_CONF/lsb.resources"
badmin reconfig >/dev/null 2>&1 || fail "reconfig failed"
out=$(blimits -n per_user -u root)
expect_match "reconfig: running jobs count against the lowered limit" \
	"per_user +root .* 3/2 .* 2/5$" "$out"
bkill "$j2" >/dev/null
wait_for job_is "$j2" EXIT || fail "j2 did not end"
check "2 of 2 held: the waiting job still waits" job_is "$j3" PEND
sed -i 's/SLOTS    = 2/SLOTS    = 4/' "$LSB_CONF/lsb.resources"
badmin reconfig >/dev/null 2>&1 || fail "reconfig failed"
check "raised to 4, the waiting job starts" wait_for job_is "$j3" RUN
expect_match "blimits counts it" "per_user +root .* 3/4 .* 2/5$" \
	"$(blimits -n per_user -u root)"
before=$(blimits -a)
mbd_restart
expect_eq "an mbatchd restart counts the same from the log" "$before" \
	"$(blimits -a)"

cp "$LSB_CONF/lsb.resources" good
printf 'Begin Limit\nNAME = bad\nUSERS = a\nPER_USER = b\nSLOTS = 1\nEnd Limit\n' \
	>>"$LSB_CONF/lsb.resources"
out=$(badmin ckconfig 2>&1)
expect_match "ckconfig reports the bad limit" \
	"lsb.resources:16: limit bad: USERS and PER_USER cannot both be set" "$out"
badmin reconfig >/dev/null 2>&1 && fail "reconfig took a broken lsb.resources"
expect_match "the limits stay as they were" "per_user +root .* 3/4 .* 2/5$" \
	"$(blimits -n per_user -u root)"
finish
