/*
 * mbatchd as sbatchd's child.  The sbatchd of the master host starts
 * mbatchd, restarts it when it dies (at once after a run that was
 * healthy or for badmin mbdrestart, with a growing delay if it keeps
 * dying soon after it starts), and stops
 * it when the host stops being master or sbatchd itself stops.
 */
#include <errno.h>
#include <fcntl.h>
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

/*
 * On a master candidate sbatchd holds mbatchd's port from its own start
 * (as root, at boot, before any user could bind it) and hands it to
 * each mbatchd it starts: the port is never free while mbatchd restarts
 * or fails over here, so no ordinary user can listen on it and be taken
 * for mbatchd.  Connections that arrive in between wait in the backlog
 * for the next mbatchd.  If it cannot be held (someone has it already),
 * mbatchd binds it itself, as before; we try again at each start.
 */
/*
 * While no mbatchd of ours serves the port (none runs, or it is still
 * replaying, or waiting for the lock), what connects is closed at once,
 * as a free port would refuse it: clients see "not responding" and try
 * again, instead of waiting in the backlog for an answer that may never
 * come.  A few at a time, so a flood costs little.
 */
static void
port_refuse_cb(evutil_socket_t fd, short ev, void *arg)
{
	for (int i = 0; i < 32; i++) {
		int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (c < 0)
			break;
		close(c);
	}
}

static void
port_refusing(bool on)
{
	if (sbd->mbd_lfd < 0)
		return;
	if (sbd->ev_mbd_port == NULL) {
		sbd->ev_mbd_port = event_new(sbd->base, sbd->mbd_lfd,
		    EV_READ | EV_PERSIST, port_refuse_cb, NULL);
		if (sbd->ev_mbd_port == NULL)
			fatalx("event_new failed");
	}
	if (on)
		event_add(sbd->ev_mbd_port, NULL);
	else
		event_del(sbd->ev_mbd_port);
}

void
child_hold_port(void)
{
	struct host_addr a;
	char *cause = NULL;

	if (sbd->mbd_lfd >= 0 ||
	    !config_master_candidate(&sbd->conf, sbd->host) ||
	    net_resolve(sbd->host, sbd->conf.lsf.mbd_port, &a) < 0)
		return;
	sbd->mbd_lfd = net_listen_tcp(&a, &cause);
	if (sbd->mbd_lfd < 0) {
		log_warnx("cannot hold mbatchd's port for it: %s", cause);
		free(cause);
		return;
	}
	port_refusing(!sbd->mbd_ready);
}

/* mbatchd writes a byte once it serves the port; EOF once it is gone. */
static void
ready_cb(evutil_socket_t fd, short ev, void *arg)
{
	char b;
	ssize_t n = read(fd, &b, 1);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n == 1) {
		sbd->mbd_ready = true;
		port_refusing(false);
		return;
	}
	event_free(sbd->ev_mbd_ready);
	sbd->ev_mbd_ready = NULL;
	close(fd);
	sbd->mbd_ready = false;
	port_refusing(true);
}

/* The pipe mbatchd tells its readiness on: its end into *wfd. */
static void
ready_pipe(int *wfd)
{
	int p[2];

	*wfd = -1;
	if (sbd->mbd_lfd < 0 || pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
		return;
	if (sbd->ev_mbd_ready) {
		close(event_get_fd(sbd->ev_mbd_ready));
		event_free(sbd->ev_mbd_ready);
	}
	sbd->ev_mbd_ready = event_new(sbd->base, p[0], EV_READ | EV_PERSIST,
	    ready_cb, NULL);
	event_add(sbd->ev_mbd_ready, NULL);
	sbd->mbd_ready = false;
	port_refusing(true);
	*wfd = p[1];
}

static void
start_mbatchd(void)
{
	char *path;
	pid_t pid;
	int wfd;

	if (sbd->mbd_child > 0 || sbd->stopping || !am_master())
		return;
	child_hold_port();
	ready_pipe(&wfd);
	path = mbatchd_path();
	pid = fork();
	if (pid < 0) {
		log_warn("fork for mbatchd");
		if (wfd >= 0)
			close(wfd);
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
		net_listen_pass(sbd->mbd_lfd, sbd->conf.lsf.mbd_port);
		if (wfd >= 0) {
			char v[16];

			fd_pass_on_exec(wfd);
			snprintf(v, sizeof(v), "%d", wfd);
			(void)setenv(MBD_READY_ENV, v, 1);
		}
		close_fds_from(3, -1);
		execv(path, argv);
		log_warn("exec %s", path);
		_exit(127);
	}
	if (wfd >= 0)
		close(wfd);
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
