/*
 * Pre- and post-execution commands, in LSF's order:
 *
 *	before	HOST_PRE_EXEC of the queue, then of the application profile
 *		(as root), the queue's PRE_EXEC, then the job's -E or, without
 *		one, the profile's PRE_EXEC;
 *	after	the job's -Ep or the profile's POST_EXEC, the queue's
 *		POST_EXEC, the profile's HOST_POST_EXEC, the queue's.
 *
 * Each runs under /bin/sh -c with the job's environment.  The job's own
 * (bsub -E, -Ep) run like the job: as its user, in its working
 * directory, writing to its output.  The others run in /tmp with their
 * standard files on /dev/null, as LSF documents for them: the host ones
 * as root, the queue's and the profile's as its PRE_POST_EXEC_USER, by
 * default the job's user.  The first that fails ends the pre-execution:
 * the job does not run, and the host post-execution commands still run
 * to clean up (jobsup_host_post).  After the job every one runs; the
 * first failure is the outcome.
 *
 * The pre-execution runs in the job's own process, before the exec of
 * the job (the host and configured ones while it is still root), so it
 * is in the job's session: a bkill meanwhile ends it too.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sbd.h"

static bool
has(const char *cmd)
{
	return cmd != NULL && *cmd != '\0';
}

/* Who runs a command, and where. */
enum pp_kind {
	PP_HOST,	/* root, in /tmp, on /dev/null */
	PP_CONF,	/* PRE_POST_EXEC_USER or the job's user, the same */
	PP_JOB		/* the job's -E, -Ep: as the caller set it up */
};

struct pp_step {
	const char	*cmd;
	enum pp_kind	 kind;
	const char	*user;	/* PP_CONF: NULL, the job's user */
};

/* The job's -E, or without it the profile's PRE_EXEC (and -Ep, POST). */
static const char *
job_level(const char *job, const char *app)
{
	return has(job) ? job : app;
}

static int
pre_steps(const struct job_spec *s, struct pp_step *st)
{
	int n = 0;

	st[n++] = (struct pp_step){ s->host_pre_exec, PP_HOST, NULL };
	st[n++] = (struct pp_step){ s->app_host_pre_exec, PP_HOST, NULL };
	st[n++] = (struct pp_step){ s->queue_pre_exec, PP_CONF,
	    s->queue_prepost_user };
	if (has(s->pre_exec))
		st[n++] = (struct pp_step){ s->pre_exec, PP_JOB, NULL };
	else
		st[n++] = (struct pp_step){ s->app_pre_exec, PP_CONF,
		    s->app_prepost_user };
	return n;
}

static int
post_steps(const struct job_spec *s, struct pp_step *st)
{
	int n = 0;

	if (has(s->post_exec))
		st[n++] = (struct pp_step){ s->post_exec, PP_JOB, NULL };
	else
		st[n++] = (struct pp_step){ s->app_post_exec, PP_CONF,
		    s->app_prepost_user };
	st[n++] = (struct pp_step){ s->queue_post_exec, PP_CONF,
	    s->queue_prepost_user };
	st[n++] = (struct pp_step){ s->app_host_post_exec, PP_HOST, NULL };
	st[n++] = (struct pp_step){ s->host_post_exec, PP_HOST, NULL };
	return n;
}

bool
jobsup_has_pre(const struct job_spec *s)
{
	return has(s->host_pre_exec) || has(s->app_host_pre_exec) ||
	    has(s->queue_pre_exec) || has(job_level(s->pre_exec,
	    s->app_pre_exec));
}

bool
jobsup_has_post(const struct job_spec *s)
{
	return has(s->host_post_exec) || has(s->app_host_post_exec) ||
	    has(s->queue_post_exec) || has(job_level(s->post_exec,
	    s->app_post_exec));
}

bool
jobsup_has_host_post(const struct job_spec *s)
{
	return has(s->host_post_exec) || has(s->app_host_post_exec);
}

/* In the child: become who runs the step (from root), or stay. */
static void
step_user(const struct pp_step *st, const struct job_spec *s)
{
	const struct sbd_user *u;

	if (st->kind == PP_HOST || st->kind == PP_JOB)
		return;
	u = user_get(st->user ? st->user : s->user);
	if (u == NULL)
		_exit(127);
	if (geteuid() == 0) {
		if (user_become(u) < 0)
			_exit(127);
	} else if (geteuid() != u->pw.pw_uid)
		_exit(127);
}

/* A command's wait status; a lost child counts as a shell's 127. */
static int
wait_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127 << 8;
	return status;
}

/* Run one step and wait for it: its wait status. */
static int
run(const struct pp_step *st, const struct job_spec *s, char **env)
{
	char *argv[] = { "/bin/sh", "-c", (char *)st->cmd, NULL };
	pid_t pid = fork();

	if (pid < 0)
		return 127 << 8;
	if (pid == 0) {
		if (st->kind != PP_JOB) {
			int fd = open("/dev/null", O_RDWR);

			if (chdir("/tmp") < 0 || fd < 0)
				_exit(127);
			(void)dup2(fd, 0);
			(void)dup2(fd, 1);
			(void)dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
		step_user(st, s);
		execve("/bin/sh", argv, env);
		_exit(127);
	}
	return wait_status(pid);
}

static void
pre_fail(int fd, int st)
{
	if (fd >= 0)
		(void)write_all(fd, &st, sizeof(st));
	_exit(1);
}

void
jobsup_pre_exec_root(const struct job_spec *s, char **env, int fd)
{
	struct pp_step st[4];
	int n = pre_steps(s, st);

	for (int i = 0; i < n; i++) {
		int rc;

		if (st[i].kind == PP_JOB || !has(st[i].cmd))
			continue;
		if ((rc = run(&st[i], s, env)) != 0)
			pre_fail(fd, rc);
	}
}

void
jobsup_pre_exec(const struct job_spec *s, char **env, int fd)
{
	struct pp_step st[4];
	int n = pre_steps(s, st);

	for (int i = 0; i < n; i++) {
		int rc;

		if (st[i].kind != PP_JOB || !has(st[i].cmd))
			continue;
		if ((rc = run(&st[i], s, env)) != 0)
			pre_fail(fd, rc);
	}
}

static void
post_file(int fd, const char *path)
{
	int f = path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0644) : -1;

	if (f < 0)
		f = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (f >= 0 && f != fd) {
		(void)dup2(f, fd);
		close(f);
	}
}

/* The job's -Ep: as the job's user, in its directory, after its report
 * in its output (appended, never truncating). */
static int
run_job_post(const struct pp_step *st, const struct job_spec *s,
    const struct sbd_user *u, char **env)
{
	char *argv[] = { "/bin/sh", "-c", (char *)st->cmd, NULL };
	const char *cwd;
	char *out, *err;
	pid_t pid = fork();

	if (pid < 0)
		return 127 << 8;
	if (pid == 0) {
		if (user_become(u) < 0 || geteuid() != u->pw.pw_uid)
			_exit(127);
		umask((mode_t)s->umask);
		cwd = s->cwd && *s->cwd ? s->cwd : s->sub_cwd;
		if (cwd == NULL || chdir(cwd) < 0)
			if (chdir("/tmp") < 0)
				_exit(127);
		out = jobsup_expand_path(s->out_file, s, ".out");
		err = jobsup_expand_path(s->err_file, s, ".err");
		post_file(0, NULL);
		post_file(1, out);
		if (err && (out == NULL || strcmp(err, out) != 0))
			post_file(2, err);
		else
			(void)dup2(1, 2);
		execve("/bin/sh", argv, env);
		_exit(127);
	}
	return wait_status(pid);
}

/* The environment of the post-execution commands. */
static void
post_env(struct strv *env, const struct job_spec *s, const char *dir,
    const struct passwd *pw, int job_wstatus)
{
	char *out, *err, *stat;

	out = jobsup_expand_path(s->out_file, s, ".out");
	err = jobsup_expand_path(s->err_file, s, ".err");
	jobsup_build_env(env, s, dir, pw, out, err);
	free(out);
	free(err);
	stat = xasprintf("%d", job_wstatus);
	jobsup_set_env(env, "LSB_JOBEXIT_STAT", stat);
	free(stat);
}

/* A forked child of the supervisor, as root: the steps from first on,
 * host ones only if host_only; exits with the first failure's status. */
static void NORETURN
post_run(const struct job_spec *s, const char *dir, int job_wstatus,
    bool host_only)
{
	struct strv env = STRV_INIT;
	const struct sbd_user *u;
	struct pp_step st[4];
	int n, rc = 0;

	setsid();
	jobsup_reset_signals();
	u = user_get(s->user);
	if (u == NULL)
		_exit(127);
	post_env(&env, s, dir, &u->pw, job_wstatus);
	n = post_steps(s, st);
	for (int i = 0; i < n; i++) {
		int r;

		if (!has(st[i].cmd) || (host_only && st[i].kind != PP_HOST))
			continue;
		r = st[i].kind == PP_JOB ? run_job_post(&st[i], s, u, env.v) :
		    run(&st[i], s, env.v);
		if (r != 0 && rc == 0)
			rc = r;
	}
	if (rc == 0)
		_exit(0);
	if (WIFSIGNALED(rc))
		_exit(128 + WTERMSIG(rc));
	_exit(WEXITSTATUS(rc) ? WEXITSTATUS(rc) : 1);
}

void
jobsup_post_exec(const struct job_spec *s, const char *dir, int job_wstatus)
{
	post_run(s, dir, job_wstatus, false);
}

void
jobsup_host_post(const struct job_spec *s, const char *dir, int wstatus)
{
	post_run(s, dir, wstatus, true);
}
