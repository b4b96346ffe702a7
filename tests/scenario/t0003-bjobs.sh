#!/bin/bash
# bjobs output as workflow tools parse it: the default table, -w, -o with
# widths and delimiters, -json, -l, -p, missing IDs and exit statuses.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >"$LSB_CONF/lsb.hosts" <<EOT
Begin Host
HOST_NAME  MXJ
default    1
End Host
Begin HostGroup
GROUP_NAME  GROUP_MEMBER
grp_b       (hostb)
End HostGroup
EOT
cluster_start
cd "$T_DIR/jobs"

r1=$(submit -J first sleep 30)
r2=$(submit -J second -o out.%J sleep 30)
p1=$(submit -J a_rather_long_job_name_here sleep 30)
p2=$(submit -q short -J "nf-(x)" sleep 30)
wait_for job_is "$r2" RUN

out=$(bjobs)
expect_eq "default header" \
    "JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME" \
    "$(echo "$out" | head -n 1)"
expect_match "running row" \
    "^$r1 +root +RUN +normal +[^ ]+ +host[ab] +first +[A-Z][a-z][a-z] [ 1-3][0-9] [0-2][0-9]:[0-5][0-9]\$" \
    "$out"
expect_match "pending row: no exec host, the name's tail after *" \
    "^$p1 +root +PEND +normal +[^ ]+ +\\*name_here " "$out"
expect_eq "columns are LSF's: EXEC_HOST starts at column 46" "host" \
    "$(echo "$out" | grep "^$r1 " | cut -c46-49)"
expect_eq "running jobs first, then pending in dispatch order" \
    "$r1 $r2 $p2 $p1" "$(echo "$out" | awk 'NR > 1 {printf "%s ", $1}' | sed 's/ $//')"
expect_match "-w keeps the whole name" "a_rather_long_job_name_here" "$(bjobs -w)"

expect_eq "-o with -noheader" "$r2 RUN" "$(bjobs -noheader -o 'jobid stat' "$r2")"
expect_eq "\"-o field\" as one argument" "RUN" "$(bjobs "-o stat" -noheader "$r2")"
expect_eq "-o with a delimiter" "$r2^RUN^second" \
    "$(bjobs -noheader -o "jobid stat job_name delimiter='^'" "$r2")"
expect_eq "empty values print -" "$p1 -" \
    "$(bjobs -noheader -o 'id exec_host' "$p1")"
expect_eq "-o header line" "JOBID STAT" "$(bjobs -o 'jobid stat' "$r2" | head -n 1)"
expect_eq "-o width and right-justify" "$(printf '%-8s%6s' "$r2" RUN)" \
    "$(bjobs -noheader -o 'jobid:8 stat:-6' "$r2" | sed 's/^\(.\{8\}\) /\1/')"
expect_eq "bundled -aJ with a wildcard" "$p1" "$(bjobs -noheader -o jobid -aJ '*rather*')"
expect_eq "-q" "$p2" "$(bjobs -noheader -o jobid -q short)"
out=$(bjobs -q nosuch 2>&1 >/dev/null)
rc=$?
expect_eq "-q of an unknown queue says so" "nosuch: No such queue" "$out"
expect_eq "and fails" 255 "$rc"
export LSB_BJOBS_FORMAT="jobid:10 user"
expect_eq "LSB_BJOBS_FORMAT" "$(printf '%-10s root' "$r1")" \
    "$(bjobs -noheader "$r1")"
unset LSB_BJOBS_FORMAT

json=$(bjobs -json -o "jobid stat exit_code job_name" "$r1" "$p2" 777777)
check "-json is valid JSON" python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["COMMAND"] == "bjobs" and d["JOBS"] == 3, d
r = d["RECORDS"]
assert all(isinstance(v, str) for rec in r for v in rec.values()), r
assert r[0]["STAT"] == "RUN" and r[0]["EXIT_CODE"] == "", r
assert r[1]["JOB_NAME"] == "nf-(x)", r
assert r[2]["JOBID"] == "777777" and "not found" in r[2]["ERROR"], r
' "$json"
expect_match "-json escapes every /" '^ *"EXEC_CWD":"(\\/[^/"]+)+"$' \
    "$(bjobs -json -o "jobid exec_cwd" "$r1")"
expect_eq "-json exits 0 with a missing ID" 0 \
    "$(bjobs -json -o stat 777777 >/dev/null 2>&1; echo $?)"

err=$(bjobs 777777 2>&1 >/dev/null)
rc=$(bjobs 777777 >/dev/null 2>&1; echo $?)
expect_eq "missing ID on stderr" "Job <777777> is not found" "$err"
expect_eq "all IDs missing: exit 255" 255 "$rc"
expect_eq "nothing on stdout for a missing ID" "" "$(bjobs -o stat -noheader 777777 2>/dev/null)"
expect_eq "some IDs found: exit 0" 0 "$(bjobs "$r1" 777777 >/dev/null 2>&1; echo $?)"

p=$(bjobs -p)
expect_eq "-p header" \
    "JOBID   USER    STAT  QUEUE       FROM_HOST      JOB_NAME           SUBMIT_TIME" \
    "$(echo "$p" | head -n 1)"
expect_match "-p reason lines" '^ Job slot limit reached: 2 hosts;$' "$p"

l=$(bjobs -l "$r2")
expect_match "-l first line" "^Job <$r2>, Job Name <second>, User <root>, Project <default>, Status <RUN>, Que" "$l"
check "-l lines are at most 79 characters" sh -c \
    "! bjobs -l $r2 $p1 | awk 'length > 79' | grep -q ."
expect_match "-l output file" 'Output File <out\.%J>' "$(echo "$l" | tr -d '\n' | tr -s ' ')"

bkill "$r1" >/dev/null
wait_for job_is "$r1" EXIT
check "a finished job is still shown by ID" job_is "$r1" EXIT
expect_eq "finished jobs are not shown without -a" "" \
    "$(bjobs -noheader -o jobid | grep -x "$r1")"
expect_eq "-a shows them" "$r1" "$(bjobs -a -noheader -o jobid | grep -x "$r1")"
expect_eq "-d shows only them" "$r1" "$(bjobs -d -noheader -o jobid)"
check "-W has its columns" sh -c "bjobs -W | head -n 1 | grep -q 'PROJ_NAME CPU_USED MEM SWAP PIDS START_TIME FINISH_TIME'"
bkill 0 >/dev/null
wait_for sh -c "[ -z \"\$(bjobs -noheader 2>/dev/null)\" ]"
err=$(bjobs 2>&1)
expect_eq "no jobs: LSF's message" "No unfinished job found" "$err"
expect_eq "no jobs: exit 0, as LSF by default" 0 "$(bjobs >/dev/null 2>&1; echo $?)"
expect_eq "no jobs: stdout empty" "" "$(bjobs 2>/dev/null)"

# A job on two hosts: the first host in its row, the next one below it,
# at the EXEC_HOST column.
m=$(submit -n 2 sleep 30)
wait_for job_is "$m" RUN
out=$(bjobs "$m")
expect_eq "a two-host job takes two lines" 3 "$(echo "$out" | wc -l)"
expect_match "first host in the row" \
    "^$m +root +RUN +normal +[^ ]+ +host[ab] +sleep 30 " "$(echo "$out" | sed -n 2p)"
expect_match "the other host on its own line at column 46" \
    '^ {45}host[ab]$' "$(echo "$out" | sed -n 3p)"

# -m takes a host, a host group, "all" or the cluster's name.
expect_eq "-m host" "$m" "$(bjobs -noheader -o jobid -m hosta)"
expect_eq "-m host group" "$m" "$(bjobs -noheader -o jobid -m grp_b)"
expect_eq "-m all" "$m" "$(bjobs -noheader -o jobid -m all)"
expect_eq "-m cluster name" "$m" "$(bjobs -noheader -o jobid -m c1)"
out=$(bjobs -m nosuch 2>&1 >/dev/null)
rc=$?
expect_eq "-m of an unknown host says so" \
    "nosuch: Bad host name, host group name or cluster name" "$out"
expect_eq "and fails" 255 "$rc"

# bsub without HOME (cron, systemd): mbatchd takes the home from passwd,
# so -l still shows the CWD under it as $HOME.
home=$(getent passwd "$(id -un)" | cut -d: -f6)
h=$(cd "$home" && env -u HOME bsub -H true | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
expect_match "bsub without HOME submits" '^[0-9]+$' "$h"
expect_match "the CWD shows as \$HOME" 'CWD<\$HOME>' \
    "$(bjobs -l "$h" | tr -d ' \n')"
finish
