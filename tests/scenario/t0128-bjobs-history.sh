#!/bin/bash
# bjobs <id> of a finished job after mbatchd has cleaned it (CLEAN_PERIOD)
# is answered from the job history database: bjobs, -l, -o ... -noheader
# and -json -o give what they gave while mbatchd still had the job, for a
# DONE job, an EXIT job and an array; an ID history does not know is
# still "not found", and bjobs -r <id> of a cleaned job finds nothing.
. "$(dirname "$0")/lib.sh"

cluster_init 1
sed -i "s/^CLEAN_PERIOD.*/CLEAN_PERIOD = 8/" "$LSB_CONF/lsb.params"
cluster_start
cd "$T_DIR/jobs"
EVENTS="$T_DIR/work/c1/logdir/lsb.events"

done_j=$(submit -J okjob -o /dev/null true)
exit_j=$(submit -J bad -o /dev/null 'exit 3')
arr_j=$(submit -J 'arr[1-2]' -o /dev/null true)
for j in "$done_j" "$exit_j"; do
	wait_for sh -c "bjobs -noheader -o stat $j | grep -Eq 'DONE|EXIT'" ||
	    fail "job $j did not finish"
done
wait_for sh -c "[ \$(bjobs -noheader -o stat $arr_j | grep -c DONE) = 2 ]" ||
    fail "array $arr_j did not finish"

cleaned() {
	grep -Eq "^\"JOB_CLEAN\" \"[^\"]*\" [0-9]+ $1 " "$EVENTS"
}

# What bjobs says while mbatchd has them.
views() {
	local j=$1
	echo "== plain"; bjobs "$j" 2>&1; echo "rc=$?"
	echo "== wide"; bjobs -w "$j" 2>&1
	echo "== all"; bjobs -a "$j" 2>&1
	echo "== long"; bjobs -l "$j" 2>&1
	echo "== fields"; bjobs -o "jobid stat exit_code queue user" \
	    -noheader "$j" 2>&1; echo "rc=$?"
	echo "== json"; bjobs -json -o "jobid stat exit_code" "$j" 2>&1
}
for j in "$done_j" "$exit_j" "$arr_j" "$arr_j[2]"; do
	views "$j" >"before.$j"
done
for j in "$done_j" "$exit_j" "$arr_j"; do
	cleaned "$j" && fail "job $j was cleaned before its first view"
done
expect_match "the exit job exited with 3" "^$exit_j EXIT 3 normal " \
    "$(cat "before.$exit_j")"

for j in "$done_j" "$exit_j" "$arr_j"; do
	WAIT_SECS=90 wait_for cleaned "$j" || fail "job $j was not cleaned"
done

for j in "$done_j" "$exit_j" "$arr_j" "$arr_j[2]"; do
	views "$j" >"after.$j"
	if cmp -s "before.$j" "after.$j"; then
		pass "bjobs of cleaned job $j as before"
	else
		fail "bjobs of cleaned job $j as before"
		diff "before.$j" "after.$j" | sed 's/^/#   /'
	fi
done

out=$(bjobs 999999 2>&1); rc=$?
expect_eq "an unknown job is not found" "Job <999999> is not found" "$out"
expect_eq "with bjobs's exit code" 255 "$rc"
out=$(bjobs -r "$done_j" 2>&1)
expect_match "bjobs -r of a cleaned DONE job finds nothing" \
    "Job <$done_j> is not (found|running)" "$out"
finish
