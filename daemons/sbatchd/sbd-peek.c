/*
 * bpeek: a piece of a running job's output, from its -o file or, without
 * -o, from the spool in its directory.  The -o path is the user's choice
 * and sbatchd is root, so the file is opened with the user's filesystem
 * identity and must be a regular file the user owns.  One answer carries
 * at most PEEK_MAX_BYTES (one pread), so a huge file never holds up the
 * loop; bpeek asks again from where the answer ended.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "sbd.h"

#define PEEK_MAX_BYTES		(1024 * 1024)
#define PEEK_DEFAULT_BYTES	(64 * 1024)

/* The file bpeek reads; NULL while a relative -o has no directory yet. */
static char *
output_path(const struct sjob *j)
{
	if (j->out_path == NULL)
		return xasprintf("%s/%s", j->dir, JOBDIR_OUTPUT);
	if (j->out_path[0] == '/')
		return xstrdup(j->out_path);
	/* Relative to where the job runs, which its supervisor reports. */
	if (j->st.exec_cwd == NULL)
		return NULL;
	return xasprintf("%s/%s", j->st.exec_cwd, j->out_path);
}

static int
open_as_user(const char *path, const struct sjob *j)
{
	bool root = geteuid() == 0;
	struct stat sb;
	int fd, err;

	if (root) {
		(void)setfsgid(j->gid);
		(void)setfsuid(j->uid);
	}
	/* O_NONBLOCK: a FIFO planted under the name cannot hang us. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	err = errno;
	if (root) {
		(void)setfsuid(0);
		(void)setfsgid(getegid());
	}
	if (fd < 0) {
		errno = err;
		return -1;
	}
	if (fstat(fd, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		/* -o /dev/null (or a FIFO): nothing to show, not an error;
		 * nothing is read from it either. */
		close(fd);
		errno = ENODATA;
		return -1;
	}
	if (fstat(fd, &sb) < 0 || (root && sb.st_uid != j->uid)) {
		close(fd);
		errno = EACCES;
		return -1;
	}
	return fd;
}

/*
 * A -o file the job could not write sends its output to the spool (and
 * by mail at the end): bpeek shows it from there, once there is some.
 */
static int
spool_with_output(const struct sjob *j, struct peek_reply *rp)
{
	int err = errno;
	char *spool = xasprintf("%s/%s", j->dir, JOBDIR_OUTPUT);
	struct stat sb;
	int fd = open_as_user(spool, j);

	if (fd >= 0 && fstat(fd, &sb) == 0 && sb.st_size > 0) {
		free(rp->path);
		rp->path = spool;
		return fd;
	}
	if (fd >= 0)
		close(fd);
	free(spool);
	errno = err;
	return -1;
}

void
peek_read(const struct peek_req *rq, struct peek_reply *rp)
{
	struct sjob *j = jobs_find(rq->jobid, rq->idx);
	int64_t max = rq->max > 0 ? rq->max : PEEK_DEFAULT_BYTES;
	int64_t start, n;
	struct stat sb;
	ssize_t got;
	char *buf;
	int fd;

	memset(rp, 0, sizeof(*rp));
	rp->tag = rq->tag;
	rp->jobid = rq->jobid;
	rp->idx = rq->idx;
	rp->offset = rp->next = rq->offset > 0 ? rq->offset : 0;
	if (j == NULL || j->run_count != rq->run_count) {
		/* Not here yet (the start is on its way), or no more. */
		rp->code = LSBE_NOT_STARTED;
		return;
	}
	j->peek_ms = mono_ms();
	rp->finished = j->finished;
	if ((rp->path = output_path(j)) == NULL) {
		rp->code = LSBE_NOT_STARTED;
		return;
	}
	if ((fd = open_as_user(rp->path, j)) < 0 && j->out_path != NULL &&
	    (fd = spool_with_output(j, rp)) >= 0)
		errno = 0;
	if (fd < 0) {
		/* Nothing written yet is no output so far, not an error;
		 * nor is output that goes nowhere. */
		if (errno != ENOENT && errno != ENODATA) {
			log_info("job %lld: bpeek of %s: %s",
			    (long long)rq->jobid, rp->path, strerror(errno));
			rp->code = LSBE_PERMISSION;
		}
		rp->data = xstrdup("");
		return;
	}
	if (max > PEEK_MAX_BYTES)
		max = PEEK_MAX_BYTES;
	if (fstat(fd, &sb) < 0)
		sb.st_size = 0;
	if (rq->offset < 0)
		start = sb.st_size > max ? sb.st_size - max : 0;
	else if (rq->offset > sb.st_size)
		start = 0;		/* truncated (-oo): from the top again */
	else
		start = rq->offset;
	n = sb.st_size - start < max ? sb.st_size - start : max;
	buf = xmalloc((size_t)n + 1);
	got = n > 0 ? pread(fd, buf, (size_t)n, start) : 0;
	if (got < 0)
		got = 0;
	close(fd);
	/* The wire carries text: a NUL would end it early. */
	for (ssize_t i = 0; i < got; i++)
		if (buf[i] == '\0')
			buf[i] = '?';
	buf[got] = '\0';
	rp->data = buf;
	rp->offset = start;
	rp->next = start + got;
}
