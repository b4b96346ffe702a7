/*
 * Host names, addresses and sockets.
 *
 * A host name resolves through $LSF_CONFDIR/hosts first, then the system
 * resolver, so several hosts of a test cluster can live on one machine at
 * 127.0.0.11, 127.0.0.12, ...  Daemons bind the address of the host they
 * run as, and outgoing connections leave from it too, so a peer's source
 * address says which host it is.
 */
#ifndef LSF_NET_H
#define LSF_NET_H

#include <netinet/in.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "conf.h"

struct host_addr {
	struct sockaddr_storage	 ss;
	socklen_t		 len;
};

/* Use this configuration's hosts file for later lookups. */
void	 net_set_hosts(const struct lsf_config *);
/* Resolve a host name (hosts file, then resolver), port filled in.
 * -1 if it does not resolve. */
int	 net_resolve(const char *host, int port, struct host_addr *);
/* The official name of a host as the hosts file or resolver knows it
 * (aliases map to the name), allocated; NULL if unknown. */
char	*net_official_name(const char *host);
/* This machine's name: gethostname(), made official if possible. */
char	*net_local_hostname(void);
/*
 * The cluster host a daemon runs as when it has no -N, and the host
 * lsadmin and badmin take for "this host": set by whoever starts a
 * daemon for one of several hosts on one machine (the tests' LSF_RSH).
 */
#define LSF_LOCAL_HOST_ENV	"LSF_LOCAL_HOST"
/* Printable "addr:port". */
const char *net_addr_str(const struct sockaddr *, socklen_t);
bool	 net_same_ip(const struct sockaddr *, const struct sockaddr *);

/* A non-blocking listening TCP socket on addr (SO_REUSEADDR). */
int	 net_listen_tcp(const struct host_addr *, char **cause);
/*
 * A listening socket handed to a program this process executes (the
 * mbatchd that sbatchd starts, a daemon restarting itself): it stays
 * open across exec, and LSF_LISTEN_<port> names it, so that the
 * program's net_listen_tcp of that port takes it instead of binding.
 * The port is never free in between, so no ordinary user can bind it
 * while the daemon restarts.  Call it just before exec.
 */
void	 net_listen_pass(int fd, uint16_t port);
/* A blocking TCP connection to addr, from local (may be NULL), with a
 * timeout in milliseconds.  -1 with errno. */
int	 net_connect_tcp(const struct host_addr *to,
	    const struct host_addr *from, int timeout_ms);
/* Start a non-blocking connect; 0 connected or in progress, -1 error. */
int	 net_connect_tcp_nb(const struct host_addr *to,
	    const struct host_addr *from);

/*
 * A long-lived link between daemons: the kernel closes it once the peer
 * has not answered for ms (keepalive probes while idle, TCP_USER_TIMEOUT
 * for unacknowledged data).  Without it a cut network leaves the link
 * open for the quarter hour of TCP's retransmissions, and each side
 * believes the other is still there.
 */
#define NET_PEER_DEADLINE_MS	4000
void	 net_peer_deadline(int fd, int ms);

/* Unix-domain sockets (the commands' way into mbatchd). */
int	 net_listen_unix(const char *path, int mode, char **cause);
int	 net_connect_unix(const char *path);
/* The uid and pid of a Unix-socket peer, from the kernel. */
int	 net_peer_cred(int fd, uid_t *uid, gid_t *gid, pid_t *pid);

#endif
