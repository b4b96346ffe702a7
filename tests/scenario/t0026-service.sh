#!/bin/bash
# Running as a service: `make install` puts the systemd units (with its
# PREFIX in their paths) and lsf_daemons in place, and systemd-analyze
# verify accepts the units; the commands do not link libsystemd.  PID 1
# is not systemd here, so readiness is checked directly: lim and sbatchd
# run with NOTIFY_SOCKET naming a datagram socket this test reads, and
# say READY=1 (from their own pid) when they answer, RELOADING=1 and
# READY=1 around a reconfig or restart, STOPPING=1 when they stop;
# mbatchd does not inherit the socket.  With JOURNAL_STREAM naming its
# stderr a daemon logs there too, with journald's priority prefix.
. "$(dirname "$0")/lib.sh"

cluster_init 1
NOTIFY_PIDS=""
trap 'for p in $NOTIFY_PIDS; do kill $p 2>/dev/null; done; cluster_stop' EXIT

# ---- make install
dest="$T_DIR/dest"
# O as the Makefile spells its own (relative) paths: an absolute one
# would not match the objects' dependency files and rebuild everything.
O_REL=$(realpath --relative-to="$TOP" "$BUILD")
make -s -C "$TOP" O="$O_REL" install DESTDIR="$dest" PREFIX=/opt/lsf \
    >"$T_DIR/install.out" 2>&1
check "make install DESTDIR=... PREFIX=/opt/lsf" test $? -eq 0
for f in opt/lsf/sbin/lim opt/lsf/sbin/sbatchd opt/lsf/sbin/mbatchd \
    opt/lsf/sbin/lsf_daemons opt/lsf/bin/badmin \
    etc/systemd/system/lim.service etc/systemd/system/sbatchd.service \
    opt/lsf/conf/systemd/lim.service opt/lsf/conf/systemd/sbatchd.service; do
	check "installed $f" test -e "$dest/$f"
done
expect_eq "the lim unit runs the installed lim" \
    "ExecStart=/opt/lsf/sbin/lim -f" \
    "$(grep ^ExecStart= "$dest/etc/systemd/system/lim.service")"
expect_eq "sbatchd's unit leaves the jobs alone when it stops" \
    "KillMode=process" \
    "$(grep ^KillMode= "$dest/etc/systemd/system/sbatchd.service")"
expect_eq "both are Type=notify" "Type=notify
Type=notify" "$(cat "$dest"/etc/systemd/system/*.service | grep ^Type=)"
make -s -C "$TOP" O="$O_REL" install DESTDIR="$T_DIR/dest2" \
    PREFIX=/usr/local/lsf UNITDIR= >>"$T_DIR/install.out" 2>&1
expect_eq "another PREFIX is in the units' paths" \
    "Environment=LSF_ENVDIR=/usr/local/lsf/conf
ExecStart=/usr/local/lsf/sbin/sbatchd -f" \
    "$(grep -E '^(Environment|ExecStart)=' \
    "$T_DIR/dest2/usr/local/lsf/conf/systemd/sbatchd.service")"
expect_eq "and in lsf_daemons" 'PREFIX=${LSF_TOP:-/usr/local/lsf}' \
    "$(grep '^PREFIX=' "$T_DIR/dest2/usr/local/lsf/sbin/lsf_daemons")"
check "UNITDIR= installs no unit outside PREFIX" \
    test ! -e "$T_DIR/dest2/etc/systemd"
check "the daemons link libsystemd" \
    sh -c "ldd '$dest/opt/lsf/sbin/lim' | grep -q libsystemd"
check "the commands do not" \
    sh -c "! ldd '$dest/opt/lsf/bin/bsub' 2>&1 | grep -q libsystemd"

if command -v systemd-analyze >/dev/null; then
	# verify wants ExecStart's binaries and the Documentation= pages
	# where the units say: point them into the DESTDIR copy.
	mkdir -p "$T_DIR/units"
	for u in lim sbatchd; do
		sed "s|/opt/lsf|$dest/opt/lsf|g" \
		    "$dest/etc/systemd/system/$u.service" >"$T_DIR/units/$u.service"
	done
	out=$(MANPATH="$dest/opt/lsf/share/man" systemd-analyze verify \
	    "$T_DIR/units/lim.service" "$T_DIR/units/sbatchd.service" 2>&1)
	rc=$?
	expect_eq "systemd-analyze verify passes" "0:" "$rc:$out"
else
	echo "# skipping systemd-analyze verify: not installed"
fi

# ---- readiness, without systemd
# notify_listen SOCKET OUT: one line "pid message-line" per line received.
notify_listen() {
	python3 - "$1" "$2" <<'EOP' &
import socket, struct, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
with open(sys.argv[2], "a", buffering=1) as f:
    while True:
        msg, anc, _, _ = s.recvmsg(4096, socket.CMSG_SPACE(12))
        pid = -1
        for level, kind, data in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                pid = struct.unpack("iII", data[:12])[0]
        for line in msg.decode().split("\n"):
            f.write("%d %s\n" % (pid, line))
EOP
	NOTIFY_PIDS="$NOTIFY_PIDS $!"
	wait_for test -S "$1"
}
# said PID MESSAGE: how many times PID sent MESSAGE.
said() {
	grep -c "^$1 $2\$" "$T_DIR/notify.out"
}
# said_ge PID MESSAGE N: at least N times (for wait_for).
said_ge() {
	[ "$(said "$1" "$2")" -ge "$3" ]
}

: >"$T_DIR/notify.out"
notify_listen "$T_DIR/notify.sock" "$T_DIR/notify.out"
: >"$T_DIR/log/lim.journal"
NOTIFY_SOCKET="$T_DIR/notify.sock" \
    JOURNAL_STREAM=$(stat -c %d:%i "$T_DIR/log/lim.journal") \
    "$SBIN/lim" -f -N hosta 2>>"$T_DIR/log/lim.journal" &
lim=$!
T_PIDS="$T_PIDS $lim"
wait_for grep -q "READY=1" "$T_DIR/notify.out"
out=$(LSB_NTRIES=1 lsid 2>&1)
expect_match "once lim says READY=1 it answers" "My master name is hosta" "$out"
expect_eq "READY=1 came from lim's own pid" 1 "$(said "$lim" READY=1)"
expect_match "with JOURNAL_STREAM its lines go to stderr too" \
    "^<6>lim\[$lim\] INFO: lim starting as host hosta" \
    "$(cat "$T_DIR/log/lim.journal")"
check "and to its log file" grep -q "lim starting as host hosta" \
    "$T_DIR/log/lim.log.hosta"

out=$(lsadmin reconfig -f 2>/dev/null)
expect_eq "lsadmin reconfig" "Restart LIM on <hosta> ...... done" "$out"
wait_for said_ge "$lim" READY=1 2
expect_eq "lim said RELOADING=1 for it" 1 "$(said "$lim" RELOADING=1)"
expect_eq "then READY=1" 2 "$(said "$lim" READY=1)"
lsadmin limrestart hosta >/dev/null 2>&1
wait_for said_ge "$lim" READY=1 3
expect_eq "limrestart: RELOADING=1, and READY=1 from the same pid" "2 3" \
    "$(said "$lim" RELOADING=1) $(said "$lim" READY=1)"

NOTIFY_SOCKET="$T_DIR/notify.sock" "$SBIN/sbatchd" -f -N hosta \
    >>"$T_DIR/log/sbatchd.hosta.stderr" 2>&1 &
sbd=$!
T_PIDS="$T_PIDS $sbd"
PID_sbatchd_hosta=$sbd
wait_for said_ge "$sbd" READY=1 1
expect_eq "sbatchd says READY=1 from its pid" 1 "$(said "$sbd" READY=1)"
check "by then it is listening" sh -c "ss -ltnH | grep -q \
    '127.0.0.11:$(sed -n 's/^LSB_SBD_PORT=//p' "$LSF_CONF/lsf.conf")'"
wait_for all_hosts_ok
mbd=$(pgrep -P "$sbd" -x mbatchd)
check "mbatchd runs" test -n "$mbd"
check "without NOTIFY_SOCKET in its environment" \
    sh -c "! tr '\\0' '\\n' </proc/$mbd/environ | grep -q NOTIFY_SOCKET"
check "a job that prints its environment is submitted" sh -c "id=\$(bsub -o $T_DIR/jobs/env.out env |
    sed -n 's/^Job <\\([0-9]*\\)>.*/\\1/p') && sleep 0.1 &&
    bjobs -noheader -o stat \$id >/dev/null"
wait_for test -s "$T_DIR/jobs/env.out"
check "the job's environment has none" \
    sh -c "! grep -q NOTIFY_SOCKET $T_DIR/jobs/env.out"

badmin hrestart hosta >/dev/null 2>&1
wait_for said_ge "$sbd" READY=1 2
expect_eq "hrestart: RELOADING=1 then READY=1 from the same pid" "1 2" \
    "$(said "$sbd" RELOADING=1) $(said "$sbd" READY=1)"

kill -TERM "$sbd"
wait "$sbd" 2>/dev/null
kill -TERM "$lim"
wait "$lim" 2>/dev/null
expect_eq "both say STOPPING=1 when they stop" "1 1" \
    "$(said "$sbd" STOPPING=1) $(said "$lim" STOPPING=1)"
expect_eq "nothing spoke but lim and sbatchd" "" \
    "$(awk -v a="$lim" -v b="$sbd" '$1 != a && $1 != b' "$T_DIR/notify.out")"

# ---- lsf_daemons, without systemd: the installed daemons, directly
ld="$dest/opt/lsf/sbin/lsf_daemons"
export LSF_LOCAL_HOST=hosta
out=$("$ld" start 2>&1)
check "lsf_daemons start" test $? -eq 0
wait_for all_hosts_ok
check "the cluster comes up" all_hosts_ok
out=$("$ld" status 2>&1)
expect_eq "status names each daemon and its pid" "lim: running (pid N)
sbatchd: running (pid N)
mbatchd: running (pid N)" "$(echo "$out" | sed 's/[0-9][0-9]*/N/')"
"$ld" stop >/dev/null 2>&1
out=$("$ld" status 2>&1)
rc=$?
expect_eq "stop stops them; status says so (exit 3)" "3 lim: stopped
sbatchd: stopped
mbatchd: not running on this host" "$rc $out"
unset LSF_LOCAL_HOST

finish
