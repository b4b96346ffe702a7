#!/bin/bash
# bmod of a started job (LSB_MOD_ALL_JOBS): a new run, CPU or memory
# limit takes effect at once on the execution host, also across a
# restart of its sbatchd or of mbatchd, and when its sbatchd was away at
# the time; a new output file is for the next run; what LSF refuses for a
# started job is refused with its message.  LSF's run limits are minutes:
# the jobs that need one start together, and the rest is checked while
# they run (a little over a minute in all).
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = capped
PRIORITY = 20
RUNLIMIT = 5 10
End Queue
EOF
cat >"$LSB_CONF/lsb.hosts" <<EOF
Begin Host
HOST_NAME  MXJ
default    10
End Host
EOF
cluster_start
cd "$T_DIR/jobs"
FROM=$(hostname)
MEMHOG="$TOOLS/memhog"

reason() {
	bjobs -noheader -o exit_reason "$1" 2>/dev/null
}
# The line after " NAME" in bjobs -l (a limit's value).
limit_of() {
	bjobs -l "$2" | grep -A1 "^ $1\$" | tail -n 1
}
rtl() {
	bjobs -noheader -o runtimelimit "$1"
}
changed() {
	expect_eq "$1" "Parameters of job <$2> are being changed" "$3"
}
# How many times the host's sbatchd was told of the job's new limits.
told() {
	cat "$T_DIR"/log/sbatchd.log."$1" 2>/dev/null |
	    grep -c "job $2\\[0\\]: new limits"
}
told_once() {
	[ "$(told "$1" "$2")" -ge 1 ]
}

# The jobs that wait for a minute to pass, all at once.
ext=$(submit -m hosta -W 1 -o /dev/null sleep 300)
rm=$(submit -m hosta -W 1 -o /dev/null sleep 300)
short=$(submit -m hosta -o /dev/null sleep 300)
sbdr=$(submit -m hostb -o /dev/null sleep 300)
away=$(submit -m hostb -o /dev/null sleep 300)
arr=$(submit -m hosta -J "ar[1-2]" -o /dev/null sleep 300)
for j in $ext $rm $short $sbdr $away "$arr[1]" "$arr[2]"; do
	wait_for job_is "$j" RUN
done

changed "bmod -W of a running job" "$ext" "$(bmod -W 3 "$ext")"
changed "bmod -Wn of a running job" "$rm" "$(bmod -Wn "$rm")"
changed "bmod -W of a running job without a limit" "$short" \
    "$(bmod -W 1 "$short")"
expect_match "bjobs -l shows the new run limit" "^ 3\\.0 min of $FROM\$" \
    "$(limit_of RUNLIMIT "$ext")"
expect_eq "and none once it is removed" "" \
    "$(bjobs -l "$rm" | grep '^ RUNLIMIT$')"
expect_eq "bjobs -o runtimelimit" "3.0 1.0" \
    "$(rtl "$ext") $(rtl "$short")"

# An array: a started element alone, not the array whose elements have
# all started.
changed "bmod -W of a running element" "$arr[1]" "$(bmod -W 1 "$arr[1]")"
expect_eq "bmod -W of an array whose elements have all started" \
    "Job has already started. Job not modified." "$(bmod -W 1 "$arr" 2>&1)"
expect_eq "bjobs -o runtimelimit of the elements" "1.0 -" \
    "$(rtl "$arr[1]") $(rtl "$arr[2]")"

# The host's sbatchd restarts after the job's new limit reached it: its
# supervisor keeps the limit (the new sbatchd is not told again).
changed "bmod -W of a job on hostb" "$sbdr" "$(bmod -W 1 "$sbdr")"
check "hostb's sbatchd hears of it" wait_for told_once hostb "$sbdr"
kill -9 "$PID_sbatchd_hostb"
wait "$PID_sbatchd_hostb" 2>/dev/null
# And a job whose sbatchd is away when it is modified: the limit reaches
# the host when its sbatchd registers again.
changed "bmod -W while its host's sbatchd is down" "$away" \
    "$(bmod -W 1 "$away")"
start_daemon sbatchd hostb
check "hostb's sbatchd hears of it when it is back" \
    wait_for told_once hostb "$away"
expect_eq "... and only of that one" 1 "$(told hostb "$sbdr")"

# Memory: a job over its new memory limit is killed at once.
mem=$(submit -m hosta -o /dev/null "$MEMHOG" 60 300)
wait_for job_is "$mem" RUN
grown() {
	[ "$(bjobs -noheader -o max_mem "$mem" | sed 's/ .*//')" != "-" ]
}
WAIT_SECS=15 wait_for grown
changed "bmod -M of a running job" "$mem" "$(bmod -M 20 "$mem")"
wait_for job_is "$mem" EXIT
check "a job over its new memory limit is killed" job_is "$mem" EXIT
expect_eq "... with TERM_MEMLIMIT" \
    "TERM_MEMLIMIT: job killed after reaching LSF memory usage limit" \
    "$(reason "$mem")"
expect_match "bjobs -l shows the memory limit" '^ +20\.0 M$' \
    "$(limit_of MEMLIMIT "$mem")"

# CPU: shown, and passed to the host.
cpu=$(submit -m hostb -o /dev/null sleep 300)
wait_for job_is "$cpu" RUN
changed "bmod -c of a running job" "$cpu" "$(bmod -c 2 "$cpu")"
expect_match "bjobs -l shows the new CPU limit" "^ 2\\.0 min of $FROM\$" \
    "$(limit_of CPULIMIT "$cpu")"
check "its host hears of it" wait_for told_once hostb "$cpu"
changed "bmod -cn of a running job" "$cpu" "$(bmod -cn "$cpu")"
expect_eq "and the limit is gone" "" "$(bjobs -l "$cpu" | grep '^ CPULIMIT$')"
bkill "$cpu" >/dev/null

# Resource requirement: its rusage is reserved from now on.
rsv_mem() { bhosts -l hostb | awk '$1 == "Reserved" { print $12 }'; }
rq=$(submit -m hostb -o /dev/null sleep 300)
wait_for job_is "$rq" RUN
expect_eq "nothing reserved on hostb" 0M "$(rsv_mem)"
changed "bmod -R of a running job" "$rq" \
    "$(bmod -R "rusage[mem=300]" "$rq")"
reserved() { [ "$(rsv_mem)" = 300M ]; }
check "its rusage is reserved on its host" wait_for reserved
expect_match "bjobs -l shows the new requirement" "rusage\\[mem=300" \
    "$(bjobs -l "$rq" | sed -n 's/^ Combined: //p')"
expect_eq "a bad one is refused" \
    "Bad resource requirement syntax. Job not modified." \
    "$(bmod -R "rusage[mem=" "$rq" 2>&1 | head -n 1)"
changed "bmod -Rn of a running job" "$rq" "$(bmod -Rn "$rq")"
released() { [ "$(rsv_mem)" = 0M ]; }
check "and the reservation goes" wait_for released
bkill "$rq" >/dev/null

# Output: for the next run.
out=$(submit -m hosta -o out1.%J 'echo run; sleep 300')
wait_for test -s "out1.$out"
changed "bmod -o of a running job" "$out" "$(bmod -o out2.%J "$out")"
expect_match "bjobs -l shows the new output file" "Output File <out2\\.%J>" \
    "$(bjobs -l "$out" | tr -d '\n' | sed 's/  */ /g')"
check "the running job keeps writing where it was" \
    test ! -e "out2.$out"
brequeue "$out" >/dev/null
ran_again() { grep -q '^run$' "out2.$out"; }
WAIT_SECS=30 wait_for ran_again
check "after brequeue the job's output goes to the new file" ran_again
bkill "$out" >/dev/null

# Refusals.
expect_eq "a queue change of a started job" \
    "Job has already started. Job not modified." \
    "$(bmod -q short "$ext" 2>&1)"
expect_eq "a new name for a started job" \
    "Job has already started. Job not modified." \
    "$(bmod -J x "$ext" 2>&1)"
expect_eq "... with exit 255" 255 "$(bmod -J x "$ext" >/dev/null 2>&1; echo $?)"
cap=$(submit -q capped -o /dev/null sleep 300)
wait_for job_is "$cap" RUN
expect_eq "a run limit above its queue's maximum" \
    "RUNLIMIT: Cannot exceed queue's hard limit(s). Job not modified." \
    "$(bmod -W 11 "$cap" 2>&1)"
changed "one within it" "$cap" "$(bmod -W 8 "$cap")"
bkill "$cap" >/dev/null

# The minute passes.
WAIT_SECS=90 wait_for job_is "$short" EXIT
check "a run limit given to a running job ends it" job_is "$short" EXIT
expect_match "... with TERM_RUNLIMIT" '^TERM_RUNLIMIT' "$(reason "$short")"
# The two with the old one-minute limit started before $short: the
# supervisors check limits every second.
sleep 2
check "a run limit extended: the job outlives the old one" job_is "$ext" RUN
check "a run limit removed: the job outlives the old one" job_is "$rm" RUN
check "the element modified ends at its new limit" job_is "$arr[1]" EXIT
expect_match "... with TERM_RUNLIMIT" '^TERM_RUNLIMIT' "$(reason "$arr[1]")"
check "the other element runs on" job_is "$arr[2]" RUN
WAIT_SECS=60 wait_for job_is "$sbdr" EXIT
expect_match "a new limit survives a restart of the host's sbatchd" \
    '^TERM_RUNLIMIT' "$(reason "$sbdr")"
WAIT_SECS=60 wait_for job_is "$away" EXIT
expect_match "a new limit reaches a host whose sbatchd was away" \
    '^TERM_RUNLIMIT' "$(reason "$away")"

# mbatchd restarts: the limits are replayed from lsb.events, and the
# hosts are told again when they register.
n=$(told hosta "$ext")
mbd_restart
expect_match "the new limit after mbatchd's restart" "^ 3\\.0 min of $FROM\$" \
    "$(limit_of RUNLIMIT "$ext")"
again() { [ "$(told hosta "$ext")" -gt "$n" ]; }
check "... and its host is told again" wait_for again

# LSB_MOD_ALL_JOBS=N: a started job keeps its limits and files.
echo "LSB_MOD_ALL_JOBS=N" >>"$LSF_CONF/lsf.conf"
mbd_restart
expect_eq "LSB_MOD_ALL_JOBS=N refuses -W of a started job" \
    "Job has already started. Job not modified." \
    "$(bmod -W 5 "$ext" 2>&1)"
expect_eq "... and -o" "Job has already started. Job not modified." \
    "$(bmod -o x "$ext" 2>&1)"
changed "... but not -r" "$ext" "$(bmod -r "$ext")"
finish
