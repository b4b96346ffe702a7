#!/bin/bash
# Duplicate logging under real faults while jobs are submitted: the
# primary's file system full (a small tmpfs filled with dd), with and
# without a restart before it is freed; the primary removed while
# mbatchd runs; the primary replaced by a directory, or removed, while
# mbatchd is down; the replica replaced by a directory while it runs;
# a switch while the primary is full.  Each submission answered is on
# the side still written; the fault is logged once; once the side is
# back it is caught up (every 10 s) and the two directories end
# byte-identical, lsb.events.N included; a restart knows every
# acknowledged job exactly once.  (A kill between a turn's two writes
# leaves the replica a prefix of the primary: t0113 step 3.)
. "$(dirname "$0")/lib.sh"

cluster_init 1
localdir="$T_DIR/local"
mkdir -p "$localdir"
mount -t tmpfs -o size=256k tmpfs "$localdir" ||
    { fail "cannot mount a tmpfs on $localdir"; finish; exit 1; }
# Before cluster_stop: its rm -rf cannot remove a mount point.
trap 'umount -l "$localdir" 2>/dev/null; cluster_stop' EXIT
echo "LSB_LOCALDIR=$localdir" >>"$LSF_CONF/lsf.conf"
sed -i 's/^End Parameters/MAX_JOB_NUM = 6\n&/' "$LSB_CONF/lsb.params"
cluster_start
cd "$T_DIR/jobs"
pri="$localdir/lsb.events"
rep="$T_DIR/work/c1/logdir/lsb.events"
mbdlog="$T_DIR/log/mbatchd.log.hosta"

# A stream of held jobs; an empty ID is a submission not acknowledged.
stream() {
	local i id
	for i in $(seq "$1"); do
		id=$(submit -H -o /dev/null true)
		[ -n "$id" ] || { fail "$2: submission $i not acknowledged"; continue; }
		ids="$ids $id"
	done
}
# Every acknowledged job known, once.
all_once() {
	local id all
	all=$(bjobs -a -noheader -o jobid 2>/dev/null)
	for id in $ids; do
		[ "$(echo "$all" | grep -cx "$id")" -eq 1 ] ||
		    { echo "job $id: $(echo "$all" | grep -cx "$id") times"; return 1; }
	done
}
identical() {
	check "$1: the two logs are identical" cmp "$pri" "$rep"
}
caught_up() {
	wait_for cmp -s "$pri" "$rep" || fail "$1: never caught up"
	identical "$1"
}
fill() {
	dd if=/dev/zero of="$localdir/fill" bs=4k >/dev/null 2>&1
	dd if=/dev/zero of="$localdir/fill2" bs=1 >/dev/null 2>&1
}
nlog() {
	grep -c "$1" "$mbdlog"
}

ids=""
stream 2 "before"
identical "before any fault"

# a. The primary's file system full while mbatchd runs.
fill
stream 12 "primary full"
check "the primary is behind" test "$(wc -c <"$pri")" -lt "$(wc -c <"$rep")"
expect_eq "the fault is logged once" 1 \
    "$(nlog "cannot write $pri: No space left on device")"
check "acknowledged jobs are in the replica" all_once
# A restart with the primary still full and behind runs on the replica.
mbd_restart
check "a restart with the primary full knows every job once" all_once
expect_eq "it runs on the replica" 1 \
    "$(nlog "$pri cannot be used: running on the replica")"
stream 2 "primary full, after a restart"
rm -f "$localdir/fill" "$localdir/fill2"
caught_up "primary full, then freed"
expect_match "mbatchd said so" "$pri is a copy of $rep again" \
    "$(cat "$mbdlog")"
stream 2 "after space was freed"
identical "after two more"
mbd_restart
check "a restart knows every acknowledged job once" all_once

# a2. The primary removed while mbatchd runs: its writes would go to a
# file no one reads again.
rm "$pri"
stream 3 "primary removed"
expect_eq "the removal is logged once" 1 \
    "$(nlog "cannot write $pri: No such file or directory")"
caught_up "primary removed while running"
mbd_restart
check "a restart knows every acknowledged job once" all_once

# b. The primary replaced by a directory while mbatchd is down: the
# replica is used, and the primary recreated once the directory goes.
mbd_down
rm "$pri"
mkdir "$pri"
mbd_up
expect_eq "mbatchd runs on the replica" 2 \
    "$(nlog "$pri cannot be used: running on the replica")"
check "every acknowledged job is known once" all_once
stream 3 "primary a directory"
rmdir "$pri"
caught_up "primary recreated"
# Removed while down: recreated at start.
mbd_down
rm "$pri"
mbd_up
identical "primary removed while down"
check "every acknowledged job is known once" all_once

# c. The replica replaced by a directory while mbatchd runs: the
# primary alone holds what is acknowledged meanwhile.
rm "$rep"
mkdir "$rep"
stream 3 "replica a directory"
expect_eq "the replica's fault is logged once" 1 \
    "$(nlog "cannot write $rep: No such file or directory")"
check "the primary holds them" test "$(grep -c '^"JOB_NEW"' "$pri")" -ge \
    "$(echo $ids | wc -w)"
rmdir "$rep"
caught_up "replica recreated"
mbd_restart
check "a restart knows every acknowledged job once" all_once

# d. A switch while the primary is full: both sides' generations end
# identical and badmin logcheck passes on both.
fill
n0=$(nlog "switched .*lsb.events after")
sw=""
for i in 1 2 3 4 5 6 7; do sw="$sw $(submit -o /dev/null true)"; done
wait_for sh -c "[ \$(grep -c 'switched .*lsb.events after' $mbdlog) -gt $n0 ]" ||
    fail "no switch"
check "the primary has no lsb.events.1 yet" test ! -s "$pri.1"
wait_for sh -c "[ -z \"\$(bjobs -noheader -o stat $sw | grep -v DONE)\" ]"
stream 2 "after the switch"
rm -f "$localdir/fill" "$localdir/fill2"
caught_up "switched while the primary was full"
check "the primary has lsb.events.1" test -s "$pri.1"
for f in "$rep".[1-9]*; do
	check "${f##*/} is identical on both sides" cmp "$f" "$pri.${f##*.}"
done
check "badmin logcheck passes on the primary" badmin logcheck "$pri" "$pri.1"
check "badmin logcheck passes on the replica" badmin logcheck "$rep" "$rep.1"
mbd_restart
check "a restart knows every acknowledged job once" all_once
identical "after the last restart"

finish
