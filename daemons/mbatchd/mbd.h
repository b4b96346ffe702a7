/*
 * mbatchd: the master batch daemon.  It owns the jobs, queues and hosts,
 * appends every change to lsb.events before it answers, rebuilds its state
 * from that log when it starts, and dispatches jobs to sbatchds.
 *
 *	mbatchd.c	main, sockets, signals, the loop's flush point
 *	mbd-state.c	jobs, queues and hosts in memory; interned strings
 *	mbd-evlog.c	writing records; replies that wait for the disk
 *	mbd-acct.c	lsb.acct: a JOB_FINISH record for each finished job
 *	mbd-replay.c	rebuilding the state: lsb.envs, then lsb.events
 *	mbd-seal.c	lsb.events.seal: what was acknowledged, checked
 *			at start, written each turn
 *	mbd-duplog.c	LSB_LOCALDIR: the log kept twice
 *	mbd-apply.c	the typed changes of a job's records (JOB_START,
 *			_EXECUTE, _STATUS, _SIGNAL...), live and replayed
 *	mbd-apply-table.c the one way a record reaches the state, from
 *			EVLOG_RECORDS: replay's dispatch, log_apply_<id>
 *	mbd-apply-new.c	JOB_NEW's apply: the job a submission makes
 *	mbd-start.c	a decision carried out in the state (sched_apply,
 *			job_start), apart from sending the job to its host
 *	mbd-apply-job.c	the apply of a job's other records
 *	mbd-apply-ctrl.c the apply of HOST_CTRL, QUEUE_CTRL, LOG_SWITCH,
 *			FS_USAGE, JOB_ENV, MBD_START and MBD_DIE
 *	mbd-dump.c	badmin statedump: the durable state as text
 *	mbd-client.c	the command socket: one dispatch table; bsub -K
 *	mbd-submit.c	bsub
 *	mbd-query.c	bjobs, bqueues, bhosts, bparams, showconf
 *	mbd-signal.c	bkill
 *	mbd-control.c	bstop, bresume, brequeue, btop, bbot, bswitch, brun,
 *			bmig
 *	mbd-sbd.c	sbatchd connections: register, status, start, signal
 *	mbd-hostfail.c	lost hosts: UNKWN, the grace, MAX_SBD_FAIL, rerun or exit
 *	mbd-lim.c	the master LIM's load feed
 *	mbd-sched.c	running the policy and carrying out its decisions
 *	mbd-limits.c	the limits that apply to a job; pending past -t
 *	mbd-prepost.c	pre-exec failures and post-exec outcomes
 *	mbd-peek.c	bpeek: asking the execution host for a job's output
 *	mbd-admin.c	badmin: host and queue control, their replay, restart
 *	mbd-reconfig.c	badmin reconfig: the new configuration, in place
 *	mbd-array.c	job arrays: the parent and its elements
 *	mbd-depend.c	bsub -w conditions, judged before each pass
 *	mbd-mig.c	MIG: migrating jobs system-suspended too long
 *	mbd-chkpnt.c	checkpoints: bchkpnt, the period, erestart at a start
 *	mbd-restart.c	brestart: a new job from an ended job's checkpoint
 *	mbd-preempt.c	preemption: victims suspended or ended, resumed
 *	mbd-susp.c	suspension: what execution hosts need to suspend by
 *			load; run windows, host locks; resume_pass
 *	mbd-users.c	users' and queues' job slot limits for the policy
 *	mbd-rlimits.c	lsb.resources limits: counts, the policy's view,
 *			blimits
 *	mbd-reserve.c	rusage[] reservations of running jobs
 *	mbd-modify.c	bmod
 *	mbd-apps.c	application profiles: a job's, its MAX_JOB_PREEMPT; bapp
 *	mbd-fairshare.c	fairshare: the share trees, each job's account, the
 *			usage charged as jobs start, run and end
 *	mbd-fsadjust.c	the fairshare adjustment plug-in (LSF_LIBDIR)
 *	mbd-fsquery.c	the share trees as bqueues -l and bhpart show them
 *	mbd-exception.c	host and job exceptions: eadmin, or LSF's default
 *	mbd-history.c	the job history database, kept by a thread of its own
 *	mbd-histjob.c	bjobs <id> of a cleaned job, answered from history
 *
 * Every request is handled in one turn of the event loop; records go to
 * the log buffer, replies to the outbox.  At the end of the turn (a low-
 * priority event) the scheduler runs if something changed, the log is
 * written and fdatasync'ed once, and only then is the outbox sent (one
 * send for each peer): one fsync covers all the requests of a turn, and
 * no answer goes out before what it reports is on disk.
 */
#ifndef MBD_H
#define MBD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <event2/event.h>

#include "conf.h"
#include "auth.h"
#include "conn.h"
#include "daemon.h"
#include "evlog.h"
#include "hostfail.h"
#include "idxset.h"
#include "net.h"
#include "policy.h"
#include "proto.h"
#include "resreq.h"

struct mhost;
struct mqueue;

/* An environment shared by jobs: the JOB_ENV record that holds it. */
struct menv {
	char		*id;
	off_t		 off;
	int		 refs;
	struct menv	*next;		/* hash chain */
};

/* What only some jobs have; allocated when one of them is set. */
struct job_extra {
	struct strv	 asked_hosts;	/* -m as written */
	int		*asked_idx;	/* the hosts they mean: nasked host
					 * indices, then their nasked "+N"
					 * preference levels */
	int		 nasked;
	char		*mail_user;
	char		*user_group;
	char		*depend_cond;
	char		*pre_exec;
	char		*post_exec;
	char		*login_shell;
	char		*in_file;
	char		*cwd_req;	/* -cwd */
	char		*outdir;	/* -outdir, patterns kept */
	char		*chkpnt_dir;	/* -k dir (absolute) */
	char		*chkpnt_method;	/* -k method= */
	int64_t		 chkpnt_period;	/* -k period, seconds */
	char		*warning_action; /* -wa, NULL none */
	int		 warning_time;	/* -wt, seconds; 0 none */
	int64_t		 rlimits[LSF_RLIM_NLIMITS];
	int64_t		 begin_time;
	int64_t		 term_time;
	int		 user_priority;
	struct strv	 res_reqs;
	struct dep_expr	*dep;		/* depend_cond parsed */
};

/*
 * A job array.  The parent job (index 0) holds what every element
 * shares and stands, in its queue, for the elements that have not become
 * jobs of their own: an element becomes one only when something happens
 * to it alone (it starts, or a command names it), so the pending part of
 * an array costs the same for ten elements or a million.
 */
enum { AS_PEND, AS_PSUSP, AS_RUN, AS_SSUSP, AS_USUSP, AS_DONE, AS_EXIT,
	AS_NSTATES };
struct jarray {
	char		*base;		/* the name without its index part */
	struct idxset	 pend;		/* virtual elements, in the parent's
					 * state (PEND or PSUSP) */
	struct idxset	 gone;		/* virtual elements ended unstarted */
	int64_t		 gone_time;
	int		 gone_reason;
	int64_t		 total;
	int		 limit;		/* %N, 0 = none */
	struct pol_cap	 cap;		/* the %N limit for the policy */
	int64_t		 nstat[AS_NSTATES]; /* elements that are jobs */
	int64_t		 nstarted;	/* elements that ever started */
	int64_t		 npdone;
	int64_t		 nperr;
	struct job	*last;		/* its last element in the job list */
	uint32_t	 seen;		/* bjobs -A: listed in this query */
};

struct job {
	struct pol_job	 pj;		/* queue pending list, reasons */
	int64_t		 jobid;
	int32_t		 idx;
	uint32_t	 run_count;
	int		 status;
	uint32_t	 options;
	uint32_t	 options2;
	int		 uid;
	int		 umask;
	int		 exceptions;	/* JOB_EXC_* seen (in memory only) */
	const char	*user;		/* interned */
	struct mqueue	*queue;
	const char	*from_host;	/* interned */
	const char	*project;	/* interned */
	const char	*app;		/* interned application profile, NULL:
					 * none; kept when the profile goes */
	const char	*sub_cwd;	/* interned */
	const char	*sub_home;	/* interned */
	char		*job_name;
	char		*command;	/* NULL: long, read it from the log */
	char		*out_file;
	char		*err_file;
	char		*res_req;	/* merged -R text */
	struct resreq	*rr;		/* effective requirement, or NULL */
	struct job_extra *x;
	struct menv	*env;
	struct jarray	*arr;		/* parent and elements of an array */
	bool		 shared_x;	/* an element still using its
					 * parent's x */
	bool		 in_rsv;	/* holds an rusage reservation */
	bool		 own_fields;	/* an element with its own out_file,
					 * err_file, res_req (bmod) */
	bool		 executed;	/* sbatchd confirmed the start */
	bool		 kill_done;	/* bkill -d: record DONE */
	bool		 kill_asked;	/* this run was told to end (JOB_SIGNAL) */
	off_t		 new_off;	/* its JOB_NEW record */
	int64_t		 submit_time;
	int64_t		 start_time;
	int64_t		 end_time;
	/* The run. */
	struct mhost	**exec;		/* one per slot */
	int		 nexec;
	int		 pid;
	int		 pgid;
	char		*exec_cwd;
	char		*exec_home;
	char		*exec_user;
	int		 exit_status;
	int		 exit_reason;
	double		 cpu_time;
	int64_t		 mem_kb;
	int64_t		 max_mem_kb;
	int64_t		 avg_mem_kb;
	int		 susp_reason;	/* SUSP_* while suspended */
	int		 susp_sub;	/* SUSP_LOAD: the load index */
	int64_t		 ssusp_since;	/* when it became SSUSP (that JOB_STATUS
					 * record's time), for MIG; else 0 */
	int		 hold_reason;	/* PEND_USER_STOP / PEND_ADMIN_STOP */
	int		 end_action;	/* SIG_F_REQUEUE|HOLD|MIG on its end */
	int		 pend_note;	/* PEND_REQUEUED, PEND_MIGRATING, ... */
	int		 preexec_fails;	/* pre-exec failures in a row */
	bool		 forced;	/* brun: started against the policy */
	bool		 slots_free;	/* account(): holds no MXJ slot */
	bool		 preempt_kill;	/* ended for a preemptor */
	bool		 preempt_resuming; /* its RESUME is on the way */
	int		 npreempt;	/* times preempted (MAX_JOB_PREEMPT) */
	int		 nrequeue;	/* automatic requeues (MAX_JOB_REQUEUE),
					 * counted from JOB_STATUS records */
	int		*exec_idx;	/* pj.exec: host index of each slot */
	struct pol_list	*in_list;	/* its queue's running or preempted */
	struct job_ck	*ck;		/* its checkpoints (mbd-chkpnt.c),
					 * NULL none */
	bool		 no_susp;	/* brun -f: never suspended by LSF */
	bool		 restart;	/* next run gets LSB_RESTART=Y */
	bool		 resume_sent;	/* a RESUME is on its way */
	bool		 stop_sent;	/* a bstop is on its way to the host */
	bool		 window_sent;	/* suspended or killed for RUN_WINDOW */
	bool		 lock_sent;	/* suspended for its host's limlock */
	bool		 sig_pending;	/* pending_sig waits for its host */
	bool		 limits_pending; /* bmod's new limits wait for it */
	int		 pending_sig;	/* (SIG_KILL_SEQ is 0) */
	int		 pending_reason;
	struct conn	**waiters;	/* bsub -K */
	int		 nwaiters;
	/* Fairshare: the account its run is charged to (NULL none) with
	 * its slots (nexec) from start_time, and the CPU hours charged. */
	struct fs_node	*fs_leaf;
	double		 fs_run_cpu;
	/* Links. */
	struct job	*hnext;		/* hash chain */
	struct job	*next;		/* all jobs, by job ID */
	struct job	*prev;
};

/*
 * A job from the policy's view of it (struct pol_job is struct job's
 * first member, checked here): the one way from the one to the other.
 */
_Static_assert(offsetof(struct job, pj) == 0,
    "struct pol_job must start struct job");
#define JOB_OF_PJ(p)	((struct job *)(void *)(p))

struct mqueue {
	struct pol_queue pq;
	char		*name;
	const struct queue_conf *conf;
	struct resreq	*rr;		/* RES_REQ */
	struct resreq	*resume_rr;	/* RESUME_COND */
	bool		*host_ok;	/* per host index, NULL = all */
	struct strv	 users;		/* USERS expanded; empty = all */
	struct strv	 admins;	/* ADMINISTRATORS expanded */
	int		 index;
	bool		 open;
	bool		 active;
	bool		 run_open;	/* RUN_WINDOW open (or none) */
	int		 nslots_pend;
	int		 nslots_run;
	int		 nslots_ssusp;
	int		 nslots_ususp;
	int		 nhosts_used;	/* pq.host_used is this long */
	struct mfs	*mfs;		/* the share tree ordering it, or NULL */
};

struct mhost {
	struct pol_host	 ph;
	/* What ph.rr points to, beside it: a pass reads them for every
	 * host and job. */
	float		 load[NLOADIDX];
	struct strv	 resources;
	struct strv	 ext;		/* ELIM indices from the LIM: name=value */
	char		*name;
	int		 index;
	const struct cluster_host *cconf;
	const struct lsb_host_conf *bconf;
	struct host_addr addr;
	struct conn	*sbd;		/* registered sbatchd */
	struct hostfail_host hf;	/* probes: no sbatchd, no LIM */
	bool		 lim_up;
	bool		 lim_locked;	/* lsadmin limlock, LIM run window */
	bool		 closed_adm;
	char		*adm_comment;	/* badmin hclose -C, NULL none */
	bool		 window_closed;	/* lsb.hosts DISPATCH_WINDOW */
	bool		 removed;	/* gone from lsf.cluster (reconfig) */
	char		*type;
	char		*model;
	int		 nrun;		/* slots by job state */
	int		 nssusp;
	int		 nususp;
	/* Host exception (mbd-exception.c), counted from JOB_STATUS
	 * records: the times of the last jobs that exited there, whether
	 * it fired, and the exits of a firing not yet acted on. */
	int64_t		*exits;
	int		 nexits;
	int		 exits_cap;
	bool		 exc_fired;
	int		 exc_due;
};

/*
 * Fairshare (mbd-fairshare.c): one share tree for each queue with
 * FAIRSHARE (ordering the queues of its FAIRSHARE_QUEUES / QUEUE_GROUP
 * too) and one for each lsb.hosts HostPartition (ordering the queues
 * without FAIRSHARE whose hosts are in it).
 */
struct mfs_user {
	const char	*user;		/* interned */
	struct fs_node	*leaf;
};
struct mfs {
	struct fs_tree	*tree;
	const struct queue_conf *qconf;	/* a queue's FAIRSHARE, or */
	const struct host_partition *hpart; /* a partition's */
	bool		*host_in;	/* hpart: per host index */
	struct mqueue	**queues;	/* the queues it orders: queues[i]'s
					 * pq.fs_slot is i */
	int		 nqueues;
	/* Each user's account (or none), by interned name. */
	struct mfs_user	*umap;
	size_t		 umap_size;
	size_t		 umap_n;
};

/* A reply or message that waits for the log to reach the disk. */
struct outmsg {
	struct conn	*conn;
	struct wbuf	 w;
	struct outmsg	*next;
};

struct mbd {
	struct event_base	*base;
	struct daemon_opts	 opts;
	/* Replaced by badmin reconfig (mbd-reconfig.c): keep no pointer
	 * into it that reconfig_apply does not renew. */
	struct lsf_config	 conf;
	char			*host;
	char			*cluster;
	char			*logdir;	/* LSB_SHAREDIR/<cluster>/logdir */
	char			*evpath;	/* .../lsb.events */
	char			*envpath;	/* .../lsb.envs (private) */
	char			*histpath;	/* lsb.history.db (history.h) */
	char			*sockpath;
	int			 lockfd;
	struct evlog		 log;
	struct evlog		 envlog;	/* JOB_ENV records, mode 0600 */
	/* Jobs that ended DONE or EXIT in lsb.events since its last
	 * switch: MAX_JOB_NUM of them switch it (log_switch_check). */
	uint64_t		 log_nfinished;
	int64_t			 switch_retry;	/* after a failed switch */
	/* Master from then (mono_ms): the hosts' time to find us. */
	int64_t			 master_ms;

	/* State. */
	struct mhost		**hosts;
	int			 nhosts;
	struct mqueue		**queues;
	int			 nqueues;
	struct pol_cluster	 pc;
	bool			 preempt_on;	/* a queue has PREEMPTION */
	struct mfs		**fs;		/* share trees */
	int			 nfs;
	struct job		**jtab;		/* hash by job ID */
	size_t			 jtab_size;
	size_t			 njobs;
	struct job		*jobs_head;	/* by job ID */
	struct job		*jobs_tail;
	int64_t			 next_jobid;
	uint64_t		 state_gen;	/* bumped by every job change */
	uint64_t		 ndeadline;	/* jobs ever given a -t */
	uint64_t		 ndepend;	/* conditions ever parsed (-w) */
	struct menv		**etab;
	size_t			 etab_size;
	struct strv		 admins;

	/* The end-of-turn work. */
	struct event		*ev_flush;
	bool			 flush_pending;
	bool			 sched_dirty;
	struct outmsg		*outbox;
	struct outmsg		**outbox_tail;
	struct event		*ev_tick;

	/* LIM feed. */
	struct conn		*lim;
	struct event		*ev_lim_retry;

	/* badmin mbdrestart: exit once the answer is out. */
	bool			 restart;
	struct conn		*restart_conn;
	char			*restart_user;
	char			*restart_comment;

	/* Counters for logs and benchmarks. */
	uint64_t		 nsubmitted;
	uint64_t		 ndispatched;
};

extern struct mbd *mbd;

/* mbatchd.c */
void	 mbd_kick(void);			/* schedule the flush point */
void	 mbd_sched_dirty(void);

/* mbd-state.c */
void	 state_init(void);
const char *intern(const char *);
struct job *job_find(int64_t jobid, int32_t idx);
struct job *job_new(int64_t jobid, int32_t idx);
/* An array element, kept after its parent's other elements. */
struct job *job_new_after(int64_t jobid, int32_t idx, struct job *after);
void	 extra_free(struct job_extra *);
struct job_extra *extra_dup(const struct job_extra *);
void	 job_free(struct job *);
void	 job_set_status(struct job *, int status);
struct mqueue *queue_find(const char *);
struct mhost *host_find(const char *);
bool	*host_mask(const char *);
bool	 job_on_hosts(const struct job *, const bool *mask);
void	 host_refresh(struct mhost *);
/* A host's entry of the LIM's load list (mbd-lim.c feeds them). */
void	 host_load_apply(struct mhost *, const struct lim_host *);
bool	 user_is_admin(const char *user, int uid);
/* A cluster administrator, or one of the job's queue's ADMINISTRATORS. */
bool	 user_admins_job(const struct job *, const char *user, int uid);
bool	 queue_user_ok(const struct mqueue *, const char *user, int uid);
const char *user_name(int uid);
struct menv *env_find(const char *id);
struct menv *env_add(const char *id, off_t off);
void	 env_unref(struct menv *);
size_t	 env_prune(void);
/* The shared environment for a user's submission: found (its contents
 * checked) or logged anew. */
struct menv *env_for(int uid, const struct strv *env, int64_t now);
void	 job_slots_add(struct job *, int sign);
void	 job_make_pending(struct job *);
/* Its place among the pending: -sp, or MAX_USER_PRIORITY / 2. */
int	 job_priority(const struct job *);
void	 queue_set_active(struct mqueue *, int64_t now);
bool	 queue_run_open(const struct mqueue *, int64_t now);
void	 queue_set_limits(struct mqueue *);
bool	 host_set_window(struct mhost *, int64_t now);
/* bsub's candidates without -q: DEFAULT_QUEUE, else "default", else the
 * first queue. */
void	 default_queues(struct strv *);
/* Building hosts and queues from the configuration (also reconfig). */
struct mhost *host_add(const struct cluster_host *);
void	 host_configure(struct mhost *, const struct cluster_host *);
struct mqueue *queue_add(const struct queue_conf *, int order);
void	 queue_configure(struct mqueue *, const struct queue_conf *,
	    int order);
void	 state_lists_rebuild(void);

/* mbd-fairshare.c */
void	 fs_configure(void);		/* from state_lists_rebuild */
/* The account of a job in its queue for the pending list; NULL none. */
struct pol_fs_acct *fs_job_acct(struct job *);
/* Charges as the job's state changes (job_set_status), its CPU grows. */
void	 fs_job_status(struct job *);
void	 fs_job_cpu(struct job *);
/* The time of the record being applied. */
void	 fs_set_when(int64_t);
/* Has the user a share in the queue's FAIRSHARE (or none is set)? */
bool	 fs_user_may_submit(struct mqueue *, const char *user);
/* FS_USAGE records of every account's history; replaying one. */
void	 fs_usage_records(struct strbuf *, int64_t now);
void	 fs_usage_apply(const struct ev_fs_usage *);

/* mbd-array.c */
#define JOB_IS_PARENT(j)	((j)->arr != NULL && (j)->idx == 0)
#define JOB_IS_ELEMENT(j)	((j)->arr != NULL && (j)->idx > 0)
/* Make j (just filled from its JOB_NEW) an array if its name asks; -1
 * with an LSBE_* code in *code when the name is malformed. */
int	 array_setup(struct job *, int max_size, int *code, char **cause);
void	 array_release(struct jarray *);
/* Element idx of an array: found, or made a job of its own from the
 * parent's pending or ended ones (create); NULL when there is none. */
struct job *array_element(struct job *parent, int32_t idx, bool create);
/* The next virtual pending element as a job, for dispatch. */
struct job *array_take_next(struct job *parent);
/* Count an element's state (sign +1 / -1), from the slot accounting. */
void	 array_count(struct job *, int sign);
/* End the parent's virtual pending elements (bkill). */
void	 array_end_virtual(struct job *parent, int64_t when, int reason);
/* Every element has ended: the array can be cleaned. */
bool	 array_finished(const struct job *parent);
int64_t	 array_last_end(const struct job *parent);
/* Job j (or an element) or any job lookup by ID: materializes. */
struct job *job_lookup(int64_t jobid, int32_t idx);
/* Does the -J pattern match this job (an array's base name too)? */
bool	 job_name_matches(const struct job *, const char *pattern);
/* Forget a finished job; an array with all its elements. */
void	 job_clean(struct job *);
/* Give an element its own job_extra before changing it. */
void	 job_own_x(struct job *);
/* The name of element idx ("base[idx]"), allocated. */
char	*array_elem_name(const struct job *parent, int32_t idx);

/* mbd-depend.c */
/* bsub -w: the syntax, and that every job it names exists. */
int	 depend_check(const char *cond, const struct job *self, int *code,
	    char **cause);
/* Parse the job's condition (once); an unreadable one blocks it. */
void	 depend_attach(struct job *);
/* Block or release pending jobs by their conditions. */
void	 depend_pass(void);

/* mbd-modify.c */
void	 modify_handle(struct conn *, uint32_t seq, struct rbuf *);
void	 job_modify_apply(struct job *, const struct ev_job_modify *);

/* mbd-reserve.c */
void	 reserve_add(struct job *);
void	 reserve_drop(struct job *);
/* Sum the reservations of running jobs into each host's pol_host. */
void	 reserve_pass(int64_t now);

/* mbd-rlimits.c */
/* From the configuration (at start, and by reconfig with every job out
 * of the slot accounting). */
void	 rlimits_configure(void);
/* The limits that apply to the job (from job_attach_limits). */
void	 rlimits_attach(struct job *);
/* A started job's share in or out (from account()). */
void	 rlimits_account(struct job *, int sign);
void	 query_limits(struct conn *, uint32_t seq, struct rbuf *);
/* mbd-fsquery.c: bqueues -l and bhpart's share trees */
void	 query_fairshare(struct conn *, uint32_t seq, struct rbuf *);

/* mbd-users.c */
void	 job_attach_limits(struct job *);
void	 user_host_slots(struct job *, int sign);
void	 users_reconfigure(void);
/* After reconfig: limits again for every job. */
void	 jobs_reattach_limits(void);
/* lsb.users UserGroup: does it exist; is user in it (nested)? */
bool	 user_group_exists(const char *);
bool	 user_in_group(const char *user, const char *group);

/*
 * mbd-apply.c: each job record's effect, the same live and in replay.
 * The *_record functions build the record, append it and apply it.
 */
void	 job_start_apply(struct job *, struct mhost **, int n,
	    uint32_t run_count, int64_t when);
void	 job_execute_apply(struct job *, const struct ev_job_execute *);
void	 job_status_apply(struct job *, const struct ev_job_status *,
	    int64_t when);
void	 job_signal_apply(struct job *, const struct ev_job_signal *);
void	 job_mig_apply(struct job *, const struct ev_mig *);
void	 job_requeue_apply(struct job *);
void	 job_start_record(struct job *, struct mhost **, int n, int64_t now);
void	 job_execute_record(struct job *, const struct job_status *);
void	 job_status_fill(const struct job *, int status,
	    struct ev_job_status *);
void	 job_status_record(struct job *, const struct ev_job_status *);
void	 job_status_change(struct job *, int status, int reason);
void	 job_susp_change(struct job *, int status, int reason, int sub);

/*
 * mbd-preempt.c: preemption.  The policy decides (src/preempt-policy.c);
 * here the victims are suspended (JOB_STATUS SSUSP, SUSP_PREEMPTED) or
 * ended (TERMINATE_WHEN=PREEMPT), and preempted jobs resumed.
 */
/* From the configuration: preempt_on, each queue's victim queues. */
void	 preempt_configure(void);
/* Keep the queue's running and preempted lists (from account()). */
void	 preempt_lists(struct job *, int sign);
/* Carry out a decision's victims (before its job starts). */
void	 preempt_victims(struct job *by, struct pol_job **victims, int n);
/* A preempted job may run again. */
void	 preempt_resume(struct job *);
/* A started job's hosts as the policy sees them (job_start_apply). */
void	 preempt_set_exec(struct job *);
/* A host's report on a job mbatchd preempted or resumed: true when
 * handled here (apply_suspension leaves it). */
bool	 preempt_host_report(struct job *, const struct job_status *);

/* mbd-susp.c: a started job's load policy to its host (sbd-load.c). */
void	 job_susp_send(struct job *);
bool	 job_susp_relevant(const struct job *);
void	 jobs_susp_send_all(void);
/* Resume what mbatchd may: bresumed jobs, and those a run window or a
 * host lock suspended, as their hosts' loads allow (before each pass). */
void	 resume_pass(void);
/* Suspend the running jobs of closed run windows and locked hosts (or
 * end them: TERMINATE_WHEN=WINDOW); each tick. */
void	 run_windows(int64_t now);
void	 host_locks(void);
void	 job_signal_record(struct job *, const char *sig, int uid,
	    const char *user, int flags);
void	 job_requeue_record(struct job *);

/* mbd-acct.c: lsb.acct.  acct_job_finished is called once per finish,
 * when it is logged (never on replay); acct_flush writes after lsb.events
 * is on disk. */
void	 acct_job_finished(struct job *, int64_t now);
/* An array's elements that ended unstarted (its gone set, just made). */
void	 acct_array_ended(struct job *parent, int64_t now);
void	 acct_flush(void);
/* From the tick: lsb.acct to disk at most once a second. */
void	 acct_sync(void);
void	 acct_close(void);

/* mbd-histjob.c: bjobs <id> of a cleaned job, from history. */
bool	 histjob_lookup(const struct job_id *, bool longform,
	    struct job_info ***, size_t *);
void	 histjob_release(struct job_info *);
void	 histjob_shutdown(void);

/* mbd-history.c: the job history database, kept by a thread. */
void	 history_start(void);
void	 history_kick(void);	/* lsb.events or lsb.acct grew */
void	 history_stop(void);

/* mbd-evlog.c */
off_t	 log_record(struct strbuf *rec);
void	 outbox_add(struct conn *, struct wbuf *);	/* takes w */
void	 outbox_drop_conn(struct conn *);
void	 outbox_flush(void);
void	 log_mbd_start(void);
void	 log_mbd_die(int code);
/* End of a turn, with nothing pending: switch lsb.events when
 * MAX_JOB_NUM jobs have finished since the last switch. */
void	 log_switch_check(void);

/* mbd-duplog.c */
void	 duplog_start(void);
void	 duplog_attach(void);
void	 duplog_check(void);
void	 duplog_retry(void);
/* The side not replayed (NULL without LSB_LOCALDIR); *same when it is
 * on and holds the same bytes as mbd->evpath. */
const char *duplog_twin(bool *same);

/* mbd-seal.c */
void	 seal_start(void);		/* after duplog_start */
off_t	 seal_check(off_t valid_end);	/* after replay_log: acked */
void	 seal_open(void);		/* after duplog_attach */
void	 seal_turn(void);		/* after each flush of the log */
void	 seal_tick(void);
/* Data kept on disk only: the command and the environment of a job. */
char	*job_command(struct job *);
int	 job_new_record(struct job *, struct ev_job_new *);
int	 job_env(struct job *, struct strv *);
int	 env_read(const struct menv *, struct strv *);

/* mbd-replay.c: lsb.envs, then lsb.events, record by record. */
int	 replay_log(off_t *valid_end, char **cause);
int	 replay_envs(off_t *valid_end, char **cause);

/*
 * mbd-apply-table.c, from EVLOG_RECORDS (evlog.h): what each record
 * type does to the state is apply_<id>, one function that replay calls
 * on each record it reads and the live code on the record it has just
 * appended, so a restarted mbatchd is in the state the old one was
 * (t0034, check_mbd).  log_apply_<id> is the live path in one step:
 * build the record's line, append it (lsb.envs for JOB_ENV), apply it;
 * it gives where the record is.  A decision that depends on who asked is
 * in the record (JOB_MOVE's scope), never made again by apply.  A type
 * in the table without its apply_<id> does not link.
 */
#define MBD_APPLY_DECL(NAME, id, T, sw, hist, load)			\
	int	 apply_##id(struct ev_##T *, int64_t when, off_t off);	\
	off_t	 log_apply_##id(struct ev_##T *, int64_t when);
EVLOG_RECORDS(MBD_APPLY_DECL)
#undef MBD_APPLY_DECL
/* One record read back, whatever its type (unknown types: nothing). */
int	 replay_record(struct ev_reader *, off_t);
/* lsb.envs' records go there, not to lsb.events (mbd-state.c). */
off_t	 env_log_record(struct strbuf *rec);

/* mbd-apply-new.c: JOB_NEW's job, live and replayed. */
void	 job_fill_new(struct job *, struct ev_job_new *, struct mqueue *);
int	 job_set_resreq(struct job *, const char *unit, char **cause);

/* mbd-dump.c */
void	 state_dump(struct strbuf *);

/* mbd-client.c */
struct conn *client_accept(int fd, struct sockaddr *, socklen_t, void *);
/* A command's request and its connection's end (Unix socket or TCP). */
void	 client_msg(struct conn *, const struct wire_hdr *, struct rbuf *,
	    void *);
void	 client_closed(struct conn *, void *);
void	 client_reply_error(struct conn *, uint32_t seq, int code,
	    const char *context, const char *detail, bool wait_log);
void	 client_job_event(struct job *, int what);
void	 client_drop_waiter(struct conn *);

/* mbd-submit.c */
void	 submit_handle(struct conn *, uint32_t seq, struct rbuf *);
void	 submit_job(struct conn *, uint32_t seq, struct ev_job_new *, int uid,
	    const char *restart_from);
/* mbd-restart.c: brestart */
void	 restart_handle(struct conn *, uint32_t seq, struct rbuf *);
int	 chkpnt_dir_move(const char *from, const char *dir, int64_t jobid,
	    int uid, char **cause);
void	 submit_pack_handle(struct conn *, uint32_t seq, struct rbuf *);

/* mbd-query.c */
void	 query_jobs(struct conn *, uint32_t seq, struct rbuf *);
void	 query_queues(struct conn *, uint32_t seq, struct rbuf *);
void	 query_hosts(struct conn *, uint32_t seq, struct rbuf *);
void	 query_params(struct conn *, uint32_t seq, struct rbuf *);
void	 query_conf(struct conn *, uint32_t seq, struct rbuf *);
void	 query_users(struct conn *, uint32_t seq, struct rbuf *);
void	 query_wait(struct conn *, uint32_t seq, struct rbuf *);
void	 job_fill_info(struct job *, struct job_info *, uint64_t want,
	    bool longform);

/* mbd-signal.c */
void	 signal_handle(struct conn *, uint32_t seq, struct rbuf *);
void	 signal_send(struct job *, int sig, int reason);

/* mbd-chkpnt.c: a job's checkpoints, made when it has any.  The period
 * (seconds) of bchkpnt -p over the job's -k or queue's; whether a
 * checkpoint was taken (the next run restarts from it) and when the last
 * one ended; the request on its way to the host (not logged). */
struct job_ck {
	int64_t		 period;
	bool		 period_set;
	bool		 taken;
	int64_t		 at;
	bool		 sent;
	int64_t		 sent_at;
	bool		 kill;		/* bchkpnt -k: kill once taken */
	int		 uid;		/* who asked, for the kill */
	const char	*user;		/* interned */
	/* bmig of a running job: migrate once checkpointed (not logged:
	 * a restarted mbatchd forgets it, the job runs on). */
	bool		 mig;
	struct strv	 mig_hosts;	/* bmig -m, empty any */
	int		 mig_reason;
};
void	 job_ck_free(struct job *);
void	 job_chkpnt_restarted(struct job *);
const char *job_chkpnt_dir(const struct job *);
int64_t	 job_chkpnt_period(const struct job *);
const char *job_chkpnt_method(const struct job *);
char	*job_chkpnt_path(const struct job *);
void	 job_chkpnt_spec(struct job *, struct job_spec *);
void	 job_chkpnt_forget(struct job *);
void	 chkpnt_note_period(int64_t);
void	 job_chkpnt_apply(struct job *, const struct ev_chkpnt *, int64_t);
int	 job_chkpnt(struct job *, int64_t period, bool kill, int uid,
	    const char *user);
void	 job_chkpnt_done(struct mhost *, const struct job_ack *);
int	 job_chkpnt_mig(struct job *, struct mhost **, int, int uid,
	    const char *user, int reason);
void	 job_chkpnt_clear_run(struct job *);
void	 chkpnt_pass(int64_t now);
/* End a job here and now (pending, or removed with bkill -r). */
void	 job_finish_now(struct job *, int status, int reason);

/* Job selection shared by bkill and the control commands: the IDs given
 * (job 0: every unfinished job that matches), or with none the most
 * recent unfinished job that matches. */
struct jsel {
	const char	*user;		/* NULL: anyone's */
	const char	*queue;
	bool		*on_host;	/* -m (host_mask); NULL: any */
	const char	*job_name;
	const struct job_id *ids;
	uint32_t	 nids;
	bool		 finished_too;	/* job 0 also takes finished jobs */
};
struct job_results {
	struct job_result *v;
	uint32_t	 n;
};
typedef int (*job_action)(struct job *, void *arg);
void	 jobs_select(const struct jsel *, job_action, void *arg,
	    struct job_results *);
void	 job_results_add(struct job_results *, int64_t jobid, int32_t idx,
	    int code);
void	 job_results_reply(struct conn *, uint32_t seq, struct job_results *);

/* mbd-control.c */
void	 control_handle(struct conn *, uint32_t seq, struct rbuf *);
/* Put an ended or stopped job back in its queue (at the head). */
void	 job_requeue(struct job *, bool hold, int note);
int	 job_stop(struct job *, int uid, const char *user, bool admin);
int	 job_resume(struct job *, int uid, const char *user, bool admin);
void	 job_move(struct job *, int position, bool top, bool mine_only);
/* btop/bbot asked by uid; admin: the user administers the job. */
int	 job_move_req(struct job *, int position, bool top, int uid,
	    const char *user, bool admin);
void	 job_switch(struct job *, struct mqueue *dest);
void	 job_clear_run(struct job *);
/* bsub -r or RERUNNABLE: bmig and MIG may migrate it. */
bool	 job_rerunnable(const struct job *);
/* Migrate a started job as bmig does: the MIG record, then JOB_SIGNAL
 * KILL with SIG_F_MIG; its end brings it back to the head of its queue.
 * hosts (bmig -m) may be empty. */
void	 job_migrate(struct job *, struct mhost **hosts, int nhosts, int uid,
	    const char *user, int reason);

/* mbd-mig.c */
/* MIG (lsb.queues, lsb.hosts): migrate the jobs SSUSP long enough. */
void	 mig_pass(int64_t now);

/* mbd-submit.c */
/* Would the queue take this job as if it were submitted now? */
int	 queue_accepts(struct mqueue *, struct job *, const char *user,
	    int uid);
/* -m hosts (bmod, bmig -m). */
void	 job_set_asked(struct job *, const struct strv *hosts);
/* asked_idx and nasked from asked_hosts, by the configuration now. */
void	 extra_expand_asked(struct job_extra *);

/* mbd-hostfail.c */
bool	 host_in_doubt(const struct mhost *);
bool	 job_in_doubt(const struct job *);
void	 hostfail_tick(void);
void	 job_lost(struct job *, struct mhost *);

/* mbd-sbd.c */
struct conn *sbd_accept(int fd, struct sockaddr *, socklen_t, void *);
void	 sbd_send(struct mhost *, struct wbuf *, bool after_log);
/* Its address from its name (after host_add, and on reconfig). */
void	 host_resolve(struct mhost *);

/* mbd-lim.c */
void	 lim_feed_start(void);
bool	 lim_feed_ok(void);
/* When the current feed's first host table came (mono_ms), 0 none. */
int64_t	 lim_feed_since(void);
/* Tell the LIM which hosts run an exclusive job (lsload shows them
 * lockU), when that changed since it was last told. */
void	 lim_send_exclusive(void);

/* mbd-peek.c */
void	 peek_handle(struct conn *, uint32_t seq, struct rbuf *);
/* An sbatchd's MSG_SBD_PEEK_REPLY, for the command waiting for it. */
void	 peek_answer(struct mhost *, struct peek_reply *);
void	 peek_drop_conn(struct conn *);

/* mbd-admin.c */
void	 admin_handle(struct conn *, uint32_t seq, struct rbuf *);
/* HOST_CTRL and QUEUE_CTRL records, at start-up. */
/* HOST_CTRL and QUEUE_CTRL open, close, activate, inactivate. */
void	 host_ctrl_apply(struct mhost *, int op, const char *comment);
void	 queue_ctrl_apply(struct mqueue *, int op);
void	 admin_conn_closed(struct conn *);
/* Write mbdrestart's answer before exiting. */
void	 admin_restart_flush(void);
/* Jobs of a queue that is no longer configured live here. */
struct mqueue *queue_lost_found(void);
bool	 queue_is_lost_found(const struct mqueue *);
void	 queue_become_lost_found(struct mqueue *);
/* badmin hclose by the primary administrator, with a comment. */
void	 admin_host_close(struct mhost *, const char *comment);

/* mbd-exception.c */
/* A job exited on its own on h (not killed): count it against the
 * host's EXIT_RATE, which may fire a host exception. */
void	 exc_exit_apply(const struct job *, const struct ev_job_status *,
	    int64_t when);
void	 exc_host_due(struct mhost *);
void	 exc_replayed(void);
/* An administrator opened h: it may fire again. */
void	 exc_host_opened(struct mhost *h);
/* Each tick: JOB_OVERRUN and JOB_IDLE of running jobs, and the mail of
 * the job exceptions found. */
void	 exc_job_pass(int64_t now);
/* A job ended (status EXIT or DONE): JOB_UNDERRUN. */
void	 exc_job_ended(struct job *, int status, int64_t end_time);

/* mbd-reconfig.c */
/* Read the configuration again and apply it; -1 with the first problems
 * in *cause (allocated) when it has errors, the old one staying. */
int	 reconfig_check(struct lsf_config *, char **cause);
void	 reconfig_apply(struct lsf_config *);
/* A configuration read from the files on disk was accepted (at start or
 * by reconfig): keep a copy of it (CONF_ACCEPTED) and clear CONF_BROKEN. */
void	 conf_accepted(void);

/* mbd-sched.c */
void	 sched_run(void);
/* Start a job (job_start) and send it to its first host. */
void	 job_dispatch(struct job *, const int *slots, int64_t now);
void	 sched_finish_job(struct job *, const struct job_status *);
void	 sched_tick(void);

/* mbd-fsadjust.c */
/* Load LSF_LIBDIR/libfairshareadjust.so (start, reconfig), logging what
 * was loaded or why not; the one loaded before goes. */
void	 fsadjust_load(void);
/* Every account's adjust from the plug-in, in trees whose
 * FAIRSHARE_ADJUSTMENT_FACTOR is not 0; 0 elsewhere.  Before a pass. */
void	 fsadjust_refresh(int64_t now);

/* mbd-start.c: the policy's decisions carried out in the state. */
/* One decision: a preempted job resumed, or a job (an array's next
 * element) started on the slots chosen, its victims first; the job
 * started, for the caller to send to its host, or NULL. */
struct job *sched_apply(const struct pol_decision *, int64_t now);
/* The JOB_START of a job on these slots (host indices), at now. */
void	 job_start(struct job *, const int *slots, int64_t now);

/* mbd-limits.c */
/* A job's limits as they apply (its own, else its queue's default, else
 * its queue's maximum), in LSF_RLIMIT_* order: seconds, KB, -1 none. */
void	 job_limits(const struct job *, int64_t rl[LSF_RLIM_NLIMITS]);
/* A started job's limits to its execution host (after the log); if
 * its sbatchd is away, when it registers again. */
void	 job_limits_send(struct job *);
/* Pending jobs whose -t deadline has come end EXIT, TERM_DEADLINE. */
void	 deadline_pass(int64_t now);

/* mbd-apps.c: application profiles (lsb.applications) and jobs. */
/* The job's profile as configured now; NULL without one, or when the
 * profile has gone from the configuration (the job keeps its name). */
const struct app_conf *job_app(const struct job *);
int	 job_max_requeue(const struct job *);
/* How many times the job may be preempted: its profile's
 * MAX_JOB_PREEMPT, else its queue's, else lsb.params'; -1 unlimited. */
int	 job_max_preempt(const struct job *);
/* bapp */
void	 query_apps(struct conn *, uint32_t seq, struct rbuf *);

/* mbd-prepost.c */
#define PREEXEC_RETRY_INTERVAL	5	/* seconds before a new try */
/* The job's pre-exec failed: PEND again, or EXIT after too many tries. */
void	 preexec_failed(struct job *, const struct job_status *);
/* A replayed PEND record of a pre-exec failure at when. */
/* Its post-exec ended (post_exec_status >= 0): PDONE or PERR. */
void	 postexec_done(struct job *, const struct job_status *);

#endif
