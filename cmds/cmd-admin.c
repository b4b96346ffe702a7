/*
 * The check before a control subcommand, its question, and what the
 * daemon control subcommands share: this host's name, the
 * administrator check, starting a daemon here or through LSF_RSH.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd-admin.h"
#include "net.h"

bool
adm_confirm(const char *question, bool force)
{
	char line[64];

	if (force || !isatty(STDIN_FILENO))
		return true;
	fprintf(stderr, "%s [y/n] ", question);
	fflush(stderr);
	if (fgets(line, sizeof(line), stdin) == NULL)
		return false;
	return line[0] == 'y' || line[0] == 'Y';
}

int
adm_check(unsigned parts, bool verbose, bool force, const char *question)
{
	int nwarn = 0;

	if (conf_check_warn(NULL, parts, verbose, stderr, &nwarn) != 0)
		return -1;
	if (nwarn > 0 && !adm_confirm(question, force))
		return -1;
	return 0;
}

char *
adm_local_host(const struct lsf_config *c)
{
	const char *env = getenv(LSF_LOCAL_HOST_ENV);
	const struct cluster_host *ch;
	char *local;

	if (env != NULL && *env != '\0') {
		ch = config_cluster_host(c, env);
		return ch ? xstrdup(ch->name) : NULL;
	}
	/* The cluster's spelling of this machine's name, as the daemons
	 * find it (daemon_config). */
	local = net_local_hostname();
	ch = config_cluster_host_local(c, local);
	free(local);
	return ch ? xstrdup(ch->name) : NULL;
}

bool
adm_caller_is_admin(const struct lsf_config *c)
{
	struct passwd *pw;

	if (getuid() == 0)
		return true;
	pw = getpwuid(getuid());
	return pw != NULL && config_is_admin(c, pw->pw_name);
}

/* LSF_SERVERDIR/name, else the sbin beside this command's bin. */
static char *
daemon_path(const struct lsf_config *c, const char *name)
{
	char self[PATH_MAX];
	ssize_t n;

	if (c->lsf.serverdir != NULL)
		return xasprintf("%s/%s", c->lsf.serverdir, name);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		return xasprintf("%s/../sbin/%s", dirname(self), name);
	}
	return xstrdup(name);
}

/* Run argv and wait: its exit status, or -1 (with errno's text in
 * *why) if it could not run. */
static int
run_wait(char **argv, const char **why)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		*why = strerror(errno);
		return -1;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s: %s\n", progname, argv[0],
		    strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			*why = strerror(errno);
			return -1;
		}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	*why = "killed by a signal";
	return -1;
}

int
adm_daemon_start(const struct lsf_config *c, const char *host,
    const char *daemon, const char *what)
{
	char *local = adm_local_host(c), *path = daemon_path(c, daemon);
	const char *rsh = lsf_conf_get(&c->lsf, "LSF_RSH"), *why = NULL;
	struct strv argv = STRV_INIT;
	int rc;

	printf("Start up %s on <%s> ...... ", what, host);
	fflush(stdout);
	/* Here: the daemon itself, which detaches once it has bound its
	 * port (so it exits 1 when one already runs).  Elsewhere: through
	 * LSF_RSH, ssh by default, which may carry options. */
	if (local == NULL || strcasecmp(local, host) != 0) {
		strv_split_ws(&argv, rsh != NULL && *rsh != '\0' ? rsh : "ssh");
		strv_push(&argv, host);
	}
	strv_push(&argv, path);
	rc = run_wait(argv.v, &why);
	if (rc == 0)
		printf("done\n");
	else if (rc < 0)
		printf("failed: %s\n", why);
	else
		printf("failed: %s exited with status %d\n", argv.v[0], rc);
	strv_release(&argv);
	free(path);
	free(local);
	return rc == 0 ? 0 : -1;
}
