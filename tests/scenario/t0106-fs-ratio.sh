#!/bin/bash
# Queue fairshare (issue 22): two users with shares 3:1 keep a 3-host
# cluster busy with short jobs; the jobs each has started stay within
# 10% of 3:1.  With slots the only factor, an account's priority is
# shares / (1 + slots): with 60 slots the balance is 45.5 : 14.5 (3.1:1),
# which the first pass reaches at once and every later one keeps.
. "$(dirname "$0")/lib.sh"
need_root

cluster_init 3
queues "fair 30 FAIRSHARE = USER_SHARES[[root, 3] [daemon, 1]]"
sed -i 's/^DEFAULT_QUEUE.*/DEFAULT_QUEUE = fair/' "$LSB_CONF/lsb.params"
sed -i 's/^End Parameters/CPU_TIME_FACTOR = 0\nRUN_TIME_FACTOR = 0\n&/' \
	"$LSB_CONF/lsb.params"
host_mxj 20
cluster_start
cd "$T_DIR/jobs"

# Closed while the two fill it, so that neither starts first.
badmin qclose fair >/dev/null
badmin qinact fair >/dev/null
badmin qopen fair >/dev/null
bsub -J "r[1-400]" -o /dev/null 'sleep 1' >/dev/null ||
	fail "root's array"
as_user daemon bsub -J "d[1-400]" -o /dev/null 'sleep 1' >/dev/null ||
	fail "daemon's array"
expect_match "a user without a share is refused" "User cannot use the queue" \
	"$(as_user bin bsub -o /dev/null true 2>&1)"
badmin qact fair >/dev/null

started() {
	bjobs -u "$1" -a -noheader -o stat 2>/dev/null | grep -vc PEND
}
# Until about 240 have started: both users still have jobs pending.
wait_for sh -c "[ \$(bjobs -u all -a -noheader -o stat | grep -vc PEND) \
	-ge 240 ]" || fail "jobs did not start"
r=$(started root)
d=$(started daemon)
echo "# started: root $r, daemon $d"
ratio=$(awk -v r="$r" -v d="$d" 'BEGIN { printf "%d", d ? 100 * r / d : 0 }')
check "root started 2.7 to 3.3 times as many (x100: $ratio)" \
	test "$ratio" -ge 270 -a "$ratio" -le 330
check "daemon still has jobs pending" test "$(bjobs -u daemon -p -noheader \
	2>/dev/null | wc -l)" -gt 0
bkill -u all 0 >/dev/null 2>&1
finish
