/*
 * The job's own process, between fork and exec: its session, its user,
 * its directory, its files and its environment.  Anything that fails here
 * is written to the job's standard error (its -e or -o file once those are
 * open) and the job exits 127, as a shell does for a command it cannot
 * run.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lsf.h"
#include "sbd.h"

static void NORETURN
fail(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	sb_adds(&sb, "LSF: ");
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	sb_addc(&sb, '\n');
	(void)write_all(2, sb.buf, sb.len);
	_exit(127);
}

/* %J and %I in a path. */
static char *
expand_patterns(const char *p, const struct job_spec *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *p; p++) {
		if (p[0] == '%' && p[1] == 'J') {
			sb_addf(&sb, "%lld", (long long)s->jobid);
			p++;
		} else if (p[0] == '%' && p[1] == 'I') {
			sb_addf(&sb, "%d", s->idx);
			p++;
		} else {
			sb_addc(&sb, *p);
		}
	}
	return sb_detach(&sb);
}

/*
 * -o or -e as the job writes it: %J and %I expanded, and a path that
 * ends in "/" (a directory, as LSF reads it) completed with the job's
 * own file, <jobid>.out or .err (suffix), <jobid>_<index>.out for an
 * array element.
 */
char *
jobsup_expand_path(const char *p, const struct job_spec *s,
    const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n;

	if (p == NULL || *p == '\0')
		return NULL;
	n = strlen(p);
	if (p[n - 1] == '/') {
		char *dir = expand_patterns(p, s);

		sb_adds(&sb, dir);
		free(dir);
		sb_addf(&sb, "%lld", (long long)s->jobid);
		if (s->idx > 0)
			sb_addf(&sb, "_%d", s->idx);
		sb_adds(&sb, suffix);
		return sb_detach(&sb);
	}
	sb_release(&sb);
	return expand_patterns(p, s);
}

void
jobsup_set_env(struct strv *env, const char *name, const char *val)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < env->n; i++) {
		if (strncmp(env->v[i], name, n) == 0 && env->v[i][n] == '=') {
			free(env->v[i]);
			env->v[i] = xasprintf("%s=%s", name, val ? val : "");
			return;
		}
	}
	strv_push_nodup(env, xasprintf("%s=%s", name, val ? val : ""));
}

void
jobsup_build_env(struct strv *env, const struct job_spec *s, const char *dir,
    const struct passwd *pw, const char *out, const char *err)
{
	struct strbuf hosts = STRBUF_INIT, mcpu = STRBUF_INIT;
	char num[32];

	strv_copy(env, &s->env);
	for (size_t i = 0; i < s->exec_hosts.n; i++) {
		const char *h = s->exec_hosts.v[i];
		size_t k = i, cnt = 0;

		sb_addf(&hosts, "%s%s", i ? " " : "", h);
		/* LSB_MCPU_HOSTS: each host once, with its slot count. */
		if (i > 0 && strcmp(s->exec_hosts.v[i - 1], h) == 0)
			continue;
		while (k < s->exec_hosts.n && strcmp(s->exec_hosts.v[k], h) == 0)
			k++, cnt++;
		sb_addf(&mcpu, "%s%s %zu", mcpu.len ? " " : "", h, cnt);
	}
	snprintf(num, sizeof(num), "%lld", (long long)s->jobid);
	jobsup_set_env(env, "LSB_JOBID", num);
	snprintf(num, sizeof(num), "%d", s->idx);
	jobsup_set_env(env, "LSB_JOBINDEX", num);
	jobsup_set_env(env, "LSB_JOBNAME", s->job_name);
	jobsup_set_env(env, "LSB_QUEUE", s->queue);
	jobsup_set_env(env, "LSB_HOSTS", hosts.buf ? hosts.buf : "");
	jobsup_set_env(env, "LSB_MCPU_HOSTS", mcpu.buf ? mcpu.buf : "");
	snprintf(num, sizeof(num), "%zu", s->exec_hosts.n);
	jobsup_set_env(env, "LSB_DJOB_NUMPROC", num);
	jobsup_set_env(env, "LSB_MAX_NUM_PROCESSORS", num);
	{
		char *hf = xasprintf("%s/%s", dir, JOBDIR_HOSTS);

		jobsup_set_env(env, "LSB_DJOB_HOSTFILE", hf);
		free(hf);
	}
	jobsup_set_env(env, "LS_SUBCWD", s->sub_cwd);
	jobsup_set_env(env, "LSB_SUB_HOST", s->from_host);
	jobsup_set_env(env, "LSB_EXEC_CLUSTER", s->cluster);
	jobsup_set_env(env, "LSB_PROJECT_NAME", s->project);
	jobsup_set_env(env, "LSFUSER", pw->pw_name);
	jobsup_set_env(env, "USER", pw->pw_name);
	jobsup_set_env(env, "LOGNAME", pw->pw_name);
	jobsup_set_env(env, "HOME", pw->pw_dir);
	snprintf(num, sizeof(num), "%d", (int)getpid());
	jobsup_set_env(env, "LS_JOBPID", num);
	if (out)
		jobsup_set_env(env, "LSB_OUTPUTFILE", out);
	if (err)
		jobsup_set_env(env, "LSB_ERRORFILE", err);
	if (getenv("LSF_ENVDIR"))
		jobsup_set_env(env, "LSF_ENVDIR", getenv("LSF_ENVDIR"));
	sb_release(&hosts);
	sb_release(&mcpu);
}

static bool
ends_in_slash(const char *p)
{
	return p && *p && p[strlen(p) - 1] == '/';
}

static void
make_dir_of(const char *path)
{
	char *dir, *slash;

	if (path == NULL || (slash = strrchr(path, '/')) == NULL ||
	    slash == path)
		return;
	dir = xstrndup(path, (size_t)(slash - path));
	(void)mkdir_parents(dir, 0755);
	free(dir);
}

static void
redirect(int fd, const char *path, int flags)
{
	int f = open(path, flags | O_CLOEXEC, 0644);

	if (f < 0)
		fail("cannot open %s: %s", path, strerror(errno));
	if (f != fd) {
		if (dup2(f, fd) < 0)
			fail("dup2: %s", strerror(errno));
		close(f);
	}
}

/*
 * The job's -o or -e file on fd.  One that cannot be opened (a
 * directory, a missing directory, no permission) does not stop the job:
 * as in LSF, its stream goes to the spool and is mailed, and the
 * supervisor is told why on note_fd.
 */
static void
redirect_out(int fd, const char *path, int flags, int spool, int note_fd,
    char which)
{
	struct jobsup_note n;
	int f = open(path, flags | O_CLOEXEC, 0644);

	if (f < 0) {
		memset(&n, 0, sizeof(n));
		n.which = which;
		n.err = errno;
		if (note_fd >= 0)
			(void)write(note_fd, &n, sizeof(n));
		f = spool >= 0 ? dup(spool) : open("/dev/null",
		    O_WRONLY | O_CLOEXEC);
		if (f < 0)
			fail("cannot open %s: %s", path, strerror(n.err));
	}
	if (f != fd) {
		if (dup2(f, fd) < 0)
			fail("dup2: %s", strerror(errno));
		close(f);
	}
}

/*
 * A command that /bin/sh would only split into words and run: one line
 * of plain words, none of the shell's syntax (quotes, expansions,
 * redirections, operators, comments, globs, assignments), and a first
 * word that is not a keyword or a builtin.  Its words go to argv.
 */
static bool
simple_command(const char *cmd, struct strv *argv)
{
	static const char *const shell_words[] = {
		".", ":", "[", "alias", "bg", "break", "case", "cd", "chdir",
		"command", "continue", "do", "done", "echo", "elif", "else",
		"esac", "eval", "exec", "exit", "export", "false", "fc", "fg",
		"fi", "for", "getopts", "hash", "if", "in", "jobs", "kill",
		"local", "printf", "pwd", "read", "readonly", "return", "set",
		"shift", "test", "then", "times", "trap", "true", "type",
		"ulimit", "umask", "unalias", "unset", "until", "wait",
		"while",
		/* and bash's, where /bin/sh is bash */
		"bind", "builtin", "caller", "compgen", "complete", "coproc",
		"declare", "dirs", "disown", "enable", "function", "help",
		"history", "let", "logout", "mapfile", "popd", "pushd",
		"readarray", "select", "shopt", "source", "suspend", "time",
		"typeset", NULL
	};
	const char *p, *w;

	if (cmd == NULL)
		return false;
	for (p = cmd; *p; p++) {
		if (*p == '\n') {
			/* Only at the end. */
			for (const char *q = p; *q; q++)
				if (*q != '\n')
					return false;
			break;
		}
		if (*p != ' ' && *p != '\t' && *p != '_' && *p != '-' &&
		    *p != '.' && *p != '/' && *p != ',' && *p != ':' &&
		    *p != '+' && *p != '@' && *p != '%' && *p != '=' &&
		    !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9'))
			return false;
	}
	for (p = cmd; *p && *p != '\n';) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '\n')
			break;
		for (w = p; *p && *p != ' ' && *p != '\t' && *p != '\n'; p++)
			;
		strv_push_nodup(argv, xstrndup(w, (size_t)(p - w)));
	}
	if (argv->n == 0 || strchr(argv->v[0], '='))
		return false;
	if (strchr(argv->v[0], '/') == NULL)
		for (size_t i = 0; shell_words[i]; i++)
			if (strcmp(argv->v[0], shell_words[i]) == 0)
				return false;
	return true;
}

/* The shell keeps PWD when it names the working directory, else sets it
 * (its environment is what the job inherits). */
static void
set_pwd(struct strv *env, const char *cwd)
{
	struct stat a, b;

	for (size_t i = 0; i < env->n; i++)
		if (strncmp(env->v[i], "PWD=", 4) == 0) {
			if (stat(env->v[i] + 4, &a) == 0 &&
			    stat(".", &b) == 0 && a.st_dev == b.st_dev &&
			    a.st_ino == b.st_ino)
				return;
			break;
		}
	jobsup_set_env(env, "PWD", cwd);
}

/* exec the words, searching the job's PATH as the shell would; returns
 * only if none could be run. */
static void
exec_words(const struct strv *words, char **env)
{
	const char *path = NULL, *p, *e;
	char *file;

	if (strchr(words->v[0], '/')) {
		execve(words->v[0], words->v, env);
		return;
	}
	for (size_t i = 0; env[i]; i++)
		if (strncmp(env[i], "PATH=", 5) == 0)
			path = env[i] + 5;
	if (path == NULL)
		return;
	for (p = path;; p = e + 1) {
		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		file = xasprintf("%.*s%s%s", (int)(e - p), p, e > p ? "/" :
		    "", words->v[0]);
		execve(file, words->v, env);
		free(file);
		if (errno != ENOENT && errno != ENOTDIR && errno != EACCES)
			return;		/* the shell says what it is */
		if (*e == '\0')
			return;
	}
}

/*
 * glibc keeps its own signals (32 and 33, below SIGRTMIN) out of reach
 * of sigaction(), yet an ignored one is inherited over exec: GNU make,
 * for one, starts its children with both ignored, and so would every
 * job of an sbatchd started from make.  They are reset with the system
 * call itself (a kernel sigaction: handler, flags, restorer, mask).
 */
static void
reset_libc_signals(void)
{
	struct {
		void		(*handler)(int);
		unsigned long	 flags;
		void		(*restorer)(void);
		unsigned long	 mask;
	} k = { SIG_DFL, 0, NULL, 0 };

	for (int sig = 32; sig < SIGRTMIN; sig++)
		(void)syscall(SYS_rt_sigaction, sig, &k, NULL, sizeof(k.mask));
}

/* Every signal at its default and none blocked, as a login shell
 * starts: for the job and its post-exec. */
void
jobsup_reset_signals(void)
{
	sigset_t none;

	/* Caught signals are reset by the exec; ignored ones are not. */
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&sbd->sig_nondefault, sig) == 1)
			signal(sig, SIG_DFL);
	reset_libc_signals();
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* The host pre-exec commands and the configured ones, while root (each
 * as its own user), with the environment the job will have. */
static void
root_pre_exec(const struct job_spec *s, const char *dir,
    const struct passwd *pw, int pre_fd)
{
	struct strv env = STRV_INIT;
	char *out, *err, *script;

	if (!jobsup_has_pre(s))
		return;
	out = jobsup_expand_path(s->out_file, s, ".out");
	err = jobsup_expand_path(s->err_file, s, ".err");
	jobsup_build_env(&env, s, dir, pw, out, err);
	script = xasprintf("%s/%s", dir, JOBDIR_SCRIPT);
	jobsup_set_env(&env, "LSB_JOBFILENAME", script);
	jobsup_pre_exec_root(s, env.v, pre_fd);
	free(script);
	free(out);
	free(err);
	strv_release(&env);
}

void
jobsup_exec_job(const struct job_spec *s, const char *dir, int pre_fd,
    int note_fd)
{
	struct strv env = STRV_INIT, words = STRV_INIT;
	const struct sbd_user *u;
	const struct passwd *pw;
	char *out, *err, *script, *argv[3];
	const char *cwd;
	int spool = -1;

	setsid();
	jobsup_reset_signals();

	/* Until the job's own files are open, errors go nowhere useful. */
	u = user_get(s->user);
	if (u == NULL)
		fail("user %s is not known on this host", s->user ? s->user :
		    "(none)");
	pw = &u->pw;
	/* Without -o (or when the -o or -e file cannot be opened) the
	 * output goes to the spool in the job's directory, which is root's:
	 * its file is made before the job leaves root. */
	spool = jobsup_spool_open(dir, pw->pw_uid, pw->pw_gid);
	root_pre_exec(s, dir, pw, pre_fd);
	if (geteuid() == 0) {
		if (user_become(u) < 0)
			fail("cannot become user %s: %s", pw->pw_name,
			    strerror(errno));
	} else if (pw->pw_uid != geteuid()) {
		fail("sbatchd does not run as root and cannot run jobs of "
		    "user %s", pw->pw_name);
	}
	umask((mode_t)s->umask);
	if (s->nice)
		(void)setpriority(PRIO_PROCESS, 0, s->nice);

	/* -outdir (mode 700, as LSF makes it), and a -cwd with patterns:
	 * made as the job's user (mbatchd replaced the patterns). */
	if (s->outdir && *s->outdir)
		(void)mkdir_parents(s->outdir, 0700);
	if (s->make_cwd && s->cwd && *s->cwd)
		(void)mkdir_parents(s->cwd, 0755);
	cwd = s->cwd && *s->cwd ? s->cwd : s->sub_cwd;
	if (cwd == NULL || chdir(cwd) < 0) {
		cwd = "/tmp";
		if (chdir(cwd) < 0)
			fail("cannot change to /tmp: %s", strerror(errno));
	}

	redirect(0, s->in_file && *s->in_file ? s->in_file : "/dev/null",
	    O_RDONLY);
	out = jobsup_expand_path(s->out_file, s, ".out");
	err = jobsup_expand_path(s->err_file, s, ".err");
	/* -o dir/ and -e dir/: LSF makes the directory as needed.  A plain
	 * file name is taken as it is: a missing directory sends the output
	 * by mail. */
	if (ends_in_slash(s->out_file))
		make_dir_of(out);
	if (ends_in_slash(s->err_file))
		make_dir_of(err);
	if (out)
		redirect_out(1, out, O_WRONLY | O_CREAT |
		    (s->options2 & SUB2_OUT_OVERWRITE ? O_TRUNC : O_APPEND),
		    spool, note_fd, 'o');
	else if (spool < 0 || dup2(spool, 1) != 1)
		redirect(1, "/dev/null", O_WRONLY);
	if (err && (out == NULL || strcmp(err, out) != 0))
		redirect_out(2, err, O_WRONLY | O_CREAT |
		    (s->options2 & SUB2_ERR_OVERWRITE ? O_TRUNC : O_APPEND),
		    spool, note_fd, 'e');
	else if (dup2(1, 2) < 0)
		_exit(127);
	if (spool > 2)
		close(spool);
	if (note_fd >= 0)
		close(note_fd);

	jobsup_build_env(&env, s, dir, pw, out, err);
	script = xasprintf("%s/%s", dir, JOBDIR_SCRIPT);
	jobsup_set_env(&env, "LSB_JOBFILENAME", script);
	chkpnt_make_dir(s);
	/* -E: as the job, in its directory, with its files and
	 * environment. */
	jobsup_pre_exec(s, env.v, pre_fd);
	limits_set_rlimits(s);
	if (s->chkpnt_restart) {
		/* From its checkpoint: the method's erestart in its place. */
		chkpnt_exec_restart(s, env.v);
		fail("cannot run erestart for the job: %s", strerror(errno));
	}
	if (simple_command(s->command, &words)) {
		/* What the shell would do for it, without the shell; if it
		 * cannot be run, the shell below says why as it would. */
		set_pwd(&env, cwd);
		exec_words(&words, env.v);
	}
	if (s->command && strncmp(s->command, "#!", 2) == 0) {
		/* A script with its own interpreter runs as it is. */
		argv[0] = script;
		argv[1] = NULL;
		execve(script, argv, env.v);
	} else {
		argv[0] = "/bin/sh";
		argv[1] = script;
		argv[2] = NULL;
		execve("/bin/sh", argv, env.v);
	}
	fail("cannot run the job: %s", strerror(errno));
}
