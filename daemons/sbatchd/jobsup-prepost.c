/*
 * Pre- and post-execution commands.  Each runs under /bin/sh -c as the
 * job's user, with the job's environment.  The job's own (bsub -E, -Ep)
 * run like the job: in its working directory, writing to its output.
 * The queue's (PRE_EXEC, POST_EXEC) run in /tmp with their standard
 * files on /dev/null, as LSF documents for them.  The queue's pre-exec
 * runs before the job's; the queue's post-exec after the job's.
 *
 * A pre-exec runs in the job's own process, just before the exec of the
 * job, so it is in the job's session: a bkill meanwhile ends it too.
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

bool
jobsup_has_pre(const struct job_spec *s)
{
	return has(s->queue_pre_exec) || has(s->pre_exec);
}

bool
jobsup_has_post(const struct job_spec *s)
{
	return has(s->queue_post_exec) || has(s->post_exec);
}

/* Run one command and wait for it: its wait status. */
static int
run(const char *cmd, char **env, bool queue_level)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return 127 << 8;
	if (pid == 0) {
		if (queue_level) {
			int fd = open("/dev/null", O_RDWR);

			if (chdir("/tmp") < 0 || fd < 0)
				_exit(127);
			(void)dup2(fd, 0);
			(void)dup2(fd, 1);
			(void)dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
		execve("/bin/sh", argv, env);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127 << 8;
	return status;
}

void
jobsup_pre_exec(const struct job_spec *s, char **env, int fd)
{
	const char *cmds[2] = { s->queue_pre_exec, s->pre_exec };

	for (int i = 0; i < 2; i++) {
		int st;

		if (!has(cmds[i]))
			continue;
		st = run(cmds[i], env, i == 0);
		if (st != 0) {
			if (fd >= 0)
				(void)write_all(fd, &st, sizeof(st));
			_exit(1);
		}
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

void
jobsup_post_exec(const struct job_spec *s, const char *dir, int job_wstatus)
{
	const char *cmds[2] = { s->post_exec, s->queue_post_exec };
	struct strv env = STRV_INIT;
	const struct sbd_user *u;
	const struct passwd *pw;
	const char *cwd;
	char *out, *err, *stat;
	int rc = 0;

	setsid();
	jobsup_reset_signals();
	u = user_get(s->user);
	if (u == NULL)
		_exit(127);
	pw = &u->pw;
	if (user_become(u) < 0)
		_exit(127);
	if (geteuid() != pw->pw_uid)
		_exit(127);
	umask((mode_t)s->umask);
	cwd = s->cwd && *s->cwd ? s->cwd : s->sub_cwd;
	if (cwd == NULL || chdir(cwd) < 0)
		if (chdir("/tmp") < 0)
			_exit(127);
	/* After the job's report: appended, never truncating. */
	out = jobsup_expand_path(s->out_file, s, ".out");
	err = jobsup_expand_path(s->err_file, s, ".err");
	post_file(0, NULL);
	post_file(1, out);
	if (err && (out == NULL || strcmp(err, out) != 0))
		post_file(2, err);
	else
		(void)dup2(1, 2);

	jobsup_build_env(&env, s, dir, pw, out, err);
	stat = xasprintf("LSB_JOBEXIT_STAT=%d", job_wstatus);
	for (size_t i = 0; i < env.n; i++)
		if (strncmp(env.v[i], "LSB_JOBEXIT_STAT=", 17) == 0) {
			free(env.v[i]);
			env.v[i--] = env.v[--env.n];
			env.v[env.n] = NULL;
		}
	strv_push_nodup(&env, stat);
	for (int i = 0; i < 2; i++) {
		int st;

		if (!has(cmds[i]))
			continue;
		st = run(cmds[i], env.v, i == 1);
		if (st != 0 && rc == 0)
			rc = st;
	}
	if (rc == 0)
		_exit(0);
	if (WIFSIGNALED(rc))
		_exit(128 + WTERMSIG(rc));
	_exit(WEXITSTATUS(rc) ? WEXITSTATUS(rc) : 1);
}
