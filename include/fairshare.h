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
 * run_time the wall-clock hours of its running jobs; job_slots the slots
 * they hold.  Decay is applied when a value is read (fs_decay), never by
 * a sweep.
 */
#ifndef LSF_FAIRSHARE_H
#define LSF_FAIRSHARE_H

#include <stdbool.h>
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
};
void	 fs_factors_default(struct fs_factors *);

/* An account's usage; cpu_hours as decayed to cpu_at (seconds). */
struct fs_usage {
	double		 cpu_hours;
	int64_t		 cpu_at;
	double		 run_hours;	/* of its running jobs, now */
	int		 slots;		/* in use and reserved */
	double		 adjust;	/* the plug-in's value, 0 without */
};

/* Add CPU hours used at time when (decaying what was there to when). */
void	 fs_usage_add_cpu(struct fs_usage *, double hours, int64_t when,
	    const struct fs_factors *);
/* The dynamic priority at time now. */
double	 fs_priority(int shares, const struct fs_usage *,
	    const struct fs_factors *, int64_t now);

#endif
