/*
 * A framed connection on a daemon's libevent base: bytes in, whole
 * frames out to a callback; frames queued for writing.  A frame that does
 * not parse closes the connection (and is logged), it never reaches a
 * handler.
 */
#ifndef LSF_CONN_H
#define LSF_CONN_H

#include <stdbool.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "wire.h"

struct conn;
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
	int			 busy;		/* inside a callback */
	bool			 dead;
	bool			 close_after_write;
	bool			 connecting;
	void			(*on_connect)(struct conn *, int err, void *);
};

/* Wrap a connected socket (takes ownership of fd). */
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

/* Accept connections on a listening fd; cb gets each new fd. */
struct listener;
struct listener	*listener_new(struct event_base *, int fd,
		    void (*cb)(int fd, struct sockaddr *, socklen_t, void *),
		    void *arg);
void		 listener_free(struct listener *);

#endif
