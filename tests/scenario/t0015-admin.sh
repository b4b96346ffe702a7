#!/bin/bash
# badmin and lsadmin control: hclose/hopen and qclose/qopen/qinact/qact
# take effect and survive an mbatchd crash; badmin reconfig applies a new
# lsb.queues/lsb.hosts to the running mbatchd (a running job is not
# touched) and refuses a broken one; mbdrestart keeps every job; the
# history subcommands print the log; lsadmin reconfig and limrestart
# reach each LIM; only administrators may do any of it.
. "$(dirname "$0")/lib.sh"

cluster_init 3
cluster_start
cd "$T_DIR/jobs"

mbd_pid() {
	pgrep -P "$PID_sbatchd_hosta" -x mbatchd
}
# Kill mbatchd and wait for its sbatchd to start another that answers
# and for every sbatchd to register again (until then a host is unreach,
# which hides whether it is closed).
mbd_crash() {
	local old
	old=$(mbd_pid)
	kill -9 "$old"
	wait_for sh -c "p=\$(pgrep -P $PID_sbatchd_hosta -x mbatchd) &&
	    [ \"\$p\" != $old ]" && wait_for bhosts &&
	    wait_for sh -c "o=\$(bhosts -w) && ! echo \"\$o\" | grep -q unreach"
}
host_status() {
	bhosts -w "$1" 2>/dev/null | awk 'NR == 2 { print $2 }'
}
queue_status() {
	bqueues "$1" 2>/dev/null | awk 'NR == 2 { print $3 }'
}
job_field() {
	bjobs -noheader -o "$2" "$1" 2>/dev/null
}
pend_reason() {
	bjobs -noheader -o pend_reason "$1" 2>/dev/null
}

# ---- hclose / hopen
out=$(badmin hclose -C "disk swap" hostb 2>&1)
expect_eq "hclose says done" "Close <hostb> ...... done" "$out"
expect_eq "bhosts -w shows closed_Adm" closed_Adm "$(host_status hostb)"
expect_eq "bhosts shows closed" closed \
    "$(bhosts hostb | awk 'NR == 2 { print $2 }')"
onb=$(submit -m hostb -o /dev/null sleep 30)
others=""
for i in 1 2 3 4; do
	others="$others $(submit -o /dev/null sleep 30)"
done
wait_for sh -c "[ \$(bjobs -noheader -r -o jobid $others | wc -l) -eq 4 ]"
expect_eq "no job went to the closed host" "" \
    "$(bjobs -noheader -o exec_host $others | grep hostb)"
wait_for sh -c "bjobs -noheader -o pend_reason $onb | grep -q Closed"
expect_match "a job for it waits with LSF's reason" \
    "Closed by LSF administrator: 1 host" "$(pend_reason "$onb")"
bkill $others >/dev/null 2>&1

mbd_crash
expect_eq "the host is still closed after an mbatchd crash" closed_Adm \
    "$(host_status hostb)"
check "its job is still pending" job_is "$onb" PEND
out=$(badmin hopen hostb 2>&1)
expect_eq "hopen says done" "Open <hostb> ...... done" "$out"
wait_for job_is "$onb" RUN
check "hopen lets the job start there" job_is "$onb" RUN
expect_eq "bhosts shows it open" ok "$(host_status hostb)"
bkill "$onb" >/dev/null 2>&1
out=$(badmin hclose nosuchhost 2>&1)
rc=$?
expect_eq "an unknown host is named" \
    "nosuchhost: Bad host name, host group name or cluster name" "$out"
expect_eq "and the command fails" 255 "$rc"

# ---- qclose / qopen / qinact / qact
expect_eq "qclose says so" "Queue <short> is closed" \
    "$(badmin qclose short 2>&1)"
expect_eq "bqueues shows Closed" Closed:Active "$(queue_status short)"
out=$(bsub -q short sleep 1 2>&1)
rc=$?
expect_eq "bsub to a closed queue is refused" \
    "short: Queue has been closed. Job not submitted." "$out"
expect_eq "bsub exits 255" 255 "$rc"
sw=$(submit -q normal -H -o /dev/null sleep 1)
out=$(bswitch short "$sw" 2>&1)
expect_match "bswitch into a closed queue is refused" \
    "Queue has been closed" "$out"
bkill "$sw" >/dev/null 2>&1

expect_eq "qinact says so" "Queue <normal> is inactivated" \
    "$(badmin qinact -C "drain" normal 2>&1)"
expect_eq "bqueues shows Inact" Open:Inact "$(queue_status normal)"
held=$(submit -q normal -o /dev/null sleep 30)
wait_for sh -c "bjobs -noheader -o pend_reason $held | grep -q inactivated"
expect_eq "the job waits with LSF's reason" \
    "The queue is inactivated by the administrator" "$(pend_reason "$held")"

mbd_crash
expect_eq "the queue is still closed after a crash" Closed:Active \
    "$(queue_status short)"
expect_eq "and the other still inactive" Open:Inact "$(queue_status normal)"
check "its job is still pending" job_is "$held" PEND
expect_eq "qact says so" "Queue <normal> is activated" \
    "$(badmin qact normal 2>&1)"
wait_for job_is "$held" RUN
check "qact lets the job start" job_is "$held" RUN
expect_eq "qopen says so" "Queue <short> is opened" \
    "$(badmin qopen short 2>&1)"
check "bsub to the reopened queue works" test -n \
    "$(submit -q short -o /dev/null true)"
out=$(badmin qclose nosuchqueue 2>&1)
expect_eq "an unknown queue is named" "nosuchqueue: No such queue" "$out"
bkill "$held" >/dev/null 2>&1

# ---- reconfig
run=$(submit -q normal -o run.out 'echo $$ >run.pid; exec sleep 300')
wait_for job_is "$run" RUN
wait_for test -s run.pid
pid=$(cat run.pid)
badmin qclose short >/dev/null
cp "$LSB_CONF/lsb.queues" "$T_DIR/lsb.queues.orig"
cp "$LSB_CONF/lsb.hosts" "$T_DIR/lsb.hosts.orig"
sed -i 's/^PRIORITY = 30$/PRIORITY = 40/' "$LSB_CONF/lsb.queues"
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = night
PRIORITY = 5
End Queue
EOF
sed -i 's/^default    2$/default    3/' "$LSB_CONF/lsb.hosts"
out=$(badmin reconfig 2>"$T_DIR/reconfig.err")
rc=$?
expect_eq "reconfig says so" "Reconfiguration initiated" "$out"
expect_eq "reconfig exits 0" 0 "$rc"
expect_eq "the check comes first, on stderr" \
    "$(printf '\nChecking configuration files ...\n\nNo errors found.\n')" \
    "$(cat "$T_DIR/reconfig.err")"
expect_eq "the new priority is in effect" 40 \
    "$(bqueues normal | awk 'NR == 2 { print $2 }')"
expect_eq "the new queue is there" "night 5" \
    "$(bqueues night | awk 'NR == 2 { print $1, $2 }')"
expect_eq "the new MXJ is in effect" 3 \
    "$(bhosts hostb | awk 'NR == 2 { print $4 }')"
expect_eq "an admin-closed queue stays closed" Closed:Active \
    "$(queue_status short)"
check "the running job is still RUN" job_is "$run" RUN
check "its process was not touched" kill -0 "$pid"
expect_eq "mbatchd still has the same PID for it" "$pid" \
    "$(job_field "$run" pids | tr -d ' ')"
nj=$(submit -q night -o /dev/null true)
wait_for job_is "$nj" DONE
check "a job in the new queue runs" job_is "$nj" DONE

# A broken lsb.queues: the command refuses, the old configuration stays.
cp "$LSB_CONF/lsb.queues" "$T_DIR/lsb.queues.new"
printf '\nBegin Queue\nQUEUE_NAME = bad\nPRIORITY = high\nEnd Queue\n' \
    >>"$LSB_CONF/lsb.queues"
out=$(badmin reconfig -f 2>&1)
rc=$?
expect_eq "a broken file is refused" 255 "$rc"
expect_match "with the check's verdict" "There are fatal errors" "$out"
check "the old queues still work" test -n \
    "$(submit -q night -o /dev/null true)"
cp "$T_DIR/lsb.queues.new" "$LSB_CONF/lsb.queues"
# mbatchd checks for itself: the master host gone from lsf.cluster.
cp "$LSF_CONF/lsf.cluster.c1" "$T_DIR/lsf.cluster.orig"
sed -i 's/^hosta /hostz /' "$LSF_CONF/lsf.cluster.c1"
echo "127.0.0.99 hostz" >>"$LSF_CONF/hosts"
out=$(badmin reconfig -f 2>&1)
rc=$?
expect_eq "mbatchd refuses a cluster without its host" 255 "$rc"
expect_match "and says why" "master host hosta is no longer" "$out"
cp "$T_DIR/lsf.cluster.orig" "$LSF_CONF/lsf.cluster.c1"
expect_eq "bhosts still works" 3 "$(bhosts | awk 'NR > 1' | wc -l)"
# A host that runs nothing, removed from lsf.cluster, then back.
gone=hostc
[ "$(job_field "$run" exec_host)" = hostc ] && gone=hostb
sed -i "/^$gone /d" "$LSF_CONF/lsf.cluster.c1"
badmin reconfig -f >/dev/null 2>&1
expect_eq "a removed host leaves bhosts" 2 "$(bhosts | awk 'NR > 1' | wc -l)"
cp "$T_DIR/lsf.cluster.orig" "$LSF_CONF/lsf.cluster.c1"
badmin reconfig -f >/dev/null 2>&1
wait_for all_hosts_ok
expect_eq "and comes back" 3 "$(bhosts | awk 'NR > 1' | wc -l)"
back=$(submit -m "$gone" -o /dev/null true)
wait_for job_is "$back" DONE
check "and runs jobs again" job_is "$back" DONE

# A removed queue's jobs go to lost_and_found.
badmin qinact night >/dev/null
lost=$(submit -q night -o /dev/null true)
cp "$T_DIR/lsb.queues.orig" "$LSB_CONF/lsb.queues"
sed -i 's/^PRIORITY = 30$/PRIORITY = 40/' "$LSB_CONF/lsb.queues"
badmin reconfig -f >/dev/null 2>&1
expect_eq "the job of a removed queue is in lost_and_found" \
    lost_and_found "$(job_field "$lost" queue)"
expect_eq "which is closed and inactive" Closed:Inact \
    "$(queue_status lost_and_found)"
check "bsub night is now refused" sh -c "! bsub -q night true 2>/dev/null"
bswitch normal "$lost" >/dev/null
wait_for job_is "$lost" DONE
check "bswitch takes it out and it runs" job_is "$lost" DONE
check "the running job went through all that" job_is "$run" RUN
cp "$T_DIR/lsb.hosts.orig" "$LSB_CONF/lsb.hosts"
badmin reconfig -f >/dev/null 2>&1
expect_eq "MXJ back to 2" 2 "$(bhosts hostb | awk 'NR == 2 { print $4 }')"

# ---- mbdrestart
pend=$(submit -q normal -H -o /dev/null true)
old=$(mbd_pid)
out=$(badmin mbdrestart -C "new binary" 2>/dev/null)
expect_eq "mbdrestart says so" "MBD restart initiated" "$out"
wait_for sh -c "p=\$(pgrep -P $PID_sbatchd_hosta -x mbatchd) &&
    [ \"\$p\" != $old ]"
wait_for bhosts
check "sbatchd started a new mbatchd" test "$(mbd_pid)" != "$old"
check "the running job is still RUN" job_is "$run" RUN
check "the held job is still there" job_is "$pend" PSUSP
expect_eq "priorities survive the restart" 40 \
    "$(bqueues normal | awk 'NR == 2 { print $2 }')"
check "its process was not touched" kill -0 "$pid"
grep -q "restart asked for" "$T_DIR/log/sbatchd.log.hosta"
check "sbatchd knew it was deliberate" test $? -eq 0

# ---- history
out=$(badmin hist)
expect_match "hist shows hclose with its comment" \
    ": Host <hostb> closed by administrator <root>\. Comment: disk swap$" \
    "$out"
expect_match "hist shows qinact" \
    ": Queue <normal> inactivated by user or administrator <root>\. Comment: drain$" \
    "$out"
expect_match "hist shows mbatchd's starts" \
    ": mbatchd started on host <hosta> by user or administrator <root>\.$" \
    "$out"
expect_match "hist shows the restart" \
    ": mbatchd on host <hosta> restarted by user or administrator <root>\. Comment: new binary$" \
    "$out"
expect_match "lines start with the time" \
    '^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4}: ' "$out"
out=$(badmin hhist hostb)
expect_eq "hhist shows only that host's" 2 "$(echo "$out" | wc -l)"
expect_match "hhist shows hopen" "Host <hostb> opened by administrator" "$out"
out=$(badmin qhist short)
check "qhist shows only queue lines" sh -c \
    "! echo '$out' | grep -qv 'Queue <short>'"
out=$(badmin mbdhist)
check "mbdhist shows only mbatchd lines" sh -c \
    "! echo '$out' | grep -qv 'mbatchd'"
expect_eq "hist -f a missing file fails" 255 \
    "$(badmin hist -f "$T_DIR/none" >/dev/null 2>&1; echo $?)"

# ---- lsadmin
sed -i 's/^hostc  !  !  1  ()$/hostc  !  !  1  (bigmem)/' \
    "$LSF_CONF/lsf.cluster.c1"
out=$(lsadmin reconfig 2>/dev/null)
expect_eq "lsadmin reconfig reaches every LIM" \
    "$(printf 'Restart LIM on <%s> ...... done\n' hosta hostb hostc)" "$out"
wait_for sh -c "lshosts hostc | grep -q bigmem"
expect_match "lshosts shows the new resource" bigmem "$(lshosts hostc)"
# Restart a LIM that runs detached: it comes back with a new PID.
kill "$PID_lim_hostc"
wait "$PID_lim_hostc" 2>/dev/null
"$SBIN/lim" -N hostc -e "$LSF_CONF"
limpid() {
	pgrep -f "lim -N hostc -e $LSF_CONF"
}
wait_for test -S "$T_DIR/work/c1/lim.hostc.sock"
lp=$(limpid)
out=$(lsadmin limrestart hostc 2>/dev/null)
expect_eq "limrestart says done" "Restart LIM on <hostc> ...... done" "$out"
wait_for sh -c "p=\$(pgrep -f 'lim -N hostc -e $LSF_CONF') && [ \"\$p\" != $lp ]"
check "the LIM has a new PID" test -n "$(limpid)" -a "$(limpid)" != "$lp"
# found_as NAME PID: pgrep -x NAME finds it, and ps names it NAME (an
# exec of /proc/self/exe would have named it "exe").
found_as() {
	pgrep -x "$1" | grep -qx "$2" &&
	    [ "$(ps -o comm= -p "$2")" = "$1" ]
}
check "pgrep -x lim finds the restarted LIM, ps names it lim" \
    found_as lim "$(limpid)"
wait_for sh -c "lsload hostc | grep -q ' ok '"
check "lsid still answers" lsid
expect_match "and the restarted LIM reports" "hostc +ok" "$(lsload hostc)"
# The foreground LIM of the master keeps its PID (its supervisor tracks
# it) but starts over.
n0=$(grep -c "lim starting" "$T_DIR/log/lim.log.hosta")
out=$(lsadmin limrestart -f hosta 2>/dev/null)
expect_eq "limrestart of the master" "Restart LIM on <hosta> ...... done" "$out"
wait_for sh -c "[ \$(grep -c 'lim starting' $T_DIR/log/lim.log.hosta) -gt $n0 ]"
check "the master LIM started over" test \
    "$(grep -c "lim starting" "$T_DIR/log/lim.log.hosta")" -gt "$n0"
check "with its PID and its name" found_as lim "$PID_lim_hosta"
wait_for lsid
wait_for all_hosts_ok
check "the cluster is whole again" all_hosts_ok
# A broken lsf.cluster is refused by the check.
echo "Begin Host" >>"$LSF_CONF/lsf.cluster.c1"
check "lsadmin reconfig refuses a broken file" sh -c \
    "! lsadmin reconfig -f >/dev/null 2>&1"
cp "$T_DIR/lsf.cluster.orig" "$LSF_CONF/lsf.cluster.c1"

# ---- only administrators
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	as_nobody() {
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	}
	out=$(as_nobody badmin hclose hostb 2>&1)
	expect_eq "a user may not close a host" \
	    "badmin: User permission denied" "$out"
	check "so it stays open" test "$(host_status hostb)" != closed_Adm
	out=$(as_nobody badmin qinact normal 2>&1)
	expect_eq "nor inactivate a queue" "normal: User permission denied" "$out"
	check "nor reconfigure" sh -c "! setpriv --reuid=65534 \
	    --regid=65534 --clear-groups -- badmin reconfig -f >/dev/null 2>&1"
	out=$(as_nobody lsadmin reconfig -f 2>/dev/null | head -n 1)
	expect_eq "nor have the LIMs reconfigure" \
	    "Restart LIM on <hosta> ...... User permission denied" "$out"
	out=$(as_nobody badmin hist | head -n 1)
	check "but may read the history" test -n "$out"
else
	echo "# skipped: not root or no setpriv"
fi

bkill "$run" >/dev/null 2>&1
finish
