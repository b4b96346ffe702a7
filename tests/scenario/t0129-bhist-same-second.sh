#!/bin/bash
# A job stopped, resumed and stopped again within one second: its two
# USUSP records in lsb.events are the same bytes, and bhist -l shows
# both suspensions (history keeps identical records as many times as
# they occur), also after lsb.events is switched with the job alive (its
# records copied forward are not new), after an mbatchd restart, and
# after the database is removed and rebuilt from the logs.
. "$(dirname "$0")/lib.sh"

cluster_init 1
sed -i 's/^End Parameters/MAX_JOB_NUM = 3\n&/' "$LSB_CONF/lsb.params"
cluster_start
cd "$T_DIR/jobs"
LOGDIR="$T_DIR/work/c1/logdir"
EV="$LOGDIR/lsb.events"
DB="$LOGDIR/lsb.history.db"

j=$(submit -o /dev/null 'sleep 600')
wait_for job_is "$j" RUN || fail "the job did not start"

# The job's JOB_STATUS records: time and status, then the whole line.
statuses() {
	awk -v j="$j" '$1 == "\"JOB_STATUS\"" && $4 == j' "$EV"
}
same=0
for try in 1 2 3 4 5 6 7 8; do
	n0=$(statuses | wc -l)
	# Early in a second, to leave the three requests all of it.
	until [ "${EPOCHREALTIME#*.}" -lt 300000 ]; do sleep 0.02; done
	bstop "$j" >/dev/null; bresume "$j" >/dev/null; bstop "$j" >/dev/null
	wait_for job_is "$j" USUSP || fail "the job was not stopped"
	# USUSP (16), then what resuming wrote (SSUSP, RUN), then USUSP
	# again: the two stops' lines identical (one time, one checksum).
	new=$(statuses | tail -n +$((n0 + 1)))
	first=$(printf '%s\n' "$new" | sed -n 1p)
	if [ "$(printf '%s\n' "$new" | awk '$5 == 16' | wc -l)" = 2 ] &&
	    [ "$(printf '%s\n' "$first" | awk '{ print $5 }')" = 16 ] &&
	    [ "$first" = "$(printf '%s\n' "$new" | tail -1)" ]; then
		same=1
		break
	fi
	bresume "$j" >/dev/null
	wait_for job_is "$j" RUN || fail "the job was not resumed"
done
check "two byte-identical USUSP records within one second" test "$same" = 1
nstop=$(statuses | awk '$5 == 16' | wc -l)
nres=$(statuses | awk '$5 == 4' | wc -l)

susp() { bhist -l "$j" | grep -c ': Suspended by the user or administrator'; }
resumed() { bhist -l "$j" | grep -c ': Resumed by the user or administrator'; }
at_least() { [ "$("$1")" -ge "$2" ]; }
wait_for at_least susp "$nstop"
expect_eq "bhist -l: every suspension" "$nstop" "$(susp)"
expect_eq "bhist -l: every resumption" "$nres" "$(resumed)"

# A switch copies the live job's records forward: nothing twice.
for i in 1 2 3; do submit -o /dev/null true >/dev/null; done
wait_for test -f "$EV.1" || fail "lsb.events was not switched"
last=$(submit -o /dev/null true)
wait_for sh -c "bhist -l $last | grep -q 'Done successfully'" ||
    fail "the job after the switch is not in the history"
expect_eq "after a switch: every suspension, once" "$nstop" "$(susp)"

mbd_restart
bresume "$j" >/dev/null
wait_for at_least resumed $((nres + 1)) ||
    fail "a record after the restart is not in the history"
expect_eq "after a restart: every suspension, once" "$nstop" "$(susp)"
expect_eq "after a restart: one more resumption" "$((nres + 1))" "$(resumed)"
before=$(bhist -l "$j" | sed '/^Summary of time/,$d')

old=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
kill -9 "$old"
rm -f "$DB" "$DB-wal" "$DB-shm"
back() {
	local p
	p=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd) && [ "$p" != "$old" ] &&
	    bqueues >/dev/null
}
wait_for back || fail "mbatchd did not come back"
wait_for sh -c "bhist -l $last | grep -q 'Done successfully'" ||
    fail "the database was not rebuilt"
expect_eq "after a rebuild: the same history" "$before" \
    "$(bhist -l "$j" | sed '/^Summary of time/,$d')"
expect_eq "after a rebuild: every suspension" "$nstop" "$(susp)"
bkill "$j" >/dev/null
finish
