#!/bin/bash
# A partitioned network, cut for real (lib.sh's netns mode): sides
# {hosta hostb} and {hostc hostd}, one master candidate on each.  Cut:
# each side elects its own master LIM and load sharing goes on on both;
# batch service stays on the side whose mbatchd holds the lock on the
# event log (hosta): bsub works there and new jobs run there, while on
# side B bsub says the batch system is not responding and hostc's
# mbatchd waits, naming the holder.  Side B's hosts are lost to side A:
# the non-rerunnable job there ends EXIT, the rerunnable one runs again
# on side A.  Heal: one master (hosta) again, hostc's mbatchd gone, the
# stale run of the requeued job killed, every job once, and the jobs of
# side A never disturbed.
. "$(dirname "$0")/lib.sh"

cluster_init 4
sed -i 's/^LSF_MASTER_LIST=.*/LSF_MASTER_LIST="hosta hostc"/' \
    "$LSF_CONF/lsf.conf"
sed -i 's/^End Parameters/MAX_SBD_FAIL = 3\nEnd Parameters/' \
    "$LSB_CONF/lsb.params"
netns_init "hosta hostb"
cluster_start
cd "$T_DIR/jobs"

master_on() { on "$1" lsid 2>/dev/null | sed -n 's/^My master name is //p'; }
master_on_is() { [ "$(master_on "$1")" = "$2" ]; }
alive() { kill -0 "$1" 2>/dev/null; }
dead() { ! kill -0 "$1" 2>/dev/null; }
mbd_of() { pgrep -P "$1" -x mbatchd; }
unavail_on_a() {
	on hosta bhosts -w "$1" 2>/dev/null | awk 'NR == 2 { print $2 }' |
	    grep -qx unavail
}

wait_for master_on_is hosta hosta
ja=$(submit_on hosta -m hosta -o /dev/null 'echo $$ >a.pid; exec sleep 300')
jb=$(submit_on hostb -m hostb -o /dev/null 'echo $$ >b.pid; exec sleep 300')
# The rerunnable job and the other start on side B (side A closed).
on hosta badmin hclose hosta hostb >/dev/null
jr=$(submit_on hosta -r -o /dev/null 'echo $$ >>r.pids; exec sleep 300')
jn=$(submit_on hosta -m hostd -o /dev/null 'echo $$ >>n.pids; exec sleep 300')
wait_for sh -c '[ -s a.pid ] && [ -s b.pid ] && [ -s r.pids ] && [ -s n.pids ]'
on hosta badmin hopen hosta hostb >/dev/null
expect_match "the rerunnable job starts on side B" '^host[cd]$' \
    "$(exec_host "$jr")"
apid=$(cat a.pid)
bpid=$(cat b.pid)
rpid1=$(cat r.pids)
npid=$(cat n.pids)
mbd_a=$(mbd_of "$PID_sbatchd_hosta")
ids="$ja $jb $jr $jn"

netns_cut
wait_for master_on_is hostc hostc
expect_eq "cut: side B elects hostc" hostc "$(master_on hostc)"
expect_eq "cut: hostd follows hostc" hostc "$(master_on hostd)"
expect_eq "cut: side A keeps hosta" hosta "$(master_on hostb)"
load_ok() { on "$1" lsload "$2" 2>/dev/null | grep -q "^$2 *ok"; }
wait_for load_ok hostd hostd
check "cut: lsload works on side B" load_ok hostd hostd
expect_match "cut: lshosts works on side B" '^hostc ' "$(on hostd lshosts)"
check "cut: lsload works on side A" load_ok hostb hostb

out=$(LSB_NTRIES=1 on hostd bsub -o /dev/null true 2>&1)
expect_eq "cut: bsub on side B fails" 255 "$?"
expect_match "cut: saying the batch system is not responding" \
    '^LSF is down\. Please wait \.\.\.$' "$out"
expect_match "cut: ... batch system daemon not responding" \
    '^bsub: batch system daemon not responding' "$out"
waits() {
	local m="another mbatchd (pid $mbd_a on hosta) holds .*/mbatchd.lock"

	grep -q "$m; waiting\$" "$T_DIR/log/mbatchd.log.hostc" 2>/dev/null
}
wait_for waits
check "cut: hostc's mbatchd waits, naming the holder" waits
check "cut: and runs, started by hostc's sbatchd" \
    sh -c "pgrep -P $PID_sbatchd_hostc -x mbatchd >/dev/null"

k=$(submit_on hostb -o /dev/null 'echo $LSB_JOBID >>k.ids')
ids="$ids $k"
wait_for job_is "$k" DONE
expect_eq "cut: bsub and bjobs on side A work, the job runs" "DONE" \
    "$(on hostb bjobs -noheader -o stat "$k")"
expect_match "cut: on a side A host" '^host[ab]$' "$(exec_host "$k")"
wait_for unavail_on_a hostc
check "cut: side A sees hostc unavailable" unavail_on_a hostc
check "cut: and hostd" unavail_on_a hostd
wait_for job_is "$jn" EXIT
expect_match "cut: the other job of side B ends EXIT, TERM_ZOMBIE" \
    '^EXIT +TERM_ZOMBIE' \
    "$(on hosta bjobs -noheader -o 'stat exit_reason' "$jn")"
wait_for sh -c "[ \$(wc -l <r.pids) -ge 2 ]"
wait_for job_is "$jr" RUN
expect_match "cut: the rerunnable job runs again on side A" '^host[ab]$' \
    "$(exec_host "$jr")"
rpid2=$(sed -n 2p r.pids)
check "cut: its first run goes on on side B" alive "$rpid1"

netns_heal
wait_for master_on_is hostc hosta
expect_eq "heal: hostc follows hosta again" hosta "$(master_on hostc)"
# hostd follows at its own next election, not always before we ask.
wait_for master_on_is hostd hosta
expect_eq "heal: hostd too" hosta "$(master_on hostd)"
expect_eq "heal: and side A" hosta "$(master_on hostb)"
wait_for sh -c "! pgrep -P $PID_sbatchd_hostc -x mbatchd"
check "heal: no mbatchd left on hostc" \
    sh -c "! pgrep -P $PID_sbatchd_hostc -x mbatchd"
wait_for dead "$rpid1"
check "heal: the stale run of the requeued job is killed" dead "$rpid1"
check "heal: its run on side A goes on" alive "$rpid2"
wait_for dead "$npid"
check "heal: the lost job's process is killed" dead "$npid"
expect_eq "heal: the lost job stays EXIT" EXIT "$(job_stat "$jn")"
d=$(LSB_NTRIES=30 submit_on hostd -o /dev/null 'echo $LSB_JOBID >>k.ids')
ids="$ids $d"
wait_for job_is "$d" DONE
expect_eq "heal: bsub from side B works" DONE "$(job_stat "$d")"
expect_eq "the jobs of side A still RUN" "RUN RUN" \
    "$(job_stat "$ja") $(job_stat "$jb")"
check "with their first processes" sh -c "kill -0 $apid && kill -0 $bpid"
expect_eq "their processes started once" "1 1" \
    "$(wc -l <a.pid) $(wc -l <b.pid)"
expect_eq "the rerunnable job ran twice in all" 2 "$(wc -l <r.pids)"
expect_eq "the lost one once" 1 "$(wc -l <n.pids)"
all=$(bjobs -a -noheader -o jobid 2>/dev/null | sort -n | tr '\n' ' ')
expect_eq "every acknowledged job exists once" \
    "$(echo $ids | tr ' ' '\n' | sort -n | tr '\n' ' ')" "$all"
finish
