/*
 * Preemption, as mbatchd carries it out.  The policy picks the victims
 * of a pending job (src/preempt-policy.c) and the preempted jobs that
 * may run again; here each becomes a record and a signal:
 *
 *	suspend	JOB_STATUS SSUSP, reason SUSP_PREEMPTED and the preemptor's
 *		job ID, then the queue's SUSPEND action on the host;
 *	end	with TERMINATE_WHEN=PREEMPT, JOB_SIGNAL KILL (SIG_F_PREEMPT,
 *		SIG_F_REQUEUE when rerunnable), then the TERMINATE action;
 *	resume	JOB_STATUS RUN, then the RESUME action.
 *
 * mbatchd decides for preempted jobs, not the host: a host's report
 * that contradicts a record not yet carried out there is the signal
 * still on its way, and a report that outlived a lost signal has the
 * signal sent again (preempt_host_report).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

void
preempt_configure(void)
{
	struct pol_queue **pq;
	const struct queue_conf **qc;
	int n = mbd->nqueues;

	mbd->preempt_on = false;
	pq = xcalloc((size_t)n + 1, sizeof(*pq));
	qc = xcalloc((size_t)n + 1, sizeof(*qc));
	for (int i = 0; i < n; i++) {
		pq[i] = &mbd->queues[i]->pq;
		qc[i] = mbd->queues[i]->conf;
		if (qc[i]->preempt.preemptive || qc[i]->preempt.preemptable)
			mbd->preempt_on = true;
	}
	for (int i = 0; i < n; i++)
		preempt_victim_queues(pq[i], qc[i], pq, qc, n);
	mbd->pc.preempt_for = mbd->conf.params.preempt_for;
	free(pq);
	free(qc);
}

void
preempt_lists(struct job *j, int sign)
{
	struct pol_queue *q = &j->queue->pq;
	int s = j->status;

	if (sign < 0) {
		if (j->in_list != NULL)
			policy_list_remove(j->in_list, &j->pj);
		j->in_list = NULL;
		return;
	}
	if ((s & JOB_STAT_RUN) && !j->preempt_kill) {
		int max = job_max_preempt(j);

		j->pj.no_preempt = j->forced ||
		    (max >= 0 && j->npreempt >= max);
		j->pj.start_time = j->start_time;
		j->in_list = &q->running;
	} else if ((s & JOB_STAT_SSUSP) && j->susp_reason == SUSP_PREEMPTED &&
	    !j->preempt_kill) {
		j->in_list = &q->preempted;
	} else {
		return;
	}
	policy_list_add(j->in_list, &j->pj);
}

void
preempt_set_exec(struct job *j)
{
	free(j->exec_idx);
	j->exec_idx = xcalloc((size_t)j->nexec + 1, sizeof(int));
	for (int i = 0; i < j->nexec; i++)
		j->exec_idx[i] = j->exec[i]->index;
	j->pj.exec = j->exec_idx;
	j->pj.nexec = j->nexec;
}

void
preempt_victims(struct job *by, struct pol_job **victims, int n)
{
	for (int i = 0; i < n; i++) {
		struct job *v = JOB_OF_PJ(victims[i]);

		if (!(v->status & JOB_STAT_RUN))
			continue;	/* cannot be: the policy saw it run */
		if (v->queue->conf->terminate_mask & TERMINATE_WHEN_PREEMPT) {
			int flags = SIG_F_PREEMPT;

			if (job_rerunnable(v))
				flags |= SIG_F_REQUEUE;
			log_info("job %lld[%d] ended for job %lld[%d]",
			    (long long)v->jobid, v->idx, (long long)by->jobid,
			    by->idx);
			job_signal_record(v, "KILL", 0, "root", flags);
			signal_send(v, SIG_KILL_SEQ, TERM_PREEMPT);
			continue;
		}
		log_info("job %lld[%d] preempted by job %lld[%d]",
		    (long long)v->jobid, v->idx, (long long)by->jobid, by->idx);
		job_susp_change(v, JOB_STAT_SSUSP, SUSP_PREEMPTED,
		    (int)by->jobid);
		signal_send(v, SBD_SIG_SUSPEND, SUSP_PREEMPTED);
		v->stop_sent = true;
	}
}

void
preempt_resume(struct job *j)
{
	log_info("job %lld[%d] resumed: slots are free for it again",
	    (long long)j->jobid, j->idx);
	job_status_change(j, JOB_STAT_RUN, 0);
	signal_send(j, SBD_SIG_RESUME, 0);
	j->preempt_resuming = true;
}

bool
preempt_host_report(struct job *j, const struct job_status *st)
{
	bool stopped = (st->status & (JOB_STAT_USUSP | JOB_STAT_SSUSP)) != 0;

	if ((j->status & JOB_STAT_SSUSP) && j->susp_reason == SUSP_PREEMPTED) {
		if (stopped) {
			j->stop_sent = false;
		} else if (!j->stop_sent) {
			/* Running there: its SUSPEND was lost. */
			signal_send(j, SBD_SIG_SUSPEND, SUSP_PREEMPTED);
			j->stop_sent = true;
		}
		return true;
	}
	if ((j->status & JOB_STAT_RUN) && stopped &&
	    st->susp_reason == SUSP_PREEMPTED) {
		if (!j->preempt_resuming) {
			/* Still stopped there: its RESUME was lost. */
			signal_send(j, SBD_SIG_RESUME, 0);
			j->preempt_resuming = true;
		}
		return true;
	}
	if (!stopped)
		j->preempt_resuming = false;
	return false;
}
