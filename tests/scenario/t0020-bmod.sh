#!/bin/bash
# bmod of a pending job: -q -J -n -R -W -M -o -e -sp -w and their reset
# forms, what bjobs then shows, the same after an mbatchd restart, and
# what a started job refuses.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.queues" <<EOT
Begin Queue
QUEUE_NAME = other
PRIORITY   = 10
End Queue
EOT
params MAX_USER_PRIORITY=100
cluster_start
cd "$T_DIR/jobs"
jid() { sed 's/Job <\([0-9]*\)>.*/\1/'; }
f() { bjobs -noheader -o "$1" "$2"; }

dep=$(bsub -H true | jid)
j=$(bsub -H -J before -o before.out sleep 1 | jid)
out=$(bmod -J after "$j")
expect_eq "bmod says so" "Parameters of job <$j> are being changed" "$out"
expect_eq "-J" after "$(f job_name "$j")"
bmod -q other "$j" >/dev/null
expect_eq "-q" other "$(f queue "$j")"
bmod -n 2 "$j" >/dev/null
expect_match "-n" "2Task\\(s\\)" "$(bjobs -l "$j" | tr -d ' \n')"
bmod -R "select[mem>1]" "$j" >/dev/null
expect_match "-R" "RequestedResources<select\\[mem>1\\]>" \
    "$(bjobs -l "$j" | tr -d ' \n')"
bmod -W 30 -M 100000 "$j" >/dev/null
expect_match "-W" "RUNLIMIT" "$(bjobs -l "$j")"
bmod -o "$T_DIR/jobs/after.out" -e "$T_DIR/jobs/after.err" "$j" >/dev/null
expect_eq "-o" "$T_DIR/jobs/after.out" "$(f output_file "$j")"
expect_match "-M" $'MEMLIMIT\n *100000.0 M' "$(bjobs -l "$j")"
expect_eq "-e" "$T_DIR/jobs/after.err" "$(f error_file "$j")"
bmod -sp 90 "$j" >/dev/null
expect_match "-sp" "JobPriority<90>" "$(bjobs -l "$j" | tr -d ' \n')"
bmod -w "done($dep)" "$j" >/dev/null
expect_eq "-w" "done($dep)" "$(f dependency "$j")"

mbd_restart
expect_eq "after a restart: name" after "$(f job_name "$j")"
expect_eq "after a restart: queue" other "$(f queue "$j")"
expect_eq "after a restart: dependency" "done($dep)" "$(f dependency "$j")"
expect_eq "after a restart: output" "$T_DIR/jobs/after.out" \
    "$(f output_file "$j")"

bmod -Jn -wn -Rn -Wn -Mn -en -spn -nn "$j" >/dev/null
expect_eq "-Jn: back to the command" "sleep 1" "$(f job_name "$j")"
expect_eq "-wn" "" "$(f dependency "$j" | sed 's/^-$//')"
expect_eq "-nn: one slot again" 0 \
    "$(bjobs -l "$j" | tr -d ' \n' | grep -c 'Task(s)')"
l=$(bjobs -l "$j")
check "-Wn -Mn: no limits" test -n "$l" -a "${l#*LIMIT}" = "$l"
expect_eq "-en" "" "$(f error_file "$j" | sed 's/^-$//')"
expect_eq "-spn" 0 "$(echo "$l" | tr -d ' \n' | grep -c 'JobPriority<')"
expect_match "-Rn" "Combined: select\\[type == local\\] order\\[r15s:pg\\]$" "$l"
mbd_restart
expect_eq "the resets survive a restart" "sleep 1" "$(f job_name "$j")"

bresume "$j" >/dev/null
wait_for job_is "$j" DONE
check "it ran with the new output file" test -s after.out
check "not with the old one" test ! -e before.out

# An array: elements that have not started take the change, a running
# one keeps what it started with.
cat >el.sh <<'EOT'
while [ ! -e go.$LSB_JOBINDEX ]; do sleep 0.1; done
EOT
a=$(bsub -J "ar[1-3]%1" -o a1.%I sh el.sh | jid)
wait_for job_is "$a[1]" RUN
bmod -o "$T_DIR/jobs/a2.%I" "$a" >/dev/null
expect_eq "the running element keeps its file" "a1.%I" \
    "$(f output_file "$a[1]")"
expect_eq "a pending one has the new" "$T_DIR/jobs/a2.%I" \
    "$(f output_file "$a[3]")"
mbd_restart
expect_eq "after a restart too" "a1.%I $T_DIR/jobs/a2.%I" \
    "$(f output_file "$a[1]") $(f output_file "$a[3]")"
touch go.1 go.2 go.3
wait_for job_is "$a[3]" DONE
check "elements ran with their files" test -s a1.1 -a -s a2.2 -a -s a2.3
h=$(bsub -H -J "hh[1-2]" true | jid)
expect_eq "-Jn of an array is refused" \
    "Bad job name. Job not modified." "$(bmod -Jn "$h" 2>&1)"

# Refusals.
err=$(bmod -q nosuch "$dep" 2>&1)
expect_eq "an unknown queue" "nosuch: No such queue. Job not modified." \
    "$(echo "$err" | head -n 1)"
err=$(bmod -w "done(999999)" "$dep" 2>&1)
expect_match "a dependency on nothing" "No matching job found" "$err"
r=$(bsub sleep 30 | jid)
wait_for job_is "$r" RUN
err=$(bmod -J x "$r" 2>&1)
expect_eq "a started job" "Job has already started. Job not modified." "$err"
expect_eq "no option" 255 "$(bmod "$r" >/dev/null 2>&1; echo $?)"
err=$(bmod -J x 999999 2>&1)
expect_eq "no such job" "No matching job found. Job not modified." "$err"
finish
