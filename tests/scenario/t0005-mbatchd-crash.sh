#!/bin/bash
# kill -9 of mbatchd while jobs are being submitted: every job bsub
# acknowledged is still there after sbatchd restarts mbatchd, job IDs
# never repeat, and a job that was running keeps running and finishes.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cluster_start
cd "$T_DIR/jobs"

mbd_pid() {
	pgrep -P "$PID_sbatchd_hosta" -x mbatchd
}

long=$(submit -o long.%J sleep 4)
wait_for job_is "$long" RUN
old=$(mbd_pid)

# Four submitters at once, each recording only what was acknowledged.
: >acked
subs=""
for s in 1 2 3 4; do
	(
		for i in $(seq 1 ${NSUB:-60}); do
			out=$(bsub -o /dev/null true 2>/dev/null) &&
			    echo "$out" >>acked.$s
		done
	) &
	subs="$subs $!"
done
sleep 0.3
kill -9 "$(mbd_pid)"
wait_for sh -c "pgrep -P $PID_sbatchd_hosta -x mbatchd >/dev/null"
sleep 0.3
kill -9 "$(mbd_pid)"
for p in $subs; do wait "$p"; done
cat acked.* >acked

wait_for sh -c "pgrep -P $PID_sbatchd_hosta -x mbatchd >/dev/null"
new=$(mbd_pid)
check "sbatchd restarted mbatchd" test -n "$new" -a "$new" != "$old"
stat=$(job_stat "$long")
check "the running job is still RUN after the crashes ($stat)" \
    test "$stat" = RUN -o "$stat" = DONE
n=$(wc -l <acked)
check "submissions were acknowledged across the crashes ($n)" test "$n" -gt 100
ids=$(sed 's/^Job <\([0-9]*\)>.*/\1/' acked | sort -n)
expect_eq "no job ID was given twice" "$n" "$(echo "$ids" | uniq | wc -l)"
check "the long job's ID is older than all of them" \
    test "$(echo "$ids" | head -n 1)" -gt "$long"

# Every acknowledged job is known (and finishes).
found=$(bjobs -a -noheader -o jobid $ids 2>/dev/null | sort -n)
expect_eq "every acknowledged job is still there" "$ids" "$found"
last=$(echo "$ids" | tail -n 1)
wait_for job_is "$last" DONE
check "the last acknowledged job ran" job_is "$last" DONE
not_done() {
	bjobs -a -noheader -o stat $ids 2>/dev/null | grep -vc DONE
}
all_done() {
	[ "$(not_done)" -eq 0 ]
}
wait_for all_done
expect_eq "all acknowledged jobs end DONE" 0 "$(not_done)"

# The job that ran through both restarts.
wait_for job_is "$long" DONE
check "the long job finished DONE" job_is "$long" DONE
expect_eq "its report is in its output" "Successfully completed." \
    "$(grep -B2 '^Resource usage summary:' "long.$long" | head -n 1)"

# IDs keep going up after the restarts.
next=$(submit true)
check "a new job gets a new ID" test "$next" -gt "$last"

finish
