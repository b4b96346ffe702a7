/*
 * Values with a meaning outside this program: job state bits, submission
 * option bits, load indices, termination reasons.  They appear in lsb.events
 * and on the wire, and users' scripts read them from lsb.events, so they
 * keep LSF's numbering.  Never renumber.
 */
#ifndef LSF_LSF_H
#define LSF_LSF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LSF_VERSION_STR		"10.1"		/* event record version */
#define LSF_PRODUCT_STR		"IBM Spectrum LSF Standard 10.1.0.13"
#define PROJECT_NAME		"lsf-sched"
#define PROJECT_VERSION		"0.1.0"
/* Where LSF prints its build date ("IBM Spectrum LSF Standard 10.1.0.13,
 * Jul 08 2016"): the date of this version, in that form. */
#define PROJECT_DATE		"Nov 24 2026"

/* Default ports (lsf.conf LSF_LIM_PORT, LSB_MBD_PORT, LSB_SBD_PORT). */
#define DEF_LIM_PORT		7869
#define DEF_MBD_PORT		6881
#define DEF_SBD_PORT		6882

/* The job history's WAL bound, MB (lsf.conf LSB_HIST_WAL_LIMIT). */
#define DEF_HIST_WAL_LIMIT	64

#define MAXHOSTNAMELEN_LSF	256

/* In LSB_SHAREDIR/<cluster>/logdir: "host pid" of the running mbatchd,
 * for the commands (its lock file, mbatchd.lock, is its own). */
#define MBD_HOST_FILE		"mbatchd.host"
/* The descriptor on which an mbatchd started by sbatchd says, with one
 * byte, that it serves its port (sbd-child.c). */
#define MBD_READY_ENV		"LSF_MBD_READY_FD"

/* Job states (jStatus). */
#define JOB_STAT_NULL		0x00
#define JOB_STAT_PEND		0x01
#define JOB_STAT_PSUSP		0x02
#define JOB_STAT_RUN		0x04
#define JOB_STAT_SSUSP		0x08
#define JOB_STAT_USUSP		0x10
#define JOB_STAT_EXIT		0x20
#define JOB_STAT_DONE		0x40
#define JOB_STAT_PDONE		0x80
#define JOB_STAT_PERR		0x100
#define JOB_STAT_WAIT		0x200
#define JOB_STAT_UNKWN		0x10000

/* Job exceptions (lsb.queues JOB_OVERRUN, JOB_UNDERRUN, JOB_IDLE). */
#define JOB_EXC_OVERRUN		0x01
#define JOB_EXC_UNDERRUN	0x02
#define JOB_EXC_IDLE		0x04

#define JOB_STAT_PENDING(s)	((s) & (JOB_STAT_PEND | JOB_STAT_PSUSP))
#define JOB_STAT_STARTED(s)	((s) & (JOB_STAT_RUN | JOB_STAT_SSUSP | \
				    JOB_STAT_USUSP | JOB_STAT_UNKWN))
#define JOB_STAT_FINISHED(s)	((s) & (JOB_STAT_EXIT | JOB_STAT_DONE))
#define JOB_STAT_SUSPENDED(s)	((s) & (JOB_STAT_PSUSP | JOB_STAT_SSUSP | \
				    JOB_STAT_USUSP))

/* The STAT column word for a state. */
const char	*job_stat_str(int status);

/* bsub options (JOB_NEW "options"). */
#define SUB_JOB_NAME		0x01
#define SUB_QUEUE		0x02
#define SUB_HOST		0x04
#define SUB_IN_FILE		0x08
#define SUB_OUT_FILE		0x10
#define SUB_ERR_FILE		0x20
#define SUB_EXCLUSIVE		0x40
#define SUB_NOTIFY_END		0x80
#define SUB_NOTIFY_BEGIN	0x100
#define SUB_USER_GROUP		0x200
#define SUB_CHKPNT_PERIOD	0x400
#define SUB_CHKPNT_DIR		0x800
#define SUB_RESTART_FORCE	0x1000
#define SUB_RESTART		0x2000
#define SUB_RERUNNABLE		0x4000
#define SUB_WINDOW_SIG		0x8000
#define SUB_HOST_SPEC		0x10000
#define SUB_DEPEND_COND		0x20000
#define SUB_RES_REQ		0x40000
#define SUB_OTHER_FILES		0x80000
#define SUB_PRE_EXEC		0x100000
#define SUB_LOGIN_SHELL		0x200000
#define SUB_MAIL_USER		0x400000
#define SUB_MODIFY		0x800000
#define SUB_MODIFY_ONCE		0x1000000
#define SUB_PROJECT_NAME	0x2000000
#define SUB_INTERACTIVE		0x4000000
#define SUB_PTY			0x8000000
#define SUB_PTY_SHELL		0x10000000

/* bsub options2. */
#define SUB2_HOLD		0x01
#define SUB2_MODIFY_CMD		0x02
#define SUB2_BSUB_BLOCK		0x04
#define SUB2_HOST_NT		0x08
#define SUB2_HOST_UX		0x10
#define SUB2_QUEUE_CHKPNT	0x20
#define SUB2_QUEUE_RERUNNABLE	0x40
#define SUB2_IN_FILE_SPOOL	0x80
#define SUB2_JOB_CMD_SPOOL	0x100
#define SUB2_JOB_PRIORITY	0x200
#define SUB2_USE_DEF_PROCLIMIT	0x400
#define SUB2_MODIFY_RUN_JOB	0x800
#define SUB2_MODIFY_PEND_JOB	0x1000
#define SUB2_OUT_OVERWRITE	0x2000000	/* -oo (project extension bit) */
#define SUB2_ERR_OVERWRITE	0x4000000	/* -eo (project extension bit) */

/* Resource limits (JOB_NEW rLimits[], in LSF's order). */
enum {
	LSF_RLIMIT_CPU, LSF_RLIMIT_FSIZE, LSF_RLIMIT_DATA, LSF_RLIMIT_STACK,
	LSF_RLIMIT_CORE, LSF_RLIMIT_RSS, LSF_RLIMIT_NOFILE,
	LSF_RLIMIT_OPEN_MAX, LSF_RLIMIT_SWAP, LSF_RLIMIT_RUN,
	LSF_RLIMIT_PROCESS, LSF_RLIM_NLIMITS
};
#define DEFAULT_RLIMIT		(-1)

/* Load indices, in lsload's column order. */
enum {
	LI_R15S, LI_R1M, LI_R15M, LI_UT, LI_PG, LI_IO, LI_LS, LI_IT,
	LI_TMP, LI_SWP, LI_MEM, NLOADIDX
};
#define INFINIT_LOAD		((float)1e30)	/* "no threshold"/unknown */

struct load_index_info {
	const char	*name;
	const char	*desc;
	bool		 increasing;	/* bigger value = more loaded */
};
extern const struct load_index_info load_index_info[NLOADIDX];
/* Index of a load index name (case-insensitive), or -1. */
int	load_index_lookup(const char *);

/* Termination reasons (exitInfo, bjobs -o exit_reason). */
enum term_reason {
	TERM_UNKNOWN = 0, TERM_PREEMPT = 1, TERM_WINDOW = 2, TERM_LOAD = 3,
	TERM_OTHER = 4, TERM_RUNLIMIT = 5, TERM_DEADLINE = 6,
	TERM_PROCESSLIMIT = 7, TERM_FORCE_OWNER = 8, TERM_FORCE_ADMIN = 9,
	TERM_REQUEUE_OWNER = 10, TERM_REQUEUE_ADMIN = 11, TERM_CPULIMIT = 12,
	TERM_CHKPNT = 13, TERM_OWNER = 14, TERM_ADMIN = 15, TERM_MEMLIMIT = 16,
	TERM_EXTERNAL_SIGNAL = 17, TERM_RMS = 18, TERM_ZOMBIE = 19,
	TERM_SWAP = 20, TERM_THREADLIMIT = 21, TERM_SLURM = 22,
	TERM_BUCKET_KILL = 23, TERM_CTRL_PID = 24, TERM_CWD_NOTEXIST = 25,
	TERM_NREASONS
};
/* "TERM_OWNER" and "job killed by owner" for a reason; NULL if none. */
const char	*term_reason_name(int);
const char	*term_reason_text(int);

/* Pending reasons (what bjobs -p prints). */
enum pend_reason {
	PEND_NONE = 0,
	PEND_NEW_JOB,			/* New job is waiting for scheduling */
	PEND_USER_STOP,			/* suspended by the user while pending */
	PEND_ADMIN_STOP,		/* suspended by LSF admin while pending */
	PEND_QUEUE_INACT,		/* queue inactivated by admin */
	PEND_QUEUE_WINDOW,		/* queue inactivated by its time windows */
	PEND_QUEUE_JOB_LIMIT,		/* queue reached its job slot limit */
	PEND_NO_HOST,			/* no host eligible: per-host reasons */
	PEND_HOST_REQ,			/* -m hosts are not usable by the queue */
	PEND_BAD_RESREQ,		/* cannot evaluate the resource request */
	PEND_LOAD_UNAVAIL,		/* Load information unavailable */
	PEND_NO_SERVER,			/* no server host in the cluster */
	PEND_BEGIN_TIME,		/* bsub -b not reached */
	PEND_DEPEND,			/* -w not satisfied yet */
	PEND_DEP_INVALID,		/* -w can never be satisfied */
	PEND_PRE_EXEC,			/* pre-exec failed; retried later */
	PEND_QUEUE_USER_LIMIT,		/* UJOB_LIMIT */
	PEND_USER_LIMIT,		/* lsb.users MAX_JOBS */
	PEND_ARRAY_LIMIT,		/* the array's %N */
	PEND_MIGRATING,			/* bmig: waiting to be rescheduled */
	PEND_REQUEUED,			/* waiting after brequeue */
	/* lsb.resources limits, by what they limit (slot, jobs, mem, in
	 * that order: PEND_RL_SLOT_* + POL_RL_*) and the consumers that
	 * name them. */
	PEND_RL_CLUSTER,		/* every consumer together */
	PEND_RL_CLUSTER_JOBS,
	PEND_RL_CLUSTER_MEM,
	PEND_RL_QUEUE,			/* a queue's */
	PEND_RL_QUEUE_JOBS,
	PEND_RL_QUEUE_MEM,
	PEND_RL_USER,			/* a user's or user group's */
	PEND_RL_USER_JOBS,
	PEND_RL_USER_MEM,
	PEND_RL_PROJECT,		/* a project's */
	PEND_RL_PROJECT_JOBS,
	PEND_RL_PROJECT_MEM,
	PEND_FAIRSHARE,			/* fairshare: others' turn first */
	PEND_NO_SHARE,			/* fairshare: the user has no share */
	PEND_HOST_LOST,			/* rerun: its host became unavailable */
	PEND_PRE_EXEC_LIMIT,		/* PSUSP: LOCAL_MAX_PREEXEC_RETRY */
	PEND_REQUEUE_LIMIT,		/* PSUSP: MAX_JOB_REQUEUE reached */
	PEND_NREASONS
};

/* Per-host reasons a host could not take a job (counted in bjobs -p). */
enum host_reason {
	HR_NONE = 0,
	HR_CLOSED_ADM,			/* Closed by LSF administrator */
	HR_FULL,			/* Job slot limit reached */
	HR_LOAD_SCHED,			/* Load threshold reached */
	HR_QUEUE_LOAD,			/* Queue's load threshold reached */
	HR_RESREQ,			/* resource requirements not satisfied */
	HR_UNAVAIL,			/* Load information unavailable / down */
	HR_NOT_USED_BY_QUEUE,		/* Not specified in the queue's HOSTS */
	HR_NOT_REQUESTED,		/* Not specified in job submission (-m) */
	HR_EXCLUSIVE,			/* exclusive job running / requested */
	HR_NOT_ENOUGH,			/* Not enough job slot(s) */
	HR_JUST_STARTED,		/* Just started a job recently */
	HR_WINDOW,			/* host dispatch window closed */
	HR_EXCL_REQ,			/* -x job needs an empty host */
	HR_QUEUE_HOST_LIMIT,		/* HJOB_LIMIT */
	HR_QUEUE_PROC_LIMIT,		/* PJOB_LIMIT */
	HR_HOST_USER_LIMIT,		/* lsb.hosts JL/U */
	HR_USER_PROC_LIMIT,		/* lsb.users JL/P */
	HR_RESERVED,			/* rusage: not enough left */
	HR_LOCKED,			/* lsadmin limlock, LIM run window */
	HR_RLIMIT_SLOT,			/* lsb.resources limit on hosts */
	HR_RLIMIT_JOBS,
	HR_RLIMIT_MEM,
	HR_EXIT_EXCLUDED,		/* REQUEUE_EXIT_VALUES EXCLUDE(v) */
	HR_NREASONS
};
const char	*pend_reason_text(int);
const char	*host_reason_text(int);

/* Why a started job is suspended (bjobs -s, -l). */
enum susp_reason {
	SUSP_NONE = 0,
	SUSP_USER_STOP,			/* bstop by its owner */
	SUSP_ADMIN_STOP,		/* bstop by an administrator */
	SUSP_USER_RESUME,		/* bresumed; waiting for the load */
	SUSP_QUEUE_WINDOW,		/* the queue's RUN_WINDOW closed */
	SUSP_LOAD,			/* a loadStop threshold */
	SUSP_HOST_LOCK,			/* lsadmin limlock */
	SUSP_STOP_COND,			/* the queue's STOP_COND is true */
	SUSP_PREEMPTED,			/* preempted; sub: the preemptor */
	SUSP_NREASONS
};
const char	*susp_reason_text(int);
/* LSF's bit for it in lsbatch.h (SUSP_USER_STOP 0x2, ...): the bitmap
 * JOB_CONTROLS commands get as LSB_SUSP_REASONS; 0 for none. */
int		 susp_reason_lsf_bits(int);
/*
 * The whole text bjobs -l/-s show, without the leading space and the
 * trailing ';': SUSP_LOAD names the index sub ("Host load exceeded
 * threshold: 1-minute CPU run queue length (r1m)"), or for an external
 * one (sub >= NLOADIDX) ext, its description and name, when given;
 * SUSP_PREEMPTED names the preempting job sub ("The job was preempted
 * by job <123>").
 * Returns buf.
 */
const char	*susp_reason_fmt(int reason, int sub, const char *ext,
		    char *buf, size_t len);

/* Host status bits in mbatchd (bhosts). */
#define HOST_STAT_OK		0x00
#define HOST_STAT_BUSY		0x01	/* a loadSched threshold exceeded */
#define HOST_STAT_WIND		0x02	/* dispatch window closed */
#define HOST_STAT_DISABLED	0x04	/* badmin hclose */
#define HOST_STAT_LOCKED	0x08	/* lsadmin limlock */
#define HOST_STAT_FULL		0x10	/* MXJ slots in use */
#define HOST_STAT_UNREACH	0x20	/* LIM up, sbatchd not */
#define HOST_STAT_UNAVAIL	0x40	/* LIM and sbatchd down */
#define HOST_STAT_NO_LIM	0x80	/* LIM down, sbatchd up */
#define HOST_STAT_EXCLUSIVE	0x100	/* an exclusive job runs there */

/* Queue status bits (bqueues). */
#define QUEUE_STAT_OPEN		0x01
#define QUEUE_STAT_ACTIVE	0x02
#define QUEUE_STAT_RUN		0x04	/* dispatch window open */
#define QUEUE_STAT_NOPERM	0x08
#define QUEUE_STAT_DISC		0x10
#define QUEUE_STAT_RUNWIN_CLOSE	0x20

/* lsload host status bits (from LIM). */
#define LIM_UNAVAIL		0x01
#define LIM_BUSY		0x02
#define LIM_LOCKU		0x04
#define LIM_LOCKW		0x08
#define LIM_RESDOWN		0x10
#define LIM_SBDDOWN		0x20
#define LIM_EXCL_LOCK		0x40	/* lockU: an exclusive job runs */

/* Signal names without "SIG", as bkill -s and JOB_SIGNAL use them. */
int		 sig_from_name(const char *);	/* -1 if unknown */
const char	*sig_name(int);			/* "KILL"; NULL if unknown */

#endif
