/*
 * The MUNGE handshake on a daemon's connections (include/auth.h says
 * what it proves).  It sits in front of the owner's callbacks: until it
 * has finished, frames go to the handshake, not to the owner's on_msg,
 * and a client's "connected" callback runs only once the server has
 * proven who it is.  Nothing the owner sends can leave before that,
 * because the owner sends only after "connected" (client) or after its
 * first frame (server).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "auth.h"
#include "conn.h"
#include "log.h"
#include "net.h"
#include "proto.h"
#include "util.h"

#define HANDSHAKE_MS	5000	/* a silent server is given up after this */

struct conn_auth {
	bool		  optional;	/* server: anonymous peers allowed */
	enum auth_role	  me, them;
	char		 *myhost, *theirhost;
	char		  nonce[AUTH_NONCE_LEN + 1];
	conn_msg_cb	  on_msg;	/* the owner's */
	void		(*connected)(struct conn *, int, void *);
	conn_auth_check	  check;
	struct event	 *timer;	/* client: the answer's deadline */
};

void
conn_auth_free(struct conn_auth *a)
{
	if (a == NULL)
		return;
	if (a->timer)
		event_free(a->timer);
	free(a->myhost);
	free(a->theirhost);
	free(a);
}

/* Hand the connection back to its owner. */
static void
finish(struct conn *c)
{
	struct conn_auth *a = c->auth;

	c->on_msg = a->on_msg;
	c->auth = NULL;
	conn_auth_free(a);
}

static void
send_cred(struct conn *c, uint16_t type, const char *cred)
{
	struct wbuf w;

	wbuf_init(&w);
	wbuf_begin(&w, type, 0, 0);
	put_str(&w, cred);
	wbuf_end_frame(&w);
	conn_send(c, &w);
	wbuf_release(&w);
}

/* A client whose server did not prove itself: tell the owner, close. */
static void
client_fail(struct conn *c, const char *why)
{
	struct conn_auth *a = c->auth;
	void (*connected)(struct conn *, int, void *) = a->connected;

	log_warnx("%s: not talking to it: it did not prove to be %s on %s: "
	    "%s", conn_name(c), auth_role_name(a->them), a->theirhost, why);
	finish(c);
	c->busy++;
	if (connected)
		connected(c, EACCES, c->arg);
	c->busy--;
	conn_close(c);
}

static void
server_fail(struct conn *c, uint32_t seq, const char *why)
{
	struct wbuf w;

	log_warnx("%s: authentication refused: %s", conn_name(c), why);
	finish(c);
	wbuf_init(&w);
	msg_put_error(&w, seq, LSBE_PERMISSION, NULL, why);
	conn_send(c, &w);
	wbuf_release(&w);
	conn_close_after_write(c);
}

/*
 * A client waits this long for the server's answer.  A server needs no
 * timer of its own: its listener's limits close a peer that sends no
 * whole frame in time (conn.h, wait_ms).
 */
static void
timeout_cb(evutil_socket_t fd, short ev, void *arg)
{
	struct conn *c = arg;

	if (c->auth != NULL)
		client_fail(c, "no answer to the handshake");
}

static struct conn_auth *
auth_new(struct conn *c, enum auth_role me, const char *myhost)
{
	struct conn_auth *a = xcalloc(1, sizeof(*a));

	a->me = me;
	a->myhost = xstrdup(myhost);
	a->on_msg = c->on_msg;
	c->auth = a;
	return a;
}

/* The address the claimed host resolves to is the peer's. */
static bool
from_claimed_host(struct conn *c, const char *host)
{
	struct host_addr ha;

	if (c->peerlen == 0 || c->peer.ss_family == AF_UNIX)
		return true;
	if (net_resolve(host, 0, &ha) < 0)
		return false;
	return net_same_ip((struct sockaddr *)&ha.ss,
	    (struct sockaddr *)&c->peer);
}

static void
server_hello(struct conn *c, const struct wire_hdr *h, struct rbuf *r)
{
	struct conn_auth *a = c->auth;
	struct auth_claim cl, rep;
	char *cred = NULL, *mine = NULL, *cause = NULL;
	uid_t uid;
	gid_t gid;

	if (!get_str(r, &cred) || cred == NULL || rbuf_end(r) < 0) {
		free(cred);
		server_fail(c, h->seq, "malformed credential");
		return;
	}
	if (auth_decode(cred, &cl, &uid, &gid, &cause) < 0) {
		free(cred);
		server_fail(c, h->seq, cause);
		free(cause);
		return;
	}
	free(cred);
	if (cl.kind != AUTH_HELLO || cl.to_role != a->me ||
	    strcasecmp(cl.to_host, a->myhost) != 0) {
		cause = xasprintf("the credential is for %s on %s, not us",
		    auth_role_name(cl.to_role), cl.to_host);
	} else if (cl.from_role != AUTH_CMD && !auth_uid_is_daemon(uid)) {
		cause = xasprintf("uid %d may not act as %s", (int)uid,
		    auth_role_name(cl.from_role));
	} else if (cl.from_role != AUTH_CMD &&
	    !from_claimed_host(c, cl.from_host)) {
		cause = xasprintf("%s %s: the address is not that host's",
		    auth_role_name(cl.from_role), cl.from_host);
	} else if (a->check && a->check(c, &cl, uid, &cause) < 0) {
		if (cause == NULL)
			cause = xstrdup("not allowed");
	}
	if (cause) {
		server_fail(c, h->seq, cause);
		free(cause);
		return;
	}
	memset(&rep, 0, sizeof(rep));
	rep.kind = AUTH_REPLY;
	rep.from_role = a->me;
	strcpy(rep.from_host, a->myhost);
	rep.to_role = cl.from_role;
	strcpy(rep.to_host, cl.from_host);
	strcpy(rep.nonce, cl.nonce);
	if (auth_encode(&rep, &mine, &cause) < 0) {
		server_fail(c, h->seq, cause);
		free(cause);
		return;
	}
	c->auth_role = cl.from_role;
	strcpy(c->auth_host, cl.from_host);
	c->uid = uid;
	c->gid = gid;
	c->have_cred = true;
	log_debug("%s: authenticated as %s on %s (uid %d)", conn_name(c),
	    auth_role_name(cl.from_role), cl.from_host, (int)uid);
	send_cred(c, MSG_AUTH_OK, mine);
	free(mine);
	finish(c);
}

static void
server_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r,
    void *arg)
{
	struct conn_auth *a = c->auth;
	conn_msg_cb owner;

	if (h->type == MSG_AUTH) {
		server_hello(c, h, r);
		return;
	}
	if (!a->optional) {
		char *why = xasprintf("%s before authenticating",
		    msg_type_name(h->type));

		server_fail(c, h->seq, why);
		free(why);
		return;
	}
	/* An anonymous peer: its owner decides what it may ask. */
	owner = a->on_msg;
	finish(c);
	owner(c, h, r, arg);
}

void
conn_auth_server(struct conn *c, enum auth_role me, const char *myhost,
    bool optional, conn_auth_check check)
{
	struct conn_auth *a = auth_new(c, me, myhost);

	a->optional = optional;
	a->check = check;
	c->on_msg = server_msg;
}

static void
client_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r,
    void *arg)
{
	struct conn_auth *a = c->auth;
	void (*connected)(struct conn *, int, void *) = a->connected;
	struct auth_claim cl;
	struct msg_error e;
	char *cred = NULL, *cause = NULL;
	uid_t uid;
	gid_t gid;

	if (h->type == MSG_ERROR) {
		if (msg_error_unpack(r, &e))
			cause = xasprintf("it refused us: %s%s%s",
			    lsb_errmsg(e.code), e.detail ? ": " : "",
			    e.detail ? e.detail : "");
		msg_error_release(&e);
		client_fail(c, cause ? cause : "it refused us");
		free(cause);
		return;
	}
	if (h->type != MSG_AUTH_OK || !get_str(r, &cred) || cred == NULL ||
	    rbuf_end(r) < 0) {
		free(cred);
		client_fail(c, "it did not answer the handshake");
		return;
	}
	if (auth_decode(cred, &cl, &uid, &gid, &cause) < 0) {
		free(cred);
		client_fail(c, cause);
		free(cause);
		return;
	}
	free(cred);
	if (!auth_uid_is_daemon(uid))
		cause = xasprintf("its credential is uid %d's", (int)uid);
	else if (cl.kind != AUTH_REPLY || strcmp(cl.nonce, a->nonce) != 0)
		cause = xstrdup("its answer is not for this connection");
	else if (cl.from_role != a->them ||
	    strcasecmp(cl.from_host, a->theirhost) != 0)
		cause = xasprintf("it is %s on %s",
		    auth_role_name(cl.from_role), cl.from_host);
	else if (cl.to_role != a->me || strcasecmp(cl.to_host, a->myhost) != 0)
		cause = xstrdup("its answer is for someone else");
	if (cause) {
		client_fail(c, cause);
		free(cause);
		return;
	}
	c->auth_role = a->them;
	snprintf(c->auth_host, sizeof(c->auth_host), "%s", a->theirhost);
	finish(c);
	c->busy++;
	if (connected)
		connected(c, 0, c->arg);
	c->busy--;
}

/* TCP is up: say who we are. */
static void
client_connected(struct conn *c, int err, void *arg)
{
	struct conn_auth *a = c->auth;
	void (*connected)(struct conn *, int, void *) = a->connected;
	struct auth_claim cl;
	char *cred, *cause;

	if (err) {
		finish(c);
		if (connected)
			connected(c, err, arg);
		return;
	}
	memset(&cl, 0, sizeof(cl));
	cl.kind = AUTH_HELLO;
	cl.from_role = a->me;
	snprintf(cl.from_host, sizeof(cl.from_host), "%s", a->myhost);
	cl.to_role = a->them;
	snprintf(cl.to_host, sizeof(cl.to_host), "%s", a->theirhost);
	auth_new_nonce(&cl);
	strcpy(a->nonce, cl.nonce);
	if (auth_encode(&cl, &cred, &cause) < 0) {
		/* Our side: say so in our words, not "it did not prove". */
		log_warnx("%s: cannot authenticate: %s", conn_name(c), cause);
		free(cause);
		finish(c);
		c->busy++;
		if (connected)
			connected(c, EACCES, arg);
		c->busy--;
		conn_close(c);
		return;
	}
	c->on_msg = client_msg;
	send_cred(c, MSG_AUTH, cred);
	free(cred);
}

struct conn *
conn_connect_auth(struct event_base *base, const struct host_addr *to,
    const struct host_addr *from, conn_msg_cb on_msg, conn_close_cb on_close,
    void (*connected)(struct conn *, int, void *), void *arg,
    enum auth_role me, const char *myhost, enum auth_role them,
    const char *theirhost)
{
	struct timeval tv = { HANDSHAKE_MS / 1000, (HANDSHAKE_MS % 1000) * 1000 };
	struct conn *c;
	struct conn_auth *a;

	c = conn_connect(base, to, from, on_msg, on_close, client_connected,
	    arg);
	if (c == NULL)
		return NULL;
	a = auth_new(c, me, myhost);
	a->them = them;
	a->theirhost = xstrdup(theirhost);
	a->connected = connected;
	a->timer = evtimer_new(base, timeout_cb, c);
	if (a->timer == NULL)
		fatalx("evtimer_new failed");
	evtimer_add(a->timer, &tv);
	return c;
}
