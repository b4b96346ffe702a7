/* lsb.events: record syntax, checksums, replay and durable appends. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "evlog.h"
#include "lsf.h"

/* writing */

void
ev_begin(struct strbuf *sb, const char *type, int64_t when)
{
	sb_addf(sb, "\"%s\" \"%s\" %" PRId64, type, LSF_VERSION_STR, when);
}

void
ev_int(struct strbuf *sb, int64_t v)
{
	sb_addf(sb, " %" PRId64, v);
}

void
ev_float(struct strbuf *sb, const char *fmt, double v)
{
	sb_addc(sb, ' ');
	sb_addf(sb, fmt, v);
}

void
ev_str(struct strbuf *sb, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	sb_grow(sb, s ? strlen(s) + 3 : 3);
	sb_adds(sb, " \"");
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':
			sb_add(sb, "\"\"", 2);
			break;
		case '\\':
			sb_add(sb, "\\\\", 2);
			break;
		case '\n':
			sb_add(sb, "\\n", 2);
			break;
		case '\t':
			sb_add(sb, "\\t", 2);
			break;
		case '\r':
			sb_add(sb, "\\r", 2);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				char e[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

				sb_add(sb, e, 4);
			} else {
				sb_addc(sb, (char)c);
			}
		}
	}
	sb_addc(sb, '"');
}

void
ev_strv(struct strbuf *sb, const struct strv *sv)
{
	ev_int(sb, (int64_t)sv->n);
	for (size_t i = 0; i < sv->n; i++)
		ev_str(sb, sv->v[i]);
}

void
ev_end(struct strbuf *sb, size_t start)
{
	uint32_t crc = crc32c(0, sb->buf + start, sb->len - start);

	sb_addf(sb, " @%08" PRIx32 "\n", crc);
}

/* reading */

static bool
isblank_c(char c)
{
	return c == ' ' || c == '\t';
}

/* Position of the next field, or NULL at the end. */
static const char *
next_field(struct ev_reader *r)
{
	while (r->p < r->end && isblank_c(*r->p))
		r->p++;
	return r->p < r->end ? r->p : NULL;
}

/* A bare token: [start, end). */
static bool
bare_token(struct ev_reader *r, const char **s, size_t *n)
{
	const char *f;

	if (r->err || (f = next_field(r)) == NULL || *f == '"') {
		r->err = true;
		return false;
	}
	while (r->p < r->end && !isblank_c(*r->p))
		r->p++;
	*s = f;
	*n = (size_t)(r->p - f);
	return true;
}

bool
evr_int(struct ev_reader *r, int64_t *v)
{
	const char *s;
	size_t n;
	uint64_t x = 0, max;
	bool neg = false;
	size_t i = 0;

	*v = 0;
	if (!r->err) {
		/* The usual case, up to 18 digits then a blank: one pass. */
		const char *p = r->p, *d;

		while (p < r->end && isblank_c(*p))
			p++;
		neg = p < r->end && *p == '-';
		for (p += neg, d = p; p < r->end && p - d < 18 &&
		    *p >= '0' && *p <= '9'; p++)
			x = x * 10 + (uint64_t)(*p - '0');
		if (p > d && (p == r->end || isblank_c(*p))) {
			r->p = p;
			*v = neg ? (int64_t)(0 - x) : (int64_t)x;
			return true;
		}
		x = 0;
		neg = false;
	}
	if (!bare_token(r, &s, &n))
		return false;
	if (n > 0 && s[0] == '-') {
		neg = true;
		i = 1;
	}
	if (i == n || n - i > 19) {
		r->err = true;
		return false;
	}
	if (n - i < 19) {
		/* 18 digits or fewer cannot overflow. */
		for (; i < n; i++) {
			if (s[i] < '0' || s[i] > '9') {
				r->err = true;
				return false;
			}
			x = x * 10 + (uint64_t)(s[i] - '0');
		}
		*v = neg ? (int64_t)(0 - x) : (int64_t)x;
		return true;
	}
	/* 19 digits can overflow: refuse what int64_t cannot hold. */
	max = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' ||
		    x > (max - (uint64_t)(s[i] - '0')) / 10) {
			r->err = true;
			return false;
		}
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return true;
}

bool
evr_i32(struct ev_reader *r, int *v)
{
	int64_t x;
	bool ok = evr_int(r, &x);

	if (ok && (x < INT32_MIN || x > INT32_MAX)) {
		r->err = true;
		ok = false;
	}
	*v = ok ? (int)x : 0;
	return ok;
}

bool
evr_u32(struct ev_reader *r, uint32_t *v)
{
	int64_t x;
	bool ok = evr_int(r, &x);

	if (ok && (x < 0 || x > UINT32_MAX)) {
		r->err = true;
		ok = false;
	}
	*v = ok ? (uint32_t)x : 0;
	return ok;
}

bool
evr_float(struct ev_reader *r, double *v)
{
	const char *s;
	size_t n;
	char buf[64], *e;

	*v = 0;
	if (!bare_token(r, &s, &n))
		return false;
	if (n == 0 || n >= sizeof(buf)) {
		r->err = true;
		return false;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtod(buf, &e);
	if (*e != '\0') {
		r->err = true;
		return false;
	}
	return true;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Decode the quoted string of the next field into dst, which has room
 * for cap bytes with the NUL (dst NULL: only step over it).  Returns the
 * decoded length, or -1 with r->err set when the field is not a string
 * or (dst given) does not fit.
 */
static ssize_t
str_decode(struct ev_reader *r, char *dst, size_t cap)
{
	const char *f, *p, *q, *end = r->end;
	size_t n = 0;
	char c;

	if (r->err || (f = next_field(r)) == NULL || *f != '"')
		goto bad;
	for (p = f + 1;;) {
		/* The plain run up to the next quote or escape. */
		if (dst != NULL && cap - n > (size_t)(end - p)) {
			/* Room for all that is left: copy while scanning. */
			while (p < end && *p != '"' && *p != '\\')
				dst[n++] = *p++;
		} else {
			for (q = p; q < end && *q != '"' && *q != '\\'; q++)
				;
			if (dst != NULL) {
				if (n + (size_t)(q - p) >= cap)
					goto bad;
				memcpy(dst + n, p, (size_t)(q - p));
			}
			n += (size_t)(q - p);
			p = q;
		}
		if (p >= end)
			goto bad;
		if (*p == '"') {
			if (p + 1 < end && p[1] == '"') {
				c = '"';
				p += 2;
				goto put;
			}
			p++;
			break;
		}
		/* backslash escape */
		if (p + 1 >= end)
			goto bad;
		switch (p[1]) {
		case '\\': c = '\\'; p += 2; break;
		case 'n': c = '\n'; p += 2; break;
		case 't': c = '\t'; p += 2; break;
		case 'r': c = '\r'; p += 2; break;
		case 'x': {
			int hi, lo;

			if (p + 3 >= end || (hi = hexval(p[2])) < 0 ||
			    (lo = hexval(p[3])) < 0 || (hi == 0 && lo == 0))
				goto bad;
			c = (char)(hi << 4 | lo);
			p += 4;
			break;
		}
		default:
			/* A lone backslash, as LSF itself writes them. */
			c = '\\';
			p += 1;
		}
put:
		if (dst != NULL) {
			if (n + 1 >= cap)
				goto bad;
			dst[n] = c;
		}
		n++;
	}
	if (p < end && !isblank_c(*p))
		goto bad;
	if (dst != NULL)
		dst[n] = '\0';
	r->p = p;
	return (ssize_t)n;
bad:
	r->err = true;
	return -1;
}

void
evr_set_scratch(struct ev_reader *r, struct strbuf *scratch)
{
	r->scratch = scratch;
}

int
evr_borrow_begin(struct ev_reader *r)
{
	if (r->scratch == NULL) {
		r->err = true;
		return -1;
	}
	/* What is read never needs more than 8 bytes per byte left: a
	 * string decodes to no more than its text, a list item of at
	 * least 3 bytes adds a pointer, a list a NULL and alignment. */
	sb_reset(r->scratch);
	sb_grow(r->scratch, 8 * (size_t)(r->end - r->p) + 64);
	r->borrow = true;
	return 0;
}

void
evr_borrow_end(struct ev_reader *r)
{
	r->borrow = false;
}

/* size bytes of the scratch space, aligned for a pointer. */
static void *
scratch_take(struct ev_reader *r, size_t size)
{
	struct strbuf *sb = r->scratch;
	size_t at = (sb->len + sizeof(void *) - 1) & ~(sizeof(void *) - 1);

	if (at > sb->cap || size > sb->cap - at) {
		r->err = true;
		return NULL;
	}
	sb->len = at + size;
	return sb->buf + at;
}

bool
evr_str(struct ev_reader *r, char **out)
{
	char buf[512];
	struct strbuf *sb = r->scratch;
	ssize_t n;

	*out = NULL;
	if (r->borrow) {
		/* Into the scratch space; it has room (evr_borrow_begin). */
		n = str_decode(r, sb->buf + sb->len, sb->cap - sb->len);
		if (n < 0)
			return false;
		*out = sb->buf + sb->len;
		sb->len += (size_t)n + 1;
		return true;
	}
	if ((size_t)(r->end - r->p) < sizeof(buf)) {
		n = str_decode(r, buf, sizeof(buf));
		if (n < 0)
			return false;
		*out = xstrndup(buf, (size_t)n);
		return true;
	}
	/* Long: measure, then decode in place. */
	{
		const char *at = r->p;

		n = str_decode(r, NULL, 0);
		if (n < 0)
			return false;
		r->p = at;
		*out = xmalloc((size_t)n + 1);
		(void)str_decode(r, *out, (size_t)n + 1);
	}
	return true;
}

bool
evr_strv(struct ev_reader *r, struct strv *sv)
{
	int64_t n;

	if (!evr_int(r, &n))
		return false;
	if (n < 0 || n > (r->end - r->p)) {
		r->err = true;
		return false;
	}
	if (r->borrow && n > 0) {
		/* Borrowed items in a borrowed array: never released. */
		char **v = scratch_take(r, ((size_t)n + 1) * sizeof(*v));

		if (v == NULL)
			return false;
		for (int64_t i = 0; i < n; i++)
			if (!evr_str(r, &v[i]))
				return false;
		v[n] = NULL;
		sv->v = v;
		sv->n = (size_t)n;
		sv->cap = (size_t)n + 1;
		return true;
	}
	for (int64_t i = 0; i < n; i++) {
		char *s;

		if (!evr_str(r, &s))
			return false;
		strv_push_nodup(sv, s);
	}
	return true;
}

bool
evr_skip(struct ev_reader *r)
{
	const char *f;

	if (r->err || (f = next_field(r)) == NULL) {
		r->err = true;
		return false;
	}
	if (*f == '"')
		return str_decode(r, NULL, 0) >= 0;
	while (r->p < r->end && !isblank_c(*r->p))
		r->p++;
	return true;
}

bool
evr_at_end(const struct ev_reader *r)
{
	const char *p = r->p;

	while (p < r->end && isblank_c(*p))
		p++;
	return p >= r->end;
}

bool
evr_int_opt(struct ev_reader *r, int64_t *v, int64_t dflt)
{
	if (!r->err && evr_at_end(r)) {
		*v = dflt;
		return true;
	}
	return evr_int(r, v);
}

bool
evr_i32_opt(struct ev_reader *r, int *v, int dflt)
{
	if (!r->err && evr_at_end(r)) {
		*v = dflt;
		return true;
	}
	return evr_i32(r, v);
}

bool
evr_str_opt(struct ev_reader *r, char **s)
{
	if (!r->err && evr_at_end(r)) {
		*s = NULL;
		return true;
	}
	return evr_str(r, s);
}

int
evr_init(struct ev_reader *r, const char *line, size_t len, const char **why)
{
	const char *at;
	uint32_t want = 0;

	memset(r, 0, sizeof(*r));
	r->id = -1;
	/* " @xxxxxxxx" ends every record. */
	if (len < 11 || line[len - 10] != ' ' || line[len - 9] != '@') {
		*why = "record has no checksum";
		return -1;
	}
	at = line + len - 8;
	for (int i = 0; i < 8; i++) {
		int h = hexval(at[i]);

		if (h < 0) {
			*why = "record has a malformed checksum";
			return -1;
		}
		want = want << 4 | (uint32_t)h;
	}
	if (crc32c(0, line, len - 10) != want) {
		*why = "record checksum mismatch";
		return -1;
	}
	r->p = line;
	r->end = line + len - 10;
	if (str_decode(r, r->type, sizeof(r->type)) < 0) {
		*why = "record type is malformed";
		return -1;
	}
	r->id = ev_type_find(r->type);
	if (str_decode(r, r->version, sizeof(r->version)) < 0) {
		*why = "record version is malformed";
		return -1;
	}
	if (!evr_int(r, &r->when)) {
		*why = "record time is malformed";
		return -1;
	}
	return 0;
}

/* the file */

/* Does the line end as a record does, " @" and eight hex digits? */
static bool
has_crc_token(const char *line, size_t len)
{
	if (len < 11 || line[len - 10] != ' ' || line[len - 9] != '@')
		return false;
	for (size_t i = len - 8; i < len; i++)
		if (hexval(line[i]) < 0)
			return false;
	return true;
}

/*
 * Every line is a record with its checksum, but the first, which may be
 * the header.  Nothing else is skipped: a record whose leading '"' lost
 * a bit reads as "#...", and taking that for a comment would drop an
 * acknowledged job without a word.  A damaged header only costs the
 * count towards MAX_JOB_NUM (replay_log warns of it), so it passes,
 * unless it ends as a record does: then it is a record (of a file from
 * before headers) that lost its quote.
 */
int
evlog_line_check(const char *line, size_t len, off_t off,
    struct ev_reader *r, const char **why)
{
	if (off == 0 && len > 0 && line[0] == '#') {
		if (has_crc_token(line, len))
			return evr_init(r, line, len, why);
		memset(r, 0, sizeof(*r));
		r->id = -1;
		return 0;
	}
	if (len == 0) {
		*why = "empty line";
		return -1;
	}
	return evr_init(r, line, len, why);
}


int
evlog_replay(const char *path, evlog_cb cb, void *arg, off_t *valid_end,
    char **cause)
{
	int fd, rc;

	*valid_end = 0;
	*cause = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	rc = evlog_replay_fd(fd, path, cb, arg, valid_end, cause);
	close(fd);
	return rc;
}

int
evlog_map_fd(int fd, const char *path, const char **base, size_t *size,
    char **cause)
{
	struct stat st;
	void *m;

	*base = NULL;
	*size = 0;
	if (fstat(fd, &st) < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (st.st_size == 0)
		return 0;
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		*cause = xasprintf("%s: mmap: %s", path, strerror(errno));
		return -1;
	}
	*base = m;
	*size = (size_t)st.st_size;
	return 0;
}

int
evlog_replay_fd(int fd, const char *path, evlog_cb cb, void *arg,
    off_t *valid_end, char **cause)
{
	struct strbuf scratch = STRBUF_INIT;
	const char *base, *p, *end;
	size_t size;
	int rc = 0;

	*valid_end = 0;
	*cause = NULL;
	if (evlog_map_fd(fd, path, &base, &size, cause) < 0)
		return -1;
	if (size == 0)
		return 0;
	(void)madvise((void *)base, size, MADV_SEQUENTIAL);
	p = base;
	end = base + size;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct ev_reader r;
		const char *why;
		off_t off = p - base;

		if (nl == NULL) {
			/*
			 * The last write did not finish: the only damage that
			 * is taken for a torn write.  The caller keeps it
			 * aside (evlog_keep_torn) before cutting it off.
			 */
			break;
		}
		if (evlog_line_check(p, (size_t)(nl - p), off, &r,
		    &why) < 0) {
			*cause = xasprintf("%s: offset %lld: %s", path,
			    (long long)off, why);
			rc = -1;
			break;
		}
		if (r.end == NULL) {
			/* The header. */
			p = nl + 1;
			*valid_end = p - base;
			continue;
		}
		evr_set_scratch(&r, &scratch);
		if (cb(arg, &r, off) < 0) {
			*cause = xasprintf("%s: offset %lld: bad \"%s\" record",
			    path, (long long)off, r.type);
			rc = -1;
			break;
		}
		p = nl + 1;
		*valid_end = p - base;
	}
	munmap((void *)base, size);
	sb_release(&scratch);
	return rc;
}

/* Copy [from, from + len) of fd to out. */
static int
copy_range(int fd, off_t from, off_t len, int out)
{
	char buf[65536];

	while (len > 0) {
		size_t want = len < (off_t)sizeof(buf) ? (size_t)len :
		    sizeof(buf);
		ssize_t n = pread(fd, buf, want, from);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;	/* the file shrank */
			return -1;
		}
		if (write_all(out, buf, (size_t)n) < 0)
			return -1;
		from += n;
		len -= n;
	}
	return 0;
}

/*
 * The first whole record that [line, line+len) begins with, or 0: every
 * " @" and eight hex digits in it is a candidate end, tried with the
 * checksum carried along, so a long line costs one pass.
 */
static size_t
whole_record(const char *line, size_t len)
{
	uint32_t crc = 0;
	size_t done = 0;

	for (size_t i = 0; i + 10 <= len; i++) {
		struct ev_reader r;
		const char *why;
		uint32_t want = 0;

		if (line[i] != ' ' || !has_crc_token(line, i + 10))
			continue;
		crc = crc32c(crc, line + done, i - done);
		done = i;
		for (size_t k = i + 2; k < i + 10; k++)
			want = want << 4 | (uint32_t)hexval(line[k]);
		if (crc == want && evr_init(&r, line, i + 10, &why) == 0)
			return i + 10;
	}
	return 0;
}

int
evlog_tail_check_buf(const char *path, const char *line, size_t len,
    off_t off, off_t acked, char **cause)
{
	size_t whole;

	*cause = NULL;
	if (len == 0 || (acked >= 0 && off >= acked))
		return 0;
	if ((whole = whole_record(line, len)) == 0)
		return 0;
	if (whole == len)
		*cause = xasprintf("%s: offset %lld: last record is whole but "
		    "has no newline: damage, not a torn write", path,
		    (long long)off);
	else
		*cause = xasprintf("%s: offset %lld: last record's newline is "
		    "damaged (0x%02x at offset %lld): damage, not a torn "
		    "write", path, (long long)off,
		    (unsigned)(unsigned char)line[whole],
		    (long long)(off + (off_t)whole));
	return -1;
}

int
evlog_tail_check(const char *path, off_t valid_end, off_t acked,
    char **cause)
{
	const char *base;
	size_t size;
	int fd, rc = 0;

	*cause = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			return 0;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (evlog_map_fd(fd, path, &base, &size, cause) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	if ((off_t)size > valid_end)
		rc = evlog_tail_check_buf(path, base + valid_end,
		    size - (size_t)valid_end, valid_end, acked, cause);
	if (size > 0)
		munmap((void *)base, size);
	return rc;
}

int
evlog_keep_torn(const char *path, off_t valid_end, off_t *len, char **cause)
{
	char *torn = NULL, *dir = NULL, *slash, *hdr = NULL;
	struct stat st;
	int fd, out = -1, rc = -1;

	*len = 0;
	*cause = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			return 0;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto out;
	}
	if (st.st_size <= valid_end) {
		rc = 0;
		goto out;
	}
	*len = st.st_size - valid_end;
	torn = xasprintf("%s.torn", path);
	/* 0600: a torn lsb.envs record holds a user's environment. */
	out = open(torn, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (out < 0)
		goto io;
	hdr = xasprintf("# %s: torn last record at offset %lld, %lld bytes "
	    "without a newline, cut off at %lld\n", path,
	    (long long)valid_end, (long long)*len, (long long)time(NULL));
	if (write_all(out, hdr, strlen(hdr)) < 0 ||
	    copy_range(fd, valid_end, *len, out) < 0 ||
	    write_all(out, "\n", 1) < 0 || fsync(out) < 0)
		goto io;
	/* The name too must be on disk before the log is cut. */
	dir = xstrdup(torn);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	if (fsync_dir(slash != NULL ? (*dir ? dir : "/") : ".") < 0)
		goto io;
	rc = 1;
	goto out;
io:
	*cause = xasprintf("%s: %s", torn, strerror(errno));
out:
	if (out >= 0)
		close(out);
	close(fd);
	free(torn);
	free(dir);
	free(hdr);
	return rc;
}

int
evlog_open(struct evlog *lg, const char *path, off_t valid_end, char **cause)
{
	struct stat st;

	memset(lg, 0, sizeof(*lg));
	*cause = NULL;
	lg->dup_fd = lg->seal_fd = lg->dup_seal_fd = -1;
	lg->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lg->fd < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(lg->fd, &st) < 0)
		goto fail;
	if (st.st_size > valid_end) {
		/* Drop the torn tail before appending after it. */
		if (ftruncate(lg->fd, valid_end) < 0)
			goto fail;
	}
	lg->size = valid_end;
	if (lg->size == 0) {
		char hdr[EVLOG_HEADER_LEN + 1];

		evlog_header_fmt(hdr, 0);
		if (write_all(lg->fd, hdr, EVLOG_HEADER_LEN) < 0 ||
		    fdatasync(lg->fd) < 0)
			goto fail;
		lg->size = EVLOG_HEADER_LEN;
	}
	if (lseek(lg->fd, lg->size, SEEK_SET) < 0)
		goto fail;
	/* What a seal of it says ends the file (valid_end ends a line). */
	if (evlog_token_at(lg->fd, lg->size, lg->tail) < 0)
		lg->tail[0] = '\0';
	lg->path = xstrdup(path);
	return 0;
fail:
	*cause = xasprintf("%s: %s", path, strerror(errno));
	close(lg->fd);
	lg->fd = -1;
	return -1;
}

void
evlog_close(struct evlog *lg)
{
	if (lg->fd >= 0) {
		(void)evlog_flush(lg);
		close(lg->fd);
	}
	if (lg->seal_on) {
		(void)evlog_seal_sync(lg);
		if (lg->seal_fd >= 0)
			close(lg->seal_fd);
		if (lg->dup_seal_fd >= 0)
			close(lg->dup_seal_fd);
	}
	lg->seal_on = false;
	lg->seal_fd = lg->dup_seal_fd = -1;
	if (lg->dup_on)
		close(lg->dup_fd);
	lg->dup_on = false;
	lg->dup_fd = -1;
	free(lg->dup_path);
	free(lg->dup_lost_path);
	lg->dup_path = lg->dup_lost_path = NULL;
	lg->fd = -1;
	free(lg->path);
	lg->path = NULL;
	sb_release(&lg->pending);
}

off_t
evlog_append(struct evlog *lg, const char *rec, size_t len)
{
	off_t off = lg->size + (off_t)lg->pending.len;

	sb_add(&lg->pending, rec, len);
	lg->nrecords++;
	return off;
}

bool
evlog_dirty(const struct evlog *lg)
{
	return lg->pending.len > 0;
}

/* One side lost: say which once, and keep its name to catch up. */
static void
dup_lose(struct evlog *lg, int err)
{
	close(lg->dup_fd);
	lg->dup_fd = -1;
	/* Its seal stays as last written: never more than its log holds. */
	if (lg->seal_on && lg->dup_seal_fd >= 0)
		close(lg->dup_seal_fd);
	lg->dup_seal_fd = -1;
	lg->dup_on = false;
	lg->dup_lost = err;
	free(lg->dup_lost_path);
	lg->dup_lost_path = xstrdup(lg->dup_path);
}

/* The log lost: the duplicate, which holds it all, becomes the log. */
static void
main_lose(struct evlog *lg, int err)
{
	int fd = lg->fd, sfd = lg->seal_fd;
	char *path = lg->path;

	lg->fd = lg->dup_fd;
	lg->path = lg->dup_path;
	lg->seal_fd = lg->dup_seal_fd;
	lg->dup_fd = fd;
	lg->dup_path = path;
	lg->dup_seal_fd = sfd;
	dup_lose(lg, err);
}

/* Is path still the file open as fd?  Else *err says why not. */
static bool
same_file(int fd, const char *path, int *err)
{
	struct stat fs, ps;

	if (stat(path, &ps) < 0) {
		*err = errno;
		return false;
	}
	if (fstat(fd, &fs) < 0) {
		*err = errno;
		return false;
	}
	*err = ENOENT;	/* replaced: the name no longer leads to our file */
	return fs.st_dev == ps.st_dev && fs.st_ino == ps.st_ino;
}

/*
 * A log removed or replaced while open is still written without error,
 * into a file no one will read again: with a duplicate, that side is
 * lost as a failed write would lose it.  The one file left is put back
 * under its name, or the flush fails.
 */
static int
name_check(struct evlog *lg)
{
	char *cause = NULL;
	int err, fd;

	if (lg->dup_on && !same_file(lg->dup_fd, lg->dup_path, &err))
		dup_lose(lg, err);
	if (same_file(lg->fd, lg->path, &err))
		return 0;
	if (lg->dup_on) {
		main_lose(lg, err);
		return 0;
	}
	if (evlog_dup_copy_fd(lg->fd, lg->size, lg->path, &cause) < 0) {
		free(cause);
		return -1;
	}
	if ((fd = open(lg->path, O_RDWR | O_CLOEXEC)) < 0 ||
	    lseek(fd, lg->size, SEEK_SET) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(lg->fd);
	lg->fd = fd;
	return 0;
}

int
evlog_flush(struct evlog *lg)
{
	int err = 0;

	if (lg->pending.len == 0)
		return 0;
	if (write_all(lg->fd, lg->pending.buf, lg->pending.len) < 0 ||
	    fdatasync(lg->fd) < 0) {
		if (!lg->dup_on)
			return -1;
		err = errno;
	}
	/* The same bytes at the same offset: the files stay identical. */
	if (lg->dup_on && (write_all(lg->dup_fd, lg->pending.buf,
	    lg->pending.len) < 0 || fdatasync(lg->dup_fd) < 0)) {
		if (err != 0)
			return -1;	/* on neither disk */
		dup_lose(lg, errno);
	} else if (err != 0)
		main_lose(lg, err);
	/* Every record ends " @xxxxxxxx\n": its token is what a seal of
	 * this length says ends the file. */
	if (lg->pending.len >= 11 &&
	    lg->pending.buf[lg->pending.len - 11] == ' ' &&
	    lg->pending.buf[lg->pending.len - 10] == '@') {
		memcpy(lg->tail, lg->pending.buf + lg->pending.len - 9, 8);
		lg->tail[8] = '\0';
	} else
		lg->tail[0] = '\0';
	lg->size += (off_t)lg->pending.len;
	lg->nflushes++;
	sb_reset(&lg->pending);
	if (lg->dup_path != NULL && name_check(lg) < 0)
		return -1;
	/* Do not let one burst keep a huge buffer forever. */
	if (lg->pending.cap > (1u << 22))
		sb_release(&lg->pending);
	return 0;
}

int
evlog_read_at(struct evlog *lg, off_t off, struct strbuf *line)
{
	char buf[4096];

	sb_reset(line);
	if (off >= lg->size) {
		/* Still in the pending buffer. */
		size_t at = (size_t)(off - lg->size);
		const char *p, *nl;

		if (at >= lg->pending.len)
			return -1;
		p = lg->pending.buf + at;
		nl = memchr(p, '\n', lg->pending.len - at);
		if (nl == NULL)
			return -1;
		sb_add(line, p, (size_t)(nl - p));
		return 0;
	}
	for (;;) {
		ssize_t n = pread(lg->fd, buf, sizeof(buf), off);
		char *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		nl = memchr(buf, '\n', (size_t)n);
		if (nl) {
			sb_add(line, buf, (size_t)(nl - buf));
			return 0;
		}
		sb_add(line, buf, (size_t)n);
		off += n;
	}
}

/* the header line */

void
evlog_header_fmt(char buf[EVLOG_HEADER_LEN + 1], int64_t v)
{
	int n = snprintf(buf, EVLOG_HEADER_LEN + 1, "#%" PRId64, v);

	if (n < 0 || n > EVLOG_HEADER_LEN - 1)
		n = 1;	/* cannot happen: 19 digits fit */
	memset(buf + n, ' ', (size_t)(EVLOG_HEADER_LEN - 1 - n));
	buf[EVLOG_HEADER_LEN - 1] = '\n';
	buf[EVLOG_HEADER_LEN] = '\0';
}

int
evlog_header_parse(const char *line, size_t len, int64_t *v, const char **why)
{
	size_t i = 1, d;
	uint64_t x = 0;

	*v = 0;
	*why = NULL;
	if (len == 0 || line[0] != '#')
		return 0;
	for (d = i; i < len && line[i] >= '0' && line[i] <= '9'; i++) {
		if (i - d >= 18) {
			*why = "header number is too long";
			return -1;
		}
		x = x * 10 + (uint64_t)(line[i] - '0');
	}
	for (; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t') {
			*why = "header is not \"#\" and a number";
			return -1;
		}
	*v = (int64_t)x;
	return 1;
}

int
evlog_header_read(const char *path, int64_t *v, char **cause)
{
	char buf[256];
	const char *nl, *why;
	ssize_t n;
	int fd, rc;

	*v = 0;
	*cause = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			return 0;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	do
		n = pread(fd, buf, sizeof(buf), 0);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (n == 0 || buf[0] != '#')
		return 0;
	if ((nl = memchr(buf, '\n', (size_t)n)) == NULL) {
		*cause = xasprintf("%s: header line is not terminated", path);
		return -1;
	}
	rc = evlog_header_parse(buf, (size_t)(nl - buf), v, &why);
	if (rc < 0)
		*cause = xasprintf("%s: %s", path, why);
	return rc;
}
