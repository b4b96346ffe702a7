/*
 * Job arrays (bsub -J "name[1-1000:2]%10").
 *
 * The submission is one job, the parent, with index 0: one JOB_NEW
 * record whatever the array's size.  The parent sits in its queue for
 * the elements that are still virtual (arr->pend, a set of ranges) and
 * the policy may start several of them in one pass (pol_job.count).  An
 * element becomes a job of its own (index > 0, sharing the parent's
 * command, files, environment and options) when it starts, or when a
 * command or a record names it alone; from then on it is an ordinary job
 * that the records of lsb.events name by its index.
 *
 * Elements live right after their parent in the job list, so an array
 * is one run of the list, and go away with it: the array is cleaned
 * when every element has ended.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mbd.h"

static int
state_slot(int status)
{
	if (status & JOB_STAT_PEND)
		return AS_PEND;
	if (status & JOB_STAT_PSUSP)
		return AS_PSUSP;
	if (status & JOB_STAT_USUSP)
		return AS_USUSP;
	if (status & JOB_STAT_SSUSP)
		return AS_SSUSP;
	if (status & (JOB_STAT_RUN | JOB_STAT_UNKWN))
		return AS_RUN;
	if (status & JOB_STAT_DONE)
		return AS_DONE;
	if (status & JOB_STAT_EXIT)
		return AS_EXIT;
	return -1;
}

int
array_setup(struct job *j, int max_size, int *code, char **cause)
{
	struct jarray *a;
	struct idxset set;
	const char *why = NULL;
	char *base = NULL;
	int limit = 0, rc;

	*cause = NULL;
	*code = 0;
	/* Only a name given with -J makes an array: the default name is the
	 * command, and "ls f[1-3]" is one job. */
	if (j->job_name == NULL || !(j->options & SUB_JOB_NAME))
		return 0;
	idxset_init(&set);
	rc = array_spec_parse(j->job_name, max_size, &base, &set, &limit,
	    &why);
	if (rc == 1)
		return 0;
	if (rc < 0) {
		idxset_release(&set);
		*code = why && strstr(why, "too large") ? LSBE_ARRAY_INDEX :
		    LSBE_BAD_JOB_NAME;
		*cause = xstrdup(why ? why : "bad job array specification");
		return -1;
	}
	a = xcalloc(1, sizeof(*a));
	a->base = base;
	a->pend = set;
	idxset_init(&a->gone);
	a->total = set.count;
	a->limit = limit;
	a->cap.max = limit > 0 ? limit : -1;
	a->cap.per_job = true;
	a->cap.reason = PEND_ARRAY_LIMIT;
	a->last = j;
	j->arr = a;
	j->pj.count = a->pend.count;
	if (limit > 0)
		j->pj.caps[0] = &a->cap;
	return 0;
}

void
array_release(struct jarray *a)
{
	if (a == NULL)
		return;
	free(a->base);
	idxset_release(&a->pend);
	idxset_release(&a->gone);
	free(a);
}

char *
array_elem_name(const struct job *parent, int32_t idx)
{
	return xasprintf("%s[%d]", parent->arr->base, (int)idx);
}

void
array_count(struct job *e, int sign)
{
	struct jarray *a = e->arr;
	int k = state_slot(e->status);

	if (k >= 0)
		a->nstat[k] += sign;
	if (e->status & JOB_STAT_PDONE)
		a->npdone += sign;
	if (e->status & JOB_STAT_PERR)
		a->nperr += sign;
}

/* What an element shares with its parent. */
static void
share(struct job *parent, struct job *e)
{
	char *cause = NULL;

	e->arr = parent->arr;
	e->uid = parent->uid;
	e->umask = parent->umask;
	e->user = parent->user;
	e->options = parent->options;
	e->options2 = parent->options2;
	e->from_host = parent->from_host;
	e->project = parent->project;
	e->app = parent->app;
	e->sub_cwd = parent->sub_cwd;
	e->sub_home = parent->sub_home;
	e->command = parent->command;
	e->out_file = parent->out_file;
	e->err_file = parent->err_file;
	e->res_req = parent->res_req;
	e->x = parent->x;
	e->shared_x = true;
	e->env = parent->env;
	e->new_off = parent->new_off;
	e->submit_time = parent->submit_time;
	e->pj.submit_time = parent->submit_time;
	e->queue = parent->queue;
	e->pj.queue = &parent->queue->pq;
	e->pj.num_procs = parent->pj.num_procs;
	e->pj.exclusive = parent->pj.exclusive;
	e->pj.asked = parent->pj.asked;
	e->pj.nasked = parent->pj.nasked;
	memcpy(e->pj.caps, parent->pj.caps, sizeof(e->pj.caps));
	e->pj.user = parent->pj.user;
	e->pj.rlims = parent->pj.rlims;
	e->pj.nrlims = parent->pj.nrlims;
	e->pj.rl_hosts = parent->pj.rl_hosts;
	e->pj.rl_mem = parent->pj.rl_mem;
	e->pj.blocked = parent->pj.blocked;
	e->pj.eligible_time = parent->pj.eligible_time;
	e->pj.eligible_reason = parent->pj.eligible_reason;
	/* Its own merged requirement: an element may change queue. */
	if (job_set_resreq(e, mbd->conf.lsf.unit_for_limits, &cause) < 0) {
		log_warnx("job %lld[%d]: %s", (long long)e->jobid,
		    (int)e->idx, cause);
		free(cause);
	}
}

void
job_own_x(struct job *j)
{
	if (!JOB_IS_ELEMENT(j) || !j->shared_x)
		return;
	j->x = extra_dup(j->x);
	j->shared_x = false;
	if (j->x->nasked || j->x->asked_hosts.n)
		j->pj.asked = j->x->asked_idx;
}

/* The virtual pending count changed: the parent's slots follow. */
static void
pend_changed(struct job *parent, void (*change)(struct jarray *, int32_t),
    int32_t idx)
{
	job_slots_add(parent, -1);
	change(parent->arr, idx);
	job_slots_add(parent, +1);
	parent->pj.count = parent->arr->pend.count;
	if (parent->arr->pend.count == 0) {
		/* Nothing virtual left: the parent leaves its queue. */
		policy_job_remove(&parent->pj);
		job_set_status(parent, JOB_STAT_NULL);
	}
}

static void
take_idx(struct jarray *a, int32_t idx)
{
	idxset_remove(&a->pend, idx);
}

/* Make a job of element idx, in the state its virtual self had. */
static struct job *
materialize(struct job *parent, int32_t idx, int status)
{
	struct jarray *a = parent->arr;
	struct job *e = job_new_after(parent->jobid, idx, a->last);

	a->last = e;
	e->job_name = array_elem_name(parent, idx);
	share(parent, e);
	e->hold_reason = parent->hold_reason;
	job_set_status(e, status);
	return e;
}

struct job *
array_element(struct job *parent, int32_t idx, bool create)
{
	struct jarray *a;
	struct job *e;

	if (parent == NULL || !JOB_IS_PARENT(parent) || idx <= 0)
		return NULL;
	if ((e = job_find(parent->jobid, idx)) != NULL)
		return e;
	a = parent->arr;
	if (!create)
		return NULL;
	if (idxset_contains(&a->pend, idx)) {
		int st = parent->status & JOB_STAT_PSUSP ? JOB_STAT_PSUSP :
		    JOB_STAT_PEND;

		pend_changed(parent, take_idx, idx);
		e = materialize(parent, idx, st);
		e->pj.fsa = parent->pj.fsa;
		/* It keeps its place: just before the rest of the array. */
		if (JOB_STAT_PENDING(parent->status))
			policy_job_insert_before(&parent->queue->pq,
			    &parent->pj, &e->pj);
		else
			policy_job_append(&e->queue->pq, &e->pj);
		return e;
	}
	if (idxset_contains(&a->gone, idx)) {
		idxset_remove(&a->gone, idx);
		e = materialize(parent, idx, JOB_STAT_EXIT);
		e->end_time = a->gone_time;
		e->exit_reason = a->gone_reason;
		e->exit_status = 0;
		return e;
	}
	return NULL;
}

struct job *
array_take_next(struct job *parent)
{
	int32_t idx = idxset_first(&parent->arr->pend);

	if (idx < 0)
		return NULL;
	return array_element(parent, idx, true);
}

void
array_end_virtual(struct job *parent, int64_t when, int reason)
{
	struct jarray *a = parent->arr;

	if (a->pend.count == 0)
		return;
	/* Each element ends, for MAX_JOB_NUM as for bjobs. */
	mbd->log_nfinished += (uint64_t)a->pend.count;
	job_slots_add(parent, -1);
	/* Elements never come back to the virtual set, so nothing is in
	 * gone yet: the set moves over whole. */
	idxset_release(&a->gone);
	a->gone = a->pend;
	idxset_init(&a->pend);
	a->gone_time = when;
	a->gone_reason = reason;
	job_slots_add(parent, +1);
	parent->pj.count = 0;
	policy_job_remove(&parent->pj);
	job_set_status(parent, JOB_STAT_NULL);
}

bool
array_finished(const struct job *parent)
{
	const struct jarray *a = parent->arr;

	if (a->pend.count > 0)
		return false;
	for (int k = AS_PEND; k <= AS_USUSP; k++)
		if (a->nstat[k] > 0)
			return false;
	return true;
}

int64_t
array_last_end(const struct job *parent)
{
	int64_t t = parent->arr->gone.count ? parent->arr->gone_time : 0;

	for (struct job *e = parent->next; e && e->jobid == parent->jobid;
	    e = e->next)
		if (e->end_time > t)
			t = e->end_time;
	return t;
}

struct job *
job_lookup(int64_t jobid, int32_t idx)
{
	struct job *j = job_find(jobid, idx);

	if (j != NULL || idx <= 0)
		return j;
	return array_element(job_find(jobid, 0), idx, true);
}

bool
job_name_matches(const struct job *j, const char *pattern)
{
	const char *name = j->job_name ? j->job_name : "";

	if (wildmatch(pattern, name))
		return true;
	if (j->arr && wildmatch(pattern, j->arr->base))
		return true;
	return false;
}

void
job_clean(struct job *j)
{
	if (JOB_IS_PARENT(j)) {
		struct job *e, *next;

		for (e = j->next; e && e->jobid == j->jobid; e = next) {
			next = e->next;
			job_set_status(e, JOB_STAT_NULL);
			job_free(e);
		}
	} else if (JOB_IS_ELEMENT(j)) {
		/* Elements go with their array. */
		return;
	}
	job_set_status(j, JOB_STAT_NULL);
	job_free(j);
}
