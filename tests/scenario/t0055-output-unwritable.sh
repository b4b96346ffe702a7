#!/bin/bash
# bsub -o name (no trailing slash) that the execution host cannot write:
# an existing directory, a path whose directory is missing, a directory
# the user may not write in.  As in LSF
# the job still runs, exits as its command does, and its output goes by
# mail with its report; no directory is made for a plain file name.  The
# same for -e: stderr goes by mail, the -o file keeps stdout and the
# report.  It used to make the job exit 127 with its output lost.
. "$(dirname "$0")/lib.sh"

cluster_init 2
MAILDIR="$T_DIR/mail"
mkdir -p "$MAILDIR"
chmod 1777 "$MAILDIR"
cat >"$T_DIR/mailprog" <<EOF
#!/bin/sh
n=\$(date +%s%N).\$\$
cat >"$MAILDIR/.\$n.msg"
mv "$MAILDIR/.\$n.msg" "$MAILDIR/\$n.msg"
EOF
chmod 755 "$T_DIR/mailprog"
echo "LSB_MAILPROG=$T_DIR/mailprog" >>"$LSF_CONF/lsf.conf"
cluster_start
cd "$T_DIR/jobs"

mails_of() {
	grep -l "^Subject: Job $1: " "$MAILDIR"/*.msg 2>/dev/null
}
has_mail() {
	[ -n "$(mails_of "$1")" ]
}
# What follows "The output (if any) follows:" and its blank line.
mailed_output() {
	sed -n '/^The output (if any) follows:$/,$p' "$(mails_of "$1")" |
	    sed '1,2d'
}

# -o naming an existing directory.
mkdir adir
a=$(submit -o adir 'echo out-a; echo err-a >&2')
check "-o <directory>: the job ends DONE" wait_for job_is "$a" DONE
expect_eq "-o <directory>: exit code 0, not 127" "-" \
    "$(bjobs -noheader -o exit_code "$a" 2>&1)"
check "-o <directory>: its output is mailed" wait_for has_mail "$a"
expect_eq "-o <directory>: the mail holds one report and the output" \
    "$(printf 'out-a\nerr-a\n\n\nPS:\n\nCannot write file <adir> for stdout output of this job: Is a directory.')" \
    "$(mailed_output "$a")"
expect_match "-o <directory>: the mail has the job's fate" \
    '^Successfully completed\.$' "$(cat "$(mails_of "$a")")"
expect_eq "-o <directory>: the directory is left empty" "" "$(ls adir)"

# -o in a directory that does not exist: not made, the output mailed.
b=$(submit -o nodir/out.txt 'echo out-b; exit 3')
check "-o <missing>/file: the job ends EXIT" wait_for job_is "$b" EXIT
expect_eq "-o <missing>/file: its own exit code" 3 \
    "$(bjobs -noheader -o exit_code "$b" 2>&1)"
check "-o <missing>/file: its output is mailed" wait_for has_mail "$b"
expect_eq "-o <missing>/file: the output in the mail" \
    "$(printf 'out-b\n\n\nPS:\n\nCannot write file <nodir/out.txt> for stdout output of this job: No such file or directory.')" \
    "$(mailed_output "$b")"
expect_match "-o <missing>/file: subject says Exited" \
    "^Subject: Job $b: <.*> in cluster <c1> Exited\$" \
    "$(cat "$(mails_of "$b")")"
check "-o <missing>/file: no directory is made" test ! -e nodir

# -e naming a directory: stdout and the report in the -o file, stderr
# mailed.
c=$(submit -o c.out -e adir 'echo out-c; echo err-c >&2')
check "-e <directory>: the job ends DONE" wait_for job_is "$c" DONE
check "-e <directory>: stderr is mailed" wait_for has_mail "$c"
expect_eq "-e <directory>: the mail holds stderr" \
    "$(printf 'err-c\n\n\nPS:\n\nRead file <c.out> for stdout output of this job.\nCannot write file <adir> for stderr output of this job: Is a directory.')" \
    "$(mailed_output "$c")"
expect_eq "-e <directory>: stdout in the -o file" out-c "$(head -n 1 c.out)"
expect_match "-e <directory>: the report in the -o file" \
    '^Successfully completed\.$' "$(cat c.out)"
expect_eq "-e <directory>: no PS trailer pointing at it" 0 \
    "$(grep -c '^PS:' c.out)"

# No permission: a directory of root's, for a job of nobody's.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	mkdir -m 755 rootonly
	e=$(as_nobody bsub -o "$PWD/rootonly/out" 'echo out-e' |
	    sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
	check "-o without permission: the job ends DONE" wait_for job_is "$e" DONE
	check "-o without permission: its output is mailed" wait_for has_mail "$e"
	expect_eq "-o without permission: the output and why" \
	    "$(printf 'out-e\n\n\nPS:\n\nCannot write file <%s/rootonly/out> for stdout output of this job: Permission denied.' "$PWD")" \
	    "$(mailed_output "$e")"
	expect_eq "-o without permission: nothing written there" "" \
	    "$(ls rootonly)"
fi

# A writable -o: no mail, as before.
d=$(submit -o d.out 'echo out-d')
check "-o file: DONE" wait_for job_is "$d" DONE
expect_eq "-o file: the output in it" out-d "$(head -n 1 d.out)"
expect_eq "-o file: no mail" "" "$(mails_of "$d")"
# bpeek of a running job whose -o it could not write: from the spool.
mkdir pdir
p=$(submit -o pdir 'echo peek-me; sleep 300')
check "-o <directory>: the job runs" wait_for job_is "$p" RUN
peeked() {
	bpeek "$p" 2>/dev/null | grep -qx peek-me
}
check "bpeek shows what went to the spool" wait_for peeked
bkill "$p" >/dev/null 2>&1
finish
