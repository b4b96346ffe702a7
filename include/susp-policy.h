/*
 * Automatic load-based suspension and resumption: the decision for one
 * host, made by sbatchd every SBD_SLEEP_TIME.  Pure code: loads, config
 * and jobs come in, the one job to suspend or resume (or none) comes out;
 * no I/O and no clock (the time comes in susp_host.now).
 *
 * Rules (LSF's "Automatic job suspension"):
 * - A running job is suspended when, for it, any index is at or past a
 *   suspending threshold (loadStop) of its host (lsb.hosts) or of its
 *   queue (lsb.queues), or its queue's STOP_COND is true.  An index with
 *   no suspending threshold is never checked.  An increasing index is
 *   past when load >= stop, a decreasing one (it, tmp, swp, mem) when
 *   load <= stop.  An unknown value (INFINIT_LOAD) is never past.
 * - r15s, r1m, r15m are compared as effective run queue lengths: the
 *   value divided by the host's CPUs.  STOP_COND and RESUME_COND see the
 *   same effective values.
 * - At most one job per host per call.  Jobs of the lowest-priority queue
 *   are checked first; among equal priorities the most recently started
 *   first (it is the least work lost and most likely the one that raised
 *   the load), then the later in the array.
 * - Never suspended: a job started with brun -f; the only running job of
 *   the host unless it < 1 minute (interactive use); a job started less
 *   than min_run seconds ago (its load is not in the indices yet).
 * - pg is not checked (host or queue threshold) while the host has been
 *   idle longer than PG_SUSP_IT: it (minutes) * 60 > pg_susp_it (seconds,
 *   as lsb.params documents it).
 * - When no job is to be suspended, one job suspended by load (SSUSP) and
 *   by nothing else is resumed when every scheduling threshold (loadSched)
 *   of the host holds and either its queue's RESUME_COND is true (when
 *   set; it replaces the queue's thresholds) or every scheduling threshold
 *   of its queue holds.  Within a threshold means load <= sched for an
 *   increasing index, load >= sched for a decreasing one, as dispatch
 *   (policy_over_sched).  Highest-priority queue first; among equals the
 *   earliest started first.  A job also suspended by its user or an
 *   administrator is never resumed here.
 */
#ifndef LSF_SUSP_POLICY_H
#define LSF_SUSP_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "conf.h"
#include "lsf.h"
#include "resreq.h"

/* Why a job is suspended by load (or why a suspended one is not resumed). */
enum susp_why {
	SUSPW_NONE = 0,
	SUSPW_HOST_LOAD,	/* a host (lsb.hosts) loadStop, index given */
	SUSPW_QUEUE_LOAD,	/* a queue (lsb.queues) loadStop, index given */
	SUSPW_STOP_COND,	/* the queue's STOP_COND is true */
	SUSPW_RESUME_COND,	/* the queue's RESUME_COND is false */
	SUSPW_NWHY
};

struct susp_job {
	int			 qprio;		/* its queue's PRIORITY */
	const struct thresholds	*qthr;		/* its queue's; NULL none */
	const struct resreq	*stop_cond;	/* STOP_COND; NULL none */
	const struct resreq	*resume_cond;	/* RESUME_COND; NULL none */
	bool			 forced;	/* started by brun -f */
	bool			 load_susp;	/* SSUSP by this policy */
	bool			 other_susp;	/* also stopped by user/admin */
	time_t			 start_time;
};

struct susp_host {
	const float		*load;		/* NLOADIDX raw LIM values */
	int			 ncpus;		/* < 1 counts as 1 */
	const struct thresholds	*thr;		/* lsb.hosts; NULL none */
	const struct rr_host	*rr;		/* for the conditions; NULL:
						   only the loads are known */
	int			 pg_susp_it;	/* lsb.params, seconds */
	int			 min_run;	/* seconds; 0: check at once */
	time_t			 now;
};

enum susp_action { SUSP_ACT_NONE = 0, SUSP_ACT_SUSPEND, SUSP_ACT_RESUME };

struct susp_decision {
	enum susp_action	 action;
	int			 job;		/* index in the jobs array */
	enum susp_why		 why;		/* for SUSP_ACT_SUSPEND */
	int			 index;		/* load index, or -1 */
};

/*
 * Decide for one host over its started jobs (running or suspended; jobs
 * in other states are the caller's to leave out).  Fills *d and returns
 * its action.
 */
enum susp_action susp_policy_decide(const struct susp_host *,
	    const struct susp_job *jobs, int njobs, struct susp_decision *d);
/*
 * LSF's suspending reason text for bjobs -l/-s, without the leading
 * space and trailing ';' bjobs lays out: e.g. "Host load exceeded
 * threshold: 1-minute CPU run queue length (r1m)".  Returns buf.
 */
const char *susp_policy_reason(enum susp_why, int index, char *buf,
	    size_t len);

#endif /* !LSF_SUSP_POLICY_H */
