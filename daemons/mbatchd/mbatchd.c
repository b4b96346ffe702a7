/*
 * mbatchd: main, the lock that keeps it alone, sockets, signals, and the
 * loop: one turn of libevent (every request that is ready), then the
 * end-of-turn work (schedule, write and sync the log, send what waited
 * for it).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "history.h"
#include "log.h"
#include "mbd.h"
#include "timefmt.h"

struct mbd *mbd;
static volatile bool stopping;
/* Started on the accepted copy: where it is, and what is wrong on disk. */
static char *conf_saved;
static struct strv conf_errors = STRV_INIT;

void
mbd_kick(void)
{
	mbd->flush_pending = true;
}

void
mbd_sched_dirty(void)
{
	mbd->sched_dirty = true;
	mbd->flush_pending = true;
}

/* Schedule, make the log durable, then let the answers go. */
/* What one write and fdatasync of the turn carries: how many records a
 * request (a job pack) cost on disk is in the debug log. */
static void
log_flush_debug(const struct evlog *lg)
{
	size_t n = 0;

	for (size_t i = 0; i < lg->pending.len; i++)
		n += lg->pending.buf[i] == '\n';
	log_debug("lsb.events: %zu records, %zu bytes, one write", n,
	    lg->pending.len);
}

static void
end_of_turn(void)
{
	bool flushed;

	if (!mbd->flush_pending)
		return;
	mbd->flush_pending = false;
	if (mbd->sched_dirty) {
		mbd->sched_dirty = false;
		sched_run();
	}
	lim_send_exclusive();
	/* Environments first: a JOB_NEW on disk must find its JOB_ENV. */
	if (evlog_dirty(&mbd->envlog) && evlog_flush(&mbd->envlog) < 0)
		fatal("cannot write %s", mbd->envpath);
	if ((flushed = evlog_dirty(&mbd->log)))
		log_flush_debug(&mbd->log);
	if (flushed && evlog_flush(&mbd->log) < 0) {
		/*
		 * Nothing may be acknowledged that is not on disk, and the
		 * in-memory state is now ahead of the log: stop, and let the
		 * restart rebuild from what the disk holds.
		 */
		fatal("cannot write %s", mbd->evpath);
	}
	/* After the sync, before the answers: it covers every one. */
	if (flushed)
		seal_turn();
	duplog_check();
	/* lsb.acct after lsb.events: a record is never written twice. */
	acct_flush();
	history_kick();
	outbox_flush();
	/* After the answers: a switch copies every live job's records. */
	log_switch_check();
}

static void
signal_cb(evutil_socket_t sig, short ev, void *arg)
{
	switch (sig) {
	case SIGTERM:
	case SIGINT:
		log_info("caught signal %d, stopping", (int)sig);
		stopping = true;
		event_base_loopbreak(mbd->base);
		break;
	case SIGHUP:
		log_reopen();
		break;
	}
}

static void
tick_cb(evutil_socket_t fd, short ev, void *arg)
{
	sched_tick();
	hostfail_tick();
	acct_sync();
	seal_tick();
	duplog_retry();
}

/*
 * One mbatchd per cluster: whoever holds the lock on the log directory.
 * The holder writes "host pid" into the lock file, so that another one
 * can say who it is, and into MBD_HOST_FILE for the commands.  Held from this host, it is a second mbatchd
 * started by mistake: refuse at once.  Held from another host, it is
 * most likely the mbatchd of the master that is giving way to us (its
 * LIM follows us now, its sbatchd stops it): wait for it.  flock is
 * released by the kernel when the holder dies; on NFS (v4, or v3 with
 * lockd) the server releases a dead client's lock when the client's
 * lease runs out, so a dead host keeps the cluster down that long only.
 */
static void
lock_holder(int fd, char *buf, size_t len, char **host, char **pid)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	*host = strtok(buf, " \n");
	*pid = *host ? strtok(NULL, " \n") : NULL;
}

/*
 * The lock file is mbatchd's alone (0600): any process that can open a
 * file can flock it, and a user holding it would keep every mbatchd
 * from starting.  One left readable by an earlier version is replaced,
 * once we hold its lock, by a private one renamed over it; the inode
 * check after each flock makes a holder of the old inode (or of a file
 * renamed away under us) try again on the one the name now has.  Who
 * holds it is told to the commands by MBD_HOST_FILE instead.
 */
static bool
lock_is_the_file(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int
lock_replace(int fd, const char *path)
{
	char *tmp = xasprintf("%s.new", path);
	int nfd;

	(void)unlink(tmp);
	nfd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (nfd < 0 || flock(nfd, LOCK_EX | LOCK_NB) < 0 ||
	    rename(tmp, path) < 0) {
		log_warn("%s: cannot make it private", path);
		if (nfd >= 0)
			close(nfd);
		(void)unlink(tmp);
		free(tmp);
		return fd;
	}
	free(tmp);
	close(fd);
	return nfd;
}

/* "host pid" for the commands (client.c), replaced whole. */
static void
write_host_file(const char *me)
{
	char *path = xasprintf("%s/%s", mbd->logdir, MBD_HOST_FILE);
	char *tmp = xasprintf("%s.tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write_all(fd, me, strlen(me)) < 0 ||
	    fchmod(fd, 0644) < 0 || close(fd) < 0 || rename(tmp, path) < 0) {
		log_warn("%s", path);
		(void)unlink(tmp);
	}
	free(tmp);
	free(path);
}

static void
take_lock(void)
{
	char *path = xasprintf("%s/mbatchd.lock", mbd->logdir);
	char buf[512], *host, *pid, *me;
	struct stat st;
	bool told = false;

	for (;;) {
		mbd->lockfd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (mbd->lockfd < 0)
			fatal("%s", path);
		if (flock(mbd->lockfd, LOCK_EX | LOCK_NB) == 0) {
			if (lock_is_the_file(mbd->lockfd, path))
				break;
			close(mbd->lockfd);
			continue;
		}
		if (errno != EWOULDBLOCK)
			fatal("flock %s", path);
		lock_holder(mbd->lockfd, buf, sizeof(buf), &host, &pid);
		close(mbd->lockfd);
		if (host && pid && strcasecmp(host, mbd->host) == 0) {
			/* Started by hand, most likely: tell the terminal. */
			fprintf(stderr, "mbatchd: another mbatchd (pid %s on "
			    "%s) holds %s; not starting\n", pid, host, path);
			fatalx("another mbatchd (pid %s on %s) holds %s; "
			    "not starting", pid, host, path);
		}
		if (!told)
			log_warnx("another mbatchd (pid %s on %s) holds %s; "
			    "waiting", pid ? pid : "?", host ? host : "?",
			    path);
		told = true;
		sleep(1);
	}
	if (fstat(mbd->lockfd, &st) == 0 && (st.st_mode & 077))
		mbd->lockfd = lock_replace(mbd->lockfd, path);
	me = xasprintf("%s %ld\n", mbd->host, (long)getpid());
	if (ftruncate(mbd->lockfd, 0) < 0 ||
	    pwrite(mbd->lockfd, me, strlen(me), 0) != (ssize_t)strlen(me))
		log_warn("%s: cannot record the holder", path);
	write_host_file(me);
	free(me);
	free(path);
}

/*
 * The configuration at start: the files on disk, or, when they have
 * errors and an earlier mbatchd accepted a configuration, the copy it
 * kept.  A refused reconfig leaves its broken file on disk; refusing to
 * start over it would take the cluster down hours later, at the next
 * crash or reboot, for a change that never took effect.  The first
 * start of a cluster has no copy, and refuses as before.
 */
static void
config_at_start(void)
{
	struct lsf_config *c = &mbd->conf;
	struct conf_diag d, ds;
	char *saved = NULL;

	if (mbd->opts.check)
		exit(conf_check(mbd->opts.envdir, CONF_ALL, false, stdout));
	conf_diag_init(&d);
	conf_diag_init(&ds);
	if (config_load(c, mbd->opts.envdir, CONF_ALL, &d) == 0)
		goto ok;
	/* The copy is found through the files that did load. */
	if ((c->loaded & CONF_SHARED) && c->lsf.sharedir != NULL)
		saved = xasprintf("%s/%s/logdir/%s", c->lsf.sharedir,
		    c->cluster.name, CONF_ACCEPTED);
	if (saved == NULL || access(saved, F_OK) < 0) {
		conf_diag_print(&d, stderr);
		fprintf(stderr, "mbatchd: configuration has errors; not "
		    "starting\n");
		exit(1);
	}
	config_release(c);
	if (config_load_saved(c, saved, CONF_ALL, &ds) < 0) {
		conf_diag_print(&d, stderr);
		conf_diag_print(&ds, stderr);
		fprintf(stderr, "mbatchd: configuration has errors, and so "
		    "has the copy last accepted in %s; not starting\n", saved);
		exit(1);
	}
	for (size_t i = 0; i < d.msgs.n; i++)
		if (!conf_diag_is_warning(d.msgs.v[i]))
			strv_push(&conf_errors, d.msgs.v[i]);
	conf_saved = saved;
	conf_diag_release(&d);
	d = ds;
	conf_diag_init(&ds);
ok:
	conf_diag_print(&d, stderr);
	daemon_config_diags(&d);
	conf_diag_release(&d);
	conf_diag_release(&ds);
	daemon_config_host(&mbd->opts, c, CONF_ALL);
}

/*
 * With the lock held: keep the configuration just accepted, or say as
 * loudly as can be that the files on disk are broken, in the log and in
 * CONF_BROKEN, which every badmin command prints.
 */
static void
config_settle(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *path, *tmp, when[64];
	int fd;

	if (conf_saved == NULL) {
		conf_accepted();
		return;
	}
	log_errx("the configuration files have errors; running on the "
	    "configuration last accepted, kept in %s", conf_saved);
	for (size_t i = 0; i < conf_errors.n; i++)
		log_errx("%s", conf_errors.v[i]);
	log_errx("correct the files, check them with badmin ckconfig, then "
	    "run badmin reconfig");
	fmt_time_full(time(NULL), when, sizeof(when));
	sb_addf(&sb, "mbatchd on %s runs on the configuration it last "
	    "accepted (%s), since %s: the files on disk have errors:\n",
	    mbd->host, conf_saved, when);
	for (size_t i = 0; i < conf_errors.n; i++)
		sb_addf(&sb, "%s\n", conf_errors.v[i]);
	sb_adds(&sb, "Correct them, check with badmin ckconfig, then run "
	    "badmin reconfig.\n");
	path = xasprintf("%s/%s", mbd->logdir, CONF_BROKEN);
	tmp = xasprintf("%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write_all(fd, sb.buf, sb.len) < 0 || fsync(fd) < 0 ||
	    rename(tmp, path) < 0)
		log_warn("%s", path);
	if (fd >= 0)
		close(fd);
	free(tmp);
	free(path);
	sb_release(&sb);
}

/*
 * Open a replayed log for appending.  A last line without its newline
 * whose checksum fails (or that starts past acked, what a seal that
 * matches says was acknowledged) is a write that did not finish: it was
 * never acknowledged, but it is kept in path.torn and said aloud before
 * it is cut off, so that no byte disappears unseen.  A whole record
 * without its newline is damage.
 */
static void
log_open(struct evlog *lg, const char *path, off_t valid_end, off_t acked)
{
	char *cause = NULL;
	off_t len;

	if (evlog_tail_check(path, valid_end, acked, &cause) < 0)
		fatalx("%s; not starting (repair or move the file aside)",
		    cause);
	switch (evlog_keep_torn(path, valid_end, &len, &cause)) {
	case -1:
		fatalx("%s; not starting", cause);
	case 1:
		log_warnx("%s: torn last record at offset %lld (%lld bytes "
		    "without a newline): kept in %s.torn and cut off", path,
		    (long long)valid_end, (long long)len, path);
		break;
	}
	if (evlog_open(lg, path, valid_end, &cause) < 0)
		fatalx("%s", cause);
}

/* The sbatchd that started us serves our port until we say we do. */
static void
tell_ready(void)
{
	const char *s = getenv(MBD_READY_ENV);
	long fd;

	if (s == NULL)
		return;
	(void)unsetenv(MBD_READY_ENV);
	if (parse_long(s, &fd) < 0 || fd < 3 || fd > 65535)
		return;
	if (write((int)fd, "1", 1) != 1)
		log_warn("telling sbatchd we are ready");
	(void)fcntl((int)fd, F_SETFD, FD_CLOEXEC);
}

/*
 * The descriptors this process may open are shared out: sbatchds get
 * MAX_SBD_CONNS (LSF's default, 2 per host and 200 more, at most half),
 * commands what is left but a reserve for the logs and mbatchd's own.
 */
static void
set_limits(struct listener *l_cmd, struct listener *l_sbd)
{
	int nofile = daemon_nofile();
	int sbd_max = mbd->conf.params.max_sbd_conns;

	if (sbd_max <= 0)
		sbd_max = 2 * mbd->conf.cluster.nhosts + 200;
	if (sbd_max > nofile / 2)
		sbd_max = nofile / 2;
	listener_set_limits(l_sbd, &(struct listener_limits){
	    .max_conns = sbd_max,
	    .max_per_peer = SBD_MAX_PER_ADDR,
	    .conn = { DAEMON_MAX_FRAME, 0, DAEMON_WAIT_MS } });
	listener_set_limits(l_cmd, &(struct listener_limits){
	    .max_conns = daemon_conns_left(nofile, sbd_max),
	    .max_per_peer = CMD_MAX_PER_USER,
	    .conn = { CMD_MAX_FRAME, CMD_MAX_OUT, CMD_WAIT_MS } });
	log_debug("connection limits: %d sbatchds, %d commands (%d of one "
	    "user), of %d open files", sbd_max,
	    daemon_conns_left(nofile, sbd_max), CMD_MAX_PER_USER, nofile);
}

int
main(int argc, char **argv)
{
	const int signums[] = { SIGTERM, SIGINT, SIGHUP };
	struct listener *l_cmd, *l_sbd;
	struct host_addr a;
	char *cause = NULL;
	off_t valid_end = 0;
	struct timeval tv;
	uint64_t t0;
	int fd_cmd, fd_sbd;

	mbd = xcalloc(1, sizeof(*mbd));
	mbd->outbox_tail = &mbd->outbox;
	daemon_getopt(&mbd->opts, "mbatchd", argc, argv);
	config_at_start();
	mbd->host = mbd->opts.host;
	mbd->cluster = mbd->conf.cluster.name;
	mbd->logdir = xasprintf("%s/%s/logdir", mbd->conf.lsf.sharedir,
	    mbd->cluster);
	mbd->evpath = xasprintf("%s/lsb.events", mbd->logdir);
	mbd->envpath = xasprintf("%s/lsb.envs", mbd->logdir);
	/* Where the job history is stays as at the start, as the log's
	 * place does: a reconfig does not move it. */
	mbd->histpath = hist_db_path(&mbd->conf);
	mbd->sockpath = xasprintf("%s/%s/mbatchd.sock", mbd->conf.lsf.sharedir,
	    mbd->cluster);
	if (mkdir_parents(mbd->logdir, 0755) < 0) {
		fprintf(stderr, "mbatchd: %s: %s\n", mbd->logdir,
		    strerror(errno));
		exit(1);
	}
	daemon_start(&mbd->opts, &mbd->conf);
	signal(SIGPIPE, SIG_IGN);
	take_lock();
	config_settle();

	state_init();
	for (int i = 0; i < mbd->nhosts; i++)
		host_resolve(mbd->hosts[i]);
	duplog_start();
	seal_start();
	t0 = mono_ms();
	if (replay_envs(&valid_end, &cause) < 0)
		fatalx("%s; not starting (repair or move the file aside)",
		    cause);
	log_open(&mbd->envlog, mbd->envpath, valid_end, -1);
	/* Users' environments may hold secrets: only mbatchd reads them. */
	if (fchmod(mbd->envlog.fd, 0600) < 0)
		fatal("chmod %s", mbd->envpath);
	if (replay_log(&valid_end, &cause) < 0)
		fatalx("%s; not starting (repair or move the file aside)",
		    cause);
	/* Before anything is cut: refuse a log that lost acknowledged
	 * records; job IDs go on above the seal's. */
	log_open(&mbd->log, mbd->evpath, valid_end, seal_check(valid_end));
	exc_replayed();
	duplog_attach();
	seal_open();
	/* After replay, so that it never delays the start. */
	history_start();
	log_info("replayed %s: %zu jobs in %llu ms, next job ID %lld",
	    mbd->evpath, mbd->njobs, (unsigned long long)(mono_ms() - t0),
	    (long long)mbd->next_jobid);

	mbd->base = event_base_new();
	if (mbd->base == NULL)
		fatalx("event_base_new failed");
	for (size_t i = 0; i < ARRAY_SIZE(signums); i++) {
		struct event *ev = evsignal_new(mbd->base, signums[i],
		    signal_cb, NULL);

		evsignal_add(ev, NULL);
	}
	fd_cmd = net_listen_unix(mbd->sockpath, 0666, &cause);
	if (fd_cmd < 0)
		fatalx("%s", cause);
	if (net_resolve(mbd->host, mbd->conf.lsf.mbd_port, &a) < 0)
		fatalx("cannot resolve %s", mbd->host);
	fd_sbd = net_listen_tcp(&a, &cause);
	if (fd_sbd < 0)
		fatalx("%s", cause);
	l_cmd = listener_new(mbd->base, fd_cmd, client_accept, NULL);
	l_sbd = listener_new(mbd->base, fd_sbd, sbd_accept, NULL);
	set_limits(l_cmd, l_sbd);
	mbd->ev_tick = event_new(mbd->base, -1, EV_PERSIST, tick_cb, NULL);
	tv.tv_sec = 1;
	tv.tv_usec = 0;
	event_add(mbd->ev_tick, &tv);

	mbd->master_ms = (int64_t)mono_ms();
	lim_feed_start();
	log_mbd_start();
	mbd_sched_dirty();
	end_of_turn();
	tell_ready();
	log_info("mbatchd ready on %s", mbd->sockpath);

	while (!stopping && !mbd->restart) {
		if (event_base_loop(mbd->base, EVLOOP_ONCE) < 0)
			fatalx("event loop failed");
		end_of_turn();
	}

	/* badmin mbdrestart logged its MBD_DIE with its answer. */
	if (mbd->restart)
		admin_restart_flush();
	else
		log_mbd_die(0);
	(void)evlog_flush(&mbd->envlog);
	if (evlog_flush(&mbd->log) == 0)
		seal_turn();	/* evlog_close syncs it */
	acct_close();
	history_stop();
	histjob_shutdown();
	evlog_close(&mbd->envlog);
	evlog_close(&mbd->log);
	listener_free(l_cmd);
	listener_free(l_sbd);
	(void)unlink(mbd->sockpath);
	log_info("mbatchd stopped%s", mbd->restart ? " to restart" : "");
	return mbd->restart ? MBD_EXIT_RESTART : 0;
}
