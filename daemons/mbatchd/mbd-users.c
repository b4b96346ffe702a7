/*
 * Users and their limits: MAX_JOBS and JL/P of lsb.users (a user, a
 * group as a whole, "group@" for each member, "default"), a queue's
 * UJOB_LIMIT, and the per-host slot counts JL/U (lsb.hosts) and JL/P
 * need.  The limits are pol_cap and pol_user records the policy reads;
 * the slot accounting (account() in mbd-state.c) keeps them current.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mbd.h"

#define USER_BUCKETS	4096

struct mgroup {
	char		*name;
	struct pol_cap	 cap;
	struct mgroup	*next;
};

struct muser {
	const char	*name;		/* interned */
	struct pol_user	 pu;
	struct pol_cap	 max_jobs;
	struct pol_cap	*qcaps;		/* per queue index: UJOB_LIMIT */
	int		 nqcaps;
	struct mgroup	*groups[POL_NCAPS - 3];
	int		 ngroups;
	int		 nhosts;	/* host_used is this long */
	struct muser	*next;
};

static struct muser *users[USER_BUCKETS];
static struct mgroup *groups;

static size_t
bucket(const char *name)
{
	/* Interned: the pointer is the identity.  Multiplied: interned
	 * names lie at regular strides, which a plain modulo would crowd
	 * into a few chains (every job's limits are looked up here). */
	return (size_t)(((uint64_t)(uintptr_t)name * 0x9e3779b97f4a7c15ULL)
	    >> 52) % USER_BUCKETS;
}

/* Is user a member of group g (lsb.users UserGroup, nested)? */
static bool
in_group(const char *user, const char *g, int depth)
{
	if (depth > 8)
		return false;
	for (int i = 0; i < mbd->conf.nugroups; i++) {
		const struct user_group *ug = &mbd->conf.ugroups[i];

		if (strcmp(ug->name, g) != 0)
			continue;
		for (size_t k = 0; k < ug->members.n; k++) {
			const char *m = ug->members.v[k];

			if (strcmp(m, user) == 0 || strcmp(m, "all") == 0)
				return true;
			if (in_group(user, m, depth + 1))
				return true;
		}
	}
	return false;
}

bool
user_in_group(const char *user, const char *group)
{
	return in_group(user, group, 0);
}

bool
user_group_exists(const char *name)
{
	for (int i = 0; i < mbd->conf.nugroups; i++)
		if (strcmp(mbd->conf.ugroups[i].name, name) == 0)
			return true;
	return false;
}

static bool
is_group(const char *name)
{
	for (int i = 0; i < mbd->conf.nugroups; i++)
		if (strcmp(mbd->conf.ugroups[i].name, name) == 0)
			return true;
	return false;
}

static struct mgroup *
group_cap(const char *name)
{
	struct mgroup *g;

	for (g = groups; g; g = g->next)
		if (strcmp(g->name, name) == 0)
			return g;
	g = xcalloc(1, sizeof(*g));
	g->name = xstrdup(name);
	g->cap.per_job = false;
	g->cap.reason = PEND_USER_LIMIT;
	g->next = groups;
	groups = g;
	return g;
}

/* The lsb.users entry that sets this user's own limits, or NULL. */
static const struct user_limit *
own_limit(const char *user)
{
	const struct user_limit *deflt = NULL, *member = NULL;

	for (int i = 0; i < mbd->conf.nulimits; i++) {
		const struct user_limit *l = &mbd->conf.ulimits[i];
		size_t n = strlen(l->name);

		if (strcmp(l->name, user) == 0)
			return l;
		if (strcmp(l->name, "default") == 0)
			deflt = l;
		else if (n > 1 && l->name[n - 1] == '@' && member == NULL) {
			char *g = xstrndup(l->name, n - 1);

			if (in_group(user, g, 0))
				member = l;
			free(g);
		}
	}
	return member ? member : deflt;
}

/* Set a user's limits from the configuration (again after reconfig). */
static void
user_configure(struct muser *u)
{
	const struct user_limit *l = own_limit(u->name);

	u->max_jobs.max = l ? l->max_jobs : -1;
	u->max_jobs.reason = PEND_USER_LIMIT;
	/* With preemption, suspended jobs never count against a user's
	 * own total; against a group's with PREEMPT_FOR=GROUP_MAX. */
	u->max_jobs.susp_free = mbd->preempt_on;
	u->pu.jl_p = l ? l->jl_p : -1;
	u->ngroups = 0;
	for (int i = 0; i < mbd->conf.nulimits; i++) {
		const struct user_limit *gl = &mbd->conf.ulimits[i];
		struct mgroup *g;

		if (u->ngroups == (int)ARRAY_SIZE(u->groups))
			break;
		if (gl->max_jobs < 0 || !is_group(gl->name) ||
		    !in_group(u->name, gl->name, 0))
			continue;
		g = group_cap(gl->name);
		g->cap.max = gl->max_jobs;
		g->cap.susp_free = mbd->preempt_on &&
		    (mbd->conf.params.preempt_for & PREEMPT_FOR_GROUP_MAX);
		u->groups[u->ngroups++] = g;
	}
	if (u->nqcaps < mbd->nqueues) {
		u->qcaps = xrealloc(u->qcaps, sizeof(*u->qcaps) *
		    (size_t)mbd->nqueues);
		memset(u->qcaps + u->nqcaps, 0, sizeof(*u->qcaps) *
		    (size_t)(mbd->nqueues - u->nqcaps));
		u->nqcaps = mbd->nqueues;
	}
	for (int i = 0; i < mbd->nqueues; i++) {
		u->qcaps[i].max = mbd->queues[i]->conf->ujob_limit;
		u->qcaps[i].reason = PEND_QUEUE_USER_LIMIT;
	}
	if (u->nhosts < mbd->nhosts || u->pu.host_used == NULL) {
		size_t n = (size_t)mbd->nhosts + 1;

		u->pu.host_used = xrealloc(u->pu.host_used, n * sizeof(int));
		u->pu.host_susp = xrealloc(u->pu.host_susp, n * sizeof(int));
		u->pu.host_taken = xrealloc(u->pu.host_taken,
		    n * sizeof(int));
		for (size_t i = (size_t)u->nhosts; i < n; i++)
			u->pu.host_used[i] = u->pu.host_susp[i] =
			    u->pu.host_taken[i] = 0;
		u->nhosts = mbd->nhosts;
	}
}

static struct muser *
user_get(const char *name)
{
	size_t b = bucket(name);
	struct muser *u;

	for (u = users[b]; u; u = u->next)
		if (u->name == name)
			return u;
	u = xcalloc(1, sizeof(*u));
	u->name = name;
	user_configure(u);
	u->next = users[b];
	users[b] = u;
	return u;
}

/*
 * Point the job's pol_job at the limits that apply to it: the array's
 * %N (caps[0], set by array_setup), the user's MAX_JOBS, the queue's
 * UJOB_LIMIT for the user, and the user's groups.  Call with the job
 * out of the slot accounting (status NULL) when it changes queue.
 */
void
job_attach_limits(struct job *j)
{
	struct muser *u = user_get(j->user);
	int n = 1;

	for (int i = 1; i < POL_NCAPS; i++)
		j->pj.caps[i] = NULL;
	if (u->max_jobs.max >= 0)
		j->pj.caps[n++] = &u->max_jobs;
	if (j->queue && j->queue->index < u->nqcaps &&
	    u->qcaps[j->queue->index].max >= 0)
		j->pj.caps[n++] = &u->qcaps[j->queue->index];
	for (int i = 0; i < u->ngroups && n < POL_NCAPS; i++)
		j->pj.caps[n++] = &u->groups[i]->cap;
	/* The per-host counts only matter with a per-host user limit. */
	j->pj.user = mbd->pc.any_jlu || u->pu.jl_p >= 0 ? &u->pu : NULL;
	rlimits_attach(j);
}

/* Slots of a started job, by user and host (JL/U, JL/P). */
void
user_host_slots(struct job *j, int sign)
{
	struct muser *u = user_get(j->user);

	for (int i = 0; i < j->nexec; i++)
		u->pu.host_used[j->exec[i]->index] += sign;
	/* Those PREEMPT_FOR may leave out of JL/U and JL/P. */
	if (j->slots_free)
		for (int i = 0; i < j->nexec; i++)
			u->pu.host_susp[j->exec[i]->index] += sign;
}

/* After reconfig: limits may have changed; counts stay. */
void
users_reconfigure(void)
{
	for (size_t b = 0; b < USER_BUCKETS; b++)
		for (struct muser *u = users[b]; u; u = u->next)
			user_configure(u);
	for (struct mgroup *g = groups; g; g = g->next) {
		bool still = false;

		for (int i = 0; i < mbd->conf.nulimits; i++)
			if (strcmp(mbd->conf.ulimits[i].name, g->name) == 0) {
				g->cap.max = mbd->conf.ulimits[i].max_jobs;
				still = true;
			}
		if (!still)
			g->cap.max = -1;
	}
}

/*
 * After reconfig: every job points again at the limits now in force.
 * Jobs leave the slot accounting first (with the limits they counted
 * against, before those may move), then come back with the new ones.
 */
void
jobs_reattach_limits(void)
{
	int *st = xcalloc(mbd->njobs + 1, sizeof(int));
	size_t n = 0;
	struct job *j;

	for (j = mbd->jobs_head; j; j = j->next) {
		st[n++] = j->status;
		job_set_status(j, JOB_STAT_NULL);
	}
	users_reconfigure();
	rlimits_configure();
	n = 0;
	for (j = mbd->jobs_head; j; j = j->next) {
		job_attach_limits(j);
		job_set_status(j, st[n++]);
	}
	free(st);
}

/*
 * busers: the slots of the users' (or group members') unfinished jobs
 * by state, counted as bqueues counts them, and the lsb.users limits.
 * One pass over the jobs sums them per user (interned names, so the
 * pointer is the key); groups then add up their members' sums.
 */
struct uagg {
	const char	*user;
	struct user_info c;
};

struct aggs {
	struct uagg	*v;
	size_t		 n;
	struct uagg	**slot;		/* open addressing by pointer */
	size_t		 nslot;		/* a power of two */
	struct uagg	**byname;	/* sorted by name, for bsearch */
};

static int
cmp_agg(const void *a, const void *b)
{
	return strcmp((*(struct uagg *const *)a)->user,
	    (*(struct uagg *const *)b)->user);
}

/* A name a command sent: not interned, so compared as text. */
static const struct uagg *
agg_named(const struct aggs *a, const char *name)
{
	struct uagg key = { .user = name }, *kp = &key, **found;

	found = bsearch(&kp, a->byname, a->n, sizeof(*a->byname), cmp_agg);
	return found ? *found : NULL;
}

static void
user_count(struct user_info *ui, const struct job *j)
{
	int s = j->status, n = j->pj.num_procs, njobs = 1;

	if (JOB_IS_PARENT(j)) {
		/* It stands for its virtual pending elements. */
		int64_t all = (int64_t)n * j->arr->pend.count;

		n = all > INT32_MAX / 4 ? INT32_MAX / 4 : (int)all;
		njobs = (int)j->arr->pend.count;
	}
	if (JOB_STAT_PENDING(s)) {
		ui->npend += n;
		ui->npjobs += njobs;
	} else if (!JOB_STAT_STARTED(s))
		return;
	else if (s & JOB_STAT_USUSP)
		ui->nususp += n;
	else if (s & JOB_STAT_SSUSP)
		ui->nssusp += n;
	else
		ui->nrun += n;
	ui->njobs += n;
}

static struct uagg *
agg_find(const struct aggs *a, const char *user)
{
	size_t h = ((uintptr_t)user >> 4) & (a->nslot - 1);

	while (a->slot[h] != NULL && a->slot[h]->user != user)
		h = (h + 1) & (a->nslot - 1);
	return a->slot[h];
}

static void
aggs_build(struct aggs *a)
{
	memset(a, 0, sizeof(*a));
	a->nslot = 64;
	while (a->nslot < 2 * ((size_t)mbd->njobs + 1))
		a->nslot *= 2;
	a->slot = xcalloc(a->nslot, sizeof(*a->slot));
	a->v = xcalloc((size_t)mbd->njobs + 1, sizeof(*a->v));
	for (const struct job *j = mbd->jobs_head; j; j = j->next) {
		struct uagg *u;
		size_t h;

		if (JOB_STAT_FINISHED(j->status) || a->n > (size_t)mbd->njobs)
			continue;
		if ((u = agg_find(a, j->user)) == NULL) {
			u = &a->v[a->n++];
			u->user = j->user;
			h = ((uintptr_t)j->user >> 4) & (a->nslot - 1);
			while (a->slot[h] != NULL)
				h = (h + 1) & (a->nslot - 1);
			a->slot[h] = u;
		}
		user_count(&u->c, j);
	}
	a->byname = xcalloc(a->n + 1, sizeof(*a->byname));
	for (size_t i = 0; i < a->n; i++)
		a->byname[i] = &a->v[i];
	if (a->n > 1)
		qsort(a->byname, a->n, sizeof(*a->byname), cmp_agg);
}

static void
aggs_release(struct aggs *a)
{
	free(a->slot);
	free(a->byname);
	free(a->v);
}

static void
add_counts(struct user_info *to, const struct user_info *from)
{
	to->njobs += from->njobs;
	to->npend += from->npend;
	to->nrun += from->nrun;
	to->nssusp += from->nssusp;
	to->nususp += from->nususp;
	to->npjobs += from->npjobs;
}

static void
user_fill(struct user_info *ui, const char *name, const struct aggs *a)
{
	const struct user_limit *l = NULL;

	memset(ui, 0, sizeof(*ui));
	ui->name = xstrdup(name);
	ui->is_group = is_group(name);
	if (ui->is_group) {
		for (int i = 0; i < mbd->conf.nulimits; i++)
			if (strcmp(mbd->conf.ulimits[i].name, name) == 0)
				l = &mbd->conf.ulimits[i];
		for (size_t i = 0; i < a->n; i++)
			if (in_group(a->v[i].user, name, 0))
				add_counts(ui, &a->v[i].c);
	} else {
		const struct uagg *u = agg_named(a, name);

		l = own_limit(name);
		if (u != NULL)
			add_counts(ui, &u->c);
	}
	ui->max_jobs = l ? l->max_jobs : -1;
	ui->jl_p = l ? l->jl_p : -1;
	ui->max_pend_jobs = l ? l->max_pend_jobs : -1;
	ui->max_pend_slots = l ? l->max_pend_slots : -1;
	if (ui->max_pend_jobs < 0 && !ui->is_group)
		ui->max_pend_jobs = mbd->conf.params.max_pend_jobs;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every user with an unfinished job or a line in lsb.users, sorted,
 * then the user groups in file order. */
static void
all_names(const struct aggs *a, struct strv *out)
{
	struct strv u = STRV_INIT;

	for (size_t i = 0; i < a->n; i++)
		strv_push(&u, a->v[i].user);
	for (int i = 0; i < mbd->conf.nulimits; i++) {
		const char *n = mbd->conf.ulimits[i].name;
		size_t len = strlen(n);

		if (strcmp(n, "default") == 0 || (len > 0 &&
		    n[len - 1] == '@') || is_group(n) || strv_contains(&u, n))
			continue;
		strv_push(&u, n);
	}
	if (u.n > 1)
		qsort(u.v, u.n, sizeof(*u.v), cmp_name);
	for (size_t i = 0; i < u.n; i++)
		strv_push(out, u.v[i]);
	for (int i = 0; i < mbd->conf.nugroups; i++)
		strv_push(out, mbd->conf.ugroups[i].name);
	strv_release(&u);
}

void
query_users(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct strv names = STRV_INIT, want = STRV_INIT;
	struct user_list ul;
	struct aggs a;
	struct wbuf w;

	if (!get_strv(r, &names) || rbuf_end(r) < 0) {
		strv_release(&names);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	aggs_build(&a);
	if (names.n == 0 || strv_contains(&names, "all"))
		all_names(&a, &want);
	else
		for (size_t i = 0; i < names.n; i++)
			strv_push(&want, names.v[i]);
	ul.n = (uint32_t)want.n;
	ul.v = xcalloc(want.n + 1, sizeof(*ul.v));
	for (size_t i = 0; i < want.n; i++)
		user_fill(&ul.v[i], want.v[i], &a);
	wbuf_init(&w);
	user_list_frame(&w, MSG_USER_LIST, seq, &ul);
	user_list_release(&ul);
	aggs_release(&a);
	strv_release(&names);
	strv_release(&want);
	conn_send(c, &w);
	wbuf_release(&w);
}
