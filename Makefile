# Makefile for the batch scheduler: commands into build/bin, daemons into
# build/sbin, the shared code into build/lib/liblsf.a.
#
#   make                  build everything
#   make DEVELOPER=1      ... with -Wall -Wextra -Werror
#   make SANITIZE=address,undefined
#   make STATIC=0         link the commands dynamically
#   make MUSL=0           build the static commands with glibc, not musl
#   make check            install missing packages, build, run every test
#                         (the unit suites also under ASan and UBSan, and
#                         each fuzz target a few seconds)
#   make fuzz             build the libFuzzer targets into build-fuzz (clang)
#   make demo             install missing packages, build, run a one-host demo
#   make bench            build, run the benchmark suite (bench/run.sh)
#   make install PREFIX=/opt/lsf DESTDIR=... [UNITDIR=/etc/systemd/system]

CC	?= cc
PREFIX	?= /usr/local
DESTDIR	?=
O	:= build

PKGS	:= libevent sqlite3 yaml-0.1 jansson munge
CFLAGS	?= -O2 -g
CFLAGS	+= -std=c11 -D_GNU_SOURCE -Iinclude -MMD -MP -Wall -Wextra \
	   -Wno-unused-parameter -Wshadow -Wpointer-arith -Wstrict-prototypes \
	   -Wmissing-prototypes -fno-strict-aliasing
ifdef DEVELOPER
CFLAGS	+= -Werror
endif
ifdef SANITIZE
CFLAGS	+= -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
LDFLAGS	+= -fsanitize=$(SANITIZE)
endif
LIBS	:= $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -levent -lsqlite3 -lyaml -ljansson -lmunge) -lm -ldl
# The commands link libc statically: a dynamic loader costs each bsub or
# bjobs ~140 us of start-up on a small VM, a sixth of a durable
# submission, and self-relocating as a static-pie another ~6% of bsub's
# rate (docs/PERFORMANCE.md).  They run unprivileged and briefly, so
# they go without address randomization; the daemons keep it.  They use
# only libc; the one NSS call left (getaddrinfo for a host missing from
# $$LSF_CONFDIR/hosts) uses glibc's built-in files and dns, so ld's
# notice about static NSS is silenced.  Sanitizers need dynamic links.
STATIC	?= 1
ifeq ($(STATIC)$(SANITIZE),1)
CMD_LDFLAGS := -static -Wl,--no-warnings
endif
# Where musl-gcc is installed (Debian's musl-tools; make deps installs
# it), the static commands are built with musl: glibc's start-up probes
# the CPU with dozens of cpuid instructions, each a trap to the
# hypervisor on a VM, and that was a third of a bsub's time (455 us
# against 177 us to spawn an empty program; docs/PERFORMANCE.md).  The
# commands need nothing of libc that musl lacks.  MUSL=0 for glibc.
MUSL	?= $(if $(shell command -v musl-gcc 2>/dev/null),1,0)
ifeq ($(STATIC)$(SANITIZE)$(MUSL),11)
CMD_CC	:= musl-gcc
CMD_O	:= $(O)/musl
else
CMD_CC	:= $(CC)
CMD_O	:= $(O)
endif
# The commands prove their user to mbatchd on another host with MUNGE
# (src/auth.c), so they link libmunge: its archive when they are static
# (with musl, cmds/cmd-fortify.c stands in for the few glibc entry points
# Debian's archive calls, and munge.h is copied beside musl's headers).
MUNGE_LIBDIR := $(shell pkg-config --variable=libdir munge 2>/dev/null || echo /usr/lib/x86_64-linux-gnu)
MUNGE_INCDIR := $(shell pkg-config --variable=includedir munge 2>/dev/null || echo /usr/include)
# bsub reads job files with libyaml and jansson, and the -json outputs
# are printed by jansson: their archives too, and their headers beside
# munge.h for musl.
LIBDIR	:= $(shell pkg-config --variable=libdir jansson 2>/dev/null || echo /usr/lib/x86_64-linux-gnu)
INCDIR	:= $(shell pkg-config --variable=includedir jansson 2>/dev/null || echo /usr/include)
ifeq ($(STATIC)$(SANITIZE),1)
CMD_LIBS := $(LIBDIR)/libyaml.a $(LIBDIR)/libjansson.a \
	$(MUNGE_LIBDIR)/libmunge.a
else
CMD_LIBS := -lyaml -ljansson -lmunge -lm
endif
# libsystemd (sd_notify) for the daemons only: daemons/*.c outside the
# daemons' own directories are linked into each of them, never into a
# command.
DAEMON_LIBS := $(shell pkg-config --libs libsystemd 2>/dev/null || echo -lsystemd)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -lpthread)

LIB_SRC	:= $(sort $(wildcard src/*.c))
# sqlite3's side of the library: the daemons' and bhist's, not the static
# commands' (below).
HIST_SRC := src/history-db.c src/history-open.c
LIB_OBJ	:= $(LIB_SRC:%.c=$(O)/%.o)
LIB	:= $(O)/lib/liblsf.a

DAEMONS	:= lim sbatchd mbatchd
DAEMON_COMMON_OBJ := $(patsubst %.c,$(O)/%.o,$(wildcard daemons/*.c))
CMDS	:= $(sort $(basename $(notdir $(wildcard cmds/*.c))))
CMDS	:= $(filter-out cmd-%,$(CMDS))
CMD_COMMON_SRC := $(wildcard cmds/cmd-*.c)
CMD_COMMON_OBJ := $(CMD_COMMON_SRC:%.c=$(CMD_O)/%.o)

# tests/unit/check_*.c are Check suites; other tests/unit/*.c are small
# tools the scenario and golden tests run (each one file).
UNIT_SRC := $(sort $(wildcard tests/unit/check_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(O)/tests/%)
TOOL_SRC := $(filter-out $(UNIT_SRC),$(sort $(wildcard tests/unit/*.c)))
TOOL_BIN := $(TOOL_SRC:tests/unit/%.c=$(O)/tests/%)

BINS	:= $(CMDS:%=$(O)/bin/%)
SBINS	:= $(DAEMONS:%=$(O)/sbin/%)

# The sample fairshare adjustment plug-in (libfairshareadjust(3)): built,
# not installed; an administrator copies it into LSF_LIBDIR.
PLUGIN	:= $(O)/lib/libfairshareadjust.so

all: $(BINS) $(SBINS) $(TOOL_BIN) $(PLUGIN)

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The commands' objects and library, apart when another libc builds them
# (src/conn*.c are libevent's side: the commands do not use them).  With
# musl they also get their own malloc (cmds/cmd-malloc.c).
CMD_LIB	:= $(CMD_O)/lib/liblsf.a
ifneq ($(CMD_O),$(O))
CMD_HDRS := $(addprefix $(CMD_O)/include/,munge.h yaml.h jansson.h \
	jansson_config.h)
$(CMD_O)/%.o: %.c | $(CMD_HDRS)
	@mkdir -p $(dir $@)
	$(CMD_CC) $(CFLAGS) -I$(CMD_O)/include -DLSF_SHORTALLOC -c -o $@ $<

$(CMD_O)/include/munge.h: $(MUNGE_INCDIR)/munge.h
	@mkdir -p $(dir $@)
	cp $< $@

$(CMD_O)/include/%.h: $(INCDIR)/%.h
	@mkdir -p $(dir $@)
	cp $< $@

$(CMD_LIB): $(patsubst %.c,$(CMD_O)/%.o,$(filter-out src/conn.c src/conn-auth.c $(HIST_SRC),$(LIB_SRC)))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
endif

$(O)/bin/%: $(CMD_O)/cmds/%.o $(CMD_COMMON_OBJ) $(CMD_LIB)
	@mkdir -p $(dir $@)
	$(CMD_CC) $(LDFLAGS) $(CMD_LDFLAGS) -o $@ $^ $(CMD_LIBS)

# The history readers (bhist) link sqlite3, which musl's static build has
# no copy of: they are built with the system's compiler, dynamically.  A
# history query is not on a workflow tool's hot path as bjobs is.
HIST_CMDS := bhist bacct
$(HIST_CMDS:%=$(O)/bin/%): $(O)/bin/%: $(O)/cmds/%.o \
    $(patsubst %.c,$(O)/%.o,$(filter-out cmds/cmd-malloc.c cmds/cmd-fortify.c,$(CMD_COMMON_SRC))) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lsqlite3 -lyaml -ljansson -lmunge -lm

# mbatchd's state core, $(MBD_CORE_LIB): the jobs, queues and hosts in
# memory and every change to them (the records' apply functions, the
# accounting around job_set_status), without mbatchd's sockets and disk.
# mbatchd links it with the rest of its objects (its I/O); check_mbd
# with stand-ins for that I/O (tests/unit/stubs/mbd-stubs.c), and so
# does the workload 9 simulator (bench/sim/build.sh), so that its
# figures come from the real accounting.
MBD_CORE := state array users reserve depend limits apply apply-table \
	apply-new apply-job apply-ctrl dump replay apps control modify signal \
	prepost mig rlimits preempt fairshare fsadjust chkpnt start
MBD_CORE_OBJ := $(MBD_CORE:%=$(O)/daemons/mbatchd/mbd-%.o)
MBD_CORE_LIB := $(O)/lib/libmbdcore.a

$(MBD_CORE_LIB): $(MBD_CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

define daemon_rule
$(O)/sbin/$(1): $$(filter-out $(if $(filter mbatchd,$(1)),$(MBD_CORE_OBJ)),\
    $$(patsubst %.c,$(O)/%.o,$$(wildcard daemons/$(1)/*.c))) \
    $(if $(filter mbatchd,$(1)),$(MBD_CORE_LIB)) $(DAEMON_COMMON_OBJ) $(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LIBS) $$(DAEMON_LIBS)
endef
$(foreach d,$(DAEMONS),$(eval $(call daemon_rule,$(d))))

$(O)/tests/check_mbd: $(O)/tests/unit/check_mbd.o \
    $(O)/tests/unit/stubs/mbd-stubs.o $(MBD_CORE_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) $(CHECK_LIBS)

$(O)/tests/unit/check_mbd.o $(O)/tests/unit/stubs/mbd-stubs.o: \
    CFLAGS += -Idaemons/mbatchd -Itests/unit/stubs

$(PLUGIN): etc/plugins/fairshareadjust-sample.c include/lsf-fsadjust.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -shared -o $@ $<

# check_fsadjust loads the sample and libraries the loader must refuse.
FSADJ_BAD := $(patsubst tests/unit/plugins/%.c,$(O)/tests/plugins/%.so,\
	$(wildcard tests/unit/plugins/*.c))
$(O)/tests/plugins/%.so: tests/unit/plugins/%.c include/lsf-fsadjust.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -shared -o $@ $<
$(O)/tests/check_fsadjust: | $(PLUGIN) $(FSADJ_BAD)

$(O)/tests/check_%: $(O)/tests/unit/check_%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) $(CHECK_LIBS)

$(TOOL_BIN): $(O)/tests/%: $(O)/tests/unit/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# Fuzz targets (clang's libFuzzer, under ASan and UBSan): tests/fuzz/fuzz_*.c,
# each linked with the other tests/fuzz/*.c and the library built apart
# in build-fuzz/.  make check runs each a few seconds over its corpus
# (tools/run-tests.sh); for a longer run, e.g.
#   make fuzz && build-fuzz/fuzz_wire -max_total_time=600 \
#	/tmp/new tests/fuzz/corpus/wire
# UBSan stops at its first report, so libFuzzer saves the input.
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_AUX := $(filter-out $(FUZZ_SRC),$(wildcard tests/fuzz/*.c))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
FUZZ_SAN := address,undefined
ifdef FUZZ_HALT
CFLAGS	+= -fno-sanitize-recover=undefined
endif
fuzz:
	@command -v clang >/dev/null || { echo "make fuzz: clang is" \
	    "not installed (tools/install-deps.sh installs it)" >&2; exit 1; }
	$(MAKE) O=build-fuzz CC=clang SANITIZE=fuzzer-no-link,$(FUZZ_SAN) \
	    FUZZ_HALT=1 fuzz-targets

fuzz-targets: $(FUZZ_BIN)

$(FUZZ_BIN): build-fuzz/%: tests/fuzz/%.c $(FUZZ_AUX) \
    $(wildcard tests/fuzz/*.h) $(LIB)
	clang -g -O1 -Iinclude -Itests/fuzz -D_GNU_SOURCE -std=c11 \
	    -fsanitize=fuzzer,$(FUZZ_SAN) -fno-sanitize-recover=undefined \
	    -o $@ $< $(FUZZ_AUX) $(LIB) $(LIBS)

deps:
	@tools/install-deps.sh

# Warnings are errors here; the ASan/UBSan build also runs a subset of
# the scenario tests (tools/run-tests.sh, ASAN_SCENARIOS).  The three
# builds go side by side, sharing one job server of a job per CPU, so
# that both cores stay busy from the first object to the last link.
NPROC	:= $(shell nproc 2>/dev/null || echo 2)
check: deps
	$(MAKE) -j$(NPROC) check-build-plain check-build-asan check-build-fuzz
	tools/run-tests.sh

check-build-plain:
	$(MAKE) DEVELOPER=1 all units check-headers check-tours
check-build-asan:
	$(MAKE) O=build-asan SANITIZE=address,undefined DEVELOPER=1 all units
check-build-fuzz:
	$(MAKE) fuzz

units: $(UNIT_BIN)

# Each daemon header's tour names every file of its directory.
check-tours:
	tools/check-tours.sh

# Every header compiles on its own, as the first and only thing a .c
# includes: a header says what it needs.  A stamp per header, made
# again when it or anything it includes changes.
HDRS	:= $(sort $(wildcard include/*.h src/*.h daemons/*/*.h))
HDR_OK	:= $(HDRS:%=$(O)/hdrcheck/%.ok)
check-headers: $(HDR_OK)

$(HDR_OK): $(O)/hdrcheck/%.ok: %
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsyntax-only -MF $@.d -MT $@ -include $< -x c /dev/null
	@touch $@

demo: deps
	$(MAKE) all
	tools/demo.sh

# The benchmark suite (bench/run.sh): BENCH_SCALE=0.01 for a quick look,
# BENCH_NO_SLURM=1 to leave Slurm out.  Not part of check.
bench: deps
	$(MAKE) all
	BUILD=$(abspath $(O)) bench/run.sh

# The systemd units (etc/systemd, written for /opt/lsf) with PREFIX in
# their paths, and lsf_daemons, which starts them or the daemons.
# UNITDIR= (empty) installs no unit outside PREFIX.
UNITDIR	?= /etc/systemd/system
UNITS	:= $(patsubst etc/systemd/%,$(O)/systemd/%,$(wildcard etc/systemd/*.service))

$(O)/systemd/%.service: etc/systemd/%.service
	@mkdir -p $(dir $@)
	sed 's|/opt/lsf|$(PREFIX)|g' $< >$@

$(O)/lsf_daemons: tools/lsf_daemons
	@mkdir -p $(dir $@)
	sed 's|@PREFIX@|$(PREFIX)|g' $< >$@

# The units and the script depend on PREFIX: made again at each install.
install: all
	rm -f $(UNITS) $(O)/lsf_daemons
	$(MAKE) $(UNITS) $(O)/lsf_daemons
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/sbin \
		$(DESTDIR)$(PREFIX)/conf $(DESTDIR)$(PREFIX)/include \
		$(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man3 \
		$(DESTDIR)$(PREFIX)/share/man/man5 $(DESTDIR)$(PREFIX)/share/man/man8
	install -m 0755 $(BINS) $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(SBINS) $(O)/lsf_daemons $(DESTDIR)$(PREFIX)/sbin
	# The sample checkpoint method, into LSF_SERVERDIR (PREFIX/sbin).
	install -m 0755 etc/serverdir/echkpnt.sample \
		etc/serverdir/erestart.sample $(DESTDIR)$(PREFIX)/sbin
	# The sample configuration (LSF_TOP/conf); never over an edited one.
	cp -Rn etc/. $(DESTDIR)$(PREFIX)/conf/
	# What a plug-in is built with (its sample is in conf/plugins).
	install -m 0644 include/lsf-fsadjust.h $(DESTDIR)$(PREFIX)/include/
	# The units are built, not edited (drop-ins change them): replaced.
	install -m 0644 $(UNITS) $(DESTDIR)$(PREFIX)/conf/systemd/
	[ -z "$(UNITDIR)" ] || { install -d $(DESTDIR)$(UNITDIR) && \
		install -m 0644 $(UNITS) $(DESTDIR)$(UNITDIR)/; }
	for s in 1 3 5 8; do \
		for f in man/*.$$s; do [ -e "$$f" ] && \
			install -m 0644 $$f $(DESTDIR)$(PREFIX)/share/man/man$$s/; done; \
	done; true

clean:
	rm -rf $(O)

.PHONY: all deps check units demo install clean fuzz fuzz-targets bench \
	check-build-plain check-build-asan check-build-fuzz check-tours \
	check-headers
.SECONDARY:

-include $(shell find $(O) -name '*.d' 2>/dev/null)
