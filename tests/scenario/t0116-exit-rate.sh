#!/bin/bash
# Host exceptions.  hosta has EXIT_RATE 2 (lsb.hosts): two jobs exiting
# there leave it open, a third closes it as LSF's default eadmin does:
# closed_Adm, with the comment LSF attaches (bhosts -l, badmin hhist),
# and a mail to the administrator.  A job killed by bkill does not
# count.  hostb has only GLOBAL_EXIT_RATE 1 (lsb.params); with an
# LSF_SERVERDIR/eadmin, mbatchd runs it with the exception in its
# environment and leaves the host to it, once until the host is opened
# again.  The exits counted, and whether a host fired, survive an
# mbatchd restart: they are counted from the JOB_STATUS records.
. "$(dirname "$0")/lib.sh"

cluster_init 2
mail_capture
serverdir_init
cat >"$LSB_CONF/lsb.hosts" <<EOF
Begin Host
HOST_NAME  MXJ  EXIT_RATE
hosta      2    2
default    2    ()
End Host
EOF
sed -i 's/^End Parameters/GLOBAL_EXIT_RATE = 1\nEnd Parameters/' \
    "$LSB_CONF/lsb.params"
cluster_start
cd "$T_DIR/jobs"

fails() { submit -m "$1" -o /dev/null 'exit 3'; }
status_of() { bhosts "$1" | awk 'NR == 2 { print $2 }'; }

# A killed job is not the host's fault.
k=$(submit -m hosta -o /dev/null 'sleep 60')
wait_for job_is "$k" RUN || fail "sleeper did not start"
bkill "$k" >/dev/null
wait_for job_is "$k" EXIT || fail "sleeper not killed"
a1=$(fails hosta)
a2=$(fails hosta)
{ wait_for job_is "$a2" EXIT && wait_for job_is "$a1" EXIT; } ||
    fail "two jobs did not exit"
expect_eq "three exits, one killed: hosta open" ok "$(status_of hosta)"

a3=$(fails hosta)
wait_for job_is "$a3" EXIT || fail "third job did not exit"
wait_for sh -c "bhosts -l hosta | grep -q closed_Adm" ||
    fail "hosta not closed after 3 exits"
out=$(bhosts -l hosta)
expect_match "bhosts -l: closed_Adm" '^closed_Adm ' "$(echo "$out" | sed -n 3p)"
expect_eq "bhosts -l: why, under the status" \
    ' ADMIN ACTION COMMENT: "eadmin: JOB EXIT THRESHOLD EXCEEDED"' \
    "$(echo "$out" | sed -n 4p)"
expect_match "badmin hhist shows the close" \
    "Host <hosta> closed by administrator" "$(badmin hhist hosta 2>&1)"
wait_for sh -c "ls $MAILDIR/*.msg >/dev/null 2>&1" ||
    fail "no mail to the administrator"
expect_match "the mail names the host" "Host: hosta" \
    "$(cat "$MAILDIR"/*.msg 2>/dev/null)"
expect_eq "hostb still open" ok "$(status_of hostb)"
badmin hopen hosta >/dev/null
expect_eq "hopen opens it" ok "$(status_of hosta)"
expect_eq "no comment once open" "" \
    "$(bhosts -l hosta | grep 'ADMIN ACTION')"

# An eadmin of the site's own: it alone acts.
cat >"$T_DIR/serverdir/eadmin" <<EOF
#!/bin/sh
echo "\$LSB_EXCEPTION \$LSB_EXCEPTION_HOST \$LSB_EXCEPTION_EXITS" \
    >>"$T_DIR/eadmin.out"
EOF
chmod 755 "$T_DIR/serverdir/eadmin"
b1=$(fails hostb)
wait_for job_is "$b1" EXIT || fail "hostb job 1 did not exit"
b2=$(fails hostb)
wait_for lines_ge "$T_DIR/eadmin.out" 1 || fail "eadmin did not run"
expect_eq "eadmin gets the exception" "host_exit_rate hostb 2" \
    "$(head -1 "$T_DIR/eadmin.out")"
expect_eq "with eadmin, mbatchd does not close hostb" ok \
    "$(status_of hostb)"
# Fired once: more exits do nothing until the host is opened again.
b3=$(fails hostb)
b4=$(fails hostb)
{ wait_for job_is "$b4" EXIT && wait_for job_is "$b3" EXIT; } ||
    fail "hostb jobs 3-4 did not exit"
badmin hopen hostb >/dev/null
b5=$(fails hostb)
wait_for job_is "$b5" EXIT || fail "hostb job 5 did not exit"
b6=$(fails hostb)
wait_for lines_ge "$T_DIR/eadmin.out" 2 || fail "eadmin not run again"
wait_for job_is "$b6" EXIT || fail "hostb job 6 did not exit"
expect_eq "eadmin ran twice, not four times" 2 \
    "$(lines "$T_DIR/eadmin.out")"

# Counted across a restart: two exits on hosta before it, one after.
a4=$(fails hosta)
a5=$(fails hosta)
{ wait_for job_is "$a5" EXIT && wait_for job_is "$a4" EXIT; } ||
    fail "hosta jobs 4-5 did not exit"
mbd_restart
a6=$(fails hosta)
wait_for job_is "$a6" EXIT || fail "hosta job 6 did not exit"
wait_for lines_ge "$T_DIR/eadmin.out" 3 ||
    fail "two exits before a restart and one after did not fire"
expect_eq "the restarted mbatchd counted on" "host_exit_rate hosta 3" \
    "$(sed -n 3p "$T_DIR/eadmin.out")"
# hostb fired before the restart, and stays fired after it.
b7=$(fails hostb)
b8=$(fails hostb)
{ wait_for job_is "$b8" EXIT && wait_for job_is "$b7" EXIT; } ||
    fail "hostb jobs 7-8 did not exit"
expect_eq "a host that fired does not fire again after a restart" 3 \
    "$(lines "$T_DIR/eadmin.out")"
finish
