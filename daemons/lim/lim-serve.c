/*
 * Requests to a LIM.  One dispatch switch: reports and probes from other
 * LIMs, queries from commands, subscriptions from mbatchd and sbatchd.
 * Load queries go to the master; another LIM answers with MSG_REDIRECT
 * naming it.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lim.h"
#include "log.h"

static void
reply(struct conn *c, struct wbuf *w)
{
	conn_send(c, w);
	wbuf_release(w);
}

void
serve_send_cluster_info(struct conn *c, uint32_t seq)
{
	struct lim_cluster_info ci;
	struct wbuf w;
	int nservers = 0;

	memset(&ci, 0, sizeof(ci));
	ci.cluster = lim->conf.cluster.name;
	ci.master = lim->master;
	ci.product = LSF_PRODUCT_STR;
	ci.admins = lim->conf.cluster.admins;
	ci.nhosts = lim->conf.cluster.nhosts;
	for (int i = 0; i < lim->conf.cluster.nhosts; i++)
		if (lim->conf.cluster.hosts[i].server)
			nservers++;
	ci.nservers = nservers;
	wbuf_init(&w);
	lim_cluster_info_frame(&w, MSG_LIM_CLUSTER_INFO, seq, &ci);
	reply(c, &w);
}

static void
send_load_list(struct conn *c, uint32_t seq, const struct strv *names)
{
	struct lim_load_list l;
	struct wbuf w;

	master_fill_load_list(&l, names);
	wbuf_init(&w);
	lim_load_list_frame(&w, MSG_LIM_LOAD_LIST, seq, &l);
	free(l.hosts);
	reply(c, &w);
}

static void
send_redirect(struct conn *c, uint32_t seq)
{
	struct wbuf w;

	wbuf_init(&w);
	if (lim->master == NULL) {
		msg_put_error(&w, seq, LSBE_NOLSF, NULL,
		    "the master LIM is not known yet");
	} else {
		wbuf_begin(&w, MSG_REDIRECT, seq, 0);
		put_str(&w, lim->master);
		wbuf_end_frame(&w);
	}
	reply(c, &w);
}

static void
send_conf(struct conn *c, uint32_t seq)
{
	struct kv_list kv;
	struct wbuf w;

	memset(&kv, 0, sizeof(kv));
	/* Each key once, with the value that counts (the last). */
	for (size_t i = 0; i < lim->conf.lsf.keys.n; i++)
		if (!strv_contains(&kv.keys, lim->conf.lsf.keys.v[i]))
			kv_add(&kv, lim->conf.lsf.keys.v[i], lsf_conf_get(
			    &lim->conf.lsf, lim->conf.lsf.keys.v[i]));
	/* Keys workflow tools read, whether lsf.conf sets them or not. */
	if (lsf_conf_get(&lim->conf.lsf, "LSF_ENVDIR") == NULL)
		kv_add(&kv, "LSF_ENVDIR", lim->conf.lsf.envdir);
	if (lsf_conf_get(&lim->conf.lsf, "LSF_CONFDIR") == NULL)
		kv_add(&kv, "LSF_CONFDIR", lim->conf.lsf.confdir);
	if (lsf_conf_get(&lim->conf.lsf, "LSB_SHAREDIR") == NULL &&
	    lim->conf.lsf.sharedir)
		kv_add(&kv, "LSB_SHAREDIR", lim->conf.lsf.sharedir);
	if (lsf_conf_get(&lim->conf.lsf, "LSF_UNIT_FOR_LIMITS") == NULL)
		kv_add(&kv, "LSF_UNIT_FOR_LIMITS", lim->conf.lsf.unit_for_limits);
	wbuf_init(&w);
	kv_list_frame(&w, MSG_LIM_CONF_LIST, seq, &kv);
	kv_list_release(&kv);
	reply(c, &w);
}

static void
bad_request(struct conn *c, uint32_t seq, const char *what)
{
	struct wbuf w;

	log_warnx("%s: malformed %s; closing", c->name, what);
	wbuf_init(&w);
	msg_put_error(&w, seq, LSBE_PROTOCOL, NULL, what);
	reply(c, &w);
	conn_close_after_write(c);
}

/* Load reports only from a LIM that proved to be the host it reports
 * for; the exclusive hosts only from mbatchd.  want names the daemon. */
static void
refuse(struct conn *c, uint32_t seq, const char *what, const char *host,
    const char *want)
{
	struct wbuf w;

	if (c->auth_role == AUTH_LIM && strcmp(want, "LIM") == 0)
		log_warnx("%s: %s for %s refused: it authenticated as "
		    "another host", c->name, what, host ? host : "?");
	else
		log_warnx("%s: %s for %s refused: not an authenticated %s",
		    c->name, what, host ? host : "?", want);
	wbuf_init(&w);
	msg_put_error(&w, seq, LSBE_PERMISSION, NULL, what);
	reply(c, &w);
	conn_close_after_write(c);
}

static void
serve_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r,
    void *arg)
{
	struct lim_host rep;
	struct strv names = STRV_INIT;
	struct lim_probe_reply pr;
	struct wbuf w;
	char *who = NULL;
	uint32_t flags;

	switch (h->type) {
	case MSG_PING:
		wbuf_init(&w);
		msg_put_empty(&w, MSG_OK, h->seq);
		reply(c, &w);
		break;
	case MSG_LIM_PROBE:
		if (!get_str(r, &who) || rbuf_end(r) < 0) {
			free(who);
			bad_request(c, h->seq, "probe");
			break;
		}
		log_debug("probed by %s", who ? who : "?");
		free(who);
		if (lim->resigned) {
			/* Not a candidate while our sbatchd is gone: the
			 * prober goes on down the list. */
			wbuf_init(&w);
			msg_put_error(&w, h->seq, LSBE_NOLSF, NULL,
			    "not standing for master: its sbatchd is down");
			reply(c, &w);
			break;
		}
		pr.host = lim->host;
		pr.master = lim->master;
		wbuf_init(&w);
		lim_probe_reply_frame(&w, MSG_LIM_PROBE_REPLY, h->seq, &pr);
		reply(c, &w);
		break;
	case MSG_LIM_REPORT:
		if (!lim_host_unpack(r, &rep) || rbuf_end(r) < 0) {
			lim_host_release(&rep);
			bad_request(c, h->seq, "load report");
			break;
		}
		if (c->auth_role != AUTH_LIM || rep.name == NULL ||
		    strcasecmp(rep.name, c->auth_host) != 0) {
			refuse(c, h->seq, "load report", rep.name, "LIM");
			lim_host_release(&rep);
			break;
		}
		if (lim->is_master)
			master_report(&rep, c);
		else
			send_redirect(c, h->seq);
		lim_host_release(&rep);
		break;
	case MSG_LIM_LOAD_QUERY:
		if (!get_strv(r, &names) || rbuf_end(r) < 0) {
			strv_release(&names);
			bad_request(c, h->seq, "load query");
			break;
		}
		if (lim->is_master)
			send_load_list(c, h->seq, &names);
		else
			send_redirect(c, h->seq);
		strv_release(&names);
		break;
	case MSG_LIM_CLUSTER_QUERY:
		if (rbuf_end(r) < 0) {
			bad_request(c, h->seq, "cluster query");
			break;
		}
		serve_send_cluster_info(c, h->seq);
		break;
	case MSG_LIM_SUBSCRIBE:
		if (!get_u32(r, &flags) || rbuf_end(r) < 0) {
			bad_request(c, h->seq, "subscription");
			break;
		}
		if (flags & LIM_SUB_MASTER) {
			lim->watchers = xrealloc(lim->watchers,
			    sizeof(*lim->watchers) * (size_t)(lim->nwatchers + 1));
			lim->watchers[lim->nwatchers++] = c;
			serve_send_cluster_info(c, h->seq);
		}
		if (flags & LIM_SUB_OWN) {
			lim->owners = xrealloc(lim->owners,
			    sizeof(*lim->owners) * (size_t)(lim->nowners + 1));
			lim->owners[lim->nowners++] = c;
			wbuf_init(&w);
			lim_host_frame(&w, MSG_LIM_HOST_LOAD, h->seq, &lim->me);
			reply(c, &w);
			if (c->auth_role == AUTH_SBD)
				elect_sbd_up();
		}
		if (flags & LIM_SUB_LOADS) {
			lim->subs = xrealloc(lim->subs,
			    sizeof(*lim->subs) * (size_t)(lim->nsubs + 1));
			lim->subs[lim->nsubs++] = c;
			if (lim->is_master)
				send_load_list(c, h->seq, NULL);
		}
		break;
	case MSG_LIM_CONF_QUERY:
		send_conf(c, h->seq);
		break;
	case MSG_LIM_EXCL_HOSTS:
		if (!get_strv(r, &names) || rbuf_end(r) < 0) {
			strv_release(&names);
			bad_request(c, h->seq, "exclusive hosts");
			break;
		}
		if (c->auth_role != AUTH_MBD) {
			refuse(c, h->seq, "exclusive hosts", NULL, "mbatchd");
			strv_release(&names);
			break;
		}
		strv_release(&lim->excl_hosts);
		lim->excl_hosts = names;
		break;
	default:
		log_warnx("%s: unexpected %s", c->name, msg_type_name(h->type));
		wbuf_init(&w);
		msg_put_error(&w, h->seq, LSBE_PROTOCOL, NULL,
		    "unexpected message");
		reply(c, &w);
		break;
	}
}

/*
 * sbatchd checks its jobs against its own host's load: it gets each
 * sample as it is taken, not the master's copy an exchange later.
 */
void
serve_push_own(void)
{
	struct wbuf w;

	lim->own_push_ms = mono_ms();
	if (lim->nowners == 0)
		return;
	wbuf_init(&w);
	lim_host_frame(&w, MSG_LIM_HOST_LOAD, 0, &lim->me);
	for (int i = 0; i < lim->nowners; i++)
		conn_send(lim->owners[i], &w);
	wbuf_release(&w);
}

static void
serve_closed(struct conn *c, void *arg)
{
	master_conn_closed(c);
}

struct conn *
serve_accept(int fd, struct sockaddr *sa, socklen_t len, void *arg)
{
	struct conn *c = conn_new(lim->base, fd, serve_msg, serve_closed, NULL);

	memcpy(&c->peer, sa, len);
	c->peerlen = len;
	c->name = xstrdup(net_addr_str(sa, len));
	conn_auth_server(c, AUTH_LIM, lim->host, true, NULL);
	return c;
}
