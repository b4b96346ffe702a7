/*
 * Load-based suspension and resumption (LSF's automatic job suspension).
 * Our LIM pushes this host's load at each sample (LIM_SUB_OWN); every
 * SBD_SLEEP_TIME sbatchd weighs it against the suspending thresholds of
 * the host and of each started job's queue, which mbatchd sends with the
 * job (MSG_SBD_JOB_SUSP), and suspends or resumes at most one job:
 * src/susp-policy.c decides.  The job's supervisor acts and reports the
 * new state, which goes up to mbatchd to be logged.  The check goes on
 * while mbatchd is away, as the load does; mbatchd learns of it from
 * the next registration.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "resreq.h"
#include "sbd.h"
#include "susp-policy.h"

/* A load older than this is not acted on (the LIM is stuck or gone). */
#define LOAD_STALE_MS	60000

static struct lim_host	 load;		/* our LIM's latest sample */
static bool		 have_load;
static uint64_t		 load_ms;
static struct thresholds host_thr;	/* lsb.hosts, from mbatchd */
static int		 pg_susp_it = 180;
static int		 sleep_time;	/* 0: not armed yet */
static struct event	*ev_check;

static void	check_cb(evutil_socket_t, short, void *);

static void
arm(int secs)
{
	struct timeval tv = { secs, 0 };

	if (secs < 1)
		secs = tv.tv_sec = 1;
	if (ev_check == NULL &&
	    (ev_check = event_new(sbd->base, -1, EV_PERSIST, check_cb,
	    NULL)) == NULL)
		fatalx("event_new failed");
	if (secs == sleep_time && evtimer_pending(ev_check, NULL))
		return;
	sleep_time = secs;
	evtimer_add(ev_check, &tv);
}

/* SBD_SLEEP_TIME, from mbatchd's registration reply or a job's policy. */
void
load_set_sleep_time(int secs)
{
	if (secs > 0)
		arm(secs);
}

/* MSG_LIM_HOST_LOAD: the load is ours to keep (h is emptied). */
void
load_update(struct lim_host *h)
{
	lim_host_release(&load);
	load = *h;
	memset(h, 0, sizeof(*h));
	have_load = true;
	load_ms = mono_ms();
}

/* The LIM connection is gone: no load, no decisions. */
void
load_lost(void)
{
	have_load = false;
}

static void
free_conds(struct sjob *j)
{
	if (j->stop_rr) {
		resreq_release(j->stop_rr);
		free(j->stop_rr);
		j->stop_rr = NULL;
	}
	if (j->resume_rr) {
		resreq_release(j->resume_rr);
		free(j->resume_rr);
		j->resume_rr = NULL;
	}
}

void
load_job_free(struct sjob *j)
{
	free_conds(j);
	if (j->susp) {
		sbd_job_susp_release(j->susp);
		free(j->susp);
		j->susp = NULL;
	}
}

static struct resreq *
cond_parse(const char *text, const struct sjob *j, const char *what)
{
	struct resreq *rr;
	char *cause = NULL;

	if (text == NULL || *text == '\0')
		return NULL;
	rr = xcalloc(1, sizeof(*rr));
	if (resreq_parse(rr, text, sbd->conf.lsf.unit_for_limits,
	    &cause) < 0) {
		/* mbatchd checked it: only a version skew gets here. */
		log_warnx("job %lld: %s \"%s\" ignored: %s",
		    (long long)j->jobid, what, text, cause);
		free(cause);
		resreq_release(rr);
		free(rr);
		return NULL;
	}
	return rr;
}

/* MSG_SBD_JOB_SUSP: a started job's thresholds and conditions, and the
 * host's.  x is ours to keep (it is emptied). */
void
jobs_susp(struct sbd_job_susp *x)
{
	struct sjob *j = jobs_find(x->jobid, x->idx);

	thresholds_from_wire(&host_thr, x->hsched, x->hstop, x->hsched_set,
	    x->hstop_set, &x->hext);
	if (x->pg_susp_it >= 0)
		pg_susp_it = x->pg_susp_it;
	load_set_sleep_time(x->sleep_time);
	if (j == NULL || j->finished || j->run_count != x->run_count) {
		sbd_job_susp_release(x);
		return;
	}
	load_job_free(j);
	j->susp = xmalloc(sizeof(*j->susp));
	*j->susp = *x;
	memset(x, 0, sizeof(*x));
	j->stop_rr = cond_parse(j->susp->stop_cond, j, "STOP_COND");
	j->resume_rr = cond_parse(j->susp->resume_cond, j, "RESUME_COND");
}

static bool
load_suspended(const struct sjob *j)
{
	return (j->st.status & JOB_STAT_SSUSP) &&
	    (j->st.susp_reason == SUSP_LOAD ||
	    j->st.susp_reason == SUSP_STOP_COND);
}

/* The policy's reason as the job's suspending reason. */
static int
reason_of(const struct susp_decision *d, int *sub)
{
	*sub = 0;
	if (d->why == SUSPW_STOP_COND)
		return SUSP_STOP_COND;
	if (d->ext != NULL)
		*sub = NLOADIDX + d->ext->res;
	else
		*sub = d->index >= 0 ? d->index : 0;
	return SUSP_LOAD;
}

static void
act(struct sjob *j, const struct susp_decision *d)
{
	struct sbd_signal sg;
	char buf[160];

	memset(&sg, 0, sizeof(sg));
	sg.jobid = j->jobid;
	sg.idx = j->idx;
	sg.run_count = j->run_count;
	if (d->action == SUSP_ACT_SUSPEND) {
		sg.sig = SBD_SIG_SUSPEND;
		sg.reason = reason_of(d, &sg.sub);
		log_info("job %lld[%d]: suspended: %s%s%s",
		    (long long)j->jobid, j->idx, susp_reason_fmt(sg.reason,
		    sg.sub, NULL, buf, sizeof(buf)), d->ext ? ": " : "",
		    d->ext ? d->ext->name : "");
	} else {
		sg.sig = SBD_SIG_RESUME;
		log_info("job %lld[%d]: resumed: the load allows it",
		    (long long)j->jobid, j->idx);
	}
	j->load_act_ms = mono_ms();
	jobs_signal(&sg);
}

static void
check_cb(evutil_socket_t fd, short ev, void *arg)
{
	struct susp_job *v;
	struct sjob **who;
	struct thresholds *qthr;
	struct susp_host h;
	struct susp_decision d;
	struct rr_host rh;
	uint64_t now = mono_ms();
	int n = 0, cap = 0;

	if (!have_load || now - load_ms > LOAD_STALE_MS)
		return;
	for (struct sjob *j = sbd->jobs; j; j = j->next)
		cap++;
	if (cap == 0)
		return;
	v = xcalloc((size_t)cap, sizeof(*v));
	who = xcalloc((size_t)cap, sizeof(*who));
	qthr = xcalloc((size_t)cap, sizeof(*qthr));
	for (struct sjob *j = sbd->jobs; j; j = j->next) {
		struct susp_job *s = &v[n];
		const struct sbd_job_susp *x = j->susp;

		/*
		 * Only jobs whose supervisor can act and report, that are
		 * not already on their way to another state.
		 */
		if (j->finished || j->st.pid <= 0 ||
		    !(j->st.status & (JOB_STAT_RUN | JOB_STAT_SSUSP |
		    JOB_STAT_USUSP)))
			continue;
		if (x == NULL || j->sup == NULL ||
		    (j->load_act_ms && now - j->load_act_ms < 500)) {
			/*
			 * Nothing load can stop (mbatchd sends no policy for
			 * a job no threshold applies to), or not ours to act
			 * on now; it still runs beside the others.
			 */
			s->forced = true;
			s->other_susp = !(j->st.status & JOB_STAT_RUN);
			s->start_time = (time_t)j->st.start_time;
			who[n++] = j;
			continue;
		}
		thresholds_from_wire(&qthr[n], x->qsched, x->qstop,
		    x->qsched_set, x->qstop_set, &x->qext);
		s->qprio = x->qprio;
		s->qthr = &qthr[n];
		s->stop_cond = j->stop_rr;
		s->resume_cond = j->resume_rr;
		s->forced = x->forced;
		s->load_susp = load_suspended(j);
		s->other_susp = !(j->st.status & JOB_STAT_RUN) &&
		    !s->load_susp;
		s->start_time = (time_t)j->st.start_time;
		who[n++] = j;
	}

	memset(&rh, 0, sizeof(rh));
	rh.name = load.name;
	rh.type = load.type;
	rh.model = load.model;
	rh.load = load.load;
	rh.ncpus = load.ncpus;
	rh.cpuf = load.cpuf;
	rh.maxmem = load.maxmem;
	rh.maxswp = load.maxswp;
	rh.maxtmp = load.maxtmp;
	rh.resources = &load.resources;
	rh.server = true;
	rh.ext = &load.ext;
	memset(&h, 0, sizeof(h));
	h.load = load.load;
	h.ncpus = load.ncpus;
	h.thr = &host_thr;
	h.rr = &rh;
	h.pg_susp_it = pg_susp_it;
	/* A job's own load shows in the indices after a while. */
	h.min_run = sleep_time;
	h.now = time(NULL);
	if (susp_policy_decide(&h, v, n, &d) != SUSP_ACT_NONE)
		act(who[d.job], &d);
	free(v);
	free(who);
	free(qthr);
}
