/* The commands' way to the daemons. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "client.h"
#include "net.h"

#define LIM_TIMEOUT_MS	5000
#define MBD_TCP_TIMEOUT_MS 10000
#define RETRY_FOREVER_S	600
/*
 * How long a command waits for the next byte from mbatchd (lsf.conf
 * LSB_API_RECVTIMEOUT, in seconds).  Silence, not the whole answer: a
 * listing of every job may take long to arrive, but it keeps arriving.
 */
#define RECV_TIMEOUT_S	600

static long recv_timeout_s = -1;	/* -1: not read yet */

static struct lsf_config cconf;
static bool cconf_loaded;

const struct lsf_config *
client_config(unsigned parts)
{
	struct conf_diag d;

	if (cconf_loaded && (cconf.loaded & parts) == parts)
		return &cconf;
	if (cconf_loaded) {
		/* More of it is wanted now (mbatchd from another host). */
		config_release(&cconf);
		memset(&cconf, 0, sizeof(cconf));
		cconf_loaded = false;
	}
	conf_diag_init(&d);
	if (config_load(&cconf, NULL, parts, &d) < 0) {
		conf_diag_print(&d, stderr);
		fprintf(stderr, "%s: cannot read the LSF configuration\n",
		    progname);
		exit(255);
	}
	conf_diag_release(&d);
	net_set_hosts(&cconf);
	cconf_loaded = true;
	return &cconf;
}

char *
mbd_socket_path(const struct lsf_config *c)
{
	if (c->lsf.sharedir == NULL) {
		fprintf(stderr, "%s: LSB_SHAREDIR is not set in %s\n", progname,
		    c->lsf.path ? c->lsf.path : "lsf.conf");
		exit(255);
	}
	return xasprintf("%s/%s/mbatchd.sock", c->lsf.sharedir,
	    c->cluster.name ? c->cluster.name : "cluster");
}

char *
lim_socket_path(const struct lsf_config *c, const char *host)
{
	if (c->lsf.sharedir == NULL || c->cluster.name == NULL)
		return NULL;
	return xasprintf("%s/%s/lim.%s.sock", c->lsf.sharedir,
	    c->cluster.name, host);
}

void
reply_release(struct reply *r)
{
	free(r->body);
	memset(r, 0, sizeof(*r));
}

static long
env_or_conf(const char *name, long dflt)
{
	const char *s = getenv(name);
	long n;

	if (s == NULL && cconf_loaded)
		s = lsf_conf_get(&cconf.lsf, name);
	if (s && parse_long(s, &n) == 0 && n >= 0)
		return n;
	return dflt;
}

static long
ntries(void)
{
	return env_or_conf("LSB_NTRIES", -1);
}

void
mbd_recv_timeout(long seconds)
{
	recv_timeout_s = seconds;
}

/*
 * mbatchd from a host other than the master: the LIMs name the master,
 * and mbatchd's TCP port takes a command that proves, with MUNGE, which
 * user runs it (include/auth.h).  -1 while nothing answers (try again);
 * -2 with a cause when the answer was no.
 */
static int
mbd_connect_tcp(char **cause)
{
	const struct lsf_config *c = client_config(CONF_CLUSTER);
	struct lim_cluster_info ci;
	struct host_addr a;
	struct reply rp;
	struct wbuf w;
	char *me;
	int fd = -1, rc;

	wbuf_init(&w);
	msg_put_empty(&w, MSG_LIM_CLUSTER_QUERY, 0);
	rc = lim_call(&w, &rp);
	wbuf_release(&w);
	if (rc < 0)
		return -1;
	memset(&ci, 0, sizeof(ci));
	if (rp.hdr.type != MSG_LIM_CLUSTER_INFO ||
	    !lim_cluster_info_unpack(&rp.r, &ci) || rbuf_end(&rp.r) < 0 ||
	    ci.master == NULL ||
	    net_resolve(ci.master, c->lsf.mbd_port, &a) < 0 ||
	    (fd = net_connect_tcp(&a, NULL, MBD_TCP_TIMEOUT_MS)) < 0) {
		lim_cluster_info_release(&ci);
		reply_release(&rp);
		return -1;
	}
	reply_release(&rp);
	me = net_local_hostname();
	if (auth_init(c, cause) < 0) {
		close(fd);
		fd = -2;
	} else if (auth_client_fd(fd, AUTH_CMD, me, AUTH_MBD, ci.master,
	    MBD_TCP_TIMEOUT_MS, cause) < 0) {
		/* Silence, or a hang-up, is an mbatchd not up yet. */
		bool refused = errno == EACCES;

		close(fd);
		fd = refused ? -2 : -1;
		if (!refused) {
			free(*cause);
			*cause = NULL;
		}
	}
	free(me);
	lim_cluster_info_release(&ci);
	return fd;
}

/* Where mbatchd runs, as MBD_HOST_FILE says. */
enum mbd_where {
	MBD_UNKNOWN,		/* no file: try its socket, then TCP */
	MBD_HERE,		/* this host: its Unix socket only */
	MBD_ELSEWHERE,		/* another host: TCP */
};

/* Is addr one of this machine's own (can we bind it)? */
static bool
address_is_mine(const struct host_addr *a)
{
	struct host_addr b = *a;
	int fd, rc;

	if (b.ss.ss_family == AF_INET)
		((struct sockaddr_in *)&b.ss)->sin_port = 0;
	else if (b.ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&b.ss)->sin6_port = 0;
	else
		return false;
	if ((fd = socket(b.ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return false;
	rc = bind(fd, (struct sockaddr *)&b.ss, b.len);
	close(fd);
	return rc == 0;
}

/*
 * The Unix socket in LSB_SHAREDIR reaches mbatchd only from its own
 * machine: on NFS a socket file does not connect across hosts.  So the
 * host mbatchd last ran on (MBD_HOST_FILE, rewritten by each mbatchd as
 * it takes the lock) decides: from that host a command uses the socket
 * alone, and waits for it while mbatchd restarts instead of handing its
 * credential to whatever listens on mbatchd's TCP port then; from any
 * other host, TCP.  Hosts that share one kernel (the tests' network
 * namespaces) are told apart by LSF_LOCAL_HOST, which names the host a
 * command runs on; otherwise a host is this one if its address is one
 * of this machine's.
 */
static enum mbd_where
mbd_where(const struct lsf_config *c)
{
	const char *me = getenv(LSF_LOCAL_HOST_ENV);
	char *path, buf[256], *host;
	struct host_addr a;
	enum mbd_where w;
	ssize_t n;
	int fd;

	path = xasprintf("%s/%s/logdir/%s", c->lsf.sharedir,
	    c->cluster.name ? c->cluster.name : "cluster", MBD_HOST_FILE);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return MBD_UNKNOWN;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	host = strtok(buf, " \n");
	if (host == NULL)
		return MBD_UNKNOWN;
	if (me && *me)
		return strcasecmp(host, me) == 0 ? MBD_HERE : MBD_ELSEWHERE;
	if (net_resolve(host, 0, &a) < 0)
		return MBD_UNKNOWN;
	w = address_is_mine(&a) ? MBD_HERE : MBD_ELSEWHERE;
	return w;
}

int
mbd_connect(void)
{
	const struct lsf_config *c = client_config(CONF_SHARED);
	/* A client host need not see LSB_SHAREDIR: then TCP alone. */
	char *path = c->lsf.sharedir ? mbd_socket_path(c) : NULL;
	char *cause = NULL;
	long tries = ntries(), n = 0;
	uint64_t start = mono_ms();
	int delay_ms = 20;
	bool told = false;
	int fd;

	for (;;) {
		/*
		 * Asked again each time: a failover moves mbatchd.  The
		 * socket is tried first, so a command on the master host
		 * reads nothing more while mbatchd is up; with
		 * LSF_LOCAL_HOST the file decides first, since the socket
		 * would connect from every host of one kernel.
		 */
		enum mbd_where w = !path ? MBD_ELSEWHERE :
		    getenv(LSF_LOCAL_HOST_ENV) ? mbd_where(c) : MBD_UNKNOWN;
		int err = path ? ECONNREFUSED : ENOENT;
		const char *what = path ? "mbatchd is not on this host, and "
		    "none on the master's port" : "no LSB_SHAREDIR, and no "
		    "mbatchd on the master's port";

		if (w != MBD_ELSEWHERE) {
			what = path;
			fd = net_connect_unix(path);
			if (fd >= 0)
				break;
			err = errno;
			if (w == MBD_UNKNOWN)
				w = mbd_where(c);
		}
		/* Not on the master host (never from it: see mbd_where). */
		fd = w == MBD_HERE ? -1 : mbd_connect_tcp(&cause);
		if (fd >= 0)
			break;
		if (fd == -2) {
			fprintf(stderr, "%s: mbatchd cannot be used: %s\n",
			    progname, cause);
			exit(255);
		}
		errno = err;
		n++;
		if ((tries >= 0 && n > tries) || (tries < 0 &&
		    mono_ms() - start > RETRY_FOREVER_S * 1000ull)) {
			fprintf(stderr, "LSF is down. Please wait ...\n");
			fprintf(stderr, "%s: batch system daemon not "
			    "responding (%s: %s)\n", progname, what,
			    strerror(errno));
			exit(255);
		}
		if (!told && n >= 3) {
			fprintf(stderr, "batch system daemon not responding "
			    "... still trying\n");
			told = true;
		}
		usleep((useconds_t)delay_ms * 1000);
		if (delay_ms < 1000)
			delay_ms *= 2;
	}
	free(path);
	return fd;
}

static void
fill_reply(struct reply *out)
{
	rbuf_init(&out->r, out->body, out->hdr.len - WIRE_HDR_LEN);
}

int
mbd_call(int fd, const struct wbuf *req, struct reply *out)
{
	memset(out, 0, sizeof(*out));
	if (wire_send(fd, req) < 0)
		return -1;
	return mbd_next(fd, out);
}

int
mbd_next(int fd, struct reply *out)
{
	int ms;

	free(out->body);
	memset(out, 0, sizeof(*out));
	if (recv_timeout_s < 0)
		recv_timeout_s = env_or_conf("LSB_API_RECVTIMEOUT",
		    RECV_TIMEOUT_S);
	ms = recv_timeout_s == 0 || recv_timeout_s > INT_MAX / 1000 ? -1 :
	    (int)recv_timeout_s * 1000;
	if (wire_recv(fd, &out->hdr, &out->body, ms) < 0) {
		/* The caller says what that means for its request. */
		if (errno == ETIMEDOUT)
			fprintf(stderr, "%s: batch system daemon not "
			    "responding (no reply in %ld seconds)\n",
			    progname, recv_timeout_s);
		return -1;
	}
	fill_reply(out);
	return 0;
}

bool
reply_is_error(struct reply *rp, struct msg_error *e)
{
	memset(e, 0, sizeof(*e));
	if (rp->hdr.type != MSG_ERROR)
		return false;
	if (!msg_error_unpack(&rp->r, e) || rbuf_end(&rp->r) < 0) {
		msg_error_release(e);
		e->code = LSBE_PROTOCOL;
	}
	return true;
}

static int
lim_try(const char *host, const struct wbuf *req, struct reply *out)
{
	const struct lsf_config *c = &cconf;
	struct host_addr a;
	int fd, rc;

	if (net_resolve(host, c->lsf.lim_port, &a) < 0)
		return -1;
	fd = net_connect_tcp(&a, NULL, LIM_TIMEOUT_MS);
	if (fd < 0)
		return -1;
	memset(out, 0, sizeof(*out));
	rc = wire_send(fd, req);
	if (rc == 0)
		rc = wire_recv(fd, &out->hdr, &out->body, LIM_TIMEOUT_MS);
	close(fd);
	if (rc == 0)
		fill_reply(out);
	return rc;
}

int
lim_call_host(const char *host, const struct wbuf *req, struct reply *out)
{
	(void)client_config(CONF_CLUSTER);
	return lim_try(host, req, out);
}

int
lim_call(const struct wbuf *req, struct reply *out)
{
	const struct lsf_config *c = client_config(CONF_CLUSTER);
	struct strv cand = STRV_INIT;
	const char *env = getenv(LSF_LOCAL_HOST_ENV);
	char *me = env && *env ? xstrdup(env) : net_local_hostname();
	int rc = -1;

	/* This host's LIM first, as LSF's commands ask: it knows the
	 * master of its side of a cut network, where the first candidate
	 * may not answer for seconds. */
	for (int i = 0; i < c->cluster.nhosts; i++)
		if (strcasecmp(c->cluster.hosts[i].name, me) == 0)
			strv_push(&cand, c->cluster.hosts[i].name);
	free(me);
	for (size_t i = 0; i < c->lsf.master_list.n; i++)
		if (!strv_contains(&cand, c->lsf.master_list.v[i]))
			strv_push(&cand, c->lsf.master_list.v[i]);
	for (int i = 0; i < c->cluster.nhosts; i++)
		if (!strv_contains(&cand, c->cluster.hosts[i].name))
			strv_push(&cand, c->cluster.hosts[i].name);
	for (size_t i = 0; i < cand.n && rc < 0; i++) {
		if (lim_try(cand.v[i], req, out) < 0)
			continue;
		rc = 0;
		/* A LIM that is not master names the one that is. */
		for (int hop = 0; hop < 3 && out->hdr.type == MSG_REDIRECT;
		    hop++) {
			char *m = NULL;

			if (!get_str(&out->r, &m) || m == NULL) {
				free(m);
				break;
			}
			reply_release(out);
			rc = lim_try(m, req, out);
			free(m);
			if (rc < 0)
				break;
		}
	}
	strv_release(&cand);
	return rc;
}

static int
add_id(struct job_id **ids, uint32_t *n, int64_t jobid, int32_t idx)
{
	*ids = xrealloc(*ids, sizeof(**ids) * (*n + 1));
	(*ids)[*n].jobid = jobid;
	(*ids)[*n].idx = idx;
	(*n)++;
	return 0;
}

static int
parse_num(const char **p, int64_t *v)
{
	int64_t x = 0;
	int digits = 0;

	while (isdigit((unsigned char)**p)) {
		x = x * 10 + (**p - '0');
		if (x > INT32_MAX * 100LL)
			return -1;
		(*p)++;
		digits++;
	}
	*v = x;
	return digits ? 0 : -1;
}

int
parse_job_id(const char *s, struct job_id **ids, uint32_t *n)
{
	const char *p = s;
	int64_t jobid;

	/* "Job <123> is submitted to ..." as a single argument. */
	if (strncmp(p, "Job <", 5) == 0)
		p += 5;
	if (parse_num(&p, &jobid) < 0)
		return -1;
	if (*p == '\0' || (s != p && *p == '>' && strncmp(s, "Job <", 5) == 0))
		return add_id(ids, n, jobid, 0);
	if (*p != '[')
		return -1;
	p++;
	for (;;) {
		int64_t a, b, step = 1;

		if (parse_num(&p, &a) < 0 || a <= 0)
			return -1;
		b = a;
		if (*p == '-') {
			p++;
			if (parse_num(&p, &b) < 0 || b < a)
				return -1;
			if (*p == ':') {
				p++;
				if (parse_num(&p, &step) < 0 || step <= 0)
					return -1;
			}
		}
		if ((b - a) / step > 10000000)
			return -1;
		for (int64_t i = a; i <= b; i += step)
			add_id(ids, n, jobid, (int32_t)i);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == ']' && p[1] == '\0')
			return 0;
		return -1;
	}
}

void
print_version(void)
{
	fprintf(stderr, "%s, %s\n%s %s, a free implementation of the LSF "
	    "interfaces.\n", LSF_PRODUCT_STR, PROJECT_DATE, PROJECT_NAME,
	    PROJECT_VERSION);
}
