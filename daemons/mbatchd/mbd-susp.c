/*
 * Suspension by the system, and the resumption of what it suspended.
 *
 * By load, sbatchd decides (sbd-load.c), on its own host's load; what it
 * needs to suspend and resume a started job is its queue's priority,
 * thresholds and conditions and the host's own thresholds
 * (MSG_SBD_JOB_SUSP), which this side keeps it told of, after the start,
 * on registration, bswitch and badmin reconfig.  It is configuration, not
 * state: nothing is logged.
 *
 * mbatchd itself suspends the running jobs of a queue whose run window
 * has closed and of a locked host; resume_pass, before each scheduling
 * pass, resumes them once the window opens or the lock goes, and the
 * jobs users bresumed, when the host's load allows.  What sbatchd
 * suspended by load only sbatchd resumes, so the two never fight over a
 * job; both ask the same rule (susp_policy_may_resume).
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mbd.h"
#include "susp-policy.h"

void
job_susp_send(struct job *j)
{
	struct sbd_job_susp x;
	struct mhost *h;
	const struct queue_conf *qc;
	struct wbuf w;

	if (j->nexec == 0 || j->queue == NULL || !JOB_STAT_STARTED(j->status))
		return;
	h = j->exec[0];
	if (h->sbd == NULL)
		return;		/* its registration will bring it */
	qc = j->queue->conf;
	memset(&x, 0, sizeof(x));
	x.jobid = j->jobid;
	x.idx = j->idx;
	x.run_count = j->run_count;
	x.qprio = qc->priority;
	x.forced = j->no_susp;
	thresholds_to_wire(&qc->thr, x.qsched, x.qstop, &x.qsched_set,
	    &x.qstop_set, &x.qext);
	if (h->ph.thr != NULL)
		thresholds_to_wire(h->ph.thr, x.hsched, x.hstop,
		    &x.hsched_set, &x.hstop_set, &x.hext);
	x.stop_cond = qc->stop_cond;
	x.resume_cond = qc->resume_cond;
	x.sleep_time = mbd->conf.params.sbd_sleep_time;
	x.pg_susp_it = mbd->conf.params.pg_susp_it;
	wbuf_init(&w);
	sbd_job_susp_frame(&w, MSG_SBD_JOB_SUSP, 0, &x);
	strv_release(&x.qext);
	strv_release(&x.hext);
	/* Behind the job's start, which waits for the log. */
	sbd_send(h, &w, true);
}

/*
 * At dispatch, only a job that load can suspend is sent one: a job with
 * none counts on its host as a running job that never is (sbd-load.c),
 * so the common case costs no second frame per start.  Registration,
 * bswitch and reconfig send it always, to take back what no longer holds.
 */
bool
job_susp_relevant(const struct job *j)
{
	const struct queue_conf *qc;
	const struct mhost *h;

	if (j->nexec == 0 || j->queue == NULL)
		return false;
	qc = j->queue->conf;
	h = j->exec[0];
	return qc->thr.stop_set != 0 || qc->thr.next > 0 ||
	    qc->stop_cond != NULL || (h->ph.thr != NULL &&
	    (h->ph.thr->stop_set != 0 || h->ph.thr->next > 0));
}

/* Every started job (badmin reconfig: thresholds may have changed). */
void
jobs_susp_send_all(void)
{
	for (struct job *j = mbd->jobs_head; j; j = j->next)
		if (JOB_STAT_STARTED(j->status) && j->nexec > 0)
			job_susp_send(j);
}

/* Is one of the job's hosts locked (lsadmin limlock, LIM run window)? */
static bool
job_host_locked(const struct job *j)
{
	for (int i = 0; i < j->nexec; i++)
		if (j->exec[i]->lim_locked)
			return true;
	return false;
}

/* The same rule as sbatchd's for jobs it suspended by load. */
static bool
load_allows(struct mhost *h, const struct job *j)
{
	struct susp_host sh;
	struct susp_job sj;

	memset(&sh, 0, sizeof(sh));
	sh.load = h->load;
	sh.ncpus = h->ph.rr.ncpus;
	sh.thr = h->ph.thr;
	sh.rr = &h->ph.rr;
	memset(&sj, 0, sizeof(sj));
	sj.qthr = &j->queue->conf->thr;
	sj.resume_cond = j->queue->resume_rr;
	return susp_policy_may_resume(&sh, &sj);
}

/*
 * A job that holds no slot while suspended (preemption is configured)
 * may run again only where its hosts have its slots free, and within
 * the limits that did not count it.
 */
static bool
slots_back(const struct job *j)
{
	if (!j->slots_free)
		return true;
	for (int i = 0; i < POL_NCAPS; i++) {
		const struct pol_cap *k = j->pj.caps[i];

		if (k && k->susp_free && k->max >= 0 && k->used +
		    (k->per_job ? 1 : j->pj.num_procs) > k->max)
			return false;
	}
	for (int i = 0; i < j->nexec; i++) {
		const struct pol_host *ph = &j->exec[i]->ph;
		int n = 0;

		for (int k = 0; k < j->nexec; k++)
			n += j->exec[k] == j->exec[i];
		if (ph->max_slots >= 0 && ph->max_slots - ph->used_slots < n)
			return false;
	}
	return true;
}

/*
 * Resume what the system may resume: jobs bresumed by their users, and
 * jobs whose queue's run window has opened again, when their host is
 * within its scheduling thresholds.  One job per host per turn, as the
 * host's load needs time to show the job.
 */
void
resume_pass(void)
{
	bool *done = NULL, any = false;

	/* Only system-suspended jobs are resumed here: none, no walk. */
	for (int i = 0; i < mbd->nhosts && !any; i++)
		any = mbd->hosts[i]->nssusp > 0;
	if (!any)
		return;

	for (struct job *j = mbd->jobs_head; j; j = j->next) {
		struct mhost *h;

		if (!(j->status & JOB_STAT_SSUSP) || j->nexec == 0 ||
		    j->resume_sent)
			continue;
		if (j->susp_reason != SUSP_USER_RESUME &&
		    !(j->susp_reason == SUSP_QUEUE_WINDOW &&
		    j->queue->run_open) &&
		    !(j->susp_reason == SUSP_HOST_LOCK && !job_host_locked(j)))
			continue;
		h = j->exec[0];
		if (done == NULL)
			done = xcalloc((size_t)mbd->nhosts + 1, sizeof(bool));
		if (done[h->index] || h->sbd == NULL ||
		    (!j->no_susp && !load_allows(h, j)) || !slots_back(j))
			continue;
		done[h->index] = true;
		j->resume_sent = true;
		j->window_sent = false;
		j->lock_sent = false;
		signal_send(j, SBD_SIG_RESUME, 0);
	}
	free(done);
}

/*
 * A host locked with lsadmin limlock (or outside its LIM run window)
 * has its running batch jobs suspended, as LSF does (closed_Lock);
 * resume_pass resumes them once it is unlocked.
 */
void
host_locks(void)
{
	bool any = false;

	for (int i = 0; i < mbd->nhosts && !any; i++)
		any = mbd->hosts[i]->lim_locked && mbd->hosts[i]->nrun > 0;
	if (!any)
		return;
	for (struct job *j = mbd->jobs_head; j; j = j->next) {
		if (!(j->status & JOB_STAT_RUN) || j->nexec == 0 ||
		    j->no_susp || j->lock_sent || !job_host_locked(j))
			continue;
		j->lock_sent = true;
		signal_send(j, SBD_SIG_SUSPEND, SUSP_HOST_LOCK);
	}
}

/*
 * RUN_WINDOW: while a queue's run window is closed its running jobs are
 * suspended (or, with TERMINATE_WHEN=WINDOW, killed), whenever they got
 * there: the window closing, bswitch, a restart of mbatchd.  An opening
 * window lets resume_pass resume them.
 */
void
run_windows(int64_t now)
{
	bool any_closed = false;

	for (int i = 0; i < mbd->nqueues; i++) {
		struct mqueue *q = mbd->queues[i];
		bool was = q->run_open;

		q->run_open = queue_run_open(q, now);
		if (was != q->run_open) {
			log_info("queue %s: run window %s", q->name,
			    q->run_open ? "opened" : "closed");
			if (q->run_open)
				mbd_sched_dirty();
		}
		if (!q->run_open)
			any_closed = true;
	}
	if (!any_closed)
		return;
	for (struct job *j = mbd->jobs_head; j; j = j->next) {
		struct mqueue *q = j->queue;

		if (q == NULL || q->run_open || !(j->status & JOB_STAT_RUN) ||
		    j->no_susp || j->window_sent)
			continue;
		j->window_sent = true;
		if (q->conf->terminate_when &&
		    strcasestr(q->conf->terminate_when, "WINDOW") != NULL)
			signal_send(j, SIG_KILL_SEQ, TERM_WINDOW);
		else
			signal_send(j, SBD_SIG_SUSPEND, SUSP_QUEUE_WINDOW);
	}
}
