# The LSF-level files of a private cluster on one machine, shared by the
# scenario tests (tests/scenario/lib.sh) and the benchmarks (bench/lib.sh),
# which add their own lsb.* files.  Each host is a loopback address
# (127.0.0.11, .12, ...) named in the cluster's own hosts file.
#
#	. tools/cluster-conf.sh
#	cluster_conf DIR NHOSTS LOG_MASK "ADMINS" [extra lsf.conf lines...]
#
# writes DIR/conf/{hosts,lsf.conf,lsf.shared,lsf.cluster.c1}, makes
# DIR/conf/lsbatch/c1/configdir, DIR/work and DIR/log, and sets
# LSF_ENVDIR (exported), LSF_CONF, LSB_CONF, HOSTS (hosta hostb ...) and
# MASTER (the first host).

# pick_ports OWNER: three consecutive free TCP ports on the loopback
# addresses.  Clusters start side by side (the tests run several at a
# time), and a port free when looked at may be taken a moment later by
# one starting beside: each set is claimed (mkdir is atomic) in
# $LSF_PORT_CLAIMS for OWNER, the cluster's directory, and a claim is
# free again once its owner's directory is gone.
LSF_PORT_CLAIMS=${LSF_PORT_CLAIMS:-/tmp/lsf-test-ports}
pick_ports() {
	local owner=$1 base tries=0 c o
	mkdir -p "$LSF_PORT_CLAIMS" 2>/dev/null
	while :; do
		# Below Linux's ephemeral range (32768-60999), so no
		# outgoing connection holds the port when a daemon binds it;
		# sets of three that never overlap.
		base=$(( 20001 + (RANDOM * 7 + $$) % 4000 * 3 ))
		c=$LSF_PORT_CLAIMS/$base
		if [ -d "$c" ]; then
			o=$(cat "$c/owner" 2>/dev/null)
			# An owner gone, or one that never wrote: stale.
			if [ -n "$o" ] && [ ! -e "$o" ]; then
				rm -rf "$c"
			fi
		elif ! ss -ltnH 2>/dev/null | awk '{print $4}' |
		    grep -Eq ":($base|$((base + 1))|$((base + 2)))\$" &&
		    mkdir "$c" 2>/dev/null; then
			echo "$owner" >"$c/owner"
			echo "$base"
			return
		fi
		tries=$((tries + 1))
		[ $tries -gt 200 ] && { echo "no free ports" >&2; exit 1; }
	done
}

# munge_start DIR: a private munged with its own key, its socket in
# DIR/munge (the daemons prove who they are with MUNGE; see
# include/auth.h), and LSF_MUNGE_SOCKET naming it in DIR/conf/lsf.conf.
# It is found and stopped by its socket's path, which holds DIR.
munge_start() {
	local m="$1/munge" i
	mkdir -p "$m"
	chmod 755 "$m"
	head -c 1024 /dev/urandom >"$m/key"
	chmod 600 "$m/key"
	munged -f -S "$m/sock" --key-file="$m/key" --log-file="$m/log" \
	    --pid-file="$m/pid" --seed-file="$m/seed" || {
		echo "munged did not start" >&2
		exit 1
	}
	for i in $(seq 1 100); do
		[ -S "$m/sock" ] && break
		sleep 0.05
	done
	echo "LSF_MUNGE_SOCKET=$m/sock" >>"$1/conf/lsf.conf"
}

munge_stop() {
	[ -S "$1/munge/sock" ] && munged -s -S "$1/munge/sock" >/dev/null 2>&1
	return 0
}

cluster_conf() {
	local dir=$1 n=$2 mask=$3 admins=$4 i h base
	shift 4
	export LSF_ENVDIR="$dir/conf"
	LSF_CONF="$dir/conf"
	LSB_CONF="$dir/conf/lsbatch/c1/configdir"
	mkdir -p "$LSB_CONF" "$dir/work" "$dir/log"
	base=$(pick_ports "$dir")
	HOSTS=""
	: >"$LSF_CONF/hosts"
	for i in $(seq 1 "$n"); do
		h="host$(printf "\\x$(printf %x $((96 + i)))")"
		HOSTS="$HOSTS $h"
		echo "127.0.0.$((10 + i)) $h" >>"$LSF_CONF/hosts"
	done
	HOSTS=${HOSTS# }
	MASTER=${HOSTS%% *}
	cat >"$LSF_CONF/lsf.conf" <<EOF
LSF_CONFDIR=$LSF_CONF
LSB_SHAREDIR=$dir/work
LSF_LOGDIR=$dir/log
LSF_LOG_MASK=$mask
LSF_LIM_PORT=$base
LSB_MBD_PORT=$((base + 1))
LSB_SBD_PORT=$((base + 2))
LSF_MASTER_LIST="$MASTER"
LSF_UNIT_FOR_LIMITS=MB
LSF_ROOT_REX=local
EOF
	for i in "$@"; do echo "$i" >>"$LSF_CONF/lsf.conf"; done
	munge_start "$dir"
	cat >"$LSF_CONF/lsf.shared" <<EOF
Begin Cluster
ClusterName
c1
End Cluster

Begin HostType
TYPENAME
X86_64
End HostType

Begin HostModel
MODELNAME  CPUFACTOR  ARCHITECTURE
generic    1.0        ()
End HostModel
EOF
	{
		echo "Begin Parameters"
		echo "EXINTERVAL = 1"
		echo "End Parameters"
		echo
		echo "Begin ClusterAdmins"
		echo "Administrators = $admins"
		echo "End ClusterAdmins"
		echo
		echo "Begin Host"
		echo "HOSTNAME  model  type  server  RESOURCES"
		for h in $HOSTS; do
			echo "$h  !  !  1  ()"
		done
		echo "End Host"
	} >"$LSF_CONF/lsf.cluster.c1"
}

# Every host is up: its LIM reports and its sbatchd is registered
# (a host may still be closed, by its thresholds for instance).
all_hosts_ok() {
	local out
	out=$(bhosts -w 2>/dev/null) || return 1
	[ "$(echo "$out" | awk 'NR > 1 && $2 != "unavail" &&
	    $2 != "unreach" && $2 != "closed_LIM"' | wc -l)" -eq \
	    "$(echo "$HOSTS" | wc -w)" ]
}
