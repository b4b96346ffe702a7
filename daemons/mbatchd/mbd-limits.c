/*
 * Resource limits and the termination deadline.  A job's limit is its
 * own (bsub -W, -c, -M), else its application profile's (held to its
 * queue's maximum), else its queue's default, else its queue's
 * maximum: the values the execution host enforces and bjobs -l shows.
 * The execution host enforces them while the job runs; a job still
 * pending at its deadline (bsub -t) is ended here.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mbd.h"

/* A queue's "[default] max": the default, else the maximum; -1 none. */
static int64_t
queue_value(const struct limit_pair *lp, int64_t scale)
{
	if (lp->deflt > 0)
		return lp->deflt * scale;
	if (lp->max > 0)
		return lp->max * scale;
	return DEFAULT_RLIMIT;
}

/*
 * The profile's value in place of the queue's default: LSF's profile
 * limits override the queue's soft limits, never its hard ones.
 */
static int64_t
app_value(long long v, const struct limit_pair *qmax, int64_t scale)
{
	if (v <= 0)
		return DEFAULT_RLIMIT;
	if (qmax != NULL && qmax->max > 0 && qmax->max < v)
		v = qmax->max;
	return v * scale;
}

void
job_limits(const struct job *j, int64_t rl[LSF_RLIM_NLIMITS])
{
	const struct queue_conf *qc = j->queue ? j->queue->conf : NULL;
	const struct app_conf *a = job_app(j);

	/* 0 is a limit (-C 0: no core file); DEFAULT_RLIMIT is none.  Run,
	 * CPU and memory limits of 0 mean none, as their queues' do. */
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		rl[i] = j->x && (j->x->rlimits[i] > 0 ||
		    (j->x->rlimits[i] == 0 && i != LSF_RLIMIT_RUN &&
		    i != LSF_RLIMIT_CPU && i != LSF_RLIMIT_RSS)) ?
		    j->x->rlimits[i] : DEFAULT_RLIMIT;
	if (a != NULL) {
		if (rl[LSF_RLIMIT_RUN] <= 0)
			rl[LSF_RLIMIT_RUN] = app_value(a->runlimit,
			    qc ? &qc->runlimit : NULL, 60);
		if (rl[LSF_RLIMIT_CPU] <= 0)
			rl[LSF_RLIMIT_CPU] = app_value(a->cpulimit,
			    qc ? &qc->cpulimit : NULL, 60);
		if (rl[LSF_RLIMIT_RSS] <= 0)
			rl[LSF_RLIMIT_RSS] = app_value(a->memlimit,
			    qc ? &qc->memlimit : NULL, 1);
	}
	if (qc == NULL)
		return;
	/* Queue time limits are minutes, memory is KB. */
	if (rl[LSF_RLIMIT_RUN] <= 0)
		rl[LSF_RLIMIT_RUN] = queue_value(&qc->runlimit, 60);
	if (rl[LSF_RLIMIT_CPU] <= 0)
		rl[LSF_RLIMIT_CPU] = queue_value(&qc->cpulimit, 60);
	if (rl[LSF_RLIMIT_RSS] <= 0)
		rl[LSF_RLIMIT_RSS] = queue_value(&qc->memlimit, 1);
}

void
job_limits_send(struct job *j)
{
	struct mhost *h = j->nexec > 0 ? j->exec[0] : NULL;
	struct sbd_limits l;
	struct wbuf w;

	if (!JOB_STAT_STARTED(j->status) || h == NULL || h->sbd == NULL)
		return;
	memset(&l, 0, sizeof(l));
	l.jobid = j->jobid;
	l.idx = j->idx;
	l.run_count = j->run_count;
	job_limits(j, l.rlimits);
	l.term_time = j->x ? j->x->term_time : 0;
	wbuf_init(&w);
	sbd_limits_frame(&w, MSG_SBD_JOB_LIMITS, 0, &l);
	sbd_send(h, &w, true);
	j->limits_pending = false;
}

void
deadline_pass(int64_t now)
{
	/* Most clusters never see a -t: then there is nothing to walk. */
	if (mbd->ndeadline == 0)
		return;
	for (int i = 0; i < mbd->nqueues; i++) {
		struct pol_job *p = mbd->queues[i]->pq.head, *next;

		for (; p; p = next) {
			/* pj is the first member of struct job. */
			struct job *j = JOB_OF_PJ(p);

			next = p->next;
			if (j->x == NULL || j->x->term_time <= 0 ||
			    j->x->term_time > now ||
			    !JOB_STAT_PENDING(j->status))
				continue;
			log_info("job %lld: pending at its deadline; removed",
			    (long long)j->jobid);
			job_finish_now(j, JOB_STAT_EXIT, TERM_DEADLINE);
		}
	}
}
