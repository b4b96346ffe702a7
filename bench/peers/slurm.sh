#!/bin/bash
# Slurm side by side (issue 4): workloads 1-6 run with sbatch, squeue and
# scontrol on a private slurmctld + slurmd started on loopback in a
# temporary directory, with Slurm's documented high-throughput settings;
# workload 11 (preemption, issue 21) on a cluster of its own, started
# after the others' has stopped (see w11 below).
# Prints RESULT|slurm.<key>|value|unit lines, <key> being the key of the
# same workload of ours (w1.submit_rate ...); commentary goes to stderr.
#
#	BENCH_SCALE=0.02 bash bench/peers/slurm.sh
#
# Environment:
#	BENCH_SCALE		sizes (1 = the issue's sizes)
#	SLURM_WORKLOADS		which workloads, default "1 2 3 4 5 6 11"
#	SLURM_AUTH		none (default) or munge: see AuthType below
#	SLURM_ADDR		loopback address of both daemons (127.0.0.61)
#	SLURM_RUN_SECS		time budget of each run phase of w3 and w4
#				(default 120): Slurm runs ~2 trivial jobs/s
#				on 2 CPUs, so at full size the rate is
#				measured over the elements done within it
#	SLURM_FILL_SECS		time budget to fill the system for w6 (900)
#	BENCH_POLL_PAUSE	w6's pollers' pause between calls, as
#				ours (0.1 s)
#	SLURM_SCHEDULER_TYPE, SLURM_SCHEDULER_PARAMETERS
#				override SchedulerType/SchedulerParameters
#				(to re-check the choices explained below)
#	W11_SCHEDULER_PARAMETERS
#				SchedulerParameters of workload 11 alone
#				(default: SLURM_SCHEDULER_PARAMETERS)
#	SLURM_W11_SECS		time budget of workload 11's samples (1200)
#	KEEP=1			keep the temporary directory
#
# Nothing under /etc is read or written (every command gets SLURM_CONF);
# every daemon this starts (slurmctld, slurmd, the jobs' slurmstepd,
# munged) is stopped at exit and the temporary directory removed.
. "$(dirname "$0")/../lib.sh"
B_NAME=slurm

SLURM_WORKLOADS=${SLURM_WORKLOADS:-1 2 3 4 5 6 11}
SLURM_AUTH=${SLURM_AUTH:-none}
SLURM_ADDR=${SLURM_ADDR:-127.0.0.61}
SLURM_RUN_SECS=${SLURM_RUN_SECS:-120}
SLURM_FILL_SECS=${SLURM_FILL_SECS:-900}
SLURM_SCHEDULER_TYPE=${SLURM_SCHEDULER_TYPE:-sched/backfill}
SLURM_SCHEDULER_PARAMETERS=${SLURM_SCHEDULER_PARAMETERS:-defer,batch_sched_delay=0,bf_interval=1,bf_continue,max_rpc_cnt=64,default_queue_depth=100}
W11_SCHEDULER_PARAMETERS=${W11_SCHEDULER_PARAMETERS:-$SLURM_SCHEDULER_PARAMETERS}
NODE=benchnode

# Sizes: the issue's, as our scripts (bench/wNN-*.sh) use them.
N1=$(scaled 2000 20)		# w1: sequential submissions
N2=$(scaled 4000 40)		# w2: over 8 clients
N3=$(scaled 10000 10)		# w3: array elements
N4=$(scaled 2000 10)		# w4: held jobs released at once
N5=$(scaled 200 10)		# w5: latency samples
N6A=$(scaled 10000 100)		# w6: jobs in the system, small
N6B=$(scaled 100000 1000)	# w6: jobs in the system, large
N6P=$(scaled 1000 20)		# w6: submissions per rate measurement
N11=$(scaled 200 10)		# w11: preemption samples
POLLERS=20
POLL_PAUSE=${BENCH_POLL_PAUSE:-0.1}

S_DIR=""
S_PIDS=""
S_PROFILE=main		# main (workloads 1-6) or w11: see slurm_conf
POLICY_RC=""

# ---------------------------------------------------------------- install

slurm_install() {
	# (munge comes with it: Debian's slurm packages depend on it.)
	local pkgs="slurm-wlm"

	command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
	    command -v sbatch >/dev/null && return 0
	say "installing $pkgs with apt-get"
	# Debian's maintainer scripts would start slurmctld, slurmd and
	# munged system-wide; a policy-rc.d that exists only during the
	# install stops them doing so (left alone if one is already there).
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		POLICY_RC=/usr/sbin/policy-rc.d
		printf '#!/bin/sh\nexit 101\n' >"$POLICY_RC"
		chmod 755 "$POLICY_RC"
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q --no-install-recommends $pkgs >&2 ||
	    { apt-get update -q >&2 &&
	    apt-get install -y -q --no-install-recommends $pkgs >&2; }
	if [ -n "$POLICY_RC" ]; then
		rm -f "$POLICY_RC"
		POLICY_RC=""
	fi
	command -v slurmctld >/dev/null || { say "cannot install slurm-wlm";
	    exit 1; }
}

# --------------------------------------------------------------- cluster

# Five consecutive free TCP ports: four for slurmctld, one for slurmd.
# Below the ephemeral range, so that none of the many outgoing
# connections (Slurm's own included) can hold one when a daemon binds;
# and not in use by any socket, listening or not.
pick_ports5() {
	local base tries=0 used low
	low=$(awk '{ print $1 }' /proc/sys/net/ipv4/ip_local_port_range \
	    2>/dev/null)
	[ "${low:-0}" -gt 12000 ] || low=32768
	used=$(ss -tanH 2>/dev/null | awk '{ n = split($4, a, ":");
	    print a[n] }' | sort -u)
	while :; do
		base=$(( 10000 + (RANDOM * 7 + $$) % (low - 10010) ))
		if ! echo "$used" | grep -Eqx "$base|$((base + 1))|$((base + 2))|$((base + 3))|$((base + 4))"; then
			echo "$base"
			return
		fi
		tries=$((tries + 1))
		[ $tries -gt 50 ] && { say "no free ports"; exit 1; }
	done
}

slurm_conf() {
	local port=$1 maxjobs auth cred sel=CR_CPU
	local sched=$SLURM_SCHEDULER_PARAMETERS

	if [ "$S_PROFILE" = w11 ]; then
		sel=CR_CPU_Memory
		sched=$W11_SCHEDULER_PARAMETERS
	fi

	maxjobs=$(( N6B + N6B / 10 + 4 * N6P + N3 + 5000 ))
	[ "$maxjobs" -lt 20000 ] && maxjobs=20000
	if [ "$SLURM_AUTH" = munge ]; then
		auth="AuthType=auth/munge
AuthInfo=socket=$S_DIR/munge/munge.socket"
		cred="CredType=cred/munge"
	else
		auth="AuthType=auth/none"
		cred="CredType=cred/none"
	fi
	# Every setting, and why:
	# - ClusterName, SlurmctldHost: this machine's short name (slurmctld
	#   refuses to run on a host not named there) at $SLURM_ADDR, so
	#   nothing leaves loopback.
	# - SlurmctldPort=p-(p+3): the high-throughput guide's advice to
	#   listen on several ports so bursts of connections are not dropped
	#   at the listen backlog (SOMAXCONN, which we do not raise: it is
	#   system configuration).  SlurmdPort: one more free port.
	# - AuthType/CredType: auth/none + cred/none by default: this
	#   project authenticates nothing either (it trusts the uid a client
	#   sends, as LSF without eauth), so both sides pay no crypto; with
	#   SLURM_AUTH=munge, the deployed configuration: a private munged
	#   with 10 threads (the guide's advice), its own key and socket.
	# - SlurmUser=root, SlurmdUser=root: we run as root, and no "slurm"
	#   user needs to exist.
	# - StateSaveLocation, SlurmdSpoolDir, pid and log files: all in
	#   the temporary directory.  State saving is left as shipped (it
	#   cannot be turned off).  What it makes durable, as seen with
	#   strace -f on slurmctld 22.05.8 here: the submit RPC creates
	#   hash.N/job.N/environment and .../script (creat + write, no
	#   fsync) and answers sbatch; a separate state-save thread then
	#   rewrites the whole job table to job_state.new, fsyncs it and
	#   links it over job_state, at most once per ~5 s (saves were 5 s
	#   apart under load).  So an sbatch answer is not on disk yet: a
	#   crash can lose up to ~5 s of accepted jobs, where our bsub
	#   answers only after its fsync.  Slurm has no setting that syncs
	#   per job, so this is the fairest Slurm can be made.
	# - SlurmctldDebug=error, SlurmdDebug=error: the guide's advice;
	#   logging costs throughput.
	# - ProctrackType=proctrack/pgid: tracks a job by process group; no
	#   cgroup set-up (proctrack/cgroup would need the cgroup tree,
	#   which we must not touch).
	# - TaskPlugin=task/none: no binding or cgroup work per task.
	# - SelectType=select/cons_tres, SelectTypeParameters=CR_CPU: CPUs
	#   are the consumable, so the node's 2 CPUs run 2 one-CPU jobs at
	#   once (our side: 2 slots, MXJ 2).
	# - JobAcctGatherType=jobacct_gather/none, AccountingStorageType=
	#   accounting_storage/none, JobCompType=jobcomp/none: the guide's
	#   advice; no accounting sampling, no job completion records.
	# - PriorityType=priority/basic: the guide's advice: FIFO, no
	#   priority computation.
	# - SchedulerType=sched/backfill (Slurm's default; the guide suggests
	#   sched/builtin for short jobs): on this 2-CPU node the backfill
	#   pass, run every second, starts jobs between the main
	#   scheduler's passes: w4 2.51 vs 1.95 jobs/s, w5 p50 843 vs
	#   951 ms against sched/builtin (BENCH_SCALE=0.05, same settings
	#   otherwise; re-check with SLURM_SCHEDULER_TYPE).
	# - SchedulerParameters:
	#     defer: do not try to schedule each job in the submit RPC (the
	#       guide: better submission rates); batch jobs are not started
	#       by the submit RPC anyway, only by the scheduler threads.
	#     batch_sched_delay=0: schedule batch jobs at the controller's
	#       next background pass (about once a second) instead of up to
	#       3 s later (the default): measured 0.46 jobs/s with the
	#       default, 2 jobs/s with 0 on 2 CPUs.  The guide's 20 s suits
	#       clusters that get more submissions than they can place,
	#       not a 2-CPU node that must start jobs as soon as CPUs free.
	#     bf_interval=1, bf_continue: a backfill pass every second (the
	#       minimum; default 30 s), continuing after it yields locks.
	#     sched_min_interval: left at its default of 2 us (no real
	#       throttle; the guide's 2 s is for big clusters).  Setting it
	#       to 0 makes 22.05 log "Invalid SchedulerParameters interval".
	#     max_rpc_cnt=64: the scheduler yields its locks while 64 or
	#       more RPC threads are active, so submissions and queries are
	#       not stalled behind a scheduling pass (w6 polling).
	#     default_queue_depth=100: the default; with 2 CPUs no pass can
	#       start more than 2 jobs.
	# - MaxJobCount=$maxjobs: room for w6's 100,000 pending jobs (and
	#   array tasks, which count one each); default 10,000.
	# - MaxArraySize: above w3's 10,000 elements (default 1001).
	# - MinJobAge=2: finished job records leave memory after 2 s (the
	#   guide: a few seconds; default 300), so queries do not walk them.
	# - MessageTimeout=60: under 20 pollers with 100,000 jobs a squeue
	#   can take longer than the default 10 s (the guide: may need to be
	#   raised); it changes no speed, only avoids failed calls.
	# - ReturnToService=2: the node is usable as soon as slurmd
	#   registers.  MailProg=/bin/true: there is no mailer here.
	# - MpiDefault=none, SwitchType=switch/none, LaunchType default:
	#   nothing to set up per job.
	# - Partitions: "run" (default, UP) runs jobs; "idle" is DOWN: jobs
	#   are queued there but never started -- Slurm's counterpart of
	#   our inactive queue, used where only submission and queries are
	#   measured (w1, w2, w6).
	cat >"$S_DIR/slurm.conf" <<EOF
ClusterName=bench
SlurmctldHost=$(hostname -s)($SLURM_ADDR)
SlurmctldPort=$port-$((port + 3))
SlurmdPort=$((port + 4))
$auth
$cred
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$S_DIR/state
SlurmdSpoolDir=$S_DIR/spool
SlurmctldPidFile=$S_DIR/slurmctld.pid
SlurmdPidFile=$S_DIR/slurmd.pid
SlurmctldLogFile=$S_DIR/log/slurmctld.log
SlurmdLogFile=$S_DIR/log/slurmd.log
SlurmctldDebug=error
SlurmdDebug=error
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=$sel
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
PriorityType=priority/basic
SchedulerType=$SLURM_SCHEDULER_TYPE
SchedulerParameters=$sched
MaxJobCount=$maxjobs
MaxArraySize=$(( N3 > 10000 ? N3 + 1 : 10001 ))
MinJobAge=2
MessageTimeout=60
ReturnToService=2
MailProg=/bin/true
MpiDefault=none
SwitchType=switch/none
$(slurm_conf_$S_PROFILE)
EOF
}

# The node and partitions of workloads 1-6.
slurm_conf_main() {
	cat <<EOF
NodeName=$NODE NodeAddr=$SLURM_ADDR CPUs=2 State=UNKNOWN
PartitionName=run Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
PartitionName=idle Nodes=$NODE MaxTime=INFINITE State=DOWN
EOF
}

# Workload 11's: preemption by partition, suspending the victim, as our
# low and high queues do (bench/w11-preempt.sh).
# - PreemptType=preempt/partition_prio: a job of a partition of higher
#   PriorityTier preempts jobs of lower ones (slurm.conf(5)).
# - PreemptMode=SUSPEND,GANG: the victim is suspended; slurm.conf(5):
#   "the SUSPEND preemption mode always needs the GANG option to be
#   specified at the cluster level", GANG being what resumes it.
# - SchedulerTimeSlice=5: the least allowed (default 30 s).  It is the
#   gang scheduler's time slice between jobs of one partition, which
#   never happens here (one job per partition); with partition_prio the
#   victim is resumed when its preemptor ends, not on a slice.  Set to
#   the least in case the gang scheduler's timer plays a part anyway.
# - SelectTypeParameters=CR_CPU_Memory (set in slurm_conf), RealMemory,
#   DefMemPerCPU: slurm.conf(5) says SUSPEND needs memory tracked (the
#   suspended job stays in memory); 100 MB a job, 1,000 on the node.
# - CPUs=1: one CPU for both jobs, so the high job can only run on the
#   low one's CPU (our side: MXJ 1).
# - OverSubscribe=FORCE:1 on both partitions: slurm.conf(5): "setting
#   OverSubscribe=NO will disable preemption on that partition. Use
#   OverSubscribe=FORCE:1 if you want to disable normal oversubscription
#   but still allow suspension due to preemption".
# - PriorityTier: low 1, high 10.
# Everything else is workloads 1-6's high-throughput set-up above (the
# scheduler's and its parameters, which W11_SCHEDULER_PARAMETERS can
# override for this workload alone).
slurm_conf_w11() {
	cat <<EOF
PreemptType=preempt/partition_prio
PreemptMode=SUSPEND,GANG
SchedulerTimeSlice=5
DefMemPerCPU=100
NodeName=$NODE NodeAddr=$SLURM_ADDR CPUs=1 RealMemory=1000 State=UNKNOWN
PartitionName=low Nodes=$NODE Default=YES MaxTime=INFINITE State=UP PriorityTier=1 OverSubscribe=FORCE:1
PartitionName=high Nodes=$NODE MaxTime=INFINITE State=UP PriorityTier=10 OverSubscribe=FORCE:1
EOF
}

# A private munged: own key, socket, pid, log and seed files.
start_munge() {
	mkdir -p "$S_DIR/munge"
	chmod 700 "$S_DIR/munge"
	dd if=/dev/urandom of="$S_DIR/munge/munge.key" bs=1024 count=1 \
	    2>/dev/null
	chmod 400 "$S_DIR/munge/munge.key"
	munged -F -f --num-threads=10 \
	    --socket="$S_DIR/munge/munge.socket" \
	    --key-file="$S_DIR/munge/munge.key" \
	    --pid-file="$S_DIR/munge/munged.pid" \
	    --log-file="$S_DIR/log/munged.log" \
	    --seed-file="$S_DIR/munge/munged.seed" >>"$S_DIR/log/munged.out" 2>&1 &
	S_PIDS="$S_PIDS $!"
	wait_for test -S "$S_DIR/munge/munge.socket" ||
	    { say "munged did not start"; tail "$S_DIR/log/munged"* >&2; exit 1; }
}

node_idle() {
	[ "$(sinfo -h -n "$NODE" -o %T 2>/dev/null | sort -u)" = idle ]
}

slurm_start() {
	local port

	S_DIR=$(mktemp -d "$BENCH_TMP/slurmb.XXXXXX")
	chmod 755 "$S_DIR"
	mkdir -p "$S_DIR/state" "$S_DIR/spool" "$S_DIR/log" "$S_DIR/jobs"
	export SLURM_CONF="$S_DIR/slurm.conf"
	# Our own formats and defaults only.
	unset SQUEUE_FORMAT SQUEUE_FORMAT2 SQUEUE_SORT SBATCH_PARTITION \
	    SLURM_TIME_FORMAT SQUEUE_USERS
	port=$(pick_ports5)
	[ "$SLURM_AUTH" = munge ] && start_munge
	slurm_conf "$port"
	slurmctld -D -c >>"$S_DIR/log/slurmctld.out" 2>&1 &
	S_PIDS="$S_PIDS $!"
	slurmd -D -N "$NODE" >>"$S_DIR/log/slurmd.out" 2>&1 &
	S_PIDS="$S_PIDS $!"
	WAIT_SECS=60 wait_for node_idle || { slurm_dump_logs;
	    say "slurm did not come up"; exit 1; }
	say "slurmctld + slurmd up in $S_DIR (ports $port-$((port + 4)), auth/$SLURM_AUTH)"
}

slurm_dump_logs() {
	local f
	for f in "$S_DIR"/log/*; do
		echo "# ---- $f" >&2
		grep -v -e pmix -e 'MPI:' "$f" | tail -n 20 | sed 's/^/# /' >&2
	done
}

# The jobs' slurmstepd and whatever the jobs left, which do not die with
# slurmd: processes with our SLURM_CONF in their environment that are a
# slurmstepd or part of a job (SLURM_JOB_ID set); this script's own
# subshells carry SLURM_CONF too but never SLURM_JOB_ID.
our_procs() {
	local e p comm
	for e in /proc/[0-9]*/environ; do
		p=${e#/proc/}
		p=${p%/environ}
		{ read -r comm <"/proc/$p/comm"; } 2>/dev/null || continue
		{ tr '\0' '\n' <"$e"; } 2>/dev/null | awk -v c="$comm" \
		    -v conf="SLURM_CONF=$S_DIR/slurm.conf" '
			$0 == conf { ours = 1 }
			/^SLURM_JOB_ID=/ { job = 1 }
			END { exit !(ours && (job || c == "slurmstepd")) }' &&
		    echo "$p"
	done
}

slurm_stop() {
	local p deadline

	if [ -n "$POLICY_RC" ]; then
		rm -f "$POLICY_RC"
		POLICY_RC=""
	fi
	[ -n "$S_DIR" ] || return 0
	touch "$S_DIR/stop" 2>/dev/null
	scontrol shutdown >/dev/null 2>&1
	for p in $S_PIDS; do kill "$p" 2>/dev/null; done
	deadline=$(( $(now_s) + 15 ))
	for p in $S_PIDS; do
		while kill -0 "$p" 2>/dev/null && [ "$(now_s)" -lt "$deadline" ]; do
			nap 0.1
		done
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	for p in $(our_procs); do kill -KILL "$p" 2>/dev/null; done
	if [ -z "${KEEP:-}" ]; then
		rm -rf "$S_DIR"
	else
		say "kept $S_DIR"
	fi
	S_DIR=""
	S_PIDS=""
}

trap slurm_stop EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- helpers

# sb_loop N SECS SBATCH-ARGS...: sbatch one after another until N are
# accepted or SECS pass; prints how many were accepted.  A refused
# submission is counted and reported, not retried at once.
sb_loop() {
	local n=$1 secs=$2 ok=0 fail=0 deadline err
	shift 2
	err="$S_DIR/jobs/sbatch.err.$BASHPID"
	deadline=$(( ${EPOCHREALTIME%.*} + secs ))
	while [ "$ok" -lt "$n" ]; do
		if sbatch -Q "$@" >/dev/null 2>"$err"; then
			ok=$((ok + 1))
		else
			fail=$((fail + 1))
			cp "$err" "$err.last"
		fi
		if [ "${EPOCHREALTIME%.*}" -ge "$deadline" ]; then
			say "time is up after $ok submissions"
			break
		fi
	done
	[ "$fail" -gt 0 ] &&
	    say "$fail sbatch failed, the last with: $(tr '\n' ' ' <"$err.last")"
	rm -f "$err" "$err.last"
	echo "$ok"
}

# sb_parallel C N SECS ARGS...: N submissions over C concurrent clients;
# prints how many were accepted.
sb_parallel() {
	local c=$1 n=$2 secs=$3 k per
	shift 3
	per=$(( (n + c - 1) / c ))
	rm -f "$S_DIR"/jobs/client.*
	for ((k = 0; k < c; k++)); do
		sb_loop "$per" "$secs" "$@" >"$S_DIR/jobs/client.$k" &
	done
	wait_clients
	cat "$S_DIR"/jobs/client.* | awk '{ s += $1 } END { print s + 0 }'
}

# Wait for background submitters (not the daemons, which are also our
# children).
wait_clients() {
	local p
	for p in $(jobs -p); do
		case " $S_PIDS " in *" $p "*) continue ;; esac
		wait "$p" 2>/dev/null
	done
}

# Unfinished jobs (pending, configuring, running, completing), array
# elements counted one each.
unfinished() {
	squeue -h -r -t PD,CF,R,CG -o %i "$@" 2>/dev/null | wc -l
}

queue_clear() {
	[ "$(unfinished)" -eq 0 ]
}

# Cancel everything and wait until the controller holds no live job.
slurm_reset() {
	scancel -u root >/dev/null 2>&1
	WAIT_SECS=300 wait_for queue_clear || say "jobs left after scancel"
}

# track_done TOTAL SECS T0 ARGS...: poll until no job matching ARGS (squeue
# selection) is unfinished or SECS pass; prints "done elapsed_us".
track_done() {
	local total=$1 secs=$2 t0=$3 left t1 deadline
	shift 3
	deadline=$(( $(now_s) + secs ))
	while :; do
		left=$(unfinished "$@")
		now_us t1
		[ "$left" -eq 0 ] && break
		[ "$(now_s)" -ge "$deadline" ] && break
		nap 0.2
	done
	echo "$((total - left)) $((t1 - t0))"
}

# --------------------------------------------------------------- workloads

w1() {
	local n t0 t1
	sbatch -Q -p idle -o /dev/null --wrap=true	# warm the caches
	say "w1: $N1 sequential sbatch (partition idle: queued only)"
	now_us t0
	n=$(sb_loop "$N1" 300 -p idle -o /dev/null --wrap=true)
	now_us t1
	result slurm.w1.submit_rate "$(rate "$n" "$t0" "$t1")" jobs/s
	slurm_reset
}

w2() {
	local n t0 t1
	sbatch -Q -p idle -o /dev/null --wrap=true
	say "w2: $N2 sbatch over 8 concurrent clients (partition idle)"
	now_us t0
	n=$(sb_parallel 8 "$N2" 300 -p idle -o /dev/null --wrap=true)
	now_us t1
	result slurm.w2.submit_rate "$(rate "$n" "$t0" "$t1")" jobs/s
	slurm_reset
}

w3() {
	local id t0 t1
	say "w3: array of $N3 elements"
	now_us t0
	# (not -Q: it silences --parsable too)
	id=$(sbatch --parsable -p run -o /dev/null --array=1-"$N3" \
	    --wrap=true) || { say "w3: sbatch --array failed"; return; }
	now_us t1
	id=${id%%;*}
	result slurm.w3.array_submit_ms "$(ms "$t0" "$t1")" ms
	set -- $(track_done "$N3" "$SLURM_RUN_SECS" "$t0" -j "$id")
	[ "$1" -lt "$N3" ] &&
	    say "w3: time budget ${SLURM_RUN_SECS}s: $1 of $N3 elements done; rate over those"
	result slurm.w3.array_run_rate \
	    "$(awk -v n="$1" -v d="$2" 'BEGIN { printf "%.2f\n", n / (d / 1e6) }')" \
	    elements/s
	slurm_reset
}

w4() {
	local n t0 ids
	say "w4: $N4 held jobs, released at once"
	n=$(sb_parallel 4 "$N4" 300 -H -p run -o /dev/null --wrap=true)
	ids=$(squeue -h -t PD -o %i | paste -sd, -)
	now_us t0
	scontrol release "$ids" >/dev/null 2>&1 || say "w4: release failed"
	set -- $(track_done "$n" "$SLURM_RUN_SECS" "$t0")
	[ "$1" -lt "$n" ] &&
	    say "w4: time budget ${SLURM_RUN_SECS}s: $1 of $n jobs done; rate over those"
	result slurm.w4.release_run_rate \
	    "$(awk -v n="$1" -v d="$2" 'BEGIN { printf "%.2f\n", n / (d / 1e6) }')" \
	    jobs/s
	slurm_reset
}

w5() {
	local i t0 f deadline lat=()
	# The job writes its start time in us (bash: no fork for the clock).
	printf '#!/bin/bash\nt=$EPOCHREALTIME\necho "${t%%.*}${t#*.}" >"$1"\n' \
	    >"$S_DIR/stamp.sh"
	chmod 755 "$S_DIR/stamp.sh"
	say "w5: $N5 single jobs on an idle cluster, submit-to-start latency"
	deadline=$(( $(now_s) + 900 ))
	for ((i = 0; i < N5; i++)); do
		f="$S_DIR/jobs/w5.$i"
		now_us t0
		sbatch -Q -p run -o /dev/null "$S_DIR/stamp.sh" "$f" ||
		    { say "w5: sbatch failed"; break; }
		WAIT_SECS=30 wait_for test -s "$f" || { say "w5: job $i did not start"; break; }
		lat+=("$(( $(cat "$f") - t0 ))")
		[ "$(now_s)" -ge "$deadline" ] && { say "w5: time is up after $((i + 1))"; break; }
		# Idle: the previous job has left the node.
		WAIT_SECS=30 wait_for queue_clear
	done
	[ "${#lat[@]}" -gt 0 ] || return
	set -- $(printf '%s\n' "${lat[@]}" | sort -n | awk '
	    { v[NR] = $1 }
	    END {
		printf "%.2f %.2f %.2f\n", v[int(NR * 0.50 + 0.999)] / 1e3,
		    v[int(NR * 0.95 + 0.999)] / 1e3, v[NR] / 1e3
	    }')
	say "w5: ${#lat[@]} samples"
	result slurm.w5.latency_p50_ms "$1" ms
	result slurm.w5.latency_p95_ms "$2" ms
	result slurm.w5.latency_max_ms "$3" ms
}

# fill N SECS: bring the pending jobs in partition idle up to N, with 8
# concurrent clients; prints how many are there.
fill() {
	local want=$1 have
	have=$(squeue -h -p idle -o %i | wc -l)
	[ "$have" -lt "$want" ] &&
	    sb_parallel 8 $((want - have)) "$2" -p idle -o /dev/null \
	    --wrap=true >/dev/null
	squeue -h -p idle -o %i | wc -l
}

idle_jobs() {
	squeue -h -p idle -o %i | wc -l
}

# rate3 COUNT T0_US T1_US: COUNT per second, 3 significant digits (the
# polled rate can be far below 1/s).
rate3() {
	awk -v n="$1" -v a="$2" -v b="$3" \
	    'BEGIN { printf "%.3g\n", n / ((b - a) / 1e6) }'
}

# One polling client, pausing between calls as ours do (w06-query.sh).
poller() {
	local deadline=$(( $(now_s) + $1 ))
	while [ ! -e "$S_DIR/stop.poll" ] && [ "$(now_s)" -lt "$deadline" ]; do
		squeue -h -o "%i %t" >/dev/null 2>&1
		[ "$POLL_PAUSE" = 0 ] || nap "$POLL_PAUSE"
	done
}

# w6's submissions with and without pollers, first in w6 as in ours: the
# pollers list what this run submits, not the 10,000 jobs filled below.
w6_polling() {
	local have t0 t1 n un po k pids=""
	say "w6: $N6P sequential sbatch, unpolled, then under $POLLERS pollers"
	# Jobs are counted in the controller: under load an sbatch can time
	# out (MessageTimeout) although its job was created.
	have=$(idle_jobs)
	now_us t0
	sb_loop "$N6P" 300 -p idle -o /dev/null --wrap=true >/dev/null
	now_us t1
	n=$(( $(idle_jobs) - have ))
	un=$(rate3 "$n" "$t0" "$t1")
	# From an empty controller again, as ours runs each on a fresh
	# cluster: the pollers list the jobs of this run only.
	slurm_reset
	rm -f "$S_DIR/stop.poll"
	for ((k = 0; k < POLLERS; k++)); do
		poller 900 &
		pids="$pids $!"
	done
	nap 1
	have=$(idle_jobs)
	now_us t0
	sb_loop "$N6P" 300 -p idle -o /dev/null --wrap=true >/dev/null
	now_us t1
	touch "$S_DIR/stop.poll"
	for k in $pids; do wait "$k" 2>/dev/null; done
	n=$(( $(idle_jobs) - have ))
	say "w6: $n jobs created under polling in $(ms "$t0" "$t1") ms"
	po=$(rate3 "$n" "$t0" "$t1")
	result slurm.w6.submit_rate_unpolled "$un" jobs/s
	result slurm.w6.submit_rate_polled "$po" jobs/s
	result slurm.w6.polled_ratio "$(ratio "$po" "$un")" ratio
	slurm_reset
}

w6() {
	local have t0 t1 one
	w6_polling
	say "w6: filling to $N6A pending jobs"
	now_us t0
	have=$(fill "$N6A" "$SLURM_FILL_SECS")
	now_us t1
	say "w6: $have jobs pending (filled in $(ms "$t0" "$t1") ms)"
	one=$(squeue -h -p idle -o %i | tail -n 1)
	result slurm.w6.list_10k_ms "$(median_ms 11 squeue -h -o "%i %t")" ms
	result slurm.w6.one_10k_ms "$(median_ms 21 squeue -h -j "$one" -o "%i %t")" ms

	say "w6: filling to $N6B pending jobs (budget ${SLURM_FILL_SECS}s)"
	now_us t0
	have=$(fill "$N6B" "$SLURM_FILL_SECS")
	now_us t1
	say "w6: $have jobs pending (filled in $(ms "$t0" "$t1") ms)"
	if [ "$have" -lt $(( N6B * 95 / 100 )) ]; then
		say "w6: could not reach $N6B jobs in time: no 100k figures"
	else
		result slurm.w6.list_100k_ms "$(median_ms 7 squeue -h -o "%i %t")" ms
		result slurm.w6.one_100k_ms "$(median_ms 21 squeue -h -j "$one" -o "%i %t")" ms
	fi
	# Tear-down does not wait for 100,000 cancellations.
}

# A Slurm job's state code (R, S, PD ...), nothing once it has left.
sjob_stat() {
	squeue -h -j "$1" -o %t 2>/dev/null
}
sjob_is() {
	[ "$(sjob_stat "$1")" = "$2" ]
}
no_high_job() {
	[ "$(unfinished -p high)" -eq 0 ]
}

# Workload 11 (bench/w11-preempt.sh, measured the same way): a long job
# in partition low, its process watched (tools/statewatch.c); each
# sample, after a random pause of 50-1,050 ms, the time just before
# sbatch, a job to partition high whose first act is tools/stamp, then
# the wait for the victim to be stopped (T), for the high job to end
# (let go once the victim is seen stopped, as ours) and for the victim
# to be running again (out of T, squeue R).  On its
# own cluster (slurm_conf_w11), which it starts and stops.
#
# What starts the high job, seen in slurmctld's log at debug2: the
# submit RPC evaluates the job but does not preempt; the backfill pass
# (every bf_interval = 1 s, the least allowed) suspends the victim and
# starts the job in the same pass, the victim being stopped some 10 ms
# before the job's process runs.  So a sample waits for the next pass,
# anywhere from 0 to 1 s: the pause spans a whole second so that the
# samples fall at every phase of it (with a pause of 50-250 ms they
# stayed in step with the pass, the victim's resumption being timed by
# it too, and every sample took 750-930 ms).  Tried at BENCH_SCALE 0.1
# (20 samples each), p50 / max: the settings above 515 / 932 ms;
# without defer 502 / 836 ms (no faster: the submit RPC still does not
# preempt); sched/builtin (no backfill pass) was slower (896 ms p50 with
# the short pause, where the settings above gave 844).  The victim is
# resumed about 2.0 s after it was stopped, in every sample, though
# slurmctld sends the resume within 5 ms of the preemptor's end (its
# log): the wait is slurmd's.
w11() {
	local i f h t0 t1 low vpid n0 start stop resume deadline lat stamp p
	local stops extra
	S_PROFILE=w11 slurm_start
	stamp=$(need_tool stamp)
	lat=$S_DIR/jobs/w11.lat
	: >"$lat"
	# The high job's script: a shell that runs the stamp, as ours runs
	# its command.
	printf '#!/bin/sh\nexec %s "$1" "$2"\n' "$stamp" >"$S_DIR/stamp11.sh"
	chmod 755 "$S_DIR/stamp11.sh"
	low=$(sbatch --parsable -p low -o /dev/null --wrap \
	    "echo \$\$ >$S_DIR/jobs/victim.pid; exec sleep 1000000") ||
	    { say "w11: sbatch failed"; return; }
	WAIT_SECS=30 wait_for sjob_is "$low" R &&
	    WAIT_SECS=30 wait_for test -s "$S_DIR/jobs/victim.pid" ||
	    { say "w11: job $low did not start"; return; }
	vpid=$(cat "$S_DIR/jobs/victim.pid")
	wlog_start "$vpid" "$S_DIR/jobs/watch" ||
	    { say "w11: the watch on pid $vpid did not start"; return; }
	S_PIDS="$S_PIDS $WLOG_PID"
	say "w11: $N11 samples (and one warm-up): job $low (pid $vpid) in" \
	    "partition low, a job to high each time"
	extra=0
	deadline=$(( $(now_s) + ${SLURM_W11_SECS:-1200} ))
	for ((i = 0; i <= N11; i++)); do
		f="$S_DIR/jobs/w11.$i"
		h="$S_DIR/jobs/hold.$i"
		random_pause 50 1000
		wlog_count
		n0=$WL_N
		now_us t0
		sbatch -Q -p high -o /dev/null "$S_DIR/stamp11.sh" "$f" "$h" ||
		    { say "w11: sbatch failed"; break; }
		WAIT_SECS=30 wait_for test -s "$f" || { say "w11: sample $i:" \
		    "the high job did not start in 30 s (job $low is" \
		    "$(sjob_stat "$low"))"; break; }
		wlog_first "$n0" T 10 ||
		    { say "w11: sample $i: job $low's process was not" \
		    "stopped"; break; }
		stop=$WL_SECS
		read -r start <"$f"
		now_us t1
		: >"$h"
		WAIT_SECS=30 wait_for no_high_job ||
		    { say "w11: sample $i: the high job did not end"; break; }
		wlog_last R 60 ||
		    { say "w11: sample $i: job $low's process was not" \
		    "resumed"; break; }
		resume=$WL_SECS
		WAIT_SECS=30 wait_for sjob_is "$low" R || { say "w11: sample" \
		    "$i: job $low is $(sjob_stat "$low"), not R"; break; }
		stops=$(wlog_stops "$n0")
		[ "$stops" -ne 1 ] && { say "w11: sample $i: job $low's" \
		    "process was stopped $stops times"; extra=$((extra + 1)); }
		if [ "$i" -gt 0 ]; then
			printf '%d\t%s\t%s\t%s\t%s\n' "$i" \
			    "$(ms_since "$t0" "$start")" \
			    "$(ms_since "$t0" "$stop")" \
			    "$(ms_since "$t1" "$resume")" "$stops" >>"$lat"
		fi
		[ "$(now_s)" -ge "$deadline" ] &&
		    { say "w11: time is up after $i samples"; break; }
	done
	mkdir -p "$BENCH_OUT"
	cp "$lat" "$BENCH_OUT/slurm_w11_latency.tsv"
	if [ -s "$lat" ]; then
		say "w11: $(wc -l <"$lat") samples"
		for p in 50 90 99; do
			result "slurm.w11.preempt_p${p}_ms" \
			    "$(pct_col 0.$p 2 "$lat")" ms
		done
		result slurm.w11.preempt_max_ms "$(pct_col 1 2 "$lat")" ms
		for p in 50 90 99; do
			result "slurm.w11.victim_stop_p${p}_ms" \
			    "$(pct_col 0.$p 3 "$lat")" ms
		done
		result slurm.w11.victim_stop_max_ms "$(pct_col 1 3 "$lat")" ms
		say "w11: resumed after the preemptor was let go: p50" \
		    "$(pct_col 0.5 4 "$lat"), max $(pct_col 1 4 "$lat") ms;" \
		    "samples where the victim was stopped more than once:" \
		    "$extra"
	fi
	slurm_stop
}

# ------------------------------------------------------------------- main

slurm_install
say "$(slurmctld -V), BENCH_SCALE=$BENCH_SCALE, workloads: $SLURM_WORKLOADS"
for w in $SLURM_WORKLOADS; do
	case $w in
	[1-6]) [ -n "$S_DIR" ] || slurm_start ;;
	11) slurm_stop ;;	# w11 runs on a cluster of its own
	esac
	case $w in
	1) w1 ;; 2) w2 ;; 3) w3 ;; 4) w4 ;; 5) w5 ;; 6) w6 ;; 11) w11 ;;
	*) say "no workload $w on Slurm" ;;
	esac
done
