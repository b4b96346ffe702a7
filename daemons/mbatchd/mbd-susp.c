/*
 * What an execution host needs to suspend and resume a started job by
 * load: its queue's priority, thresholds and conditions, and the host's
 * own thresholds (MSG_SBD_JOB_SUSP).  sbatchd decides (sbd-load.c); this
 * side only keeps it told, after the start, on registration, bswitch and
 * badmin reconfig.  It is configuration, not state: nothing is logged.
 */
#include <string.h>

#include "mbd.h"

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
