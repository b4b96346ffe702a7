#!/bin/bash
# The output spool, the job's mail and bpeek: a job without -o has its
# output mailed with its report; -o keeps it in the file (-N mails the
# report anyway); -B mails at the start; -u and LSB_MAILTO choose the
# recipient; a run that is requeued sends nothing; bpeek shows a running
# job's output, -f follows it to the job's end.  LSB_MAILPROG is a script
# that records each mail it is given.
. "$(dirname "$0")/lib.sh"

cluster_init 2
MAILDIR="$T_DIR/mail"
mkdir -p "$MAILDIR"
chmod 1777 "$MAILDIR"
cat >"$T_DIR/mailprog" <<EOF
#!/bin/sh
# One mail: its arguments, one a line, and its message.  The message
# appears under its final name only once whole.
n=\$(date +%s%N).\$\$
printf '%s\n' "\$@" >"$MAILDIR/.\$n.args"
cat >"$MAILDIR/.\$n.msg"
mv "$MAILDIR/.\$n.args" "$MAILDIR/\$n.args"
mv "$MAILDIR/.\$n.msg" "$MAILDIR/\$n.msg"
# A mail program that fails must not matter to the job.
grep -q '<failmail>' "$MAILDIR/\$n.msg" && exit 1
exit 0
EOF
chmod 755 "$T_DIR/mailprog"
echo "LSB_MAILPROG=$T_DIR/mailprog" >>"$LSF_CONF/lsf.conf"
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = retry
PRIORITY = 20
REQUEUE_EXIT_VALUES = 3
DESCRIPTION = Exit 3 sends the job back.
End Queue
EOF
cluster_start
cd "$T_DIR/jobs"
me=$(id -un)

# The mails about job $1 (the .msg files), and how many.
mails_of() {
	grep -l "^Subject: Job $1: " "$MAILDIR"/*.msg 2>/dev/null
}
nmails() {
	mails_of "$1" | wc -l
}
has_mail() {
	[ "$(nmails "$1")" -ge "${2:-1}" ]
}
args_of() {
	cat "${1%.msg}.args"
}
# A job's directory on its execution host, while it has one.
job_dirs() {
	ls -d "$T_DIR"/work/c1/sbd/*/jobs/"$1".0.* 2>/dev/null
}
no_job_dir() {
	[ -z "$(job_dirs "$1")" ]
}

# No -o: the report and the output, mailed to the submitter.
id=$(submit -J plain "echo out-line; echo err-line >&2")
wait_for job_is "$id" DONE
wait_for has_mail "$id"
expect_eq "one mail for a job without -o" 1 "$(nmails "$id")"
m=$(mails_of "$id")
msg=$(cat "$m")
expect_eq "the mail program's arguments" \
    "$(printf -- '-oi\n-F\nLSF System\n%s' "$me")" "$(args_of "$m")"
expect_match "To: the submitter" "^To: $me\$" "$msg"
expect_match "From: LSF" "^From: LSF System <root@host[ab]>\$" "$msg"
expect_match "subject" "^Subject: Job $id: <plain> in cluster <c1> Done\$" "$msg"
expect_match "the report" "^Job <plain> was submitted from host" "$msg"
expect_match "the job's fate" "^Successfully completed\.\$" "$msg"
expect_eq "the output follows the report" "out-line
err-line" "$(sed -n '/^The output (if any) follows:$/,$p' "$m" | sed '1,2d')"
expect_eq "headers first" "From: " "$(head -c 6 "$m")"
wait_for no_job_dir "$id"
check "the spool goes with the job's directory" no_job_dir "$id"

# -o alone: the report is in the file, and nothing is mailed.
id=$(submit -o o.%J echo to-file)
wait_for job_is "$id" DONE
expect_eq "-o: no mail" 0 "$(nmails "$id")"
expect_eq "-o: the output in the file" "to-file" "$(head -n 1 "o.$id")"
expect_match "-o: the report in the file" "^Subject: Job $id: " "$(cat "o.$id")"

# -o and -N: the report is mailed too, without the output.
id=$(submit -N -o n.%J "exit 4")
wait_for job_is "$id" EXIT
wait_for has_mail "$id"
msg=$(cat "$(mails_of "$id")")
expect_match "-N: Exited in the subject" "^Subject: Job $id: <exit 4> in cluster <c1> Exited\$" "$msg"
expect_match "-N: the exit code" "^Exited with exit code 4\.\$" "$msg"
expect_match "-N: where the output is" \
    "^Read file <n\.$id> for stdout and stderr output of this job\.\$" "$msg"
check "-N: the output is not in the mail" sh -c \
    "! grep -q '^The output (if any) follows:' $(mails_of "$id")"

# -B: a mail when the job starts (and, with -o, none at its end).
id=$(submit -B -o b.%J -J started sleep 1)
wait_for job_is "$id" DONE
wait_for has_mail "$id"
expect_eq "-B with -o: one mail" 1 "$(nmails "$id")"
msg=$(cat "$(mails_of "$id")")
expect_match "-B: the dispatch mail" \
    "^Subject: Job $id: <started> in cluster <c1> Dispatched\$" "$msg"
expect_match "-B: where it runs" "^Job was executed on host\(s\) <host[ab]>" "$msg"

# -u: another recipient.
id=$(submit -u other@example.com -J foryou echo hi)
wait_for job_is "$id" DONE
wait_for has_mail "$id"
m=$(mails_of "$id")
expect_eq "-u: the recipient" other@example.com "$(args_of "$m" | tail -n 1)"
expect_match "-u: To:" '^To: other@example\.com$' "$(cat "$m")"

# -e alone: standard output is mailed, standard error stays in its file.
id=$(submit -e e.%J -J errfile "echo to-mail; echo to-file >&2")
wait_for job_is "$id" DONE
wait_for has_mail "$id"
m=$(mails_of "$id")
expect_eq "-e: the mail has stdout, then names the error file" "to-mail


PS:

Read file <e.$id> for stderr output of this job." \
    "$(sed -n '/^The output (if any) follows:$/,$p' "$m" | sed '1,2d')"
expect_eq "-e: stderr in its file" to-file "$(cat "e.$id")"

# A mail program that fails loses the mail, not the job.
id=$(submit -J failmail echo x)
wait_for job_is "$id" DONE
check "a failing mail program leaves the job DONE" job_is "$id" DONE
wait_for grep -q "job $id: .*failed" "$T_DIR"/log/sbatchd.log.*
check "and is logged" grep -q "job $id: .*failed" "$T_DIR"/log/sbatchd.log.*

# REQUEUE_EXIT_VALUES: the run that exits 3 goes back to the queue and
# sends nothing; the run that ends sends the one mail.
id=$(submit -q retry -J again "if [ -e again.\$LSB_JOBID ]; then echo second-run;
else touch again.\$LSB_JOBID; echo first-run; exit 3; fi")
wait_for job_is "$id" DONE
wait_for has_mail "$id"
expect_eq "a requeued run sends no mail" 1 "$(nmails "$id")"
m=$(mails_of "$id")
check "the mail is the last run's" grep -q '^second-run$' "$m"
check "without the requeued run's output" sh -c "! grep -qx first-run $m"

# brequeue: the killed run sends nothing either.
id=$(submit -J requeued "echo run; sleep 60")
wait_for job_is "$id" RUN
brequeue "$id" >/dev/null
# Its second run has started: the first one's end is long reported.
wait_for sh -c "ls -d $T_DIR/work/c1/sbd/*/jobs/$id.0.2"
expect_eq "brequeue: no mail for the killed run" 0 "$(nmails "$id")"
bkill "$id" >/dev/null
wait_for job_is "$id" EXIT
wait_for has_mail "$id"
expect_eq "brequeue: one mail at the end" 1 "$(nmails "$id")"
expect_match "... Exited" "^Subject: Job $id: <requeued> in cluster <c1> Exited\$" \
    "$(cat "$(mails_of "$id")")"

# bpeek: the output so far of a running job.
peek_has() {
	bpeek "$@" 2>/dev/null | grep -q "^$PEEK_LINE\$"
}
id=$(submit -J peeked "echo peek-1; sleep 60")
wait_for job_is "$id" RUN
PEEK_LINE=peek-1 wait_for peek_has "$id"
out=$(bpeek "$id")
expect_eq "bpeek shows the output so far" "<< output from stdout >>
peek-1" "$out"
expect_eq "bpeek -J" "$out" "$(bpeek -J peeked)"
expect_eq "bpeek without a job: my most recent running one" "$out" "$(bpeek)"
spool=$(job_dirs "$id")/output
expect_eq "the spool is the user's, private" "$me 600" \
    "$(stat -c '%U %a' "$spool")"
bkill "$id" >/dev/null
wait_for job_is "$id" EXIT

# With -o, bpeek shows the -o file (a relative one: in the job's cwd).
id=$(submit -o pk.%J -J peekfile "echo in-file; sleep 60")
wait_for job_is "$id" RUN
PEEK_LINE=in-file wait_for peek_has "$id"
expect_eq "bpeek of a job with -o" "<< output from stdout >>
in-file" "$(bpeek "$id")"
bkill "$id" >/dev/null

# With -o /dev/null there is nothing to show, which is not a refusal
# (it answered its owner "User permission denied").
id=$(submit -o /dev/null -J peeknull "echo gone; sleep 60")
wait_for job_is "$id" RUN
out=$(bpeek "$id" 2>&1)
expect_eq "bpeek of a job with -o /dev/null shows nothing, no error" \
    "<< output from stdout >>" "$out"
bkill "$id" >/dev/null

# bpeek -f follows until the job ends.
id=$(submit -J follow "echo f-1; sleep 3; echo f-2")
wait_for job_is "$id" RUN
PEEK_LINE=f-1 wait_for peek_has "$id"
out=$(timeout 30 bpeek -f "$id")
rc=$?
expect_eq "bpeek -f ends with the job" 0 "$rc"
expect_eq "bpeek -f shows all of it" "<< output from stdout >>
f-1
f-2" "$out"

# Errors, in LSF's words.
id=$(submit -H echo held)
err=$(bpeek "$id" 2>&1)
rc=$?
expect_eq "bpeek of a pending job" "Job <$id> : Not yet started." "$err"
expect_eq "... exits 255" 255 "$rc"
bkill "$id" >/dev/null
id=$(submit -o /dev/null true)
wait_for job_is "$id" DONE
expect_eq "bpeek of a finished job" "Job <$id> : Already finished." \
    "$(bpeek "$id" 2>&1)"
expect_eq "bpeek of no such job" "Job <999999>: No matching job found" \
    "$(bpeek 999999 2>&1)"

# Another user.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	as_nobody() {
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	}
	mine=$(submit -J rootjob "echo secret; sleep 60")
	theirs=$(as_nobody bsub -J nobodyjob 'echo theirs; sleep 60' |
	    sed -n 's/Job <\([0-9]*\)>.*/\1/p')
	wait_for job_is "$mine" RUN
	wait_for job_is "$theirs" RUN
	expect_eq "bpeek of another user's job" \
	    "Job <$mine>: User permission denied" "$(as_nobody bpeek "$mine" 2>&1)"
	PEEK_LINE=theirs wait_for peek_has "$theirs"
	expect_eq "a user peeks at their own job" "<< output from stdout >>
theirs" "$(as_nobody bpeek "$theirs")"
	expect_eq "their spool is theirs" "nobody 600" \
	    "$(stat -c '%U %a' "$(job_dirs "$theirs")/output")"
	bkill "$mine" "$theirs" >/dev/null
	wait_for job_is "$theirs" EXIT
	wait_for has_mail "$theirs"
	m=$(mails_of "$theirs")
	expect_eq "their mail goes to them" nobody "$(args_of "$m" | tail -n 1)"
	expect_eq "sent as them" nobody "$(stat -c %U "$m")"
else
	echo "# skipping the other-user checks: not root or no setpriv"
fi

# A host that does not answer: an error after a few seconds.  A command
# that leaves before its answer, and answers that come too late, are
# nothing to mbatchd.
id=$(submit -m hostb -J stuck "echo stuck; sleep 60")
wait_for job_is "$id" RUN
PEEK_LINE=stuck wait_for peek_has "$id"
kill -STOP "$PID_sbatchd_hostb"
timeout 1 bpeek "$id" >/dev/null 2>&1
expect_eq "a host that does not answer" \
    "Job <$id>: sbatchd on hostb did not answer" "$(bpeek "$id" 2>&1)"
kill -CONT "$PID_sbatchd_hostb"
PEEK_LINE=stuck check "mbatchd goes on" peek_has "$id"
bkill "$id" >/dev/null
wait_for job_is "$id" EXIT

# LSB_MAILTO=!U@domain: hostb's sbatchd restarts with it.
echo 'LSB_MAILTO=!U@example.com' >>"$LSF_CONF/lsf.conf"
kill "$PID_sbatchd_hostb"
wait "$PID_sbatchd_hostb" 2>/dev/null
start_daemon sbatchd hostb
wait_for all_hosts_ok
id=$(submit -m hostb -J domain echo x)
wait_for job_is "$id" DONE
wait_for has_mail "$id"
expect_eq "LSB_MAILTO=!U@example.com" "$me@example.com" \
    "$(args_of "$(mails_of "$id")" | tail -n 1)"

finish
