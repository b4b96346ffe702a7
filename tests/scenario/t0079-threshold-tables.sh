#!/bin/bash
# The loadSched/loadStop tables, byte for byte: bqueues -l shows the
# queue's (a stop-only "pg = /15" included), bhosts -l the host's of
# lsb.hosts, and bjobs -l of a job running on that host both together,
# each index at the more restrictive value; of a pending job the
# queue's alone.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >"$LSB_CONF/lsb.hosts" <<EOF
Begin Host
HOST_NAME  MXJ  r1m      ut    mem      pg
hostb      2    0.6/2.5  0.8/  200/100  ()
default    2    ()       ()    ()       ()
End Host

Begin HostGroup
GROUP_NAME  GROUP_MEMBER
both        (hosta hostb)
End HostGroup
EOF
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = lowprio
PRIORITY = 20
HOSTS = both
r1m = 0.25/1.75
pg = /15
End Queue
EOF
# Loads set exactly: hostb idle and within every threshold; hosta's run
# queue over the queue's 0.25 on any number of CPUs.
elim_install
set_load hosta "r1m 50"
set_load hostb "r1m 0.0 ut 0.1 pg 0.0 mem 4000"
cluster_start
cd "$T_DIR/jobs"
wait_for sh -c "lsload -I r1m hosta | grep -q ' 50.0\$'" ||
    fail "hosta's r1m never became 50"
wait_for sh -c "lsload -I mem hostb | grep -q ' 3.9G\$'" ||
    fail "hostb's mem never became 4000"

out=$(bqueues -l lowprio | sed -n '/^SCHEDULING PARAMETERS$/,/^$/p')
expect_eq "bqueues -l: the queue's thresholds, pg stop-only" \
"SCHEDULING PARAMETERS
           r15s   r1m  r15m   ut      pg    io   ls    it    tmp    swp    mem
 loadSched   -    0.25   -     -       -     -    -     -     -      -      -
 loadStop    -    1.75   -     -      15.0   -    -     -     -      -      -" "$out"

out=$(bhosts -l hostb | sed -n '/LOAD THRESHOLD USED FOR SCHEDULING:/,$p')
expect_eq "bhosts -l: the host's thresholds of lsb.hosts" \
" LOAD THRESHOLD USED FOR SCHEDULING:
           r15s   r1m  r15m   ut      pg    io   ls    it    tmp    swp    mem
 loadSched   -    0.6    -    80%      -     -    -     -     -      -     200M
 loadStop    -    2.5    -     -       -     -    -     -     -      -     100M" \
    "$out"
out=$(bhosts -l hosta | sed -n '/LOAD THRESHOLD USED FOR SCHEDULING:/,$p')
expect_eq "bhosts -l: a host without thresholds" \
" LOAD THRESHOLD USED FOR SCHEDULING:
           r15s   r1m  r15m   ut      pg    io   ls    it    tmp    swp    mem
 loadSched   -     -     -     -       -     -    -     -     -      -      -
 loadStop    -     -     -     -       -     -    -     -     -      -      -" \
    "$out"

j=$(submit -q lowprio -m hostb -o /dev/null sleep 600)
wait_for job_is "$j" RUN || fail "job $j did not start on hostb"
out=$(bjobs -l "$j" | sed -n '/^ SCHEDULING PARAMETERS:$/,/^$/p')
expect_eq "bjobs -l of a running job: queue and host, the stricter wins" \
" SCHEDULING PARAMETERS:
           r15s   r1m  r15m   ut      pg    io   ls    it    tmp    swp    mem
 loadSched   -    0.25   -    80%      -     -    -     -     -      -     200M
 loadStop    -    1.75   -     -      15.0   -    -     -     -      -     100M" "$out"

# hosta is over the queue's r1m: a job asking for it waits, and shows the
# queue's thresholds only.
p=$(submit -q lowprio -m hosta -o /dev/null sleep 600)
wait_for sh -c "bjobs -p $p | grep -q 'load threshold reached'" ||
    fail "job $p shows no load pending reason"
out=$(bjobs -l "$p" | sed -n '/^ SCHEDULING PARAMETERS:$/,/^$/p')
expect_eq "bjobs -l of a pending job: the queue's thresholds" \
" SCHEDULING PARAMETERS:
           r15s   r1m  r15m   ut      pg    io   ls    it    tmp    swp    mem
 loadSched   -    0.25   -     -       -     -    -     -     -      -      -
 loadStop    -    1.75   -     -      15.0   -    -     -     -      -      -" "$out"
bkill "$j" "$p" >/dev/null 2>&1

finish
