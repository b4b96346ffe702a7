/*
 * JOB_NEW's effect (EVLOG_RECORDS in evlog.h): the job a submission
 * makes, the same for bsub (mbd-submit.c, through log_apply_job_new)
 * and replay.  job_set_resreq is also what a switch, bmod and reconfig
 * call when the job's queue or -R changes.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mbd.h"

#define COMMAND_INLINE_MAX	256

/* Fill a job from its JOB_NEW. */
void
job_fill_new(struct job *j, struct ev_job_new *ev, struct mqueue *q)
{
	struct submit_req *r = &ev->req;
	struct job_extra *x = NULL;

	j->queue = q;
	j->pj.queue = &q->pq;
	j->uid = ev->uid;
	j->user = intern(ev->user);
	j->options = r->options;
	j->options2 = r->options2;
	j->umask = r->umask;
	j->from_host = intern(r->from_host);
	j->project = intern(r->project ? r->project : "default");
	j->app = r->app ? intern(r->app) : NULL;
	j->sub_cwd = intern(r->sub_cwd);
	j->sub_home = intern(r->sub_home);
	j->job_name = r->job_name ? xstrdup(r->job_name) : NULL;
	if (r->command && strlen(r->command) <= COMMAND_INLINE_MAX)
		j->command = xstrdup(r->command);
	j->out_file = r->out_file ? xstrdup(r->out_file) : NULL;
	j->err_file = r->err_file ? xstrdup(r->err_file) : NULL;
	j->res_req = ev->res_req ? xstrdup(ev->res_req) : NULL;
	j->submit_time = ev->submit_time;
	j->pj.submit_time = ev->submit_time;
	j->pj.num_procs = r->num_procs > 0 ? r->num_procs : 1;
	j->pj.exclusive = (r->options & SUB_EXCLUSIVE) != 0;
#define NEED_X() (x ? x : (x = xcalloc(1, sizeof(*x))))
	if (r->asked_hosts.n) {
		NEED_X();
		strv_copy(&x->asked_hosts, &r->asked_hosts);
		extra_expand_asked(x);
	}
	if (r->mail_user)
		NEED_X()->mail_user = xstrdup(r->mail_user);
	if (r->user_group)
		NEED_X()->user_group = xstrdup(r->user_group);
	if (r->depend_cond)
		NEED_X()->depend_cond = xstrdup(r->depend_cond);
	if (r->pre_exec)
		NEED_X()->pre_exec = xstrdup(r->pre_exec);
	if (r->post_exec)
		NEED_X()->post_exec = xstrdup(r->post_exec);
	if (r->login_shell)
		NEED_X()->login_shell = xstrdup(r->login_shell);
	if (r->in_file)
		NEED_X()->in_file = xstrdup(r->in_file);
	if (r->cwd)
		NEED_X()->cwd_req = xstrdup(r->cwd);
	if (r->outdir)
		NEED_X()->outdir = xstrdup(r->outdir);
	if (r->warning_action)
		NEED_X()->warning_action = xstrdup(r->warning_action);
	if (r->warning_time > 0)
		NEED_X()->warning_time = r->warning_time;
	if (r->chkpnt_dir) {
		NEED_X()->chkpnt_dir = xstrdup(r->chkpnt_dir);
		if (r->chkpnt_method)
			x->chkpnt_method = xstrdup(r->chkpnt_method);
		x->chkpnt_period = r->chkpnt_period > 0 ?
		    r->chkpnt_period : 0;
		chkpnt_note_period(x->chkpnt_period);
	}
	if (r->res_reqs.n)
		strv_copy(&NEED_X()->res_reqs, &r->res_reqs);
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		if (r->rlimits[i] != DEFAULT_RLIMIT)
			NEED_X();
	if (r->begin_time || r->term_time || r->user_priority > 0)
		NEED_X();
	if (x) {
		memcpy(x->rlimits, r->rlimits, sizeof(x->rlimits));
		x->begin_time = r->begin_time;
		x->term_time = r->term_time;
		if (x->term_time > 0)
			mbd->ndeadline++;
		x->user_priority = r->user_priority;
		j->pj.eligible_time = r->begin_time;
		j->pj.eligible_reason = PEND_BEGIN_TIME;
	}
#undef NEED_X
	j->x = x;
	if (x && x->nasked) {
		j->pj.asked = x->asked_idx;
		j->pj.nasked = x->nasked;
	} else if (x && x->asked_hosts.n) {
		/* Asked only for hosts that are gone: nothing can match. */
		j->pj.asked = x->asked_idx;
		j->pj.nasked = 0;
	}
	job_attach_limits(j);
	if (r->options & SUB_RESTART)
		job_chkpnt_restarted(j);
	if (ev->env_id) {
		j->env = env_find(ev->env_id);
		if (j->env)
			j->env->refs++;
	}
}

/* The effective requirement: the job's -R merged with the queue's. */
int
job_set_resreq(struct job *j, const char *unit, char **cause)
{
	struct resreq jr;
	int rc = 0;

	*cause = NULL;
	if (j->rr) {
		resreq_release(j->rr);
		free(j->rr);
		j->rr = NULL;
		j->pj.rr = NULL;	/* the policy's view must not dangle */
	}
	if (j->x == NULL || j->x->res_reqs.n == 0)
		return 0;
	if (resreq_merge_job(&jr, &j->x->res_reqs, unit, cause) < 0)
		return -1;
	j->rr = xcalloc(1, sizeof(*j->rr));
	rc = resreq_merge_queue(j->rr, j->queue->rr, &jr, cause);
	resreq_release(&jr);
	if (rc < 0) {
		resreq_release(j->rr);
		free(j->rr);
		j->rr = NULL;
	}
	j->pj.rr = j->rr;
	return rc;
}

/*
 * JOB_NEW: a job, pending (or held) in its queue.  bsub checked the
 * submission before its record was written, so what is checked here is
 * only what may have changed since a record was written: its queue
 * removed from lsb.queues, MAX_JOB_ARRAY_SIZE shrunk.  Replay's strings
 * are borrowed: job_fill_new copies what the job keeps.
 */
int
apply_job_new(struct ev_job_new *ev, int64_t when, off_t off)
{
	struct mqueue *q;
	struct job *j;
	char *cause;
	bool fresh;
	int code;

	/* Every job so far has a lower ID than next_jobid: a higher one
	 * cannot be there (the common case, no lookup). */
	fresh = ev->jobid >= mbd->next_jobid;
	if (fresh)
		mbd->next_jobid = ev->jobid + 1;
	if (!fresh && job_find(ev->jobid, ev->idx)) {
		log_warnx("lsb.events: job %lld submitted twice; the first "
		    "is kept", (long long)ev->jobid);
		return 0;
	}
	q = ev->queue ? queue_find(ev->queue) : NULL;
	if (q == NULL) {
		/* Its queue was removed from lsb.queues: keep the job. */
		q = queue_lost_found();
		log_warnx("job %lld: queue %s is gone; job put in %s",
		    (long long)ev->jobid, ev->queue ? ev->queue : "?",
		    q->name);
	}
	j = job_new(ev->jobid, ev->idx);
	job_fill_new(j, ev, q);
	depend_attach(j);
	j->new_off = off;
	/* Any size: MAX_JOB_ARRAY_SIZE may have shrunk since. */
	if (array_setup(j, INT32_MAX, &code, &cause) < 0) {
		log_warnx("job %lld: job array %s: %s; a plain job now",
		    (long long)j->jobid, j->job_name, cause);
		free(cause);
	}
	if (job_set_resreq(j, mbd->conf.lsf.unit_for_limits, &cause) < 0) {
		log_warnx("job %lld: resource requirement: %s",
		    (long long)j->jobid, cause);
		free(cause);
	}
	job_set_status(j, ev->req.options2 & SUB2_HOLD ? JOB_STAT_PSUSP :
	    JOB_STAT_PEND);
	job_make_pending(j);
	return 0;
}

