/*
 * MIG (lsb.queues, lsb.hosts): a rerunnable job system-suspended (SSUSP)
 * for MIG minutes or more is migrated, once a second if any is due, the
 * way bmig migrates it (job_migrate): its end brings it back to the head
 * of its queue, same job ID, and it runs again elsewhere with
 * LSB_RESTART=Y.  The decision is mig-policy.c's; the time it counts
 * from is ssusp_since, which the JOB_STATUS record that made the job
 * SSUSP sets, live and in replay alike.
 *
 * The records name LSF's primary administrator (the first of
 * ClusterAdmins, else root) as the one who asked, as bmig run by LSF
 * itself would.
 */
#include <pwd.h>
#include <string.h>

#include "log.h"
#include "mbd.h"
#include "mig-policy.h"

/* The lower MIG of the job's hosts (a parallel job's too); -1 none. */
static int
hosts_mig(const struct job *j)
{
	int mig = -1;

	for (int i = 0; i < j->nexec; i++) {
		const struct lsb_host_conf *b = j->exec[i]->bconf;

		mig = mig_policy_threshold(mig, b ? b->mig : -1);
	}
	return mig;
}

static bool
mig_configured(void)
{
	for (int i = 0; i < mbd->nqueues; i++)
		if (mbd->queues[i]->conf->mig >= 0)
			return true;
	for (int i = 0; i < mbd->nhosts; i++)
		if (mbd->hosts[i]->bconf && mbd->hosts[i]->bconf->mig >= 0)
			return true;
	return false;
}

static void
mig_identity(int *uid, const char **user)
{
	struct passwd *pw;

	*user = mbd->admins.n > 0 ? mbd->admins.v[0] : "root";
	pw = getpwnam(*user);
	*uid = pw ? (int)pw->pw_uid : 0;
}

void
mig_pass(int64_t now)
{
	const char *user = NULL;
	bool any = false;
	int uid = 0;

	/* Only system-suspended jobs are migrated, and only where a MIG is
	 * set: none, no walk. */
	for (int i = 0; i < mbd->nhosts && !any; i++)
		any = mbd->hosts[i]->nssusp > 0;
	if (!any || !mig_configured())
		return;
	for (struct job *j = mbd->jobs_head; j; j = j->next) {
		struct mig_job mj;
		int qmig, hmig;

		if (!(j->status & JOB_STAT_SSUSP) || j->nexec == 0)
			continue;
		qmig = j->queue->conf->mig;
		hmig = hosts_mig(j);
		memset(&mj, 0, sizeof(mj));
		mj.status = j->status;
		mj.ssusp_since = j->ssusp_since;
		mj.rerunnable = job_rerunnable(j);
		mj.checkpointable = job_chkpnt_dir(j) != NULL;
		/* On its way out already (bmig, brequeue, bkill), or a
		 * command's signal still waits for its host. */
		mj.migrating = j->end_action != 0 || j->kill_asked ||
		    j->sig_pending;
		mj.resuming = j->resume_sent;
		if (!mig_policy_due(&mj, qmig, hmig, now))
			continue;
		if (user == NULL)
			mig_identity(&uid, &user);
		log_info("job %lld: SSUSP since %lld, MIG %d: migrating",
		    (long long)j->jobid, (long long)j->ssusp_since,
		    mig_policy_threshold(qmig, hmig));
		job_migrate(j, NULL, 0, uid, user, TERM_REQUEUE_ADMIN);
	}
}
