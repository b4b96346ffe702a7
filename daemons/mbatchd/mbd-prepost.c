/*
 * What the execution host says about a job's pre- and post-execution
 * commands.  A failed pre-exec puts the job back at the head of its
 * queue, the same job with its run count, not to be dispatched again for
 * PREEXEC_RETRY_INTERVAL seconds; after LOCAL_MAX_PREEXEC_RETRY failures
 * in a row (preexec_retry_policy) it is held PSUSP, or ends EXIT with
 * LOCAL_MAX_PREEXEC_RETRY_ACTION = EXIT.  A post-exec's outcome, which comes after the job's
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

void
preexec_failed(struct job *j, const struct job_status *st)
{
	struct ev_job_status ev;
	int max, action;

	preexec_retry_policy(&mbd->conf.params, j->queue->conf, job_app(j),
	    &max, &action);
	if (max > 0 && j->preexec_fails + 1 >= max &&
	    action == PREEXEC_ACT_SUSPEND) {
		/* Held (PSUSP) until bresume, which gives it its tries
		 * again (mbd-apply.c). */
		log_info("job %lld: pre-exec failed %d times; the job is "
		    "suspended", (long long)j->jobid, j->preexec_fails + 1);
		job_status_change(j, JOB_STAT_PSUSP, PEND_PRE_EXEC_LIMIT);
		mbd_sched_dirty();
		return;
	}
	if (max > 0 && j->preexec_fails + 1 >= max) {
		log_info("job %lld: pre-exec failed %d times; the job exits",
		    (long long)j->jobid, j->preexec_fails + 1);
		job_status_fill(j, JOB_STAT_EXIT, &ev);
		/* With the exit code of its last pre-exec, as LSF. */
		ev.exit_status = st->pre_exec_failed;
		ev.exit_info = 0;
		ev.cpu_time = st->cpu_time;
		ev.end_time = st->end_time ? st->end_time : time(NULL);
		job_status_record(j, &ev);
		client_job_event(j, JE_FINISHED);
		mbd_sched_dirty();
		return;
	}
	log_info("job %lld: pre-exec failed (status %d); pending again",
	    (long long)j->jobid, st->pre_exec_failed);
	/* Back first in its queue, not dispatched again for a while, one
	 * failure more (mbd-apply.c). */
	job_status_change(j, JOB_STAT_PEND, PEND_PRE_EXEC);
	mbd_sched_dirty();
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
	job_status_change(j, j->status | bit, 0);
	/* post_done() and post_err() dependencies may now hold. */
	mbd_sched_dirty();
}
