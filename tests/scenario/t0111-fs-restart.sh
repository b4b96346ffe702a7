#!/bin/bash
# Fairshare history survives mbatchd's restart after the records of the
# jobs that made it are gone from lsb.events (cleaned, then the log
# switched: the FS_USAGE records of the switch keep it), so the order it
# gives is the same after the restart; the trees a restart rebuilds are
# the ones it left (badmin statedump); and badmin reconfig with changed
# shares keeps the history of the accounts that remain.
. "$(dirname "$0")/lib.sh"
need_root

cluster_init 1
queues "fair 30 FAIRSHARE = USER_SHARES[[root, 1] [daemon, 1]]"
sed -i 's/^DEFAULT_QUEUE.*/DEFAULT_QUEUE = fair/;
	s/^CLEAN_PERIOD.*/CLEAN_PERIOD = 0/' "$LSB_CONF/lsb.params"
sed -i 's/^End Parameters/CPU_TIME_FACTOR = 100000\nRUN_TIME_FACTOR = 0\nHIST_HOURS = 1000\nMAX_JOB_NUM = 2\n&/' \
	"$LSB_CONF/lsb.params"
host_mxj 1
cluster_start
cd "$T_DIR/jobs"
ev="$T_DIR/work/c1/logdir/lsb.events"

# root uses a second of CPU or so; daemon next to none.
b=$(submit -o /dev/null 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done')
wait_for job_is "$b" DONE || fail "root's job did not end"
t=$(as_user daemon bsub -o /dev/null true | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
wait_for job_is "$t" DONE || fail "daemon's job did not end"
cpu_of() {
	badmin statedump | sed -n "s|^fs $1/ .* cpu=\\([^@]*\\)@.*|\\1|p"
}
root_cpu=$(cpu_of root)
daemon_cpu=$(cpu_of daemon)
check "root's account has CPU history ($root_cpu hours, daemon's \
$daemon_cpu)" awk -v c="$root_cpu" -v d="$daemon_cpu" \
	'BEGIN { exit !(c > 0.00001 && c > 10 * d) }'
# Cleaned (mbatchd forgets within 30 s), then switched away by more
# finished jobs.
gone() {
	grep -q "^\"JOB_CLEAN\" \"[^\"]*\" [0-9]* $b " "$ev"
}
WAIT_SECS=60 wait_for gone || fail "root's job was not cleaned"
for i in 1 2 3; do
	x=$(submit -o /dev/null true)
	wait_for job_is "$x" DONE
done
nojob() {
	! grep -q "^\"JOB_NEW\" \"[^\"]*\" [0-9]* $b " "$ev" &&
	    grep -q '^"FS_USAGE" .* "queue/fair" "root" "root" ' "$ev"
}
check "lsb.events holds FS_USAGE for root, not the job" wait_for nojob

before=$(badmin statedump | grep '^fs')
mbd_restart
after=$(badmin statedump | grep '^fs')
expect_eq "the trees after the restart are the trees before it" \
	"$before" "$after"

# badmin reconfig with changed shares keeps the history of the accounts
# that are still there.
sed -i 's/\[daemon, 1\]\]/[daemon, 1] [bin, 2]]/' "$LSB_CONF/lsb.queues"
badmin reconfig >/dev/null 2>&1 || fail "reconfig"
has_bin() {
	badmin statedump | grep -q '^fs bin/ shares=2 leaf=1 '
}
check "the new share is in the tree after reconfig" wait_for has_bin
expect_eq "root's history is kept" \
	"$(echo "$before" | grep '^fs root/')" \
	"$(badmin statedump | grep '^fs root/')"

# One slot, both pending (root's submitted first, and root's entry is
# first, so a tie would go to root): daemon's goes first.
badmin qinact fair >/dev/null
r=$(submit -o /dev/null sleep 600)
d=$(as_user daemon bsub -o /dev/null sleep 600 | \
	sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
badmin qact fair >/dev/null
check "daemon's job starts first" wait_for job_is "$d" RUN
check "root's waits" job_is "$r" PEND
bkill -u all 0 >/dev/null 2>&1
finish
