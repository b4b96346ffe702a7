/* Host resolution through the LSF hosts file, and socket set-up. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "net.h"

static const struct hosts_entry *hosts_tab;
static int hosts_n;

void
net_set_hosts(const struct lsf_config *c)
{
	hosts_tab = c ? c->hostsfile : NULL;
	hosts_n = c ? c->nhostsfile : 0;
}

static const struct hosts_entry *
hosts_lookup(const char *name)
{
	for (int i = 0; i < hosts_n; i++) {
		const struct hosts_entry *h = &hosts_tab[i];

		if (strcasecmp(h->name, name) == 0)
			return h;
		for (size_t k = 0; k < h->aliases.n; k++)
			if (strcasecmp(h->aliases.v[k], name) == 0)
				return h;
	}
	return NULL;
}

static int
addr_from_text(const char *text, int port, struct host_addr *a)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&a->ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&a->ss;

	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, text, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		a->len = sizeof(*sin);
		return 0;
	}
	if (inet_pton(AF_INET6, text, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		a->len = sizeof(*sin6);
		return 0;
	}
	return -1;
}

int
net_resolve(const char *host, int port, struct host_addr *a)
{
	const struct hosts_entry *h = hosts_lookup(host);
	struct addrinfo hints, *res;

	if (h)
		return addr_from_text(h->addr, port, a);
	if (addr_from_text(host, port, a) == 0)
		return 0;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, NULL, &hints, &res) != 0)
		return -1;
	memset(a, 0, sizeof(*a));
	memcpy(&a->ss, res->ai_addr, res->ai_addrlen);
	a->len = res->ai_addrlen;
	if (a->ss.ss_family == AF_INET)
		((struct sockaddr_in *)&a->ss)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)&a->ss)->sin6_port = htons((uint16_t)port);
	freeaddrinfo(res);
	return 0;
}

char *
net_official_name(const char *host)
{
	const struct hosts_entry *h = hosts_lookup(host);
	struct addrinfo hints, *res;
	char *name;

	if (h)
		return xstrdup(h->name);
	memset(&hints, 0, sizeof(hints));
	hints.ai_flags = AI_CANONNAME;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, NULL, &hints, &res) != 0)
		return NULL;
	name = xstrdup(res->ai_canonname ? res->ai_canonname : host);
	freeaddrinfo(res);
	return name;
}

bool
net_same_ip(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		    ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		    &((const struct sockaddr_in6 *)b)->sin6_addr,
		    sizeof(struct in6_addr)) == 0;
	return false;
}

char *
net_local_hostname(void)
{
	char buf[256];
	char *off;

	if (gethostname(buf, sizeof(buf) - 1) < 0)
		return xstrdup("localhost");
	buf[sizeof(buf) - 1] = '\0';
	off = net_official_name(buf);
	return off ? off : xstrdup(buf);
}

const char *
net_addr_str(const struct sockaddr *sa, socklen_t len)
{
	static char out[NI_MAXHOST + 16];
	char host[NI_MAXHOST], serv[16];

	if (getnameinfo(sa, len, host, sizeof(host), serv, sizeof(serv),
	    NI_NUMERICHOST | NI_NUMERICSERV) != 0)
		return "?";
	snprintf(out, sizeof(out), "%s:%s", host, serv);
	return out;
}

#define LISTEN_ENV	"LSF_LISTEN_%u"

static uint16_t
addr_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)ss)->sin_port);
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return 0;
}

/*
 * The socket net_listen_pass handed us for a's port, if it is one
 * listening on a's address and port: -1 otherwise (then the name is
 * forgotten, and the caller binds).
 */
static int
listen_inherited(const struct host_addr *a)
{
	char name[32], *s;
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd, on = 0, type = 0;
	socklen_t ol = sizeof(on), tl = sizeof(type);
	long v;

	snprintf(name, sizeof(name), LISTEN_ENV, addr_port(&a->ss));
	if ((s = getenv(name)) == NULL)
		return -1;
	fd = parse_long(s, &v) == 0 && v > 2 && v < 65536 ? (int)v : -1;
	(void)unsetenv(name);
	if (fd < 0 || getsockname(fd, (struct sockaddr *)&ss, &len) < 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &ol) < 0 || !on ||
	    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) < 0 ||
	    type != SOCK_STREAM || addr_port(&ss) != addr_port(&a->ss) ||
	    !net_same_ip((const struct sockaddr *)&ss,
	    (const struct sockaddr *)&a->ss))
		return -1;
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 || set_nonblock(fd) < 0)
		return -1;
	return fd;
}

void
net_listen_pass(int fd, uint16_t port)
{
	char name[32], val[16];

	if (fd < 0)
		return;
	fd_pass_on_exec(fd);
	snprintf(name, sizeof(name), LISTEN_ENV, port);
	snprintf(val, sizeof(val), "%d", fd);
	(void)setenv(name, val, 1);
}

int
net_listen_tcp(const struct host_addr *a, char **cause)
{
	int fd, on = 1;

	if ((fd = listen_inherited(a)) >= 0)
		return fd;

	fd = socket(a->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0);
	if (fd < 0) {
		*cause = xasprintf("socket: %s", strerror(errno));
		return -1;
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	if (bind(fd, (const struct sockaddr *)&a->ss, a->len) < 0) {
		int err = errno;

		*cause = xasprintf("bind %s: %s",
		    net_addr_str((const struct sockaddr *)&a->ss, a->len),
		    strerror(err));
		close(fd);
		errno = err;
		return -1;
	}
	if (listen(fd, 1024) < 0) {
		*cause = xasprintf("listen: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int
tcp_socket_from(const struct host_addr *to, const struct host_addr *from)
{
	int fd, on = 1;

	fd = socket(to->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
	if (from) {
		struct host_addr f = *from;

		/* Any port, but this host's address. */
		if (f.ss.ss_family == AF_INET)
			((struct sockaddr_in *)&f.ss)->sin_port = 0;
		else
			((struct sockaddr_in6 *)&f.ss)->sin6_port = 0;
		if (bind(fd, (struct sockaddr *)&f.ss, f.len) < 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
	}
	return fd;
}

void
net_peer_deadline(int fd, int ms)
{
	int on = 1, idle = 1, intvl = 1, cnt = ms / 1000 > 1 ? ms / 1000 : 1;
	unsigned int user = (unsigned int)ms;

	/* Best effort: a socket that refuses keeps TCP's own bounds. */
	(void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl,
	    sizeof(intvl));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user,
	    sizeof(user));
}

int
net_connect_tcp_nb(const struct host_addr *to, const struct host_addr *from)
{
	int fd = tcp_socket_from(to, from);

	if (fd < 0)
		return -1;
	if (set_nonblock(fd) < 0)
		goto fail;
	if (connect(fd, (const struct sockaddr *)&to->ss, to->len) < 0 &&
	    errno != EINPROGRESS)
		goto fail;
	return fd;
fail:;
	int e = errno;

	close(fd);
	errno = e;
	return -1;
}

int
net_connect_tcp(const struct host_addr *to, const struct host_addr *from,
    int timeout_ms)
{
	struct pollfd pfd;
	int fd, err = 0, fl;
	socklen_t elen = sizeof(err);

	fd = net_connect_tcp_nb(to, from);
	if (fd < 0)
		return -1;
	pfd.fd = fd;
	pfd.events = POLLOUT;
	for (;;) {
		int n = poll(&pfd, 1, timeout_ms);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			errno = n == 0 ? ETIMEDOUT : errno;
			return -1;
		}
		break;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0 || err) {
		close(fd);
		errno = err ? err : EIO;
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int
net_listen_unix(const char *path, int mode, char **cause)
{
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		*cause = xasprintf("%s: socket path too long", path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		*cause = xasprintf("socket: %s", strerror(errno));
		return -1;
	}
	(void)unlink(path);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		*cause = xasprintf("bind %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (chmod(path, (mode_t)mode) < 0 || listen(fd, 1024) < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int
net_connect_unix(const char *path)
{
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int
net_peer_cred(int fd, uid_t *uid, gid_t *gid, pid_t *pid)
{
	struct ucred uc;
	socklen_t len = sizeof(uc);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0)
		return -1;
	*uid = uc.uid;
	*gid = uc.gid;
	*pid = uc.pid;
	return 0;
}
