/*
 * bmod: change a job's submission options.  Every change is checked
 * first (the queue must still take the job, a new -R or -w must be
 * valid), then logged as JOB_MODIFY2, then applied; replay applies the
 * same record the same way (job_modify_apply).
 *
 * A pending job may change anything bmod offers.  A started job may
 * change -r and -sp, and with LSB_MOD_ALL_JOBS (lsf.conf, Y unless
 * set otherwise, as LSF installs it) its run, CPU and memory limits
 * (-W -c -M and their n forms), which its execution host applies at
 * once, its output and error files (-o -oo -e -eo -on -en), which are
 * for its next run, and its resource requirement (-R -Rn), whose rusage
 * is reserved from now and the rest for its next run; anything else
 * is refused with "Job has already started".  For an array, the
 * parent's change reaches every element that still shares its
 * options; an element changed alone gets its own copy first.  A parent
 * whose elements have all started takes only -r and -sp.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "depend.h"
#include "log.h"
#include "mbd.h"

#define MOD_STARTED_OK	(MOD_RERUN | MOD_PRIO)
/* What LSB_MOD_ALL_JOBS adds for a started job. */
#define MOD_STARTED_ALL	(MOD_RUNLIMIT | MOD_CPULIMIT | MOD_MEMLIMIT |	\
	    MOD_OUT | MOD_ERR | MOD_RESREQ)
/* What its execution host must hear of at once. */
#define MOD_RUN_LIMITS	(MOD_RUNLIMIT | MOD_CPULIMIT | MOD_MEMLIMIT)

static struct job_extra *
need_x(struct job *j)
{
	job_own_x(j);
	if (j->x == NULL) {
		j->x = xcalloc(1, sizeof(*j->x));
		for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
			j->x->rlimits[i] = DEFAULT_RLIMIT;
		j->x->user_priority = -1;
		j->shared_x = false;
	}
	return j->x;
}

static void
set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = v && *v ? xstrdup(v) : NULL;
}

/* An element about to change alone: its own copies of the files and
 * requirement text it shared with its parent. */
static void
unshare(struct job *e)
{
	if (!JOB_IS_ELEMENT(e) || e->own_fields)
		return;
	e->out_file = e->out_file ? xstrdup(e->out_file) : NULL;
	e->err_file = e->err_file ? xstrdup(e->err_file) : NULL;
	e->res_req = e->res_req ? xstrdup(e->res_req) : NULL;
	e->own_fields = true;
	job_own_x(e);
}

/* Before the parent changes: elements that have started keep what they
 * ran with. */
static void
freeze(struct job *p)
{
	for (struct job *e = p->next; e && e->jobid == p->jobid; e = e->next)
		if (!JOB_STAT_PENDING(e->status))
			unshare(e);
}

/* After the parent changed: elements that share see the new values. */
static void
reshare(struct job *p)
{
	for (struct job *e = p->next; e && e->jobid == p->jobid; e = e->next) {
		char *cause = NULL;

		/* Started and ended elements took copies (freeze); ones
		 * changed alone keep their own. */
		if (e->own_fields)
			continue;
		{
			e->out_file = p->out_file;
			e->err_file = p->err_file;
			e->res_req = p->res_req;
			e->project = p->project;
			e->options = p->options;
		}
		if (e->shared_x) {
			e->x = p->x;
			e->pj.asked = p->pj.asked;
			e->pj.nasked = p->pj.nasked;
			e->pj.eligible_time = p->pj.eligible_time;
		}
		if (JOB_STAT_PENDING(e->status)) {
			int st;

			if (e->queue != p->queue)
				job_switch(e, p->queue);
			st = e->status;
			job_set_status(e, JOB_STAT_NULL);
			e->pj.num_procs = p->pj.num_procs;
			e->pj.exclusive = p->pj.exclusive;
			if (job_set_resreq(e, mbd->conf.lsf.unit_for_limits,
			    &cause) < 0) {
				log_warnx("job %lld[%d]: %s",
				    (long long)e->jobid, (int)e->idx, cause);
				free(cause);
			}
			job_attach_limits(e);
			job_set_status(e, st);
		}
	}
}

void
job_modify_apply(struct job *j, const struct ev_job_modify *m)
{
	const struct submit_req *r = &m->req;
	uint32_t set = m->set, del = m->del;
	char *cause = NULL;
	int status = j->status;

	unshare(j);
	if (JOB_IS_PARENT(j))
		freeze(j);
	/* Out of the slot accounting while slots and queue change. */
	job_set_status(j, JOB_STAT_NULL);
	if (set & MOD_NAME) {
		set_str(&j->job_name, r->job_name);
		j->options |= SUB_JOB_NAME;
	} else if (del & MOD_NAME) {
		char *cmd = job_command(j);

		free(j->job_name);
		j->job_name = cmd ? xstrndup(cmd, strcspn(cmd, "\n")) : NULL;
		free(cmd);
		j->options &= ~SUB_JOB_NAME;
	}
	if ((set & MOD_QUEUE) && r->queue) {
		struct mqueue *q = queue_find(r->queue);

		if (q && q != j->queue) {
			policy_job_remove(&j->pj);
			j->queue = q;
			j->pj.queue = &q->pq;
		}
	}
	if (set & MOD_NPROCS)
		j->pj.num_procs = r->num_procs > 0 ? r->num_procs : 1;
	else if (del & MOD_NPROCS)
		j->pj.num_procs = 1;
	if (set & (MOD_RESREQ)) {
		struct job_extra *x = need_x(j);

		strv_release(&x->res_reqs);
		strv_copy(&x->res_reqs, &r->res_reqs);
		free(j->res_req);
		j->res_req = r->res_reqs.n ? strv_join(&r->res_reqs, " ") :
		    NULL;
		j->options |= SUB_RES_REQ;
	} else if ((del & MOD_RESREQ) && j->x) {
		struct job_extra *x = need_x(j);

		strv_release(&x->res_reqs);
		free(j->res_req);
		j->res_req = NULL;
		j->options &= ~SUB_RES_REQ;
	}
	if (set & MOD_RUNLIMIT)
		need_x(j)->rlimits[LSF_RLIMIT_RUN] = r->rlimits[LSF_RLIMIT_RUN];
	else if ((del & MOD_RUNLIMIT) && j->x)
		need_x(j)->rlimits[LSF_RLIMIT_RUN] = DEFAULT_RLIMIT;
	if (set & MOD_MEMLIMIT)
		need_x(j)->rlimits[LSF_RLIMIT_RSS] = r->rlimits[LSF_RLIMIT_RSS];
	else if ((del & MOD_MEMLIMIT) && j->x)
		need_x(j)->rlimits[LSF_RLIMIT_RSS] = DEFAULT_RLIMIT;
	if (set & MOD_CPULIMIT)
		need_x(j)->rlimits[LSF_RLIMIT_CPU] = r->rlimits[LSF_RLIMIT_CPU];
	else if ((del & MOD_CPULIMIT) && j->x)
		need_x(j)->rlimits[LSF_RLIMIT_CPU] = DEFAULT_RLIMIT;
	if (set & MOD_OUT) {
		set_str(&j->out_file, r->out_file);
		j->options |= SUB_OUT_FILE;
		j->options2 = (j->options2 & ~SUB2_OUT_OVERWRITE) |
		    (r->options2 & SUB2_OUT_OVERWRITE);
	} else if (del & MOD_OUT) {
		set_str(&j->out_file, NULL);
		j->options &= ~SUB_OUT_FILE;
	}
	if (set & MOD_ERR) {
		set_str(&j->err_file, r->err_file);
		j->options |= SUB_ERR_FILE;
		j->options2 = (j->options2 & ~SUB2_ERR_OVERWRITE) |
		    (r->options2 & SUB2_ERR_OVERWRITE);
	} else if (del & MOD_ERR) {
		set_str(&j->err_file, NULL);
		j->options &= ~SUB_ERR_FILE;
	}
	if (set & MOD_PRIO)
		need_x(j)->user_priority = r->user_priority;
	else if ((del & MOD_PRIO) && j->x)
		need_x(j)->user_priority = -1;
	if (set & MOD_DEPEND) {
		struct job_extra *x = need_x(j);

		set_str(&x->depend_cond, r->depend_cond);
		dep_free(x->dep);
		x->dep = NULL;
		depend_attach(j);
		j->options |= SUB_DEPEND_COND;
	} else if ((del & MOD_DEPEND) && j->x) {
		struct job_extra *x = need_x(j);

		set_str(&x->depend_cond, NULL);
		dep_free(x->dep);
		x->dep = NULL;
		j->pj.blocked = 0;
		j->options &= ~SUB_DEPEND_COND;
	}
	if (set & MOD_BEGIN)
		need_x(j)->begin_time = r->begin_time;
	else if ((del & MOD_BEGIN) && j->x)
		need_x(j)->begin_time = 0;
	if (j->x && ((set | del) & MOD_BEGIN)) {
		j->pj.eligible_time = j->x->begin_time;
		j->pj.eligible_reason = PEND_BEGIN_TIME;
	}
	if (set & MOD_TERM) {
		need_x(j)->term_time = r->term_time;
		mbd->ndeadline++;
	} else if ((del & MOD_TERM) && j->x)
		need_x(j)->term_time = 0;
	if (set & MOD_PROJECT)
		j->project = intern(r->project ? r->project : "default");
	else if (del & MOD_PROJECT)
		j->project = intern(mbd->conf.params.default_project ?
		    mbd->conf.params.default_project : "default");
	if (set & MOD_MAIL) {
		set_str(&need_x(j)->mail_user, r->mail_user);
		j->options |= SUB_MAIL_USER;
	} else if ((del & MOD_MAIL) && j->x) {
		set_str(&need_x(j)->mail_user, NULL);
		j->options &= ~SUB_MAIL_USER;
	}
	if (set & MOD_RERUN)
		j->options |= SUB_RERUNNABLE;
	else if (del & MOD_RERUN)
		j->options &= ~SUB_RERUNNABLE;
	if (set & MOD_PRE) {
		set_str(&need_x(j)->pre_exec, r->pre_exec);
		j->options |= SUB_PRE_EXEC;
	} else if ((del & MOD_PRE) && j->x) {
		set_str(&need_x(j)->pre_exec, NULL);
		j->options &= ~SUB_PRE_EXEC;
	}
	if (set & MOD_POST)
		set_str(&need_x(j)->post_exec, r->post_exec);
	else if ((del & MOD_POST) && j->x)
		set_str(&need_x(j)->post_exec, NULL);
	if (set & MOD_NOTIFY)
		j->options |= r->options & (SUB_NOTIFY_BEGIN | SUB_NOTIFY_END);
	else if (del & MOD_NOTIFY)
		j->options &= ~(SUB_NOTIFY_BEGIN | SUB_NOTIFY_END);
	if (set & MOD_EXCL)
		j->options |= SUB_EXCLUSIVE;
	else if (del & MOD_EXCL)
		j->options &= ~SUB_EXCLUSIVE;
	j->pj.exclusive = (j->options & SUB_EXCLUSIVE) != 0;
	if (set & MOD_CWD)
		set_str(&need_x(j)->cwd_req, r->cwd);
	else if ((del & MOD_CWD) && j->x)
		set_str(&need_x(j)->cwd_req, NULL);
	if (set & MOD_HOSTS)
		job_set_asked(j, &r->asked_hosts);
	else if ((del & MOD_HOSTS) && j->x) {
		struct strv none = STRV_INIT;

		job_set_asked(j, &none);
	}
	/* A started job's new requirement: its rusage from now, the rest
	 * for its next dispatch. */
	if ((JOB_STAT_PENDING(status) || ((set | del) & MOD_RESREQ)) &&
	    job_set_resreq(j, mbd->conf.lsf.unit_for_limits, &cause) < 0) {
		log_warnx("job %lld: %s", (long long)j->jobid, cause);
		free(cause);
	}
	job_attach_limits(j);
	job_set_status(j, status);
	if (JOB_STAT_STARTED(status))
		reserve_add(j);
	if (JOB_IS_PARENT(j))
		reshare(j);
	/* A started job's host applies its new limits (job_limits_send);
	 * after a restart, when the host registers again. */
	if (JOB_STAT_STARTED(status) && !JOB_IS_PARENT(j) &&
	    ((set | del) & MOD_RUN_LIMITS))
		j->limits_pending = true;
	/* A new priority or queue: its place among the pending. */
	if (JOB_STAT_PENDING(status) && (set & (MOD_PRIO | MOD_QUEUE) ||
	    del & MOD_PRIO) && (!JOB_IS_PARENT(j) || j->arr->pend.count))
		job_make_pending(j);
	mbd->state_gen++;
	mbd_sched_dirty();
}

/* What a started job may change: LSB_MOD_ALL_JOBS=N keeps LSF's
 * narrower set. */
static uint32_t
started_ok(void)
{
	const char *v = lsf_conf_get(&mbd->conf.lsf, "LSB_MOD_ALL_JOBS");

	if (v != NULL && *v != 'y' && *v != 'Y')
		return MOD_STARTED_OK;
	return MOD_STARTED_OK | MOD_STARTED_ALL;
}

/* A started job's new limits within its queue's hard limits (a pending
 * job's are checked with the rest of what its queue takes). */
static int
started_limits(const struct job *j, const struct mod_req *m,
    const char **context)
{
	const struct queue_conf *qc = j->queue->conf;
	const int64_t *rl = m->req.rlimits;

	if ((m->set & MOD_RUNLIMIT) && qc->runlimit.max > 0 &&
	    rl[LSF_RLIMIT_RUN] > qc->runlimit.max * 60)
		*context = "RUNLIMIT";
	else if ((m->set & MOD_CPULIMIT) && qc->cpulimit.max > 0 &&
	    rl[LSF_RLIMIT_CPU] > qc->cpulimit.max * 60)
		*context = "CPULIMIT";
	else if ((m->set & MOD_MEMLIMIT) && qc->memlimit.max > 0 &&
	    rl[LSF_RLIMIT_RSS] > qc->memlimit.max)
		*context = "MEMLIMIT";
	return *context ? LSBE_HARD_LIMIT : LSBE_NO_ERROR;
}

/* A started job's new -R, merged with its queue's as at submission (a
 * pending job's is checked with the rest of what its queue takes). */
static int
started_resreq(const struct job *j, const struct mod_req *m, char **detail)
{
	struct resreq jr, eff;
	int rc;

	if (resreq_merge_job(&jr, &m->req.res_reqs,
	    mbd->conf.lsf.unit_for_limits, detail) < 0)
		return LSBE_BAD_RESREQ;
	rc = resreq_merge_queue(&eff, j->queue->rr, &jr, detail);
	resreq_release(&jr);
	if (rc < 0)
		return LSBE_BAD_RESREQ;
	resreq_release(&eff);
	return LSBE_NO_ERROR;
}

/* Is everything asked for valid for this job?  LSBE_* and a context. */
static int
check(struct job *j, const struct mod_req *m, const char *user, int uid,
    bool admin, const char **context, char **detail)
{
	const struct submit_req *r = &m->req;
	uint32_t all = m->set | m->del;
	int code;

	*context = NULL;
	*detail = NULL;
	if (j->uid != uid && !admin)
		return LSBE_PERMISSION;
	if (JOB_IS_PARENT(j) ? array_finished(j) :
	    JOB_STAT_FINISHED(j->status))
		return LSBE_JOB_FINISH;
	if (all == 0)
		return LSBE_BAD_ARG;
	if (JOB_IS_PARENT(j) ? j->arr->pend.count == 0 &&
	    (all & ~MOD_STARTED_OK) : !JOB_STAT_PENDING(j->status) &&
	    (all & ~started_ok()))
		return LSBE_JOB_STARTED;
	if (!JOB_IS_PARENT(j) && !JOB_STAT_PENDING(j->status) &&
	    (code = started_limits(j, m, context)) != LSBE_NO_ERROR)
		return code;
	if (!JOB_IS_PARENT(j) && !JOB_STAT_PENDING(j->status) &&
	    (m->set & MOD_RESREQ) &&
	    (code = started_resreq(j, m, detail)) != LSBE_NO_ERROR)
		return code;
	if ((m->del & MOD_NAME) && j->arr != NULL)
		return LSBE_BAD_JOB_NAME;
	if ((m->set & MOD_NAME) && (r->job_name == NULL ||
	    strlen(r->job_name) > 4094 || strpbrk(r->job_name, "[]") ||
	    j->arr != NULL))
		return LSBE_BAD_JOB_NAME;
	if ((m->set & MOD_NPROCS) && (r->num_procs <= 0 ||
	    r->num_procs > POL_MAX_SLOTS))
		return LSBE_PROC_NUM;
	if ((m->set & MOD_PRIO) && (r->user_priority <= 0 ||
	    mbd->conf.params.max_user_priority <= 0 ||
	    r->user_priority > mbd->conf.params.max_user_priority)) {
		*detail = xstrdup("-sp: above MAX_USER_PRIORITY, or it is "
		    "not set");
		return LSBE_BAD_ARG;
	}
	if ((m->set & MOD_DEPEND) && r->depend_cond &&
	    depend_check(r->depend_cond, j, &code, detail) < 0) {
		*context = r->depend_cond;
		return code;
	}
	if ((m->set & MOD_HOSTS))
		for (size_t i = 0; i < r->asked_hosts.n; i++)
			if (host_find(r->asked_hosts.v[i]) == NULL) {
				*context = r->asked_hosts.v[i];
				return LSBE_BAD_HOST;
			}
	if (m->set & MOD_QUEUE) {
		struct mqueue *q = r->queue ? queue_find(r->queue) : NULL;

		if (q == NULL) {
			*context = r->queue;
			return LSBE_BAD_QUEUE;
		}
	}
	return LSBE_NO_ERROR;
}

/*
 * The queue (the new one with -q) must take the job as modified: try it
 * on a copy of the fields the queue checks.
 */
static int
queue_check(struct job *j, const struct mod_req *m, const char *user,
    int uid, const char **context, char **detail)
{
	const struct submit_req *r = &m->req;
	struct mqueue *q = (m->set & MOD_QUEUE) ? queue_find(r->queue) :
	    j->queue;
	struct job t = *j;
	struct job_extra x;
	int code;

	memset(&x, 0, sizeof(x));
	if (j->x)
		x = *j->x;
	else {
		for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
			x.rlimits[i] = DEFAULT_RLIMIT;
	}
	t.x = &x;
	if (m->set & MOD_NPROCS)
		t.pj.num_procs = r->num_procs;
	if (m->set & MOD_RESREQ)
		x.res_reqs = r->res_reqs;
	else if (m->del & MOD_RESREQ)
		memset(&x.res_reqs, 0, sizeof(x.res_reqs));
	if (m->set & MOD_RUNLIMIT)
		x.rlimits[LSF_RLIMIT_RUN] = r->rlimits[LSF_RLIMIT_RUN];
	if (m->set & MOD_MEMLIMIT)
		x.rlimits[LSF_RLIMIT_RSS] = r->rlimits[LSF_RLIMIT_RSS];
	if (m->set & MOD_CPULIMIT)
		x.rlimits[LSF_RLIMIT_CPU] = r->rlimits[LSF_RLIMIT_CPU];
	if (m->set & MOD_HOSTS)
		x.asked_hosts = r->asked_hosts;
	if (m->set & MOD_EXCL)
		t.options |= SUB_EXCLUSIVE;
	code = queue_accepts(q, &t, user, uid);
	if (code != LSBE_NO_ERROR) {
		*context = q->name;
		*detail = NULL;
	}
	return code;
}

void
modify_handle(struct conn *c, uint32_t seq, struct rbuf *rb)
{
	struct mod_req m;
	struct job_results res = { NULL, 0 };
	const char *user = user_name((int)c->uid), *context = NULL;
	char *detail = NULL;
	bool admin = user_is_admin(user, (int)c->uid);
	struct job *j;
	int code;

	memset(&m, 0, sizeof(m));
	if (!mod_req_unpack(rb, &m) || rbuf_end(rb) < 0) {
		mod_req_release(&m);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	j = job_lookup(m.jobid, m.idx);
	if (j == NULL) {
		code = LSBE_NO_JOB;
		goto out;
	}
	admin = admin || user_admins_job(j, user, (int)c->uid);
	code = check(j, &m, user, (int)c->uid, admin, &context, &detail);
	if (code == LSBE_NO_ERROR && JOB_STAT_PENDING(j->status))
		code = queue_check(j, &m, user, (int)c->uid, &context,
		    &detail);
	if (code == LSBE_NO_ERROR) {
		struct ev_job_modify ev;
		struct strbuf sb = STRBUF_INIT;

		memset(&ev, 0, sizeof(ev));
		ev.jobid = j->jobid;
		ev.idx = j->idx;
		ev.uid = (int)c->uid;
		ev.user = (char *)user;
		ev.set = m.set;
		ev.del = m.del;
		ev.req = m.req;
		ev_job_modify_write(&sb, time(NULL), &ev);
		log_record(&sb);
		sb_release(&sb);
		job_modify_apply(j, &ev);
		if (j->limits_pending)
			job_limits_send(j);
	}
out:
	if (code != LSBE_NO_ERROR && (context || detail)) {
		client_reply_error(c, seq, code, context, detail, false);
		free(detail);
		mod_req_release(&m);
		return;
	}
	free(detail);
	job_results_add(&res, m.jobid, m.idx, code);
	job_results_reply(c, seq, &res);
	mod_req_release(&m);
}
