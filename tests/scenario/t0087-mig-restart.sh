#!/bin/bash
# MIG counts from the JOB_STATUS record that made the job SSUSP: a
# restarted mbatchd, replaying lsb.events, has the same time for it (in
# badmin statedump), does not migrate it early, and migrates it once the
# threshold allows (here: badmin reconfig lowers the queue's MIG to 0).
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = slow
PRIORITY = 40
MIG = 60
End Queue
EOF
sed -i 's/^default    2$/default    4/' "$LSB_CONF/lsb.hosts"
cluster_start
cd "$T_DIR/jobs"
ev="$T_DIR/work/c1/logdir/lsb.events"

job_line() {
	badmin statedump | grep "^job $1\\[0\\] "
}
mig_records() {
	grep -c "^\"MIG\" \"[^\"]*\" [0-9]* $1 " "$ev"
}
nreg() {
	grep -c 'sbatchd registered' "$T_DIR/log/mbatchd.log.hosta"
}
# kill -9 mbatchd; wait for the new one and both sbatchds' registration.
restart_and_wait() {
	local n
	n=$(nreg)
	mbd_restart
	wait_for sh -c "[ \$(grep -c 'sbatchd registered' \
	    $T_DIR/log/mbatchd.log.hosta) -ge $((n + 2)) ]" ||
	    fail "the sbatchds did not register again"
}

x=$(submit -q slow -r -m "hostb+1 hosta" -J x -o /dev/null \
    'env >env.tmp.x.$LSB_HOSTS; mv env.tmp.x.$LSB_HOSTS env.x.$LSB_HOSTS
    sleep 600')
wait_for test -s env.x.hostb
expect_eq "the job runs on hostb" hostb "$(exec_host "$x")"
LSF_LOCAL_HOST=hostb lsadmin limlock >/dev/null 2>&1
check "locked hostb suspends it" wait_for job_is "$x" SSUSP

# The time it became SSUSP: its JOB_STATUS record's (status 8).
t=$(awk -v j="$x" '$1 == "\"JOB_STATUS\"" && $4 == j && $5 == 8 \
    { print $3 }' "$ev" | tail -n 1)
check "lsb.events has the record that suspended it" test -n "$t"
before=$(job_line "$x")
expect_match "statedump shows when it became SSUSP" \
    " status=0x8 .* ssusp_since=$t( |\$)" "$before"

restart_and_wait
after=$(job_line "$x")
expect_eq "the same after a restart of mbatchd" "$before" "$after"
expect_eq "still SSUSP" SSUSP "$(job_stat "$x")"
expect_eq "not migrated (MIG 60)" 0 "$(mig_records "$x")"

# MIG 0 from now: the suspended job migrates to hosta.
sed -i 's/^MIG = 60$/MIG = 0/' "$LSB_CONF/lsb.queues"
badmin reconfig -f >/dev/null 2>&1
check "reconfig to MIG=0 migrates it, it runs again" \
    wait_for grep -qx 'LSB_RESTART=Y' env.x.hosta
wait_for job_is "$x" RUN
expect_eq "on hosta" hosta "$(exec_host "$x")"
expect_eq "one MIG record" 1 "$(mig_records "$x")"
expect_match "its second run" " status=0x4 .* run_count=2 " "$(job_line "$x")"

# Replay of the migration: the same state after another restart, once
# the host has reported the new run's start (JOB_EXECUTE).
executed() {
	job_line "$x" | grep -q " run_count=2 .* executed=1 "
}
wait_for executed
before=$(badmin statedump)
restart_and_wait
after=$(badmin statedump)
if [ "$before" = "$after" ]; then
	pass "the migrated job's state survives a restart"
else
	fail "the migrated job's state survives a restart"
	diff <(echo "$before") <(echo "$after") | head -n 20 | sed 's/^/#   /'
fi
expect_eq "and it is not migrated again" 1 "$(mig_records "$x")"

LSF_LOCAL_HOST=hostb lsadmin limunlock >/dev/null 2>&1
bkill 0 >/dev/null 2>&1
finish
