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
cat >"$LSB_CONF/lsb.params" <<EOT
Begin Parameters
MAX_USER_PRIORITY = 100
End Parameters
EOT
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
bmod -sp 90 "$j" >/dev/null
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
mbd_restart
expect_eq "the resets survive a restart" "sleep 1" "$(f job_name "$j")"

bresume "$j" >/dev/null
wait_for job_is "$j" DONE
check "it ran with the new output file" test -s after.out
check "not with the old one" test ! -e before.out

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
