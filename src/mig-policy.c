/* Automatic job migration: the decision (see mig-policy.h for the rules). */
#include "lsf.h"
#include "mig-policy.h"

int
mig_policy_threshold(int queue_mig, int host_mig)
{
	if (queue_mig < 0)
		return host_mig < 0 ? -1 : host_mig;
	if (host_mig < 0)
		return queue_mig;
	return queue_mig < host_mig ? queue_mig : host_mig;
}

bool
mig_policy_due(const struct mig_job *j, int queue_mig, int host_mig,
    int64_t now)
{
	int mig = mig_policy_threshold(queue_mig, host_mig);

	if (mig < 0)
		return false;
	/* SSUSP alone: a job also stopped by a user, or whose host is
	 * unknown, stays. */
	if (!(j->status & JOB_STAT_SSUSP) || (j->status & (JOB_STAT_USUSP |
	    JOB_STAT_UNKWN)) || JOB_STAT_FINISHED(j->status) ||
	    JOB_STAT_PENDING(j->status))
		return false;
	if (!j->rerunnable && !j->checkpointable)
		return false;
	if (j->migrating || j->resuming)
		return false;
	if (mig == 0)
		return true;
	/* Suspended since a time we do not know: not long enough. */
	if (j->ssusp_since <= 0)
		return false;
	return now - j->ssusp_since >= (int64_t)mig * 60;
}
