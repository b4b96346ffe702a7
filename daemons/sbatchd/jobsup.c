/*
 * The per-job supervisor.  sbatchd forks it for each job; it moves to a
 * session of its own (so it outlives sbatchd), holds the lock of the job
 * directory, forks the job, and then waits.  It keeps a connection to
 * sbatchd's socket: "hello" with the job's pid when it starts and after
 * every reconnect, signal requests coming the other way, and the final
 * status at the end.  The final status is first written to the job
 * directory, so it is never lost if sbatchd is not there to hear it.
 *
 * The loop is poll(2) on a signalfd for SIGCHLD and on the socket, with
 * timers for the TERMINATE sequence (SIGINT, SIGTERM, SIGKILL), memory
 * sampling and reconnecting.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <pwd.h>

#include "log.h"
#include "sbd.h"

/* How often a running job's memory and CPU time are collected. */
#define USAGE_INTERVAL_MS	5000

struct sup {
	struct job_spec	*spec;
	const char	*dir;
	const char	*sockpath;
	int		 sock;
	pid_t		 pid;
	struct job_status st;
	int		 kill_stage;	/* 0 none, 1 INT sent, 2 TERM, 3 KILL */
	uint64_t	 next_kill_ms;
	uint64_t	 next_sample_ms;
	uint64_t	 next_connect_ms;
	int64_t		 mem_sum;	/* for the average */
	int		 mem_n;
	bool		 stopped;
};

static void
send_status(struct sup *s, uint16_t type)
{
	struct wbuf w;

	if (s->sock < 0)
		return;
	wbuf_init(&w);
	wbuf_begin(&w, type, 0, 0);
	job_status_pack(&w, &s->st);
	wbuf_end_frame(&w);
	if (wire_send(s->sock, &w) < 0) {
		close(s->sock);
		s->sock = -1;
	}
	wbuf_release(&w);
}

static void
try_connect(struct sup *s)
{
	s->sock = net_connect_unix(s->sockpath);
	if (s->sock < 0) {
		s->next_connect_ms = mono_ms() + 1000;
		return;
	}
	send_status(s, MSG_JS_HELLO);
}

/* Where the job runs and as whom, for JOB_EXECUTE and bjobs -l. */
static void
fill_exec_info(struct sup *s)
{
	const struct job_spec *sp = s->spec;
	struct passwd *pw = sp->user ? getpwnam(sp->user) : NULL;
	const char *cwd = sp->cwd && *sp->cwd ? sp->cwd : sp->sub_cwd;
	struct stat sb;

	if (cwd == NULL || stat(cwd, &sb) < 0 || !S_ISDIR(sb.st_mode))
		cwd = "/tmp";
	s->st.exec_cwd = xstrdup(cwd);
	s->st.exec_home = xstrdup(pw ? pw->pw_dir : "/");
	s->st.exec_user = xstrdup(pw ? pw->pw_name : (sp->user ? sp->user :
	    ""));
}

/*
 * Sum the resident memory and CPU time of the job's session.  Returns
 * true when either changed enough to be worth reporting.
 */
static bool
sample_usage(struct sup *s)
{
	long ticks = sysconf(_SC_CLK_TCK);
	double cpu = 0;
	int64_t old_mem = s->st.mem_kb;
	double old_cpu = s->st.cpu_time;

	DIR *d = opendir("/proc");
	struct dirent *de;
	long pagekb = sysconf(_SC_PAGESIZE) / 1024;
	int64_t kb = 0;

	if (d == NULL)
		return false;
	while ((de = readdir(d)) != NULL) {
		char path[300], buf[1024], *p;
		long session, rss;
		unsigned long ut, stt;
		ssize_t n;
		int fd;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* Fields after the command name, which may hold blanks. */
		p = strrchr(buf, ')');
		if (p == NULL)
			continue;
		/* state ppid pgrp session ... utime stime (14, 15) ...
		 * rss is field 24 overall */
		if (sscanf(p + 2, "%*c %*d %*d %ld %*d %*d %*u %*u %*u %*u %*u "
		    "%lu %lu %*d %*d %*d %*d %*d %*d %*u %*u %ld",
		    &session, &ut, &stt, &rss) != 4)
			continue;
		if (session == s->pid) {
			kb += (int64_t)rss * pagekb;
			cpu += (double)(ut + stt) / (double)ticks;
		}
	}
	closedir(d);
	if (kb <= 0)
		return false;
	if (cpu > s->st.cpu_time)
		s->st.cpu_time = cpu;
	s->st.mem_kb = kb;
	if (kb > s->st.max_mem_kb)
		s->st.max_mem_kb = kb;
	s->mem_sum += kb;
	s->mem_n++;
	s->st.avg_mem_kb = s->mem_sum / s->mem_n;
	return kb != old_mem || s->st.cpu_time - old_cpu >= 0.5;
}

static void
signal_job(struct sup *s, int sig)
{
	if (s->pid <= 0)
		return;
	if (kill(-s->pid, sig) < 0 && errno == ESRCH)
		(void)kill(s->pid, sig);
	/* A stopped job must run to act on a terminating signal. */
	if (s->stopped && sig != SIGSTOP && sig != SIGTSTP &&
	    sig != SIGCONT) {
		(void)kill(-s->pid, SIGCONT);
		s->stopped = false;
	}
}

static void
kill_step(struct sup *s)
{
	static const int seq[] = { SIGINT, SIGTERM, SIGKILL };
	int interval = s->spec->term_interval >= 0 ? s->spec->term_interval : 10;

	if (s->kill_stage >= 3)
		return;
	signal_job(s, seq[s->kill_stage]);
	s->kill_stage++;
	s->next_kill_ms = s->kill_stage < 3 ?
	    mono_ms() + (uint64_t)interval * 1000 : 0;
}

static void
handle_request(struct sup *s, const struct sbd_signal *sg)
{
	/* For a suspension, reason is why (SUSP_*); otherwise it is the
	 * TERM_* to report if the job dies of it. */
	if (sg->reason && sg->sig != SBD_SIG_SUSPEND &&
	    sg->sig != SBD_SIG_RESUME)
		s->st.exit_reason = sg->reason;
	switch (sg->sig) {
	case SIG_KILL_SEQ:
		if (s->kill_stage == 0)
			kill_step(s);
		break;
	case SBD_SIG_SUSPEND:
		/* SIGTSTP for parallel jobs, as LSF does. */
		signal_job(s, s->spec->exec_hosts.n > 1 ? SIGTSTP : SIGSTOP);
		s->stopped = true;
		s->st.status = sg->reason == SUSP_USER_STOP ||
		    sg->reason == SUSP_ADMIN_STOP ? JOB_STAT_USUSP :
		    JOB_STAT_SSUSP;
		s->st.susp_reason = sg->reason;
		send_status(s, MSG_JS_STATUS);
		break;
	case SBD_SIG_RESUME:
		signal_job(s, SIGCONT);
		s->stopped = false;
		s->st.status = JOB_STAT_RUN;
		s->st.susp_reason = 0;
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

static void
read_socket(struct sup *s)
{
	struct wire_hdr h;
	uint8_t *body;
	struct rbuf r;
	struct sbd_signal sg;

	if (wire_recv(s->sock, &h, &body, 1000) < 0) {
		close(s->sock);
		s->sock = -1;
		s->next_connect_ms = mono_ms() + 200;
		return;
	}
	rbuf_init(&r, body, h.len - WIRE_HDR_LEN);
	if (h.type == MSG_SBD_JOB_SIGNAL && sbd_signal_unpack(&r, &sg) &&
	    rbuf_end(&r) == 0)
		handle_request(s, &sg);
	free(body);
}

static void
finish(struct sup *s, int wstatus, const struct rusage *ru)
{
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
	jobsup_write_report(s->spec, &s->st);
	if (jobfile_write_status(s->dir, &s->st) < 0)
		log_warn("job %lld: cannot write its status",
		    (long long)s->spec->jobid);
	for (int i = 0; i < 3 && s->sock < 0; i++) {
		try_connect(s);
		if (s->sock < 0)
			usleep(100000);
	}
	send_status(s, MSG_JS_STATUS);
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

void
jobsup_main(struct job_spec *spec, const char *dir, const char *sockpath)
{
	struct sup s;
	sigset_t mask;
	char name[16], *lockpath;
	int sfd, lockfd;

	memset(&s, 0, sizeof(s));
	s.spec = spec;
	s.dir = dir;
	s.sockpath = sockpath;
	s.sock = -1;
	setsid();
	close_fds_from(3, -1);
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
	snprintf(name, sizeof(name), "jobsup %lld", (long long)spec->jobid);
	(void)prctl(PR_SET_NAME, name);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_IGN);	/* it dies with the job, not before */
	signal(SIGINT, SIG_IGN);

	lockpath = xasprintf("%s/%s", dir, JOBDIR_LOCK);
	lockfd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lockfd < 0 || flock(lockfd, LOCK_EX) < 0)
		_exit(1);
	free(lockpath);
	write_hostfile(spec, dir);

	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		_exit(1);

	job_status_init(&s.st);
	s.st.jobid = spec->jobid;
	s.st.idx = spec->idx;
	s.st.run_count = spec->run_count;
	s.st.status = JOB_STAT_RUN;
	s.st.start_time = time(NULL);
	s.pid = fork();
	if (s.pid < 0) {
		struct rusage ru;

		memset(&ru, 0, sizeof(ru));
		s.st.exit_reason = TERM_OTHER;
		finish(&s, 127 << 8, &ru);
		_exit(0);
	}
	if (s.pid == 0) {
		close(sfd);
		jobsup_exec_job(spec, dir, -1);
	}
	s.st.pid = s.pid;
	s.st.pgid = s.pid;
	fill_exec_info(&s);
	s.next_sample_ms = mono_ms() + 1000;
	try_connect(&s);

	for (;;) {
		struct pollfd pfd[2];
		uint64_t now = mono_ms(), next = now + 5000;
		int n = 0, timeout;

		if (s.next_kill_ms && s.next_kill_ms < next)
			next = s.next_kill_ms;
		if (s.next_sample_ms < next)
			next = s.next_sample_ms;
		if (s.sock < 0 && s.next_connect_ms < next)
			next = s.next_connect_ms;
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
			struct signalfd_siginfo si;
			struct rusage ru;
			int wstatus;
			pid_t p;

			while (read(sfd, &si, sizeof(si)) == sizeof(si))
				;
			p = wait4(s.pid, &wstatus, WNOHANG, &ru);
			if (p == s.pid) {
				finish(&s, wstatus, &ru);
				_exit(0);
			}
		}
		if (n > 1 && pfd[1].revents)
			read_socket(&s);
		now = mono_ms();
		if (s.next_kill_ms && now >= s.next_kill_ms)
			kill_step(&s);
		if (now >= s.next_sample_ms) {
			/* Running usage goes up to mbatchd (bjobs -l, -W). */
			if (sample_usage(&s))
				send_status(&s, MSG_JS_STATUS);
			s.next_sample_ms = now + USAGE_INTERVAL_MS;
		}
		if (s.sock < 0 && now >= s.next_connect_ms)
			try_connect(&s);
	}
}
