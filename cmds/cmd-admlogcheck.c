/*
 * badmin logcheck: read an event log offline, as mbatchd's replay would,
 * and say what is wrong with it, so that damage is found and repaired
 * before a start refuses it.  Unlike replay it does not stop at the
 * first bad line: a person repairing the file wants them all.  It reads
 * the files only, and needs no mbatchd.
 *
 *	lsb.events: offset 5123: record checksum mismatch
 *	lsb.events: offset 9001: torn last record (37 bytes without a newline)
 *	lsb.envs: 12 records, no errors found
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd-admin.h"
#include "evlog.h"

/* Bad lines named per file before the rest are only counted. */
#define LOGCHECK_MAX	20

struct logcheck {
	const char	*path;
	uint64_t	 nrecords;
	int		 nbad;
	bool		 header_bad;
};

static void
bad_line(struct logcheck *lc, off_t off, const char *why, const char *type)
{
	if (++lc->nbad > LOGCHECK_MAX)
		return;
	if (type != NULL)
		printf("%s: offset %lld: \"%s\" record: %s\n", lc->path,
		    (long long)off, type, why);
	else
		printf("%s: offset %lld: %s\n", lc->path, (long long)off, why);
}

/* Every line of [base, base+size); 1 when there is a torn tail. */
static int
check_lines(struct logcheck *lc, const char *base, size_t size)
{
	const char *p = base, *end = base + size, *nl, *why;
	struct ev_reader r;

	for (; p < end; p = nl + 1) {
		off_t off = p - base;

		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL) {
			printf("%s: offset %lld: torn last record (%lld bytes "
			    "without a newline); mbatchd will keep it in "
			    "%s.torn and cut it off\n", lc->path,
			    (long long)off, (long long)(end - p), lc->path);
			return 1;
		}
		if (evlog_line_check(p, (size_t)(nl - p), off, &r, &why) < 0) {
			bad_line(lc, off, why, NULL);
			continue;
		}
		if (r.end == NULL) {
			int64_t v;

			/* Replay goes on over a damaged header, warning that
			 * it counts every finished job for MAX_JOB_NUM. */
			if (evlog_header_parse(p, (size_t)(nl - p), &v,
			    &why) < 0) {
				printf("%s: offset 0: %s (mbatchd counts every "
				    "finished job in the file for MAX_JOB_NUM)\n",
				    lc->path, why);
				lc->header_bad = true;
			}
			continue;
		}
		lc->nrecords++;
		if (ev_record_check(&r, &why) < 0)
			bad_line(lc, off, why, r.type);
	}
	return 0;
}

/* 0 clean, 1 damaged or torn, 255 unreadable. */
static int
check_file(const char *path, bool missing_ok)
{
	struct logcheck lc = { path, 0, 0, false };
	const char *base;
	char *cause = NULL;
	size_t size;
	int fd, torn;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT && missing_ok) {
			printf("%s: not found (an empty log)\n", path);
			return 0;
		}
		fprintf(stderr, "%s: %s: %s\n", progname, path,
		    strerror(errno));
		return 255;
	}
	if (evlog_map_fd(fd, path, &base, &size, &cause) < 0) {
		fprintf(stderr, "%s: %s\n", progname, cause);
		free(cause);
		close(fd);
		return 255;
	}
	close(fd);
	torn = check_lines(&lc, base, size);
	if (size > 0)
		munmap((void *)base, size);
	if (lc.nbad > LOGCHECK_MAX)
		printf("%s: %d more bad lines\n", path, lc.nbad - LOGCHECK_MAX);
	if (lc.nbad > 0)
		printf("%s: %d bad line%s: mbatchd will not start until the "
		    "file is repaired\n", path, lc.nbad,
		    lc.nbad == 1 ? "" : "s");
	else if (!torn && !lc.header_bad)
		printf("%s: %llu records, no errors found\n", path,
		    (unsigned long long)lc.nrecords);
	return lc.nbad > 0 || torn || lc.header_bad ? 1 : 0;
}

int
adm_logcheck(char **files, int nfiles)
{
	const struct lsf_config *c;
	char *dir, *path;
	int rc = 0, one;

	for (int i = 0; i < nfiles; i++) {
		one = check_file(files[i], false);
		if (one > rc)
			rc = one;
	}
	if (nfiles > 0)
		return rc;
	c = client_config(CONF_SHARED);
	if (c->lsf.sharedir == NULL)
		die("LSB_SHAREDIR is not set in %s", c->lsf.path ?
		    c->lsf.path : "lsf.conf");
	dir = xasprintf("%s/%s/logdir", c->lsf.sharedir, c->cluster.name);
	path = xasprintf("%s/lsb.events", dir);
	rc = check_file(path, true);
	free(path);
	path = xasprintf("%s/lsb.envs", dir);
	one = check_file(path, true);
	if (one > rc)
		rc = one;
	free(path);
	free(dir);
	return rc;
}
