#!/bin/bash
# PEND_TIME_LIMIT and ELIGIBLE_PEND_TIME_LIMIT (issue 35) at the three
# levels LSF reads them: lsb.params (bparams -a), lsb.queues (bqueues -l)
# and lsb.applications (bapp -l) show them as configured; LSF itself
# takes no action on them (IBM leaves that to RTM), so a job of the
# queue runs as any other.  A value that is not [hour:]minute is an
# error naming its file and line.
. "$(dirname "$0")/lib.sh"

cluster_init 1
params PEND_TIME_LIMIT=2:00 ELIGIBLE_PEND_TIME_LIMIT=90
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = limited
PRIORITY = 10
PEND_TIME_LIMIT = 30
ELIGIBLE_PEND_TIME_LIMIT = 0:20
End Queue
EOF
cat >"$LSB_CONF/lsb.applications" <<EOF
Begin Application
NAME = quick
PEND_TIME_LIMIT = 1:30
End Application
EOF
cluster_start
cd "$T_DIR/jobs"

out=$(bparams -a)
expect_match "bparams -a: the cluster's PEND_TIME_LIMIT" \
	"PEND_TIME_LIMIT = 2:00" "$out"
expect_match "bparams -a: the cluster's ELIGIBLE_PEND_TIME_LIMIT" \
	"ELIGIBLE_PEND_TIME_LIMIT = 90" "$out"
out=$(bqueues -l limited)
expect_match "bqueues -l: the queue's PEND_TIME_LIMIT" \
	"^PEND_TIME_LIMIT:  30$" "$out"
expect_match "bqueues -l: the queue's ELIGIBLE_PEND_TIME_LIMIT" \
	"^ELIGIBLE_PEND_TIME_LIMIT:  0:20$" "$out"
expect_match "bapp -l: the profile's PEND_TIME_LIMIT" \
	"^PEND_TIME_LIMIT:  1:30$" "$(bapp -l quick)"
j=$(submit -q limited -app quick -o /dev/null sleep 300)
check "a job of both runs as any other" wait_for job_is "$j" RUN
bkill "$j" >/dev/null

sed -i 's/^PEND_TIME_LIMIT = 30$/PEND_TIME_LIMIT = 1:75/' \
	"$LSB_CONF/lsb.queues"
expect_match "badmin ckconfig: a bad PEND_TIME_LIMIT, with its line" \
	"lsb.queues:[0-9]*:.*PEND_TIME_LIMIT.*\[hour:\]minute" \
	"$(badmin ckconfig 2>&1)"
finish
