#!/bin/bash
# DEFAULT_APPLICATION (lsb.params): the profile of a job submitted
# without -app; -app still chooses.  A name that is not a profile, and a
# bad value in lsb.applications, are file:line errors of badmin ckconfig
# and mbatchd -n.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cat >"$LSB_CONF/lsb.applications" <<EOF
Begin Application
NAME = fluent
End Application

Begin Application
NAME = catia
End Application
EOF
cp "$LSB_CONF/lsb.params" "$T_DIR/lsb.params.plain"
sed -i 's/^End Parameters/DEFAULT_APPLICATION = nosuch\n&/' \
    "$LSB_CONF/lsb.params"
l=$(grep -n DEFAULT_APPLICATION "$LSB_CONF/lsb.params" | cut -d: -f1)
out=$(badmin ckconfig 2>&1)
rc=$?
check "ckconfig fails on a DEFAULT_APPLICATION that is no profile" \
    test "$rc" -ne 0
expect_match "... with file:line and why" \
    "lsb\\.params:$l: DEFAULT_APPLICATION names nosuch, which is not an application profile\$" \
    "$out"
out=$("$SBIN/mbatchd" -n 2>&1)
check "mbatchd -n fails too" test $? -ne 0

cp "$T_DIR/lsb.params.plain" "$LSB_CONF/lsb.params"
cat >>"$LSB_CONF/lsb.applications" <<EOF

Begin Application
NAME = bad
RERUNNABLE = sometimes
End Application
EOF
l=$(grep -n sometimes "$LSB_CONF/lsb.applications" | cut -d: -f1)
out=$(badmin ckconfig 2>&1)
expect_match "a bad value in lsb.applications: file:line and why" \
    "lsb\\.applications:$l: application bad: bad RERUNNABLE \"sometimes\": must be yes or no\$" \
    "$out"

head -n 7 "$LSB_CONF/lsb.applications" >"$T_DIR/apps" &&
    mv "$T_DIR/apps" "$LSB_CONF/lsb.applications"
sed -i 's/^End Parameters/DEFAULT_APPLICATION = fluent\n&/' \
    "$LSB_CONF/lsb.params"
out=$(badmin ckconfig 2>&1)
expect_eq "a good configuration passes ckconfig" 0 "$?"
cluster_start
cd "$T_DIR/jobs"

a=$(submit -H -o /dev/null true)
b=$(submit -H -app catia -o /dev/null true)
expect_eq "a job without -app gets DEFAULT_APPLICATION" "fluent" \
    "$(bjobs -noheader -o app "$a")"
expect_eq "-app still chooses" "catia" "$(bjobs -noheader -o app "$b")"
expect_match "bparams -l shows it" \
    $'\n    DEFAULT_APPLICATION = fluent\n' "$(bparams -l)"

# Without it again (reconfig): new jobs have no profile, old ones keep
# theirs.
cp "$T_DIR/lsb.params.plain" "$LSB_CONF/lsb.params"
badmin reconfig -f >/dev/null 2>&1
nodefault() { ! bparams -l | grep -q DEFAULT_APPLICATION; }
wait_for nodefault
c=$(submit -H -o /dev/null true)
expect_eq "after reconfig without it: no profile" "-" \
    "$(bjobs -noheader -o app "$c")"
expect_eq "... the earlier job keeps its own" "fluent" \
    "$(bjobs -noheader -o app "$a")"

bkill 0 >/dev/null 2>&1
finish
