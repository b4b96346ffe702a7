#!/bin/bash
# Job exceptions of a queue (JOB_OVERRUN 1, JOB_UNDERRUN 1, JOB_IDLE
# 0.5, DETECT_IDLE_JOB_AFTER 0).  A job that exits within a minute is an
# underrun, one that ends DONE is not; a job that sleeps is idle at once
# and an overrun after a minute; bjobs -l shows each in EXCEPTION
# STATUS.  Without eadmin the administrator is mailed; with one, it
# runs with the exception in its environment.
. "$(dirname "$0")/lib.sh"

cluster_init 1
mail_capture
serverdir_init
sed -i 's/^End Parameters/DETECT_IDLE_JOB_AFTER = 0\nEnd Parameters/' \
    "$LSB_CONF/lsb.params"
queues "normal 30" \
    "exc 40 JOB_OVERRUN = 1; JOB_UNDERRUN = 1; JOB_IDLE = 0.5"
cluster_start
cd "$T_DIR/jobs"

exc_of() { bjobs -l "$1" | sed -n 's/^ EXCEPTION STATUS: *//p'; }
has_exc() { exc_of "$1" | grep -qw "$2"; }

s=$(submit -q exc -o /dev/null 'sleep 90')
u=$(submit -q exc -o /dev/null 'exit 2')
d=$(submit -q exc -o /dev/null 'true')
wait_for job_is "$u" EXIT || fail "underrun job did not exit"
wait_for job_is "$d" DONE || fail "done job did not end"
expect_eq "an early exit is an underrun" underrun "$(exc_of "$u")"
expect_eq "an early DONE is not" "" "$(exc_of "$d")"
wait_for sh -c "grep -qs 'Job <$u> .*underrun' $MAILDIR/*.msg" ||
    fail "no mail of the underrun"

wait_for has_exc "$s" idle || fail "sleeping job never idle"
expect_eq "sleeping job: idle, not yet overrun" idle "$(exc_of "$s")"

# The site's eadmin instead of the mail.
cat >"$T_DIR/serverdir/eadmin" <<EOF
#!/bin/sh
echo "\$LSB_EXCEPTION \$LSB_EXCEPTION_JOBID \$LSB_EXCEPTION_QUEUE" \
    >>"$T_DIR/eadmin.out"
EOF
chmod 755 "$T_DIR/serverdir/eadmin"
u2=$(submit -q exc -o /dev/null 'exit 3')
wait_for lines_ge "$T_DIR/eadmin.out" 1 || fail "eadmin did not run"
expect_eq "eadmin gets the underrun" "underrun $u2 exc" \
    "$(head -1 "$T_DIR/eadmin.out")"

# A minute of run time: overrun too (through eadmin).
WAIT_SECS=90 wait_for has_exc "$s" overrun || fail "no overrun"
expect_eq "both shown" "overrun idle" "$(exc_of "$s" | tr -s ' ')"
wait_for lines_ge "$T_DIR/eadmin.out" 2 || fail "eadmin not run again"
expect_match "eadmin got the overrun" "^overrun $s exc$" \
    "$(cat "$T_DIR/eadmin.out")"
bkill "$s" >/dev/null
finish
