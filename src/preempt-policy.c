/*
 * Preemptive scheduling inside a pass (the rules are in policy.h).
 *
 * A pending job of a queue that may preempt, for which no host has room,
 * looks at the running jobs of the queues it may preempt.  The hosts it
 * could use are judged as for any placement, with their taken slots
 * allowed; the slots it lacks are then taken from victims in this order:
 * the queue preferred by PREEMPTIVE[q+N] (then the lowest PRIORITY),
 * the shortest-running first with PREEMPT_FOR=LEAST_RUN_TIME, the
 * least-loaded host (the job's order[]), the latest started.  Victims
 * are added until enough slots are free; then any victim the others
 * cover without is dropped again, so a job never takes more jobs than
 * it needs.  MINI_JOB takes, while one victim alone would do, the
 * smallest such; OPTIMAL_MINI_JOB the largest jobs first: the fewest.
 *
 * The victims' slots count as freed for the rest of the pass (pol_host
 * freed); mbatchd suspends them before it starts the job.  A victim is
 * taken once per pass, never from the preemptor's own queue (a queue is
 * not in its own victims), never a job started with brun or preempted
 * MAX_JOB_PREEMPT times (no_preempt).
 *
 * Cost: the victims are gathered once per queue turn, and only when a
 * job of a queue that may preempt finds no room; a job shape that could
 * not preempt is not tried again in the pass.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "policy-pass.h"
#include "util.h"

bool
preempt_may(const struct queue_conf *a, const struct queue_conf *b, int *pref)
{
	*pref = 0;
	if (a == b || a->priority <= b->priority)
		return false;
	if (a->preempt.preemptive) {
		if (a->preempt.victims.n == 0)
			return true;
		for (size_t i = 0; i < a->preempt.victims.n; i++)
			if (strcmp(a->preempt.victims.v[i], b->name) == 0) {
				*pref = a->preempt.pref[i];
				return true;
			}
	}
	if (b->preempt.preemptable)
		return b->preempt.by.n == 0 ||
		    strv_contains(&b->preempt.by, a->name);
	return false;
}

void
preempt_victim_queues(struct pol_queue *q, const struct queue_conf *qc,
    struct pol_queue *const *queues, const struct queue_conf *const *confs,
    int n)
{
	int *pref = xmalloc(sizeof(int) * (size_t)n + 1);
	int *prio = xmalloc(sizeof(int) * (size_t)n + 1);
	int k = 0;

	free(q->victims);
	q->victims = xcalloc((size_t)n + 1, sizeof(*q->victims));
	for (int i = 0; i < n; i++) {
		int p, at;

		if (!preempt_may(qc, confs[i], &p))
			continue;
		/* Insert: higher +N first, then lower priority, then the
		 * order of lsb.queues (the order given). */
		for (at = k; at > 0; at--) {
			if (pref[at - 1] > p || (pref[at - 1] == p &&
			    prio[at - 1] <= confs[i]->priority))
				break;
			q->victims[at] = q->victims[at - 1];
			pref[at] = pref[at - 1];
			prio[at] = prio[at - 1];
		}
		q->victims[at] = queues[i];
		pref[at] = p;
		prio[at] = confs[i]->priority;
		k++;
	}
	q->nvictims = k;
	if (k == 0) {
		free(q->victims);
		q->victims = NULL;
	}
	free(pref);
	free(prio);
}

static void
gather(struct pass *p)
{
	struct pol_cluster *c = p->c;
	struct pol_queue *q = p->q;
	int cap = 0;

	p->vic_built = true;
	p->nvics = 0;
	p->vic_slots = 0;
	free(p->vhost);
	p->vhost = xcalloc((size_t)c->nhosts + 1, sizeof(int));
	for (int r = 0; r < q->nvictims; r++) {
		for (struct pol_job *v = q->victims[r]->running.head; v;
		    v = v->rnext) {
			if (v->no_preempt || v->victim_pass == c->pass ||
			    v->nexec == 0)
				continue;
			if (p->nvics == cap) {
				cap = cap ? cap * 2 : 64;
				p->vics = xrealloc(p->vics,
				    sizeof(*p->vics) * (size_t)cap);
				p->vrank = xrealloc(p->vrank,
				    sizeof(int) * (size_t)cap);
			}
			p->vics[p->nvics] = v;
			p->vrank[p->nvics++] = r;
			for (int s = 0; s < v->nexec; s++)
				if (v->exec[s] >= 0 && v->exec[s] < c->nhosts)
					p->vhost[v->exec[s]]++;
			p->vic_slots += v->nexec;
		}
	}
	free(p->voff);
	free(p->vexec);
	free(p->vgone);
	p->voff = xcalloc((size_t)p->nvics + 1, sizeof(int));
	p->vexec = xcalloc((size_t)p->vic_slots + 1, sizeof(int));
	p->vgone = xcalloc((size_t)p->nvics + 1, sizeof(bool));
	for (int i = 0, x = 0; i < p->nvics; i++) {
		const struct pol_job *v = p->vics[i];

		for (int s = 0; s < v->nexec; s++)
			p->vexec[x++] = v->exec[s];
		p->voff[i + 1] = x;
	}
}

static int
tries_max(const struct pol_cluster *c)
{
	return c->preempt_tries_max > 0 ? c->preempt_tries_max :
	    POL_PREEMPT_TRIES;
}

bool
pass_may_preempt(struct pass *p)
{
	if (p->q->nvictims == 0)
		return false;
	if (p->c->preempt_tries >= tries_max(p->c)) {
		/* Another pass at once only if this one got somewhere:
		 * searches that all fail wait for the next tick. */
		p->c->preempt_more = p->c->preempt_done > 0;
		return false;
	}
	if (!p->vic_built)
		gather(p);
	return p->vic_slots > 0;
}

void
pass_preempt_end(struct pass *p)
{
	free(p->vics);
	free(p->vrank);
	free(p->vhost);
	free(p->voff);
	free(p->vexec);
	free(p->vgone);
	free(p->porder);
	free(p->pidx);
	free(p->elig_pos);
	p->vics = NULL;
	p->vrank = NULL;
	p->vhost = NULL;
	p->voff = p->vexec = NULL;
	p->vgone = NULL;
	p->porder = NULL;
	p->pidx = NULL;
	p->elig_pos = NULL;
	p->nporder = p->pcur = 0;
	p->leftover = false;
	p->vic_exhausted = false;
	p->nvics = p->vic_slots = 0;
	p->vic_built = false;
}

/* One candidate victim of one job. */
struct cand {
	struct pol_job	*v;
	int		 idx;		/* in p->vics */
	int		 rank;		/* its queue's preference */
	int		 hostpos;	/* its best host in the job's order */
	int		 slots;		/* slots it frees where they count */
	int		 capn;		/* its share of the limit in the way */
	bool		 taken;
	int		 at;		/* its position in the job's list */
};

static unsigned cmp_flags;

static int
cmp_cand(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;

	if ((cmp_flags & PREEMPT_FOR_OPTIMAL_MINI_JOB) && a->slots != b->slots)
		return a->slots > b->slots ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if ((cmp_flags & PREEMPT_FOR_LEAST_RUN_TIME) &&
	    a->v->start_time != b->v->start_time)
		return a->v->start_time > b->v->start_time ? -1 : 1;
	if (a->hostpos != b->hostpos)
		return a->hostpos < b->hostpos ? -1 : 1;
	if (a->v->start_time != b->v->start_time)
		return a->v->start_time > b->v->start_time ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int
cap_share(const struct pol_job *v, const struct pol_cap *k)
{
	if (k == NULL)
		return 0;
	for (int i = 0; i < POL_NCAPS; i++)
		if (v->caps[i] == k)
			return k->per_job ? 1 : v->num_procs;
	/* An lsb.resources limit (its cap first in struct pol_rlim). */
	for (int i = 0; i < v->nrlims; i++)
		if (&v->rlims[i]->cap == k)
			return policy_rlim_need(v->rlims[i], v, 0, 1);
	return 0;
}

/*
 * Choose among cs[0..n) (sorted) victims freeing at least need slots and
 * capneed of the limit; marks them taken.  Returns how many, 0 if they
 * cannot.
 */
static int
choose(struct cand *cs, int n, int need, int capneed, unsigned flags)
{
	int got = 0, gotcap = 0, nch = 0;
	int *order = xmalloc(sizeof(int) * (size_t)n + 1);

	for (int i = 0; i < n; i++)
		cs[i].taken = false;
	while (got < need || gotcap < capneed) {
		int pick = -1;

		if ((flags & PREEMPT_FOR_MINI_JOB) && need - got > 0) {
			/* The smallest one that alone is enough. */
			for (int i = 0; i < n; i++)
				if (!cs[i].taken && cs[i].slots >= need - got &&
				    cs[i].capn >= capneed - gotcap &&
				    (pick < 0 || cs[i].slots < cs[pick].slots))
					pick = i;
		}
		for (int i = 0; i < n && pick < 0; i++)
			if (!cs[i].taken && (cs[i].slots > 0 ||
			    (gotcap < capneed && cs[i].capn > 0)))
				pick = i;
		if (pick < 0)
			break;
		cs[pick].taken = true;
		got += cs[pick].slots;
		gotcap += cs[pick].capn;
		order[nch++] = pick;
	}
	if (got < need || gotcap < capneed) {
		for (int i = 0; i < n; i++)
			cs[i].taken = false;
		free(order);
		return 0;
	}
	/* Drop, latest chosen first, any the others make unnecessary. */
	for (int k = nch - 1; k >= 0; k--) {
		struct cand *x = &cs[order[k]];

		if (got - x->slots >= need && gotcap - x->capn >= capneed) {
			x->taken = false;
			got -= x->slots;
			gotcap -= x->capn;
			nch--;
		}
	}
	free(order);
	return nch;
}

static void
sift_down(struct cand *cs, int n, int i)
{
	for (;;) {
		int m = i, l = 2 * i + 1, r = l + 1;
		struct cand t;

		if (l < n && cmp_cand(&cs[l], &cs[m]) < 0)
			m = l;
		if (r < n && cmp_cand(&cs[r], &cs[m]) < 0)
			m = r;
		if (m == i)
			return;
		t = cs[i];
		cs[i] = cs[m];
		cs[m] = t;
		i = m;
	}
}

/*
 * Put in cs[0..k) the first candidates in cmp_cand order, as many as
 * choose() looks at, the rest after them in no order, and return k.
 * Sorting thousands of running jobs for each preemptor that needs one
 * or two of them was most of a pass; a heap gives the first ones.
 * MINI_JOB looks at every candidate: all are sorted.
 */
static int
sort_prefix(struct cand *cs, int n, int need, int capneed, unsigned flags)
{
	struct cand *out;
	int k = 0, m = n, got = 0, gotcap = 0;

	if ((flags & PREEMPT_FOR_MINI_JOB) || n < 64) {
		qsort(cs, (size_t)n, sizeof(*cs), cmp_cand);
		return n;
	}
	for (int i = m / 2 - 1; i >= 0; i--)
		sift_down(cs, m, i);
	out = xmalloc(sizeof(*out) * (size_t)n);
	/* What choose() takes, in the same order, until it has enough. */
	while (m > 0 && (got < need || gotcap < capneed)) {
		struct cand top = cs[0];

		cs[0] = cs[--m];
		sift_down(cs, m, 0);
		if (top.slots > 0 || (gotcap < capneed && top.capn > 0)) {
			got += top.slots;
			gotcap += top.capn;
		}
		out[k++] = top;
	}
	memcpy(out + k, cs, sizeof(*cs) * (size_t)m);
	memcpy(cs, out, sizeof(*cs) * (size_t)n);
	free(out);
	return m == 0 ? n : k;
}

/* The victims' slots, on host (or on every candidate when host < 0). */
static void
cand_slots(const struct pass *p, struct cand *cs, int n, int host,
    const int *pos, const char *own, const struct pol_user *u)
{
	for (int i = 0; i < n; i++) {
		int k = cs[i].idx;

		cs[i].slots = 0;
		for (int x = p->voff[k]; x < p->voff[k + 1]; x++)
			if ((host < 0 ? pos[p->vexec[x]] >= 0 :
			    p->vexec[x] == host) &&
			    (!own[p->vexec[x]] || cs[i].v->user == u))
				cs[i].slots++;
	}
}

/* Each candidate host of v once: counted into at[h], or when list is
 * given, i put at list[at[h]++]. */
static void
victim_hosts(const struct pass *p, int k, const int *pos, int *at,
    int *list, int i)
{
	const int *e = p->vexec + p->voff[k];
	int n = p->voff[k + 1] - p->voff[k];

	for (int s = 0; s < n; s++) {
		int h = e[s], t;

		if (pos[h] < 0)
			continue;
		for (t = 0; t < s && e[t] != h; t++)
			;
		if (t < s)
			continue;
		if (list != NULL)
			list[at[h]++] = i;
		else
			at[h]++;
	}
}

/*
 * For each candidate host (pos[] >= 0), the positions in cs of the
 * victims with a slot there, in cs order: from (*start)[h] to
 * (*start)[h + 1] of the list returned.  *sub: room for ncs candidates.
 */
static int *
victims_by_host(const struct pass *p, const struct cand *cs, int ncs,
    const int *pos, int **start, struct cand **sub)
{
	const struct pol_cluster *c = p->c;
	int *st = xcalloc((size_t)c->nhosts + 2, sizeof(int)), *list, *fill;

	for (int i = 0; i < ncs; i++)
		victim_hosts(p, cs[i].idx, pos, st + 1, NULL, i);
	for (int h = 0; h < c->nhosts; h++)
		st[h + 1] += st[h];
	list = xcalloc((size_t)st[c->nhosts] + 1, sizeof(int));
	fill = xcalloc((size_t)c->nhosts + 1, sizeof(int));
	memcpy(fill, st, sizeof(int) * (size_t)c->nhosts);
	for (int i = 0; i < ncs; i++)
		victim_hosts(p, cs[i].idx, pos, fill, list, i);
	free(fill);
	*start = st;
	*sub = xcalloc((size_t)ncs + 1, sizeof(**sub));
	return list;
}

/*
 * Does PREEMPT_FOR leave suspended jobs out of every per-host limit of
 * user u on host h (JL/U with HOST_JLU, JL/P with USER_JLP)?  Then
 * preempting u's own jobs there makes room under them.
 */
static bool
user_limits_free(const struct pass *p, const struct pol_user *u,
    const struct pol_host *h)
{
	unsigned pf = p->c->preempt_for;

	if (u == NULL || u->host_used == NULL)
		return false;
	if (h->jl_u < 0 && u->jl_p < 0)
		return false;
	return (h->jl_u < 0 || (pf & PREEMPT_FOR_HOST_JLU)) &&
	    (u->jl_p < 0 || (pf & PREEMPT_FOR_USER_JLP));
}

/*
 * The cluster-wide limits that leave v out while it is suspended
 * (susp_free): with check, whether each has room for v's share again;
 * else each one's taken moved by sign times that share.
 */
static bool
susp_limits(struct pol_cluster *c, struct pol_job *v, int sign, bool check)
{
	for (int k = 0; k < POL_NCAPS + v->nrlims; k++) {
		struct pol_cap *cap;
		int share;

		if (k < POL_NCAPS) {
			cap = v->caps[k];
			if (cap == NULL)
				continue;
			share = cap->per_job ? 1 : v->num_procs;
		} else {
			struct pol_rlim *r = v->rlims[k - POL_NCAPS];

			if (!POL_RL_GLOBAL(r))
				continue;
			cap = &r->cap;
			share = policy_rlim_need(r, v, 0, 1);
		}
		if (!cap->susp_free)
			continue;
		if (check) {
			if (pass_cap_full(c, cap, share))
				return false;
		} else {
			(void)pass_cap_full(c, cap, 0);	/* its scratch */
			cap->taken += sign * share;
		}
	}
	return true;
}

static void
set_victims(struct pass *p, struct cand *cs, int n, bool on)
{
	struct pol_cluster *c = p->c;

	for (int i = 0; i < n; i++) {
		struct pol_job *v = cs[i].v;

		if (!cs[i].taken)
			continue;
		v->victim_pass = on ? c->pass : 0;
		p->vgone[cs[i].idx] = on;
		for (int s = 0; s < v->nexec; s++) {
			int h = v->exec[s];

			if (h < 0 || h >= c->nhosts)
				continue;
			c->hosts[h]->freed += on ? 1 : -1;
			p->vhost[h] += on ? -1 : 1;
			/* Out of its user's per-host counts, too. */
			if (user_limits_free(p, v->user, c->hosts[h])) {
				pass_user_scratch(p, v->user);
				v->user->host_taken[h] += on ? -1 : 1;
			}
		}
		p->vic_slots += on ? -v->nexec : v->nexec;
		(void)susp_limits(c, v, on ? -1 : 1, false);
	}
}

/*
 * The candidates in the order of the queue's sorted eligible hosts, when
 * the job sorts hosts as its queue does (as pass_place_general takes
 * them): sorting them again for each preemptor was a quarter of a pass
 * of many preemptions.  pos[] is -1 for every host on entry and is left
 * so.  False when they must be sorted.
 */
static bool
presorted_cand(struct pass *p, const struct resreq *rr, int *cand, int ncand,
    int *pos)
{
	int *out, k = 0;

	if (ncand < 2 || !pass_presorted(p, rr))
		return false;
	for (int i = 0; i < ncand; i++)
		pos[cand[i]] = 0;
	out = xmalloc(sizeof(int) * (size_t)ncand);
	for (int i = 0; i < p->nelig && k < ncand; i++)
		if (pos[p->elig[i]] == 0)
			out[k++] = p->elig[i];
	for (int i = 0; i < ncand; i++)
		pos[cand[i]] = -1;
	if (k == ncand)
		memcpy(cand, out, sizeof(int) * (size_t)ncand);
	free(out);
	return k == ncand;
}

/* A victim's best host for a one-slot job: its eligible host first in
 * the queue's order; INT_MAX if none. */
static int
best_elig(const struct pass *p, const struct pol_job *v)
{
	int best = INT_MAX;

	for (int s = 0; s < v->nexec; s++) {
		int e = p->elig_pos[v->exec[s]];

		if (e >= 0 && e < best)
			best = e;
	}
	return best;
}

/*
 * The victims in the order one-slot jobs with no requirement of their
 * own take them (as cmp_cand, the host's place being its place in the
 * queue's sorted eligible hosts): sorted once per queue turn, then each
 * such job takes the next, in O(1) amortized, as place_plain takes the
 * next free slot.
 */
static void
plain_order(struct pass *p)
{
	struct cand *cs = xcalloc((size_t)p->nvics + 1, sizeof(*cs));
	int n = 0;

	p->elig_pos = xmalloc(sizeof(int) * (size_t)p->c->nhosts + 1);
	for (int i = 0; i < p->c->nhosts; i++)
		p->elig_pos[i] = -1;
	for (int i = 0; i < p->nelig; i++)
		p->elig_pos[p->elig[i]] = i;
	for (int i = 0; i < p->nvics; i++) {
		int best = best_elig(p, p->vics[i]);

		if (best == INT_MAX)
			continue;
		cs[n].v = p->vics[i];
		cs[n].idx = i;
		cs[n].rank = p->vrank[i];
		cs[n].hostpos = best;
		cs[n].slots = 1;
		n++;
	}
	cmp_flags = p->c->preempt_for & ~(unsigned)(PREEMPT_FOR_MINI_JOB |
	    PREEMPT_FOR_OPTIMAL_MINI_JOB);
	qsort(cs, (size_t)n, sizeof(*cs), cmp_cand);
	p->porder = xcalloc((size_t)n + 1, sizeof(*p->porder));
	p->pidx = xcalloc((size_t)n + 1, sizeof(*p->pidx));
	for (int i = 0; i < n; i++) {
		p->porder[i] = cs[i].v;
		p->pidx[i] = cs[i].idx;
	}
	p->nporder = n;
	p->pcur = 0;
	free(cs);
}

static bool
preempt_plain(struct pass *p, struct pol_job *j, struct pol_decision *d)
{
	struct pol_cluster *c = p->c;

	if (p->porder == NULL)
		plain_order(p);
	for (; p->pcur < p->nporder; p->pcur++) {
		struct pol_job *v = p->porder[p->pcur];
		struct cand one;
		int h = -1, best = INT_MAX;

		if (v->victim_pass == c->pass)
			continue;
		/* Its first eligible host that can take a job now. */
		for (int s = 0; s < v->nexec; s++) {
			int e = p->elig_pos[v->exec[s]], r;

			if (e < 0 || e >= best)
				continue;
			r = pass_room_reason(p, c->hosts[v->exec[s]], 1);
			if (r == 0 || r == HR_FULL || r == HR_NOT_ENOUGH) {
				best = e;
				h = v->exec[s];
			}
		}
		if (h < 0)
			continue;
		memset(d, 0, sizeof(*d));
		d->job = j;
		d->slots = xmalloc(sizeof(int));
		d->slots[0] = h;
		if (pass_room_reason(p, c->hosts[h], 1) == 0) {
			/* A slot there is free after all (an earlier victim
			 * of more slots left it): it needs no victim. */
			pass_take(p, j, c->hosts[h], 1, false);
			return true;
		}
		memset(&one, 0, sizeof(one));
		one.v = v;
		one.idx = p->pidx[p->pcur];
		one.taken = true;
		set_victims(p, &one, 1, true);
		d->victims = xcalloc(2, sizeof(*d->victims));
		d->victims[0] = v;
		d->nvictims = 1;
		pass_take(p, j, c->hosts[h], 1, false);
		/* A parallel victim leaves slots for the jobs after. */
		if (v->nexec > 1)
			p->leftover = true;
		p->pcur++;
		return true;
	}
	/* No victim is left on a host any job of the queue could use. */
	p->vic_exhausted = true;
	return false;
}

bool
pass_preempt(struct pass *p, struct pol_job *j, struct pol_decision *d,
    struct pol_cap *cap)
{
	struct pol_cluster *c = p->c;
	const struct resreq *rr = j->rr ? j->rr : p->q->rr;
	int need = j->num_procs > 0 ? j->num_procs : 1;
	int ptile = rr && rr->span_ptile > 0 ? rr->span_ptile : 0;
	bool one = rr && rr->span_hosts == 1, limits;
	int *cand, *freeh, *pos, *keys, ncand = 0, totfree = 0;
	int capneed = 0, nch = 0, ncs = 0;
	char *own;
	struct cand *cs;
	bool ok = false;

	if (j->exclusive || !pass_may_preempt(p))
		return false;
	if (cap == NULL && pass_is_plain(p, j))
		return preempt_plain(p, j, d);
	c->preempt_tries++;
	if (cap != NULL) {
		(void)pass_cap_full(c, cap, 0);
		capneed = cap->used + cap->taken +
		    (cap->per_job ? 1 : need) - cap->max;
	}
	limits = pass_has_host_limits(p, j);
	cand = xmalloc(sizeof(int) * (size_t)c->nhosts * 3 + 1);
	freeh = cand + c->nhosts;
	pos = freeh + c->nhosts;
	/* Hosts where the job's user is at a per-host limit that leaves
	 * suspended jobs out: only the user's own jobs there help. */
	own = xcalloc((size_t)c->nhosts + 1, 1);
	keys = pass_rusage_keys(rr);
	for (int i = 0; i < c->nhosts; i++) {
		struct pol_host *h = c->hosts[i];
		int r, lr, fr;

		pos[i] = -1;
		/* No victim there and no free slot: it cannot help (the
		 * test below, made before the costly ones). */
		if (cap == NULL && p->vhost[i] == 0 && pass_free_slots(h) <= 0)
			continue;
		r = pass_host_reason(p, j, i, 0, keys, limits, &lr);
		if ((r == HR_HOST_USER_LIMIT || r == HR_USER_PROC_LIMIT) &&
		    lr <= 0 && user_limits_free(p, j->user, h)) {
			own[i] = 1;
			/* The check the limit stopped. */
			r = pass_rusage_fits(rr, keys, h) ? 0 : HR_RESERVED;
		}
		if (r != 0)
			continue;
		fr = pass_free_slots(h);
		fr = own[i] ? 0 : fr < 0 ? 0 : fr > lr ? lr : fr;
		if (fr == 0 && p->vhost[i] == 0 && cap == NULL)
			continue;
		freeh[i] = fr;
		totfree += fr > need ? need : fr;
		cand[ncand++] = i;
	}
	free(keys);
	if (ncand == 0)
		goto out;
	if (!presorted_cand(p, rr, cand, ncand, pos))
		pass_sort_hosts(c, cand, ncand, rr);
	pass_prefer_asked(j, cand, ncand);
	for (int i = 0; i < ncand; i++)
		pos[cand[i]] = i;

	/* The victims that could help this job. */
	cs = xcalloc((size_t)p->nvics + 1, sizeof(*cs));
	for (int i = 0; i < p->nvics; i++) {
		int best = INT_MAX, on = 0, cn;

		if (p->vgone[i])
			continue;
		for (int x = p->voff[i]; x < p->voff[i + 1]; x++) {
			int at = pos[p->vexec[x]];

			if (own[p->vexec[x]] && p->vics[i]->user != j->user)
				continue;
			if (at >= 0) {
				on++;
				if (at < best)
					best = at;
			}
		}
		/* With a limit in the way, only jobs under it help. */
		cn = cap != NULL ? cap_share(p->vics[i], cap) : 0;
		if (cap != NULL ? cn == 0 : on == 0)
			continue;
		cs[ncs].v = p->vics[i];
		cs[ncs].idx = i;
		cs[ncs].rank = p->vrank[i];
		cs[ncs].hostpos = best;
		cs[ncs].capn = cn;
		cs[ncs].at = ncs;
		ncs++;
	}
	if (ncs == 0)
		goto done;
	cmp_flags = c->preempt_for;
	if (one || ptile) {
		/* Host by host, in the job's order: the first that (with
		 * as few victims as any) gives what a host must give. */
		int tile = one ? need : ptile;
		int tiles = one ? 1 : (need + ptile - 1) / ptile;
		int have = 0, *hstart = NULL, *hlist = NULL;
		struct cand *sub = NULL;

		for (int k = 0; k < ncand && have < tiles; k++) {
			int h = cand[k], lack = tile - freeh[h], n;
			int nsub = 0;

			if (lack <= 0) {
				have++;
				continue;
			}
			/* The victims on each host, listed once: looking at
			 * every victim for every host was quadratic. */
			if (hlist == NULL)
				hlist = victims_by_host(p, cs, ncs, pos,
				    &hstart, &sub);
			for (int x = hstart[h]; x < hstart[h + 1]; x++) {
				struct cand *v = &cs[hlist[x]];

				if (v->taken)
					continue;
				sub[nsub] = *v;
				sub[nsub].slots = 0;
				for (int s = 0; s < v->v->nexec; s++)
					sub[nsub].slots += v->v->exec[s] == h &&
					    (!own[h] || v->v->user == j->user);
				if (sub[nsub].slots > 0)
					nsub++;
			}
			qsort(sub, (size_t)nsub, sizeof(*sub), cmp_cand);
			n = choose(sub, nsub, lack, have == 0 ? capneed : 0,
			    c->preempt_for);
			if (n > 0) {
				have++;
				nch += n;
				for (int i = 0; i < nsub; i++)
					if (sub[i].taken)
						cs[sub[i].at].taken = true;
			}
		}
		free(hstart);
		free(hlist);
		free(sub);
		if (have < tiles)
			nch = 0;
	} else {
		cand_slots(p, cs, ncs, -1, pos, own, j->user);
		nch = choose(cs, sort_prefix(cs, ncs, need - totfree, capneed,
		    c->preempt_for), need - totfree, capneed, c->preempt_for);
	}
	if (nch == 0)
		goto done;
	set_victims(p, cs, ncs, true);
	if (!pass_place_general(p, j, d)) {
		set_victims(p, cs, ncs, false);
		goto done;
	}
	d->victims = xcalloc((size_t)nch + 1, sizeof(*d->victims));
	{
		int freed = 0;

		for (int i = 0; i < ncs; i++)
			if (cs[i].taken) {
				d->victims[d->nvictims++] = cs[i].v;
				freed += cs[i].v->nexec;
			}
		/* More freed than it took: later jobs may use it. */
		if (freed > need)
			p->leftover = true;
	}
	c->preempt_done++;
	ok = true;
done:
	free(cs);
out:
	free(cand);
	free(own);
	return ok;
}

int
pass_resume(struct pass *p, struct pol_decision *out, int max)
{
	struct pol_cluster *c = p->c;
	int n = 0;

	for (struct pol_job *v = p->q->preempted.head; v && n < max;
	    v = v->rnext) {
		bool ok = v->nexec > 0;

		/* Its slots on each host, against what is free there now. */
		for (int s = 0; s < v->nexec && ok; s++) {
			int h = v->exec[s], cnt = 0;

			if (h < 0 || h >= c->nhosts) {
				ok = false;
				break;
			}
			for (int t = 0; t < v->nexec; t++)
				cnt += v->exec[t] == h;
			if (pass_free_slots(c->hosts[h]) < cnt)
				ok = false;
		}
		if (ok)
			ok = susp_limits(c, v, 0, true);
		if (ok && v->rl_hosts)
			ok = pass_rlim_resume(p, v, false);
		if (!ok)
			continue;
		if (v->rl_hosts)
			(void)pass_rlim_resume(p, v, true);
		for (int s = 0; s < v->nexec; s++)
			c->hosts[v->exec[s]]->taken++;
		(void)susp_limits(c, v, 1, false);
		memset(&out[n], 0, sizeof(out[n]));
		out[n].job = v;
		out[n].resume = true;
		n++;
	}
	return n;
}
