#!/bin/bash
# Job arrays: one JOB_NEW whatever the size, LSB_JOBINDEX and %I, the %N
# running limit, bjobs -A, element and whole-array control, and the
# state of every element across an mbatchd restart.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >"$LSB_CONF/lsb.hosts" <<EOT
Begin Host
HOST_NAME  MXJ
default    3
End Host
EOT
params MAX_JOB_ARRAY_SIZE=200000
cluster_start
cd "$T_DIR/jobs"
ev="$T_DIR/work/c1/logdir/lsb.events"

cat >idx.sh <<'EOT'
echo "idx=$LSB_JOBINDEX name=$LSB_JOBNAME"
while [ ! -e go ]; do sleep 0.1; done
EOT

out=$(bsub -J "arr[1-9:2,4]%2" -o out.%J.%I sh idx.sh)
expect_match "one line for the whole array" \
    '^Job <[0-9]+> is submitted to default queue <normal>\.$' "$out"
a=$(echo "$out" | sed 's/Job <\([0-9]*\)>.*/\1/')
expect_eq "one JOB_NEW record for it" 1 \
    "$(grep -c "^\"JOB_NEW\" \"[0-9.]*\" [0-9]* $a " "$ev")"

wait_for sh -c "bjobs -noheader -r -o jobid $a | grep -c . | grep -qx 2"
sleep 0.5
expect_eq "%2: two elements run at once, though there are slots" 2 \
    "$(bjobs -noheader -r -o jobid "$a" | wc -l)"
expect_eq "bjobs -A header" \
    "JOBID    ARRAY_SPEC  OWNER   NJOBS PEND DONE  RUN EXIT SSUSP USUSP PSUSP" \
    "$(bjobs -A "$a" | head -n 1)"
expect_match "bjobs -A counts" \
    "^$a +arr\\[1-9:2,4\\]%2 +root +6 +4 +0 +2 +0 +0 +0 +0\$" \
    "$(bjobs -A "$a" | tail -n 1)"
expect_eq "elements by index, names with their index" \
    "arr[1] arr[3] arr[4] arr[5] arr[7] arr[9]" \
    "$(bjobs -noheader -o job_name "$a" | sort -t[ -k2 -n | xargs)"
expect_eq "the pending reason of the limit" \
    " The job array has reached its running element limit;" \
    "$(bjobs -p "$a[9]" | sed -n 3p)"

# Element control, then a restart in between.
bstop "$a[9]" >/dev/null
expect_eq "bstop of one pending element" PSUSP "$(job_stat "$a[9]")"
out=$(bkill "$a[7]")
expect_eq "bkill of one element" "Job <$a[7]> is being terminated" "$out"
expect_eq "it ended without running" EXIT "$(job_stat "$a[7]")"
mbd_restart
expect_eq "after a restart: PSUSP element" PSUSP "$(job_stat "$a[9]")"
expect_eq "after a restart: killed element" EXIT "$(job_stat "$a[7]")"
expect_eq "after a restart: two run" 2 \
    "$(bjobs -noheader -r -o jobid "$a" | wc -l)"
expect_eq "after a restart: the rest pend" "PEND PEND" \
    "$(bjobs -noheader -p -o stat "$a" | grep -v PSUSP | xargs)"

touch go
wait_for sh -c "bjobs -A -noheader $a | awk '{exit !(\$6 == 4)}'"
expect_match "all but the killed and the stopped one are done" \
    "^$a +arr.* 6 +0 +4 +0 +1 +0 +0 +1\$" "$(bjobs -A "$a" | tail -n 1)"
expect_eq "LSB_JOBINDEX and %I" "idx=4 name=arr[4]" \
    "$(head -n 1 "out.$a.4")"
bresume "$a[9]" >/dev/null
wait_for job_is "$a[9]" DONE
check "the resumed element ran" grep -q "idx=9" "out.$a.9"

# An index named twice counts once: the issue's own example.
out=$(bsub -H -J "name[1-1000:2,5,7]%10" -o /dev/null true 2>&1)
d=$(echo "$out" | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
expect_match "an index list naming 5 and 7 twice is accepted" \
    "^$d +name\\[1-1000:2,5,7\\]%10 +root +500 +0 +0 +0 +0 +0 +0 +500\$" \
    "$(bjobs -A "$d" 2>&1 | tail -n 1)"
bkill "$d" >/dev/null 2>&1

# A big held array costs one record; kill the whole array at once.
size0=$(stat -c %s "$ev")
out=$(bsub -H -J "big[1-100000]" true)
b=$(echo "$out" | sed 's/Job <\([0-9]*\)>.*/\1/')
grow=$(( $(stat -c %s "$ev") - size0 ))
check "100000 elements cost one short record ($grow bytes)" test "$grow" -lt 2000
expect_match "all PSUSP" "^$b +big.* 100000 +0 +0 +0 +0 +0 +0 +100000\$" \
    "$(bjobs -A "$b" | tail -n 1)"
expect_eq "bjobs lists each element" 100000 \
    "$(bjobs -noheader -o jobid "$b" | wc -l)"
expect_eq "a listing of many pages has one header" "1 100001" \
    "$(bjobs -o "jobid stat" "$b" | awk '/^JOBID/ { h++ } END { print h, NR }')"
bresume "$b[2-4]" >/dev/null
wait_for sh -c "bjobs -A -noheader $b | awk '{exit !(\$6 == 3)}'"
expect_match "three released elements ran" "^$b .* 100000 +0 +3 +0 +0 +0 +0 +99997\$" \
    "$(bjobs -A "$b" | tail -n 1)"
out=$(bkill "$b")
expect_eq "bkill of the array: one line" "Job <$b> is being terminated" "$out"
expect_match "the held elements ended" "^$b .* 100000 +0 +3 +0 +99997 " \
    "$(bjobs -A -a "$b" | tail -n 1)"
mbd_restart
expect_match "the same after a restart" "^$b .* 100000 +0 +3 +0 +99997 " \
    "$(bjobs -A -a "$b" | tail -n 1)"
expect_eq "an ended virtual element" "EXIT" "$(job_stat "$b[500]")"

out=$(bsub -K -J "k[1-3]" true 2>&1)
expect_eq "bsub -K waits for every element" 0 "$?"
expect_match "and says when the array is finished" "<<Job is finished>>" "$out"
expect_eq "all three were done by then" "DONE DONE DONE" \
    "$(bjobs -noheader -o stat "$(echo "$out" | head -n 1 | sed 's/Job <\([0-9]*\)>.*/\1/')" | xargs)"

err=$(bsub -J "x[1-200001]" true 2>&1)
expect_eq "above MAX_JOB_ARRAY_SIZE" \
    "Job array index too large. Job not submitted." "$(echo "$err" | tail -n 1)"
err=$(bsub -J "x[3-1]" true 2>&1)
expect_match "a malformed index list" "Bad job name. Job not submitted.\$" "$err"
expect_eq "an element that does not exist" "Job <$a[2]> is not found" \
    "$(bjobs "$a[2]" 2>&1)"
finish
