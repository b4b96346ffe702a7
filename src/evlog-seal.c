/*
 * The seal of lsb.events (include/evlog.h): what mbatchd acknowledged,
 * kept beside the log in lsb.events.seal.
 *
 * A second fdatasync per turn would cost sequential submissions 10-25%
 * (bench w1), so the seal is written with one pwrite after the log's
 * sync and synced once a second: what is on disk of it is never ahead
 * of the log, and a crash only ever leaves it behind, which is safe.
 * Two slots in separate sectors, written in turn, so that a write torn
 * by a power cut leaves the other good.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evlog.h"
#include "timefmt.h"

/* A seal file is two slots; more is not read. */
#define SEAL_READ_MAX	(2 * EVLOG_SEAL_SLOT)

void
evlog_seal_fmt(char slot[EVLOG_SEAL_SLOT], const struct evlog_seal *s)
{
	struct strbuf sb = STRBUF_INIT;
	char host[EVLOG_SEAL_HOST_MAX];

	/* A host name is short; cut one that is not rather than the line. */
	snprintf(host, sizeof(host), "%s", s->host);
	sb_grow(&sb, EVLOG_SEAL_SLOT + 1);
	ev_begin(&sb, "SEAL", s->when);
	ev_int(&sb, (int64_t)s->seq);
	ev_int(&sb, (int64_t)s->size);
	ev_str(&sb, s->token);
	ev_int(&sb, s->next_jobid);
	ev_int(&sb, (int64_t)s->alt_size);
	ev_str(&sb, s->alt_token);
	ev_str(&sb, host);
	if (sb.len > EVLOG_SEAL_SLOT - 11)
		BUG("seal line of %zu bytes", sb.len);
	/* Blanks to the slot's width, inside the checksum: readers skip
	 * trailing blanks. */
	memset(sb.buf + sb.len, ' ', EVLOG_SEAL_SLOT - 11 - sb.len);
	sb.len = EVLOG_SEAL_SLOT - 11;
	sb.buf[sb.len] = '\0';
	ev_end(&sb, 0);
	memcpy(slot, sb.buf, EVLOG_SEAL_SLOT);
	sb_release(&sb);
}

/* A token as the seal keeps it: eight hex digits, or "". */
static bool
token_ok(const char *t)
{
	size_t n = strlen(t);

	if (n == 0)
		return true;
	if (n != 8)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((t[i] >= '0' && t[i] <= '9') ||
		    (t[i] >= 'a' && t[i] <= 'f')))
			return false;
	return true;
}

static bool
copy_token(char dst[9], char *src)
{
	bool ok = src != NULL && token_ok(src);

	snprintf(dst, 9, "%s", ok ? src : "");
	free(src);
	return ok;
}

int
evlog_seal_parse(const char *line, size_t len, struct evlog_seal *s,
    const char **why)
{
	struct ev_reader r;
	int64_t seq, size, alt;
	char *tok = NULL, *atok = NULL, *host = NULL;
	bool ok;

	memset(s, 0, sizeof(*s));
	if (evr_init(&r, line, len, why) < 0)
		return -1;
	if (strcmp(r.type, "SEAL") != 0) {
		*why = "not a seal";
		return -1;
	}
	if (!evr_int(&r, &seq) || !evr_int(&r, &size) || !evr_str(&r, &tok) ||
	    !evr_int(&r, &s->next_jobid) || !evr_int_opt(&r, &alt, 0) ||
	    !evr_str_opt(&r, &atok) || !evr_str_opt(&r, &host)) {
		free(tok);
		free(atok);
		free(host);
		*why = "seal fields are malformed";
		return -1;
	}
	s->seq = (uint64_t)seq;
	s->when = r.when;
	s->size = (off_t)size;
	s->alt_size = (off_t)alt;
	snprintf(s->host, sizeof(s->host), "%s", host ? host : "?");
	free(host);
	/* Both taken (and freed) whatever the first says. */
	ok = copy_token(s->token, tok);
	if (!copy_token(s->alt_token, atok ? atok : xstrdup("")))
		ok = false;
	if (!ok || seq < 0 || size < 0 || alt < 0) {
		*why = "seal fields are malformed";
		return -1;
	}
	return 0;
}

int
evlog_seal_read(const char *path, struct evlog_seal *s, char **cause)
{
	char *buf = xmalloc(SEAL_READ_MAX);
	const char *p, *end, *nl, *why = NULL;
	bool any = false, blank = true;
	ssize_t n;
	int fd, rc = -1;

	memset(s, 0, sizeof(*s));
	*cause = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		free(buf);
		if (errno == ENOENT)
			return 0;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	do
		n = pread(fd, buf, SEAL_READ_MAX, 0);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto out;
	}
	/* Slot by slot: a torn one (zeros, no newline) must not run into
	 * the next. */
	for (p = buf, end = buf + n; p < end; p += EVLOG_SEAL_SLOT) {
		const char *se = end - p < EVLOG_SEAL_SLOT ? end :
		    p + EVLOG_SEAL_SLOT;
		struct evlog_seal one;

		for (const char *q = p; q < se; q++)
			if (*q != '\0')
				blank = false;
		if ((nl = memchr(p, '\n', (size_t)(se - p))) == NULL ||
		    evlog_seal_parse(p, (size_t)(nl - p), &one, &why) < 0)
			continue;
		if (!any || one.seq > s->seq)
			*s = one;
		any = true;
	}
	if (any)
		rc = 1;
	else if (blank)
		rc = 0;		/* created, never written (or zeros) */
	else
		*cause = xasprintf("%s: damaged: no line of it is a good seal "
		    "(%s)", path, why ? why : "no line");
out:
	free(buf);
	return rc;
}

int
evlog_token_at(int fd, off_t off, char tok[9])
{
	char b[11];
	ssize_t n;

	tok[0] = '\0';
	if (off <= 0)
		return off == 0 ? 0 : -1;
	if (off < (off_t)sizeof(b)) {
		/* Only a header fits: it has no token. */
		do
			n = pread(fd, b, 1, off - 1);
		while (n < 0 && errno == EINTR);
		return n == 1 && b[0] == '\n' ? 0 : -1;
	}
	do
		n = pread(fd, b, sizeof(b), off - (off_t)sizeof(b));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(b) || b[10] != '\n')
		return -1;
	if (b[0] == ' ' && b[1] == '@') {
		memcpy(tok, b + 2, 8);
		tok[8] = '\0';
		if (!token_ok(tok))
			tok[0] = '\0';
	}
	return 0;
}

/* Does fd, of size bytes, have a line ending at want with token tok? */
static bool
holds(int fd, off_t size, off_t want, const char *tok, const char **how)
{
	char got[9];

	if (size < want) {
		*how = "short";
		return false;
	}
	if (evlog_token_at(fd, want, got) < 0) {
		*how = "no line";
		return false;
	}
	if (strcmp(got, tok) != 0) {
		*how = "token";
		return false;
	}
	return true;
}

int
evlog_seal_match(const char *path, const struct evlog_seal *s, off_t *acked,
    char **why)
{
	char when[64], *what;
	const char *how = NULL, *how2 = NULL;
	struct stat st;
	off_t size = 0;
	int fd;

	*acked = 0;
	*why = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno != ENOENT) {
			*why = xasprintf("%s: %s", path, strerror(errno));
			return -1;
		}
	} else if (fstat(fd, &st) < 0) {
		*why = xasprintf("%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	} else
		size = st.st_size;
	if (s->size == 0 || (fd >= 0 && holds(fd, size, s->size, s->token,
	    &how))) {
		*acked = s->size;
		goto ok;
	}
	if (s->alt_size > 0 && fd >= 0 && holds(fd, size, s->alt_size,
	    s->alt_token, &how2)) {
		*acked = s->alt_size;
		goto ok;
	}
	if (how == NULL)
		how = "short";	/* missing */
	fmt_time_full(s->when, when, sizeof(when));
	what = xasprintf("mbatchd on %s had acknowledged %lld bytes of it "
	    "and job IDs up to %lld at %s (%s%s)", s->host,
	    (long long)s->size, (long long)(s->next_jobid - 1), when, path,
	    EVLOG_SEAL_SUFFIX);
	if (fd < 0)
		*why = xasprintf("%s is missing, but %s", path, what);
	else if (strcmp(how, "short") == 0)
		*why = xasprintf("%s is %lld bytes long, but %s", path,
		    (long long)size, what);
	else if (strcmp(how, "no line") == 0)
		*why = xasprintf("%s (%lld bytes) has no line ending at offset "
		    "%lld, but %s", path, (long long)size, (long long)s->size,
		    what);
	else
		*why = xasprintf("%s (%lld bytes): the line ending at offset "
		    "%lld is not the record that ended there (@%s), but %s",
		    path, (long long)size, (long long)s->size,
		    s->token[0] ? s->token : "-", what);
	free(what);
	if (fd >= 0)
		close(fd);
	return 1;
ok:
	if (fd >= 0)
		close(fd);
	return 0;
}

/* The seal of the side asked for, or -1. */
static int
side_fd(const struct evlog *lg, int side)
{
	if (side == 1)
		return lg->seal_fd;
	return lg->dup_on ? lg->dup_seal_fd : -1;
}

int
evlog_seal_put(struct evlog *lg, const struct evlog_seal *s, int sides,
    bool both, bool sync)
{
	char two[2 * EVLOG_SEAL_SLOT];
	int rc = 0;

	evlog_seal_fmt(two, s);
	memcpy(two + EVLOG_SEAL_SLOT, two, EVLOG_SEAL_SLOT);
	for (int side = 1; side <= 2; side++) {
		int fd = side_fd(lg, side);
		ssize_t n, want = both ? (ssize_t)sizeof(two) : EVLOG_SEAL_SLOT;

		if (!(sides & side) || fd < 0)
			continue;
		n = pwrite(fd, two, (size_t)want, both ? 0 :
		    (off_t)(s->seq & 1) * EVLOG_SEAL_SLOT);
		if (n != want) {
			if (n >= 0)
				errno = EIO;
			rc = -1;
			continue;
		}
		if (sync && fdatasync(fd) < 0)
			rc = -1;
	}
	lg->seal = *s;
	if (!sync)
		lg->seal_unsynced = true;
	return rc;
}

/* path.seal, opened for writing; its directory synced if it was made. */
static int
seal_open_one(const char *logpath, char **cause)
{
	char *path = xasprintf("%s%s", logpath, EVLOG_SEAL_SUFFIX);
	char *dcopy = xstrdup(logpath);
	bool made = access(path, F_OK) < 0;
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || (made && fsync_dir(dirname(dcopy)) < 0)) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	free(path);
	free(dcopy);
	return fd;
}

int
evlog_seal_open(struct evlog *lg, uint64_t seq, const char *host,
    int64_t next_jobid, int64_t now, char **cause)
{
	struct evlog_seal s;

	*cause = NULL;
	lg->seal_fd = lg->dup_seal_fd = -1;
	/* What is sealed must be on disk: the replayed bytes may be a
	 * turn that was written but not yet synced when mbatchd died. */
	if (fdatasync(lg->fd) < 0) {
		*cause = xasprintf("%s: %s", lg->path, strerror(errno));
		return -1;
	}
	if ((lg->seal_fd = seal_open_one(lg->path, cause)) < 0)
		return -1;
	if (lg->dup_on) {
		char *why = NULL;

		if (fdatasync(lg->dup_fd) < 0 ||
		    (lg->dup_seal_fd = seal_open_one(lg->dup_path, &why)) < 0) {
			/* As a failed write would: the other goes on alone. */
			int err = errno;

			free(why);
			close(lg->dup_fd);
			lg->dup_fd = -1;
			lg->dup_on = false;
			lg->dup_lost = err;
			free(lg->dup_lost_path);
			lg->dup_lost_path = xstrdup(lg->dup_path);
		}
	}
	lg->seal_on = true;
	memset(&s, 0, sizeof(s));
	s.seq = seq + 1;
	s.when = now;
	s.size = lg->size;
	memcpy(s.token, lg->tail, sizeof(s.token));
	s.next_jobid = next_jobid;
	snprintf(s.host, sizeof(s.host), "%s", host);
	if (evlog_seal_put(lg, &s, 3, true, true) < 0) {
		*cause = xasprintf("%s%s: %s", lg->path, EVLOG_SEAL_SUFFIX,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* lg's seal as it stands, its length lg's written one. */
static void
seal_now(const struct evlog *lg, struct evlog_seal *s)
{
	*s = lg->seal;
	s->seq++;
	s->size = lg->size;
	memcpy(s->token, lg->tail, sizeof(s->token));
	s->alt_size = 0;
	s->alt_token[0] = '\0';
}

int
evlog_seal_before_copy(struct evlog *lg, const char *dst, char **cause)
{
	char two[2 * EVLOG_SEAL_SLOT];
	struct evlog_seal s;
	int fd, rc = 0;

	*cause = NULL;
	if (!lg->seal_on)
		return 0;
	if ((fd = seal_open_one(dst, cause)) < 0)
		return -1;
	seal_now(lg, &s);
	evlog_seal_fmt(two, &s);
	memcpy(two + EVLOG_SEAL_SLOT, two, EVLOG_SEAL_SLOT);
	if (pwrite(fd, two, sizeof(two), 0) != (ssize_t)sizeof(two) ||
	    fdatasync(fd) < 0) {
		*cause = xasprintf("%s%s: %s", dst, EVLOG_SEAL_SUFFIX,
		    strerror(errno ? errno : EIO));
		rc = -1;
	}
	close(fd);
	return rc;
}

int
evlog_seal_attach(struct evlog *lg, char **cause)
{
	struct evlog_seal s;
	int fd;

	*cause = NULL;
	if (!lg->seal_on || !lg->dup_on)
		return 0;
	if (fdatasync(lg->dup_fd) < 0) {
		*cause = xasprintf("%s: %s", lg->dup_path, strerror(errno));
		return -1;
	}
	if ((fd = seal_open_one(lg->dup_path, cause)) < 0)
		return -1;
	if (lg->dup_seal_fd >= 0)
		close(lg->dup_seal_fd);
	lg->dup_seal_fd = fd;
	seal_now(lg, &s);
	if (evlog_seal_put(lg, &s, 2, true, true) < 0) {
		*cause = xasprintf("%s%s: %s", lg->dup_path, EVLOG_SEAL_SUFFIX,
		    strerror(errno));
		close(fd);
		lg->dup_seal_fd = -1;
		return -1;
	}
	return 0;
}

int
evlog_seal_write(struct evlog *lg, int64_t next_jobid, int64_t now)
{
	struct evlog_seal s;

	if (!lg->seal_on)
		return 0;
	seal_now(lg, &s);
	s.when = now;
	s.next_jobid = next_jobid;
	return evlog_seal_put(lg, &s, 3, false, false);
}

int
evlog_seal_sync(struct evlog *lg)
{
	int rc = 0;

	if (!lg->seal_on || !lg->seal_unsynced)
		return 0;
	lg->seal_unsynced = false;
	if (lg->seal_fd >= 0 && fdatasync(lg->seal_fd) < 0)
		rc = -1;
	if (lg->dup_on && lg->dup_seal_fd >= 0 && fdatasync(lg->dup_seal_fd) < 0)
		rc = -1;
	return rc;
}

int
evlog_seal_follow(const char *src, const char *dst, bool replaced,
    char **cause)
{
	char *ss = xasprintf("%s%s", src, EVLOG_SEAL_SUFFIX);
	char *ds = xasprintf("%s%s", dst, EVLOG_SEAL_SUFFIX);
	char *dl = xasprintf("%s%s", dst, EVLOG_SEAL_LOST);
	char *dcopy = xstrdup(dst);
	int rc = 0;

	*cause = NULL;
	if (access(ss, F_OK) == 0)
		rc = evlog_dup_copy(ss, ds, cause);
	else if (replaced && access(ds, F_OK) == 0) {
		struct evlog_seal a, b;
		char *w1 = NULL, *w2 = NULL;
		int lost = evlog_seal_read(dl, &b, &w1);
		int cur = evlog_seal_read(ds, &a, &w2);

		free(w1);
		free(w2);
		/* Its file is gone; its job IDs are not: the higher of its
		 * and an earlier lost seal's is kept as dst.seal.lost. */
		if (lost == 1 && cur == 1 && a.next_jobid <= b.next_jobid) {
			if (unlink(ds) < 0)
				rc = -1;
		} else if (rename(ds, dl) < 0)
			rc = -1;
		if (rc == 0 && fsync_dir(dirname(dcopy)) < 0)
			rc = -1;
		if (rc < 0)
			*cause = xasprintf("%s: %s", ds, strerror(errno));
	}
	free(ss);
	free(ds);
	free(dl);
	free(dcopy);
	return rc;
}
