/*
 * When mbatchd gives up on an execution host (mbd-hostfail.c settles its
 * jobs).  Pure code: what mbatchd knows of the host and the time (ms of
 * one monotonic clock) come in, the verdict goes out; no I/O, no clock.
 *
 * A host answers while its sbatchd is connected or its LIM reports to
 * the master LIM (mbatchd's load feed).  One that answers neither is
 * probed every MBD_SLEEP_TIME, and is lost after MAX_SBD_FAIL failed
 * probes in a row, counted only once it has had the time a healthy host
 * needs to find the master:
 *
 * - It could start looking when it was last seen, or when this master
 *   came to be, whichever is later: mbatchd's start (after a failover,
 *   the hosts are still looking for the new master), or the start of
 *   its load feed (a new master LIM's table, to which every LIM reports
 *   anew).
 * - The time it needs (hostfail_grace_ms): its LIM notices that its
 *   master is silent (the link's NET_PEER_DEADLINE_MS), walks
 *   LSF_MASTER_LIST down to this master (each candidate before it passed
 *   by, then this one answering: LIM_PROBE_MAX_MS each, lim-elect.h),
 *   and reports; on top, HOST_INACTIVITY_LIMIT exchange intervals, what
 *   a master LIM itself gives a host between reports before it calls it
 *   unavailable, for an election that had to be run again at the next
 *   exchange, and for a host that is slow.  LSF too gives a failover
 *   time in exchange intervals (a slave LIM that has not heard from its
 *   master stands itself after (HOST_INACTIVITY_LIMIT + its place in
 *   lsf.cluster * MASTER_INACTIVITY_LIMIT) of them), and warns of
 *   minutes without service after one while the hosts wait for the new
 *   master to reach them.
 * - A failed probe within that time is not counted, and the count starts
 *   over: the host is in doubt (its jobs show UNKWN) but not on its way
 *   to being lost.  After it, each failed probe counts; the
 *   MAX_SBD_FAIL-th makes the host lost, once: it stays lost, and is
 *   not lost again, until it answers.
 */
#ifndef LSF_HOSTFAIL_H
#define LSF_HOSTFAIL_H

#include <stdbool.h>
#include <stdint.h>

struct hostfail_params {
	int		 max_sbd_fail;	/* MAX_SBD_FAIL, at least 1 */
	int64_t		 grace_ms;	/* hostfail_grace_ms() */
	int64_t		 start_ms;	/* this mbatchd became master */
	int64_t		 feed_ms;	/* its load feed began; 0 not yet */
};

/* What mbatchd keeps of one host; zero is a host never seen. */
struct hostfail_host {
	int64_t		 seen_ms;	/* it last answered; 0 never */
	int		 fails;		/* failed probes counted, in a row */
	bool		 doubt;		/* a probe failed since it answered */
	bool		 lost;		/* lost: its jobs were settled */
};

enum hostfail_verdict {
	HOSTFAIL_GRACE,		/* in doubt, still in its time to find us */
	HOSTFAIL_FAILED,	/* a failed probe counted, not the last */
	HOSTFAIL_LOST,		/* the MAX_SBD_FAIL-th: settle its jobs */
	HOSTFAIL_GONE,		/* lost already: nothing more to do */
};

/*
 * The time a healthy host needs to find a master that is candidate
 * number rank (0 the first) of LSF_MASTER_LIST, with EXINTERVAL and
 * HOST_INACTIVITY_LIMIT of lsf.cluster (a value below 1: LSF's default).
 */
int64_t	 hostfail_grace_ms(int exinterval, int host_inactivity_limit,
	    int rank);

/* When the host could start looking for this master (rules above). */
int64_t	 hostfail_since(const struct hostfail_params *,
	    const struct hostfail_host *);

/* The host answers now: seen, in doubt no more, no longer lost. */
void	 hostfail_seen(struct hostfail_host *, int64_t now_ms);

/* A probe at now finds neither its sbatchd nor its LIM. */
enum hostfail_verdict hostfail_probe(const struct hostfail_params *,
	    struct hostfail_host *, int64_t now_ms);

#endif
