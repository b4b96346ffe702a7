/*
 * The MUNGE handshake on a daemon's connections (include/auth.h says
 * what it proves).  It sits in front of the owner's callbacks: until it
 * has finished, frames go to the handshake, not to the owner's on_msg,
 * and a client's "connected" callback runs only once the server has
 * proven who it is and accepted our proof.  Nothing the owner sends can
 * leave before that, because the owner sends only after "connected"
 * (client) or after its first frame (server).  A refused peer is read
 * no more: what it sent behind the refusal is dropped unread, and the
 * refusal is logged at most once every few seconds (log_limited).
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

#define HANDSHAKE_MS	5000	/* either side gives up after this */

enum hs_state {
	HS_HELLO,		/* server: waiting for the hello */
	HS_PROOF,		/* server: challenge sent, waiting */
	HS_CHALLENGE,		/* client: hello sent, waiting */
	HS_OK,			/* client: proof sent, waiting */
};

struct conn_auth {
	bool		  optional;	/* server: anonymous peers allowed */
	enum hs_state	  state;
	struct auth_hs	  hs;
	conn_msg_cb	  on_msg;	/* the owner's */
	void		(*connected)(struct conn *, int, void *);
	conn_auth_check	  check;
	struct event	 *timer;	/* the handshake's deadline */
};

static struct ratelog rl_refused, rl_unproven;

void
conn_auth_free(struct conn_auth *a)
{
	if (a == NULL)
		return;
	if (a->timer)
		event_free(a->timer);
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

/* What a refused peer sends is not read. */
static void
drop_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r,
    void *arg)
{
}

static void
send_cred(struct conn *c, uint16_t type, const char *cred)
{
	struct wbuf w;

	wbuf_init(&w);
	wbuf_begin(&w, type, 0, 0);
	if (cred)
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

	/* A squatter or a relay can make us say it at will. */
	log_limited(&rl_unproven, "%s: not talking to it: it did not prove "
	    "to be %s on %s: %s", conn_name(c), auth_role_name(a->hs.them),
	    a->hs.theirhost, why);
	finish(c);
	c->on_msg = drop_msg;
	c->busy++;
	if (connected)
		connected(c, EACCES, c->arg);
	c->busy--;
	conn_close(c);
}

/*
 * Refuse a peer: one rate-limited line (an unauthenticated peer can ask
 * for as many as it likes), the reason to the peer, and nothing of what
 * it sends afterwards read.
 */
static void
server_fail(struct conn *c, uint32_t seq, const char *why)
{
	struct wbuf w;

	log_limited(&rl_refused, "%s: authentication refused: %s",
	    conn_name(c), why);
	finish(c);
	c->on_msg = drop_msg;
	wbuf_init(&w);
	msg_put_error(&w, seq, LSBE_PERMISSION, NULL, why);
	conn_send(c, &w);
	wbuf_release(&w);
	conn_close_after_write(c);
}

static void
timeout_cb(evutil_socket_t fd, short ev, void *arg)
{
	struct conn *c = arg;
	struct conn_auth *a = c->auth;

	if (a == NULL)
		return;
	if (a->state == HS_CHALLENGE || a->state == HS_OK)
		client_fail(c, "no answer to the handshake");
	else
		server_fail(c, 0, "the handshake took too long");
}

static struct conn_auth *
auth_new(struct conn *c, struct event_base *base, enum auth_role me,
    const char *myhost)
{
	struct timeval tv = { HANDSHAKE_MS / 1000, (HANDSHAKE_MS % 1000) * 1000 };
	struct conn_auth *a = xcalloc(1, sizeof(*a));

	a->hs.me = me;
	snprintf(a->hs.myhost, sizeof(a->hs.myhost), "%s", myhost);
	a->on_msg = c->on_msg;
	a->timer = evtimer_new(base, timeout_cb, c);
	if (a->timer == NULL)
		fatalx("evtimer_new failed");
	evtimer_add(a->timer, &tv);
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
	struct auth_hello hello;
	char *mine = NULL, *cause = NULL;

	if (!auth_hello_unpack(r, &hello) || rbuf_end(r) < 0) {
		auth_hello_release(&hello);
		server_fail(c, h->seq, "malformed hello");
		return;
	}
	(void)auth_hs_server_hello(&a->hs, c->fd, a->hs.me, a->hs.myhost,
	    &hello, &mine, &cause);
	auth_hello_release(&hello);
	if (cause) {
		server_fail(c, h->seq, cause);
		free(cause);
		free(mine);
		return;
	}
	a->state = HS_PROOF;
	send_cred(c, MSG_AUTH_CHALLENGE, mine);
	free(mine);
}

static void
server_proof(struct conn *c, const struct wire_hdr *h, struct rbuf *r)
{
	struct conn_auth *a = c->auth;
	struct auth_claim cl;
	char *cred = NULL, *cause = NULL;
	uid_t uid;
	gid_t gid;

	if (!get_str(r, &cred) || cred == NULL || rbuf_end(r) < 0) {
		free(cred);
		server_fail(c, h->seq, "malformed credential");
		return;
	}
	/*
	 * A daemon's role must come from its host's address.  Only once
	 * its credential is a daemon's: the name is looked up, and an
	 * unproven peer must not make us wait on a resolver.
	 */
	if (auth_hs_server_proof(&a->hs, cred, &uid, &gid, &cause) == 0 &&
	    a->hs.them != AUTH_CMD && !from_claimed_host(c, a->hs.theirhost))
		cause = xasprintf("%s %s: the address is not that host's",
		    auth_role_name(a->hs.them), a->hs.theirhost);
	if (cause == NULL && a->check) {
		memset(&cl, 0, sizeof(cl));
		cl.kind = AUTH_PROOF;
		cl.from_role = a->hs.them;
		strcpy(cl.from_host, a->hs.theirhost);
		cl.to_role = a->hs.me;
		strcpy(cl.to_host, a->hs.myhost);
		if (a->check(c, &cl, uid, &cause) < 0 && cause == NULL)
			cause = xstrdup("not allowed");
	}
	free(cred);
	if (cause) {
		server_fail(c, h->seq, cause);
		free(cause);
		return;
	}
	c->auth_role = a->hs.them;
	snprintf(c->auth_host, sizeof(c->auth_host), "%s", a->hs.theirhost);
	c->uid = uid;
	c->gid = gid;
	c->have_cred = true;
	log_debug("%s: authenticated as %s on %s (uid %d)", conn_name(c),
	    auth_role_name(a->hs.them), a->hs.theirhost, (int)uid);
	send_cred(c, MSG_AUTH_OK, NULL);
	finish(c);
}

static void
server_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r,
    void *arg)
{
	struct conn_auth *a = c->auth;
	conn_msg_cb owner;

	if (a->state == HS_HELLO && h->type == MSG_AUTH_HELLO) {
		server_hello(c, h, r);
		return;
	}
	if (a->state == HS_PROOF && h->type == MSG_AUTH) {
		server_proof(c, h, r);
		return;
	}
	if (a->state != HS_HELLO || !a->optional) {
		char *why = xasprintf("%s %s", msg_type_name(h->type),
		    a->state == HS_HELLO ? "before authenticating" :
		    "in the middle of the handshake");

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
	struct conn_auth *a = auth_new(c, bufferevent_get_base(c->bev), me,
	    myhost);

	a->state = HS_HELLO;
	a->optional = optional;
	a->check = check;
	c->on_msg = server_msg;
}

/* The server's answer to our hello, then to our proof. */
static void
client_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r,
    void *arg)
{
	struct conn_auth *a = c->auth;
	void (*connected)(struct conn *, int, void *) = a->connected;
	struct msg_error e;
	char *cred = NULL, *proof = NULL, *cause = NULL;

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
	if (a->state == HS_OK) {
		if (h->type != MSG_AUTH_OK || rbuf_end(r) < 0) {
			client_fail(c, "it did not answer the handshake");
			return;
		}
		c->auth_role = a->hs.them;
		snprintf(c->auth_host, sizeof(c->auth_host), "%s",
		    a->hs.theirhost);
		finish(c);
		c->busy++;
		if (connected)
			connected(c, 0, c->arg);
		c->busy--;
		return;
	}
	if (h->type != MSG_AUTH_CHALLENGE || !get_str(r, &cred) ||
	    cred == NULL || rbuf_end(r) < 0) {
		free(cred);
		client_fail(c, "it did not answer the handshake");
		return;
	}
	if (auth_hs_client_challenge(&a->hs, cred, &proof, &cause) < 0) {
		free(cred);
		client_fail(c, cause);
		free(cause);
		return;
	}
	free(cred);
	a->state = HS_OK;
	send_cred(c, MSG_AUTH, proof);
	free(proof);
}

/* TCP is up: say who we are and whom we want. */
static void
client_connected(struct conn *c, int err, void *arg)
{
	struct conn_auth *a = c->auth;
	void (*connected)(struct conn *, int, void *) = a->connected;
	struct auth_hello hello;
	struct auth_hs want;
	struct wbuf w;
	char *cause = NULL;

	if (err) {
		finish(c);
		if (connected)
			connected(c, err, arg);
		return;
	}
	want = a->hs;			/* init starts from nothing */

	if (auth_hs_client_init(&a->hs, c->fd, want.me, want.myhost,
	    want.them, want.theirhost, &cause) < 0) {
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
	a->state = HS_CHALLENGE;
	c->on_msg = client_msg;
	auth_hs_hello(&a->hs, &hello);
	wbuf_init(&w);
	auth_hello_frame(&w, MSG_AUTH_HELLO, 0, &hello);
	conn_send(c, &w);
	wbuf_release(&w);
}

struct conn *
conn_connect_auth(struct event_base *base, const struct host_addr *to,
    const struct host_addr *from, conn_msg_cb on_msg, conn_close_cb on_close,
    void (*connected)(struct conn *, int, void *), void *arg,
    enum auth_role me, const char *myhost, enum auth_role them,
    const char *theirhost)
{
	struct conn *c;
	struct conn_auth *a;

	c = conn_connect(base, to, from, on_msg, on_close, client_connected,
	    arg);
	if (c == NULL)
		return NULL;
	a = auth_new(c, base, me, myhost);
	a->state = HS_CHALLENGE;
	a->hs.them = them;
	snprintf(a->hs.theirhost, sizeof(a->hs.theirhost), "%s", theirhost);
	a->connected = connected;
	return c;
}
