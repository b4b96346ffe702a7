/*
 * Checkpoint and restart method programs (LSF's echkpnt and erestart).
 * A program is LSB_ECHKPNT_METHOD_DIR/<name>.<method> (the job's
 * environment), else LSF_SERVERDIR/<name>.<method>; without a method
 * (bsub -k method=, else LSB_ECHKPNT_METHOD in the job's environment)
 * just <name>.  Both run as the job's user, with the job's environment
 * and LSB_CHKPNT_DIR, their standard files on /dev/null as LSF has them.
 *
 * echkpnt runs beside the job (the supervisor goes on answering
 * sbatchd), as "echkpnt -d dir pgid", for at most CHKPNT_TIMEOUT_MS;
 * its wait status goes up (MSG_JS_CHKPNT) for mbatchd's CHKPNT record.
 * erestart takes the job's place when the job restarts from its
 * checkpoint: "erestart dir", with LSB_RESTART=Y.
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

static const char *
env_of(const struct strv *env, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < env->n; i++)
		if (strncmp(env->v[i], name, n) == 0 && env->v[i][n] == '=')
			return env->v[i] + n + 1;
	return NULL;
}

char *
chkpnt_program(const struct job_spec *sp, const char *name)
{
	const char *dir = env_of(&sp->env, "LSB_ECHKPNT_METHOD_DIR");
	const char *m = sp->chkpnt_method;

	if (dir == NULL || *dir == '\0')
		dir = sbd->conf.lsf.serverdir;
	if (dir == NULL)
		return NULL;
	if (m == NULL || *m == '\0')
		m = env_of(&sp->env, "LSB_ECHKPNT_METHOD");
	if (m == NULL || *m == '\0')
		return xasprintf("%s/%s", dir, name);
	if (strchr(m, '/') != NULL)
		return NULL;
	return xasprintf("%s/%s.%s", dir, name, m);
}

/* dir/jobID, made by the job's user under the directory given; the
 * directory given must exist (LSF does not make it). */
void
chkpnt_make_dir(const struct job_spec *sp)
{
	if (sp->chkpnt_dir == NULL || *sp->chkpnt_dir == '\0')
		return;
	if (mkdir(sp->chkpnt_dir, 0700) < 0 && errno != EEXIST)
		log_warn("job %lld: cannot make %s", (long long)sp->jobid,
		    sp->chkpnt_dir);
}

static void NORETURN
child(const struct job_spec *sp, const char *dir, pid_t sid)
{
	struct strv env = STRV_INIT;
	char *prog, num[32];
	char *argv[5];

	/* Found as root, before the user's identity is taken. */
	if ((prog = chkpnt_program(sp, "echkpnt")) == NULL)
		_exit(127);
	jobsup_helper_setup(sp, dir, sid, &env);
	chkpnt_make_dir(sp);
	snprintf(num, sizeof(num), "%d", (int)sid);
	jobsup_set_env(&env, "LSB_CHKPNT_DIR", sp->chkpnt_dir);
	argv[0] = prog;
	argv[1] = "-d";
	argv[2] = sp->chkpnt_dir;
	argv[3] = num;
	argv[4] = NULL;
	execve(prog, argv, env.v);
	_exit(127);
}

/* Start echkpnt for the job (session sid); the child's pid, or -1. */
pid_t
chkpnt_start(const struct job_spec *sp, const char *dir, pid_t sid)
{
	pid_t pid;

	if (sp->chkpnt_dir == NULL || sid <= 0)
		return -1;
	if ((pid = fork()) < 0) {
		log_warn("job %lld: cannot fork echkpnt", (long long)sp->jobid);
		return -1;
	}
	if (pid == 0)
		child(sp, dir, sid);
	log_info("job %lld: echkpnt started (pid %d)", (long long)sp->jobid,
	    (int)pid);
	return pid;
}

/* In the job's process, for a run that restarts from its checkpoint:
 * returns only if erestart cannot be run. */
void
chkpnt_exec_restart(const struct job_spec *sp, char **env)
{
	char *prog = chkpnt_program(sp, "erestart");
	char *argv[3];

	if (prog == NULL)
		return;
	argv[0] = prog;
	argv[1] = sp->chkpnt_dir;
	argv[2] = NULL;
	execve(prog, argv, env);
}
