/*
 * Every message between the programs: the type enum and the structs
 * carried in frame bodies, with their pack/unpack/release functions.
 *
 * Types are numbered in blocks by peer.  Never renumber a type and never
 * change a struct's field order: add a new type, or bump PROTO_VERSION
 * when any of these change.
 */
#ifndef LSF_PROTO_H
#define LSF_PROTO_H

#include <stdbool.h>
#include <stdint.h>

#include "lsf.h"
#include "util.h"
#include "wire.h"

#define PROTO_VERSION	15

enum msg_type {
	/* 1-99: any peer */
	MSG_OK			= 1,	/* no body */
	MSG_ERROR		= 2,	/* struct msg_error */
	MSG_PING		= 3,	/* no body; answered with MSG_OK */
	MSG_REDIRECT		= 4,	/* str: the master host to ask */
	/* The MUNGE handshake, in its order (include/auth.h). */
	MSG_AUTH_HELLO		= 7,	/* struct auth_hello */
	MSG_AUTH_CHALLENGE	= 8,	/* str: the server's credential */
	MSG_AUTH		= 5,	/* str: the client's credential */
	MSG_AUTH_OK		= 6,	/* no body: accepted */

	/* 100-199: commands to mbatchd */
	MSG_SUBMIT		= 100,	/* struct submit_req */
	MSG_JOB_QUERY		= 101,	/* struct job_query */
	MSG_JOB_SIGNAL		= 102,	/* struct sig_req */
	MSG_QUEUE_QUERY		= 103,	/* strv: queue names, empty = all */
	MSG_HOST_QUERY		= 104,	/* strv: host names, empty = all */
	MSG_PARAM_QUERY		= 105,	/* no body */
	MSG_JOB_WAIT		= 106,	/* i64 jobid: bsub -K */
	MSG_MBD_CONF_QUERY	= 107,	/* no body: badmin showconf mbd */
	MSG_JOB_CONTROL		= 108,	/* struct ctrl_req */
	MSG_JOB_MODIFY		= 109,	/* struct mod_req: bmod */
	MSG_JOB_PEEK		= 110,	/* struct peek_req: bpeek */
	MSG_ADMIN		= 111,	/* struct admin_req: badmin */
	MSG_USER_QUERY		= 112,	/* strv: users and user groups, empty
					   = all (busers) */
	MSG_WAIT_QUERY		= 113,	/* strv: one condition (bwait) */
	MSG_APP_QUERY		= 114,	/* strv: application profiles, empty
					 * = all (bapp) */
	MSG_LIMIT_QUERY		= 115,	/* strv: "all", "name=", "user=",
					   "queue=", "host=", "project="
					   items (blimits) */
	MSG_FS_QUERY		= 116,	/* struct fs_query: share trees
					 * (bqueues -l, bhpart) */
	MSG_JOB_RESTART		= 117,	/* struct restart_req: brestart */
	/* bsub -pack: many submissions in one request and one write. */
	MSG_SUBMIT_PACK		= 130,	/* struct submit_pack */
	MSG_SUBMIT_PACK_REPLY	= 230,	/* struct submit_pack_reply */

	/* 200-299: mbatchd to commands */
	MSG_SUBMIT_REPLY	= 200,	/* struct submit_reply */
	MSG_JOB_LIST		= 201,	/* struct job_list; WIRE_F_MORE */
	MSG_SIGNAL_REPLY	= 202,	/* struct job_result_list */
	MSG_QUEUE_LIST		= 203,	/* struct queue_list */
	MSG_HOST_LIST		= 204,	/* struct host_list */
	MSG_PARAM_LIST		= 205,	/* struct kv_list */
	MSG_JOB_EVENT		= 206,	/* struct job_event (bsub -K) */
	MSG_CONF_LIST		= 207,	/* struct kv_list */
	MSG_PEEK_REPLY		= 208,	/* struct peek_reply */
	MSG_ADMIN_REPLY		= 209,	/* struct admin_result_list */
	MSG_USER_LIST		= 210,	/* struct user_list */
	MSG_WAIT_REPLY		= 211,	/* struct wait_reply */
	MSG_APP_LIST		= 212,	/* struct app_list */
	MSG_LIMIT_LIST		= 213,	/* struct limit_list */
	MSG_FS_LIST		= 214,	/* struct fs_list */

	/* 300-349: sbatchd to mbatchd */
	MSG_SBD_REGISTER	= 300,	/* struct sbd_register */
	MSG_SBD_JOB_STATUS	= 301,	/* struct job_status */
	MSG_SBD_PEEK_REPLY	= 302,	/* struct peek_reply */
	MSG_SBD_CHKPNT_DONE	= 303,	/* struct job_ack: echkpnt's
					 * wait status in status */

	/* 350-399: mbatchd to sbatchd */
	MSG_SBD_REGISTER_REPLY	= 350,	/* struct sbd_register_reply */
	MSG_SBD_JOB_START	= 351,	/* struct job_spec */
	MSG_SBD_JOB_SIGNAL	= 352,	/* struct sbd_signal */
	MSG_SBD_JOB_ACK		= 353,	/* struct job_ack */
	MSG_SBD_PEEK		= 354,	/* struct peek_req */
	MSG_SBD_SHUTDOWN	= 355,	/* no body: badmin hshutdown */
	MSG_SBD_RESTART		= 356,	/* no body: badmin hrestart */
	MSG_SBD_JOB_LIMITS	= 357,	/* struct sbd_limits: bmod of a
					 * started job; also on to its
					 * supervisor */
	MSG_SBD_JOB_SUSP	= 358,	/* struct sbd_job_susp: thresholds
					 * and conditions of a started job */

	/* 400-449: LIM to LIM */
	MSG_LIM_REPORT		= 400,	/* struct lim_host: the sender's load */
	MSG_LIM_PROBE		= 401,	/* str: the prober's host name */
	MSG_LIM_PROBE_REPLY	= 402,	/* struct lim_probe_reply */

	/* 450-499: clients (commands, mbatchd, sbatchd) and LIM */
	MSG_LIM_LOAD_QUERY	= 450,	/* strv: host names, empty = all */
	MSG_LIM_CLUSTER_QUERY	= 451,	/* no body */
	MSG_LIM_SUBSCRIBE	= 452,	/* u32 LIM_SUB_* flags */
	MSG_LIM_CONF_QUERY	= 453,	/* no body */
	MSG_LIM_RECONFIG	= 454,	/* no body: reread lsf.cluster (admin) */
	MSG_LIM_RESTART		= 455,	/* no body: exec itself again (admin) */
	MSG_LIM_SHUTDOWN	= 456,	/* no body: exit (admin) */
	MSG_LIM_LOCK		= 457,	/* u32 seconds, 0 = until unlocked
					 * (admin): lsadmin limlock */
	MSG_LIM_UNLOCK		= 458,	/* no body (admin): limunlock */
	MSG_LIM_EXCL_HOSTS	= 459,	/* strv (mbatchd to the master LIM):
					 * hosts running an exclusive job */
	MSG_LIM_LOAD_LIST	= 470,	/* struct lim_load_list */
	MSG_LIM_CLUSTER_INFO	= 471,	/* struct lim_cluster_info */
	MSG_LIM_CONF_LIST	= 472,	/* struct kv_list */
	MSG_LIM_HOST_LOAD	= 473,	/* struct lim_host: LIM_SUB_OWN */

	/* 500-549: job supervisor and its sbatchd */
	MSG_JS_HELLO		= 500,	/* struct job_status: (re)connected */
	MSG_JS_STATUS		= 501,	/* struct job_status: state change */
	MSG_JS_ACK		= 502,	/* struct job_ack: sbatchd has it */
	MSG_JS_CHKPNT		= 503,	/* struct job_ack: echkpnt
					 * ended, wait status in status */
};
/* "MSG_SUBMIT" for logs. */
const char	*msg_type_name(int);

/* Error codes carried in MSG_ERROR and job_result; texts as LSF prints. */
enum lsb_err {
	LSBE_NO_ERROR = 0,
	LSBE_NO_JOB,		/* No matching job found */
	LSBE_NOT_STARTED,	/* Job has not started yet */
	LSBE_JOB_STARTED,	/* Job has already started */
	LSBE_JOB_FINISH,	/* Job has already finished */
	LSBE_BAD_QUEUE,		/* No such queue */
	LSBE_QUEUE_CLOSED,	/* Queue has been closed */
	LSBE_QUEUE_USE,		/* User cannot use the queue */
	LSBE_BAD_HOST,		/* Bad host name, host group name or cluster name */
	LSBE_PROC_NUM,		/* Too many processors requested */
	LSBE_BAD_ARG,		/* Bad argument */
	LSBE_BAD_TIME,		/* Bad time specification */
	LSBE_PERMISSION,	/* User permission denied */
	LSBE_BAD_RESREQ,	/* Bad resource requirement syntax */
	LSBE_BAD_JOBID,		/* Bad jobId */
	LSBE_QUEUE_HOST,	/* Host or host group is not used by the queue */
	LSBE_EXCLUSIVE,		/* Queue does not accept EXCLUSIVE jobs */
	LSBE_BAD_SIGNAL,	/* Signal not supported */
	LSBE_BAD_JOB_NAME,	/* Bad job name */
	LSBE_HARD_LIMIT,	/* Cannot exceed queue's hard limit(s) */
	LSBE_PJOB_LIMIT,	/* Pending job threshold reached */
	LSBE_NO_MEM,		/* Out of memory */
	LSBE_SYS,		/* System error */
	LSBE_PROTOCOL,		/* Protocol error */
	LSBE_LOG,		/* Cannot write the event log */
	LSBE_NOT_MASTER,	/* not the master */
	LSBE_DEP_SYNTAX,	/* Dependency condition syntax error */
	LSBE_ARRAY_INDEX,	/* Job array index too large */
	LSBE_NO_OUTPUT,		/* No output so far */
	LSBE_NOLSF,		/* LSF is down */
	LSBE_NOT_SUSPENDED,	/* Job is not suspended */
	LSBE_NOT_RERUNNABLE,	/* Job is not checkpointable (bmig) */
	LSBE_LOCKED,		/* The job is being acted on; try later */
	LSBE_CONF,		/* The configuration has errors */
	LSBE_DEP_NOT_FOUND,	/* a -w names a job that does not exist */
	LSBE_SBD_UNREACH,	/* the host's sbatchd is not connected */
	LSBE_BAD_UGROUP,	/* -G: no such user group */
	LSBE_UGROUP_MEMBER,	/* -G: the user is not in the group */
	LSBE_BAD_RESNAME,	/* -R names a resource nobody defined */
	LSBE_BAD_APP,		/* -app: no such application profile */
	LSBE_NERR
};
const char	*lsb_errmsg(int);

struct msg_error {
	int	 code;		/* enum lsb_err */
	char	*context;	/* queue, host or limit name; may be NULL */
	char	*detail;	/* for logs and -v output; may be NULL */
};

/* Key/value pairs (bparams -a, showconf). */
struct kv_list {
	struct strv	 keys;
	struct strv	 vals;
};

/* bsub */
struct submit_req {
	uint32_t	 options;	/* SUB_* */
	uint32_t	 options2;	/* SUB2_* */
	char		*job_name;	/* -J */
	char		*queue;		/* -q, a list of candidates */
	struct strv	 asked_hosts;	/* -m */
	struct strv	 res_reqs;	/* every -R, in order */
	int		 num_procs;	/* -n min */
	int		 max_procs;	/* -n max */
	char		*in_file;	/* -i */
	char		*out_file;	/* -o / -oo */
	char		*err_file;	/* -e / -eo */
	char		*cwd;		/* -cwd; NULL = submission cwd */
	char		*sub_cwd;	/* where bsub ran */
	char		*sub_home;	/* submitter's home */
	char		*command;	/* command line, or the script */
	char		*project;	/* -P */
	char		*user_group;	/* -G */
	char		*mail_user;	/* -u */
	char		*depend_cond;	/* -w */
	char		*pre_exec;	/* -E */
	char		*post_exec;	/* -Ep */
	char		*login_shell;	/* -L */
	char		*from_host;
	int64_t		 rlimits[LSF_RLIM_NLIMITS]; /* KB and seconds, -1 */
	int64_t		 begin_time;	/* -b */
	int64_t		 term_time;	/* -t */
	int		 umask;
	int		 user_priority;	/* -sp, -1 unset */
	struct strv	 env;		/* "NAME=value" */
	char		*outdir;	/* -outdir, absolute, %J... kept */
	char		*app;		/* -app; NULL: DEFAULT_APPLICATION */
	char		*chkpnt_dir;	/* -k dir, as given; NULL none */
	char		*chkpnt_method;	/* -k method=name; NULL none */
	int64_t		 chkpnt_period;	/* -k period, seconds; 0 none */
	char		*warning_action; /* -wa: a signal name or CHKPNT */
	int		 warning_time;	/* -wt, seconds; -1 none */
};

struct submit_reply {
	int64_t		 jobid;
	char		*queue;
	bool		 default_queue;	/* the queue was not asked for */
};

/* bsub -pack: each line's request, and each one's outcome in order. */
struct submit_pack {
	uint32_t	 n;
	struct submit_req *v;
};
struct pack_result {
	int64_t		 jobid;		/* 0: refused, code says why */
	char		*queue;
	bool		 default_queue;
	int		 code;		/* enum lsb_err */
	char		*context;
	char		*detail;
};
struct submit_pack_reply {
	uint32_t	 n;
	struct pack_result *v;
};

/* bjobs */
#define JQ_ALL		0x01	/* -a: unfinished and recently finished */
#define JQ_DONE		0x02	/* -d: finished only */
#define JQ_PEND		0x04	/* -p */
#define JQ_RUN		0x08	/* -r */
#define JQ_SUSP		0x10	/* -s */
#define JQ_LONG		0x20	/* -l: send the long fields */
#define JQ_ANYUSER	0x40	/* -u all */
#define JQ_ARRAY	0x80	/* -A: one summary per array */
struct job_id {
	int64_t		 jobid;
	int32_t		 idx;		/* 0: the job or every element */
};
struct job_query {
	uint32_t	 flags;
	char		*user;		/* NULL: the caller */
	char		*queue;
	char		*host;
	char		*job_name;	/* pattern, '*' allowed */
	struct job_id	*ids;
	uint32_t	 nids;
	uint64_t	 fields;	/* JI() bits wanted; 0: every field */
	char		*app;		/* -app filter */
};

/* Why no host could take a pending job: count of hosts per reason. */
struct reason_count {
	int		 reason;	/* enum host_reason */
	int		 count;
};

/*
 * A job as bjobs sees it.  Only the fields whose JI() bit is in present
 * travel (a leading mask, then those fields in list order): a listing
 * of "jobid stat" moves and builds two fields per job, not fifty.
 */
struct job_info {
	uint64_t	 present;	/* JI() bits; JI_BASE always */
	int64_t		 jobid;
	int32_t		 idx;
	int		 status;
	uint32_t	 options;
	uint32_t	 options2;
	char		*user;
	char		*queue;
	char		*from_host;
	struct strv	 exec_hosts;	/* one entry per slot */
	char		*job_name;
	char		*command;	/* JQ_LONG, or when short */
	char		*project;
	char		*user_group;
	char		*cwd;		/* -cwd or submission cwd */
	char		*sub_home;
	char		*in_file;
	char		*out_file;
	char		*err_file;
	char		*mail_user;
	char		*depend_cond;
	char		*res_req;	/* as submitted (merged -R) */
	char		*effective_res_req;
	char		*exec_cwd;
	char		*exec_home;
	char		*exec_user;
	int64_t		 submit_time;
	int64_t		 begin_time;
	int64_t		 term_time;
	int64_t		 start_time;
	int64_t		 end_time;
	int64_t		 reserve_time;
	int		 num_procs;
	int		 max_procs;
	int		 exit_status;	/* raw wait status; -1 unknown */
	int		 exit_reason;	/* TERM_* */
	int		 pend_reason;	/* PEND_* */
	struct reason_count *host_reasons;
	uint32_t	 nhost_reasons;
	int		 susp_reason;	/* SUSP_* */
	int		 susp_sub;	/* SUSP_LOAD: the load index */
	char		*susp_ext;	/* an external one: "desc (name)" */
	double		 cpu_time;	/* seconds */
	int64_t		 mem_kb;	/* current */
	int64_t		 max_mem_kb;
	int64_t		 avg_mem_kb;
	int64_t		 swap_kb;
	int		 pgid;
	struct strv	 pids;
	int64_t		 rlimits[LSF_RLIM_NLIMITS];
	int		 user_priority;
	int		 run_count;
	/* bjobs -A: the array's elements by state, JA_* */
	int64_t		 array_counts[8];
	struct strv	 asked_hosts;	/* -m as written */
	char		*login_shell;	/* -L */
	char		*pre_exec;	/* -E */
	char		*app;		/* application profile, or NULL */
	int		 exceptions;	/* JOB_EXC_* it has triggered */
	char		*chkpnt_dir;	/* dir/jobID; NULL: not
					 * checkpointable */
	int64_t		 chkpnt_period;	/* seconds, 0 none */
	char		*chkpnt_method;
	int		 nrequeue;	/* automatic requeues (MAX_JOB_REQUEUE) */
};
enum { JA_NJOBS, JA_PEND, JA_DONE, JA_RUN, JA_EXIT, JA_SSUSP, JA_USUSP,
	JA_PSUSP, JA_NCOUNTS };

/* job_info's fields in wire order; src/proto.c makes the codec from it. */
#define JOB_INFO_FIELDS(F)						\
	F(I64, jobid) F(I32, idx) F(INT, status) F(U32, options)	\
	F(U32, options2) F(STR, user) F(STR, queue) F(STR, from_host)	\
	F(STRV, exec_hosts) F(STR, job_name) F(STR, command)		\
	F(STR, project) F(STR, user_group) F(STR, cwd) F(STR, sub_home)	\
	F(STR, in_file) F(STR, out_file) F(STR, err_file)		\
	F(STR, mail_user) F(STR, depend_cond) F(STR, res_req)		\
	F(STR, effective_res_req) F(STR, exec_cwd) F(STR, exec_home)	\
	F(STR, exec_user) F(I64, submit_time) F(I64, begin_time)	\
	F(I64, term_time) F(I64, start_time) F(I64, end_time)		\
	F(I64, reserve_time) F(INT, num_procs) F(INT, max_procs)	\
	F(INT, exit_status) F(INT, exit_reason) F(INT, pend_reason)	\
	F(LIST, host_reasons, nhost_reasons, reason_count, 8)		\
	F(INT, susp_reason) F(DBL, cpu_time) F(I64, mem_kb)		\
	F(I64, max_mem_kb) F(I64, avg_mem_kb) F(I64, swap_kb)		\
	F(INT, pgid) F(STRV, pids) F(I64A, rlimits, LSF_RLIM_NLIMITS)	\
	F(INT, user_priority) F(INT, run_count)				\
	F(I64A, array_counts, JA_NCOUNTS) F(STRV, asked_hosts)		\
	F(STR, login_shell) F(STR, pre_exec) F(INT, susp_sub)		\
	F(STR, susp_ext) F(STR, app) F(INT, exceptions)			\
	F(STR, chkpnt_dir) F(I64, chkpnt_period) F(STR, chkpnt_method)	\
	F(INT, nrequeue)
#define JIB_ENUM_(k, f, ...)	JIB_##f,
enum { JOB_INFO_FIELDS(JIB_ENUM_) JIB_COUNT };
#undef JIB_ENUM_
#define JI(f)		((uint64_t)1 << JIB_##f)
#define JI_ALL		(((uint64_t)1 << JIB_COUNT) - 1)
/* Every job_info carries these: what a job is and its state. */
#define JI_BASE		(JI(jobid) | JI(idx) | JI(status))
/* The smallest job_info on the wire: the mask and JI_BASE. */
#define JOB_INFO_MIN_WIRE	(8 + 8 + 4 + 4)

/* One frame of a bjobs reply; IDs asked for and not found come in the
 * last frame. */
struct job_list {
	struct job_info	*jobs;
	uint32_t	 njobs;
	struct job_id	*missing;
	uint32_t	 nmissing;
};

/* bkill */
#define SIG_F_FORCE	0x01	/* -r: remove without waiting */
#define SIG_F_DONE	0x02	/* -d: record as DONE */
#define SIG_F_ANYUSER	0x04	/* -u all */
/* Logged with JOB_SIGNAL only: what happens when the job has ended. */
#define SIG_F_REQUEUE	0x08	/* brequeue: back to PEND */
#define SIG_F_HOLD	0x10	/* brequeue -H: back to PSUSP */
#define SIG_F_MIG	0x20	/* bmig: back to PEND, LSB_RESTART=Y */
#define SIG_F_PREEMPT	0x40	/* ended for a preemptor (TERMINATE_WHEN) */
#define SIG_KILL_SEQ	0	/* the default INT, TERM, KILL sequence */
struct sig_req {
	int		 sig;		/* signal number or SIG_KILL_SEQ */
	uint32_t	 flags;
	char		*user;
	char		*queue;
	char		*host;
	char		*job_name;
	struct job_id	*ids;		/* jobid 0 = all matching */
	uint32_t	 nids;
};
struct job_result {
	int64_t		 jobid;
	int32_t		 idx;
	int		 code;		/* enum lsb_err */
};

/* bqueues */
struct queue_info {
	char		*name;
	char		*description;
	int		 priority;
	int		 nice;
	int		 status;	/* QUEUE_STAT_* */
	int		 qjob_limit;
	int		 ujob_limit;
	float		 pjob_limit;
	int		 hjob_limit;
	int		 njobs;		/* slots */
	int		 npend;
	int		 nrun;
	int		 nssusp;
	int		 nususp;
	int		 nrsv;
	int		 accept_interval; /* seconds */
	float		 sched[NLOADIDX];
	float		 stop[NLOADIDX];
	uint32_t	 sched_set;
	uint32_t	 stop_set;
	char		*users;
	char		*hosts;
	char		*res_req;
	char		*dispatch_window;
	char		*run_window;
	int64_t		 runlimit;	/* minutes, -1 */
	int64_t		 cpulimit;
	int64_t		 memlimit;	/* KB */
	int		 proclimit;
	bool		 exclusive;
	struct kv_list	 extra;		/* other configured keys */
	/* The defaults of "default max" pairs (bqueues -l), -1 none. */
	int64_t		 runlimit_dflt;	/* minutes */
	int64_t		 cpulimit_dflt;
	int64_t		 memlimit_dflt;	/* KB */
	int		 proclimit_dflt;
	struct strv	 ext_thr;	/* thresholds_ext_to_strv */
};

/* busers: a user's or user group's limits (lsb.users) and slots. */
struct user_info {
	char		*name;
	bool		 is_group;
	int		 max_jobs;	/* MAX_JOBS, -1 unlimited */
	float		 jl_p;		/* JL/P, < 0 unlimited */
	int		 max_pend_jobs;	/* MAX_PEND_JOBS, -1 */
	int		 max_pend_slots; /* MAX_PEND_SLOTS, -1 */
	int		 njobs;		/* slots */
	int		 npend;
	int		 nrun;
	int		 nssusp;
	int		 nususp;
	int		 nrsv;
	int		 npjobs;	/* pending jobs, not slots */
};

/* blimits: one lsb.resources limit as one set of consumers holds it;
 * the consumers as blimits shows them ("-" for none), each resource as
 * used and maximum, -1 where the limit has none. */
struct limit_info {
	char		*name;
	char		*users;
	char		*queues;
	char		*hosts;
	char		*projects;
	int		 slots_used;
	int		 slots_max;
	int		 mem_used;	/* MB */
	int		 mem_max;
	int		 jobs_used;
	int		 jobs_max;
};

/* bwait: the condition's value now, an enum dep_value (depend.h). */
struct wait_reply {
	int		 value;
};

/* bapp: an application profile, its jobs' slots, its parameters. */
struct app_info {
	char		*name;
	char		*description;
	int		 njobs;		/* slots */
	int		 npend;
	int		 nrun;
	int		 nssusp;
	int		 nususp;
	int		 nrsv;
	int64_t		 runlimit;	/* minutes, -1 */
	int64_t		 cpulimit;	/* minutes, -1 */
	int64_t		 memlimit;	/* KB, -1 */
	int		 max_job_preempt; /* -1 */
	int		 rerunnable;	/* -1 not set, 0, 1 */
	char		*ctl_suspend;	/* NULL: the queue's */
	char		*ctl_resume;
	char		*ctl_terminate;
	struct kv_list	 extra;		/* every configured key */
};

/* bhosts */
struct host_info {
	char		*name;
	int		 status;	/* HOST_STAT_* */
	float		 cpuf;
	int		 max_slots;	/* -1 unlimited */
	int		 jlu;
	int		 njobs;		/* slots of started jobs */
	int		 nrun;
	int		 nssusp;
	int		 nususp;
	int		 nrsv;
	char		*dispatch_window;
	float		 load[NLOADIDX];
	float		 sched[NLOADIDX];
	float		 stop[NLOADIDX];
	uint32_t	 sched_set;
	uint32_t	 stop_set;
	uint32_t	 busy_mask;	/* indices over their loadSched */
	int		 mig;
	float		 rsv[NLOADIDX];	/* reserved by running jobs' rusage */
	struct strv	 ext_thr;	/* thresholds_ext_to_strv */
	char		*comment;	/* closed_Adm: the hclose comment */
};

/* bsub -K progress. */
#define JE_DISPATCHED	1
#define JE_FINISHED	2
struct job_event {
	int		 what;
	int64_t		 jobid;
	char		*host;
	int		 status;
	int		 exit_status;
};

/* bstop bresume brequeue btop bbot bswitch brun bmig */
#define JC_STOP		1	/* PEND to PSUSP, started to USUSP */
#define JC_RESUME	2	/* PSUSP to PEND, USUSP to SSUSP */
#define JC_REQUEUE	3
#define JC_TOP		4	/* move among equal priority */
#define JC_BOTTOM	5
#define JC_SWITCH	6	/* to queue */
#define JC_FORCE	7	/* brun -m hosts */
#define JC_MIG		8	/* bmig */
#define JC_CHKPNT	9	/* bchkpnt; position: -p minutes, -1 none */
#define JC_F_DONE	0x01	/* brequeue -d */
#define JC_F_EXIT	0x02	/* brequeue -e */
#define JC_F_ALL	0x04	/* brequeue -a */
#define JC_F_RUN	0x08	/* brequeue -r */
#define JC_F_HOLD	0x10	/* brequeue -H */
#define JC_F_FORCE	0x20	/* brun -f, bmig -f */
#define JC_F_KILL	0x40	/* bchkpnt -k */
struct ctrl_req {
	int		 op;
	uint32_t	 flags;
	int		 position;	/* btop/bbot, default 1 */
	char		*queue;		/* bswitch: the destination */
	struct strv	 hosts;		/* brun, bmig -m */
	char		*user;		/* filters, as for bkill */
	char		*src_queue;
	char		*host;
	char		*job_name;
	struct job_id	*ids;		/* jobid 0 = all matching */
	uint32_t	 nids;
};

/* bmod: which fields of req to set, which to reset (-Xn forms). */
#define MOD_QUEUE	0x000001
#define MOD_NAME	0x000002
#define MOD_NPROCS	0x000004
#define MOD_RESREQ	0x000008
#define MOD_RUNLIMIT	0x000010
#define MOD_MEMLIMIT	0x000020
#define MOD_OUT		0x000040
#define MOD_ERR		0x000080
#define MOD_PRIO	0x000100
#define MOD_DEPEND	0x000200
#define MOD_HOSTS	0x000400
#define MOD_BEGIN	0x000800
#define MOD_TERM	0x001000
#define MOD_PROJECT	0x002000
#define MOD_MAIL	0x004000
#define MOD_RERUN	0x008000
#define MOD_CPULIMIT	0x010000
#define MOD_PRE		0x020000
#define MOD_POST	0x040000
#define MOD_NOTIFY	0x080000	/* -B -N */
#define MOD_EXCL	0x100000
#define MOD_CWD		0x200000
struct mod_req {
	int64_t		 jobid;
	int32_t		 idx;
	uint32_t	 set;		/* MOD_* taken from req */
	uint32_t	 del;		/* MOD_* reset to the default */
	struct submit_req req;
};

/* bpeek: mbatchd asks the execution host; tag pairs the answer. */
/* brestart: a new job from the checkpoint in dir/jobid (or
 * dir/jobid[idx]); req holds the options given, flagged as bsub flags
 * them (SUB_QUEUE, SUB_HOST, ...), overriding the old job's. */
struct restart_req {
	char		*dir;		/* checkpoint_dir, absolute */
	int64_t		 jobid;
	int		 idx;
	uint32_t	 flags;		/* RESTART_F_* */
	struct submit_req req;
};
#define RESTART_F_FORCE	0x01	/* -f */

struct peek_req {
	int64_t		 jobid;
	int32_t		 idx;
	int64_t		 offset;	/* of stdout, -1: the last max bytes */
	int		 max;		/* bytes */
	uint32_t	 tag;
	uint32_t	 run_count;
	/* With jobid 0: the caller's most recent started job that matches. */
	char		*queue;		/* -q */
	char		*host;		/* -m */
	char		*job_name;	/* -J */
	uint32_t	 flags;		/* PEEK_F_* */
};
#define PEEK_F_FOLLOW	0x01	/* bpeek -f: the end of a job just ended */
struct peek_reply {
	int		 code;		/* LSBE_* */
	uint32_t	 tag;
	int64_t		 offset;	/* where data starts */
	int64_t		 next;		/* offset after it */
	bool		 finished;	/* the job has ended */
	char		*path;		/* the file read, for the heading */
	char		*data;
	int64_t		 jobid;		/* the job peeked at */
	int32_t		 idx;
};

/* badmin */
#define ADM_HOST_OPEN	1
#define ADM_HOST_CLOSE	2
#define ADM_QUEUE_OPEN	3
#define ADM_QUEUE_CLOSE	4
#define ADM_QUEUE_ACT	5
#define ADM_QUEUE_INACT	6
#define ADM_RECONFIG	7
#define ADM_MBD_RESTART	8
#define ADM_HOST_RESTART	9	/* badmin hrestart: the hosts' sbatchds */
#define ADM_HOST_SHUTDOWN	10	/* badmin hshutdown */
#define ADM_STATE_DUMP		11	/* badmin statedump: one line a result */
struct admin_req {
	int		 op;
	struct strv	 names;		/* hosts or queues; empty = all */
	char		*comment;	/* -C */
};
struct admin_result {
	char		*name;
	int		 code;		/* LSBE_* */
	char		*detail;
};

/* sbatchd and its supervisors report a job's state with this. */
struct job_status {
	int64_t		 jobid;
	int32_t		 idx;
	int		 status;	/* JOB_STAT_* */
	int		 pid;
	int		 pgid;
	int64_t		 start_time;
	int64_t		 end_time;
	int		 exit_status;	/* raw wait status */
	int		 exit_reason;	/* TERM_* set by whoever signalled */
	double		 cpu_time;
	int64_t		 mem_kb;
	int64_t		 max_mem_kb;
	int64_t		 avg_mem_kb;
	int64_t		 swap_kb;
	char		*exec_cwd;
	char		*exec_home;
	char		*exec_user;
	uint32_t	 run_count;	/* which dispatch this is about */
	int		 susp_reason;	/* SUSP_* when suspended */
	int		 pre_exec_failed; /* exit status, 0 = none or ok */
	int		 post_exec_status; /* -1 none, else its wait status */
	int		 susp_sub;	/* SUSP_LOAD: the load index */
};

struct sbd_register {
	char		*host;
	int		 pid;
	struct job_status *jobs;	/* every job it controls */
	uint32_t	 njobs;
};
struct sbd_register_reply {
	char		*cluster;
	int		 job_terminate_interval;
	int		 sbd_sleep_time;
};

/* Everything an execution host needs to run a job. */
struct job_spec {
	int64_t		 jobid;
	int32_t		 idx;
	uint32_t	 run_count;
	uint32_t	 options;
	uint32_t	 options2;
	char		*user;
	int		 uid;
	char		*queue;
	char		*cluster;
	char		*job_name;
	char		*command;	/* command line or script text */
	char		*cwd;		/* -cwd, else the submission cwd */
	char		*sub_cwd;
	char		*sub_home;
	char		*in_file;
	char		*out_file;
	char		*err_file;
	char		*from_host;
	char		*project;
	char		*mail_user;
	char		*login_shell;
	char		*job_starter;
	struct strv	 exec_hosts;	/* one per slot */
	struct strv	 env;
	int64_t		 rlimits[LSF_RLIM_NLIMITS];
	int64_t		 submit_time;
	int		 umask;
	int		 nice;
	int		 term_interval;	/* JOB_TERMINATE_INTERVAL, seconds */
	int64_t		 term_time;	/* -t deadline, 0 = none */
	char		*pre_exec;	/* -E */
	char		*post_exec;	/* -Ep */
	char		*queue_pre_exec; /* lsb.queues PRE_EXEC */
	char		*queue_post_exec; /* lsb.queues POST_EXEC */
	char		*requeue_exit;	/* REQUEUE_EXIT_VALUES: no mail then */
	char		*outdir;	/* -outdir, expanded: made first */
	bool		 make_cwd;	/* -cwd had patterns: made first */
	/* The queue's JOB_CONTROLS at dispatch, one action's text each
	 * (jobctl.h); NULL or empty: LSF's default. */
	char		*ctl_suspend;
	char		*ctl_resume;
	char		*ctl_terminate;
	/* Checkpointing: dir/jobID (NULL: not checkpointable), the method
	 * (echkpnt.<method>, erestart.<method>; NULL: echkpnt, erestart),
	 * and whether this run restarts from the checkpoint (erestart). */
	char		*chkpnt_dir;
	char		*chkpnt_method;
	bool		 chkpnt_restart;
	/* The rest of pre- and post-execution, in the order they run:
	 * HOST_PRE_EXEC of the queue, then the profile's (as root), the
	 * queue's PRE_EXEC above (as queue_prepost_user, NULL: the job's
	 * user), then -E, or without it the profile's PRE_EXEC (as
	 * app_prepost_user); afterwards the other way round. */
	char		*host_pre_exec;		/* lsb.queues */
	char		*host_post_exec;
	char		*app_host_pre_exec;	/* lsb.applications */
	char		*app_host_post_exec;
	char		*app_pre_exec;
	char		*app_post_exec;
	char		*queue_prepost_user;	/* PRE_POST_EXEC_USER */
	char		*app_prepost_user;
	/* JOB_WARNING_ACTION (a signal name or CHKPNT; NULL none), sent
	 * warning_time seconds before the run limit or the deadline. */
	char		*warning_action;
	int		 warning_time;
};

#define SBD_SIG_SUSPEND	(-1)	/* queue SUSPEND action */
#define SBD_SIG_RESUME	(-2)
#define SBD_SIG_CHKPNT	(-3)	/* run echkpnt; MSG_SBD_CHKPNT_DONE */
struct sbd_signal {
	int64_t		 jobid;
	int32_t		 idx;
	int		 sig;		/* number, SIG_KILL_SEQ or SBD_SIG_* */
	int		 reason;	/* TERM_* to record if it dies */
	uint32_t	 run_count;
	uint32_t	 flags;		/* SIG_F_REQUEUE|HOLD|MIG: its end
					 * is not the job's (no mail) */
	int		 sub;		/* SUSP_LOAD: the load index */
};
/* A started job's limits as they now are (bmod -W -c -M): the run,
 * CPU and memory limits take effect at once on the execution host. */
struct sbd_limits {
	int64_t		 jobid;
	int32_t		 idx;
	uint32_t	 run_count;
	int64_t		 rlimits[LSF_RLIM_NLIMITS];
	int64_t		 term_time;	/* -t deadline, 0 = none */
};
/*
 * What sbatchd needs to suspend and resume a started job by load
 * (MSG_SBD_JOB_SUSP): its queue's part, and its host's (the same in every
 * job of the host, the latest wins).  Sent after the job's start, again
 * on registration, bswitch and badmin reconfig.
 */
struct sbd_job_susp {
	int64_t		 jobid;
	int32_t		 idx;
	uint32_t	 run_count;
	int		 qprio;		/* the queue's PRIORITY */
	bool		 forced;	/* brun -f: never suspended */
	float		 qsched[NLOADIDX];	/* lsb.queues thresholds */
	float		 qstop[NLOADIDX];
	uint32_t	 qsched_set;
	uint32_t	 qstop_set;
	char		*stop_cond;	/* STOP_COND, or NULL */
	char		*resume_cond;	/* RESUME_COND, or NULL */
	float		 hsched[NLOADIDX];	/* lsb.hosts thresholds */
	float		 hstop[NLOADIDX];
	uint32_t	 hsched_set;
	uint32_t	 hstop_set;
	int		 sleep_time;	/* SBD_SLEEP_TIME, seconds */
	int		 pg_susp_it;	/* PG_SUSP_IT, seconds */
	struct strv	 qext;		/* external thresholds, lines of */
	struct strv	 hext;		/*   thresholds_ext_to_strv */
};
struct job_ack {
	int64_t		 jobid;
	int32_t		 idx;
	int		 status;
	uint32_t	 run_count;
};

/* LIM */
/* MSG_LIM_SUBSCRIBE: what to push as it changes. */
#define LIM_SUB_LOADS	0x01	/* MSG_LIM_LOAD_LIST (master only) */
#define LIM_SUB_MASTER	0x02	/* MSG_LIM_CLUSTER_INFO */
#define LIM_SUB_OWN	0x04	/* MSG_LIM_HOST_LOAD: this LIM's own host,
				 * each time it samples (sbatchd) */

struct lim_host {
	char		*name;
	int		 status;	/* LIM_* bits */
	float		 load[NLOADIDX];
	char		*type;
	char		*model;
	float		 cpuf;
	int		 ncpus;
	int		 ncores;
	int		 nthreads;
	int		 maxmem;	/* MB */
	int		 maxswp;
	int		 maxtmp;
	bool		 server;
	struct strv	 resources;
	struct strv	 ext;		/* ELIMs' external indices: name=value */
};
struct lim_load_list {
	char		*master;
	struct lim_host	*hosts;
	uint32_t	 nhosts;
};
/* The first frame of a handshake: a claim, not yet proven. */
struct auth_hello {
	uint32_t	 from_role;	/* enum auth_role */
	char		*from_host;
	uint32_t	 to_role;
	char		*to_host;
	char		*nonce;		/* the client's */
};
struct lim_probe_reply {
	char		*host;
	char		*master;	/* who it believes is master */
};
struct lim_cluster_info {
	char		*cluster;
	char		*master;
	char		*product;
	struct strv	 admins;
	int		 nhosts;
	int		 nservers;
};

/*
 * The replies that are a counted list of items (u32 n, then n items):
 * described like every other message, so that the reader's bounds come
 * from the item's field list, not from a size written by hand.
 */
struct job_result_list {			/* MSG_SIGNAL_REPLY */
	uint32_t	 n;
	struct job_result *v;
};
struct queue_list {				/* MSG_QUEUE_LIST */
	uint32_t	 n;
	struct queue_info *v;
};
struct host_list {				/* MSG_HOST_LIST */
	uint32_t	 n;
	struct host_info *v;
};
struct admin_result_list {			/* MSG_ADMIN_REPLY */
	uint32_t	 n;
	struct admin_result *v;
};
struct user_list {				/* MSG_USER_LIST */
	uint32_t	 n;
	struct user_info *v;
};
struct app_list {				/* MSG_APP_LIST */
	uint32_t	 n;
	struct app_info *v;
};
struct limit_list {				/* MSG_LIMIT_LIST */
	uint32_t	 n;
	struct limit_info *v;
};

/*
 * Fairshare, as bqueues -l and bhpart show it: the share trees of some
 * queues (a queue of another's FAIRSHARE_QUEUES finds its master's) or
 * host partitions, each with its nodes in tree order.
 */
struct fs_query {				/* MSG_FS_QUERY */
	char		*kind;		/* "queue" or "hpart" */
	struct strv	 names;		/* empty = all */
};
struct fs_row {
	char		*name;		/* user, group, "default", "others" */
	int		 parent;	/* row index; -1 under the root */
	int		 depth;		/* 1 under the root */
	bool		 group;		/* an inner node: rows of its own */
	int		 shares;
	double		 priority;	/* dynamic priority, now */
	int		 started;	/* slots of running jobs */
	int		 reserved;	/* slots reserved for pending ones */
	double		 cpu_time;	/* seconds, decayed */
	int64_t		 run_time;	/* seconds */
	double		 adjust;	/* the plug-in's value */
};
struct fs_info {
	char		*kind;		/* "queue" or "hpart" */
	char		*name;		/* the master queue or the partition */
	struct strv	 members;	/* the queues it orders, or HOSTS */
	char		*shares;	/* USER_SHARES: "[a, 10] [b, 1]" */
	uint32_t	 nrows;
	struct fs_row	*rows;		/* parents before children */
};
struct fs_list {				/* MSG_FS_LIST */
	uint32_t	 n;
	struct fs_info	*v;
};

/*
 * Every struct that is the body of a message on its own (some carry
 * several types: job_status is MSG_SBD_JOB_STATUS, MSG_JS_HELLO and
 * MSG_JS_STATUS), then those that travel only inside another.
 */
#define PROTO_MESSAGES(M)						\
	M(msg_error) M(kv_list) M(submit_req) M(submit_reply)		\
	M(job_query) M(job_list) M(sig_req) M(job_result_list)		\
	M(queue_list) M(host_list) M(job_event) M(job_status)		\
	M(sbd_register) M(sbd_register_reply) M(job_spec)		\
	M(sbd_signal) M(job_ack) M(lim_host) M(lim_load_list)		\
	M(lim_probe_reply) M(lim_cluster_info) M(ctrl_req) M(mod_req)	\
	M(peek_req) M(peek_reply) M(admin_req) M(admin_result_list)	\
	M(user_list) M(wait_reply) M(sbd_limits) M(sbd_job_susp)	\
	M(app_list) M(limit_list) M(fs_query) M(fs_list)		\
	M(restart_req) M(submit_pack) M(submit_pack_reply)		\
	M(auth_hello)
#define PROTO_ITEMS(M)							\
	M(job_info) M(job_result) M(queue_info) M(host_info)		\
	M(admin_result) M(user_info) M(app_info) M(limit_info)		\
	M(fs_info) M(fs_row) M(pack_result)

/*
 * Codec: x_pack appends the fields to an open frame; x_unpack reads them
 * (true when all were read; the caller checks rbuf_end); x_release frees
 * what unpack allocated and zeroes the struct.
 */
#define PROTO_DECL(x)							\
	void	 x##_pack(struct wbuf *, const struct x *);		\
	bool	 x##_unpack(struct rbuf *, struct x *);			\
	void	 x##_release(struct x *);
PROTO_MESSAGES(PROTO_DECL)
PROTO_ITEMS(PROTO_DECL)
#undef PROTO_DECL

/*
 * A whole message, typed: x_frame appends one frame of the given type
 * and seq (no flags) holding *x to w, which may hold frames already.
 * This is how a message is built at its caller, with the compiler
 * checking that the struct is the one the packer takes:
 *
 *	wbuf_init(&w);
 *	job_ack_frame(&w, MSG_SBD_JOB_ACK, 0, &ack);
 *	conn_send(c, &w);
 */
#define PROTO_FRAME_DECL(x)						\
	void	 x##_frame(struct wbuf *, uint16_t type, uint32_t seq,	\
		    const struct x *);
PROTO_MESSAGES(PROTO_FRAME_DECL)
#undef PROTO_FRAME_DECL

void	 submit_req_init(struct submit_req *);
void	 job_info_init(struct job_info *);
bool	 job_list_unpack_reuse(struct rbuf *, struct job_list *,
	    uint32_t *cap);
void	 job_status_init(struct job_status *);
void	 job_spec_init(struct job_spec *);
void	 kv_add(struct kv_list *, const char *key, const char *val);

/* A whole message in one call: begin, pack, end frame. */
void	 msg_put_error(struct wbuf *, uint32_t seq, int code,
	    const char *context, const char *detail);
void	 msg_put_empty(struct wbuf *, uint16_t type, uint32_t seq);

#endif
