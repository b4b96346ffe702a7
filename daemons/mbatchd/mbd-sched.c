/*
 * Running the policy and carrying out its decisions: a decision becomes a
 * JOB_START record (mbd-start.c, the state's side) and a job_spec sent to
 * the first execution host's sbatchd (after the record is on disk).  Also the end of a job, and the
 * once-a-second tick: dispatch windows, cleaning finished jobs, and the
 * backstop pass (dispatch is driven by events; the tick only catches
 * what no event announced, such as a load that slowly fell).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>

#include "jobpath.h"
#include "log.h"
#include "mbd.h"

#define MAX_DISPATCH_PER_PASS	10000
#define CLEAN_EVERY_TICKS	30

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/*
 * -cwd and -outdir with their patterns replaced, the -outdir made the
 * directory of a relative -o and -e, as LSF does; sbatchd makes the
 * directories as the job's user.  Allocated: job_dispatch frees them.
 */
static void
fill_paths(struct job *j, struct job_spec *s)
{
	struct jobpath_vars v;
	const char *outdir = j->x ? j->x->outdir : NULL;

	memset(&v, 0, sizeof(v));
	v.jobid = j->jobid;
	v.idx = j->idx;
	v.user = j->user;
	v.group = j->x ? j->x->user_group : NULL;
	v.project = j->project;
	v.host = j->nexec > 0 ? j->exec[0]->name : NULL;
	s->cwd = j->x && j->x->cwd_req ?
	    jobpath_expand(j->x->cwd_req, &v, &s->make_cwd) : NULL;
	s->outdir = outdir ? jobpath_expand(outdir, &v, NULL) : NULL;
	s->out_file = dup_or_null(j->out_file);
	s->err_file = dup_or_null(j->err_file);
	if (s->outdir == NULL)
		return;
	if (s->out_file && s->out_file[0] != '/') {
		char *o = xasprintf("%s/%s", s->outdir, s->out_file);

		free(s->out_file);
		s->out_file = o;
	}
	if (s->err_file && s->err_file[0] != '/') {
		char *e = xasprintf("%s/%s", s->outdir, s->err_file);

		free(s->err_file);
		s->err_file = e;
	}
}

static void
fill_spec(struct job *j, struct job_spec *s)
{
	const struct app_conf *a;

	job_spec_init(s);
	s->jobid = j->jobid;
	s->idx = j->idx;
	s->run_count = j->run_count;
	s->options = j->options;
	s->options2 = j->options2;
	s->user = (char *)j->user;
	s->uid = j->uid;
	s->queue = j->queue->name;
	s->cluster = mbd->cluster;
	s->job_name = j->job_name;
	s->command = job_command(j);
	s->sub_cwd = (char *)j->sub_cwd;
	s->sub_home = (char *)j->sub_home;
	s->in_file = j->x ? j->x->in_file : NULL;
	fill_paths(j, s);
	s->from_host = (char *)j->from_host;
	s->project = (char *)j->project;
	s->mail_user = j->x ? j->x->mail_user : NULL;
	s->login_shell = j->x ? j->x->login_shell : NULL;
	s->job_starter = j->queue->conf->job_starter;
	for (int i = 0; i < j->nexec; i++)
		strv_push(&s->exec_hosts, j->exec[i]->name);
	if (job_env(j, &s->env) < 0)
		log_warnx("job %lld: its environment could not be read back",
		    (long long)j->jobid);
	if (j->restart)
		strv_push(&s->env, "LSB_RESTART=Y");
	job_chkpnt_spec(j, s);
	job_limits(j, s->rlimits);
	if (j->x) {
		s->term_time = j->x->term_time;
		s->pre_exec = j->x->pre_exec;
		s->post_exec = j->x->post_exec;
	}
	s->queue_pre_exec = j->queue->conf->pre_exec;
	s->queue_post_exec = j->queue->conf->post_exec;
	s->host_pre_exec = j->queue->conf->pp.host_pre_exec;
	s->host_post_exec = j->queue->conf->pp.host_post_exec;
	s->queue_prepost_user = j->queue->conf->pp.prepost_user;
	s->warning_action = j->queue->conf->pp.warning_action;
	s->warning_time = j->queue->conf->pp.warning_time;
	s->submit_time = j->submit_time;
	s->umask = j->umask;
	s->nice = j->queue->conf->nice;
	s->term_interval = mbd->conf.params.job_terminate_interval;
	s->requeue_exit = j->queue->conf->requeue_exit_values;
	/* The execution host reads each action again (jobctl_action_parse):
	 * signal names are its own. */
	s->ctl_suspend = j->queue->conf->jobctl.op[JOBCTL_SUSPEND].text;
	s->ctl_resume = j->queue->conf->jobctl.op[JOBCTL_RESUME].text;
	s->ctl_terminate = j->queue->conf->jobctl.op[JOBCTL_TERMINATE].text;
	/* The profile's SUSPEND_CONTROL and the others override them. */
	if ((a = job_app(j)) != NULL) {
		s->app_host_pre_exec = a->pp.host_pre_exec;
		s->app_host_post_exec = a->pp.host_post_exec;
		s->app_pre_exec = a->pre_exec;
		s->app_post_exec = a->post_exec;
		s->app_prepost_user = a->pp.prepost_user;
		if (a->pp.warning_action != NULL)
			s->warning_action = a->pp.warning_action;
		if (a->pp.warning_time >= 0)
			s->warning_time = a->pp.warning_time;
		if (a->requeue_exit_values != NULL)
			s->requeue_exit = a->requeue_exit_values;
		if (a->jobctl.op[JOBCTL_SUSPEND].text != NULL)
			s->ctl_suspend = a->jobctl.op[JOBCTL_SUSPEND].text;
		if (a->jobctl.op[JOBCTL_RESUME].text != NULL)
			s->ctl_resume = a->jobctl.op[JOBCTL_RESUME].text;
		if (a->jobctl.op[JOBCTL_TERMINATE].text != NULL)
			s->ctl_terminate = a->jobctl.op[JOBCTL_TERMINATE].text;
	}
	/* bsub -wa and -wt override both, each on its own. */
	if (j->x != NULL) {
		if (j->x->warning_action != NULL)
			s->warning_action = j->x->warning_action;
		if (j->x->warning_time > 0)
			s->warning_time = j->x->warning_time;
	}
}

/* A started job to its first host, once its JOB_START is on disk. */
static void
job_send(struct job *j)
{
	struct wbuf w;
	struct job_spec spec;

	fill_spec(j, &spec);
	wbuf_init(&w);
	job_spec_frame(&w, MSG_SBD_JOB_START, 0, &spec);
	sbd_send(j->exec[0], &w, true);
	if (job_susp_relevant(j))
		job_susp_send(j);
	free(spec.command);
	free(spec.cwd);
	free(spec.outdir);
	free(spec.chkpnt_dir);
	free(spec.chkpnt_method);
	free(spec.out_file);
	free(spec.err_file);
	strv_release(&spec.exec_hosts);
	strv_release(&spec.env);
	client_job_event(j, JE_DISPATCHED);
	mbd->ndispatched++;
	log_debug("job %lld dispatched to %s", (long long)j->jobid,
	    j->exec[0]->name);
}

void
job_dispatch(struct job *j, const int *slots, int64_t now)
{
	job_start(j, slots, now);
	job_send(j);
}

void
sched_run(void)
{
	static struct pol_decision *d;
	int64_t now = time(NULL);
	int n;

	if (d == NULL)
		d = xcalloc(MAX_DISPATCH_PER_PASS, sizeof(*d));
	mbd->pc.now = now;
	resume_pass();
	depend_pass();
	reserve_pass(now);
	fsadjust_refresh(now);
	n = policy_schedule(&mbd->pc, d, MAX_DISPATCH_PER_PASS);
	for (int i = 0; i < n; i++) {
		struct job *j = sched_apply(&d[i], now);

		if (j != NULL)
			job_send(j);
	}
	policy_decisions_free(d, n);
	/* A full pass may have left more to do. */
	if (n == MAX_DISPATCH_PER_PASS || mbd->pc.preempt_more)
		mbd_sched_dirty();
}

/* The job's REQUEUE_EXIT_VALUES: its application profile's, else its
 * queue's (NULL for none); *rv the list parsed. */
static const char *
job_requeue_values(const struct job *j, const struct requeue_values **rv)
{
	const struct app_conf *a = job_app(j);

	if (a && a->requeue_exit_values) {
		*rv = &a->requeue;
		return a->requeue_exit_values;
	}
	*rv = &j->queue->conf->requeue;
	return j->queue->conf->requeue_exit_values;
}

/* Does the job's REQUEUE_EXIT_VALUES list this exit code?  A job
 * ended by a signal, or by a kill, is not requeued.  *exclude: by
 * EXCLUDE(v). */
static bool
requeue_exit_value(const struct job *j, const struct job_status *st,
    bool *exclude)
{
	const struct requeue_values *rv;
	int code;

	*exclude = false;
	if (job_requeue_values(j, &rv) == NULL || st->exit_status < 0 ||
	    !WIFEXITED(st->exit_status) || st->exit_reason != 0)
		return false;
	code = WEXITSTATUS(st->exit_status);
	if (code == 0 || !requeue_values_has(rv, code, exclude))
		return false;
	return true;
}

/* MAX_JOB_REQUEUE of the job: its application's, its queue's, or
 * lsb.params'. */
int
job_max_requeue(const struct job *j)
{
	const struct app_conf *a = job_app(j);

	return max_job_requeue(a ? a->max_job_requeue : -1,
	    j->queue->conf->max_job_requeue,
	    mbd->conf.params.max_job_requeue);
}

/* SUCCESS_EXIT_VALUES (application's over queue's): does this exit
 * end the job DONE? */
static bool
success_exit(const struct job *j, const struct job_status *st)
{
	const struct app_conf *a = job_app(j);
	const char *list = a && a->success_exit_values ?
	    a->success_exit_values : j->queue->conf->success_exit_values;

	if (list == NULL || st->exit_status < 0 ||
	    !WIFEXITED(st->exit_status) || st->exit_reason != 0)
		return false;
	return success_exit_value(list, WEXITSTATUS(st->exit_status));
}

/* Never again on host h: LSF keeps this until mbatchd restarts, and
 * not for parallel jobs. */
static void
exclude_host(struct job *j, const struct mhost *h)
{
	if (j->pj.num_procs > 1 || h == NULL)
		return;
	for (int i = 0; i < j->pj.nexcl; i++)
		if (j->pj.excl[i] == h->index)
			return;
	j->pj.excl = xrealloc(j->pj.excl,
	    sizeof(int) * ((size_t)j->pj.nexcl + 1));
	j->pj.excl[j->pj.nexcl++] = h->index;
	log_info("job %lld[%d]: not to run on %s again (EXCLUDE exit value)",
	    (long long)j->jobid, (int)j->idx, h->name);
}

void
sched_finish_job(struct job *j, const struct job_status *st)
{
	struct wbuf w;
	struct mhost *h = j->exec[0];
	struct ev_job_status ev;
	bool exclude = false;
	int status;

	if (st->pre_exec_failed && !JOB_STAT_FINISHED(j->status)) {
		preexec_failed(j, st);
		goto ack;
	}
	if (JOB_STAT_FINISHED(j->status)) {
		/* Ended here (bkill -r), or this is its post-exec's end. */
		if (st->post_exec_status >= 0)
			postexec_done(j, st);
		goto ack;
	}
	if (j->end_action & (SIG_F_REQUEUE | SIG_F_MIG) ||
	    requeue_exit_value(j, st, &exclude)) {
		/* brequeue, bmig, REQUEUE_EXIT_VALUES: back to the queue. */
		bool mig = j->end_action & SIG_F_MIG;
		bool hold = j->end_action & SIG_F_HOLD;

		if (exclude && !(j->end_action & (SIG_F_REQUEUE | SIG_F_MIG)))
			exclude_host(j, h);

		/* The status record's apply keeps LSB_RESTART for bmig.
		 * By REQUEUE_EXIT_VALUES that record is the only one: its
		 * apply puts the job first in its queue. */
		if (j->end_action & (SIG_F_REQUEUE | SIG_F_MIG)) {
			job_requeue(j, hold, mig ? PEND_MIGRATING :
			    PEND_REQUEUED);
		} else if (!requeue_allowed(job_max_requeue(j),
		    j->nrequeue)) {
			/* MAX_JOB_REQUEUE reached: held (PSUSP), as LSF
			 * does, until bresume or bkill. */
			log_info("job %lld[%d]: requeued %d times: "
			    "MAX_JOB_REQUEUE reached, suspended",
			    (long long)j->jobid, (int)j->idx, j->nrequeue);
			job_status_change(j, JOB_STAT_PSUSP,
			    PEND_REQUEUE_LIMIT);
			mbd_sched_dirty();
		} else {
			job_status_change(j, JOB_STAT_PEND, PEND_REQUEUED);
			mbd_sched_dirty();
		}
		goto ack;
	}
	/* Ended before its start was reported: the start first. */
	if (!j->executed && st->pid > 0)
		job_execute_record(j, st);
	status = st->status & JOB_STAT_DONE ? JOB_STAT_DONE : JOB_STAT_EXIT;
	if (j->kill_done || success_exit(j, st))
		status = JOB_STAT_DONE;
	job_status_fill(j, status, &ev);
	ev.exit_status = st->exit_status < 0 ? 0 : st->exit_status;
	ev.exit_info = st->exit_reason;
	ev.cpu_time = st->cpu_time;
	ev.end_time = st->end_time ? st->end_time : time(NULL);
	if (st->max_mem_kb >= 0)
		ev.max_mem_kb = st->max_mem_kb;
	if (st->avg_mem_kb >= 0)
		ev.avg_mem_kb = st->avg_mem_kb;
	/* An underrun before the record: lsb.acct's exceptMask has it. */
	exc_job_ended(j, status, ev.end_time);
	job_status_record(j, &ev);
	client_job_event(j, JE_FINISHED);
	/* Its record counted the exit against the host (exc_exit_apply). */
	if (h != NULL)
		exc_host_due(h);
	/* Its post-exec may have ended too while mbatchd was away. */
	if (st->post_exec_status >= 0)
		postexec_done(j, st);
	mbd_sched_dirty();
ack:
	{
		struct job_ack a = {
			.jobid = st->jobid, .idx = st->idx,
			.status = st->status, .run_count = st->run_count,
		};

		wbuf_init(&w);
		job_ack_frame(&w, MSG_SBD_JOB_ACK, 0, &a);
		sbd_send(h, &w, true);
	}
}

/* Forget finished jobs older than CLEAN_PERIOD (bhist keeps them). */
/* JOB_CLEAN: out of memory, its history kept (job_clean). */
static void
clean_one(struct job *j)
{
	struct ev_job_clean ev = { .jobid = j->jobid, .idx = j->idx };

	log_apply_job_clean(&ev, time(NULL));
}

static void
clean_jobs(int64_t now)
{
	int64_t period = mbd->conf.params.clean_period >= 0 ?
	    mbd->conf.params.clean_period : 3600;
	struct job *j, *next;

	for (j = mbd->jobs_head; j; j = next) {
		next = j->next;
		if (JOB_IS_PARENT(j)) {
			/* An array goes when all of it has ended. */
			while (next && next->jobid == j->jobid)
				next = next->next;
			if (array_finished(j) &&
			    now - array_last_end(j) > period) {
				clean_one(j);
			}
			continue;
		}
		if (JOB_STAT_FINISHED(j->status) && j->end_time > 0 &&
		    now - j->end_time > period && j->nwaiters == 0) {
			clean_one(j);
		}
	}
}

static unsigned
clean_every(void)
{
	int p = mbd->conf.params.clean_period;

	if (p >= 0 && p < CLEAN_EVERY_TICKS)
		return p > 0 ? (unsigned)p : 1;
	return CLEAN_EVERY_TICKS;
}

void
sched_tick(void)
{
	static unsigned ticks;
	int64_t now = time(NULL);
	bool pending = false;

	run_windows(now);
	host_locks();
	mig_pass(now);
	chkpnt_pass(now);
	deadline_pass(now);
	exc_job_pass(now);
	for (int i = 0; i < mbd->nqueues; i++) {
		struct mqueue *q = mbd->queues[i];
		bool was = q->pq.active;

		queue_set_active(q, now);
		if (was != q->pq.active)
			log_info("queue %s: dispatch window %s", q->name,
			    q->pq.active ? "opened" : "closed");
		if (q->pq.head)
			pending = true;
	}
	for (int i = 0; i < mbd->nhosts; i++)
		if (host_set_window(mbd->hosts[i], now))
			log_info("host %s: dispatch window %s",
			    mbd->hosts[i]->name,
			    mbd->hosts[i]->window_closed ? "closed" : "opened");
	if (pending)
		mbd_sched_dirty();
	/*
	 * Finished jobs are looked for every 30 s, or every CLEAN_PERIOD
	 * seconds when that is shorter: a site that keeps them 10 s does
	 * not want them kept 40.
	 */
	if (++ticks % clean_every() == 0)
		clean_jobs(now);
}
