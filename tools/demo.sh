#!/bin/bash
# make demo: a one-host cluster from the sample configuration in etc/,
# in a private directory, with a few jobs; shows bjobs -a, bqueues,
# bhosts and lsload, then stops the daemons.
#
#	KEEP=1		keep the cluster's directory
#	DEMO_WAIT=N	seconds to wait for each step (default 120)
#	BUILD=DIR	the build to run (default build/)
#
# Nothing here waits a fixed time: each step waits until what it shows
# has happened, for at most DEMO_WAIT seconds.  If a job is still pending
# then, the demo says why (bjobs -p) and what to do, and exits 1.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
export PATH="$build/bin:$PATH"
wait_secs=${DEMO_WAIT:-120}
. "$top/tools/cluster-conf.sh"

dir=$(mktemp -d /tmp/lsf-demo.XXXXXX)
chmod 755 "$dir"
conf="$dir/conf"
pids=""

stop() {
	set +e
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	munge_stop "$dir"
	# Jobs outlive sbatchd by design: end this cluster's, by the locks
	# their supervisors hold.
	for f in "$dir"/work/*/sbd/*/jobs/*/lock; do
		[ -e "$f" ] && fuser -k -KILL "$f" >/dev/null 2>&1
	done
	if [ -n "${KEEP:-}" ]; then
		echo "The demo cluster's files are in $dir"
	else
		rm -rf "$dir"
	fi
}
trap stop EXIT

# wait_until CMD...: run CMD every 0.1 s until it succeeds; 1 if
# DEMO_WAIT seconds pass first.
wait_until() {
	local end=$((SECONDS + wait_secs))
	until "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.1
	done
}

stat_of() {
	bjobs -noheader -o stat "$1" 2>/dev/null
}

# in_state "STATES" ID...: every job is in one of STATES.
in_state() {
	local want=" $1 " id
	shift
	for id; do
		case $want in *" $(stat_of "$id") "*) ;; *) return 1 ;; esac
	done
}

# give_up WHAT ID...: the jobs did not get where the demo needs them.
give_up() {
	local what=$1
	shift
	echo
	echo "== the demo gave up after ${wait_secs} s waiting for $what"
	bjobs -a "$@" || true
	echo
	bjobs -p "$@" 2>/dev/null || true
	echo
	echo "A pending job's reason is above; a load threshold in" \
	    "etc/lsbatch/cluster1/configdir (lsb.queues, lsb.hosts) or a busy" \
	    "host may hold it: change the threshold, or run" \
	    "DEMO_WAIT=600 make demo to wait longer."
	exit 1
}

# submit ARGS...: bsub, show its answer, and set $id to the new job's ID.
id=""
submit() {
	local out
	out=$(bsub "$@")
	echo "$out"
	id=$(echo "$out" | sed -n 's/^Job <\([0-9]*\)> is submitted.*/\1/p')
	[ -n "$id" ]
}

# The sample configuration, made private: paths, ports, one host.
mkdir -p "$conf" "$dir/work" "$dir/log" "$dir/jobs"
chmod 1777 "$dir/jobs"
cp -R "$top/etc/." "$conf/"
rm -rf "$conf/systemd"
port=$(pick_ports "$dir")
sed -i -e "s|^LSF_CONFDIR=.*|LSF_CONFDIR=$conf|" \
    -e "s|^LSB_SHAREDIR=.*|LSB_SHAREDIR=$dir/work|" \
    -e "s|^LSF_LOGDIR=.*|LSF_LOGDIR=$dir/log|" \
    -e "s|^LSF_SERVERDIR=.*|LSF_SERVERDIR=$build/sbin|" \
    -e "s|^LSF_BINDIR=.*|LSF_BINDIR=$build/bin|" \
    -e "s|^LSF_MASTER_LIST=.*|LSF_MASTER_LIST=\"demohost\"|" \
    -e "s|^LSF_LIM_PORT=.*|LSF_LIM_PORT=$port|" \
    -e "s|^LSB_MBD_PORT=.*|LSB_MBD_PORT=$((port + 1))|" \
    -e "s|^LSB_SBD_PORT=.*|LSB_SBD_PORT=$((port + 2))|" "$conf/lsf.conf"
sed -i -e '/^hostB /d' -e '/^hostC /d' -e 's/^hostA /demohost /' \
    -e 's/^EXINTERVAL = .*/EXINTERVAL = 2/' \
    -e "s/^Administrators = .*/Administrators = $(id -un)/" \
    "$conf/lsf.cluster.cluster1"
# One slot per CPU, as in the sample, but two at least: the demo's
# analysis job asks for two on one host.
mxj='!'
[ "$(nproc)" -lt 2 ] && mxj=2
sed -i -e "s/^hostA  *!/demohost    $mxj/" \
    "$conf/lsbatch/cluster1/configdir/lsb.hosts"
echo "127.0.0.1 demohost" >"$conf/hosts"
munge_start "$dir"
# The demo submits as whoever runs it, root on a fresh machine: let
# root's jobs run here (the sample lsf.conf does not).
[ "$(id -u)" -eq 0 ] && echo "LSF_ROOT_REX=local" >>"$conf/lsf.conf"
export LSF_ENVDIR="$conf"

echo "== a one-host cluster in $dir"
badmin ckconfig
"$build/sbin/lim" -f -N demohost 2>>"$dir/log/stderr" &
pids="$pids $!"
"$build/sbin/sbatchd" -f -N demohost 2>>"$dir/log/stderr" &
pids="$pids $!"
host_ok() {
	bhosts 2>/dev/null | grep -q '^demohost *ok'
}
if ! wait_until host_ok; then
	echo "The cluster did not come up within ${wait_secs} s; its logs:"
	tail -n 20 "$dir"/log/*
	exit 1
fi
lsid
echo

cd "$dir/jobs"
echo "== jobs"
submit -J hello -o hello.%J 'echo "hello from job $LSB_JOBID on $LSB_HOSTS"'
hello=$id
cat >analysis.sh <<'EOF'
#!/bin/bash
#BSUB -J analysis
#BSUB -q short
#BSUB -o analysis.%J.out
#BSUB -n 2
#BSUB -R "span[hosts=1]"
echo "running on $LSB_HOSTS with $LSB_DJOB_NUMPROC slots"
sleep 1
EOF
submit <analysis.sh
analysis=$id
submit -J fails -o fails.%J "exit 3"
fails=$id
submit -J long sleep 300
long=$id
submit -J waits sleep 300
submit -q night -J tonight -x echo later
wait_until in_state "RUN" "$long" || give_up "job $long to start" "$long"
bjobs -u all
echo
echo "== bkill $long"
bkill "$long"
wait_until in_state "DONE EXIT" "$hello" "$analysis" "$fails" "$long" ||
    give_up "jobs $hello, $analysis, $fails and $long to finish" \
    "$hello" "$analysis" "$fails" "$long"
echo
echo "== bjobs -a"
bjobs -a
echo
echo "== bjobs -p"
bjobs -p || true	# none pends at night, when the night queue opens
echo
echo "== bqueues"
bqueues
echo
echo "== bhosts"
bhosts
echo
echo "== lsload"
lsload
echo
echo "== the output file of job $hello (with LSF's job report)"
cat "hello.$hello"
bkill 0 >/dev/null 2>&1 || true
echo "== stopping the daemons"
