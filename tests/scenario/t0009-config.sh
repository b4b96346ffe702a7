#!/bin/bash
# Checking the configuration: badmin ckconfig, lsadmin ckconfig and
# mbatchd -n; errors name file:line and a bad file stops nothing running.
. "$(dirname "$0")/lib.sh"

cluster_init 1
out=$(badmin ckconfig 2>&1)
rc=$?
expect_eq "a good configuration" "$(printf '\nChecking configuration files ...\n\nNo errors found.\n')" "$out"
expect_eq "badmin ckconfig exits 0" 0 "$rc"
expect_eq "lsadmin ckconfig exits 0" 0 "$(lsadmin ckconfig >/dev/null 2>&1; echo $?)"
expect_eq "mbatchd -n exits 0" 0 "$("$SBIN/mbatchd" -n >/dev/null 2>&1; echo $?)"

cp "$LSB_CONF/lsb.queues" "$T_DIR/lsb.queues.good"
cat >>"$LSB_CONF/lsb.queues" <<EOT

Begin Queue
QUEUE_NAME = broken
PRIORITY = high
r1m = a/b
End Queue
EOT
line=$(grep -n 'PRIORITY = high' "$LSB_CONF/lsb.queues" | cut -d: -f1)
out=$(badmin ckconfig 2>&1)
rc=$?
check "badmin ckconfig fails on errors" test "$rc" -ne 0
expect_match "the error names file and line" "lsb.queues:$line: " "$out"
expect_match "LSF's verdict" '^There are fatal errors\.$' "$out"
check "mbatchd -n fails too" sh -c "! $SBIN/mbatchd -n >/dev/null 2>&1"
check "sbatchd refuses to start on errors" sh -c \
    "! timeout 10 $SBIN/sbatchd -f -N hosta >/dev/null 2>&1"
cp "$T_DIR/lsb.queues.good" "$LSB_CONF/lsb.queues"

echo "NOT_A_KEY = 1" >>"$LSB_CONF/lsb.params"
sed -i 's/^End Parameters$//' "$LSB_CONF/lsb.params"
echo "End Parameters" >>"$LSB_CONF/lsb.params"
out=$(badmin ckconfig 2>&1)
rc=$?
expect_eq "warnings do not fail ckconfig" 0 "$rc"
expect_match "an unknown key is a warning" 'lsb.params:[0-9]+: warning' "$out"
expect_match "LSF's verdict for warnings" '^There are warning errors\.$' "$out"

cluster_start
expect_match "the cluster starts with warnings" '^hosta +ok' "$(bhosts | grep hosta)"
finish
