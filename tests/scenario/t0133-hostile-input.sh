#!/bin/bash
# What an unauthenticated or ordinary peer sends costs mbatchd little:
# one user's hundred unfinished 16 MB requests hold at most that user's
# share of memory (today's code held all 1.6 GB), other users' requests,
# a large one included, go through meanwhile, and the memory is given
# back when they close; frames sent behind a refused handshake are
# dropped unread, so a flood of them writes a few log lines, not one per
# frame.
. "$(dirname "$0")/lib.sh"

need_root

cluster_init 3 LSF_LOG_MASK=LOG_INFO
cluster_start
cd "$T_DIR/jobs"
FLOOD=$TOOLS/flood
SOCK=$T_DIR/work/c1/mbatchd.sock
mport=$(sed -n 's/^LSB_MBD_PORT=//p' "$LSF_CONF/lsf.conf")
mlog="$T_DIR/log/mbatchd.log.hosta"
MBD=$(pgrep -P "$PID_sbatchd_hosta" -x mbatchd)

rss_mb() {
	echo $(( $(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' \
	    "/proc/$1/status") / 1024 ))
}
rest=$(rss_mb "$MBD")

# One user (nobody), a hundred requests of 16 MB, each unfinished.
as_nobody "$FLOOD" partial "$SOCK" 100 20 >/dev/null 2>&1 &
flood=$!
starved() {
	grep -q 'unfinished requests from this peer.*over its share' "$mlog"
}
check "mbatchd stops reading the user past its share" wait_for starved
max=0
for i in 1 2 3 4 5; do
	r=$(rss_mb "$MBD")
	[ "$r" -gt "$max" ] && max=$r
	out=$(timeout 10 bsub -o /dev/null true 2>&1) ||
	    fail "root's bsub during the flood: $out"
	sleep 1
done
check "mbatchd held at most the user's share (${max} MB, ${rest} MB at rest)" \
    [ "$max" -lt $((rest + 120)) ]
# Another user's large request: a 4 MB script.
script=$T_DIR/big.sh
{ echo '#!/bin/sh'; head -c 4000000 /dev/zero | tr '\0' '#'; echo; echo true; } \
    >"$script"
chmod 644 "$script"
out=$(as_user daemon timeout 20 bsub -o /dev/null <"$script" 2>&1)
expect_match "another user's 4 MB request goes through" \
    '^Job <[0-9]+> is submitted' "$out"
id=$(echo "$out" | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
check "and its job runs" wait_for job_is "$id" DONE

kill "$flood" 2>/dev/null
pkill -P "$flood" 2>/dev/null
wait "$flood" 2>/dev/null
given_back() {
	[ "$(rss_mb "$MBD")" -lt $((rest + 40)) ]
}
# ASan's allocator keeps what is freed in quarantine and has no
# malloc_trim: there this is left to the plain build.
case ${ASAN_OPTIONS:-} in
"") check "its memory is given back when it closes" wait_for given_back ;;
esac

# A refused handshake, then 256 frames, again and again, over TCP.
before=$(wc -l <"$mlog")
as_nobody "$FLOOD" refused "127.0.0.11:$mport" 8 5 >"$T_DIR/refused.out" 2>&1
opened=$(cat "$T_DIR/refused.out")
check "the flood made many connections ($opened)" [ "${opened:-0}" -gt 50 ]
lines=$(( $(wc -l <"$mlog") - before ))
check "and mbatchd wrote a few lines for them, not one per frame ($lines)" \
    [ "$lines" -lt 20 ]
expect_eq "no frame behind a refusal reached a handler" 0 \
    "$(tail -n "$lines" "$mlog" | grep -c 'unexpected\|malformed\|MSG_SBD')"
expect_match "the refusals are logged, and counted" \
    'authentication refused: it asked for mbatchd on nosuchhost, not us' \
    "$(tail -n "$lines" "$mlog")"
check "mbatchd is alive" kill -0 "$MBD"
id=$(submit -o /dev/null true)
check "a job runs" wait_for job_is "$id" DONE

finish
