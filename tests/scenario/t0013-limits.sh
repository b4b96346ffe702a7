#!/bin/bash
# Resource limits (run, CPU, memory), the termination deadline, and pre-
# and post-execution commands.  LSF's limits are in minutes, so the jobs
# that need one all start together and the checks that do not need them
# run meanwhile: the whole test takes a little over a minute.
. "$(dirname "$0")/lib.sh"

cluster_init 2
J="$T_DIR/jobs"
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = cpu
PRIORITY = 20
CPULIMIT = 1
RUNLIMIT = 5 10
End Queue

Begin Queue
QUEUE_NAME = prepost
PRIORITY = 20
PRE_EXEC = echo queue-pre >>$J/order
POST_EXEC = echo queue-post >>$J/order
End Queue
EOF
cat >"$LSB_CONF/lsb.hosts" <<EOF
Begin Host
HOST_NAME  MXJ
default    10
End Host
EOF
sed -i 's/^End Parameters/MAX_PREEXEC_RETRY = 3\nLOCAL_MAX_PREEXEC_RETRY_ACTION = EXIT\nEnd Parameters/' \
    "$LSB_CONF/lsb.params"
cluster_start
cd "$J"
FROM=$(hostname)
MEMHOG="$TOOLS/memhog"

events() {
	cat "$T_DIR"/work/c1/logdir/lsb.events
}
# The jStatus of the job's JOB_STATUS records, in order.
statuses() {
	events | awk -v j="$1" '$1 == "\"JOB_STATUS\"" && $4 == j { print $5 }' |
	    tr '\n' ' ' | sed 's/ $//'
}
statuses_are() {
	[ "$(statuses "$1")" = "$2" ]
}
# bjobs -l with its long lines joined again.
unwrap() {
	awk -v ind="$(printf '%21s' '')" '
	    NR > 1 && substr($0, 1, 21) == ind { printf "%s", substr($0, 22); next }
	    NR > 1 { print "" }
	    { printf "%s", $0 }
	    END { print "" }'
}
reason() {
	bjobs -noheader -o exit_reason "$1" 2>/dev/null
}

# The deadline: the next whole minute, or the one after if that is too
# close for the job to have started by then.
if [ "$(date +%S | sed 's/^0//')" -gt 50 ]; then
	deadline=$(date -d '+2 min' +%Y:%m:%d:%H:%M)
else
	deadline=$(date -d '+1 min' +%Y:%m:%d:%H:%M)
fi

# The jobs that wait for a minute to pass, all at once.
run=$(submit -W 1 -o run.%J sleep 300)
cpu=$(submit -q cpu -o cpu.%J 'while :; do :; done & while :; do :; done')
dl=$(submit -t "$deadline" -o dl.%J sleep 300)
held=$(submit -H -t "$deadline" sleep 300)
wait_for job_is "$run" RUN
wait_for job_is "$cpu" RUN
wait_for job_is "$dl" RUN

# Meanwhile: what applies, and what is refused.
expect_match "bjobs -l shows the run limit" \
    "^ RUNLIMIT\$" "$(bjobs -l "$run")"
expect_match "... in minutes of the submission host" \
    "^ 1\\.0 min of $FROM\$" "$(bjobs -l "$run")"
expect_match "a queue's CPULIMIT applies to its jobs" \
    "^ 1\\.0 min of $FROM\$" "$(bjobs -l "$cpu" | grep -A1 '^ CPULIMIT$')"
expect_match "... and its default run limit, not its maximum" \
    "^ 5\\.0 min of $FROM\$" "$(bjobs -l "$cpu" | grep -A1 '^ RUNLIMIT$')"
expect_eq "bjobs -o cpulimit runtimelimit" "1.0 5.0" \
    "$(bjobs -noheader -o 'cpulimit runtimelimit' "$cpu")"
err=$(bsub -q cpu -c 2 true 2>&1)
expect_eq "a CPU limit above the queue's is refused" \
    "CPULIMIT: Cannot exceed queue's hard limit(s). Job not submitted." "$err"
err=$(bsub -q cpu -W 11 true 2>&1)
expect_eq "a run limit above the queue's maximum is refused" \
    "RUNLIMIT: Cannot exceed queue's hard limit(s). Job not submitted." "$err"
err=$(bsub -t 2001:01:01:00:00 true 2>&1)
expect_eq "a deadline in the past is refused" \
    "2001:01:01:00:00: Bad time specification. Job not submitted." "$err"

# Memory: the sum of the job's processes, checked every second.
mem=$(submit -M 20 -o mem.%J "$MEMHOG" 100 60)
wait_for job_is "$mem" EXIT
check "a job over its memory limit is killed" job_is "$mem" EXIT
expect_eq "... with TERM_MEMLIMIT" \
    "TERM_MEMLIMIT: job killed after reaching LSF memory usage limit" \
    "$(reason "$mem")"
expect_match "bjobs -l shows the memory limit in LSF_UNIT_FOR_LIMITS" \
    '^ +20\.0 M$' "$(bjobs -l "$mem" | grep -A1 '^ MEMLIMIT$')"
# Suffixes KB, MB, GB override LSF_UNIT_FOR_LIMITS (MB here).
for m in "2GB 2048.0" "1536KB 1.5" "3MB 3.0"; do
	h=$(submit -H -M "${m% *}" true)
	expect_match "-M ${m% *}" "^ +${m#* } M\$" \
	    "$(bjobs -l "$h" | grep -A1 '^ MEMLIMIT$')"
	bkill "$h" >/dev/null
done

# Pre-exec: a failure puts the job back to PEND, with its reason, and it
# is tried again; MAX_PREEXEC_RETRY failures end it.
pre=$(submit -E "test -f $J/go" -o pre.%J echo the job ran)
pend_pre() {
	bjobs -p "$pre" 2>/dev/null |
	    grep -q "The job's pre-exec command exited with non-zero status"
}
wait_for pend_pre
check "a failed pre-exec puts the job back to PEND with its reason" pend_pre
check "... and it is PEND" job_is "$pre" PEND
touch go
WAIT_SECS=30 wait_for job_is "$pre" DONE
check "once the pre-exec succeeds the job runs" job_is "$pre" DONE
expect_eq "... the same job, which ran once" "the job ran" \
    "$(grep -x 'the job ran' "pre.$pre")"
expect_match "its return to PEND is logged" '^1 ' "$(statuses "$pre")"
never=$(submit -E false -o /dev/null true)
WAIT_SECS=40 wait_for job_is "$never" EXIT
check "a pre-exec that keeps failing ends the job after MAX_PREEXEC_RETRY" \
    job_is "$never" EXIT
expect_eq "... after three tries" "1 1 32" "$(statuses "$never")"

# Post-exec: the job's end first, then the outcome of its post-exec.
pd=$(submit -Ep "echo \$LSB_JOBEXIT_STAT >$J/post.out" -o /dev/null exit 3)
pe=$(submit -Ep false -o /dev/null true)
wait_for statuses_are "$pd" "32 160"
expect_eq "the job's end is logged, then its post-exec's: EXIT|PDONE" \
    "32 160" "$(statuses "$pd")"
expect_eq "the post-exec has LSB_JOBEXIT_STAT" "768" "$(cat post.out)"
wait_for statuses_are "$pe" "64 320"
expect_eq "a post-exec that fails: DONE, then DONE|PERR" "64 320" \
    "$(statuses "$pe")"
check "bjobs still says DONE" job_is "$pe" DONE

# Queue and job commands, in LSF's order.
qp=$(submit -q prepost -E "echo job-pre >>$J/order" \
    -Ep "echo job-post >>$J/order" -o /dev/null "echo job >>$J/order")
wait_for statuses_are "$qp" "64 192"
expect_eq "pre- and post-exec of queue and job, in order" \
    "queue-pre job-pre job job-post queue-post" "$(tr '\n' ' ' <order |
    sed 's/ $//')"

# A post-exec that is running while its sbatchd restarts.
slow=$(submit -m hostb -Ep "while [ ! -f $J/release ]; do sleep 0.1; done" \
    -o /dev/null true)
wait_for job_is "$slow" DONE
kill -9 "$PID_sbatchd_hostb"
wait "$PID_sbatchd_hostb" 2>/dev/null
start_daemon sbatchd hostb
wait_for all_hosts_ok
touch release
wait_for statuses_are "$slow" "64 192"
expect_eq "its outcome survives the restart of sbatchd" "64 192" \
    "$(statuses "$slow")"
slow_dir() {
	ls "$T_DIR/work/c1/sbd/hostb/jobs" | grep "^$slow\\."
}
slow_gone() {
	[ -z "$(slow_dir)" ]
}
wait_for slow_gone
expect_eq "and its directory goes once it is known" "" "$(slow_dir)"

# The minute is up.
WAIT_SECS=120 wait_for job_is "$run" EXIT
check "a job over its run limit ends EXIT" job_is "$run" EXIT
expect_eq "... with TERM_RUNLIMIT" \
    "TERM_RUNLIMIT: job killed after reaching LSF run time limit" \
    "$(reason "$run")"
expect_match "bjobs -l says so" \
    ': Completed <exit>; TERM_RUNLIMIT: job killed after reaching LSF run time limit\.$' \
    "$(bjobs -l "$run" | unwrap)"
expect_eq "SIGUSR2 ended it" 140 "$(bjobs -noheader -o exit_code "$run")"
check "its report says why" grep -q \
    '^TERM_RUNLIMIT: job killed after reaching LSF run time limit.$' "run.$run"
WAIT_SECS=120 wait_for job_is "$cpu" EXIT
expect_eq "a job over its CPU limit: TERM_CPULIMIT" \
    "TERM_CPULIMIT: job killed after reaching LSF CPU usage limit" \
    "$(reason "$cpu")"
expect_eq "SIGXCPU ended it" 152 "$(bjobs -noheader -o exit_code "$cpu")"
WAIT_SECS=120 wait_for job_is "$dl" EXIT
expect_eq "a running job at its deadline: TERM_DEADLINE" \
    "TERM_DEADLINE: job killed after deadline" "$(reason "$dl")"
wait_for job_is "$held" EXIT
expect_eq "a pending job at its deadline is removed: TERM_DEADLINE" \
    "TERM_DEADLINE: job killed after deadline" "$(reason "$held")"
expect_eq "... without having run" "-" \
    "$(bjobs -noheader -o start_time "$held")"

# Everything is in lsb.events: a new mbatchd knows the same.
before=$(bjobs -a -noheader -o 'jobid stat exit_reason' \
    "$run" "$cpu" "$dl" "$held" "$mem" "$never")
kill -9 "$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)"
wait_for sh -c "pgrep -P $PID_sbatchd_hosta -x mbatchd >/dev/null &&
    bjobs -a $run"
expect_eq "exit reasons survive a restart of mbatchd" "$before" \
    "$(bjobs -a -noheader -o 'jobid stat exit_reason' \
    "$run" "$cpu" "$dl" "$held" "$mem" "$never")"
expect_eq "no post-exec record was written again" "64 320" \
    "$(statuses "$pe")"
# The post-exec outcomes, replayed, are what dependencies see.
pdone=$(submit -w "post_done($qp)" -o /dev/null true)
perr=$(submit -w "post_err($pe)" -o /dev/null true)
wrong=$(submit -w "post_err($qp)" -o /dev/null true)
wait_for job_is "$pdone" DONE
wait_for job_is "$perr" DONE
check "post_done() of a job whose post-exec succeeded holds" \
    job_is "$pdone" DONE
check "post_err() of a job whose post-exec failed holds" job_is "$perr" DONE
check "post_err() of a job whose post-exec succeeded does not" \
    job_is "$wrong" PEND

finish
