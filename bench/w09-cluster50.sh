#!/bin/bash
# Workload 9, second part: a cluster of 50 hosts on loopback (127.0.0.11
# .. 127.0.0.60, every lim and sbatchd with -N <host>, as the scenario
# tests do for 3).  Times the start-up until bhosts shows all 50 ok, the
# daemons' memory and idle CPU, then an array of short jobs from
# submission to the last DONE.
#
#	RESULT|w9.cluster50_up_s          start of the first lim to 50 hosts ok
#	RESULT|w9.cluster50_rss_mb        RSS of all 100+ daemons, summed
#	RESULT|w9.cluster50_idle_cpu_pct  their CPU while idle (% of one core)
#	RESULT|w9.cluster50_run_rate      jobs/s, submission to the last DONE
#
# Sizes: BENCH_SCALE scales the jobs (1,000 at 1); the host count is
# W9_HOSTS (default 50, at most 50).
. "$(dirname "$0")/lib.sh"

NH=${W9_HOSTS:-50}
[ "$NH" -ge 1 ] && [ "$NH" -le 50 ] || { say "W9_HOSTS: 1..50"; exit 2; }
NJ=$(scaled 1000 10)
MXJ=2

# bench_init names hosts hosta, hostb, ...: fine for a few.  Here the
# master stays hosta (127.0.0.11) and the others are n12 .. n60 (the
# last byte of their address).
bench_init 1 "$MXJ"
HOSTS="hosta"
for i in $(seq 12 $((10 + NH))); do
	HOSTS="$HOSTS n$i"
done
{
	echo "127.0.0.11 hosta"
	for i in $(seq 12 $((10 + NH))); do
		echo "127.0.0.$i n$i"
	done
} >"$LSF_CONF/hosts"
awk -v hosts="$HOSTS" '
	/^Begin Host$/ { inhost = 1; print; next }
	inhost && /^HOSTNAME/ { print; n = split(hosts, h, " ");
		for (i = 1; i <= n; i++) print h[i] "  !  !  1  ()"; next }
	inhost && /^End Host$/ { inhost = 0; print; next }
	inhost { next }
	{ print }' "$LSF_CONF/lsf.cluster.c1" >"$LSF_CONF/lsf.cluster.c1.new"
mv "$LSF_CONF/lsf.cluster.c1.new" "$LSF_CONF/lsf.cluster.c1"

say "starting $NH hosts (lim + sbatchd each, -N), MXJ $MXJ"
now_us t0
bench_start
now_us t1
up_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e6 }')
result w9.cluster50_up_s "$up_s" s
[ "$NH" = 50 ] || say "note: $NH hosts, not 50"

# Every daemon of this cluster: the lims and sbatchds we started and the
# mbatchd the master's sbatchd started.
pids="$B_PIDS $(mbd_pid)"
rss=0
for p in $pids; do
	r=$(rss_kb "$p" 2>/dev/null) && rss=$((rss + r))
done
result w9.cluster50_rss_mb "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')" MB
say "$(echo $pids | wc -w) daemons"

# CPU ticks (utime + stime) of those daemons over a few idle seconds.
ticks() {
	local p sum=0 t
	for p in $pids; do
		t=$(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null) &&
		    sum=$((sum + t))
	done
	echo "$sum"
}
IDLE=5
c0=$(ticks)
now_us i0
nap "$IDLE"
now_us i1
c1=$(ticks)
hz=$(getconf CLK_TCK)
result w9.cluster50_idle_cpu_pct "$(awk -v c="$((c1 - c0))" -v hz="$hz" \
    -v a="$i0" -v b="$i1" 'BEGIN { printf "%.1f", 100 * c / hz / ((b - a) / 1e6) }')" %

say "$NJ short jobs (an array of /bin/true) on $((NH * MXJ)) slots"
now_us s0
id=$(submit -J "w9c[1-$NJ]" -o /dev/null /bin/true) ||
    { say "bsub failed"; exit 1; }
[ -n "$id" ] || { say "bsub gave no job id"; exit 1; }
wait_queue_empty normal 600 || { say "jobs still unfinished after 600 s";
    exit 1; }
now_us s1
ndone=$(count_stat DONE "$id")
[ "$ndone" = "$NJ" ] || { say "$ndone of $NJ jobs DONE"; exit 1; }
# How many hosts ran something: the jobs really spread over the cluster.
nhosts_used=$(bjobs -a -u all -noheader -o exec_host "$id" 2>/dev/null |
    sed 's/^[0-9]*\*//' | sort -u | wc -l)
say "$ndone DONE, on $nhosts_used hosts"
result w9.cluster50_run_rate "$(rate "$NJ" "$s0" "$s1")" jobs/s
