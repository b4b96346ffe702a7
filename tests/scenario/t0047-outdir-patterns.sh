#!/bin/bash
# bsub -outdir and -cwd: LSF's patterns (%J %I %U %G %P %H %EJ %EI %JG)
# replaced when the job starts, the directory made as the job's user, and
# -o/-e file names without a directory written under -outdir.  -outdir
# used to be read as "-o utdir"; -cwd patterns were kept literally.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >"$LSB_CONF/lsb.users" <<EOT
Begin UserGroup
GROUP_NAME  GROUP_MEMBER
ug          (root)
End UserGroup
EOT
cluster_start
cd "$T_DIR/jobs"
me=$(id -un)

a=$(submit -outdir "od/%U/%J_%I" -o out.txt -e err.txt \
    'echo hello; echo oops >&2')
check "a job with -outdir ends DONE" wait_for job_is "$a" DONE
expect_eq "-o goes under the expanded -outdir" hello \
    "$(head -n 1 "od/$me/${a}_0/out.txt" 2>&1)"
expect_eq "and -e" oops "$(cat "od/$me/${a}_0/err.txt" 2>&1)"

b=$(submit -outdir "made/%J" true)
check "a job with -outdir and no -o ends DONE" wait_for job_is "$b" DONE
check "its directory is made all the same" test -d "made/$b"
expect_eq "with mode 700, as LSF makes it" 700 "$(stat -c %a "made/$b" 2>&1)"

c=$(submit -cwd "cw/%J/%EJ" -o "$T_DIR/jobs/pwd.%J" pwd)
check "a job with a -cwd of patterns ends DONE" wait_for job_is "$c" DONE
expect_eq "it ran in the directory made for it" "$T_DIR/jobs/cw/$c/$c" \
    "$(head -n 1 "pwd.$c" 2>&1)"
expect_eq "bjobs shows the execution CWD" "$T_DIR/jobs/cw/$c/$c" \
    "$(bjobs -noheader -o exec_cwd "$c" 2>&1)"

d=$(submit -P proj -G ug -m hostb -outdir "v/%P/%G/%H/%JG%EI" -o o true)
check "a job with %P %G %H %JG %EI ends DONE" wait_for job_is "$d" DONE
check "each replaced" test -f "v/proj/ug/hostb/0/o"

e=$(submit -J "arr[1-2]" -outdir "arr/%J_%I" -o o 'echo $LSB_JOBINDEX')
check "an array's elements end DONE" wait_for sh -c \
    "[ \"\$(bjobs -noheader -o stat '$e[1]' '$e[2]' | sort -u)\" = DONE ]"
expect_eq "element 1 in its own directory" 1 \
    "$(head -n 1 "arr/${e}_1/o" 2>&1)"
expect_eq "element 2 in its own" 2 "$(head -n 1 "arr/${e}_2/o" 2>&1)"

f=$(submit -outdir "$T_DIR/jobs/abs" -o "$T_DIR/jobs/plain.out" echo abs)
check "an absolute -o is kept with -outdir" wait_for job_is "$f" DONE
expect_eq "in its own place" abs "$(head -n 1 plain.out 2>&1)"

cat >script.sh <<'EOT'
#BSUB -outdir "sd/%J"
#BSUB -o so
echo from-script
EOT
s=$(submit <script.sh)
check "-outdir on a #BSUB line" wait_for job_is "$s" DONE
expect_eq "counts too" from-script "$(head -n 1 "sd/$s/so" 2>&1)"
# Without patterns a -cwd that is not there is not made: /tmp, as LSF.
n=$(submit -cwd "$T_DIR/jobs/nothere" -o "$T_DIR/jobs/n.out" pwd)
check "a job with a missing plain -cwd ends DONE" wait_for job_is "$n" DONE
expect_eq "it ran in /tmp" /tmp "$(head -n 1 n.out 2>&1)"
check "the directory was not made" test ! -e nothere

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	u=$(as_nobody bsub -outdir "userdir/%J" -o o true |
	    sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
	check "a user's job with -outdir ends DONE" wait_for job_is "$u" DONE
	expect_eq "the directory is the user's" 65534 \
	    "$(stat -c %u "userdir/$u" 2>&1)"
fi
finish
