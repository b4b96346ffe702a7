#!/bin/bash
# A host running an exclusive job (bsub -x) shows lockU in lsload, as in
# LSF, and closed_Excl (not closed_Lock) in bhosts -w; once the job ends
# it is ok again, unless an administrator locked it meanwhile.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >>"$LSB_CONF/lsb.queues" <<'EOF2'

Begin Queue
QUEUE_NAME = excl
PRIORITY = 40
EXCLUSIVE = Y
End Queue
EOF2
cluster_start
cd "$T_DIR/jobs"

load_status() {
	lsload "$1" 2>/dev/null | awk 'NR == 2 { print $2 }'
}
host_status() {
	bhosts -w "$1" 2>/dev/null | awk 'NR == 2 { print $2 }'
}
load_is() { [ "$(load_status "$1")" = "$2" ]; }

expect_eq "hostb is ok before" ok "$(load_status hostb)"
job=$(submit -x -q excl -m hostb -o /dev/null sleep 60)
wait_for job_is "$job" RUN
expect_eq "the exclusive job runs" RUN "$(job_stat "$job")"
wait_for load_is hostb lockU
expect_eq "lsload shows its host lockU" lockU "$(load_status hostb)"
expect_eq "the other host stays ok" ok "$(load_status hosta)"
expect_eq "bhosts -w says closed_Excl" closed_Excl "$(host_status hostb)"

bkill "$job" >/dev/null
wait_for job_is "$job" EXIT
wait_for load_is hostb ok
expect_eq "ok again once the job ends" ok "$(load_status hostb)"
expect_eq "bhosts -w ok again" ok "$(host_status hostb)"

# An administrator's lock outlives the exclusive job.
job=$(submit -x -q excl -m hostb -o /dev/null sleep 60)
wait_for job_is "$job" RUN
wait_for load_is hostb lockU
LSF_LOCAL_HOST=hostb lsadmin limlock >/dev/null
bkill "$job" >/dev/null
wait_for job_is "$job" EXIT
wait_for sh -c "bhosts -w hostb | grep -q closed_Lock"
expect_eq "still lockU: locked by the administrator" lockU \
    "$(load_status hostb)"
expect_eq "bhosts -w says closed_Lock" closed_Lock "$(host_status hostb)"
LSF_LOCAL_HOST=hostb lsadmin limunlock >/dev/null
wait_for load_is hostb ok
expect_eq "ok once unlocked" ok "$(load_status hostb)"

finish
