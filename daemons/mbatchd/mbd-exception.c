/*
 * Exceptions, as LSF detects them: a host where jobs exit too often
 * (EXIT_RATE in lsb.hosts, GLOBAL_EXIT_RATE in lsb.params), and jobs of
 * a queue that run too long, end too soon or use no CPU (JOB_OVERRUN,
 * JOB_UNDERRUN, JOB_IDLE in lsb.queues).
 *
 * On an exception mbatchd runs LSF_SERVERDIR/eadmin when there is one,
 * with the exception in its environment (LSB_EXCEPTION and the
 * LSB_EXCEPTION_* variables below), and does nothing else about it:
 * the site's script decides.  Without one it does what LSF's own eadmin
 * does: a host exception closes the host (a HOST_CTRL record with the
 * comment LSF attaches, as badmin hclose would) and mails the
 * administrator; a job exception is mailed.
 *
 * A host fires once, until an administrator opens it again; the exits
 * that made it fire are forgotten.  Exits are counted where a JOB_STATUS
 * record is applied, live and in replay alike, with the record's end
 * time: a restarted mbatchd counts on from where its predecessor was,
 * and knows which hosts already fired.  Only the live mbatchd acts.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "mbd.h"

/* LSF's comment on the HOST_CTRL record of a host its eadmin closed. */
#define EXIT_COMMENT	"eadmin: JOB EXIT THRESHOLD EXCEEDED"

static char *
eadmin_path(void)
{
	const char *dir = mbd->conf.lsf.serverdir;
	char *path;

	if (dir == NULL)
		return NULL;
	path = xasprintf("%s/eadmin", dir);
	if (access(path, X_OK) < 0) {
		free(path);
		return NULL;
	}
	return path;
}

/* In the grandchild: the mail program, given body on its stdin. */
static void
mail_admin(const char *subject, const struct strbuf *body)
{
	const char *prog = mbd->conf.lsf.mailprog ? mbd->conf.lsf.mailprog :
	    "/usr/lib/sendmail";
	const char *to = mbd->admins.n > 0 ? mbd->admins.v[0] : "root";
	struct strbuf msg = STRBUF_INIT;
	int p[2], status;
	pid_t pid;

	if (pipe(p) < 0)
		_exit(126);
	pid = fork();
	if (pid < 0)
		_exit(126);
	if (pid == 0) {
		char *argv[] = { (char *)prog, "-oi", "-F", "LSF System",
		    (char *)to, NULL };

		dup2(p[0], 0);
		close(p[0]);
		close(p[1]);
		execv(prog, argv);
		_exit(127);
	}
	close(p[0]);
	sb_addf(&msg, "From: LSF System <%s@%s>\nTo: %s\nSubject: %s\n\n",
	    to, mbd->host, to, subject);
	sb_add(&msg, body->buf, body->len);
	(void)write_all(p[1], msg.buf, msg.len);
	close(p[1]);
	sb_release(&msg);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/*
 * Run eadmin (path not NULL) with env added to mbatchd's environment,
 * or mail subject and body to the administrator.  Twice forked, so
 * mbatchd neither waits nor leaves a zombie.
 */
static void
exc_spawn(const char *path, const struct strv *env, const char *subject,
    const struct strbuf *body)
{
	sigset_t none;
	pid_t pid;
	int status, fd;

	pid = fork();
	if (pid < 0) {
		log_warn("exception: fork");
		return;
	}
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		return;
	}
	/* The child: its own child runs on, it ends at once. */
	if (fork() != 0)
		_exit(0);
	(void)setsid();
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
	}
	close_fds_from(3, -1);
	if (path == NULL) {
		mail_admin(subject, body);
		_exit(0);
	}
	for (size_t i = 0; i < env->n; i++)
		putenv(env->v[i]);
	execl(path, "eadmin", (char *)NULL);
	_exit(127);
}

static void	exc_job_mail(int64_t);

/* How many exits make a host exception there; -1 none. */
static int
host_threshold(const struct mhost *h)
{
	if (h->bconf && h->bconf->exit_rate >= 0)
		return h->bconf->exit_rate;
	return mbd->conf.params.global_exit_rate;
}

static void
host_exception(struct mhost *h, int nexits, int threshold)
{
	int minutes = mbd->conf.params.job_exit_rate_duration;
	struct strbuf body = STRBUF_INIT;
	struct strv env = STRV_INIT;
	char *path = eadmin_path();
	char *subject;

	log_warnx("host %s: %d jobs exited in the last %d minute(s), over "
	    "its EXIT_RATE of %d: host exception%s", h->name, nexits,
	    minutes, threshold, path ? ", eadmin runs" : "; closed");
	strv_push_nodup(&env, xstrdup("LSB_EXCEPTION=host_exit_rate"));
	strv_push_nodup(&env, xasprintf("LSB_EXCEPTION_HOST=%s", h->name));
	strv_push_nodup(&env, xasprintf("LSB_EXCEPTION_EXITS=%d", nexits));
	strv_push_nodup(&env, xasprintf("LSB_EXCEPTION_EXIT_RATE=%d",
	    threshold));
	strv_push_nodup(&env, xasprintf("LSB_EXCEPTION_DURATION=%d",
	    minutes));
	if (path == NULL) {
		/* LSF's default eadmin: badmin hclose with its comment. */
		admin_host_close(h, EXIT_COMMENT);
	}
	subject = xasprintf("LSF host exception: %s", h->name);
	sb_addf(&body, "Host: %s\nException: job exit rate\n"
	    "Jobs exited in the last %d minute(s): %d\nEXIT_RATE: %d\n"
	    "Action: %s\n", h->name, minutes, nexits, threshold,
	    path ? "eadmin" : "host closed (" EXIT_COMMENT ")");
	exc_spawn(path, &env, subject, &body);
	free(subject);
	sb_release(&body);
	strv_release(&env);
	free(path);
}

/*
 * A JOB_STATUS record of a job ending: an exit of its own, not one LSF
 * or a user caused (LSF's EXIT_RATE_TYPE JOBEXIT_NONLSF, its default),
 * counts against its first host.  Crossing the threshold marks the
 * host fired and due; exc_host_due acts on it when live.
 */
void
exc_exit_apply(const struct job *j, const struct ev_job_status *ev,
    int64_t when)
{
	struct mhost *h = j->nexec > 0 ? j->exec[0] : NULL;
	int64_t now = ev->end_time ? ev->end_time : when;
	int64_t window = (int64_t)mbd->conf.params.job_exit_rate_duration *
	    60;
	int threshold, n = 0;

	if (h == NULL || !(ev->status & JOB_STAT_EXIT) || ev->exit_info != 0 ||
	    j->kill_asked)
		return;
	threshold = host_threshold(h);
	if (threshold < 0 || h->exc_fired || h->closed_adm)
		return;
	/* Only the exits of the window, and threshold + 1 of them at most:
	 * that many within it is already an exception. */
	for (int i = 0; i < h->nexits; i++)
		if (now - h->exits[i] < window)
			h->exits[n++] = h->exits[i];
	if (n > threshold)	/* a lower EXIT_RATE since (reconfig) */
		memmove(h->exits, h->exits + 1, sizeof(int64_t) * (size_t)--n);
	if (n >= h->exits_cap) {
		h->exits_cap = n + 8;
		h->exits = xrealloc(h->exits,
		    sizeof(int64_t) * (size_t)h->exits_cap);
	}
	h->exits[n++] = now;
	h->nexits = n;
	if (n > threshold) {
		h->exc_fired = true;
		h->exc_due = n;
		h->nexits = 0;
	}
}

/* Live, after the record: the exception its apply found, if any. */
void
exc_host_due(struct mhost *h)
{
	int n = h->exc_due;

	if (n == 0)
		return;
	h->exc_due = 0;
	host_exception(h, n, host_threshold(h));
}

/* After replay: what the records crossed was acted on before. */
void
exc_replayed(void)
{
	for (int i = 0; i < mbd->nhosts; i++)
		mbd->hosts[i]->exc_due = 0;
}

void
exc_host_opened(struct mhost *h)
{
	h->exc_fired = false;
	h->nexits = 0;
}

/*
 * Job exceptions.  Without an eadmin they are mailed, all those found
 * within EADMIN_TRIGGER_DURATION in one mail, as LSF's default eadmin
 * does; LSF takes no other action on them.
 */
static struct strbuf	 job_mail = STRBUF_INIT;
static int64_t		 job_mail_last;

static const char *
exc_name(int bit)
{
	switch (bit) {
	case JOB_EXC_OVERRUN:
		return "overrun";
	case JOB_EXC_UNDERRUN:
		return "underrun";
	default:
		return "idle";
	}
}

static void
job_exception(struct job *j, int bit, int64_t run_time, int64_t now)
{
	const struct queue_conf *qc = j->queue->conf;
	const char *host = j->nexec > 0 ? j->exec[0]->name : "-";
	struct strv env = STRV_INIT;
	char id[64], *path;

	j->exceptions |= bit;
	if (j->idx > 0)
		snprintf(id, sizeof(id), "%lld[%d]", (long long)j->jobid,
		    (int)j->idx);
	else
		snprintf(id, sizeof(id), "%lld", (long long)j->jobid);
	log_info("job %s: %s exception (queue %s, run time %lld s, CPU time "
	    "%.1f s)", id, exc_name(bit), qc->name, (long long)run_time,
	    j->cpu_time);
	if ((path = eadmin_path()) == NULL) {
		sb_addf(&job_mail, "Job <%s> of user <%s>, queue <%s>, host "
		    "<%s>: %s (run time %lld seconds, CPU time %.1f "
		    "seconds)\n", id, j->user, qc->name, host, exc_name(bit),
		    (long long)run_time, j->cpu_time);
		exc_job_mail(now);
		return;
	}
	strv_push_nodup(&env, xasprintf("LSB_EXCEPTION=%s", exc_name(bit)));
	strv_push_nodup(&env, xasprintf("LSB_EXCEPTION_JOBID=%s", id));
	strv_push_nodup(&env, xasprintf("LSB_EXCEPTION_QUEUE=%s", qc->name));
	strv_push_nodup(&env, xasprintf("LSB_EXCEPTION_USER=%s", j->user));
	strv_push_nodup(&env, xasprintf("LSB_EXCEPTION_HOST=%s", host));
	exc_spawn(path, &env, NULL, NULL);
	strv_release(&env);
	free(path);
}

/* The job exceptions found so far, in one mail, at most once every
 * EADMIN_TRIGGER_DURATION. */
static void
exc_job_mail(int64_t now)
{
	int64_t every = (int64_t)mbd->conf.params.eadmin_trigger_duration * 60;

	if (job_mail.len == 0 || now - job_mail_last < every)
		return;
	job_mail_last = now;
	exc_spawn(NULL, NULL, "LSF job exceptions", &job_mail);
	sb_reset(&job_mail);
}

static bool
queue_watched(const struct queue_conf *qc)
{
	return qc->job_overrun >= 0 || qc->job_idle >= 0;
}

void
exc_job_pass(int64_t now)
{
	int64_t idle_after = (int64_t)mbd->conf.params.detect_idle_job_after *
	    60;
	bool any = false;

	/* sbatchd reports CPU time every SBD_SLEEP_TIME: not before two
	 * of them has a job's figure any meaning. */
	if (idle_after < 2 * (int64_t)mbd->conf.params.sbd_sleep_time)
		idle_after = 2 * (int64_t)mbd->conf.params.sbd_sleep_time;

	exc_job_mail(now);
	for (int i = 0; i < mbd->nqueues && !any; i++)
		any = queue_watched(mbd->queues[i]->conf);
	if (!any)
		return;
	for (struct job *j = mbd->jobs_head; j; j = j->next) {
		const struct queue_conf *qc = j->queue->conf;
		int64_t run;

		if (!JOB_STAT_STARTED(j->status) || j->start_time <= 0 ||
		    !queue_watched(qc))
			continue;
		run = now - j->start_time;
		if (qc->job_overrun >= 0 &&
		    !(j->exceptions & JOB_EXC_OVERRUN) &&
		    run > (int64_t)qc->job_overrun * 60)
			job_exception(j, JOB_EXC_OVERRUN, run, now);
		/* Idle: CPU time over run time, once it has run long enough
		 * (DETECT_IDLE_JOB_AFTER) and only while it runs. */
		if (qc->job_idle >= 0 && !(j->exceptions & JOB_EXC_IDLE) &&
		    (j->status & JOB_STAT_RUN) && run > 0 &&
		    run >= idle_after &&
		    j->cpu_time / (double)run < qc->job_idle)
			job_exception(j, JOB_EXC_IDLE, run, now);
	}
}

void
exc_job_ended(struct job *j, int status, int64_t end_time)
{
	const struct queue_conf *qc = j->queue->conf;
	int64_t run;

	/* LSF: an underrun is a job that exits (abnormally) too soon. */
	if (qc->job_underrun < 0 || status != JOB_STAT_EXIT ||
	    j->start_time <= 0)
		return;
	run = end_time - j->start_time;
	if (run < (int64_t)qc->job_underrun * 60)
		job_exception(j, JOB_EXC_UNDERRUN, run, end_time);
}
