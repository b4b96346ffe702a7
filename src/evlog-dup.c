/*
 * Duplicate logging (lsf.conf LSB_LOCALDIR): lsb.events kept twice, on
 * the master's local disk and in LSB_SHAREDIR, byte for byte.  Both are
 * written and synced each turn before any answer leaves, so the longer
 * of the two after a crash holds every acknowledged record and the
 * shorter is a prefix of it; two files that are not are not guessed at.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evlog.h"

#define CHUNK	(1 << 16)

static ssize_t
pread_full(int fd, char *buf, size_t len, off_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, buf + got, len - got, off + (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* A missing file reads as empty: -2 for it, else an fd or -1. */
static int
open_ro(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT)
		return -2;
	return fd;
}

int
evlog_dup_compare(const char *a, const char *b, off_t *off, char **cause)
{
	return evlog_dup_compare_from(a, b, 0, off, cause);
}

int
evlog_dup_compare_from(const char *a, const char *b, off_t at, off_t *off,
    char **cause)
{
	char *ba = NULL, *bb = NULL;
	int fa, fb, rc = -1;

	*cause = NULL;
	*off = 0;
	if ((fa = open_ro(a)) == -1) {
		*cause = xasprintf("%s: %s", a, strerror(errno));
		return -1;
	}
	if ((fb = open_ro(b)) == -1) {
		*cause = xasprintf("%s: %s", b, strerror(errno));
		goto out;
	}
	ba = xmalloc(CHUNK);
	bb = xmalloc(CHUNK);
	for (;;) {
		ssize_t na = 0, nb = 0, i, n;

		if (fa >= 0 && (na = pread_full(fa, ba, CHUNK, at)) < 0) {
			*cause = xasprintf("%s: %s", a, strerror(errno));
			goto out;
		}
		if (fb >= 0 && (nb = pread_full(fb, bb, CHUNK, at)) < 0) {
			*cause = xasprintf("%s: %s", b, strerror(errno));
			goto out;
		}
		n = na < nb ? na : nb;
		for (i = 0; i < n && ba[i] == bb[i]; i++)
			;
		if (i < n) {
			*off = at + i;
			rc = 3;
			goto out;
		}
		if (na != nb) {
			*off = at + n;
			rc = na < nb ? 1 : 2;
			goto out;
		}
		if (na < CHUNK) {
			*off = at + n;
			rc = 0;
			goto out;
		}
		at += n;
	}
out:
	free(ba);
	free(bb);
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return rc;
}

/* Copy [from, to) of src to dst at the same offsets. */
static int
copy_range(int src, int dst, off_t from, off_t to)
{
	char *buf = xmalloc(CHUNK);
	int rc = 0;

	while (from < to) {
		size_t want = (size_t)(to - from) < CHUNK ?
		    (size_t)(to - from) : CHUNK;
		ssize_t n = pread_full(src, buf, want, from);

		if (n <= 0) {
			if (n == 0)
				errno = EIO;	/* the source shrank */
			rc = -1;
			break;
		}
		if (lseek(dst, from, SEEK_SET) < 0 ||
		    write_all(dst, buf, (size_t)n) < 0) {
			rc = -1;
			break;
		}
		from += n;
	}
	free(buf);
	return rc;
}

int
evlog_dup_catch_up(const char *src, const char *dst, char **cause)
{
	struct stat ss, ds;
	int sfd, dfd = -1, rc = -1;
	const char *bad = src;

	*cause = NULL;
	if ((sfd = open(src, O_RDONLY | O_CLOEXEC)) < 0 || fstat(sfd, &ss) < 0)
		goto out;
	bad = dst;
	if ((dfd = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) < 0 ||
	    fstat(dfd, &ds) < 0 ||
	    copy_range(sfd, dfd, ds.st_size, ss.st_size) < 0 ||
	    fdatasync(dfd) < 0)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		*cause = xasprintf("%s: %s", bad, strerror(errno));
	if (sfd >= 0)
		close(sfd);
	if (dfd >= 0)
		close(dfd);
	return rc;
}

int
evlog_dup_copy_fd(int sfd, off_t size, const char *dst, char **cause)
{
	char *tmp = xasprintf("%s.tmp", dst), *dcopy = xstrdup(dst);
	int dfd, rc = -1;

	*cause = NULL;
	dfd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (dfd < 0 || copy_range(sfd, dfd, 0, size) < 0 ||
	    fdatasync(dfd) < 0) {
		*cause = xasprintf("%s: %s", tmp, strerror(errno));
		goto out;
	}
	if (rename(tmp, dst) < 0) {
		*cause = xasprintf("rename %s %s: %s", tmp, dst,
		    strerror(errno));
		goto out;
	}
	if (fsync_dir(dirname(dcopy)) < 0) {
		*cause = xasprintf("%s: fsync: %s", dst, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (dfd >= 0)
		close(dfd);
	if (rc < 0)
		(void)unlink(tmp);
	free(tmp);
	free(dcopy);
	return rc;
}

int
evlog_dup_copy(const char *src, const char *dst, char **cause)
{
	struct stat st;
	int fd, rc;

	if ((fd = open(src, O_RDONLY | O_CLOEXEC)) < 0 || fstat(fd, &st) < 0) {
		*cause = xasprintf("%s: %s", src, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	rc = evlog_dup_copy_fd(fd, st.st_size, dst, cause);
	close(fd);
	return rc;
}

int
evlog_dup_attach(struct evlog *lg, const char *path, char **cause)
{
	struct stat st;
	int fd;

	*cause = NULL;
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0 ||
	    fstat(fd, &st) < 0)
		goto fail;
	/* Shorter only when lg's header was just written: copy it. */
	if (st.st_size < lg->size &&
	    copy_range(lg->fd, fd, st.st_size, lg->size) < 0)
		goto fail;
	if (st.st_size != lg->size && (ftruncate(fd, lg->size) < 0 ||
	    fdatasync(fd) < 0))
		goto fail;
	if (lseek(fd, lg->size, SEEK_SET) < 0)
		goto fail;
	if (lg->dup_on)
		close(lg->dup_fd);
	lg->dup_fd = fd;
	lg->dup_on = true;
	if (lg->dup_path != path) {
		free(lg->dup_path);
		lg->dup_path = xstrdup(path);
	}
	/* Its seal, which may still be about the file it had before. */
	if (evlog_seal_attach(lg, cause) < 0) {
		close(lg->dup_fd);
		lg->dup_fd = -1;
		lg->dup_on = false;
		return -1;
	}
	return 0;
fail:
	*cause = xasprintf("%s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

int
evlog_dup_sync_generations(const char *src, const char *dst, int *ncopied,
    char **cause)
{
	long *gen;
	size_t n;
	off_t off;
	int rc = 0;

	*ncopied = 0;
	*cause = NULL;
	if (evlog_generations(src, &gen, &n, cause) < 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *s = xasprintf("%s.%ld", src, gen[i]);
		char *d = xasprintf("%s.%ld", dst, gen[i]);

		rc = evlog_dup_compare(s, d, &off, cause);
		if (rc > 0) {
			free(*cause);
			rc = evlog_dup_copy(s, d, cause);
			if (rc == 0)
				(*ncopied)++;
		}
		free(s);
		free(d);
	}
	free(gen);
	return rc;
}

int
evlog_dup_resync(struct evlog *lg, char **cause)
{
	char *path = lg->dup_path;
	int n;

	*cause = NULL;
	if (lg->dup_on || path == NULL)
		return 0;
	/* A switch while the side was off moved generations it lacks. */
	if (evlog_dup_sync_generations(lg->path, path, &n, cause) < 0)
		return -1;
	/* Its seal first: a crash after the copy must not leave one about
	 * the file it had (a start makes the two equal before it checks). */
	if (evlog_seal_before_copy(lg, path, cause) < 0 ||
	    evlog_dup_copy_fd(lg->fd, lg->size, path, cause) < 0)
		return -1;
	return evlog_dup_attach(lg, path, cause);
}
