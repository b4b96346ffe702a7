#!/bin/bash
# The seal of lsb.events (lsb.events.seal, issue 32): what mbatchd
# acknowledged, kept beside the log so that damage a replay alone cannot
# see is refused.
# - lsb.events cut at a line boundary, a restored older copy, and a
#   switched-away generation put back stop mbatchd, naming the file, its
#   length and what was acknowledged; badmin logcheck says the same;
# - a last record whose newline lost a bit is damage, not a torn write;
# - a torn write is still kept aside and cut off, even one that ends
#   right before where its newline would be;
# - after the documented acceptance (the seal moved aside as
#   lsb.events.seal.lost) mbatchd starts, and job IDs go on above every
#   one acknowledged, the lost ones included.
. "$(dirname "$0")/lib.sh"

cluster_init 1
sed -i 's/^End Parameters/MAX_JOB_NUM = 3\n&/' "$LSB_CONF/lsb.params"
cluster_start
cd "$T_DIR/jobs"
logdir="$T_DIR/work/c1/logdir"
ev="$logdir/lsb.events"
seal="$ev.seal"
mbdlog="$T_DIR/log/mbatchd.log.hosta"

# mbatchd started by hand, sbatchd stopped: its output and exit status.
refused() {
	timeout 20 "$SBIN/mbatchd" -d -N hosta 2>&1
	echo "exit $?"
}
size_of() { wc -c <"$1"; }
# The offset of the last line of lsb.events.
last_off() { head -n "$(($(wc -l <"$ev") - 1))" "$ev" | wc -c; }
all_there() {
	local id
	for id in $ids; do
		[ -n "$(job_stat "$id")" ] || { echo "# job $id is lost"; return 1; }
	done
}

# 1. The seal follows what is acknowledged.
ids=""
for i in 1 2 3; do ids="$ids $(submit -H -o /dev/null true)"; done
mbd_down
cp "$ev" "$T_DIR/events.older"
mbd_up
for i in 4 5; do ids="$ids $(submit -H -o /dev/null true)"; done
last=${ids##* }
mbd_down
cp "$ev" "$T_DIR/events.full"
size=$(size_of "$ev")
check "the seal is beside lsb.events" test -s "$seal"
out=$(badmin logcheck "$ev" 2>&1)
rc=$?
expect_match "badmin logcheck shows what was acknowledged" \
    "lsb.events: sealed: mbatchd on hosta had acknowledged $size bytes and \
job IDs up to $last at " "$out"
expect_match "and finds the log clean" "lsb.events: [0-9]+ records, no \
errors found" "$out"
check "exit 0 ($rc)" test "$rc" -eq 0

# 2. Cut at a line boundary: the last two records gone, and the file is
# still a well-formed log that replay alone would take.
head -n -2 "$T_DIR/events.full" >"$ev"
short=$(size_of "$ev")
out=$(refused)
expect_match "a log cut at a line boundary stops mbatchd, with both lengths" \
    "lsb.events is $short bytes long, but mbatchd on hosta had acknowledged \
$size bytes of it and job IDs up to $last at " "$out"
expect_match "it says the acknowledged records are missing" \
    "acknowledged records are missing \(the file was cut short, or \
replaced by another copy\); not starting" "$out"
expect_match "and how to start anyway, keeping the job IDs" \
    "losing them: mv $seal $ev.seal.lost \(job IDs still go on after \
$last\)" "$out"
expect_match "it does not start" "exit [1-9]" "$out"
out=$(badmin logcheck 2>&1)
rc=$?
expect_match "badmin logcheck names both lengths too" \
    "lsb.events is $short bytes long, but mbatchd on hosta had acknowledged \
$size bytes" "$out"
expect_match "and says mbatchd will not start" \
    "acknowledged records are missing .*: mbatchd will not start" "$out"
check "and exits non-zero ($rc)" test "$rc" -ne 0

# 3. A restored older copy: an earlier snapshot of the same log.
cp "$T_DIR/events.older" "$ev"
out=$(refused)
expect_match "a restored older copy stops mbatchd" \
    "lsb.events is $(size_of "$T_DIR/events.older") bytes long, but mbatchd \
on hosta had acknowledged $size bytes" "$out"
expect_match "and it does not start" "exit [1-9]" "$out"

# 4. One bit of the last record's newline: '\n' (0x0a) becomes 0x0b.
cp "$T_DIR/events.full" "$ev"
off=$(last_off)
printf '\013' | dd of="$ev" bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null
out=$(refused)
expect_match "a flipped newline stops mbatchd with file and offset" \
    "lsb.events: offset $off: last record's newline is damaged \(0x0b at \
offset $((size - 1))\): damage, not a torn write" "$out"
expect_match "and it does not start" "exit [1-9]" "$out"
out=$(badmin logcheck "$ev" 2>&1)
rc=$?
expect_match "badmin logcheck names it too" \
    "lsb.events: offset $off: last record's newline is damaged" "$out"
check "and exits non-zero ($rc)" test "$rc" -ne 0
check "the log is left as it was" test "$(size_of "$ev")" -eq "$size"

# 5. A torn write is still one: kept aside, cut off, every job stays.
cp "$T_DIR/events.full" "$ev"
printf '"JOB_NEW" "10.1" 1700000000 99 0 0 1 17000' >>"$ev"
mbd_up
check "after a torn write every acknowledged job is there" all_there
expect_match "the torn tail was kept aside" "torn last record at offset \
$size \(42 bytes without a newline\): kept in .*lsb.events.torn" \
    "$(cat "$mbdlog")"

# A write cut right before its newline (kill -9 can cut one at a page
# boundary) passes its checksum, but it lies past what the seal says was
# acknowledged: torn too.
mbd_down
size=$(size_of "$ev")
tail -n 1 "$ev" | tr -d '\n' >"$T_DIR/whole"
cat "$T_DIR/whole" >>"$ev"
mbd_up
check "a whole record past the seal without its newline is torn" \
    grep -q "torn last record at offset $size ($(size_of "$T_DIR/whole") \
bytes without a newline)" "$mbdlog"
check "and every acknowledged job is there" all_there

# 6. A switch (MAX_JOB_NUM 3), then the switched-away lsb.events.1 put
# back: longer than the fresh file, but not the file that was sealed.
for i in 1 2 3; do done_ids="${done_ids:-} $(submit -o /dev/null true)"; done
WAIT_SECS=60 wait_for sh -c "grep -q 'switched .*lsb.events after' $mbdlog" ||
    fail "lsb.events did not switch"
check "the switched-away file is longer" test "$(size_of "$ev.1")" -gt \
    "$(size_of "$ev")"
mbd_down
cp "$ev" "$T_DIR/events.full"
size=$(size_of "$ev")
cp "$ev.1" "$ev"
out=$(refused)
expect_match "lsb.events.1 put back as lsb.events stops mbatchd" \
    "lsb.events \($(size_of "$ev.1") bytes\)(: the line ending at offset \
$size is not the record that ended there| has no line ending at offset \
$size), but mbatchd on hosta had acknowledged $size bytes" "$out"
expect_match "and it does not start" "exit [1-9]" "$out"
cp "$T_DIR/events.full" "$ev"
mbd_up
check "the sealed log starts again" all_there

# 7. The loss accepted: the last job's JOB_NEW and what follows cut off
# at a line boundary, the seal moved aside as the refusal says.
lost=$(submit -H -o /dev/null true)
mbd_down
cp "$ev" "$T_DIR/events.full"
sed -n "/^\"JOB_NEW\" \"[^\"]*\" [0-9]* $lost /q;p" "$T_DIR/events.full" >"$ev"
check "the lost job's record is cut off" test "$(size_of "$ev")" -lt \
    "$(size_of "$T_DIR/events.full")"
out=$(refused)
expect_match "refused" "acknowledged records are missing" "$out"
mv "$seal" "$ev.seal.lost"
mbd_up
expect_eq "the job whose record was cut is lost, as accepted" "" \
    "$(job_stat "$lost")"
check "the others are all there" all_there
n=$(submit -H -o /dev/null true)
check "the next job ID ($n) is above every one acknowledged ($lost)" \
    test "$n" -gt "$lost"
expect_match "mbatchd said where job IDs go on from" \
    "lsb.events.seal.lost: job IDs go on after $lost" "$(cat "$mbdlog")"
check "a new seal is written" test -s "$seal"
mbd_restart
n2=$(submit -H -o /dev/null true)
check "after one more restart IDs still go up ($n2 > $n)" test "$n2" -gt "$n"
out=$(badmin logcheck 2>&1)
check "badmin logcheck finds the log clean again" test $? -eq 0
bkill -u all 0 >/dev/null 2>&1
finish
