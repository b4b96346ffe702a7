/*
 * sbatchd: runs the jobs mbatchd dispatches to this host and reports
 * their states; on the master host it also starts mbatchd and restarts it
 * when it dies.
 *
 *	sbatchd.c	main, sockets, signals, the LIM subscription; stop
 *			and restart (badmin hshutdown, hrestart)
 *	sbd-mbd.c	the connection to mbatchd: register, start, signal, ack
 *	sbd-jobs.c	the job table, the state directory, supervisors
 *	sbd-spare.c	spare supervisors, forked before their jobs come
 *	sbd-child.c	starting and watching mbatchd on the master host
 *	sbd-user.c	job users' passwd entries and groups, kept a while
 *	jobsup.c	the job's supervisor, forked ahead, kept for more jobs
 *	jobsup-exec.c	what runs in the job's own process before exec
 *	jobsup-prepost.c the pre- and post-execution commands
 *	jobsup-limits.c	run, CPU and memory limits, the deadline
 *	jobsup-usage.c	what the job's processes use
 *	jobsup-report.c	LSF's job report appended to the output file
 *	jobsup-mail.c	the output spool and the job's mail
 *	jobsup-control.c the queue's JOB_CONTROLS commands
 *	jobsup-chkpnt.c	echkpnt and erestart, run as the job's user
 *	sbd-peek.c	bpeek: reading a running job's output
 *	sbd-load.c	suspending and resuming jobs by the host's load
 *
 * Each job has a supervisor process, the job's parent, in its own
 * session (forked before the job came, and kept for later jobs).  It
 * waits for the job, signals it on request, and writes the job's final
 * status to the job's directory before it is done with it, so a job
 * keeps running, and its end is not lost, while sbatchd restarts.
 */
#ifndef SBD_H
#define SBD_H

#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <event2/event.h>

#include "conf.h"
#include "auth.h"
#include "conn.h"
#include "daemon.h"
#include "net.h"
#include "proto.h"

struct sjob {
	int64_t		 jobid;
	int32_t		 idx;
	uint32_t	 run_count;
	char		*dir;		/* its directory in the state dir */
	char		*user;
	struct job_status st;		/* the latest state */
	struct conn	*sup;		/* its supervisor, when connected */
	pid_t		 sup_pid;
	bool		 finished;	/* final status known */
	bool		 dirty;		/* changed since mbatchd last heard */
	bool		 have_sig;	/* a request waits for the supervisor */
	bool		 sup_seen;	/* its supervisor has been alive */
	struct sbd_signal pend_sig;
	bool		 have_lim;	/* new limits wait for the supervisor */
	struct sbd_limits pend_lim;
	uid_t		 uid;		/* its user, for reading its output */
	gid_t		 gid;
	char		*out_path;	/* -o expanded (maybe relative), or NULL */
	uint64_t	 peek_ms;	/* last bpeek (mono_ms) */
	uint64_t	 linger_ms;	/* acknowledged; removed at this time */
	bool		 post_exec;	/* has one: its outcome is awaited */
	struct sbd_job_susp *susp;	/* its load policy; NULL not known */
	struct resreq	*stop_rr;	/* STOP_COND parsed, or NULL */
	struct resreq	*resume_rr;	/* RESUME_COND parsed, or NULL */
	uint64_t	 load_act_ms;	/* last suspended/resumed by load */
	struct sjob	*next;
};

enum mbd_state { MBD_DOWN, MBD_CONNECTING, MBD_REGISTERING, MBD_UP };

struct sbd {
	struct event_base	*base;
	struct daemon_opts	 opts;
	struct lsf_config	 conf;
	char			*host;
	struct host_addr	 addr;		/* ours, port 0 */
	char			*statedir;	/* .../sbd/<host> */
	char			*sockpath;	/* supervisors connect here */

	/* The master and our connection to its mbatchd. */
	char			*master;
	struct conn		*lim;		/* subscription to our LIM */
	struct event		*ev_lim_retry;
	struct conn		*mbd;
	enum mbd_state		 mbd_state;
	struct event		*ev_mbd_retry;
	int			 mbd_retry_ms;
	int			 term_interval;

	/* mbatchd, when this host is master. */
	int			 sbd_lfd;	/* LSB_SBD_PORT, held */
	int			 mbd_lfd;	/* LSB_MBD_PORT, held for
						 * mbatchd on a candidate */
	struct event		*ev_mbd_port;	/* refusing on it meanwhile */
	struct event		*ev_mbd_ready;	/* mbatchd's readiness pipe */
	bool			 mbd_ready;	/* it serves the port now */
	pid_t			 mbd_child;
	uint64_t		 mbd_started_ms;
	int			 mbd_backoff_ms;
	struct event		*ev_mbd_restart;
	bool			 stopping;
	bool			 restart;	/* execute again once stopped */
	char			**argv;		/* as started: hrestart */

	struct sjob		*jobs;

	/* Signals not at SIG_DFL once sbatchd is set up (ignored or
	 * caught): what a job must reset before its exec. */
	sigset_t		 sig_nondefault;
};

extern struct sbd *sbd;

/* sbatchd.c: end the loop; with restart, execute sbatchd again after. */
void	 sbd_stop(bool restart);

/* sbd-mbd.c */
void	 mbd_master_changed(void);
void	 mbd_send_status(struct sjob *);
void	 mbd_send_chkpnt(const struct job_ack *);
void	 mbd_connect_soon(int ms);

/* sbd-jobs.c */
void	 jobs_init(void);
void	 jobs_scan(void);
struct sjob *jobs_find(int64_t jobid, int32_t idx);
void	 jobs_start(struct job_spec *);
void	 jobs_signal(const struct sbd_signal *);
void	 jobs_limits(const struct sbd_limits *);	/* bmod, started job */
void	 jobs_ack(const struct job_ack *);
struct conn *jobs_sup_accept(int fd, struct sockaddr *, socklen_t, void *);
void	 jobs_reap(pid_t);
void	 jobs_sup_free(pid_t);	/* its supervisor serves no job of ours */
void	 jobs_check_orphans(void);

/* sbd-load.c */
void	 load_set_sleep_time(int secs);
void	 load_update(struct lim_host *);	/* takes its contents */
void	 load_lost(void);
void	 jobs_susp(struct sbd_job_susp *);	/* takes its contents */
void	 load_job_free(struct sjob *);

/* sbd-user.c: a job user's passwd entry and groups, kept a few seconds
 * (supervisors and jobs, forked from sbatchd, find it in memory). */
struct sbd_user {
	char		*name;
	struct passwd	 pw;
	gid_t		*groups;
	int		 ngroups;
	uint64_t	 fetched_ms;
	struct sbd_user	*next;
};
const struct sbd_user *user_get(const char *name);	/* NULL: unknown */
int	 user_become(const struct sbd_user *);	/* as root: groups, gid, uid */
/* An entry down a spare's socket (NULL: none), and into its cache. */
void	 user_pack(struct wbuf *, const struct sbd_user *);
bool	 user_unpack_install(struct rbuf *, bool *none);
void	 user_forget(const char *name);

/* sbd-spare.c: supervisors kept between jobs.  spares_take hands one
 * a job (its pid; -1: fork one with jobsup_main). */
void	 spares_init(void);
pid_t	 spares_take(const char *dir, const struct sbd_user *);
bool	 spares_reap(pid_t);
void	 spares_renew(void);
/* A supervisor serves this many jobs at most, then exits. */
#define SPARE_MAX_JOBS	100
/* Event priorities: the pool is filled only when nothing else waits. */
#define SBD_NPRI	3	/* libevent's default is the middle one */
#define SBD_PRI_IDLE	2

/* sbd-child.c */
void	 child_hold_port(void);
void	 child_master_changed(void);
void	 child_reaped(pid_t, int status);
void	 child_stop(void);

/* jobsup.c: runs in the forked supervisor; never returns. */
void	 jobsup_main(struct job_spec *, const char *dir, const char *sockpath)
	    NORETURN;
/* A spare: set up, then wait on fd for a job (sbd-spare.c). */
void	 jobsup_spare_main(int fd) NORETURN;

/*
 * What the supervisor alone knows of a job's end, for its report and
 * mail (not on the wire).  A -o or -e file the job could not open is
 * told by the job's process on note_fd (struct jobsup_note); the stream
 * went to the spool instead and is mailed.
 */
struct job_end {
	int		 max_procs;	/* -1: never seen */
	int		 max_threads;
	int		 out_errno;	/* -o could not be opened: why */
	int		 err_errno;	/* -e likewise */
	bool		 requeued;	/* its end sends it back: no mail */
};
struct jobsup_note {
	char		 which;		/* 'o' or 'e' */
	int		 err;
};

/* jobsup-exec.c: in the job's process; never returns.  A failed
 * pre-exec writes its wait status (an int) to pre_fd (-1: none).
 * jobsup_reset_signals: defaults, nothing blocked (job, post-exec). */
void	 jobsup_reset_signals(void);
/*
 * In a child that runs a program for a job (a JOB_CONTROLS command,
 * echkpnt): its own session, standard files on /dev/null, the job's
 * processes noted, the job's user, umask and directory, and in env the
 * job's environment with LS_JOBPID, LSB_JOBPIDS and LSB_JOBPGIDS of the
 * job's session sid.  It exits 127 where that cannot be.
 */
void	 jobsup_helper_setup(const struct job_spec *, const char *dir,
	    pid_t sid, struct strv *env);
void	 jobsup_exec_job(const struct job_spec *, const char *dir,
	    int pre_fd, int note_fd) NORETURN;
/* The job's environment: the submitter's plus LSF's variables. */
struct passwd;
void	 jobsup_build_env(struct strv *, const struct job_spec *,
	    const char *dir, const struct passwd *, const char *out,
	    const char *err);
/* NAME=val in env, in place of any NAME there. */
void	 jobsup_set_env(struct strv *, const char *name, const char *val);
/* The -o/-e path with %J and %I expanded, allocated (NULL if none). */
char	*jobsup_expand_path(const char *, const struct job_spec *,
	    const char *suffix);

/* jobsup-chkpnt.c: echkpnt and erestart (LSF_SERVERDIR or
 * LSB_ECHKPNT_METHOD_DIR), run as the job's user. */
#define CHKPNT_TIMEOUT_MS	600000
char	*chkpnt_program(const struct job_spec *, const char *name);
void	 chkpnt_make_dir(const struct job_spec *);
pid_t	 chkpnt_start(const struct job_spec *, const char *dir, pid_t sid);
void	 chkpnt_exec_restart(const struct job_spec *, char **env);

/* jobsup-report.c */
void	 jobsup_write_report(const struct job_spec *, const struct job_status *,
	    const struct job_end *);
/* The report's parts, for the mail: "Job <n> was submitted ..." up to
 * "Started at"; the whole body up to the resource usage summary. */
void	 jobsup_report_start(struct strbuf *, const struct job_spec *,
	    const struct job_status *, const char *home, const char *cwd);
void	 jobsup_report_body(struct strbuf *, const struct job_spec *,
	    const struct job_status *, const struct job_end *,
	    const char *home, const char *cwd);
/* "Job 12: <name> in cluster <c> Done" */
void	 jobsup_subject(struct strbuf *, const struct job_spec *,
	    const char *what);
const char *jobsup_sender(void);	/* the primary administrator */

/* jobsup-mail.c */
/* The spool for the output of a job without -o (or whose -o or -e file
 * cannot be opened), made before the job's process leaves root (the
 * directory is root's); -1 if it cannot be. */
int	 jobsup_spool_open(const char *dir, uid_t, gid_t);
/* bsub -B, at the start. */
void	 jobsup_mail_start(const struct job_spec *, const struct job_status *);
/* At the end: the report, and the spooled output when there is no -o
 * or its -o or -e file could not be opened (end says which).  Nothing
 * for a run that goes back to its queue (requeued). */
void	 jobsup_mail_end(const struct job_spec *, const struct job_status *,
	    const char *dir, const struct job_end *);

/* sbd-peek.c: what bpeek asks of a job, from its -o file or spool. */
void	 peek_read(const struct peek_req *, struct peek_reply *);

/* jobsup-prepost.c */
bool	 jobsup_has_pre(const struct job_spec *);
bool	 jobsup_has_post(const struct job_spec *);
bool	 jobsup_has_host_post(const struct job_spec *);
/* In the job's process, before exec.  While root: the host pre-exec
 * commands, the queue's PRE_EXEC and the profile's (without -E); then,
 * as the job's user, -E.  One that fails writes its wait status to fd
 * and the process exits. */
void	 jobsup_pre_exec_root(const struct job_spec *, char **env, int fd);
void	 jobsup_pre_exec(const struct job_spec *, char **env, int fd);
/* In a child of the supervisor (root) once the job has ended: -Ep or the
 * profile's POST_EXEC, the queue's, the host ones; exits 0 when every
 * one succeeded.  jobsup_host_post: the host ones alone, after a failed
 * pre-execution. */
void	 jobsup_post_exec(const struct job_spec *, const char *dir,
	    int job_wstatus) NORETURN;
void	 jobsup_host_post(const struct job_spec *, const char *dir,
	    int job_wstatus) NORETURN;

/*
 * jobsup-control.c: the commands of the job's queue's JOB_CONTROLS.  A
 * command runs in a child of the supervisor, in a session of its own,
 * as the job's user, with the job's environment and LSB_JOBPGIDS,
 * LSB_JOBPIDS (and LSB_SUSP_REASONS, LSB_SUSP_SUBREASONS for SUSPEND);
 * it is reaped after SIGCHLD and killed when it overruns
 * JOBCTL_CMD_TIMEOUT_MS.  One SUSPEND or RESUME action at a time: while
 * the command of one runs, the latest request for another waits for it
 * (ctl_defer); a TERMINATE command runs at once, as LSF lets it.
 */
#define JOBCTL_CMD_TIMEOUT_MS	60000
struct job_ctl {
	int64_t		 jobid;		/* for the log */
	struct jobctl	 act;		/* the spec's actions, parsed */
	pid_t		 pid[JOBCTL_NOPS];	/* each op's running command */
	uint64_t	 deadline_ms[JOBCTL_NOPS];
	int		 pend_op;	/* deferred SUSPEND or RESUME; -1 */
	int		 pend_reason;
	int		 pend_sub;
};
void	 ctl_init(struct job_ctl *, const struct job_spec *);
void	 ctl_release(struct job_ctl *);
/* A SUSPEND or RESUME command is running. */
bool	 ctl_busy(const struct job_ctl *);
void	 ctl_defer(struct job_ctl *, int op, int reason, int sub);
/* The deferred action, once nothing is busy: true and it, taken. */
bool	 ctl_take_deferred(struct job_ctl *, int *op, int *reason, int *sub);
/* Start op's command for the job whose session is sid.  reason: the
 * SUSP_* of a SUSPEND; sub: its load index, -1 if none. */
void	 ctl_run(struct job_ctl *, int op, const struct job_spec *,
	    const char *dir, pid_t sid, int reason, int sub);
/* After SIGCHLD: reap the commands that ended; a bit (1 << op) for
 * each. */
unsigned ctl_reap(struct job_ctl *);
/* The earliest deadline of a running command; 0 if none runs. */
uint64_t ctl_next_ms(const struct job_ctl *);
/* Kill the commands past their deadline. */
void	 ctl_expire(struct job_ctl *, uint64_t now_ms);
/* The job is over: what still runs may finish, until its deadline. */
void	 ctl_finish(struct job_ctl *);

/* jobsup-usage.c: what the job's processes use. */
struct usage_set {
	pid_t		*pids;		/* the session's, at the last look */
	size_t		 npids;
	size_t		 cap;
};
/* RSS (KB) and CPU seconds summed over session sid: a walk of all of
 * /proc (full), or a look at the processes known and their children,
 * and their threads.  Returns how many processes were found. */
int	 usage_sample(struct usage_set *, pid_t sid, bool full, int64_t *kb,
	    double *cpu, int *threads);
void	 usage_release(struct usage_set *);
/* The processes of session sid and their process groups, each list
 * space-separated (LSB_JOBPIDS, LSB_JOBPGIDS). */
void	 usage_procs(pid_t sid, struct strbuf *pids, struct strbuf *pgids);

/* jobsup-limits.c */
struct job_limits {
	uint64_t	 start_ms;	/* mono_ms of the start */
	uint64_t	 run_end_ms;	/* mono_ms of the run limit, 0 none */
	int64_t		 deadline;	/* -t, seconds since the epoch, 0 none */
	double		 cpu;		/* seconds, 0 none */
	int64_t		 mem_kb;	/* 0 none */
	int		 term_ms;	/* JOB_TERMINATE_INTERVAL */
	bool		 fired;		/* a limit was reached */
	int		 warn_secs;	/* JOB_ACTION_WARNING_TIME, 0 none */
	bool		 warned;	/* its warning action was taken */
};
void	 limits_init(struct job_limits *, const struct job_spec *,
	    uint64_t start_ms);
/* New run, CPU and memory limits and deadline (bmod), from the start. */
void	 limits_update(struct job_limits *, const struct sbd_limits *);
bool	 limits_active(const struct job_limits *);
/* Once: is the run limit or the deadline now within the warning time
 * (JOB_WARNING_ACTION is due)? */
bool	 limits_warn_due(struct job_limits *, uint64_t now_ms, int64_t now);
bool	 limits_need_usage(const struct job_limits *);
/* The TERM_* of a limit reached now, with the signal to send first (0:
 * none) and the delay before the kill sequence; 0 when none is. */
int	 limits_check(struct job_limits *, uint64_t now_ms, int64_t now,
	    double cpu, int64_t mem_kb, int *sig, int *kill_after_ms);
/* In the job's process: the per-process limits (bsub -C -D -F -S -v -p). */
void	 limits_set_rlimits(const struct job_spec *);

/* File names inside a job's directory. */
#define JOBDIR_SPEC	"spec"
#define JOBDIR_SCRIPT	"job"
#define JOBDIR_LOCK	"lock"
#define JOBDIR_STATUS	"status"
#define JOBDIR_HOSTS	"hostfile"
#define JOBDIR_OUTPUT	"output"	/* the spool: stdout (and stderr) */
#define JOBDIR_NOMAIL	"nomail"	/* the run is requeued: no mail */

/* Read/write a wire-encoded struct file (spec, status). */
int	 jobfile_write_spec(const char *dir, const struct job_spec *);
int	 jobfile_read_spec(const char *dir, struct job_spec *);
int	 jobfile_write_status(const char *dir, const struct job_status *);
int	 jobfile_read_status(const char *dir, struct job_status *);

#endif
