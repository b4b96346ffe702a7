/*
 * The scheduling policy: which pending job starts where.  Pure code over
 * plain structs, with no I/O and no clock (the time comes in pol_cluster),
 * so it runs the same inside mbatchd, in the unit tests and in a
 * simulator.
 *
 * mbatchd embeds pol_host, pol_queue and pol_job in its own records and
 * keeps them current; policy_schedule() reads them, returns decisions,
 * and records on each job it looked at why it could not start.
 *
 * Order: queues by decreasing PRIORITY (config order among equals), and
 * within a queue the pending list as mbatchd keeps it (FCFS, moved by
 * btop/bbot).  A host is eligible for a job when it is usable (its LIM
 * and sbatchd are up and it is not closed), has free slots (MXJ), has
 * not just taken a job within JOB_ACCEPT_INTERVAL, its load is within the
 * host's (lsb.hosts) and the queue's scheduling thresholds, it is in the
 * queue's HOSTS and the job's -m list, and it satisfies the select[] of
 * the job's effective resource requirement.  Among eligible hosts the
 * best by order[] (default r15s:pg) wins.
 *
 * Thresholds: an increasing index (r1m, ut, ...) is over its threshold
 * when load > loadSched; a decreasing one (mem, swp, tmp, it) when
 * load < loadSched.  A value equal to the threshold is within it.  The
 * run queue lengths compared are per CPU (policy_effective_load).
 */
#ifndef LSF_POLICY_H
#define LSF_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "conf.h"
#include "fairshare.h"
#include "lsf.h"
#include "resreq.h"

/* No job may ask for more slots than this (bsub -n). */
#define POL_MAX_SLOTS	1000000

struct pol_host {
	int		 index;		/* position in pol_cluster.hosts */
	bool		 usable;	/* LIM and sbatchd up, not closed */
	int		 unusable_reason; /* HR_* when !usable */
	int		 max_slots;	/* MXJ; -1 unlimited */
	int		 used_slots;	/* held by started jobs */
	/* Scratch of one pass, beside what free slots are made of: a
	 * pass reads them for every host, again and again. */
	int		 taken;		/* slots given out in this pass */
	int		 freed;		/* slots of jobs preempted this pass */
	int		 qreason;	/* for the queue being scheduled */
	bool		 took_exclusive;
	bool		 accept_closed;	/* took a job; interval > 0 */
	bool		 exclusive;	/* an exclusive job runs there */
	int64_t		 last_dispatch;	/* time of the last job started */
	const struct thresholds *thr;	/* lsb.hosts, may be NULL */
	int		 jl_u;		/* lsb.hosts JL/U; -1 none */
	struct rr_host	 rr;		/* name, load, static figures */
	float		 rsv[NLOADIDX];	/* reserved by running jobs' rusage */
	/* Scratch of one pass. */
	const float	*load;		/* the real load (rr.load is eff) */
	float		 eff[NLOADIDX];	/* load less reservations */
	float		 rsv_taken[NLOADIDX];
};

struct pol_job;

/*
 * A limit shared by several jobs: an array's %N, and the job and slot
 * limits of users and queues.  mbatchd keeps used (what started jobs
 * hold); the policy counts what it hands out in a pass in taken.
 */
struct pol_cap {
	int		 max;		/* -1: no limit */
	int		 used;
	int		 reason;	/* PEND_* when it is reached */
	bool		 per_job;	/* counts jobs (elements), not slots */
	bool		 susp_free;	/* suspended jobs are not counted (so
					 * preempting one frees its share) */
	/* Scratch of one pass. */
	uint32_t	 pass;
	int		 taken;
	uint32_t	 preempt_failed; /* pass in which preempting for it
					 * failed */
};
#define POL_NCAPS	6

/*
 * An lsb.resources limit as one set of consumers holds it (a user, a
 * queue, a project, or all of them together).  cap counts what started
 * jobs hold under it: slots, jobs, or megabytes of rusage[mem] on each
 * host.  Without hosts and per_host it applies however the job is
 * placed (caps_reason); with hosts only the part of a job on those hosts
 * counts, against cap (hosts together) or against each host's own
 * maximum (per_host: host_max, or per_proc times its processors).
 */
enum { POL_RL_SLOTS, POL_RL_JOBS, POL_RL_MEM };
struct pol_rlim {
	struct pol_cap	 cap;		/* first: the preemption code's view */
	int		 kind;		/* POL_RL_* */
	const bool	*hosts;		/* per host index; NULL every host */
	bool		 per_host;
	int		 host_max;	/* per_host: a maximum; -1 none */
	float		 per_proc;	/* per_host: per processor; < 0 none */
	float		 mem_pct;	/* per_host: MEM% of maxmem; < 0 none */
	int		*host_used;	/* per_host: per host index */
	int		 hreason;	/* HR_* where a host has no room */
	/* Scratch of one pass. */
	uint32_t	 hpass;
	int		*host_taken;
	const void	*taker;		/* JOBS over hosts: counted once */
};
/* Whether it counts however the job is placed. */
#define POL_RL_GLOBAL(r)	((r)->hosts == NULL && !(r)->per_host)

/* A user's slots by host, for JL/U (lsb.hosts) and JL/P (lsb.users). */
struct pol_user {
	int		*host_used;	/* per host index, started jobs */
	int		*host_susp;	/* ... of them, suspended jobs that hold
					 * no slot (preemption configured);
					 * NULL none: PREEMPT_FOR HOST_JLU and
					 * USER_JLP leave them out */
	float		 jl_p;		/* slots per processor; < 0 none */
	/* Scratch of one pass. */
	uint32_t	 pass;
	int		*host_taken;
};

/*
 * Fairshare.  A queue ordered by a share tree keeps, besides its pending
 * list, each account's pending jobs in the same order; a pass takes the
 * account with the highest dynamic priority (at each level of the tree),
 * starts its first job that can start, and counts the slots at once, so
 * the next choice already sees them.
 */
struct pol_fs_acct {
	struct fs_node	*leaf;
	struct pol_queue *queue;
	struct pol_job	*head;		/* its pending jobs, queue order */
	struct pol_job	*tail;
	int		 npend;		/* jobs in that list */
	struct pol_fs_acct *qnext;	/* the queue's accounts */
	/* Scratch of one pass. */
	struct pol_job	*cur;		/* the next one to try */
	int64_t		 cur_started;	/* its elements started (count > 1) */
};

struct pol_queue {
	const char	*name;
	int		 priority;
	int		 order;		/* position in lsb.queues */
	bool		 active;	/* may dispatch now */
	int		 inactive_reason; /* PEND_* when !active */
	const struct thresholds *thr;
	const bool	*host_ok;	/* per host index; NULL = all hosts */
	const struct resreq *rr;	/* RES_REQ; NULL = none */
	int		 accept_interval; /* seconds, 0 = none */
	int		 new_job_delay;	/* NEW_JOB_SCHED_DELAY: a job is no
					 * candidate before its submit time
					 * plus this many seconds; 0 none */
	struct pol_cap	 qcap;		/* QJOB_LIMIT: slots of the queue */
	int		 hjob_limit;	/* HJOB_LIMIT: per host; -1 none */
	float		 pjob_limit;	/* PJOB_LIMIT: per processor; < 0 */
	int		*host_used;	/* per host index: its started slots
					 * (kept when a per-host limit is set) */
	struct pol_job	*head;		/* pending jobs, dispatch order */
	struct pol_job	*tail;
	/* Fairshare: the tree that orders it (NULL: FCFS), its place among
	 * the tree's queues, and its accounts with jobs ever pending. */
	struct fs_tree	*fs;
	int		 fs_slot;
	struct pol_fs_acct *faccts;
	int		 fs_orphans;	/* pending jobs with no account (their
					 * user lost the share): not tried */
	/* Started jobs, for preemption: those running, and those it
	 * suspended (SSUSP, preempted), each list oldest first. */
	struct pol_list {
		struct pol_job *head, *tail;
	}		 running, preempted;
	/* The queues whose running jobs this one's may preempt, the most
	 * preferred first (preempt_victim_queues). */
	struct pol_queue **victims;
	int		 nvictims;
	/* Set by a pass that stopped early because nothing more fits:
	 * jobs it did not reach share this reason. */
	uint32_t	 cut_pass;
	int		 cut_reason;
	uint32_t	 cut_counts[HR_NREASONS];
};

struct pol_job {
	struct pol_job	*next;		/* in the queue's pending list */
	struct pol_job	*prev;
	/* Fairshare: its account (NULL in an FCFS queue) and its place in
	 * the account's pending list, beside the queue's: a turn walks one
	 * or the other, then reads the fields below. */
	struct pol_fs_acct *fsa;
	struct pol_job	*fnext;
	struct pol_job	*fprev;
	struct pol_queue *queue;
	int		 num_procs;
	bool		 exclusive;	/* bsub -x */
	bool		 held;		/* PSUSP: not a candidate */
	int		 blocked;	/* PEND_* set by mbatchd (-w not met):
					 * not a candidate, with that reason */
	int		 eligible_reason; /* PEND_BEGIN_TIME, PEND_PRE_EXEC */
	int64_t		 eligible_time;	/* not a candidate before this time */
	int64_t		 submit_time;	/* for its queue's new_job_delay */
	int64_t		 count;		/* > 1: an array's pending elements,
					 * each started on its own */
	struct pol_cap	*caps[POL_NCAPS]; /* limits it counts against */
	struct pol_user	*user;		/* per-host user limits; NULL none */
	/* The lsb.resources limits it counts against (jobs under the same
	 * ones share the array), rl_hosts when one of them is by host. */
	struct pol_rlim	*const *rlims;
	int		 nrlims;
	int		 rl_mem;	/* rusage[mem] per host, MB */
	bool		 rl_hosts;
	const struct resreq *rr;	/* effective (queue merged), or NULL */
	const int	*asked;		/* -m: nasked host indices, then
					 * their "+N" levels (higher is
					 * preferred), or NULL */
	int		 nasked;
	/* Hosts it must not go to again (REQUEUE_EXIT_VALUES EXCLUDE):
	 * nexcl host indices, or NULL; mbatchd owns the array, in memory
	 * only (not logged). */
	int		 nexcl;
	int		*excl;
	/* Why it did not start, as of pass reason_pass. */
	uint32_t	 reason_pass;
	int		 pend_reason;	/* PEND_*; PEND_NO_HOST: see counts */
	uint32_t	 counts[HR_NREASONS];
	/* A started job (in its queue's running or preempted list); last,
	 * out of the way of the walk of the pending lists. */
	struct pol_job	*rnext;
	struct pol_job	*rprev;
	const int	*exec;		/* host index of each slot */
	int		 nexec;
	uint32_t	 victim_pass;	/* chosen as a victim in that pass */
	int64_t		 start_time;
	bool		 no_preempt;	/* brun, or MAX_JOB_PREEMPT reached */
};

/*
 * For a job with count > 1, one decision per element started.  A job
 * that starts by preemption lists its victims, to be suspended (or
 * ended) before it starts; a preempted job that may run again comes as
 * a decision to resume (no slots).
 */
struct pol_decision {
	struct pol_job	*job;
	int		*slots;		/* host index per slot, num_procs long */
	struct pol_job	**victims;
	int		 nvictims;
	bool		 resume;
};

struct pol_cluster {
	struct pol_host	**hosts;
	int		  nhosts;
	struct pol_queue **queues;	/* sorted: policy_sort_queues() */
	int		  nqueues;
	int64_t		  now;		/* seconds since the epoch */
	uint32_t	  pass;		/* incremented by each pass */
	bool		  any_jlu;	/* some host has JL/U */
	unsigned	  preempt_for;	/* PREEMPT_FOR_* of lsb.params */
	/* Set by a pass that left preemption to the next one (it tried
	 * POL_PREEMPT_TRIES searches): run another soon. */
	bool		  preempt_more;
	int		  preempt_tries_max;	/* 0: POL_PREEMPT_TRIES */
	int		  preempt_tries;	/* scratch of one pass */
	int		  preempt_done;
};
/*
 * Jobs of other shapes than one slot with no requirement of their own
 * search the cluster for victims at most this many times in a pass; the
 * next pass goes on.  A flood of them on a full cluster would otherwise
 * make one pass last seconds.
 */
#define POL_PREEMPT_TRIES	200

/*
 * Whether j still waits out its queue's NEW_JOB_SCHED_DELAY at now: its
 * scheduling time is its submission time plus the delay ("New job is
 * waiting for scheduling" until then).
 */
bool	 policy_new_job_waits(const struct pol_job *, int64_t now);

/* Sort queues by decreasing priority, then config order. */
void	 policy_sort_queues(struct pol_queue **, int n);
/* Add or remove a pending job at the tail / anywhere (O(1)). */
void	 policy_job_append(struct pol_queue *, struct pol_job *);
void	 policy_job_prepend(struct pol_queue *, struct pol_job *);
void	 policy_job_insert_before(struct pol_queue *, struct pol_job *at,
	    struct pol_job *);
void	 policy_job_insert_after(struct pol_queue *, struct pol_job *at,
	    struct pol_job *);
void	 policy_job_remove(struct pol_job *);
/*
 * The account of (queue q, leaf): found, or made and linked to the leaf
 * and the queue.  Set a job's fsa before it is added to the pending list
 * (or while it is out of it); the list functions keep the account's list.
 */
struct pol_fs_acct *policy_fs_acct(struct pol_queue *q, struct fs_node *leaf);
/* Each account's list anew from q's pending list and the jobs' fsa. */
void	 policy_fs_relink(struct pol_queue *q);
/* Release q's accounts (before its tree goes); jobs' fsa are left. */
void	 policy_fs_release(struct pol_queue *q);
/* A started job into (or out of) one of its queue's started lists. */
void	 policy_list_add(struct pol_list *, struct pol_job *);
void	 policy_list_remove(struct pol_list *, struct pol_job *);
/* Over a scheduling threshold?  Returns the first index over, or -1. */
int	 policy_over_sched(const struct thresholds *, const float *load);
/*
 * The load thresholds are compared with, LSF's effective load (lsload
 * -E): the run queue lengths r15s, r1m and r15m of a host divided by its
 * CPUs (at least one), so that one threshold suits hosts of any size;
 * other indices and unknown values as they are.
 */
void	 policy_effective_load(const float *load, int ncpus, float *eff);
/* policy_over_sched on the effective load of a host with ncpus CPUs. */
int	 policy_over_sched_host(const struct thresholds *, const float *load,
	    int ncpus);
/*
 * The external thresholds (ELIM indices) of t against the host's values:
 * the first whose scheduling threshold the host is past (stop false), or
 * whose suspending threshold it has reached (stop true: at equality
 * too), as an index into t->ext; -1 none.  A value the host does not
 * report is never past.
 */
int	 policy_over_ext(const struct thresholds *, const struct rr_host *,
	    bool stop);
/*
 * Thresholds that apply together (a job's queue and its hosts): merge
 * src into dst, each index keeping the more restrictive value, the lower
 * of an increasing index and the higher of a decreasing one.
 */
void	 policy_thresholds_merge(struct thresholds *dst,
	    const struct thresholds *src);
/*
 * One pass.  Fills out[0..max) with decisions (slot arrays allocated,
 * free with policy_decisions_free) and returns how many.  Hosts' used
 * slots are not changed: the caller applies each decision it carries out.
 */
int	 policy_schedule(struct pol_cluster *, struct pol_decision *out,
	    int max);
void	 policy_decisions_free(struct pol_decision *, int n);
/*
 * Preemption.  May jobs of queue a preempt running jobs of queue b?
 * Only when a has the higher PRIORITY, and a is PREEMPTIVE (to every
 * lower queue, or b is in its list) or b is PREEMPTABLE (by every
 * higher queue, or a is in its list).  *pref: a's "+N" for b, or 0.
 */
bool	 preempt_may(const struct queue_conf *a, const struct queue_conf *b,
	    int *pref);
/*
 * q->victims (allocated): the queues of queues[0..n) (confs[i] the
 * configuration of queues[i]) that q (configured by qc) may preempt, the
 * most preferred first: higher +N, then lower PRIORITY, then the order
 * given.
 */
void	 preempt_victim_queues(struct pol_queue *q, const struct queue_conf *qc,
	    struct pol_queue *const *queues,
	    const struct queue_conf *const *confs, int n);
/* What a job holds of an lsb.resources limit on nhosts hosts. */
int	 policy_rlim_need(const struct pol_rlim *, const struct pol_job *,
	    int nslots, int nhosts);
/* Why a pending job waits, as of the last pass (for bjobs -p). */
int	 policy_job_reason(const struct pol_cluster *, const struct pol_job *,
	    const uint32_t **counts);

#endif
