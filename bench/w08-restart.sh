#!/bin/bash
# Workload 8: restart: seconds from mbatchd's start to its first answer
# to bjobs, with 100,000 and 1,000,000 jobs in lsb.events (written by
# tools/mklog; the file is in the page cache, as after a crash).
. "$(dirname "$0")/lib.sh"

bench_bigsys_init
for size in 100k 1m; do
	case $size in
	100k) n=$(scaled 100000 10) ;;
	1m) n=$(scaled 1000000 100) ;;
	esac
	bench_bigsys_load "$n"
	say "$n jobs ($(du -h "$LSB_LOGDIR/lsb.events" | cut -f1)): answered after $LOAD_S s"
	result "w8.restart_${size}_s" "$LOAD_S" s
done
bench_mbd_stop
