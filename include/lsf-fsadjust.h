/*
 * The fairshare adjustment plug-in: the one interface between mbatchd
 * and LSF_LIBDIR/libfairshareadjust.so (libfairshareadjust(3)).
 *
 * An account's dynamic priority is
 *
 *	shares / (cpu_time * CPU_TIME_FACTOR + run_time * RUN_TIME_FACTOR +
 *	    (1 + job_slots) * RUN_JOB_FACTOR +
 *	    adjustment * FAIRSHARE_ADJUSTMENT_FACTOR)
 *
 * and the plug-in gives the adjustment.  A plug-in defines
 *
 *	LSF_FSADJUST_PLUGIN;
 *	double lsf_fairshare_adjust(const struct lsf_fs_account *a);
 *
 * mbatchd loads the library at start and at badmin reconfig, refuses it
 * when either symbol is missing or the version differs, and calls the
 * function for every account of every share tree whose
 * FAIRSHARE_ADJUSTMENT_FACTOR is not 0, before each scheduling pass.  The
 * function must be quick (it is called for each account at each pass),
 * must not block, and must not keep the pointers it is given past its
 * return.  A result that is negative, NaN or infinite counts as 0.  The
 * library runs inside mbatchd: a crash in it is a crash of mbatchd.
 *
 * This header is self-contained: a plug-in needs nothing else of the
 * project.  Build one with
 *
 *	cc -shared -fPIC -I$LSF_TOP/include -o libfairshareadjust.so my.c
 */
#ifndef LSF_FSADJUST_H
#define LSF_FSADJUST_H

#include <stdint.h>

/*
 * Raised whenever struct lsf_fs_account changes; mbatchd loads only a
 * plug-in built with the version it has.
 */
#define LSF_FSADJUST_VERSION	1

/* What mbatchd knows about one account, at the time of the call. */
struct lsf_fs_account {
	int		 version;	/* LSF_FSADJUST_VERSION */
	int64_t		 now;		/* seconds since the epoch */
	const char	*envdir;	/* LSF_ENVDIR: for the plug-in's own
					 * configuration */
	/* The share tree: a queue's FAIRSHARE (with the queues of its
	 * FAIRSHARE_QUEUES) or a host partition's USER_SHARES. */
	const char	*tree;		/* the queue or partition name */
	int		 partition;	/* 1: tree is a host partition */
	/* The account: its place in the tree. */
	const char	*path;		/* "bio/ann": the names from below
					 * the root down to it */
	const char	*name;		/* its last part: a user (also one
					 * under default or group@), a
					 * group, or "others" */
	int		 group;		/* 1: a user group (one account for
					 * its members, or an inner node) or
					 * others */
	int		 leaf;		/* 1: jobs are charged to it; 0: a
					 * group with shares of its own
					 * below it (hierarchical) */
	int		 depth;		/* 1 for the tree's top entries */
	int		 shares;
	/* Its usage, of its whole subtree for a group. */
	int		 started;	/* slots held by its running jobs */
	int		 reserved;	/* slots reserved for pending jobs */
	int		 running;	/* running (and suspended) jobs */
	int		 pending;	/* pending jobs */
	double		 cpu_hours;	/* finished and running jobs' CPU,
					 * decayed over HIST_HOURS */
	double		 run_hours;	/* run time as the priority counts it */
};

/* The plug-in's definition of its version: write it once at file level. */
#define LSF_FSADJUST_PLUGIN \
	const int lsf_fairshare_adjust_version = LSF_FSADJUST_VERSION

extern const int lsf_fairshare_adjust_version;
/* The adjustment of the account: 0 or more; 0 changes nothing. */
double	 lsf_fairshare_adjust(const struct lsf_fs_account *);

#endif
