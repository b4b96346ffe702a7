#!/bin/bash
# The display and admin commands against a real three-host cluster with one
# host down: bqueues, bhosts, lsload, lshosts, lsid, lsclusters, bparams,
# badmin and lsadmin; their layouts, the lines tools parse, errors and exit
# codes.
. "$(dirname "$0")/lib.sh"

cluster_init 3
# A dispatch window that is closed now and for the next hours.
h=$(( ($(date +%H | sed 's/^0//') + 3) % 24 ))
cat >>"$LSB_CONF/lsb.queues" <<EOF

Begin Queue
QUEUE_NAME = night
PRIORITY = 10
UJOB_LIMIT = 2
HOSTS = hosta
USERS = alice
RUNLIMIT = 60
r1m = 0.7/2.0
DISPATCH_WINDOW = $h:00-$h:30
End Queue
EOF
# hostc is configured but never started: it is unavailable.
HOSTS_UP="hosta hostb"
for h in $HOSTS_UP; do start_daemon lim "$h"; done
for h in $HOSTS_UP; do start_daemon sbatchd "$h"; done
two_ok() {
	[ "$(bhosts 2>/dev/null | awk '$2 == "ok"' | wc -l)" -eq 2 ]
}
wait_for two_ok || { dump_logs; fail "cluster did not come up"; exit 1; }

# bqueues: LSF's header, highest priority first, Inact outside the window.
out=$(bqueues)
expect_eq "bqueues header" \
    "QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP" \
    "$(echo "$out" | head -n 1)"
expect_eq "bqueues rows" \
    "short            50  Open:Active       -    -    -    -     0     0     0     0" \
    "$(echo "$out" | sed -n 2p)"
expect_eq "queues by priority" "short normal night" \
    "$(echo "$out" | awk 'NR > 1 { printf "%s%s", s, $1; s = " " }')"
expect_match "closed dispatch window is Inact" \
    '^night +10  Open:Inact +- +2 ' "$(echo "$out" | tail -n 1)"
out=$(bqueues -l night)
expect_match "bqueues -l names the queue" '^QUEUE: night$' "$out"
expect_match "bqueues -l says why inactive" \
    '^ 10    0  Open:Inact_Win    -    2    -    -     0' "$out"
expect_match "bqueues -l thresholds" \
    '^ loadSched   -    0\.7    -     -       -' "$out"
expect_match "bqueues -l run limit" '^ 60\.0 min$' "$out"
expect_match "bqueues -l hosts" '^HOSTS:  hosta$' "$out"
err=$(bqueues nosuch 2>&1 >/dev/null)
expect_eq "unknown queue" "nosuch: No such queue" "$err"
bqueues nosuch >/dev/null 2>&1
expect_eq "unknown queue exit status" 255 "$?"
expect_eq "bqueues -u filters on USERS" "short normal" \
    "$(bqueues -u bob | awk 'NR > 1 { printf "%s%s", s, $1; s = " " }')"
expect_eq "bqueues -m filters on HOSTS" "short normal" \
    "$(bqueues -m hostb | awk 'NR > 1 { printf "%s%s", s, $1; s = " " }')"

# bhosts: the reference's columns; a host that never started is unavail.
out=$(bhosts)
expect_eq "bhosts header" \
    "HOST_NAME          STATUS       JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    RSV" \
    "$(echo "$out" | head -n 1)"
expect_eq "bhosts row" \
    "hosta              ok              -      2      0      0      0      0      0" \
    "$(echo "$out" | sed -n 2p)"
expect_match "unavailable host" '^hostc +unavail ' "$out"
out=$(bhosts -l hosta)
expect_match "bhosts -l status line" \
    '^ok +1\.00     -      2      0      0      0      0      0      -$' "$out"
expect_match "bhosts -l load rows" '^ Total +[0-9.]+ ' "$out"
expect_match "bhosts -l reserved row" \
    '^ Reserved        0\.0   0\.0   0\.0    0%   0\.0     0    0     0    0M    0M    0M      -$' \
    "$out"
err=$(bhosts nosuch 2>&1 >/dev/null)
expect_eq "unknown host" \
    "nosuch: Bad host name, host group name or cluster name" "$err"

# lsload: ok hosts sorted, the unavailable one last without values.
out=$(lsload)
expect_eq "lsload header" \
    "HOST_NAME       status  r15s   r1m  r15m   ut    pg  ls    it   tmp   swp   mem" \
    "$(echo "$out" | head -n 1)"
expect_match "lsload unavail last" '^hostc +unavail$' "$(echo "$out" | tail -n 1)"
expect_match "lsload -l has io" '^HOST_NAME +status +r15s +r1m +r15m +ut +pg +io +ls ' \
    "$(lsload -l | head -n 1)"
lsload nosuch >/dev/null 2>&1
expect_eq "lsload unknown host exit status" 255 "$?"

# lshosts.
out=$(lshosts)
expect_eq "lshosts header" \
    "HOST_NAME      type    model  cpuf ncpus maxmem maxswp server RESOURCES" \
    "$(echo "$out" | head -n 1)"
expect_match "lshosts unknown host figures" \
    '^hostc +UNKNOWN UNKNOWN_   1\.0     -      -      -    Yes \(\)$' "$out"

# lsid and lsclusters: the lines scripts read.
out=$(lsid)
# Line 1 as LSF's: product, then a date ("Jul 08 2016").
expect_match "lsid line 1" \
    '^IBM Spectrum LSF Standard 10\.1\.0\.13, [A-Z][a-z][a-z] [0-3][0-9] [0-9]{4}$' \
    "$(echo "$out" | head -n 1)"
expect_match "lsid cluster" '^My cluster name is c1$' "$out"
expect_match "lsid master" '^My master name is hosta$' "$out"
out=$(lsclusters)
expect_eq "lsclusters header" \
    "CLUSTER_NAME   STATUS   MASTER_HOST               ADMIN    HOSTS  SERVERS" \
    "$(echo "$out" | head -n 1)"
expect_eq "lsclusters line 2 token 1" "c1" \
    "$(echo "$out" | sed -n 2p | awk '{ print $1 }')"

# bparams.
out=$(bparams)
expect_eq "bparams short form" "Default Queues:  normal
MBD_SLEEP_TIME used for calculations:  1 seconds
Job Checking Interval:  1 seconds
Job Accepting Interval:  0 seconds" "$out"
out=$(bparams -a)
expect_match "bparams -a" '^    RESOURCE_RESERVE_PER_TASK = [YN]$' "$out"
expect_eq "bparams -a is KEY = VALUE after line 1" "" \
    "$(echo "$out" | sed 1d | grep -v '^    [A-Z_0-9]* = ')"

# showconf: a header, then only "    KEY = VALUE" lines.
for c in "badmin showconf mbd" "lsadmin showconf lim" \
    "lsadmin showconf lim -h hostb"; do
	out=$($c)
	expect_eq "$c exit status" 0 "$?"
	expect_match "$c header" '^(MBD|LIM) configuration at ' \
	    "$(echo "$out" | head -n 1)"
	expect_eq "$c lines all split on ' = '" "" \
	    "$(echo "$out" | sed 1d | grep -v ' = ')"
	for k in LSF_CONFDIR LSB_SHAREDIR LSF_UNIT_FOR_LIMITS; do
		expect_match "$c has $k" "^    $k = " "$out"
	done
done

# Configuration checks and subcommands of later versions.
badmin ckconfig >/dev/null 2>&1
expect_eq "badmin ckconfig" 0 "$?"
expect_match "badmin ckconfig on stderr" "No errors found" \
    "$(badmin ckconfig 2>&1 >/dev/null)"
lsadmin ckconfig >/dev/null 2>&1
expect_eq "lsadmin ckconfig" 0 "$?"
err=$(badmin hghostadd 2>&1)
expect_eq "badmin hghostadd exit status" 255 "$?"
expect_eq "badmin hghostadd message" \
    "badmin: hghostadd is not supported by this version" "$err"
lsadmin limdebug >/dev/null 2>&1
expect_eq "lsadmin limdebug exit status" 255 "$?"

# -h and -V.
for c in bsub bjobs bkill bqueues bhosts lsload lshosts lsid lsclusters bparams \
    badmin lsadmin; do
	$c -h >/dev/null 2>&1
	expect_eq "$c -h" 0 "$?"
	expect_match "$c -V" \
	    '^IBM Spectrum LSF Standard 10\.1\.0\.13, [A-Z][a-z][a-z] [0-3][0-9] [0-9]{4}$' \
	    "$($c -V 2>&1 | head -n 1)"
done
bqueues -Z >/dev/null 2>&1
expect_eq "bad option" 255 "$?"

finish
