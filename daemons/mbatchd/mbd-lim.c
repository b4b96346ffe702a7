/*
 * The load feed: mbatchd subscribes to the master LIM (on its own host)
 * and gets the whole host table each time a LIM reports.  A host whose
 * LIM is down gets no jobs; a change may let jobs start, so every update
 * asks for a scheduling pass.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "mbd.h"

static void lim_connect(void);

/* What the LIM was last told of exclusive hosts; NULL: nothing yet. */
static struct strv *excl_sent;
static bool lim_ready;		/* subscribed on the current connection */
static bool lim_fed;		/* a host table came on it */
static int64_t fed_ms;		/* when the first one came */

static void
lim_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r, void *arg)
{
	struct lim_load_list ll;
	struct lim_cluster_info ci;

	switch (h->type) {
	case MSG_LIM_LOAD_LIST:
		if (!lim_load_list_unpack(r, &ll) || rbuf_end(r) < 0) {
			lim_load_list_release(&ll);
			log_warnx("malformed load list from the LIM");
			return;
		}
		for (uint32_t i = 0; i < ll.nhosts; i++) {
			struct mhost *mh = ll.hosts[i].name ?
			    host_find(ll.hosts[i].name) : NULL;

			if (mh)
				host_load_apply(mh, &ll.hosts[i]);
		}
		lim_load_list_release(&ll);
		if (!lim_fed)
			fed_ms = (int64_t)mono_ms();
		lim_fed = true;
		mbd_sched_dirty();
		break;
	case MSG_LIM_CLUSTER_INFO:
		if (lim_cluster_info_unpack(r, &ci) && rbuf_end(r) == 0 &&
		    ci.master && strcasecmp(ci.master, mbd->host) != 0)
			log_warnx("the LIM says the master is %s, not us",
			    ci.master);
		lim_cluster_info_release(&ci);
		break;
	default:
		break;
	}
}

static void
retry_cb(evutil_socket_t fd, short ev, void *arg)
{
	lim_connect();
}

static void
retry(void)
{
	struct timeval tv = { 1, 0 };

	if (mbd->ev_lim_retry == NULL)
		mbd->ev_lim_retry = evtimer_new(mbd->base, retry_cb, NULL);
	evtimer_add(mbd->ev_lim_retry, &tv);
}

static void
lim_closed(struct conn *c, void *arg)
{
	log_warnx("lost the LIM load feed");
	mbd->lim = NULL;
	lim_ready = false;
	lim_fed = false;
	for (int i = 0; i < mbd->nhosts; i++) {
		mbd->hosts[i]->lim_up = false;
		host_refresh(mbd->hosts[i]);
	}
	retry();
}

static void
lim_connected(struct conn *c, int err, void *arg)
{
	struct wbuf w;

	if (err) {
		mbd->lim = NULL;
		retry();
		return;
	}
	lim_ready = true;
	wbuf_init(&w);
	wbuf_begin(&w, MSG_LIM_SUBSCRIBE, 1, 0);
	put_u32(&w, LIM_SUB_LOADS | LIM_SUB_MASTER);
	wbuf_end_frame(&w);
	conn_send(c, &w);
	wbuf_release(&w);
	/* A new connection, maybe a new LIM: tell it again. */
	if (excl_sent != NULL) {
		strv_release(excl_sent);
		free(excl_sent);
		excl_sent = NULL;
	}
	lim_send_exclusive();
}

void
lim_send_exclusive(void)
{
	struct strv now = STRV_INIT;
	struct wbuf w;
	bool same;

	if (mbd->lim == NULL || !lim_ready)
		return;
	for (int i = 0; i < mbd->nhosts; i++)
		if (mbd->hosts[i]->ph.exclusive)
			strv_push(&now, mbd->hosts[i]->name);
	same = excl_sent != NULL && excl_sent->n == now.n;
	for (size_t i = 0; same && i < now.n; i++)
		same = strcmp(excl_sent->v[i], now.v[i]) == 0;
	if (same) {
		strv_release(&now);
		return;
	}
	wbuf_init(&w);
	wbuf_begin(&w, MSG_LIM_EXCL_HOSTS, 0, 0);
	put_strv(&w, &now);
	wbuf_end_frame(&w);
	conn_send(mbd->lim, &w);
	wbuf_release(&w);
	if (excl_sent == NULL)
		excl_sent = xcalloc(1, sizeof(*excl_sent));
	strv_release(excl_sent);
	*excl_sent = now;
}

static void
lim_connect(void)
{
	struct host_addr to, from;

	if (net_resolve(mbd->host, mbd->conf.lsf.lim_port, &to) < 0 ||
	    net_resolve(mbd->host, 0, &from) < 0) {
		retry();
		return;
	}
	mbd->lim = conn_connect_auth(mbd->base, &to, &from, lim_msg,
	    lim_closed, lim_connected, NULL, AUTH_MBD, mbd->host, AUTH_LIM,
	    mbd->host);
	if (mbd->lim == NULL) {
		retry();
		return;
	}
	mbd->lim->name = xstrdup("LIM");
}

/* Whether lim_up says what the LIMs say, or only that the feed is down. */
bool
lim_feed_ok(void)
{
	return lim_fed;
}

int64_t
lim_feed_since(void)
{
	return lim_fed ? fed_ms : 0;
}

void
lim_feed_start(void)
{
	lim_connect();
}
