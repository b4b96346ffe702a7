#!/bin/bash
# Fairshare history decays (issue 22).  One host with 2 slots; root and
# daemon have equal shares, root listed first.  daemon keeps one slot
# busy all along, so the other slot goes by
#	root:   1 / (cpu * CPU_TIME_FACTOR + (1 + 0) * 3)
#	daemon: 1 / (                        (1 + 1) * 3)
# root first while root's decayed CPU time x = cpu * 60000 is below 3.
# root burns 2 s of CPU (x = 2/3600 * 60000 = 33): daemon's next job
# goes first.  With HIST_HOURS = 0.002 (7.2 s) x falls by 10 every
# 7.2 s: once it is below 2, root's job goes first again.  Without the
# charge root would go first at once; without the decay, never.
. "$(dirname "$0")/lib.sh"
need_root

cluster_init 1
queues "fair 30 FAIRSHARE = USER_SHARES[[root, 1] [daemon, 1]]"
sed -i 's/^End Parameters/CPU_TIME_FACTOR = 60000\nRUN_TIME_FACTOR = 0\n&/' \
	"$LSB_CONF/lsb.params"
sed -i 's/^End Parameters/HIST_HOURS = 0.002\n&/' "$LSB_CONF/lsb.params"
host_mxj 2
cluster_start
cd "$T_DIR/jobs"

dsub() {
	as_user daemon bsub -q fair -o /dev/null "$@" |
	    sed -n 's/^Job <\([0-9]*\)>.*/\1/p'
}
# root's decayed CPU time, times CPU_TIME_FACTOR, from statedump.
root_x() {
	badmin statedump | awk -v now="$(date +%s)" '
	    $1 == "fs" && $2 == "root/" {
		for (i = 3; i <= NF; i++)
			if ($i ~ /^cpu=/) {
				split(substr($i, 5), c, "@")
				print c[1] * 60000 * \
				    10 ^ (-(now - c[2]) / 3600 / 0.002)
			}
	    }'
}
x_below() {
	awk -v x="$(root_x)" -v max="$1" 'BEGIN { exit !(x != "" && x < max) }'
}

hold=$(dsub sleep 300)
# 2 s of CPU whatever else the machine runs: awk reads its own utime.
burn=$(submit -q fair -o /dev/null "awk 'BEGIN { for (;;) { if (++i % 100000)
	continue; getline s < \"/proc/self/stat\"; close(\"/proc/self/stat\");
	split(s, f, \" \"); if (f[14] >= 200) exit } }'")
wait_for job_is "$hold" RUN || fail "daemon's first job did not start"
wait_for job_is "$burn" RUN || fail "root's CPU burner did not start"
a2=$(submit -q fair -o /dev/null sleep 300)
b2=$(dsub sleep 300)
check "root's burner ends" wait_for job_is "$burn" DONE
check "daemon's job takes the freed slot" wait_for job_is "$b2" RUN
check "root's, submitted first, waits" job_is "$a2" PEND
expect_match "statedump: root's history holds 2 to 2.5 s of CPU" \
	"^fs root/ shares=1 leaf=1 cpu=0\.000[56][0-9]*@" \
	"$(badmin statedump)"
x=$(root_x)
echo "# root's x when daemon's job started: $x"

b3=$(dsub sleep 300)
check "root's history decays below 2" wait_for x_below 2
bkill "$b2" >/dev/null
check "root's job goes first again" wait_for job_is "$a2" RUN
check "daemon's waits" job_is "$b3" PEND
bkill -u all 0 >/dev/null 2>&1
finish
