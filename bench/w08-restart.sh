#!/bin/bash
# Workload 8: restart: seconds from mbatchd's start to its first answer
# to bjobs, with 100,000 and 1,000,000 jobs in lsb.events (written by
# tools/mklog; the file is in the page cache, as after a crash).  Also
# what one switch of that file costs (MAX_JOB_NUM), with every job in it
# live, so all of it is copied: the worst case (tools/switchlog, on a
# copy beside it, on the same disk).
. "$(dirname "$0")/lib.sh"

bench_bigsys_init
SWITCHLOG=$(need_tool switchlog)
for size in 100k 1m; do
	case $size in
	100k) n=$(scaled 100000 10) ;;
	1m) n=$(scaled 1000000 100) ;;
	esac
	bench_bigsys_load "$n"
	say "$n jobs ($(du -h "$LSB_LOGDIR/lsb.events" | cut -f1)): answered after $LOAD_S s"
	result "w8.restart_${size}_s" "$LOAD_S" s
	mkdir -p "$B_DIR/sw"
	cp "$LSB_LOGDIR/lsb.events" "$B_DIR/sw/lsb.events"
	out=$("$SWITCHLOG" "$B_DIR/sw/lsb.events" all) ||
	    { say "switchlog failed"; exit 1; }
	say "switch: $out"
	ms=$(sed -n 's/.* \([0-9]*\) ms$/\1/p' <<<"$out")
	[ -n "$ms" ] || { say "no time in switchlog's output"; exit 1; }
	result "w8.switch_${size}_s" "$(awk -v m="$ms" 'BEGIN { printf "%.3f", m / 1000 }')" s
	rm -rf "$B_DIR/sw"
done
bench_mbd_stop
