/*
 * apply_<id> of a job's records but JOB_NEW (mbd-apply-new.c): find the
 * job the record names, then make the change, the typed part of which
 * is in mbd-apply.c (job_start_apply ...) or with the feature it belongs
 * to (job_modify_apply, job_chkpnt_apply, job_move).  A record of a job
 * that is not there (cleaned before) is skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mbd.h"

static struct job *
find_or_warn(int64_t jobid, int idx, const char *what)
{
	struct job *j = job_lookup(jobid, idx);

	if (j == NULL)
		log_debug("lsb.events: %s for unknown job %lld[%d] skipped",
		    what, (long long)jobid, idx);
	return j;
}

int
apply_job_start(struct ev_job_start *ev, int64_t when, off_t off)
{
	struct mhost **hosts;
	struct job *j;
	int n = 0;

	j = find_or_warn(ev->jobid, ev->idx, "JOB_START");
	if (j == NULL || JOB_STAT_FINISHED(j->status))
		return 0;
	hosts = xcalloc(ev->exec_hosts.n + 1, sizeof(*hosts));
	for (size_t i = 0; i < ev->exec_hosts.n; i++)
		if ((hosts[n] = host_find(ev->exec_hosts.v[i])) != NULL)
			n++;
	/* Logs before run_count was recorded: one run more. */
	job_start_apply(j, hosts, n, ev->run_count ? ev->run_count :
	    j->run_count + 1, when);
	free(hosts);
	return 0;
}

/* The records whose change is one typed function of the job. */
#define APPLY_TO_JOB(id, NAME, call)					\
int									\
apply_##id(struct ev_##id *ev, int64_t when, off_t off)		\
{									\
	struct job *j = find_or_warn(ev->jobid, ev->idx, NAME);		\
									\
	if (j)								\
		call;							\
	return 0;							\
}
APPLY_TO_JOB(job_execute, "JOB_EXECUTE", job_execute_apply(j, ev))
APPLY_TO_JOB(job_status, "JOB_STATUS", job_status_apply(j, ev, when))
APPLY_TO_JOB(job_signal, "JOB_SIGNAL", job_signal_apply(j, ev))
APPLY_TO_JOB(job_clean, "JOB_CLEAN", job_clean(j))
APPLY_TO_JOB(job_requeue, "JOB_REQUEUE", job_requeue_apply(j))
APPLY_TO_JOB(mig, "MIG", job_mig_apply(j, ev))
APPLY_TO_JOB(chkpnt, "CHKPNT", job_chkpnt_apply(j, ev, when))
APPLY_TO_JOB(job_modify, "JOB_MODIFY2", job_modify_apply(j, ev))
#undef APPLY_TO_JOB

/* btop/bbot: among all jobs of its priority, or its owner's own, as the
 * record says (asked then; a record from before decides as it did). */
int
apply_job_move(struct ev_job_move *ev, int64_t when, off_t off)
{
	struct job *j = find_or_warn(ev->jobid, ev->idx, "JOB_MOVE");
	bool mine_only;

	if (j == NULL || !JOB_STAT_PENDING(j->status))
		return 0;
	if (ev->scope == EV_MOVE_UNKNOWN)
		mine_only = !user_is_admin(ev->user, ev->uid);
	else
		mine_only = ev->scope != EV_MOVE_ALL;
	job_move(j, ev->position, ev->base == 1, mine_only);
	return 0;
}

int
apply_job_switch(struct ev_job_switch *ev, int64_t when, off_t off)
{
	struct job *j = find_or_warn(ev->jobid, ev->idx, "JOB_SWITCH");
	struct mqueue *q;

	if (j == NULL)
		return 0;
	q = ev->queue ? queue_find(ev->queue) : NULL;
	if (q == NULL) {
		/* As reconfig did when the queue was removed. */
		q = queue_lost_found();
		log_warnx("job %lld: switched to queue %s, which is gone; "
		    "job put in %s", (long long)ev->jobid,
		    ev->queue ? ev->queue : "?", q->name);
	}
	job_switch(j, q);
	return 0;
}

/* brun: the dispatch that follows is its own JOB_START. */
int
apply_job_force(struct ev_job_force *ev, int64_t when, off_t off)
{
	struct job *j = find_or_warn(ev->jobid, ev->idx, "JOB_FORCE");

	if (j) {
		j->forced = true;
		j->no_susp = (ev->options & 1) != 0;
	}
	return 0;
}

