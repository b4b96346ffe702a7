/* lim: main, the listening socket, the sampling and election timers. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "lim.h"
#include "log.h"
#include "notify.h"

/* A changed ELIM value to sbatchd at once, but not more often. */
#define OWN_PUSH_MS	100

struct lim *lim;

static float
model_cpuf(const char *model)
{
	for (int i = 0; model && i < lim->conf.shared.nmodels; i++)
		if (strcasecmp(lim->conf.shared.models[i].name, model) == 0)
			return lim->conf.shared.models[i].cpuf;
	return 1.0f;
}

/* Is any LIM busy threshold of lsf.cluster exceeded? */
static bool
over_busy(const struct cluster_host *ch, const float *load)
{
	for (int i = 0; ch && i < NLOADIDX; i++) {
		if (!(ch->busy_set & (1u << i)))
			continue;
		if (load_index_info[i].increasing ? load[i] > ch->busy[i] :
		    load[i] < ch->busy[i])
			return true;
	}
	return false;
}

void
lim_fill_static(void)
{
	const struct cluster_host *ch = lim->self_conf;
	struct lim_host *me = &lim->me;

	free(me->name);
	free(me->type);
	free(me->model);
	strv_release(&me->resources);
	me->name = xstrdup(lim->host);
	me->server = ch ? ch->server : true;
	if (ch && ch->type && strcmp(ch->type, "!") != 0)
		me->type = xstrdup(ch->type);
	else
		me->type = xstrdup(lim->hs.type);
	if (ch && ch->model && strcmp(ch->model, "!") != 0)
		me->model = xstrdup(ch->model);
	else
		me->model = xstrdup(lim->hs.model);
	me->cpuf = model_cpuf(me->model);
	me->ncpus = lim->hs.ncpus;
	me->ncores = lim->hs.ncores;
	me->nthreads = lim->hs.nthreads;
	me->maxmem = lim->hs.maxmem;
	me->maxswp = lim->hs.maxswp;
	me->maxtmp = lim->hs.maxtmp;
	if (ch)
		strv_copy(&me->resources, &ch->resources);
}

/* lsf.cluster RUNWINDOW of this host: outside it the host is lockW. */
static bool
runwindow_closed(const struct cluster_host *ch)
{
	struct windows w;
	const char *why;
	struct tm tm;
	time_t now = time(NULL);
	bool open;

	if (ch == NULL || ch->runwindow == NULL || *ch->runwindow == '\0')
		return false;
	if (windows_parse(&w, ch->runwindow, &why) < 0)
		return false;	/* refused when the file was read */
	localtime_r(&now, &tm);
	open = windows_open(&w, tm.tm_wday, tm.tm_hour * 60 + tm.tm_min);
	windows_release(&w);
	return !open;
}

static int
lock_status(void)
{
	int st = 0;

	if (lim->locked && lim->lock_until_ms != 0 &&
	    mono_ms() >= lim->lock_until_ms) {
		log_info("the lock of this host has expired");
		lim->locked = false;
	}
	if (lim->locked)
		st |= LIM_LOCKU;
	if (runwindow_closed(lim->self_conf))
		st |= LIM_LOCKW;
	return st;
}

static void
sample_now(void)
{
	float load[NLOADIDX];
	double now = (double)mono_ms() / 1000.0;

	if (load_sample(&lim->sampler, now, wall_time(), load) < 0)
		log_warnx("cannot read the load from /proc");
	memcpy(lim->me.load, load, sizeof(load));
	elim_apply(&lim->me);
	memcpy(load, lim->me.load, sizeof(load));
	lim->me.status = over_busy(lim->self_conf, load) ? LIM_BUSY : 0;
	lim->me.status |= lock_status();
	if (lim->is_master)
		master_report(&lim->me, NULL);
	serve_push_own();
}

/* The load stays as last sampled: only the status changes. */
void
lim_report_now(void)
{
	lim->me.status &= ~(LIM_LOCKU | LIM_LOCKW);
	lim->me.status |= lock_status();
	if (lim->is_master)
		master_report(&lim->me, NULL);
	else if (lim->up)
		elect_send_report();
	serve_push_own();
}

static void
own_push_cb(evutil_socket_t fd, short ev, void *arg)
{
	elim_apply(&lim->me);
	serve_push_own();
}

/*
 * sbatchd suspends and resumes jobs on this host's load, every
 * SBD_SLEEP_TIME: a value an ELIM changed goes to it now, not up to a
 * sample interval later, though not more often than every OWN_PUSH_MS
 * however fast an ELIM prints.  The rest of the sample, the status and
 * the master's copy keep to the sample interval.
 */
void
lim_elim_changed(void)
{
	uint64_t now = mono_ms(), due = lim->own_push_ms + OWN_PUSH_MS;
	struct timeval tv = { 0, 0 };

	if (lim->nowners == 0 || lim->ev_own == NULL ||
	    evtimer_pending(lim->ev_own, NULL))
		return;
	if (due > now)
		tv.tv_usec = (suseconds_t)((due - now) * 1000);
	evtimer_add(lim->ev_own, &tv);
}

static void
sample_cb(evutil_socket_t fd, short ev, void *arg)
{
	static double last_report;
	double now = (double)mono_ms() / 1000.0;

	sample_now();
	if (!lim->is_master && lim->up && now - last_report >=
	    lim->exinterval - 0.01) {
		elect_send_report();
		last_report = now;
	}
}

static void
elect_cb(evutil_socket_t fd, short ev, void *arg)
{
	elect_run();
	if (lim->is_master)
		master_check_timeouts();
}

static void
signal_cb(evutil_socket_t sig, short ev, void *arg)
{
	switch (sig) {
	case SIGTERM:
	case SIGINT:
		log_info("caught signal %d, stopping", (int)sig);
		notify_send("STOPPING=1");
		event_base_loopbreak(lim->base);
		break;
	case SIGHUP:
		log_reopen();
		break;
	}
}

static void
add_timer(struct event **ev, double secs, void (*cb)(evutil_socket_t,
    short, void *))
{
	struct timeval tv;

	tv.tv_sec = (time_t)secs;
	tv.tv_usec = (suseconds_t)((secs - floor(secs)) * 1e6);
	*ev = event_new(lim->base, -1, EV_PERSIST, cb, NULL);
	event_add(*ev, &tv);
}

int
main(int argc, char **argv)
{
	struct listener *listener;
	struct event *sigs[3];
	const int signums[3] = { SIGTERM, SIGINT, SIGHUP };
	struct host_addr laddr;
	char *cause = NULL;
	const char *tmpdir;
	int fd;

	notify_init();
	lim = xcalloc(1, sizeof(*lim));
	lim->argv = argv;
	daemon_getopt(&lim->opts, "lim", argc, argv);
	daemon_config(&lim->opts, &lim->conf, CONF_CLUSTER);
	lim->host = lim->opts.host;
	lim->self_conf = config_cluster_host(&lim->conf, lim->host);
	if (net_resolve(lim->host, lim->conf.lsf.lim_port, &laddr) < 0) {
		fprintf(stderr, "lim: cannot resolve host %s\n", lim->host);
		exit(1);
	}
	lim->addr = laddr;
	fd = net_listen_tcp(&laddr, &cause);
	if (fd < 0) {
		fprintf(stderr, "lim: %s\n", cause);
		exit(1);
	}
	lim->lfd = fd;
	daemon_start(&lim->opts, &lim->conf);
	signal(SIGPIPE, SIG_IGN);

	lim->base = event_base_new();
	if (lim->base == NULL)
		fatalx("event_base_new failed");
	for (int i = 0; i < 3; i++) {
		sigs[i] = evsignal_new(lim->base, signums[i], signal_cb, NULL);
		evsignal_add(sigs[i], NULL);
	}
	/*
	 * Commands, the other LIMs, sbatchds and mbatchd all come here, to
	 * ask and read: the same limits for all (lim.h has no big frame).
	 */
	listener = listener_new(lim->base, fd, serve_accept, NULL);
	listener_set_limits(listener, &(struct listener_limits){
	    .max_conns = daemon_conns_left(daemon_nofile(), 0),
	    .max_per_peer = LIM_MAX_PER_ADDR,
	    .conn = { LIM_MAX_FRAME, LIM_MAX_OUT, CMD_WAIT_MS } });
	lim_admin_init();

	lim->exinterval = lim->conf.cluster.exinterval > 0 ?
	    lim->conf.cluster.exinterval : 15;
	lim->sample_interval = lim->exinterval < 5 ? lim->exinterval : 5;
	tmpdir = getenv("TMPDIR");
	load_sampler_init(&lim->sampler, "/proc", tmpdir ? tmpdir : "/tmp");
	if (host_static_read(&lim->hs, "/proc", tmpdir ? tmpdir : "/tmp") < 0)
		log_warnx("cannot read host information from /proc");
	lim_fill_static();

	master_init();
	elect_init();
	if ((lim->ev_own = evtimer_new(lim->base, own_push_cb, NULL)) == NULL)
		fatalx("evtimer_new failed");
	sample_now();
	elect_run();
	/* After the election: LSF_MASTER is right from the first start. */
	elim_init();
	add_timer(&lim->ev_sample, lim->sample_interval, sample_cb);
	add_timer(&lim->ev_elect, lim->exinterval, elect_cb);
	/* Bound, master elected or followed, own load sampled. */
	notify_ready_on(lim->base);

	event_base_dispatch(lim->base);

	elim_stop();
	listener_free(listener);
	lim_admin_close();
	log_info("lim stopped");
	return 0;
}
