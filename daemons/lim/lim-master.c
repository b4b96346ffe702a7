/*
 * The master LIM's table of hosts: one entry per lsf.cluster host,
 * refreshed by each LIM's reports, and pushed to subscribers (mbatchd)
 * whenever something changed.  A host is unavailable until it reports,
 * when its report connection closes, or when it has been silent for
 * HOST_INACTIVITY_LIMIT exchange intervals.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lim.h"
#include "log.h"

#define PUSH_DELAY_MS	20	/* gather reports arriving together */

static void
entry_unavail(struct lim_entry *e)
{
	e->reported = false;
	e->info.status = LIM_UNAVAIL;
	strv_release(&e->info.ext);
	e->conn = NULL;
}

void
master_init(void)
{
	if (lim->hosts == NULL) {
		lim->nhosts = lim->conf.cluster.nhosts;
		lim->hosts = xcalloc((size_t)lim->nhosts, sizeof(*lim->hosts));
		for (int i = 0; i < lim->nhosts; i++) {
			const struct cluster_host *ch =
			    &lim->conf.cluster.hosts[i];
			struct lim_entry *e = &lim->hosts[i];

			e->name = xstrdup(ch->name);
			e->server = ch->server;
			e->info.name = xstrdup(ch->name);
			e->info.server = ch->server;
			e->info.type = xstrdup(ch->type ? ch->type : "!");
			e->info.model = xstrdup(ch->model ? ch->model : "!");
			e->info.cpuf = 1.0f;
			/* The model's CPU factor, until the host reports. */
			for (int m = 0; m < lim->conf.shared.nmodels; m++)
				if (ch->model && strcasecmp(ch->model,
				    lim->conf.shared.models[m].name) == 0)
					e->info.cpuf =
					    lim->conf.shared.models[m].cpuf;
			strv_copy(&e->info.resources, &ch->resources);
		}
	}
	for (int i = 0; i < lim->nhosts; i++)
		entry_unavail(&lim->hosts[i]);
}

struct lim_entry *
master_find(const char *name)
{
	for (int i = 0; i < lim->nhosts; i++)
		if (strcasecmp(lim->hosts[i].name, name) == 0)
			return &lim->hosts[i];
	return NULL;
}

static void
copy_host(struct lim_host *dst, const struct lim_host *src)
{
	char *name = dst->name;

	free(dst->type);
	free(dst->model);
	strv_release(&dst->resources);
	strv_release(&dst->ext);
	*dst = *src;
	dst->name = name;
	dst->type = xstrdup(src->type ? src->type : "");
	dst->model = xstrdup(src->model ? src->model : "");
	memset(&dst->resources, 0, sizeof(dst->resources));
	strv_copy(&dst->resources, &src->resources);
	memset(&dst->ext, 0, sizeof(dst->ext));
	strv_copy(&dst->ext, &src->ext);
}

/* A report from a LIM (c NULL: our own sample). */
void
master_report(const struct lim_host *rep, struct conn *c)
{
	struct lim_entry *e = rep->name ? master_find(rep->name) : NULL;
	bool was_up;

	if (e == NULL) {
		log_warnx("load report from unknown host %s",
		    rep->name ? rep->name : "(none)");
		return;
	}
	if (c) {
		struct host_addr a;

		/* A host reports for itself only: check where it came from. */
		if (net_resolve(e->name, 0, &a) < 0 ||
		    !net_same_ip((struct sockaddr *)&a.ss,
		    (struct sockaddr *)&c->peer)) {
			log_warnx("load report for %s from %s refused", e->name,
			    net_addr_str((struct sockaddr *)&c->peer,
			    c->peerlen));
			return;
		}
	}
	was_up = e->reported;
	copy_host(&e->info, rep);
	e->info.status &= ~LIM_UNAVAIL;
	e->reported = true;
	e->last_ms = mono_ms();
	if (c)
		e->conn = c;
	if (!was_up)
		log_info("host %s is up", e->name);
	master_schedule_push();
}

void
master_conn_closed(struct conn *c)
{
	for (int i = 0; i < lim->nhosts; i++) {
		struct lim_entry *e = &lim->hosts[i];

		if (e->conn == c) {
			log_info("host %s is unavailable (connection closed)",
			    e->name);
			entry_unavail(e);
			master_schedule_push();
		}
	}
	master_remove_sub(c);
}

void
master_check_timeouts(void)
{
	uint64_t now = mono_ms();
	uint64_t limit = (uint64_t)(lim->exinterval * 1000.0 *
	    (lim->conf.cluster.host_inactivity_limit > 0 ?
	    lim->conf.cluster.host_inactivity_limit : 5));

	for (int i = 0; i < lim->nhosts; i++) {
		struct lim_entry *e = &lim->hosts[i];

		if (e->reported && strcasecmp(e->name, lim->host) != 0 &&
		    now - e->last_ms > limit) {
			log_info("host %s is unavailable (silent for %llu ms)",
			    e->name, (unsigned long long)(now - e->last_ms));
			entry_unavail(e);
			master_schedule_push();
		}
	}
}

void
master_fill_load_list(struct lim_load_list *l, const struct strv *names)
{
	memset(l, 0, sizeof(*l));
	l->master = lim->master;
	l->hosts = xcalloc((size_t)lim->nhosts, sizeof(*l->hosts));
	for (int i = 0; i < lim->nhosts; i++) {
		if (names && names->n > 0) {
			bool want = false;

			for (size_t k = 0; k < names->n; k++)
				if (strcasecmp(names->v[k], lim->hosts[i].name)
				    == 0)
					want = true;
			if (!want)
				continue;
		}
		/* Shallow copies: the caller only packs and frees the array. */
		l->hosts[l->nhosts] = lim->hosts[i].info;
		/* A host running an exclusive job is lockU, as in LSF; the
		 * extra bit tells mbatchd that no one locked it. */
		if (strv_contains(&lim->excl_hosts, lim->hosts[i].name) &&
		    !(l->hosts[l->nhosts].status & (LIM_UNAVAIL | LIM_LOCKU)))
			l->hosts[l->nhosts].status |= LIM_LOCKU | LIM_EXCL_LOCK;
		l->nhosts++;
	}
}

static void
push_cb(evutil_socket_t fd, short ev, void *arg)
{
	struct lim_load_list l;
	struct wbuf w;

	lim->push_pending = false;
	if (lim->nsubs == 0 || !lim->is_master)
		return;
	master_fill_load_list(&l, NULL);
	wbuf_init(&w);
	lim_load_list_frame(&w, MSG_LIM_LOAD_LIST, 0, &l);
	for (int i = 0; i < lim->nsubs; i++)
		conn_send(lim->subs[i], &w);
	wbuf_release(&w);
	free(l.hosts);
}

void
master_schedule_push(void)
{
	struct timeval tv = { 0, PUSH_DELAY_MS * 1000 };

	if (lim->push_pending || lim->nsubs == 0)
		return;
	if (lim->ev_push == NULL)
		lim->ev_push = evtimer_new(lim->base, push_cb, NULL);
	lim->push_pending = true;
	evtimer_add(lim->ev_push, &tv);
}

static void
remove_from(struct conn ***v, int *n, struct conn *c)
{
	for (int i = 0; i < *n; i++) {
		if ((*v)[i] == c) {
			(*v)[i] = (*v)[--*n];
			i--;
		}
	}
}

void
master_remove_sub(struct conn *c)
{
	remove_from(&lim->subs, &lim->nsubs, c);
	remove_from(&lim->watchers, &lim->nwatchers, c);
	for (int i = 0; i < lim->nowners; i++)
		if (lim->owners[i] == c && c->auth_role == AUTH_SBD) {
			remove_from(&lim->owners, &lim->nowners, c);
			elect_sbd_down();
			return;
		}
	remove_from(&lim->owners, &lim->nowners, c);
}
