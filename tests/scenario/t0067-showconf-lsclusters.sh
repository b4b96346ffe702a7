#!/bin/bash
# lsclusters -l and badmin showconf sbd: LSF's headers, the lines tools
# parse, and errors.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cluster_start

# lsclusters -l: the short table first (line 2 starts with the cluster
# name, as tools read it), then the long part.
out=$(lsclusters -l)
expect_eq "lsclusters -l exit status" 0 "$?"
expect_eq "lsclusters -l starts as lsclusters" "$(lsclusters)" \
    "$(echo "$out" | head -n 2)"
expect_eq "lsclusters -l long part" \
    "
Cluster administrators: root
Available resources:
Available host types: X86_64
Available host models: generic" "$(echo "$out" | sed 1,2d)"

# showconf sbd: one block per host, header then "    KEY = VALUE".
out=$(badmin showconf sbd hostb)
expect_eq "showconf sbd exit status" 0 "$?"
expect_match "showconf sbd header" \
    '^SBD configuration for host <hostb> at [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4}$' \
    "$(echo "$out" | head -n 1)"
expect_eq "showconf sbd lines all split on ' = '" "" \
    "$(echo "$out" | sed 1d | grep -v '^    [A-Z_0-9]* = ')"
expect_match "showconf sbd has LSB_SBD_PORT" '^    LSB_SBD_PORT = [0-9]+$' \
    "$out"
expect_match "showconf sbd has LSF_UNIT_FOR_LIMITS" \
    '^    LSF_UNIT_FOR_LIMITS = MB$' "$out"
expect_eq "showconf sbd all: a block per host" 2 \
    "$(badmin showconf sbd all | grep -c '^SBD configuration for host ')"
expect_match "showconf sbd defaults to this host" \
    '^SBD configuration for host <hosta> at ' \
    "$(LSF_LOCAL_HOST=hosta badmin showconf sbd | head -n 1)"
err=$(badmin showconf sbd nosuch 2>&1 >/dev/null)
expect_eq "showconf sbd unknown host exit status" 255 "$?"
expect_eq "showconf sbd unknown host" \
    "nosuch: Bad host name, host group name or cluster name" "$err"
badmin showconf xyz >/dev/null 2>&1
expect_eq "showconf of another daemon is refused" 255 "$?"

finish
