/*
 * The load sampler against fixture /proc trees replayed at chosen times,
 * against the real /proc, and the lsload/lshosts value formatting.
 */
#include <check.h>
#include <ctype.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <utmpx.h>

#include "loadsample.h"
#include "num.h"
#include "util.h"

#define TOL	1e-4
#define WALL	1700000000.0	/* a fixed "now" on the wall clock */

static const char meminfo_text[] =
    "MemTotal:       16384000 kB\n"
    "MemFree:         1024000 kB\n"
    "MemAvailable:    8192000 kB\n"
    "Buffers:             100 kB\n"
    "Cached:          2048000 kB\n"
    "SwapCached:            7 kB\n"
    "SwapTotal:       4096000 kB\n"
    "SwapFree:        2048000 kB\n";

static char *
fixture(void)
{
	char *dir = xstrdup("/tmp/check_loadsample.XXXXXX");

	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void
rm_tree(char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

static char *
path_in(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void
put(const char *dir, const char *name, const char *text)
{
	char *p = path_in(dir, name);
	FILE *f = fopen(p, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	free(p);
}

static void
unput(const char *dir, const char *name)
{
	char *p = path_in(dir, name);

	unlink(p);
	free(p);
}

static void
mkdir_in(const char *dir, const char *name)
{
	char *p = path_in(dir, name);

	ck_assert_int_eq(mkdir(p, 0755), 0);
	free(p);
}

static void
set_atime(const char *dir, const char *name, double t)
{
	char *p = path_in(dir, name);
	struct timespec ts[2];

	ts[0].tv_sec = (time_t)t;
	ts[0].tv_nsec = 0;
	ts[1] = ts[0];
	ck_assert_int_eq(utimensat(AT_FDCWD, p, ts, 0), 0);
	free(p);
}

/* A sampler on dir with no login records and no terminals. */
static void
sampler_on(struct load_sampler *s, const char *dir)
{
	load_sampler_init(s, dir, dir);
	snprintf(s->utmp_path, sizeof(s->utmp_path), "%s/no-utmp", dir);
	snprintf(s->dev_dir, sizeof(s->dev_dir), "%s/no-dev", dir);
}

static void
put_all(const char *dir)
{
	put(dir, "loadavg", "0.50 0.40 0.30 3/200 1234\n");
	put(dir, "stat", "cpu  100 0 100 800 0 0 0 0 0 0\n"
	    "cpu0 100 0 100 800 0 0 0 0 0 0\nintr 1 2 3\n");
	put(dir, "vmstat", "nr_free_pages 12\npgpgin 1000\npgpgout 1000\n"
	    "pswpin 0\npswpout 0\n");
	put(dir, "meminfo", meminfo_text);
	put(dir, "uptime", "600.5 1000.0\n");
}

START_TEST(test_rates_and_smoothing)
{
	struct load_sampler s;
	float l[NLOADIDX];
	char *dir = fixture();
	double e, r15s, ut, pg, io;

	put_all(dir);
	sampler_on(&s, dir);

	/* First sample: levels are read, rates have no baseline yet. */
	ck_assert_int_eq(load_sample(&s, 100, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_R15S], 2, TOL);
	ck_assert_double_eq_tol(l[LI_R1M], 0.5, TOL);
	ck_assert_double_eq_tol(l[LI_R15M], 0.3, TOL);
	ck_assert_double_eq_tol(l[LI_UT], 0, TOL);
	ck_assert_double_eq_tol(l[LI_PG], 0, TOL);
	ck_assert_double_eq_tol(l[LI_IO], 0, TOL);
	ck_assert_double_eq_tol(l[LI_MEM], 8000, TOL);
	ck_assert_double_eq_tol(l[LI_SWP], 2000, TOL);
	ck_assert_double_eq_tol(l[LI_LS], 0, TOL);
	ck_assert_double_eq_tol(l[LI_IT], 10, TOL);	/* uptime 600.5 s */
	ck_assert(l[LI_TMP] > 0);

	/* 10 s later: the first rates are reported unsmoothed. */
	put(dir, "loadavg", "0.60 0.40 0.30 11/200 1234\n");
	put(dir, "stat", "cpu  400 0 100 1000 0 0 0 0 0 0\n");
	put(dir, "vmstat", "pgpgin 3000\npgpgout 1000\npswpin 50\n"
	    "pswpout 50\n");
	ck_assert_int_eq(load_sample(&s, 110, WALL, l), 0);
	e = exp(-10 / LOAD_TAU_R15S);
	r15s = 2 * e + 10 * (1 - e);
	ck_assert_double_eq_tol(l[LI_R15S], r15s, TOL);
	ck_assert_double_eq_tol(l[LI_R1M], 0.6, TOL);
	ck_assert_double_eq_tol(l[LI_UT], 0.6, TOL);	/* 300 of 500 */
	ck_assert_double_eq_tol(l[LI_PG], 10, TOL);	/* 100 pages / 10 s */
	ck_assert_double_eq_tol(l[LI_IO], 200, TOL);	/* 2000 KB / 10 s */

	/*
	 * 20 s later: fully busy (guest ticks are inside user and do not
	 * count twice), no paging, no I/O.
	 */
	put(dir, "stat", "cpu  1400 0 100 1000 0 0 0 0 500 0\n");
	ck_assert_int_eq(load_sample(&s, 130, WALL, l), 0);
	e = exp(-20 / LOAD_TAU_R15S);
	r15s = r15s * e + 10 * (1 - e);
	e = exp(-20 / LOAD_TAU_UT);
	ut = 0.6 * e + 1 * (1 - e);
	e = exp(-20 / LOAD_TAU_PG);
	pg = 10 * e;
	e = exp(-20 / LOAD_TAU_IO);
	io = 200 * e;
	ck_assert_double_eq_tol(l[LI_R15S], r15s, TOL);
	ck_assert_double_eq_tol(l[LI_UT], ut, TOL);
	ck_assert_double_eq_tol(l[LI_PG], pg, TOL);
	ck_assert_double_eq_tol(l[LI_IO], io, 1e-3);

	/* Same instant again: nothing moves, the baseline is kept. */
	put(dir, "stat", "cpu  9999 0 100 1000 0 0 0 0 0 0\n");
	ck_assert_int_eq(load_sample(&s, 130, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_UT], ut, TOL);
	ck_assert_double_eq_tol(l[LI_R15S], r15s, TOL);

	/* 10 s on, measured from t=130: 8599 busy of 8599 ticks. */
	ck_assert_int_eq(load_sample(&s, 140, WALL, l), 0);
	e = exp(-10 / LOAD_TAU_UT);
	ut = ut * e + 1 * (1 - e);
	ck_assert_double_eq_tol(l[LI_UT], ut, TOL);

	/* Counters went backwards: restart, the value stays. */
	put(dir, "stat", "cpu  10 0 10 10 0 0 0 0 0 0\n");
	put(dir, "vmstat", "pgpgin 0\npgpgout 0\npswpin 0\npswpout 0\n");
	ck_assert_int_eq(load_sample(&s, 150, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_UT], ut, TOL);
	io = l[LI_IO];
	pg = l[LI_PG];

	/* And the next rate is taken from the new baseline: idle. */
	put(dir, "stat", "cpu  10 0 10 110 0 0 0 0 0 0\n");
	put(dir, "vmstat", "pgpgin 150\npgpgout 150\npswpin 0\npswpout 0\n");
	ck_assert_int_eq(load_sample(&s, 160, WALL, l), 0);
	e = exp(-10 / LOAD_TAU_UT);
	ck_assert_double_eq_tol(l[LI_UT], ut * e, TOL);
	e = exp(-10 / LOAD_TAU_IO);
	ck_assert_double_eq_tol(l[LI_IO], io * e + 30 * (1 - e), 1e-3);
	e = exp(-10 / LOAD_TAU_PG);
	ck_assert_double_eq_tol(l[LI_PG], pg * e, TOL);

	rm_tree(dir);
}
END_TEST

START_TEST(test_iowait_is_idle)
{
	struct load_sampler s;
	float l[NLOADIDX];
	char *dir = fixture();

	put_all(dir);
	sampler_on(&s, dir);
	ck_assert_int_eq(load_sample(&s, 0, WALL, l), 0);
	/* +100 user, +100 iowait, +100 irq/softirq/steal, +700 idle. */
	put(dir, "stat", "cpu  200 0 100 1500 100 50 25 25 0 0\n");
	ck_assert_int_eq(load_sample(&s, 5, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_UT], 0.2, TOL);
	rm_tree(dir);
}
END_TEST

START_TEST(test_meminfo)
{
	struct load_sampler s;
	float l[NLOADIDX];
	char *dir = fixture();

	put_all(dir);
	sampler_on(&s, dir);
	ck_assert_int_eq(load_sample(&s, 0, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_MEM], 8000, TOL);
	ck_assert_double_eq_tol(l[LI_SWP], 2000, TOL);

	/* Old kernels: MemFree + Cached, and SwapCached is not Cached. */
	put(dir, "meminfo", "MemTotal: 16384000 kB\nMemFree: 1024000 kB\n"
	    "SwapCached: 4096 kB\nCached: 2048000 kB\nSwapFree: 0 kB\n");
	ck_assert_int_eq(load_sample(&s, 1, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_MEM], 3000, TOL);
	ck_assert_double_eq_tol(l[LI_SWP], 0, TOL);
	rm_tree(dir);
}
END_TEST

START_TEST(test_nothing_readable)
{
	struct load_sampler s;
	float l[NLOADIDX];
	char *dir = fixture();
	char *gone = path_in(dir, "gone");
	int i;

	sampler_on(&s, gone);
	ck_assert_int_eq(load_sample(&s, 0, WALL, l), -1);
	ck_assert_int_eq(load_sample(&s, 10, WALL, l), -1);
	for (i = 0; i < NLOADIDX; i++)
		ck_assert_double_eq(l[i], 0);

	/* One readable file is enough to succeed. */
	sampler_on(&s, dir);
	snprintf(s.tmpdir, sizeof(s.tmpdir), "%s", gone);
	put(dir, "loadavg", "1.25 1.00 0.75 1/10 5\n");
	ck_assert_int_eq(load_sample(&s, 0, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_R1M], 1.25, TOL);
	ck_assert_double_eq_tol(l[LI_R15S], 0, TOL);
	ck_assert_double_eq_tol(l[LI_MEM], 0, TOL);
	ck_assert_double_eq_tol(l[LI_TMP], 0, TOL);
	free(gone);
	rm_tree(dir);
}
END_TEST

/* Every file turns bad or disappears: every index keeps its value. */
START_TEST(test_bad_files_keep_values)
{
	static const char *const loadavgs[] = {
		"", "garbage\n", "0.5 0.4\n", "nan nan nan 1/2 3\n",
		"-1 -1 -1 1/1 1\n", "0.5x 0.4 0.3 1/2 3\n",
	};
	struct load_sampler s;
	float l[NLOADIDX], before[NLOADIDX];
	char *dir = fixture();
	size_t i;
	int j;

	put_all(dir);
	sampler_on(&s, dir);
	ck_assert_int_eq(load_sample(&s, 0, WALL, l), 0);
	put(dir, "stat", "cpu  400 0 100 1000 0 0 0 0 0 0\n");
	put(dir, "vmstat", "pgpgin 3000\npgpgout 1000\npswpin 50\n"
	    "pswpout 50\n");
	ck_assert_int_eq(load_sample(&s, 10, WALL, before), 0);

	for (i = 0; i < ARRAY_SIZE(loadavgs); i++) {
		put(dir, "loadavg", loadavgs[i]);
		put(dir, "stat", i % 2 ? "cpu x y z\n" : "cpu  1 2\n");
		put(dir, "vmstat", i % 2 ? "pgpgin\npswpin -5\n" : "");
		put(dir, "meminfo", i % 2 ? "MemFree: abc kB\n" :
		    "SwapFree: 99999999999999999999999 kB\n");
		put(dir, "uptime", i % 2 ? "x\n" : "");
		ck_assert_int_eq(load_sample(&s, 20 + (double)i, WALL, l), 0);
		for (j = 0; j < NLOADIDX; j++)
			if (j != LI_TMP)
				ck_assert_double_eq_tol(l[j], before[j], TOL);
	}

	/* Files gone, and tmpdir too: nothing refreshed, nothing lost. */
	unput(dir, "loadavg");
	unput(dir, "stat");
	unput(dir, "vmstat");
	unput(dir, "meminfo");
	unput(dir, "uptime");
	snprintf(s.tmpdir, sizeof(s.tmpdir), "%s/gone", dir);
	ck_assert_int_eq(load_sample(&s, 40, WALL, l), -1);
	for (j = 0; j < NLOADIDX; j++)
		if (j != LI_TMP)
			ck_assert_double_eq_tol(l[j], before[j], TOL);
	rm_tree(dir);
}
END_TEST

/* A loadavg with a broken task count still gives r1m and r15m. */
START_TEST(test_loadavg_partial)
{
	struct load_sampler s;
	float l[NLOADIDX];
	char *dir = fixture();

	sampler_on(&s, dir);
	put(dir, "loadavg", "0.50 0.40 0.30 99999999999999999999999/3 1\n");
	ck_assert_int_eq(load_sample(&s, 0, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_R1M], 0.5, TOL);
	ck_assert_double_eq_tol(l[LI_R15S], 0, TOL);
	put(dir, "loadavg", "0.70 0.40 0.20\n");
	ck_assert_int_eq(load_sample(&s, 1, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_R1M], 0.7, TOL);
	ck_assert_double_eq_tol(l[LI_R15M], 0.2, TOL);
	put(dir, "loadavg", "0.70 0.40 0.20 0/3 1\n");	/* floor at 0 */
	ck_assert_int_eq(load_sample(&s, 2, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_R15S], 0, TOL);
	rm_tree(dir);
}
END_TEST

static void
put_utmp(const char *dir, const struct utmpx *u, size_t n)
{
	char *p = path_in(dir, "utmp");
	FILE *f = fopen(p, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(u, sizeof(*u), n, f), n);
	fclose(f);
	free(p);
}

static void
utmp_rec(struct utmpx *u, short type, const char *user, const char *line)
{
	memset(u, 0, sizeof(*u));
	u->ut_type = type;
	memcpy(u->ut_user, user, strlen(user) + 1);
	memcpy(u->ut_line, line, strlen(line) + 1);
}

START_TEST(test_logins_and_idle)
{
	struct load_sampler s;
	struct utmpx u[5];
	float l[NLOADIDX];
	char *dir = fixture();
	char *want;

	put_all(dir);
	utmp_rec(&u[0], USER_PROCESS, "alice", "pts/0");
	utmp_rec(&u[1], USER_PROCESS, "bob", "pts/1");
	utmp_rec(&u[2], USER_PROCESS, "alice", "pts/2");
	utmp_rec(&u[3], DEAD_PROCESS, "carol", "pts/3");
	utmp_rec(&u[4], LOGIN_PROCESS, "LOGIN", "tty1");
	put_utmp(dir, u, 5);
	mkdir_in(dir, "dev");
	mkdir_in(dir, "dev/pts");
	put(dir, "dev/pts/0", "");
	put(dir, "dev/pts/1", "");
	put(dir, "dev/pts/ptmx", "");
	put(dir, "dev/tty1", "");
	put(dir, "dev/ttyS0", "");
	put(dir, "dev/console", "");
	set_atime(dir, "dev/pts/0", WALL - 3600);
	set_atime(dir, "dev/pts/1", WALL - 600);
	set_atime(dir, "dev/tty1", WALL - 7200);
	set_atime(dir, "dev/pts/ptmx", WALL);	/* not a terminal */
	set_atime(dir, "dev/ttyS0", WALL);	/* a serial line */
	set_atime(dir, "dev/console", WALL);

	/* The fixture's own utmp and dev are found by themselves. */
	load_sampler_init(&s, dir, dir);
	want = path_in(dir, "utmp");
	ck_assert_str_eq(s.utmp_path, want);
	free(want);
	want = path_in(dir, "dev");
	ck_assert_str_eq(s.dev_dir, want);
	free(want);

	ck_assert_int_eq(load_sample(&s, 0, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_LS], 2, TOL);
	ck_assert_double_eq_tol(l[LI_IT], 10, TOL);

	/* Whole minutes: 59 s is 0, 119 s is 1. */
	set_atime(dir, "dev/tty1", WALL - 119);
	ck_assert_int_eq(load_sample(&s, 1, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_IT], 1, TOL);
	set_atime(dir, "dev/pts/0", WALL - 59);
	ck_assert_int_eq(load_sample(&s, 2, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_IT], 0, TOL);
	/* A terminal touched "in the future" (clock step) is not idle. */
	set_atime(dir, "dev/pts/1", WALL + 300);
	ck_assert_int_eq(load_sample(&s, 3, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_IT], 0, TOL);

	/* Nobody logged in, no terminal: idle since boot. */
	put_utmp(dir, u + 3, 2);
	unput(dir, "dev/pts/0");
	unput(dir, "dev/pts/1");
	unput(dir, "dev/tty1");
	ck_assert_int_eq(load_sample(&s, 4, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_LS], 0, TOL);
	ck_assert_double_eq_tol(l[LI_IT], 10, TOL);	/* 600.5 s up */
	put(dir, "uptime", "86400.00 1.00\n");
	ck_assert_int_eq(load_sample(&s, 5, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_IT], 1440, TOL);
	/* And no uptime either: the last value stays. */
	unput(dir, "uptime");
	ck_assert_int_eq(load_sample(&s, 6, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_IT], 1440, TOL);
	/* A truncated utmp record is not a login. */
	put(dir, "utmp", "short");
	ck_assert_int_eq(load_sample(&s, 7, WALL, l), 0);
	ck_assert_double_eq_tol(l[LI_LS], 0, TOL);
	rm_tree(dir);
}
END_TEST

static void
put_cpuinfo(const char *dir, const char *model, int sockets, int cores,
    int threads)
{
	struct strbuf sb = STRBUF_INIT;
	int p, c, t, n = 0;

	for (p = 0; p < sockets; p++)
		for (c = 0; c < cores; c++)
			for (t = 0; t < threads; t++) {
				sb_addf(&sb, "processor\t: %d\n", n++);
				sb_addf(&sb, "vendor_id\t: GenuineIntel\n");
				sb_addf(&sb, "model name\t: %s\n", model);
				sb_addf(&sb, "physical id\t: %d\n", p);
				sb_addf(&sb, "siblings\t: %d\n",
				    cores * threads);
				sb_addf(&sb, "core id\t\t: %d\n", c);
				sb_addf(&sb, "cpu cores\t: %d\n\n", cores);
			}
	put(dir, "cpuinfo", sb.buf);
	sb_release(&sb);
}

static void
put_stat_cpus(const char *dir, int n)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	sb_adds(&sb, "cpu  1 2 3 4 5 6 7 8 0 0\n");
	for (i = 0; i < n; i++)
		sb_addf(&sb, "cpu%d 1 2 3 4 5 6 7 8 0 0\n", i);
	sb_adds(&sb, "intr 12 0 1\nctxt 99\ncpuset 1\n");
	put(dir, "stat", sb.buf);
	sb_release(&sb);
}

START_TEST(test_host_static_fixture)
{
	struct host_static hs;
	struct utsname un;
	char *dir = fixture();
	char type[sizeof(un.machine)];
	size_t i;

	put_cpuinfo(dir, "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", 2, 4, 2);
	put_stat_cpus(dir, 16);
	put(dir, "meminfo", meminfo_text);
	ck_assert_int_eq(host_static_read(&hs, dir, dir), 0);
	ck_assert_int_eq(hs.ncpus, 16);
	ck_assert_int_eq(hs.nprocs, 2);
	ck_assert_int_eq(hs.ncores, 4);
	ck_assert_int_eq(hs.nthreads, 2);
	ck_assert_str_eq(hs.model, "Intel_Xeon");
	ck_assert_double_eq(hs.cpuf, 1.0);
	ck_assert_int_eq(hs.maxmem, 16000);
	ck_assert_int_eq(hs.maxswp, 4000);
	ck_assert_int_gt(hs.maxtmp, 0);
	ck_assert_int_eq(uname(&un), 0);
	for (i = 0; un.machine[i] != '\0'; i++)
		type[i] = (char)toupper((unsigned char)un.machine[i]);
	type[i] = '\0';
	ck_assert_str_eq(hs.type, type);

	/* No topology (as on many ARM kernels): one socket, no SMT. */
	put(dir, "cpuinfo", "processor\t: 0\nBogoMIPS\t: 50.00\n\n"
	    "processor\t: 1\nBogoMIPS\t: 50.00\n\n");
	put_stat_cpus(dir, 4);
	ck_assert_int_eq(host_static_read(&hs, dir, dir), 0);
	ck_assert_int_eq(hs.ncpus, 4);
	ck_assert_int_eq(hs.nprocs, 1);
	ck_assert_int_eq(hs.ncores, 4);
	ck_assert_int_eq(hs.nthreads, 1);
	ck_assert_str_eq(hs.model, "UNKNOWN_AUTO_DETECT");
	rm_tree(dir);
}
END_TEST

START_TEST(test_host_static_missing)
{
	struct host_static hs;
	char *dir = fixture();
	char *gone = path_in(dir, "gone");

	ck_assert_int_eq(host_static_read(&hs, gone, gone), -1);
	ck_assert_int_eq(hs.ncpus, 1);
	ck_assert_int_eq(hs.nprocs, 1);
	ck_assert_int_eq(hs.ncores, 1);
	ck_assert_int_eq(hs.nthreads, 1);
	ck_assert_str_eq(hs.model, "UNKNOWN_AUTO_DETECT");
	ck_assert_int_eq(hs.maxmem, 0);
	ck_assert_int_eq(hs.maxswp, 0);
	ck_assert_int_eq(hs.maxtmp, 0);
	ck_assert_double_eq(hs.cpuf, 1.0);
	ck_assert(hs.type[0] != '\0');

	/* Garbage everywhere is no better, and no worse. */
	put(dir, "stat", "\n\n\0cpu0");
	put(dir, "cpuinfo", "model name\nphysical id :\ncpu cores : -4\n"
	    "siblings : x\n:\n");
	put(dir, "meminfo", "MemTotal\n");
	ck_assert_int_eq(host_static_read(&hs, dir, dir), 0);
	ck_assert_int_eq(hs.ncpus, 1);
	ck_assert_int_eq(hs.ncores, 1);
	ck_assert_str_eq(hs.model, "UNKNOWN_AUTO_DETECT");
	ck_assert_int_eq(hs.maxmem, 0);
	free(gone);
	rm_tree(dir);
}
END_TEST

START_TEST(test_model_names)
{
	static const struct {
		const char	*name, *model;
	} t[] = {
		{ "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", "Intel_Xeon" },
		{ "AMD EPYC 7763 64-Core Processor", "AMD_EPYC_7763" },
		{ "Intel(R) Xeon(R) Processor", "Intel_Xeon" },
		{ "Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz", "Intel_Core" },
		{ "QEMU Virtual CPU version 2.5+", "QEMU_Virtual" },
		{ "Ampere-Altra-Q80-30-Extra-Long", "Ampere-Altra-Q8" },
		{ "   ", "UNKNOWN_AUTO_DETECT" },
		{ "CPU @ 2GHz", "UNKNOWN_AUTO_DETECT" },
	};
	struct host_static hs;
	char *dir = fixture();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		put_cpuinfo(dir, t[i].name, 1, 1, 1);
		host_static_read(&hs, dir, dir);
		ck_assert_msg(strcmp(hs.model, t[i].model) == 0,
		    "\"%s\": got \"%s\", want \"%s\"", t[i].name, hs.model,
		    t[i].model);
	}
	rm_tree(dir);
}
END_TEST

START_TEST(test_real_proc)
{
	struct load_sampler s;
	struct host_static hs;
	float l[NLOADIDX];
	int i;

	load_sampler_init(&s, "/proc", "/tmp");
	ck_assert_int_eq(load_sample(&s, 1000, wall_time(), l), 0);
	usleep(200 * 1000);
	ck_assert_int_eq(load_sample(&s, 1000.2, wall_time(), l), 0);
	for (i = 0; i < NLOADIDX; i++)
		ck_assert_msg(l[i] >= 0 && isfinite(l[i]), "%s = %g",
		    load_index_info[i].name, l[i]);
	ck_assert(l[LI_UT] <= 1);
	ck_assert(l[LI_MEM] > 0);
	ck_assert(l[LI_TMP] > 0);

	ck_assert_int_eq(host_static_read(&hs, "/proc", "/tmp"), 0);
	ck_assert_int_ge(hs.ncpus, 1);
	ck_assert_int_ge(hs.nprocs, 1);
	ck_assert_int_ge(hs.ncores, 1);
	ck_assert_int_ge(hs.nthreads, 1);
	ck_assert_int_gt(hs.maxmem, 0);
	ck_assert_int_gt(hs.maxtmp, 0);
	ck_assert(hs.type[0] != '\0');
	ck_assert(hs.model[0] != '\0' && strlen(hs.model) < sizeof(hs.model));
	ck_assert(l[LI_MEM] <= hs.maxmem + 1);
}
END_TEST

START_TEST(test_fmt_load_value)
{
	static const struct {
		int		 idx;
		float		 v;
		const char	*want;
	} t[] = {
		{ LI_R15S, 0.4f, "0.4" },
		{ LI_R1M, 12.46f, "12.5" },
		{ LI_R15M, 0, "0.0" },
		{ LI_PG, 0.06f, "0.1" },
		{ LI_UT, 0.35f, "35%" },
		{ LI_UT, 0, "0%" },
		{ LI_UT, 0.004f, "0%" },
		{ LI_UT, 0.996f, "100%" },
		{ LI_UT, 1, "100%" },
		{ LI_IO, 8.4f, "8" },
		{ LI_IO, 8.6f, "9" },
		{ LI_LS, 2, "2" },
		{ LI_IT, 14324, "14324" },
		{ LI_TMP, 0, "0M" },
		{ LI_TMP, 2391, "2391M" },
		{ LI_TMP, 10239.4f, "10239M" },
		{ LI_TMP, 10240, "10G" },
		{ LI_TMP, 1667.0f * 1024, "1667G" },
		{ LI_SWP, 0, "0M" },
		{ LI_SWP, 1434, "1.4G" },
		{ LI_SWP, 1229, "1.2G" },
		{ LI_SWP, 127.2f * 1024, "127.2G" },
		{ LI_MEM, 603, "603M" },
		{ LI_MEM, 1023.4f, "1023M" },
		{ LI_MEM, 1023.6f, "1G" },
		{ LI_MEM, 1126, "1.1G" },
		{ LI_MEM, 9.96f * 1024, "10G" },
		{ LI_MEM, 15.4f * 1024, "15.4G" },
		{ LI_MEM, 178.0f * 1024, "178G" },
		{ LI_MEM, 683.0f * 1024, "683G" },
		{ LI_MEM, 999.5f * 1024, "999.5G" },
		{ LI_MEM, 999.97f * 1024, "1000G" },
		{ LI_MEM, 1234.5f * 1024, "1235G" },
		{ LI_MEM, -1, "-" },
		{ LI_R15S, -0.1f, "-" },
		{ LI_R15S, INFINIT_LOAD, "-" },
		{ LI_UT, NAN, "-" },
		{ LI_IT, INFINITY, "-" },
		{ NLOADIDX, 1, "-" },
		{ -1, 1, "-" },
	};
	char buf[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		memset(buf, 'x', sizeof(buf));
		fmt_load_value(t[i].idx, t[i].v, buf, sizeof(buf));
		ck_assert_msg(strcmp(buf, t[i].want) == 0,
		    "case %zu: idx %d value %g: got \"%s\", want \"%s\"", i,
		    t[i].idx, t[i].v, buf, t[i].want);
	}

	/* The largest value that still prints fits in 16 bytes. */
	fmt_load_value(LI_IT, 9e14f, buf, sizeof(buf));
	ck_assert_uint_lt(strlen(buf), sizeof(buf));
	fmt_load_value(LI_MEM, 9e14f, buf, sizeof(buf));
	ck_assert_uint_lt(strlen(buf), sizeof(buf));
	/* A short buffer is cut, not overrun. */
	fmt_load_value(LI_IT, 14324, buf, 3);
	ck_assert_str_eq(buf, "14");
	fmt_load_value(LI_IT, 14324, buf, 0);
	ck_assert_str_eq(buf, "14");
}
END_TEST

/* The libm-free rounding the formats use (num.h). */
START_TEST(test_num_rounding)
{
	ck_assert_int_eq(num_round(0.0L), 0);
	ck_assert_int_eq(num_round(2.4L), 2);
	ck_assert_int_eq(num_round(2.5L), 3);
	ck_assert_int_eq(num_round(-2.5L), -3);
	ck_assert_int_eq(num_round(-2.4L), -2);
	ck_assert_int_eq(num_round(0.49999999999999994L), 0);
	ck_assert_int_eq(num_round(4503599627370497.0L), 4503599627370497LL);
	ck_assert_int_eq(num_ceil(0.0L), 0);
	ck_assert_int_eq(num_ceil(2.0L), 2);
	ck_assert_int_eq(num_ceil(2.0001L), 3);
	ck_assert_int_eq(num_ceil(-2.5L), -2);
	ck_assert(num_pow1024(0) == 1.0L);
	ck_assert(num_pow1024(2) == 1048576.0L);
	ck_assert(num_pow1024(-1) == 1.0L / 1024);
}
END_TEST

START_TEST(test_fmt_mem_mb)
{
	static const struct {
		double		 mb;
		const char	*want;
	} t[] = {
		{ 0, "-" },
		{ -5, "-" },
		{ NAN, "-" },
		{ 1e31, "-" },
		{ 0.4, "0M" },
		{ 512, "512M" },
		{ 1023, "1023M" },
		{ 1024, "1G" },
		{ 2391, "2.3G" },
		{ 10240, "10G" },
		{ 15.4 * 1024, "15.4G" },
		{ 15.96 * 1024, "16G" },
		{ 127.2 * 1024, "127.2G" },
		{ 1536.0 * 1024, "1536G" },
	};
	char buf[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		fmt_mem_mb(t[i].mb, buf, sizeof(buf));
		ck_assert_msg(strcmp(buf, t[i].want) == 0,
		    "case %zu: %g MB: got \"%s\", want \"%s\"", i, t[i].mb,
		    buf, t[i].want);
	}
}
END_TEST

static Suite *
loadsample_suite(void)
{
	Suite *s = suite_create("loadsample");
	TCase *tc;

	tc = tcase_create("sample");
	tcase_add_test(tc, test_rates_and_smoothing);
	tcase_add_test(tc, test_iowait_is_idle);
	tcase_add_test(tc, test_meminfo);
	tcase_add_test(tc, test_nothing_readable);
	tcase_add_test(tc, test_bad_files_keep_values);
	tcase_add_test(tc, test_loadavg_partial);
	tcase_add_test(tc, test_logins_and_idle);
	tcase_add_test(tc, test_real_proc);
	suite_add_tcase(s, tc);

	tc = tcase_create("static");
	tcase_add_test(tc, test_host_static_fixture);
	tcase_add_test(tc, test_host_static_missing);
	tcase_add_test(tc, test_model_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("format");
	tcase_add_test(tc, test_fmt_load_value);
	tcase_add_test(tc, test_fmt_mem_mb);
	tcase_add_test(tc, test_num_rounding);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(loadsample_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
