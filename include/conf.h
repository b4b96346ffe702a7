/*
 * LSF configuration files, parsed into plain structs.
 *
 *   $LSF_ENVDIR/lsf.conf                       KEY=value lines
 *   $LSF_CONFDIR/lsf.shared                    Cluster HostType HostModel Resource
 *   $LSF_CONFDIR/lsf.cluster.<cluster>         Parameters ClusterAdmins Host ResourceMap
 *   $LSF_CONFDIR/hosts                         "IP name [aliases]" lines (optional)
 *   $LSB_CONFDIR/<cluster>/configdir/lsb.params    Parameters
 *   $LSB_CONFDIR/<cluster>/configdir/lsb.queues    Queue (one section per queue)
 *   $LSB_CONFDIR/<cluster>/configdir/lsb.hosts     Host HostGroup
 *   $LSB_CONFDIR/<cluster>/configdir/lsb.users     UserGroup User
 *   $LSB_CONFDIR/<cluster>/configdir/lsb.applications Application (optional)
 *   $LSB_CONFDIR/<cluster>/configdir/lsb.resources Limit (optional)
 *
 * Every problem is reported as "file:line: why" into a conf_diag; errors
 * make config_load() fail, warnings (unknown keys, ignored values) do not.
 * Reading never exits and never crashes on bad input.
 */
#ifndef LSF_CONF_H
#define LSF_CONF_H

#include <stdbool.h>
#include <stdio.h>

#include "fairshare.h"
#include "jobctl.h"
#include "lsf.h"
#include "requeue.h"
#include "util.h"

/* Collected diagnostics, each line "file:line: message". */
struct conf_diag {
	struct strv	 msgs;
	int		 nerrors;
	int		 nwarnings;
	struct strv	 files;		/* every file read, includes too */
};
/*
 * A line of a file brought in by #INCLUDE is numbered (file << 20) |
 * line, file an index into a table of included paths kept for the life
 * of the process, so that every "file:line" a reader gives names the
 * included file and its own line.  conf_line_no() gives the line alone.
 */
#define CONF_LINE_BITS	20
int	 conf_line_encode(const char *path, int line);
int	 conf_line_no(int line);
void	 conf_diag_init(struct conf_diag *);
void	 conf_diag_release(struct conf_diag *);
void	 conf_diag_error(struct conf_diag *, const char *file, int line,
	    const char *fmt, ...) PRINTF(4, 5);
void	 conf_diag_warn(struct conf_diag *, const char *file, int line,
	    const char *fmt, ...) PRINTF(4, 5);
void	 conf_diag_print(const struct conf_diag *, FILE *);
/* Whether one of its lines is a warning (conf_diag_warn's), not an error. */
bool	 conf_diag_is_warning(const char *msg);

/* A load threshold pair per index: index = loadSched[/loadStop]. */
/*
 * A threshold on an external load index: an lsf.shared Numeric resource
 * an ELIM reports, by name, with the resource's direction.  Kept inside
 * struct thresholds, a few of them, so thresholds stay plain values.
 */
#define MAX_EXT_THRESHOLDS	8
#define EXT_THRESHOLD_NAME	40
struct ext_threshold {
	char		 name[EXT_THRESHOLD_NAME];
	float		 sched;
	float		 stop;
	bool		 sched_set;
	bool		 stop_set;
	bool		 increasing;
	int		 res;		/* its place in lsf.shared */
};
struct thresholds {
	float		 sched[NLOADIDX];
	float		 stop[NLOADIDX];
	unsigned	 sched_set;	/* bit i: sched[i] configured */
	unsigned	 stop_set;	/* bit i: stop[i] configured */
	int		 next;		/* external ones in ext[] */
	struct ext_threshold ext[MAX_EXT_THRESHOLDS];
};

/*
 * Time windows "[day:]hour[:minute]-[day:]hour[:minute] ...".  Each
 * window is kept as minutes from Sunday 00:00 (0..10079); a window without
 * days repeats daily (day < 0).
 */
struct time_window {
	int	 start_day;	/* 0..6, or -1 for every day */
	int	 start_min;	/* minute of the day */
	int	 end_day;
	int	 end_min;
};
struct windows {
	char			*text;	/* as configured; NULL = always open */
	struct time_window	*w;
	int			 n;
};
/* Parse a window list; -1 with a reason in *why (static string). */
int	 windows_parse(struct windows *, const char *text, const char **why);
void	 windows_release(struct windows *);
/* Is the window list open at weekday wday (0=Sun) and minute-of-day? */
bool	 windows_open(const struct windows *, int wday, int minute);

/* lsf.conf */
struct lsf_conf {
	char		*path;		/* the file read */
	struct strv	 keys;		/* every KEY in file order */
	struct strv	 vals;		/* its value, quotes removed */

	/* Resolved values (defaults applied). */
	char		*envdir;	/* LSF_ENVDIR (dir of the file) */
	char		*confdir;	/* LSF_CONFDIR */
	char		*lsb_confdir;	/* LSB_CONFDIR, default confdir/lsbatch */
	char		*sharedir;	/* LSB_SHAREDIR */
	char		*logdir;	/* LSF_LOGDIR, NULL = syslog/stderr */
	char		*serverdir;	/* LSF_SERVERDIR */
	char		*bindir;	/* LSF_BINDIR */
	char		*libdir;	/* LSF_LIBDIR: mbatchd's plug-in */
	char		*sbd_statedir;	/* LSB_SBD_STATEDIR (extension) */
	char		*localdir;	/* LSB_LOCALDIR: duplicate log */
	/* The job history's database (include/history.h). */
	char		*hist_dir;	/* LSB_HIST_DB_DIR, NULL: the logdir */
	int		 hist_dir_line;	/* its line, for lsf_conf_check_hist */
	int		 hist_wal_limit; /* LSB_HIST_WAL_LIMIT, MB */
	int		 lim_port;	/* LSF_LIM_PORT */
	int		 mbd_port;	/* LSB_MBD_PORT */
	int		 sbd_port;	/* LSB_SBD_PORT */
	struct strv	 master_list;	/* LSF_MASTER_LIST */
	char		*unit_for_limits; /* LSF_UNIT_FOR_LIMITS, default "KB" */
	char		*log_mask;	/* LSF_LOG_MASK */
	char		*mailto;	/* LSB_MAILTO, default "!U" */
	char		*mailprog;	/* LSB_MAILPROG, default /usr/lib/sendmail */
	int		 max_pack_jobs;	/* LSB_MAX_PACK_JOBS, 0 = no -pack */
	bool		 pack_skip_error; /* LSB_PACK_SKIP_ERROR, default N */
};
/* The value of a key as written in lsf.conf, or NULL. */
const char *lsf_conf_get(const struct lsf_conf *, const char *key);
/*
 * LSB_HIST_DB_DIR as mbatchd needs it on its host: a directory it can
 * write (warnings: history is not kept while it cannot, the jobs are).
 * badmin ckconfig, mbatchd -n and mbatchd's start.
 */
void	 lsf_conf_check_hist(const struct lsf_conf *, struct conf_diag *);

/* lsf.shared */
enum res_type { RES_BOOLEAN, RES_NUMERIC, RES_STRING };
struct host_model {
	char	*name;
	float	 cpuf;
	char	*arch;
};
struct resource_def {
	char		*name;
	enum res_type	 type;
	int		 interval;	/* 0 = static */
	bool		 increasing;
	char		*desc;
};
struct shared_conf {
	char			*path;
	struct strv		 clusters;
	struct strv		 host_types;
	struct host_model	*models;
	int			 nmodels;
	struct resource_def	*resources;
	int			 nresources;
};

/* lsf.cluster.<name> */
struct cluster_host {
	char		*name;
	char		*model;		/* "!" = detect */
	char		*type;		/* "!" = detect */
	bool		 server;
	int		 nd;
	struct strv	 resources;	/* "!res" marks a dedicated resource */
	float		 busy[NLOADIDX];/* LIM busy thresholds */
	unsigned	 busy_set;
	char		*runwindow;
	int		 rexpri;
	int		 line;
};
struct cluster_conf {
	char			*path;
	char			*name;		/* cluster name */
	struct strv		 admins;	/* ClusterAdmins, primary first */
	struct cluster_host	*hosts;
	int			 nhosts;
	int			 exinterval;		/* seconds, default 15 */
	int			 host_inactivity_limit;	/* default 5 */
	int			 elim_poll_interval;	/* default 5 */
	/* ResourceMap: resource name and its LOCATION text. */
	struct strv		 resmap_names;
	struct strv		 resmap_locations;
};

/* lsb.params (values as used; -1 where the parameter has no limit) */
struct lsb_params {
	char		*path;
	struct strv	 keys;		/* every parameter in file order */
	struct strv	 vals;
	struct strv	 default_queue;		/* DEFAULT_QUEUE */
	char		*default_project;	/* "default" */
	int		 mbd_sleep_time;	/* 10 */
	int		 sbd_sleep_time;	/* 30 */
	int		 job_accept_interval;	/* 1 (x MBD_SLEEP_TIME) */
	int		 job_scheduling_interval; /* 1 second */
	int		 clean_period;		/* 3600 */
	int		 max_job_array_size;	/* 1000 */
	int		 max_jobid;		/* 999999 */
	int		 job_terminate_interval;/* 10 */
	int		 max_sbd_fail;		/* 3 */
	/* PEND_TIME_LIMIT, ELIGIBLE_PEND_TIME_LIMIT: minutes, -1 none. */
	long long	 pend_time_limit;
	long long	 eligible_pend_time_limit;
	int		 max_sbd_conns;		/* 0: 2 * hosts + 200 */
	int		 max_job_num;		/* 1000 */
	int		 pg_susp_it;		/* 180 */
	int		 max_user_priority;	/* -1 = undefined */
	int		 max_pend_jobs;		/* -1 */
	int		 sub_try_interval;	/* 60 */
	int		 max_preexec_retry;	/* 5 */
	bool		 max_preexec_retry_set;	/* given in the file */
	int		 local_preexec_retry;	/* -1: unlimited */
	int		 preexec_retry_action;	/* PREEXEC_ACT_SUSPEND */
	int		 job_dep_last_sub;	/* 0: a name means all jobs */
	unsigned	 preempt_for;		/* PREEMPT_FOR_* */
	int		 max_job_preempt;	/* -1 = unlimited */
	int		 max_job_requeue;	/* -1 = unlimited */
	int		 global_exit_rate;	/* -1 = none */
	int		 job_exit_rate_duration; /* 5 minutes */
	int		 eadmin_trigger_duration; /* 1 minute */
	int		 detect_idle_job_after;	/* 20 minutes */
	char		*default_application;	/* NULL = none */
	int		 default_application_line;
	/* Fairshare: CPU_TIME_FACTOR, RUN_TIME_FACTOR, RUN_JOB_FACTOR,
	 * FAIRSHARE_ADJUSTMENT_FACTOR, HIST_HOURS (fs_factors_default). */
	struct fs_factors fs_factors;
	bool		 hist_run_time;		/* ENABLE_HIST_RUN_TIME */
};

/* PREEMPT_FOR keywords (lsb.params). */
#define PREEMPT_FOR_GROUP_JLP		0x01
#define PREEMPT_FOR_GROUP_MAX		0x02
#define PREEMPT_FOR_HOST_JLU		0x04
#define PREEMPT_FOR_USER_JLP		0x08
#define PREEMPT_FOR_LEAST_RUN_TIME	0x10
#define PREEMPT_FOR_MINI_JOB		0x20
#define PREEMPT_FOR_OPTIMAL_MINI_JOB	0x40
/* "GROUP_JLP GROUP_MAX ...": -1 with the bad word in *bad. */
int	 parse_preempt_for(const char *, unsigned *out, const char **bad);

/*
 * PREEMPTION of a queue: PREEMPTIVE[q+N ...] and/or PREEMPTABLE[q ...].
 * An empty list is every queue of lower (PREEMPTIVE) or higher
 * (PREEMPTABLE) priority.
 */
struct queue_preempt {
	bool		 preemptive;
	struct strv	 victims;	/* PREEMPTIVE[...] queue names */
	int		*pref;		/* their +N, parallel to victims */
	bool		 preemptable;
	struct strv	 by;		/* PREEMPTABLE[...] queue names */
	int		 line;		/* of PREEMPTION */
};
/* "PREEMPTIVE[a+2 b] PREEMPTABLE[c]": -1 with *why when malformed. */
int	 parse_preemption(const char *, struct queue_preempt *, const char **why);
void	 queue_preempt_release(struct queue_preempt *);
/* TERMINATE_WHEN keywords. */
#define TERMINATE_WHEN_WINDOW	0x01
#define TERMINATE_WHEN_LOAD	0x02
#define TERMINATE_WHEN_PREEMPT	0x04
/* "WINDOW PREEMPT": -1 with the bad word in *bad. */
int	 parse_terminate_when(const char *, unsigned *out, const char **bad);

/* Resource limits as "[default] max" pairs; -1 = not set. */
struct limit_pair {
	long long	 deflt;
	long long	 max;
};

/* One Begin Queue ... End Queue section. */
/*
 * What a queue and an application profile both give for the pre- and
 * post-execution commands and the job warning action.  The host commands
 * run as root on the job's host before and after the others; the queue's
 * (the profile's) PRE_EXEC and POST_EXEC run as prepost_user, NULL: as
 * the job's user.  -1 and NULL when not set.
 */
#define PREEXEC_ACT_SUSPEND	0	/* LOCAL_MAX_PREEXEC_RETRY_ACTION */
#define PREEXEC_ACT_EXIT	1
struct prepost_conf {
	char		*host_pre_exec;		/* HOST_PRE_EXEC */
	char		*host_post_exec;	/* HOST_POST_EXEC */
	char		*prepost_user;		/* PRE_POST_EXEC_USER */
	int		 local_retry;		/* LOCAL_MAX_PREEXEC_RETRY */
	int		 max_retry;		/* MAX_PREEXEC_RETRY */
	int		 retry_action;		/* PREEXEC_ACT_* */
	char		*warning_action;	/* JOB_WARNING_ACTION */
	int		 warning_time;		/* JOB_ACTION_WARNING_TIME, s */
};
void	 prepost_conf_init(struct prepost_conf *);
void	 prepost_conf_release(struct prepost_conf *);
/* One of its keys (k = v, v not blank): true if it is one, with *why set
 * when the value is bad. */
bool	 prepost_conf_key(struct prepost_conf *, const char *k, const char *v,
	    const char **why);
/* A warning for a half-given pair (JOB_WARNING_ACTION without its time),
 * or NULL. */
const char *prepost_conf_check(const struct prepost_conf *);

struct queue_conf {
	char		*name;
	int		 line;		/* of Begin Queue */
	int		 priority;	/* default 1 */
	int		 nice;
	char		*description;
	int		 qjob_limit;	/* QJOB_LIMIT, -1 unlimited */
	int		 ujob_limit;	/* UJOB_LIMIT */
	float		 pjob_limit;	/* PJOB_LIMIT, < 0 unlimited */
	int		 hjob_limit;	/* HJOB_LIMIT */
	struct strv	 users;		/* USERS; empty = all */
	struct strv	 hosts;		/* HOSTS; empty = all */
	bool		 exclusive;	/* EXCLUSIVE = Y */
	char		*res_req;	/* RES_REQ */
	char		*stop_cond;	/* STOP_COND, checked */
	char		*resume_cond;	/* RESUME_COND, checked */
	struct thresholds thr;
	struct windows	 dispatch_window;
	struct windows	 run_window;
	struct limit_pair runlimit;	/* minutes */
	struct limit_pair cpulimit;	/* minutes */
	struct limit_pair memlimit;	/* KB */
	struct limit_pair proclimit;	/* PROCLIMIT/TASKLIMIT: default, max */
	int		 proclimit_min;
	int		 job_accept_interval;	/* -1 = lsb.params */
	int		 new_job_sched_delay;	/* NEW_JOB_SCHED_DELAY: seconds
						 * after submission, 0 none */
	char		*pre_exec;
	char		*post_exec;
	char		*job_starter;
	char		*requeue_exit_values;
	struct requeue_values requeue;	/* requeue_exit_values parsed */
	bool		 rerunnable;
	int		 mig;		/* MIG minutes, -1 not set */
	int		 job_overrun;	/* JOB_OVERRUN minutes, -1 none */
	int		 job_underrun;	/* JOB_UNDERRUN minutes, -1 none */
	float		 job_idle;	/* JOB_IDLE CPU/run time, < 0 none */
	char		*chkpnt_dir;	/* CHKPNT dir, NULL none */
	int64_t		 chkpnt_period;	/* CHKPNT minutes, 0 none */
	struct strv	 administrators;
	char		*job_controls;	/* JOB_CONTROLS as written */
	struct jobctl	 jobctl;	/* ... and parsed */
	char		*terminate_when;
	unsigned	 terminate_mask;	/* TERMINATE_WHEN_* */
	char		*fairshare;
	int		 fairshare_line;
	struct fs_shares fs_shares;	/* ... parsed, classified against
					 * lsb.users groups; n 0 without */
	/* The factors a queue gives override lsb.params': fs_factors is
	 * lsb.params' with the queue's (FSF_* in fs_factors_set) over it. */
	struct fs_factors fs_factors;
	unsigned	 fs_factors_set;
	/* FAIRSHARE_QUEUES or QUEUE_GROUP: the other queues that share
	 * this one's share tree (this one is the master, with FAIRSHARE). */
	struct strv	 fairshare_queues;
	int		 fairshare_queues_line;
	bool		 dispatch_order_queue;	/* DISPATCH_ORDER = QUEUE */
	long long	 pend_time_limit;	/* minutes, -1 lsb.params' */
	long long	 eligible_pend_time_limit;
	int		 dispatch_order_line;
	char		*preemption;
	struct queue_preempt preempt;	/* ... parsed */
	int		 max_job_preempt;	/* -1 = lsb.params */
	struct prepost_conf pp;		/* HOST_PRE_EXEC and the others */
	int		 max_job_requeue;	/* -1 = lsb.params */
	char		*success_exit_values;	/* NULL: none */
	/* Every key of the section in order, for bqueues -l and showconf. */
	struct strv	 keys;
	struct strv	 vals;
};

/*
 * One Begin Application ... End Application section (lsb.applications).
 * Its values override the job's queue's: limits are single values that
 * take the place of the queue's default (a queue maximum still bounds
 * them), the three controls replace the queue's JOB_CONTROLS actions.
 */
struct app_conf {
	char		*name;
	int		 line;		/* of Begin Application */
	char		*description;
	int		 max_job_preempt;	/* -1 = the queue's */
	int		 max_job_requeue;	/* -1 = the queue's */
	char		*success_exit_values;	/* NULL: the queue's */
	char		*requeue_exit_values;	/* NULL: the queue's */
	struct requeue_values requeue;	/* requeue_exit_values parsed */
	long long	 runlimit;	/* minutes, -1 not set */
	long long	 cpulimit;	/* minutes, -1 */
	long long	 memlimit;	/* KB, -1 */
	int		 rerunnable;	/* -1 not set, 0 no, 1 yes */
	long long	 pend_time_limit;	/* minutes, -1 the queue's */
	long long	 eligible_pend_time_limit;
	/* CHKPNT_DIR (absolute), CHKPNT_PERIOD (minutes), CHKPNT_METHOD;
	 * NULL, 0, NULL when not set. */
	char		*chkpnt_dir;
	long long	 chkpnt_period;
	char		*chkpnt_method;
	struct jobctl	 jobctl;	/* SUSPEND/RESUME/TERMINATE_CONTROL */
	char		*pre_exec;	/* PRE_EXEC, NULL none */
	char		*post_exec;
	struct prepost_conf pp;
	/* Every key of the section in order, for bapp -l and showconf. */
	struct strv	 keys;
	struct strv	 vals;
};

/* Pre-exec attempts a job has (0: unlimited) and PREEXEC_ACT_* then;
 * a and q may be NULL (conf-prepost.c). */
void	 preexec_retry_policy(const struct lsb_params *,
	    const struct queue_conf *, const struct app_conf *, int *limit,
	    int *action);

/* lsb.hosts Host section row */
struct lsb_host_conf {
	char		*name;		/* host, model, type or "default" */
	int		 line;
	int		 mxj;		/* -1 unlimited, MXJ_NCPUS for "!" */
	int		 jlu;		/* -1 unlimited */
	struct thresholds thr;
	struct windows	 dispatch_window;
	int		 mig;		/* -1 */
	int		 exit_rate;	/* EXIT_RATE: jobs; -1 none */
};
#define MXJ_NCPUS	(-2)

struct host_group {
	char		*name;
	struct strv	 members;	/* hosts, groups, "all", "~host" */
	int		 line;
};

/* lsb.hosts HostPartition: fairshare over a set of hosts.  A host is in
 * at most one partition. */
struct host_partition {
	char		*name;		/* HPART_NAME */
	struct strv	 hosts;		/* HOSTS as written: hosts, groups, all */
	char		*shares_text;	/* USER_SHARES as written */
	struct fs_shares shares;	/* ... parsed and classified */
	int		 line;		/* of Begin HostPartition */
};

/* lsb.users */
struct user_group {
	char		*name;
	struct strv	 members;
	char		*shares;	/* USER_SHARES text or NULL */
	int		 line;
};
struct user_limit {
	char		*name;		/* user, "group@", group or "default" */
	int		 max_jobs;	/* -1 unlimited */
	float		 jl_p;		/* < 0 unlimited */
	int		 max_pend_jobs;
	int		 max_pend_slots;
	int		 line;
};

/*
 * lsb.resources: one Begin Limit ... End Limit section (key = value
 * lines) or one row of a Limit table.  A consumer list left empty means
 * every consumer of that kind; USERS and the like count the consumers
 * listed together, PER_USER and the like each on its own.  Lists keep
 * what was written: names, groups, "all", "~excluded".
 */
struct limit_conf {
	char		*name;
	int		 line;
	struct strv	 users;
	bool		 per_user;
	struct strv	 queues;
	bool		 per_queue;
	struct strv	 hosts;
	bool		 per_host;
	struct strv	 projects;
	bool		 per_project;
	int		 slots;		/* SLOTS; -1 none */
	float		 slots_per_proc; /* SLOTS_PER_PROCESSOR; < 0 none */
	int		 mem;		/* MEM in MB; -1 none */
	float		 mem_pct;	/* MEM as % of each host's; < 0 none */
	int		 jobs;		/* JOBS; -1 none */
};

/* $LSF_CONFDIR/hosts */
struct hosts_entry {
	char		*addr;		/* dotted quad or IPv6 text */
	char		*name;		/* official name */
	struct strv	 aliases;
};

/*
 * Rows of a configuration table by name, without case: mbatchd looks up
 * each of 10,000 hosts' rows as each host reports.  Built once a table
 * is read; a table that has since changed size is searched row by row.
 */
struct conf_nameidx {
	int			*slot;		/* row + 1; 0 is empty */
	unsigned		 mask;
	int			 rows;		/* the table's size when built */
};

struct lsf_config {
	struct lsf_conf		 lsf;
	struct shared_conf	 shared;
	struct cluster_conf	 cluster;
	struct lsb_params	 params;
	struct queue_conf	*queues;	/* in file order */
	int			 nqueues;
	struct lsb_host_conf	*bhosts;
	int			 nbhosts;
	struct host_group	*hgroups;
	int			 nhgroups;
	struct host_partition	*hparts;	/* lsb.hosts, in order */
	int			 nhparts;
	struct user_group	*ugroups;
	int			 nugroups;
	struct user_limit	*ulimits;
	int			 nulimits;
	struct hosts_entry	*hostsfile;
	int			 nhostsfile;
	struct app_conf		*apps;		/* lsb.applications, in order */
	int			 napps;
	struct limit_conf	*limits;	/* lsb.resources, in order */
	int			 nlimits;
	unsigned		 loaded;	/* CONF_* parts read */
	char			*lsb_dir;	/* .../<cluster>/configdir */
	struct strv		 files;		/* every file read, in order */
	struct conf_nameidx	 cluster_idx;	/* cluster.hosts by name */
	struct conf_nameidx	 bhost_idx;	/* bhosts by name */
};

/* What config_load reads; each part includes the ones before it. */
#define CONF_LSF	0x01	/* lsf.conf, hosts file */
#define CONF_SHARED	0x02	/* + lsf.shared (cluster name) */
#define CONF_CLUSTER	0x04	/* + lsf.cluster.<name> */
#define CONF_LSB	0x08	/* + lsb.params lsb.queues lsb.hosts lsb.users
				 * lsb.resources */
#define CONF_ALL	(CONF_LSF | CONF_SHARED | CONF_CLUSTER | CONF_LSB)

/*
 * Read the configuration.  envdir NULL means $LSF_ENVDIR, else /etc.
 * Returns 0, or -1 when d holds at least one error.  The struct is usable
 * (and must be released) either way.
 */
int	 config_load(struct lsf_config *, const char *envdir, unsigned parts,
	    struct conf_diag *d);
void	 config_release(struct lsf_config *);
/* After every queue is read: PREEMPTION lists name existing queues of
 * the right priority (others are dropped with a warning). */
void	 lsb_queues_check_preemption(struct lsf_config *, const char *path,
	    struct conf_diag *);

/*
 * The last configuration mbatchd accepted, kept so that a refused
 * reconfig cannot stop the next start: a copy of every file it read
 * (cfg->files), side by side under LSB_SHAREDIR/<cluster>/logdir.
 * CONF_ACCEPTED is a symbolic link to one of two directories,
 * CONF_ACCEPTED.0 and .1: config_save fills the one not in use, makes
 * it durable, then turns the link to it with a rename, so the link
 * always names a whole copy.  While mbatchd runs on the copy because
 * the files on disk are broken, CONF_BROKEN holds why (badmin prints
 * it).  -1 with *cause.
 */
#define CONF_ACCEPTED	"lsb.conf.accepted"
#define CONF_BROKEN	"lsb.conf.broken"
int	 config_save(const struct lsf_config *, const char *link,
	    char **cause);
/* config_load of the copy in dir: every file read from there. */
int	 config_load_saved(struct lsf_config *, const char *dir,
	    unsigned parts, struct conf_diag *d);
/* Print the parsed configuration back, one "file.section.key = value"
 * line per item, in a stable order: the golden tests diff this. */
void	 config_dump(const struct lsf_config *, FILE *);

/* Lookups on a loaded configuration. */
const struct queue_conf	*config_queue(const struct lsf_config *, const char *);
const struct app_conf	*config_app(const struct lsf_config *, const char *);
const struct cluster_host *config_cluster_host(const struct lsf_config *,
	    const char *);
/*
 * The master candidates in the order the LIMs elect them: the hosts of
 * LSF_MASTER_LIST that are server hosts of lsf.cluster, else every server
 * host.  Names of the list that are not go to *ignored (may be NULL).
 */
void	 config_master_candidates(const struct lsf_config *, struct strv *out,
	    struct strv *ignored);
/* Whether a host is one of them. */
bool	 config_master_candidate(const struct lsf_config *, const char *host);
/* The cluster's host that this machine's own name is (the same name, or
 * the same up to the domain), or NULL. */
const struct cluster_host *config_cluster_host_local(const struct lsf_config *,
	    const char *local);
/* The lsb.hosts row that applies to a host (its own, else model/type,
 * else "default"), or NULL. */
const struct lsb_host_conf *config_lsb_host(const struct lsf_config *,
	    const char *host, const char *model, const char *type);
const struct host_group	*config_host_group(const struct lsf_config *,
	    const char *);
bool	 config_is_admin(const struct lsf_config *, const char *user);
/* Expand a HOSTS-style list (hosts, groups, all, ~excl, others, +pref)
 * into cluster host names; unknown names go to *bad (may be NULL). */
void	 config_expand_hosts(const struct lsf_config *, const struct strv *in,
	    struct strv *out, struct strv *bad);
/* The same, with each host's preference level ("+N"; a group's applies
 * to its members, "others+N" to the rest) in *prefs, allocated: the
 * k-th host added to out at (*prefs)[k]; higher is preferred, 0 none. */
void	 config_expand_hosts_pref(const struct lsf_config *,
	    const struct strv *in, struct strv *out, int **prefs,
	    struct strv *bad);

/*
 * Values in LSF syntax, used by the parsers and by the commands.
 */
/* Memory amount: a bare number is in unit (LSF_UNIT_FOR_LIMITS: KB MB GB
 * TB PB EB ZB), or the number carries one of those suffixes (also K M G T
 * and B for bytes); decimals allowed.  Result in KB, rounded up. */
int	 parse_mem_kb(const char *s, const char *unit, long long *kb);
/* Time limit "[hh:]mm" (optionally "/host_or_model", ignored) in minutes. */
int	 parse_time_limit(const char *s, long long *minutes);
/*
 * PEND_TIME_LIMIT and ELIGIBLE_PEND_TIME_LIMIT (lsb.params, lsb.queues,
 * lsb.applications): "[hour:]minute", above 0, into *minutes; NULL, or
 * why not.
 */
const char *conf_pend_limit(const char *v, long long *minutes);
/*
 * A job's pending time limit (or eligible one) in minutes from the
 * levels that set one, -1 for none: the job's own (bsub -ptl) over the
 * application profile's over the queue's over lsb.params'.
 */
long long pend_limit_effective(long long job, long long app,
	    long long queue, long long cluster);
/* "r1m = 0.7/2.0" style value "sched[/stop]" for load index idx. */
/* No threshold at all. */
void	 thresholds_init(struct thresholds *);
/* A threshold on an external load index, by name (a later one of the
 * same name replaces it). */
int	 parse_threshold_ext(const char *val, const char *name, int res,
	    bool increasing, struct thresholds *t, const char **why);
/* The external thresholds as lines of text, for the wire, and back
 * (-1: a line is malformed; what came before it is kept). */
void	 thresholds_ext_to_strv(const struct thresholds *, struct strv *);
int	 thresholds_ext_from_strv(const struct strv *, struct thresholds *);
/*
 * Thresholds as the wire carries them (queue_info, host_info,
 * sbd_job_susp: two arrays, two masks and the external ones as lines;
 * ext is appended to) and back (malformed external lines: none of them).
 */
void	 thresholds_to_wire(const struct thresholds *, float *sched,
	    float *stop, uint32_t *sched_set, uint32_t *stop_set,
	    struct strv *ext);
void	 thresholds_from_wire(struct thresholds *, const float *sched,
	    const float *stop, uint32_t sched_set, uint32_t stop_set,
	    const struct strv *ext);
int	 parse_threshold(const char *val, int idx, struct thresholds *t,
	    const char **why);

/*
 * Load the configuration and print, LSF style, "Checking configuration
 * files ...", every error and warning, and a verdict ("No errors found.",
 * "There are warning errors." or "There are fatal errors.").  verbose
 * also lists the files read.  Returns 1 when there are errors, else 0.
 */
int	 conf_check(const char *envdir, unsigned parts, bool verbose,
	    FILE *out);
/* The same, also counting the warnings (badmin reconfig asks then). */
int	 conf_check_warn(const char *envdir, unsigned parts, bool verbose,
	    FILE *out, int *nwarnings);

#endif
