#!/bin/bash
# RUN_TIME_DECAY and a queue's ENABLE_HIST_RUN_TIME (issue 35).  With
# HIST_HOURS = 0.001 (3.6 s) a running job's run time, decayed so that
# a second run counts 0.1 second 3.6 s later, never passes 3.6 / ln 10
# = 1.56 s in a queue with RUN_TIME_DECAY = Y, while it grows with the
# clock in one without.  In a queue with ENABLE_HIST_RUN_TIME = Y (over
# lsb.params' N) an ended job's run time stays in the account's
# RUN_TIME; without it the run time goes with the job.
. "$(dirname "$0")/lib.sh"

cluster_init 1
host_mxj 4
params HIST_HOURS=0.001
FS="FAIRSHARE = USER_SHARES[[default, 1]]"
queues "dec 30 $FS; RUN_TIME_DECAY = Y" \
	"lin 30 $FS" \
	"hist 30 $FS; ENABLE_HIST_RUN_TIME = Y; HIST_HOURS = 1" \
	"nohist 30 $FS; HIST_HOURS = 1"
cluster_start
cd "$T_DIR/jobs"

# run_time QUEUE: root's RUN_TIME (seconds) in the queue's SHARE_INFO.
run_time() {
	bqueues -l "$1" | awk '/^SHARE_INFO_FOR/ { t = 1 } t && $1 == "root" {
	    print $7; exit }'
}
run_time_ge() {
	local r
	r=$(run_time "$1")
	[ -n "$r" ] && [ "$r" -ge "$2" ]
}

d=$(submit -q dec -o /dev/null sleep 300)
l=$(submit -q lin -o /dev/null sleep 300)
h=$(submit -q hist -o /dev/null sleep 2)
n=$(submit -q nohist -o /dev/null sleep 2)
check "lin's job runs" wait_for job_is "$l" RUN
check "dec's job runs" job_is "$d" RUN
check "without RUN_TIME_DECAY the run time grows past 6 s" \
	wait_for run_time_ge lin 6
r=$(run_time dec)
echo "# dec's RUN_TIME: $r s"
check "with RUN_TIME_DECAY it stays below 3.6 / ln 10 s" \
	test -n "$r" -a "$r" -le 2
check "hist's job ends" wait_for job_is "$h" DONE
check "nohist's job ends" wait_for job_is "$n" DONE
r=$(run_time hist)
echo "# hist's RUN_TIME after its job: $r s"
check "ENABLE_HIST_RUN_TIME = Y: the ended job's run time stays" \
	test -n "$r" -a "$r" -ge 1
expect_eq "lsb.params' N: the run time goes with the job" 0 \
	"$(run_time nohist)"

# A value that is not Y or N is an error naming file and line.
sed -i 's/^RUN_TIME_DECAY = Y$/RUN_TIME_DECAY = sometimes/' \
	"$LSB_CONF/lsb.queues"
expect_match "badmin ckconfig: a bad RUN_TIME_DECAY, with its line" \
	"lsb.queues:[0-9]*:.*RUN_TIME_DECAY" "$(badmin ckconfig 2>&1)"
bkill -u all 0 >/dev/null 2>&1
finish
