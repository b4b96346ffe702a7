/*
 * mbatchd as sbatchd's child.  The sbatchd of the master host starts
 * mbatchd, restarts it when it dies (at once after a run that was
 * healthy or for badmin mbdrestart, with a growing delay if it keeps
 * dying soon after it starts), and stops
 * it when the host stops being master or sbatchd itself stops.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "sbd.h"

/*
 * A crash of an mbatchd that had been serving is one accident: every
 * millisecond before the next one answers is a cluster without a
 * scheduler, so it is started again at once.  Only a crash loop (each
 * run shorter than HEALTHY_MS: broken files, a bug hit at start-up)
 * waits, twice as long each time up to BACKOFF_MAX_MS, so that it does
 * not spin and flood the log.
 */
#define BACKOFF_MIN_MS	100
#define BACKOFF_MAX_MS	10000
#define HEALTHY_MS	3000	/* ran this long: restart at once */

static bool
am_master(void)
{
	return sbd->master && strcasecmp(sbd->master, sbd->host) == 0;
}

static char *
mbatchd_path(void)
{
	char self[PATH_MAX];
	ssize_t n;

	if (sbd->conf.lsf.serverdir) {
		char *p = xasprintf("%s/mbatchd", sbd->conf.lsf.serverdir);

		if (access(p, X_OK) == 0)
			return p;
		free(p);
	}
	/* Beside our own binary. */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		return xasprintf("%s/mbatchd", dirname(self));
	}
	return xstrdup("mbatchd");
}

static void
start_mbatchd(void)
{
	char *path;
	pid_t pid;

	if (sbd->mbd_child > 0 || sbd->stopping || !am_master())
		return;
	path = mbatchd_path();
	pid = fork();
	if (pid < 0) {
		log_warn("fork for mbatchd");
		free(path);
		return;
	}
	if (pid == 0) {
		char *argv[8];
		int n = 0;
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		argv[n++] = "mbatchd";
		argv[n++] = "-f";
		argv[n++] = "-N";
		argv[n++] = sbd->host;
		if (sbd->opts.envdir) {
			argv[n++] = "-e";
			argv[n++] = sbd->opts.envdir;
		}
		argv[n] = NULL;
		close_fds_from(3, -1);
		execv(path, argv);
		log_warn("exec %s", path);
		_exit(127);
	}
	log_info("started mbatchd (pid %d)", (int)pid);
	sbd->mbd_child = pid;
	sbd->mbd_started_ms = mono_ms();
	free(path);
}

static void
restart_cb(evutil_socket_t fd, short ev, void *arg)
{
	start_mbatchd();
}

void
child_master_changed(void)
{
	if (am_master()) {
		start_mbatchd();
	} else if (sbd->mbd_child > 0) {
		log_info("no longer master: stopping mbatchd");
		(void)kill(sbd->mbd_child, SIGTERM);
	}
}

void
child_reaped(pid_t pid, int status)
{
	struct timeval tv;
	uint64_t ran;

	if (pid != sbd->mbd_child)
		return;
	sbd->mbd_child = 0;
	if (WIFSIGNALED(status))
		log_warnx("mbatchd (pid %d) killed by signal %d", (int)pid,
		    WTERMSIG(status));
	else
		log_info("mbatchd (pid %d) exited with status %d", (int)pid,
		    WEXITSTATUS(status));
	if (sbd->stopping || !am_master())
		return;
	ran = mono_ms() - sbd->mbd_started_ms;
	if (WIFEXITED(status) && WEXITSTATUS(status) == MBD_EXIT_RESTART) {
		/* badmin mbdrestart: deliberate, so no delay. */
		log_info("mbatchd restart asked for; starting it again");
		sbd->mbd_backoff_ms = 0;
		start_mbatchd();
		return;
	}
	if (ran >= HEALTHY_MS) {
		log_info("mbatchd ran %llu ms; starting it again at once",
		    (unsigned long long)ran);
		sbd->mbd_backoff_ms = 0;
		start_mbatchd();
		return;
	}
	if (sbd->mbd_backoff_ms == 0)
		sbd->mbd_backoff_ms = BACKOFF_MIN_MS;
	else if (sbd->mbd_backoff_ms < BACKOFF_MAX_MS)
		sbd->mbd_backoff_ms *= 2;
	if (sbd->mbd_backoff_ms > BACKOFF_MAX_MS)
		sbd->mbd_backoff_ms = BACKOFF_MAX_MS;
	log_warnx("mbatchd ran only %llu ms; starting it again in %d ms",
	    (unsigned long long)ran, sbd->mbd_backoff_ms);
	tv.tv_sec = sbd->mbd_backoff_ms / 1000;
	tv.tv_usec = (sbd->mbd_backoff_ms % 1000) * 1000;
	if (sbd->ev_mbd_restart == NULL)
		sbd->ev_mbd_restart = evtimer_new(sbd->base, restart_cb, NULL);
	evtimer_add(sbd->ev_mbd_restart, &tv);
}

void
child_stop(void)
{
	int status;

	if (sbd->mbd_child <= 0)
		return;
	(void)kill(sbd->mbd_child, SIGTERM);
	/* It stops quickly; do not leave it behind. */
	for (int i = 0; i < 100; i++) {
		if (waitpid(sbd->mbd_child, &status, WNOHANG) == sbd->mbd_child)
			break;
		usleep(50000);
	}
	sbd->mbd_child = 0;
}
