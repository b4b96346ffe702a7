#!/bin/sh
# A test ELIM (see elim_install in lib.sh): every 0.2 s it reports the
# "name value ..." pairs of $LSF_ENVDIR/../elim/load.<host>, for the host
# its LIM names in LSF_LOCAL_HOST; a file raw.<host> is printed once as
# it is, for malformed lines.  It notes its pid and LSF_MASTER.
d="$LSF_ENVDIR/../elim"
h="$LSF_LOCAL_HOST"
echo "$$" >"$d/pid.$h"
echo "${LSF_MASTER:-}" >"$d/master.$h"
while :; do
	if [ -f "$d/raw.$h" ]; then
		cat "$d/raw.$h"
		rm -f "$d/raw.$h"
	fi
	if [ -f "$d/load.$h" ]; then
		# shellcheck disable=SC2046
		set -- $(cat "$d/load.$h")
		echo "$(($# / 2)) $*"
	fi
	sleep 0.2
done
