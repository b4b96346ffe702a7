/* Frame and field encoding; see wire.h for the format. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "proto.h"
#include "util.h"
#include "wire.h"

void
wbuf_init(struct wbuf *w)
{
	memset(w, 0, sizeof(*w));
}

void
wbuf_release(struct wbuf *w)
{
	free(w->data);
	wbuf_init(w);
}

void
wbuf_reset(struct wbuf *w)
{
	w->len = 0;
	w->frame = 0;
	w->open = false;
}

static void
wbuf_grow(struct wbuf *w, size_t n)
{
	if (w->len + n <= w->cap)
		return;
	if (w->cap < 256)
		w->cap = 256;
	while (w->cap < w->len + n)
		w->cap *= 2;
	w->data = xrealloc(w->data, w->cap);
}

static void
be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

void
wbuf_begin(struct wbuf *w, uint16_t type, uint32_t seq, uint32_t flags)
{
	if (w->open)
		BUG("wbuf_begin with a frame open");
	wbuf_grow(w, WIRE_HDR_LEN);
	w->frame = w->len;
	be32(w->data + w->len, 0);
	be16(w->data + w->len + 4, type);
	be16(w->data + w->len + 6, PROTO_VERSION);
	be32(w->data + w->len + 8, seq);
	be32(w->data + w->len + 12, flags);
	w->len += WIRE_HDR_LEN;
	w->open = true;
}

void
wbuf_end_frame(struct wbuf *w)
{
	size_t n;

	if (!w->open)
		BUG("wbuf_end_frame without a frame");
	n = w->len - w->frame;
	if (n > WIRE_MAX_FRAME)
		BUG("frame of %zu bytes is over the limit", n);
	be32(w->data + w->frame, (uint32_t)n);
	w->open = false;
}

void
wbuf_append(struct wbuf *w, const struct wbuf *src)
{
	if (w->open || src->open)
		BUG("wbuf_append with a frame open");
	if (src->len == 0)
		return;
	wbuf_grow(w, src->len);
	memcpy(w->data + w->len, src->data, src->len);
	w->len += src->len;
}

size_t
wbuf_frame_len(const struct wbuf *w)
{
	return w->open ? w->len - w->frame : 0;
}

void
put_u8(struct wbuf *w, uint8_t v)
{
	wbuf_grow(w, 1);
	w->data[w->len++] = v;
}

void
put_u16(struct wbuf *w, uint16_t v)
{
	wbuf_grow(w, 2);
	be16(w->data + w->len, v);
	w->len += 2;
}

void
put_u32(struct wbuf *w, uint32_t v)
{
	wbuf_grow(w, 4);
	be32(w->data + w->len, v);
	w->len += 4;
}

void
put_u64(struct wbuf *w, uint64_t v)
{
	put_u32(w, (uint32_t)(v >> 32));
	put_u32(w, (uint32_t)v);
}

void
put_i32(struct wbuf *w, int32_t v)
{
	put_u32(w, (uint32_t)v);
}

void
put_i64(struct wbuf *w, int64_t v)
{
	put_u64(w, (uint64_t)v);
}

void
put_bool(struct wbuf *w, bool v)
{
	put_u8(w, v ? 1 : 0);
}

void
put_double(struct wbuf *w, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	put_u64(w, u);
}

void
put_float(struct wbuf *w, float v)
{
	uint32_t u;

	memcpy(&u, &v, sizeof(u));
	put_u32(w, u);
}

void
put_bytes(struct wbuf *w, const void *p, uint32_t n)
{
	put_u32(w, n);
	wbuf_grow(w, n);
	if (n)
		memcpy(w->data + w->len, p, n);
	w->len += n;
}

void
put_str(struct wbuf *w, const char *s)
{
	size_t n;

	if (s == NULL) {
		put_u32(w, 0xffffffffu);
		return;
	}
	n = strlen(s);
	if (n > WIRE_MAX_STR)
		BUG("string of %zu bytes is over the wire limit", n);
	put_bytes(w, s, (uint32_t)n);
}

void
put_strv(struct wbuf *w, const struct strv *sv)
{
	put_u32(w, (uint32_t)sv->n);
	for (size_t i = 0; i < sv->n; i++)
		put_str(w, sv->v[i]);
}

/* reader */

void
rbuf_init(struct rbuf *r, const void *body, size_t len)
{
	r->p = body;
	r->len = len;
	r->off = 0;
	r->err = false;
}

size_t
rbuf_left(const struct rbuf *r)
{
	return r->err ? 0 : r->len - r->off;
}

static const uint8_t *
take(struct rbuf *r, size_t n)
{
	const uint8_t *p;

	if (r->err || r->len - r->off < n) {
		r->err = true;
		return NULL;
	}
	p = r->p + r->off;
	r->off += n;
	return p;
}

bool
get_u8(struct rbuf *r, uint8_t *v)
{
	const uint8_t *p = take(r, 1);

	*v = p ? p[0] : 0;
	return p != NULL;
}

bool
get_u16(struct rbuf *r, uint16_t *v)
{
	const uint8_t *p = take(r, 2);

	*v = p ? rd16(p) : 0;
	return p != NULL;
}

bool
get_u32(struct rbuf *r, uint32_t *v)
{
	const uint8_t *p = take(r, 4);

	*v = p ? rd32(p) : 0;
	return p != NULL;
}

bool
get_u64(struct rbuf *r, uint64_t *v)
{
	const uint8_t *p = take(r, 8);

	*v = p ? (uint64_t)rd32(p) << 32 | rd32(p + 4) : 0;
	return p != NULL;
}

bool
get_i32(struct rbuf *r, int32_t *v)
{
	uint32_t u;
	bool ok = get_u32(r, &u);

	*v = (int32_t)u;
	return ok;
}

bool
get_int(struct rbuf *r, int *v)
{
	int32_t x;
	bool ok = get_i32(r, &x);

	*v = x;
	return ok;
}

bool
get_i64(struct rbuf *r, int64_t *v)
{
	uint64_t u;
	bool ok = get_u64(r, &u);

	*v = (int64_t)u;
	return ok;
}

bool
get_bool(struct rbuf *r, bool *v)
{
	uint8_t u;
	bool ok = get_u8(r, &u);

	if (ok && u > 1) {
		r->err = true;
		ok = false;
	}
	*v = u == 1;
	return ok;
}

bool
get_double(struct rbuf *r, double *v)
{
	uint64_t u;
	bool ok = get_u64(r, &u);

	memcpy(v, &u, sizeof(*v));
	return ok;
}

bool
get_float(struct rbuf *r, float *v)
{
	uint32_t u;
	bool ok = get_u32(r, &u);

	memcpy(v, &u, sizeof(*v));
	return ok;
}

bool
get_bytes(struct rbuf *r, void **out, uint32_t *n)
{
	uint32_t len;
	const uint8_t *p;

	*out = NULL;
	*n = 0;
	if (!get_u32(r, &len))
		return false;
	if (len > WIRE_MAX_STR) {
		r->err = true;
		return false;
	}
	if ((p = take(r, len)) == NULL)
		return false;
	*out = xmalloc(len + 1);
	memcpy(*out, p, len);
	((char *)*out)[len] = '\0';
	*n = len;
	return true;
}

bool
get_str(struct rbuf *r, char **out)
{
	uint32_t len;
	const uint8_t *p;

	*out = NULL;
	if (!get_u32(r, &len))
		return false;
	if (len == 0xffffffffu)
		return true;
	if (len > WIRE_MAX_STR) {
		r->err = true;
		return false;
	}
	if ((p = take(r, len)) == NULL)
		return false;
	if (memchr(p, '\0', len) != NULL) {
		r->err = true;
		return false;
	}
	*out = xstrndup((const char *)p, len);
	return true;
}

bool
get_count(struct rbuf *r, uint32_t *n, size_t min_item)
{
	if (!get_u32(r, n))
		return false;
	if (min_item == 0)
		min_item = 1;
	if (*n > rbuf_left(r) / min_item) {
		r->err = true;
		*n = 0;
		return false;
	}
	return true;
}

bool
get_strv(struct rbuf *r, struct strv *sv)
{
	uint32_t n;

	if (!get_count(r, &n, 4))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		char *s;

		if (!get_str(r, &s))
			return false;
		if (s == NULL) {
			/* A list holds strings; a NULL in it is malformed. */
			r->err = true;
			return false;
		}
		strv_push_nodup(sv, s);
	}
	return true;
}

int
rbuf_end(struct rbuf *r)
{
	if (r->err || r->off != r->len) {
		r->err = true;
		return -1;
	}
	return 0;
}

/* framing */

int
wire_parse_hdr(const void *buf, size_t avail, struct wire_hdr *h,
    const char **why)
{
	const uint8_t *p = buf;

	if (avail < WIRE_HDR_LEN)
		return 0;
	h->len = rd32(p);
	h->type = rd16(p + 4);
	h->version = rd16(p + 6);
	h->seq = rd32(p + 8);
	h->flags = rd32(p + 12);
	if (h->len < WIRE_HDR_LEN || h->len > WIRE_MAX_FRAME) {
		*why = "bad frame length";
		return -1;
	}
	if (h->version != PROTO_VERSION) {
		*why = "protocol version mismatch";
		return -1;
	}
	return avail >= h->len ? 1 : 0;
}

/*
 * MSG_NOSIGNAL: a peer gone (mbatchd restarting) is an error to report,
 * not a SIGPIPE that kills a command without a word.
 */
int
wire_send(int fd, const struct wbuf *w)
{
	const uint8_t *p = w->data;
	size_t n = w->len;

	if (w->open)
		BUG("wire_send with a frame open");
	while (n > 0) {
		ssize_t sent = send(fd, p, n, MSG_NOSIGNAL);

		if (sent < 0 && errno == ENOTSOCK)
			return write_all(fd, p, n);
		if (sent < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += sent;
		n -= (size_t)sent;
	}
	return 0;
}

/* timeout_ms is the longest silence: a long answer that keeps coming
 * is waited for however long it takes. */
static int
read_full(int fd, uint8_t *p, size_t n, int timeout_ms)
{
	uint64_t deadline = timeout_ms < 0 ? 0 : mono_ms() + (uint64_t)timeout_ms;

	while (n > 0) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int wait = -1;
		ssize_t got;

		if (timeout_ms >= 0) {
			uint64_t now = mono_ms();

			if (now >= deadline) {
				errno = ETIMEDOUT;
				return -1;
			}
			wait = (int)(deadline - now);
		}
		if (poll(&pfd, 1, wait) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (pfd.revents == 0)
			continue;
		got = read(fd, p, n);
		if (got < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		if (got == 0) {
			errno = ECONNRESET;
			return -1;
		}
		p += got;
		n -= (size_t)got;
		if (timeout_ms >= 0)
			deadline = mono_ms() + (uint64_t)timeout_ms;
	}
	return 0;
}

int
wire_recv(int fd, struct wire_hdr *h, uint8_t **body, int timeout_ms)
{
	return wire_recv_max(fd, h, body, timeout_ms, WIRE_MAX_FRAME);
}

int
wire_recv_max(int fd, struct wire_hdr *h, uint8_t **body, int timeout_ms,
    uint32_t max)
{
	uint8_t hdr[WIRE_HDR_LEN];
	const char *why;
	size_t blen;

	*body = NULL;
	if (read_full(fd, hdr, sizeof(hdr), timeout_ms) < 0)
		return -1;
	if (wire_parse_hdr(hdr, sizeof(hdr), h, &why) < 0) {
		errno = EPROTO;
		return -1;
	}
	if (h->len > max) {
		errno = EMSGSIZE;
		return -1;
	}
	blen = h->len - WIRE_HDR_LEN;
	*body = xmalloc(blen + 1);
	if (read_full(fd, *body, blen, timeout_ms) < 0) {
		free(*body);
		*body = NULL;
		return -1;
	}
	return 0;
}
