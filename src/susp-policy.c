/*
 * Automatic load-based suspension and resumption for one host (see
 * susp-policy.h for the rules).  One scan per action over the host's
 * jobs, each judged at most once: O(jobs), no sorting, no allocation.
 */
#include <stdio.h>
#include <string.h>

#include "conf.h"
#include "lsf.h"
#include "policy.h"
#include "resreq.h"
#include "susp-policy.h"

static int
host_cpus(const struct susp_host *h)
{
	return h->ncpus > 0 ? h->ncpus : 1;
}

/* As dispatch sees them: run queue lengths per CPU. */
static void
effective(const struct susp_host *h, float *eff)
{
	policy_effective_load(h->load, host_cpus(h), eff);
}

/* Idle longer than PG_SUSP_IT: pg is not checked.  it is in minutes. */
static bool
pg_ignored(const struct susp_host *h)
{
	float it = h->load[LI_IT];

	return it < INFINIT_LOAD && (double)it * 60.0 > (double)h->pg_susp_it;
}

/* The first index at or past a suspending threshold, or -1. */
static int
over_stop(const struct thresholds *t, const float *eff, bool skip_pg)
{
	if (t == NULL)
		return -1;
	for (int i = 0; i < NLOADIDX; i++) {
		if (!(t->stop_set & (1u << i)) || eff[i] >= INFINIT_LOAD)
			continue;
		if (i == LI_PG && skip_pg)
			continue;
		if (load_index_info[i].increasing ? eff[i] >= t->stop[i] :
		    eff[i] <= t->stop[i])
			return i;
	}
	return -1;
}

static bool
cond_true(const struct susp_host *h, const struct resreq *rr,
    const float *eff)
{
	struct rr_host rh;

	if (h->rr != NULL)
		rh = *h->rr;
	else {
		memset(&rh, 0, sizeof rh);
		rh.name = rh.type = rh.model = "";
		rh.ncpus = host_cpus(h);
		rh.server = true;
	}
	rh.load = eff;
	return resreq_select(rr, &rh);
}

/* Why job j is to be suspended now (SUSPW_NONE: it is not). */
static enum susp_why
stop_why(const struct susp_host *h, const struct susp_job *j,
    const float *eff, int *index)
{
	bool skip_pg = pg_ignored(h);

	if ((*index = over_stop(h->thr, eff, skip_pg)) >= 0)
		return SUSPW_HOST_LOAD;
	if ((*index = over_stop(j->qthr, eff, skip_pg)) >= 0)
		return SUSPW_QUEUE_LOAD;
	*index = -1;
	if (j->stop_cond != NULL && cond_true(h, j->stop_cond, eff))
		return SUSPW_STOP_COND;
	return SUSPW_NONE;
}

static bool
may_resume(const struct susp_host *h, const struct susp_job *j,
    const float *eff)
{
	if (h->thr != NULL && h->thr->sched_set != 0 &&
	    policy_over_sched(h->thr, eff) >= 0)
		return false;
	if (j->resume_cond != NULL)
		return cond_true(h, j->resume_cond, eff);
	return j->qthr == NULL || j->qthr->sched_set == 0 ||
	    policy_over_sched(j->qthr, eff) < 0;
}

/* Is a checked before b for suspension? */
static bool
susp_first(const struct susp_job *a, const struct susp_job *b)
{
	if (a->qprio != b->qprio)
		return a->qprio < b->qprio;
	return a->start_time > b->start_time;
}

/* Is a checked before b for resumption? */
static bool
resume_first(const struct susp_job *a, const struct susp_job *b)
{
	if (a->qprio != b->qprio)
		return a->qprio > b->qprio;
	return a->start_time < b->start_time;
}

enum susp_action
susp_policy_decide(const struct susp_host *h, const struct susp_job *jobs,
    int njobs, struct susp_decision *d)
{
	float eff[NLOADIDX];
	int running = 0, best = -1, index;
	enum susp_why why;

	memset(d, 0, sizeof *d);
	d->job = d->index = -1;
	if (njobs <= 0 || h->load == NULL)
		return SUSP_ACT_NONE;
	effective(h, eff);
	for (int i = 0; i < njobs; i++) {
		if (!jobs[i].load_susp && !jobs[i].other_susp)
			running++;
	}

	/*
	 * Suspension: of the jobs some threshold is reached for, the first
	 * in order.  The only running job stays unless the host is in
	 * interactive use.
	 */
	if (running > 1 || (running == 1 && h->load[LI_IT] < 1.0f)) {
		for (int i = 0; i < njobs; i++) {
			const struct susp_job *j = &jobs[i];

			if (j->load_susp || j->other_susp || j->forced)
				continue;
			if (h->min_run > 0 && h->now - j->start_time < h->min_run)
				continue;
			if (best >= 0 && !susp_first(j, &jobs[best]))
				continue;
			why = stop_why(h, j, eff, &index);
			if (why == SUSPW_NONE)
				continue;
			best = i;
			d->why = why;
			d->index = index;
		}
		if (best >= 0) {
			d->action = SUSP_ACT_SUSPEND;
			d->job = best;
			return d->action;
		}
	}

	/* Resumption: the first load-suspended job that may go on. */
	for (int i = 0; i < njobs; i++) {
		const struct susp_job *j = &jobs[i];

		if (!j->load_susp || j->other_susp)
			continue;
		if (best >= 0 && !resume_first(j, &jobs[best]))
			continue;
		if (may_resume(h, j, eff))
			best = i;
	}
	if (best >= 0) {
		d->action = SUSP_ACT_RESUME;
		d->job = best;
	}
	return d->action;
}

const char *
susp_policy_reason(enum susp_why why, int index, char *buf, size_t len)
{
	switch (why) {
	case SUSPW_HOST_LOAD:
	case SUSPW_QUEUE_LOAD:
		return susp_reason_fmt(SUSP_LOAD, index, buf, len);
	case SUSPW_STOP_COND:
		return susp_reason_fmt(SUSP_STOP_COND, -1, buf, len);
	case SUSPW_RESUME_COND:
		snprintf(buf, len,
		    "RESUME_COND is false with current host load");
		return buf;
	default:
		snprintf(buf, len, "%s", "");
		return buf;
	}
}
