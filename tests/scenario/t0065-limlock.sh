#!/bin/bash
# lsadmin limlock and limunlock: the local host (LSF_LOCAL_HOST here)
# shows lockU in lsload and closed_Lock in bhosts -w, its running batch
# jobs are suspended (SSUSP), it gets no new job ("Host is locked" in
# bjobs -p), and all goes on once unlocked or once the time given with
# -l is up.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cluster_start
cd "$T_DIR/jobs"

load_status() {
	lsload "$1" 2>/dev/null | awk 'NR == 2 { print $2 }'
}
host_status() {
	bhosts -w "$1" 2>/dev/null | awk 'NR == 2 { print $2 }'
}
load_is() { [ "$(load_status "$1")" = "$2" ]; }
host_is() { [ "$(host_status "$1")" = "$2" ]; }

running=$(submit -m hostb -o /dev/null sleep 60)
wait_for job_is "$running" RUN
out=$(LSF_LOCAL_HOST=hostb lsadmin limlock 2>&1)
expect_eq "limlock exit status" 0 "$?"
expect_eq "limlock message" "Host is locked" "$out"
wait_for load_is hostb lockU
expect_eq "lsload shows lockU" lockU "$(load_status hostb)"
expect_eq "the other host stays ok" ok "$(load_status hosta)"
wait_for host_is hostb closed_Lock
expect_eq "bhosts -w shows closed_Lock" closed_Lock "$(host_status hostb)"
expect_match "bhosts shows closed" '^hostb +closed ' "$(bhosts hostb)"
wait_for job_is "$running" SSUSP
expect_eq "the running job is suspended" SSUSP "$(job_stat "$running")"
expect_match "and says why" \
    'The execution host is locked by LSF administrator now' \
    "$(bjobs -s "$running")"

# A job for hostb only waits while the host is locked.
job=$(submit -m hostb -o /dev/null sleep 30)
wait_for sh -c "bjobs -p $job | grep -q 'Host is locked'"
expect_match "bjobs -p says why" '^ Host is locked: 1 host;$' \
    "$(bjobs -p "$job")"
expect_eq "the job pends" PEND "$(job_stat "$job")"

out=$(LSF_LOCAL_HOST=hostb lsadmin limunlock 2>&1)
expect_eq "limunlock exit status" 0 "$?"
expect_eq "limunlock message" "Host is unlocked" "$out"
wait_for load_is hostb ok
expect_eq "lsload shows ok again" ok "$(load_status hostb)"
wait_for job_is "$job" RUN
expect_eq "the job starts once unlocked" RUN "$(job_stat "$job")"
wait_for job_is "$running" RUN
expect_eq "the suspended job resumes" RUN "$(job_stat "$running")"
bkill "$job" "$running" >/dev/null

# -l: a lock that ends by itself.
out=$(LSF_LOCAL_HOST=hosta lsadmin limlock -l 2 2>&1)
expect_eq "limlock -l message" "Host is locked" "$out"
wait_for load_is hosta lockU
expect_eq "locked for a while" lockU "$(load_status hosta)"
wait_for load_is hosta ok
expect_eq "the lock expires" ok "$(load_status hosta)"

# Bad input.
err=$(LSF_LOCAL_HOST=hosta lsadmin limlock -l soon 2>&1)
expect_eq "bad time exit status" 255 "$?"
expect_eq "bad time message" "lsadmin: soon: Bad time specification" "$err"
LSF_LOCAL_HOST=hosta lsadmin limunlock extra >/dev/null 2>&1
expect_eq "limunlock takes no operand" 255 "$?"

# Only root and the cluster administrators may lock a host.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	err=$(LSF_LOCAL_HOST=hosta as_nobody lsadmin limlock 2>&1)
	expect_eq "limlock by a user exit status" 255 "$?"
	expect_eq "limlock by a user" "lsadmin: User permission denied" "$err"
	expect_eq "and the host stays ok" ok "$(load_status hosta)"
fi

finish
