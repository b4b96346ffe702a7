#!/bin/bash
# The benchmark suite of issue 4 (`make bench` runs it after building):
# the machine's physical limits (bench/limits.c, and bench/tools/chain.c
# for workload 4's floor), our workloads 1-8 and 10-12 (bench/wNN-*.sh;
# 10 is load-based suspension, issue 20; 11 preemption latency, issue
# 21; 12 master failover, issue 23), workload 9 (bench/sim/run.sh, bench/w09-cluster50.sh), the
# fairshare accuracy checks (bench/sim/fsacc.sh, part w9acc) and Slurm
# side by side (bench/peers/slurm.sh, skipped when BENCH_NO_SLURM is
# set; BENCH_ONLY=w11 runs Slurm's workload 11 with ours), and workload
# 14, history at scale: sacct on Slurm's slurmdbd with MariaDB against
# bhist (bench/peers/slurmdbd.sh, issue 24; skipped when BENCH_NO_SLURM
# is set, alone with BENCH_ONLY=w14).  Every
# RESULT|key|value|unit line goes to bench/out/results.tsv; then one
# table (bench/out/table.txt) and plots (bench/out/*.png, with gnuplot).
#
#	BUILD=build bench/run.sh		# the issue's sizes
#	BENCH_SCALE=0.01 bench/run.sh		# a quick look
#	BENCH_ONLY="limits w1 w5" bench/run.sh	# some of them
#	BENCH_ONLY=w10 bench/run.sh		# load-based suspension only
#	BENCH_ONLY=w11 bench/run.sh		# preemption, ours and Slurm's
#	BENCH_ONLY=w12 bench/run.sh		# master failover only
#	BENCH_ONLY=w14 bench/run.sh		# history: sacct and bhist
#	BENCH_ONLY=w9acc bench/run.sh		# fairshare accuracy only
#						# (w9 runs it too)
#	bench/run.sh -t				# only the table and plots
#						# of the last results.tsv
#
# Benchmarks are not tests: nothing here fails on a figure, except
# fairshare's accuracy (w9acc), which is a check: when one of its checks
# fails, the table and plots are made and the script exits 1.
set -u

. "$(dirname "$0")/lib.sh"
B_NAME=run
BENCH=$BTOP/bench
mkdir -p "$BENCH_OUT"
RESULTS=$BENCH_OUT/results.tsv
LOG=$BENCH_OUT/run.log
export BUILD BENCH_SCALE BENCH_OUT BENCH_TMP BTOOLS

# ------------------------------------------------------------------ tools
build_tools() {
	local cflags="-O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra"
	mkdir -p "$BTOOLS"
	[ -f "$BUILD/lib/liblsf.a" ] || { say "no $BUILD/lib/liblsf.a:" \
	    "build first (make all, or make O=... all)"; exit 1; }
	cc $cflags -o "$BTOOLS/limits" "$BENCH/limits.c" || exit 1
	# The minimal program, built as the commands are (Makefile): static,
	# with musl where musl-gcc is installed, else with glibc.  A limit
	# built heavier than bsub would not bound it.  The glibc one is
	# measured beside it, to show what its start-up costs here.
	cc -O2 -static -o "$BTOOLS/nop-glibc" "$BENCH/tools/nop.c" 2>/dev/null ||
	    cc -O2 -o "$BTOOLS/nop-glibc" "$BENCH/tools/nop.c" || exit 1
	NOP_GLIBC=()
	if [ -f "$BUILD/musl/lib/liblsf.a" ]; then
		musl-gcc -O2 -static -o "$BTOOLS/nop" "$BENCH/tools/nop.c" || exit 1
		musl-gcc -O2 -static -o "$BTOOLS/rtcli" \
		    "$BENCH/tools/rtcli.c" || exit 1
		NOP_GLIBC=(-g "$BTOOLS/nop-glibc")
	else
		cp "$BTOOLS/nop-glibc" "$BTOOLS/nop"
		cc -O2 -static -o "$BTOOLS/rtcli" "$BENCH/tools/rtcli.c" \
		    2>/dev/null || cc -O2 -o "$BTOOLS/rtcli" \
		    "$BENCH/tools/rtcli.c" || exit 1
	fi
	cc $cflags -o "$BTOOLS/stamp" "$BENCH/tools/stamp.c" || exit 1
	cc $cflags -o "$BTOOLS/chain" "$BENCH/tools/chain.c" || exit 1
	need_tool mklog >/dev/null
}

# ------------------------------------------------------------------ runs
want() {
	[ -z "${BENCH_ONLY:-}" ] && return 0
	case " $BENCH_ONLY " in *" $1 "*) return 0 ;; esac
	return 1
}

# run_part NAME CMD...: run one part, its RESULT lines to results.tsv,
# the rest to the log; bounded in time.
run_part() {
	local name=$1 rc
	shift
	say "---- $name: $*"
	echo "---- $name $(date -u +%FT%TZ)" >>"$LOG"
	timeout -k 10 "${BENCH_PART_SECS:-1800}" "$@" 2>>"$LOG" |
	    tee -a "$LOG" | awk -F'|' -v OFS='\t' '
		/^RESULT\|/ { print $2, $3, $4; fflush()
		    printf "#   %s = %s %s\n", $2, $3, $4 >"/dev/stderr" }
		/^(PASS|FAIL|INFO) / { print "#   " $0 >"/dev/stderr" }' \
	    >>"$RESULTS"
	rc=${PIPESTATUS[0]}
	[ "$rc" -eq 0 ] || say "$name failed (status $rc; see $LOG)"
	return "$rc"
}
CHECKS_FAILED=0

machine_info() {
	{
		echo "date: $(date -u +%FT%TZ)"
		echo "host: $(uname -srm)"
		echo "cpu: $(awk -F': ' '/model name/ { print $2; exit }' \
		    /proc/cpuinfo) x $(nproc)"
		echo "memory: $(awk '/MemTotal/ { print $2, $3 }' /proc/meminfo)"
		echo "bench dir file system: $(df -T "$BENCH_TMP" |
		    awk 'NR == 2 { print $2, $1 }')"
		echo "commit: $(git -C "$BTOP" rev-parse --short HEAD 2>/dev/null)"
		echo "scale: $BENCH_SCALE"
		echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	} >"$BENCH_OUT/machine.txt"
}

run_all() {
	local w f
	: >"$RESULTS"
	: >"$LOG"
	machine_info
	build_tools
	if want limits; then
		run_part limits "$BTOOLS/limits" -d "$BENCH_TMP" \
		    -p "$BTOOLS/nop" "${NOP_GLIBC[@]}" -c "$BTOOLS/rtcli" \
		    -n "$(scaled 2000 200)"
		# Workload 4's floor for a system of this shape.
		run_part limits "$BTOOLS/chain" -d "$BENCH_TMP" -s 2 \
		    -n "$(scaled 2000 200)"
	fi
	for f in "$BENCH"/w[0-9][0-9]-*.sh; do
		w=$(basename "$f" | sed 's/^w0*\([0-9]*\)-.*/w\1/')
		want "$w" && run_part "$w" bash "$f"
	done
	if [ -x "$BENCH/sim/run.sh" ] || [ -f "$BENCH/sim/run.sh" ]; then
		want w9 && run_part w9 bash "$BENCH/sim/run.sh"
	fi
	if [ -f "$BENCH/sim/fsacc.sh" ] && { want w9 || want w9acc; }; then
		run_part w9acc bash "$BENCH/sim/fsacc.sh" || CHECKS_FAILED=1
	fi
	if [ -z "${BENCH_NO_SLURM:-}" ] && [ -f "$BENCH/peers/slurm.sh" ]; then
		if want slurm; then
			run_part slurm bash "$BENCH/peers/slurm.sh"
		elif want w11; then
			# Workload 11 is ours beside Slurm's, in the same run.
			run_part slurm env SLURM_WORKLOADS=11 \
			    bash "$BENCH/peers/slurm.sh"
		fi
		if [ -f "$BENCH/peers/slurmdbd.sh" ] && want w14; then
			run_part w14 bash "$BENCH/peers/slurmdbd.sh"
		fi
	fi
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$BENCH_OUT/machine.txt"
}

# ------------------------------------------------------------------ table
table() {
	awk -F'\t' -v OFS='\t' '
	function num(x) { return x ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ }
	function fmt(x) {
		if (x == "" || !num(x)) return "-"
		if (x + 0 >= 1000 || x + 0 <= -1000) return sprintf("%.0f", x)
		if (x + 0 >= 100) return sprintf("%.1f", x)
		return sprintf("%.3g", x)
	}
	function row(k,   w, m, o, s, r, l, tgt, t, ok, bad, parts, tv, sf) {
		w = k; sub(/\..*/, "", w)
		m = k; sub(/^[^.]*\./, "", m)
		if (unit[k] != "") m = m " (" unit[k] ")"
		o = val[k]; s = val["slurm." k]
		r = (o != "" && s != "" && s + 0 != 0) ? fmt(o / s) : "-"
		l = (lim[k] != "" && lim[k] != "-") ? fmt(val[lim[k]]) : "-"
		tgt = ""; ok = 0; bad = 0
		if (op[k] != "" && op[k] != "-") {
			tv = fac[k]
			if (ref[k] != "-") {
				tv = (val[ref[k]] != "") ? fac[k] * val[ref[k]] : ""
				t = op[k] " " fmt(tv) " (" fac[k] "x " ref[k] ")"
			} else {
				t = op[k] " " fac[k]
			}
			tgt = t
			if (o != "" && tv != "") {
				if ((op[k] == ">=" && o + 0 >= tv + 0) ||
				    (op[k] == "<=" && o + 0 <= tv + 0)) ok++
				else bad++
			}
		}
		sf = sfac[k]
		if (sf != "" && sf != "-") {
			tgt = tgt (tgt != "" ? "; " : "") \
			    (better[k] == "hi" ? ">= " sf "x Slurm" : \
			    "<= Slurm/" sf)
			if (o != "" && s != "") {
				if ((better[k] == "hi" && o + 0 >= sf * s) ||
				    (better[k] == "lo" && o + 0 <= s / sf)) ok++
				else bad++
			}
		}
		if (tgt == "") { tgt = "-"; met = "-" }
		else if (o == "") met = "n/a"
		else if (bad) met = "NO"
		else if (ok) met = "yes"
		else met = "no Slurm"
		print w, m, fmt(o), fmt(s), r, l, tgt, met
		done[k] = 1; done["slurm." k] = 1
	}
	FILENAME == ARGV[1] {
		if ($0 ~ /^#/ || NF < 7) next
		order[++n] = $1; better[$1] = $2; lim[$1] = $3
		op[$1] = $4; fac[$1] = $5; ref[$1] = $6; sfac[$1] = $7
		next
	}
	{
		if (!($1 in val)) keys[++nk] = $1
		val[$1] = $2; unit[$1] = $3
		if ($1 ~ /^slurm\./) {
			k = substr($1, 7)
			if (unit[k] == "") unit[k] = $3
		}
	}
	END {
		print "workload", "metric", "ours", "Slurm", "ours:Slurm",
		    "limit", "target", "met"
		for (i = 1; i <= n; i++)
			if ((order[i] in val) || (("slurm." order[i]) in val))
				row(order[i])
		for (i = 1; i <= nk; i++) {
			k = keys[i]
			if (k in done) continue
			if (k ~ /^slurm\./) {
				k2 = substr(k, 7)
				if (k2 in done) continue
				better[k2] = "hi"; row(k2)
			} else {
				row(k)
			}
		}
	}' "$BENCH/targets.tsv" "$RESULTS" >"$BENCH_OUT/table.tsv"
	column -t -s "$(printf '\t')" "$BENCH_OUT/table.tsv" \
	    >"$BENCH_OUT/table.txt"
	cat "$BENCH_OUT/table.txt"
	echo
	echo "(machine: $(sed -n 's/^cpu: //p' "$BENCH_OUT/machine.txt" \
	    2>/dev/null); scale $(sed -n 's/^scale: //p' \
	    "$BENCH_OUT/machine.txt" 2>/dev/null); results in $RESULTS)"
}

# ------------------------------------------------------------------ plots
plots() {
	local v k
	if ! command -v gnuplot >/dev/null 2>&1; then
		if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
			say "installing gnuplot-nox"
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			    --no-install-recommends gnuplot-nox >>"$LOG" 2>&1 ||
			    { DEBIAN_FRONTEND=noninteractive apt-get update -q \
			    >>"$LOG" 2>&1; DEBIAN_FRONTEND=noninteractive \
			    apt-get install -y -q --no-install-recommends \
			    gnuplot-nox >>"$LOG" 2>&1; }
		fi
		command -v gnuplot >/dev/null 2>&1 ||
		    { say "no gnuplot: no plots"; return 0; }
	fi
	# Rates: ours, Slurm's, the limit ("-" where there is none).
	get() {
		awk -F'\t' -v k="$1" '$1 == k { v = $2 } END {
		    print (v == "" ? "-" : v) }' "$RESULTS"
	}
	{
		echo "# workload ours slurm limit"
		for k in w1.submit_rate:limit.spawn_fsync_rate \
		    w2.submit_rate:- \
		    w3.array_run_rate:limit.forkexec_rate_1 \
		    w4.release_run_rate:limit.forkexec_rate_2 \
		    w6.submit_rate_polled:-; do
			v=${k%%:*}
			echo "\"${v%%.*} ${v#*.}\" $(get "$v") $(get "slurm.$v")" \
			    "$( [ "${k#*:}" = - ] && echo - || get "${k#*:}")"
		done
	} >"$BENCH_OUT/rates.dat"
	# A run of some workloads only may have no rate to plot.
	awk 'NR > 1 && $(NF - 2) != "-" { n++ } END { exit !n }' \
	    "$BENCH_OUT/rates.dat" || { say "no rates in this run: no plots"; return 0; }
	gnuplot -e "out='$BENCH_OUT'" "$BENCH/plot.gp" >>"$LOG" 2>&1 ||
	    say "gnuplot failed (see $LOG)"
	ls "$BENCH_OUT"/*.png 2>/dev/null | sed 's/^/plot: /'
}

if [ "${1:-}" != "-t" ]; then
	run_all
fi
table
plots
if [ "$CHECKS_FAILED" != 0 ]; then
	say "fairshare accuracy: a check failed (see $LOG)"
	exit 1
fi
