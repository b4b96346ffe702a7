/*
 * Queries: bjobs, bqueues, bhosts, bparams, badmin showconf.  They answer
 * at once (they change nothing, so nothing waits for the log) and long
 * job lists go out in frames of JOBS_PER_FRAME jobs.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

#define JOBS_PER_FRAME	2000

static void
send_now(struct conn *c, struct wbuf *w)
{
	conn_send(c, w);
	wbuf_release(w);
}

static int
job_pend_reason(struct job *j, const uint32_t **counts)
{
	int r;

	*counts = NULL;
	if (j->status & JOB_STAT_PSUSP)
		return j->hold_reason ? j->hold_reason : PEND_USER_STOP;
	r = policy_job_reason(&mbd->pc, &j->pj, counts);
	/* Before its first pass, say why it came back, if it did. */
	if (r == PEND_NEW_JOB && j->pend_note)
		return j->pend_note;
	return r;
}

static char *
effective_res_req(const struct job *j)
{
	if (j->rr)
		return resreq_to_string(j->rr);
	if (j->queue->rr)
		return resreq_to_string(j->queue->rr);
	return xstrdup("select[type == local] order[r15s:pg] ");
}

/*
 * An external load index by its place in lsf.shared, as a suspension
 * names it: "licenses (nlic)", the description without its brackets
 * then the name, as the built-in indices are named.  NULL if unknown.
 */
static char *
ext_index_text(int res)
{
	const struct shared_conf *s = &mbd->conf.shared;
	const struct resource_def *rd;
	const char *desc;
	size_t n;

	if (res < 0 || res >= s->nresources)
		return NULL;
	rd = &s->resources[res];
	desc = rd->desc ? rd->desc : "";
	while (*desc == '(' || *desc == ' ')
		desc++;
	n = strlen(desc);
	while (n > 0 && (desc[n - 1] == ')' || desc[n - 1] == ' '))
		n--;
	if (n == 0)
		return xstrdup(rd->name);
	return xasprintf("%.*s (%s)", (int)n, desc, rd->name);
}

/*
 * Fill what want asks for (JI() bits; JI_BASE always).  Strings are
 * borrowed from the job where they can be; what is made here (names,
 * the effective requirement, the reasons) is made only when asked for,
 * which is most of the cost of a long listing.
 */
void
job_fill_info(struct job *j, struct job_info *ji, uint64_t want,
    bool longform)
{
	const uint32_t *counts;

	job_info_init(ji);
	ji->present = (want | JI_BASE) & JI_ALL;
	ji->jobid = j->jobid;
	ji->idx = j->idx;
	ji->status = j->status;
	if (job_in_doubt(j))
		ji->status |= JOB_STAT_UNKWN;
	ji->options = j->options;
	ji->options2 = j->options2;
	ji->user = (char *)j->user;
	ji->queue = j->queue->name;
	ji->from_host = (char *)j->from_host;
	if (want & JI(exec_hosts))
		for (int i = 0; i < j->nexec; i++)
			strv_push(&ji->exec_hosts, j->exec[i]->name);
	if (want & JI(job_name))
		ji->job_name = j->job_name ? xstrdup(j->job_name) : NULL;
	if (want & JI(command))
		ji->command = longform ? job_command(j) :
		    (j->command ? xstrdup(j->command) : NULL);
	ji->project = (char *)j->project;
	ji->app = (char *)j->app;
	ji->exceptions = j->exceptions;
	ji->nrequeue = j->nrequeue;
	if (want & JI(chkpnt_dir))
		ji->chkpnt_dir = job_chkpnt_path(j);
	ji->chkpnt_period = job_chkpnt_period(j);
	/* Borrowed, as the other strings the reply does not free. */
	ji->chkpnt_method = (char *)job_chkpnt_method(j);
	ji->cwd = (char *)(j->x && j->x->cwd_req ? j->x->cwd_req : j->sub_cwd);
	ji->sub_home = (char *)j->sub_home;
	ji->out_file = j->out_file;
	ji->err_file = j->err_file;
	if (j->x) {
		ji->in_file = j->x->in_file;
		ji->mail_user = j->x->mail_user;
		ji->user_group = j->x->user_group;
		ji->depend_cond = j->x->depend_cond;
		ji->begin_time = j->x->begin_time;
		ji->term_time = j->x->term_time;
		ji->user_priority = j->x->user_priority;
		/* Borrowed, as the strings are: info_release leaves it. */
		ji->asked_hosts = j->x->asked_hosts;
		ji->login_shell = j->x->login_shell;
		ji->pre_exec = j->x->pre_exec;
	}
	if (want & JI(rlimits))
		job_limits(j, ji->rlimits);	/* as they apply, the queue's too */
	ji->res_req = j->res_req;
	if (want & JI(effective_res_req))
		ji->effective_res_req = effective_res_req(j);
	ji->exec_cwd = j->exec_cwd;
	ji->exec_home = j->exec_home;
	ji->exec_user = j->exec_user;
	ji->submit_time = j->submit_time;
	ji->start_time = j->start_time;
	ji->end_time = j->end_time;
	ji->num_procs = j->pj.num_procs;
	ji->max_procs = j->pj.num_procs;
	ji->exit_status = j->exit_status;
	ji->exit_reason = j->exit_reason;
	ji->cpu_time = j->cpu_time;
	ji->mem_kb = j->mem_kb;
	ji->max_mem_kb = j->max_mem_kb;
	ji->avg_mem_kb = j->avg_mem_kb;
	ji->pgid = j->pgid;
	if (j->pid > 0 && (want & JI(pids)))
		strv_push_nodup(&ji->pids, xasprintf("%d", j->pid));
	ji->run_count = (int)j->run_count;
	ji->susp_reason = j->susp_reason;
	ji->susp_sub = j->susp_sub;
	if (j->susp_reason == SUSP_LOAD && j->susp_sub >= NLOADIDX &&
	    (want & JI(susp_ext)))
		ji->susp_ext = ext_index_text(j->susp_sub - NLOADIDX);
	if (JOB_STAT_PENDING(j->status) &&
	    (want & (JI(pend_reason) | JI(host_reasons)))) {
		ji->pend_reason = job_pend_reason(j, &counts);
		if (counts && (want & JI(host_reasons))) {
			int n = 0;

			ji->host_reasons = xcalloc(HR_NREASONS,
			    sizeof(*ji->host_reasons));
			for (int r = 1; r < HR_NREASONS; r++)
				if (counts[r]) {
					ji->host_reasons[n].reason = r;
					ji->host_reasons[n++].count =
					    (int)counts[r];
				}
			ji->nhost_reasons = (uint32_t)n;
		}
	}
}

/* Free only what job_fill_info allocated (the rest is borrowed). */
static void
info_release(struct job_info *ji)
{
	strv_release(&ji->exec_hosts);
	free(ji->job_name);
	free(ji->command);
	free(ji->chkpnt_dir);
	free(ji->effective_res_req);
	strv_release(&ji->pids);
	free(ji->host_reasons);
	free(ji->susp_ext);
}

struct jq {
	struct job_query q;
	int		 uid;
	const char	*user;		/* whose jobs; NULL = anyone */
	int64_t		 now;
	int		 clean;
	bool		*on_host;	/* -m: by mhost index; NULL = any */
};

/*
 * A job as listed: a job, or a virtual element of an array (vidx > 0,
 * in state vstat), which exists only as an index in its parent.
 */
struct jref {
	struct job	*j;
	int32_t		 vidx;
	int		 vstat;
	struct job_info	*hi;		/* from history (j NULL): bjobs <id> */
};

static int
ref_status(const struct jref *r)
{
	return r->vidx ? r->vstat : r->j->status;
}

static int64_t
ref_end(const struct jref *r)
{
	if (r->vidx)
		return r->vstat & JOB_STAT_EXIT ? r->j->arr->gone_time : 0;
	return r->j->end_time;
}

static bool
state_wanted(const struct jq *jq, const struct jref *r, bool by_id)
{
	int s = ref_status(r);
	uint32_t f = jq->q.flags;
	bool fin = JOB_STAT_FINISHED(s);
	int64_t end = ref_end(r);

	/* Asked by ID, it is found until cleaned, then from history. */
	if (fin && end > 0 && jq->now - end > jq->clean && !by_id)
		return false;
	if (f & JQ_PEND)
		return JOB_STAT_PENDING(s);
	if (f & JQ_RUN)
		return (s & JOB_STAT_RUN) != 0;
	if (f & JQ_SUSP)
		return (s & (JOB_STAT_SSUSP | JOB_STAT_USUSP |
		    JOB_STAT_PSUSP)) != 0;
	if (f & JQ_DONE)
		return fin;
	if (f & JQ_ALL)
		return true;
	return by_id || !fin;
}

static bool
job_wanted(const struct jq *jq, const struct jref *r, bool by_id)
{
	const struct job *j = r->j;

	if (!state_wanted(jq, r, by_id))
		return false;
	if (jq->user && strcmp(j->user, jq->user) != 0)
		return false;
	if (jq->q.queue && strcmp(j->queue->name, jq->q.queue) != 0)
		return false;
	if (jq->q.job_name && !job_name_matches(j, jq->q.job_name))
		return false;
	if (jq->q.app && (j->app == NULL || strcmp(j->app, jq->q.app) != 0))
		return false;
	if (jq->on_host && !job_on_hosts(j, jq->on_host))
		return false;
	return true;
}

struct jvec {
	struct jref	*v;
	size_t		 n;
	size_t		 cap;
};

static void
jvec_push(struct jvec *jv, struct job *j, int32_t vidx, int vstat)
{
	if (jv->n == jv->cap) {
		jv->cap = jv->cap ? jv->cap * 2 : 64;
		jv->v = xrealloc(jv->v, jv->cap * sizeof(*jv->v));
	}
	jv->v[jv->n].j = j;
	jv->v[jv->n].vidx = vidx;
	jv->v[jv->n].vstat = vstat;
	jv->v[jv->n].hi = NULL;
	jv->n++;
}

/* Push a reference if the query wants it. */
static void
want_push(const struct jq *jq, struct jvec *jv, struct job *j, int32_t vidx,
    int vstat, bool by_id)
{
	struct jref r = { j, vidx, vstat, NULL };

	if (job_wanted(jq, &r, by_id))
		jvec_push(jv, j, vidx, vstat);
}

static int
ref_idx(const struct jref *r)
{
	return r->vidx ? r->vidx : r->j->idx;
}

static int
cmp_started(const void *a, const void *b)
{
	const struct job *x = ((const struct jref *)a)->j;
	const struct job *y = ((const struct jref *)b)->j;

	if (x->start_time != y->start_time)
		return x->start_time < y->start_time ? -1 : 1;
	if (x->jobid != y->jobid)
		return x->jobid < y->jobid ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int
cmp_finished(const void *a, const void *b)
{
	const struct jref *x = a, *y = b;
	int64_t ex = ref_end(x), ey = ref_end(y);

	if (ex != ey)
		return ex < ey ? -1 : 1;
	if (x->j->jobid != y->j->jobid)
		return x->j->jobid < y->j->jobid ? -1 : 1;
	return ref_idx(x) < ref_idx(y) ? -1 : ref_idx(x) > ref_idx(y);
}

static int
cmp_index(const void *a, const void *b)
{
	int x = ref_idx(a), y = ref_idx(b);

	return x < y ? -1 : x > y;
}

/* An array's virtual elements, pending or ended, in index order. */
static void
push_virtual(const struct jq *jq, struct jvec *jv, struct job *p,
    const struct idxset *set, int vstat, bool by_id)
{
	struct jref r = { p, 1, vstat, NULL };

	/* Judge once: every element of the set looks the same. */
	if (set->count == 0 || !job_wanted(jq, &r, by_id))
		return;
	for (int32_t i = idxset_first(set); i >= 0; i = idxset_next(set, i))
		jvec_push(jv, p, i, vstat);
}

static int
virtual_pend_stat(const struct job *p)
{
	return p->status & JOB_STAT_PSUSP ? JOB_STAT_PSUSP : JOB_STAT_PEND;
}

/* LSF's order: running and suspended, pending as they will be
 * dispatched, then finished. */
static void
collect(struct jq *jq, struct jvec *out)
{
	struct jvec fin = { 0 };
	size_t nstart;

	for (struct job *j = mbd->jobs_head; j; j = j->next)
		if (JOB_STAT_STARTED(j->status))
			want_push(jq, out, j, 0, 0, false);
	nstart = out->n;
	if (nstart > 1)
		qsort(out->v, nstart, sizeof(*out->v), cmp_started);
	for (int i = 0; i < mbd->pc.nqueues; i++)
		for (struct pol_job *p = mbd->pc.queues[i]->head; p;
		    p = p->next) {
			struct job *j = JOB_OF_PJ(p);

			if (JOB_IS_PARENT(j))
				push_virtual(jq, out, j, &j->arr->pend,
				    virtual_pend_stat(j), false);
			else
				want_push(jq, out, j, 0, 0, false);
		}
	for (struct job *j = mbd->jobs_head; j; j = j->next) {
		if (JOB_STAT_FINISHED(j->status))
			want_push(jq, &fin, j, 0, 0, false);
		else if (JOB_IS_PARENT(j))
			push_virtual(jq, &fin, j, &j->arr->gone,
			    JOB_STAT_EXIT, false);
	}
	if (fin.n > 1)
		qsort(fin.v, fin.n, sizeof(*fin.v), cmp_finished);
	for (size_t i = 0; i < fin.n; i++)
		jvec_push(out, fin.v[i].j, fin.v[i].vidx, fin.v[i].vstat);
	free(fin.v);
}

/* bjobs <id> of an array: every element, by index. */
static void
collect_array(struct jq *jq, struct jvec *out, struct job *p)
{
	size_t first = out->n;

	for (struct job *e = p->next; e && e->jobid == p->jobid; e = e->next)
		want_push(jq, out, e, 0, 0, true);
	push_virtual(jq, out, p, &p->arr->pend, virtual_pend_stat(p), true);
	push_virtual(jq, out, p, &p->arr->gone, JOB_STAT_EXIT, true);
	if (out->n - first > 1)
		qsort(out->v + first, out->n - first, sizeof(*out->v),
		    cmp_index);
}

/*
 * A finished job mbatchd no longer has, from history, if the options
 * would show it: asked by ID, not -p, -r or -s; -m and -J do not look.
 */
static void
collect_history(struct jq *jq, struct jvec *out, const struct job_id *id)
{
	struct job_info **v = NULL;
	size_t n = 0;

	if (jq->q.flags & (JQ_PEND | JQ_RUN | JQ_SUSP | JQ_ARRAY) ||
	    jq->on_host || jq->q.job_name)
		return;
	if (!histjob_lookup(id, (jq->q.flags & JQ_LONG) != 0, &v, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		struct job_info *ji = v[i];

		if ((jq->user && strcmp(ji->user, jq->user) != 0) ||
		    (jq->q.queue && strcmp(ji->queue, jq->q.queue) != 0) ||
		    (jq->q.app && (ji->app == NULL ||
		    strcmp(ji->app, jq->q.app) != 0))) {
			histjob_release(ji);
			continue;
		}
		jvec_push(out, NULL, 0, 0);
		out->v[out->n - 1].hi = ji;
	}
	free(v);
}

/* bjobs <id>[<idx>]: false when there is no such job or element. */
static bool
collect_id(struct jq *jq, struct jvec *out, const struct job_id *id)
{
	struct job *j = job_find(id->jobid, id->idx), *p;
	size_t before = out->n;

	if (j && JOB_IS_PARENT(j)) {
		collect_array(jq, out, j);
	} else if (j) {
		want_push(jq, out, j, 0, 0, true);
	} else if (id->idx > 0 && (p = job_find(id->jobid, 0)) != NULL &&
	    JOB_IS_PARENT(p)) {
		if (idxset_contains(&p->arr->pend, id->idx))
			want_push(jq, out, p, id->idx, virtual_pend_stat(p),
			    true);
		else if (idxset_contains(&p->arr->gone, id->idx))
			want_push(jq, out, p, id->idx, JOB_STAT_EXIT, true);
	} else if (j == NULL && (id->idx == 0 ||
	    job_find(id->jobid, 0) == NULL))
		collect_history(jq, out, id);
	return out->n > before;
}

static void
fill_ref(const struct jref *r, struct job_info *ji, uint64_t want,
    bool longform)
{
	struct job *p = r->j;

	job_fill_info(p, ji, want, longform);
	if (r->vidx == 0)
		return;
	ji->idx = r->vidx;
	if (want & JI(job_name)) {
		free(ji->job_name);
		ji->job_name = array_elem_name(p, r->vidx);
	}
	ji->status = r->vstat;
	if (r->vstat & JOB_STAT_EXIT) {
		ji->exit_reason = p->arr->gone_reason;
		ji->end_time = p->arr->gone_time;
		ji->exit_status = 0;
		ji->start_time = 0;
		free(ji->host_reasons);
		ji->host_reasons = NULL;
		ji->nhost_reasons = 0;
		ji->pend_reason = 0;
	}
}

/* bjobs -A: the array's counts. */
static void
fill_array(struct job *p, struct job_info *ji, uint64_t want)
{
	const struct jarray *a = p->arr;
	int64_t vp = a->pend.count;

	job_fill_info(p, ji, want, false);
	ji->status = JOB_STAT_PENDING(p->status) ? p->status : JOB_STAT_RUN;
	ji->array_counts[JA_NJOBS] = a->total;
	ji->array_counts[JA_PEND] = a->nstat[AS_PEND] +
	    (p->status & JOB_STAT_PSUSP ? 0 : vp);
	ji->array_counts[JA_PSUSP] = a->nstat[AS_PSUSP] +
	    (p->status & JOB_STAT_PSUSP ? vp : 0);
	ji->array_counts[JA_DONE] = a->nstat[AS_DONE];
	ji->array_counts[JA_RUN] = a->nstat[AS_RUN];
	ji->array_counts[JA_EXIT] = a->nstat[AS_EXIT] + a->gone.count;
	ji->array_counts[JA_SSUSP] = a->nstat[AS_SSUSP];
	ji->array_counts[JA_USUSP] = a->nstat[AS_USUSP];
}

static void
send_jobs(struct conn *c, uint32_t seq, struct jvec *jv, struct job_id *miss,
    uint32_t nmiss, uint32_t flags, uint64_t want)
{
	size_t i = 0;
	struct wbuf w;

	wbuf_init(&w);
	do {
		size_t n = jv->n - i;
		struct job_list jl;
		bool last;

		if (n > JOBS_PER_FRAME)
			n = JOBS_PER_FRAME;
		last = i + n >= jv->n;
		memset(&jl, 0, sizeof(jl));
		jl.jobs = xcalloc(n + 1, sizeof(*jl.jobs));
		for (size_t k = 0; k < n; k++) {
			struct job_info *ji = &jl.jobs[jl.njobs++];

			if (jv->v[i + k].hi)
				*ji = *jv->v[i + k].hi;
			else if (flags & JQ_ARRAY)
				fill_array(jv->v[i + k].j, ji, want);
			else
				fill_ref(&jv->v[i + k], ji, want,
				    (flags & JQ_LONG) != 0);
		}
		if (last) {
			jl.missing = miss;
			jl.nmissing = nmiss;
		}
		wbuf_begin(&w, MSG_JOB_LIST, seq, last ? 0 : WIRE_F_MORE);
		job_list_pack(&w, &jl);
		wbuf_end_frame(&w);
		for (size_t k = 0; k < jl.njobs; k++)
			if (jv->v[i + k].hi == NULL)
				info_release(&jl.jobs[k]);
		free(jl.jobs);
		conn_send(c, &w);
		wbuf_reset(&w);
		i += n;
	} while (i < jv->n);
	wbuf_release(&w);
}

/* bjobs -A: arrays that have an element the options ask for. */
static void
collect_arrays(struct jq *jq, struct jvec *in, struct jvec *out)
{
	static uint32_t gen;

	gen++;
	for (size_t i = 0; i < in->n; i++) {
		struct job *j = in->v[i].j;
		struct job *p;

		if (j == NULL)
			continue;
		p = JOB_IS_ELEMENT(j) ? job_find(j->jobid, 0) : j;
		if (p == NULL || !JOB_IS_PARENT(p) || p->arr->seen == gen)
			continue;
		p->arr->seen = gen;
		jvec_push(out, p, 0, 0);
	}
	(void)jq;
}

void
query_jobs(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct jq jq;
	struct jvec jv = { 0 };
	struct job_id *miss = NULL;
	uint32_t nmiss = 0;

	memset(&jq, 0, sizeof(jq));
	if (!job_query_unpack(r, &jq.q) || rbuf_end(r) < 0) {
		job_query_release(&jq.q);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	if (jq.q.queue && queue_find(jq.q.queue) == NULL) {
		client_reply_error(c, seq, LSBE_BAD_QUEUE, jq.q.queue, NULL,
		    false);
		job_query_release(&jq.q);
		return;
	}
	if (jq.q.host && (jq.on_host = host_mask(jq.q.host)) == NULL) {
		client_reply_error(c, seq, LSBE_BAD_HOST, jq.q.host, NULL,
		    false);
		job_query_release(&jq.q);
		return;
	}
	jq.uid = (int)c->uid;
	jq.now = time(NULL);
	jq.clean = mbd->conf.params.clean_period >= 0 ?
	    mbd->conf.params.clean_period : 3600;
	if (jq.q.user && strcmp(jq.q.user, "all") == 0)
		jq.user = NULL;
	else if (jq.q.user)
		jq.user = jq.q.user;
	else if (jq.q.nids > 0)
		jq.user = NULL;		/* asked by ID: whoever owns it */
	else
		jq.user = user_name(jq.uid);

	if (jq.q.nids == 0) {
		collect(&jq, &jv);
	} else {
		for (uint32_t i = 0; i < jq.q.nids; i++) {
			if (!collect_id(&jq, &jv, &jq.q.ids[i])) {
				/* Unknown, or not what the options ask for. */
				miss = xrealloc(miss, sizeof(*miss) *
				    (nmiss + 1));
				miss[nmiss++] = jq.q.ids[i];
			}
		}
	}
	if (jq.q.flags & JQ_ARRAY) {
		struct jvec arrays = { 0 };

		collect_arrays(&jq, &jv, &arrays);
		free(jv.v);
		jv = arrays;
	}
	send_jobs(c, seq, &jv, miss, nmiss, jq.q.flags,
	    jq.q.fields ? jq.q.fields : JI_ALL);
	for (size_t i = 0; i < jv.n; i++)
		histjob_release(jv.v[i].hi);
	free(jv.v);
	free(miss);
	free(jq.on_host);
	job_query_release(&jq.q);
}

static void
fill_queue(struct mqueue *q, struct queue_info *qi)
{
	const struct queue_conf *qc = q->conf;

	memset(qi, 0, sizeof(*qi));
	qi->name = q->name;
	qi->description = qc->description;
	qi->priority = qc->priority;
	qi->nice = qc->nice;
	qi->status = (q->open ? QUEUE_STAT_OPEN : 0) |
	    (q->active ? QUEUE_STAT_ACTIVE : 0) |
	    (q->pq.active ? QUEUE_STAT_RUN : 0);
	qi->qjob_limit = qc->qjob_limit;
	qi->ujob_limit = qc->ujob_limit;
	qi->pjob_limit = qc->pjob_limit;
	qi->hjob_limit = qc->hjob_limit;
	qi->npend = q->nslots_pend;
	qi->nrun = q->nslots_run;
	qi->nssusp = q->nslots_ssusp;
	qi->nususp = q->nslots_ususp;
	qi->njobs = qi->npend + qi->nrun + qi->nssusp + qi->nususp;
	qi->accept_interval = q->pq.accept_interval;
	thresholds_to_wire(&qc->thr, qi->sched, qi->stop, &qi->sched_set,
	    &qi->stop_set, &qi->ext_thr);
	qi->users = qc->users.n ? strv_join(&qc->users, " ") : xstrdup("all");
	qi->hosts = qc->hosts.n ? strv_join(&qc->hosts, " ") : xstrdup("all");
	qi->res_req = qc->res_req;
	qi->dispatch_window = qc->dispatch_window.text;
	qi->run_window = qc->run_window.text;
	qi->runlimit = qc->runlimit.max;
	qi->cpulimit = qc->cpulimit.max;
	qi->memlimit = qc->memlimit.max;
	qi->proclimit = (int)qc->proclimit.max;
	qi->runlimit_dflt = qc->runlimit.deflt;
	qi->cpulimit_dflt = qc->cpulimit.deflt;
	qi->memlimit_dflt = qc->memlimit.deflt;
	qi->proclimit_dflt = (int)qc->proclimit.deflt;
	qi->exclusive = qc->exclusive;
	qi->extra.keys = qc->keys;
	qi->extra.vals = qc->vals;
}

void
query_queues(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct strv names = STRV_INIT;
	struct wbuf w;
	struct queue_info *qi;
	uint32_t n = 0;

	if (!get_strv(r, &names) || rbuf_end(r) < 0) {
		strv_release(&names);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	for (size_t i = 0; i < names.n; i++)
		if (queue_find(names.v[i]) == NULL) {
			client_reply_error(c, seq, LSBE_BAD_QUEUE, names.v[i],
			    NULL, false);
			strv_release(&names);
			return;
		}
	qi = xcalloc((size_t)mbd->nqueues + 1, sizeof(*qi));
	/* In priority order, as bqueues lists them. */
	for (int i = 0; i < mbd->pc.nqueues; i++) {
		struct mqueue *q = (struct mqueue *)mbd->pc.queues[i];

		if (names.n && !strv_contains(&names, q->name))
			continue;
		fill_queue(q, &qi[n++]);
	}
	wbuf_init(&w);
	queue_list_frame(&w, MSG_QUEUE_LIST, seq,
	    &(struct queue_list){ n, qi });
	for (uint32_t i = 0; i < n; i++) {
		free(qi[i].users);
		free(qi[i].hosts);
		strv_release(&qi[i].ext_thr);
	}
	free(qi);
	strv_release(&names);
	send_now(c, &w);
}

static void
fill_host(struct mhost *h, struct host_info *hi)
{
	const struct lsb_host_conf *b = h->bconf;
	float eff[NLOADIDX];
	int st = 0;

	memset(hi, 0, sizeof(*hi));
	hi->name = h->name;
	if (!h->lim_up && h->sbd == NULL)
		st |= HOST_STAT_UNAVAIL;
	else if (h->sbd == NULL)
		st |= HOST_STAT_UNREACH;
	else if (!h->lim_up)
		st |= HOST_STAT_NO_LIM;
	if (h->closed_adm || h->removed)
		st |= HOST_STAT_DISABLED;
	if (h->ph.max_slots >= 0 && h->ph.used_slots >= h->ph.max_slots)
		st |= HOST_STAT_FULL;
	if (h->ph.exclusive)
		st |= HOST_STAT_EXCLUSIVE;
	if (h->window_closed)
		st |= HOST_STAT_WIND;
	if (h->lim_locked)
		st |= HOST_STAT_LOCKED;
	/* Busy as dispatch judges it: run queues per CPU (lsload -E). */
	policy_effective_load(h->load, h->ph.rr.ncpus, eff);
	if (h->lim_up && (policy_over_sched(h->ph.thr, eff) >= 0 ||
	    policy_over_ext(h->ph.thr, &h->ph.rr, false) >= 0))
		st |= HOST_STAT_BUSY;
	hi->status = st;
	hi->cpuf = 1.0f;
	for (int i = 0; i < mbd->conf.shared.nmodels; i++)
		if (strcasecmp(mbd->conf.shared.models[i].name, h->model) == 0)
			hi->cpuf = mbd->conf.shared.models[i].cpuf;
	hi->max_slots = h->ph.max_slots;
	hi->jlu = b ? b->jlu : -1;
	hi->njobs = h->nrun + h->nssusp + h->nususp;
	hi->nrun = h->nrun;
	hi->nssusp = h->nssusp;
	hi->nususp = h->nususp;
	hi->dispatch_window = b ? b->dispatch_window.text : NULL;
	memcpy(hi->load, h->load, sizeof(hi->load));
	memcpy(hi->rsv, h->ph.rsv, sizeof(hi->rsv));
	if (b) {
		thresholds_to_wire(&b->thr, hi->sched, hi->stop,
		    &hi->sched_set, &hi->stop_set, &hi->ext_thr);
		for (int i = 0; i < NLOADIDX; i++) {
			if (!(b->thr.sched_set & (1u << i)) || !h->lim_up)
				continue;
			if (load_index_info[i].increasing ?
			    eff[i] > b->thr.sched[i] :
			    eff[i] < b->thr.sched[i])
				hi->busy_mask |= 1u << i;
		}
	}
	hi->mig = b ? b->mig : -1;
	hi->comment = h->closed_adm ? h->adm_comment : NULL;
}

/* A host removed by reconfig shows (closed) only while jobs hold it. */
static bool
host_listed(const struct mhost *h, const struct strv *names,
    const struct strv *want)
{
	if (h->removed && h->nrun + h->nssusp + h->nususp == 0)
		return false;
	return names->n == 0 || strv_contains(want, h->name);
}

void
query_hosts(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct strv names = STRV_INIT, want = STRV_INIT;
	struct host_list hl = { 0, NULL };
	struct wbuf w;

	if (!get_strv(r, &names) || rbuf_end(r) < 0) {
		strv_release(&names);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	/* Host names or host groups. */
	for (size_t i = 0; i < names.n; i++) {
		struct strv one = STRV_INIT, got = STRV_INIT, bad = STRV_INIT;

		strv_push(&one, names.v[i]);
		config_expand_hosts(&mbd->conf, &one, &got, &bad);
		if (bad.n || got.n == 0) {
			client_reply_error(c, seq, LSBE_BAD_HOST, names.v[i],
			    NULL, false);
			strv_release(&one);
			strv_release(&got);
			strv_release(&bad);
			strv_release(&names);
			strv_release(&want);
			return;
		}
		strv_copy(&want, &got);
		strv_release(&one);
		strv_release(&got);
		strv_release(&bad);
	}
	hl.v = xcalloc((size_t)mbd->nhosts + 1, sizeof(*hl.v));
	for (int i = 0; i < mbd->nhosts; i++)
		if (host_listed(mbd->hosts[i], &names, &want))
			fill_host(mbd->hosts[i], &hl.v[hl.n++]);
	wbuf_init(&w);
	host_list_frame(&w, MSG_HOST_LIST, seq, &hl);
	for (uint32_t i = 0; i < hl.n; i++)
		strv_release(&hl.v[i].ext_thr);
	free(hl.v);
	strv_release(&names);
	strv_release(&want);
	send_now(c, &w);
}

static void
kv_int(struct kv_list *kv, const char *k, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	kv_add(kv, k, buf);
}

void
query_params(struct conn *c, uint32_t seq, struct rbuf *r)
{
	const struct lsb_params *p = &mbd->conf.params;
	struct kv_list kv;
	struct wbuf w;
	char *dq;

	if (rbuf_end(r) < 0) {
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	memset(&kv, 0, sizeof(kv));
	{
		struct strv dqs = STRV_INIT;

		default_queues(&dqs);
		dq = strv_join(&dqs, " ");
		kv_add(&kv, "DEFAULT_QUEUE", dq);
		free(dq);
		strv_release(&dqs);
	}
	kv_add(&kv, "DEFAULT_PROJECT", p->default_project ?
	    p->default_project : "default");
	kv_int(&kv, "MBD_SLEEP_TIME", p->mbd_sleep_time);
	kv_int(&kv, "SBD_SLEEP_TIME", p->sbd_sleep_time);
	kv_int(&kv, "JOB_ACCEPT_INTERVAL", p->job_accept_interval);
	kv_int(&kv, "JOB_SCHEDULING_INTERVAL", p->job_scheduling_interval);
	kv_int(&kv, "CLEAN_PERIOD", p->clean_period);
	kv_int(&kv, "MAX_JOB_ARRAY_SIZE", p->max_job_array_size);
	kv_int(&kv, "MAX_JOBID", p->max_jobid);
	kv_int(&kv, "JOB_TERMINATE_INTERVAL", p->job_terminate_interval);
	kv_int(&kv, "MAX_SBD_FAIL", p->max_sbd_fail);
	/* As configured ([hour:]minute), when set. */
	for (size_t i = 0; i < p->keys.n; i++)
		if ((strcasecmp(p->keys.v[i], "PEND_TIME_LIMIT") == 0 &&
		    p->pend_time_limit > 0) ||
		    (strcasecmp(p->keys.v[i], "ELIGIBLE_PEND_TIME_LIMIT") == 0 &&
		    p->eligible_pend_time_limit > 0))
			kv_add(&kv, p->keys.v[i], p->vals.v[i]);
	kv_int(&kv, "MAX_JOB_NUM", p->max_job_num);
	kv_int(&kv, "PG_SUSP_IT", p->pg_susp_it);
	kv_int(&kv, "SUB_TRY_INTERVAL", p->sub_try_interval);
	if (p->max_user_priority > 0)
		kv_int(&kv, "MAX_USER_PRIORITY", p->max_user_priority);
	if (p->max_pend_jobs > 0)
		kv_int(&kv, "MAX_PEND_JOBS", p->max_pend_jobs);
	if (p->max_sbd_conns > 0)
		kv_int(&kv, "MAX_SBD_CONNS", p->max_sbd_conns);
	if (p->max_job_preempt > 0)
		kv_int(&kv, "MAX_JOB_PREEMPT", p->max_job_preempt);
	if (p->default_application != NULL)
		kv_add(&kv, "DEFAULT_APPLICATION", p->default_application);
	/* Everything else the file sets, as written. */
	for (size_t i = 0; i < p->keys.n; i++)
		if (!strv_contains(&kv.keys, p->keys.v[i]))
			kv_add(&kv, p->keys.v[i], p->vals.v[i]);
	/* Nextflow reads this one from lsf.conf: answer the same. */
	if (!strv_contains(&kv.keys, "RESOURCE_RESERVE_PER_TASK")) {
		const char *v = lsf_conf_get(&mbd->conf.lsf,
		    "RESOURCE_RESERVE_PER_TASK");

		kv_add(&kv, "RESOURCE_RESERVE_PER_TASK", v ? v : "N");
	}
	wbuf_init(&w);
	wbuf_begin(&w, MSG_PARAM_LIST, seq, 0);
	kv_list_pack(&w, &kv);
	wbuf_end_frame(&w);
	kv_list_release(&kv);
	send_now(c, &w);
}

void
query_conf(struct conn *c, uint32_t seq, struct rbuf *r)
{
	const struct lsf_conf *lc = &mbd->conf.lsf;
	struct kv_list kv;
	struct wbuf w;

	if (rbuf_end(r) < 0) {
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	memset(&kv, 0, sizeof(kv));
	for (size_t i = 0; i < lc->keys.n; i++)
		if (!strv_contains(&kv.keys, lc->keys.v[i]))
			kv_add(&kv, lc->keys.v[i], lsf_conf_get(lc,
			    lc->keys.v[i]));
	if (!strv_contains(&kv.keys, "LSF_ENVDIR"))
		kv_add(&kv, "LSF_ENVDIR", lc->envdir);
	if (!strv_contains(&kv.keys, "LSB_CONFDIR"))
		kv_add(&kv, "LSB_CONFDIR", lc->lsb_confdir);
	if (!strv_contains(&kv.keys, "LSF_UNIT_FOR_LIMITS"))
		kv_add(&kv, "LSF_UNIT_FOR_LIMITS", lc->unit_for_limits);
	wbuf_init(&w);
	wbuf_begin(&w, MSG_CONF_LIST, seq, 0);
	kv_list_pack(&w, &kv);
	wbuf_end_frame(&w);
	kv_list_release(&kv);
	send_now(c, &w);
}
