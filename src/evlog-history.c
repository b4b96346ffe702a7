/*
 * Reading lsb.events for history (badmin hist and its kin): where a
 * generation's own history starts, and every generation taken as one
 * set while mbatchd may be switching the log under the reader.
 *
 * A switch (evlog_switch) renames lsb.events.N up from the oldest,
 * links lsb.events as lsb.events.1 and renames the fresh file over
 * lsb.events.  A reader that lists the names and then opens them one by
 * one can straddle those renames and read one file twice (under two
 * numbers) or not at all.  Files stay what they are once open, so the
 * reader opens lsb.events first, then the generations, and then checks
 * that every name still is the file it opened and that the list of
 * names is the same: renames only ever move a file up, so any rename
 * that fell in between shows as a name that changed file, and any
 * switch that ended in between as a new lsb.events.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "evlog.h"
#include "util.h"

int
evlog_history_start_fd(int fd, const char *path, off_t *start, char **cause)
{
	static const char tag[] = "\"LOG_SWITCH\" ";
	const char *base, *p, *end, *nl, *why;
	struct ev_reader r;
	size_t size;
	int rc = 0;

	*start = 0;
	*cause = NULL;
	if (evlog_map_fd(fd, path, &base, &size, cause) < 0)
		return -1;
	if (size == 0)
		return 0;
	end = base + size;
	for (p = base; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			break;
		if ((size_t)(nl - p) < sizeof(tag) - 1 ||
		    memcmp(p, tag, sizeof(tag) - 1) != 0)
			continue;
		if (evr_init(&r, p, (size_t)(nl - p), &why) < 0) {
			*cause = xasprintf("%s: offset %lld: %s", path,
			    (long long)(p - base), why);
			rc = -1;
		} else
			*start = nl + 1 - base;
		break;
	}
	munmap((void *)base, size);
	return rc;
}

void
evlog_gens_release(struct evlog_gens *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		if (gs->v[i].fd >= 0)
			close(gs->v[i].fd);
		free(gs->v[i].path);
	}
	free(gs->v);
	gs->v = NULL;
	gs->n = 0;
}

static bool
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Does name still open as fd's file? */
static bool
still(const char *name, int fd)
{
	struct stat sn, sf;

	return stat(name, &sn) == 0 && fstat(fd, &sf) == 0 &&
	    same_file(&sn, &sf);
}

/* One try: 1 with a consistent set in *gs, 0 to try again (gs empty),
 * -1 with *cause. */
static int
gens_try(const char *path, struct evlog_gens *gs, char **cause)
{
	struct stat scur, sg;
	long *gen = NULL, *again = NULL;
	size_t ngen = 0, nagain = 0;
	int cur, rc = 1;

	if ((cur = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(cur, &scur) < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		close(cur);
		return -1;
	}
	if (evlog_generations(path, &gen, &ngen, cause) < 0) {
		close(cur);
		return -1;
	}
	gs->v = xcalloc(ngen + 1, sizeof(*gs->v));
	for (size_t i = 0; i < ngen && rc == 1; i++) {
		char *name = xasprintf("%s.%ld", path, gen[i]);
		int fd = open(name, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			if (errno == ENOENT)
				rc = 0;		/* renamed since listed */
			else {
				*cause = xasprintf("%s: %s", name,
				    strerror(errno));
				rc = -1;
			}
			free(name);
			break;
		}
		/* A switch between its link and its rename, or one that
		 * stopped there, leaves lsb.events.1 a second name of
		 * lsb.events: read that file once. */
		if (fstat(fd, &sg) == 0 && same_file(&sg, &scur)) {
			close(fd);
			free(name);
			continue;
		}
		gs->v[gs->n].fd = fd;
		gs->v[gs->n].path = name;
		gs->n++;
	}
	gs->v[gs->n].fd = cur;
	gs->v[gs->n].path = xstrdup(path);
	gs->n++;
	if (rc == 1 && evlog_generations(path, &again, &nagain, cause) < 0)
		rc = -1;
	if (rc == 1 && (nagain != ngen ||
	    (ngen > 0 && memcmp(again, gen, ngen * sizeof(*gen)) != 0)))
		rc = 0;
	for (size_t i = 0; i < gs->n && rc == 1; i++)
		if (!still(gs->v[i].path, gs->v[i].fd))
			rc = 0;
	free(gen);
	free(again);
	if (rc != 1)
		evlog_gens_release(gs);
	return rc;
}

int
evlog_gens_open(const char *path, struct evlog_gens *gs, char **cause)
{
	/* A switch renames its files in a few system calls (it writes the
	 * fresh file before the first rename), so a set is seldom taken
	 * twice; a reader waits up to about two seconds for one. */
	static const struct timespec pause = { 0, 10 * 1000 * 1000 };

	gs->v = NULL;
	gs->n = 0;
	*cause = NULL;
	for (int tries = 0; tries < 200; tries++) {
		int rc = gens_try(path, gs, cause);

		if (rc != 0)
			return rc == 1 ? 0 : -1;
		if (tries >= 2)
			nanosleep(&pause, NULL);
	}
	*cause = xasprintf("%s: the log kept being switched while it was"
	    " read; try again", path);
	return -1;
}
