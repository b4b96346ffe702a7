#!/bin/bash
# Job files (bsub -yaml, bsub -json) and job packs (bsub -pack).  A YAML
# and a JSON file giving every option bsub takes from a job file, by name
# and by alias, give the job what the same options give on the command
# line (bjobs -o and -l); the command line wins over the file and the
# file over #BSUB lines; a bad key is refused naming the file, the line
# and the key.  A pack of 6 lines, one refused by bsub and one by
# mbatchd, gives 4 jobs, an error naming each bad line, and one request:
# mbatchd logs the pack once, lsb.events grows by the 4 JOB_NEW records,
# and they go in one write.
. "$(dirname "$0")/lib.sh"

cluster_init 1 LSB_MAX_PACK_JOBS=100 LSB_PACK_SKIP_ERROR=Y
cat >"$LSB_CONF/lsb.applications" <<EOF
Begin Application
NAME = fluent
End Application
EOF
cat >>"$LSB_CONF/lsb.users" <<EOF
Begin UserGroup
GROUP_NAME GROUP_MEMBER
grp1       (root)
End UserGroup
EOF
sed -i 's/^End Parameters/MAX_USER_PRIORITY = 100\n&/' "$LSB_CONF/lsb.params"
sed -i "s/^QUEUE_NAME = .*/&\\nEXCLUSIVE = Y/" "$LSB_CONF/lsb.queues"
cluster_start
cd "$T_DIR/jobs"
touch in.txt
dep=$(submit -H -o /dev/null true)

o() { bjobs -noheader -o "$1" "$2"; }

# Every key: names in YAML, flags as null, "" and empty.
cat >job.yaml <<EOF
io:
    o: out.%J
    e: err.%J
    inputFile: in.txt
    cwd: $T_DIR/jobs
    outputDir: $T_DIR/jobs/od
limit:
    coreLimit: 1000
    cpuTimeLimit: 10
    D: 100000
    F: 100000
    M: 200000
    p: 50
    S: 8192
    v: 300000
    W: 30
resource:
    n: 1,2
    R: select[type==any]
    m: hosta
properties:
    queueName: short
    jobName: yjob
    P: proj1
    appName: fluent
    E: /bin/true
    Ep: /bin/true
    env: all
    k: ckdir 5
    L: /bin/sh
    rerun: null
    sp: 10
schedule:
    hold: ""
    userGroup: grp1
    w: ended($dep)
    x:
    b: 2:00
    t: 3:00
notify:
    mailUser: someone@example.com
    B: ~
    N:
command: sleep 100
EOF
y=$(submit -yaml job.yaml)
check "bsub -yaml submits" test -n "$y"
# The same options on the command line: the job must be the same.
c=$(submit -o out.%J -e err.%J -i in.txt -cwd "$T_DIR/jobs" \
    -outdir "$T_DIR/jobs/od" -C 1000 -c 10 -D 100000 -F 100000 -M 200000 \
    -p 50 -S 8192 -v 300000 -W 30 -n 1,2 -R "select[type==any]" -m hosta \
    -q short -J yjob -P proj1 -app fluent -E /bin/true -Ep /bin/true \
    -env all -k "ckdir 5" -L /bin/sh -r -sp 10 -H -G grp1 -w "ended($dep)" \
    -x -b 2:00 -t 3:00 -u someone@example.com -B -N sleep 100)
fields='queue job_name proj_name app user_group mail_user output_file
    error_file input_file min_req_proc max_req_proc stat dependency command
    job_priority memlimit cpulimit runtimelimit corelimit stacklimit
    swaplimit res_req sub_cwd'
fields=$(echo $fields)
expect_eq "-yaml: bjobs -o of every field as from the command line" \
    "$(o "$fields delimiter='|'" "$c")" "$(o "$fields delimiter='|'" "$y")"
# bjobs -l, the job ID and submission time aside, wrapping and all.
norm() {
	bjobs -l "$1" | tr -d ' \n' | sed -e "s/<$1>/<ID>/g" -e "s,/$1>,/ID>,g" \
	    -e 's/[A-Z][a-z][a-z][A-Z][a-z][a-z][0-9]*[0-9][0-9]:[0-9:]*:Submitted/Submitted/'
}
expect_eq "-yaml: bjobs -l as from the command line" "$(norm "$c")" \
    "$(norm "$y")"
expect_eq "-yaml: queue, name, project, app, group, mail" \
    "short yjob proj1 fluent grp1 someone@example.com" \
    "$(o 'queue job_name proj_name app user_group mail_user' "$y")"
expect_eq "-yaml: files, held, dependency, command" \
    "out.%J|err.%J|$T_DIR/jobs/in.txt|PSUSP|ended($dep)|sleep 100" \
    "$(o "output_file error_file input_file stat dependency command delimiter='|'" "$y")"
long=$(bjobs -l "$y" | tr -d ' \n')
for pat in Re-runnable ExclusiveExecution 'select\[type==any\]' \
    'SpecifiedHosts<hosta>' 'CPULIMIT10.0min' 'RUNLIMIT30.0min' \
    'Pre-executeCommand</bin/true>' 'LoginShell</bin/sh>' \
    'Checkpointperiod5min' 'Notifywhenjobbegins/ends' \
    'SpecifiedStartTime' 'SpecifiedTerminationTime' ; do
	expect_match "-yaml: bjobs -l has $pat" "$pat" "$long"
done

# JSON, with aliases and numbers, against the command line too.
cat >job.json <<EOF
{
  "io": { "outputOverwrite": "jout", "errorOverwrite": "jerr" },
  "limit": { "memLimit": 100000, "runtimeLimit": "1:00" },
  "resource": { "numTasks": "2", "resReq": "select[type==any]",
      "machines": "hosta" },
  "properties": { "q": "normal", "J": "jjob", "projectName": "proj2",
      "rerun": null },
  "schedule": { "H": "", "exclusive": null },
  "notify": { "u": "x@example.com" },
  "command": "sleep 200"
}
EOF
j=$(submit -json job.json)
check "bsub -json submits" test -n "$j"
c=$(submit -oo jout -eo jerr -M 100000 -W 1:00 -n 2 -R "select[type==any]" \
    -m hosta -q normal -J jjob -P proj2 -r -H -x -u x@example.com sleep 200)
expect_eq "-json: bjobs -o of every field as from the command line" \
    "$(o "$fields delimiter='|'" "$c")" "$(o "$fields delimiter='|'" "$j")"
expect_eq "-json: bjobs -l as from the command line" "$(norm "$c")" \
    "$(norm "$j")"
expect_eq "-json: queue, name, project, mail, files, slots" \
    "normal jjob proj2 x@example.com jout jerr 2" \
    "$(o 'queue job_name proj_name mail_user output_file error_file min_req_proc' "$j")"

# The file's command is the job's as written, quotes and all.
cat >cmd.json <<'EOF'
{ "schedule": { "hold": null }, "command": "echo 'a  b' | tr a c # x" }
EOF
k=$(submit -json cmd.json)
expect_eq "the file's command as written" "echo 'a  b' | tr a c # x" \
    "$(o command "$k")"

# Precedence: command line over the file over #BSUB lines.
cat >script.sh <<'EOF'
#!/bin/sh
#BSUB -J fromscript
#BSUB -P scriptproj
#BSUB -G grp1
sleep 300
EOF
cat >prec.yaml <<EOF
properties:
    jobName: fromfile
    queueName: short
    projectName: fileproj
schedule:
    hold:
command: script.sh
EOF
p=$(submit -yaml prec.yaml -q normal)
expect_eq "the command line wins, the file over #BSUB, #BSUB the rest" \
    "normal fromfile fileproj grp1" \
    "$(o 'queue job_name proj_name user_group' "$p")"
p2=$(submit -yaml prec.yaml -J fromcl)
expect_eq "-J on the command line over the file's jobName" fromcl \
    "$(o job_name "$p2")"

# Errors name the file, the line and the key.
printf 'properties:\n    jobName: a\n    bogus: 1\ncommand: true\n' >bad1.yaml
expect_match "unknown key: file:line: key" \
    'bad1.yaml:3: bogus: unknown key' "$(bsub -yaml bad1.yaml 2>&1)"
printf 'io:\n    queueName: short\ncommand: true\n' >bad2.yaml
expect_match "key in the wrong category" \
    'bad2.yaml:2: queueName: belongs under properties, not io' \
    "$(bsub -yaml bad2.yaml 2>&1)"
printf '{\n "properties": {\n  "q": ["a", "b"]\n },\n "command": "true"\n}\n' \
    >bad3.json
expect_match "a list where a string is wanted" \
    'bad3.json:3: q: a string is needed, not a list' \
    "$(bsub -json bad3.json 2>&1)"
printf 'properties:\n    q: short\n    queueName: normal\ncommand: true\n' \
    >bad4.yaml
expect_match "the same option twice (name and alias)" \
    'bad4.yaml:3: queueName: -q given again \(line 2\)' \
    "$(bsub -yaml bad4.yaml 2>&1)"
printf 'limit:\n    W: soon\ncommand: true\n' >bad5.yaml
expect_match "a bad value through bsub's own checks" \
    'bad5.yaml:2: W: soon: Bad time specification' \
    "$(bsub -yaml bad5.yaml 2>&1)"
printf '{ "io": { "o": "x" }, }\n' >bad6.json
expect_match "JSON syntax: jansson's line" 'bad6.json:1: ' \
    "$(bsub -json bad6.json 2>&1)"

# A pack of 6 lines, the 4th bad; comments and blank lines skipped.
ev=$(find "$T_DIR" -name lsb.events | head -1)
before=$(grep -c '^"JOB_NEW"' "$ev")
mlog="$T_DIR/log/mbatchd.log.hosta"
lines_before=$(wc -l <"$mlog")
cat >pack.txt <<'EOF'
# a job pack
-q short -J p1 -H sleep 10
-J "p 2" -H -o /dev/null echo 'two words'

-J p3 -H -W nonsense true
-J p4 -H -q nosuchqueue true
-J p5 -H -R "select[type==any]" true
-J p6 -H true
EOF
out=$(bsub -pack pack.txt 2>err.txt)
rc=$?
expect_eq "-pack: one line per submitted job" 4 \
    "$(echo "$out" | grep -c '^Job <[0-9]*> is submitted to')"
expect_match "-pack: the bad option names its line" \
    'pack.txt: line 5: nonsense: Bad time specification' "$(cat err.txt)"
expect_match "-pack: mbatchd's refusal names its line" \
    'pack.txt: line 6: nosuchqueue: ' "$(cat err.txt)"
expect_eq "-pack: exits 255 when a line failed" 255 "$rc"
expect_eq "-pack: the queue of the first" "short" \
    "$(o queue "$(bjobs -noheader -o jobid -J p1)")"
expect_eq "-pack: quoting kept" "p 2|echo two words" \
    "$(bjobs -noheader -o 'job_name command' -delimiter='|' -J 'p 2' 2>/dev/null ||
      bjobs -noheader -o "job_name command delimiter='|'" -J 'p 2')"
after=$(grep -c '^"JOB_NEW"' "$ev")
expect_eq "-pack: lsb.events grew by the 4 JOB_NEW records" 4 \
    $((after - before))
new=$(tail -n +$((lines_before + 1)) "$mlog")
expect_eq "-pack: one request to mbatchd" 1 \
    "$(echo "$new" | grep -c 'job pack from uid')"
expect_match "-pack: mbatchd took it in one turn" \
    'job pack from uid [0-9]+: 4 of 5 submitted' "$new"
expect_eq "-pack: its 4 records in one write of lsb.events" \
    "lsb.events: 4 records" \
    "$(echo "$new" | grep -A3 'job pack from uid' |
      grep -o 'lsb.events: [0-9]* records' | head -1)"

# LSB_PACK_SKIP_ERROR=N (LSF's default): nothing after the first failure.
cp -r "$LSF_ENVDIR" "$T_DIR/conf-n"
sed -i 's/^LSB_PACK_SKIP_ERROR=.*/LSB_PACK_SKIP_ERROR=N/' \
    "$T_DIR/conf-n/lsf.conf"
out=$(LSF_ENVDIR="$T_DIR/conf-n" bsub -pack pack.txt 2>err2.txt)
expect_eq "-pack, skip N: the 2 lines before the bad one go in" 2 \
    "$(echo "$out" | grep -c '^Job <[0-9]*> is submitted to')"
expect_eq "-pack, skip N: one error, for line 5" \
    "bsub: pack.txt: line 5: nonsense: Bad time specification. Job not submitted." \
    "$(cat err2.txt)"
# LSB_MAX_PACK_JOBS unset or 0: job packs are off.
cp -r "$LSF_ENVDIR" "$T_DIR/conf-0"
sed -i '/^LSB_MAX_PACK_JOBS=/d' "$T_DIR/conf-0/lsf.conf"
n0=$(grep -c '^"JOB_NEW"' "$ev")
out=$(LSF_ENVDIR="$T_DIR/conf-0" bsub -pack pack.txt 2>&1)
expect_match "-pack off without LSB_MAX_PACK_JOBS" \
    'job packs are not enabled' "$out"
expect_eq "-pack off: nothing submitted" "$n0" "$(grep -c '^"JOB_NEW"' "$ev")"
expect_match "-pack takes no other option" "Job not submitted" \
    "$(bsub -q short -pack pack.txt 2>&1)"
printf -- '-K true\n' >packk.txt
expect_match "-pack: -K refused on a line" \
    'packk.txt: line 1: -K cannot be used in a job pack' \
    "$(bsub -pack packk.txt 2>&1)"

finish
