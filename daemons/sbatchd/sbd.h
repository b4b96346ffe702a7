/*
 * sbatchd: runs the jobs mbatchd dispatches to this host and reports
 * their states; on the master host it also starts mbatchd and restarts it
 * when it dies.
 *
 *	sbatchd.c	main, sockets, signals, the LIM subscription
 *	sbd-mbd.c	the connection to mbatchd: register, start, signal, ack
 *	sbd-jobs.c	the job table, the state directory, supervisors
 *	sbd-child.c	starting and watching mbatchd on the master host
 *	jobsup.c	the per-job supervisor (a forked child per job)
 *	jobsup-exec.c	what runs in the job's own process before exec
 *	jobsup-report.c	LSF's job report appended to the output file
 *
 * Each job has a supervisor process, the job's parent, in its own
 * session.  It waits for the job, signals it on request, and writes the
 * job's final status to the job's directory before it exits, so a job
 * keeps running, and its end is not lost, while sbatchd restarts.
 */
#ifndef SBD_H
#define SBD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <event2/event.h>

#include "conf.h"
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
	pid_t			 mbd_child;
	uint64_t		 mbd_started_ms;
	int			 mbd_backoff_ms;
	struct event		*ev_mbd_restart;
	bool			 stopping;

	struct sjob		*jobs;
};

extern struct sbd *sbd;

/* sbd-mbd.c */
void	 mbd_master_changed(void);
void	 mbd_send_status(struct sjob *);
void	 mbd_connect_soon(int ms);

/* sbd-jobs.c */
void	 jobs_init(void);
void	 jobs_scan(void);
struct sjob *jobs_find(int64_t jobid, int32_t idx);
void	 jobs_start(struct job_spec *);
void	 jobs_signal(const struct sbd_signal *);
void	 jobs_ack(const struct job_ack *);
void	 jobs_sup_accept(int fd, struct sockaddr *, socklen_t, void *);
void	 jobs_reap(pid_t);
void	 jobs_check_orphans(void);

/* sbd-child.c */
void	 child_master_changed(void);
void	 child_reaped(pid_t, int status);
void	 child_stop(void);

/* jobsup.c: runs in the forked supervisor; never returns. */
void	 jobsup_main(struct job_spec *, const char *dir, const char *sockpath)
	    NORETURN;

/* jobsup-exec.c: in the job's process; never returns. */
void	 jobsup_exec_job(const struct job_spec *, const char *dir,
	    int report_fd) NORETURN;
/* The -o/-e path with %J and %I expanded, allocated (NULL if none). */
char	*jobsup_expand_path(const char *, const struct job_spec *);

/* jobsup-report.c */
void	 jobsup_write_report(const struct job_spec *, const struct job_status *);

/* File names inside a job's directory. */
#define JOBDIR_SPEC	"spec"
#define JOBDIR_SCRIPT	"job"
#define JOBDIR_LOCK	"lock"
#define JOBDIR_STATUS	"status"
#define JOBDIR_HOSTS	"hostfile"

/* Read/write a wire-encoded struct file (spec, status). */
int	 jobfile_write_spec(const char *dir, const struct job_spec *);
int	 jobfile_read_spec(const char *dir, struct job_spec *);
int	 jobfile_write_status(const char *dir, const struct job_status *);
int	 jobfile_read_status(const char *dir, struct job_status *);

#endif
