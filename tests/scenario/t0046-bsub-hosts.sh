#!/bin/bash
# bsub -m takes what a queue's HOSTS takes: host groups of lsb.hosts,
# "all", "~host" exclusions, "others" and "+N" preference levels, and
# dispatch follows them.  It used to refuse every group and "others"
# ("Bad host name") and to drop the preferences.
. "$(dirname "$0")/lib.sh"

cluster_init 3
cat >>"$LSB_CONF/lsb.hosts" <<EOT

Begin HostGroup
GROUP_NAME  GROUP_MEMBER
bc          (hostb hostc)
End HostGroup
EOT
cluster_start
cd "$T_DIR/jobs"

running() {
	job_is "$1" RUN
}

# A host group.
g1=$(submit -m bc sleep 60)
g2=$(submit -m bc sleep 60)
g3=$(submit -m bc sleep 60)
check "jobs on a host group run" wait_for sh -c \
    "for j in $g1 $g2 $g3; do [ \"\$(bjobs -noheader -o stat \$j)\" = RUN ] || exit 1; done"
expect_eq "all on the group's hosts" "" \
    "$(for j in $g1 $g2 $g3; do exec_host "$j"; done | grep -v '^host[bc]$')"
bkill "$g1" "$g2" "$g3" >/dev/null 2>&1
check "they end" wait_for sh -c \
    "[ -z \"\$(bjobs -noheader -o stat $g1 $g2 $g3 | grep -v EXIT)\" ]"

# "all ~hostb ~hostc": only hosta is left.
a=$(submit -m "all ~hostb ~hostc" sleep 60)
check "a job on all but two hosts runs" wait_for running "$a"
expect_eq "on the one host left" hosta "$(exec_host "$a")"
bkill "$a" >/dev/null 2>&1

# A preference: hostc first while it has room (MXJ 2), then others.
p1=$(submit -m "hostc+2 others" sleep 60)
check "the preferred host's first job runs" wait_for running "$p1"
p2=$(submit -m "hostc+2 others" sleep 60)
check "its second job runs" wait_for running "$p2"
expect_eq "both on the preferred host" "hostc hostc" \
    "$(exec_host "$p1") $(exec_host "$p2")"
p3=$(submit -m "hostc+2 others" sleep 60)
check "a third job runs" wait_for running "$p3"
expect_match "on another host, hostc being full" '^host[ab]$' \
    "$(exec_host "$p3")"
expect_match "bjobs -l lists -m as written" \
    ', Specified Hosts <hostc\+2>, <others>;' \
    "$(bjobs -l "$p3" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n \{21\}//g')"
bkill "$p1" "$p2" "$p3" >/dev/null 2>&1

# A group with a preference over the rest.
q1=$(submit -m "bc+1 hosta" -R "order[-r15s]" sleep 60)
check "a job preferring a group runs" wait_for running "$q1"
expect_match "on one of its hosts" '^host[bc]$' "$(exec_host "$q1")"
bkill "$q1" >/dev/null 2>&1

# The group changes at reconfig: a held job asking for it follows.
h=$(submit -H -m bc sleep 60)
sed -i 's/^bc          (hostb hostc)$/bc          (hosta)/' "$LSB_CONF/lsb.hosts"
badmin reconfig >/dev/null 2>&1
now_hosta() {
	badmin statedump | grep "^job $h\\[0\\] " | grep -q " asked_idx=0+0"
}
check "after reconfig the held job's group is hosta" wait_for now_hosta
bresume "$h" >/dev/null
check "released, it runs" wait_for running "$h"
expect_eq "on the group's new host" hosta "$(exec_host "$h")"
bkill "$h" >/dev/null 2>&1

# Names nobody knows.
out=$(bsub -m "nosuch" true 2>&1)
rc=$?
expect_eq "an unknown name is refused" \
    "nosuch: Bad host name, host group name or cluster name. Job not submitted." \
    "$out"
expect_eq "with exit status 255" 255 "$rc"
expect_match "an unknown name among good ones too" '^nogroup: Bad host name' \
    "$(bsub -m "bc+2 nogroup" true 2>&1)"
finish
