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

int
apply_job_execute(struct ev_job_execute *ev, int64_t when, off_t off)
{
	struct job *j = find_or_warn(ev->jobid, ev->idx, "JOB_EXECUTE");

	if (j)
		job_execute_apply(j, ev);
	return 0;
}

int
apply_job_status(struct ev_job_status *ev, int64_t when, off_t off)
{
	struct job *j = find_or_warn(ev->jobid, ev->idx, "JOB_STATUS");

	if (j)
		job_status_apply(j, ev, when);
	return 0;
}

int
apply_job_signal(struct ev_job_signal *ev, int64_t when, off_t off)
{
	struct job *j = find_or_warn(ev->jobid, ev->idx, "JOB_SIGNAL");

	if (j)
		job_signal_apply(j, ev);
	return 0;
}

int
apply_job_clean(struct ev_job_clean *ev, int64_t when, off_t off)
{
	struct job *j = find_or_warn(ev->jobid, ev->idx, "JOB_CLEAN");

	if (j)
		job_clean(j);
	return 0;
}

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

int
apply_job_requeue(struct ev_job_requeue *ev, int64_t when, off_t off)
{
	struct job *j = find_or_warn(ev->jobid, ev->idx, "JOB_REQUEUE");

	if (j)
		job_requeue_apply(j);
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

int
apply_mig(struct ev_mig *ev, int64_t when, off_t off)
{
	struct job *j = find_or_warn(ev->jobid, ev->idx, "MIG");

	if (j)
		job_mig_apply(j, ev);
	return 0;
}

int
apply_chkpnt(struct ev_chkpnt *ev, int64_t when, off_t off)
{
	struct job *j = find_or_warn(ev->jobid, ev->idx, "CHKPNT");

	if (j)
		job_chkpnt_apply(j, ev, when);
	return 0;
}

int
apply_job_modify(struct ev_job_modify *ev, int64_t when, off_t off)
{
	struct job *j = find_or_warn(ev->jobid, ev->idx, "JOB_MODIFY2");

	if (j)
		job_modify_apply(j, ev);
	return 0;
}
