/*
 * Who is at the other end of a TCP connection, proven with MUNGE.
 *
 * A connection between daemons begins with a handshake: the side that
 * connects sends MSG_AUTH, a MUNGE credential whose payload is a claim
 * ("I am sbatchd on hostb, talking to mbatchd on hosta, nonce N"); the
 * side that accepts decodes it (munged gives the uid that made it and
 * refuses one decoded before), checks that the claim names it, and
 * answers MSG_AUTH_OK with a credential of its own whose claim echoes
 * the nonce.  So each side proves it runs as root (or the primary LSF
 * administrator) on a host that holds the cluster's MUNGE key, a
 * credential meant for one peer is worthless to another, and a recorded
 * answer is worthless for a new connection.  Unix-socket peers are
 * known from the kernel (SO_PEERCRED) instead.
 *
 * The claim's text is "lsf-auth 1 KIND FROM_ROLE FROM_HOST TO_ROLE
 * TO_HOST NONCE"; auth_claim_format and auth_claim_parse are pure.
 */
#ifndef LSF_AUTH_H
#define LSF_AUTH_H

#include <stdbool.h>
#include <sys/types.h>

struct lsf_config;

enum auth_role {
	AUTH_NONE = 0,		/* not authenticated */
	AUTH_LIM,
	AUTH_SBD,
	AUTH_MBD,
	AUTH_CMD,		/* a command, on behalf of its user */
};

enum auth_kind {
	AUTH_HELLO = 1,		/* from the side that connects */
	AUTH_REPLY,		/* the answer, echoing the nonce */
};

#define AUTH_NONCE_LEN	32	/* hex digits */
#define AUTH_HOST_MAX	255

struct auth_claim {
	enum auth_kind	 kind;
	enum auth_role	 from_role;
	char		 from_host[AUTH_HOST_MAX + 1];
	enum auth_role	 to_role;
	char		 to_host[AUTH_HOST_MAX + 1];
	char		 nonce[AUTH_NONCE_LEN + 1];
};

const char	*auth_role_name(enum auth_role);

/* The claim as text into buf; -1 if it does not fit or is malformed. */
int		 auth_claim_format(const struct auth_claim *, char *buf,
		    size_t size);
/* Parse a payload (not NUL-terminated); -1 with a reason if malformed. */
int		 auth_claim_parse(const void *payload, size_t len,
		    struct auth_claim *, const char **why);
/* A fresh random nonce into c->nonce. */
void		 auth_new_nonce(struct auth_claim *);

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
 * The connecting side's handshake on a blocking socket (conn-auth.c has
 * the daemons' own, on their event loops): -1 with a cause unless the
 * peer proved to be `them` on theirhost within timeout_ms.
 */
int		 auth_client_fd(int fd, enum auth_role me, const char *myhost,
		    enum auth_role them, const char *theirhost, int timeout_ms,
		    char **cause);

#endif
