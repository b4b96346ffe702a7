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
 *
 * A log with a seal beside it (lsb.events.seal) is also held to it, as
 * mbatchd's start holds it: a log shorter than what was acknowledged, or
 * without the record that ended it there, is named with both lengths.
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
#include "timefmt.h"

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

/*
 * Every line of [base, base+size); 1 when there is a torn tail.  acked:
 * what a seal that matches says was acknowledged, else -1.
 */
static int
check_lines(struct logcheck *lc, const char *base, size_t size, off_t acked)
{
	const char *p = base, *end = base + size, *nl, *why;
	struct ev_reader r;
	char *cause;

	for (; p < end; p = nl + 1) {
		off_t off = p - base;

		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL) {
			if (evlog_tail_check_buf(lc->path, p,
			    (size_t)(end - p), off, acked, &cause) < 0) {
				if (++lc->nbad <= LOGCHECK_MAX)
					printf("%s\n", cause);
				free(cause);
				return 0;
			}
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

/*
 * The seal beside path: 0 none or it matches (*acked then what it says
 * was acknowledged, else -1), 1 after saying what is wrong, 255 when
 * it cannot be read.
 */
static int
check_seal(const char *path, off_t *acked)
{
	char *sp = xasprintf("%s%s", path, EVLOG_SEAL_SUFFIX);
	char *cause = NULL, when[64];
	struct evlog_seal s;
	int rc = 0;

	*acked = -1;
	switch (evlog_seal_read(sp, &s, &cause)) {
	case -1:
		printf("%s: mbatchd will not start until it is moved aside "
		    "(mv %s %s%s)\n", cause, sp, path, EVLOG_SEAL_LOST);
		rc = 1;
		break;
	case 1:
		switch (evlog_seal_match(path, &s, acked, &cause)) {
		case -1:
			fprintf(stderr, "%s: %s\n", progname, cause);
			rc = 255;
			break;
		case 1:
			printf("%s: acknowledged records are missing (the file "
			    "was cut short, or replaced by another copy): "
			    "mbatchd will not start; to start on it anyway, "
			    "losing them: mv %s %s%s (job IDs still go on "
			    "after %lld)\n", cause, sp, path, EVLOG_SEAL_LOST,
			    (long long)(s.next_jobid - 1));
			*acked = -1;
			rc = 1;
			break;
		default:
			fmt_time_full(s.when, when, sizeof(when));
			printf("%s: sealed: mbatchd on %s had acknowledged "
			    "%lld bytes and job IDs up to %lld at %s (%s)\n",
			    path, s.host, (long long)*acked,
			    (long long)(s.next_jobid - 1), when, sp);
		}
		break;
	}
	free(cause);
	free(sp);
	return rc;
}

/* 0 clean, 1 damaged or torn, 255 unreadable. */
static int
check_file(const char *path, bool missing_ok)
{
	struct logcheck lc = { path, 0, 0, false };
	const char *base;
	char *cause = NULL;
	size_t size;
	off_t acked;
	int fd, torn, sealed;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT && missing_ok) {
			printf("%s: not found (an empty log)\n", path);
			return check_seal(path, &acked);
		}
		fprintf(stderr, "%s: %s: %s\n", progname, path,
		    strerror(errno));
		return 255;
	}
	/* The seal first: a running mbatchd writes it after the log, so
	 * the file then read holds at least what it says. */
	if ((sealed = check_seal(path, &acked)) == 255) {
		close(fd);
		return 255;
	}
	if (evlog_map_fd(fd, path, &base, &size, &cause) < 0) {
		fprintf(stderr, "%s: %s\n", progname, cause);
		free(cause);
		close(fd);
		return 255;
	}
	close(fd);
	torn = check_lines(&lc, base, size, acked);
	if (size > 0)
		munmap((void *)base, size);
	if (lc.nbad > LOGCHECK_MAX)
		printf("%s: %d more bad lines\n", path, lc.nbad - LOGCHECK_MAX);
	if (lc.nbad > 0)
		printf("%s: %d bad line%s: mbatchd will not start until the "
		    "file is repaired\n", path, lc.nbad,
		    lc.nbad == 1 ? "" : "s");
	else if (!torn && !lc.header_bad && !sealed)
		printf("%s: %llu records, no errors found\n", path,
		    (unsigned long long)lc.nrecords);
	return lc.nbad > 0 || torn || lc.header_bad || sealed ? 1 : 0;
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
