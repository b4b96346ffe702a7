/*
 * A framed connection on a daemon's libevent base: bytes in, whole
 * frames out to a callback; frames queued for writing.  A frame that does
 * not parse closes the connection (and is logged), it never reaches a
 * handler.
 */
#ifndef LSF_CONN_H
#define LSF_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "wire.h"

/*
 * What one peer may make a daemon hold (docs/ARCHITECTURE.md, "Bounds").
 *
 * max_frame	A frame announcing more (header included) closes the
 *		connection from its header, before any of its body is read.
 *		A frame's bytes are buffered only as they arrive.
 * max_out	Bytes of output the peer has not read: past this it is
 *		closed (logged).  Above CONN_OUT_PAUSE (or max_out if less)
 *		its further requests are not read until it reads its
 *		replies, so a peer that never reads holds one reply, not one
 *		per request.  For peers that ask and then read (commands),
 *		never for two daemons that both send at will.  0: neither.
 * wait_ms	A peer that has not sent a whole frame this long after it
 *		connected, or after the first byte of a frame, is closed.
 *		Between whole frames after the first a connection may be
 *		idle for ever (an sbatchd's is).  0: no timeout.
 */
#define CONN_OUT_PAUSE	(256u * 1024)
/*
 * Input: the bytes buffered for frames not yet whole are charged to who
 * sent them, a uid (a Unix-socket peer, an authenticated command) or,
 * before it has proven one, an address; a peer over CONN_PEER_IN_MAX,
 * or all of them over CONN_TOTAL_IN_MAX, is not read until some of it
 * is handed on or closed (its wait_ms still runs, so a partial frame
 * held for ever is closed).  The largest frame fits in a peer's share,
 * so one whole frame is always possible.  Proven daemons (lim, sbatchd,
 * mbatchd, and our own uid on a Unix socket) are not charged.
 */
#define CONN_PEER_IN_MAX	((size_t)64 * 1024 * 1024)
#define CONN_TOTAL_IN_MAX	((size_t)512 * 1024 * 1024)
struct conn_limits {
	uint32_t	 max_frame;
	size_t		 max_out;
	int		 wait_ms;
};

struct conn;
struct listener;
typedef void (*conn_msg_cb)(struct conn *, const struct wire_hdr *,
    struct rbuf *body, void *arg);
typedef void (*conn_close_cb)(struct conn *, void *arg);

struct conn {
	struct bufferevent	*bev;
	int			 fd;
	conn_msg_cb		 on_msg;
	conn_close_cb		 on_close;
	void			*arg;
	void			*data;		/* the owner's state */
	char			*name;		/* for logs */
	/* Kernel-given identity of a Unix-socket peer. */
	bool			 have_cred;
	uid_t			 uid;
	gid_t			 gid;
	pid_t			 pid;
	/* Address of a TCP peer. */
	struct sockaddr_storage	 peer;
	socklen_t		 peerlen;
	/*
	 * What the MUNGE handshake proved (conn-auth.c): the peer's role
	 * (enum auth_role, 0 for none) and host; uid and gid above then
	 * come from its credential.
	 */
	int			 auth_role;
	char			 auth_host[256];
	struct conn_auth	*auth;		/* the handshake, under way */
	/* Internal. */
	struct conn_limits	 lim;
	struct event		*ev_wait;	/* wait_ms, and deferred closes */
	const char		*why_close;	/* deferred close: why */
	uint64_t		 nframes;	/* frames read */
	bool			 paused;	/* not reading: output unread */
	bool			 starved;	/* not reading: over its input
						 * share (CONN_PEER_IN_MAX) */
	size_t			 charged;	/* input bytes charged ... */
	uint64_t		 charge_key;	/* ... to this peer */
	size_t			 peak_in;	/* most input ever buffered */
	TAILQ_ENTRY(conn)	 starve_entry;	/* while starved */
	struct listener		*owner;		/* counted against its limits */
	TAILQ_ENTRY(conn)	 entry;		/* in owner's list */
	uint64_t		 peer_key;	/* uid or address, for owner */
	int			 busy;		/* inside a callback */
	bool			 dead;
	bool			 close_after_write;
	bool			 connecting;
	void			(*on_connect)(struct conn *, int err, void *);
};

/* Wrap a connected socket (takes ownership of fd); no limits. */
struct conn	*conn_new(struct event_base *, int fd, conn_msg_cb,
		    conn_close_cb, void *arg);
/*
 * Connect to `to` from the address `from` (port 0: any), without blocking.
 * connected runs with err 0 once connected, or an errno on failure (the
 * conn is freed after it returns).  NULL if the socket cannot be made.
 */
struct host_addr;
struct conn	*conn_connect(struct event_base *, const struct host_addr *to,
		    const struct host_addr *from, conn_msg_cb, conn_close_cb,
		    void (*connected)(struct conn *, int err, void *),
		    void *arg);
/* Apply limits (a connection starts with none: max_frame WIRE_MAX_FRAME). */
void		 conn_set_limits(struct conn *, const struct conn_limits *);
/* The connection's name for logs ("connection" if it has none). */
const char	*conn_name(const struct conn *);
/* Queue the frames in w (w is left untouched). */
void		 conn_send(struct conn *, const struct wbuf *);
/* The same, written at once when nothing is queued before it. */
void		 conn_send_now(struct conn *, const struct wbuf *);
/* Close now (on_close is not called); safe inside callbacks. */
void		 conn_close(struct conn *);
/* Close once everything queued has been written; on_close runs then. */
void		 conn_close_after_write(struct conn *);
/* Bytes queued for writing and not yet sent. */
size_t		 conn_pending_out(const struct conn *);
/* Input bytes charged to peers, in all and to the peer of c. */
size_t		 conn_input_total(void);
size_t		 conn_input_of(const struct conn *);
/*
 * Write what is queued now, outside the loop, waiting up to timeout_ms
 * for a full socket: for a last answer before the process exits or
 * executes itself again.  -1 if some of it could not be written.
 */
int		 conn_flush_now(struct conn *, int timeout_ms);

/*
 * The MUNGE handshake (include/auth.h).  A server's first frame must be
 * MSG_AUTH with a claim naming it (me, myhost); check, if given, then
 * judges the proven peer (return -1 with an allocated *why to refuse).
 * With optional, a peer whose first frame is something else is served
 * anonymously (auth_role 0).
 */
struct auth_claim;
enum auth_role;
/* The largest frame taken before the handshake is over (a credential
 * is some 300 bytes; a LIM's anonymous query some more). */
#define CONN_AUTH_MAX_FRAME	(64 * 1024)
typedef int (*conn_auth_check)(struct conn *, const struct auth_claim *,
		    uid_t, char **why);
void		 conn_auth_server(struct conn *, enum auth_role me,
		    const char *myhost, bool optional, conn_auth_check check);
/*
 * conn_connect, then the handshake: connected runs with err 0 once the
 * server has proven to be `them` on theirhost, with EACCES if it did not
 * (the conn is closed after it returns).
 */
struct conn	*conn_connect_auth(struct event_base *,
		    const struct host_addr *to, const struct host_addr *from,
		    conn_msg_cb, conn_close_cb,
		    void (*connected)(struct conn *, int err, void *),
		    void *arg, enum auth_role me, const char *myhost,
		    enum auth_role them, const char *theirhost);
void		 conn_auth_free(struct conn_auth *);

/*
 * Accept connections on a listening fd; cb gets each new fd and returns
 * the conn it made of it (NULL if it closed it at once), which then
 * counts against the listener's limits until it closes.
 *
 * At the process's file-descriptor limit the listener stops accepting
 * for a moment instead of retrying at once (logged once per episode).
 */
typedef struct conn *(*listener_accept_fn)(int fd, struct sockaddr *,
		    socklen_t, void *);
struct listener	*listener_new(struct event_base *, int fd, listener_accept_fn,
		    void *arg);
void		 listener_free(struct listener *);

/*
 * max_conns	Connections open at once (0: no limit).
 * max_per_peer	... from one peer: a uid on a Unix socket, an address on
 *		TCP (0: no limit).
 * conn		Limits for each connection accepted.
 * A connection over either count first makes room by closing the oldest
 * connection (of that peer, for max_per_peer) that has not sent a whole
 * frame yet: a flood of idle connections cannot keep anyone else out.
 * With none to close, the new one is refused.  Both are logged, at most
 * every few seconds.
 */
struct listener_limits {
	int			 max_conns;
	int			 max_per_peer;
	struct conn_limits	 conn;
};
void		 listener_set_limits(struct listener *,
		    const struct listener_limits *);
/* Connections open now. */
int		 listener_count(const struct listener *);

#endif
