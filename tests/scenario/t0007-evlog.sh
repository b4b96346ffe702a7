#!/bin/bash
# lsb.events after a crash: a torn last record is dropped and everything
# before it kept; damage in the middle stops mbatchd, naming the file and
# the offset, and nothing is lost or rewritten.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cluster_start
cd "$T_DIR/jobs"
ev="$T_DIR/work/c1/logdir/lsb.events"

ids=""
for i in 1 2 3; do ids="$ids $(submit -o /dev/null true)"; done
hold=$(submit -H sleep 1)
wait_for job_is "${ids##* }" DONE

# Stop the cluster's mbatchd for good (stop sbatchd, which owns it).
kill "$PID_sbatchd_hosta"
wait "$PID_sbatchd_hosta" 2>/dev/null

# A torn tail: half a record, no newline.
printf '"JOB_NEW" "10.1" 1700000000 99 0 0 1 17000' >>"$ev"
start_daemon sbatchd hosta
wait_for sh -c "bjobs -noheader $hold >/dev/null 2>&1"
expect_eq "the held job survived" PSUSP "$(job_stat "$hold")"
for id in $ids; do
	check "job $id survived" job_is "$id" DONE
done
check "the torn tail is gone" sh -c "! grep -q '1700000000 99 0' $ev"
n=$(submit true)
check "new jobs are logged after it" test "$n" -gt "$hold"
wait_for job_is "$n" DONE

kill "$PID_sbatchd_hosta"
wait "$PID_sbatchd_hosta" 2>/dev/null

# Damage in the middle: change one byte of the second job's record.
cp "$ev" "$T_DIR/events.before"
line=$(grep -n '^"JOB_NEW"' "$ev" | sed -n 2p | cut -d: -f1)
off=$(head -n $((line - 1)) "$ev" | wc -c)
sed -i "${line}s/\"normal\"/\"xormal\"/" "$ev"
out=$("$SBIN/mbatchd" -d -N hosta 2>&1)
rc=$?
check "mbatchd refuses to start" test "$rc" -ne 0
expect_match "and says where" "lsb.events: offset $off: record checksum mismatch" "$out"
check "the log is left as it was" sh -c \
    "[ \$(wc -c <$ev) -eq \$(wc -c <$T_DIR/events.before) ]"
finish
