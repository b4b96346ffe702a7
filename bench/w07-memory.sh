#!/bin/bash
# Workload 7: mbatchd's resident memory (VmRSS) with 0, 100,000 and
# 1,000,000 pending jobs (an lsb.events written by tools/mklog, jobs in an
# inactive queue, counted before the figure is taken); bytes per job.
. "$(dirname "$0")/lib.sh"

bench_bigsys_init
n100k=$(scaled 100000 10)
n1m=$(scaled 1000000 100)
for n in 0 "$n100k" "$n1m"; do
	bench_bigsys_load "$n"
	r=$(rss_kb "$MBD_PID")
	say "$n jobs: mbatchd RSS $r kB (loaded in $LOAD_S s)"
	case $n in
	0) rss0=$r; result w7.rss_0_kb "$r" kB ;;
	"$n100k") result w7.rss_100k_kb "$r" kB ;;
	"$n1m") rss1m=$r; result w7.rss_1m_kb "$r" kB ;;
	esac
done
bench_mbd_stop
result w7.bytes_per_job "$(awk -v a="$rss0" -v b="$rss1m" -v n="$n1m" \
    'BEGIN { printf "%.0f", (b - a) * 1024 / n }')" B
