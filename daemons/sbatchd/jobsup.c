/*
 * The per-job supervisor.  sbatchd forks it ahead of a job, or for it
 * (sbd-spare.c); it moves to a session of its own (so it outlives
 * sbatchd), holds the lock of the job directory, forks the job, and then
 * waits; when the job is over and reported it may serve another.  It
 * keeps a connection to sbatchd's socket: "hello" with the job's pid
 * soon after it starts (with its end, for a job that ends at once) and
 * after every reconnect, signal requests coming the other way, and the
 * final status at the end.  A spare keeps the connection for its next
 * job, whose hello moves it there (sbd-jobs.c, sup_msg).  The final
 * status is first written to the job directory, so it is never lost if
 * sbatchd is not there to hear it.
 *
 * The loop is poll(2) on a signalfd for SIGCHLD and on the socket, with
 * timers for the TERMINATE sequence (SIGINT, SIGTERM, SIGKILL), memory
 * sampling and reconnecting.
 *
 * The SUSPEND, RESUME and TERMINATE actions are the queue's JOB_CONTROLS
 * where it has them (a signal, or a command run by jobsup-control.c),
 * else LSF's defaults.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <pwd.h>

#include "log.h"
#include "sbd.h"

/* How often a running job's memory and CPU time are collected. */
#define USAGE_INTERVAL_MS	5000
/* How often its limits are checked, while it has any. */
#define LIMIT_INTERVAL_MS	1000
/* The hello waits this long: a job that ends by then has its start and
 * its end reported together (one turn, one log flush in mbatchd). */
#define HELLO_DELAY_MS		20
/* How long a parallel job has to stop itself on SIGTSTP. */
#define TSTP_GRACE_MS		500

struct sup {
	struct job_spec	*spec;
	const char	*dir;
	const char	*sockpath;
	int		 sock;
	bool		 greeted;	/* the hello went on this connection */
	pid_t		 pid;
	struct job_status st;
	int		 kill_stage;	/* 0 none, 1 INT sent, 2 TERM, 3 KILL */
	uint64_t	 next_kill_ms;
	uint64_t	 next_sample_ms;
	uint64_t	 next_connect_ms;
	int64_t		 mem_sum;	/* for the average */
	int		 mem_n;
	bool		 stopped;
	uint64_t	 tstp_check_ms;	/* SIGSTOP what SIGTSTP left running */
	struct job_end	 end;		/* for the report and the mail */
	struct usage_set usage;
	struct job_limits lim;
	uint64_t	 next_limit_ms;
	int64_t		 sent_mem;	/* the usage mbatchd last heard of */
	double		 sent_cpu;
	int		 pre_fd;	/* a failed pre-exec's status */
	int		 note_fd;	/* the job's word on its -o and -e */
	struct job_ctl	 ctl;		/* JOB_CONTROLS */
	pid_t		 chk_pid;	/* echkpnt running, else 0 */
	uint64_t	 chk_deadline_ms;
	/* JOB_CONTROLS' CHKPNT: stop, or kill, once echkpnt is done. */
	bool		 chk_stop;
	bool		 chk_kill;
	bool		 chk_killed;	/* its checkpoint was taken */
};

static void
sock_drop(struct sup *s)
{
	close(s->sock);
	s->sock = -1;
	s->greeted = false;
}

/* The connection kept from the last job, or a new one; -1 if none. */
static int
sock_open(struct sup *s)
{
	if (s->sock < 0)
		s->sock = net_connect_unix(s->sockpath);
	return s->sock < 0 ? -1 : 0;
}

/* SIGCHLDs read and forgotten: the children are waited for by pid. */
static void
drain_sigfd(int sfd)
{
	struct signalfd_siginfo si;

	while (read(sfd, &si, sizeof(si)) == sizeof(si))
		;
}

static void
send_status(struct sup *s, uint16_t type)
{
	struct wbuf w;

	if (s->sock < 0)
		return;
	wbuf_init(&w);
	job_status_frame(&w, type, 0, &s->st);
	if (wire_send(s->sock, &w) < 0)
		sock_drop(s);
	wbuf_release(&w);
}

static void
try_connect(struct sup *s)
{
	if (sock_open(s) < 0) {
		s->next_connect_ms = mono_ms() + 1000;
		return;
	}
	s->greeted = true;
	send_status(s, MSG_JS_HELLO);
}

/* Where the job runs and as whom, for JOB_EXECUTE and bjobs -l. */
static void
fill_exec_info(struct sup *s)
{
	const struct job_spec *sp = s->spec;
	const struct sbd_user *u = user_get(sp->user);
	const struct passwd *pw = u ? &u->pw : NULL;
	const char *cwd = sp->cwd && *sp->cwd ? sp->cwd : sp->sub_cwd;
	struct stat sb;

	/* A -cwd with patterns the job makes may not be there yet. */
	if (cwd == NULL || (!(sp->make_cwd && cwd == sp->cwd) &&
	    (stat(cwd, &sb) < 0 || !S_ISDIR(sb.st_mode))))
		cwd = "/tmp";
	s->st.exec_cwd = xstrdup(cwd);
	s->st.exec_home = xstrdup(pw ? pw->pw_dir : "/");
	s->st.exec_user = xstrdup(pw ? pw->pw_name : (sp->user ? sp->user :
	    ""));
}

/* The memory and CPU time of the job's session (full: a walk of /proc),
 * and the most processes and threads it has had. */
static void
sample_usage(struct sup *s, bool full)
{
	int64_t kb;
	double cpu;
	int nproc, nthr;

	nproc = usage_sample(&s->usage, s->pid, full, &kb, &cpu, &nthr);
	if (nproc > s->end.max_procs)
		s->end.max_procs = nproc;
	if (nproc > 0 && nthr > s->end.max_threads)
		s->end.max_threads = nthr;
	if (nproc <= 0 || kb <= 0)
		return;
	if (cpu > s->st.cpu_time)
		s->st.cpu_time = cpu;
	s->st.mem_kb = kb;
	if (kb > s->st.max_mem_kb)
		s->st.max_mem_kb = kb;
	s->mem_sum += kb;
	s->mem_n++;
	s->st.avg_mem_kb = s->mem_sum / s->mem_n;
}

/* Has the usage changed enough since mbatchd last heard of it? */
static bool
usage_news(struct sup *s)
{
	if (s->st.mem_kb == s->sent_mem && s->st.cpu_time - s->sent_cpu < 0.5)
		return false;
	s->sent_mem = s->st.mem_kb;
	s->sent_cpu = s->st.cpu_time;
	return true;
}

/* The signal to the job's process group. */
static void
kill_group(struct sup *s, int sig)
{
	if (s->pid <= 0)
		return;
	if (kill(-s->pid, sig) < 0 && errno == ESRCH)
		(void)kill(s->pid, sig);
}

static void
signal_job(struct sup *s, int sig)
{
	if (s->pid <= 0)
		return;
	kill_group(s, sig);
	/* A stopped job must run to act on a terminating signal. */
	if (s->stopped && sig != SIGSTOP && sig != SIGTSTP &&
	    sig != SIGCONT) {
		(void)kill(-s->pid, SIGCONT);
		s->stopped = false;
	}
}

static void	chkpnt_begin(struct sup *);

/*
 * The TERMINATE action, for bkill, brequeue and the limits: the queue's
 * signal or command, once; else LSF's SIGINT, SIGTERM, SIGKILL, a step
 * each call.  CHKPNT, for a checkpointable job, runs echkpnt first and
 * the sequence once it is done, taken or not (LSF).
 */
static void
kill_step(struct sup *s)
{
	static const int seq[] = { SIGINT, SIGTERM, SIGKILL };
	const struct jobctl_action *a = &s->ctl.act.op[JOBCTL_TERMINATE];
	int interval = s->spec->term_interval >= 0 ? s->spec->term_interval : 10;

	if (s->kill_stage >= 3 || s->chk_kill)
		return;
	/* A stopped job cannot answer a method's echkpnt: killed at once
	 * (SUSPEND[CHKPNT] checkpointed it when it stopped). */
	if (s->kill_stage == 0 && a->kind == JOBCTL_CHKPNT &&
	    s->spec->chkpnt_dir != NULL && !s->chk_killed && !s->stopped) {
		s->chk_killed = true;
		s->chk_kill = true;
		s->next_kill_ms = 0;
		chkpnt_begin(s);
		if (s->chk_pid > 0)
			return;
		s->chk_kill = false;
	}
	if (s->kill_stage == 0 && (a->kind == JOBCTL_SIGNAL ||
	    a->kind == JOBCTL_COMMAND)) {
		if (a->kind == JOBCTL_SIGNAL)
			signal_job(s, a->sig);
		else
			ctl_run(&s->ctl, JOBCTL_TERMINATE, s->spec, s->dir,
			    s->pid, 0, -1);
		s->kill_stage = 3;
		s->next_kill_ms = 0;
		return;
	}
	signal_job(s, seq[s->kill_stage]);
	s->kill_stage++;
	s->next_kill_ms = s->kill_stage < 3 ?
	    mono_ms() + (uint64_t)interval * 1000 : 0;
}

/* JOB_WARNING_ACTION: a signal to the job, or CHKPNT, which
 * checkpoints a checkpointable job and leaves it running. */
static void
warning_action(struct sup *s)
{
	const char *a = s->spec->warning_action;
	int sig;

	log_info("job %lld: %d s before its run limit or deadline: warning "
	    "action %s", (long long)s->spec->jobid, s->lim.warn_secs, a);
	if (strcasecmp(a, "CHKPNT") == 0) {
		if (s->spec->chkpnt_dir != NULL && s->chk_pid <= 0)
			chkpnt_begin(s);
		return;
	}
	if ((sig = sig_from_name(a)) > 0)
		signal_job(s, sig);
	else
		log_warnx("job %lld: JOB_WARNING_ACTION %s is no signal "
		    "here", (long long)s->spec->jobid, a);
}

/* A limit reached: its signal now, the kill sequence now or later. */
static void
check_limits(struct sup *s, uint64_t now)
{
	int sig, after, reason;

	if (limits_warn_due(&s->lim, now, time(NULL)))
		warning_action(s);
	reason = limits_check(&s->lim, now, time(NULL), s->st.cpu_time,
	    s->st.mem_kb, &sig, &after);
	if (reason == 0 || s->kill_stage > 0 || s->next_kill_ms)
		return;		/* none, or it is being ended already */
	log_info("job %lld: %s", (long long)s->spec->jobid,
	    term_reason_text(reason));
	s->st.exit_reason = reason;
	if (sig)
		signal_job(s, sig);
	if (after > 0)
		s->next_kill_ms = now + (uint64_t)after;
	else
		kill_step(s);
}

/*
 * SUSPEND or RESUME, as the queue has it, or LSF's default: SIGSTOP
 * (SIGTSTP for a parallel job; SIGSTOP after CHKPNT's checkpoint, or at
 * once for a job that is not checkpointable), SIGCONT.  While a command
 * of either runs, the next waits.
 */
static void
job_action(struct sup *s, int op, int reason, int sub)
{
	const struct jobctl_action *a = &s->ctl.act.op[op];

	if (ctl_busy(&s->ctl)) {
		ctl_defer(&s->ctl, op, reason, sub);
		return;
	}
	switch (a->kind) {
	case JOBCTL_SIGNAL:
		kill_group(s, a->sig);
		break;
	case JOBCTL_COMMAND:
		ctl_run(&s->ctl, op, s->spec, s->dir, s->pid, reason, sub);
		break;
	case JOBCTL_CHKPNT:
		/* SUSPEND[CHKPNT]: stopped once checkpointed. */
		if (s->spec->chkpnt_dir != NULL) {
			s->chk_stop = true;
			chkpnt_begin(s);
			if (s->chk_pid > 0)
				break;
			s->chk_stop = false;
		}
		kill_group(s, SIGSTOP);
		break;
	case JOBCTL_DEFAULT:
		if (op == JOBCTL_RESUME) {
			s->tstp_check_ms = 0;
			kill_group(s, SIGCONT);
		} else if (s->spec->exec_hosts.n > 1) {
			/*
			 * SIGTSTP lets a parallel job's launcher stop its
			 * tasks; but the job's group is orphaned (a session
			 * of its own), where the kernel drops a TSTP nobody
			 * catches, so what still runs a moment later is
			 * stopped with SIGSTOP.
			 */
			kill_group(s, SIGTSTP);
			s->tstp_check_ms = mono_ms() + TSTP_GRACE_MS;
		} else
			kill_group(s, SIGSTOP);
		break;
	}
}

/* Commands of JOB_CONTROLS that ended: what waited for them now runs. */
static void
ctl_ended(struct sup *s)
{
	unsigned done = ctl_reap(&s->ctl);
	int op, reason, sub;

	/* A job still stopped when its TERMINATE command is done could not
	 * act on what the command sent it. */
	if ((done & (1u << JOBCTL_TERMINATE)) && s->stopped) {
		kill_group(s, SIGCONT);
		s->stopped = false;
	}
	if (ctl_take_deferred(&s->ctl, &op, &reason, &sub))
		job_action(s, op, reason, sub);
}

/* echkpnt's wait status, for mbatchd's CHKPNT record. */
static void
chkpnt_report(struct sup *s, int wstatus)
{
	struct wbuf w;
	struct job_ack a;

	if (s->sock < 0)
		return;		/* mbatchd gives up on it in time */
	a.jobid = s->spec->jobid;
	a.idx = s->spec->idx;
	a.status = wstatus;
	a.run_count = s->spec->run_count;
	wbuf_init(&w);
	job_ack_frame(&w, MSG_JS_CHKPNT, 0, &a);
	if (wire_send(s->sock, &w) < 0)
		sock_drop(s);
	wbuf_release(&w);
}

static void
chkpnt_begin(struct sup *s)
{
	if (s->chk_pid > 0)
		return;		/* the one running answers for both */
	s->chk_pid = chkpnt_start(s->spec, s->dir, s->pid);
	if (s->chk_pid <= 0) {
		s->chk_pid = 0;
		chkpnt_report(s, 127 << 8);
		return;
	}
	s->chk_deadline_ms = mono_ms() + CHKPNT_TIMEOUT_MS;
}

static void
chkpnt_reap(struct sup *s, bool wait)
{
	int wstatus;

	if (s->chk_pid <= 0)
		return;
	if (waitpid(s->chk_pid, &wstatus, wait ? 0 : WNOHANG) != s->chk_pid)
		return;
	s->chk_pid = 0;
	s->chk_deadline_ms = 0;
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)
		log_info("job %lld: echkpnt done", (long long)s->spec->jobid);
	else
		log_info("job %lld: echkpnt failed (wait status %d)",
		    (long long)s->spec->jobid, wstatus);
	if (wait)
		return;
	chkpnt_report(s, wstatus);
	if (s->chk_stop) {
		s->chk_stop = false;
		if (s->stopped)
			kill_group(s, SIGSTOP);
	}
	if (s->chk_kill) {
		s->chk_kill = false;
		kill_step(s);
	}
}

static void
handle_request(struct sup *s, const struct sbd_signal *sg)
{
	if (sg->sig == SBD_SIG_CHKPNT) {
		chkpnt_begin(s);
		return;
	}
	/* For a suspension, reason is why (SUSP_*); otherwise it is the
	 * TERM_* to report if the job dies of it. */
	if (sg->reason && sg->sig != SBD_SIG_SUSPEND &&
	    sg->sig != SBD_SIG_RESUME)
		s->st.exit_reason = sg->reason;
	if (sg->flags & (SIG_F_REQUEUE | SIG_F_MIG))
		s->end.requeued = true;
	switch (sg->sig) {
	case SIG_KILL_SEQ:
		if (s->kill_stage == 0)
			kill_step(s);
		break;
	case SBD_SIG_SUSPEND:
		/* sub: the load index of a load suspension, for
		 * LSB_SUSP_SUBREASONS. */
		job_action(s, JOBCTL_SUSPEND, sg->reason, sg->sub);
		s->stopped = true;
		s->st.status = sg->reason == SUSP_USER_STOP ||
		    sg->reason == SUSP_ADMIN_STOP ? JOB_STAT_USUSP :
		    JOB_STAT_SSUSP;
		s->st.susp_reason = sg->reason;
		s->st.susp_sub = sg->sub;
		send_status(s, MSG_JS_STATUS);
		break;
	case SBD_SIG_RESUME:
		job_action(s, JOBCTL_RESUME, 0, -1);
		s->stopped = false;
		s->st.status = JOB_STAT_RUN;
		s->st.susp_reason = s->st.susp_sub = 0;
		send_status(s, MSG_JS_STATUS);
		break;
	default:
		if (sg->sig > 0 && sg->sig < 65) {
			signal_job(s, sg->sig);
			if (sg->sig == SIGSTOP || sg->sig == SIGTSTP)
				s->stopped = true;
			else if (sg->sig == SIGCONT)
				s->stopped = false;
		}
	}
}

/* bmod: the job's new run, CPU and memory limits and deadline. */
static void
new_limits(struct sup *s, const struct sbd_limits *l)
{
	static const int which[] = {
		LSF_RLIMIT_RUN, LSF_RLIMIT_CPU, LSF_RLIMIT_RSS
	};

	for (size_t i = 0; i < ARRAY_SIZE(which); i++)
		s->spec->rlimits[which[i]] = l->rlimits[which[i]];
	s->spec->term_time = l->term_time;
	limits_update(&s->lim, l);
	/* Checked at the next turn of the loop, not a second later. */
	s->next_limit_ms = mono_ms();
}

static void
read_socket(struct sup *s)
{
	struct wire_hdr h;
	uint8_t *body;
	struct rbuf r;
	struct sbd_signal sg;
	struct sbd_limits l;

	if (wire_recv(s->sock, &h, &body, 1000) < 0) {
		sock_drop(s);
		s->next_connect_ms = mono_ms() + 200;
		return;
	}
	rbuf_init(&r, body, h.len - WIRE_HDR_LEN);
	/* On a kept connection, a request may be for the job before. */
	if (h.type == MSG_SBD_JOB_SIGNAL && sbd_signal_unpack(&r, &sg) &&
	    rbuf_end(&r) == 0 && sg.jobid == s->spec->jobid &&
	    sg.idx == s->spec->idx)
		handle_request(s, &sg);
	else if (h.type == MSG_SBD_JOB_LIMITS && sbd_limits_unpack(&r, &l) &&
	    rbuf_end(&r) == 0 && l.jobid == s->spec->jobid &&
	    l.idx == s->spec->idx && l.run_count == s->spec->run_count)
		new_limits(s, &l);
	free(body);
}

/*
 * The hello that was delayed, with the job's state when it ran, and the
 * end, in one write: sbatchd reads them, and mbatchd logs JOB_EXECUTE and
 * JOB_STATUS, together.  -1 if sbatchd cannot be reached.
 */
static int
hello_and_end(struct sup *s, const struct job_status *run)
{
	struct wbuf w;
	int rc;

	if (sock_open(s) < 0)
		return -1;
	s->greeted = true;
	wbuf_init(&w);
	job_status_frame(&w, MSG_JS_HELLO, 0, run);
	job_status_frame(&w, MSG_JS_STATUS, 0, &s->st);
	rc = wire_send(s->sock, &w);
	wbuf_release(&w);
	if (rc < 0)
		sock_drop(s);
	return rc;
}

/* What the job's process said of its -o and -e files. */
static void
read_notes(struct sup *s)
{
	struct jobsup_note n;

	if (s->note_fd < 0)
		return;
	while (read(s->note_fd, &n, sizeof(n)) == (ssize_t)sizeof(n)) {
		if (n.which == 'o')
			s->end.out_errno = n.err ? n.err : EIO;
		else if (n.which == 'e')
			s->end.err_errno = n.err ? n.err : EIO;
	}
	close(s->note_fd);
	s->note_fd = -1;
}

static void
finish(struct sup *s, int wstatus, const struct rusage *ru)
{
	struct job_status run = s->st;	/* shallow: as it ran, for a hello */
	bool greet = !s->greeted;

	read_notes(s);

	s->st.end_time = time(NULL);
	s->st.exit_status = wstatus;
	s->st.cpu_time = (double)ru->ru_utime.tv_sec +
	    (double)ru->ru_utime.tv_usec / 1e6 +
	    (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
	if ((int64_t)ru->ru_maxrss > s->st.max_mem_kb)
		s->st.max_mem_kb = ru->ru_maxrss;
	if (s->st.avg_mem_kb < 0 && s->st.max_mem_kb > 0)
		s->st.avg_mem_kb = s->st.max_mem_kb;
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)
		s->st.status = JOB_STAT_DONE;
	else
		s->st.status = JOB_STAT_EXIT;
	jobsup_write_report(s->spec, &s->st, &s->end);
	if (jobfile_write_status(s->dir, &s->st) < 0)
		log_warn("job %lld: cannot write its status",
		    (long long)s->spec->jobid);
	/* After the status file, so a crash while mailing loses nothing;
	 * before sbatchd hears of the end and removes the spool. */
	jobsup_mail_end(s->spec, &s->st, s->dir, &s->end);
	if (greet && hello_and_end(s, &run) == 0)
		return;
	for (int i = 0; i < 3 && s->sock < 0; i++) {
		try_connect(s);
		if (s->sock < 0)
			usleep(100000);
	}
	send_status(s, MSG_JS_STATUS);
}

/* A later word on an ended job: in its status file first, then up. */
static void
report_again(struct sup *s)
{
	if (jobfile_write_status(s->dir, &s->st) < 0)
		log_warn("job %lld: cannot write its status",
		    (long long)s->spec->jobid);
	/* sbatchd may have restarted meanwhile: a failed send reconnects,
	 * and the hello carries the news. */
	send_status(s, MSG_JS_STATUS);
	for (int i = 0; i < 3 && s->sock < 0; i++) {
		try_connect(s);
		if (s->sock < 0)
			usleep(100000);
	}
}

/* A failed pre-execution: the host post-exec commands still clean up
 * (LSF), before mbatchd hears of the failure and may start the job on
 * this host again. */
static void
host_post(struct sup *s)
{
	int status;
	pid_t pid;

	if (!jobsup_has_host_post(s->spec))
		return;
	pid = fork();
	if (pid == 0)
		jobsup_host_post(s->spec, s->dir, s->st.exit_status);
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
}

/* Did the job's pre-exec fail?  Then the job never ran: no report, no
 * post-exec, and mbatchd puts it back in its queue. */
static bool
pre_failed(struct sup *s, const struct rusage *ru)
{
	int st;

	if (s->pre_fd < 0 || read(s->pre_fd, &st, sizeof(st)) != sizeof(st))
		return false;
	if (!s->greeted)
		try_connect(s);		/* the delayed hello, as in finish() */
	log_info("job %lld: its pre-exec failed (status %d)",
	    (long long)s->spec->jobid, st);
	s->st.status = JOB_STAT_EXIT;
	s->st.pre_exec_failed = st ? st : 1 << 8;
	s->st.exit_status = st;
	s->st.end_time = time(NULL);
	s->st.cpu_time = (double)ru->ru_utime.tv_sec +
	    (double)ru->ru_utime.tv_usec / 1e6 +
	    (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
	host_post(s);
	report_again(s);
	return true;
}

/* Once the job's end is out: its post-exec, then how that ended. */
static void
post_exec(struct sup *s)
{
	int status = 127 << 8;
	pid_t pid;

	if (!jobsup_has_post(s->spec))
		return;
	pid = fork();
	if (pid == 0)
		jobsup_post_exec(s->spec, s->dir, s->st.exit_status);
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	s->st.post_exec_status = status;
	report_again(s);
}

static void
write_hostfile(const struct job_spec *spec, const char *dir)
{
	char *path = xasprintf("%s/%s", dir, JOBDIR_HOSTS);
	FILE *f = fopen(path, "w");

	if (f) {
		for (size_t i = 0; i < spec->exec_hosts.n; i++)
			fprintf(f, "%s\n", spec->exec_hosts.v[i]);
		fclose(f);
		(void)chmod(path, 0644);
	}
	free(path);
}

/*
 * What a supervisor does before it knows its job: its own session, no
 * descriptor of sbatchd's but keep (moved to 3), /dev/null for input and
 * output, its log, its signals, and the signalfd that tells it of its
 * child's end (returned).
 */
static int
sup_setup(int keep)
{
	sigset_t mask;
	int sfd;

	setsid();
	if (keep >= 0 && keep != 3) {
		if (dup2(keep, 3) < 0)
			_exit(1);
		(void)fcntl(3, F_SETFD, FD_CLOEXEC);
	}
	/* One call where the kernel has it, not a walk of /proc/self/fd. */
	if (close_range(keep >= 0 ? 4 : 3, ~0U, 0) < 0)
		close_fds_from(keep >= 0 ? 4 : 3, -1);
	{
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			if (fd > 1)
				close(fd);
		}
	}
	{
		/* Log where sbatchd logs, through a descriptor of our own. */
		char *lp = daemon_log_path(&sbd->conf, "sbatchd", sbd->host);

		(void)log_init("jobsup", lp, sbd->opts.debug ? LOG_LVL_DEBUG :
		    log_level_from_mask(sbd->conf.lsf.log_mask));
		free(lp);
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_IGN);	/* it dies with the job, not before */
	signal(SIGINT, SIG_IGN);

	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		_exit(1);
	return sfd;
}

static void sup_run(struct job_spec *, const char *, const char *, int,
    int *);

void
jobsup_main(struct job_spec *spec, const char *dir, const char *sockpath)
{
	int sock = -1;

	sup_run(spec, dir, sockpath, sup_setup(-1), &sock);
	_exit(0);
}

/* The next job from sbatchd on fd 3; exits at the end of the file. */
static void
spare_wait(struct job_spec *spec, char **dir)
{
	struct wire_hdr h;
	struct rbuf r;
	uint8_t *body;
	bool unknown;

	(void)prctl(PR_SET_NAME, "jobsup spare");
	if (wire_recv(3, &h, &body, -1) < 0)
		_exit(0);
	rbuf_init(&r, body, h.len - WIRE_HDR_LEN);
	*dir = NULL;
	if (h.type != MSG_SBD_JOB_START || !get_str(&r, dir) ||
	    *dir == NULL || !user_unpack_install(&r, &unknown) ||
	    rbuf_end(&r) < 0) {
		log_warnx("spare supervisor: malformed job from sbatchd");
		_exit(1);
	}
	free(body);
	if (jobfile_read_spec(*dir, spec) < 0) {
		log_warnx("%s: no readable spec", *dir);
		_exit(1);
	}
	/* Not what an earlier job of ours found, if sbatchd finds nothing. */
	if (unknown)
		user_forget(spec->user);
}

/*
 * A spare: set up once, then supervise the jobs sbatchd sends down fd 3
 * (sbd-spare.c), one at a time: a job's directory, where its spec is,
 * and its user's entry.  After each, one byte back says we are free
 * again.  The end of the file means sbatchd is gone or has no more use
 * for us.  After SPARE_MAX_JOBS jobs we leave anyway, which bounds what
 * the jobs' vforked children leave in our heap.
 */
void
jobsup_spare_main(int fd)
{
	int sfd = sup_setup(fd), sock = -1;

	for (int n = 1;; n++) {
		struct job_spec spec;
		char *dir;

		spare_wait(&spec, &dir);
		sup_run(&spec, dir, sbd->sockpath, sfd, &sock);
		job_spec_release(&spec);
		free(dir);
		if (n >= SPARE_MAX_JOBS || write(3, "", 1) != 1)
			_exit(0);
	}
}

/* *sock: the connection to sbatchd kept from the job before, if any;
 * the one to keep for the next. */
static void
sup_run(struct job_spec *spec, const char *dir, const char *sockpath, int sfd,
    int *sock)
{
	struct sup s;
	char name[16], *lockpath;
	int lockfd, prefd[2], notefd[2];

	memset(&s, 0, sizeof(s));
	s.spec = spec;
	s.dir = dir;
	s.sockpath = sockpath;
	s.sock = *sock;
	snprintf(name, sizeof(name), "jobsup %lld", (long long)spec->jobid);
	(void)prctl(PR_SET_NAME, name);

	lockpath = xasprintf("%s/%s", dir, JOBDIR_LOCK);
	lockfd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lockfd < 0 || flock(lockfd, LOCK_EX) < 0)
		_exit(1);
	free(lockpath);
	write_hostfile(spec, dir);

	job_status_init(&s.st);
	s.st.jobid = spec->jobid;
	s.st.idx = spec->idx;
	s.st.run_count = spec->run_count;
	s.st.status = JOB_STAT_RUN;
	s.st.start_time = time(NULL);
	s.sent_mem = -1;
	s.pre_fd = -1;
	s.note_fd = -1;
	s.end.max_procs = s.end.max_threads = -1;
	ctl_init(&s.ctl, spec);
	if (jobsup_has_pre(spec) && pipe2(prefd, O_CLOEXEC) == 0)
		s.pre_fd = prefd[0];
	notefd[1] = -1;
	if (pipe2(notefd, O_CLOEXEC | O_NONBLOCK) == 0)
		s.note_fd = notefd[0];
	/*
	 * Without a pre-exec the child only sets itself up and execs, so
	 * vfork: it borrows our memory until then, which spares the copy
	 * of our page tables and the copy-on-write faults after it (a
	 * tenth of a short job's CPU).  Its descriptors, signal actions
	 * and credentials are its own; what it allocates stays in our
	 * heap, once.  A pre-exec runs as long as it likes while we must
	 * answer sbatchd: fork.
	 */
	s.pid = s.pre_fd >= 0 ? fork() : vfork();
	if (s.pid < 0) {
		struct rusage ru;

		memset(&ru, 0, sizeof(ru));
		s.st.exit_reason = TERM_OTHER;
		finish(&s, 127 << 8, &ru);
		_exit(0);
	}
	if (s.pid == 0) {
		close(sfd);
		if (s.pre_fd >= 0)
			close(s.pre_fd);
		if (s.note_fd >= 0)
			close(s.note_fd);
		jobsup_exec_job(spec, dir, s.pre_fd >= 0 ? prefd[1] : -1,
		    notefd[1]);
	}
	if (notefd[1] >= 0)
		close(notefd[1]);
	if (s.pre_fd >= 0) {
		close(prefd[1]);
		(void)fcntl(s.pre_fd, F_SETFL, O_NONBLOCK);
	}
	limits_init(&s.lim, spec, mono_ms());
	s.next_limit_ms = mono_ms() + LIMIT_INTERVAL_MS;
	s.st.pid = s.pid;
	s.st.pgid = s.pid;
	fill_exec_info(&s);
	s.next_sample_ms = mono_ms() + 1000;
	s.next_connect_ms = mono_ms() + HELLO_DELAY_MS;
	jobsup_mail_start(spec, &s.st);

	for (;;) {
		struct pollfd pfd[2];
		uint64_t now = mono_ms(), next = now + 5000;
		int n = 0, timeout;
		bool sampled;

		if (s.next_kill_ms && s.next_kill_ms < next)
			next = s.next_kill_ms;
		if (s.tstp_check_ms && s.tstp_check_ms < next)
			next = s.tstp_check_ms;
		if (ctl_next_ms(&s.ctl) && ctl_next_ms(&s.ctl) < next)
			next = ctl_next_ms(&s.ctl);
		if (s.chk_deadline_ms && s.chk_deadline_ms < next)
			next = s.chk_deadline_ms;
		if (s.next_sample_ms < next)
			next = s.next_sample_ms;
		if (!s.greeted && s.next_connect_ms < next)
			next = s.next_connect_ms;
		if (limits_active(&s.lim) && s.next_limit_ms < next)
			next = s.next_limit_ms;
		timeout = next > now ? (int)(next - now) : 0;
		pfd[n].fd = sfd;
		pfd[n++].events = POLLIN;
		if (s.sock >= 0) {
			pfd[n].fd = s.sock;
			pfd[n++].events = POLLIN;
		}
		if (poll(pfd, (nfds_t)n, timeout) < 0 && errno != EINTR)
			_exit(1);
		if (pfd[0].revents) {
			struct rusage ru;
			int wstatus;
			pid_t p;

			drain_sigfd(sfd);
			ctl_ended(&s);
			chkpnt_reap(&s, false);
			p = wait4(s.pid, &wstatus, WNOHANG, &ru);
			if (p == s.pid) {
				if (!pre_failed(&s, &ru)) {
					finish(&s, wstatus, &ru);
					post_exec(&s);
				}
				break;
			}
		}
		if (n > 1 && pfd[1].revents)
			read_socket(&s);
		now = mono_ms();
		if (s.next_kill_ms && now >= s.next_kill_ms)
			kill_step(&s);
		if (s.tstp_check_ms && now >= s.tstp_check_ms) {
			s.tstp_check_ms = 0;
			if (s.stopped)
				kill_group(&s, SIGSTOP);
		}
		ctl_expire(&s.ctl, now);
		if (s.chk_deadline_ms && now >= s.chk_deadline_ms) {
			log_warnx("job %lld: echkpnt ran %d s; killed",
			    (long long)s.spec->jobid, CHKPNT_TIMEOUT_MS / 1000);
			(void)kill(-s.chk_pid, SIGKILL);
			/* Reaped at its SIGCHLD. */
			s.chk_deadline_ms = 0;
		}
		sampled = now >= s.next_sample_ms;
		if (sampled) {
			/* Running usage goes up to mbatchd (bjobs -l, -W). */
			sample_usage(&s, true);
			if (usage_news(&s))
				send_status(&s, MSG_JS_STATUS);
			s.next_sample_ms = now + USAGE_INTERVAL_MS;
		}
		if (limits_active(&s.lim) && (sampled ||
		    now >= s.next_limit_ms)) {
			/* Between full looks, a quick one of the job's tree. */
			if (!sampled && limits_need_usage(&s.lim))
				sample_usage(&s, false);
			check_limits(&s, now);
			s.next_limit_ms = now + LIMIT_INTERVAL_MS;
		}
		if (!s.greeted && now >= s.next_connect_ms)
			try_connect(&s);
	}
	/* Nothing of this job stays open for the next (jobsup_spare_main)
	 * but the connection, which is not the job's; its lock goes last,
	 * once everything is reported. */
	*sock = s.sock;
	if (s.chk_pid > 0) {
		/* The job is over: what it was checkpointing is too. */
		(void)kill(-s.chk_pid, SIGKILL);
		chkpnt_reap(&s, true);
	}
	ctl_finish(&s.ctl);
	ctl_release(&s.ctl);
	if (s.pre_fd >= 0)
		close(s.pre_fd);
	if (s.note_fd >= 0)
		close(s.note_fd);
	usage_release(&s.usage);
	job_status_release(&s.st);
	drain_sigfd(sfd);
	close(lockfd);
}
