#!/bin/bash
# The exit status of "nothing found" answers, as LSF's commands give it:
# bjobs' "No ... job found" is an answer, exit 0 (IBM's default; the
# workflow tools rely on it), unless LSB_BJOBS_CONSISTENT_EXIT_CODE=Y,
# when anything not found is 255; bjobs of IDs none of which exists,
# bkill, bstop, bresume and bpeek of nothing exit 255, the message on
# stderr and nothing on stdout.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cluster_start
cd "$T_DIR/jobs"

# status CMD...: "<exit status>|<stdout>|<stderr>"
status() {
	local out err rc
	out=$("$@" 2>"$T_DIR/err")
	rc=$?
	err=$(cat "$T_DIR/err")
	echo "$rc|$out|$err"
}
expect_eq "bjobs, no job" "0||No unfinished job found" "$(status bjobs)"
expect_eq "bjobs -a, no job" "0||No job found" "$(status bjobs -a)"
expect_eq "bjobs -p, no job" "0||No pending job found" "$(status bjobs -p)"
expect_eq "bjobs -r, no job" "0||No running job found" "$(status bjobs -r)"
expect_eq "bjobs -s, no job" "0||No suspended job found" \
    "$(status bjobs -s)"
expect_eq "bjobs of an unknown ID" "255||Job <999999> is not found" \
    "$(status bjobs 999999)"
expect_eq "bjobs -json of nothing: an empty list, exit 0" \
    '0|{"COMMAND":"bjobs","JOBS":0,"RECORDS":[]}|' \
    "$(status bjobs -json -o jobid | tr -d ' \n')"
expect_eq "bkill of an unknown ID" \
    "255||Job <999999>: No matching job found" "$(status bkill 999999)"
expect_eq "bstop of an unknown ID" \
    "255||Job <999999>: No matching job found" "$(status bstop 999999)"
expect_eq "bresume of an unknown ID" \
    "255||Job <999999>: No matching job found" "$(status bresume 999999)"
expect_eq "bkill 0 of nothing" "255||No matching job found" \
    "$(status bkill 0)"
expect_eq "bpeek of nothing" "255||No unfinished job found" \
    "$(status bpeek)"

# With a job, the same commands succeed.
a=$(submit -o /dev/null sleep 60)
check "the job runs" wait_for job_is "$a" RUN
expect_match "bjobs lists it, exit 0" "^0\|JOBID" "$(status bjobs)"
expect_eq "bjobs -r -noheader -o jobid" "0|$a|" \
    "$(status bjobs -r -noheader -o jobid)"
expect_eq "but -p finds none: 0" "0||No pending job found" \
    "$(status bjobs -p)"
export LSB_BJOBS_CONSISTENT_EXIT_CODE=Y
expect_eq "consistent exit code: -p finds none, 255" \
    "255||No pending job found" "$(status bjobs -p)"
expect_eq "consistent exit code: one ID unknown, 255" \
    "255|$a|Job <999999> is not found" \
    "$(status bjobs -noheader -o jobid "$a" 999999)"
expect_eq "consistent exit code: the job found, 0" "0|$a|" \
    "$(status bjobs -noheader -o jobid "$a")"
unset LSB_BJOBS_CONSISTENT_EXIT_CODE
expect_eq "default: one ID of two unknown, 0" \
    "0|$a|Job <999999> is not found" \
    "$(status bjobs -noheader -o jobid "$a" 999999)"
bkill 0 >/dev/null 2>&1
finish
