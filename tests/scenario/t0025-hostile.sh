#!/bin/bash
# A hostile local user cannot stop the daemons from serving or make them
# grow without bound: a thousand idle connections to mbatchd and to the
# master LIM (more than the daemons' 1,024 open files allow), frames
# announcing 64 MB, bjobs requests whose replies are never read, frames
# sent a byte a second.  Meanwhile bsub, bjobs and lsload answer within
# seconds, and afterwards the daemons are alive, small, and their logs
# short.  Then commands against an mbatchd that accepts and never
# answers, or closes at once, say so and fail instead of hanging or
# dying of SIGPIPE.
. "$(dirname "$0")/lib.sh"

# Debug messages would log every connection the flood makes; a site
# logs warnings.
cluster_init 3 LSF_LOG_MASK=LOG_INFO
# systemd's default limit, for the daemons and for each flood process.
ulimit -n 1024
cluster_start
cd "$T_DIR/jobs"

FLOOD=$TOOLS/flood
SOCK=$T_DIR/work/c1/mbatchd.sock
LIM=127.0.0.11:$(sed -n 's/^LSF_LIM_PORT=//p' "$LSF_CONF/lsf.conf")
SECS=25
LIMIT_MS=5000
MBD=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)
LIMD=$PID_lim_hosta

# Replies worth not reading: bjobs -l of 1,000 held elements.
submit -H -J "held[1-1000]" -o /dev/null true >/dev/null ||
    fail "submit the held array"

rss_kb() {
	sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status"
}

# timed NAME CMD...: run it, fail if it fails or takes over LIMIT_MS.
MAX_MS=0
timed() {
	local name=$1 t0 ms out
	shift
	t0=$(date +%s%N)
	out=$(timeout 30 "$@" 2>&1)
	rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$ms" -gt "$MAX_MS" ] && MAX_MS=$ms
	if [ "$rc" -ne 0 ] || [ "$ms" -gt "$LIMIT_MS" ]; then
		fail "$name under the flood: exit $rc after $ms ms"
		echo "$out" | head -n 5 | sed 's/^/#   /'
		return 1
	fi
}

pids=""
for args in "idle $SOCK 1000" "idle $LIM 1000" "big $SOCK 8" "big $LIM 8" \
    "unread $SOCK 4" "drip $SOCK 8" "drip $LIM 8"; do
	# shellcheck disable=SC2086
	"$FLOOD" $args "$SECS" >/dev/null 2>&1 &
	pids="$pids $!"
done
t_flood=$(date +%s)

# The flood is on once mbatchd holds hundreds of connections.
WAIT_SECS=10 wait_for sh -c "[ \$(ls /proc/$MBD/fd | wc -l) -gt 400 ]" ||
    fail "the flood did not reach mbatchd"

max_mbd=0 max_lim=0 bad=0 rounds=0
while [ $(( $(date +%s) - t_flood )) -lt $((SECS - 3)) ]; do
	timed bsub bsub -o /dev/null true || bad=1
	timed bjobs bjobs -a || bad=1
	timed lsload lsload || bad=1
	r=$(rss_kb "$MBD"); [ "${r:-0}" -gt "$max_mbd" ] && max_mbd=$r
	r=$(rss_kb "$LIMD"); [ "${r:-0}" -gt "$max_lim" ] && max_lim=$r
	rounds=$((rounds + 1))
	[ $bad -eq 0 ] || break
	sleep 1
done
[ $bad -eq 0 ] && [ $rounds -gt 0 ] &&
    pass "bsub, bjobs and lsload answered in $rounds rounds (slowest $MAX_MS ms)"
for p in $pids; do wait "$p"; done

check "mbatchd is alive" kill -0 "$MBD"
check "lim is alive" kill -0 "$LIMD"
check "mbatchd stayed under 100 MB (max $((max_mbd / 1024)) MB)" \
    [ "$max_mbd" -gt 0 -a "$max_mbd" -lt 102400 ]
check "lim stayed under 100 MB (max $((max_lim / 1024)) MB)" \
    [ "$max_lim" -gt 0 -a "$max_lim" -lt 102400 ]
for f in mbatchd.log.hosta lim.log.hosta; do
	size=$(stat -c %s "$T_DIR/log/$f" 2>/dev/null || echo 0)
	check "$f stayed under 1 MB ($size bytes)" [ "$size" -lt 1048576 ]
done
n=$(cat "$T_DIR"/log/*.log.* | grep -c 'accept.*pausing')
check "a pause in accepting is logged once, not per attempt ($n)" [ "$n" -lt 10 ]
check "bjobs answers after the flood" sh -c "timeout 10 bjobs -a >/dev/null"

# An mbatchd that accepts and never answers, then one that closes at
# once: the same cluster with the command socket somewhere else.
alt=$T_DIR/alt
mkdir -p "$alt/conf" "$alt/work/c1"
sed "s|^LSB_SHAREDIR=.*|LSB_SHAREDIR=$alt/work|" "$LSF_CONF/lsf.conf" \
    >"$alt/conf/lsf.conf"
"$FLOOD" silent "$alt/work/c1/mbatchd.sock" 1 30 >/dev/null &
stub=$!
wait_for test -S "$alt/work/c1/mbatchd.sock"
t0=$(date +%s)
out=$(LSF_ENVDIR=$alt/conf LSB_API_RECVTIMEOUT=2 timeout 20 bjobs 2>&1)
rc=$?
expect_match "bjobs says mbatchd does not respond" \
    '^bjobs: batch system daemon not responding' "$out"
check "and exits 255 ($rc) within seconds" \
    [ "$rc" -eq 255 -a $(( $(date +%s) - t0 )) -lt 10 ]
kill "$stub"; wait "$stub" 2>/dev/null

"$FLOOD" slam "$alt/work/c1/mbatchd.sock" 1 30 >/dev/null &
stub=$!
wait_for test -S "$alt/work/c1/mbatchd.sock"
out=$(LSF_ENVDIR=$alt/conf timeout 20 bsub -o /dev/null true 2>&1)
rc=$?
expect_match "bsub says what happened when mbatchd goes away" \
    'bsub: lost the connection to mbatchd' "$out"
expect_eq "and exits 255, not of SIGPIPE" 255 "$rc"
kill "$stub"; wait "$stub" 2>/dev/null

finish
