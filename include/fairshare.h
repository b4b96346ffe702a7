/*
 * Fairshare, as pure computation (issue 22; LSF-REFERENCE §4.4): the
 * share assignments of USER_SHARES, which account a user's jobs count
 * against, the decay of historical usage, and an account's dynamic
 * priority.  No I/O and no clock: times come in as arguments, so the
 * scheduler, the simulator and the tests compute the same numbers.
 *
 *	dynamic_priority = shares /
 *	    (cpu_time * CPU_TIME_FACTOR + run_time * RUN_TIME_FACTOR +
 *	     (1 + job_slots) * RUN_JOB_FACTOR +
 *	     fairshare_adjustment * FAIRSHARE_ADJUSTMENT_FACTOR)
 *
 * cpu_time is the account's CPU hours, each hour decayed so that one
 * used now counts 0.1 hour HIST_HOURS later (HIST_HOURS 0: no decay);
 * run_time the wall-clock hours of its running jobs (with RUN_TIME_DECAY,
 * each hour decayed as CPU is; with ENABLE_HIST_RUN_TIME, plus its
 * finished jobs' run time, decayed); job_slots the slots they hold.  Decay is applied when a value is read (fs_decay), never by
 * a sweep.
 */
#ifndef LSF_FAIRSHARE_H
#define LSF_FAIRSHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One [name, shares] of USER_SHARES. */
enum fs_kind {
	FS_USER,		/* a user: an account of its own */
	FS_GROUP,		/* a group: one account its members share */
	FS_GROUP_EACH,		/* group@: each member an account of its own */
	FS_DEFAULT,		/* default: each user not named, alone */
	FS_OTHERS,		/* others: the users not named, together */
};

struct fs_share {
	char		*name;		/* without a trailing @ */
	int		 shares;	/* > 0 */
	enum fs_kind	 kind;		/* FS_USER until fs_classify */
};

struct fs_shares {
	struct fs_share	*v;
	int		 n;
};

/*
 * "[[alice, 10] [bio, 5] [default, 1]]" or its inside: into s (released
 * first).  -1 with why set when malformed: brackets, a name or a share
 * missing, a share that is not a positive integer, a name given twice.
 */
int	 fs_shares_parse(const char *, struct fs_shares *, const char **why);
/* FAIRSHARE = USER_SHARES[...]: the part after USER_SHARES. */
int	 fs_fairshare_parse(const char *, struct fs_shares *, const char **why);
void	 fs_shares_release(struct fs_shares *);
/* Mark groups, group@, default and others (is_group says which names
 * are user groups). */
void	 fs_classify(struct fs_shares *, bool (*is_group)(const char *, void *),
	    void *arg);

/*
 * The entry user's jobs count against, or -1 if none (the user may not
 * submit): the user's own name first, then a group@ the user is in, then
 * a group the user is in (in_group says), then default, then others.
 */
int	 fs_account_of(const struct fs_shares *, const char *user,
	    bool (*in_group)(const char *user, const char *group, void *),
	    void *arg);

/* value decayed over elapsed hours: value * 0.1^(elapsed / hist_hours);
 * as it is with hist_hours <= 0 or elapsed <= 0. */
double	 fs_decay(double value, double elapsed_hours, double hist_hours);

struct fs_factors {
	double		 cpu_time;	/* CPU_TIME_FACTOR, 0.7 */
	double		 run_time;	/* RUN_TIME_FACTOR, 0.7 */
	double		 run_job;	/* RUN_JOB_FACTOR, 3.0 */
	double		 adjust;	/* FAIRSHARE_ADJUSTMENT_FACTOR, 0 */
	double		 hist_hours;	/* HIST_HOURS, 5 */
	bool		 hist_run;	/* ENABLE_HIST_RUN_TIME: finished jobs'
					 * run time counts, decayed as CPU is */
	bool		 run_decay;	/* RUN_TIME_DECAY: running jobs' run
					 * time decays as CPU does */
};
/* Which factors a queue sets (queue_conf.fs_factors_set). */
#define FSF_CPU_TIME	0x01
#define FSF_RUN_TIME	0x02
#define FSF_RUN_JOB	0x04
#define FSF_ADJUST	0x08
#define FSF_HIST_HOURS	0x10
#define FSF_HIST_RUN	0x20
#define FSF_RUN_DECAY	0x40
void	 fs_factors_default(struct fs_factors *);

/*
 * A share tree: the accounts of one FAIRSHARE (a queue, with the queues
 * of its FAIRSHARE_QUEUES / QUEUE_GROUP) or of one host partition.  The
 * root's children are the entries of its USER_SHARES; a group whose
 * lsb.users USER_SHARES is set is an inner node with its own entries
 * (hierarchical fairshare, to any depth); every other entry is an
 * account (a leaf) that jobs are charged to.  Leaves for default and
 * group@ are made per user when the user is first seen.
 *
 * Each node holds the usage of its whole subtree, so a group's priority
 * among its siblings reads its own numbers; a charge goes to the leaf and
 * every node above it.
 */
struct pol_fs_acct;

struct fs_node {
	char		*name;		/* user, group, "default", "others";
					 * "" for the root */
	int		 shares;
	enum fs_kind	 kind;		/* of the entry that made it */
	bool		 leaf;		/* an account */
	int		 depth;		/* the root 0 */
	int		 order;		/* its entry's place in the parent's
					 * USER_SHARES: ties go to the first,
					 * then to the smaller name */
	struct fs_node	*parent;
	struct fs_node	**kids;
	int		 nkids;
	int		 akids;
	/* An inner node: its entries, for the leaves made on demand. */
	struct fs_shares sub;
	/* Usage of the subtree. */
	double		 cpu_hours;	/* finished jobs' CPU, decayed to cpu_at */
	int64_t		 cpu_at;
	double		 hrun_hours;	/* finished jobs' run time, decayed to
					 * hrun_at (hist_run) */
	int64_t		 hrun_at;
	double		 run_cpu;	/* CPU hours of running jobs so far */
	double		 drun;		/* their run hours, each decayed as of
					 * drun_at (fs_run_decayed) */
	int64_t		 drun_at;
	int		 njobs;		/* running (and suspended) jobs */
	int64_t		 start_sum;	/* the sum of their start times */
	int		 slots;		/* the slots they hold (STARTED) */
	int		 reserved;	/* slots reserved for pending jobs */
	double		 adjust;	/* the plug-in's value; 0 without */
	/* Scratch of one scheduling pass (policy.c): the part of the
	 * priority that does not change in a pass, the slots taken in it,
	 * and the heap of this node's children that have jobs to start in
	 * the queue whose turn it is (aheap its room). */
	uint32_t	 pass;
	double		 base;		/* denominator less the slot term */
	int		 taken;
	double		 prio;		/* as of its last slot change */
	int		 hpos;		/* in its parent's heap; -1 none */
	struct fs_node	**heap;
	int		 nheap;
	int		 aheap;
	/* A leaf: its pending jobs in each queue the tree orders, by the
	 * queue's place in the tree (pol_queue.fs_slot); NULL none yet. */
	struct pol_fs_acct **accts;
};

/* How a tree learns about user groups (lsb.users). */
struct fs_groups {
	bool		(*is_group)(const char *name, void *arg);
	bool		(*in_group)(const char *user, const char *group,
			    void *arg);
	/* A group's USER_SHARES text, NULL without (a plain account). */
	const char	*(*shares_of)(const char *group, void *arg);
	void		*arg;
};

struct fs_tree {
	char		*key;		/* "queue/<name>" or "hpart/<name>" */
	struct fs_factors f;
	struct fs_node	*root;
	struct fs_groups g;
	int		 nleaves;
	int		 nqueues;	/* queues ordered by it (pol_fs_acct per
					 * leaf and queue: see policy.h) */
};

/*
 * A tree from USER_SHARES (copied; classified here).  Groups are
 * followed through their lsb.users USER_SHARES to FS_MAX_DEPTH levels; a
 * group met again below itself is an account there, not a loop.
 */
#define FS_MAX_DEPTH	32
struct fs_tree *fs_tree_new(const char *key, const struct fs_shares *,
	    const struct fs_factors *, const struct fs_groups *);
void	 fs_tree_free(struct fs_tree *);
/* The account user's jobs are charged to, made if it is a default or
 * group@ one seen first; NULL: the user has no share here. */
struct fs_node *fs_tree_account(struct fs_tree *, const char *user);
/* Call fn for each node, parents before children. */
void	 fs_tree_walk(struct fs_tree *, void (*fn)(struct fs_node *, void *),
	    void *arg);
/* "bio/ann": the names from below the root down to n. */
size_t	 fs_node_path(const struct fs_node *, char *buf, size_t size);

/*
 * The decayed run time of njobs jobs, drun hours as of elapsed hours
 * ago, now: each hour run counts 0.1 hour hist_hours later, so a job
 * that has run t hours counts hist_hours / ln 10 * (1 - 0.1^(t /
 * hist_hours)); hist_hours <= 0: no decay (drun + njobs * elapsed).
 */
double	 fs_run_decayed(double drun, int njobs, double elapsed_hours,
	    double hist_hours);

/* Charges, to a leaf and every node above it. */
void	 fs_charge_start(struct fs_node *, const struct fs_factors *,
	    int slots, int64_t start);
/* CPU hours a running job used since its last report. */
void	 fs_charge_cpu(struct fs_node *, double hours);
/* A job's end (or requeue): its slots and run go; its CPU (run_cpu what
 * fs_charge_cpu gave for it, cpu all of it) and, with hist_run, its run
 * time go to history at end. */
void	 fs_charge_end(struct fs_node *, const struct fs_factors *, int slots,
	    int64_t start, double run_cpu, double cpu, int64_t end);
/* History restored (a durable record, reconfig): added at its time. */
void	 fs_charge_history(struct fs_node *, const struct fs_factors *,
	    double cpu_hours, int64_t cpu_at, double hrun_hours,
	    int64_t hrun_at);

/* The node's figures at now, as bqueues -l shows them. */
double	 fs_node_cpu(const struct fs_node *, const struct fs_factors *,
	    int64_t now);
double	 fs_node_run(const struct fs_node *, const struct fs_factors *,
	    int64_t now);
/* Its dynamic priority at now, with extra slots counted as taken. */
double	 fs_node_priority(const struct fs_node *, const struct fs_factors *,
	    int64_t now, int extra_slots);

#endif
