#!/bin/sh
# Golden tests of the configuration reader.
#
#   tests/conf/run.sh [--update] [case ...]
#
# Each tests/conf/NN-name/ holds an LSF_ENVDIR tree (lsf.conf and the
# files it points at).  LSF wants absolute paths, so the tree is copied
# to a temporary directory and @DIR@ in its files becomes that directory.
# The case's optional "args" file holds extra conf-dump options.  The
# output of conf-dump, with the directory turned back into @DIR@, must
# equal expected.out; --update rewrites expected.out instead.
#
# CONF_DUMP names the tool (default build/tests/conf-dump).

top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/conf"
dump=${CONF_DUMP:-${BUILD:-$top/build}/tests/conf-dump}
update=0

if [ "$1" = "--update" ]; then
	update=1
	shift
fi
if [ ! -x "$dump" ]; then
	echo "run.sh: $dump not built (make build/tests/conf-dump)" >&2
	exit 2
fi

if [ $# -eq 0 ]; then
	set -- $(cd "$here" && ls -d [0-9]*/ | sed 's,/$,,')
fi

pass=0
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/conftest.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

for name in "$@"; do
	name=${name%/}
	name=${name##*/}
	case_dir="$here/$name"
	dir="$tmp/$name"
	mkdir -p "$dir"
	(cd "$case_dir" && tar cf - --exclude=expected.out --exclude=args .) |
	    (cd "$dir" && tar xf -)
	find "$dir" -type f -exec sed -i "s|@DIR@|$dir|g" {} +
	args=
	[ -f "$case_dir/args" ] && args=$(cat "$case_dir/args")
	# shellcheck disable=SC2086
	"$dump" $args "$dir" 2>&1 | sed "s|$dir|@DIR@|g" >"$tmp/$name.out"
	if [ $update -eq 1 ]; then
		cp "$tmp/$name.out" "$case_dir/expected.out"
		echo "updated $name"
		pass=$((pass + 1))
	elif diff -u "$case_dir/expected.out" "$tmp/$name.out" \
	    >"$tmp/$name.diff" 2>&1; then
		echo "PASS $name"
		pass=$((pass + 1))
	else
		echo "FAIL $name"
		cat "$tmp/$name.diff"
		fail=$((fail + 1))
	fi
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
