#!/bin/bash
# Commands from a host other than the master: a client host in its own
# network namespace, with no way to the master's Unix socket (its
# lsf.conf has a local LSB_SHAREDIR), asks the LIMs for the master and
# reaches mbatchd over TCP with a MUNGE credential naming its user.  An
# ordinary user there submits, queries and kills a job; another user's
# job stays out of reach.
. "$(dirname "$0")/lib.sh"

need_root ip

cluster_init 3
# hosta's address sits on a veth pair whose other end is the client's
# namespace: 198.18.0.0/15 is the range set aside for network tests.
net=$(( (RANDOM % 250) + 1 ))
ns="lsft$$"
veth="lsfv$$"
net_stop() {
	ip netns del "$ns" 2>/dev/null
	ip link del "$veth" 2>/dev/null
	return 0
}
trap 'cluster_stop; net_stop' EXIT
ip netns add "$ns" &&
ip link add "$veth" type veth peer name "${veth}c" &&
ip link set "${veth}c" netns "$ns" &&
ip addr add "198.18.$net.1/24" dev "$veth" &&
ip link set "$veth" up &&
ip netns exec "$ns" ip addr add "198.18.$net.2/24" dev "${veth}c" &&
ip netns exec "$ns" ip link set "${veth}c" up &&
ip netns exec "$ns" ip link set lo up || {
	fail "cannot make the client's network namespace"
	finish
	exit 1
}
sed -i "s/^127\.0\.0\.11 hosta\$/198.18.$net.1 hosta/" "$LSF_CONF/hosts"
cluster_start

# The client host's own lsf.conf: the cluster's, but no shared LSB_SHAREDIR.
client="$T_DIR/client"
mkdir -p "$client/conf" "$client/share"
sed "s|^LSB_SHAREDIR=.*|LSB_SHAREDIR=$client/share|" "$LSF_CONF/lsf.conf" \
    >"$client/conf/lsf.conf"
chmod -R a+rX "$client"
on_client() {
	ip netns exec "$ns" setpriv --reuid=65534 --regid=65534 \
	    --clear-groups -- env LSF_ENVDIR="$client/conf" LSB_NTRIES=3 "$@"
}
cd "$T_DIR/jobs"

check "the client host cannot reach the master's Unix socket" \
    test ! -e "$client/share/c1/mbatchd.sock"
lport=$(sed -n 's/^LSF_LIM_PORT=//p' "$LSF_CONF/lsf.conf")
reachable() {
	ip netns exec "$ns" timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2" \
	    2>/dev/null
}
unreachable() {
	! reachable "$@"
}
check "nor hostb's LIM" unreachable 127.0.0.12 "$lport"
check "while hosta's is in reach" reachable "198.18.$net.1" "$lport"

out=$(on_client bsub -o /dev/null sleep 60 2>&1)
expect_match "an ordinary user submits from the client host" \
    '^Job <[0-9]+> is submitted to default queue <normal>\.$' "$out"
id=$(echo "$out" | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
check "the job runs" wait_for job_is "$id" RUN
expect_eq "as that user" nobody "$(bjobs -noheader -o user "$id")"
expect_match "mbatchd knew the user from the credential" \
    "command uid 65534 from [^ ]+: authenticated as command" \
    "$(cat "$T_DIR/log/mbatchd.log.hosta")"
out=$(on_client bjobs -noheader -o "jobid stat user" "$id" 2>&1)
expect_match "bjobs answers on the client host" "^$id +RUN +nobody\$" "$out"
expect_match "so does bqueues" '^normal +30 +Open:Active' \
    "$(on_client bqueues 2>&1)"

rid=$(submit -o /dev/null sleep 60)
check "root's job runs" wait_for job_is "$rid" RUN
out=$(on_client bkill "$rid" 2>&1)
expect_match "the user cannot kill root's job from there" \
    "^Job <$rid>: User permission denied\$" "$out"
check "which keeps running" job_is "$rid" RUN

out=$(on_client bkill "$id" 2>&1)
expect_match "but kills its own" "^Job <$id> is being terminated\$" "$out"
check "which ends" wait_for job_is "$id" EXIT

finish
