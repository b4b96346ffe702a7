#!/bin/bash
# LSF keys read without effect are warned about with file:line, not
# accepted in silence: by badmin ckconfig (without -v too), by badmin
# reconfig, in mbatchd's log when it starts and when it reconfigures,
# and lsf.cluster's in lim's log.  A wrong-typed value of such a key is
# an error that reconfig refuses.  #INCLUDE brings a queue in from
# another file on a live cluster; errors there name the included file.
. "$(dirname "$0")/lib.sh"

cluster_init 1
mkdir -p "$LSB_CONF/site"
cat >"$LSB_CONF/lsb.queues" <<EOF2
Begin Queue
QUEUE_NAME   = normal
PRIORITY     = 30
IMPT_JOBBKLG = 10
End Queue
#INCLUDE "site/night.queues"
EOF2
cat >"$LSB_CONF/site/night.queues" <<EOF2
Begin Queue
QUEUE_NAME = night
PRIORITY   = 40
End Queue
EOF2
printf 'Begin Parameters\nPROBE_TIMEOUT = 2\nEnd Parameters\n' \
    >>"$LSF_CONF/lsf.cluster.c1"
pline=$(grep -n '^PROBE_TIMEOUT' "$LSF_CONF/lsf.cluster.c1" | cut -d: -f1)
warn="warning: queue normal: IMPT_JOBBKLG is not supported by this version and has no effect"

out=$(badmin ckconfig 2>&1)
expect_match "ckconfig (no -v) names the key with file:line" \
    "lsb\.queues:4: $warn\$" "$out"
expect_match "and lsf.cluster's" \
    "lsf\.cluster\.c1:$pline: warning: PROBE_TIMEOUT is not supported" "$out"
expect_match "the verdict is warnings" '^There are warning errors\.$' "$out"
out=$(badmin ckconfig -v 2>&1)
expect_match "ckconfig -v lists the included file" \
    "^Reading $LSB_CONF/site/night\.queues\$" "$out"

cluster_start
mlog="$T_DIR/log/mbatchd.log.hosta"
wait_for grep -q "lsb\.queues:4: $warn" "$mlog"
check "mbatchd's log at start has the warning with file:line" \
    grep -q "configuration: .*lsb\.queues:4: $warn" "$mlog"
check "lim's log has lsf.cluster's" grep -q \
    "lsf\.cluster\.c1:$pline: warning: PROBE_TIMEOUT is not supported" \
    "$T_DIR/log/lim.log.hosta"
wait_for sh -c 'bqueues night | grep -q "^night "'
expect_match "the included queue is live" "^night +40 " "$(bqueues 2>&1)"

# A second queue in the included file, with a key of no effect.
cat >>"$LSB_CONF/site/night.queues" <<EOF2

Begin Queue
QUEUE_NAME      = late
PRIORITY        = 45
IGNORE_DEADLINE = Y
End Queue
EOF2
out=$(badmin reconfig 2>&1)
expect_match "reconfig warns, naming the included file and its line" \
    "site/night\.queues:9: warning: queue late: IGNORE_DEADLINE is not supported" \
    "$out"
expect_match "and reconfigures" "^Reconfiguration initiated\$" "$out"
wait_for sh -c 'bqueues late 2>/dev/null | grep -q "^late "' ||
    fail "the queue added in the included file did not appear"
pass "a queue added to the included file is live after reconfig"
wait_for grep -q "reconfig: .*night\.queues:9: warning: queue late: IGNORE_DEADLINE" "$mlog"
check "mbatchd logs the reconfig's warnings" \
    grep -q "reconfig: .*night\.queues:9: warning: queue late: IGNORE_DEADLINE" "$mlog"

# A value of the wrong type is an error, even for such a key.
sed -i 's/^IGNORE_DEADLINE = Y/IGNORE_DEADLINE = maybe/' "$LSB_CONF/site/night.queues"
out=$(badmin ckconfig 2>&1)
expect_match "a wrong-typed value is an error at the included file's line" \
    "site/night\.queues:9: queue late: bad IGNORE_DEADLINE \"maybe\": must be Y or N" "$out"
expect_match "fatal" '^There are fatal errors\.$' "$out"
check "reconfig refuses it" sh -c '! badmin reconfig -f >/dev/null 2>&1'
check "the queues stay" sh -c 'bqueues late | grep -q "^late "'
finish
