#!/bin/bash
# Seeing fairshare (issue 22): bqueues -l prints a fairshare queue's
# USER_SHARES and its SHARE_INFO_FOR table, a queue of its
# FAIRSHARE_QUEUES the same; bqueues -r and bhpart -r add a table for
# each group of a hierarchical tree; bhpart shows a host partition and
# refuses an unknown one; bugroup -l shows a group's shares; STARTED is
# 1 while the user's job runs and 0 again once it has ended.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.queues" <<EOT

Begin Queue
QUEUE_NAME = fair
PRIORITY = 40
HOSTS = hosta
FAIRSHARE = USER_SHARES[[root, 10] [default, 1]]
FAIRSHARE_QUEUES = fair2
End Queue

Begin Queue
QUEUE_NAME = fair2
PRIORITY = 39
HOSTS = hosta
End Queue

Begin Queue
QUEUE_NAME = hier
PRIORITY = 20
HOSTS = hosta
FAIRSHARE = USER_SHARES[[grpA, 5] [default, 1]]
End Queue
EOT
cat >>"$LSB_CONF/lsb.hosts" <<EOT

Begin HostPartition
HPART_NAME = hp1
HOSTS = hostb
USER_SHARES = [grpA, 3] [default, 1]
End HostPartition
EOT
cat >"$LSB_CONF/lsb.users" <<EOT
Begin UserGroup
GROUP_NAME    GROUP_MEMBER        USER_SHARES
grpA          (root daemon)       ([root, 2] [daemon, 1])
End UserGroup
EOT
cluster_start
cd "$T_DIR/jobs"

HEAD=" USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME"
HEAD="$HEAD  RUN_TIME   ADJUST"

# From SCHEDULING POLICIES to the line before USERS.
policies() {
	bqueues "$@" 2>&1 | sed -n '/^SCHEDULING POLICIES/,/^USERS/p' |
	    sed '$d'
}

# No job has run: priority = shares / ((1 + 0 slots) * RUN_JOB_FACTOR 3).
out=$(policies -l fair)
expect_eq "bqueues -l: a fairshare queue's shares and table" \
"SCHEDULING POLICIES:  FAIRSHARE
FAIRSHARE_QUEUES:  fair fair2
USER_SHARES:  [root, 10] [default, 1]

SHARE_INFO_FOR: fair/
$HEAD
 root             10     3.333        0         0       0.0         0    0.000" "$out"
out2=$(policies -l fair2)
expect_eq "bqueues -l: a queue of FAIRSHARE_QUEUES shows its master's" \
    "$out" "$out2"
out=$(policies -l normal)
expect_eq "bqueues -l: no fairshare, no table" "" "$out"

out=$(policies -l hier)
expect_eq "bqueues -l: a hierarchical tree's top level only" \
"SCHEDULING POLICIES:  FAIRSHARE
USER_SHARES:  [grpA, 5] [default, 1]

SHARE_INFO_FOR: hier/
$HEAD
 grpA              5     1.667        0         0       0.0         0    0.000" "$out"
out=$(policies -r hier)
expect_eq "bqueues -r: a table for each group" \
"SCHEDULING POLICIES:  FAIRSHARE
USER_SHARES:  [grpA, 5] [default, 1]

SHARE_INFO_FOR: hier/
$HEAD
 grpA              5     1.667        0         0       0.0         0    0.000

SHARE_INFO_FOR: hier/grpA/
$HEAD
 root              2     0.667        0         0       0.0         0    0.000
 daemon            1     0.333        0         0       0.0         0    0.000" "$out"

out=$(bhpart 2>&1)
expect_eq "bhpart: the partition, its hosts and its top level" \
"HOST_PARTITION_NAME: hp1
HOSTS: hostb

SHARE_INFO_FOR: hp1/
$HEAD
 grpA              3     1.000        0         0       0.0         0    0.000" \
    "$out"
out=$(bhpart -r hp1 2>&1)
expect_eq "bhpart -r: every level" \
"HOST_PARTITION_NAME: hp1
HOSTS: hostb

SHARE_INFO_FOR: hp1/
$HEAD
 grpA              3     1.000        0         0       0.0         0    0.000

SHARE_INFO_FOR: hp1/grpA/
$HEAD
 root              2     0.667        0         0       0.0         0    0.000
 daemon            1     0.333        0         0       0.0         0    0.000" \
    "$out"
out=$(bhpart nosuch 2>&1)
rc=$?
expect_eq "bhpart: an unknown partition" "nosuch: No such host partition" \
    "$out"
expect_eq "bhpart: and it fails" 255 "$rc"

out=$(bugroup -l grpA 2>&1)
expect_eq "bugroup -l: the group's shares" \
"GROUP_NAME:  grpA
USERS:  root daemon
SHARES:  [root, 2] [daemon, 1]" "$out"

# A job of the user runs: its slot is STARTED, and busers counts it.
job=$(submit -q fair -o /dev/null sleep 60)
wait_for job_is "$job" RUN || fail "the job did not start"
started() {
	bqueues -l fair | grep -Eq "^ root +10 +[0-9.]+ +$1 +0 "
}
check "bqueues -l: STARTED 1 while the job runs" wait_for started 1
out=$(busers root 2>&1)
expect_match "busers: the running job counts" \
    "^root +- +- +1 +0 +1 +0 +0 +0$" "$out"
bkill "$job" >/dev/null 2>&1
wait_for job_is "$job" EXIT
check "bqueues -l: STARTED 0 once it has ended" wait_for started 0

finish
