#!/bin/sh
# Build the workload 9 simulator and the fairshare accuracy driver
# (fsacc) against the library of build-sim (or $O).
# Usage: bench/sim/build.sh     (from anywhere; builds the library first)
set -e
TOP=$(cd "$(dirname "$0")/../.." && pwd)
O=${O:-build-sim}
cd "$TOP"
make -s -j2 O="$O" "$O/lib/liblsf.a"
mkdir -p "$O/bench"
for p in sim fsacc; do
	${CC:-cc} -O2 -g -std=c11 -D_GNU_SOURCE -Iinclude -Wall -Wextra \
	    -Wno-unused-parameter -Wshadow -Wstrict-prototypes \
	    -Wmissing-prototypes ${DEVELOPER:+-Werror} -fno-omit-frame-pointer \
	    -o "$O/bench/$p" "bench/sim/$p.c" "$O/lib/liblsf.a" -lm
done
echo "$TOP/$O/bench/sim"
