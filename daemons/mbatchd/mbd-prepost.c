/*
 * What the execution host says about a job's pre- and post-execution
 * commands.  A failed pre-exec puts the job back at the head of its
 * queue, the same job with its run count, not to be dispatched again for
 * PREEXEC_RETRY_INTERVAL seconds; after MAX_PREEXEC_RETRY failures in a
 * row it ends EXIT.  A post-exec's outcome, which comes after the job's
 * end, adds PDONE or PERR to the DONE or EXIT state.
 *
 * Both are logged as JOB_STATUS records (a PEND one whose reason is
 * PEND_PRE_EXEC, and a DONE/EXIT one with the post-exec bit), so replay
 * rebuilds them.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

static void
retry_later(struct job *j, int64_t when)
{
	j->pend_note = PEND_PRE_EXEC;
	j->pj.eligible_time = when + PREEXEC_RETRY_INTERVAL;
	j->pj.eligible_reason = PEND_PRE_EXEC;
	/* As after a requeue, it goes first in its queue. */
	policy_job_remove(&j->pj);
	policy_job_prepend(&j->queue->pq, &j->pj);
	j->pj.reason_pass = 0;
}

void
preexec_failed(struct job *j, const struct job_status *st)
{
	int max = mbd->conf.params.max_preexec_retry;
	int64_t now = time(NULL);

	j->preexec_fails++;
	if (max > 0 && j->preexec_fails >= max) {
		log_info("job %lld: pre-exec failed %d times; the job exits",
		    (long long)j->jobid, j->preexec_fails);
		j->preexec_fails = 0;
		j->exit_status = st->pre_exec_failed;
		j->exit_reason = 0;
		j->cpu_time = st->cpu_time;
		j->end_time = st->end_time ? st->end_time : now;
		job_set_status(j, JOB_STAT_EXIT);
		log_job_status(j);
		client_job_event(j, JE_FINISHED);
		mbd_sched_dirty();
		return;
	}
	log_info("job %lld: pre-exec failed (status %d); pending again",
	    (long long)j->jobid, st->pre_exec_failed);
	/* The state first: it releases the slots of the hosts it held. */
	job_set_status(j, JOB_STAT_PEND);
	job_clear_run(j);
	retry_later(j, now);
	log_job_status(j);
	mbd_sched_dirty();
}

void
preexec_replayed(struct job *j, int64_t when)
{
	j->preexec_fails++;
	retry_later(j, when);
}

void
postexec_done(struct job *j, const struct job_status *st)
{
	int bit = st->post_exec_status == 0 ? JOB_STAT_PDONE : JOB_STAT_PERR;

	if (!JOB_STAT_FINISHED(j->status) ||
	    (j->status & (JOB_STAT_PDONE | JOB_STAT_PERR)))
		return;
	log_debug("job %lld: post-exec %s (status %d)", (long long)j->jobid,
	    bit == JOB_STAT_PDONE ? "done" : "failed", st->post_exec_status);
	job_set_status(j, j->status | bit);
	log_job_status(j);
	/* post_done() and post_err() dependencies may now hold. */
	mbd_sched_dirty();
}
