#!/bin/bash
# The job history's write-ahead log while a reader holds a transaction
# open (issue 32): N jobs (an array of `true`, one host, MXJ 16) finish
# while a reader (python3's sqlite3) holds BEGIN; SELECT on
# lsb.history.db.  Once they are done and history has taken all it will
# (all N, or held back at LSB_HIST_WAL_LIMIT), the -wal file's size and
# the jobs history has; then the reader lets go, and the time until
# bhist has every job and the -wal file's size after.  HOLD=0: the same
# without the reader.
#
#	BUILD=build bench/hist-wal.sh [N] [LSB_HIST_WAL_LIMIT]
. "$(dirname "$0")/lib.sh"
N=${1:-3000}
LIMIT=${2:-}
HOLD=${HOLD:-1}

bench_init 1 16 ${LIMIT:+"LSB_HIST_WAL_LIMIT=$LIMIT"}
bench_start
cd "$B_DIR/jobs"
DB="$LSB_LOGDIR/lsb.history.db"
# Jobs done in history, both their records and their accounting; read
# with sqlite, not bhist, whose time over a large array would be most of
# what is measured.
in_history() {
	python3 - "$DB" <<'EOP'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
print(min(db.execute("SELECT count(*) FROM jobs WHERE status = 64").fetchone()[0],
          db.execute("SELECT count(*) FROM acct").fetchone()[0]))
EOP
}
held() { grep -q 'history: held back' "$B_DIR"/log/mbatchd.* 2>/dev/null; }
more_than() { [ "$(in_history)" -gt "$1" ]; }
held_or_all() { held || more_than "$N"; }

first=$(submit -o /dev/null true)
wait_for sh -c "bhist -l $first 2>/dev/null | grep -q 'Done successfully'" ||
    { say "the first job is not in bhist"; exit 1; }
if [ "$HOLD" = 1 ]; then
	python3 - "$DB" "$B_DIR/release" >"$B_DIR/reader.out" 2>&1 <<'EOP' &
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
	wait_for grep -q '^holding' "$B_DIR/reader.out" ||
	    { say "the reader did not start"; exit 1; }
fi
t0=$EPOCHREALTIME
arr=$(submit -J "a[1-$N]" -o /dev/null true)
WAIT_SECS=600 wait_for sh -c "! bjobs -noheader -o stat $arr 2>/dev/null | grep -Eq 'PEND|RUN'" ||
    { say "the jobs did not finish"; exit 1; }
say "$N jobs done in $(echo "$EPOCHREALTIME - $t0" | bc) s"
# History has all it will take: every job, or held back; then no more
# comes in for 2 s.
WAIT_SECS=600 wait_for held_or_all ||
    { say "history neither caught up nor held back"; exit 1; }
prev=-1
while n=$(in_history) && [ "$n" != "$prev" ]; do
	prev=$n
	sleep 2
done
result hist_wal.wal_bytes "$(stat -c %s "$DB-wal")" bytes
result hist_wal.db_bytes "$(stat -c %s "$DB")" bytes
result hist_wal.jobs_in_history "$n" jobs
result hist_wal.held "$(held && echo 1 || echo 0)" ""
if [ "$HOLD" = 1 ]; then
	a=$(now_ns)
	touch "$B_DIR/release"
	wait "$reader"
	WAIT_SECS=600 wait_for more_than "$N" ||
	    { say "history did not catch up"; exit 1; }
	b=$(now_ns)
	result hist_wal.catchup_ms $(( (b - a) / 1000000 )) ms
	# The next commit after a checkpoint cuts the WAL back.
	last=$(submit -o /dev/null true)
	wait_for more_than "$((N + 1))" || { say "job $last is not in"; exit 1; }
	result hist_wal.wal_bytes_after "$(stat -c %s "$DB-wal")" bytes
	result hist_wal.db_bytes_after "$(stat -c %s "$DB")" bytes
fi
