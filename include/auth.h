/*
 * Who is at the other end of a TCP connection, proven with MUNGE.
 *
 * A connection between daemons, or from a command on another host,
 * begins with a handshake in which the side that accepts proves itself
 * first and each side's credential is bound to this one connection:
 *
 *	client -> MSG_AUTH_HELLO	who I am, whom I want, my nonce Nc
 *	server -> MSG_AUTH_CHALLENGE	credential: "server S to client C,
 *					Nc, my nonce Ns, this connection's
 *					two endpoints"
 *	client -> MSG_AUTH		credential: "client C to server S,
 *					Nc, Ns, the same endpoints"
 *	server -> MSG_AUTH_OK		(or MSG_ERROR, and it closes)
 *
 * The client checks the server's credential (made by root or the
 * primary LSF administrator, naming the client's fresh nonce and the
 * endpoints it sees itself) before it sends its own or any request, so
 * a user who listens on a daemon's port gets no credential to relay.
 * The server checks that the client's credential names the nonce it
 * chose for this connection and the endpoints it sees, so a credential
 * captured anywhere else is worthless to the real server; munged
 * refuses one decoded twice as well.  A connection through NAT or a
 * proxy therefore fails the handshake (its endpoints differ on the two
 * sides), as LSF's own address checks would.  Unix-socket peers are
 * known from the kernel (SO_PEERCRED) instead.
 *
 * A credential's payload is the claim's text, "lsf-auth 2 KIND
 * FROM_ROLE FROM_HOST TO_ROLE TO_HOST CLIENT_NONCE SERVER_NONCE
 * CLIENT_ENDPOINT SERVER_ENDPOINT"; auth_claim_format, auth_claim_parse
 * and auth_claim_check are pure.
 */
#ifndef LSF_AUTH_H
#define LSF_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

struct lsf_config;
struct auth_hello;

enum auth_role {
	AUTH_NONE = 0,		/* not authenticated */
	AUTH_LIM,
	AUTH_SBD,
	AUTH_MBD,
	AUTH_CMD,		/* a command, on behalf of its user */
};

enum auth_kind {
	AUTH_CHALLENGE = 1,	/* the accepting side's, first */
	AUTH_PROOF,		/* the connecting side's, answering it */
};

#define AUTH_NONCE_LEN	32	/* hex digits */
#define AUTH_HOST_MAX	255
#define AUTH_EP_MAX	63	/* "a.b.c.d:port", "[v6]:port" */

struct auth_claim {
	enum auth_kind	 kind;
	enum auth_role	 from_role;
	char		 from_host[AUTH_HOST_MAX + 1];
	enum auth_role	 to_role;
	char		 to_host[AUTH_HOST_MAX + 1];
	char		 client_nonce[AUTH_NONCE_LEN + 1];
	char		 server_nonce[AUTH_NONCE_LEN + 1];
	char		 client_ep[AUTH_EP_MAX + 1];
	char		 server_ep[AUTH_EP_MAX + 1];
};

const char	*auth_role_name(enum auth_role);

/* The claim as text into buf; -1 if it does not fit or is malformed. */
int		 auth_claim_format(const struct auth_claim *, char *buf,
		    size_t size);
/* Parse a payload (not NUL-terminated); -1 with a reason if malformed. */
int		 auth_claim_parse(const void *payload, size_t len,
		    struct auth_claim *, const char **why);
/*
 * Is `got`, decoded from a credential made by uid, the claim `want`?
 * Every field must match (hosts without regard to case), and a
 * challenge, or a proof from a daemon's role, must come from a daemon's
 * uid (auth_uid_is_daemon).  -1 with an allocated *why naming the first
 * difference.
 */
int		 auth_claim_check(const struct auth_claim *got, uid_t uid,
		    const struct auth_claim *want, char **why);
/* A fresh random nonce. */
void		 auth_new_nonce(char nonce[AUTH_NONCE_LEN + 1]);
/* An address as an endpoint ("a.b.c.d:port"; a v4-mapped v6 as v4). */
int		 auth_endpoint(const struct sockaddr *, socklen_t,
		    char ep[AUTH_EP_MAX + 1]);
/* Is a hello well formed (roles known, hosts and nonce well spelled)? */
bool		 auth_hello_ok(const struct auth_hello *, const char **why);

/*
 * Read LSF_AUTH (only "munge" is supported, and it is the default) and
 * LSF_MUNGE_SOCKET, and find the primary administrator's uid.  -1 with
 * a cause if the method is not supported.
 */
int		 auth_init(const struct lsf_config *, char **cause);
/* Whether uid may speak for a daemon: root or the primary admin. */
bool		 auth_uid_is_daemon(uid_t);

/* A MUNGE credential carrying the claim; -1 with a cause. */
int		 auth_encode(const struct auth_claim *, char **cred,
		    char **cause);
/*
 * Decode a credential (munged refuses an expired or replayed one) into
 * its claim and the uid and gid that made it; -1 with a cause.
 */
int		 auth_decode(const char *cred, struct auth_claim *, uid_t *,
		    gid_t *, char **cause);

/*
 * One side of one connection's handshake, shared by the daemons'
 * (conn-auth.c, on their event loops) and the blocking client below.
 * The client: auth_hs_client_init, send the hello, then
 * auth_hs_client_challenge on the server's credential, which makes the
 * proof to send.  The server: auth_hs_server_hello on the hello, which
 * makes the challenge to send, then auth_hs_server_proof on the
 * client's credential.  Each returns -1 with an allocated cause.
 */
struct auth_hs {
	enum auth_role	 me, them;
	char		 myhost[AUTH_HOST_MAX + 1];
	char		 theirhost[AUTH_HOST_MAX + 1];
	char		 client_nonce[AUTH_NONCE_LEN + 1];
	char		 server_nonce[AUTH_NONCE_LEN + 1];
	char		 client_ep[AUTH_EP_MAX + 1];
	char		 server_ep[AUTH_EP_MAX + 1];
};
/* fd: the connected socket, whose endpoints the claims name. */
int		 auth_hs_client_init(struct auth_hs *, int fd,
		    enum auth_role me, const char *myhost,
		    enum auth_role them, const char *theirhost, char **cause);
void		 auth_hs_hello(const struct auth_hs *, struct auth_hello *);
int		 auth_hs_client_challenge(struct auth_hs *, const char *cred,
		    char **proof, char **cause);
int		 auth_hs_server_hello(struct auth_hs *, int fd,
		    enum auth_role me, const char *myhost,
		    const struct auth_hello *, char **challenge, char **cause);
/* On success *uid and *gid are the client's, hs->them its role. */
int		 auth_hs_server_proof(struct auth_hs *, const char *cred,
		    uid_t *uid, gid_t *gid, char **cause);

/*
 * The connecting side's whole handshake on a blocking socket: -1 with a
 * cause unless the peer proved to be `them` on theirhost, and accepted
 * us, within timeout_ms; errno is EACCES if it refused us or did not
 * prove itself, ETIMEDOUT if it did not answer (or hung up).
 */
int		 auth_client_fd(int fd, enum auth_role me, const char *myhost,
		    enum auth_role them, const char *theirhost, int timeout_ms,
		    char **cause);

#endif
