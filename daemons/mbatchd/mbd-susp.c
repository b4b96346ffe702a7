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
	memcpy(x.qsched, qc->thr.sched, sizeof(x.qsched));
	memcpy(x.qstop, qc->thr.stop, sizeof(x.qstop));
	x.qsched_set = qc->thr.sched_set;
	x.qstop_set = qc->thr.stop_set;
	x.stop_cond = qc->stop_cond;
	x.resume_cond = qc->resume_cond;
	if (h->ph.thr != NULL) {
		memcpy(x.hsched, h->ph.thr->sched, sizeof(x.hsched));
		memcpy(x.hstop, h->ph.thr->stop, sizeof(x.hstop));
		x.hsched_set = h->ph.thr->sched_set;
		x.hstop_set = h->ph.thr->stop_set;
	}
	x.sleep_time = mbd->conf.params.sbd_sleep_time;
	x.pg_susp_it = mbd->conf.params.pg_susp_it;
	wbuf_init(&w);
	sbd_job_susp_frame(&w, MSG_SBD_JOB_SUSP, 0, &x);
	/* Behind the job's start, which waits for the log. */
	sbd_send(h, &w, true);
}

/* Every started job (badmin reconfig: thresholds may have changed). */
void
jobs_susp_send_all(void)
{
	for (struct job *j = mbd->jobs_head; j; j = j->next)
		if (JOB_STAT_STARTED(j->status) && j->nexec > 0)
			job_susp_send(j);
}
