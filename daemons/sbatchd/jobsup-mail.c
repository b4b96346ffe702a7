/*
 * The output spool and the job's mail.  A job without -o writes its
 * output into the spool in its directory (and so does one whose -o or
 * -e file cannot be opened, for that stream); when it ends, the
 * supervisor mails the report followed by that output, as LSF does.  With -o the
 * report goes to the file (jobsup-report.c) and is mailed only for -N;
 * -B mails when the job starts.
 *
 * LSB_MAILPROG runs as the job's user, with sendmail's arguments
 * (-oi -F "LSF System" recipient) and the whole message, headers first,
 * on its standard input.  The supervisor waits for it a bounded time: a
 * mail program that fails or hangs loses its mail, never the job's end.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "requeue.h"
#include "sbd.h"

/* How long the supervisor waits for the mail program. */
#define MAIL_WAIT_MS	20000

int
jobsup_spool_open(const char *dir, uid_t uid, gid_t gid)
{
	char *path = xasprintf("%s/%s", dir, JOBDIR_OUTPUT);
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (fd >= 0 && geteuid() == 0 && fchown(fd, uid, gid) < 0) {
		close(fd);
		fd = -1;
	}
	free(path);
	return fd;
}

static const char *
mailprog(void)
{
	return sbd->conf.lsf.mailprog ? sbd->conf.lsf.mailprog :
	    "/usr/lib/sendmail";
}

/* bsub -u, else LSB_MAILTO with every !U the job's user. */
static char *
recipient(const struct job_spec *s)
{
	const char *to = sbd->conf.lsf.mailto ? sbd->conf.lsf.mailto : "!U";
	const char *user = s->user ? s->user : "";
	struct strbuf sb = STRBUF_INIT;

	if (s->mail_user && *s->mail_user)
		return xstrdup(s->mail_user);
	for (const char *p = to; *p; p++) {
		if (p[0] == '!' && p[1] == 'U') {
			sb_adds(&sb, user);
			p++;
		} else {
			sb_addc(&sb, *p);
		}
	}
	return sb_detach(&sb);
}

static void
add_headers(struct strbuf *sb, const struct job_spec *s, const char *to,
    const char *what)
{
	sb_addf(sb, "From: LSF System <%s@%s>\n", jobsup_sender(), sbd->host);
	sb_addf(sb, "To: %s\n", to);
	sb_adds(sb, "Subject: ");
	jobsup_subject(sb, s, what);
	sb_adds(sb, "\n\n");
}

/* The mail program's own process: stdin from the pipe, as the user. */
static void NORETURN
exec_mailprog(int in, const char *to, const struct passwd *pw, off_t size)
{
	const char *prog = mailprog();
	char *argv[] = { (char *)prog, "-oi", "-F", "LSF System",
	    (char *)to, NULL };
	struct strv env = STRV_INIT;
	sigset_t none;
	int fd;

	if (dup2(in, 0) < 0)
		_exit(127);
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	close_fds_from(3, -1);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	strv_push_nodup(&env, xstrdup("PATH=/usr/sbin:/usr/bin:/sbin:/bin"));
	strv_push_nodup(&env, xasprintf("HOME=%s", pw->pw_dir));
	strv_push_nodup(&env, xasprintf("USER=%s", pw->pw_name));
	strv_push_nodup(&env, xasprintf("LOGNAME=%s", pw->pw_name));
	/* LSF's hint for mail programs that refuse big messages (KB). */
	strv_push_nodup(&env, xasprintf("LSB_MAILSIZE=%lld",
	    (long long)((size + 1023) / 1024)));
	execve(prog, argv, env.v);
	_exit(127);
}

/*
 * In a child that has become the user: start the mail program, write
 * head, the spool's contents and tail to it, and exit with its status.
 */
static void NORETURN
mail_child(const struct sbd_user *u, const char *to,
    const struct strbuf *head, const char *spool, const struct strbuf *tail)
{
	const struct passwd *pw = &u->pw;
	char buf[65536];
	struct stat sb;
	off_t size = (off_t)head->len + (off_t)tail->len;
	int p[2], fd = -1, status;
	ssize_t n;
	pid_t pid;

	(void)setpgid(0, 0);
	if (user_become(u) < 0)
		_exit(126);
	if (spool) {
		fd = open(spool, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && fstat(fd, &sb) == 0)
			size += sb.st_size;
	}
	if (pipe2(p, O_CLOEXEC) < 0)
		_exit(126);
	pid = fork();
	if (pid < 0)
		_exit(126);
	if (pid == 0)
		exec_mailprog(p[0], to, pw, size);
	close(p[0]);
	/* A mail program that stops reading ends the copy (EPIPE). */
	if (write_all(p[1], head->buf, head->len) == 0 && fd >= 0) {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write_all(p[1], buf, (size_t)n) < 0)
				break;
	}
	if (tail->len)
		(void)write_all(p[1], tail->buf, tail->len);
	close(p[1]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			_exit(126);
	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	_exit(128 + WTERMSIG(status));
}

static void
send_mail(const struct job_spec *s, const struct strbuf *head,
    const char *spool, const struct strbuf *tail, const char *to)
{
	const char *prog = mailprog();
	const struct sbd_user *u = user_get(s->user);
	uint64_t deadline = mono_ms() + MAIL_WAIT_MS;
	int status;
	pid_t pid, r;

	if (u == NULL) {
		log_warnx("job %lld: user %s unknown; no mail",
		    (long long)s->jobid, s->user ? s->user : "(none)");
		return;
	}
	pid = fork();
	if (pid < 0) {
		log_warn("job %lld: fork for the mail", (long long)s->jobid);
		return;
	}
	if (pid == 0)
		mail_child(u, to, head, spool, tail);
	/* Polled, so that a mail program that hangs cannot keep the job's
	 * status from being reported. */
	while ((r = waitpid(pid, &status, WNOHANG)) == 0) {
		if (mono_ms() >= deadline) {
			(void)kill(-pid, SIGKILL);
			(void)kill(pid, SIGKILL);
			(void)waitpid(pid, &status, 0);
			log_warnx("job %lld: %s did not finish in %d s; mail to "
			    "%s dropped", (long long)s->jobid, prog,
			    MAIL_WAIT_MS / 1000, to);
			return;
		}
		usleep(20000);
	}
	if (r < 0)
		log_warn("job %lld: waiting for %s", (long long)s->jobid, prog);
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		log_warnx("job %lld: %s failed (status %d); mail to %s lost",
		    (long long)s->jobid, prog, WIFEXITED(status) ?
		    WEXITSTATUS(status) : 128 + WTERMSIG(status), to);
	else
		log_info("job %lld: mail sent to %s", (long long)s->jobid, to);
}

/* A recipient that looks like an option would be one to sendmail. */
static char *
checked_recipient(const struct job_spec *s)
{
	char *to = recipient(s);

	if (to[0] == '\0' || to[0] == '-') {
		log_warnx("job %lld: bad mail recipient \"%s\"; no mail",
		    (long long)s->jobid, to);
		free(to);
		return NULL;
	}
	return to;
}

void
jobsup_mail_start(const struct job_spec *s, const struct job_status *st)
{
	struct strbuf head = STRBUF_INIT, tail = STRBUF_INIT;
	char *to;

	if (!(s->options & SUB_NOTIFY_BEGIN) || (to = checked_recipient(s)) ==
	    NULL)
		return;
	add_headers(&head, s, to, "Dispatched");
	jobsup_report_start(&head, s, st, st->exec_home ? st->exec_home : "",
	    st->exec_cwd ? st->exec_cwd : "");
	send_mail(s, &head, NULL, &tail, to);
	sb_release(&head);
	free(to);
}

/* Does this end send the job back to its queue?  Then it is not the
 * job's end, and LSF sends no mail. */
static bool
goes_back(const struct job_spec *s, const struct job_status *st,
    const char *dir, bool requeued)
{
	char *marker = xasprintf("%s/%s", dir, JOBDIR_NOMAIL);
	bool back = requeued || access(marker, F_OK) == 0;

	free(marker);
	if (st->pre_exec_failed || st->exit_reason == TERM_REQUEUE_OWNER ||
	    st->exit_reason == TERM_REQUEUE_ADMIN)
		back = true;
	/* REQUEUE_EXIT_VALUES, as mbatchd applies it. */
	if (s->requeue_exit && st->exit_status >= 0 && st->exit_reason == 0 &&
	    WIFEXITED(st->exit_status) && WEXITSTATUS(st->exit_status) != 0 &&
	    exit_value_listed(s->requeue_exit, WEXITSTATUS(st->exit_status)))
		back = true;
	return back;
}

void
jobsup_mail_end(const struct job_spec *s, const struct job_status *st,
    const char *dir, const struct job_end *end)
{
	struct strbuf head = STRBUF_INIT, tail = STRBUF_INIT;
	char *to, *out, *err, *spool = NULL;
	bool spooled;

	out = jobsup_expand_path(s->out_file, s, ".out");
	err = jobsup_expand_path(s->err_file, s, ".err");
	/* The spool holds what had no file: everything without -o, and
	 * the stream whose -o or -e file could not be opened. */
	spooled = out == NULL || end->out_errno || end->err_errno;
	if ((!spooled && !(s->options & SUB_NOTIFY_END)) ||
	    goes_back(s, st, dir, end->requeued) ||
	    (to = checked_recipient(s)) == NULL) {
		free(out);
		free(err);
		return;
	}
	add_headers(&head, s, to, st->status == JOB_STAT_DONE ? "Done" :
	    "Exited");
	jobsup_report_body(&head, s, st, end, st->exec_home ? st->exec_home :
	    "", st->exec_cwd ? st->exec_cwd : "");
	if (spooled) {
		sb_adds(&head, "\nThe output (if any) follows:\n\n");
		spool = xasprintf("%s/%s", dir, JOBDIR_OUTPUT);
		if (out && end->out_errno)
			sb_addf(&tail, "\n\nPS:\n\nCannot write file <%s> "
			    "for stdout output of this job: %s.\n", out,
			    strerror(end->out_errno));
		else if (out)
			sb_addf(&tail, "\n\nPS:\n\nRead file <%s> for stdout "
			    "output of this job.\n", out);
		if (err && end->err_errno)
			sb_addf(&tail, "%sCannot write file <%s> for stderr "
			    "output of this job: %s.\n", tail.len ? "" :
			    "\n\nPS:\n\n", err, strerror(end->err_errno));
		else if (err && (out == NULL || strcmp(err, out) != 0))
			sb_addf(&tail, "%sRead file <%s> for stderr output of "
			    "this job.\n", tail.len ? "" : "\n\nPS:\n\n", err);
	} else if (err && strcmp(err, out) != 0) {
		sb_addf(&head, "\nRead file <%s> for stdout output of this "
		    "job.\nRead file <%s> for stderr output of this job.\n",
		    out, err);
	} else {
		sb_addf(&head, "\nRead file <%s> for stdout and stderr output "
		    "of this job.\n", out);
	}
	send_mail(s, &head, spool, &tail, to);
	sb_release(&head);
	sb_release(&tail);
	free(spool);
	free(out);
	free(err);
	free(to);
}
