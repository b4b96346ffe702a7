/*
 * chain: workload 4's floor for a batch system of this one's shape, the
 * counterpart of limits' durable round trip for workloads 1 and 2.
 *
 *	chain -d DIR [-n COUNT] [-s SLOTS]
 *
 * Three kinds of process that do nothing but pass a job along, as
 * mbatchd, sbatchd and the supervisors do, with frames of the same
 * sizes: a master keeps SLOTS jobs started; for each end it hears of it
 * appends the records of the end and the next start to a file in DIR
 * (the file system of lsb.events) and makes them durable with one
 * fdatasync for all the ends of its turn, then sends the ack and the
 * next start in one send over TCP on loopback.  An agent hands each
 * start down a socket to an idle helper, one per slot and forked ahead,
 * and forwards the helpers' ends at the end of its turn.  A helper
 * vforks /bin/true, waits for it, and reports.  No job directory, no
 * lock, no user, no environment, no log of its own: what is left is the
 * hops and the sync that a durable dispatch and a job that outlives its
 * agent need.  Prints RESULT|limit.chain_rate_SLOTS|jobs/s, COUNT jobs
 * over the time from the first start to the last end.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The sizes of our frames and records for a `bsub -o /dev/null
 * /bin/true`: the start (the job's spec), a status, an ack, the job
 * handed to a supervisor, and JOB_STATUS plus the next JOB_START. */
#define START_LEN	1891
#define DONE_LEN	302
#define ACK_LEN		36
#define JOB_LEN		121
#define REC_LEN		420
#define MAX_SLOTS	16
#define BUF_LEN		(1 << 16)

static void
die(const char *what)
{
	fprintf(stderr, "chain: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
io_all(int fd, void *buf, size_t len, int out)
{
	size_t off = 0;
	ssize_t n;

	while (off < len) {
		n = out ? write(fd, (char *)buf + off, len - off) :
		    read(fd, (char *)buf + off, len - off);
		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

/* Frames are told apart by their first byte: Start, Done, Ack. */
static size_t
frame_len(char type)
{
	return type == 'S' ? START_LEN : type == 'D' ? DONE_LEN : ACK_LEN;
}

static void
put_frame(char *buf, size_t *len, char type)
{
	if (*len + frame_len(type) > BUF_LEN) {
		fprintf(stderr, "chain: buffer full\n");
		exit(1);
	}
	memset(buf + *len, 'x', frame_len(type));
	buf[*len] = type;
	*len += frame_len(type);
}

static void
tcp_nodelay(int s)
{
	int one = 1;

	(void)setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static void
helper(int fd)
{
	static char buf[DONE_LEN];
	char *argv[] = { "/bin/true", NULL };
	pid_t pid;
	int st;

	while (io_all(fd, buf, JOB_LEN, 0) == 0) {
		if ((pid = vfork()) == 0) {
			execv(argv[0], argv);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &st, 0) < 0)
			die("vfork");
		memset(buf, 'x', DONE_LEN);
		buf[0] = 'D';
		if (io_all(fd, buf, DONE_LEN, 1) < 0)
			die("helper write");
	}
	_exit(0);
}

/* A start to the first idle helper. */
static void
hand_down(const int *hfd, int *busy, int slots, char *job)
{
	int i;

	for (i = 0; i < slots && busy[i]; i++)
		;
	if (i == slots) {
		fprintf(stderr, "chain: a start with every slot busy\n");
		exit(1);
	}
	busy[i] = 1;
	if (io_all(hfd[i], job, JOB_LEN, 1) < 0)
		die("agent write");
}

static void
agent(const struct sockaddr_in *to, int slots)
{
	static char in[BUF_LEN], out[BUF_LEN], job[JOB_LEN];
	struct pollfd pfd[MAX_SLOTS + 1];
	int hfd[MAX_SLOTS], busy[MAX_SLOTS], c, sp[2], i;
	size_t inlen = 0, outlen, off, l;
	ssize_t n;

	for (i = 0; i < slots; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) < 0)
			die("socketpair");
		if (fork() == 0) {
			close(sp[0]);
			helper(sp[1]);
		}
		close(sp[1]);
		hfd[i] = sp[0];
		busy[i] = 0;
	}
	if ((c = socket(AF_INET, SOCK_STREAM, 0)) < 0 ||
	    connect(c, (const struct sockaddr *)to, sizeof(*to)) < 0)
		die("connect");
	tcp_nodelay(c);
	memset(job, 'j', sizeof(job));
	for (;;) {
		pfd[0].fd = c;
		pfd[0].events = POLLIN;
		for (i = 0; i < slots; i++) {
			pfd[i + 1].fd = hfd[i];
			pfd[i + 1].events = POLLIN;
		}
		if (poll(pfd, (nfds_t)slots + 1, -1) < 0)
			die("poll");
		outlen = 0;
		for (i = 0; i < slots; i++) {
			if (!(pfd[i + 1].revents & (POLLIN | POLLHUP)))
				continue;
			if (outlen + DONE_LEN > BUF_LEN ||
			    io_all(hfd[i], out + outlen, DONE_LEN, 0) < 0)
				die("agent read");
			outlen += DONE_LEN;
			busy[i] = 0;
		}
		if (pfd[0].revents & (POLLIN | POLLHUP)) {
			if ((n = read(c, in + inlen, BUF_LEN - inlen)) <= 0)
				break;
			inlen += (size_t)n;
			for (off = 0; off < inlen &&
			    inlen - off >= (l = frame_len(in[off])); off += l)
				if (in[off] == 'S')
					hand_down(hfd, busy, slots, job);
			memmove(in, in + off, inlen - off);
			inlen -= off;
		}
		if (outlen > 0 && io_all(c, out, outlen, 1) < 0)
			die("agent send");
	}
	for (i = 0; i < slots; i++)
		close(hfd[i]);
	while (wait(NULL) > 0)
		;
	_exit(0);
}

int
main(int argc, char **argv)
{
	static char in[BUF_LEN], out[BUF_LEN], recs[MAX_SLOTS * REC_LEN];
	struct sockaddr_in sin;
	socklen_t sl = sizeof(sin);
	const char *dir = NULL;
	char path[4096];
	long count = 2000, started = 0, done = 0, k, i;
	int slots = 2, ch, l, c, fd;
	size_t inlen = 0, outlen;
	ssize_t n;
	pid_t ag;
	double t0;

	while ((ch = getopt(argc, argv, "d:n:s:")) != -1) {
		switch (ch) {
		case 'd':
			dir = optarg;
			break;
		case 'n':
			count = atol(optarg);
			break;
		case 's':
			slots = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (dir == NULL || slots < 1 || slots > MAX_SLOTS || count < slots)
		goto usage;
	snprintf(path, sizeof(path), "%s/chain.%d.log", dir, (int)getpid());
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND,
	    0600)) < 0)
		die(path);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((l = socket(AF_INET, SOCK_STREAM, 0)) < 0 ||
	    bind(l, (struct sockaddr *)&sin, sizeof(sin)) < 0 ||
	    listen(l, 1) < 0 ||
	    getsockname(l, (struct sockaddr *)&sin, &sl) < 0)
		die("listen");
	if ((ag = fork()) < 0)
		die("fork");
	if (ag == 0)
		agent(&sin, slots);
	if ((c = accept(l, NULL, NULL)) < 0)
		die("accept");
	tcp_nodelay(c);

	t0 = now();
	outlen = 0;
	for (; started < slots; started++)
		put_frame(out, &outlen, 'S');
	if (io_all(c, out, outlen, 1) < 0)
		die("send");
	while (done < count) {
		if ((n = read(c, in + inlen, BUF_LEN - inlen)) <= 0)
			die("read");
		inlen += (size_t)n;
		k = (long)(inlen / DONE_LEN);
		memmove(in, in + (size_t)k * DONE_LEN, inlen % DONE_LEN);
		inlen %= DONE_LEN;
		if (k == 0)
			continue;
		if (k > started - done) {
			fprintf(stderr, "chain: more ends than jobs\n");
			return 1;
		}
		/* A turn's ends and starts, durable before any answer. */
		memset(recs, 'r', (size_t)k * REC_LEN);
		if (io_all(fd, recs, (size_t)k * REC_LEN, 1) < 0 ||
		    fdatasync(fd) < 0)
			die(path);
		outlen = 0;
		for (i = 0; i < k; i++) {
			done++;
			put_frame(out, &outlen, 'A');
			if (started < count) {
				put_frame(out, &outlen, 'S');
				started++;
			}
		}
		if (io_all(c, out, outlen, 1) < 0)
			die("send");
	}
	printf("RESULT|limit.chain_rate_%d|%.1f|jobs/s\n", slots,
	    (double)count / (now() - t0));
	close(c);
	waitpid(ag, NULL, 0);
	unlink(path);
	return 0;
usage:
	fprintf(stderr, "usage: chain -d dir [-n count] [-s slots]\n");
	return 2;
}
