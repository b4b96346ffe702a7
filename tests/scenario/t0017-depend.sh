#!/bin/bash
# Dependencies (bsub -w) by ID, by name and on arrays, conditions that can
# never be met, the begin time (-b) and user priority (-sp), all across
# an mbatchd restart.
. "$(dirname "$0")/lib.sh"

cluster_init 2
params MAX_USER_PRIORITY=100
cluster_start
cd "$T_DIR/jobs"

jid() { sed 's/Job <\([0-9]*\)>.*/\1/'; }
reason() { bjobs -p "$1" | sed -n 3p; }

cat >first.sh <<'EOT'
while [ ! -e go.a ]; do sleep 0.1; done
exit 3
EOT
a=$(bsub -J first sh first.sh | jid)
d1=$(bsub -w "done($a)" true | jid)
d2=$(bsub -w "exit($a, 3)" true | jid)
d3=$(bsub -w "ended(first) && !done($a)" true | jid)
d4=$(bsub -w "exit($a, == 4) || started($a)" true | jid)
wait_for job_is "$a" RUN
wait_for job_is "$d4" DONE
check "started() lets a job go once the other runs" job_is "$d4" DONE
expect_eq "not yet met" " Job dependency condition not satisfied;" \
    "$(reason "$d1")"
expect_eq "bjobs -o dependency" "done($a)" \
    "$(bjobs -noheader -o dependency "$d1")"
mbd_restart
expect_eq "still waiting after a restart" PEND "$(job_stat "$d2")"
touch go.a
wait_for job_is "$a" EXIT
wait_for job_is "$d2" DONE
check "exit(id, 3) met" job_is "$d2" DONE
wait_for job_is "$d3" DONE
check "ended(name) && !done(id) met" job_is "$d3" DONE
expect_eq "done() of a job that exited can never be met" \
    " Dependency condition invalid or never satisfied;" "$(reason "$d1")"
mbd_restart
expect_eq "still never, after a restart" \
    " Dependency condition invalid or never satisfied;" "$(reason "$d1")"
bkill "$d1" >/dev/null

# Arrays: numdone and a single element.
cat >elem.sh <<'EOT'
while [ ! -e go.$LSB_JOBINDEX ]; do sleep 0.1; done
EOT
arr=$(bsub -J "arr[1-4]" sh elem.sh | jid)
n2=$(bsub -w "numdone($arr, >= 2)" true | jid)
e3=$(bsub -w "done($arr[3])" true | jid)
big=$(bsub -w "numdone($arr, > 4)" true | jid)
wait_for sh -c "bjobs -p $big | grep -q 'never satisfied'"
expect_eq "more elements than the array has: never, while it still runs" \
    " Dependency condition invalid or never satisfied;" "$(reason "$big")"
bkill "$big" >/dev/null
all=$(bsub -w "done($arr)" true | jid)
touch go.1
wait_for job_is "$arr[1]" DONE
expect_eq "numdone not yet" PEND "$(job_stat "$n2")"
touch go.3
wait_for job_is "$n2" DONE
check "numdone(>= 2) met" job_is "$n2" DONE
wait_for job_is "$e3" DONE
check "done(element) met" job_is "$e3" DONE
expect_eq "done(array) waits for every element" PEND "$(job_stat "$all")"
touch go.2 go.4
wait_for job_is "$all" DONE
check "done(array) met" job_is "$all" DONE

# The other counters, a name with a wildcard, parentheses.
cat >cnt.sh <<'EOT'
while [ ! -e g.$LSB_JOBINDEX ]; do sleep 0.1; done
exit $(cat g.$LSB_JOBINDEX)
EOT
c=$(bsub -J "cnt[1-4]%2" sh cnt.sh | jid)
wait_for sh -c "[ \$(bjobs -noheader -r $c 2>/dev/null | wc -l) -eq 2 ]"
nr=$(bsub -w "numrun($c, == 2) && numpend($c, == 2)" true | jid)
ne=$(bsub -w "numexit(cn*, >= 1)" true | jid)
nd=$(bsub -w "numended($c, == 2) && (exit($c[1], 5) || done($c[1]))" \
    true | jid)
ns=$(bsub -w "numstart($c, == 0) && !numdone($c, < 3)" true | jid)
wait_for job_is "$nr" DONE
check "numrun() && numpend() met" job_is "$nr" DONE
expect_eq "numexit, numended, numstart not yet" "PEND PEND PEND" \
    "$(job_stat "$ne") $(job_stat "$nd") $(job_stat "$ns")"
echo 5 >g.1
wait_for job_is "$ne" DONE
check "numexit(name*) met" job_is "$ne" DONE
expect_eq "numended(== 2) not yet" PEND "$(job_stat "$nd")"
echo 0 >g.2
wait_for job_is "$nd" DONE
check "numended() && (exit(elem, 5) || done(elem)) met" job_is "$nd" DONE
expect_eq "numstart(== 0) not yet" PEND "$(job_stat "$ns")"
echo 0 >g.3
echo 0 >g.4
wait_for job_is "$ns" DONE
check "numstart(== 0) && !numdone(< 3) met" job_is "$ns" DONE

# Bad conditions are refused with LSF's messages.
expect_eq "syntax" "done(: Dependency condition syntax error. Job not submitted." \
    "$(bsub -w 'done(' true 2>&1 | tail -n 1)"
expect_eq "no such job" \
    "done(999999): No matching job found. Job not submitted." \
    "$(bsub -w 'done(999999)' true 2>&1 | tail -n 1)"
expect_eq "no such name" \
    "ended(nosuchname): No matching job found. Job not submitted." \
    "$(bsub -w 'ended(nosuchname)' true 2>&1 | tail -n 1)"

# -b: a start time a minute or more ahead keeps the job pending.
later=$(date -d '+2 min' +%H:%M)
b=$(bsub -b "$later" true | jid)
expect_eq "begin time" " The job has a specified start time;" "$(reason "$b")"
mbd_restart
expect_eq "begin time after a restart" " The job has a specified start time;" \
    "$(reason "$b")"
bkill "$b" >/dev/null

# -sp: a higher user priority goes first among pending jobs.
p1=$(bsub -H -sp 10 true | jid)
p2=$(bsub -H true | jid)
p3=$(bsub -H -sp 90 true | jid)
expect_eq "pending order by -sp, then FCFS" "$p3 $p2 $p1" \
    "$(bjobs -noheader -p -o jobid | xargs)"
mbd_restart
expect_eq "the same order after a restart" "$p3 $p2 $p1" \
    "$(bjobs -noheader -p -o jobid | xargs)"
expect_match "-sp above MAX_USER_PRIORITY" "Job not submitted" \
    "$(bsub -sp 101 true 2>&1)"
finish
