/*
 * An impostor, for tests/scenario/t0028-auth.sh: what an ordinary user
 * (or a replaying root) can try against the daemons' TCP ports.  Each
 * mode prints what came back, one line, and exits 0 if the daemon
 * refused, 1 if it accepted (so the test asserts the refusal).
 *
 *   fakepeer squat ADDR PORT SECS MARKER
 *	bind ADDR:PORT (the master's mbatchd port, while mbatchd is
 *	down) and, for SECS seconds, answer every sbatchd that connects
 *	with a handshake of our own making and a job that would create
 *	MARKER; print the number of connections.
 *   fakepeer sbd FROM MBD_ADDR PORT HOST TO_HOST
 *	connect from FROM and claim, with our own credential, to be
 *	sbatchd on HOST talking to mbatchd on TO_HOST.
 *   fakepeer noauth FROM MBD_ADDR PORT HOST
 *	register as sbatchd on HOST without any handshake.
 *   fakepeer query FROM MBD_ADDR PORT
 *	ask for the job list, as a command would, without any handshake.
 *   fakepeer replay FROM MBD_ADDR PORT HOST TO_HOST
 *	(as root) make one good credential and send it twice, on two
 *	connections: prints both answers; exits 0 if the second is refused.
 *   fakepeer limreport FROM LIM_ADDR PORT HOST
 *	send a load report for HOST without any handshake.
 *
 * LSF_ENVDIR names the cluster's configuration (for LSF_MUNGE_SOCKET).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
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

/* The answer to what we sent: 0 if refused, 1 if accepted. */
static int
answer(int fd, const char *what)
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
	printf("%s: accepted: %s\n", what, msg_type_name(h.type));
	free(body);
	return 1;
}

static char *
hello(const char *host, const char *to_host, enum auth_role to_role)
{
	struct auth_claim c;
	char *cred, *cause;

	memset(&c, 0, sizeof(c));
	c.kind = AUTH_HELLO;
	c.from_role = to_role == AUTH_MBD ? AUTH_SBD : AUTH_LIM;
	snprintf(c.from_host, sizeof(c.from_host), "%s", host);
	c.to_role = to_role;
	snprintf(c.to_host, sizeof(c.to_host), "%s", to_host);
	auth_new_nonce(&c);
	if (auth_encode(&c, &cred, &cause) < 0)
		die("%s", cause);
	return cred;
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
	wbuf_begin(&w, MSG_SBD_REGISTER, 0, 0);
	sbd_register_pack(&w, &reg);
	wbuf_end_frame(&w);
	(void)wire_send(fd, &w);
	wbuf_release(&w);
}

/* A forged job that leaves a file behind if anybody runs it. */
static void
send_job(int fd, const char *marker)
{
	struct job_spec s;
	struct wbuf w;
	char *cmd = xasprintf("touch %s", marker);

	memset(&s, 0, sizeof(s));
	s.jobid = 999999;
	s.user = "root";
	s.uid = 0;
	s.queue = "normal";
	s.command = cmd;
	s.cwd = "/tmp";
	s.out_file = "/dev/null";
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		s.rlimits[i] = -1;
	wbuf_init(&w);
	wbuf_begin(&w, MSG_SBD_JOB_START, 0, 0);
	job_spec_pack(&w, &s);
	wbuf_end_frame(&w);
	(void)wire_send(fd, &w);
	wbuf_release(&w);
	free(cmd);
}

/* Answer one sbatchd as a squatting mbatchd would. */
static void
squat_one(int fd, const char *marker)
{
	struct wire_hdr h;
	uint8_t *body = NULL;
	struct rbuf r;
	struct auth_claim cl, rep;
	char *cred = NULL, *mine, *cause;
	uid_t uid;
	gid_t gid;

	memset(&rep, 0, sizeof(rep));
	rep.kind = AUTH_REPLY;
	rep.from_role = AUTH_MBD;
	strcpy(rep.from_host, "hosta");
	rep.to_role = AUTH_SBD;
	strcpy(rep.to_host, "hostb");
	strcpy(rep.nonce, "00000000000000000000000000000000");
	if (wire_recv(fd, &h, &body, 5000) == 0) {
		rbuf_init(&r, body, h.len - WIRE_HDR_LEN);
		/* Take its nonce and host, to make the best forgery we can. */
		if (h.type == MSG_AUTH && get_str(&r, &cred) && cred &&
		    auth_decode(cred, &cl, &uid, &gid, &cause) == 0) {
			strcpy(rep.to_host, cl.from_host);
			strcpy(rep.from_host, cl.to_host);
			strcpy(rep.nonce, cl.nonce);
		}
		free(cred);
		free(body);
	}
	if (auth_encode(&rep, &mine, &cause) == 0) {
		send_cred(fd, MSG_AUTH_OK, mine);
		free(mine);
	}
	send_job(fd, marker);
}

static int
squat(const char *ip, int port, int secs, const char *marker)
{
	struct sockaddr_in a = addr(ip, port);
	int on = 1, n = 0, lfd = socket(AF_INET, SOCK_STREAM, 0);
	time_t end = time(NULL) + secs;

	(void)setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(lfd, 16) < 0)
		die("bind %s:%d: %s", ip, port, strerror(errno));
	printf("listening\n");
	fflush(stdout);
	while (time(NULL) < end) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		int fd;

		if (poll(&p, 1, 200) <= 0)
			continue;
		if ((fd = accept(lfd, NULL, NULL)) < 0)
			continue;
		n++;
		squat_one(fd, marker);
		/* Let it read all of that before we go. */
		usleep(200 * 1000);
		close(fd);
	}
	printf("connections %d\n", n);
	return 0;
}

int
main(int argc, char **argv)
{
	struct lsf_config conf;
	struct conf_diag d;
	char *cause = NULL;
	int fd, rc;

	progname = "fakepeer";
	if (argc < 2)
		die("usage: see the comment at the top of fakepeer.c");
	memset(&conf, 0, sizeof(conf));
	conf_diag_init(&d);
	if (config_load(&conf, getenv("LSF_ENVDIR"), CONF_CLUSTER, &d) < 0)
		die("cannot read the configuration");
	if (auth_init(&conf, &cause) < 0)
		die("%s", cause);
	if (strcmp(argv[1], "squat") == 0 && argc == 6)
		return squat(argv[2], atoi(argv[3]), atoi(argv[4]), argv[5]);
	if (strcmp(argv[1], "sbd") == 0 && argc == 7) {
		char *cred = hello(argv[5], argv[6], AUTH_MBD);

		fd = connect_from(argv[2], argv[3], atoi(argv[4]));
		send_cred(fd, MSG_AUTH, cred);
		rc = answer(fd, "handshake");
		if (rc == 1) {
			send_register(fd, argv[5]);
			rc = answer(fd, "register");
		}
		return rc;
	}
	if (strcmp(argv[1], "noauth") == 0 && argc == 6) {
		fd = connect_from(argv[2], argv[3], atoi(argv[4]));
		send_register(fd, argv[5]);
		return answer(fd, "register");
	}
	if (strcmp(argv[1], "query") == 0 && argc == 5) {
		struct job_query q;
		struct wbuf w;

		memset(&q, 0, sizeof(q));
		fd = connect_from(argv[2], argv[3], atoi(argv[4]));
		wbuf_init(&w);
		wbuf_begin(&w, MSG_JOB_QUERY, 0, 0);
		job_query_pack(&w, &q);
		wbuf_end_frame(&w);
		(void)wire_send(fd, &w);
		return answer(fd, "job query");
	}
	if (strcmp(argv[1], "replay") == 0 && argc == 7) {
		char *cred = hello(argv[5], argv[6], AUTH_MBD);
		int first;

		fd = connect_from(argv[2], argv[3], atoi(argv[4]));
		send_cred(fd, MSG_AUTH, cred);
		first = answer(fd, "first use");
		close(fd);
		fd = connect_from(argv[2], argv[3], atoi(argv[4]));
		send_cred(fd, MSG_AUTH, cred);
		rc = answer(fd, "replayed");
		return first == 1 && rc == 0 ? 0 : 1;
	}
	if (strcmp(argv[1], "limreport") == 0 && argc == 6) {
		struct lim_host me;
		struct wbuf w;

		memset(&me, 0, sizeof(me));
		me.name = argv[5];
		fd = connect_from(argv[2], argv[3], atoi(argv[4]));
		wbuf_init(&w);
		wbuf_begin(&w, MSG_LIM_REPORT, 0, 0);
		lim_host_pack(&w, &me);
		wbuf_end_frame(&w);
		(void)wire_send(fd, &w);
		return answer(fd, "load report");
	}
	die("usage: see the comment at the top of fakepeer.c");
}
