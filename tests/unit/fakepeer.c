/*
 * An impostor, for the identity tests (t0028-auth, t0132-relay): what
 * an ordinary user (or a replaying root) can try against the daemons'
 * TCP ports and their clients.  Each mode prints what came back and
 * exits 0 if the daemon (or client) refused, 1 if it accepted, so a test
 * asserts the refusal.
 *
 *   fakepeer squat ADDR PORT SECS
 *	bind ADDR:PORT (a daemon's port) and, for SECS seconds, answer
 *	every client with a challenge of our own making; print how many
 *	connected and how many sent a credential back.  Exits 2 if the
 *	port cannot be bound.
 *   fakepeer mitm LADDR LPORT RADDR RPORT FROM SECS
 *	listen on LADDR:LPORT and relay each connection, byte for byte,
 *	to RADDR:RPORT from the address FROM: a man in the middle whose
 *	victims were told that LADDR is the daemon.  Prints the number of
 *	connections relayed, of credentials the victims sent, and of
 *	handshakes the daemon accepted; exits 0 if it accepted none.
 *	SIGTERM ends it before SECS.
 *   fakepeer sbd FROM ADDR PORT HOST TO_HOST
 *	connect from FROM and claim, with our own credential, to be
 *	sbatchd on HOST talking to mbatchd on TO_HOST.
 *   fakepeer noauth FROM ADDR PORT HOST
 *	register as sbatchd on HOST without any handshake.
 *   fakepeer query FROM ADDR PORT
 *	ask for the job list, as a command would, without any handshake.
 *   fakepeer replay FROM ADDR PORT HOST TO_HOST
 *	(as root) a whole handshake as sbatchd on HOST, then a second
 *	connection answering its challenge with the first one's
 *	credential; exits 0 if the second is refused.
 *   fakepeer relay FROM ADDR PORT ROLE HOST TO_HOST
 *	a credential made (by whoever runs this) for one connection's
 *	challenge, as ROLE (sbatchd or command) on HOST, presented on a
 *	second connection, as one captured on its way would be.
 *   fakepeer limreport FROM ADDR PORT HOST
 *	send a load report for HOST without any handshake.
 *
 * LSF_ENVDIR names the cluster's configuration (for LSF_MUNGE_SOCKET).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "conf.h"
#include "proto.h"
#include "util.h"
#include "wire.h"

static struct sockaddr_in
addr(const char *ip, int port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, ip, &a.sin_addr) != 1)
		die("bad address %s", ip);
	return a;
}

static int
connect_from(const char *from, const char *to, int port)
{
	struct sockaddr_in f = addr(from, 0), t = addr(to, port);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&f, sizeof(f)) < 0 ||
	    connect(fd, (struct sockaddr *)&t, sizeof(t)) < 0)
		die("connect %s:%d from %s: %s", to, port, from,
		    strerror(errno));
	return fd;
}

static void
send_cred(int fd, uint16_t type, const char *cred)
{
	struct wbuf w;

	wbuf_init(&w);
	wbuf_begin(&w, type, 0, 0);
	put_str(&w, cred);
	wbuf_end_frame(&w);
	(void)wire_send(fd, &w);
	wbuf_release(&w);
}

/*
 * The answer to what we sent: 0 if refused, 1 if accepted; the
 * credential of a challenge into *cred if asked.
 */
static int
answer(int fd, const char *what, char **cred)
{
	struct wire_hdr h;
	uint8_t *body = NULL;
	struct msg_error e;
	struct rbuf r;

	if (wire_recv(fd, &h, &body, 10000) < 0) {
		printf("%s: refused: connection closed\n", what);
		return 0;
	}
	rbuf_init(&r, body, h.len - WIRE_HDR_LEN);
	if (h.type == MSG_ERROR && msg_error_unpack(&r, &e)) {
		printf("%s: refused: %s: %s\n", what, lsb_errmsg(e.code),
		    e.detail ? e.detail : "");
		msg_error_release(&e);
		free(body);
		return 0;
	}
	if (cred && h.type == MSG_AUTH_CHALLENGE && !get_str(&r, cred))
		*cred = NULL;
	printf("%s: accepted: %s\n", what, msg_type_name(h.type));
	free(body);
	return 1;
}

static enum auth_role
role(const char *s)
{
	if (strcmp(s, "sbatchd") == 0)
		return AUTH_SBD;
	if (strcmp(s, "command") == 0)
		return AUTH_CMD;
	if (strcmp(s, "lim") == 0)
		return AUTH_LIM;
	die("unknown role %s", s);
}

/*
 * Connect and send a hello as role on host to them on to_host; the
 * server's challenge into *challenge (NULL if refused).
 */
static int
open_hs(struct auth_hs *hs, const char *from, const char *ip, int port,
    enum auth_role me, const char *host, enum auth_role them,
    const char *to_host, char **challenge)
{
	struct auth_hello hello;
	struct wbuf w;
	char *cause;
	int fd = connect_from(from, ip, port);

	if (auth_hs_client_init(hs, fd, me, host, them, to_host, &cause) < 0)
		die("%s", cause);
	auth_hs_hello(hs, &hello);
	wbuf_init(&w);
	auth_hello_frame(&w, MSG_AUTH_HELLO, 0, &hello);
	(void)wire_send(fd, &w);
	wbuf_release(&w);
	*challenge = NULL;
	(void)answer(fd, "hello", challenge);
	return fd;
}

/* Our proof for hs's challenge (which we trust: we are the tester). */
static char *
proof_for(struct auth_hs *hs, const char *challenge)
{
	char *proof, *cause;

	if (challenge == NULL)
		die("no challenge to answer");
	if (auth_hs_client_challenge(hs, challenge, &proof, &cause) < 0)
		die("the challenge: %s", cause);
	return proof;
}

static void
send_register(int fd, const char *host)
{
	struct sbd_register reg;
	struct wbuf w;

	memset(&reg, 0, sizeof(reg));
	reg.host = (char *)host;
	reg.pid = (int)getpid();
	wbuf_init(&w);
	sbd_register_frame(&w, MSG_SBD_REGISTER, 0, &reg);
	(void)wire_send(fd, &w);
	wbuf_release(&w);
}

/* Answer one client as a squatter would: with our own credential. */
static int
squat_one(int fd)
{
	struct wire_hdr h;
	uint8_t *body = NULL;
	struct rbuf r;
	struct auth_hello hello;
	struct auth_hs hs;
	char *mine = NULL, *cause;
	int creds = 0;

	memset(&hello, 0, sizeof(hello));
	if (wire_recv(fd, &h, &body, 5000) < 0)
		return 0;
	rbuf_init(&r, body, h.len - WIRE_HDR_LEN);
	/* The best forgery we can make: the right names and nonces. */
	if (h.type == MSG_AUTH_HELLO && auth_hello_unpack(&r, &hello) &&
	    auth_hs_server_hello(&hs, fd, hello.to_role, hello.to_host,
	    &hello, &mine, &cause) == 0) {
		send_cred(fd, MSG_AUTH_CHALLENGE, mine);
		free(mine);
		free(body);
		body = NULL;
		if (wire_recv(fd, &h, &body, 3000) == 0 && h.type == MSG_AUTH)
			creds++;
	} else if (h.type == MSG_AUTH)
		creds++;
	auth_hello_release(&hello);
	free(body);
	return creds;
}

static int
listen_on(const char *ip, int port)
{
	struct sockaddr_in a = addr(ip, port);
	int on = 1, lfd = socket(AF_INET, SOCK_STREAM, 0);

	(void)setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(lfd, 64) < 0) {
		printf("bind %s:%d: %s\n", ip, port, strerror(errno));
		exit(2);
	}
	printf("listening\n");
	fflush(stdout);
	return lfd;
}

static int
squat(const char *ip, int port, int secs)
{
	int n = 0, creds = 0, lfd = listen_on(ip, port);
	time_t end = time(NULL) + secs;

	while (time(NULL) < end) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		int fd;

		if (poll(&p, 1, 200) <= 0)
			continue;
		if ((fd = accept(lfd, NULL, NULL)) < 0)
			continue;
		n++;
		creds += squat_one(fd);
		close(fd);
	}
	printf("connections %d, credentials %d\n", n, creds);
	return creds == 0 ? 0 : 1;
}

/*
 * The relay: each direction's bytes as they come, with the frame types
 * noted on the way (a frame header starts each frame; the length is its
 * first word).
 */
#define MITM_MAX	64
struct side {
	int		 fd;
	unsigned char	 hdr[WIRE_HDR_LEN];
	size_t		 have;		/* of hdr */
	uint64_t	 left;		/* of the current frame's body */
};

static void
note_frames(struct side *s, const unsigned char *p, size_t n, int *creds,
    int *oks, bool from_client)
{
	while (n > 0) {
		if (s->left > 0) {
			size_t k = n < s->left ? n : (size_t)s->left;

			s->left -= k;
			p += k;
			n -= k;
			continue;
		}
		s->hdr[s->have++] = *p++;
		n--;
		if (s->have == WIRE_HDR_LEN) {
			struct wire_hdr h;
			const char *why;

			if (wire_parse_hdr(s->hdr, WIRE_HDR_LEN, &h,
			    &why) < 0) {
				s->have = 0;
				continue;
			}
			if (from_client && h.type == MSG_AUTH)
				(*creds)++;
			if (!from_client && h.type == MSG_AUTH_OK)
				(*oks)++;
			s->left = h.len - WIRE_HDR_LEN;
			s->have = 0;
		}
	}
}

static volatile sig_atomic_t stop;

static void
on_term(int sig)
{
	stop = 1;
}

static int
mitm(const char *lip, int lport, const char *rip, int rport,
    const char *from, int secs)
{
	struct side cs[MITM_MAX], ss[MITM_MAX];
	int npairs = 0, n = 0, creds = 0, oks = 0, lfd = listen_on(lip, lport);
	time_t end = time(NULL) + secs;

	signal(SIGTERM, on_term);
	while (time(NULL) < end && !stop) {
		struct pollfd p[1 + 2 * MITM_MAX];
		int np = 0;

		p[np++] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		for (int i = 0; i < npairs; i++) {
			p[np++] = (struct pollfd){ .fd = cs[i].fd,
			    .events = POLLIN };
			p[np++] = (struct pollfd){ .fd = ss[i].fd,
			    .events = POLLIN };
		}
		if (poll(p, (nfds_t)np, 200) <= 0)
			continue;
		if ((p[0].revents & POLLIN) && npairs < MITM_MAX) {
			int c = accept(lfd, NULL, NULL);

			if (c >= 0) {
				memset(&cs[npairs], 0, sizeof(cs[0]));
				memset(&ss[npairs], 0, sizeof(ss[0]));
				cs[npairs].fd = c;
				ss[npairs].fd = connect_from(from, rip, rport);
				npairs++;
				n++;
			}
		}
		for (int i = 0; i < npairs; i++) {
			unsigned char buf[65536];
			bool dead = false;

			for (int d = 0; d < 2 && !dead; d++) {
				struct pollfd *q = &p[1 + 2 * i + d];
				struct side *src = d ? &ss[i] : &cs[i];
				struct side *dst = d ? &cs[i] : &ss[i];
				ssize_t k;

				if (q->fd != src->fd ||
				    !(q->revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				k = read(src->fd, buf, sizeof(buf));
				if (k <= 0) {
					dead = true;
					break;
				}
				note_frames(src, buf, (size_t)k, &creds, &oks,
				    d == 0);
				if (write_all(dst->fd, buf, (size_t)k) < 0)
					dead = true;
			}
			if (dead) {
				close(cs[i].fd);
				close(ss[i].fd);
				cs[i] = cs[npairs - 1];
				ss[i] = ss[npairs - 1];
				npairs--;
				i--;
				/* The poll array no longer matches: re-poll. */
				break;
			}
		}
	}
	printf("relayed %d, credentials %d, accepted %d\n", n, creds, oks);
	return oks == 0 && creds == 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	struct lsf_config conf;
	struct conf_diag d;
	struct auth_hs hs, hs2;
	char *cause = NULL, *ch = NULL, *ch2 = NULL, *proof;
	int fd, fd2, rc;

	progname = "fakepeer";
	if (argc < 2)
		die("usage: see the comment at the top of fakepeer.c");
	memset(&conf, 0, sizeof(conf));
	conf_diag_init(&d);
	if (config_load(&conf, getenv("LSF_ENVDIR"), CONF_CLUSTER, &d) < 0)
		die("cannot read the configuration");
	if (auth_init(&conf, &cause) < 0)
		die("%s", cause);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(argv[1], "squat") == 0 && argc == 5)
		return squat(argv[2], atoi(argv[3]), atoi(argv[4]));
	if (strcmp(argv[1], "mitm") == 0 && argc == 8)
		return mitm(argv[2], atoi(argv[3]), argv[4], atoi(argv[5]),
		    argv[6], atoi(argv[7]));
	if (strcmp(argv[1], "sbd") == 0 && argc == 7) {
		fd = open_hs(&hs, argv[2], argv[3], atoi(argv[4]), AUTH_SBD,
		    argv[5], AUTH_MBD, argv[6], &ch);
		if (ch == NULL)
			return 0;
		proof = proof_for(&hs, ch);
		send_cred(fd, MSG_AUTH, proof);
		rc = answer(fd, "handshake", NULL);
		if (rc == 1) {
			send_register(fd, argv[5]);
			rc = answer(fd, "register", NULL);
		}
		return rc;
	}
	if (strcmp(argv[1], "noauth") == 0 && argc == 6) {
		fd = connect_from(argv[2], argv[3], atoi(argv[4]));
		send_register(fd, argv[5]);
		return answer(fd, "register", NULL);
	}
	if (strcmp(argv[1], "query") == 0 && argc == 5) {
		struct job_query q;
		struct wbuf w;

		memset(&q, 0, sizeof(q));
		fd = connect_from(argv[2], argv[3], atoi(argv[4]));
		wbuf_init(&w);
		job_query_frame(&w, MSG_JOB_QUERY, 0, &q);
		(void)wire_send(fd, &w);
		return answer(fd, "job query", NULL);
	}
	if (strcmp(argv[1], "replay") == 0 && argc == 7) {
		int first;

		fd = open_hs(&hs, argv[2], argv[3], atoi(argv[4]), AUTH_SBD,
		    argv[5], AUTH_MBD, argv[6], &ch);
		proof = proof_for(&hs, ch);
		send_cred(fd, MSG_AUTH, proof);
		first = answer(fd, "first use", NULL);
		fd2 = open_hs(&hs2, argv[2], argv[3], atoi(argv[4]), AUTH_SBD,
		    argv[5], AUTH_MBD, argv[6], &ch2);
		send_cred(fd2, MSG_AUTH, proof);
		rc = answer(fd2, "replayed", NULL);
		close(fd);
		return first == 1 && rc == 0 ? 0 : 1;
	}
	if (strcmp(argv[1], "relay") == 0 && argc == 8) {
		enum auth_role me = role(argv[5]);

		fd = open_hs(&hs, argv[2], argv[3], atoi(argv[4]), me, argv[6],
		    AUTH_MBD, argv[7], &ch);
		proof = proof_for(&hs, ch);
		fd2 = open_hs(&hs2, argv[2], argv[3], atoi(argv[4]), me,
		    argv[6], AUTH_MBD, argv[7], &ch2);
		send_cred(fd2, MSG_AUTH, proof);
		rc = answer(fd2, "relayed", NULL);
		close(fd);
		return rc;
	}
	if (strcmp(argv[1], "limreport") == 0 && argc == 6) {
		struct lim_host me;
		struct wbuf w;

		memset(&me, 0, sizeof(me));
		me.name = argv[5];
		fd = connect_from(argv[2], argv[3], atoi(argv[4]));
		wbuf_init(&w);
		lim_host_frame(&w, MSG_LIM_REPORT, 0, &me);
		(void)wire_send(fd, &w);
		return answer(fd, "load report", NULL);
	}
	die("usage: see the comment at the top of fakepeer.c");
}
