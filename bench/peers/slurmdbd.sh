#!/bin/bash
# History at scale against Slurm's accounting (issue 24, BENCH_ONLY=w14):
# a private MariaDB, slurmdbd on it and slurmctld + slurmd storing their
# jobs there, all on loopback in a temporary directory; a few real jobs
# are run so slurmdbd makes its tables and real rows, then N finished
# jobs are GENERATED in SQL from those rows (running a million through
# slurmctld at ~2 jobs/s would take days) and sacct is timed over them.
# Our side in the same run: histgen (bench/tools/histgen.c) fills a
# history database with the same N and the same shape, and bhist is
# timed.  Both sides: users 0..99 (job i belongs to user i % 100, so one
# user has N/100 jobs, 10,000 at a million), one job a second from
# 2026-01-01 00:00:00 UTC, each 2 s pending and 30 s running.
# Prints RESULT|w14.<key>|value|ms lines (p50 and p99 of each query;
# sacct's as slurm.w14.<our key> beside the query of ours it matches);
# commentary to stderr.
#
#	BENCH_SCALE=0.01 bash bench/peers/slurmdbd.sh
#
# Environment:
#	BENCH_SCALE		N = 1,000,000 * BENCH_SCALE (at least 1,000)
#	W14_RUNS		calls of each one-job query (default 50)
#	W14_MID_RUNS		calls of each one-user and one-day query
#				(default 11: sacct takes seconds there)
#	W14_BIG_RUNS		calls of the queries over all N (default 5)
#	SLURM_ADDR		loopback address of the daemons (127.0.0.62)
#	KEEP=1			keep the temporary directory
#
# Nothing under /etc is read or written: mariadbd runs with
# --no-defaults, every Slurm command gets SLURM_CONF (slurmdbd reads the
# slurmdbd.conf beside it).
# Everything started here is stopped at exit and the directory removed.
. "$(dirname "$0")/../lib.sh"
B_NAME=slurmdbd
export TZ=UTC

SLURM_ADDR=${SLURM_ADDR:-127.0.0.62}
N=$(scaled 1000000 1000)
R=${W14_RUNS:-50}
RM=${W14_MID_RUNS:-11}
RB=${W14_BIG_RUNS:-5}
T0=1767225600			# 2026-01-01 00:00:00 UTC, as histgen
NODE=acctnode
CL=bench			# ClusterName: tables are ${CL}_job_table ...
D=""
PIDS=""
POLICY_RC=""

install_pkgs() {
	local pkgs="slurm-wlm slurmdbd mariadb-server mariadb-client"

	command -v slurmdbd >/dev/null && command -v mariadbd >/dev/null &&
	    command -v slurmctld >/dev/null && command -v sacct >/dev/null &&
	    return 0
	say "installing $pkgs with apt-get"
	# As bench/peers/slurm.sh: no service started by the packages.
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
	command -v slurmdbd >/dev/null && command -v mariadbd >/dev/null ||
	    { say "cannot install $pkgs"; exit 1; }
}

# Five free TCP ports below the ephemeral range (as slurm.sh): MariaDB,
# slurmdbd, slurmctld, slurmd.
pick_ports() {
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

sql() {
	mariadb --no-defaults -S "$D/mysql.sock" -u root -N -B "$@"
}

dump_logs() {
	local f
	for f in "$D"/log/*; do
		echo "# ---- $f" >&2
		tail -n 20 "$f" | sed 's/^/# /' >&2
	done
}

die() {
	say "$*"
	dump_logs
	exit 1
}

stop_all() {
	local p deadline

	if [ -n "$POLICY_RC" ]; then
		rm -f "$POLICY_RC"
		POLICY_RC=""
	fi
	[ -n "$D" ] || return 0
	# Last started, first stopped: slurmd, slurmctld, slurmdbd, mariadbd.
	for p in $(echo "$PIDS" | tr ' ' '\n' | tac); do
		kill "$p" 2>/dev/null
		deadline=$(( $(now_s) + 30 ))
		while kill -0 "$p" 2>/dev/null &&
		    [ "$(now_s)" -lt "$deadline" ]; do
			nap 0.1
		done
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	# cluster_conf's munged, of our side.
	[ -d "$D/lsf" ] && munge_stop "$D/lsf"
	if [ -z "${KEEP:-}" ]; then
		rm -rf "$D"
	else
		say "kept $D"
	fi
	D=""
	PIDS=""
}
trap stop_all EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- start

start_mariadb() {
	# Slurm's accounting guide's InnoDB settings (buffer pool, log file,
	# lock wait); everything else MariaDB's defaults, nothing read from
	# /etc (--no-defaults).  It runs as root (--user=root) so no user
	# needs to exist; it listens on 127.0.0.1 only.
	mariadb-install-db --no-defaults --datadir="$D/db" --user=root \
	    --auth-root-authentication-method=socket --skip-test-db \
	    >>"$D/log/install-db.out" 2>&1 || die "mariadb-install-db failed"
	mariadbd --no-defaults --datadir="$D/db" --user=root \
	    --socket="$D/mysql.sock" --port="$MPORT" \
	    --bind-address=127.0.0.1 --skip-name-resolve \
	    --pid-file="$D/mariadbd.pid" --log-error="$D/log/mariadbd.err" \
	    --innodb-buffer-pool-size=4G --innodb-log-file-size=64M \
	    --innodb-lock-wait-timeout=900 >>"$D/log/mariadbd.out" 2>&1 &
	PIDS="$PIDS $!"
	wait_for sql -e 'SELECT 1' || die "mariadbd did not start"
	sql -e "CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'bench';
	    GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';" ||
	    die "cannot make slurmdbd's MariaDB user"
}

start_slurmdbd() {
	cat >"$D/slurmdbd.conf" <<EOF
AuthType=auth/none
DbdHost=localhost
DbdAddr=$SLURM_ADDR
DbdPort=$DPORT
SlurmUser=root
PidFile=$D/slurmdbd.pid
LogFile=$D/log/slurmdbd.log
DebugLevel=error
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$MPORT
StorageUser=slurm
StoragePass=bench
StorageLoc=slurm_acct_db
EOF
	chmod 600 "$D/slurmdbd.conf"
	# (slurmdbd reads slurmdbd.conf beside $SLURM_CONF.)
	slurmdbd -D >>"$D/log/slurmdbd.out" 2>&1 &
	PIDS="$PIDS $!"
	wait_for sacctmgr -n list cluster || die "slurmdbd did not start"
}

# slurm.sh's workloads 1-6 settings (explained there), with accounting
# to slurmdbd, and job ids above the generated ones.
slurm_conf() {
	cat >"$SLURM_CONF" <<EOF
ClusterName=$CL
SlurmctldHost=$(hostname -s)($SLURM_ADDR)
SlurmctldPort=$CPORT
SlurmdPort=$((CPORT + 1))
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
SlurmctldDebug=error
SlurmdDebug=error
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/linux
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=$SLURM_ADDR
AccountingStoragePort=$DPORT
JobCompType=jobcomp/none
PriorityType=priority/basic
SchedulerType=sched/backfill
SchedulerParameters=defer,batch_sched_delay=0,bf_interval=1,bf_continue
FirstJobId=$((N + 1000))
MinJobAge=2
MessageTimeout=60
ReturnToService=2
MailProg=/bin/true
MpiDefault=none
SwitchType=switch/none
NodeName=$NODE NodeAddr=$SLURM_ADDR CPUs=2 State=UNKNOWN
PartitionName=run Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
}

# slurmctld has registered with slurmdbd: before, a job's start record is
# not sent, and slurmdbd makes the job's row from its end record alone
# (job name "allocation", no partition or account).
ctld_registered() {
	[ -n "$(sacctmgr -n -P list cluster "$CL" format=ControlHost \
	    2>/dev/null)" ]
}

node_idle() {
	[ "$(sinfo -h -n "$NODE" -o %T 2>/dev/null | sort -u)" = idle ]
}

start_slurm() {
	sacctmgr -i add cluster "$CL" >/dev/null ||
	    die "sacctmgr add cluster failed"
	sacctmgr -i add account bench Cluster="$CL" >/dev/null &&
	    sacctmgr -i add user root Account=bench Cluster="$CL" \
	    >/dev/null || die "sacctmgr add account/user failed"
	slurmctld -D -c >>"$D/log/slurmctld.out" 2>&1 &
	PIDS="$PIDS $!"
	slurmd -D -N "$NODE" >>"$D/log/slurmd.out" 2>&1 &
	PIDS="$PIDS $!"
	WAIT_SECS=60 wait_for node_idle || die "slurm did not come up"
	WAIT_SECS=60 wait_for ctld_registered ||
	    die "slurmctld did not register with slurmdbd"
}

# The real jobs: one that succeeds, one that exits 3; both must be in
# slurmdbd's job table, ended, from their start record too (partition
# set), with their batch step.
real_jobs_done() {
	[ "$(sql slurm_acct_db -e "SELECT COUNT(*) FROM ${CL}_job_table
	    WHERE time_end > 0 AND state IN (3, 5)
	    AND \`partition\` = 'run'")" -ge 2 ] &&
	[ "$(sql slurm_acct_db -e "SELECT COUNT(*) FROM ${CL}_step_table
	    WHERE id_step = -5 AND time_end > 0")" -ge 2 ]
}

run_real_jobs() {
	sbatch -Q -o /dev/null -J sim --chdir="$D" --wrap 'sleep 1' ||
	    die "sbatch failed"
	sbatch -Q -o /dev/null -J sim --chdir="$D" --wrap 'sleep 1; exit 3' ||
	    die "sbatch failed"
	WAIT_SECS=120 wait_for real_jobs_done ||
	    die "the real jobs did not reach slurmdbd"
	say "real rows:"
	mariadb --no-defaults -S "$D/mysql.sock" -u root slurm_acct_db \
	    -e "SELECT * FROM ${CL}_job_table\G" |
	    sed 's/^/#   /' >&2
}

# ------------------------------------------------------------- generate

# cols TABLE: the table's columns but the auto-increment key, as
# "expr AS col" where EXPR is given for the column in the assoc. array
# GEN, else the template row's value (t.col).
cols() {
	local c
	for c in $(sql -e "SELECT column_name FROM information_schema.columns
	    WHERE table_schema = 'slurm_acct_db' AND table_name = '$1'
	    AND extra NOT LIKE '%auto_increment%' ORDER BY ordinal_position"); do
		echo "$c|${GEN[$c]:-t.\`$c\`}"
	done
}

declare -A GEN

# N jobs modelled on the real successful job (and its batch step): job i
# submitted at T0 + i, started 2 s later, ended 30 s after that, user
# 1000 + i % 100 but user 7, who is nobody (65534): sacct -u takes only
# users that exist, and nothing under /etc is touched; every 50th exited 1 (FAILED), the others COMPLETED.
generate() {
	local tj tjs tmpl stmpl list exprs t0 t1 c

	tj=${CL}_job_table
	tjs=${CL}_step_table
	tmpl=$(sql slurm_acct_db -e "SELECT job_db_inx FROM $tj
	    WHERE state = 3 AND \`partition\` = 'run'
	    ORDER BY job_db_inx LIMIT 1")
	[ -n "$tmpl" ] || die "no real completed job to model on"
	GEN=(
	    [mod_time]="$T0 + s.seq + 32"
	    [id_job]="s.seq"
	    [id_user]="IF(s.seq % 100 = 7, 65534, 1000 + s.seq % 100)"
	    [id_group]="1000 + s.seq % 100"
	    [job_name]="'sim'"
	    [time_submit]="$T0 + s.seq"
	    [time_eligible]="$T0 + s.seq"
	    [time_start]="$T0 + s.seq + 2"
	    [time_end]="$T0 + s.seq + 32"
	    [state]="IF(s.seq % 50 = 0, 5, 3)"
	    [exit_code]="IF(s.seq % 50 = 0, 256, 0)"
	    [work_dir]="'/home/user/run'"
	    [submit_line]="'sbatch -J sim sim.sh'"
	)
	list="" exprs=""
	while IFS='|' read -r c e; do
		list="$list${list:+, }\`$c\`"
		exprs="$exprs${exprs:+, }$e"
	done < <(cols "$tj")
	t0=$(now_s)
	# One statement per 100,000 jobs: InnoDB's undo of a single
	# million-row statement costs more than the rows.
	local lo hi
	for ((lo = 1; lo <= N; lo += 100000)); do
		hi=$((lo + 99999 > N ? N : lo + 99999))
		sql slurm_acct_db -e "INSERT INTO $tj ($list)
		    SELECT $exprs FROM seq_${lo}_to_${hi} s,
		    (SELECT * FROM $tj WHERE job_db_inx = $tmpl) t" ||
		    die "generating job rows failed"
	done
	# The batch step of each, modelled on the real job's.
	GEN=(
	    [job_db_inx]="j.job_db_inx"
	    [time_start]="j.time_start"
	    [time_end]="j.time_end"
	    [state]="j.state"
	    [exit_code]="j.exit_code"
	)
	list="" exprs=""
	while IFS='|' read -r c e; do
		list="$list${list:+, }\`$c\`"
		exprs="$exprs${exprs:+, }$e"
	done < <(cols "$tjs")
	for ((lo = 1; lo <= N; lo += 100000)); do
		hi=$((lo + 99999 > N ? N : lo + 99999))
		sql slurm_acct_db -e "INSERT INTO $tjs ($list)
		    SELECT $exprs FROM $tj j,
		    (SELECT * FROM $tjs WHERE job_db_inx = $tmpl
		    AND id_step = -5) t
		    WHERE j.id_job BETWEEN $lo AND $hi" ||
		    die "generating step rows failed"
	done
	t1=$(now_s)
	say "generated $N jobs and their batch steps in $((t1 - t0)) s;" \
	    "database $(du -sh "$D/db" | cut -f1)"
	say "jobs: $(sql slurm_acct_db -e "SELECT COUNT(*) FROM $tj"),"\
	    "steps: $(sql slurm_acct_db -e "SELECT COUNT(*) FROM $tjs")"
}

# ---------------------------------------------------------------- timing

# timeit KEY RUNS CMD...: RUNS calls of CMD, each the whole command;
# RESULT lines KEY_p50 and KEY_p99 in ms.  A call that fails stops all.
timeit() {
	local key=$1 runs=$2 i a b
	shift 2
	for ((i = 0; i < runs; i++)); do
		now_us a
		"$@" >/dev/null 2>"$D/err" || { say "$* failed:" \
		    "$(head -3 "$D/err")"; echo FAIL; break; }
		now_us b
		echo $((b - a))
	done | sort -g | awk '$1 == "FAIL" { bad = 1 } { v[NR] = $1 }
	    END { if (bad || NR == 0) exit 1
	    p = int(NR * 0.99 + 0.999); if (p < 1) p = 1
	    printf "%.2f %.2f\n", v[int((NR + 1) / 2)] / 1000, v[p] / 1000 }' \
	    >"$D/t" || exit 1
	read -r p50 p99 <"$D/t"
	# "slurm:KEY" is Slurm's figure for our KEY: the table pairs them.
	case $key in
	slurm:*) key="slurm.w14.${key#slurm:}" ;;
	*) key="w14.$key" ;;
	esac
	result "$key.p50" "$p50" ms
	result "$key.p99" "$p99" ms
}

# check_lines DESC MIN CMD...: CMD prints at least MIN lines, so what is
# timed is a real answer.
check_lines() {
	local desc=$1 min=$2 n
	shift 2
	n=$("$@" 2>"$D/err" | wc -l)
	[ "$n" -ge "$min" ] || die "$desc: $n lines, expected >= $min:" \
	    "$(head -3 "$D/err")"
	say "$desc: $n lines"
}

fmt_time() {
	date -u -d "@$1" +%Y-%m-%dT%H:%M:%S
}

sacct_side() {
	local mid=$((N / 2)) s e d1 d2 u7=nobody fmt

	s=$(fmt_time "$T0")
	e=$(fmt_time $((T0 + N + 100)))
	# One day: the first, 86,399 jobs at a million (all N below that).
	d1=$(fmt_time "$T0")
	d2=$(fmt_time $((T0 + 86400)))
	fmt=JobID,User,Partition,State,ExitCode,Submit,Start,End,Elapsed,NCPUS
	check_lines "sacct -j $mid" 2 sacct -j "$mid"
	check_lines "sacct -u $u7" $((N / 100)) sacct -u "$u7" -S "$s" -E "$e"
	check_lines "sacct one day" $((N < 86400 ? N : 86399)) \
	    sacct -a -X -n -o "$fmt" -S "$d1" -E "$d2"
	timeit slurm:bhist_l_one "$R" sacct -j "$mid"
	timeit sacct_one_long "$R" sacct -j "$mid" -l
	timeit slurm:bacct_user "$RM" sacct -u "$u7" -S "$s" -E "$e"
	timeit slurm:bacct_day "$RM" sacct -a -X -n -o "$fmt" -S "$d1" -E "$d2"
	check_lines "sacct -a all" "$N" sacct -a -X -n -o "$fmt" -S "$s" -E "$e"
	timeit slurm:bacct_all "$RB" sacct -a -X -n -o "$fmt" -S "$s" -E "$e"
}

ours_side() {
	local mid=$((N / 2)) db t0 t1 day=2026/01/01/00:00,2026/01/02/00:00

	. "$BTOP/tools/cluster-conf.sh"
	cluster_conf "$D/lsf" 1 LOG_ERR root >/dev/null
	cc -O2 -std=c11 -D_GNU_SOURCE -I"$BTOP/include" -o "$D/histgen" \
	    "$BTOP/bench/tools/histgen.c" "$BUILD/lib/liblsf.a" \
	    -lsqlite3 -lm || die "cannot build histgen"
	db="$D/lsf/work/c1/logdir/lsb.history.db"
	mkdir -p "$(dirname "$db")"
	t0=$(now_s)
	"$D/histgen" "$db" "$N" || die "histgen failed"
	t1=$(now_s)
	say "histgen $N jobs in $((t1 - t0)) s, $(du -sh "$db" | cut -f1)"
	check_lines "bhist -l $mid" 3 bhist -l "$mid"
	check_lines "bhist -a -u u7" $((N / 100)) bhist -a -u u7
	timeit bhist_l_one "$R" bhist -l "$mid"
	timeit bhist_one "$R" bhist "$mid"
	timeit bhist_user "$RM" bhist -a -u u7
	# One day, as Slurm's: the jobs submitted on 2026-01-01 (TZ=UTC; the
	# range is of whole minutes, so the end is the next day's 00:00).
	check_lines "bhist one day" $((N < 86400 ? N : 86399)) \
	    bhist -a -u all -S "$day"
	timeit bhist_day "$RM" bhist -a -u all -S "$day"
	if [ -x "$BUILD/bin/bacct" ]; then
		check_lines "bacct -u all" 5 bacct -u all
		timeit bacct_all "$RM" bacct -u all
		timeit bacct_user "$RM" bacct -u u7
		timeit bacct_day "$RM" bacct -u all -S "$day"
	else
		say "no bacct in $BUILD/bin: its rows are left to fill"
	fi
}

# ------------------------------------------------------------------ main

install_pkgs
D=$(mktemp -d "$BENCH_TMP/slurmdbd.XXXXXX")
chmod 755 "$D"
mkdir -p "$D/log" "$D/state" "$D/spool"
export SLURM_CONF="$D/slurm.conf"
unset SLURM_TIME_FORMAT SACCT_FORMAT SQUEUE_FORMAT
MPORT=$(pick_ports)
DPORT=$((MPORT + 1))
CPORT=$((MPORT + 2))
slurm_conf
say "N = $N; load $(cut -d' ' -f1-3 /proc/loadavg)"
say "versions: slurmdbd $(dpkg-query -W -f '${Version}' slurmdbd)," \
    "$(sacct -V), mariadbd $(mariadbd --version | sed 's/.*Ver //; s/ for.*//')"
start_mariadb
start_slurmdbd
start_slurm
run_real_jobs
generate
say "load before sacct: $(cut -d' ' -f1-3 /proc/loadavg)"
sacct_side
say "load after sacct: $(cut -d' ' -f1-3 /proc/loadavg)"
stop_all
D=$(mktemp -d "$BENCH_TMP/slurmdbd.ours.XXXXXX")
ours_side
say "load after ours: $(cut -d' ' -f1-3 /proc/loadavg)"
