/* Framed connections over libevent bufferevents. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "conn.h"
#include "net.h"
#include "log.h"
#include "util.h"

static void conn_free(struct conn *);

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

static void
conn_readcb(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	c->busy++;
	while (!c->dead) {
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
		if (rc < 0) {
			log_warnx("%s: %s; closing", c->name ? c->name :
			    "connection", why);
			c->busy--;
			conn_fail(c, why);
			return;
		}
		if (rc == 0)
			break;
		p = evbuffer_pullup(in, h.len);
		rbuf_init(&r, p + WIRE_HDR_LEN, h.len - WIRE_HDR_LEN);
		c->on_msg(c, &h, &r, c->arg);
		if (!c->dead)
			evbuffer_drain(in, h.len);
	}
	c->busy--;
	if (c->dead && c->busy == 0)
		conn_free(c);
}

static void
conn_writecb(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;

	if (c->close_after_write &&
	    evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		conn_fail(c, "done");
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
	return c;
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
	if (c->dead)
		return;
	if (w->open)
		BUG("conn_send with a frame open");
	bufferevent_write(c->bev, w->data, w->len);
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
	    conn_pending_out(c) > 0) {
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

struct listener {
	struct evconnlistener *l;
	void	(*cb)(int, struct sockaddr *, socklen_t, void *);
	void	*arg;
};

static void
listener_cb(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int len, void *arg)
{
	struct listener *ctx = arg;
	int on = 1;

	/*
	 * Accepted TCP sockets need TCP_NODELAY as much as connected ones:
	 * without it mbatchd's job start, written right after the ack of a
	 * status, sits behind Nagle until sbatchd's delayed ACK (40 ms).
	 */
	if (sa->sa_family == AF_INET || sa->sa_family == AF_INET6)
		(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on,
		    sizeof(on));
	ctx->cb(fd, sa, (socklen_t)len, ctx->arg);
}

static void
listener_errcb(struct evconnlistener *l, void *arg)
{
	log_warn("accept");
}

struct listener *
listener_new(struct event_base *base, int fd,
    void (*cb)(int, struct sockaddr *, socklen_t, void *), void *arg)
{
	struct listener *ctx = xcalloc(1, sizeof(*ctx));

	ctx->cb = cb;
	ctx->arg = arg;
	ctx->l = evconnlistener_new(base, listener_cb, ctx,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, -1, fd);
	if (ctx->l == NULL)
		fatalx("evconnlistener_new failed");
	evconnlistener_set_error_cb(ctx->l, listener_errcb);
	return ctx;
}

void
listener_free(struct listener *ctx)
{
	if (ctx == NULL)
		return;
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
