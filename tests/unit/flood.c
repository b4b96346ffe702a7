/*
 * flood MODE TARGET N SECONDS: a hostile local user, for t0025-hostile.
 * TARGET is a Unix socket's path or ADDRESS:PORT.  For SECONDS it keeps
 * N connections open (opening a new one when the daemon closes one) that
 *
 *	idle	send nothing
 *	big	send a header announcing a 64 MB frame, then its bytes as
 *		fast as the daemon reads them
 *	unread	send bjobs requests (every job, every field) as fast as the
 *		daemon reads them, and never read a reply
 *	drip	send a frame one byte a second
 *	partial	send all but the last bytes of a 16 MB request (the
 *		largest a command may send), then nothing more
 *	refused	over TCP, a hello for nobody and then a burst of
 *		frames, again each time the daemon closes it: what
 *		follows a refused handshake must not be read
 *
 * or, as mode "silent", listens on TARGET (a path), accepts every
 * connection and never answers: an mbatchd that hangs; as mode "slam",
 * closes each at once: an mbatchd on its way out.  Prints how many
 * connections it opened (or accepted) in all.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "net.h"
#include "proto.h"
#include "wire.h"

#define BIG_FRAME	(64u * 1024 * 1024)
#define PARTIAL_FRAME	(WIRE_MAX_REQUEST - 64)
#define PARTIAL_HELD	16		/* bytes never sent */
#define REFUSED_FRAMES	256

enum mode { IDLE, BIG, UNREAD, DRIP, PARTIAL, REFUSED, SILENT, SLAM };

struct peer {
	int	 fd;
	size_t	 off;		/* bytes of the current frame sent */
};

static const char	*target;
static enum mode	 mode;
static struct wbuf	 query;		/* one bjobs request */
static long		 opened;

static void
raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	rl.rlim_cur = rl.rlim_max;
	(void)setrlimit(RLIMIT_NOFILE, &rl);
}

static int
dial(void)
{
	struct host_addr a;
	char host[256];
	const char *colon;
	int fd;

	if (strchr(target, '/') != NULL) {
		struct sockaddr_un sun;

		memset(&sun, 0, sizeof(sun));
		sun.sun_family = AF_UNIX;
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", target);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
		if (fd < 0)
			return -1;
		if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
			close(fd);
			return -1;
		}
		return fd;
	}
	colon = strrchr(target, ':');
	if (colon == NULL || (size_t)(colon - target) >= sizeof(host))
		return -1;
	memcpy(host, target, (size_t)(colon - target));
	host[colon - target] = '\0';
	if (net_resolve(host, atoi(colon + 1), &a) < 0)
		return -1;
	return net_connect_tcp_nb(&a, NULL);
}

static void
frame_header(uint8_t *h, uint32_t len, uint16_t type)
{
	memset(h, 0, WIRE_HDR_LEN);
	h[0] = len >> 24;
	h[1] = (len >> 16) & 0xff;
	h[2] = (len >> 8) & 0xff;
	h[3] = len & 0xff;
	h[4] = type >> 8;
	h[5] = type & 0xff;
	h[6] = PROTO_VERSION >> 8;
	h[7] = PROTO_VERSION & 0xff;
}

/* A hello for no daemon, then frames an sbatchd would send. */
static struct wbuf refused;

static void
make_refused(void)
{
	struct auth_hello h = {
		.from_role = 2, .from_host = (char *)"hostb",
		.to_role = 3, .to_host = (char *)"nosuchhost",
		.nonce = (char *)"0123456789abcdef0123456789abcdef",
	};
	struct job_status st;

	wbuf_init(&refused);
	auth_hello_frame(&refused, MSG_AUTH_HELLO, 0, &h);
	job_status_init(&st);
	st.jobid = 1;
	for (int i = 0; i < REFUSED_FRAMES; i++)
		job_status_frame(&refused, MSG_SBD_JOB_STATUS, 0, &st);
}

/* Send what the mode sends next, as much as the socket takes. */
static int
feed(struct peer *p)
{
	static uint8_t zeros[65536];
	uint8_t h[WIRE_HDR_LEN];
	ssize_t n;

	for (;;) {
		switch (mode) {
		case PARTIAL:
			if (p->off >= PARTIAL_FRAME - PARTIAL_HELD)
				return 0;
			if (p->off < WIRE_HDR_LEN) {
				frame_header(h, PARTIAL_FRAME, MSG_SUBMIT);
				n = send(p->fd, h + p->off,
				    WIRE_HDR_LEN - p->off, MSG_NOSIGNAL);
			} else
				n = send(p->fd, zeros, sizeof(zeros) <
				    PARTIAL_FRAME - PARTIAL_HELD - p->off ?
				    sizeof(zeros) : PARTIAL_FRAME -
				    PARTIAL_HELD - p->off, MSG_NOSIGNAL);
			break;
		case REFUSED:
			if (p->off >= refused.len)
				return 0;
			n = send(p->fd, refused.data + p->off,
			    refused.len - p->off, MSG_NOSIGNAL);
			break;
		case BIG:
			if (p->off >= BIG_FRAME)
				return 0;
			if (p->off < WIRE_HDR_LEN) {
				frame_header(h, BIG_FRAME, MSG_PING);
				n = send(p->fd, h + p->off,
				    WIRE_HDR_LEN - p->off, MSG_NOSIGNAL);
			} else
				n = send(p->fd, zeros, sizeof(zeros) <
				    BIG_FRAME - p->off ? sizeof(zeros) :
				    BIG_FRAME - p->off, MSG_NOSIGNAL);
			break;
		case UNREAD:
			n = send(p->fd, query.data + p->off,
			    query.len - p->off, MSG_NOSIGNAL);
			break;
		default:
			return 0;
		}
		if (n < 0)
			return errno == EAGAIN ? 0 : -1;
		p->off += (size_t)n;
		if (mode == UNREAD && p->off == query.len)
			p->off = 0;
	}
}

static int
drip(struct peer *p)
{
	uint8_t h[WIRE_HDR_LEN];

	if (p->off >= WIRE_HDR_LEN)
		return 0;
	memset(h, 0, sizeof(h));
	h[3] = WIRE_HDR_LEN;
	h[5] = MSG_PING;
	h[6] = PROTO_VERSION >> 8;
	h[7] = PROTO_VERSION & 0xff;
	if (send(p->fd, h + p->off, 1, MSG_NOSIGNAL) != 1)
		return -1;
	p->off++;
	return 0;
}

static void
reopen(struct peer *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->off = 0;
	p->fd = dial();
	if (p->fd >= 0)
		opened++;
}

static int
silent(long secs)
{
	char *cause = NULL;
	time_t end = time(NULL) + secs;
	int l;

	(void)unlink(target);
	l = net_listen_unix(target, 0666, &cause);
	if (l < 0) {
		fprintf(stderr, "flood: %s\n", cause);
		return 1;
	}
	while (time(NULL) < end) {
		struct pollfd pfd = { .fd = l, .events = POLLIN };

		int fd;

		if (poll(&pfd, 1, 200) <= 0 ||
		    (fd = accept(l, NULL, NULL)) < 0)
			continue;
		opened++;
		if (mode == SLAM)
			close(fd);
	}
	printf("%ld\n", opened);
	return 0;
}

static void
make_query(void)
{
	struct job_query q;

	memset(&q, 0, sizeof(q));
	q.flags = JQ_ALL | JQ_LONG | JQ_ANYUSER;
	wbuf_init(&query);
	wbuf_begin(&query, MSG_JOB_QUERY, 1, 0);
	job_query_pack(&query, &q);
	wbuf_end_frame(&query);
}

int
main(int argc, char **argv)
{
	static const char *names[] = { "idle", "big", "unread", "drip",
	    "partial", "refused", "silent", "slam" };
	struct peer *peers;
	struct pollfd *pfd;
	time_t end, last_drip = 0;
	long n, secs;

	if (argc != 5 || (n = atol(argv[3])) <= 0 ||
	    (secs = atol(argv[4])) <= 0) {
		fprintf(stderr, "usage: flood idle|big|unread|drip|partial|"
		    "refused|silent|slam TARGET N SECONDS\n");
		return 2;
	}
	for (mode = IDLE; mode <= SLAM; mode++)
		if (strcmp(argv[1], names[mode]) == 0)
			break;
	if (mode > SLAM)
		return 2;
	target = argv[2];
	signal(SIGPIPE, SIG_IGN);
	raise_nofile();
	if (mode == SILENT || mode == SLAM)
		return silent(secs);
	make_query();
	make_refused();
	peers = calloc((size_t)n, sizeof(*peers));
	pfd = calloc((size_t)n, sizeof(*pfd));
	for (long i = 0; i < n; i++) {
		peers[i].fd = -1;
		reopen(&peers[i]);
	}
	end = time(NULL) + secs;
	while (time(NULL) < end) {
		time_t now = time(NULL);

		for (long i = 0; i < n; i++) {
			pfd[i].fd = peers[i].fd;
			/* Replies are not read: POLLIN would spin. */
			pfd[i].events = mode == UNREAD ? POLLOUT :
			    mode == BIG || mode == PARTIAL ||
			    mode == REFUSED ? POLLIN | POLLOUT : POLLIN;
			pfd[i].revents = 0;
		}
		(void)poll(pfd, (nfds_t)n, 100);
		for (long i = 0; i < n; i++) {
			struct peer *p = &peers[i];
			bool gone = p->fd < 0 ||
			    (pfd[i].revents & (POLLHUP | POLLERR));
			char buf[4096];

			if (!gone && (pfd[i].revents & POLLIN) &&
			    recv(p->fd, buf, sizeof(buf), MSG_DONTWAIT) == 0)
				gone = true;
			if (!gone && (pfd[i].revents & POLLOUT))
				gone = feed(p) < 0;
			if (!gone && mode == DRIP && now != last_drip)
				gone = drip(p) < 0;
			if (gone)
				reopen(p);
		}
		last_drip = now;
	}
	printf("%ld\n", opened);
	return 0;
}
