#!/bin/bash
# What mbatchd does with damage it finds at start, and with a crash:
# - a crash of an mbatchd that ran a while costs well under a second;
# - lsb.events damaged by hand while mbatchd was down: a flipped leading
#   quote or a damaged last record stops it with the file and offset
#   (nothing is a comment, nothing complete is a torn write), a torn
#   tail is kept in lsb.events.torn and every acknowledged job stays;
#   badmin logcheck says the same with no mbatchd running;
# - a refused badmin reconfig, then a crash: mbatchd runs on the
#   configuration it last accepted, and every badmin command says so.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cluster_start
cd "$T_DIR/jobs"
logdir="$T_DIR/work/c1/logdir"
ev="$logdir/lsb.events"
mbdlog="$T_DIR/log/mbatchd.log.hosta"

ran_at_least() {
	local p
	p=$(mbd_pid) && [ "$(ps -o etimes= -p "$p")" -ge "$1" ]
}
answers() {
	p=$(mbd_pid) && [ "$p" != "$1" ] && bqueues >/dev/null 2>&1
}
# Milliseconds from kill -9 to the next mbatchd answering bqueues.
crash_ms() {
	local old t0 t1
	old=$(mbd_pid)
	t0=$(date +%s%N)
	kill -9 "$old"
	for _ in $(seq 1 500); do
		answers "$old" && break
		sleep 0.01
	done
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / 1000000 ))
}

# 1. Two crashes, seconds apart, of an mbatchd that had been serving.
ids=""
for i in 1 2 3; do ids="$ids $(submit -o /dev/null true)"; done
held=$(submit -H sleep 1)
wait_for ran_at_least 4
ms=$(crash_ms)
check "after a crash, bqueues answers again in ${ms} ms (< 1000)" \
    test "$ms" -lt 1000
wait_for ran_at_least 4
ms=$(crash_ms)
check "after a second crash, bqueues answers again in ${ms} ms (< 1000)" \
    test "$ms" -lt 1000
expect_match "sbatchd said it restarted at once" \
    "ran [0-9]+ ms; starting it again at once" \
    "$(cat "$T_DIR"/log/sbatchd.log.hosta)"
wait_for job_is "${ids##* }" DONE
ids="$ids $held"

# mbatchd started by hand must refuse: its output.
refused() {
	timeout 20 "$SBIN/mbatchd" -d -N hosta 2>&1
	echo "exit $?"
}
offset_of() {
	# offset_of LINE: the byte offset of line LINE of lsb.events
	head -n $(($1 - 1)) "$ev" | wc -c
}

mbd_down
cp "$ev" "$T_DIR/events.good"
out=$(badmin logcheck 2>&1)
expect_match "badmin logcheck: the log is clean" \
    "lsb.events: [0-9]+ records, no errors found" "$out"

# 2. One bit of a record's leading quote: '"' (0x22) becomes '#' (0x23).
line=$(grep -n '^"JOB_NEW"' "$ev" | sed -n 2p | cut -d: -f1)
off=$(offset_of "$line")
sed -i "${line}s/^\"/#/" "$ev"
out=$(refused)
expect_match "a flipped leading quote stops mbatchd with file and offset" \
    "lsb.events: offset $off: record checksum mismatch" "$out"
expect_match "and it does not start" "exit [1-9]" "$out"
out=$(badmin logcheck "$ev")
rc=$?
expect_match "badmin logcheck names it too" \
    "lsb.events: offset $off: record checksum mismatch" "$out"
check "and exits non-zero ($rc)" test "$rc" -ne 0
check "the log is left as it was" test "$(wc -c <"$ev")" -eq \
    "$(wc -c <"$T_DIR/events.good")"

# 3. A damaged last complete record is damage, not a torn write.
cp "$T_DIR/events.good" "$ev"
line=$(wc -l <"$ev")
off=$(offset_of "$line")
sed -i "${line}s/\"10\.1\"/\"10.2\"/" "$ev"
out=$(refused)
expect_match "a damaged last record stops mbatchd with file and offset" \
    "lsb.events: offset $off: record checksum mismatch" "$out"
badmin logcheck >/dev/null 2>&1
check "badmin logcheck exits non-zero" test $? -ne 0

# A damaged header costs only the MAX_JOB_NUM count (mbatchd warns and
# goes on, see t0023), but the check names it.
cp "$T_DIR/events.good" "$ev"
sed -i '1s/^#[0-9]*/#12x/' "$ev"
out=$(badmin logcheck "$ev")
rc=$?
expect_match "badmin logcheck names a damaged header" \
    "lsb.events: offset 0: header is not" "$out"
check "and exits non-zero ($rc)" test "$rc" -ne 0

# 4. A torn tail: kept aside, said aloud, and every job stays.
cp "$T_DIR/events.good" "$ev"
size=$(wc -c <"$ev")
printf '"JOB_NEW" "10.1" 1700000000 99 0 0 1 17000' >>"$ev"
out=$(badmin logcheck 2>&1)
rc=$?
expect_match "badmin logcheck reports the torn tail" \
    "lsb.events: offset $size: torn last record \(42 bytes" "$out"
check "and exits non-zero ($rc)" test "$rc" -ne 0
kill -CONT "$PID_sbatchd_hosta"
wait_for sh -c "bjobs -noheader $held >/dev/null 2>&1"
for id in $ids; do
	check "job $id is still there" sh -c "bjobs -a -noheader $id \
	    >/dev/null 2>&1"
done
expect_eq "the held job is still held" PSUSP "$(job_stat "$held")"
check "the tail is kept in lsb.events.torn" \
    grep -q '^"JOB_NEW" "10.1" 1700000000 99 0 0 1 17000$' "$ev.torn"
expect_match "with where it was" "^# .*lsb.events: torn last record at \
offset $size, 42 bytes without a newline" "$(head -n 1 "$ev.torn")"
expect_match "mbatchd logged it" "torn last record at offset $size \(42 \
bytes without a newline\): kept in .*lsb.events.torn" "$(cat "$mbdlog")"
check "lsb.events is cut where the good records end" \
    sh -c "! grep -q '1700000000 99 0 0 1 17000' $ev"
n=$(submit -o /dev/null true)
wait_for job_is "$n" DONE
badmin logcheck >/dev/null 2>&1
check "badmin logcheck finds the log clean again" test $? -eq 0

# 5. A reconfig refused, then a crash: the cluster keeps running on the
# configuration last accepted, and says the files are broken.
check "the accepted configuration is kept" \
    test -f "$logdir/lsb.conf.accepted/lsb.queues"
cp "$LSB_CONF/lsb.queues" "$T_DIR/queues.good"
printf 'this is not lsb.queues syntax\n' >>"$LSB_CONF/lsb.queues"
badline=$(wc -l <"$LSB_CONF/lsb.queues")
out=$(badmin reconfig -f 2>&1)
check "badmin reconfig refuses the broken file" test $? -ne 0
running=$(submit -o /dev/null sleep 30)
wait_for job_is "$running" RUN
pend=$(submit -H -q short true)
old=$(mbd_pid)
kill -9 "$old"
wait_for answers "$old"
check "mbatchd came back over the broken file" answers "$old"
expect_eq "with the queues it had" "normal short" \
    "$(bqueues 2>/dev/null | awk 'NR > 1 { print $1 }' | sort | xargs)"
expect_eq "the running job still runs" RUN "$(job_stat "$running")"
expect_eq "the held job is still held in short" "PSUSP short" \
    "$(bjobs -noheader -o 'stat queue' "$pend" 2>/dev/null | xargs)"
expect_match "mbatchd logged the broken files at error level" \
    "ERR.*lsb.queues:$badline: .*outside any Begin/End section" \
    "$(cat "$mbdlog")"
out=$(badmin hist 2>&1 >/dev/null)
expect_match "badmin warns that the files on disk have errors" \
    "^badmin: warning: mbatchd on hosta runs on the configuration it \
last accepted" "$out"
expect_match "and says which" "lsb.queues:$badline: " "$out"
n=$(submit -o /dev/null true)
wait_for job_is "$n" DONE
check "jobs still run" job_is "$n" DONE

# As after a reboot: the master's sbatchd starts again over the broken
# files, and starts mbatchd, which runs on the accepted copy.
kill -9 "$PID_sbatchd_hosta" "$(mbd_pid)"
wait "$PID_sbatchd_hosta" 2>/dev/null
start_daemon sbatchd hosta
check "sbatchd starts over the broken lsb.queues, and mbatchd" \
    wait_for sh -c "pgrep -P $PID_sbatchd_hosta -x mbatchd >/dev/null &&
    bqueues >/dev/null"
expect_match "sbatchd says it left lsb.* out" \
    'the lsb.\* files have errors' "$(cat "$T_DIR/log/sbatchd.log.hosta")"
expect_eq "the running job survived that too" RUN "$(job_stat "$running")"

cp "$T_DIR/queues.good" "$LSB_CONF/lsb.queues"
badmin reconfig -f >/dev/null 2>&1
check "the repaired files are accepted" test $? -eq 0
out=$(badmin hist 2>&1 >/dev/null)
expect_eq "and the warning is gone" "" "$out"
check "lsb.conf.broken is gone" test ! -e "$logdir/lsb.conf.broken"

# 6. No accepted copy (a first start): broken files still stop mbatchd.
mbd_down
rm -rf "$logdir"/lsb.conf.accepted*
printf 'this is not lsb.queues syntax\n' >>"$LSB_CONF/lsb.queues"
out=$(refused)
expect_match "without an accepted copy mbatchd refuses to start" \
    "configuration has errors; not starting" "$out"
expect_match "and exits non-zero" "exit [1-9]" "$out"
cp "$T_DIR/queues.good" "$LSB_CONF/lsb.queues"
kill -CONT "$PID_sbatchd_hosta"
finish
