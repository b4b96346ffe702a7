#!/bin/bash
# The pre- and post-execution keys of lsb.queues and lsb.applications:
# HOST_PRE_EXEC and HOST_POST_EXEC run as root, before and after the
# others; the queue's and the profile's PRE_EXEC and POST_EXEC as their
# PRE_POST_EXEC_USER; -E in place of the profile's PRE_EXEC.  A failing
# HOST_PRE_EXEC sends the job back to PEND, its HOST_POST_EXEC still
# cleans up; LOCAL_MAX_PREEXEC_RETRY failures hold the job PSUSP (or end
# it EXIT with LOCAL_MAX_PREEXEC_RETRY_ACTION = EXIT, with the pre-exec's
# exit code).  JOB_WARNING_ACTION goes JOB_ACTION_WARNING_TIME before the
# run limit: a minute, so those jobs start first and the rest runs
# meanwhile.
. "$(dirname "$0")/lib.sh"

cluster_init 2
J="$T_DIR/jobs"
REC="$T_DIR/bin/rec"
# rec TAG: one line "TAG user jobid" in $J/order.
cat >"$REC" <<EOF
#!/bin/sh
echo "\$1 \$(id -un) \$LSB_JOBID" >>$J/order
EOF
chmod 755 "$REC"
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = hq
PRIORITY = 20
HOST_PRE_EXEC = $REC hpre
HOST_POST_EXEC = $REC hpost
PRE_EXEC = $REC qpre
POST_EXEC = $REC qpost
PRE_POST_EXEC_USER = bin
End Queue

Begin Queue
QUEUE_NAME = hfail
PRIORITY = 20
HOST_PRE_EXEC = test -f $J/go
HOST_POST_EXEC = $REC clean
LOCAL_MAX_PREEXEC_RETRY = 2
End Queue

Begin Queue
QUEUE_NAME = hexit
PRIORITY = 20
HOST_PRE_EXEC = exit 7
LOCAL_MAX_PREEXEC_RETRY = 5
LOCAL_MAX_PREEXEC_RETRY_ACTION = EXIT
End Queue

Begin Queue
QUEUE_NAME = warn
PRIORITY = 20
RUNLIMIT = 2
JOB_WARNING_ACTION = USR1
JOB_ACTION_WARNING_TIME = 1
End Queue

Begin Queue
QUEUE_NAME = wck
PRIORITY = 20
RUNLIMIT = 2
JOB_WARNING_ACTION = CHKPNT
JOB_ACTION_WARNING_TIME = 0:1
End Queue
EOF
serverdir_init
cp "$TOP/etc/serverdir/echkpnt.sample" "$TOP/etc/serverdir/erestart.sample" \
    "$T_DIR/serverdir/"
mkdir -p "$T_DIR/chk"
chmod 1777 "$T_DIR/chk"
cat >"$LSB_CONF/lsb.applications" <<EOF
Begin Application
NAME = ap
HOST_PRE_EXEC = $REC ahpre
HOST_POST_EXEC = $REC ahpost
PRE_EXEC = $REC apre
POST_EXEC = $REC apost
PRE_POST_EXEC_USER = sys
End Application

Begin Application
NAME = once
LOCAL_MAX_PREEXEC_RETRY = 1
End Application

Begin Application
NAME = wapp
JOB_WARNING_ACTION = USR2
End Application
EOF
host_mxj 10
cluster_start
cd "$J"
: >order
chmod 666 order

dsub() {
	as_user daemon bsub "$@" | sed -n 's/^Job <\([0-9]*\)> is submitted.*/\1/p'
}
# A job that notes when it starts and which warning signal came when.
cat >"$J/warned" <<'EOF'
#!/bin/sh
f=$1
date +%s >"$f.start"
trap 'echo "USR1 $(date +%s)" >"$f.sig"; exit 0' USR1
trap 'echo "USR2 $(date +%s)" >"$f.sig"; exit 0' USR2
while :; do sleep 1; done
EOF
chmod 755 "$J/warned"

# The minute-long ones first.
w1=$(dsub -q warn -o /dev/null "$J/warned $J/w1")
w2=$(dsub -q warn -app wapp -o /dev/null "$J/warned $J/w2")
cp "$TOP/tests/scenario/chkpnt-counter.sh" "$J/counter.sh"
chmod 755 "$J/counter.sh"
ck=$(dsub -q wck -k "$T_DIR/chk method=sample" -o /dev/null "$J/counter.sh c")
# bsub -wa over the queue's action; -wa and -wt where the queue has none.
w3=$(dsub -q wck -wa USR2 -o /dev/null "$J/warned $J/w3")
w4=$(dsub -W 2 -wa USR1 -wt 1 -o /dev/null "$J/warned $J/w4")
out=$(as_user daemon bsub -wa NOSUCH -o /dev/null true 2>&1)
expect_eq "a bad -wa is refused" \
    "NOSUCH: Bad job warning action: a signal name or CHKPNT. Job not submitted." \
    "$out"
out=$(as_user daemon bsub -wa USR1 -wt x -o /dev/null true 2>&1)
expect_eq "a bad -wt is refused" \
    "x: Bad job action warning time: [hour:]minute. Job not submitted." \
    "$out"

# Order and users.
a=$(dsub -q hq -app ap -o /dev/null "$REC job")
wait_for job_is "$a" DONE
wait_for lines_ge order 9
expect_eq "host pre-exec as root, queue's as PRE_POST_EXEC_USER, profile's as its own; then the other way round" \
    "hpre root $a|ahpre root $a|qpre bin $a|apre sys $a|job daemon $a|apost sys $a|qpost bin $a|ahpost root $a|hpost root $a" \
    "$(grep " $a\$" order | tr '\n' '|' | sed 's/|$//')"
e=$(dsub -q hq -app ap -E "$REC jpre" -Ep "$REC jpost" -o /dev/null "$REC job")
wait_for job_is "$e" DONE
wait_for lines_ge order 18
expect_eq "-E and -Ep take the place of the profile's, as the job's user" \
    "hpre root $e|ahpre root $e|qpre bin $e|jpre daemon $e|job daemon $e|jpost daemon $e|qpost bin $e|ahpost root $e|hpost root $e" \
    "$(grep " $e\$" order | tr '\n' '|' | sed 's/|$//')"

# A failing HOST_PRE_EXEC: PEND again, cleaned up, and after
# LOCAL_MAX_PREEXEC_RETRY tries held PSUSP.
f=$(dsub -q hfail -o /dev/null "$REC ran")
wait_for job_is "$f" PSUSP
check "LOCAL_MAX_PREEXEC_RETRY failed host pre-execs hold the job PSUSP" \
    job_is "$f" PSUSP
expect_eq "... tried twice, HOST_POST_EXEC cleaning up after each" "2" \
    "$(grep -c "^clean root $f\$" order)"
expect_eq "... the job itself never ran" "0" "$(grep -c "^ran .* $f\$" order)"
expect_match "... bjobs -l says why" \
    'pre-executioncommandfailedthemaximumnumberoftimes' \
    "$(bjobs -l "$f" | tr -d ' \n')"
# (bhist -l wraps anywhere: compared without its blanks; its history
# may be a moment behind.)
bhist_held() {
	bhist -l "$f" | tr -d ' \n' | grep -q 'pre-executioncommandfailed'
}
wait_for bhist_held
expect_match "... and so does bhist -l" \
    'Thejobwassuspended:itspre-executioncommandfailedthemaximumnumberoftimes;' \
    "$(bhist -l "$f" | tr -d ' \n')"
touch go
bresume "$f" >/dev/null
wait_for job_is "$f" DONE
check "bresume gives it its tries again: it runs once the host pre-exec succeeds" \
    job_is "$f" DONE

# LOCAL_MAX_PREEXEC_RETRY_ACTION = EXIT, the profile's limit over the
# queue's: one try, and the job exits with the pre-exec's exit code.
x=$(dsub -q hexit -app once -o /dev/null true)
wait_for job_is "$x" EXIT
check "LOCAL_MAX_PREEXEC_RETRY_ACTION = EXIT ends the job" job_is "$x" EXIT
expect_eq "... after the profile's single try: no PEND between" "32" \
    "$(awk -v j="$x" '$1 == "\"JOB_STATUS\"" && $4 == j { print $5 }' \
    "$T_DIR"/work/c1/logdir/lsb.events | tr '\n' ' ' | sed 's/ $//')"
check "... with the pre-exec's exit code" eval \
    "bjobs -l $x | grep -q 'Exited with exit code 7'"

# The warning action, a minute before the two-minute run limit.
WAIT_SECS=90 wait_for test -f "$J/w1.sig"
WAIT_SECS=30 wait_for test -f "$J/w2.sig"
read -r s1 t1 <"$J/w1.sig"
read -r s2 t2 <"$J/w2.sig"
d1=$((t1 - $(cat "$J/w1.start")))
d2=$((t2 - $(cat "$J/w2.start")))
expect_eq "JOB_WARNING_ACTION's signal goes to the job" USR1 "$s1"
check "... JOB_ACTION_WARNING_TIME before the run limit (after $d1 s)" \
    test "$d1" -ge 55 -a "$d1" -le 66
expect_eq "a profile's JOB_WARNING_ACTION takes the queue's place" USR2 "$s2"
check "... with the queue's time (after $d2 s)" \
    test "$d2" -ge 55 -a "$d2" -le 66
wait_for job_is "$w1" DONE
check "the job that caught the warning ended by itself, DONE" job_is "$w1" DONE
wait_for test -f "$J/w4.sig"
for w in w3 w4; do
	read -r sig t <"$J/$w.sig"
	d=$((t - $(cat "$J/$w.start")))
	case $w in w3) want=USR2 ;; *) want=USR1 ;; esac
	expect_eq "bsub -wa ($w): its signal" "$want" "$sig"
	check "... the warning time before the run limit (after $d s)" \
	    test "$d" -ge 55 -a "$d" -le 66
done
ck_records() {
	grep -c "^\"CHKPNT\" \"[^\"]*\" [0-9]* $ck " \
	    "$T_DIR"/work/c1/logdir/lsb.events
}
ck_done() { [ "$(ck_records)" -ge 1 ]; }
wait_for ck_done
expect_eq "JOB_WARNING_ACTION = CHKPNT checkpoints the job once" 1 \
    "$(ck_records)"
check "... and it goes on running" job_is "$ck" RUN

bkill 0 >/dev/null 2>&1
finish
