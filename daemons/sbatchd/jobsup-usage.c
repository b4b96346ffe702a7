/*
 * What a job's processes use: resident memory, CPU time and threads
 * summed over the job's session.  A full look walks all of /proc and remembers the
 * session's processes; a quick look, cheap enough to take every second
 * for a job with a limit, reads only those and their children
 * (/proc/PID/task/PID/children), so what they start is seen at once and
 * only processes that left the tree (orphans) wait for the next full look.
 *
 * CPU time counts what a process has used and what its waited-for
 * children used (cutime, cstime), so the work of a script's short
 * commands is not lost when they end.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sbd.h"

/* Above this many processes a quick look is not cheaper: walk /proc. */
#define QUICK_MAX	256

struct proc_use {
	int64_t		 kb;
	double		 cpu;
	long		 threads;
	long		 pgrp;
};

static ssize_t
read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* One process, if it is in session sid. */
static bool
read_proc(pid_t pid, pid_t sid, struct proc_use *u)
{
	static long ticks, pagekb;
	char path[64], buf[1024], *p;
	long pgrp, session, rss, cut, cst, nthr;
	unsigned long ut, stt;

	if (ticks == 0) {
		ticks = sysconf(_SC_CLK_TCK);
		pagekb = sysconf(_SC_PAGESIZE) / 1024;
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return false;
	/* Fields after the command name, which may hold blanks. */
	p = strrchr(buf, ')');
	if (p == NULL || p[1] == '\0')
		return false;
	/* state ppid pgrp session ... utime stime cutime cstime (14-17)
	 * priority nice num_threads (20) ... rss (24) */
	if (sscanf(p + 2, "%*c %*d %ld %ld %*d %*d %*u %*u %*u %*u %*u "
	    "%lu %lu %ld %ld %*d %*d %ld %*d %*u %*u %ld",
	    &pgrp, &session, &ut, &stt, &cut, &cst, &nthr, &rss) != 8 ||
	    session != sid)
		return false;
	u->pgrp = pgrp;
	u->kb = (int64_t)rss * pagekb;
	u->threads = nthr > 0 ? nthr : 1;
	u->cpu = (double)(ut + stt) / (double)ticks;
	if (cut > 0 && cst >= 0)
		u->cpu += (double)(cut + cst) / (double)ticks;
	return true;
}

static bool
known(const struct usage_set *u, pid_t pid)
{
	for (size_t i = 0; i < u->npids; i++)
		if (u->pids[i] == pid)
			return true;
	return false;
}

static void
add_pid(struct usage_set *u, pid_t pid)
{
	if (u->npids == u->cap) {
		u->cap = u->cap ? u->cap * 2 : 16;
		u->pids = xrealloc(u->pids, u->cap * sizeof(*u->pids));
	}
	u->pids[u->npids++] = pid;
}

static void
full_look(struct usage_set *u, pid_t sid, struct proc_use *sum)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	u->npids = 0;
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		struct proc_use pu;
		pid_t pid;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		pid = (pid_t)atoi(de->d_name);
		if (!read_proc(pid, sid, &pu))
			continue;
		add_pid(u, pid);
		sum->kb += pu.kb;
		sum->cpu += pu.cpu;
		sum->threads += pu.threads;
	}
	closedir(d);
}

/* The known processes, then each one's children, breadth first. */
static void
quick_look(struct usage_set *u, pid_t sid, struct proc_use *sum)
{
	struct usage_set old = *u;

	u->pids = NULL;
	u->npids = u->cap = 0;
	for (size_t i = 0; i < old.npids; i++)
		if (!known(u, old.pids[i]))
			add_pid(u, old.pids[i]);
	if (!known(u, sid))
		add_pid(u, sid);
	free(old.pids);
	for (size_t i = 0; i < u->npids; i++) {
		struct proc_use pu;
		char path[64], buf[4096], *p, *end;
		pid_t pid = u->pids[i];

		if (!read_proc(pid, sid, &pu)) {
			u->pids[i--] = u->pids[--u->npids];
			continue;
		}
		sum->kb += pu.kb;
		sum->cpu += pu.cpu;
		sum->threads += pu.threads;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children",
		    (int)pid, (int)pid);
		if (read_small(path, buf, sizeof(buf)) <= 0)
			continue;
		for (p = buf; *p; p = end) {
			long c = strtol(p, &end, 10);

			if (end == p)
				break;
			if (c > 0 && !known(u, (pid_t)c) && u->npids < QUICK_MAX)
				add_pid(u, (pid_t)c);
		}
	}
}

int
usage_sample(struct usage_set *u, pid_t sid, bool full, int64_t *kb,
    double *cpu, int *threads)
{
	struct proc_use sum = { 0, 0, 0, 0 };

	if (full || u->npids == 0 || u->npids >= QUICK_MAX)
		full_look(u, sid, &sum);
	else
		quick_look(u, sid, &sum);
	*kb = sum.kb;
	*cpu = sum.cpu;
	*threads = (int)sum.threads;
	return (int)u->npids;
}

void
usage_procs(pid_t sid, struct strbuf *pids, struct strbuf *pgids)
{
	struct usage_set u;
	struct proc_use sum = { 0, 0, 0, 0 }, pu;
	long *seen;
	size_t nseen = 0;

	memset(&u, 0, sizeof(u));
	full_look(&u, sid, &sum);
	seen = xcalloc(u.npids + 1, sizeof(*seen));
	for (size_t i = 0; i < u.npids; i++) {
		size_t k;

		if (!read_proc(u.pids[i], sid, &pu))
			continue;	/* gone meanwhile */
		sb_addf(pids, "%s%d", pids->len ? " " : "", (int)u.pids[i]);
		for (k = 0; k < nseen && seen[k] != pu.pgrp; k++)
			;
		if (k == nseen) {
			seen[nseen++] = pu.pgrp;
			sb_addf(pgids, "%s%ld", pgids->len ? " " : "", pu.pgrp);
		}
	}
	free(seen);
	usage_release(&u);
}

void
usage_release(struct usage_set *u)
{
	free(u->pids);
	memset(u, 0, sizeof(*u));
}
