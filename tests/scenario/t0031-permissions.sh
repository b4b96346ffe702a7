#!/bin/bash
# Who may do what, as LSF has it: users control their own jobs; a
# queue's ADMINISTRATORS control every job of that queue and may open,
# close and (in)activate it, but nothing else; USERS limits who may
# submit to a queue; cluster administrators may do everything.
. "$(dirname "$0")/lib.sh"

need_root

cluster_init 3
cat >"$LSB_CONF/lsb.queues" <<EOT
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
ADMINISTRATORS = nobody
End Queue

Begin Queue
QUEUE_NAME = short
PRIORITY = 50
End Queue

Begin Queue
QUEUE_NAME = private
PRIORITY = 40
USERS = root
End Queue
EOT
cluster_start
cd "$T_DIR/jobs"

a=$(submit -o /dev/null sleep 60)
b=$(submit -q short -o /dev/null sleep 60)
check "root's jobs run" wait_for sh -c \
    "[ \$(bjobs -noheader -r -o jobid | wc -l) -eq 2 ]"

# The queue administrator, on a job of its queue and of another queue.
out=$(as_nobody bstop "$a" 2>&1)
expect_eq "normal's administrator stops root's job there" \
    "Job <$a> is being stopped" "$out"
check "which is stopped" wait_for job_is "$a" USUSP
out=$(as_nobody bresume "$a" 2>&1)
expect_eq "and resumes it" "Job <$a> is being resumed" "$out"
check "which runs again" wait_for job_is "$a" RUN
out=$(as_nobody bstop "$b" 2>&1)
expect_eq "but may not touch a job of another queue" \
    "Job <$b>: User permission denied" "$out"
check "which keeps running" job_is "$b" RUN
out=$(as_nobody bkill "$a" 2>&1)
expect_eq "it kills root's job in its queue" \
    "Job <$a> is being terminated" "$out"
check "which ends" wait_for job_is "$a" EXIT

out=$(as_nobody badmin qclose normal 2>&1)
expect_eq "it closes its queue" "Queue <normal> is closed" "$out"
expect_match "bqueues shows it" '^normal +30 +Closed:Active' "$(bqueues normal)"
out=$(as_nobody badmin qopen normal 2>&1)
expect_eq "and opens it" "Queue <normal> is opened" "$out"
out=$(as_nobody badmin qclose short 2>&1)
expect_eq "but not another queue" "short: User permission denied" "$out"
expect_match "which stays open" '^short +50 +Open:Active' "$(bqueues short)"
out=$(as_nobody badmin hclose hostb 2>&1)
expect_eq "nor a host" "badmin: User permission denied" "$out"
out=$(as_nobody badmin reconfig -f 2>&1)
rc=$?
check "nor reconfigure" test "$rc" -ne 0
expect_match "badmin says why" 'User permission denied' "$out"

# USERS: who may submit.
out=$(as_nobody bsub -q private -o /dev/null true 2>&1)
expect_match "a queue's USERS keep others out" \
    "User cannot use the queue" "$out"
out=$(as_nobody bsub -q short -o /dev/null sleep 60 2>&1)
expect_match "an ordinary user submits elsewhere" \
    '^Job <[0-9]+> is submitted to queue <short>\.$' "$out"
c=$(echo "$out" | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
check "the user's job runs" wait_for job_is "$c" RUN
expect_eq "as the user" nobody "$(bjobs -noheader -o user "$c")"

# A cluster administrator (root) controls the user's job anywhere.
out=$(bkill "$c" 2>&1)
expect_eq "root kills the user's job" "Job <$c> is being terminated" "$out"
bkill "$b" >/dev/null 2>&1

# The environment a job carries (secrets and all) is for its owner.
secret=$(SECRET_TOKEN=s3cr3t-$$ submit -o /dev/null sleep 60)
check "the job with a secret runs" wait_for job_is "$secret" RUN
out=$(as_nobody bjobs -l "$secret" 2>&1)
check "another user's bjobs -l does not show it" \
    sh -c "! echo \"\$1\" | grep -q s3cr3t" _ "$out"
check "lsb.envs is the cluster's alone" \
    test "$(stat -c %a "$T_DIR/work/c1/logdir/lsb.envs")" = 600
bkill "$secret" >/dev/null 2>&1

# Without LSF_ROOT_REX root's jobs are refused (they would run as root).
sed -i '/^LSF_ROOT_REX=/d' "$LSF_CONF/lsf.conf"
badmin reconfig -f >/dev/null 2>&1
out=$(bsub -o /dev/null true 2>&1)
expect_match "root may not submit without LSF_ROOT_REX" \
    "^bsub: root's jobs are not run: LSF_ROOT_REX is not set\$" "$out"
expect_match "as LSF says it" "^User permission denied\. Job not submitted\.\$" \
    "$out"
out=$(as_nobody bsub -o /dev/null true 2>&1)
expect_match "while a user still may" '^Job <[0-9]+> is submitted' "$out"
finish
