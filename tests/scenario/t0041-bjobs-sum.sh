#!/bin/bash
# bjobs -sum, -X, -UF, -G, -hms and the -o fields time_left, %complete,
# idle_factor, interactive, first_host, nexec_host,
# estimated_start_time, suspend_reason, corelimit, stacklimit and
# swaplimit, in LSF's formats; and bjobs's exit status when nothing is
# found (0, as LSF's by default; t0042 has the rest).
. "$(dirname "$0")/lib.sh"

cluster_init 1
cat >"$LSB_CONF/lsb.users" <<EOF
Begin UserGroup
GROUP_NAME  GROUP_MEMBER
grp1        ($(id -un))
End UserGroup
EOF
cluster_start
cd "$T_DIR/jobs"
h=$(bhosts -noheader 2>/dev/null | awk 'NR == 1 { print $1 }')
[ -n "$h" ] || h=$(bhosts 2>/dev/null | awk 'NR == 2 { print $1 }')

# Nothing yet: a summary of zeros, exit 0.
out=$(bjobs -sum 2>&1)
rc=$?
expect_eq "bjobs -sum of nothing" \
"RUN        SSUSP       USUSP      UNKNOWN    PEND       FWD_PEND  PSUSP    
0          0           0          0          0          0         0        " \
    "$out"
expect_eq "and exits 0" 0 "$rc"
err=$(bjobs 2>&1 >/dev/null)
rc=$?
expect_eq "no job: LSF's words" "No unfinished job found" "$err"
expect_eq "no job: exit 0" 0 "$rc"
expect_eq "-p: exit 0 too" 0 "$(bjobs -p >/dev/null 2>&1; echo $?)"

# LSF_UNIT_FOR_LIMITS is MB in the test cluster.
r=$(submit -o /dev/null -W 10 -C 1 -S 8192 -v 2048 sleep 300)
check "the running job starts" wait_for job_is "$r" RUN
s=$(submit -o /dev/null sleep 300)
check "the second one runs" wait_for job_is "$s" RUN
bstop "$s" >/dev/null
check "and is stopped" wait_for job_is "$s" USUSP
p=$(submit -o /dev/null -n 2 -H sleep 300)
check "the held one is PSUSP" wait_for job_is "$p" PSUSP
q=$(submit -o /dev/null -n 3 -m nosuchhost sleep 300 2>/dev/null)
[ -n "$q" ] || q=$(submit -o /dev/null -n 3 -R "select[mem > 999999999]" \
    sleep 300)
check "the last one pends" wait_for job_is "$q" PEND

expect_eq "bjobs -sum counts slots by state" \
"RUN        SSUSP       USUSP      UNKNOWN    PEND       FWD_PEND  PSUSP    
1          0           1          0          3          0         2        " \
    "$(bjobs -sum 2>&1)"
expect_eq "a filter narrows it" \
"RUN        SSUSP       USUSP      UNKNOWN    PEND       FWD_PEND  PSUSP    
0          0           0          0          0          0         0        " \
    "$(bjobs -sum -q nosuchqueue 2>/dev/null || bjobs -sum -u nobody)"

# The -o fields.
out=$(bjobs -noheader -o "time_left %complete interactive first_host \
nexec_host estimated_start_time corelimit stacklimit swaplimit \
delimiter='|'" "$r")
expect_match "-o time_left and the rest of a running job" \
    "^(0:10|0:09) L\|[01]% L\|N\|$h\|1\|-\|1 Mbytes\|8\.0 Gbytes\|2\.0 Gbytes$" \
    "$out"
expect_eq "-o headers" \
    "TIME_LEFT %COMPLETE INTERACTIVE FIRST_HOST NEXEC_HOST ESTIMATED_START_TIME SUSPEND_REASON IDLE_FACTOR" \
    "$(bjobs -o "time_left %complete interactive first_host nexec_host \
estimated_start_time suspend_reason idle_factor" "$r" | head -n 1 | tr -s ' ')"
expect_match "-o idle_factor" '^[0-9]+\.[0-9]{2}$' \
    "$(bjobs -noheader -o idle_factor "$r")"
expect_eq "-o suspend_reason of a stopped job" \
    "The job was suspended by user" \
    "$(bjobs -noheader -o "suspend_reason delimiter='|'" "$s")"
expect_eq "the fields of a pending job are -" "-|-|-|-" \
    "$(bjobs -noheader -o "time_left first_host nexec_host \
suspend_reason delimiter='|'" "$q")"
expect_match "-hms: time_left as hh:mm:ss" '^00:(10:00|09:[0-5][0-9]) L$' \
    "$(bjobs -hms -noheader -o time_left "$r")"
expect_eq "-hms: runtimelimit as hh:mm:ss" "00:10:00" \
    "$(bjobs -hms -noheader -o runtimelimit "$r")"
expect_eq "without -hms in minutes" "10.0" \
    "$(bjobs -noheader -o runtimelimit "$r")"

# -UF: the long format, no line cut, and every line from its start:
# the resource usage too, once sbatchd has reported it.
wait_for sh -c "bjobs -l $r | grep -q 'MEM:'"
out=$(bjobs -UF "$r")
expect_match "-UF: the first line whole" \
    "^Job <$r>, User <[^>]*>, Project <default>, Status <RUN>, Queue <[^>]*>, Command <sleep 300>" \
    "$(echo "$out" | grep -m 1 '^Job <')"
expect_eq "-UF: no continuation lines" "" \
    "$(echo "$out" | grep -E '^ {21}[^ ]' | head -n 1)"
expect_match "-UF: the usage on the stamped line, parts ended by ;" \
    "^[A-Z][a-z]{2} [A-Z][a-z]{2} +[0-9]+ [0-9:]{8}: Resource usage collected\. MEM: [0-9]+ Mbytes;  SWAP: 0 Mbytes;  NTHREAD: 1;  PGID: [0-9]+;  PIDs: [0-9 ]+;\$" \
    "$(echo "$out" | grep 'Resource usage collected')"
# -X: accepted; host groups are never condensed anyway.
expect_match "-X lists the job" "^$r " "$(bjobs -X -noheader "$r")"
# -G: jobs of that user group only.
g=$(submit -o /dev/null -G grp1 sleep 300)
expect_eq "-G lists the jobs submitted with -G" "$g" \
    "$(bjobs -G grp1 -noheader -o jobid 2>&1)"
err=$(bjobs -G nosuchgroup 2>&1 >/dev/null)
rc=$?
expect_eq "-G of a group with no job" "No unfinished job found" "$err"
expect_eq "and exits 0" 0 "$rc"
bkill 0 >/dev/null 2>&1
finish
