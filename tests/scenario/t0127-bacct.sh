#!/bin/bash
# bacct from the history database's acct table: jobs done, exited, killed
# and requeued, by two users (root and nobody), in two queues and two
# projects; the SUMMARY's counts exactly and its times within the run's
# bounds, each filter, -l of one job field by field, job IDs, -u all;
# the same answers after an mbatchd restart and after the database is
# deleted and rebuilt from lsb.acct.
. "$(dirname "$0")/lib.sh"

need_root
cluster_init 1
# Jobs that exit abnormally in short within a minute are underruns: -x.
sed -i 's/^QUEUE_NAME = short$/&\nJOB_UNDERRUN = 1/' "$LSB_CONF/lsb.queues"
cluster_start
cd "$T_DIR/jobs"
chmod 1777 "$T_DIR/jobs"
DB="$T_DIR/work/c1/logdir/lsb.history.db"
ACCT="$T_DIR/work/c1/logdir/lsb.acct"
me=$(id -un)
t_begin=$(date +%s)

# The figure after a SUMMARY label.
fig() {
	printf '%s\n' "$2" | sed -n "s/.*$1: *\([0-9.]*\).*/\1/p"
}
counts() {
	local out
	out=$(bacct "$@" 2>&1)
	echo "$(fig 'Total number of done jobs' "$out")/$(fig 'Total number of exited jobs' "$out")"
}

# d1 runs 2 s: the turnaround and run time have a floor.
d1=$(submit -P pa -J d1 -o /dev/null 'sleep 2')
e1=$(submit -P pb -q short -J e1 -o /dev/null 'exit 3')
k1=$(submit -P pa -J k1 -o /dev/null 'sleep 600')
wait_for job_is "$k1" RUN || fail "k1 did not start"
bkill "$k1" >/dev/null
# Requeued once while running, then done.
rq=$(submit -P pa -J rq -o /dev/null 'if [ -f rq.once ]; then exit 0; fi; touch rq.once; sleep 600')
wait_for test -f rq.once || fail "rq did not start"
brequeue "$rq" >/dev/null
n1=$(as_nobody bsub -P pb -q short -J n1 -o /dev/null true |
    sed -n 's/^Job <\([0-9]*\)> is submitted.*/\1/p')
n2=$(as_nobody bsub -P pb -q short -J n2 -o /dev/null 'exit 1' |
    sed -n 's/^Job <\([0-9]*\)> is submitted.*/\1/p')
check "nobody submitted" test -n "$n1" -a -n "$n2"
for j in "$d1" "$e1" "$k1" "$rq" "$n1" "$n2"; do
	wait_for sh -c "bjobs -noheader -o stat $j | grep -Eq 'DONE|EXIT'" ||
	    fail "job $j did not finish"
done
t_end=$(date +%s)
elapsed=$((t_end - t_begin + 1))

# lsb.acct: one JOB_FINISH per finished job, the requeued one's too (its
# first run ended pending again, not finished).
expect_eq "lsb.acct: the requeued job's records" 1 \
    "$(grep -c "^\"JOB_FINISH\" \"[^\"]*\" [0-9]* $rq " "$ACCT")"
expect_eq "lsb.acct: six records" 6 "$(grep -c '^"JOB_FINISH"' "$ACCT")"

wait_for sh -c "bacct -u all 2>/dev/null | grep -q 'Total number of done jobs: *3 .*exited jobs: *3$'" ||
    fail "bacct -u all: $(bacct -u all 2>&1)"

all=$(bacct -u all)
expect_eq "header" "Accounting information about jobs that are:
  - submitted by all users.
  - accounted on all projects.
  - completed normally or exited
  - executed on all hosts.
  - submitted to all queues.
  - accounted on all service classes.
------------------------------------------------------------------------------" \
    "$(printf '%s\n' "$all" | sed -n 1,8p)"
expect_eq "SUMMARY title" "SUMMARY:      ( time unit: second )" \
    "$(printf '%s\n' "$all" | sed -n 10p)"
expect_eq "SUMMARY: 14 lines of figures" 14 \
    "$(printf '%s\n' "$all" | sed -n '11,$p' | grep -c '^ [A-Z]')"
within() {	# within WHAT VALUE LOW HIGH
	check "$1 ($2) within [$3, $4]" awk -v v="$2" -v a="$3" -v b="$4" \
	    'BEGIN { exit !(v >= a && v <= b) }'
}
within "max turnaround" "$(fig 'Maximum turnaround time' "$all")" 2 "$elapsed"
within "min turnaround" "$(fig 'Minimum turnaround time' "$all")" 0 \
    "$(fig 'Maximum turnaround time' "$all")"
within "average turnaround" "$(fig 'Average turnaround time' "$all")" \
    "$(fig 'Minimum turnaround time' "$all")" \
    "$(fig 'Maximum turnaround time' "$all")"
within "total wait" "$(fig 'Total wait time in queues' "$all")" 0 \
    $((6 * elapsed))
within "max wait" "$(fig 'Maximum wait time in queue' "$all")" 0 "$elapsed"
within "max run time" "$(fig 'Maximum Run time of a job' "$all")" 2 "$elapsed"
within "total CPU" "$(fig 'Total CPU time consumed' "$all")" 0 $((6 * elapsed))
within "max hog factor" "$(fig 'Maximum hog factor of a job' "$all")" 0 2
within "total run time" "$(fig 'Total Run time consumed' "$all")" 2 \
    $((6 * elapsed))
tp=$(printf '%s\n' "$all" | sed -n 's/^ Total throughput: *\([0-9.]*\) (jobs\/hour)  during *\([0-9.]*\) hours$/\1 \2/p')
check "throughput line ($tp)" test -n "$tp"
expect_match "beginning and ending" "^ Beginning time: +[A-Z][a-z]{2} [ 0-9]{2} [0-9]{2}:[0-9]{2}      Ending time: +[A-Z][a-z]{2} [ 0-9]{2} [0-9]{2}:[0-9]{2}$" "$all"

# Filters.
expect_eq "default: the caller's jobs" 2/2 "$(counts)"
expect_eq "-u nobody" 1/1 "$(counts -u nobody)"
expect_eq "nobody's own default" 1/1 "$(cd /tmp && as_nobody bacct | sed -n 's/.*done jobs: *\([0-9]*\) .*exited jobs: *\([0-9]*\)$/\1\/\2/p')"
expect_eq "-q short" 1/2 "$(counts -u all -q short)"
expect_eq "-q normal" 2/1 "$(counts -u all -q normal)"
expect_eq "-P pa" 2/1 "$(counts -u all -P pa)"
expect_eq "-P pb -u $me" 0/1 "$(counts -P pb -u "$me")"
expect_eq "-d" 3/0 "$(counts -u all -d)"
expect_eq "-e" 0/3 "$(counts -u all -e)"
expect_eq "-m hosta" 3/3 "$(counts -u all -m hosta)"
expect_eq "-m another host" "No matching job found" "$(bacct -u all -m hostz 2>&1)"
# e1 and n2 exited at once in short: underruns, in lsb.acct's exceptMask.
expect_eq "-x: the two underruns" "0/2" "$(counts -u all -x)"
expect_eq "-x with a job ID that had none" "No matching job found" \
    "$(bacct -x "$d1" 2>&1)"
check "lsb.acct: e1's exceptMask is set" sh -c \
    "grep '^\"JOB_FINISH\" \"[^\"]*\" [0-9]* $e1 ' '$ACCT' | grep -q '\"\" \"\" 4 \"\" 0 '"

today=$(date +%Y/%m/%d)
expect_eq "-C today" 3/3 "$(counts -u all -C "$today,")"
expect_eq "-C a day long ago" "No matching job found" "$(bacct -u all -C 2020/1/1,2020/1/2 2>&1)"
expect_eq "-S today" 3/3 "$(counts -u all -S "$today")"
expect_eq "-D a day long ago" "No matching job found" "$(bacct -u all -D 2020/1/1 2>&1)"
expect_match "-C in the header" "^  - completed between [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{2} 00:00:00 and now\.$" "$(bacct -u all -C "$today,")"
expect_eq "bad time" "2020/13/1: Bad time specification for -C" "$(bacct -C 2020/13/1 2>&1)"
expect_eq "job IDs, anyone's" 1/2 "$(counts "$e1" "$n1" "$n2")"
expect_eq "-u all: everyone" "$(bacct -u all | tail -n 14)" \
    "$(bacct -u all "$d1" "$e1" "$k1" "$rq" "$n1" "$n2" | tail -n 14)"

# -l: one job, field by field.
out=$(bacct -l -w "$e1")
expect_eq "-l: job line" "Job <$e1>, User <$me>, Project <pb>, Status <EXIT>, Queue <short>, Command <exit 3>" \
    "$(printf '%s\n' "$out" | sed -n 10p | sed 's/ *$//')"
expect_match "-l: submitted" "^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8}: Submitted from host <[^>]+>, CWD <$T_DIR/jobs>;$" "$out"
expect_match "-l: dispatched" ": Dispatched to <hosta>;$" "$out"
expect_match "-l: completed" ": Completed <exit>\.$" "$out"
expect_eq "-l: table header" "     CPU_T     WAIT     TURNAROUND   STATUS     HOG_FACTOR    MEM    SWAP" \
    "$(printf '%s\n' "$out" | grep -A1 '^Accounting information about this job:$' | sed -n 2p)"
row=$(printf '%s\n' "$out" | grep -A2 '^Accounting information about this job:$' | sed -n 3p)
read -r cpu wait turn st hog mem swp <<<"$row"
expect_eq "-l: status" exit "$st"
within "-l: wait" "$wait" 0 "$elapsed"
within "-l: turnaround" "$turn" "$wait" "$elapsed"
within "-l: cpu" "$cpu" 0 "$elapsed"
check "-l: memory ($mem $swp)" sh -c "echo '$mem $swp' | grep -Eq '^[0-9.]+[KMG] [0-9.]+[KMG]$'"
expect_eq "-l: the SUMMARY of one" 0/1 "$(counts -l "$e1")"
out=$(bacct -l -w -u all -P pa)
expect_eq "-l: one block per job" 3 "$(printf '%s\n' "$out" | grep -c '^Accounting information about this job:$')"
expect_match "-l: the killed job" "^Job <$k1>, User <$me>, Project <pa>, Status <EXIT>, Queue <normal>, Command <sleep 600>" "$out"
expect_match "-l: why it was killed" ": Completed <exit>; TERM_OWNER: job killed by owner\.$" "$out"
expect_eq "-l without -w: cut at 79 columns" 0 \
    "$(bacct -l -u all -P pa | awk 'length > 79' | wc -l)"
expect_match "-l: the requeued job done" "^Job <$rq>, User <$me>, Project <pa>, Status <DONE>" "$out"
out=$(bacct -b -w "$d1")
expect_eq "-b: no dated lines" 0 "$(printf '%s\n' "$out" | grep -c ': Submitted from host')"
expect_match "-b: the job line" "^Job <$d1>, User <$me>, Project <pa>, Status <DONE>, Queue <normal>, Command <sleep 2>" "$out"
turn=$(printf '%s\n' "$out" | awk '$4 == "done" { print $3 }')
within "-b: d1's turnaround" "$turn" 2 "$elapsed"
expect_eq "nothing of nobody's" "No matching job found" "$(bacct -u nobody -P pa 2>&1)"

# The same after a restart, and after the database is rebuilt.
before=$(bacct -u all -l)
mbd_restart
expect_eq "same after a restart" "$before" "$(bacct -u all -l)"
old=$(mbd_pid)
kill -9 "$old"
rm -f "$DB" "$DB-wal" "$DB-shm"
wait_for sh -c "p=\$(pgrep -P $PID_sbatchd_hosta -x mbatchd) && [ \"\$p\" != $old ] && bqueues >/dev/null" ||
    fail "mbatchd did not come back"
wait_for sh -c "bacct -u all 2>/dev/null | grep -q 'exited jobs: *3$'" ||
    fail "the database was not rebuilt"
expect_eq "same after a rebuild" "$before" "$(bacct -u all -l)"
finish
