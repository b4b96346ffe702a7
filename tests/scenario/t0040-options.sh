#!/bin/bash
# Options this version does not know were read as other options: bsub
# -outdir /tmp as -o utdir with the command /tmp, -ti and -tty as -t,
# -hl as -h; bjobs -sum as -s -u m ("No suspended job found", exit 0).
# Every command now reads a multi-letter option as a whole word first
# and refuses an LSF option it does not do by name, exit 255.
. "$(dirname "$0")/lib.sh"

cluster_init 1
cluster_start
cd "$T_DIR/jobs"

# (-outdir is an option since; t0047 tests it.)
for o in "-jsdl /tmp" -ti -tty -hl -Is "-sla x"; do
	name=${o%% *}
	err=$(bsub $o true 2>&1)
	rc=$?
	expect_eq "bsub $name is refused by name" "bsub: option $name is \
not supported by this version
Bad argument. Job not submitted." "$err"
	expect_eq "bsub $name exits 255" 255 "$rc"
done
expect_eq "and nothing was submitted" "No unfinished job found" \
    "$(bjobs 2>&1)"

# From a #BSUB line too.
err=$(printf '#BSUB -jsdl /tmp\ntrue\n' | bsub 2>&1)
expect_eq "#BSUB -jsdl is refused" "bsub: option -jsdl is not \
supported by this version
Bad argument. Job not submitted." "$err"

# Each command: the one-line reason, then its usage; exit 255.
refused() {
	local cmd=$1 opt=$2 out rc
	shift 2
	out=$("$cmd" "$opt" "$@" 2>&1 >/dev/null)
	rc=$?
	expect_eq "$cmd $opt: named" \
	    "$cmd: option $opt is not supported by this version" \
	    "$(echo "$out" | head -n 1)"
	expect_match "$cmd $opt: then the usage" "^Usage: $cmd " \
	    "$(echo "$out" | sed -n 2p)"
	expect_eq "$cmd $opt: exit 255" 255 "$rc"
}
refused bjobs -psum
refused bjobs -sla x
refused bjobs -Jd x
refused bkill -stat run
refused bkill -app x 0
refused bstop -app x 0
refused bresume -C why 0
refused brequeue -p 1
refused bswitch -a x normal 1
refused btop -u 1
refused bbot -u 1
refused brun -b -m hostx 1
refused bmod -app x 1
refused bhosts -alloc
refused bqueues -alloc
refused busers -alloc
refused bmgroup -cu
refused lsload -gpuload
refused lshosts -cname
refused lshosts -gpu
out=$(badmin hclose -i lock1 2>&1 | head -n 1)
expect_eq "badmin hclose -i: named" \
    "badmin: option -i is not supported by this version" "$out"

# A single-letter option in a bundle still works; a word that starts
# with a multi-letter option is not split.
a=$(submit -o /dev/null sleep 60)
expect_match "bjobs -aw is -a -w" "^$a " "$(bjobs -aw -noheader 2>&1)"
err=$(bjobs -sumx 2>&1 | head -n 1)
expect_eq "bjobs -sumx is a bad option" "bjobs: bad option -sumx" "$err"
bkill 0 >/dev/null 2>&1
finish
