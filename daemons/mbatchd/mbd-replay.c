/*
 * Rebuilding the state from lsb.events.  Records are applied in order;
 * what a record refers to that is not there (a job cleaned before, an
 * unknown queue) is logged and skipped, never fatal: only a record that
 * cannot be read stops the start.  Record types this version does not
 * know are skipped, so a newer log can still be read.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mbd.h"

#define COMMAND_INLINE_MAX	256

/* Fill a job from its JOB_NEW (also used by bsub). */
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

static int
on_job_new(struct ev_reader *r, off_t off)
{
	struct ev_job_new ev;
	struct mqueue *q;
	struct job *j;
	char *cause;
	bool fresh;

	/* Borrowed: job_fill_new copies what the job keeps. */
	if (ev_job_new_peek(r, &ev) < 0)
		return -1;
	/* Every job so far has a lower ID than next_jobid: a higher one
	 * cannot be there (the common case, no lookup). */
	fresh = ev.jobid >= mbd->next_jobid;
	if (fresh)
		mbd->next_jobid = ev.jobid + 1;
	if (!fresh && job_find(ev.jobid, ev.idx)) {
		log_warnx("lsb.events: job %lld submitted twice; the first "
		    "is kept", (long long)ev.jobid);
		return 0;
	}
	q = ev.queue ? queue_find(ev.queue) : NULL;
	if (q == NULL) {
		/* Its queue was removed from lsb.queues: keep the job. */
		q = queue_lost_found();
		log_warnx("job %lld: queue %s is gone; job put in %s",
		    (long long)ev.jobid, ev.queue ? ev.queue : "?", q->name);
	}
	j = job_new(ev.jobid, ev.idx);
	job_fill_new(j, &ev, q);
	depend_attach(j);
	j->new_off = off;
	{
		int code;

		/* Any size: MAX_JOB_ARRAY_SIZE may have shrunk since. */
		if (array_setup(j, INT32_MAX, &code, &cause) < 0) {
			log_warnx("job %lld: job array %s: %s; a plain job "
			    "now", (long long)j->jobid, j->job_name, cause);
			free(cause);
		}
	}
	if (job_set_resreq(j, mbd->conf.lsf.unit_for_limits, &cause) < 0) {
		log_warnx("job %lld: resource requirement: %s",
		    (long long)j->jobid, cause);
		free(cause);
	}
	job_set_status(j, ev.req.options2 & SUB2_HOLD ? JOB_STAT_PSUSP :
	    JOB_STAT_PEND);
	job_make_pending(j);
	return 0;
}

static int
on_job_env(struct ev_reader *r, off_t off)
{
	struct ev_job_env ev;

	if (ev_job_env_read(r, &ev) < 0)
		return -1;
	env_add(ev.env_id, off);
	ev_job_env_release(&ev);
	return 0;
}

static struct job *
find_or_warn(int64_t jobid, int idx, const char *what)
{
	struct job *j = job_lookup(jobid, idx);

	if (j == NULL)
		log_debug("lsb.events: %s for unknown job %lld[%d] skipped",
		    what, (long long)jobid, idx);
	return j;
}

static int
on_job_start(struct ev_reader *r)
{
	struct ev_job_start ev;
	struct mhost **hosts;
	struct job *j;
	int n = 0;

	if (ev_job_start_read(r, &ev) < 0)
		return -1;
	j = find_or_warn(ev.jobid, ev.idx, "JOB_START");
	if (j && !JOB_STAT_FINISHED(j->status)) {
		hosts = xcalloc(ev.exec_hosts.n + 1, sizeof(*hosts));
		for (size_t i = 0; i < ev.exec_hosts.n; i++)
			if ((hosts[n] = host_find(ev.exec_hosts.v[i])) != NULL)
				n++;
		/* Logs before run_count was recorded: one run more. */
		job_start_apply(j, hosts, n, ev.run_count ? ev.run_count :
		    j->run_count + 1, r->when);
		free(hosts);
	}
	ev_job_start_release(&ev);
	return 0;
}

static int
on_job_execute(struct ev_reader *r)
{
	struct ev_job_execute ev;
	struct job *j;

	if (ev_job_execute_read(r, &ev) < 0)
		return -1;
	j = find_or_warn(ev.jobid, ev.idx, "JOB_EXECUTE");
	if (j)
		job_execute_apply(j, &ev);
	ev_job_execute_release(&ev);
	return 0;
}

static int
on_job_status(struct ev_reader *r)
{
	struct ev_job_status ev;
	struct job *j;

	if (ev_job_status_read(r, &ev) < 0)
		return -1;
	j = find_or_warn(ev.jobid, ev.idx, "JOB_STATUS");
	if (j)
		job_status_apply(j, &ev, r->when);
	return 0;
}

static int
on_job_signal(struct ev_reader *r)
{
	struct ev_job_signal ev;
	struct job *j;

	if (ev_job_signal_read(r, &ev) < 0)
		return -1;
	j = find_or_warn(ev.jobid, ev.idx, "JOB_SIGNAL");
	if (j)
		job_signal_apply(j, &ev);
	ev_job_signal_release(&ev);
	return 0;
}

static int
on_job_move(struct ev_reader *r)
{
	struct ev_job_move ev;
	struct job *j;

	if (ev_job_move_read(r, &ev) < 0)
		return -1;
	j = find_or_warn(ev.jobid, ev.idx, "JOB_MOVE");
	if (j && JOB_STAT_PENDING(j->status))
		job_move(j, ev.position, ev.base == 1,
		    !user_is_admin(ev.user, ev.uid));
	ev_job_move_release(&ev);
	return 0;
}

static int
on_job_switch(struct ev_reader *r)
{
	struct ev_job_switch ev;
	struct mqueue *q;
	struct job *j;

	if (ev_job_switch_read(r, &ev) < 0)
		return -1;
	j = find_or_warn(ev.jobid, ev.idx, "JOB_SWITCH");
	q = ev.queue ? queue_find(ev.queue) : NULL;
	if (j && q == NULL) {
		/* As reconfig did when the queue was removed. */
		q = queue_lost_found();
		log_warnx("job %lld: switched to queue %s, which is gone; "
		    "job put in %s", (long long)ev.jobid,
		    ev.queue ? ev.queue : "?", q->name);
	}
	if (j)
		job_switch(j, q);
	ev_job_switch_release(&ev);
	return 0;
}

static int
on_job_requeue(struct ev_reader *r)
{
	struct ev_job_requeue ev;
	struct job *j;

	if (ev_job_requeue_read(r, &ev) < 0)
		return -1;
	j = find_or_warn(ev.jobid, ev.idx, "JOB_REQUEUE");
	if (j)
		job_requeue_apply(j);
	ev_job_requeue_release(&ev);
	return 0;
}

static int
on_job_force(struct ev_reader *r)
{
	struct ev_job_force ev;
	struct job *j;

	if (ev_job_force_read(r, &ev) < 0)
		return -1;
	j = find_or_warn(ev.jobid, ev.idx, "JOB_FORCE");
	if (j) {
		j->forced = true;
		j->no_susp = (ev.options & 1) != 0;
	}
	ev_job_force_release(&ev);
	return 0;
}

static int
on_mig(struct ev_reader *r)
{
	struct ev_mig ev;
	struct job *j;

	if (ev_mig_read(r, &ev) < 0)
		return -1;
	j = find_or_warn(ev.jobid, ev.idx, "MIG");
	if (j)
		job_mig_apply(j, &ev);
	ev_mig_release(&ev);
	return 0;
}

static int
on_chkpnt(struct ev_reader *r)
{
	struct ev_chkpnt ev;
	struct job *j;

	if (ev_chkpnt_read(r, &ev) < 0)
		return -1;
	j = find_or_warn(ev.jobid, ev.idx, "CHKPNT");
	if (j)
		job_chkpnt_apply(j, &ev, r->when);
	ev_chkpnt_release(&ev);
	return 0;
}

static int
on_job_clean(struct ev_reader *r)
{
	struct ev_job_clean ev;
	struct job *j;

	if (ev_job_clean_read(r, &ev) < 0)
		return -1;
	j = find_or_warn(ev.jobid, ev.idx, "JOB_CLEAN");
	if (j)
		job_clean(j);
	return 0;
}

static int
on_job_modify(struct ev_reader *r)
{
	struct ev_job_modify ev;
	struct job *j;

	if (ev_job_modify_read(r, &ev) < 0)
		return -1;
	j = find_or_warn(ev.jobid, ev.idx, "JOB_MODIFY2");
	if (j)
		job_modify_apply(j, &ev);
	ev_job_modify_release(&ev);
	return 0;
}

/*
 * LOG_SWITCH ends the records a switch copied forward: job IDs go on
 * after its last one, even when no job it had is left.
 */
static int
on_log_switch(struct ev_reader *r)
{
	struct ev_log_switch ev;

	if (ev_log_switch_read(r, &ev) < 0)
		return -1;
	if (ev.last_jobid >= mbd->next_jobid)
		mbd->next_jobid = ev.last_jobid + 1;
	return 0;
}

/* FS_USAGE: an account's fairshare history as of a switch. */
static int
on_fs_usage(struct ev_reader *r)
{
	struct ev_fs_usage ev;

	if (ev_fs_usage_read(r, &ev) < 0) {
		ev_fs_usage_release(&ev);
		return -1;
	}
	fs_usage_apply(&ev);
	ev_fs_usage_release(&ev);
	return 0;
}

struct replay {
	int64_t		 n;
	off_t		 hist_off;	/* the header's: history starts */
	bool		 counting;	/* past it */
};

static int
replay_cb(void *arg, struct ev_reader *r, off_t off)
{
	struct replay *rp = arg;

	rp->n++;
	if (!rp->counting && off >= rp->hist_off) {
		/* Jobs that end from here on count for MAX_JOB_NUM. */
		mbd->log_nfinished = 0;
		rp->counting = true;
	}
	return replay_record(r, off);
}

/* One record's effect on the state, whatever its type. */
int
replay_record(struct ev_reader *r, off_t off)
{
	const char *t = r->type;

	if (strcmp(t, "JOB_NEW") == 0)
		return on_job_new(r, off);
	if (strcmp(t, "JOB_START") == 0)
		return on_job_start(r);
	if (strcmp(t, "JOB_EXECUTE") == 0)
		return on_job_execute(r);
	if (strcmp(t, "JOB_STATUS") == 0)
		return on_job_status(r);
	if (strcmp(t, "JOB_CLEAN") == 0)
		return on_job_clean(r);
	if (strcmp(t, "JOB_SIGNAL") == 0)
		return on_job_signal(r);
	if (strcmp(t, "JOB_MOVE") == 0)
		return on_job_move(r);
	if (strcmp(t, "JOB_SWITCH") == 0)
		return on_job_switch(r);
	if (strcmp(t, "JOB_REQUEUE") == 0)
		return on_job_requeue(r);
	if (strcmp(t, "JOB_FORCE") == 0)
		return on_job_force(r);
	if (strcmp(t, "MIG") == 0)
		return on_mig(r);
	if (strcmp(t, "CHKPNT") == 0)
		return on_chkpnt(r);
	if (strcmp(t, "JOB_MODIFY2") == 0)
		return on_job_modify(r);
	if (strcmp(t, "HOST_CTRL") == 0 || strcmp(t, "QUEUE_CTRL") == 0)
		return admin_replay_ctrl(r);
	if (strcmp(t, "LOG_SWITCH") == 0)
		return on_log_switch(r);
	if (strcmp(t, "FS_USAGE") == 0)
		return on_fs_usage(r);
	/* JOB_SIGNAL, MBD_START, MBD_DIE and unknown types: nothing to do. */
	return 0;
}

static int
env_cb(void *arg, struct ev_reader *r, off_t off)
{
	if (strcmp(r->type, "JOB_ENV") != 0)
		return 0;
	return on_job_env(r, off);
}

/* lsb.envs: the environments the jobs in lsb.events name. */
int
replay_envs(off_t *valid_end, char **cause)
{
	return evlog_replay(mbd->envpath, env_cb, NULL, valid_end, cause);
}

int
replay_log(off_t *valid_end, char **cause)
{
	struct replay rp = { 0, 0, false };
	int64_t hist = 0;
	char *why = NULL;
	int rc;

	/* The header only says where to count finished jobs from: when it
	 * is damaged, count them all (the log switches sooner). */
	if (evlog_header_read(mbd->evpath, &hist, &why) < 0) {
		log_warnx("%s; counting every finished job in the file for "
		    "MAX_JOB_NUM", why);
		free(why);
		hist = 0;
	}
	rp.hist_off = (off_t)hist;
	rc = evlog_replay(mbd->evpath, replay_cb, &rp, valid_end, cause);
	if (rc == 0 && !rp.counting) {
		if (rp.hist_off <= *valid_end)
			mbd->log_nfinished = 0;	/* nothing since the switch */
		else
			log_warnx("%s: header offset %lld is past the end "
			    "(%lld); counting every finished job in the file "
			    "for MAX_JOB_NUM", mbd->evpath, (long long)hist,
			    (long long)*valid_end);
	}
	log_info("read %lld records from %s, %llu jobs finished since its "
	    "last switch", (long long)rp.n, mbd->evpath,
	    (unsigned long long)mbd->log_nfinished);
	return rc;
}
