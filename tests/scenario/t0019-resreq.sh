#!/bin/bash
# Resource requirements at dispatch: rusage[] reservations held by
# running jobs (and again after an mbatchd restart), span[ptile=n],
# span[hosts=1] and same[].
. "$(dirname "$0")/lib.sh"

cluster_init 3
cat >"$LSB_CONF/lsb.hosts" <<EOT
Begin Host
HOST_NAME  MXJ
default    4
End Host
EOT
cat >>"$LSB_CONF/lsb.queues" <<EOT
Begin Queue
QUEUE_NAME = rq
PRIORITY   = 20
RES_REQ    = select[mem>1] order[-r1m] rusage[mem=10]
End Queue
EOT
cluster_start
cd "$T_DIR/jobs"
jid() { sed 's/Job <\([0-9]*\)>.*/\1/'; }
hosts_of() { bjobs -noheader -o exec_host "$1" | tr ':' '\n' | sort | xargs; }

# Each host shows this machine's free memory; reserve 60% of it.
avail=$(awk '/^MemAvailable:/ {print int($2 / 1024)}' /proc/meminfo)
x=$((avail * 6 / 10))
r1=$(bsub -R "rusage[mem=$x]" sleep 60 | jid)
wait_for job_is "$r1" RUN
r2=$(bsub -R "rusage[mem=$x]" sleep 60 | jid)
wait_for job_is "$r2" RUN
r3=$(bsub -R "rusage[mem=$x]" sleep 60 | jid)
wait_for job_is "$r3" RUN
r4=$(bsub -R "rusage[mem=$x]" sleep 60 | jid)
sleep 1
expect_eq "three reservations on three hosts" 3 \
    "$( (hosts_of "$r1"; hosts_of "$r2"; hosts_of "$r3") | sort -u | wc -l)"
expect_eq "a fourth finds no host with that much left" PEND "$(job_stat "$r4")"
expect_match "and says why" \
    "Resources reserved by other jobs: not enough left: 3 hosts;" \
    "$(bjobs -p "$r4")"
expect_eq "plain jobs still go there" RUN \
    "$(p=$(bsub sleep 60 | jid); wait_for job_is "$p" RUN; job_stat "$p")"
mbd_restart
sleep 1
expect_eq "the reservations survive a restart" PEND "$(job_stat "$r4")"
bkill "$r1" >/dev/null
wait_for job_is "$r4" RUN
check "the freed reservation lets it run" job_is "$r4" RUN
bkill 0 >/dev/null
wait_for sh -c "[ -z \"\$(bjobs -noheader 2>/dev/null)\" ]"

# span[ptile=2]: two slots on each of two hosts.
p=$(bsub -n 4 -R "span[ptile=2]" sleep 30 | jid)
wait_for job_is "$p" RUN
expect_match "ptile=2" "^2\\*host[abc]:2\\*host[abc]\$" \
    "$(bjobs -noheader -o exec_host "$p")"
o=$(bsub -n 3 -R "span[hosts=1]" sleep 30 | jid)
wait_for job_is "$o" RUN
expect_eq "span[hosts=1]: all three on one host" 1 \
    "$(hosts_of "$o" | tr ' ' '\n' | sort -u | wc -l)"
big=$(bsub -n 5 -R "span[hosts=1]" sleep 30 | jid)
sleep 1
expect_eq "five on one host of MXJ 4: never" PEND "$(job_stat "$big")"
s=$(bsub -n 6 -R "same[type] span[ptile=3]" sleep 30 | jid)
wait_for job_is "$s" RUN
expect_eq "same[type] with ptile=3: two hosts" 2 \
    "$(hosts_of "$s" | tr ' ' '\n' | sort -u | wc -l)"
bkill 0 >/dev/null
wait_for sh -c "[ -z \"\$(bjobs -noheader 2>/dev/null)\" ]"

# bhosts -l shows what running jobs reserve; duration=1 (minute) with
# decay=1 shrinks it linearly, then lets it go.
rsv_mem() { bhosts -l hostc | awk '$1 == "Reserved" { print $12 }'; }
rsv_not() { [ "$(rsv_mem)" != "$1" ]; }
rsv_is() { [ "$(rsv_mem)" = "$1" ]; }
expect_eq "nothing reserved on an idle host" 0M "$(rsv_mem)"
d=$(bsub -m hostc -R "rusage[mem=600:duration=1:decay=1]" sleep 300 | jid)
wait_for job_is "$d" RUN
check "bhosts -l shows a reservation" wait_for rsv_not 0M
expect_match "bhosts -l: the reservation, decaying" "^(5[0-9][0-9]|600)M$" \
    "$(rsv_mem)"
WAIT_SECS=90 wait_for rsv_is 0M
expect_eq "after its duration it is released" 0M "$(rsv_mem)"
check "while the job still runs" job_is "$d" RUN

# The queue's RES_REQ and the job's: select AND-ed, the job's rusage
# within the queue's, the queue's order only for a job without -R.
combined() { bjobs -l "$1" | sed -n 's/^ Combined: //p'; }
q1=$(bsub -H -q rq -R "select[mem>2] rusage[mem=5]" true | jid)
expect_eq "queue and job RES_REQ merged" \
    "select[mem > 1.00 && mem > 2.00] order[r15s:pg] rusage[mem=5.00]" \
    "$(combined "$q1")"
q2=$(bsub -H -q rq true | jid)
expect_eq "a job without -R: the queue's" \
    "select[mem > 1.00] order[-r1m] rusage[mem=10.00]" "$(combined "$q2")"
expect_match "more than the queue's rusage is refused" \
    "Job not submitted" "$(bsub -q rq -R "rusage[mem=50]" true 2>&1)"
finish
