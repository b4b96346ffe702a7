/*
 * Inside a scheduling pass: what policy.c (placement) and
 * preempt-policy.c (preemption) share.  Not part of the library's
 * interface: include/policy.h is.
 */
#ifndef LSF_POLICY_PASS_H
#define LSF_POLICY_PASS_H

#include "policy.h"

#define SHAPE_CACHE	64

struct shape {
	const struct resreq *rr;
	const struct pol_user *user;
	bool		 limits;	/* the user's host limits applied */
	struct pol_rlim	*const *rlims;	/* matter only by host: */
	bool		 rl_hosts;
	const int	*asked;
	const int	*excl;
	int		 num_procs;
	bool		 exclusive;
	bool		 no_preempt;	/* preemption failed for it too */
	int		 reason;
	uint32_t	 counts[HR_NREASONS];
};

struct pass {
	struct pol_cluster *c;
	struct pol_queue *q;
	int		*qtaken;	/* slots the queue took per host */
	bool		 qhost_limits;	/* HJOB_LIMIT or PJOB_LIMIT */
	int		*elig;		/* eligible host indices, sorted */
	int		 nelig;
	int		 cursor;	/* first eligible host maybe with room */
	unsigned	 rsv_moved;	/* load indices rusage moved this turn */
	const struct resreq *order_rr;
	struct shape	 failed[SHAPE_CACHE];
	int		 nfailed;
	int		 failed_next;
	/* Preemption, for the queue whose turn it is: the running jobs it
	 * may preempt, gathered at its first need (preempt-policy.c). */
	bool		 vic_built;
	struct pol_job	**vics;
	int		*vrank;		/* each one's queue's preference rank */
	int		 nvics;
	int		 vic_slots;	/* slots they hold, not yet taken */
	int		*vhost;		/* ... on each host */
	bool		 leftover;	/* a preemption freed more than the
					 * job took */
	/* One-slot jobs with no requirement of their own take the victims
	 * in one order, computed once (preempt-policy.c). */
	struct pol_job	**porder;
	int		*pidx;		/* porder[i]'s place in vics */
	int		 nporder;
	int		 pcur;
	int		*elig_pos;	/* a host's place in elig, or -1 */
	bool		 vic_exhausted;	/* none left for the queue's hosts */
	/* Their hosts, vics[i]'s at vexec[voff[i]] to vexec[voff[i + 1]],
	 * and which of them this turn took: read for every preemptor, so
	 * kept together rather than behind each job's pointer. */
	int		*voff;
	int		*vexec;
	bool		*vgone;
	int		 room;		/* eligible hosts that may have a free
					 * slot */
};

/* policy.c */
int	 pass_free_slots(const struct pol_host *);
int	 pass_room_reason(struct pass *, struct pol_host *, int need);
int	 pass_limit_room(struct pass *, struct pol_job *, struct pol_host *,
	    int *why);
bool	 pass_has_host_limits(const struct pass *, const struct pol_job *);
void	 pass_sort_hosts(struct pol_cluster *, int *idx, int n,
	    const struct resreq *);
/* Do the queue's eligible hosts (elig) stand in the order rr sorts by? */
bool	 pass_presorted(const struct pass *, const struct resreq *);
bool	 pass_asked_has(const struct pol_job *, int host);
bool	 pass_excluded(const struct pol_job *, int host);
void	 pass_prefer_asked(const struct pol_job *, int *cand, int ncand);
int	*pass_rusage_keys(const struct resreq *);
bool	 pass_rusage_fits(const struct resreq *, const int *keys,
	    const struct pol_host *);
/*
 * Why host i cannot take job j (0: it can), as placement judges each
 * host, a preemptor's too: the queue's view of the host, then the job's
 * -m, its excluded hosts, select[], -x, the host's room for need slots,
 * the per-host limits (when limits: pass_has_host_limits) and rusage[]
 * (keys: pass_rusage_keys).  need 0 is a preemptor's: a host full of
 * victims passes.  *lr: the room the per-host limits leave (INT_MAX if
 * none was looked at).
 */
int	 pass_host_reason(struct pass *, struct pol_job *, int i, int need,
	    const int *keys, bool limits, int *lr);
bool	 pass_place_general(struct pass *, struct pol_job *,
	    struct pol_decision *);
bool	 pass_cap_full(struct pol_cluster *, struct pol_cap *, int need);
/* A preempted job v resuming: room under its by-host lsb.resources
 * limits that leave suspended jobs out (take_it: count it there). */
bool	 pass_rlim_resume(struct pass *, struct pol_job *v, bool take_it);
bool	 pass_is_plain(const struct pass *, const struct pol_job *);
/* A user's host_taken, zeroed at its first use in a pass. */
void	 pass_user_scratch(struct pass *, struct pol_user *);
void	 pass_take(struct pass *, struct pol_job *, struct pol_host *, int n,
	    bool exclusive);

/* Whether j may start at all in this pass (held, -w, -b: else its
 * reason is set). */
bool	 pass_candidate(struct pass *, struct pol_job *);
/*
 * Try to start one instance (an array: one element) of j, in out[*n]
 * (*n counts decisions; some: an element of j started before in this
 * pass).  TRY_NEXT: j cannot start now, the next job may; TRY_STOP:
 * nothing more of the queue can.
 */
enum { TRY_STARTED, TRY_NEXT, TRY_STOP };
int	 pass_try_one(struct pass *, struct pol_job *, struct pol_decision *,
	    int max, int *n, bool some);

/* fairshare-policy.c: the turn of a queue ordered by a share tree. */
int	 pass_fairshare(struct pass *, struct pol_decision *out, int max);

/* preempt-policy.c */
/* May the queue whose turn it is preempt anything now? */
bool	 pass_may_preempt(struct pass *);
/*
 * Start j by preempting running jobs of the queues its queue may
 * preempt: as few as it needs, then placed as any job is.  cap, when
 * given, is the one limit j is over (one that does not count suspended
 * jobs): the victims must then free enough of it too.
 */
bool	 pass_preempt(struct pass *, struct pol_job *, struct pol_decision *,
	    struct pol_cap *cap);
/* Preempted jobs of the queue that may run again: resume decisions. */
int	 pass_resume(struct pass *, struct pol_decision *out, int max);
/* End of the queue's turn. */
void	 pass_preempt_end(struct pass *);

#endif
