# cpu-by-comm.awk: where the CPUs' time went, per command, from the
# scheduler's switches, between the first and the last exit of a given
# command (the jobs of a workload); and how much of the idle time fell
# while mbatchd was in fdatasync.
#
#	perf record -a -e sched:sched_switch \
#	    -e syscalls:sys_enter_fdatasync -e syscalls:sys_exit_fdatasync \
#	    -e syscalls:sys_enter_exit_group -o w4.data -- sleep 5
#	perf script -i w4.data -F comm,pid,cpu,time,event,trace |
#	    awk -v JOB=true -v NCPU=2 -f bench/tools/cpu-by-comm.awk
#
# Commands are named by their first word ("jobsup 12" is a supervisor);
# "idle" is the idle task.  The time a task ran is charged at its
# switch-out, so a window's first and last slices are approximate.

function parse(line) {
	# comm can hold blanks: find the fields from "[cpu] time:" on
	if (!match(line, /\[[0-9]+\] +[0-9.]+:/))
		return 0
	hdr = substr(line, RSTART, RLENGTH)
	cpu = substr(hdr, 2, index(hdr, "]") - 2)
	t = substr(hdr, index(hdr, "]") + 1) + 0
	comm = substr(line, 1, RSTART - 1)
	sub(/^ +/, "", comm)
	sub(/ +[0-9]+ +$/, "", comm)		# the pid
	match(line, / (sched|syscalls):[a-z_]+/)
	ev = substr(line, RSTART + 1, RLENGTH - 1)
	return 1
}

BEGIN { if (JOB == "") JOB = "true"; if (NCPU == 0) NCPU = 2 }

{
	if (!parse($0))
		next
	n++
	T[n] = t; C[n] = cpu; E[n] = ev; M[n] = comm; L[n] = $0
	if (comm == JOB && ev ~ /exit_group/) {
		if (first == "")
			first = t
		last = t
		njobs++
	}
}

END {
	if (njobs < 2) {
		print "cpu-by-comm: fewer than two exits of " JOB > "/dev/stderr"
		exit 1
	}
	for (i = 1; i <= n; i++) {
		if (T[i] < first || T[i] > last)
			continue
		if (M[i] == "mbatchd" && E[i] ~ /sys_enter_fdatasync/)
			syncing = 1
		if (M[i] == "mbatchd" && E[i] ~ /sys_exit_fdatasync/) {
			syncing = 0
			nsync++
		}
		if (E[i] !~ /sched_switch/)
			continue
		p = L[i]
		sub(/.*prev_comm=/, "", p)
		sub(/ prev_pid=.*/, "", p)
		sub(/ .*/, "", p)
		if (p ~ /^swapper/)
			p = "idle"
		if (C[i] in since) {
			d = T[i] - since[C[i]]
			ran[p] += d
			if (p == "idle")
				idle_sync += syncing ? d : 0
		}
		since[C[i]] = T[i]
	}
	w = last - first
	printf "%d exits of %s in %.3f s (%.0f/s); mbatchd fdatasync: %d " \
	    "(%.2f per job)\n", njobs, JOB, w, njobs / w, nsync, nsync / njobs
	printf "%-14s %9s %6s %8s\n", "command", "ms", "share", "us/job"
	for (p in ran)
		printf "%-14s %9.1f %5.1f%% %8.0f\n", p, ran[p] * 1000,
		    ran[p] / (NCPU * w) * 100, ran[p] / njobs * 1e6 | "sort -k2 -rn"
	close("sort -k2 -rn")
	printf "idle while mbatchd syncs: %.1f ms (%.0f us/job)\n",
	    idle_sync * 1000, idle_sync / njobs * 1e6
}
