#!/bin/bash
# make demo on a busy machine: the sample configuration's default queue
# and hosts have no load thresholds, so the demo's jobs run however
# loaded the machine is (a build had left r1m at 3.0, over the old
# default queue's 2.0, and the demo failed on a missing output file).
# The demo runs here while two CPU-bound loops keep both cores busy.
. "$(dirname "$0")/lib.sh"

idx='(r15s|r1m|r15m|ut|pg|io|ls|it|tmp|swp|mem)'
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lsft.$T_NAME.XXXXXX")
loops=""
cleanup() {
	for p in $loops; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# The sample configuration as a site would install it.
cp -R "$TOP/etc" "$tmp/conf"
sed -i -e "s|^LSF_CONFDIR=.*|LSF_CONFDIR=$tmp/conf|" \
    -e "s|^LSB_SHAREDIR=.*|LSB_SHAREDIR=$tmp/work|" \
    -e "s|^LSF_LOGDIR=.*|LSF_LOGDIR=$tmp/log|" "$tmp/conf/lsf.conf"
dump=$("$BUILD/tests/conf-dump" "$tmp/conf" 2>&1)
expect_match "the sample configuration has no errors" '^No errors found\.$' \
    "$dump"
default=$(echo "$dump" | sed -n 's/^lsb\.params\.DEFAULT_QUEUE = //p')
expect_eq "its default queue is normal" normal "$default"
expect_eq "the default queue has no load thresholds" "" \
    "$(echo "$dump" | grep -E "^lsb\.queues\.$default\.$idx = ")"
expect_eq "no host has load thresholds" "" \
    "$(echo "$dump" | grep -E "^lsb\.hosts\.Host\.[^.]+\.$idx = ")"
expect_eq "the idle queue shows LSF's threshold example" "0.25/1.75" \
    "$(echo "$dump" | sed -n 's/^lsb\.queues\.idle\.r1m = //p')"

for i in 1 2; do
	( while :; do :; done ) &
	loops="$loops $!"
done
out=$(BUILD="$BUILD" DEMO_WAIT=60 "$TOP/tools/demo.sh" 2>&1)
rc=$?
expect_eq "the demo exits 0 with both cores busy" 0 "$rc"
[ "$rc" -eq 0 ] || echo "$out" | sed 's/^/# /'
expect_match "it shows the first job's output" \
    '^hello from job 1 on demohost$' "$out"
expect_match "with its job report" '^Subject: Job 1: <hello> in cluster <cluster1> Done$' \
    "$out"
expect_match "which says it completed" '^Successfully completed\.$' "$out"
expect_match "and its resource usage" '^Resource usage summary:$' "$out"
expect_match "the killed job ended EXIT" '^4 +[a-z0-9_]+ +EXIT +normal ' "$out"

finish
