#!/bin/bash
# The job history's write-ahead log under a reader that holds a
# transaction open (issue 32): while jobs finish, the WAL stays under
# LSB_HIST_WAL_LIMIT, the history thread holds back (said once in
# mbatchd's log), and when the reader lets go it catches up with every
# job.  The database lives where LSB_HIST_DB_DIR says, not in the
# logdir: mbatchd writes it there, bhist, bacct and bjobs of a cleaned
# job read it there, and it is rebuilt there from the logs when it is
# removed.  badmin ckconfig names a value that is no directory by its
# lsf.conf line.
. "$(dirname "$0")/lib.sh"

cluster_init 1
sed -i 's/^End Parameters/MAX_JOB_ARRAY_SIZE = 10000\n&/' "$LSB_CONF/lsb.params"
sed -i "s/^CLEAN_PERIOD.*/CLEAN_PERIOD = 8/" "$LSB_CONF/lsb.params"
host_mxj 16
HDIR="$T_DIR/histdb"
DB="$HDIR/lsb.history.db"
LOGDIR="$T_DIR/work/c1/logdir"
LIMIT=$((1024 * 1024))

# badmin ckconfig: a file, then a path that is not there, by line.
echo "LSB_HIST_WAL_LIMIT=1" >>"$LSF_CONF/lsf.conf"
echo "LSB_HIST_DB_DIR=$LSF_CONF/lsf.shared" >>"$LSF_CONF/lsf.conf"
line=$(wc -l <"$LSF_CONF/lsf.conf")
out=$(badmin ckconfig 2>&1)
expect_match "ckconfig: not a directory, by its line" \
    "^$LSF_CONF/lsf.conf:$line: warning: LSB_HIST_DB_DIR $LSF_CONF/lsf.shared: not a directory; mbatchd keeps no job history until it can write there$" \
    "$out"
expect_match "ckconfig: a warning, not an error" "^There are warning errors\.$" "$out"
sed -i '$d' "$LSF_CONF/lsf.conf"
echo "LSB_HIST_DB_DIR=relative/dir" >>"$LSF_CONF/lsf.conf"
expect_match "ckconfig: a relative path is an error" \
    "^$LSF_CONF/lsf.conf:$line: LSB_HIST_DB_DIR must be an absolute path, not \"relative/dir\"$" \
    "$(badmin ckconfig 2>&1)"
sed -i '$d' "$LSF_CONF/lsf.conf"
echo "LSB_HIST_DB_DIR=$HDIR" >>"$LSF_CONF/lsf.conf"
expect_match "ckconfig: a directory not there yet" \
    "^$LSF_CONF/lsf.conf:$line: warning: LSB_HIST_DB_DIR $HDIR: No such file or directory;" \
    "$(badmin ckconfig 2>&1)"
mkdir "$HDIR"
expect_match "ckconfig: the directory" "^No errors found\.$" \
    "$(badmin ckconfig 2>&1)"

cluster_start
cd "$T_DIR/jobs"

first=$(submit -J first -o /dev/null true)
wait_for sh -c "bhist -l $first 2>/dev/null | grep -q 'Done successfully'" ||
    fail "the first job is not in bhist"
check "the database is in LSB_HIST_DB_DIR" test -s "$DB"
check "and not in the logdir" test ! -e "$LOGDIR/lsb.history.db"

# A reader holds a transaction open, as a script left in the middle of
# its work would; it lets go when $T_DIR/release appears.
python3 - "$DB" "$T_DIR/release" >"$T_DIR/reader.out" 2>&1 <<'EOP' &
import os, sqlite3, sys, time
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True,
                     isolation_level=None)
db.execute("BEGIN")
print("holding %d" % db.execute("SELECT count(*) FROM jobs").fetchone()[0],
      flush=True)
while not os.path.exists(sys.argv[2]):
    time.sleep(0.05)
db.execute("COMMIT")
EOP
reader=$!
wait_for grep -q '^holding 1$' "$T_DIR/reader.out" || fail "the reader did not start"

held() {
	grep -q 'history: held back by a reader of' "$T_DIR"/log/mbatchd.*
}
# Jobs finish until the WAL is full (a few hundred fill 1 MB): arrays of
# 500, at most 8.
arrays=""
n=0
while [ $n -lt 8 ] && ! held; do
	a=$(submit -J "w$n[1-500]" -o /dev/null true)
	arrays="$arrays $a"
	n=$((n + 1))
	WAIT_SECS=120 wait_for sh -c "! bjobs -noheader -o stat $a 2>/dev/null | grep -Eq 'PEND|RUN'" ||
	    fail "array $a did not finish"
done
total=$((n * 500 + 1))
check "mbatchd says history is held back ($n arrays of 500 jobs)" held
# While held the WAL cannot start again, so its size is the most it
# reached.
wal=$(stat -c %s "$DB-wal")
check "the WAL stayed under LSB_HIST_WAL_LIMIT ($wal bytes of $LIMIT)" \
    test "$wal" -le "$LIMIT"
behind=$(bhist -a -u all 2>/dev/null | tail -n +3 | wc -l)
check "history fell behind meanwhile ($behind of $total jobs)" \
    test "$behind" -lt "$total"
check "mbatchd answered meanwhile" sh -c "bjobs -a -noheader $first | grep -q DONE"
expect_eq "said once" 1 "$(grep -c 'history: held back by a reader' "$T_DIR"/log/mbatchd.*)"
check "not caught up while the reader holds" \
    sh -c "! grep -q 'history: caught up' $T_DIR/log/mbatchd.*"

# The reader lets go: every job is in, none lost, none twice.
touch "$T_DIR/release"
wait "$reader"
WAIT_SECS=120 wait_for sh -c "[ \$(bhist -a -u all 2>/dev/null | tail -n +3 | wc -l) -ge $total ]" ||
    fail "history did not catch up"
all=$(bhist -a -u all | tail -n +3 | awk '{ print $1 }')
expect_eq "bhist shows every job once" "$total" "$(printf '%s\n' "$all" | sort -u | wc -l)"
expect_eq "and no more" "$total" "$(printf '%s\n' "$all" | wc -l)"
for a in $arrays; do
	expect_eq "every element of $a" 500 "$(printf '%s\n' "$all" | grep -c "^$a\[")"
done
wait_for grep -q 'history: caught up, [0-9.]* s after a reader held it back' \
    "$T_DIR"/log/mbatchd.* || fail "mbatchd did not say it caught up"
expect_match "bacct reads it there" "Total number of done jobs: +$total " \
    "$(bacct -u all)"
check "the WAL is under its bound after" test "$(stat -c %s "$DB-wal")" -le "$LIMIT"

# bjobs of a job mbatchd has cleaned: from the database there.
WAIT_SECS=90 wait_for grep -Eq "^\"JOB_CLEAN\" \"[^\"]*\" [0-9]+ $first " \
    "$LOGDIR/lsb.events" || fail "job $first was not cleaned"
expect_match "bjobs of a cleaned job, from LSB_HIST_DB_DIR" \
    "^$first +$(id -un) +DONE +normal " "$(bjobs -a -noheader $first)"

# Removed: rebuilt there from the logs.
before=$(bhist -a -u all -w)
kill -STOP "$PID_sbatchd_hosta"
p=$(mbd_pid)
kill "$p"
while kill -0 "$p" 2>/dev/null && [ "$(ps -o stat= -p "$p")" != Z ]; do
	sleep 0.05
done
rm -f "$DB" "$DB-wal" "$DB-shm"
mbd_up
WAIT_SECS=120 wait_for sh -c "[ \$(bhist -a -u all 2>/dev/null | tail -n +3 | wc -l) -ge $total ]" ||
    fail "history was not rebuilt"
expect_eq "rebuilt in LSB_HIST_DB_DIR as it was" "$before" "$(bhist -a -u all -w)"
check "still not in the logdir" test ! -e "$LOGDIR/lsb.history.db"

finish
