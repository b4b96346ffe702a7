/*
 * lsb.resources limits in mbatchd: which of them a job counts against,
 * their counts, and blimits.
 *
 * A limit applies to a job when each of its consumer lists names the
 * job's user (directly, through a group, or "all" less "~" names), its
 * queue and its project; HOSTS and PER_HOST say where it counts, not
 * whom.  Its counts live in instances: one for the consumers listed
 * together (USERS, QUEUES, PROJECTS), one per user, queue or project
 * for the PER_ forms.  An instance holds one struct pol_rlim for each
 * resource it limits (SLOTS or SLOTS_PER_PROCESSOR, JOBS, MEM).  A job
 * points at the rlims that apply to it through an array shared by every
 * job under the same ones (sets), so a million jobs of a few users
 * cost a few arrays, and none at all without lsb.resources.
 *
 * account() (mbd-state.c) adds and removes a started job's share; badmin
 * reconfig builds everything again with the jobs out of the accounting
 * (jobs_reattach_limits), so running jobs count against the new limits.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "mbd.h"

#define RL_BUCKETS	1024

struct rlimit {
	const struct limit_conf	*lc;
	bool		*hosts;		/* HOSTS, PER_HOST; NULL none */
	int		 scope;		/* PEND_RL_CLUSTER, _USER... */
	bool		 susp_free[3];	/* by POL_RL_* */
};

struct rinst {
	int		 limit;
	const char	*user;		/* interned; NULL: not PER_ */
	const struct mqueue *queue;	/* NULL: not per queue */
	const char	*project;	/* interned; NULL: not per project */
	struct pol_rlim	 rl[3];		/* by POL_RL_* */
	bool		 has[3];
	struct rinst	*next;		/* hash chain */
	struct rinst	*all;		/* every instance */
};

struct rset {
	struct pol_rlim	**v;
	int		 n;
	struct rset	*next;
};

static struct rlimit *limits;
static int nlimits;
static struct rinst *itab[RL_BUCKETS];
static struct rinst *instances;
static struct rset *stab[RL_BUCKETS];
static int nhosts_alloc;

static size_t
ptr_hash(uintptr_t h, const void *p)
{
	return (size_t)((h * 31 + ((uintptr_t)p >> 4)) % RL_BUCKETS);
}

/* Is name in list (a consumer list as written): itself, or through a
 * user group when users is set, or "all"; less "~" exclusions. */
static bool
list_has(const struct strv *list, const char *name, bool users)
{
	bool in = false;

	if (name == NULL)
		return false;
	for (size_t i = 0; i < list->n; i++) {
		const char *m = list->v[i];
		bool excl = m[0] == '~';

		if (excl)
			m++;
		if (strcasecmp(m, "all") == 0 ? !excl :
		    strcmp(m, name) == 0 || (users && user_in_group(name, m))) {
			if (excl)
				return false;
			in = true;
		}
	}
	return in;
}

/* "all" alone, or nothing: every consumer of its kind together. */
static bool
list_all(const struct strv *list)
{
	return list->n == 0 || (list->n == 1 &&
	    strcasecmp(list->v[0], "all") == 0);
}

static bool
list_has_group(const struct strv *list)
{
	for (size_t i = 0; i < list->n; i++)
		if (strcasecmp(list->v[i], "all") == 0 ||
		    user_group_exists(list->v[i] + (list->v[i][0] == '~')))
			return true;
	return false;
}

/*
 * PREEMPT_FOR: whether suspended jobs are left out of a limit (only
 * while preemption is configured; JOBS always counts them).  A user's
 * own total never counts them (as MAX_JOBS); a group's or everyone's
 * with GROUP_MAX; by host with HOST_JLU; per processor with USER_JLP
 * for a user, GROUP_JLP for a group.
 */
static bool
susp_free(const struct limit_conf *lc, int kind)
{
	unsigned pf = mbd->conf.params.preempt_for;
	bool users = lc->users.n > 0, group;

	if (!mbd->preempt_on || kind == POL_RL_JOBS || !users)
		return false;
	group = !lc->per_user && list_has_group(&lc->users);
	if (lc->slots_per_proc >= 0)
		return (pf & (group ? PREEMPT_FOR_GROUP_JLP :
		    PREEMPT_FOR_USER_JLP)) != 0;
	if (lc->hosts.n > 0)
		return (pf & PREEMPT_FOR_HOST_JLU) != 0;
	return group ? (pf & PREEMPT_FOR_GROUP_MAX) != 0 : true;
}

static void
inst_free(struct rinst *x)
{
	for (int k = 0; k < 3; k++) {
		free(x->rl[k].host_used);
		free(x->rl[k].host_taken);
	}
	free(x);
}

static void
clear(void)
{
	struct rinst *x, *nx;

	for (x = instances; x; x = nx) {
		nx = x->all;
		inst_free(x);
	}
	instances = NULL;
	memset(itab, 0, sizeof(itab));
	for (size_t b = 0; b < RL_BUCKETS; b++) {
		struct rset *s, *ns;

		for (s = stab[b]; s; s = ns) {
			ns = s->next;
			free(s->v);
			free(s);
		}
		stab[b] = NULL;
	}
	for (int i = 0; i < nlimits; i++)
		free(limits[i].hosts);
	free(limits);
	limits = NULL;
	nlimits = 0;
}

void
rlimits_configure(void)
{
	const struct lsf_config *c = &mbd->conf;

	clear();
	nhosts_alloc = mbd->nhosts;
	if (c->nlimits == 0)
		return;
	limits = xcalloc((size_t)c->nlimits, sizeof(*limits));
	nlimits = c->nlimits;
	for (int i = 0; i < nlimits; i++) {
		struct rlimit *l = &limits[i];
		const struct limit_conf *lc = &c->limits[i];

		l->lc = lc;
		if (lc->hosts.n > 0) {
			struct strv names = STRV_INIT;

			config_expand_hosts(c, &lc->hosts, &names, NULL);
			l->hosts = xcalloc((size_t)mbd->nhosts + 1,
			    sizeof(bool));
			for (size_t k = 0; k < names.n; k++) {
				struct mhost *h = host_find(names.v[k]);

				if (h != NULL)
					l->hosts[h->index] = true;
			}
			strv_release(&names);
		}
		/* Whom the bjobs -p reason names. */
		if (lc->per_user || !list_all(&lc->users))
			l->scope = PEND_RL_USER;
		else if (!list_all(&lc->queues))
			l->scope = PEND_RL_QUEUE;
		else if (!list_all(&lc->projects))
			l->scope = PEND_RL_PROJECT;
		else
			l->scope = PEND_RL_CLUSTER;
		for (int k = 0; k < 3; k++)
			l->susp_free[k] = susp_free(lc, k);
	}
}

/* The limit applies to the job (whatever host it gets). */
static bool
applies(const struct limit_conf *lc, const struct job *j)
{
	return (lc->users.n == 0 || list_has(&lc->users, j->user, true)) &&
	    (lc->queues.n == 0 || (j->queue &&
	    list_has(&lc->queues, j->queue->name, false))) &&
	    (lc->projects.n == 0 || list_has(&lc->projects, j->project,
	    false));
}

static void
rlim_init(struct pol_rlim *r, const struct rlimit *l, int kind, int max)
{
	const struct limit_conf *lc = l->lc;

	r->kind = kind;
	r->cap.max = -1;
	r->cap.reason = l->scope + kind;
	r->cap.susp_free = l->susp_free[kind];
	r->hosts = l->hosts;
	r->per_host = lc->per_host;
	r->host_max = -1;
	r->per_proc = -1;
	r->mem_pct = -1;
	r->hreason = HR_RLIMIT_SLOT + kind;
	if (!lc->per_host) {
		r->cap.max = max;
		return;
	}
	if (kind == POL_RL_SLOTS && lc->slots_per_proc >= 0)
		r->per_proc = lc->slots_per_proc;
	else if (kind == POL_RL_MEM && lc->mem_pct >= 0)
		r->mem_pct = lc->mem_pct;
	else
		r->host_max = max;
	r->host_used = xcalloc((size_t)nhosts_alloc + 1, sizeof(int));
	r->host_taken = xcalloc((size_t)nhosts_alloc + 1, sizeof(int));
}

static struct rinst *
inst_get(int li, const char *user, const struct mqueue *q,
    const char *project)
{
	const struct rlimit *l = &limits[li];
	const struct limit_conf *lc = l->lc;
	size_t b = ptr_hash(ptr_hash(ptr_hash((uintptr_t)li, user), q),
	    project);
	struct rinst *x;

	for (x = itab[b]; x; x = x->next)
		if (x->limit == li && x->user == user && x->queue == q &&
		    x->project == project)
			return x;
	x = xcalloc(1, sizeof(*x));
	x->limit = li;
	x->user = user;
	x->queue = q;
	x->project = project;
	if (lc->slots >= 0 || lc->slots_per_proc >= 0) {
		x->has[POL_RL_SLOTS] = true;
		rlim_init(&x->rl[POL_RL_SLOTS], l, POL_RL_SLOTS, lc->slots);
	}
	if (lc->jobs >= 0) {
		x->has[POL_RL_JOBS] = true;
		rlim_init(&x->rl[POL_RL_JOBS], l, POL_RL_JOBS, lc->jobs);
	}
	if (lc->mem >= 0 || lc->mem_pct >= 0) {
		x->has[POL_RL_MEM] = true;
		rlim_init(&x->rl[POL_RL_MEM], l, POL_RL_MEM, lc->mem);
	}
	x->next = itab[b];
	itab[b] = x;
	x->all = instances;
	instances = x;
	return x;
}

/* The shared array for this list of rlims. */
static struct pol_rlim *const *
set_get(struct pol_rlim **v, int n)
{
	size_t b = 0;
	struct rset *s;

	for (int i = 0; i < n; i++)
		b = ptr_hash(b, v[i]);
	for (s = stab[b]; s; s = s->next)
		if (s->n == n && memcmp(s->v, v, sizeof(*v) * (size_t)n) == 0)
			return s->v;
	s = xcalloc(1, sizeof(*s));
	s->v = xcalloc((size_t)n, sizeof(*v));
	memcpy(s->v, v, sizeof(*v) * (size_t)n);
	s->n = n;
	s->next = stab[b];
	stab[b] = s;
	return s->v;
}

static int
job_mem(const struct job *j)
{
	const struct resreq *rr = j->rr ? j->rr : j->queue ? j->queue->rr :
	    NULL;

	for (int i = 0; rr && i < rr->nrusage; i++)
		if (strcasecmp(rr->rusage[i].name, "mem") == 0)
			return (int)ceil(rr->rusage[i].value);
	return 0;
}

void
rlimits_attach(struct job *j)
{
	/* A scratch list, as long as any job's can be. */
	static struct pol_rlim **v;
	static int vcap;
	int n = 0;

	j->pj.rlims = NULL;
	j->pj.nrlims = 0;
	j->pj.rl_hosts = false;
	j->pj.rl_mem = 0;
	if (nlimits == 0)
		return;
	if (vcap < 3 * nlimits) {
		vcap = 3 * nlimits;
		v = xrealloc(v, sizeof(*v) * (size_t)vcap);
	}
	j->pj.rl_mem = job_mem(j);
	for (int i = 0; i < nlimits; i++) {
		const struct limit_conf *lc = limits[i].lc;
		struct rinst *x;

		if (!applies(lc, j))
			continue;
		x = inst_get(i, lc->per_user ? j->user : NULL,
		    lc->per_queue ? j->queue : NULL,
		    lc->per_project ? j->project : NULL);
		for (int k = 0; k < 3; k++) {
			/* MEM limits only jobs that reserve memory. */
			if (!x->has[k] ||
			    (k == POL_RL_MEM && j->pj.rl_mem == 0))
				continue;
			v[n++] = &x->rl[k];
			if (!POL_RL_GLOBAL(&x->rl[k]))
				j->pj.rl_hosts = true;
		}
	}
	if (n > 0) {
		j->pj.rlims = set_get(v, n);
		j->pj.nrlims = n;
	}
}

/* A started job's share, in or out (sign); see account(). */
void
rlimits_account(struct job *j, int sign)
{
	int nexec = j->nexec;

	for (int k = 0; k < j->pj.nrlims; k++) {
		struct pol_rlim *r = j->pj.rlims[k];
		int slots = 0, nh = 0;

		if (r->cap.susp_free && j->slots_free)
			continue;
		if (POL_RL_GLOBAL(r)) {
			r->cap.used += sign * policy_rlim_need(r, &j->pj,
			    j->pj.num_procs, 1);
			continue;
		}
		/* Its slots host by host (a host appears once per slot, in
		 * runs: the placement gives a host's slots together). */
		for (int i = 0; i < nexec; i++) {
			int h = j->exec[i]->index, on = 1;

			if (i > 0 && j->exec[i - 1]->index == h)
				continue;
			while (i + on < nexec && j->exec[i + on]->index == h)
				on++;
			if (r->hosts && (h >= nhosts_alloc || !r->hosts[h]))
				continue;
			if (r->per_host && h < nhosts_alloc)
				r->host_used[h] += sign *
				    policy_rlim_need(r, &j->pj, on, 1);
			slots += on;
			nh++;
		}
		if (!r->per_host && nh > 0)
			r->cap.used += sign * policy_rlim_need(r, &j->pj,
			    slots, nh);
	}
}

/*
 * blimits: one row per instance (per host for PER_HOST), the counts as
 * "used/limit".  Without "all" only rows with something in use.
 */
struct rquery {
	struct strv	 names, users, queues, hosts, projects;
	bool		 all;
};

static void
join(struct strbuf *sb, const struct strv *v)
{
	for (size_t i = 0; i < v->n; i++)
		sb_addf(sb, "%s%s", i ? " " : "", v->v[i]);
}

static char *
consumer_text(const struct strv *list, const char *own)
{
	struct strbuf sb = STRBUF_INIT;

	if (own != NULL)
		return xstrdup(own);
	if (list->n == 0)
		return xstrdup("-");
	join(&sb, list);
	return sb_detach(&sb);
}

static bool
any_of(const struct strv *want, const struct strv *list, const char *own,
    bool users)
{
	if (want->n == 0)
		return true;
	for (size_t i = 0; i < want->n; i++) {
		if (own != NULL ? strcmp(own, want->v[i]) == 0 ||
		    (users && user_in_group(own, want->v[i])) :
		    list->n == 0 || list_has(list, want->v[i], users))
			return true;
		/* A group asked for: the limits that name it. */
		if (users && own == NULL && strv_contains(list, want->v[i]))
			return true;
	}
	return false;
}

static void
row_add(struct limit_list *ll, const struct rinst *x, int host)
{
	const struct limit_conf *lc = limits[x->limit].lc;
	struct limit_info *li;
	struct mhost *h = host >= 0 ? mbd->hosts[host] : NULL;

	ll->v = xrealloc(ll->v, sizeof(*ll->v) * (ll->n + 1));
	li = &ll->v[ll->n++];
	memset(li, 0, sizeof(*li));
	li->name = xstrdup(lc->name);
	li->users = consumer_text(&lc->users, x->user);
	li->queues = consumer_text(&lc->queues, x->queue ? x->queue->name :
	    NULL);
	li->hosts = consumer_text(&lc->hosts, h ? h->name : NULL);
	li->projects = consumer_text(&lc->projects, x->project);
	li->slots_max = li->mem_max = li->jobs_max = -1;
	li->slots_used = li->mem_used = li->jobs_used = -1;
	for (int k = 0; k < 3; k++) {
		const struct pol_rlim *r = &x->rl[k];
		int used, max;

		if (!x->has[k])
			continue;
		if (h != NULL) {
			used = r->host_used[host];
			max = r->host_max;
			if (r->per_proc >= 0)
				max = (int)ceil((double)r->per_proc *
				    (h->ph.rr.ncpus > 0 ? h->ph.rr.ncpus : 1));
			else if (r->mem_pct >= 0)
				max = (int)((double)r->mem_pct *
				    h->ph.rr.maxmem / 100);
		} else if (r->per_host) {
			used = 0;
			for (int i = 0; i < nhosts_alloc; i++)
				used += r->host_used[i];
			max = r->host_max;
		} else {
			used = r->cap.used;
			max = r->cap.max;
		}
		if (k == POL_RL_SLOTS) {
			li->slots_used = used;
			li->slots_max = max;
		} else if (k == POL_RL_JOBS) {
			li->jobs_used = used;
			li->jobs_max = max;
		} else {
			li->mem_used = used;
			li->mem_max = max;
		}
	}
}

static bool
inst_used(const struct rinst *x, int host)
{
	for (int k = 0; k < 3; k++) {
		const struct pol_rlim *r = &x->rl[k];

		if (!x->has[k])
			continue;
		if (host >= 0 ? r->host_used[host] != 0 : r->cap.used != 0)
			return true;
	}
	return false;
}

static bool
host_wanted(const struct rquery *q, const struct rlimit *l, int host)
{
	if (q->hosts.n == 0)
		return true;
	for (size_t i = 0; i < q->hosts.n; i++) {
		struct mhost *h = host_find(q->hosts.v[i]);

		if (h == NULL)
			continue;
		if (host >= 0 ? h->index == host :
		    l->hosts == NULL || l->hosts[h->index])
			return true;
	}
	return false;
}

static void
rows(const struct rquery *q, struct limit_list *ll)
{
	/* Instances were made newest first: list them in limit order,
	 * oldest first. */
	for (int li = 0; li < nlimits; li++) {
		const struct rlimit *l = &limits[li];
		const struct limit_conf *lc = l->lc;
		struct rinst **v;
		int n = 0, cap = 0;
		bool shown = false;

		if (q->names.n > 0 && !strv_contains(&q->names, lc->name))
			continue;
		for (struct rinst *x = instances; x; x = x->all)
			cap += x->limit == li;
		v = xcalloc((size_t)cap + 1, sizeof(*v));
		for (struct rinst *x = instances; x; x = x->all)
			if (x->limit == li)
				v[n++] = x;
		while (n-- > 0) {
			struct rinst *x = v[n];

			if (!any_of(&q->users, &lc->users, x->user, true) ||
			    !any_of(&q->queues, &lc->queues, x->queue ?
			    x->queue->name : NULL, false) ||
			    !any_of(&q->projects, &lc->projects, x->project,
			    false))
				continue;
			if (lc->per_host) {
				for (int h = 0; h < nhosts_alloc; h++)
					if (inst_used(x, h) &&
					    host_wanted(q, l, h)) {
						row_add(ll, x, h);
						shown = true;
					}
				continue;
			}
			if ((q->all || inst_used(x, -1)) &&
			    host_wanted(q, l, -1)) {
				row_add(ll, x, -1);
				shown = true;
			}
		}
		free(v);
		if (!shown && q->all && host_wanted(q, l, -1) &&
		    any_of(&q->users, &lc->users, NULL, true) &&
		    any_of(&q->queues, &lc->queues, NULL, false) &&
		    any_of(&q->projects, &lc->projects, NULL, false)) {
			/* Configured, nothing under it yet. */
			struct rinst x;

			memset(&x, 0, sizeof(x));
			x.limit = li;
			x.has[POL_RL_SLOTS] = lc->slots >= 0 ||
			    lc->slots_per_proc >= 0;
			x.has[POL_RL_JOBS] = lc->jobs >= 0;
			x.has[POL_RL_MEM] = lc->mem >= 0 || lc->mem_pct >= 0;
			x.rl[POL_RL_SLOTS].cap.max = lc->per_host ? -1 :
			    lc->slots;
			x.rl[POL_RL_SLOTS].host_max = lc->slots;
			x.rl[POL_RL_SLOTS].per_host = lc->per_host;
			x.rl[POL_RL_JOBS].cap.max = lc->jobs;
			x.rl[POL_RL_JOBS].host_max = lc->jobs;
			x.rl[POL_RL_MEM].cap.max = lc->mem;
			x.rl[POL_RL_MEM].host_max = lc->mem;
			for (int k = 0; k < 3; k++) {
				x.rl[k].per_host = lc->per_host;
				if (lc->per_host)
					x.rl[k].host_used = xcalloc(
					    (size_t)nhosts_alloc + 1,
					    sizeof(int));
			}
			row_add(ll, &x, -1);
			for (int k = 0; k < 3; k++)
				free(x.rl[k].host_used);
		}
	}
}

void
query_limits(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct strv args = STRV_INIT;
	struct rquery q;
	struct limit_list ll;
	struct wbuf w;

	if (!get_strv(r, &args) || rbuf_end(r) < 0) {
		strv_release(&args);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	memset(&q, 0, sizeof(q));
	for (size_t i = 0; i < args.n; i++) {
		const char *a = args.v[i], *eq = strchr(a, '=');
		struct strv *to = NULL;

		if (strcmp(a, "all") == 0) {
			q.all = true;
			continue;
		}
		if (eq == NULL)
			continue;
		if (strncmp(a, "name=", 5) == 0)
			to = &q.names;
		else if (strncmp(a, "user=", 5) == 0)
			to = &q.users;
		else if (strncmp(a, "queue=", 6) == 0)
			to = &q.queues;
		else if (strncmp(a, "host=", 5) == 0)
			to = &q.hosts;
		else if (strncmp(a, "project=", 8) == 0)
			to = &q.projects;
		if (to != NULL)
			strv_push(to, eq + 1);
	}
	memset(&ll, 0, sizeof(ll));
	rows(&q, &ll);
	wbuf_init(&w);
	limit_list_frame(&w, MSG_LIMIT_LIST, seq, &ll);
	limit_list_release(&ll);
	strv_release(&q.names);
	strv_release(&q.users);
	strv_release(&q.queues);
	strv_release(&q.hosts);
	strv_release(&q.projects);
	strv_release(&args);
	conn_send(c, &w);
	wbuf_release(&w);
}
