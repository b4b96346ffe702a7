#!/bin/bash
# Each daemon's header opens with a tour of its directory (daemons/*/):
# one line " *<TAB>file<TAB>what it holds" per file.  Fail when a file
# of the directory is not in it, or when it names a file that is gone,
# so that the tours cannot go stale.  A header that holds the tour need
# not name itself.  Run by make check (check-tours).
cd "$(dirname "$0")/.." || exit 1
bad=0
for dir in daemons/*/; do
	dir=${dir%/}
	# The names the tours of the directory's headers give.
	named=$(sed -n 's/^ \*\t\([A-Za-z0-9_.-]*\.[ch]\)[\t ].*/\1/p' \
	    "$dir"/*.h | sort -u)
	tours=$(grep -lP '^ \*\t[A-Za-z0-9_.-]+\.[ch][\t ]' "$dir"/*.h \
	    2>/dev/null)
	if [ -z "$tours" ]; then
		echo "$dir: no header has a tour of the directory" >&2
		bad=1
		continue
	fi
	for f in "$dir"/*; do
		[ -f "$f" ] || continue
		name=${f##*/}
		echo "$tours" | grep -qx -- "$f" && continue
		if ! echo "$named" | grep -qxF -- "$name"; then
			echo "$f: not in the tour atop $(echo $tours)" >&2
			bad=1
		fi
	done
	for name in $named; do
		if [ ! -e "$dir/$name" ]; then
			echo "$(echo $tours): its tour names $name," \
			    "which $dir does not have" >&2
			bad=1
		fi
	done
done
exit $bad
