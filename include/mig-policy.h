/*
 * Automatic job migration (MIG in lsb.queues and lsb.hosts): is a job
 * due to be migrated now?  Pure code: the job's state, the two
 * thresholds and the time come in, yes or no comes out; no I/O and no
 * clock.  mbatchd asks once a second (mbd-mig.c) and migrates as bmig
 * does.
 *
 * Rules (LSF's "Automatic job migration", lsb.queues(5), lsb.hosts(5)):
 * - Only a started job that the system suspended (SSUSP) is migrated:
 *   never one running, pending, finished, or suspended by its user or an
 *   administrator (USUSP).
 * - Only a rerunnable (bsub -r, RERUNNABLE=yes) or checkpointable job.
 * - The threshold is the lower of the queue's MIG and its host's MIG;
 *   one that is not set (-1) does not count; neither set: never.
 * - MIG=0 migrates a job as soon as it is suspended; MIG=n once it has
 *   been suspended n minutes (n * 60 seconds since it became SSUSP, that
 *   second included: mbatchd looks once a second).
 * - A job whose end already brings it back to its queue (bmig, brequeue,
 *   an earlier migration) is not migrated again for the same suspension,
 *   nor one whose resume is on its way to its host.
 */
#ifndef LSF_MIG_POLICY_H
#define LSF_MIG_POLICY_H

#include <stdbool.h>
#include <stdint.h>

struct mig_job {
	int		 status;	/* JOB_STAT_* */
	int64_t		 ssusp_since;	/* when it became SSUSP; 0 unknown */
	bool		 rerunnable;
	bool		 checkpointable;
	bool		 migrating;	/* its end requeues it already */
	bool		 resuming;	/* a resume is on its way */
};

/* The threshold in minutes that applies: the lower of the two that are
 * set (>= 0), -1 when neither is. */
int	 mig_policy_threshold(int queue_mig, int host_mig);

/* Is the job to be migrated at now? */
bool	 mig_policy_due(const struct mig_job *, int queue_mig, int host_mig,
	    int64_t now);

#endif
