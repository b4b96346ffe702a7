/*
 * The commands of a queue's JOB_CONTROLS (see sbd.h and jobctl.h).  The
 * supervisor must keep answering sbatchd while one runs, so it forks and
 * goes on; the child finds the job's processes in /proc, becomes the
 * job's user and runs /bin/sh -c with the job's environment, its
 * standard files on /dev/null, as LSF documents.  The job's state is what
 * the request said (LSF trusts the command to have done it).
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
#include "sbd.h"

static const char *const spec_ctl_names[JOBCTL_NOPS] = {
	"SUSPEND", "RESUME", "TERMINATE"
};

void
ctl_init(struct job_ctl *c, const struct job_spec *sp)
{
	const char *text[JOBCTL_NOPS] = {
		sp->ctl_suspend, sp->ctl_resume, sp->ctl_terminate
	};

	memset(c, 0, sizeof(*c));
	c->jobid = sp->jobid;
	c->pend_op = -1;
	for (int op = 0; op < JOBCTL_NOPS; op++) {
		char *cause = NULL;

		/* mbatchd checked it; a signal this host lacks is not. */
		if (jobctl_action_parse(&c->act.op[op], op, text[op],
		    &cause) < 0) {
			log_warnx("job %lld: %s; its default instead",
			    (long long)sp->jobid, cause);
			free(cause);
		}
	}
}

void
ctl_release(struct job_ctl *c)
{
	jobctl_release(&c->act);
}

bool
ctl_busy(const struct job_ctl *c)
{
	return c->pid[JOBCTL_SUSPEND] > 0 || c->pid[JOBCTL_RESUME] > 0;
}

void
ctl_defer(struct job_ctl *c, int op, int reason, int sub)
{
	/* Only the latest counts: it is the state the job is to be in. */
	c->pend_op = op;
	c->pend_reason = reason;
	c->pend_sub = sub;
}

bool
ctl_take_deferred(struct job_ctl *c, int *op, int *reason, int *sub)
{
	if (c->pend_op < 0 || ctl_busy(c))
		return false;
	*op = c->pend_op;
	*reason = c->pend_reason;
	*sub = c->pend_sub;
	c->pend_op = -1;
	return true;
}

void
jobsup_helper_setup(const struct job_spec *sp, const char *dir, pid_t sid,
    struct strv *env)
{
	struct strbuf pids = STRBUF_INIT, pgids = STRBUF_INIT;
	const struct sbd_user *u;
	const struct passwd *pw;
	const char *cwd;
	char *out, *err, num[32];
	int fd;

	/* Its own session: killed as a group if it overruns, and never in
	 * the job's, which its signals are for. */
	setsid();
	jobsup_reset_signals();
	if ((fd = open("/dev/null", O_RDWR)) < 0)
		_exit(127);
	for (int i = 0; i < 3; i++)
		(void)dup2(fd, i);
	if (close_range(3, ~0U, 0) < 0)
		close_fds_from(3, -1);
	usage_procs(sid, &pids, &pgids);

	if ((u = user_get(sp->user)) == NULL)
		_exit(127);
	pw = &u->pw;
	if (geteuid() == 0) {
		if (user_become(u) < 0)
			_exit(127);
	} else if (pw->pw_uid != geteuid()) {
		_exit(127);
	}
	umask((mode_t)sp->umask);
	cwd = sp->cwd && *sp->cwd ? sp->cwd : sp->sub_cwd;
	if (cwd == NULL || chdir(cwd) < 0)
		if (chdir("/tmp") < 0)
			_exit(127);

	out = jobsup_expand_path(sp->out_file, sp, ".out");
	err = jobsup_expand_path(sp->err_file, sp, ".err");
	jobsup_build_env(env, sp, dir, pw, out, err);
	snprintf(num, sizeof(num), "%d", (int)sid);
	jobsup_set_env(env, "LS_JOBPID", num);
	jobsup_set_env(env, "LSB_JOBPGIDS", pgids.buf ? pgids.buf : "");
	jobsup_set_env(env, "LSB_JOBPIDS", pids.buf ? pids.buf : "");
}

static void NORETURN
child(const struct jobctl_action *a, int op, const struct job_spec *sp,
    const char *dir, pid_t sid, int reason, int sub)
{
	struct strv env = STRV_INIT;
	char *argv[] = { "/bin/sh", "-c", a->text, NULL };
	char *script, num[32];

	jobsup_helper_setup(sp, dir, sid, &env);
	script = xasprintf("%s/%s", dir, JOBDIR_SCRIPT);
	jobsup_set_env(&env, "LSB_JOBFILENAME", script);
	jobsup_set_env(&env, "LS_EXEC_T", "JOB_CONTROLS");
	if (op == JOBCTL_SUSPEND) {
		snprintf(num, sizeof(num), "%d", susp_reason_lsf_bits(reason));
		jobsup_set_env(&env, "LSB_SUSP_REASONS", num);
		/* The load index (lsf.h's numbers, ours too) of a load
		 * suspension. */
		if (reason == SUSP_LOAD && sub >= 0) {
			snprintf(num, sizeof(num), "%d", sub);
			jobsup_set_env(&env, "LSB_SUSP_SUBREASONS", num);
		}
	}
	execve("/bin/sh", argv, env.v);
	_exit(127);
}

void
ctl_run(struct job_ctl *c, int op, const struct job_spec *sp, const char *dir,
    pid_t sid, int reason, int sub)
{
	const struct jobctl_action *a = &c->act.op[op];
	pid_t pid;

	if (a->kind != JOBCTL_COMMAND || sid <= 0)
		return;
	if (c->pid[op] > 0) {
		log_info("job %lld: its %s command still runs; not again",
		    (long long)c->jobid, spec_ctl_names[op]);
		return;
	}
	if ((pid = fork()) < 0) {
		log_warn("job %lld: cannot fork its %s command",
		    (long long)c->jobid, spec_ctl_names[op]);
		return;
	}
	if (pid == 0)
		child(a, op, sp, dir, sid, reason, sub);
	c->pid[op] = pid;
	c->deadline_ms[op] = mono_ms() + JOBCTL_CMD_TIMEOUT_MS;
	log_debug("job %lld: %s command started (pid %d)",
	    (long long)c->jobid, spec_ctl_names[op], (int)pid);
}

static void
ended(struct job_ctl *c, int op, int status)
{
	if (status != 0)
		log_info("job %lld: its %s command %s %d", (long long)c->jobid,
		    spec_ctl_names[op], WIFSIGNALED(status) ?
		    "was killed by signal" : "exited with",
		    WIFSIGNALED(status) ? WTERMSIG(status) :
		    WEXITSTATUS(status));
	c->pid[op] = 0;
	c->deadline_ms[op] = 0;
}

unsigned
ctl_reap(struct job_ctl *c)
{
	unsigned done = 0;

	for (int op = 0; op < JOBCTL_NOPS; op++) {
		int status;

		if (c->pid[op] > 0 &&
		    waitpid(c->pid[op], &status, WNOHANG) == c->pid[op]) {
			ended(c, op, status);
			done |= 1u << op;
		}
	}
	return done;
}

uint64_t
ctl_next_ms(const struct job_ctl *c)
{
	uint64_t next = 0;

	for (int op = 0; op < JOBCTL_NOPS; op++)
		if (c->pid[op] > 0 && c->deadline_ms[op] &&
		    (next == 0 || c->deadline_ms[op] < next))
			next = c->deadline_ms[op];
	return next;
}

void
ctl_expire(struct job_ctl *c, uint64_t now_ms)
{
	for (int op = 0; op < JOBCTL_NOPS; op++) {
		if (c->pid[op] <= 0 || c->deadline_ms[op] == 0 ||
		    now_ms < c->deadline_ms[op])
			continue;
		log_warnx("job %lld: its %s command ran %d s; killed",
		    (long long)c->jobid, spec_ctl_names[op],
		    JOBCTL_CMD_TIMEOUT_MS / 1000);
		if (kill(-c->pid[op], SIGKILL) < 0)
			(void)kill(c->pid[op], SIGKILL);
		c->deadline_ms[op] = 0;	/* reaped at its SIGCHLD */
	}
}

void
ctl_finish(struct job_ctl *c)
{
	c->pend_op = -1;
	for (;;) {
		bool any = false;

		(void)ctl_reap(c);
		ctl_expire(c, mono_ms());
		for (int op = 0; op < JOBCTL_NOPS; op++)
			if (c->pid[op] > 0)
				any = true;
		if (!any)
			return;
		usleep(50000);
	}
}
