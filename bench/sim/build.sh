#!/bin/sh
# Build the workload 9 simulator and the fairshare accuracy driver
# (fsacc) against the library of build-sim (or $O).  The simulator links
# mbatchd's state core (libmbdcore.a) with check_mbd's stand-ins for
# mbatchd's I/O (tests/unit/stubs/mbd-stubs.c).
# Usage: bench/sim/build.sh     (from anywhere; builds the libraries first)
set -e
TOP=$(cd "$(dirname "$0")/../.." && pwd)
O=${O:-build-sim}
cd "$TOP"
make -s -j2 O="$O" "$O/lib/liblsf.a" "$O/lib/libmbdcore.a" \
    "$O/tests/unit/stubs/mbd-stubs.o"
LIBS=$(pkg-config --libs libevent sqlite3 yaml-0.1 jansson munge \
    2>/dev/null || echo -levent -lsqlite3 -lyaml -ljansson -lmunge)
mkdir -p "$O/bench"
CFLAGS="-O2 -g -std=c11 -D_GNU_SOURCE -Iinclude -Wall -Wextra \
    -Wno-unused-parameter -Wshadow -Wstrict-prototypes \
    -Wmissing-prototypes ${DEVELOPER:+-Werror} -fno-omit-frame-pointer"
${CC:-cc} $CFLAGS -Idaemons/mbatchd -Itests/unit/stubs -o "$O/bench/sim" \
    bench/sim/sim.c "$O/tests/unit/stubs/mbd-stubs.o" \
    "$O/lib/libmbdcore.a" "$O/lib/liblsf.a" $LIBS -lm -ldl
${CC:-cc} $CFLAGS -o "$O/bench/fsacc" bench/sim/fsacc.c "$O/lib/liblsf.a" -lm
echo "$TOP/$O/bench/sim"
