#!/bin/bash
# busers, bugroup and bmgroup: LSF's tables of users' limits and job
# slots, of the user groups of lsb.users and of the host groups of
# lsb.hosts (golden output).
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.hosts" <<EOT

Begin HostGroup
GROUP_NAME    GROUP_MEMBER
hg1           (hosta)
hg2           (hg1 hostb)
hgall         (all)
End HostGroup
EOT
cat >"$LSB_CONF/lsb.users" <<EOT
Begin UserGroup
GROUP_NAME    GROUP_MEMBER        USER_SHARES
ug1           (root nobody)       ([root, 4] [others, 10])
ug2           (ug1 daemon)        ()
a_rather_long_group_name (daemon) ()
ugall         (all)               ()
End UserGroup

Begin User
USER_NAME     MAX_JOBS   JL/P   MAX_PEND_JOBS
root          10         2      50
ug1           20         -      -
default       5          1.5    -
End User
EOT
cluster_start
cd "$T_DIR/jobs"

run=$(submit -o /dev/null sleep 60)
held=$(submit -H -o /dev/null -n 2 sleep 60)
wait_for job_is "$run" RUN

out=$(busers 2>&1)
expect_eq "busers: the caller's limits and slots" \
"USER/GROUP          JL/P    MAX  NJOBS   PEND    RUN  SSUSP  USUSP    RSV
root                   2     10      3      2      1      0      0      0" \
    "$out"
out=$(busers nobody ug1 2>&1)
expect_eq "busers: a user with the default limits, and a group's total" \
"USER/GROUP          JL/P    MAX  NJOBS   PEND    RUN  SSUSP  USUSP    RSV
nobody               1.5      5      0      0      0      0      0      0
ug1                    -     20      3      2      1      0      0      0" \
    "$out"
out=$(busers -w root a_rather_long_group_name 2>&1)
expect_eq "busers -w: pending thresholds, names not cut" \
"USER/GROUP               JL/P    MAX  NJOBS   PEND    RUN  SSUSP  USUSP    RSV  MPEND  PJOBS MPJOBS
root                        2     10      3      2      1      0      0      0      -      1     50
a_rather_long_group_name    -      -      0      0      0      0      0      0      -      0      -" \
    "$out"
out=$(busers a_rather_long_group_name 2>&1)
expect_match "busers: a long name is cut to 19 characters" \
    "^a_rather_long_group +-" "$out"
out=$(busers all 2>&1)
expect_eq "busers all: users with jobs or limits, then the groups" \
"USER/GROUP          JL/P    MAX  NJOBS   PEND    RUN  SSUSP  USUSP    RSV
root                   2     10      3      2      1      0      0      0
ug1                    -     20      3      2      1      0      0      0
ug2                    -      -      3      2      1      0      0      0
a_rather_long_group    -      -      0      0      0      0      0      0
ugall                  -      -      3      2      1      0      0      0" \
    "$out"
out=$(busers -o "user max jl/p:-5 njobs pend run pjobs mpjobs" root ug1 2>&1)
expect_eq "busers -o: LSF's fields" \
"USER MAX  JL/P NJOBS PEND RUN PJOBS MPJOBS
root 10     2 3 2 1 1 50
ug1 20     - 3 2 1 1 -" "$out"
out=$(busers -o "user: njobs: delimiter=';'" -json 2>&1)
expect_eq "busers -o -json" \
'{
  "COMMAND":"busers",
  "USERS":1,
  "RECORDS":[
    {
      "USER":"root",
      "NJOBS":"3"
    }
  ]
}' "$out"
out=$(busers -o "user nosuch" 2>&1)
expect_eq "busers -o: an unknown field" "nosuch: Illegal field name." "$out"
out=$(LSB_BUSERS_FORMAT="user:8 run:-4" busers 2>&1)
expect_eq "LSB_BUSERS_FORMAT" \
"USER      RUN
root        1" "$out"
busers -x >/dev/null 2>&1
expect_eq "busers: an unknown option is refused" 255 "$?"

out=$(bugroup 2>&1)
expect_eq "bugroup: subgroups end in /, all is all users" \
"GROUP_NAME    USERS
ug1           root nobody
ug2           ug1/ daemon
a_rather_long daemon
ugall         all users" "$out"
out=$(bugroup -r ug2 2>&1)
expect_eq "bugroup -r: subgroups expanded" \
"GROUP_NAME    USERS
ug2           root nobody daemon" "$out"
out=$(bugroup -w a_rather_long_group_name 2>&1)
expect_eq "bugroup -w: the name is not cut" \
"GROUP_NAME    USERS
a_rather_long_group_name daemon" "$out"
out=$(bugroup -l ug1 ug2 2>&1)
expect_eq "bugroup -l: one block per group, with its shares" \
"GROUP_NAME:  ug1
USERS:  root nobody
SHARES:  [root, 4] [others, 10]

GROUP_NAME:  ug2
USERS:  ug1/ daemon" "$out"
out=$(bugroup nosuch 2>&1)
rc=$?
expect_eq "bugroup: an unknown group" "nosuch: No such user group" "$out"
expect_eq "bugroup: and it fails" 255 "$rc"

out=$(bmgroup 2>&1)
expect_eq "bmgroup: the host groups" \
"GROUP_NAME    HOSTS
hg1           hosta
hg2           hg1/ hostb
hgall         all hosts used by the LSF system" "$out"
out=$(bmgroup -r hg2 2>&1)
expect_eq "bmgroup -r: subgroups expanded" \
"GROUP_NAME    HOSTS
hg2           hosta hostb" "$out"
out=$(bmgroup -r hgall 2>&1)
expect_eq "bmgroup -r: all is every host" \
"GROUP_NAME    HOSTS
hgall         hosta hostb" "$out"
out=$(bmgroup -l hg1 2>&1)
expect_eq "bmgroup -l" \
"GROUP_NAME:  hg1
HOSTS:  hosta" "$out"
out=$(bmgroup nosuch 2>&1)
rc=$?
expect_eq "bmgroup: an unknown group" "nosuch: No such host group" "$out"
expect_eq "bmgroup: and it fails" 255 "$rc"

# An array's pending elements count one slot and one job each; a job
# stopped by its user counts as USUSP; mbatchd's counts survive its
# restart (they are rebuilt from the event log).
arr=$(submit -H -J "arr[1-3]" -o /dev/null sleep 60)
bstop "$run" >/dev/null
wait_for job_is "$run" USUSP
want="USER/GROUP          JL/P    MAX  NJOBS   PEND    RUN  SSUSP  USUSP    RSV  MPEND  PJOBS MPJOBS
root                   2     10      6      5      0      0      1      0      -      4     50"
expect_eq "busers -w: array elements and a stopped job" "$want" \
    "$(busers -w 2>&1)"
mbd_restart
expect_eq "busers -w: the same after mbatchd restarts" "$want" \
    "$(busers -w 2>&1)"

bkill "$run" "$held" "$arr" >/dev/null 2>&1
finish
