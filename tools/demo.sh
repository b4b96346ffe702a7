#!/bin/bash
# make demo: a one-host cluster from the sample configuration in etc/,
# in a private directory, with a few jobs; shows bjobs -a, bqueues,
# bhosts and lsload, then stops the daemons.  KEEP=1 keeps the directory.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"
export PATH="$build/bin:$PATH"

dir=$(mktemp -d /tmp/lsf-demo.XXXXXX)
chmod 755 "$dir"
conf="$dir/conf"
pids=""

stop() {
	set +e
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
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

free_port() {
	local p
	while :; do
		p=$(( 20000 + RANDOM % 30000 ))
		ss -ltnH 2>/dev/null | awk '{print $4}' |
		    grep -Eq ":($p|$((p + 1))|$((p + 2)))\$" || { echo "$p"; return; }
	done
}

# The sample configuration, made private: paths, ports, one host.
mkdir -p "$conf" "$dir/work" "$dir/log" "$dir/jobs"
chmod 1777 "$dir/jobs"
cp -R "$top/etc/." "$conf/"
rm -rf "$conf/systemd"
port=$(free_port)
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
sed -i -e 's/^hostA /demohost /' "$conf/lsbatch/cluster1/configdir/lsb.hosts"
echo "127.0.0.1 demohost" >"$conf/hosts"
export LSF_ENVDIR="$conf"

echo "== a one-host cluster in $dir"
badmin ckconfig
"$build/sbin/lim" -f -N demohost 2>>"$dir/log/stderr" &
pids="$pids $!"
"$build/sbin/sbatchd" -f -N demohost 2>>"$dir/log/stderr" &
pids="$pids $!"
for i in $(seq 1 200); do
	bhosts 2>/dev/null | grep -q '^demohost *ok' && break
	sleep 0.1
done
lsid
echo

cd "$dir/jobs"
echo "== jobs"
bsub -J hello -o hello.%J 'echo "hello from job $LSB_JOBID on $LSB_HOSTS"'
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
bsub <analysis.sh
bsub -J fails -o fails.%J "exit 3"
long=$(bsub -J long sleep 300 | sed 's/Job <\([0-9]*\)>.*/\1/')
echo "Job <$long> is submitted ..."
bsub -J waits sleep 300
bsub -q night -J tonight -x echo later
sleep 0.5
bjobs -u all
echo
sleep 2
echo "== bkill $long"
bkill "$long"
sleep 1
echo
echo "== bjobs -a"
bjobs -a
echo
echo "== bjobs -p"
bjobs -p
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
id=$(bjobs -a -noheader -o "jobid job_name" | awk '$2 == "hello" {print $1}')
echo "== the output file of job $id (with LSF's job report)"
cat "hello.$id"
bkill 0 >/dev/null 2>&1 || true
echo "== stopping the daemons"
