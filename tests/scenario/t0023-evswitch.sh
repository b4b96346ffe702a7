#!/bin/bash
# lsb.events switching at MAX_JOB_NUM: older generations lsb.events.N
# with "#<time>" headers, a fresh lsb.events that starts "#<offset>" and
# holds the jobs still in memory; bjobs -a, closed hosts and queues the
# same after mbatchd restarts; job IDs never repeat, even when every job
# was cleaned before the switch; the order a btop to a position made
# survives; badmin hist prints each action once, even while the log
# switches under it; lsb.envs keeps only the environments of the jobs
# still in memory.
. "$(dirname "$0")/lib.sh"

cluster_init 3
sed -i 's/^End Parameters/MAX_JOB_NUM = 5\n&/' "$LSB_CONF/lsb.params"
grep -q '^MAX_JOB_NUM = 5$' "$LSB_CONF/lsb.params" || fail "no MAX_JOB_NUM set"
cat >"$LSB_CONF/lsb.hosts" <<EOT
Begin Host
HOST_NAME  MXJ
default    4
End Host
EOT
cluster_start
cd "$T_DIR/jobs"
logdir="$T_DIR/work/c1/logdir"
ev="$logdir/lsb.events"

switches() {
	grep -c 'switched .*lsb.events after' "$T_DIR"/log/mbatchd.* 2>/dev/null |
	    awk -F: '{ n += $NF } END { print n + 0 }'
}
# Wait for the switch after the n-th one.
wait_switches() {
	wait_for sh -c "[ \$(grep -h 'switched .*lsb.events after' \
	    $T_DIR/log/mbatchd.* 2>/dev/null | wc -l) -ge $1 ]"
}
# The offset of the first record after LOG_SWITCH in file $1.
history_offset() {
	local line
	line=$(grep -n '^"LOG_SWITCH"' "$1" | head -n 1 | cut -d: -f1)
	head -n "$line" "$1" | wc -c
}
snapshot() {
	bjobs -a -w -u all 2>&1
	bjobs -A -u all 2>&1
	bhosts -w 2>&1 | awk '{ print $1, $2 }'
	bqueues 2>&1 | awk '{ print $1, $3, $4 }'
}
ids_of() {
	cat "$ev" "$ev".* | grep "^\"$1\"" | awk '{ print $4 }' | sort -u
}
all_cleaned() {
	[ "$(ids_of JOB_NEW)" = "$(ids_of JOB_CLEAN)" ]
}
same_as_before() {
	[ "$(snapshot)" = "$before" ]
}
all_registered() {
	! bhosts -w 2>/dev/null | grep -q unreach
}

# ---- state that must outlive switches and restarts
out=$(badmin hclose -C "for the switch" hostc 2>&1)
expect_eq "hostc closed" "Close <hostc> ...... done" "$out"
# Jobs in short stay pending: it is inactive (and closed).
badmin qinact short >/dev/null 2>&1
inshort=$(submit -q short -o /dev/null true)
killed=$(submit -J "gone[1-3]" -q short -o /dev/null true)
out=$(badmin qclose short 2>&1)
expect_eq "queue short closed" "Queue <short> is closed" "$out"
held=$(submit -H -o /dev/null true)
# A command too long to keep in memory: read back from its JOB_NEW.
long="sleep 1000 # $(printf 'x%.0s' $(seq 1 300))END"
run=$(submit -o /dev/null "$long")
dep=$(submit -w "done($run)" -o /dev/null true)
# bsub joins its command's words with blanks, as LSF's does: the
# script goes as one word, so that the job's shell sees its quotes.
arr=$(submit -J "arr[1-4]" -o /dev/null \
    "sh -c 'test \$LSB_JOBINDEX -le 2 || exec sleep 1000'")
check "the jobs were submitted" test -n "$held" -a -n "$inshort" \
    -a -n "$run" -a -n "$dep" -a -n "$arr" -a -n "$killed"
wait_for job_is "$run" RUN
check "two elements of the array are done" \
    wait_for sh -c "[ \$(bjobs -noheader -o stat $arr | grep -c DONE) -eq 2 ]"
check "and two run on" \
    wait_for sh -c "[ \$(bjobs -noheader -o stat $arr | grep -c RUN) -eq 2 ]"
# An array whose pending elements are killed: 3 finished jobs at once.
bkill "$killed" >/dev/null 2>&1
wait_for sh -c "[ \$(bjobs -noheader -o stat $killed | grep -c EXIT) -eq 3 ]"

# ---- short jobs until the log has switched three times
last=""
for i in $(seq 1 14); do
	last=$(submit -o /dev/null true)
done
wait_for job_is "$last" DONE
WAIT_SECS=60 wait_switches 3 || fail "lsb.events did not switch 3 times"
check "lsb.events.1 exists" test -f "$ev.1"
check "lsb.events.2 exists" test -f "$ev.2"
check "lsb.events.3 exists" test -f "$ev.3"
hdr=$(head -n 1 "$ev")
expect_match "lsb.events starts with #<offset>" '^#[0-9]+ *$' "$hdr"
expect_eq "the offset is where the copied records end" \
    "$(history_offset "$ev")" "$(echo "$hdr" | tr -d '# ')"
now=$(date +%s)
h1=$(head -n 1 "$ev.1" | tr -d '# ')
check "lsb.events.1 starts with #<time> of its newest record" \
    test "$h1" -le "$now" -a "$h1" -gt $((now - 600))
expect_eq "lsb.events.1's newest record is that time" "$h1" \
    "$(grep -v '^#' "$ev.1" | awk '{ print $3 }' | sort -n | tail -n 1)"
check "the oldest generation has no copied part" \
    sh -c "! grep -q '^\"LOG_SWITCH\"' $ev.3"
check "the fresh file holds the running job's JOB_NEW" \
    grep -q "^\"JOB_NEW\" \"[0-9.]*\" [0-9]* $run " "$ev"
check "and the held job's" \
    grep -q "^\"JOB_NEW\" \"[0-9.]*\" [0-9]* $held " "$ev"
check "and the array's" \
    grep -q "^\"JOB_NEW\" \"[0-9.]*\" [0-9]* $arr " "$ev"
check "the host's close is copied forward once" \
    test "$(grep -c '^"HOST_CTRL" .* "hostc"' "$ev")" -eq 1
check "no MBD_START is copied forward" \
    sh -c "! (head -c $(history_offset "$ev") $ev | grep -q MBD_START)"
check "the long command is read back from the fresh file" \
    sh -c "bjobs -l $run | tr -d ' \n' | grep -q 'sleep1000#x*END'"

# ---- restarts replay only lsb.events and see the same state
wait_for all_registered
before=$(snapshot)
badmin mbdrestart >/dev/null 2>&1
wait_for sh -c "bqueues >/dev/null" && wait_for all_registered
wait_for same_as_before
expect_eq "the same jobs, hosts and queues after mbdrestart" "$before" \
    "$(snapshot)"
expect_match "replay read lsb.events alone" \
    "read [0-9]+ records from $ev, [0-9]+ jobs finished" \
    "$(cat "$T_DIR"/log/mbatchd.* | grep 'read .* records from' | tail -n 1)"
mbd_restart
wait_for all_registered
wait_for same_as_before
expect_eq "the same after kill -9" "$before" "$(snapshot)"
expect_eq "hostc still closed" closed_Adm \
    "$(bhosts -w hostc | awk 'NR == 2 { print $2 }')"
expect_eq "short still closed and inactive" Closed:Inact \
    "$(bqueues short | awk 'NR == 2 { print $3 }')"
check "the long command is still read back" \
    sh -c "bjobs -l $run | tr -d ' \n' | grep -q 'sleep1000#x*END'"
n=$(submit -o /dev/null true)
check "a new job ID is larger than every earlier one" test "$n" -gt "$last"
wait_for job_is "$n" DONE

# ---- badmin hist: each action once, whatever generation it is in
hist=$(badmin hist 2>&1)
expect_eq "the host's close once" 1 \
    "$(echo "$hist" | grep -c 'Host <hostc> closed')"
expect_eq "the queue's close once" 1 \
    "$(echo "$hist" | grep -c 'Queue <short> closed')"
expect_eq "the queue's inactivation once" 1 \
    "$(echo "$hist" | grep -c 'Queue <short> inactivated')"
expect_eq "every mbatchd start once" 3 \
    "$(echo "$hist" | grep -c 'mbatchd started')"
expect_eq "mbdrestart once" 1 \
    "$(echo "$hist" | grep -c 'restarted by')"
expect_match "oldest first: the close before the restart" \
    "closed.*restarted by" "$(echo "$hist" | tr '\n' ' ')"

# ---- badmin hist while the log switches under it: still each once
nsw=$(switches)
sed -i 's/^MAX_JOB_NUM = .*/MAX_JOB_NUM = 1/' "$LSB_CONF/lsb.params"
badmin reconfig >/dev/null 2>&1 || fail "reconfig"
(
	i=0
	while [ ! -e "$T_DIR/hist.stop" ]; do
		badmin hist >"$T_DIR/hist.$i" 2>&1 || echo "status $?" \
		    >>"$T_DIR/hist.$i"
		i=$((i + 1))
	done
) &
hpid=$!
for i in $(seq 12); do
	h=$(submit -o /dev/null true)
	wait_for job_is "$h" DONE
done
wait_switches $((nsw + 12)) || fail "no switch per job at MAX_JOB_NUM = 1"
touch "$T_DIR/hist.stop"
wait "$hpid"
bad=0
nhist=0
for f in "$T_DIR"/hist.[0-9]*; do
	nhist=$((nhist + 1))
	[ "$(grep -c 'Host <hostc> closed' "$f")" = 1 ] &&
	    [ "$(grep -c 'mbatchd started' "$f")" = 3 ] &&
	    [ "$(grep -c 'restarted by' "$f")" = 1 ] &&
	    ! grep -q '^status' "$f" || { bad=$((bad + 1)); cp "$f" "$T_DIR/hist.bad"; }
done
check "badmin hist ran while the log switched ($nhist times)" \
    test "$nhist" -gt 1
expect_eq "every one of them printed each action once" 0 "$bad"
sed -i 's/^MAX_JOB_NUM = .*/MAX_JOB_NUM = 5/' "$LSB_CONF/lsb.params"
badmin reconfig >/dev/null 2>&1 || fail "reconfig"

# ---- every job cleaned, then a switch: IDs still go on
sed -i 's/^CLEAN_PERIOD = .*/CLEAN_PERIOD = 0/; s/^MAX_JOB_NUM = .*/MAX_JOB_NUM = 1000/' \
    "$LSB_CONF/lsb.params"
badmin reconfig >/dev/null 2>&1 || fail "reconfig"
bkill 0 >/dev/null 2>&1
bkill -u all 0 >/dev/null 2>&1
# bjobs hides them at once; mbatchd forgets them within a minute.
WAIT_SECS=90 wait_for all_cleaned || fail "the jobs were not cleaned"
nsw=$(switches)
sed -i 's/^MAX_JOB_NUM = .*/MAX_JOB_NUM = 1/' "$LSB_CONF/lsb.params"
badmin reconfig >/dev/null 2>&1 || fail "reconfig"
badmin hopen hostc >/dev/null 2>&1
wait_switches $((nsw + 1)) || fail "no switch after MAX_JOB_NUM = 1"
expect_eq "the fresh file holds no job" 0 "$(grep -c '^"JOB_NEW"' "$ev")"
expect_eq "nor lsb.envs any environment" 0 \
    "$(grep -c '^"JOB_ENV"' "$logdir/lsb.envs")"
expect_match "which mbatchd logs" \
    "rewrote $logdir/lsb.envs: kept 0 environments" \
    "$(cat "$T_DIR"/log/mbatchd.*)"
check "lsb.envs stays the admin's alone" \
    test "$(stat -c %a "$logdir/lsb.envs")" = 600
mbd_restart
m=$(submit -o /dev/null true)
check "after a restart the next ID is still larger ($m > $n)" \
    test "$m" -gt "$n"

# ---- btop to a position counted a job cleaned since: still the order
sed -i 's/^MAX_JOB_NUM = .*/MAX_JOB_NUM = 1000/' "$LSB_CONF/lsb.params"
badmin reconfig >/dev/null 2>&1 || fail "reconfig"
badmin qopen short >/dev/null 2>&1
# p1's environment is its own and goes with it; p3's stays with p3.
export T23_ENV=gone
p1=$(submit -q short -o /dev/null true)
unset T23_ENV
p2=$(submit -q short -o /dev/null true)
export T23_ENV=kept
p3=$(submit -q short -o "$T_DIR/jobs/env.%J" 'echo "env $T23_ENV"')
unset T23_ENV
p4=$(submit -q short -o /dev/null true)
btop "$p4" 3 >/dev/null 2>&1
expect_eq "btop 3 (short is inactive: they wait)" "$p1 $p2 $p4 $p3" \
    "$(pend_order short)"
bkill "$p1" >/dev/null 2>&1
WAIT_SECS=90 wait_for grep -q "^\"JOB_CLEAN\" \"[0-9.]*\" [0-9]* $p1 " "$ev" ||
    fail "job $p1 was not cleaned"
nsw=$(switches)
sed -i 's/^MAX_JOB_NUM = .*/MAX_JOB_NUM = 1/' "$LSB_CONF/lsb.params"
badmin reconfig >/dev/null 2>&1 || fail "reconfig"
badmin hclose hostc >/dev/null 2>&1
wait_switches $((nsw + 1)) || fail "no switch after the btop"
check "the cleaned job the btop counted is copied, with its JOB_CLEAN" \
    sh -c "head -c $(history_offset "$ev") $ev |
    grep -q '^\"JOB_CLEAN\" \"[0-9.]*\" [0-9]* $p1 '"
expect_eq "lsb.envs lost the cleaned job's environment" 0 \
    "$(grep -c 'T23_ENV=gone' "$logdir/lsb.envs")"
expect_eq "and kept the pending job's" 1 \
    "$(grep -c 'T23_ENV=kept' "$logdir/lsb.envs")"
mbd_restart
expect_eq "the same order after a restart" "$p2 $p4 $p3" \
    "$(pend_order short)"
badmin qact short >/dev/null 2>&1
wait_for job_is "$p3" DONE
expect_eq "the job runs with its environment after both" "env kept" \
    "$(head -n 1 "$T_DIR/jobs/env.$p3")"

# ---- a damaged header: a clear warning, no stop.  Its length kept, as
# damage keeps it: a file whose records moved is not the one sealed
# (lsb.events.seal, t0134).
kill "$PID_sbatchd_hosta"
wait "$PID_sbatchd_hosta" 2>/dev/null
sed -i '1s/^#[0-9]/#x/' "$ev"
start_daemon sbatchd hosta
wait_for bqueues || fail "mbatchd did not start"
expect_match "the damaged header is named" \
    "lsb.events: header is not .* counting every finished job" \
    "$(cat "$T_DIR"/log/mbatchd.*)"
finish
