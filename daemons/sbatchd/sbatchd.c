/* sbatchd: main, sockets, signals, and the LIM that names the master. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "notify.h"
#include "sbd.h"

struct sbd *sbd;

static void lim_subscribe(void);

static void
lim_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r, void *arg)
{
	struct lim_cluster_info ci;
	struct lim_host lh;

	if (h->type == MSG_LIM_HOST_LOAD) {
		if (!lim_host_unpack(r, &lh) || rbuf_end(r) < 0)
			log_warnx("malformed load from the LIM");
		else
			load_update(&lh);
		lim_host_release(&lh);
		return;
	}
	if (h->type != MSG_LIM_CLUSTER_INFO)
		return;
	if (!lim_cluster_info_unpack(r, &ci) || rbuf_end(r) < 0) {
		lim_cluster_info_release(&ci);
		log_warnx("malformed cluster information from the LIM");
		return;
	}
	if (!streq(ci.master, sbd->master)) {
		free(sbd->master);
		sbd->master = ci.master ? xstrdup(ci.master) : NULL;
		log_info("master is %s", sbd->master ? sbd->master : "unknown");
		child_master_changed();
		mbd_master_changed();
	}
	lim_cluster_info_release(&ci);
}

static void
lim_retry_cb(evutil_socket_t fd, short ev, void *arg)
{
	lim_subscribe();
}

static void
lim_retry(void)
{
	struct timeval tv = { 1, 0 };

	evtimer_add(sbd->ev_lim_retry, &tv);
}

static void
lim_closed(struct conn *c, void *arg)
{
	log_warnx("lost the connection to the LIM");
	sbd->lim = NULL;
	load_lost();
	lim_retry();
}

static void
lim_connected(struct conn *c, int err, void *arg)
{
	struct wbuf w;

	if (err) {
		log_debug("LIM not reachable yet: %s", strerror(err));
		sbd->lim = NULL;
		lim_retry();
		return;
	}
	wbuf_init(&w);
	wbuf_begin(&w, MSG_LIM_SUBSCRIBE, 1, 0);
	put_u32(&w, LIM_SUB_MASTER | LIM_SUB_OWN);
	wbuf_end_frame(&w);
	conn_send(c, &w);
	wbuf_release(&w);
}

/* Our own LIM tells us who the master is, now and whenever it changes. */
static void
lim_subscribe(void)
{
	struct host_addr to;

	if (net_resolve(sbd->host, sbd->conf.lsf.lim_port, &to) < 0)
		fatalx("cannot resolve %s", sbd->host);
	sbd->lim = conn_connect_auth(sbd->base, &to, &sbd->addr, lim_msg,
	    lim_closed, lim_connected, NULL, AUTH_SBD, sbd->host, AUTH_LIM,
	    sbd->host);
	if (sbd->lim == NULL) {
		lim_retry();
		return;
	}
	sbd->lim->name = xstrdup("LIM");
}

/*
 * Stop (SIGTERM, badmin hshutdown) or restart (badmin hrestart): the loop
 * ends after this turn, and main closes up.  The jobs' supervisors are
 * in sessions of their own and are not signalled: they keep their jobs,
 * and a new sbatchd finds them by their directories' locks.  mbatchd, our
 * child on the master host, is stopped either way; a restarted sbatchd
 * starts a new one, which replays the log.
 */
void
sbd_stop(bool restart)
{
	sbd->stopping = true;
	sbd->restart = restart;
	child_stop();
	if (restart)
		notify_reloading();
	else
		notify_send("STOPPING=1");
	event_base_loopbreak(sbd->base);
}

/*
 * Execute ourselves again with the same arguments (so the same -N).  In
 * the foreground (-f, as systemd runs us) the pid stays; a detached
 * sbatchd detaches again, with a new one, as limrestart does.
 */
static void NORETURN
sbd_reexec(void)
{
	log_info("restarting");
	notify_before_exec();
	net_listen_pass(sbd->mbd_lfd, sbd->conf.lsf.mbd_port);
	close_fds_from(3, -1);
	daemon_reexec(&sbd->opts, sbd->argv);
}

static void
signal_cb(evutil_socket_t sig, short ev, void *arg)
{
	int status;
	pid_t pid;

	switch (sig) {
	case SIGTERM:
	case SIGINT:
		log_info("caught signal %d, stopping", (int)sig);
		sbd_stop(false);
		break;
	case SIGHUP:
		log_reopen();
		spares_renew();		/* they log to the file reopened */
		break;
	case SIGCHLD:
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			child_reaped(pid, status);
			if (!spares_reap(pid))
				jobs_reap(pid);
		}
		break;
	}
}

static void
orphan_cb(evutil_socket_t fd, short ev, void *arg)
{
	jobs_check_orphans();
}

/* Which signals a job's process must reset before its exec: asking
 * once here spares each job a call per signal (64 of them). */
static void
note_signals(void)
{
	sigemptyset(&sbd->sig_nondefault);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL)
			sigaddset(&sbd->sig_nondefault, sig);
	}
	/* The supervisor ignores these after the fork. */
	sigaddset(&sbd->sig_nondefault, SIGPIPE);
	sigaddset(&sbd->sig_nondefault, SIGHUP);
	sigaddset(&sbd->sig_nondefault, SIGTERM);
	sigaddset(&sbd->sig_nondefault, SIGINT);
}

int
main(int argc, char **argv)
{
	const int signums[] = { SIGTERM, SIGINT, SIGHUP, SIGCHLD };
	struct listener *l_sbd, *l_sup;
	struct host_addr a;
	char *cause = NULL, *jobsdir;
	bool lsb_broken;
	int fd_sbd, fd_sup;

	notify_init();
	sbd = xcalloc(1, sizeof(*sbd));
	sbd->argv = argv;
	daemon_getopt(&sbd->opts, "sbatchd", argc, argv);
	/*
	 * sbatchd needs little of lsb.* (mbatchd sends it the terminate
	 * interval and the sleep time), and mbatchd runs on its last
	 * accepted copy when the files are broken: a refused reconfig must
	 * not keep the master's sbatchd, and so mbatchd, down after a
	 * reboot.  lsf.conf and lsf.cluster must still be right.
	 */
	lsb_broken = daemon_config_or(&sbd->opts, &sbd->conf, CONF_ALL,
	    CONF_CLUSTER);
	sbd->host = sbd->opts.host;
	sbd->term_interval = sbd->conf.params.job_terminate_interval;
	if (net_resolve(sbd->host, 0, &sbd->addr) < 0 ||
	    net_resolve(sbd->host, sbd->conf.lsf.sbd_port, &a) < 0) {
		fprintf(stderr, "sbatchd: cannot resolve host %s\n", sbd->host);
		exit(1);
	}
	/*
	 * The port is ours alone: one sbatchd per host.  A supervisor
	 * forked by an sbatchd that just died may hold it for a moment,
	 * until it closes what it inherited: wait for that, briefly.
	 */
	for (int i = 0; (fd_sbd = net_listen_tcp(&a, &cause)) < 0 &&
	    errno == EADDRINUSE && i < 50; i++) {
		free(cause);
		cause = NULL;
		usleep(100 * 1000);
	}
	if (fd_sbd < 0) {
		fprintf(stderr, "sbatchd: %s\n", cause);
		exit(1);
	}
	sbd->sbd_lfd = fd_sbd;
	sbd->mbd_lfd = -1;
	sbd->statedir = xasprintf("%s/%s", sbd->conf.lsf.sbd_statedir,
	    sbd->host);
	jobsdir = xasprintf("%s/jobs", sbd->statedir);
	if (mkdir_parents(jobsdir, 0755) < 0) {
		fprintf(stderr, "sbatchd: %s: %s\n", jobsdir, strerror(errno));
		exit(1);
	}
	free(jobsdir);
	sbd->sockpath = xasprintf("%s/sbatchd.sock", sbd->statedir);
	fd_sup = net_listen_unix(sbd->sockpath, 0700, &cause);
	if (fd_sup < 0) {
		fprintf(stderr, "sbatchd: %s\n", cause);
		exit(1);
	}
	daemon_start(&sbd->opts, &sbd->conf);
	if (lsb_broken)
		log_warnx("the lsb.* files have errors (badmin ckconfig says "
		    "which); started without them, as mbatchd runs on its "
		    "last accepted copy");
	signal(SIGPIPE, SIG_IGN);

	sbd->base = event_base_new();
	if (sbd->base == NULL)
		fatalx("event_base_new failed");
	if (event_base_priority_init(sbd->base, SBD_NPRI) < 0)
		fatalx("event_base_priority_init failed");
	for (size_t i = 0; i < ARRAY_SIZE(signums); i++) {
		struct event *ev = evsignal_new(sbd->base, signums[i],
		    signal_cb, NULL);

		evsignal_add(ev, NULL);
	}
	/* As soon as we can serve it: before any user could bind it. */
	child_hold_port();
	l_sbd = listener_new(sbd->base, fd_sbd, jobs_sup_accept, NULL);
	l_sup = listener_new(sbd->base, fd_sup, jobs_sup_accept, NULL);
	/*
	 * Nothing is served on LSB_SBD_PORT yet.  The supervisors (one per
	 * job, all of our uid) may take what descriptors are left; they
	 * send at will as sbatchd does, so no output limit.
	 */
	listener_set_limits(l_sbd, &(struct listener_limits){
	    .max_conns = 16, .max_per_peer = 4,
	    .conn = { LIM_MAX_FRAME, 0, CMD_WAIT_MS } });
	listener_set_limits(l_sup, &(struct listener_limits){
	    .max_conns = daemon_conns_left(daemon_nofile(), 0),
	    .conn = { DAEMON_MAX_FRAME, 0, DAEMON_WAIT_MS } });
	sbd->ev_lim_retry = evtimer_new(sbd->base, lim_retry_cb, NULL);
	{
		struct event *ev = event_new(sbd->base, -1, EV_PERSIST,
		    orphan_cb, NULL);
		struct timeval tv = { 1, 0 };

		event_add(ev, &tv);
	}

	note_signals();
	jobs_init();
	jobs_scan();
	spares_init();
	lim_subscribe();
	/* Bound, and every job of the state directory taken back. */
	notify_ready_on(sbd->base);

	event_base_dispatch(sbd->base);

	/* Our port stays ours across the exec: a copy outlives l_sbd. */
	if (sbd->restart)
		net_listen_pass(dup(sbd->sbd_lfd), sbd->conf.lsf.sbd_port);
	listener_free(l_sbd);
	listener_free(l_sup);
	(void)unlink(sbd->sockpath);
	if (sbd->restart)
		sbd_reexec();
	log_info("sbatchd stopped");
	return 0;
}
