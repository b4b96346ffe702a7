#!/bin/bash
# docs/ADMIN.md, step by step, on three machines made of network and UTS
# namespaces on a bridge: hosta (master), hostb (server) and desk1 (a
# client host).  Each has its own lsf.conf, logs, job state and munged
# (one key for all); LSF_CONFDIR and LSB_SHAREDIR stand for NFS; the
# client sees no LSB_SHAREDIR.  The daemons run without -N, under their
# machine's host name, from a `make install` tree.  An ordinary user on
# the client host runs the first job, on hostb.
. "$(dirname "$0")/lib.sh"

need_root ip unshare

T=$(mktemp -d "${TMPDIR:-/tmp}/lsft.$T_NAME.XXXXXX")
chmod 755 "$T"
net=$(( (RANDOM % 250) + 1 ))
br="lsfbr$$"
machines="hosta hostb desk1"
declare -A addr=([hosta]="198.18.$net.1" [hostb]="198.18.$net.2" \
    [desk1]="198.18.$net.3")
declare -A nsof
i=0
for m in $machines; do
	i=$((i + 1))
	nsof[$m]="lsft$$.$i"
done

stop_all() {
	for m in $machines; do
		ip netns pids "${nsof[$m]}" 2>/dev/null | xargs -r kill -9 2>/dev/null
		ip netns del "${nsof[$m]}" 2>/dev/null
	done
	ip link del "$br" 2>/dev/null
	pkill -KILL -f "$T" 2>/dev/null
	if [ "$T_FAIL" -eq 0 ] && [ -z "${KEEP:-}" ]; then
		rm -rf "$T"
	else
		echo "# kept $T"
	fi
}
trap stop_all EXIT

# run_on MACHINE CMD...: as root on that machine, under its host name.
run_on() {
	local m=$1
	shift
	ip netns exec "${nsof[$m]}" unshare --uts sh -c \
	    'hostname "$0" && exec "$@"' "$m" \
	    env LSF_ENVDIR="$T/$m/conf" PATH="$prefix/bin:$PATH" "$@"
}
# as_user MACHINE CMD...: the same, as an ordinary user.
as_user() {
	local m=$1
	shift
	run_on "$m" setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
}

# The machines and their network.
ip link add "$br" type bridge && ip link set "$br" up || {
	fail "cannot make the bridge"; finish; exit 1; }
i=0
for m in $machines; do
	i=$((i + 1))
	ns=${nsof[$m]}
	ip netns add "$ns" &&
	ip link add "lsfv$$$i" type veth peer name eth0 netns "$ns" &&
	ip link set "lsfv$$$i" master "$br" up &&
	ip netns exec "$ns" ip addr add "${addr[$m]}/24" dev eth0 &&
	ip netns exec "$ns" ip link set eth0 up &&
	ip netns exec "$ns" ip link set lo up || {
		fail "cannot make machine $m"; finish; exit 1; }
done

# 1. Install.
prefix="$T/opt/lsf"
make -s -C "$TOP" O="$BUILD" install PREFIX="$prefix" \
    UNITDIR="$T/units" >"$T/install.log" 2>&1
check "make install PREFIX=... installs" test -x "$prefix/sbin/lim" -a \
    -x "$prefix/sbin/sbatchd" -a -x "$prefix/bin/bsub" -a \
    -f "$prefix/conf/lsf.conf"

# 2. MUNGE: one key, a munged on every machine.
head -c 1024 /dev/urandom >"$T/munge.key"
for m in $machines; do
	mkdir -p "$T/$m/munge"
	chmod 755 "$T/$m" "$T/$m/munge"
	install -m 600 "$T/munge.key" "$T/$m/munge/key"
	ip netns exec "${nsof[$m]}" munged -f -S "$T/$m/munge/sock" \
	    --key-file="$T/$m/munge/key" --log-file="$T/$m/munge/log" \
	    --pid-file="$T/$m/munge/pid" --seed-file="$T/$m/munge/seed"
done
crossed() {
	munge -n -S "$T/desk1/munge/sock" | unmunge -S "$T/hosta/munge/sock" \
	    >/dev/null
}
check "a credential made on desk1 decodes on hosta" wait_for crossed

# 3 and 5. The shared configuration, from the installed sample.
shared="$T/shared"
mkdir -p "$shared/work" "$shared/home"
chmod 1777 "$shared/home"
cp -R "$prefix/conf" "$shared/conf"
rm -rf "$shared/conf/systemd"
for m in $machines; do
	echo "${addr[$m]} $m"
done >"$shared/conf/hosts"
sed -i -e '/^hostA /,/^hostC /d' "$shared/conf/lsf.cluster.cluster1"
sed -i -e 's/^Administrators = .*/Administrators = root/' \
    -e "/^HOSTNAME /a hosta      !         !        1        ()\\
hostb      !         !        1        ()\\
desk1      !         !        0        ()" "$shared/conf/lsf.cluster.cluster1"
sed -i -e 's/^hostA /hosta /' \
    "$shared/conf/lsbatch/cluster1/configdir/lsb.hosts"
base=$(pick_ports "$T")
for m in $machines; do
	mkdir -p "$T/$m/conf" "$T/$m/log" "$T/$m/sbd"
	sed -e "s|^LSF_CONFDIR=.*|LSF_CONFDIR=$shared/conf|" \
	    -e "s|^LSB_SHAREDIR=.*|LSB_SHAREDIR=$shared/work|" \
	    -e "s|^LSF_LOGDIR=.*|LSF_LOGDIR=$T/$m/log|" \
	    -e "s|^LSF_SERVERDIR=.*|LSF_SERVERDIR=$prefix/sbin|" \
	    -e "s|^LSF_BINDIR=.*|LSF_BINDIR=$prefix/bin|" \
	    -e 's|^LSF_MASTER_LIST=.*|LSF_MASTER_LIST="hosta"|' \
	    -e "s|^LSF_LIM_PORT=.*|LSF_LIM_PORT=$base|" \
	    -e "s|^LSB_MBD_PORT=.*|LSB_MBD_PORT=$((base + 1))|" \
	    -e "s|^LSB_SBD_PORT=.*|LSB_SBD_PORT=$((base + 2))|" \
	    -e "s|^#LSB_SBD_STATEDIR=.*|LSB_SBD_STATEDIR=$T/$m/sbd|" \
	    -e "s|^#LSF_MUNGE_SOCKET=.*|LSF_MUNGE_SOCKET=$T/$m/munge/sock|" \
	    "$prefix/conf/lsf.conf" >"$T/$m/conf/lsf.conf"
done
# The client host does not see the batch system's shared directory.
sed -i '/^LSB_SHAREDIR=/d' "$T/desk1/conf/lsf.conf"
chmod -R a+rX "$T/desk1/conf" "$shared/conf"
out=$(run_on hosta badmin ckconfig 2>&1)
expect_match "badmin ckconfig finds no errors" '^No errors found\.$' "$out"
out=$(run_on hosta lsadmin ckconfig 2>&1)
expect_match "nor does lsadmin ckconfig" '^No errors found\.$' "$out"

# 6. Start the daemons on the server hosts, as a boot would.
for m in hosta hostb; do
	run_on "$m" "$prefix/sbin/lim"
	run_on "$m" "$prefix/sbin/sbatchd"
done
hosts_ok() {
	[ "$(as_user desk1 bhosts 2>/dev/null | grep -cE '^host[ab] +ok ')" -eq 2 ]
}
check "bhosts on the client host shows both servers ok" wait_for hosts_ok
out=$(as_user desk1 lsid 2>&1)
expect_match "lsid names the master" '^My master name is hosta$' "$out"
out=$(as_user desk1 lshosts 2>&1)
expect_match "lshosts lists the client host" '^desk1 ' "$out"

# 7. The first job, by an ordinary user on the client host.
cd "$shared/home"
out=$(as_user desk1 bsub -m hostb -o "$shared/home/%J.out" \
    'echo "ran on $(hostname)"' 2>&1)
expect_match "bsub on the client host" \
    '^Job <1> is submitted to default queue <normal>\.$' "$out"
done_on_b() {
	as_user desk1 bjobs -a -noheader -o "stat exec_host" 1 |
	    grep -q '^DONE *hostb$'
}
check "the job runs on hostb and is DONE" wait_for done_on_b
expect_match "its output says where it ran" '^ran on hostb$' \
    "$(cat "$shared/home/1.out" 2>&1)"
expect_match "with its job report" '^Successfully completed\.$' \
    "$(cat "$shared/home/1.out" 2>&1)"
expect_eq "as the user who submitted it" nobody \
    "$(as_user desk1 bjobs -a -noheader -o user 1 2>&1)"
out=$(run_on desk1 bsub -o /dev/null true 2>&1)
expect_match "root's jobs are refused (no LSF_ROOT_REX)" \
    'User permission denied\. Job not submitted\.' "$out"

finish
