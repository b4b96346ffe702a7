/*
 * One scheduling pass (see policy.h for the rules).
 *
 * Cost: for each active queue the hosts are judged once (status,
 * thresholds, queue select) and sorted by the queue's order; a job with
 * no requirement of its own (one slot, no -m, no -R, not exclusive) then
 * takes the first of those with a free slot, in O(1) amortized.  Other
 * jobs are judged host by host.  When a queue has no free eligible slot
 * left, the pass stops walking it: the jobs it did not reach share the
 * queue's reason (cut_*), so a queue of a million pending jobs costs
 * nothing once it is full.  A job whose shape (requirement, slots, -m,
 * -x) already failed in this pass fails again without a host walk.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "policy-pass.h"
#include "util.h"

void
policy_sort_queues(struct pol_queue **q, int n)
{
	/* Insertion sort: a handful of queues, stable. */
	for (int i = 1; i < n; i++) {
		struct pol_queue *x = q[i];
		int j = i - 1;

		while (j >= 0 && (q[j]->priority < x->priority ||
		    (q[j]->priority == x->priority && q[j]->order > x->order))) {
			q[j + 1] = q[j];
			j--;
		}
		q[j + 1] = x;
	}
}

/* Fairshare: j into its account's list, before at (NULL: at the end). */
static void
fs_link(struct pol_job *j, struct pol_job *at)
{
	struct pol_fs_acct *a = j->fsa;

	j->fnext = at;
	j->fprev = at ? at->fprev : a->tail;
	if (j->fprev)
		j->fprev->fnext = j;
	else
		a->head = j;
	if (at)
		at->fprev = j;
	else
		a->tail = j;
	a->npend++;
}

/*
 * j was just put in q's list: put it in its account's list at the same
 * place, before the next job of the account in the queue's order.  That
 * is at hand for what is common (a submission at the tail, a job to the
 * head, an array's element before its parent); btop and bbot may look
 * further.
 */
static void
fs_place(struct pol_queue *q, struct pol_job *j)
{
	struct pol_job *at;

	if (j->fsa == NULL)
		return;
	if (j->fsa->queue != q) {
		/* Another queue's account: mbatchd sets the right one
		 * first; without it the job is not ordered by shares. */
		j->fsa = NULL;
		if (q->fs != NULL)
			q->fs_orphans++;
		return;
	}
	for (at = j->next; at != NULL && at->fsa != j->fsa; at = at->next)
		;
	fs_link(j, at);
}

static void
fs_unlink(struct pol_job *j)
{
	struct pol_fs_acct *a = j->fsa;

	if (a == NULL || (j->fprev == NULL && a->head != j))
		return;
	if (j->fprev)
		j->fprev->fnext = j->fnext;
	else
		a->head = j->fnext;
	if (j->fnext)
		j->fnext->fprev = j->fprev;
	else
		a->tail = j->fprev;
	j->fnext = j->fprev = NULL;
	a->npend--;
}

void
policy_job_append(struct pol_queue *q, struct pol_job *j)
{
	j->queue = q;
	j->next = NULL;
	j->prev = q->tail;
	if (q->tail)
		q->tail->next = j;
	else
		q->head = j;
	q->tail = j;
	if (j->fsa != NULL)
		fs_place(q, j);
	else if (q->fs != NULL)
		q->fs_orphans++;
}

void
policy_job_prepend(struct pol_queue *q, struct pol_job *j)
{
	j->queue = q;
	j->prev = NULL;
	j->next = q->head;
	if (q->head)
		q->head->prev = j;
	else
		q->tail = j;
	q->head = j;
	if (j->fsa != NULL)
		fs_place(q, j);
	else if (q->fs != NULL)
		q->fs_orphans++;
}

void
policy_job_insert_before(struct pol_queue *q, struct pol_job *at,
    struct pol_job *j)
{
	if (at == NULL) {
		policy_job_append(q, j);
		return;
	}
	j->queue = q;
	j->next = at;
	j->prev = at->prev;
	if (at->prev)
		at->prev->next = j;
	else
		q->head = j;
	at->prev = j;
	if (j->fsa != NULL)
		fs_place(q, j);
	else if (q->fs != NULL)
		q->fs_orphans++;
}

void
policy_job_insert_after(struct pol_queue *q, struct pol_job *at,
    struct pol_job *j)
{
	if (at == NULL) {
		policy_job_prepend(q, j);
		return;
	}
	j->queue = q;
	j->prev = at;
	j->next = at->next;
	if (at->next)
		at->next->prev = j;
	else
		q->tail = j;
	at->next = j;
	if (j->fsa != NULL)
		fs_place(q, j);
	else if (q->fs != NULL)
		q->fs_orphans++;
}

void
policy_job_remove(struct pol_job *j)
{
	struct pol_queue *q = j->queue;

	if (q == NULL)
		return;
	if (j->fsa == NULL && q->fs != NULL && (j->prev || q->head == j))
		q->fs_orphans--;
	if (j->prev)
		j->prev->next = j->next;
	else if (q->head == j)
		q->head = j->next;
	if (j->next)
		j->next->prev = j->prev;
	else if (q->tail == j)
		q->tail = j->prev;
	j->next = j->prev = NULL;
	fs_unlink(j);
}

struct pol_fs_acct *
policy_fs_acct(struct pol_queue *q, struct fs_node *leaf)
{
	struct pol_fs_acct *a;

	if (q->fs == NULL || leaf == NULL || q->fs_slot < 0 ||
	    q->fs_slot >= q->fs->nqueues)
		return NULL;
	if (leaf->accts == NULL)
		leaf->accts = xcalloc((size_t)q->fs->nqueues,
		    sizeof(*leaf->accts));
	if ((a = leaf->accts[q->fs_slot]) != NULL)
		return a;
	a = xcalloc(1, sizeof(*a));
	a->leaf = leaf;
	a->queue = q;
	a->qnext = q->faccts;
	q->faccts = a;
	leaf->accts[q->fs_slot] = a;
	return a;
}

void
policy_fs_relink(struct pol_queue *q)
{
	for (struct pol_fs_acct *a = q->faccts; a != NULL; a = a->qnext) {
		a->head = a->tail = NULL;
		a->npend = 0;
	}
	q->fs_orphans = 0;
	for (struct pol_job *j = q->head; j != NULL; j = j->next) {
		j->fnext = j->fprev = NULL;
		if (j->fsa != NULL && j->fsa->queue == q) {
			fs_link(j, NULL);
		} else {
			j->fsa = NULL;
			if (q->fs != NULL)
				q->fs_orphans++;
		}
	}
}

void
policy_fs_release(struct pol_queue *q)
{
	struct pol_fs_acct *a, *next;

	for (a = q->faccts; a != NULL; a = next) {
		next = a->qnext;
		for (struct pol_job *j = a->head, *jn; j != NULL; j = jn) {
			jn = j->fnext;
			j->fnext = j->fprev = NULL;
			j->fsa = NULL;
		}
		if (a->leaf->accts != NULL)
			a->leaf->accts[q->fs_slot] = NULL;
		free(a);
	}
	q->faccts = NULL;
	q->fs_orphans = 0;
}

void
policy_list_add(struct pol_list *l, struct pol_job *j)
{
	j->rnext = NULL;
	j->rprev = l->tail;
	if (l->tail)
		l->tail->rnext = j;
	else
		l->head = j;
	l->tail = j;
}

void
policy_list_remove(struct pol_list *l, struct pol_job *j)
{
	if (j->rprev)
		j->rprev->rnext = j->rnext;
	else if (l->head == j)
		l->head = j->rnext;
	if (j->rnext)
		j->rnext->rprev = j->rprev;
	else if (l->tail == j)
		l->tail = j->rprev;
	j->rnext = j->rprev = NULL;
}

int
policy_over_sched(const struct thresholds *t, const float *load)
{
	if (t == NULL || t->sched_set == 0)
		return -1;
	for (int i = 0; i < NLOADIDX; i++) {
		if (!(t->sched_set & (1u << i)))
			continue;
		if (load_index_info[i].increasing ? load[i] > t->sched[i] :
		    load[i] < t->sched[i])
			return i;
	}
	return -1;
}

void
policy_effective_load(const float *load, int ncpus, float *eff)
{
	float div = ncpus > 0 ? (float)ncpus : 1.0f;

	for (int i = 0; i < NLOADIDX; i++) {
		eff[i] = load[i];
		if ((i == LI_R15S || i == LI_R1M || i == LI_R15M) &&
		    load[i] < INFINIT_LOAD)
			eff[i] /= div;
	}
}

int
policy_over_sched_host(const struct thresholds *t, const float *load,
    int ncpus)
{
	float eff[NLOADIDX];

	if (t == NULL || t->sched_set == 0)
		return -1;
	policy_effective_load(load, ncpus, eff);
	return policy_over_sched(t, eff);
}

int
policy_over_ext(const struct thresholds *t, const struct rr_host *rh,
    bool stop)
{
	double v;

	if (t == NULL || t->next == 0 || rh == NULL)
		return -1;
	for (int i = 0; i < t->next; i++) {
		const struct ext_threshold *e = &t->ext[i];
		double lim = stop ? e->stop : e->sched;

		if (!(stop ? e->stop_set : e->sched_set) ||
		    !resreq_ext_value(rh, e->name, &v))
			continue;
		if (stop ? (e->increasing ? v >= lim : v <= lim) :
		    (e->increasing ? v > lim : v < lim))
			return i;
	}
	return -1;
}

/* The more restrictive of two thresholds of index i. */
static float
stricter(int i, float a, float b)
{
	if (load_index_info[i].increasing)
		return a < b ? a : b;
	return a > b ? a : b;
}

void
policy_thresholds_merge(struct thresholds *dst, const struct thresholds *src)
{
	if (src == NULL)
		return;
	for (int i = 0; i < NLOADIDX; i++) {
		unsigned bit = 1u << i;

		if (src->sched_set & bit)
			dst->sched[i] = dst->sched_set & bit ?
			    stricter(i, dst->sched[i], src->sched[i]) :
			    src->sched[i];
		if (src->stop_set & bit)
			dst->stop[i] = dst->stop_set & bit ?
			    stricter(i, dst->stop[i], src->stop[i]) :
			    src->stop[i];
	}
	dst->sched_set |= src->sched_set;
	dst->stop_set |= src->stop_set;
	for (int i = 0; i < src->next; i++) {
		const struct ext_threshold *s = &src->ext[i];
		struct ext_threshold *d = NULL;

		for (int k = 0; k < dst->next; k++)
			if (strcmp(dst->ext[k].name, s->name) == 0)
				d = &dst->ext[k];
		if (d == NULL) {
			if (dst->next == MAX_EXT_THRESHOLDS)
				continue;
			dst->ext[dst->next++] = *s;
			continue;
		}
		if (s->sched_set)
			d->sched = !d->sched_set ? s->sched : s->increasing ?
			    fminf(d->sched, s->sched) : fmaxf(d->sched, s->sched);
		if (s->stop_set)
			d->stop = !d->stop_set ? s->stop : s->increasing ?
			    fminf(d->stop, s->stop) : fmaxf(d->stop, s->stop);
		d->sched_set |= s->sched_set;
		d->stop_set |= s->stop_set;
	}
}

int
pass_free_slots(const struct pol_host *h)
{
	if (h->max_slots < 0)
		return INT_MAX;
	return h->max_slots - h->used_slots - h->taken + h->freed;
}

/* Why host h cannot serve queue q at all (0 = it can). */
static int
host_queue_reason(struct pass *p, struct pol_host *h)
{
	struct pol_queue *q = p->q;

	if (q->host_ok && !q->host_ok[h->index])
		return HR_NOT_USED_BY_QUEUE;
	if (!h->usable)
		return h->unusable_reason ? h->unusable_reason : HR_UNAVAIL;
	if (h->exclusive || h->took_exclusive)
		return HR_EXCLUSIVE;
	/* Run queue lengths per CPU (lsload -E), as LSF compares them. */
	if (policy_over_sched_host(h->thr, h->rr.load, h->rr.ncpus) >= 0 ||
	    policy_over_ext(h->thr, &h->rr, false) >= 0)
		return HR_LOAD_SCHED;
	if (policy_over_sched_host(q->thr, h->rr.load, h->rr.ncpus) >= 0 ||
	    policy_over_ext(q->thr, &h->rr, false) >= 0)
		return HR_QUEUE_LOAD;
	if (q->rr && !resreq_select(q->rr, &h->rr))
		return HR_RESREQ;
	return 0;
}

/* Slot-related reasons change during the pass; check them late. */
int
pass_room_reason(struct pass *p, struct pol_host *h, int need)
{
	/* An exclusive job took it earlier in this queue's turn (qreason,
	 * judged before, does not know). */
	if (h->took_exclusive)
		return HR_EXCLUSIVE;
	if (h->accept_closed ||
	    (p->q->accept_interval > 0 && h->last_dispatch > 0 &&
	    p->c->now - h->last_dispatch < p->q->accept_interval))
		return HR_JUST_STARTED;
	if (pass_free_slots(h) <= 0)
		return HR_FULL;
	if (pass_free_slots(h) < need)
		return HR_NOT_ENOUGH;
	return 0;
}

static int
min_room(int a, int b)
{
	return a < b ? a : b;
}

/* Processors of a host, for the per-processor limits. */
static int
host_cpus(const struct pol_host *h)
{
	return h->rr.ncpus > 0 ? h->rr.ncpus : 1;
}

void
pass_user_scratch(struct pass *p, struct pol_user *u)
{
	if (u->pass != p->c->pass) {
		u->pass = p->c->pass;
		memset(u->host_taken, 0, sizeof(int) * (size_t)p->c->nhosts);
	}
}

int
policy_rlim_need(const struct pol_rlim *r, const struct pol_job *j,
    int nslots, int nhosts)
{
	if (r->kind == POL_RL_JOBS)
		return 1;
	if (r->kind == POL_RL_MEM)
		return j->rl_mem * (nhosts > 0 ? nhosts : 1);
	return nslots > 0 ? nslots : j->num_procs > 0 ? j->num_procs : 1;
}

static void
rlim_scratch(struct pol_cluster *c, struct pol_rlim *r)
{
	if (r->hpass != c->pass) {
		r->hpass = c->pass;
		r->taker = NULL;
		if (r->host_taken)
			memset(r->host_taken, 0, sizeof(int) *
			    (size_t)c->nhosts);
	}
	(void)pass_cap_full(c, &r->cap, 0);
}

/* What is left of a by-host limit on host h (INT_MAX: no limit). */
static int
rlim_host_left(struct pass *p, struct pol_rlim *r, const struct pol_host *h)
{
	int max;

	rlim_scratch(p->c, r);
	if (!r->per_host)
		return r->cap.max < 0 ? INT_MAX :
		    r->cap.max - r->cap.used - r->cap.taken;
	if (r->host_max >= 0)
		max = r->host_max;
	else if (r->per_proc >= 0)
		max = (int)num_ceil((long double)r->per_proc *
		    (h->rr.ncpus > 0 ? h->rr.ncpus : 1));
	else if (r->mem_pct >= 0 && h->rr.maxmem > 0)
		max = (int)((double)r->mem_pct * h->rr.maxmem / 100);
	else
		return INT_MAX;
	return max - r->host_used[h->index] - r->host_taken[h->index];
}

/* A job given n slots on host h: its share of its by-host limits. */
static void
rlim_take(struct pass *p, struct pol_job *j, struct pol_host *h, int n)
{
	for (int k = 0; k < j->nrlims; k++) {
		struct pol_rlim *r = j->rlims[k];
		int amt;

		if (POL_RL_GLOBAL(r) || (r->hosts && !r->hosts[h->index]))
			continue;
		rlim_scratch(p->c, r);
		amt = policy_rlim_need(r, j, n, 1);
		if (r->per_host) {
			r->host_taken[h->index] += amt;
		} else if (r->kind != POL_RL_JOBS || r->taker != j) {
			r->cap.taken += amt;
			r->taker = j;
		}
	}
}

bool
pass_rlim_resume(struct pass *p, struct pol_job *v, bool take_it)
{
	for (int k = 0; k < v->nrlims; k++) {
		struct pol_rlim *r = v->rlims[k];
		int tot = 0, nh = 0;

		if (!r->cap.susp_free || POL_RL_GLOBAL(r))
			continue;
		rlim_scratch(p->c, r);
		/* Its slots host by host: a host's slots come together. */
		for (int i = 0, on; i < v->nexec; i += on) {
			int h = v->exec[i], amt, left;

			for (on = 1; i + on < v->nexec && v->exec[i + on] == h;)
				on++;
			if (h < 0 || h >= p->c->nhosts ||
			    (r->hosts && !r->hosts[h]))
				continue;
			amt = policy_rlim_need(r, v, on, 1);
			tot += on;
			nh++;
			if (!r->per_host)
				continue;
			left = rlim_host_left(p, r, p->c->hosts[h]);
			if (take_it)
				r->host_taken[h] += amt;
			else if (left != INT_MAX && amt > left)
				return false;
		}
		if (r->per_host || nh == 0)
			continue;
		if (take_it)
			r->cap.taken += policy_rlim_need(r, v, tot, nh);
		else if (r->cap.max >= 0 && policy_rlim_need(r, v, tot, nh) >
		    r->cap.max - r->cap.used - r->cap.taken)
			return false;
	}
	return true;
}

/*
 * A limit over several hosts together: the candidates' rooms, taken in
 * their order as the placement takes them, share what is left of it.
 */
static void
rlim_budget(struct pass *p, struct pol_job *j, const int *cand, int *room,
    int ncand)
{
	for (int k = 0; k < j->nrlims; k++) {
		struct pol_rlim *r = j->rlims[k];
		int left;

		if (POL_RL_GLOBAL(r) || r->per_host || r->cap.max < 0 ||
		    r->kind != POL_RL_SLOTS)
			continue;
		rlim_scratch(p->c, r);
		left = r->cap.max - r->cap.used - r->cap.taken;
		for (int i = 0; i < ncand; i++) {
			if (r->hosts && !r->hosts[cand[i]])
				continue;
			if (left < 0)
				left = 0;
			if (room[i] > left)
				room[i] = left;
			left -= room[i];
		}
	}
}

/*
 * The hosts' rooms were judged one by one: a limit over several hosts
 * together must also hold for all the slots placed on them.
 */
static int
rlim_shared_fit(struct pass *p, struct pol_job *j, const int *cand,
    const int *per, int ncand)
{
	for (int k = 0; k < j->nrlims; k++) {
		struct pol_rlim *r = j->rlims[k];
		int slots = 0, nh = 0, left;

		if (POL_RL_GLOBAL(r) || r->per_host || r->cap.max < 0)
			continue;
		for (int i = 0; i < ncand; i++)
			if (per[i] > 0 && (!r->hosts || r->hosts[cand[i]])) {
				slots += per[i];
				nh++;
			}
		if (nh == 0)
			continue;
		rlim_scratch(p->c, r);
		left = r->cap.max - r->cap.used - r->cap.taken;
		if (policy_rlim_need(r, j, slots, nh) > left)
			return r->hreason ? r->hreason : HR_RLIMIT_SLOT;
	}
	return 0;
}

/*
 * How many more slots of this job's queue and user host h may take
 * (INT_MAX: no limit), and the reason when none.
 */
int
pass_limit_room(struct pass *p, struct pol_job *j, struct pol_host *h, int *why)
{
	struct pol_queue *q = p->q;
	int room = INT_MAX, i = h->index;

	*why = 0;
	if (p->qhost_limits && q->host_used) {
		int used = q->host_used[i] + p->qtaken[i];

		if (q->hjob_limit >= 0 && q->hjob_limit - used < room) {
			room = q->hjob_limit - used;
			*why = HR_QUEUE_HOST_LIMIT;
		}
		if (q->pjob_limit >= 0) {
			int max = (int)(q->pjob_limit * host_cpus(h));

			if (max - used < room) {
				room = max - used;
				*why = HR_QUEUE_PROC_LIMIT;
			}
		}
	}
	if (j->user && j->user->host_used) {
		struct pol_user *u = j->user;
		int susp = u->host_susp ? u->host_susp[i] : 0;
		unsigned pf = p->c->preempt_for;
		int used, jlu_used, jlp_used;

		pass_user_scratch(p, u);
		used = u->host_used[i] + u->host_taken[i];
		/* PREEMPT_FOR: suspended jobs left out of JL/U, JL/P. */
		jlu_used = used - (pf & PREEMPT_FOR_HOST_JLU ? susp : 0);
		jlp_used = used - (pf & PREEMPT_FOR_USER_JLP ? susp : 0);
		if (h->jl_u >= 0 && h->jl_u - jlu_used < room) {
			room = h->jl_u - jlu_used;
			*why = HR_HOST_USER_LIMIT;
		}
		if (u->jl_p >= 0) {
			/* LSF rounds the per-processor user limit up. */
			int max = (int)num_ceil((long double)u->jl_p * host_cpus(h));

			if (max - jlp_used < room) {
				room = max - jlp_used;
				*why = HR_USER_PROC_LIMIT;
			}
		}
	}
	for (int k = 0; k < j->nrlims && j->rl_hosts; k++) {
		struct pol_rlim *r = j->rlims[k];
		int left;

		if (POL_RL_GLOBAL(r) || (r->hosts && !r->hosts[i]))
			continue;
		left = rlim_host_left(p, r, h);
		if (left == INT_MAX)
			continue;
		/* A job counts once (JOBS) or its rusage[mem] once
		 * (MEM) on a host, however many slots it has there. */
		if (r->kind != POL_RL_SLOTS)
			left = left >= policy_rlim_need(r, j, 0, 1) ?
			    INT_MAX : 0;
		if (left < room) {
			room = left;
			*why = r->hreason ? r->hreason : HR_RLIMIT_SLOT;
		}
	}
	if (room < 0)
		room = 0;
	return room;
}

/* Does some per-host limit apply to this job? */
bool
pass_has_host_limits(const struct pass *p, const struct pol_job *j)
{
	return p->qhost_limits || j->rl_hosts || (j->user &&
	    j->user->host_used && (p->c->any_jlu || j->user->jl_p >= 0));
}

/*
 * Sorting hosts by order[]: each candidate's sort keys are computed once
 * (resreq_order_values), not at every comparison, which at 10,000 hosts
 * was most of a pass.  qsort has no context argument, hence the statics.
 */
static const double *sort_vals;		/* nkeys values per host index */
static int sort_nkeys;
static struct pol_cluster *sort_c;

static int
cmp_hosts(const void *a, const void *b)
{
	int ia = *(const int *)a, ib = *(const int *)b, c;
	const char *na, *nb;

	c = resreq_order_cmp_values(sort_vals + (size_t)ia * sort_nkeys,
	    sort_vals + (size_t)ib * sort_nkeys, sort_nkeys);
	if (c != 0)
		return c;
	/* A full tie still needs an order that does not change. */
	na = sort_c->hosts[ia]->rr.name;
	nb = sort_c->hosts[ib]->rr.name;
	if (na == NULL || nb == NULL)
		return (na == NULL) - (nb == NULL);
	c = strcmp(na, nb);
	return c < 0 ? -1 : c > 0;
}

void
pass_sort_hosts(struct pol_cluster *c, int *idx, int n, const struct resreq *rr)
{
	int nk = resreq_order_nkeys(rr);
	double *vals;

	if (n < 2)
		return;
	vals = xmalloc(sizeof(double) * (size_t)c->nhosts * (size_t)nk);
	for (int i = 0; i < n; i++)
		resreq_order_values(rr, &c->hosts[idx[i]]->rr,
		    vals + (size_t)idx[i] * nk);
	sort_vals = vals;
	sort_nkeys = nk;
	sort_c = c;
	qsort(idx, (size_t)n, sizeof(*idx), cmp_hosts);
	free(vals);
}

static void
set_reason(struct pol_job *j, uint32_t pass, int reason,
    const uint32_t *counts)
{
	j->reason_pass = pass;
	j->pend_reason = reason;
	if (counts)
		memcpy(j->counts, counts, sizeof(j->counts));
	else
		memset(j->counts, 0, sizeof(j->counts));
}

/* Queue-level summary when no eligible host has room. */
static void
queue_summary(struct pass *p, uint32_t *counts)
{
	memset(counts, 0, sizeof(uint32_t) * HR_NREASONS);
	for (int i = 0; i < p->c->nhosts; i++) {
		struct pol_host *h = p->c->hosts[i];
		int r = h->qreason;

		if (r == 0)
			r = pass_room_reason(p, h, 1);
		if (r)
			counts[r]++;
	}
}

static struct shape *
shape_find(struct pass *p, const struct pol_job *j)
{
	for (int i = 0; i < p->nfailed; i++) {
		struct shape *s = &p->failed[i];

		/*
		 * mbatchd parses each job's -R on its own, so requirements
		 * are compared by what they ask, and the user (and the
		 * lsb.resources limits) only matter where per-host limits
		 * do: a queue of many users'
		 * identical jobs that cannot start costs one walk of the
		 * hosts per pass, not one per job.
		 */
		if (s->asked == j->asked && s->excl == j->excl &&
		    s->num_procs == j->num_procs &&
		    s->exclusive == j->exclusive &&
		    (s->rlims == j->rlims || (!s->rl_hosts && !j->rl_hosts)) &&
		    (s->user == j->user ||
		    (!s->limits && !pass_has_host_limits(p, j))) &&
		    resreq_equal(s->rr, j->rr))
			return s;
	}
	return NULL;
}

static void
shape_add(struct pass *p, const struct pol_job *j)
{
	struct shape *s = &p->failed[p->failed_next];

	s->rr = j->rr;
	s->user = j->user;
	s->rlims = j->rlims;
	s->rl_hosts = j->rl_hosts;
	s->limits = pass_has_host_limits(p, j);
	s->asked = j->asked;
	s->excl = j->excl;
	s->num_procs = j->num_procs;
	s->exclusive = j->exclusive;
	s->no_preempt = false;
	s->reason = j->pend_reason;
	memcpy(s->counts, j->counts, sizeof(s->counts));
	p->failed_next = (p->failed_next + 1) % SHAPE_CACHE;
	if (p->nfailed < SHAPE_CACHE)
		p->nfailed++;
}

bool
pass_asked_has(const struct pol_job *j, int host)
{
	for (int i = 0; i < j->nasked; i++)
		if (j->asked[i] == host)
			return true;
	return false;
}

bool
pass_excluded(const struct pol_job *j, int host)
{
	for (int i = 0; i < j->nexcl; i++)
		if (j->excl[i] == host)
			return true;
	return false;
}

/* A host's "+N" level in the job's -m list (0 if none). */
static int
asked_pref(const struct pol_job *j, int host)
{
	for (int i = 0; i < j->nasked; i++)
		if (j->asked[i] == host)
			return j->asked[j->nasked + i];
	return 0;
}

/*
 * -m "hostc+2 others": the candidates, already in the order of the
 * requirement, go by preference level first, higher levels first; a
 * stable insertion sort keeps the order within a level.
 */
void
pass_prefer_asked(const struct pol_job *j, int *cand, int ncand)
{
	int *lv;
	bool any = false;

	if (j->asked == NULL || j->nasked == 0)
		return;
	for (int i = 0; i < j->nasked && !any; i++)
		any = j->asked[j->nasked + i] != 0;
	if (!any)
		return;
	lv = xmalloc(sizeof(int) * (size_t)ncand + 1);
	for (int i = 0; i < ncand; i++)
		lv[i] = asked_pref(j, cand[i]);
	for (int i = 1; i < ncand; i++) {
		int c = cand[i], l = lv[i], k = i;

		for (; k > 0 && lv[k - 1] < l; k--) {
			cand[k] = cand[k - 1];
			lv[k] = lv[k - 1];
		}
		cand[k] = c;
		lv[k] = l;
	}
	free(lv);
}

void
pass_take(struct pass *p, struct pol_job *j, struct pol_host *h, int n,
    bool exclusive)
{
	h->taken += n;
	p->qtaken[h->index] += n;
	if (j->user && j->user->host_used) {
		pass_user_scratch(p, j->user);
		j->user->host_taken[h->index] += n;
	}
	if (j->rl_hosts)
		rlim_take(p, j, h, n);
	if (exclusive)
		h->took_exclusive = true;
	if (p->q->accept_interval > 0)
		h->accept_closed = true;
}

/* A job with no requirement of its own: first eligible host with room. */
static bool
place_plain(struct pass *p, struct pol_job *j, struct pol_decision *d)
{
	while (p->cursor < p->nelig) {
		struct pol_host *h = p->c->hosts[p->elig[p->cursor]];

		if (h->qreason == 0 && pass_room_reason(p, h, 1) == 0) {
			memset(d, 0, sizeof(*d));
			d->job = j;
			d->slots = xmalloc(sizeof(int));
			d->slots[0] = h->index;
			pass_take(p, j, h, 1, false);
			return true;
		}
		p->cursor++;
	}
	return false;
}

/* The value a host has for same[res]: type, model or a Boolean
 * resource's presence. */
static const char *
same_value(const struct pol_host *h, const char *res)
{
	if (strcasecmp(res, "type") == 0)
		return h->rr.type ? h->rr.type : "";
	if (strcasecmp(res, "model") == 0)
		return h->rr.model ? h->rr.model : "";
	if (h->rr.resources && strv_contains(h->rr.resources, res))
		return "1";
	return "0";
}

/* The load index of each rusage[] item, or -1: looked up once per job,
 * not once per host. */
int *
pass_rusage_keys(const struct resreq *rr)
{
	int n = rr ? rr->nrusage : 0;
	int *keys = xmalloc(sizeof(int) * (size_t)n + 1);

	for (int i = 0; i < n; i++)
		keys[i] = load_index_lookup(rr->rusage[i].name);
	return keys;
}

/* Does the host have what the job's rusage[] reserves (mem, swp, tmp:
 * what is left after the reservations of running jobs)? */
bool
pass_rusage_fits(const struct resreq *rr, const int *keys,
    const struct pol_host *h)
{
	for (int i = 0; rr && i < rr->nrusage; i++) {
		int k = keys[i];

		if (k < 0 || load_index_info[k].increasing)
			continue;
		if (h->rr.load[k] < INFINIT_LOAD &&
		    h->rr.load[k] < rr->rusage[i].value)
			return false;
	}
	return true;
}

static void
rusage_take(const struct resreq *rr, struct pol_host *h)
{
	for (int i = 0; rr && i < rr->nrusage; i++) {
		int k = load_index_lookup(rr->rusage[i].name);

		if (k < 0)
			continue;
		h->rsv_taken[k] += (float)rr->rusage[i].value;
		if (h->eff[k] < INFINIT_LOAD)
			h->eff[k] += load_index_info[k].increasing ?
			    (float)rr->rusage[i].value :
			    -(float)rr->rusage[i].value;
	}
}

/*
 * Choose slots among the candidate hosts (sorted best first), each with
 * room[] slots it may give this job: span[hosts=1] all on one, span
 * [ptile=n] at most n per host, otherwise the best hosts filled in turn.
 * Returns how many slots were placed into slots[].
 */
static int
pick_slots(const int *cand, const int *room, int ncand, int need,
    const struct resreq *rr, int *slots, int *per_host)
{
	int n = 0;
	bool one = rr && rr->span_hosts == 1;
	int ptile = rr && rr->span_ptile > 0 ? rr->span_ptile : 0;

	memset(per_host, 0, sizeof(int) * (size_t)ncand);
	for (int i = 0; i < ncand && n < need; i++) {
		int k = room[i];

		per_host[i] = 0;
		if (one) {
			if (k < need)
				continue;
			k = need;
		}
		if (ptile && k > ptile)
			k = ptile;
		if (ptile && k < ptile && need - n > k)
			continue;	/* a host must give a whole tile */
		if (k > need - n)
			k = need - n;
		per_host[i] = k;
		for (int s = 0; s < k; s++)
			slots[n++] = cand[i];
	}
	return n;
}

/* The load indices a job's rusage[] moves when it is placed. */
static unsigned
rusage_loads(const struct resreq *rr)
{
	unsigned m = 0;
	int k;

	for (int i = 0; rr && i < rr->nrusage; i++)
		if ((k = load_index_lookup(rr->rusage[i].name)) >= 0)
			m |= 1u << k;
	return m;
}

/*
 * Can a job's candidates be taken in the order of the queue's sorted
 * eligible hosts instead of being sorted again?  Yes when the job orders
 * hosts as the queue does and no load that order compares has moved
 * since that sort (rusage taken in this turn): the order is a true
 * ordering (resreq_order_values), so it is the order a sort would give.
 * At 10,000 hosts this is most of a pass.
 */
bool
pass_presorted(const struct pass *p, const struct resreq *rr)
{
	return resreq_order_same(rr, p->q->rr) &&
	    (resreq_order_loads(rr) & p->rsv_moved) == 0;
}

/* pass_host_reason, inlined in pass_place_general's walk of every host:
 * a call per host, its tests of the job made again each time, cost a
 * pass 6% more instructions (bench/sim, callgrind). */
static ALWAYS_INLINE int
host_reason(struct pass *p, struct pol_job *j, int i, int need,
    const int *keys, bool limits, int *lr)
{
	struct pol_host *h = p->c->hosts[i];
	int r = h->qreason;

	*lr = INT_MAX;
	/* A host the job did not ask for says so first. */
	if (j->asked && !pass_asked_has(j, i))
		r = HR_NOT_REQUESTED;
	if (r == 0 && j->excl && pass_excluded(j, i))
		r = HR_EXIT_EXCLUDED;
	if (r == 0 && j->rr && !resreq_select(j->rr, &h->rr))
		r = HR_RESREQ;
	if (r == 0 && j->exclusive && (h->used_slots > 0 || h->taken > 0))
		r = HR_EXCL_REQ;
	if (r == 0) {
		r = pass_room_reason(p, h, need > 0 ? need : 1);
		/* A preemptor's victims free the slots taken. */
		if (need == 0 && (r == HR_FULL || r == HR_NOT_ENOUGH))
			r = 0;
	}
	if (r == 0 && limits && (*lr = pass_limit_room(p, j, h, &r)) > 0)
		r = 0;
	if (r == 0 && !pass_rusage_fits(j->rr ? j->rr : p->q->rr, keys, h))
		r = HR_RESERVED;
	return r;
}

int
pass_host_reason(struct pass *p, struct pol_job *j, int i, int need,
    const int *keys, bool limits, int *lr)
{
	return host_reason(p, j, i, need, keys, limits, lr);
}

bool
pass_place_general(struct pass *p, struct pol_job *j, struct pol_decision *d)
{
	struct pol_cluster *c = p->c;
	const struct resreq *rr = j->rr ? j->rr : p->q->rr;
	int *cand = xmalloc(sizeof(int) * (size_t)c->nhosts * 3 + 1);
	int *room = cand + c->nhosts, *per = room + c->nhosts;
	int *slots, *keys;
	uint32_t counts[HR_NREASONS];
	int ncand = 0, need = j->num_procs > 0 ? j->num_procs : 1;
	bool one_host = rr && rr->span_hosts == 1;
	bool limits = pass_has_host_limits(p, j);
	int got = 0, fit;

	memset(counts, 0, sizeof(counts));
	if (need > POL_MAX_SLOTS) {
		/* Refused at submission; a log from elsewhere may hold it. */
		counts[HR_NOT_ENOUGH] = (uint32_t)c->nhosts;
		set_reason(j, c->pass, PEND_NO_HOST, counts);
		free(cand);
		return false;
	}
	keys = pass_rusage_keys(rr);
	for (int i = 0; i < c->nhosts; i++) {
		int lr, r = host_reason(p, j, i, one_host ? need : 1, keys,
		    limits, &lr);

		if (r) {
			counts[r]++;
			continue;
		}
		room[ncand] = min_room(pass_free_slots(c->hosts[i]), lr);
		cand[ncand++] = i;
	}
	free(keys);
	slots = xmalloc(sizeof(int) * (size_t)need);
	if (ncand > 0) {
		/* Sort the candidates; their room follows by host index
		 * (room + 1, so 0 marks a host that is not one; wide, as
		 * an unlimited host's room is INT_MAX). */
		int64_t *hr = xcalloc((size_t)c->nhosts, sizeof(*hr));
		int nsorted = 0;

		for (int i = 0; i < ncand; i++)
			hr[cand[i]] = (int64_t)room[i] + 1;
		if (pass_presorted(p, rr)) {
			/* per[] is free until pick_slots fills it. */
			for (int i = 0; i < p->nelig; i++)
				if (hr[p->elig[i]] > 0 && nsorted < ncand)
					per[nsorted++] = p->elig[i];
			if (nsorted == ncand)
				memcpy(cand, per, sizeof(int) *
				    (size_t)ncand);
		}
		if (nsorted != ncand)
			pass_sort_hosts(c, cand, ncand, rr);
		pass_prefer_asked(j, cand, ncand);
		for (int i = 0; i < ncand; i++)
			room[i] = (int)(hr[cand[i]] - 1);
		free(hr);
		if (j->rl_hosts)
			rlim_budget(p, j, cand, room, ncand);
		if (rr && rr->same) {
			/* Try each group of hosts that share the value, in
			 * the order of their best host. */
			for (int g = 0; g < ncand && got < need; g++) {
				const char *v = same_value(c->hosts[cand[g]],
				    rr->same);
				int *gc = xmalloc(sizeof(int) * (size_t)ncand);
				int *gr = xmalloc(sizeof(int) * (size_t)ncand);
				int ng = 0, seen = 0;

				for (int k = 0; k < g; k++)
					if (strcmp(same_value(c->hosts[cand[k]],
					    rr->same), v) == 0)
						seen = 1;
				for (int k = g; k < ncand && !seen; k++)
					if (strcmp(same_value(c->hosts[cand[k]],
					    rr->same), v) == 0) {
						gc[ng] = cand[k];
						gr[ng++] = room[k];
					}
				if (!seen && pick_slots(gc, gr, ng, need, rr,
				    slots, per) == need) {
					memcpy(cand, gc, sizeof(int) *
					    (size_t)ng);
					ncand = ng;
					got = need;
				}
				free(gc);
				free(gr);
			}
		} else if (pick_slots(cand, room, ncand, need, rr, slots,
		    per) == need) {
			got = need;
		}
		if (got == need && j->rl_hosts &&
		    (fit = rlim_shared_fit(p, j, cand, per, ncand)) != 0) {
			/* Each host had room; together they have not. */
			got = 0;
			counts[fit] += (uint32_t)ncand;
		} else if (got == 0)
			counts[HR_NOT_ENOUGH] += (uint32_t)ncand;
	}
	if (got == 0) {
		set_reason(j, c->pass, PEND_NO_HOST, counts);
		free(slots);
		free(cand);
		return false;
	}
	memset(d, 0, sizeof(*d));
	d->job = j;
	d->slots = slots;
	for (int i = 0; i < ncand; i++) {
		struct pol_host *h = c->hosts[cand[i]];

		if (per[i] == 0)
			continue;
		pass_take(p, j, h, per[i], j->exclusive);
		rusage_take(rr, h);
		p->rsv_moved |= rusage_loads(rr);
		/* Less is left: the queue's select and the thresholds,
		 * judged when its turn began, see it for the jobs after. */
		if (rr && rr->nrusage > 0 && h->qreason == 0)
			h->qreason = host_queue_reason(p, h);
	}
	free(cand);
	return true;
}

bool
pass_is_plain(const struct pass *p, const struct pol_job *j)
{
	return j->rr == NULL && j->asked == NULL && j->excl == NULL &&
	    !j->exclusive &&
	    j->num_procs <= 1 && !(p->q->rr && p->q->rr->nrusage > 0) &&
	    !pass_has_host_limits(p, j);
}

bool
pass_cap_full(struct pol_cluster *c, struct pol_cap *k, int need)
{
	if (k->pass != c->pass) {
		k->pass = c->pass;
		k->taken = 0;
	}
	return k->max >= 0 && k->used + k->taken + need > k->max;
}

/* The first limit the job would go over by starting one more, or 0. */
static int
caps_reason(struct pol_cluster *c, struct pol_job *j, struct pol_cap **which)
{
	*which = NULL;
	if (j->queue && pass_cap_full(c, &j->queue->qcap, j->num_procs))
		return j->queue->qcap.reason ? j->queue->qcap.reason :
		    PEND_QUEUE_JOB_LIMIT;
	for (int i = 0; i < POL_NCAPS; i++) {
		struct pol_cap *k = j->caps[i];
		int need;

		if (k == NULL)
			continue;
		if (k->pass != c->pass) {
			k->pass = c->pass;
			k->taken = 0;
		}
		need = k->per_job ? 1 : j->num_procs;
		if (k->max >= 0 && k->used + k->taken + need > k->max) {
			*which = k;
			return k->reason ? k->reason : PEND_USER_LIMIT;
		}
	}
	/* JOBS limits last: preemption may pass them (rlim_jobs). */
	for (int jobs = 0; jobs < 2; jobs++)
		for (int i = 0; i < j->nrlims; i++) {
			struct pol_rlim *r = j->rlims[i];

			if (POL_RL_GLOBAL(r) &&
			    (r->kind == POL_RL_JOBS) == (jobs == 1) &&
			    pass_cap_full(c, &r->cap,
			    policy_rlim_need(r, j, 0, 1))) {
				*which = &r->cap;
				return r->cap.reason;
			}
		}
	return 0;
}

/* Is k one of the job's JOBS limits? */
static bool
rlim_jobs(const struct pol_job *j, const struct pol_cap *k)
{
	for (int i = 0; i < j->nrlims; i++)
		if (&j->rlims[i]->cap == k)
			return j->rlims[i]->kind == POL_RL_JOBS;
	return false;
}

static void
caps_take(struct pol_job *j)
{
	if (j->queue)
		j->queue->qcap.taken += j->num_procs;
	for (int i = 0; i < POL_NCAPS; i++)
		if (j->caps[i])
			j->caps[i]->taken += j->caps[i]->per_job ? 1 :
			    j->num_procs;
	for (int i = 0; i < j->nrlims; i++) {
		if (POL_RL_GLOBAL(j->rlims[i]))
			j->rlims[i]->cap.taken += policy_rlim_need(j->rlims[i],
			    j, 0, 1);
		/* An array's next element is a job of its own. */
		j->rlims[i]->taker = NULL;
	}
}

/* The eligible hosts that have a free slot now. */
static int
count_room(struct pass *p)
{
	int room = 0;

	for (int i = 0; i < p->nelig; i++)
		if (pass_room_reason(p, p->c->hosts[p->elig[i]], 1) == 0)
			room++;
	return room;
}

/* Place one instance of j; *room is the count of eligible hosts that
 * may still have a free slot. */
static bool
place_one(struct pass *p, struct pol_job *j, struct pol_decision *d,
    int *room)
{
	struct pol_cluster *c = p->c;
	struct shape *s;
	uint32_t counts[HR_NREASONS];

	if (pass_is_plain(p, j)) {
		if (place_plain(p, j, d)) {
			set_reason(j, c->pass, PEND_NONE, NULL);
			return true;
		}
		*room = 0;
		queue_summary(p, counts);
		set_reason(j, c->pass, PEND_NO_HOST, counts);
		return false;
	}
	if ((s = shape_find(p, j)) != NULL) {
		set_reason(j, c->pass, s->reason, s->counts);
		return false;
	}
	if (pass_place_general(p, j, d)) {
		set_reason(j, c->pass, PEND_NONE, NULL);
		/* The slots it took may have been the last ones. */
		*room = count_room(p);
		return true;
	}
	shape_add(p, j);
	return false;
}

/*
 * No room for j: try preemption, unless a job of its shape could not
 * preempt in this pass either.
 */
static bool
try_preempt(struct pass *p, struct pol_job *j, struct pol_decision *d)
{
	struct pol_cluster *c = p->c;
	struct shape *s = shape_find(p, j);
	uint32_t counts[HR_NREASONS];

	if (s != NULL && s->no_preempt) {
		set_reason(j, c->pass, s->reason, s->counts);
		return false;
	}
	if (pass_preempt(p, j, d, NULL)) {
		set_reason(j, c->pass, PEND_NONE, NULL);
		return true;
	}
	if (s == NULL) {
		if (j->reason_pass != c->pass ||
		    j->pend_reason == PEND_NONE) {
			queue_summary(p, counts);
			set_reason(j, c->pass, PEND_NO_HOST, counts);
		}
		shape_add(p, j);
		s = &p->failed[(p->failed_next + SHAPE_CACHE - 1) %
		    SHAPE_CACHE];
	}
	s->no_preempt = true;
	return false;
}

bool
policy_new_job_waits(const struct pol_job *j, int64_t now)
{
	const struct pol_queue *q = j->queue;

	return q != NULL && q->new_job_delay > 0 &&
	    j->submit_time + q->new_job_delay > now;
}

/* Whether j is a candidate at all in this pass (else its reason is set). */
bool
pass_candidate(struct pass *p, struct pol_job *j)
{
	struct pol_cluster *c = p->c;

	if (j->held)
		return false;
	if (j->blocked) {
		set_reason(j, c->pass, j->blocked, NULL);
		return false;
	}
	if (j->eligible_time > c->now) {
		set_reason(j, c->pass, j->eligible_reason ?
		    j->eligible_reason : PEND_BEGIN_TIME, NULL);
		return false;
	}
	if (policy_new_job_waits(j, c->now)) {
		set_reason(j, c->pass, PEND_NEW_JOB, NULL);
		return false;
	}
	return true;
}

/* The queue's jobs not reached share reason (and counts). */
static void
queue_cut(struct pass *p, int reason, const uint32_t *counts)
{
	struct pol_queue *q = p->q;

	q->cut_pass = p->c->pass;
	q->cut_reason = reason;
	if (counts != NULL)
		memcpy(q->cut_counts, counts, sizeof(q->cut_counts));
	else
		memset(q->cut_counts, 0, sizeof(q->cut_counts));
}

int
pass_try_one(struct pass *p, struct pol_job *j, struct pol_decision *out,
    int max, int *n, bool some)
{
	struct pol_cluster *c = p->c;
	struct pol_queue *q = p->q;
	struct pol_cap *blk = NULL;
	uint32_t counts[HR_NREASONS];
	int r;

	if (q->qcap.max >= 0 && (q->qcap.pass != c->pass ||
	    q->qcap.used + q->qcap.taken >= q->qcap.max) &&
	    pass_cap_full(c, &q->qcap, 1)) {
		/* The queue is full: so is the rest. */
		queue_cut(p, q->qcap.reason ? q->qcap.reason :
		    PEND_QUEUE_JOB_LIMIT, NULL);
		if (some)
			set_reason(j, c->pass, q->cut_reason, NULL);
		return TRY_STOP;
	}
	if ((r = caps_reason(c, j, &blk)) != 0) {
		/* A limit suspended jobs do not count against: preempting
		 * some of those under it helps. */
		if (blk && blk->susp_free && *n < max &&
		    blk->preempt_failed != c->pass && pass_may_preempt(p)) {
			if (pass_preempt(p, j, &out[*n], blk))
				goto preempted;
			blk->preempt_failed = c->pass;
		}
		/* A JOBS limit (the only ones left) does not stop a job that
		 * takes slots by preemption; it starts over the limit (LSF's
		 * docs).  Only when no eligible host has a free slot, so that
		 * starting means preempting. */
		if (blk && rlim_jobs(j, blk) && *n < max && p->room == 0 &&
		    pass_may_preempt(p) && try_preempt(p, j, &out[*n]))
			goto preempted;
		set_reason(j, c->pass, r, NULL);
		return TRY_NEXT;
	}
	if (*n >= max || (p->room == 0 && (p->vic_exhausted ||
	    !pass_may_preempt(p)))) {
		/* Nothing more fits: the rest share one reason. */
		queue_summary(p, counts);
		queue_cut(p, PEND_NO_HOST, counts);
		if (some)	/* some elements started */
			set_reason(j, c->pass, PEND_NO_HOST, counts);
		return TRY_STOP;
	}
	if (p->room > 0 && place_one(p, j, &out[*n], &p->room))
		goto started;
	if (!pass_may_preempt(p) || !try_preempt(p, j, &out[*n]))
		return TRY_NEXT;
preempted:
	/* Its victims may have freed more than it took, on hosts the cursor
	 * and the cache had given up. */
	if (p->leftover) {
		p->leftover = false;
		p->cursor = 0;
		p->nfailed = p->failed_next = 0;
		p->room = count_room(p);
	}
started:
	caps_take(j);
	(*n)++;
	return TRY_STARTED;
}

static int
schedule_queue(struct pass *p, struct pol_decision *out, int max)
{
	struct pol_cluster *c = p->c;
	struct pol_queue *q = p->q;
	int n = 0;

	p->nelig = 0;
	p->cursor = 0;
	p->rsv_moved = 0;
	p->nfailed = 0;
	p->failed_next = 0;
	p->room = 0;
	for (int i = 0; i < c->nhosts; i++) {
		struct pol_host *h = c->hosts[i];

		h->qreason = host_queue_reason(p, h);
		if (h->qreason == 0) {
			p->elig[p->nelig++] = i;
			if (pass_room_reason(p, h, 1) == 0)
				p->room++;
		}
	}
	pass_sort_hosts(c, p->elig, p->nelig, q->rr);
	if (q->fs != NULL) {
		n = pass_fairshare(p, out, max);
		/* Jobs whose user has no share are never an account's turn;
		 * say why (rare: their share was taken away). */
		for (struct pol_job *j = q->fs_orphans > 0 ? q->head : NULL;
		    j != NULL; j = j->next)
			if (j->fsa == NULL && pass_candidate(p, j))
				set_reason(j, c->pass, PEND_NO_SHARE, NULL);
		return n;
	}
	for (struct pol_job *j = q->head; j; j = j->next) {
		int64_t want = j->count > 1 ? j->count : 1, left = want;

		if (!pass_candidate(p, j))
			continue;
		while (left > 0) {
			int r = pass_try_one(p, j, out, max, &n, left < want);

			if (r == TRY_STOP)
				return n;
			if (r == TRY_NEXT)
				break;
			left--;
		}
	}
	return n;
}

int
policy_schedule(struct pol_cluster *c, struct pol_decision *out, int max)
{
	struct pass p;
	int n = 0;

	memset(&p, 0, sizeof(p));
	p.c = c;
	p.elig = xmalloc(sizeof(int) * (size_t)(c->nhosts + 1));
	p.qtaken = xcalloc((size_t)c->nhosts + 1, sizeof(int));
	c->pass++;
	c->preempt_more = false;
	c->preempt_tries = c->preempt_done = 0;
	for (int i = 0; i < c->nhosts; i++) {
		struct pol_host *h = c->hosts[i];

		h->index = i;
		h->taken = 0;
		h->took_exclusive = false;
		h->accept_closed = false;
		h->freed = 0;
		/* Selection sees the load less what running jobs reserve. */
		if (h->rr.load != h->eff) {
			h->load = h->rr.load;
			h->rr.load = h->eff;
		}
		for (int k = 0; k < NLOADIDX; k++) {
			h->rsv_taken[k] = 0;
			h->eff[k] = h->load ? h->load[k] : INFINIT_LOAD;
			if (h->load == NULL)
				continue;
			if (h->load[k] < INFINIT_LOAD && h->rsv[k] != 0)
				h->eff[k] += load_index_info[k].increasing ?
				    h->rsv[k] : -h->rsv[k];
		}
	}
	for (int qi = 0; qi < c->nqueues && n < max; qi++) {
		struct pol_queue *q = c->queues[qi];

		p.q = q;
		/* Its preempted jobs first: slots are free for them. */
		if (q->preempted.head != NULL)
			n += pass_resume(&p, out + n, max - n);
		if (q->head == NULL)
			continue;
		if (!q->active) {
			queue_cut(&p, q->inactive_reason, NULL);
			continue;
		}
		p.qhost_limits = q->host_used &&
		    (q->hjob_limit >= 0 || q->pjob_limit >= 0);
		memset(p.qtaken, 0, sizeof(int) * (size_t)c->nhosts);
		n += schedule_queue(&p, out + n, max - n);
		pass_preempt_end(&p);
	}
	free(p.qtaken);
	free(p.elig);
	return n;
}

void
policy_decisions_free(struct pol_decision *d, int n)
{
	for (int i = 0; i < n; i++) {
		free(d[i].slots);
		free(d[i].victims);
		memset(&d[i], 0, sizeof(d[i]));
	}
}

int
policy_job_reason(const struct pol_cluster *c, const struct pol_job *j,
    const uint32_t **counts)
{
	const struct pol_queue *q = j->queue;

	*counts = NULL;
	if (j->blocked)
		return j->blocked;
	if (j->eligible_time > c->now)
		return j->eligible_reason ? j->eligible_reason : PEND_BEGIN_TIME;
	if (policy_new_job_waits(j, c->now))
		return PEND_NEW_JOB;
	if (j->reason_pass == c->pass && c->pass != 0) {
		*counts = j->counts;
		return j->pend_reason;
	}
	if (q && q->cut_pass == c->pass && c->pass != 0) {
		*counts = q->cut_counts;
		return q->cut_reason;
	}
	if (j->reason_pass != 0) {
		*counts = j->counts;
		return j->pend_reason;
	}
	return PEND_NEW_JOB;
}
