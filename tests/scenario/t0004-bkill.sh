#!/bin/bash
# bkill: pending and running jobs, signals, job 0, -r, -d, LSF's
# messages; and who may do what: users control their own jobs, cluster
# administrators (root, ClusterAdmins) any job.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cluster_start
cd "$T_DIR/jobs"

# Fill the four slots, then one more waits.
for i in 1 2 3 4; do submit -o /dev/null sleep 60 >/dev/null; done
run=$(submit -o run.%J sleep 60)
pend=$(submit -o /dev/null sleep 60)
wait_for job_is "$pend" PEND
check "the sixth job pends" job_is "$pend" PEND

out=$(bkill "$pend")
expect_eq "bkill of a pending job" "Job <$pend> is being terminated" "$out"
check "a killed pending job is EXIT at once" job_is "$pend" EXIT
expect_match "and was killed by its owner" '^TERM_OWNER: job killed by owner$' \
    "$(bjobs -noheader -o exit_reason "$pend")"

running=$(bjobs -noheader -r -o jobid | head -n 1)
out=$(bkill "$running")
expect_eq "bkill of a running job" "Job <$running> is being terminated" "$out"
wait_for job_is "$running" EXIT
check "a killed running job ends EXIT" job_is "$running" EXIT
expect_eq "killed by SIGINT: exit code 130" 130 \
    "$(bjobs -noheader -o exit_code "$running")"
check "bjobs -l says who killed it" sh -c \
    "bjobs -l $running | grep -q 'Completed <exit>; TERM_OWNER: job killed by owner.'"

err=$(bkill "$running" 2>&1)
rc=$?
expect_eq "bkill of a finished job" "Job <$running>: Job has already finished" "$err"
expect_eq "... exits 255" 255 "$rc"
err=$(bkill 424242 2>&1)
expect_eq "bkill of an unknown job" "Job <424242>: No matching job found" "$err"

# -m: a host name, a group, all or the cluster's name; anything else is
# refused before any job is touched.
other=$(bjobs -noheader -r -o "jobid exec_host" | head -n 1)
expect_match "bkill -m <cluster> -s CONT" "^Job <${other% *}> is being signaled\$" \
    "$(bkill -s CONT -m c1 "${other% *}")"
err=$(bkill -m nosuch 0 2>&1)
rc=$?
expect_eq "bkill -m of an unknown host says so" \
    "nosuch: Bad host name, host group name or cluster name" "$err"
expect_eq "... exits 255" 255 "$rc"
err=$(bstop -m nosuch 0 2>&1)
expect_eq "bstop -m of an unknown host says so" \
    "nosuch: Bad host name, host group name or cluster name" "$err"
expect_eq "and stopped nothing" "" "$(bjobs -noheader -s 2>/dev/null)"

# -s sends one signal; the job decides.  (bsub joins its arguments with
# blanks, as LSF does, so a shell snippet is one argument.)
bkill "$run" >/dev/null
wait_for job_is "$run" EXIT
sig=$(submit -o sig.%J 'trap "echo got-usr1; exit 0" USR1; while :; do sleep 0.1; done')
wait_for job_is "$sig" RUN
sleep 0.5
out=$(bkill -s USR1 "$sig")
expect_eq "bkill -s" "Job <$sig> is being signaled" "$out"
wait_for job_is "$sig" DONE
# The whole process group gets it: the shell prints the fate of its
# sleep, then runs its trap.
check "the job caught the signal" grep -q '^got-usr1$' "sig.$sig"

# Workflow tools pass the whole bsub line as one argument.
lenient=$(submit sleep 60)
out=$(bkill "Job <$lenient> is submitted to default queue <normal>.")
expect_eq "bkill takes 'Job <N> ...' as an ID" \
    "Job <$lenient> is being terminated" "$out"

# -d records DONE, -r removes without waiting.
d=$(bjobs -noheader -r -o jobid | head -n 1)
bkill -d "$d" >/dev/null
wait_for job_is "$d" DONE
check "bkill -d records DONE" job_is "$d" DONE
r=$(bjobs -noheader -r -o jobid | head -n 1)
bkill -r "$r" >/dev/null
check "bkill -r removes at once" job_is "$r" EXIT

# Users and administrators.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	as_nobody() {
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	}
	theirs=$(as_nobody bsub -o "$T_DIR/jobs/nobody.%J" 'id -u; sleep 60' |
	    sed 's/Job <\([0-9]*\)>.*/\1/')
	check "nobody can submit" test -n "$theirs"
	wait_for job_is "$theirs" RUN
	wait_for test -s "nobody.$theirs"
	expect_eq "the job runs as its submitter" "nobody" \
	    "$(bjobs -noheader -o user "$theirs")"
	mine=$(bjobs -noheader -o jobid -r | grep -vx "$theirs" | head -n 1)
	err=$(as_nobody bkill "$mine" 2>&1)
	expect_eq "a user cannot kill another's job" \
	    "Job <$mine>: User permission denied" "$err"
	check "... which keeps running" job_is "$mine" RUN
	expect_eq "bjobs shows a user only their own jobs" "$theirs" \
	    "$(as_nobody bjobs -noheader -o jobid)"
	check "bjobs -u all shows everyone's" test \
	    "$(as_nobody bjobs -u all -noheader -o jobid | wc -l)" -gt 1
	out=$(bkill "$theirs")
	expect_eq "an administrator kills any job" \
	    "Job <$theirs> is being terminated" "$out"
	wait_for job_is "$theirs" EXIT
	expect_eq "the job ran as nobody" 65534 "$(head -n 1 "nobody.$theirs")"
	expect_match "killed by an administrator" '^TERM_ADMIN' \
	    "$(bjobs -noheader -o exit_reason "$theirs")"
else
	echo "# skipping the user checks: not root or no setpriv"
fi

# bkill 0: all of my jobs.
out=$(bkill 0)
expect_match "bkill 0 terminates every job" "is being terminated" "$out"
wait_for sh -c "[ -z \"\$(bjobs -noheader 2>/dev/null)\" ]"
expect_eq "nothing is left" "" "$(bjobs -noheader 2>/dev/null)"
expect_eq "and bjobs says so" "No unfinished job found" "$(bjobs 2>&1)"

finish
