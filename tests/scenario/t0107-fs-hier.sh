#!/bin/bash
# Hierarchical fairshare (issue 22): FAIRSHARE = [g1, 1] [g2, 1], where
# lsb.users divides g1 as [root, 1] [gsub, 1], gsub as [daemon, 3]
# [bin, 1] and g2 as [sys, 1] [nobody, 1].  All five users have more
# jobs pending than they can get; one pass over the 3 x 32 = 96 slots
# chooses, at each level, the sibling of highest shares / (1 + slots)
# (CPU and run time factors 0), the earlier one on a tie:
#	g1 : g2          1:1 -> 48 : 48
#	root : gsub      1:1 -> 24 : 24	(inside g1's 48)
#	sys : nobody     1:1 -> 24 : 24	(inside g2's 48)
#	daemon : bin     3:1 -> 18 : 6	(inside gsub's 24: with bin at k,
#	    daemon starts until 3 / (1 + d) < 1 / (1 + k), i.e. up to
#	    d = 3k + 3; 18 + 6 = 24 is where that stops)
# In order of submission, root alone would get 40 and bin none; with the
# users flat, five ways, each about 19.
# Then, in an EXCLUSIVE fairshare queue, bsub -x still gets a host to
# itself: it waits for an empty host and keeps others off it.
. "$(dirname "$0")/lib.sh"
need_root

cluster_init 3
queues "fair 30 FAIRSHARE = USER_SHARES[[g1, 1] [g2, 1]]" \
	"excl 40 FAIRSHARE = USER_SHARES[[default, 1]]; EXCLUSIVE = Y"
cat >"$LSB_CONF/lsb.users" <<EOF
Begin UserGroup
GROUP_NAME  GROUP_MEMBER    USER_SHARES
gsub        (daemon bin)    ([daemon, 3] [bin, 1])
g1          (root gsub)     ([root, 1] [gsub, 1])
g2          (sys nobody)    ([sys, 1] [nobody, 1])
End UserGroup
EOF
sed -i 's/^End Parameters/CPU_TIME_FACTOR = 0\nRUN_TIME_FACTOR = 0\n&/' \
	"$LSB_CONF/lsb.params"
host_mxj 32
cluster_start
cd "$T_DIR/jobs"

badmin qinact fair >/dev/null
for u in root daemon bin sys nobody; do
	as_user "$u" bsub -q fair -J "$u[1-40]" -o /dev/null 'sleep 60' \
	    >/dev/null || fail "$u's array"
done
badmin qact fair >/dev/null

running() {
	bjobs -u "$1" -r -noheader -q fair 2>/dev/null | wc -l
}
wait_for sh -c "[ \$(bjobs -u all -r -noheader -q fair | wc -l) -ge 96 ]" ||
	fail "the 96 slots were not filled"
got=""
for u in root daemon bin sys nobody; do
	got="$got $u=$(running "$u")"
done
expect_eq "slots split g1:g2, root:gsub, sys:nobody 1:1, daemon:bin 3:1" \
	" root=24 daemon=18 bin=6 sys=24 nobody=24" "$got"
dump=$(badmin statedump)
expect_match "statedump: g1 holds 48 slots" \
	"^fs g1/ shares=1 leaf=0 .* slots=48 " "$dump"
expect_match "statedump: gsub within g1 holds 24 slots" \
	"^fs g1/gsub/ shares=1 leaf=0 .* slots=24 " "$dump"
expect_match "statedump: daemon's account within gsub holds 18" \
	"^fs g1/gsub/daemon/ shares=3 leaf=1 .* slots=18 " "$dump"
bkill -u all -q fair 0 >/dev/null 2>&1
wait_for sh -c "[ -z \"\$(bjobs -u all -r -noheader -q fair)\" ]" ||
	fail "fair's jobs did not end"

# Exclusive: one job on each host; bsub -x waits for an empty host.
for h in hosta hostb hostc; do
	eval "p_$h=\$(submit -q excl -m $h -o /dev/null sleep 60)"
done
wait_for sh -c "[ \$(bjobs -u all -r -noheader -q excl | wc -l) -eq 3 ]" ||
	fail "the three jobs did not start"
x=$(as_user daemon bsub -q excl -x -o /dev/null sleep 60 |
	sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
stays_pending "bsub -x waits while every host runs a job" "$x"
bkill "$p_hostb" >/dev/null
check "bsub -x starts on the host that emptied" wait_for job_is "$x" RUN
expect_eq "... that is hostb" "hostb" "$(exec_host "$x")"
y=$(submit -q excl -m hostb -o /dev/null sleep 60)
stays_pending "no other job joins it on hostb" "$y"
bkill -u all 0 >/dev/null 2>&1
finish
