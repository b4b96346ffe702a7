/*
 * limits: the machine's physical limits the benchmark figures are set
 * beside.
 *
 *	limits -d DIR -p NOP [-g NOP2] [-n COUNT] [-t SECS]
 *
 * spawn: fork + exec + wait of NOP, a minimal static program; fsync: a
 * small append to a file in DIR (the file system of the bench cluster's
 * LSB_SHAREDIR) made durable with fdatasync, as mbatchd does for each
 * batch of lsb.events records; fork/exec/wait of /bin/true one after
 * another, and on two workers at once.  Each figure is the mean over
 * COUNT operations (default 2000), cut short after SECS seconds (default
 * 10).  NOP2, the same program built with glibc when NOP is not, is
 * only reported (limit.spawn_glibc_us).  Prints RESULT|key|value|unit
 * lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long count = 2000;
static double max_secs = 10;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
fatal_errno(const char *what)
{
	fprintf(stderr, "limits: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void
run_wait(const char *path)
{
	char *argv[] = { (char *)path, NULL };
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		fatal_errno("fork");
	if (pid == 0) {
		execv(path, argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		fatal_errno("waitpid");
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "limits: %s failed\n", path);
		exit(1);
	}
}

/* Run path up to n times (bounded by max_secs); the number done. */
static long
spawn_loop(const char *path, long n, double *secs)
{
	double t0 = now(), t;
	long i;

	for (i = 0; i < n; i++) {
		run_wait(path);
		if ((i & 63) == 63 && now() - t0 > max_secs) {
			i++;
			break;
		}
	}
	t = now() - t0;
	*secs = t;
	return i;
}

static double
fsync_us(const char *dir)
{
	char path[4096], line[128];
	double t0, t;
	long i;
	int fd;

	snprintf(path, sizeof(path), "%s/limits.fsync.%d", dir, (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0600);
	if (fd < 0)
		fatal_errno(path);
	t0 = now();
	for (i = 0; i < count; i++) {
		int len = snprintf(line, sizeof(line),
		    "\"JOB_NEW\" \"10.1\" %ld a small record of a hundred "
		    "bytes or so, as lsb.events has @00000000\n", i);

		if (write(fd, line, (size_t)len) != len)
			fatal_errno("write");
		if (fdatasync(fd) < 0)
			fatal_errno("fdatasync");
		if ((i & 15) == 15 && now() - t0 > max_secs) {
			i++;
			break;
		}
	}
	t = now() - t0;
	close(fd);
	unlink(path);
	return t / (double)i * 1e6;
}

/* /bin/true on nworkers processes at once: runs per second in all. */
static double
parallel_rate(int nworkers)
{
	int pfd[2];
	pid_t pids[16];
	double t0, t;
	long total = 0;

	if (pipe(pfd) < 0)
		fatal_errno("pipe");
	t0 = now();
	for (int w = 0; w < nworkers; w++) {
		pids[w] = fork();
		if (pids[w] < 0)
			fatal_errno("fork");
		if (pids[w] == 0) {
			double s;
			long n = spawn_loop("/bin/true", count / nworkers, &s);

			if (write(pfd[1], &n, sizeof(n)) != sizeof(n))
				_exit(1);
			_exit(0);
		}
	}
	close(pfd[1]);
	for (int w = 0; w < nworkers; w++) {
		long n;
		int st;

		if (read(pfd[0], &n, sizeof(n)) == sizeof(n))
			total += n;
		waitpid(pids[w], &st, 0);
	}
	t = now() - t0;
	close(pfd[0]);
	return (double)total / t;
}

static void
result(const char *key, double v, const char *unit)
{
	printf("RESULT|%s|%.1f|%s\n", key, v, unit);
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	const char *dir = NULL, *nop = NULL, *nop2 = NULL;
	double secs, spawn, fs;
	long n;
	int c;

	while ((c = getopt(argc, argv, "d:g:n:p:t:")) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'g':
			nop2 = optarg;
			break;
		case 'n':
			count = atol(optarg);
			break;
		case 'p':
			nop = optarg;
			break;
		case 't':
			max_secs = atof(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (dir == NULL || nop == NULL || count < 2)
		goto usage;

	run_wait(nop);		/* warm the page cache */
	n = spawn_loop(nop, count, &secs);
	spawn = secs / (double)n * 1e6;
	result("limit.spawn_us", spawn, "us");
	if (nop2) {
		run_wait(nop2);
		n = spawn_loop(nop2, count, &secs);
		result("limit.spawn_glibc_us", secs / (double)n * 1e6, "us");
	}
	fs = fsync_us(dir);
	result("limit.fsync_us", fs, "us");
	result("limit.spawn_fsync_rate", 1e6 / (spawn + fs), "ops/s");
	n = spawn_loop("/bin/true", count, &secs);
	result("limit.forkexec_rate_1", (double)n / secs, "jobs/s");
	result("limit.forkexec_rate_2", parallel_rate(2), "jobs/s");
	return 0;
usage:
	fprintf(stderr, "usage: limits -d dir -p nop [-g nop2] [-n count] [-t secs]\n");
	return 2;
}
