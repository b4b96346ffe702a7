# Shared by the scenario tests: a private cluster of several hosts on one
# machine.  Each host is a loopback address (127.0.0.11, .12, ...) named in
# the cluster's own hosts file; every daemon runs with -N <host>, so all
# hosts share the ports of this test's cluster, which are chosen free.
#
#	. "$(dirname "$0")/lib.sh"
#	cluster_init 3			# hosta hostb hostc
#	(edit $LSB_CONF/lsb.queues etc. if needed)
#	cluster_start
#	... bsub/bjobs ...
#	(cluster_stop runs at exit)
#
# Helpers: wait_for CMD... (retry until it succeeds, with a deadline),
# expect_eq, expect_match, fail, pass; queues and host_mxj write
# lsb.queues and lsb.hosts; judged and stays_pending wait for a pass to
# have looked at a pending job.
#
# Loads set exactly, through an ELIM (tests/scenario/elim-file.sh):
#	elim_install			# after cluster_init, before cluster_start
#	set_load hostb "r1m 3.5 nlic 4"	# what hostb's ELIM reports from now
#	set_load hostb ""		# it reports nothing (lim's own samples)
#	elim_raw hostb "garbage"	# one line printed as it is
# elim_install makes $T_DIR/serverdir (LSF_SERVERDIR) with the daemons
# and the ELIM; a built-in index name replaces the LIM's sample, other
# names must be Numeric resources of lsf.shared (add a Resource section).  Tests print "ok"/"not ok" lines
# and end with "N passed, M failed".
#
# A real network, cut for real (netns mode, Linux network namespaces):
#	cluster_init 4
#	netns_init "hosta hostb"	# side A; the other hosts are side B
#	cluster_start			# each host's daemons in its namespace
#	on hostc lsid			# a command run on hostc (its netns,
#					# LSF_LOCAL_HOST=hostc)
#	netns_cut / netns_heal		# the link between the sides down/up
# Each host gets a namespace and an address on a private 10.x.y.0/24; the
# hosts of a side hang off one bridge, and the two bridges are joined by
# one veth pair; bridges and that pair live in a namespace of their own,
# so the root namespace's links and routes are never touched.  Names
# carry a tag of this run's T_DIR, so concurrent tests never collide.
# The file system stays shared (LSB_SHAREDIR, lsb.events, the mbatchd
# lock).  cluster_stop deletes them all.  Without `ip netns` the test
# fails, saying why.

set -u

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
export PATH="$BUILD/bin:$PATH"
SBIN="$BUILD/sbin"
T_NAME=$(basename "$0" .sh)
T_PASS=0
T_FAIL=0
T_DIR=""
T_PIDS=""
WAIT_SECS=${WAIT_SECS:-30}

. "$TOP/tools/cluster-conf.sh"

# params KEY=VALUE...: add to the cluster's lsb.params, keeping its
# short periods (MBD_SLEEP_TIME, JOB_ACCEPT_INTERVAL...): a file of a
# test's own loses them, and every dispatch then waits LSF's 10 s.
params() {
	local kv
	for kv in "$@"; do
		sed -i "s|^End Parameters\$|${kv%%=*} = ${kv#*=}\n&|" \
		    "$LSB_CONF/lsb.params"
	done
}

# What a test runs as another user (as_user, as_nobody, their jobs)
# must be where that user can reach it, and a clone may sit below a
# directory only root enters (a 0700 home): the commands and the test
# tools are linked (copied across file systems) into $T_DIR/bin and
# $TOOLS ($T_DIR/tools), and $T_DIR/bin goes first in PATH.
user_reachable() {
	local d
	for d in bin tools; do
		mkdir -p "$T_DIR/$d"
	done
	cp -al "$BUILD/bin/." "$T_DIR/bin/" 2>/dev/null ||
	    cp -a "$BUILD/bin/." "$T_DIR/bin/"
	for d in "$BUILD"/tests/*; do
		case ${d##*/} in check_*) continue ;; esac
		[ -f "$d" ] && [ -x "$d" ] || continue
		ln "$d" "$T_DIR/tools/" 2>/dev/null || cp -a "$d" "$T_DIR/tools/"
	done
	TOOLS=$T_DIR/tools
	export PATH="$T_DIR/bin:$PATH"
}

# cluster_init N [extra lsf.conf lines...]
cluster_init() {
	local n=$1
	shift
	T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/lsft.$T_NAME.XXXXXX")
	chmod 755 "$T_DIR"
	mkdir -p "$T_DIR/jobs"
	chmod 1777 "$T_DIR/jobs"
	user_reachable
	cluster_conf "$T_DIR" "$n" LOG_DEBUG root "$@"
	cat >"$LSB_CONF/lsb.params" <<EOF
Begin Parameters
DEFAULT_QUEUE = normal
MBD_SLEEP_TIME = 1
SBD_SLEEP_TIME = 1
JOB_ACCEPT_INTERVAL = 0
JOB_TERMINATE_INTERVAL = 1
CLEAN_PERIOD = 3600
End Parameters
EOF
	cat >"$LSB_CONF/lsb.queues" <<EOF
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
DESCRIPTION = The default queue.
End Queue

Begin Queue
QUEUE_NAME = short
PRIORITY = 50
DESCRIPTION = Short jobs first.
End Queue
EOF
	cat >"$LSB_CONF/lsb.hosts" <<EOF
Begin Host
HOST_NAME  MXJ
default    2
End Host
EOF
	: >"$LSB_CONF/lsb.users"
	export LSB_NTRIES=100
	trap cluster_stop EXIT
}

start_daemon() {
	# start_daemon NAME HOST
	$(on_prefix "$2") "$SBIN/$1" -f -N "$2" \
	    >>"$T_DIR/log/$1.$2.stderr" 2>&1 &
	T_PIDS="$T_PIDS $!"
	eval "PID_${1}_$2=$!"
}

cluster_start() {
	local h
	for h in $HOSTS; do start_daemon lim "$h"; done
	for h in $HOSTS; do start_daemon sbatchd "$h"; done
	wait_for all_hosts_ok || { dump_logs; fail "cluster did not come up"; exit 1; }
}

# The processes of this cluster, whoever started them: every one whose
# environment names its LSF_ENVDIR (the daemons lib.sh started, those
# that badmin hstartup or lsadmin limstartup started through LSF_RSH,
# any daemon executed again by a restart, the jobs' supervisors, most
# jobs, munged), this shell and the subshell asking excepted.
cluster_pids() {
	local f p
	[ -n "${LSF_ENVDIR:-}" ] || return 0
	for f in $(grep -lzxF "LSF_ENVDIR=$LSF_ENVDIR" /proc/[0-9]*/environ \
	    2>/dev/null); do
		p=${f#/proc/}
		p=${p%/environ}
		[ "$p" = $$ ] || [ "$p" = "$BASHPID" ] || echo "$p"
	done
}

# listen_pids HOST PORT: the processes listening on HOST's address and
# PORT, found by the socket and not by name (outside netns mode).
listen_pids() {
	local ip
	ip=$(awk -v h="$1" '$2 == h { print $1 }' "$LSF_CONF/hosts")
	ss -ltnpH "src $ip:$2" 2>/dev/null | grep -o 'pid=[0-9]*' |
	    sed 's/^pid=//' | sort -u
}

# lsf_conf_get NAME: its value in this cluster's lsf.conf.
lsf_conf_get() {
	sed -n "s/^$1=//p" "$LSF_CONF/lsf.conf" | tail -n 1
}

cluster_stop() {
	local p left i
	[ -n "$T_DIR" ] || return 0
	# A stopped daemon (a test's SIGSTOP) is woken to hear it.
	for p in $T_PIDS; do
		kill "$p" 2>/dev/null
		kill -CONT "$p" 2>/dev/null
	done
	for p in $T_PIDS; do wait "$p" 2>/dev/null; done
	# Then every other process of the cluster, so that nothing
	# outlives the test: asked to stop (a stopped one woken to hear
	# it), then killed if still there after a while.
	left=$(cluster_pids)
	if [ -n "$left" ]; then
		kill -TERM $left 2>/dev/null
		kill -CONT $left 2>/dev/null
		for i in $(seq 1 100); do
			left=$(cluster_pids)
			[ -n "$left" ] || break
			sleep 0.05
		done
		[ -z "$left" ] || kill -KILL $left 2>/dev/null
	fi
	# Jobs outlive sbatchd by design: end those of this cluster that
	# run without its environment too.
	pkill -KILL -f "$T_DIR" 2>/dev/null
	for f in "$T_DIR"/work/c1/sbd/*/jobs/*/lock; do
		[ -e "$f" ] && fuser -k -KILL "$f" >/dev/null 2>&1
	done
	netns_stop
	if [ "$T_FAIL" -eq 0 ] && [ -z "${KEEP:-}" ]; then
		rm -rf "$T_DIR"
	else
		echo "# kept $T_DIR"
	fi
	T_DIR=""
}

NETNS_TAG=""

# The namespace of host $1 (netns mode).
netns_of() {
	echo "lsft${NETNS_TAG}${1#host}"
}

# What runs a program on host $1: nothing outside netns mode.
on_prefix() {
	[ -n "$NETNS_TAG" ] || return 0
	echo "ip netns exec $(netns_of "$1") env LSF_LOCAL_HOST=$1"
}

# on HOST CMD...: run it on that host (in its namespace, netns mode).
on() {
	local h=$1
	shift
	$(on_prefix "$h") "$@"
}

netns_fail() {
	echo "# netns mode: $*"
	fail "netns mode: $*"
	finish
	exit 1
}

# netns_init "SIDE-A HOSTS": after cluster_init, before cluster_start.
netns_init() {
	local side_a=$1 core i h ns br x y
	[ "$(id -u)" -eq 0 ] && command -v ip >/dev/null ||
	    netns_fail "needs root and ip(8)"
	# 5 digits of the run's directory: names and subnet of this run.
	NETNS_TAG=$(printf %s "$T_DIR" | cksum |
	    awk '{ printf "%05d", $1 % 100000 }')
	core=$(netns_of core)
	x=$(( 200 + 10#$NETNS_TAG % 50 ))
	y=$(( 10#$NETNS_TAG / 50 % 256 ))
	# cluster_stop, which deletes what is made here, on signals too.
	trap 'exit 1' HUP INT TERM
	ip netns add "$core" 2>"$T_DIR/log/netns.err" ||
	    netns_fail "ip netns add: $(cat "$T_DIR/log/netns.err")"
	NETNS_LIST=$core
	ip -n "$core" link set lo up &&
	ip -n "$core" link add brA type bridge &&
	ip -n "$core" link add brB type bridge &&
	ip -n "$core" link add cutA type veth peer name cutB &&
	ip -n "$core" link set cutA master brA &&
	ip -n "$core" link set cutB master brB &&
	for i in brA brB cutA cutB; do
		ip -n "$core" link set "$i" up || break
	done || netns_fail "cannot make the bridges"
	: >"$LSF_CONF/hosts"
	i=0
	for h in $HOSTS; do
		i=$((i + 1))
		ns=$(netns_of "$h")
		br=brB
		case " $side_a " in *" $h "*) br=brA ;; esac
		ip netns add "$ns" && NETNS_LIST="$NETNS_LIST $ns" &&
		ip -n "$core" link add "v$h" type veth peer name eth0 \
		    netns "$ns" &&
		ip -n "$core" link set "v$h" master "$br" &&
		ip -n "$core" link set "v$h" up &&
		ip -n "$ns" link set lo up &&
		ip -n "$ns" addr add "10.$x.$y.$((10 + i))/24" dev eth0 &&
		ip -n "$ns" link set eth0 up ||
		    netns_fail "cannot give $h its namespace"
		echo "10.$x.$y.$((10 + i)) $h" >>"$LSF_CONF/hosts"
	done
}

# netns_cut, netns_heal: the one link between the sides down, up.
netns_cut() {
	ip -n "$(netns_of core)" link set cutA down
}

netns_heal() {
	ip -n "$(netns_of core)" link set cutA up
}

netns_stop() {
	local ns
	for ns in ${NETNS_LIST:-}; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL
		ip netns del "$ns" 2>/dev/null
	done
	NETNS_LIST=""
}

# mbd_restart: kill -9 the master's mbatchd, wait until its sbatchd has
# started another and that one answers.
# mbd_pid: the mbatchd hosta's sbatchd started.  mbd_down: it killed,
# and kept down (its sbatchd stopped) while the test edits its files;
# mbd_up: sbatchd goes on and starts it again.
mbd_pid() {
	pgrep -P "$PID_sbatchd_hosta" -x mbatchd
}
mbd_down() {
	local p
	p=$(mbd_pid)
	kill -STOP "$PID_sbatchd_hosta"
	kill -9 "$p"
	while kill -0 "$p" 2>/dev/null && [ "$(ps -o stat= -p "$p")" != Z ]; do
		sleep 0.05
	done
}
mbd_up() {
	kill -CONT "$PID_sbatchd_hosta"
	wait_for sh -c "bqueues >/dev/null 2>&1" || fail "mbatchd did not come back"
}

mbd_restart() {
	local old
	old=$(mbd_pid)
	[ -n "$old" ] || { fail "no mbatchd to restart"; return 1; }
	kill -9 "$old"
	wait_for sh -c "p=\$(pgrep -P $PID_sbatchd_hosta -x mbatchd) &&
	    [ \"\$p\" != $old ] && bqueues >/dev/null" ||
	    fail "mbatchd did not come back"
}

# serverdir_init: LSF_SERVERDIR ($T_DIR/serverdir) with the daemons, for
# tests that add programs there (an ELIM, eadmin, methods); once.
serverdir_init() {
	local f
	[ -n "$T_DIR" ] || return 1
	[ -d "$T_DIR/serverdir" ] && return 0
	mkdir -p "$T_DIR/serverdir"
	for f in "$SBIN"/*; do ln -s "$f" "$T_DIR/serverdir/"; done
	echo "LSF_SERVERDIR=$T_DIR/serverdir" >>"$LSF_CONF/lsf.conf"
}

# elim_install: LSF_SERVERDIR with the daemons and the test ELIM.
elim_install() {
	serverdir_init || return 1
	mkdir -p "$T_DIR/elim"
	cp "$TOP/tests/scenario/elim-file.sh" "$T_DIR/serverdir/elim.test"
	chmod 755 "$T_DIR/serverdir/elim.test"
}

# mail_capture: LSB_MAILPROG keeps each mail as $MAILDIR/<time>.<pid>.msg,
# under that name only once whole.
mail_capture() {
	[ -n "$T_DIR" ] || return 1
	MAILDIR="$T_DIR/mail"
	mkdir -p "$MAILDIR"
	chmod 1777 "$MAILDIR"
	cat >"$T_DIR/mailprog" <<EOF
#!/bin/sh
n=\$(date +%s%N).\$\$
cat >"$MAILDIR/.\$n"
mv "$MAILDIR/.\$n" "$MAILDIR/\$n.msg"
EOF
	chmod 755 "$T_DIR/mailprog"
	echo "LSB_MAILPROG=$T_DIR/mailprog" >>"$LSF_CONF/lsf.conf"
}

# set_load HOST "name value ...": replaced at once (rename), so the ELIM
# never reads half a file.
set_load() {
	printf '%s\n' "$2" >"$T_DIR/elim/load.$1.tmp"
	mv "$T_DIR/elim/load.$1.tmp" "$T_DIR/elim/load.$1"
}

# elim_raw HOST LINE: the ELIM prints LINE once, as it is.
elim_raw() {
	printf '%s\n' "$2" >"$T_DIR/elim/raw.$1.tmp"
	mv "$T_DIR/elim/raw.$1.tmp" "$T_DIR/elim/raw.$1"
}

dump_logs() {
	local f
	[ -n "$T_DIR" ] || return 0
	for f in "$T_DIR"/log/*; do
		echo "# ---- $f"
		tail -n 30 "$f" | sed 's/^/# /'
	done
}

# wait_for CMD ARGS...: retry (every 50 ms) until it succeeds or WAIT_SECS.
# A wait in vain says so (a "# waited" line, which fails nothing by
# itself): one whose test goes on regardless should be a check.
wait_for() {
	local deadline=$(( $(date +%s) + WAIT_SECS ))
	while ! "$@" >/dev/null 2>&1; do
		if [ "$(date +%s)" -ge "$deadline" ]; then
			echo "# waited ${WAIT_SECS} s in vain (${BASH_SOURCE[1]##*/}:${BASH_LINENO[0]}): $*" >&2
			return 1
		fi
		sleep 0.05
	done
	return 0
}

# need_root TOOL...: the test acts as root and ordinary users, and needs
# these programs; without them it fails, saying why.
need_root() {
	local t
	for t in setpriv "$@"; do
		if [ "$(id -u)" -ne 0 ] || ! command -v "$t" >/dev/null; then
			echo "# needs root and $*${*:+ and }setpriv"
			echo "0 passed, 1 failed"
			exit 1
		fi
	done
}

# as_nobody CMD...: run it as the ordinary user nobody (65534).
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
}

# as_user NAME CMD...: run it as the system user NAME (daemon, bin, sys,
# nobody: accounts every Debian has).
as_user() {
	local u=$1
	shift
	setpriv --reuid="$(id -u "$u")" --regid="$(id -g "$u")" \
	    --clear-groups -- "$@"
}

# The states (R, S, T...) of the processes of process group $1, each
# letter once, sorted; pg_is PGID STATES; pg_runs PGID: none is stopped.
# The states of process group $1's processes, each letter once.  A
# zombie is left out: it has ended, and a child that ended just as its
# stopped parent was stopped stays one until the parent runs again.
pg_states() {
	local pid
	for pid in $(pgrep -g "$1"); do
		sed 's/.*) \([A-Za-z]\).*/\1/' "/proc/$pid/stat" 2>/dev/null
	done | grep -v '^Z$' | sort -u | tr -d '\n'
}

pg_is() {
	[ "$(pg_states "$1")" = "$2" ]
}

pg_runs() {
	local s
	s=$(pg_states "$1")
	[ -n "$s" ] && [ "${s#*T}" = "$s" ]
}

# How many lines file $1 has (0 if it does not exist); lines_ge FILE N.
lines() {
	if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi
}

lines_ge() {
	[ "$(lines "$1")" -ge "$2" ]
}

# A job's EXEC_HOST.
exec_host() {
	bjobs -noheader -o exec_host "$1" 2>/dev/null
}

# IDs of the pending jobs of a queue, in the order bjobs -p lists them.
pend_order() {
	bjobs -p -noheader -q "$1" 2>/dev/null | awk '/^[0-9]/ { print $1 }' |
	    tr '\n' ' ' | sed 's/ $//'
}

# pgid_of PIDFILE: the process group of the pid a job wrote there.
pgid_of() {
	sed 's/.*) [A-Za-z] [0-9]* \([0-9]*\).*/\1/' "/proc/$(cat "$1")/stat"
}

# judged JOB: a pass has looked at the pending job (its reason is no
# longer that of a new job): what it has not done by then, it would not.
judged() {
	local r
	r=$(bjobs -p "$1" 2>/dev/null | sed -n '3p')
	[ -n "$r" ] && [ "${r#*New job is waiting}" = "$r" ]
}

# stays_pending DESCRIPTION JOB: once judged, the job still pends.
stays_pending() {
	wait_for judged "$2" || fail "$1: never judged"
	check "$1" job_is "$2" PEND
}

# host_mxj N: lsb.hosts gives every host N job slots.
host_mxj() {
	printf 'Begin Host\nHOST_NAME  MXJ\ndefault    %s\nEnd Host\n' "$1" \
	    >"$LSB_CONF/lsb.hosts"
}

# queues "NAME PRIORITY [KEY = VALUE[; KEY = VALUE...]]" ...: lsb.queues
# holds those queues only.
queues() {
	local q name prio rest
	: >"$LSB_CONF/lsb.queues"
	for q in "$@"; do
		read -r name prio rest <<<"$q"
		{
			echo "Begin Queue"
			echo "QUEUE_NAME = $name"
			echo "PRIORITY = $prio"
			[ -n "$rest" ] && echo "$rest" | tr ';' '\n' |
			    sed 's/^ *//'
			echo "End Queue"
			echo
		} >>"$LSB_CONF/lsb.queues"
	done
}

# A job's STAT.
job_stat() {
	bjobs -noheader -o stat "$1" 2>/dev/null
}

job_is() {
	[ "$(job_stat "$1")" = "$2" ]
}

# Submit and print the job ID; submit_on HOST ...: bsub run on HOST.
submit() {
	local out
	out=$(bsub "$@") || return 1
	echo "$out" | sed -n 's/^Job <\([0-9]*\)> is submitted.*/\1/p'
}

submit_on() {
	local h=$1 out
	shift
	out=$(on "$h" bsub "$@") || return 1
	echo "$out" | sed -n 's/^Job <\([0-9]*\)> is submitted.*/\1/p'
}

pass() {
	T_PASS=$((T_PASS + 1))
	echo "ok $((T_PASS + T_FAIL)) - $*"
}

fail() {
	T_FAIL=$((T_FAIL + 1))
	echo "not ok $((T_PASS + T_FAIL)) - $*"
}

check() {
	# check "description" CMD ARGS...
	local d=$1
	shift
	if "$@"; then pass "$d"; else fail "$d"; fi
}

expect_eq() {
	# expect_eq "description" expected actual
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1"
		echo "#   expected: $(printf %q "$2")"
		echo "#   actual:   $(printf %q "$3")"
	fi
}

expect_match() {
	# expect_match "description" regex actual
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		pass "$1"
	else
		fail "$1"
		echo "#   pattern: $2"
		printf '%s\n' "$3" | sed 's/^/#   actual: /'
	fi
}

finish() {
	echo "$T_PASS passed, $T_FAIL failed"
	[ "$T_FAIL" -eq 0 ] || dump_logs
	[ "$T_FAIL" -eq 0 ]
}
