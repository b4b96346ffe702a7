#!/bin/bash
# Duplicate logging (lsf.conf LSB_LOCALDIR): the primary lsb.events in
# LSB_LOCALDIR and its replica in LSB_SHAREDIR stay byte-identical; a
# primary removed with mbatchd's crash comes back from the replica with
# every acknowledged job; a replica cut short is caught up at start; two
# logs that differ inside stop mbatchd with both names and the offset; a
# switch (MAX_JOB_NUM) leaves lsb.events and lsb.events.1 identical on
# both sides, and one cut short by a crash is finished at start; both
# cut alike are refused by their seals (lsb.events.seal in each
# directory).
. "$(dirname "$0")/lib.sh"

cluster_init 1
localdir="$T_DIR/local"
echo "LSB_LOCALDIR=$localdir" >>"$LSF_CONF/lsf.conf"
sed -i 's/^End Parameters/MAX_JOB_NUM = 6\n&/' "$LSB_CONF/lsb.params"
cluster_start
cd "$T_DIR/jobs"
pri="$localdir/lsb.events"
rep="$T_DIR/work/c1/logdir/lsb.events"
mbdlog="$T_DIR/log/mbatchd.log.hosta"

all_known() {
	local id
	for id in $ids; do
		[ -n "$(job_stat "$id")" ] || { echo "job $id is lost"; return 1; }
	done
}
# Each lsb.events.N of the primary, the same on the replica: one check,
# however many switches the timing made.
gens_identical() {
	local f n=0
	for f in "$pri".[1-9]*; do
		cmp "$f" "$rep.${f##*.}" || return 1
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}
identical() {
	check "$1: the two logs are identical" cmp "$pri" "$rep"
}

# 1. Both written as jobs are acknowledged.
ids=""
for i in 1 2 3; do ids="$ids $(submit -H -o /dev/null true)"; done
check "the primary is in LSB_LOCALDIR" test -s "$pri"
check "it holds the jobs" test "$(grep -c '^"JOB_NEW"' "$pri")" -eq 3
identical "after 3 submissions"

# 2. The primary's directory gone, and mbatchd with it: the replica.
rm -rf "$localdir"
ids="$ids $(submit -H -o /dev/null true)"
mbd_restart
check "every acknowledged job is known" all_known
check "the primary was recreated" test -s "$pri"
identical "after recovery from the replica"
expect_match "mbatchd said so" "lsb.events was missing" "$(cat "$mbdlog")"
ids="$ids $(submit -H -o /dev/null true)"
identical "after one more"

# 3. The replica cut short by two records: caught up from the primary.
mbd_down
head -n -2 "$pri" >"$T_DIR/short"
cat "$T_DIR/short" >"$rep"
check "the replica is shorter" test "$(wc -c <"$rep")" -lt "$(wc -c <"$pri")"
mbd_up
check "every acknowledged job is known" all_known
identical "after catching up the replica"
expect_match "mbatchd said so" "caught up from it" "$(cat "$mbdlog")"

# 4. One byte changed inside the replica: neither is a prefix.
mbd_down
cp "$rep" "$T_DIR/rep.good"
line=$(grep -n '^"JOB_NEW"' "$rep" | sed -n 2p | cut -d: -f1)
sed -i "${line}s/\"10\.1\"/\"10.2\"/" "$rep"
off=$(cmp "$pri" "$rep" | sed -n 's/.* byte \([0-9]*\),.*/\1/p')
off=$((off - 1))
out=$(timeout 20 "$SBIN/mbatchd" -d -N hosta 2>&1; echo "exit $?")
expect_match "diverging logs stop mbatchd with both names and the offset" \
    "$pri and $rep differ at offset $off, and neither is a prefix" "$out"
expect_match "and it does not start" "exit [1-9]" "$out"
check "the primary was left as it was" test "$(wc -c <"$pri")" -eq \
    "$(wc -c <"$T_DIR/rep.good")"
cp "$T_DIR/rep.good" "$rep"
mbd_up
check "every acknowledged job is known" all_known

# 5. A switch: both sides switched, both generations identical.
bkill 0 >/dev/null 2>&1
for i in 1 2 3 4 5 6 7; do ids2="${ids2:-} $(submit -o /dev/null true)"; done
wait_for sh -c "grep -q 'switched .*lsb.events after' $mbdlog" ||
    fail "no switch"
check "the primary has lsb.events.1" test -s "$pri.1"
check "the replica has lsb.events.1" test -s "$rep.1"
ids="$(submit -H -o /dev/null true)"
# Jobs still end meanwhile: a look between the two writes of a turn
# would see one side ahead.
wait_for sh -c "[ -z \"\$(bjobs -noheader -o stat $ids2 | grep -v DONE)\" ]"
wait_for cmp -s "$pri" "$rep"
identical "after the switch and one more job"
check "every generation is identical on both sides" gens_identical
mbd_restart
check "the job after the switch is known" all_known
identical "after a restart following the switch"

# 6. A crash between the primary's switch and the replica's: the replica
# is still the primary's lsb.events.1 (but for its first line).
mbd_down
mv "$rep.1" "$rep"
n=2
while [ -e "$rep.$n" ]; do mv "$rep.$n" "$rep.$((n - 1))"; n=$((n + 1)); done
mbd_up
expect_match "mbatchd finished the replica's switch" \
    "lsb.events was switched and .* not: switching it" "$(cat "$mbdlog")"
check "the job after the switch is known" all_known
identical "after finishing the switch"
check "every generation is identical on both sides" gens_identical

# 7. Both copies cut at the same line boundary (both restored from one
# old copy): nothing to catch up from, and the seal in each directory
# says what was acknowledged.  One copy cut alone is caught up (3).
mbd_down
cp "$pri" "$T_DIR/pri.full"
size=$(wc -c <"$pri")
head -n -2 "$T_DIR/pri.full" >"$pri"
cp "$pri" "$rep"
out=$(timeout 20 "$SBIN/mbatchd" -d -N hosta 2>&1; echo "exit $?")
expect_match "both copies cut alike stop mbatchd with both lengths" \
    "$pri is $(wc -c <"$pri") bytes long, but mbatchd on hosta had \
acknowledged $size bytes" "$out"
expect_match "it names both seals to move aside" \
    "mv $pri.seal $pri.seal.lost; mv $rep.seal $rep.seal.lost" "$out"
expect_match "and it does not start" "exit [1-9]" "$out"
cp "$T_DIR/pri.full" "$pri"
cp "$T_DIR/pri.full" "$rep"
mbd_up
check "put back, every acknowledged job is known" all_known

finish
