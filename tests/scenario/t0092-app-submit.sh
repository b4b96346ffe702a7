#!/bin/bash
# Application profiles (lsb.applications): bsub -app puts a job in one,
# bjobs shows it (-l, -o app, -json, the -app filter), an unknown name is
# refused with LSF's words; bapp lists the profiles with their jobs'
# slots, bapp -l their parameters; MAX_JOB_PREEMPT shows in bparams -l,
# bqueues -l and bapp -l.  The job keeps its profile across an mbatchd
# restart and across a reconfig that removes the profile.
. "$(dirname "$0")/lib.sh"

cluster_init 1
sed -i 's/^End Parameters/MAX_JOB_PREEMPT = 7\n&/' "$LSB_CONF/lsb.params"
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = low
PRIORITY = 10
MAX_JOB_PREEMPT = 3
End Queue
EOF
cat >"$LSB_CONF/lsb.applications" <<EOF
Begin Application
NAME = fluent
DESCRIPTION = FLUENT solver jobs
MAX_JOB_PREEMPT = 2
RUNLIMIT = 30
MEMLIMIT = 200
RERUNNABLE = yes
SUSPEND_CONTROL = SIGTSTP
End Application

Begin Application
NAME = catia
JOB_STARTER = nice
End Application
EOF
cluster_start
cd "$T_DIR/jobs"

# Submission.
r=$(submit -app fluent -o /dev/null sleep 600)
p=$(submit -app fluent -H -o /dev/null sleep 600)
n=$(submit -o /dev/null sleep 600)
err=$(bsub -app nosuch true 2>&1)
rc=$?
expect_eq "an unknown profile is refused" \
    "nosuch: Application profile does not exist. Job not submitted." "$err"
expect_eq "... exit 255" 255 "$rc"
wait_for job_is "$r" RUN

# bjobs.
expect_match "bjobs -l: Application <fluent> after the project" \
    "User <[^>]*>, Project <default>, Application <fluent>, Status <RUN>" \
    "$(bjobs -l "$r" | tr -d '\n' | sed 's/  */ /g')"
check "... and none for a job without a profile" \
    sh -c "! bjobs -l $n | grep -q Application"
expect_eq "bjobs -o app: the profile, \"-\" for none" "fluent
-" "$(bjobs -noheader -o app "$r" "$n")"
expect_match "bjobs -o app -json" '"APP":"fluent"' \
    "$(bjobs -o 'jobid app' -json "$r")"
expect_eq "bjobs -app filters" "$p $r" \
    "$(bjobs -noheader -app fluent -o jobid | sort -n | tr '\n' ' ' |
    sed 's/ $//' | awk '{ print $2, $1 }')"
expect_eq "bjobs -app with no job of it" "No unfinished job found" \
    "$(bjobs -app catia 2>&1)"

# The profile's limits apply: bjobs -l shows them.
expect_match "its RUNLIMIT" "^ 30\\.0 min" \
    "$(bjobs -l "$r" | grep -A1 '^ RUNLIMIT$')"
expect_match "its MEMLIMIT" "^ +200\\.0 M$" \
    "$(bjobs -l "$r" | grep -A1 '^ MEMLIMIT$')"

# bapp.
expect_eq "bapp" "APPLICATION_NAME NJOBS     PEND      RUN     SUSP
fluent               2        1        1        0
catia                0        0        0        0" "$(bapp)"
expect_eq "bapp name" "APPLICATION_NAME NJOBS     PEND      RUN     SUSP
catia                0        0        0        0" "$(bapp catia)"
err=$(bapp nosuch 2>&1)
rc=$?
expect_eq "bapp of an unknown name" \
    "nosuch: Application profile does not exist" "$err"
expect_eq "... exit 255" 255 "$rc"
long=$(bapp -l fluent)
expect_match "bapp -l: the name and description" \
    $'^APPLICATION NAME: fluent\n -- FLUENT solver jobs\n' "$long"
expect_match "... its statistics" \
    $'STATISTICS:\n   NJOBS     PEND      RUN    SSUSP    USUSP      RSV \n       2        1        1        0        0        0\n' \
    "$long"
expect_match "... MAX_JOB_PREEMPT" $'\nMAX_JOB_PREEMPT: 2\n' "$long"
expect_match "... RUNLIMIT" $'\n RUNLIMIT\n 30.0 min\n' "$long"
expect_match "... the suspend control" \
    $'\nJOB_CONTROLS:\n    SUSPEND:    \[SIGTSTP\]\n' "$long"
expect_match "bapp -l: a key kept as configured" \
    $'\nJOB_STARTER:  nice\n' "$(bapp -l catia)"
expect_match "bapp -l catia: no description" \
    $' -- No description provided.\n' "$(bapp -l catia)"

# MAX_JOB_PREEMPT where LSF shows it.
expect_match "bparams -l" $'\n    MAX_JOB_PREEMPT = 7\n' "$(bparams -l)"
expect_match "bqueues -l" $'\nMAX_JOB_PREEMPT:  3\n' "$(bqueues -l low)"

# A restart: the job keeps its profile.
mbd_restart
expect_eq "after an mbatchd restart: bjobs -o app" "fluent" \
    "$(bjobs -noheader -o app "$r")"
expect_eq "... bapp counts it again" \
    "fluent               2        1        1        0" "$(bapp | grep fluent)"

# Reconfig without the profile: the job keeps the name.
cat >"$LSB_CONF/lsb.applications" <<EOF
Begin Application
NAME = catia
End Application
EOF
badmin reconfig -f >/dev/null 2>&1
gone() { bapp fluent >/dev/null 2>&1 && return 1; return 0; }
wait_for gone
check "reconfig: the profile is gone" gone
expect_eq "... the job still names it" "fluent" \
    "$(bjobs -noheader -o app "$p")"
check "... and has no RUNLIMIT left from it" \
    sh -c "! bjobs -l $p | grep -q '^ RUNLIMIT'"
err=$(bsub -app fluent true 2>&1)
expect_eq "... new jobs cannot ask for it" \
    "fluent: Application profile does not exist. Job not submitted." "$err"

bkill 0 >/dev/null 2>&1
finish
