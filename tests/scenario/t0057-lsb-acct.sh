#!/bin/bash
# lsb.acct: mbatchd appends LSF's JOB_FINISH record for every job that
# finishes, DONE or EXIT (array elements each, those killed before they
# started too, a killed job), to
# LSB_SHAREDIR/<cluster>/logdir/lsb.acct, once: not again when a
# restarted mbatchd replays lsb.events.  The fields are checked by
# position, as LSF's readers take them.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cluster_start
cd "$T_DIR/jobs"
ACCT="$T_DIR/work/c1/logdir/lsb.acct"
me=$(id -un)
uid=$(id -u)

# One line per record of lsb.acct: the fields named, by LSF's positions.
acct() {
	python3 - "$ACCT" <<'EOP'
import re, sys
tok = re.compile(r'"((?:[^"]|"")*)"|(\S+)')
for line in open(sys.argv[1]):
    f = [m.group(1).replace('""', '"') if m.group(1) is not None
         else m.group(2) for m in tok.finditer(line)]
    i = 22
    nask = int(f[i]); i += 1 + nask
    nex = int(f[i]); ex = f[i + 1:i + 1 + nex]; i += 1 + nex
    status, hf, name, cmd = f[i], f[i + 1], f[i + 2], f[i + 3]
    ut, st = float(f[i + 4]), float(f[i + 5])
    i += 4 + 19
    mail, proj, exitst, maxp, shell, tev, idx = f[i:i + 7]
    print(f[0], f[1], f[3], idx, f[11], f[4], f[12], status, exitst,
          int(f[7]) <= int(f[10]) <= int(f[2]), nex, ex[0] if ex else '-',
          name.replace(' ', '_'), cmd.replace(' ', '_'), hf, '%.2f' % (ut + st), proj,
          f[21] == '%s.%s' % (f[7], f[3]))
EOP
}
# The record of job $1 (element $2, default 0), "-" if none.
rec_of() {
	acct | awk -v j="$1" -v i="${2:-0}" '$3 == j && $4 == i' 
}
nrecs() {
	[ -f "$ACCT" ] && wc -l <"$ACCT" || echo 0
}
has_rec() {
	[ -n "$(rec_of "$1" "${2:-0}")" ]
}

a=$(submit -J okjob -o /dev/null 'echo hello')
check "a job that ends DONE" wait_for job_is "$a" DONE
check "has its record in lsb.acct" wait_for has_rec "$a"
r=$(rec_of "$a")
expect_match "DONE: type, version, job, index, user, uid, queue, status 64, exit 0" \
    "^JOB_FINISH 10\.1 $a 0 $me $uid normal 64 0 True 1 host[ab] okjob " "$r"
expect_match "DONE: the command, host factor, project, job file" \
    " echo_hello [0-9]+\.[0-9] [0-9]+\.[0-9]{2} default True\$" "$r"

b=$(submit -J badjob -o /dev/null 'exit 3')
check "a job that ends EXIT" wait_for job_is "$b" EXIT
check "has its record" wait_for has_rec "$b"
expect_match "EXIT: status 32, the raw wait status of exit 3 (768)" \
    "^JOB_FINISH 10\.1 $b 0 $me $uid normal 32 768 True " "$(rec_of "$b")"

c=$(submit -J "arr[1-3]" -q short -o /dev/null 'exit $((LSB_JOBINDEX - 1))')
check "an array's elements end" wait_for sh -c \
    "[ \"\$(bjobs -noheader -o stat '$c[1]' '$c[2]' '$c[3]' | sort | tr '\n' ' ')\" = 'DONE EXIT EXIT ' ]"
check "each element has its record" wait_for has_rec "$c" 3
expect_match "element 1: DONE in queue short" \
    "^JOB_FINISH 10\.1 $c 1 $me $uid short 64 0 True 1 host[ab] arr\[1\] " \
    "$(rec_of "$c" 1)"
expect_match "element 2: EXIT 1" "^JOB_FINISH 10\.1 $c 2 .* 32 256 " \
    "$(rec_of "$c" 2)"
expect_match "element 3: EXIT 2" "^JOB_FINISH 10\.1 $c 3 .* 32 512 " \
    "$(rec_of "$c" 3)"
expect_eq "no record for the array itself" "" "$(rec_of "$c" 0)"

# CPU time: a job that burns some.
d=$(submit -o /dev/null 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done')
check "a busy job ends DONE" wait_for job_is "$d" DONE
check "has its record" wait_for has_rec "$d"
cpu=$(rec_of "$d" | awk '{print $16}')
check "its CPU time is counted ($cpu s)" awk -v c="$cpu" 'BEGIN { exit !(c > 0) }'

# A killed job.
e=$(submit -o /dev/null 'sleep 100')
check "a job runs" wait_for job_is "$e" RUN
bkill "$e" >/dev/null
check "killed, it ends EXIT" wait_for job_is "$e" EXIT
check "has its record" wait_for has_rec "$e"
expect_match "killed: status 32 and a signal's wait status" \
    "^JOB_FINISH 10\.1 $e 0 $me $uid normal 32 (2|9|15|1[35][0-9]|32[0-9]{3}) True " \
    "$(rec_of "$e")"

# A job killed while pending: it never started, start time 0.
f=$(submit -b 23:59 -o /dev/null 'true')
check "a job waits for its begin time" wait_for job_is "$f" PEND
bkill "$f" >/dev/null
check "killed pending, it ends EXIT" wait_for job_is "$f" EXIT
check "has its record too" wait_for has_rec "$f"
expect_match "killed pending: no execution host" \
    "^JOB_FINISH 10\.1 $f 0 $me $uid normal 32 [0-9]+ False 0 - " "$(rec_of "$f")"

# An array killed while one element runs and three wait in it: a
# record for each, the waiting ones never started.
h=$(submit -J "pa[1-4]%1" -o /dev/null 'sleep 100')
check "the array's first element runs" wait_for job_is "$h[1]" RUN
bkill "$h" >/dev/null
check "killed, its running element ends EXIT" wait_for job_is "$h[1]" EXIT
check "each element has its record" wait_for has_rec "$h" 4
expect_match "the running element: a record with its host" \
    "^JOB_FINISH 10\.1 $h 1 $me $uid normal 32 [0-9]+ True 1 host[ab] pa\[1\] " \
    "$(rec_of "$h" 1)"
for i in 2 3 4; do
	expect_match "waiting element $i: EXIT, never started, its name" \
	    "^JOB_FINISH 10\.1 $h $i $me $uid normal 32 0 False 0 - pa\[$i\] " \
	    "$(rec_of "$h" "$i")"
done
expect_eq "no record for that array itself" "" "$(rec_of "$h" 0)"

n=$(nrecs)
expect_eq "one record per finished job" 12 "$n"
expect_eq "every record ends with its checksum" 12 \
    "$(grep -cE ' @[0-9a-f]{8}$' "$ACCT")"

# A restart replays lsb.events: nothing is written again.
mbd_restart
check "the restarted mbatchd knows the finished jobs" job_is "$a" DONE
expect_eq "no record written twice after a restart" "$n" "$(nrecs)"
g=$(submit -o /dev/null true)
check "a job after the restart ends DONE" wait_for job_is "$g" DONE
check "its record follows the others" wait_for has_rec "$g"
expect_eq "exactly one more record" "$((n + 1))" "$(nrecs)"
finish
