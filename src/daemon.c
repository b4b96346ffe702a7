/* Common daemon start-up: options, configuration, logging, detaching. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "auth.h"
#include "daemon.h"
#include "log.h"
#include "lsf.h"
#include "net.h"

static void NORETURN
usage(const char *name)
{
	fprintf(stderr, "usage: %s [-dfnV] [-N host] [-e envdir]\n", name);
	exit(1);
}

/*
 * The program to execute again (daemon_reexec), taken at start: argv[0]
 * when it is a path to the very file we run, made absolute (a detached
 * daemon works in /), so that a link (LSF_SERVERDIR's) stays a link and
 * an upgrade that replaced the file, or what the link names, is what
 * runs next, as an administrator expects of a restart; else the file
 * /proc/self/exe names now.
 */
static char *
self_path(const char *argv0)
{
	char buf[PATH_MAX];
	struct stat a, b;
	ssize_t n;

	if (argv0 != NULL && strchr(argv0, '/') != NULL &&
	    stat(argv0, &a) == 0 && stat("/proc/self/exe", &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		if (argv0[0] == '/')
			return xstrdup(argv0);
		if (getcwd(buf, sizeof(buf)) != NULL)
			return xasprintf("%s/%s", buf, argv0);
	}
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}

void
daemon_getopt(struct daemon_opts *o, const char *name, int argc, char **argv)
{
	int ch;

	memset(o, 0, sizeof(*o));
	o->name = name;
	progname = name;
	/*
	 * The kernel names a process after the last part of the path it
	 * was executed by: one executed through /proc/self/exe (by an
	 * older version's restart) would be "exe", which pgrep -x, ps -o
	 * comm and systemd's status show.  Our own name, whatever the path.
	 */
	(void)prctl(PR_SET_NAME, name);
	o->exe = self_path(argc > 0 ? argv[0] : NULL);
	while ((ch = getopt(argc, argv, "dfnN:e:Vh")) != -1) {
		switch (ch) {
		case 'd':
			o->debug = true;
			o->foreground = true;
			break;
		case 'f':
			o->foreground = true;
			break;
		case 'n':
			o->check = true;
			break;
		case 'N':
			o->host = xstrdup(optarg);
			break;
		case 'e':
			o->envdir = xstrdup(optarg);
			break;
		case 'V':
			fprintf(stderr, "%s %s (%s, %s)\n", PROJECT_NAME,
			    PROJECT_VERSION, LSF_PRODUCT_STR, name);
			exit(0);
		default:
			usage(name);
		}
	}
	/* Without -N, the name a starter gave (lsadmin limstartup, badmin
	 * hstartup through LSF_RSH on a machine holding several hosts). */
	if (o->host == NULL && getenv(LSF_LOCAL_HOST_ENV) != NULL &&
	    *getenv(LSF_LOCAL_HOST_ENV) != '\0')
		o->host = xstrdup(getenv(LSF_LOCAL_HOST_ENV));
	o->argc = argc - optind;
	o->argv = argv + optind;
}

void
daemon_config(struct daemon_opts *o, struct lsf_config *c, unsigned parts)
{
	(void)daemon_config_or(o, c, parts, 0);
}

/* Diagnostics of the configuration loaded at start, for the log. */
static struct strv start_diags = STRV_INIT;

void
daemon_config_diags(const struct conf_diag *d)
{
	for (size_t i = 0; i < d->msgs.n; i++)
		strv_push(&start_diags, d->msgs.v[i]);
}

bool
daemon_config_or(struct daemon_opts *o, struct lsf_config *c, unsigned parts,
    unsigned fallback)
{
	struct conf_diag d;
	int rc;

	if (o->check)
		exit(conf_check(o->envdir, parts, false, stdout));
	conf_diag_init(&d);
	rc = config_load(c, o->envdir, parts, &d);
	conf_diag_print(&d, stderr);
	daemon_config_diags(&d);
	conf_diag_release(&d);
	if (rc < 0 && fallback != 0) {
		fprintf(stderr, "%s: the configuration has errors; starting on "
		    "less of it\n", o->name);
		config_release(c);
		memset(c, 0, sizeof(*c));
		daemon_config(o, c, fallback);
		return true;
	}
	if (rc < 0) {
		fprintf(stderr, "%s: configuration has errors; not starting\n",
		    o->name);
		exit(1);
	}
	daemon_config_host(o, c, parts);
	return false;
}

void
daemon_config_host(struct daemon_opts *o, struct lsf_config *c,
    unsigned parts)
{
	net_set_hosts(c);
	if (o->host == NULL) {
		char *local = net_local_hostname();
		/* The cluster's spelling of this machine's name. */
		const struct cluster_host *ch =
		    config_cluster_host_local(c, local);

		if (ch) {
			o->host = xstrdup(ch->name);
			free(local);
		} else {
			o->host = local;
		}
	} else {
		const struct cluster_host *ch = config_cluster_host(c, o->host);

		if (ch) {
			char *h = xstrdup(ch->name);

			free(o->host);
			o->host = h;
		}
	}
	if ((parts & CONF_CLUSTER) && config_cluster_host(c, o->host) == NULL) {
		fprintf(stderr, "%s: host %s is not in %s\n", o->name, o->host,
		    c->cluster.path ? c->cluster.path : "the cluster file");
		exit(1);
	}
}

void
daemon_reexec(const struct daemon_opts *o, char **argv)
{
	if (o->exe != NULL) {
		execv(o->exe, argv);
		log_warn("cannot execute %s again", o->exe);
	}
	/* The file that runs, if the one started is gone. */
	execv("/proc/self/exe", argv);
	execvp(argv[0], argv);
	fatal("cannot execute %s again", argv[0]);
}

char *
daemon_log_path(const struct lsf_config *c, const char *name, const char *host)
{
	if (c->lsf.logdir == NULL)
		return NULL;
	return xasprintf("%s/%s.log.%s", c->lsf.logdir, name, host);
}

/*
 * Is our stderr the journal?  systemd says so in JOURNAL_STREAM
 * ("device:inode" of the stream it connected), which an inherited
 * variable would also carry, hence the comparison with fd 2 itself.
 */
static bool
stderr_is_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (js == NULL || sscanf(js, "%llu:%llu", &dev, &ino) != 2)
		return false;
	if (fstat(2, &st) < 0)
		return false;
	return (unsigned long long)st.st_dev == dev &&
	    (unsigned long long)st.st_ino == ino;
}

void
daemon_start(const struct daemon_opts *o, const struct lsf_config *c)
{
	enum log_level lvl = log_level_from_mask(c->lsf.log_mask);
	bool journal = stderr_is_journal(), to_file;
	char *path = NULL, *cause = NULL;

	if (auth_init(c, &cause) < 0) {
		fprintf(stderr, "%s: %s\n", o->name, cause);
		exit(1);
	}

	if (o->debug) {
		lvl = LOG_LVL_DEBUG;
	} else {
		path = daemon_log_path(c, o->name, o->host);
		if (path)
			(void)mkdir(c->lsf.logdir, 0755);
	}
	if (log_init(o->name, path, lvl) < 0) {
		fprintf(stderr, "%s: cannot open log %s: %s\n", o->name, path,
		    strerror(errno));
		exit(1);
	}
	/* An out-of-memory die() or a BUG() leaves its line in the log. */
	set_die_routine(log_die_routine);
	to_file = path != NULL;
	free(path);
	if (!o->foreground) {
		pid_t pid = fork();
		int fd;

		if (pid < 0)
			fatal("fork");
		if (pid > 0)
			_exit(0);
		setsid();
		pid = fork();
		if (pid < 0)
			fatal("fork");
		if (pid > 0)
			_exit(0);
		if (chdir("/") < 0)
			fatal("chdir /");
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			if (c->lsf.logdir && !journal)
				dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
	} else {
		int fd = open("/dev/null", O_RDONLY);

		if (fd >= 0) {
			dup2(fd, 0);
			if (fd > 0)
				close(fd);
		}
	}
	/* Under systemd the lines go to the journal too (they go to
	 * stderr alone without LSF_LOGDIR, or with -d). */
	if (journal && to_file)
		log_also_journal(true);
	log_info("%s starting as host %s (%s %s)", o->name, o->host,
	    PROJECT_NAME, PROJECT_VERSION);
	/* Printed on stderr already; the log is elsewhere. */
	for (size_t i = 0; to_file && i < start_diags.n; i++)
		log_warnx("configuration: %s", start_diags.v[i]);
	strv_release(&start_diags);
}

int
daemon_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 1024;
	if (rl.rlim_cur < rl.rlim_max) {
		rlim_t want = rl.rlim_max;

		/* select() users are gone; a million is plenty. */
		if (want == RLIM_INFINITY || want > 1048576)
			want = 1048576;
		if (want > rl.rlim_cur) {
			rl.rlim_cur = want;
			if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
				log_debug("open files limit raised to %llu",
				    (unsigned long long)want);
			else
				(void)getrlimit(RLIMIT_NOFILE, &rl);
		}
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1048576)
		return 1048576;
	return (int)rl.rlim_cur;
}

int
daemon_conns_left(int nofile, int keep)
{
	int left = nofile - keep - NOFILE_RESERVE;

	return left < 16 ? 16 : left;
}
