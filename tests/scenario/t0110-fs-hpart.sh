#!/bin/bash
# Host-partition fairshare (issue 22): lsb.hosts puts hosta and hostb in
# partition p1 with USER_SHARES [root, 3] [daemon, 1]; queue "part"
# (HOSTS = hosta hostb, no FAIRSHARE) is ordered by p1's shares.  daemon
# submits first, then root; the 2 x 8 slots go by shares / (1 + slots)
# (CPU and run time factors 0), root first on a tie: with daemon at k,
# root starts up to 3k + 3, so 12 : 4 (in submission order daemon would
# take all 16).  A user without a share in p1 (bin) may not submit to
# it (LSF: only users with a share assignment may); a user whose share
# a reconfig took away keeps a pending job that says why it waits.  Queue
# "wide" also reaches hostc, which is in no partition: p1 does not order
# it (lsb.queues(5): only a queue whose hosts all lie in the partition),
# so bin's job there starts.
. "$(dirname "$0")/lib.sh"
need_root

cluster_init 3
queues "part 30 HOSTS = hosta hostb" "other 20 HOSTS = hostc" "wide 10"
sed -i 's/^End Parameters/CPU_TIME_FACTOR = 0\nRUN_TIME_FACTOR = 0\n&/' \
	"$LSB_CONF/lsb.params"
host_mxj 8
cat >>"$LSB_CONF/lsb.hosts" <<EOF

Begin HostPartition
HPART_NAME = p1
HOSTS = hosta hostb
USER_SHARES = [root, 3] [daemon, 1]
End HostPartition
EOF
cluster_start
cd "$T_DIR/jobs"

expect_match "statedump: p1's tree orders queue part only" \
	"^fstree hpart/p1 queues=part$" "$(badmin statedump)"

badmin qinact part >/dev/null
as_user daemon bsub -q part -J "d[1-20]" -o /dev/null 'sleep 60' \
	>/dev/null || fail "daemon's array"
bsub -q part -J "r[1-20]" -o /dev/null 'sleep 60' >/dev/null ||
	fail "root's array"
expect_match "a user without a share in p1 may not submit to part" \
	"User cannot use the queue" \
	"$(as_user bin bsub -q part -o /dev/null sleep 60 2>&1)"
badmin qact part >/dev/null

running() {
	bjobs -u "$1" -r -noheader -q part 2>/dev/null | wc -l
}
wait_for sh -c "[ \$(bjobs -u all -r -noheader -q part | wc -l) -ge 16 ]" ||
	fail "the 16 slots were not filled"
expect_eq "p1's shares split its 16 slots 3:1" "root=12 daemon=4" \
	"root=$(running root) daemon=$(running daemon)"
expect_match "statedump: daemon's account in p1 holds 4" \
	"^fs daemon/ shares=1 leaf=1 .* slots=4 " "$(badmin statedump)"

# FCFS elsewhere: hostc is in no partition, queue other is not ordered.
o1=$(as_user daemon bsub -q other -o /dev/null sleep 60 |
	sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
check "queue other (hostc) starts daemon's job" wait_for job_is "$o1" RUN

bkill -u root -q part 0 >/dev/null 2>&1
bkill -u daemon -q part 0 >/dev/null 2>&1
wait_for sh -c "[ -z \"\$(bjobs -u all -r -noheader -q part)\" ]" ||
	fail "part's jobs did not end"
# daemon's share taken away while its job pends: root's next job starts
# on the free hosts, daemon's says why it does not.
badmin qinact part >/dev/null
dj=$(as_user daemon bsub -q part -o /dev/null sleep 60 |
	sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
sed -i 's/^USER_SHARES = \[root, 3\] \[daemon, 1\]/USER_SHARES = [root, 3]/' \
	"$LSB_CONF/lsb.hosts"
badmin reconfig >/dev/null 2>&1 || fail "reconfig"
no_daemon() {
	! badmin statedump | grep -q '^fs daemon/'
}
wait_for no_daemon || fail "daemon's account is still in p1"
badmin qact part >/dev/null
r=$(submit -q part -o /dev/null sleep 60)
wait_for job_is "$r" RUN || fail "root's job did not start on free hosts"
check "daemon's job, without an account in p1 now, stays pending" \
	job_is "$dj" PEND
expect_match "and says why" \
	"The user has no share in the queue's fairshare policy" \
	"$(bjobs -p "$dj")"
w=$(as_user bin bsub -q wide -o /dev/null sleep 60 |
	sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
check "bin's job in queue wide (hosta hostb hostc) starts" \
	wait_for job_is "$w" RUN
bkill -u all 0 >/dev/null 2>&1
finish
