#!/bin/bash
# What bsub says at submission and bjobs -l shows after: -G with a group
# that does not exist (or without the user in it) and -R naming a
# resource nobody defined are refused with LSF's words and exit 255 (the
# first used to run, the second to pend forever); -b and -t are
# confirmed on stderr before the job's line; bjobs -l shows the
# specified start and termination times, -L, -E, -m, -B and -N.
. "$(dirname "$0")/lib.sh"

cluster_init 2
cat >"$LSB_CONF/lsb.users" <<EOT
Begin UserGroup
GROUP_NAME  GROUP_MEMBER
mine        (root)
theirs      (nobody)
End UserGroup
EOT
cluster_start
cd "$T_DIR/jobs"

# bjobs -l with its continuation lines joined back.
long_of() {
	bjobs -l "$1" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n \{21\}//g'
}

out=$(bsub -G nosuchgroup true 2>&1)
rc=$?
expect_eq "-G with no such group is refused" \
    "Bad user group name. Job not submitted." "$out"
expect_eq "with exit status 255" 255 "$rc"
expect_eq "-G of a group without the user is refused" \
    "User not in the specified user group. Job not submitted." \
    "$(bsub -G theirs true 2>&1)"
g=$(submit -G mine -H true)
expect_eq "-G of the user's own group is taken" mine \
    "$(bjobs -noheader -o user_group "$g" 2>&1)"

out=$(bsub -R "select[foo > 1]" true 2>&1)
rc=$?
expect_eq "-R naming an undefined resource is refused" \
    'Error in select section: Error near "foo" : incorrect section name, resource name, or resource function name. Job not submitted.' \
    "$out"
expect_eq "with exit status 255" 255 "$rc"
expect_match "an undefined rusage resource too" \
    '^Error in rusage section: Error near "bar" : ' \
    "$(bsub -R "rusage[bar=1]" true 2>&1)"
expect_match "a built-in index is fine" '^Job <[0-9]+> is submitted' \
    "$(bsub -H -R "select[mem > 1 && type == any]" true 2>&1)"

# -b and -t: the one line on stdout, then the confirmations on stderr.
begin=$(date -d '+2 days' '+%Y:%m:%d:%H:%M')
term=$(date -d '+3 days' '+%Y:%m:%d:%H:%M')
bsub -b "$begin" -t "$term" -L /bin/sh -E "true pre" -B -N \
    -m "hostb hosta" sleep 1 >sub.out 2>sub.err
want_b=$(date -d "$(echo "$begin" | sed 's/^\(....\):\(..\):\(..\):/\1-\2-\3 /')" \
    '+%a %b %e %H:%M:00 %Y')
want_t=$(date -d "$(echo "$term" | sed 's/^\(....\):\(..\):\(..\):/\1-\2-\3 /')" \
    '+%a %b %e %H:%M:00 %Y')
expect_eq "-b and -t confirmed on stderr" \
    "Job will be scheduled after $want_b
Job will be terminated by $want_t" "$(cat sub.err)"
expect_match "stdout is still the job's one line" \
    '^Job <[0-9]+> is submitted to default queue <normal>\.$' "$(cat sub.out)"
bsub -H -b "$begin" true >both 2>&1
expect_match "the confirmation follows the job's line, as in LSF" \
    "^Job <[0-9]+> is submitted to default queue <normal>\.
Job will be scheduled after $want_b\$" "$(cat both)"
j=$(sed -n 's/^Job <\([0-9]*\)>.*/\1/p' sub.out)
long=$(long_of "$j")
expect_match "bjobs -l: the specified start time" \
    "Specified Start Time <${want_b% *}>" "$long"
expect_match "the specified termination time" \
    "Specified Termination Time <${want_t% *}>" "$long"
expect_match "the notify flags" ", Notify when job begins/ends" "$long"
expect_match "the login shell" ", Login Shell </bin/sh>" "$long"
expect_match "the pre-execution command" \
    ", Pre-execute Command <true pre>" "$long"
expect_match "the specified hosts, as LSF lists them" \
    ", Specified Hosts <hostb>, <hosta>;" "$long"
n=$(submit -H -N true)
expect_match "-N alone" ", Notify when job ends[,;]" \
    "$(long_of "$n")"
finish
