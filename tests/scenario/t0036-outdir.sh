#!/bin/bash
# bsub -o dir/ and -e dir/: a path that ends in "/" is a directory, made
# as needed (as the job's user), holding <jobid>.out and <jobid>.err
# (<jobid>_<index>.out for an array's elements).  It used to make the
# job exit 127 and lose its output ("cannot open od/: Is a directory").
. "$(dirname "$0")/lib.sh"

cluster_init 2
cluster_start
cd "$T_DIR/jobs"

a=$(submit -o od/ 'echo hello')
check "a job with -o dir/ ends DONE" wait_for job_is "$a" DONE
expect_eq "its output is in dir/<jobid>.out" hello "$(head -n 1 "od/$a.out" 2>&1)"
expect_match "with its job report" '^Successfully completed\.$' \
    "$(cat "od/$a.out" 2>&1)"

b=$(submit -o deep/er/ -e errs/ 'echo out; echo err >&2')
check "a job with -o and -e directories ends DONE" wait_for job_is "$b" DONE
expect_eq "stdout in the -o directory, made with its parents" out \
    "$(head -n 1 "deep/er/$b.out" 2>&1)"
expect_eq "stderr in the -e directory's <jobid>.err" err \
    "$(cat "errs/$b.err" 2>&1)"

c=$(submit -J "arr[1-2]" -o arr/ 'echo element $LSB_JOBINDEX')
check "an array's elements end DONE" wait_for sh -c \
    "[ \"\$(bjobs -noheader -o stat '$c[1]' '$c[2]' | sort -u)\" = DONE ]"
expect_eq "element 1 in <jobid>_1.out" "element 1" \
    "$(head -n 1 "arr/${c}_1.out" 2>&1)"
expect_eq "element 2 in <jobid>_2.out" "element 2" \
    "$(head -n 1 "arr/${c}_2.out" 2>&1)"

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	u=$(as_nobody bsub -o userdir/ 'echo mine' |
	    sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
	check "a user's job with -o dir/ ends DONE" wait_for job_is "$u" DONE
	expect_eq "the directory is the user's" 65534 \
	    "$(stat -c %u userdir 2>&1)"
fi
finish
