#!/bin/bash
# bsub in all its forms, the job's environment, output files, exit codes
# and the job report, through a real three-host cluster.
. "$(dirname "$0")/lib.sh"

cluster_init 3
cluster_start
cd "$T_DIR/jobs"

# stdout is exactly one line, in LSF's words.
out=$(bsub -o out.%J echo hello world)
expect_match "bsub prints the job line" \
    '^Job <[0-9]+> is submitted to default queue <normal>\.$' "$out"
expect_eq "bsub prints one line" 1 "$(printf '%s\n' "$out" | wc -l)"
id=$(echo "$out" | sed 's/Job <\([0-9]*\)>.*/\1/')
wait_for job_is "$id" DONE
check "job with args runs to DONE" job_is "$id" DONE
expect_eq "output file has the output" "hello world" "$(head -n 1 "out.$id")"
report=$(cat "out.$id")
expect_match "report subject" "^Subject: Job $id: <echo hello world> in cluster <c1> Done" "$report"
# Snakemake's LSF profile reads the line two above the summary.
expect_eq "two lines above the summary" "Successfully completed." \
    "$(grep -B2 '^Resource usage summary:' "out.$id" | head -n 1)"
expect_match "the report names the working directory" \
    "^<$T_DIR/jobs> was used as the working directory\.$" "$report"
# With -cwd, a relative -o is in that directory, report and all.
mkdir -p sub
id=$(submit -cwd sub -o out.%J pwd)
wait_for job_is "$id" DONE
expect_eq "-cwd: the job's output is in it" "$T_DIR/jobs/sub" \
    "$(head -n 1 "sub/out.$id")"
expect_match "and so is its report, which names it" \
    "^<$T_DIR/jobs/sub> was used as the working directory\.$" \
    "$(cat "sub/out.$id")"

out=$(bsub -q short -o out.%J "exit 3")
expect_match "-q names the queue, not the default" \
    '^Job <[0-9]+> is submitted to queue <short>\.$' "$out"
id=$(echo "$out" | sed 's/Job <\([0-9]*\)>.*/\1/')
wait_for job_is "$id" EXIT
expect_eq "exit code of a failing job" "3" "$(bjobs -noheader -o exit_code "$id")"
expect_eq "report of a failing job" "Exited with exit code 3." \
    "$(grep -B2 '^Resource usage summary:' "out.$id" | head -n 1)"

# bsub < script: #BSUB lines, its own interpreter (bash syntax), -o/-e.
cat >script.sh <<'EOF'
#!/bin/bash
#BSUB -J scripted
#BSUB -o script.%J.out
#BSUB -e script.%J.err
#BSUB -q short
#BSUB -n 2
#BSUB -R "span[hosts=1]"
# a comment after the options
arr=(one two three)
echo "words ${#arr[@]} $LSB_JOBNAME $LSB_QUEUE $LSB_DJOB_NUMPROC"
echo "hosts $LSB_HOSTS"
echo to-stderr >&2
EOF
id=$(submit <script.sh)
expect_match "bsub < script gives an ID" '^[0-9]+$' "$id"
wait_for job_is "$id" DONE
expect_eq "script ran under bash with #BSUB options" \
    "words 3 scripted short 2" "$(head -n 1 "script.$id.out")"
expect_match "two slots on one host" '^hosts (host[a-c]) \1$' \
    "$(sed -n 2p "script.$id.out")"
expect_eq "stderr to the -e file" "to-stderr" "$(cat "script.$id.err")"

# The command line wins over #BSUB.
id=$(submit -J override -o over.%J <script.sh)
wait_for job_is "$id" DONE
expect_match "command line overrides #BSUB" '^words 3 override short 2$' \
    "$(head -n 1 "over.$id")"

# bsub file: a script that is not executable runs from its text.
printf '#!/bin/sh\n#BSUB -o plain.%%J\necho from-file $LSB_JOBINDEX\n' >plain.sh
chmod 644 plain.sh
id=$(submit plain.sh)
wait_for job_is "$id" DONE
expect_eq "non-executable script with #BSUB" "from-file 0" "$(head -n 1 "plain.$id")"

# An executable one runs by its path, with its arguments.
printf '#!/bin/sh\necho exe "$@"\n' >exe.sh
chmod 755 exe.sh
id=$(submit -o exe.%J ./exe.sh a b)
wait_for job_is "$id" DONE
expect_eq "executable with arguments" "exe a b" "$(head -n 1 "exe.$id")"

# The environment: the submitter's, plus LSF's variables.
export MY_VAR="some value"
id=$(submit -o env.%J env)
wait_for job_is "$id" DONE
envout=$(cat "env.$id")
expect_match "submitter's variable" '^MY_VAR=some value$' "$envout"
expect_match "LSB_JOBID" "^LSB_JOBID=$id\$" "$envout"
expect_match "LSB_JOBINDEX is 0" '^LSB_JOBINDEX=0$' "$envout"
expect_match "LS_SUBCWD" "^LS_SUBCWD=$T_DIR/jobs\$" "$envout"
expect_match "LSB_MCPU_HOSTS" '^LSB_MCPU_HOSTS=host[a-c] 1$' "$envout"
# Environments may hold secrets: they go to the private lsb.envs, never
# to lsb.events, which users (and their tools) read.
logdir="$T_DIR/work/c1/logdir"
expect_eq "lsb.envs is private" 600 "$(stat -c %a "$logdir/lsb.envs")"
check "the environment is in lsb.envs" grep -q 'MY_VAR=some value' "$logdir/lsb.envs"
check "and not in lsb.events" sh -c "! grep -q 'MY_VAR=' $logdir/lsb.events"
expect_eq "lsb.events stays readable" 644 "$(stat -c %a "$logdir/lsb.events")"
id=$(submit -o env2.%J -env "none, ONLY=1" env)
wait_for job_is "$id" DONE
check "-env none drops the rest" sh -c "! grep -q '^MY_VAR=' env2.$id"
check "-env VAR=value sets it" grep -q '^ONLY=1$' "env2.$id"

# A job starts with every signal at its default and none blocked, as
# from a login shell, whatever sbatchd and its supervisor ignore: run
# directly (plain words) and through /bin/sh.
id=$(submit -o sig.%J grep Sig /proc/self/status)
echo "grep -E '^Sig(Blk|Ign)' /proc/self/status" >sigs.sh
id2=$(submit -o sig2.%J sh sigs.sh)
wait_for job_is "$id" DONE
wait_for job_is "$id2" DONE
expect_eq "nothing ignored or blocked in a job" \
    "SigBlk: 0000000000000000 SigIgn: 0000000000000000" \
    "$(grep -E '^Sig(Blk|Ign)' "sig.$id" | xargs)"
expect_eq "nor in a job's shell" \
    "SigBlk: 0000000000000000 SigIgn: 0000000000000000" \
    "$(grep -E '^Sig(Blk|Ign)' "sig2.$id2" | xargs)"
id3=$(submit -o /dev/null -Ep "grep -E '^Sig(Blk|Ign)' /proc/self/status >post.sig" true)
wait_for test -s post.sig
expect_eq "nor in its post-exec" \
    "SigBlk: 0000000000000000 SigIgn: 0000000000000000" \
    "$(xargs <post.sig)"

# -cwd, and a cwd that does not exist on the host: /tmp.
mkdir -p sub
id=$(submit -cwd sub -o "$T_DIR/jobs/cwd.%J" pwd)
wait_for job_is "$id" DONE
expect_eq "-cwd" "$T_DIR/jobs/sub" "$(head -n 1 "cwd.$id")"
id=$(submit -cwd "$T_DIR/jobs/no/such/dir" -o "$T_DIR/jobs/gone.%J" pwd)
wait_for job_is "$id" DONE
expect_eq "a cwd that does not exist runs in /tmp" "/tmp" "$(head -n 1 "gone.$id")"

# -oo overwrites, -o appends.
echo old >over.txt
id=$(submit -oo over.txt echo new)
wait_for job_is "$id" DONE
expect_eq "-oo overwrites" "new" "$(head -n 1 over.txt)"

# Errors: stderr only, LSF's words, exit 255.
err=$(bsub -q nosuch echo x 2>&1 >/dev/null)
rc=$?
expect_eq "unknown queue message" "nosuch: No such queue. Job not submitted." "$err"
expect_eq "unknown queue exit status" 255 "$rc"
expect_eq "nothing on stdout on error" "" "$(bsub -q nosuch echo x 2>/dev/null)"
err=$(bsub -R "select[mem>" echo x 2>&1)
# LSF's line comes last; a line before it says what is wrong.
expect_eq "bad -R" "Bad resource requirement syntax. Job not submitted." \
    "$(echo "$err" | tail -n 1)"
expect_match "bad -R says why" "^bsub: .*select" "$(echo "$err" | head -n 1)"
err=$(bsub -m nosuchhost echo x 2>&1)
expect_eq "bad -m" \
    "nosuchhost: Bad host name, host group name or cluster name. Job not submitted." "$err"

err=$(bsub -n 2000000000 true 2>&1)
expect_eq "absurd -n" "Too many processors requested. Job not submitted." "$err"

# -K waits and exits with the job's code.
bsub -K "exit 7" >/dev/null 2>&1
expect_eq "bsub -K returns the job's exit code" 7 "$?"
bsub -K true >/dev/null 2>&1
expect_eq "bsub -K returns 0 for DONE" 0 "$?"

# Repeated -R are merged.
id=$(submit -R "select[mem>0]" -R "span[hosts=1]" -n 2 -o merged.%J echo ok)
wait_for job_is "$id" DONE
expect_match "repeated -R merged" 'span\[hosts=1\]' \
    "$(bjobs -noheader -o effective_resreq "$id")"

# Bad options and values are refused before mbatchd is asked, in LSF's
# words, from the command line and from #BSUB lines alike.
err=$(bsub -n 3,2 true 2>&1)
expect_eq "-n max below min" "3,2: Bad argument. Job not submitted." "$err"
err=$(bsub -W 0 true 2>&1)
expect_eq "-W 0" "0: Bad time specification. Job not submitted." "$err"
err=$(bsub -zz true 2>&1 | head -n 1)
expect_eq "an unknown option" "bsub: command line: bad option -zz" "$err"
err=$(bsub -sla x true 2>&1)
expect_eq "an option not done yet" "bsub: option -sla is not supported \
by this version
Bad argument. Job not submitted." "$err"
err=$(printf '#BSUB -x stray\n#BSUB -sp x\ntrue\n' | bsub 2>&1)
expect_eq "#BSUB: words left, then a bad value" \
    "bsub: #BSUB line: \"stray\" ignored
x: Bad argument. Job not submitted." "$err"

finish
