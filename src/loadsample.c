/* The LIM's load indices and static host figures, read from /proc. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <paths.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <utmpx.h>

#include "loadsample.h"
#include "util.h"

#define MODEL_MAXLEN	15	/* lshosts -l shows the model up to here */

static int
join_path(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len) {
		buf[0] = '\0';
		return -1;
	}
	return 0;
}

/* Copy s into buf, cut to fit. */
static void
copy_str(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

/* Read procroot/name whole into sb; -1 if it cannot be read. */
static int
read_proc(const char *procroot, const char *name, struct strbuf *sb)
{
	char path[PATH_MAX];

	sb_reset(sb);
	if (join_path(path, sizeof(path), procroot, name) == -1)
		return -1;
	return read_file(path, sb);
}

/* The start of the line after p's, or NULL at the end of the text. */
static const char *
next_line(const char *p)
{
	p = strchr(p, '\n');
	return p != NULL && p[1] != '\0' ? p + 1 : NULL;
}

/*
 * The number after "key" (and an optional ':') at the start of a line of
 * text, as in meminfo's "SwapFree:  123 kB" and vmstat's "pswpin 0".
 */
static bool
line_u64(const char *text, const char *key, uint64_t *out)
{
	size_t kl = strlen(key);
	const char *p, *q;
	char *end;
	unsigned long long v;

	for (p = *text != '\0' ? text : NULL; p != NULL; p = next_line(p)) {
		if (strncmp(p, key, kl) != 0)
			continue;
		q = p + kl;
		if (*q == ':')
			q++;
		if (*q != ' ' && *q != '\t')
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!isdigit((unsigned char)*q))
			return false;
		errno = 0;
		v = strtoull(q, &end, 10);
		if (errno != 0)
			return false;
		*out = v;
		return true;
	}
	return false;
}

/* Seed a smoothed index with its first value, then average into it. */
static void
smooth(struct load_sampler *s, int idx, double sample, double dt, double tau)
{
	double e;

	if (!s->have[idx]) {
		s->load[idx] = (float)sample;
		s->have[idx] = true;
		return;
	}
	e = exp(-(dt > 0 ? dt : 0) / tau);
	s->load[idx] = (float)(s->load[idx] * e + sample * (1 - e));
}

/*
 * Advance a counter pair to (a, b) read at now.  Returns true with the
 * deltas when a rate can be computed.  A counter that went backwards only
 * restarts the baseline; a sample taken at the same instant is ignored so
 * that the older baseline keeps a usable time span.
 */
static bool
counter_step(struct load_counter *c, uint64_t a, uint64_t b, double now,
    uint64_t *da, uint64_t *db, double *dt)
{
	bool ok = false;

	if (c->valid && now <= c->t)
		return false;
	if (c->valid && a >= c->a && b >= c->b) {
		*da = a - c->a;
		*db = b - c->b;
		*dt = now - c->t;
		ok = true;
	}
	c->valid = true;
	c->a = a;
	c->b = b;
	c->t = now;
	return ok;
}

void
load_sampler_init(struct load_sampler *s, const char *procroot,
    const char *tmpdir)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	copy_str(s->procroot, sizeof(s->procroot), procroot);
	copy_str(s->tmpdir, sizeof(s->tmpdir), tmpdir);

	/* A fixture tree brings its own login records and terminals. */
	if (join_path(s->utmp_path, sizeof(s->utmp_path), procroot,
	    "utmp") == -1 || stat(s->utmp_path, &st) == -1)
		copy_str(s->utmp_path, sizeof(s->utmp_path), _PATH_UTMP);
	if (join_path(s->dev_dir, sizeof(s->dev_dir), procroot, "dev") == -1 ||
	    stat(s->dev_dir, &st) == -1 || !S_ISDIR(st.st_mode))
		copy_str(s->dev_dir, sizeof(s->dev_dir), "/dev");
}

/* "0.50 0.40 0.30 3/200 1234": three averages, running/total tasks. */
static bool
sample_loadavg(struct load_sampler *s, double now, struct strbuf *sb)
{
	struct strv f = STRV_INIT;
	double a1, a15;
	char *slash;
	long run;
	bool ok = false;

	if (read_proc(s->procroot, "loadavg", sb) == -1)
		return false;
	sb->buf[strcspn(sb->buf, "\n")] = '\0';
	strv_split_ws(&f, sb->buf);
	if (f.n < 3 || parse_double(f.v[0], &a1) == -1 ||
	    parse_double(f.v[2], &a15) == -1 || a1 < 0 || a15 < 0)
		goto out;
	s->load[LI_R1M] = (float)a1;
	s->load[LI_R15M] = (float)a15;
	ok = true;
	if (f.n < 4 || (slash = strchr(f.v[3], '/')) == NULL)
		goto out;
	*slash = '\0';
	if (parse_long(f.v[3], &run) == -1 || run < 0)
		goto out;
	/* The running count includes the task reading the file. */
	smooth(s, LI_R15S, run > 1 ? (double)(run - 1) : 0, now - s->r15s_t,
	    LOAD_TAU_R15S);
	s->r15s_t = now;
out:
	strv_release(&f);
	return ok;
}

static bool
sample_cpu(struct load_sampler *s, double now, struct strbuf *sb)
{
	uint64_t v[10] = { 0 }, busy, total, dbusy, dtotal;
	const char *p;
	char *end;
	double dt, ut;
	int n;

	if (read_proc(s->procroot, "stat", sb) == -1 ||
	    !str_starts(sb->buf, "cpu "))
		return false;
	p = sb->buf + 3;
	for (n = 0; n < 10; n++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		errno = 0;
		v[n] = strtoull(p, &end, 10);
		if (errno != 0)
			return false;
		p = end;
	}
	/* user nice system idle are in every kernel since 2.4. */
	if (n < 4)
		return false;
	/*
	 * Busy is user nice system irq softirq steal: stolen time is not
	 * available to jobs either.  Guest time (fields 9 and 10) is
	 * already counted in user and nice, so it is left out.
	 */
	busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	total = busy + v[3] + v[4];
	if (counter_step(&s->cpu, busy, total, now, &dbusy, &dtotal, &dt) &&
	    dtotal > 0) {
		ut = (double)dbusy / (double)dtotal;
		smooth(s, LI_UT, ut > 1 ? 1 : ut, dt, LOAD_TAU_UT);
	}
	return true;
}

static bool
sample_vmstat(struct load_sampler *s, double now, struct strbuf *sb)
{
	uint64_t in, out, pin, pout, d, unused;
	bool have_swap, have_blk;
	double dt;

	if (read_proc(s->procroot, "vmstat", sb) == -1)
		return false;
	in = out = pin = pout = 0;
	have_swap = line_u64(sb->buf, "pswpin", &in);
	have_swap |= line_u64(sb->buf, "pswpout", &out);
	have_blk = line_u64(sb->buf, "pgpgin", &pin);
	have_blk |= line_u64(sb->buf, "pgpgout", &pout);
	if (have_swap && counter_step(&s->swap, in + out, 0, now, &d, &unused,
	    &dt))
		smooth(s, LI_PG, (double)d / dt, dt, LOAD_TAU_PG);
	/* The kernel counts pgpgin and pgpgout in KB, not pages. */
	if (have_blk && counter_step(&s->blkio, pin + pout, 0, now, &d,
	    &unused, &dt))
		smooth(s, LI_IO, (double)d / dt, dt, LOAD_TAU_IO);
	return have_swap || have_blk;
}

static bool
sample_meminfo(struct load_sampler *s, struct strbuf *sb)
{
	uint64_t avail, fr, cached, swap;
	bool ok = false;

	if (read_proc(s->procroot, "meminfo", sb) == -1)
		return false;
	if (line_u64(sb->buf, "SwapFree", &swap)) {
		s->load[LI_SWP] = (float)(swap / 1024.0);
		ok = true;
	}
	/* MemAvailable includes reclaimable cache; Linux < 3.14 lacks it. */
	if (line_u64(sb->buf, "MemAvailable", &avail)) {
		s->load[LI_MEM] = (float)(avail / 1024.0);
		ok = true;
	} else if (line_u64(sb->buf, "MemFree", &fr)) {
		if (!line_u64(sb->buf, "Cached", &cached))
			cached = 0;
		s->load[LI_MEM] = (float)((fr + cached) / 1024.0);
		ok = true;
	}
	return ok;
}

static bool
sample_logins(struct load_sampler *s)
{
	struct strv users = STRV_INIT;
	struct utmpx ut;
	FILE *f;
	char *name;

	/* Read the records directly: getutxent() would keep global state. */
	if ((f = fopen(s->utmp_path, "re")) == NULL)
		return false;
	while (fread(&ut, sizeof(ut), 1, f) == 1) {
		if (ut.ut_type != USER_PROCESS || ut.ut_user[0] == '\0')
			continue;
		name = xstrndup(ut.ut_user, sizeof(ut.ut_user));
		if (strv_contains(&users, name))
			free(name);
		else
			strv_push_nodup(&users, name);
	}
	fclose(f);
	s->load[LI_LS] = (float)users.n;
	strv_release(&users);
	return true;
}

/* Newest atime among the terminals in dir whose names pass want(). */
static void
newest_atime(const char *dir, bool (*want)(const char *), double *newest,
    bool *found)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	double t;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (!want(de->d_name) ||
		    join_path(path, sizeof(path), dir, de->d_name) == -1 ||
		    stat(path, &st) == -1)
			continue;
		t = st.st_atim.tv_sec + st.st_atim.tv_nsec / 1e9;
		if (!*found || t > *newest)
			*newest = t;
		*found = true;
	}
	closedir(d);
}

/* pts/ptmx is the multiplexer every new pty touches, not a terminal. */
static bool
want_pts(const char *name)
{
	return isdigit((unsigned char)name[0]);
}

static bool
want_tty(const char *name)
{
	return str_starts(name, "tty") && isdigit((unsigned char)name[3]);
}

/*
 * The kernel refreshes a terminal's atime when it is read from, that is
 * on input, so the newest atime is the last keystroke on the host.
 */
static bool
sample_idle(struct load_sampler *s, double wallnow, struct strbuf *sb)
{
	char pts[PATH_MAX];
	double newest = 0, idle, up;
	bool found = false;

	if (join_path(pts, sizeof(pts), s->dev_dir, "pts") == 0)
		newest_atime(pts, want_pts, &newest, &found);
	newest_atime(s->dev_dir, want_tty, &newest, &found);
	if (found) {
		idle = wallnow - newest;
		s->load[LI_IT] = (float)floor((idle > 0 ? idle : 0) / 60);
		return true;
	}
	/* Nobody can have typed since boot: idle as long as the uptime. */
	if (read_proc(s->procroot, "uptime", sb) == -1 ||
	    sscanf(sb->buf, "%lf", &up) != 1 || !isfinite(up) || up < 0)
		return false;
	s->load[LI_IT] = (float)floor(up / 60);
	return true;
}

static bool
sample_tmp(struct load_sampler *s)
{
	struct statvfs sv;

	if (statvfs(s->tmpdir, &sv) == -1)
		return false;
	s->load[LI_TMP] = (float)((double)sv.f_bavail * sv.f_frsize /
	    (1024.0 * 1024.0));
	return true;
}

int
load_sample(struct load_sampler *s, double now, double wallnow,
    float load[NLOADIDX])
{
	struct strbuf sb = STRBUF_INIT;
	bool any = false;

	any |= sample_loadavg(s, now, &sb);
	any |= sample_cpu(s, now, &sb);
	any |= sample_vmstat(s, now, &sb);
	any |= sample_meminfo(s, &sb);
	any |= sample_logins(s);
	any |= sample_idle(s, wallnow, &sb);
	any |= sample_tmp(s);
	sb_release(&sb);
	memcpy(load, s->load, sizeof(s->load));
	return any ? 0 : -1;
}

/* Static figures. */

/*
 * "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz" -> "Intel_Xeon": trademark
 * marks, the words CPU and Processor and the clock go, the rest is joined
 * by '_' up to MODEL_MAXLEN characters, cut at a word.
 */
static void
short_model(const char *name, char *out, size_t outlen)
{
	static const char *const marks[] = { "(R)", "(TM)" };
	char buf[256], *w, *save, *m;
	size_t len = 0, wl, i;

	copy_str(buf, sizeof(buf), name);
	for (i = 0; i < ARRAY_SIZE(marks); i++)
		while ((m = strcasestr(buf, marks[i])) != NULL)
			memmove(m, m + strlen(marks[i]),
			    strlen(m + strlen(marks[i])) + 1);
	out[0] = '\0';
	for (w = strtok_r(buf, " \t", &save); w != NULL;
	    w = strtok_r(NULL, " \t", &save)) {
		if (w[0] == '@')
			break;
		if (strcasecmp(w, "CPU") == 0 ||
		    strcasecmp(w, "Processor") == 0)
			continue;
		wl = strlen(w);
		if (len == 0 && wl > MODEL_MAXLEN)
			wl = MODEL_MAXLEN;
		if (len + (len > 0) + wl > MODEL_MAXLEN ||
		    len + 1 + wl >= outlen)
			break;
		if (len > 0)
			out[len++] = '_';
		memcpy(out + len, w, wl);
		len += wl;
		out[len] = '\0';
	}
	if (len == 0)
		copy_str(out, outlen, "UNKNOWN_AUTO_DETECT");
}

/* The text after "key<blanks>:" on a cpuinfo line, or NULL. */
static char *
cpuinfo_value(char *line, const char *key)
{
	size_t kl = strlen(key);

	if (strncmp(line, key, kl) != 0)
		return NULL;
	line += kl;
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line != ':')
		return NULL;
	line++;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

static bool
read_cpuinfo(struct host_static *hs, const char *procroot, struct strbuf *sb)
{
	struct strv sockets = STRV_INIT;
	long cores = 0, siblings = 0, l;
	bool have_model = false;
	char *line, *save, *v;

	if (read_proc(procroot, "cpuinfo", sb) == -1)
		return false;
	for (line = strtok_r(sb->buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (!have_model &&
		    (v = cpuinfo_value(line, "model name")) != NULL) {
			short_model(v, hs->model, sizeof(hs->model));
			have_model = true;
		} else if ((v = cpuinfo_value(line,
		    "physical id")) != NULL) {
			if (!strv_contains(&sockets, v))
				strv_push(&sockets, v);
		} else if ((v = cpuinfo_value(line,
		    "cpu cores")) != NULL) {
			if (cores == 0 && parse_long(v, &l) == 0 && l > 0)
				cores = l;
		} else if ((v = cpuinfo_value(line,
		    "siblings")) != NULL) {
			if (siblings == 0 && parse_long(v, &l) == 0 && l > 0)
				siblings = l;
		}
	}
	hs->nprocs = sockets.n > 0 ? (int)sockets.n : 1;
	strv_release(&sockets);
	/* siblings is threads per socket, "cpu cores" cores per socket. */
	if (cores > 0) {
		hs->ncores = (int)cores;
		hs->nthreads = siblings >= cores ? (int)(siblings / cores) : 1;
	}
	return true;
}

static int
count_cpus(const char *procroot, struct strbuf *sb)
{
	const char *p;
	int n = 0;

	if (read_proc(procroot, "stat", sb) == -1)
		return -1;
	for (p = *sb->buf != '\0' ? sb->buf : NULL; p != NULL;
	    p = next_line(p))
		if (str_starts(p, "cpu") && isdigit((unsigned char)p[3]))
			n++;
	return n;
}

int
host_static_read(struct host_static *hs, const char *procroot,
    const char *tmpdir)
{
	struct strbuf sb = STRBUF_INIT;
	struct utsname un;
	struct statvfs sv;
	uint64_t kb;
	bool any = false;
	size_t i;
	int n;

	memset(hs, 0, sizeof(*hs));
	hs->cpuf = 1.0f;
	copy_str(hs->model, sizeof(hs->model), "UNKNOWN_AUTO_DETECT");
	if (uname(&un) == 0) {
		copy_str(hs->type, sizeof(hs->type), un.machine);
		for (i = 0; hs->type[i] != '\0'; i++)
			hs->type[i] = (char)toupper((unsigned char)hs->type[i]);
	} else
		copy_str(hs->type, sizeof(hs->type), "UNKNOWN");

	if ((n = count_cpus(procroot, &sb)) >= 0)
		any = true;
	/* Only the real /proc may be second-guessed by the C library. */
	if (n <= 0 && strcmp(procroot, "/proc") == 0)
		n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	hs->ncpus = n > 0 ? n : 1;

	any |= read_cpuinfo(hs, procroot, &sb);
	if (hs->nprocs < 1)
		hs->nprocs = 1;
	if (hs->ncores < 1) {
		hs->ncores = hs->ncpus / hs->nprocs > 0 ?
		    hs->ncpus / hs->nprocs : 1;
		hs->nthreads = 1;
	}

	if (read_proc(procroot, "meminfo", &sb) == 0) {
		any = true;
		if (line_u64(sb.buf, "MemTotal", &kb))
			hs->maxmem = (int)(kb / 1024);
		if (line_u64(sb.buf, "SwapTotal", &kb))
			hs->maxswp = (int)(kb / 1024);
	}
	sb_release(&sb);

	if (statvfs(tmpdir, &sv) == 0)
		hs->maxtmp = (int)((double)sv.f_blocks * sv.f_frsize /
		    (1024.0 * 1024.0));
	return any ? 0 : -1;
}
