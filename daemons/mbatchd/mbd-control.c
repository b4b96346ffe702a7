/*
 * Job control: bstop, bresume, brequeue, btop, bbot, bswitch, brun and
 * bmig, one request type with an operation code.
 *
 * A pending job changes state here, at once.  A started job is changed
 * through its sbatchd and its supervisor: the state mbatchd shows is the
 * one the execution host reports (a job is USUSP once it is stopped), so
 * a bstop that cannot reach the host does not pretend it did.  Requeue
 * and migration wait for the job's end (end_action), which JOB_SIGNAL
 * records so a restarted mbatchd still does it.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

struct ctl {
	const struct ctrl_req *rq;
	int		 uid;
	const char	*user;
	bool		 admin;
	struct mqueue	*dest;		/* bswitch */
	struct mhost	**hosts;	/* brun, bmig -m */
	int		 nhosts;
};

static bool
may_control(const struct ctl *c, const struct job *j)
{
	return c->admin || j->uid == c->uid;
}

/* bstop; also bkill -s STOP. */
int
job_stop(struct job *j, int uid, const char *user, bool admin)
{
	bool owner = j->uid == uid;

	if (!owner && !admin)
		return LSBE_PERMISSION;
	if (JOB_STAT_FINISHED(j->status))
		return LSBE_JOB_FINISH;
	if (j->status & JOB_STAT_PEND) {
		job_signal_record(j, "STOP", uid, user, 0);
		job_status_change(j, JOB_STAT_PSUSP, owner ? PEND_USER_STOP :
		    PEND_ADMIN_STOP);
		mbd_sched_dirty();
		return LSBE_NO_ERROR;
	}
	if (j->status & (JOB_STAT_PSUSP | JOB_STAT_USUSP))
		return LSBE_NO_ERROR;		/* already stopped by someone */
	if ((j->status & JOB_STAT_SSUSP) && j->susp_reason ==
	    SUSP_USER_RESUME && !j->resume_sent) {
		/*
		 * bresumed but not continued yet: it is still stopped, and
		 * the host's reports of a stopped job would not change it.
		 */
		job_status_change(j, JOB_STAT_USUSP, owner ? SUSP_USER_STOP :
		    SUSP_ADMIN_STOP);
	}
	job_signal_record(j, "STOP", uid, user, 0);
	signal_send(j, SBD_SIG_SUSPEND, owner ? SUSP_USER_STOP :
	    SUSP_ADMIN_STOP);
	/* RUN until the host says it stopped it; bresume may cancel it. */
	j->stop_sent = (j->status & JOB_STAT_RUN) != 0;
	return LSBE_NO_ERROR;
}

/* bresume; also bkill -s CONT. */
int
job_resume(struct job *j, int uid, const char *user, bool admin)
{
	bool owner = j->uid == uid;

	if (!owner && !admin)
		return LSBE_PERMISSION;
	if (JOB_STAT_FINISHED(j->status))
		return LSBE_JOB_FINISH;
	if (j->status & JOB_STAT_PSUSP) {
		if (j->hold_reason == PEND_ADMIN_STOP && !admin)
			return LSBE_PERMISSION;
		job_signal_record(j, "CONT", uid, user, 0);
		job_status_change(j, JOB_STAT_PEND, j->pend_note);
		mbd_sched_dirty();
		return LSBE_NO_ERROR;
	}
	if (j->status & JOB_STAT_USUSP) {
		if (j->susp_reason == SUSP_ADMIN_STOP && !admin)
			return LSBE_PERMISSION;
		/*
		 * Not resumed at once: the job waits, like one suspended by
		 * the system, until its host's load allows (resume_pass).
		 */
		job_signal_record(j, "CONT", uid, user, 0);
		job_status_change(j, JOB_STAT_SSUSP, SUSP_USER_RESUME);
		mbd_sched_dirty();
		return LSBE_NO_ERROR;
	}
	if (j->status & JOB_STAT_SSUSP)
		return LSBE_NO_ERROR;	/* the system resumes it */
	if ((j->status & JOB_STAT_RUN) && j->sig_pending &&
	    j->pending_sig == SBD_SIG_SUSPEND) {
		/* A bstop still waiting for the host: the latest wins (the
		 * record's apply drops it). */
		job_signal_record(j, "CONT", uid, user, 0);
		return LSBE_NO_ERROR;
	}
	if ((j->status & JOB_STAT_RUN) && j->stop_sent) {
		/*
		 * A bstop the host has not reported yet (the job may have
		 * started a moment ago): send the resume after it, else
		 * the job would end up stopped after a bresume.
		 */
		job_signal_record(j, "CONT", uid, user, 0);
		j->stop_sent = false;
		signal_send(j, SBD_SIG_RESUME, 0);
		return LSBE_NO_ERROR;
	}
	return LSBE_NOT_SUSPENDED;
}

static int
do_stop(struct job *j, struct ctl *c)
{
	return job_stop(j, c->uid, c->user, c->admin);
}

static int
do_resume(struct job *j, struct ctl *c)
{
	return job_resume(j, c->uid, c->user, c->admin);
}

/* The fields of a run, cleared when the job goes back to its queue. */
void
job_clear_run(struct job *j)
{
	free(j->exec);
	j->exec = NULL;
	j->nexec = 0;
	free(j->exec_idx);
	j->exec_idx = NULL;
	j->pj.exec = NULL;
	j->pj.nexec = 0;
	j->preempt_kill = j->preempt_resuming = false;
	j->pid = j->pgid = 0;
	j->executed = false;
	j->start_time = 0;
	j->end_time = 0;
	j->exit_status = -1;
	j->exit_reason = 0;
	j->cpu_time = 0;
	j->mem_kb = j->max_mem_kb = j->avg_mem_kb = -1;
	j->susp_reason = j->susp_sub = 0;
	j->ssusp_since = 0;
	j->forced = j->no_susp = false;
	j->end_action = 0;
	j->kill_done = j->kill_asked = false;
	j->sig_pending = false;
	job_chkpnt_clear_run(j);
	free(j->exec_cwd);
	free(j->exec_home);
	free(j->exec_user);
	j->exec_cwd = j->exec_home = j->exec_user = NULL;
}

/* Back to the head of its queue, its run forgotten (run count kept). */
void
job_requeue(struct job *j, bool hold, int note)
{
	job_status_change(j, hold ? JOB_STAT_PSUSP : JOB_STAT_PEND,
	    hold ? PEND_USER_STOP : note);
	job_requeue_record(j);
	mbd_sched_dirty();
}

static int
do_requeue(struct job *j, struct ctl *c)
{
	uint32_t f = c->rq->flags;
	bool owner = j->uid == c->uid, hold = (f & JC_F_HOLD) != 0;
	bool any = !(f & (JC_F_DONE | JC_F_EXIT | JC_F_RUN | JC_F_ALL));

	if (!may_control(c, j))
		return LSBE_PERMISSION;
	if (JOB_STAT_PENDING(j->status))
		return LSBE_NOT_STARTED;
	if (JOB_STAT_FINISHED(j->status)) {
		bool want = (f & JC_F_ALL) ||
		    ((f & JC_F_DONE) && (j->status & JOB_STAT_DONE)) ||
		    ((f & JC_F_EXIT) && (j->status & JOB_STAT_EXIT));

		if (!want)
			return LSBE_JOB_FINISH;
		job_signal_record(j, "KILL", c->uid, c->user, SIG_F_REQUEUE |
		    (hold ? SIG_F_HOLD : 0));
		job_requeue(j, hold, PEND_REQUEUED);
		return LSBE_NO_ERROR;
	}
	/* Started: -r takes running jobs, the default also suspended. */
	if (!any && !(f & JC_F_ALL) && !((f & JC_F_RUN) &&
	    (j->status & JOB_STAT_RUN)))
		return LSBE_JOB_STARTED;
	/* Its end brings it back: the record's apply sets end_action. */
	job_signal_record(j, "KILL", c->uid, c->user, SIG_F_REQUEUE |
	    (hold ? SIG_F_HOLD : 0));
	signal_send(j, SIG_KILL_SEQ, owner ? TERM_REQUEUE_OWNER :
	    TERM_REQUEUE_ADMIN);
	return LSBE_NO_ERROR;
}

/* Where a job lands among pending jobs of its queue with the same user
 * priority (and, for a user, among that user's own). */
static bool
same_class(const struct job *a, const struct job *b, bool mine_only)
{
	int pa = job_priority(a), pb = job_priority(b);

	if (pa != pb)
		return false;
	return !mine_only || a->uid == b->uid;
}

void
job_move(struct job *j, int position, bool top, bool mine_only)
{
	struct pol_queue *q = &j->queue->pq;
	struct pol_job *anchor = NULL, *p, *was = j->pj.next;
	int n = 0;

	if (position < 1)
		position = 1;
	policy_job_remove(&j->pj);
	if (top) {
		/* Before the position-th job of its class from the top. */
		for (p = q->head; p; p = p->next) {
			if (!same_class(j, JOB_OF_PJ(p), mine_only))
				continue;
			if (++n == position) {
				anchor = p;
				break;
			}
		}
		if (anchor) {
			policy_job_insert_before(q, anchor, &j->pj);
			return;
		}
		/* Fewer than that: after the last of its class. */
		for (p = q->tail; p; p = p->prev)
			if (same_class(j, JOB_OF_PJ(p), mine_only))
				break;
	} else {
		/* After the position-th of its class from the bottom. */
		for (p = q->tail; p; p = p->prev) {
			if (!same_class(j, JOB_OF_PJ(p), mine_only))
				continue;
			if (++n == position) {
				anchor = p;
				break;
			}
		}
		if (anchor) {
			policy_job_insert_after(q, anchor, &j->pj);
			return;
		}
		for (p = q->head; p; p = p->next)
			if (same_class(j, JOB_OF_PJ(p), mine_only))
				break;
		if (p) {
			policy_job_insert_before(q, p, &j->pj);
			return;
		}
		/* Alone in its class: it stays where it was. */
		policy_job_insert_before(q, was, &j->pj);
		return;
	}
	if (p)
		policy_job_insert_after(q, p, &j->pj);
	else
		policy_job_insert_before(q, was, &j->pj);
}

/*
 * btop/bbot as uid (user) asks it; admin: the user administers the job
 * (its queue's or the cluster's administrator), so it moves among all
 * jobs of its priority, else among its owner's.
 */
int
job_move_req(struct job *j, int position, bool top, int uid,
    const char *user, bool admin)
{
	struct ev_job_move ev;

	if (!admin && j->uid != uid)
		return LSBE_PERMISSION;
	if (JOB_STAT_FINISHED(j->status))
		return LSBE_JOB_FINISH;
	if (!JOB_STAT_PENDING(j->status))
		return LSBE_JOB_STARTED;
	memset(&ev, 0, sizeof(ev));
	ev.uid = uid;
	ev.jobid = j->jobid;
	ev.position = position < 1 ? 1 : position;
	ev.base = top ? 1 : 2;
	ev.idx = j->idx;
	ev.user = (char *)user;
	/* Decided now, by who asks: replay reads it from the record. */
	ev.scope = admin ? EV_MOVE_ALL : EV_MOVE_OWN;
	log_apply_job_move(&ev, time(NULL));
	mbd_sched_dirty();
	return LSBE_NO_ERROR;
}

static int
do_move(struct job *j, struct ctl *c)
{
	return job_move_req(j, c->rq->position, c->rq->op == JC_TOP, c->uid,
	    c->user, c->admin);
}

/* Move a job to another queue, keeping its state and slots. */
void
job_switch(struct job *j, struct mqueue *dest)
{
	int status = j->status;
	char *cause = NULL;

	job_set_status(j, JOB_STAT_NULL);
	policy_job_remove(&j->pj);
	j->queue = dest;
	j->pj.queue = &dest->pq;
	job_attach_limits(j);
	if (job_set_resreq(j, mbd->conf.lsf.unit_for_limits, &cause) < 0) {
		log_warnx("job %lld: in queue %s: %s", (long long)j->jobid,
		    dest->name, cause);
		free(cause);
	}
	j->pj.fsa = fs_job_acct(j);
	job_set_status(j, status);
	if (JOB_STAT_PENDING(status))
		policy_job_append(&dest->pq, &j->pj);
	j->pj.reason_pass = 0;
}

static int
do_switch(struct job *j, struct ctl *c)
{
	struct ev_job_switch ev;
	int code;

	if (!may_control(c, j))
		return LSBE_PERMISSION;
	if (JOB_STAT_FINISHED(j->status))
		return LSBE_JOB_FINISH;
	if (c->dest == NULL)
		return LSBE_BAD_QUEUE;
	if (j->queue == c->dest)
		return LSBE_NO_ERROR;
	/* As if its owner submitted it there now. */
	code = queue_accepts(c->dest, j, j->user, j->uid);
	if (code != LSBE_NO_ERROR)
		return code;
	/* A started job stays where it runs: those hosts must be the
	 * new queue's too. */
	for (int i = 0; i < j->nexec; i++)
		if (c->dest->host_ok && !c->dest->host_ok[j->exec[i]->index])
			return LSBE_QUEUE_HOST;
	memset(&ev, 0, sizeof(ev));
	ev.uid = c->uid;
	ev.jobid = j->jobid;
	ev.queue = c->dest->name;
	ev.idx = j->idx;
	ev.user = (char *)c->user;
	log_apply_job_switch(&ev, time(NULL));
	/* A started job takes the new queue's thresholds. */
	job_susp_send(j);
	mbd_sched_dirty();
	return LSBE_NO_ERROR;
}

static int
do_force(struct job *j, struct ctl *c)
{
	struct ev_job_force ev;
	int n = j->pj.num_procs, *slots;

	if (JOB_STAT_FINISHED(j->status))
		return LSBE_JOB_FINISH;
	if (!(j->status & JOB_STAT_PEND))
		return JOB_STAT_STARTED(j->status) ? LSBE_JOB_STARTED :
		    LSBE_NOT_STARTED;
	for (int i = 0; i < c->nhosts; i++)
		if (c->hosts[i]->sbd == NULL)
			return LSBE_BAD_HOST;
	/* The slots go round the hosts given. */
	slots = xcalloc((size_t)n, sizeof(int));
	for (int i = 0; i < n; i++)
		slots[i] = c->hosts[i % c->nhosts]->index;
	memset(&ev, 0, sizeof(ev));
	ev.jobid = j->jobid;
	ev.uid = c->uid;
	ev.idx = j->idx;
	ev.options = (c->rq->flags & JC_F_FORCE) ? 1 : 0;
	for (int i = 0; i < c->nhosts; i++)
		strv_push(&ev.hosts, c->hosts[i]->name);
	ev.user = (char *)c->user;
	log_apply_job_force(&ev, time(NULL));
	strv_release(&ev.hosts);
	job_dispatch(j, slots, time(NULL));
	free(slots);
	return LSBE_NO_ERROR;
}

bool
job_rerunnable(const struct job *j)
{
	const struct app_conf *a = job_app(j);

	/* The job's -r, else its profile's RERUNNABLE, else its queue's. */
	if (j->options & SUB_RERUNNABLE)
		return true;
	if (a != NULL && a->rerunnable >= 0)
		return a->rerunnable == 1;
	return j->queue->conf->rerunnable;
}

void
job_migrate(struct job *j, struct mhost **hosts, int nhosts, int uid,
    const char *user, int reason)
{
	struct ev_mig ev;
	struct strbuf sb = STRBUF_INIT;

	memset(&ev, 0, sizeof(ev));
	ev.jobid = j->jobid;
	for (int i = 0; i < nhosts; i++)
		strv_push(&ev.hosts, hosts[i]->name);
	ev.uid = uid;
	ev.idx = j->idx;
	ev.user = (char *)user;
	ev_mig_write(&sb, time(NULL), &ev);
	log_record(&sb);
	sb_release(&sb);
	job_mig_apply(j, &ev);
	strv_release(&ev.hosts);
	job_signal_record(j, "KILL", uid, user, SIG_F_MIG);
	signal_send(j, SIG_KILL_SEQ, reason);
}

static int
do_mig(struct job *j, struct ctl *c)
{
	bool owner = j->uid == c->uid;
	int reason = owner ? TERM_REQUEUE_OWNER : TERM_REQUEUE_ADMIN;
	int rc;

	if (!may_control(c, j))
		return LSBE_PERMISSION;
	if (JOB_STAT_FINISHED(j->status))
		return LSBE_JOB_FINISH;
	if (!JOB_STAT_STARTED(j->status))
		return LSBE_NOT_STARTED;
	if (!job_rerunnable(j) && job_chkpnt_dir(j) == NULL)
		return LSBE_NOT_RERUNNABLE;
	/* A running checkpointable job is checkpointed first; a stopped
	 * one restarts from its last checkpoint. */
	if ((rc = job_chkpnt_mig(j, c->hosts, c->nhosts, c->uid, c->user,
	    reason)) >= 0)
		return rc;
	job_migrate(j, c->hosts, c->nhosts, c->uid, c->user, reason);
	return LSBE_NO_ERROR;
}

static int
control_one(struct job *j, void *arg)
{
	struct ctl cj = *(struct ctl *)arg, *c = &cj;

	/* The job's queue administrators may do what cluster ones may. */
	cj.admin = cj.admin || user_admins_job(j, cj.user, cj.uid);
	switch (c->rq->op) {
	case JC_STOP:
		return do_stop(j, c);
	case JC_RESUME:
		return do_resume(j, c);
	case JC_REQUEUE:
		return do_requeue(j, c);
	case JC_TOP:
	case JC_BOTTOM:
		return do_move(j, c);
	case JC_SWITCH:
		return do_switch(j, c);
	case JC_FORCE:
		return do_force(j, c);
	case JC_MIG:
		return do_mig(j, c);
	case JC_CHKPNT:
		if (!may_control(c, j))
			return LSBE_PERMISSION;
		return job_chkpnt(j, c->rq->position, (c->rq->flags &
		    JC_F_KILL) != 0, c->uid, c->user);
	}
	return LSBE_BAD_ARG;
}

void
control_handle(struct conn *cn, uint32_t seq, struct rbuf *r)
{
	struct ctrl_req rq;
	struct job_results res = { NULL, 0 };
	struct ctl c;
	struct jsel sel = { 0 };
	const char *caller = user_name((int)cn->uid);

	if (!ctrl_req_unpack(r, &rq) || rbuf_end(r) < 0 || rq.op < JC_STOP ||
	    rq.op > JC_CHKPNT) {
		ctrl_req_release(&rq);
		client_reply_error(cn, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	memset(&c, 0, sizeof(c));
	c.rq = &rq;
	c.uid = (int)cn->uid;
	c.user = caller;
	c.admin = user_is_admin(caller, c.uid);
	if (rq.op == JC_FORCE && !c.admin) {
		client_reply_error(cn, seq, LSBE_PERMISSION, NULL, NULL, false);
		goto out;
	}
	/*
	 * An unknown destination is reported job by job (do_switch) for
	 * the jobs named, once for job 0 or none.
	 */
	if (rq.op == JC_SWITCH) {
		bool named = rq.nids > 0;

		for (uint32_t i = 0; i < rq.nids; i++)
			if (rq.ids[i].jobid == 0)
				named = false;
		c.dest = rq.queue ? queue_find(rq.queue) : NULL;
		if (c.dest == NULL && !named) {
			client_reply_error(cn, seq, LSBE_BAD_QUEUE, rq.queue,
			    NULL, false);
			goto out;
		}
	}
	if ((rq.op == JC_TOP || rq.op == JC_BOTTOM || rq.op == JC_FORCE) &&
	    (rq.nids == 0 || rq.ids[0].jobid == 0)) {
		client_reply_error(cn, seq, LSBE_BAD_JOBID, NULL, NULL, false);
		goto out;
	}
	if (rq.hosts.n > 0) {
		c.hosts = xcalloc(rq.hosts.n, sizeof(*c.hosts));
		for (size_t i = 0; i < rq.hosts.n; i++) {
			struct mhost *h = host_find(rq.hosts.v[i]);

			if (h == NULL) {
				client_reply_error(cn, seq, LSBE_BAD_HOST,
				    rq.hosts.v[i], NULL, false);
				goto out;
			}
			c.hosts[c.nhosts++] = h;
		}
	}
	if (rq.op == JC_FORCE && c.nhosts == 0) {
		client_reply_error(cn, seq, LSBE_BAD_HOST, NULL,
		    "brun needs -m", false);
		goto out;
	}
	memset(&sel, 0, sizeof(sel));
	if (rq.user && strcmp(rq.user, "all") == 0)
		sel.user = NULL;
	else	/* job 0 means the caller's own jobs, even for an admin */
		sel.user = rq.user ? rq.user : caller;
	sel.queue = rq.src_queue;
	if (rq.host && (sel.on_host = host_mask(rq.host)) == NULL) {
		client_reply_error(cn, seq, LSBE_BAD_HOST, rq.host, NULL,
		    false);
		goto out;
	}
	sel.job_name = rq.job_name;
	sel.ids = rq.ids;
	sel.nids = rq.nids;
	sel.finished_too = rq.op == JC_REQUEUE &&
	    (rq.flags & (JC_F_DONE | JC_F_EXIT | JC_F_ALL));
	jobs_select(&sel, control_one, &c, &res);
	job_results_reply(cn, seq, &res);
out:
	free(sel.on_host);
	free(c.hosts);
	ctrl_req_release(&rq);
}
