/*
 * badmin reconfig: read the configuration again and apply it to the
 * running mbatchd without touching a job.
 *
 * Jobs point to their struct mqueue and to the struct mhost they run on,
 * so those are updated in place, never freed: a queue or host that stays
 * takes its new section; a new one is appended; a queue that is gone
 * hands its jobs to lost_and_found and leaves the tables; a host that is
 * gone stays in its slot (indices never move), unusable.  Whether a host
 * or queue was closed or inactivated by an administrator is not
 * configuration and is kept.
 *
 * Every pointer into the old struct lsf_config is renewed here, in one
 * place, before it is freed: anything that keeps such a pointer must be
 * refreshed by reconfig_apply (for a queue or host, by queue_configure or
 * host_configure, which reconfig runs again).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "mbd.h"

/* How many problems the refusal names. */
#define CAUSE_MAX	5

/* Queues removed by a reconfig: unlinked but kept, in case anything
 * still holds a pointer. */
static struct mqueue **retired;
static int nretired;

int
reconfig_check(struct lsf_config *nc, char **cause)
{
	struct strbuf sb = STRBUF_INIT;
	struct conf_diag d;
	int n = 0, rc;

	*cause = NULL;
	conf_diag_init(&d);
	rc = config_load(nc, mbd->opts.envdir, CONF_ALL, &d);
	if (rc < 0) {
		for (size_t i = 0; i < d.msgs.n && n < CAUSE_MAX; i++) {
			if (conf_diag_is_warning(d.msgs.v[i]))
				continue;
			sb_addf(&sb, "%s%s", n ? "\n" : "", d.msgs.v[i]);
			n++;
		}
		if (d.nerrors > n)
			sb_addf(&sb, "\n(%d more)", d.nerrors - n);
	} else if (!streq(nc->cluster.name, mbd->cluster)) {
		sb_addf(&sb, "the cluster name changed from %s to %s: that "
		    "needs the cluster to be restarted", mbd->cluster,
		    nc->cluster.name ? nc->cluster.name : "(none)");
		rc = -1;
	} else if (config_cluster_host(nc, mbd->host) == NULL) {
		sb_addf(&sb, "the master host %s is no longer in %s",
		    mbd->host, nc->cluster.path ? nc->cluster.path :
		    "lsf.cluster");
		rc = -1;
	}
	/* Accepted: what it warns about goes to the log (badmin reconfig
	 * has shown it already). */
	for (size_t i = 0; rc == 0 && i < d.msgs.n; i++)
		log_warnx("reconfig: %s", d.msgs.v[i]);
	conf_diag_release(&d);
	if (rc < 0) {
		config_release(nc);
		*cause = sb_detach(&sb);
		return -1;
	}
	sb_release(&sb);
	return 0;
}

static void
hosts_apply(void)
{
	const struct cluster_conf *cc = &mbd->conf.cluster;
	int nold = mbd->nhosts;
	bool *seen = xcalloc((size_t)nold + 1, sizeof(bool));

	for (int i = 0; i < cc->nhosts; i++) {
		const struct cluster_host *ch = &cc->hosts[i];
		struct mhost *h;

		if (!ch->server)
			continue;
		h = host_find(ch->name);
		if (h == NULL) {
			h = host_add(ch);
			host_resolve(h);
			log_info("reconfig: host %s added", h->name);
			continue;
		}
		if (h->index < nold)
			seen[h->index] = true;
		if (h->removed)
			log_info("reconfig: host %s is back", h->name);
		h->removed = false;
		/* The hosts file may have changed its address. */
		host_resolve(h);
		host_configure(h, ch);
	}
	for (int i = 0; i < nold; i++) {
		struct mhost *h = mbd->hosts[i];

		if (seen[i])
			continue;
		if (!h->removed)
			log_info("reconfig: host %s removed; %d slots of its "
			    "jobs still count", h->name, h->ph.used_slots);
		h->removed = true;
		h->cconf = NULL;
		h->bconf = NULL;
		host_refresh(h);
	}
	free(seen);
}

/* Every job of q (pending, started or ended) moves to lost_and_found. */
static void
queue_empty(struct mqueue *q, struct mqueue *lf)
{
	int n = 0;

	for (struct job *j = mbd->jobs_head; j; j = j->next)
		if (j->queue == q) {
			job_switch(j, lf);
			n++;
		}
	log_info("reconfig: queue %s removed; %d jobs moved to %s", q->name,
	    n, lf->name);
}

static void
queue_retire(struct mqueue *q)
{
	int k = 0;

	for (int i = 0; i < mbd->nqueues; i++)
		if (mbd->queues[i] != q)
			mbd->queues[k++] = mbd->queues[i];
	mbd->nqueues = k;
	mbd->queues[k] = NULL;
	retired = xrealloc(retired, sizeof(*retired) * (size_t)(nretired + 1));
	retired[nretired++] = q;
	/* Its section is about to be freed: give it one that lasts. */
	queue_become_lost_found(q);
}

/*
 * As at start-up, the table is in lsb.queues order (lost_and_found
 * last) and a queue's index is its place in it.
 */
static void
queues_reorder(void)
{
	const struct lsf_config *c = &mbd->conf;
	struct mqueue **v = xcalloc((size_t)mbd->nqueues + 1, sizeof(*v));
	int n = 0;

	for (int i = 0; i < c->nqueues; i++) {
		struct mqueue *q = queue_find(c->queues[i].name);

		if (q != NULL && q->conf == &c->queues[i])
			v[n++] = q;
	}
	for (int i = 0; i < mbd->nqueues; i++) {
		bool in = false;

		for (int k = 0; k < n && !in; k++)
			in = v[k] == mbd->queues[i];
		if (!in)
			v[n++] = mbd->queues[i];
	}
	for (int i = 0; i < n; i++) {
		v[i]->index = i;
		v[i]->pq.order = i;
		mbd->queues[i] = v[i];
	}
	free(v);
}

static void
queues_apply(void)
{
	const struct lsf_config *c = &mbd->conf;
	int nold = mbd->nqueues;
	struct mqueue **old = xcalloc((size_t)nold + 1, sizeof(*old));
	bool *seen = xcalloc((size_t)nold + 1, sizeof(bool));

	memcpy(old, mbd->queues, sizeof(*old) * (size_t)nold);
	for (int i = 0; i < c->nqueues; i++) {
		const struct queue_conf *qc = &c->queues[i];
		struct mqueue *q = queue_find(qc->name);

		if (q == NULL) {
			q = queue_add(qc, i);
			log_info("reconfig: queue %s added", q->name);
			continue;
		}
		for (int k = 0; k < nold; k++)
			if (old[k] == q)
				seen[k] = true;
		queue_configure(q, qc, i);
	}
	for (int k = 0; k < nold; k++) {
		struct mqueue *q = old[k];

		if (seen[k])
			continue;
		if (queue_is_lost_found(q)) {
			/* Still the sink; it sorts after the configured ones. */
			queue_configure(q, q->conf, c->nqueues);
			continue;
		}
		if (strcmp(q->name, "lost_and_found") == 0) {
			queue_become_lost_found(q);
			continue;
		}
		queue_empty(q, queue_lost_found());
		queue_retire(q);
	}
	free(seen);
	free(old);
	queues_reorder();
}

/*
 * Host groups may have changed: a -m naming one means its members now,
 * as a queue's HOSTS does.  Elements that share their array's extra
 * take the new list once every extra is expanded again.
 */
static void
jobs_asked_apply(void)
{
	struct job *j;

	for (j = mbd->jobs_head; j; j = j->next)
		if (j->x && !j->shared_x && j->x->asked_hosts.n > 0)
			extra_expand_asked(j->x);
	for (j = mbd->jobs_head; j; j = j->next)
		if (j->x && j->x->asked_hosts.n > 0) {
			j->pj.asked = j->x->asked_idx;
			j->pj.nasked = j->x->nasked;
		}
}

/* A queue's RES_REQ may have changed: pending jobs merge it again. */
static void
jobs_apply(void)
{
	for (struct job *j = mbd->jobs_head; j; j = j->next) {
		char *cause = NULL;

		if (!JOB_STAT_PENDING(j->status) || j->x == NULL ||
		    j->x->res_reqs.n == 0)
			continue;
		if (job_set_resreq(j, mbd->conf.lsf.unit_for_limits,
		    &cause) < 0) {
			log_warnx("job %lld: with queue %s's new RES_REQ: %s",
			    (long long)j->jobid, j->queue->name, cause);
			free(cause);
		}
		j->pj.reason_pass = 0;
	}
}

void
reconfig_apply(struct lsf_config *nc)
{
	struct lsf_config old = mbd->conf;

	mbd->conf = *nc;
	memset(nc, 0, sizeof(*nc));
	mbd->cluster = mbd->conf.cluster.name;
	net_set_hosts(&mbd->conf);
	strv_release(&mbd->admins);
	strv_copy(&mbd->admins, &mbd->conf.cluster.admins);
	mbd->pc.any_jlu = false;	/* hosts_apply sets it again */
	hosts_apply();
	queues_apply();
	jobs_asked_apply();
	jobs_apply();
	state_lists_rebuild();
	/* Limits by user and queue, and the counts against them. */
	jobs_reattach_limits();
	jobs_susp_send_all();
	config_release(&old);
	log_info("reconfig: %d hosts, %d queues", mbd->nhosts, mbd->nqueues);
	conf_accepted();
	mbd_sched_dirty();
}

void
conf_accepted(void)
{
	char *link = xasprintf("%s/%s", mbd->logdir, CONF_ACCEPTED);
	char *broken = xasprintf("%s/%s", mbd->logdir, CONF_BROKEN);
	char *cause = NULL;

	/* Without the copy the next start over broken files refuses, as it
	 * always did: worth a warning, not worth stopping for. */
	if (config_save(&mbd->conf, link, &cause) < 0) {
		log_warnx("cannot keep the accepted configuration: %s", cause);
		free(cause);
	}
	if (unlink(broken) == 0)
		log_info("the configuration files on disk are accepted "
		    "again; %s removed", broken);
	free(link);
	free(broken);
}
