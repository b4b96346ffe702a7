/* Allocation, strings, vectors and error reporting shared by every program. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

const char *progname = "lsf";

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *
xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (p == NULL)
		die("out of memory (%zu x %zu bytes)", n, sz);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		die("out of memory (%zu bytes)", n);
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	return sb_detach(&sb);
}

static void (*die_routine)(const char *);

void
set_die_routine(void (*fn)(const char *))
{
	die_routine = fn;
}

/*
 * A stack buffer, not a strbuf: die() is how an allocation that failed
 * is reported, and must not allocate itself.
 */
static void
report(const char *prefix, const char *fmt, va_list ap)
{
	char buf[2048];
	size_t n;

	snprintf(buf, sizeof(buf), "%s", prefix);
	n = strlen(buf);
	vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	if (die_routine)
		die_routine(buf);
	else
		(void)fprintf(stderr, "%s: %s\n", progname, buf);
}

static void
vreport(const char *fmt, va_list ap)
{
	report("", fmt, ap);
}

void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	exit(255);
}

int
error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	return -1;
}

void
bug_at(const char *file, int line, const char *fmt, ...)
{
	char prefix[256];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "BUG at %s:%d: ", file, line);
	va_start(ap, fmt);
	report(prefix, fmt, ap);
	va_end(ap);
	abort();
}

/* strbuf */

void
sb_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

void
sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

void
sb_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->cap)
		return;
	if (sb->cap < 64)
		sb->cap = 64;
	while (sb->cap < need)
		sb->cap *= 2;
	sb->buf = xrealloc(sb->buf, sb->cap);
}

void
sb_add(struct strbuf *sb, const void *p, size_t n)
{
	sb_grow(sb, n);
	if (n > 0)	/* an empty buffer's p may be NULL */
		memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void
sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void
sb_addc(struct strbuf *sb, int c)
{
	sb_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void
sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	sb_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed");
	if ((size_t)n >= sb->cap - sb->len) {
		sb_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void
sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void
sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *
sb_detach(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");

	sb_init(sb);
	return p;
}

void
sb_rtrim(struct strbuf *sb)
{
	while (sb->len > 0 && isspace((unsigned char)sb->buf[sb->len - 1]))
		sb->buf[--sb->len] = '\0';
}

/* strv */

void
strv_init(struct strv *sv)
{
	sv->v = NULL;
	sv->n = sv->cap = 0;
}

void
strv_release(struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	strv_init(sv);
}

void
strv_push_nodup(struct strv *sv, char *s)
{
	if (sv->n + 2 > sv->cap) {
		sv->cap = sv->cap ? sv->cap * 2 : 8;
		sv->v = xrealloc(sv->v, sv->cap * sizeof(*sv->v));
	}
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void
strv_push(struct strv *sv, const char *s)
{
	strv_push_nodup(sv, xstrdup(s));
}

bool
strv_contains(const struct strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return true;
	return false;
}

void
strv_split_ws(struct strv *sv, const char *s)
{
	while (*s) {
		const char *e;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			break;
		for (e = s; *e && *e != ' ' && *e != '\t'; e++)
			;
		strv_push_nodup(sv, xstrndup(s, (size_t)(e - s)));
		s = e;
	}
}

void
strv_copy(struct strv *dst, const struct strv *src)
{
	for (size_t i = 0; i < src->n; i++)
		strv_push(dst, src->v[i]);
}

char *
strv_join(const struct strv *sv, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sv->n; i++) {
		if (i)
			sb_adds(&sb, sep);
		sb_adds(&sb, sv->v[i]);
	}
	return sb_detach(&sb);
}

/* files */

int
read_file(const char *path, struct strbuf *out)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sb_add(out, buf, (size_t)n);
	}
	if (n < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	if (out->buf == NULL)
		sb_grow(out, 0), out->buf[0] = '\0';
	return 0;
}

int
write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(fd, c, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int
fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* numbers */

int
parse_long(const char *s, long *out)
{
	char *end;
	long v;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

int
parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end != '\0' || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* strings */

bool
str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool
str_ends(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

bool
streq(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

char *
str_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

bool
wildmatch(const char *p, const char *s)
{
	const char *star = NULL, *ss = NULL;

	while (*s) {
		if (*p == '*') {
			star = p++;
			ss = s;
		} else if (*p == '?' || *p == *s) {
			p++;
			s++;
		} else if (star) {
			p = star + 1;
			s = ++ss;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

/* time */

uint64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

double
wall_time(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * CRC-32C.  Replay checks every record, so this is on the start-up path:
 * the SSE4.2 crc32 instruction where the CPU has it, else slicing-by-8
 * tables (built on first use).  Both give the bytewise definition's values.
 */
static uint32_t crc_tab[8][256];
static bool crc_tab_ready;

static void
crc_tab_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
		crc_tab[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_tab[t][i] = crc_tab[0][crc_tab[t - 1][i] & 0xff] ^
			    (crc_tab[t - 1][i] >> 8);
	crc_tab_ready = true;
}

uint32_t
crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	if (!crc_tab_ready)
		crc_tab_init();
	crc = ~crc;
	while (len >= 8) {
		/* Little-endian assembly of the word, whatever the host. */
		uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
		    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);

		crc = crc_tab[7][lo & 0xff] ^ crc_tab[6][(lo >> 8) & 0xff] ^
		    crc_tab[5][(lo >> 16) & 0xff] ^ crc_tab[4][lo >> 24] ^
		    crc_tab[3][p[4]] ^ crc_tab[2][p[5]] ^
		    crc_tab[1][p[6]] ^ crc_tab[0][p[7]];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = crc_tab[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("sse4.2")))
static uint32_t
crc32c_sse42(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t c;

	crc = ~crc;
	while (len > 0 && ((uintptr_t)p & 7) != 0) {
		crc = __builtin_ia32_crc32qi(crc, *p++);
		len--;
	}
	c = crc;
	while (len >= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		c = __builtin_ia32_crc32di(c, w);
		p += 8;
		len -= 8;
	}
	crc = (uint32_t)c;
	while (len--)
		crc = __builtin_ia32_crc32qi(crc, *p++);
	return ~crc;
}

/*
 * Asked with CPUID on first use: __builtin_cpu_supports would link
 * libgcc's CPU probe, which runs at every program's start-up (tens of
 * microseconds in a VM), and every command is a short-lived program.
 */
bool
crc32c_hw_available(void)
{
	static int known = -1;
	unsigned a, b, c, d;

	if (known < 0)
		known = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_2);
	return known;
}

uint32_t
crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	return crc32c_hw_available() ? crc32c_sse42(crc, buf, len) :
	    crc32c_sw(crc, buf, len);
}
#else
bool
crc32c_hw_available(void)
{
	return false;
}

uint32_t
crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	return crc32c_sw(crc, buf, len);
}
#endif

uint32_t
crc32c(uint32_t crc, const void *buf, size_t len)
{
	static uint32_t (*fn)(uint32_t, const void *, size_t);

	if (fn == NULL) {
#if defined(__x86_64__) && defined(__GNUC__)
		fn = crc32c_hw_available() ? crc32c_sse42 : crc32c_sw;
#else
		fn = crc32c_sw;
#endif
	}
	return fn(crc, buf, len);
}

/* descriptors */

static int	passed_fds[8];
static int	npassed;

void
fd_pass_on_exec(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	if (fl >= 0)
		(void)fcntl(fd, F_SETFD, fl & ~FD_CLOEXEC);
	for (int i = 0; i < npassed; i++)
		if (passed_fds[i] == fd)
			return;
	if (npassed < (int)ARRAY_SIZE(passed_fds))
		passed_fds[npassed++] = fd;
}

static bool
fd_passed(long fd)
{
	for (int i = 0; i < npassed; i++)
		if (passed_fds[i] == fd)
			return true;
	return false;
}

void
close_fds_from(int lowfd, int keep)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	if (d == NULL) {
		for (int fd = lowfd; fd < 1024; fd++)
			if (fd != keep && !fd_passed(fd))
				close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		long fd;

		if (parse_long(de->d_name, &fd) < 0)
			continue;
		if (fd >= lowfd && fd != keep && fd != dirfd(d) &&
		    !fd_passed(fd))
			close((int)fd);
	}
	closedir(d);
}

/*
 * mkdir -p.  A parent that cannot be made is passed over: on some
 * mounts mkdir of a directory that exists fails with EACCES or EROFS
 * rather than EEXIST, and if the parent really is missing the last
 * mkdir says so, with the errno that explains it.
 */
int
mkdir_parents(const char *path, mode_t mode)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		(void)mkdir(p, mode);
		*s = '/';
	}
	free(p);
	if (mkdir(path, mode) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

int
set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	return fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}
