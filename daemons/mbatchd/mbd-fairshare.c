/*
 * Fairshare in mbatchd: the share trees of the configuration, the
 * account each job is charged to, and the usage charged as jobs start,
 * use CPU and end.
 *
 * Charges follow the job's state (fs_job_status, from job_set_status):
 * a job that becomes started is charged its slots and run; one that
 * leaves the started states for good moves its CPU (and, with
 * ENABLE_HIST_RUN_TIME, its run time) to the account's history, decayed
 * from then on.  The transient JOB_STAT_NULL of a bswitch or of a start
 * takes the charge off without history, and the state after it puts it
 * back.  Replay applies the same records through the same functions, so
 * a restarted mbatchd has the same history.
 *
 * History outlives the jobs that made it: lsb.events holds their
 * records until it is switched, and a switch ends the fresh file's
 * copied part with one FS_USAGE record per account (fs_usage_records),
 * which replay takes as the account's history at that point
 * (fs_usage_apply).  badmin reconfig carries each account's history to
 * the account of the same path in the new trees.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mbd.h"
#include "util.h"

/* The time of the record being applied, for the ends it causes. */
static int64_t fs_when;

void
fs_set_when(int64_t when)
{
	if (when > fs_when)
		fs_when = when;
}

static bool
grp_is(const char *name, void *arg)
{
	(void)arg;
	return user_group_exists(name);
}

static bool
grp_in(const char *user, const char *group, void *arg)
{
	(void)arg;
	return user_in_group(user, group);
}

static const char *
grp_shares(const char *group, void *arg)
{
	(void)arg;
	for (int i = 0; i < mbd->conf.nugroups; i++)
		if (strcmp(mbd->conf.ugroups[i].name, group) == 0)
			return mbd->conf.ugroups[i].shares;
	return NULL;
}

static const struct fs_groups groups = { grp_is, grp_in, grp_shares, NULL };

/* A user's account in a tree, remembered by the interned name. */
#define NO_SHARE	((struct fs_node *)(void *)&fs_when)

static size_t
umap_slot(const struct mfs *m, const char *user)
{
	uintptr_t h = (uintptr_t)user;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 7) & (m->umap_size - 1);
}

static struct fs_node *
account(struct mfs *m, const char *user)
{
	size_t i;

	if (m->umap_size == 0) {
		m->umap_size = 64;
		m->umap = xcalloc(m->umap_size, sizeof(*m->umap));
	}
	for (i = umap_slot(m, user); m->umap[i].user != NULL;
	    i = (i + 1) & (m->umap_size - 1))
		if (m->umap[i].user == user)
			return m->umap[i].leaf == NO_SHARE ? NULL :
			    m->umap[i].leaf;
	m->umap[i].user = user;
	m->umap[i].leaf = fs_tree_account(m->tree, user);
	if (m->umap[i].leaf == NULL)
		m->umap[i].leaf = NO_SHARE;
	if (++m->umap_n * 2 > m->umap_size) {
		struct mfs_user *old = m->umap;
		size_t n = m->umap_size;

		m->umap_size *= 2;
		m->umap = xcalloc(m->umap_size, sizeof(*m->umap));
		for (size_t k = 0; k < n; k++) {
			size_t s;

			if (old[k].user == NULL)
				continue;
			for (s = umap_slot(m, old[k].user);
			    m->umap[s].user != NULL;
			    s = (s + 1) & (m->umap_size - 1))
				;
			m->umap[s] = old[k];
		}
		free(old);
	}
	return account(m, user);
}

static struct fs_node *
job_leaf(const struct job *j)
{
	struct mqueue *q = j->queue;

	if (q == NULL || q->mfs == NULL || j->user == NULL)
		return NULL;
	return account(q->mfs, j->user);
}

struct pol_fs_acct *
fs_job_acct(struct job *j)
{
	struct fs_node *leaf = job_leaf(j);

	return leaf ? policy_fs_acct(&j->queue->pq, leaf) : NULL;
}

bool
fs_user_may_submit(struct mqueue *q, const char *user)
{
	/* LSF: only users with a share may submit to a queue ordered by
	 * shares, a queue's or a host partition's. */
	if (q->mfs == NULL)
		return true;
	return account(q->mfs, intern(user)) != NULL;
}

/* CPU seconds as lsb.events keeps them (%.4f), in hours: what replay
 * reads is what the live daemon charged. */
static double
cpu_hours(double seconds)
{
	if (!(seconds > 0))
		return 0;
	return round(seconds * 1e4) / 1e4 / 3600;
}

void
fs_job_cpu(struct job *j)
{
	double delta;

	if (j->fs_leaf == NULL)
		return;
	delta = cpu_hours(j->cpu_time) - j->fs_run_cpu;
	if (delta > 0) {
		fs_charge_cpu(j->fs_leaf, delta);
		j->fs_run_cpu += delta;
	}
}

/* The slots a run holds: its hosts' (a job is charged after they are
 * set and uncharged before they are cleared). */
static int
run_slots(const struct job *j)
{
	return j->nexec > 0 ? j->nexec : j->pj.num_procs;
}

void
fs_job_status(struct job *j)
{
	bool started = JOB_STAT_STARTED(j->status) &&
	    !JOB_STAT_FINISHED(j->status);
	struct fs_node *leaf;

	if (started && j->fs_leaf == NULL) {
		if (JOB_IS_PARENT(j) || (leaf = job_leaf(j)) == NULL)
			return;
		j->fs_leaf = leaf;
		j->fs_run_cpu = 0;
		fs_charge_start(leaf, &j->queue->mfs->tree->f, run_slots(j),
		    j->start_time);
		fs_job_cpu(j);
	} else if (!started && j->fs_leaf != NULL) {
		const struct fs_factors *f = &j->queue->mfs->tree->f;
		/* JOB_STAT_NULL is a step of a bswitch: the charge comes
		 * back with the next state, nothing goes to history. */
		bool end = j->status != JOB_STAT_NULL;
		double cpu = end ? cpu_hours(j->cpu_time) : 0;
		int64_t when = JOB_STAT_FINISHED(j->status) && j->end_time ?
		    j->end_time : fs_when;
		struct fs_factors nohist = *f;

		if (when < j->start_time)
			when = j->start_time;
		nohist.hist_run = false;
		fs_charge_end(j->fs_leaf, end ? f : &nohist, run_slots(j),
		    j->start_time, j->fs_run_cpu, cpu, when);
		j->fs_leaf = NULL;
		j->fs_run_cpu = 0;
	}
}

/* Trees. */

static struct mfs *
mfs_new(const char *key, const struct fs_shares *s,
    const struct fs_factors *f)
{
	struct mfs *m = xcalloc(1, sizeof(*m));

	m->tree = fs_tree_new(key, s, f, &groups);
	mbd->fs = xrealloc(mbd->fs, sizeof(*mbd->fs) * (size_t)(mbd->nfs + 1));
	mbd->fs[mbd->nfs++] = m;
	return m;
}

static void
mfs_add_queue(struct mfs *m, struct mqueue *q)
{
	m->queues = xrealloc(m->queues, sizeof(*m->queues) *
	    (size_t)(m->nqueues + 1));
	q->pq.fs_slot = m->nqueues;
	m->queues[m->nqueues++] = q;
	m->tree->nqueues = m->nqueues;
	q->pq.fs = m->tree;
	q->mfs = m;
}

static void
mfs_free(struct mfs *m)
{
	for (int i = 0; i < m->nqueues; i++) {
		policy_fs_release(&m->queues[i]->pq);
		m->queues[i]->pq.fs = NULL;
		m->queues[i]->mfs = NULL;
	}
	fs_tree_free(m->tree);
	free(m->queues);
	free(m->host_in);
	free(m->umap);
	free(m);
}

/* History kept across a rebuild: by tree key and account path. */
struct hist {
	char		*key;
	char		*path;
	char		*name;		/* the account's own name */
	double		 cpu;
	int64_t		 cpu_at;
	double		 hrun;
	int64_t		 hrun_at;
};
struct hists {
	struct hist	*v;
	size_t		 n;
	const char	*key;
};

static void
hist_save(struct fs_node *n, void *arg)
{
	struct hists *h = arg;
	char path[1024];

	if (!n->leaf || (n->cpu_hours == 0 && n->hrun_hours == 0))
		return;
	fs_node_path(n, path, sizeof(path));
	h->v = xrealloc(h->v, sizeof(*h->v) * (h->n + 1));
	h->v[h->n++] = (struct hist){ xstrdup(h->key), xstrdup(path),
	    xstrdup(n->name), n->cpu_hours, n->cpu_at, n->hrun_hours,
	    n->hrun_at };
}

static struct mfs *
mfs_find(const char *key)
{
	for (int i = 0; i < mbd->nfs; i++)
		if (strcmp(mbd->fs[i]->tree->key, key) == 0)
			return mbd->fs[i];
	return NULL;
}

/* The account at path in m's tree: its nodes by name, or, for an
 * account made per user (default, group@), the user's account if that
 * is where it lies. */
static struct fs_node *
node_at(struct mfs *m, const char *path, const char *name)
{
	struct fs_node *n = m->tree->root, *leaf;
	char buf[1024];
	char *save = NULL, *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = strtok_r(buf, "/", &save); p != NULL && n != NULL;
	    p = strtok_r(NULL, "/", &save)) {
		struct fs_node *k = NULL;

		for (int i = 0; i < n->nkids && k == NULL; i++)
			if (strcmp(n->kids[i]->name, p) == 0)
				k = n->kids[i];
		n = k;
	}
	if (n != NULL)
		return n->leaf ? n : NULL;
	if ((leaf = account(m, intern(name))) != NULL) {
		fs_node_path(leaf, buf, sizeof(buf));
		if (strcmp(buf, path) == 0)
			return leaf;
	}
	return NULL;
}

/* Make n's history cpu (at cpu_at) and hrun (at hrun_at): the
 * difference goes to n and every node above it. */
static void
history_set(struct mfs *m, struct fs_node *n, double cpu, int64_t cpu_at,
    double hrun, int64_t hrun_at)
{
	const struct fs_factors *f = &m->tree->f;
	double now_cpu = n->cpu_hours, now_hrun = n->hrun_hours;

	if (n->cpu_at != 0 && cpu_at > n->cpu_at)
		now_cpu = fs_decay(now_cpu, (double)(cpu_at - n->cpu_at) /
		    3600, f->hist_hours);
	if (n->hrun_at != 0 && hrun_at > n->hrun_at)
		now_hrun = fs_decay(now_hrun, (double)(hrun_at - n->hrun_at) /
		    3600, f->hist_hours);
	fs_charge_history(n, f, cpu - now_cpu, cpu_at, hrun - now_hrun,
	    hrun_at);
	/* A difference only decays the nodes it reaches; the account
	 * itself holds exactly what was recorded. */
	n->cpu_hours = cpu;
	n->cpu_at = cpu_at;
	n->hrun_hours = hrun;
	n->hrun_at = hrun_at;
}

static void
pending_relink(struct mqueue *q)
{
	for (struct pol_job *p = q->pq.head; p; p = p->next)
		p->fsa = fs_job_acct(JOB_OF_PJ(p));
	policy_fs_relink(&q->pq);
}

void
fs_configure(void)
{
	struct hists h = { NULL, 0, NULL };
	struct lsf_config *cf = &mbd->conf;

	for (int i = 0; i < mbd->nfs; i++) {
		h.key = mbd->fs[i]->tree->key;
		fs_tree_walk(mbd->fs[i]->tree, hist_save, &h);
	}
	for (struct job *j = mbd->jobs_head; j; j = j->next) {
		j->fs_leaf = NULL;
		j->fs_run_cpu = 0;
		j->pj.fsa = NULL;
	}
	for (int i = 0; i < mbd->nfs; i++)
		mfs_free(mbd->fs[i]);
	free(mbd->fs);
	mbd->fs = NULL;
	mbd->nfs = 0;
	for (int i = 0; i < mbd->nqueues; i++) {
		mbd->queues[i]->mfs = NULL;
		mbd->queues[i]->pq.fs = NULL;
		mbd->queues[i]->pq.fs_slot = -1;
	}

	/* Queue fairshare, with the queues that share it. */
	for (int i = 0; i < mbd->nqueues; i++) {
		struct mqueue *q = mbd->queues[i];
		const struct queue_conf *qc = q->conf;
		struct mfs *m;
		char *key;

		if (qc == NULL || qc->fs_shares.n == 0 || q->mfs != NULL)
			continue;
		key = xasprintf("queue/%s", q->name);
		m = mfs_new(key, &qc->fs_shares, &qc->fs_factors);
		free(key);
		m->qconf = qc;
		mfs_add_queue(m, q);
		for (size_t k = 0; k < qc->fairshare_queues.n; k++) {
			struct mqueue *o = queue_find(qc->fairshare_queues.v[k]);

			if (o != NULL && o->mfs == NULL && o->conf &&
			    o->conf->fs_shares.n == 0)
				mfs_add_queue(m, o);
		}
	}
	/* Host partitions, for the queues without their own. */
	for (int p = 0; p < cf->nhparts; p++) {
		const struct host_partition *hp = &cf->hparts[p];
		struct mfs *m;
		char *key;

		if (hp->shares.n == 0)
			continue;
		key = xasprintf("hpart/%s", hp->name);
		m = mfs_new(key, &hp->shares, &cf->params.fs_factors);
		free(key);
		m->hpart = hp;
		m->host_in = xcalloc((size_t)mbd->nhosts + 1,
		    sizeof(*m->host_in));
		for (size_t k = 0; k < hp->hosts.n; k++) {
			bool *on = host_mask(hp->hosts.v[k]);

			for (int x = 0; on != NULL && x < mbd->nhosts; x++)
				m->host_in[x] |= on[x];
			free(on);
		}
		/* A queue whose hosts all lie in the partition: one that
		 * reaches hosts outside it is not ordered by it there, nor
		 * are users without a share kept off those hosts. */
		for (int i = 0; i < mbd->nqueues; i++) {
			struct mqueue *q = mbd->queues[i];
			bool any = false, out = false;

			if (q->mfs != NULL)
				continue;
			for (int x = 0; x < mbd->nhosts && !out; x++) {
				if (q->host_ok != NULL && !q->host_ok[x])
					continue;
				any = any || m->host_in[x];
				out = !m->host_in[x];
			}
			if (any && !out)
				mfs_add_queue(m, q);
		}
	}

	/* History, then what started jobs use now, then the pending. */
	for (size_t i = 0; i < h.n; i++) {
		struct mfs *m = mfs_find(h.v[i].key);
		struct fs_node *n = m ? node_at(m, h.v[i].path, h.v[i].name) :
		    NULL;

		if (n != NULL)
			fs_charge_history(n, &m->tree->f, h.v[i].cpu,
			    h.v[i].cpu_at, h.v[i].hrun, h.v[i].hrun_at);
		free(h.v[i].key);
		free(h.v[i].path);
		free(h.v[i].name);
	}
	free(h.v);
	for (struct job *j = mbd->jobs_head; j; j = j->next)
		fs_job_status(j);
	for (int i = 0; i < mbd->nqueues; i++)
		if (mbd->queues[i]->mfs != NULL)
			pending_relink(mbd->queues[i]);
}

/* Durable history. */

struct usage_out {
	struct strbuf	*sb;
	const char	*key;
	int64_t		 now;
};

static void
usage_one(struct fs_node *n, void *arg)
{
	struct usage_out *o = arg;
	struct ev_fs_usage ev;
	char path[1024];

	if (!n->leaf || (n->cpu_hours == 0 && n->hrun_hours == 0))
		return;
	fs_node_path(n, path, sizeof(path));
	memset(&ev, 0, sizeof(ev));
	ev.tree = (char *)o->key;
	ev.path = path;
	ev.name = n->name;
	ev.cpu_hours = n->cpu_hours;
	ev.cpu_at = n->cpu_at;
	ev.hrun_hours = n->hrun_hours;
	ev.hrun_at = n->hrun_at;
	ev_fs_usage_write(o->sb, o->now, &ev);
}

void
fs_usage_records(struct strbuf *sb, int64_t now)
{
	for (int i = 0; i < mbd->nfs; i++) {
		struct usage_out o = { sb, mbd->fs[i]->tree->key, now };

		fs_tree_walk(mbd->fs[i]->tree, usage_one, &o);
	}
}

void
fs_usage_apply(const struct ev_fs_usage *ev)
{
	struct mfs *m = ev->tree ? mfs_find(ev->tree) : NULL;
	struct fs_node *n;

	if (m == NULL || ev->path == NULL || ev->name == NULL)
		return;		/* a tree or account since removed */
	if ((n = node_at(m, ev->path, ev->name)) == NULL)
		return;
	history_set(m, n, ev->cpu_hours, ev->cpu_at, ev->hrun_hours,
	    ev->hrun_at);
}
