/* Framed connections over libevent bufferevents. */
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "auth.h"
#include "conn.h"
#include "net.h"
#include "log.h"
#include "util.h"

static void conn_free(struct conn *);
static void conn_readcb(struct bufferevent *, void *);
static void listener_forget(struct listener *, struct conn *);

static struct ratelog rl_frame, rl_wait, rl_out, rl_room, rl_starve;

/*
 * The input charged to each peer (include/conn.h, CONN_PEER_IN_MAX): an
 * open-addressing table of the peers holding any, key 0 free.
 */
struct charge {
	uint64_t	 key;
	size_t		 bytes;
};
static struct charge	*charges;
static size_t		 charges_cap, ncharges;
static size_t		 input_total;
static TAILQ_HEAD(, conn) starving = TAILQ_HEAD_INITIALIZER(starving);
/* Freed input is given back to the system a moment later. */
#define TRIM_AFTER_BYTES	((size_t)1024 * 1024)
static struct event	*ev_trim;
static size_t		 trim_owed;	/* input freed since the last trim */

static size_t
charge_slot(uint64_t key, size_t cap)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

static struct charge *
charge_find(uint64_t key)
{
	if (charges_cap == 0)
		return NULL;
	for (size_t i = charge_slot(key, charges_cap);; i = (i + 1) &
	    (charges_cap - 1)) {
		if (charges[i].key == key)
			return &charges[i];
		if (charges[i].key == 0)
			return NULL;
	}
}

static void
charge_grow(void)
{
	struct charge *old = charges;
	size_t oldcap = charges_cap;

	charges_cap = oldcap ? oldcap * 2 : 64;
	charges = xcalloc(charges_cap, sizeof(*charges));
	for (size_t i = 0; i < oldcap; i++) {
		size_t j;

		if (old[i].key == 0)
			continue;
		for (j = charge_slot(old[i].key, charges_cap); charges[j].key;
		    j = (j + 1) & (charges_cap - 1))
			;
		charges[j] = old[i];
	}
	free(old);
}

/* Backward-shift deletion: no tombstones left behind. */
static void
charge_remove(struct charge *e)
{
	size_t i = (size_t)(e - charges), j = i;

	for (;;) {
		size_t k;

		j = (j + 1) & (charges_cap - 1);
		if (charges[j].key == 0)
			break;
		k = charge_slot(charges[j].key, charges_cap);
		/* Does j's home lie cyclically in (i, j]?  Then it stays. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		charges[i] = charges[j];
		i = j;
	}
	charges[i].key = 0;
	charges[i].bytes = 0;
	ncharges--;
}

static void
charge_add(uint64_t key, size_t add, size_t sub)
{
	struct charge *e = charge_find(key);

	if (e == NULL) {
		if (add == 0)
			return;
		if ((ncharges + 1) * 2 > charges_cap)
			charge_grow();
		size_t i = charge_slot(key, charges_cap);

		while (charges[i].key != 0)
			i = (i + 1) & (charges_cap - 1);
		e = &charges[i];
		e->key = key;
		e->bytes = 0;
		ncharges++;
	}
	e->bytes += add;
	e->bytes -= sub < e->bytes ? sub : e->bytes;
	input_total += add;
	input_total -= sub < input_total ? sub : input_total;
	if (e->bytes == 0)
		charge_remove(e);
}

size_t
conn_input_total(void)
{
	return input_total;
}

size_t
conn_input_of(const struct conn *c)
{
	const struct charge *e = charge_find(c->charge_key);

	return e ? e->bytes : 0;
}

const char *
conn_name(const struct conn *c)
{
	return c->name ? c->name : "connection";
}

static void
conn_fail(struct conn *c, const char *why)
{
	if (c->dead)
		return;
	log_debug("connection %s closed: %s", c->name ? c->name : "?", why);
	c->dead = true;
	if (c->on_close) {
		c->busy++;
		c->on_close(c, c->arg);
		c->busy--;
	}
	if (c->busy == 0)
		conn_free(c);
}

/* Output above this stops reading the peer's requests. */
static size_t
conn_pause_at(const struct conn *c)
{
	if (c->lim.max_out > 0 && c->lim.max_out < CONN_OUT_PAUSE)
		return c->lim.max_out;
	return CONN_OUT_PAUSE;
}

/*
 * The wait_ms timer runs while the peer owes us bytes: before its first
 * frame (from the connection), and in a frame (from its first byte, so
 * a byte a second does not keep it going).  It stops between frames and
 * while we do not read (the peer is waiting for us then).
 */
static void
conn_wait_arm(struct conn *c, bool restart)
{
	struct timeval tv;
	size_t avail;

	if (c->ev_wait == NULL || c->lim.wait_ms <= 0 || c->why_close)
		return;
	avail = evbuffer_get_length(bufferevent_get_input(c->bev));
	if (c->paused || (avail == 0 && c->nframes > 0)) {
		evtimer_del(c->ev_wait);
		return;
	}
	if (!restart && evtimer_pending(c->ev_wait, NULL))
		return;
	tv.tv_sec = c->lim.wait_ms / 1000;
	tv.tv_usec = (c->lim.wait_ms % 1000) * 1000;
	evtimer_add(c->ev_wait, &tv);
}

static void
conn_wait_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;

	if (c->why_close) {
		conn_fail(c, c->why_close);
		return;
	}
	log_limited(&rl_wait, "%s: no whole %s within %d ms; closing",
	    conn_name(c), c->nframes ? "message" : "first request",
	    c->lim.wait_ms);
	conn_fail(c, "timed out");
}

static struct event *
conn_timer(struct conn *c)
{
	if (c->ev_wait == NULL)
		c->ev_wait = evtimer_new(bufferevent_get_base(c->bev),
		    conn_wait_cb, c);
	if (c->ev_wait == NULL)
		fatalx("evtimer_new failed");
	return c->ev_wait;
}

/*
 * Close from the loop, not from here: a send happens deep in a handler
 * or in the middle of a walk over queued replies, which must not see the
 * connection freed under them.
 */
static void
conn_defer_close(struct conn *c, const char *why)
{
	struct timeval tv = { 0, 0 };

	c->why_close = why;
	bufferevent_disable(c->bev, EV_READ | EV_WRITE);
	evtimer_add(conn_timer(c), &tv);
}

/* After a send: close a peer over max_out, pause one over the mark. */
static void
conn_check_out(struct conn *c)
{
	size_t out;

	if (c->lim.max_out == 0 || c->dead || c->why_close)
		return;
	out = conn_pending_out(c);
	if (out > c->lim.max_out) {
		log_limited(&rl_out, "%s: %zu bytes of replies unread, over "
		    "the limit of %zu; closing", conn_name(c), out,
		    c->lim.max_out);
		conn_defer_close(c, "output over its limit");
		return;
	}
	if (out > conn_pause_at(c) && !c->paused) {
		c->paused = true;
		bufferevent_disable(c->bev, EV_READ);
		conn_wait_arm(c, false);
	}
}

/* Until it has proven who it is, a peer sends only small frames. */
static uint32_t
conn_max_frame(const struct conn *c)
{
	if (c->auth && c->lim.max_frame > CONN_AUTH_MAX_FRAME)
		return CONN_AUTH_MAX_FRAME;
	return c->lim.max_frame;
}

static uint64_t addr_key(const struct sockaddr *);

/* Proven daemons and connections we made are not charged. */
static bool
conn_exempt(const struct conn *c)
{
	if (c->owner == NULL)
		return true;
	if (c->auth_role != AUTH_NONE && c->auth_role != AUTH_CMD)
		return true;
	return c->have_cred && c->uid == geteuid();
}

/* Whom c's input is charged to: its uid once known, else its address. */
static uint64_t
conn_charge_key(const struct conn *c)
{
	if (c->have_cred)
		return (1ull << 32) | (uint32_t)c->uid;
	if (c->peerlen > 0)
		return addr_key((const struct sockaddr *)&c->peer);
	return 3ull << 32;
}

/* Read from c again unless something else holds it back. */
static void
conn_resume_read(struct conn *c)
{
	if (c->dead || c->paused || c->starved || c->close_after_write ||
	    c->why_close)
		return;
	bufferevent_enable(c->bev, EV_READ);
}

/* Input was handed on or freed: read the starved peers with room. */
static void
conn_feed_starving(void)
{
	struct conn *c, *next;

	if (input_total > CONN_TOTAL_IN_MAX / 4 * 3)
		return;
	for (c = TAILQ_FIRST(&starving); c != NULL; c = next) {
		next = TAILQ_NEXT(c, starve_entry);
		if (conn_input_of(c) > CONN_PEER_IN_MAX / 4 * 3)
			continue;
		TAILQ_REMOVE(&starving, c, starve_entry);
		c->starved = false;
		conn_resume_read(c);
	}
}

/*
 * Charge c for what its input buffer holds now, and stop reading it if
 * its peer (or everyone) is over the share.
 */
static void
conn_charge(struct conn *c)
{
	size_t now = 0, was = c->charged;
	uint64_t key = c->charge_key;

	if (!c->dead) {
		now = evbuffer_get_length(bufferevent_get_input(c->bev));
		if (now > c->peak_in)
			c->peak_in = now;
		if (conn_exempt(c))
			now = 0;
		else
			key = conn_charge_key(c);
	}
	if (key != c->charge_key && was > 0) {
		charge_add(c->charge_key, 0, was);
		was = 0;
	}
	c->charge_key = key;
	if (now > was)
		charge_add(key, now - was, 0);
	else if (now < was)
		charge_add(key, 0, was - now);
	c->charged = now;
	if (now < was || (c->starved && now == 0))
		conn_feed_starving();
	if (c->dead || c->starved || now == 0 ||
	    (conn_input_of(c) <= CONN_PEER_IN_MAX &&
	    input_total <= CONN_TOTAL_IN_MAX))
		return;
	log_limited(&rl_starve, "%s: %zu bytes of unfinished requests from "
	    "this peer (%zu from all), over its share: not read until some "
	    "of it is done", conn_name(c), conn_input_of(c), input_total);
	c->starved = true;
	TAILQ_INSERT_TAIL(&starving, c, starve_entry);
	bufferevent_disable(c->bev, EV_READ);
}

static void
trim_cb(evutil_socket_t fd, short what, void *arg)
{
	trim_owed = 0;
	(void)malloc_trim(0);
}

/* The charge of a closing c is given back, and its memory soon after. */
static void
conn_uncharge(struct conn *c)
{
	if (c->starved) {
		TAILQ_REMOVE(&starving, c, starve_entry);
		c->starved = false;
	}
	if (c->charged > 0) {
		charge_add(c->charge_key, 0, c->charged);
		c->charged = 0;
		conn_feed_starving();
	}
	trim_owed += c->peak_in;
	if (trim_owed < TRIM_AFTER_BYTES || c->bev == NULL)
		return;
	if (ev_trim == NULL)
		ev_trim = evtimer_new(bufferevent_get_base(c->bev), trim_cb,
		    NULL);
	if (ev_trim && !evtimer_pending(ev_trim, NULL)) {
		struct timeval tv = { 1, 0 };

		evtimer_add(ev_trim, &tv);
	}
}

static void
conn_readcb(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	bool progressed = false;

	c->busy++;
	while (!c->dead && !c->paused && c->why_close == NULL &&
	    !c->close_after_write) {
		size_t avail = evbuffer_get_length(in);
		unsigned char hdrbuf[WIRE_HDR_LEN];
		struct wire_hdr h;
		const char *why = NULL;
		unsigned char *p;
		struct rbuf r;
		int rc;

		if (avail < WIRE_HDR_LEN)
			break;
		evbuffer_copyout(in, hdrbuf, WIRE_HDR_LEN);
		rc = wire_parse_hdr(hdrbuf, avail, &h, &why);
		if (rc >= 0 && h.len > conn_max_frame(c)) {
			log_limited(&rl_frame, "%s: a frame of %u bytes, over "
			    "the limit of %u; closing", conn_name(c), h.len,
			    conn_max_frame(c));
			rc = -1;
			why = "frame over the limit";
		} else if (rc < 0)
			log_limited(&rl_frame, "%s: %s; closing", conn_name(c),
			    why);
		if (rc < 0) {
			c->busy--;
			conn_fail(c, why);
			return;
		}
		if (rc == 0)
			break;
		/* The whole frame is here: only now is it made contiguous. */
		p = evbuffer_pullup(in, h.len);
		rbuf_init(&r, p + WIRE_HDR_LEN, h.len - WIRE_HDR_LEN);
		c->nframes++;
		progressed = true;
		c->on_msg(c, &h, &r, c->arg);
		if (!c->dead)
			evbuffer_drain(in, h.len);
	}
	if (!c->dead) {
		conn_charge(c);
		conn_wait_arm(c, progressed);
	}
	c->busy--;
	if (c->dead && c->busy == 0)
		conn_free(c);
}

static void
conn_writecb(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;
	size_t out = evbuffer_get_length(bufferevent_get_output(bev));

	if (c->close_after_write && out == 0) {
		conn_fail(c, "done");
		return;
	}
	/* The peer read its replies: read its requests again, starting
	 * with those already here (conn_readcb may free c). */
	if (c->paused && !c->close_after_write && c->why_close == NULL &&
	    out <= conn_pause_at(c) / 2) {
		c->paused = false;
		conn_resume_read(c);
		conn_readcb(bev, c);
	}
}

static void
conn_eventcb(struct bufferevent *bev, short what, void *arg)
{
	struct conn *c = arg;

	if (c->connecting) {
		if (what & BEV_EVENT_CONNECTED) {
			c->connecting = false;
			if (c->on_connect) {
				c->busy++;
				c->on_connect(c, 0, c->arg);
				c->busy--;
				if (c->dead && c->busy == 0)
					conn_free(c);
			}
			return;
		}
		if (what & (BEV_EVENT_ERROR | BEV_EVENT_EOF)) {
			int err = EVUTIL_SOCKET_ERROR();

			c->connecting = false;
			if (c->on_connect) {
				c->busy++;
				c->on_connect(c, err ? err : ECONNREFUSED,
				    c->arg);
				c->busy--;
			}
			c->on_close = NULL;
			conn_fail(c, "connect failed");
			return;
		}
	}
	if (what & BEV_EVENT_EOF)
		conn_fail(c, "end of file");
	else if (what & BEV_EVENT_ERROR)
		conn_fail(c, strerror(EVUTIL_SOCKET_ERROR()));
}

struct conn *
conn_new(struct event_base *base, int fd, conn_msg_cb on_msg,
    conn_close_cb on_close, void *arg)
{
	struct conn *c = xcalloc(1, sizeof(*c));

	set_nonblock(fd);
	c->fd = fd;
	c->on_msg = on_msg;
	c->on_close = on_close;
	c->arg = arg;
	c->bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (c->bev == NULL)
		fatalx("bufferevent_socket_new failed");
	bufferevent_setcb(c->bev, conn_readcb, conn_writecb, conn_eventcb, c);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	c->lim.max_frame = WIRE_MAX_FRAME;
	return c;
}

void
conn_set_limits(struct conn *c, const struct conn_limits *l)
{
	c->lim = *l;
	if (c->lim.max_frame == 0 || c->lim.max_frame > WIRE_MAX_FRAME)
		c->lim.max_frame = WIRE_MAX_FRAME;
	if (c->lim.max_out > 0)
		bufferevent_setwatermark(c->bev, EV_WRITE,
		    conn_pause_at(c) / 2, 0);
	if (c->lim.wait_ms > 0) {
		(void)conn_timer(c);
		conn_wait_arm(c, c->nframes == 0);
	} else if (c->ev_wait && c->why_close == NULL)
		evtimer_del(c->ev_wait);
}

struct conn *
conn_connect(struct event_base *base, const struct host_addr *to,
    const struct host_addr *from, conn_msg_cb on_msg, conn_close_cb on_close,
    void (*connected)(struct conn *, int, void *), void *arg)
{
	struct conn *c;
	int fd, on = 1;

	fd = socket(to->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC |
	    SOCK_NONBLOCK, 0);
	if (fd < 0)
		return NULL;
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
	if (from) {
		struct host_addr f = *from;

		/* Leave from this host's address, so the peer knows us. */
		if (f.ss.ss_family == AF_INET)
			((struct sockaddr_in *)&f.ss)->sin_port = 0;
		else
			((struct sockaddr_in6 *)&f.ss)->sin6_port = 0;
		if (bind(fd, (struct sockaddr *)&f.ss, f.len) < 0) {
			close(fd);
			return NULL;
		}
	}
	c = conn_new(base, fd, on_msg, on_close, arg);
	c->connecting = true;
	c->on_connect = connected;
	memcpy(&c->peer, &to->ss, to->len);
	c->peerlen = to->len;
	if (bufferevent_socket_connect(c->bev, (const struct sockaddr *)&to->ss,
	    (int)to->len) < 0) {
		/* Failed at once: report it from the loop, not from here. */
		c->connecting = false;
		bufferevent_free(c->bev);
		free(c);
		return NULL;
	}
	return c;
}

void
conn_send(struct conn *c, const struct wbuf *w)
{
	if (c->dead || c->why_close)
		return;
	if (w->open)
		BUG("conn_send with a frame open");
	bufferevent_write(c->bev, w->data, w->len);
	conn_check_out(c);
}

/*
 * Write at once what nothing is queued before: it leaves in this turn,
 * not in the next one after the loop finds the socket writable (which
 * also costs two epoll_ctl calls).  The rest (a full socket, a peer
 * still connecting, an error) goes the usual way, which also reports
 * errors as before.
 */
void
conn_send_now(struct conn *c, const struct wbuf *w)
{
	ssize_t n;

	if (c->dead || w->open || c->connecting || c->close_after_write ||
	    c->why_close || conn_pending_out(c) > 0) {
		conn_send(c, w);
		return;
	}
	n = send(c->fd, w->data, w->len, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n < 0)
		n = 0;
	if ((size_t)n == w->len)
		return;
	if (n > 0) {
		bufferevent_write(c->bev, w->data + n, w->len - (size_t)n);
		conn_check_out(c);
		return;
	}
	conn_send(c, w);
}

size_t
conn_pending_out(const struct conn *c)
{
	return evbuffer_get_length(bufferevent_get_output(c->bev));
}

static void
conn_free(struct conn *c)
{
	conn_uncharge(c);
	if (c->owner)
		listener_forget(c->owner, c);
	if (c->ev_wait)
		event_free(c->ev_wait);
	if (c->bev)
		bufferevent_free(c->bev);
	conn_auth_free(c->auth);
	free(c->name);
	free(c);
}

void
conn_close(struct conn *c)
{
	if (c->dead)
		return;
	c->on_close = NULL;
	c->dead = true;
	if (c->busy == 0)
		conn_free(c);
}

void
conn_close_after_write(struct conn *c)
{
	if (c->dead)
		return;
	c->close_after_write = true;
	bufferevent_disable(c->bev, EV_READ);
	if (evbuffer_get_length(bufferevent_get_output(c->bev)) == 0)
		conn_fail(c, "done");
}

TAILQ_HEAD(conn_list, conn);

struct listener {
	struct evconnlistener	*l;
	listener_accept_fn	 cb;
	void			*arg;
	struct listener_limits	 lim;
	bool			 limited;
	struct conn_list	 conns;		/* oldest first */
	int			 nconns;
	struct event		*ev_resume;
	unsigned		 failed;	/* accepts failed this episode */
	unsigned		 batch;		/* accepted this loop turn */
};

/* How long a listener at the descriptor limit waits before trying again. */
#define LISTENER_PAUSE_MS	250
/*
 * Connections accepted in one go before the loop turns.  libevent
 * accepts until the backlog is empty: under a flood that is thousands,
 * while connections already open wait, and those closed to make room
 * keep their descriptors until the loop frees them.
 */
#define LISTENER_BATCH		32

static void
listener_forget(struct listener *ctx, struct conn *c)
{
	TAILQ_REMOVE(&ctx->conns, c, entry);
	ctx->nconns--;
	c->owner = NULL;
}

/* An IP address as a peer key (uids are (1 << 32) | uid). */
static uint64_t
addr_key(const struct sockaddr *sa)
{
	uint64_t k = 0xcbf29ce484222325ull;
	const uint8_t *p;

	switch (sa->sa_family) {
	case AF_INET:
		return (2ull << 32) |
		    ((const struct sockaddr_in *)sa)->sin_addr.s_addr;
	case AF_INET6:
		p = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
		for (int i = 0; i < 16; i++)
			k = (k ^ p[i]) * 0x100000001b3ull;
		return k | (1ull << 62);
	}
	return 3ull << 32;
}

/* Who a peer is, for max_per_peer: its uid, or its address. */
static uint64_t
peer_key(int fd, const struct sockaddr *sa)
{
	uid_t uid;
	gid_t gid;
	pid_t pid;

	if (sa->sa_family != AF_UNIX)
		return addr_key(sa);
	if (net_peer_cred(fd, &uid, &gid, &pid) < 0)
		return 1ull << 63;
	return (1ull << 32) | (uint32_t)uid;
}

/*
 * Has c sent nothing at all?  Not even bytes still in the socket: a
 * command sends its request as it connects, so one accepted a moment
 * ago has it waiting there, and a flood that connects again as fast as
 * its connections are closed must not make it the oldest idle one.
 */
static bool
conn_silent(struct conn *c)
{
	int n = 0;

	if (c->nframes > 0 || c->dead || c->why_close ||
	    evbuffer_get_length(bufferevent_get_input(c->bev)) > 0)
		return false;
	return ioctl(c->fd, FIONREAD, &n) == 0 && n == 0;
}

/*
 * A new connection from peer key is over a limit: close the oldest
 * connection that has sent nothing (the peer's own if that is the limit
 * it is over), or refuse.  With any, the oldest silent one of anyone: to
 * free a descriptor.
 */
static bool
listener_make_room(struct listener *ctx, uint64_t key, bool any)
{
	struct conn *c, *mine = NULL, *oldest = NULL, *victim;
	int n = 0;

	TAILQ_FOREACH(c, &ctx->conns, entry) {
		if (c->peer_key == key) {
			n++;
			if (mine == NULL && conn_silent(c))
				mine = c;
		} else if (oldest == NULL && conn_silent(c))
			oldest = c;
	}
	if (ctx->lim.max_per_peer > 0 && n >= ctx->lim.max_per_peer)
		victim = mine;
	else if (any || (ctx->lim.max_conns > 0 &&
	    ctx->nconns >= ctx->lim.max_conns))
		victim = mine ? mine : oldest;
	else
		return true;
	if (victim == NULL) {
		if (!any)
			log_limited(&rl_room, "%d connections open, %d from "
			    "this peer: refusing another", ctx->nconns, n);
		return false;
	}
	log_limited(&rl_room, "%d connections open, %d from this peer: "
	    "closing %s, which sent nothing yet, to make room",
	    ctx->nconns, n, conn_name(victim));
	conn_fail(victim, "closed to make room");
	return true;
}

static void
listener_cb(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int len, void *arg)
{
	struct listener *ctx = arg;
	struct conn *c;
	uint64_t key = 0;
	int on = 1;

	if (ctx->failed > 0) {
		log_info("accepting connections again after %u failed "
		    "attempts", ctx->failed);
		ctx->failed = 0;
	}
	if (++ctx->batch >= LISTENER_BATCH) {
		struct timeval now = { 0, 0 };

		evconnlistener_disable(ctx->l);
		evtimer_add(ctx->ev_resume, &now);
	}
	if (ctx->limited) {
		key = peer_key(fd, sa);
		if (!listener_make_room(ctx, key, false)) {
			close(fd);
			return;
		}
	}
	/*
	 * Accepted TCP sockets need TCP_NODELAY as much as connected ones:
	 * without it mbatchd's job start, written right after the ack of a
	 * status, sits behind Nagle until sbatchd's delayed ACK (40 ms).
	 */
	if (sa->sa_family == AF_INET || sa->sa_family == AF_INET6)
		(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on,
		    sizeof(on));
	c = ctx->cb(fd, sa, (socklen_t)len, ctx->arg);
	if (c == NULL || c->dead)
		return;
	c->owner = ctx;
	c->peer_key = key;
	TAILQ_INSERT_TAIL(&ctx->conns, c, entry);
	ctx->nconns++;
	if (ctx->limited)
		conn_set_limits(c, &ctx->lim.conn);
}

static void
listener_resume_cb(evutil_socket_t fd, short what, void *arg)
{
	struct listener *ctx = arg;

	ctx->batch = 0;
	evconnlistener_enable(ctx->l);
}

/*
 * accept() failed for a reason that retrying at once will not cure,
 * mostly the descriptor limit (EMFILE): libevent would call accept again
 * as soon as the loop turns, for ever.  Stop for a moment instead, free
 * a descriptor held by a peer that sent nothing, and say so once.
 */
static void
listener_errcb(struct evconnlistener *l, void *arg)
{
	struct listener *ctx = arg;
	struct timeval tv = { 0, LISTENER_PAUSE_MS * 1000 };

	if (ctx->failed++ == 0)
		log_warn("accept; pausing for %d ms at a time until it "
		    "works again", LISTENER_PAUSE_MS);
	evconnlistener_disable(l);
	evtimer_add(ctx->ev_resume, &tv);
	if (ctx->nconns > 0)
		(void)listener_make_room(ctx, 0, true);
}

struct listener *
listener_new(struct event_base *base, int fd, listener_accept_fn cb,
    void *arg)
{
	struct listener *ctx = xcalloc(1, sizeof(*ctx));

	ctx->cb = cb;
	ctx->arg = arg;
	TAILQ_INIT(&ctx->conns);
	ctx->l = evconnlistener_new(base, listener_cb, ctx,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, -1, fd);
	ctx->ev_resume = evtimer_new(base, listener_resume_cb, ctx);
	if (ctx->l == NULL || ctx->ev_resume == NULL)
		fatalx("evconnlistener_new failed");
	evconnlistener_set_error_cb(ctx->l, listener_errcb);
	return ctx;
}

void
listener_set_limits(struct listener *ctx, const struct listener_limits *l)
{
	ctx->lim = *l;
	ctx->limited = true;
}

int
listener_count(const struct listener *ctx)
{
	return ctx->nconns;
}

void
listener_free(struct listener *ctx)
{
	struct conn *c;

	if (ctx == NULL)
		return;
	while ((c = TAILQ_FIRST(&ctx->conns)) != NULL)
		listener_forget(ctx, c);
	event_free(ctx->ev_resume);
	evconnlistener_free(ctx->l);
	free(ctx);
}

int
conn_flush_now(struct conn *c, int timeout_ms)
{
	struct evbuffer *out = bufferevent_get_output(c->bev);
	uint64_t until = mono_ms() + (uint64_t)timeout_ms;

	/* The bufferevent holds its output's front; we drain it here. */
	evbuffer_unfreeze(out, 1);
	while (evbuffer_get_length(out) > 0) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLOUT };
		uint64_t now = mono_ms();

		if (evbuffer_write(out, c->fd) < 0 && errno != EAGAIN &&
		    errno != EWOULDBLOCK && errno != EINTR)
			break;
		if (evbuffer_get_length(out) == 0 || now >= until)
			break;
		(void)poll(&pfd, 1, (int)(until - now));
	}
	evbuffer_freeze(out, 1);
	return evbuffer_get_length(out) == 0 ? 0 : -1;
}
