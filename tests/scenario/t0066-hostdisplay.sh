#!/bin/bash
# The host display options: lsload -I -E -N -n -R -s, lshosts -s -T and
# lshosts -l's "Not defined", bhosts -s and -e, with shared resources in
# lsf.shared and the ResourceMap.
. "$(dirname "$0")/lib.sh"

cluster_init 3
cat >>"$LSF_CONF/lsf.shared" <<'EOF2'

Begin Resource
RESOURCENAME  TYPE     INTERVAL  INCREASING  DESCRIPTION
bigmem        Boolean  ()        ()          (big memory)
tot_lic       Numeric  ()        N           (total licenses)
scratch       Numeric  60        N           (scratch space)
End Resource
EOF2
sed -i 's/^hostb  !  !  1  ()$/hostb  !  !  1  (bigmem)/' \
    "$LSF_CONF/lsf.cluster.c1"
cat >>"$LSF_CONF/lsf.cluster.c1" <<'EOF2'

Begin ResourceMap
RESOURCENAME  LOCATION
tot_lic       (5@[all])
scratch       [hosta hostb]
End ResourceMap
EOF2
cluster_start

# lsload -I: only those indices, in that order, after the status.
out=$(lsload -I mem:r1m:ut)
expect_eq "lsload -I header" \
    "HOST_NAME       status   mem   r1m   ut" "$(echo "$out" | head -n 1)"
expect_match "lsload -I row" \
    '^host[abc] +ok +[0-9.]+[MG] +[0-9]+\.[0-9] +[0-9]+%$' \
    "$(echo "$out" | sed -n 2p)"
err=$(lsload -I r1m:nosuch 2>&1)
expect_eq "lsload -I unknown index exit status" 255 "$?"
expect_eq "lsload -I unknown index" "nosuch: Unknown resource name" "$err"

# -E and -N: the same table, run queues scaled.
for o in -E -N; do
	out=$(lsload $o)
	expect_eq "lsload $o exit status" 0 "$?"
	expect_eq "lsload $o header" \
	    "$(lsload | head -n 1)" "$(echo "$out" | head -n 1)"
	expect_eq "lsload $o lists every host" 4 "$(echo "$out" | wc -l)"
done
lsload -E -N >/dev/null 2>&1
expect_eq "lsload -E -N together is refused" 255 "$?"

# -n and -R.
expect_eq "lsload -n 2 shows two hosts" 3 "$(lsload -n 2 | wc -l)"
expect_eq "lsload -R select[bigmem]" "hostb" \
    "$(lsload -R 'select[bigmem]' | awk 'NR > 1 { print $1 }')"
expect_eq "lsload -R with order and -n" 2 \
    "$(lsload -R 'select[type == any] order[r15s]' -n 1 | wc -l)"
err=$(lsload -R 'select[nosuchres > 1' 2>&1)
expect_eq "lsload -R bad syntax exit status" 255 "$?"
expect_eq "lsload -R bad syntax" \
    "select[nosuchres > 1: Bad resource requirement syntax" "$err"
lsload -n 0 >/dev/null 2>&1
expect_eq "lsload -n 0 is refused" 255 "$?"

# -s: shared resources, dynamic ones for lsload, static for lshosts.
expect_eq "lsload -s" \
    "RESOURCE                                VALUE       LOCATION
scratch                                 -           hosta hostb" \
    "$(lsload -s)"
expect_eq "lshosts -s" \
    "RESOURCE                                VALUE       LOCATION
tot_lic                                 5           hosta hostb hostc" \
    "$(lshosts -s)"
expect_eq "lshosts -s resource" \
    "RESOURCE                                VALUE       LOCATION
tot_lic                                 5           hosta hostb hostc" \
    "$(lshosts -s tot_lic)"
err=$(lshosts -s nosuch 2>&1)
expect_eq "lshosts -s unknown exit status" 255 "$?"
expect_eq "lshosts -s unknown" "nosuch: Unknown resource name" "$err"
expect_eq "bhosts -s" \
    "RESOURCE                 TOTAL       RESERVED       LOCATION
tot_lic                  5           0.0            hosta hostb hostc
scratch                  -           0.0            hosta hostb" \
    "$(bhosts -s)"
expect_eq "bhosts -s resource" \
    "RESOURCE                 TOTAL       RESERVED       LOCATION
scratch                  -           0.0            hosta hostb" \
    "$(bhosts -s scratch)"
err=$(bhosts -e 2>&1)
expect_eq "bhosts -e exit status" 255 "$?"
expect_eq "bhosts -e: nothing exported" "No matching host found" "$err"

# lshosts -T: no topology is known, so each host is its line alone.
out=$(lshosts -T)
expect_eq "lshosts -T lists every host" 3 "$(echo "$out" | wc -l)"
expect_match "lshosts -T line" '^Host\[[0-9.]+[MG]\] hosta$' \
    "$(echo "$out" | grep hosta)"

# lshosts -l: RESOURCES of a host without any is "Not defined".
expect_match "lshosts -l without resources" '^RESOURCES: Not defined$' \
    "$(lshosts -l hosta)"
expect_match "lshosts -l with resources" '^RESOURCES: \(bigmem\)$' \
    "$(lshosts -l hostb)"

finish
