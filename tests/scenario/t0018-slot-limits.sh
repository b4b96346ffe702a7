#!/bin/bash
# Job slot limits: QJOB_LIMIT, UJOB_LIMIT, HJOB_LIMIT (lsb.queues), JL/U
# (lsb.hosts), MAX_JOBS of a user and of a group (lsb.users), each with
# the pending reason bjobs -p gives, and across an mbatchd restart.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null || {
	echo "ok 1 # skip: needs root and setpriv"; echo "1 passed, 0 failed"
	exit 0
}
as() {
	local u
	u=$(id -u "$1")
	shift
	setpriv --reuid="$u" --regid="$u" --clear-groups -- "$@"
}

cluster_init 2
# One job per host for a per-processor limit of 1/ncpus (rounded up).
perproc=$(awk -v n="$(nproc)" 'BEGIN { printf "%.4f", 1 / n }')
cat >"$LSB_CONF/lsb.hosts" <<EOT
Begin Host
HOST_NAME  MXJ  JL/U
hosta      4    ()
hostb      4    1
End Host
EOT
cat >"$LSB_CONF/lsb.queues" <<EOT
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue
Begin Queue
QUEUE_NAME = qlim
PRIORITY   = 20
QJOB_LIMIT = 3
End Queue
Begin Queue
QUEUE_NAME = ulim
PRIORITY   = 20
UJOB_LIMIT = 2
End Queue
Begin Queue
QUEUE_NAME = hlim
PRIORITY   = 20
HJOB_LIMIT = 1
End Queue
Begin Queue
QUEUE_NAME = plim
PRIORITY   = 20
PJOB_LIMIT = $perproc
End Queue
Begin Queue
QUEUE_NAME = ex
PRIORITY   = 20
EXCLUSIVE  = Y
End Queue
EOT
cat >"$LSB_CONF/lsb.users" <<EOT
Begin UserGroup
GROUP_NAME  GROUP_MEMBER
grp         (nobody daemon)
End UserGroup
Begin User
USER_NAME  MAX_JOBS
nobody     2
grp        3
End User
Begin User
USER_NAME  JL/P
bin        $perproc
End User
EOT
cluster_start
cd "$T_DIR/jobs"

jid() { sed 's/Job <\([0-9]*\)>.*/\1/'; }
nrun() { bjobs -u all -noheader -r -o jobid "$@" 2>/dev/null | wc -l; }
npend() { bjobs -u all -noheader -p -o jobid "$@" 2>/dev/null | wc -l; }
reasons() { bjobs -u all -p "$@" | grep '^ ' | sort -u; }
settle() {
	# Until the counts stop changing for a little while.
	local want=$1
	shift
	wait_for sh -c "[ \$(bjobs -u all -noheader -r -o jobid $* 2>/dev/null |
	    wc -l) -ge $want ]"
	sleep 0.5
}
clear_all() {
	bkill -u all 0 >/dev/null 2>&1
	wait_for sh -c "[ -z \"\$(bjobs -u all -noheader 2>/dev/null)\" ]"
}

# QJOB_LIMIT: three slots of the queue in all.
for i in 1 2 3 4 5; do bsub -q qlim sleep 60 >/dev/null; done
settle 3 -q qlim
expect_eq "QJOB_LIMIT 3: three run" 3 "$(nrun -q qlim)"
expect_eq "QJOB_LIMIT: its reason" \
    " The queue has reached its job slot limit;" "$(reasons -q qlim)"
mbd_restart
sleep 0.5
expect_eq "QJOB_LIMIT after a restart: still three" 3 "$(nrun -q qlim)"
expect_eq "and two pending" 2 "$(npend -q qlim)"
clear_all

# UJOB_LIMIT: two per user; another user still gets in.
for i in 1 2 3; do bsub -q ulim sleep 60 >/dev/null; done
o=$(as nobody bsub -q ulim sleep 60 | jid)
settle 3 -q ulim
wait_for job_is "$o" RUN
expect_eq "UJOB_LIMIT 2: two of root's and nobody's" 3 "$(nrun -q ulim)"
expect_eq "UJOB_LIMIT: its reason" \
    " User has reached the per-user job slot limit of the queue;" \
    "$(reasons -q ulim)"
clear_all

# HJOB_LIMIT: one per host.
for i in 1 2 3; do bsub -q hlim sleep 60 >/dev/null; done
settle 2 -q hlim
expect_eq "HJOB_LIMIT 1: one per host" "1 1" \
    "$(bjobs -noheader -r -o exec_host -q hlim | sort | uniq -c |
    awk '{print $1}' | xargs)"
expect_match "HJOB_LIMIT: its reason" \
    "The queue's per-host job slot limit reached: [12] hosts?;" \
    "$(reasons -q hlim)"
clear_all

# JL/U on hostb: one of root's there, but nobody has one of its own.
for i in 1 2 3 4 5 6; do bsub sleep 60 >/dev/null; done
settle 5
expect_eq "JL/U 1 on hostb, MXJ 4 on hosta: five run" 5 "$(nrun)"
expect_eq "only one of root's on hostb" 1 \
    "$(bjobs -noheader -r -o exec_host | grep -c hostb)"
expect_match "JL/U: its reason" \
    "User has reached the per-user job slot limit of the host: 1 host" \
    "$(reasons)"
o=$(as nobody bsub sleep 60 | jid)
wait_for job_is "$o" RUN
expect_eq "nobody's job went to hostb" hostb \
    "$(bjobs -noheader -o exec_host "$o")"
clear_all

# lsb.users: nobody's MAX_JOBS 2, and 3 for nobody and daemon together.
for i in 1 2 3; do as nobody bsub sleep 60 >/dev/null; done
settle 2 -u nobody
expect_eq "MAX_JOBS 2 for nobody" 2 "$(nrun -u nobody)"
for i in 1 2; do as daemon bsub sleep 60 >/dev/null; done
settle 3
sleep 0.5
expect_eq "grp MAX_JOBS 3: daemon gets one" 1 "$(nrun -u daemon)"
expect_eq "the user limit's reason" \
    " The user has reached his/her job slot limit;" \
    "$(bjobs -p -u daemon | grep '^ ' | sort -u)"
mbd_restart
sleep 0.5
expect_eq "after a restart: nobody 2, daemon 1" "2 1" \
    "$(nrun -u nobody) $(nrun -u daemon)"
clear_all

# PJOB_LIMIT (queue) and JL/P (lsb.users): per processor of the host.
for i in 1 2 3; do bsub -q plim -m hosta sleep 60 >/dev/null; done
settle 1 -q plim
expect_eq "PJOB_LIMIT 1/ncpus: one on the host" 1 "$(nrun -q plim)"
expect_match "PJOB_LIMIT: its reason" \
    "The queue's per-processor job slot limit reached: 1 host;" \
    "$(reasons -q plim)"
clear_all
for i in 1 2 3; do as bin bsub -m hosta sleep 60 >/dev/null; done
settle 1 -u bin
expect_eq "JL/P 1/ncpus: one of bin's on the host" 1 "$(nrun -u bin)"
expect_match "JL/P: its reason" \
    "User has reached the per-processor job slot limit: 1 host;" \
    "$(reasons -u bin)"
clear_all

# -x in an EXCLUSIVE queue: the host is the job's alone.
x=$(bsub -q ex -x -m hosta sleep 60 | jid)
wait_for job_is "$x" RUN
y=$(bsub -q ex -m hosta sleep 60 | jid)
sleep 1
expect_eq "no other job joins an exclusive one" PEND "$(job_stat "$y")"
expect_match "its reason" "Running an exclusive job: [12] hosts?;" \
    "$(bjobs -p "$y")"
expect_eq "bhosts -w: closed_Excl" closed_Excl \
    "$(bhosts -w hosta | awk 'NR == 2 { print $2 }')"
expect_match "-x in a queue that does not allow it" \
    "Queue does not accept EXCLUSIVE jobs" "$(bsub -x true 2>&1)"
mbd_restart
sleep 0.5
expect_eq "after a restart: still alone" "RUN PEND" \
    "$(job_stat "$x") $(job_stat "$y")"
bkill "$x" >/dev/null
wait_for job_is "$y" RUN
check "once it ends the other runs" job_is "$y" RUN
clear_all
finish
