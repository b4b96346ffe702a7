#!/bin/bash
# The fairshare adjustment plug-in (libfairshareadjust(3)): mbatchd loads
# the sample (build/lib/libfairshareadjust.so) from LSF_LIBDIR, and with
# FAIRSHARE_ADJUSTMENT_FACTOR = 1 the adjustment it reads from
# LSF_ENVDIR/fairshare.adjust turns the order of two accounts around:
# root, with 5 shares to nobody's 1, would go first; given an adjustment
# of 100 (5/103 against 1/3) it goes after nobody.  The plug-in reads its
# file again when it changes: the next jobs go root first.  One slot, so
# jobs start one at a time and write the order they ran in.
. "$(dirname "$0")/lib.sh"
need_root

cluster_init 1 "LSF_LIBDIR=$BUILD/lib"
test -f "$BUILD/lib/libfairshareadjust.so" || {
	fail "the sample plug-in is not built"; finish; exit 1; }
queues "fair 30 FAIRSHARE = USER_SHARES[[root, 5] [nobody, 1]]"
host_mxj 1
sed -i -e '/^End Parameters/i FAIRSHARE_ADJUSTMENT_FACTOR = 1' \
    -e '/^End Parameters/i CPU_TIME_FACTOR = 0' \
    -e '/^End Parameters/i RUN_TIME_FACTOR = 0' "$LSB_CONF/lsb.params"
echo "root 100" >"$LSF_ENVDIR/fairshare.adjust"
cluster_start
cd "$T_DIR/jobs"
: >order
chmod 666 order

check "mbatchd loaded the plug-in" wait_for grep -q \
    "fairshare adjustment plug-in $BUILD/lib/libfairshareadjust.so loaded" \
    "$T_DIR"/log/mbatchd.log.*

# submit_as WHO NAME: a job of the queue that writes NAME in order.
submit_as() {
	local who=$1 name=$2 out
	if [ "$who" = root ]; then
		out=$(bsub -q fair -o /dev/null "echo $name >>order")
	else
		out=$(as_nobody bsub -q fair -o /dev/null "echo $name >>order")
	fi
	echo "$out" | sed -n 's/^Job <\([0-9]*\)> is submitted.*/\1/p'
}

# run_batch "WHO:NAME ...": submitted in that order while the queue
# does not dispatch, then let go; prints the order they ran in.
run_batch() {
	local j ids=""
	: >order
	badmin qinact fair >/dev/null
	for j in "$@"; do
		ids="$ids $(submit_as "${j%%:*}" "${j#*:}")"
	done
	badmin qact fair >/dev/null
	for j in $ids; do
		wait_for job_is "$j" DONE || fail "job $j did not run"
	done
	tr '\n' ' ' <order | sed 's/ $//'
}

got=$(run_batch root:r1 root:r2 root:r3 nobody:n1 nobody:n2 nobody:n3)
expect_eq "root's adjustment of 100 puts nobody's jobs first" \
    "n1 n2 n3 r1 r2 r3" "$got"

# Shown in bqueues -l's share table, if it has the ADJUST column.
out=$(bqueues -l fair)
if printf '%s\n' "$out" | grep -q ADJUST; then
	expect_match "bqueues -l shows root's adjustment" \
	    '^ *root +5 .* 100(\.0+)? *$' "$out"
fi

# The file changes: no reconfig, the next pass sees it.
echo "nobody 100" >"$LSF_ENVDIR/fairshare.adjust"
sleep 1.1	# the plug-in looks at its file once a second
got=$(run_batch root:r4 nobody:n4 nobody:n5 root:r5)
expect_eq "with the adjustment on nobody, root's jobs go first" \
    "r4 r5 n4 n5" "$got"
finish
