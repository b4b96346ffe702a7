/*
 * limits: the machine's physical limits the benchmark figures are set
 * beside.
 *
 *	limits -d DIR -p NOP [-g NOP2] [-c RTCLI] [-n COUNT] [-t SECS]
 *
 * spawn: fork + exec + wait of NOP, a minimal static program; fsync: a
 * small append to a file in DIR (the file system of the bench cluster's
 * LSB_SHAREDIR) made durable with fdatasync, as mbatchd does for each
 * batch of lsb.events records; fork/exec/wait of /bin/true one after
 * another, and on two workers at once.  With RTCLI (bench/tools/rtcli.c),
 * the durable round trip: RTCLI spawned as NOP is, sending a request to
 * a server that does nothing but append a record, fdatasync it and
 * answer, the least any durable one-client submission costs here, which
 * the sum spawn + fsync leaves out (the socket round trip and the
 * wake-ups on both sides); and the same with 8 clients at once against
 * a server that commits as a group (limit.durable_rtt8_*), the least
 * workload 2's submissions cost.  Each figure is the mean over
 * COUNT operations (default 2000), cut short after SECS seconds (default
 * 10).  NOP2, the same program built with glibc when NOP is not, is
 * only reported (limit.spawn_glibc_us).  Prints RESULT|key|value|unit
 * lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long count = 2000;
static double max_secs = 10;
static int child_devnull;	/* children's output to /dev/null */

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
run_wait(char *const argv[])
{
	const char *path = argv[0];
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		fatal_errno("fork");
	if (pid == 0) {
		/* As tools/spawnloop runs bsub in workloads 1 and 2. */
		int fd = child_devnull ? open("/dev/null", O_RDWR) : -1;

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
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

/* Run argv up to n times (bounded by max_secs); the number done. */
static long
spawn_loop_argv(char *const argv[], long n, double *secs)
{
	double t0 = now(), t;
	long i;

	for (i = 0; i < n; i++) {
		run_wait(argv);
		if ((i & 63) == 63 && now() - t0 > max_secs) {
			i++;
			break;
		}
	}
	t = now() - t0;
	*secs = t;
	return i;
}

static long
spawn_loop(const char *path, long n, double *secs)
{
	char *argv[] = { (char *)path, NULL };

	return spawn_loop_argv(argv, n, secs);
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

/* bsub's request for "bsub -q idle -o /dev/null /bin/true", which
 * bench/tools/rtcli.c sends. */
#define RT_REQ_SIZE	1808

/* argv on nworkers processes at once, count runs in all: runs per
 * second. */
static double
parallel_rate_argv(char *const argv[], int nworkers)
{
	int pfd[2];
	pid_t pids[16];
	double t0, t;
	long total = 0;

	if (nworkers > 16)
		nworkers = 16;
	if (pipe(pfd) < 0)
		fatal_errno("pipe");
	t0 = now();
	for (int w = 0; w < nworkers; w++) {
		pids[w] = fork();
		if (pids[w] < 0)
			fatal_errno("fork");
		if (pids[w] == 0) {
			double s;
			long n = spawn_loop_argv(argv, count / nworkers, &s);

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

static double
parallel_rate(int nworkers)
{
	char *argv[] = { "/bin/true", NULL };

	return parallel_rate_argv(argv, nworkers);
}

/* A record the size of a JOB_NEW, as the do-nothing servers append. */
static const char rt_rec[] = "\"JOB_NEW\" \"10.1\" 1795528109 1250 0 0 "
    "a record the size of a JOB_NEW: user, queue, hosts, command, "
    "directories, files and limits of a small job, some three hundred "
    "bytes in all, as bsub -q idle -o /dev/null /bin/true writes "
    "it to lsb.events before its answer @00000000\n";
#define RT_REC_LEN	(sizeof(rt_rec) - 1)

/*
 * The server side of the durable round trip: one client at a time, as
 * workload 1 has; read the request, append a record the size of a
 * JOB_NEW, fdatasync, answer with a reply the size of bsub's, close.
 */
static void
rt_serve(int l, int fd)
{
	char buf[4096], reply[33];

	memset(reply, 0, sizeof(reply));
	for (;;) {
		size_t got = 0;
		ssize_t n;
		int c = accept(l, NULL, NULL);

		if (c < 0)
			_exit(errno == EINTR ? 0 : 1);
		while (got < RT_REQ_SIZE &&
		    (n = read(c, buf, sizeof(buf))) > 0)
			got += (size_t)n;
		if (write(fd, rt_rec, RT_REC_LEN) != RT_REC_LEN ||
		    fdatasync(fd) < 0 ||
		    write(c, reply, sizeof(reply)) != sizeof(reply))
			_exit(1);
		close(c);
	}
}

#define RT_MAXC	64

/* Close client i; the last takes its place, to be looked at next. */
static void
rt_drop(int *cfd, size_t *got, struct pollfd *pfd, int *nc, int i)
{
	close(cfd[i]);
	cfd[i] = cfd[*nc - 1];
	got[i] = got[*nc - 1];
	pfd[1 + i] = pfd[*nc];
	(*nc)--;
}

/*
 * The same server for many clients at once, committing as a group as
 * mbatchd does: each turn it accepts and reads whatever is ready, then
 * appends the records of every complete request in one write, makes
 * them durable with one fdatasync and answers them all.
 */
static void
rt_serve_group(int l, int fd)
{
	static char recs[RT_MAXC * RT_REC_LEN];
	struct pollfd pfd[1 + RT_MAXC];
	size_t got[RT_MAXC];
	char buf[4096], reply[33];
	int cfd[RT_MAXC], nc = 0;

	memset(reply, 0, sizeof(reply));
	for (int i = 0; i < RT_MAXC; i++)
		memcpy(recs + (size_t)i * RT_REC_LEN, rt_rec, RT_REC_LEN);
	if (fcntl(l, F_SETFL, O_NONBLOCK) < 0)
		_exit(1);
	for (;;) {
		int c, done = 0;

		pfd[0].fd = l;
		pfd[0].events = POLLIN;
		for (int i = 0; i < nc; i++) {
			pfd[1 + i].fd = cfd[i];
			pfd[1 + i].events = POLLIN;
			pfd[1 + i].revents = 0;
		}
		if (poll(pfd, (nfds_t)(1 + nc), -1) < 0)
			_exit(errno == EINTR ? 0 : 1);
		/* Newly accepted clients are read in this turn too. */
		while (nc < RT_MAXC &&
		    (c = accept4(l, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
			cfd[nc] = c;
			got[nc] = 0;
			pfd[1 + nc].revents = POLLIN;
			nc++;
		}
		for (int i = 0; i < nc; i++) {
			ssize_t n = 0;

			if (pfd[1 + i].revents == 0)
				continue;
			while (got[i] < RT_REQ_SIZE &&
			    (n = read(cfd[i], buf, sizeof(buf))) > 0)
				got[i] += (size_t)n;
			if (got[i] >= RT_REQ_SIZE)
				done++;
			else if (n == 0 || errno != EAGAIN) {
				/* Gone before its request: drop it. */
				rt_drop(cfd, got, pfd, &nc, i--);
			}
		}
		if (done == 0)
			continue;
		if (write(fd, recs, (size_t)done * RT_REC_LEN) !=
		    (ssize_t)((size_t)done * RT_REC_LEN) || fdatasync(fd) < 0)
			_exit(1);
		for (int i = 0; i < nc; i++) {
			if (got[i] < RT_REQ_SIZE)
				continue;
			if (write(cfd[i], reply, sizeof(reply)) !=
			    sizeof(reply))
				_exit(1);
			rt_drop(cfd, got, pfd, &nc, i--);
		}
	}
}

/*
 * Spawns of rtcli against the do-nothing server, nclients at once (one
 * at a time for 1): microseconds per submission.
 */
static double
durable_rtt_us(const char *dir, const char *rtcli, int nclients)
{
	struct sockaddr_un sun;
	char path[4096], sock[sizeof(sun.sun_path)];
	char *argv[] = { (char *)rtcli, sock, NULL };
	double secs, us;
	pid_t pid;
	long n;
	int l, fd, st;

	snprintf(path, sizeof(path), "%s/limits.rtt.%d", dir, (int)getpid());
	if ((size_t)snprintf(sock, sizeof(sock), "%s/limits.sock.%d", dir,
	    (int)getpid()) >= sizeof(sock)) {
		fprintf(stderr, "limits: %s: socket path too long\n", dir);
		exit(1);
	}
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, sock);
	unlink(sock);
	if ((l = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 ||
	    bind(l, (struct sockaddr *)&sun, sizeof(sun)) < 0 ||
	    listen(l, 128) < 0)
		fatal_errno(sock);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0600);
	if (fd < 0)
		fatal_errno(path);
	if ((pid = fork()) < 0)
		fatal_errno("fork");
	if (pid == 0) {
		if (nclients == 1)
			rt_serve(l, fd);
		rt_serve_group(l, fd);
	}
	close(l);
	close(fd);
	child_devnull = 1;
	run_wait(argv);		/* warm the page cache */
	if (nclients == 1) {
		n = spawn_loop_argv(argv, count, &secs);
		us = secs / (double)n * 1e6;
	} else
		us = 1e6 / parallel_rate_argv(argv, nclients);
	child_devnull = 0;
	kill(pid, SIGTERM);
	waitpid(pid, &st, 0);
	unlink(sock);
	unlink(path);
	return us;
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
	const char *dir = NULL, *nop = NULL, *nop2 = NULL, *rtcli = NULL;
	double secs, spawn, fs;
	long n;
	int c;

	while ((c = getopt(argc, argv, "c:d:g:n:p:t:")) != -1) {
		switch (c) {
		case 'c':
			rtcli = optarg;
			break;
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

	spawn_loop(nop, 1, &secs);	/* warm the page cache */
	n = spawn_loop(nop, count, &secs);
	spawn = secs / (double)n * 1e6;
	result("limit.spawn_us", spawn, "us");
	if (nop2) {
		spawn_loop(nop2, 1, &secs);
		n = spawn_loop(nop2, count, &secs);
		result("limit.spawn_glibc_us", secs / (double)n * 1e6, "us");
	}
	fs = fsync_us(dir);
	result("limit.fsync_us", fs, "us");
	result("limit.spawn_fsync_rate", 1e6 / (spawn + fs), "ops/s");
	if (rtcli) {
		double rtt = durable_rtt_us(dir, rtcli, 1);
		double rtt8 = durable_rtt_us(dir, rtcli, 8);

		result("limit.durable_rtt_us", rtt, "us");
		result("limit.durable_rtt_rate", 1e6 / rtt, "ops/s");
		result("limit.durable_rtt8_rate", 1e6 / rtt8, "ops/s");
		result("limit.durable_rtt8_x", rtt / rtt8, "x");
	}
	n = spawn_loop("/bin/true", count, &secs);
	result("limit.forkexec_rate_1", (double)n / secs, "jobs/s");
	result("limit.forkexec_rate_2", parallel_rate(2), "jobs/s");
	return 0;
usage:
	fprintf(stderr, "usage: limits -d dir -p nop [-g nop2] [-c rtcli] "
	    "[-n count] [-t secs]\n");
	return 2;
}
