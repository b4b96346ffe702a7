/*
 * Application profiles (lsb.applications).  A job keeps the name of its
 * profile (bsub -app, else DEFAULT_APPLICATION) from its JOB_NEW record;
 * what the name means is looked up in the configuration each time, so
 * badmin reconfig changes it for every job at once.  A job whose profile
 * is no longer configured keeps the name (bjobs shows it) and gets its
 * queue's settings, as a job without a profile does.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mbd.h"

const struct app_conf *
job_app(const struct job *j)
{
	if (j->app == NULL)
		return NULL;
	return config_app(&mbd->conf, j->app);
}

int
job_max_preempt(const struct job *j)
{
	const struct app_conf *a = job_app(j);
	const struct queue_conf *qc = j->queue ? j->queue->conf : NULL;

	if (a != NULL && a->max_job_preempt > 0)
		return a->max_job_preempt;
	if (qc != NULL && qc->max_job_preempt > 0)
		return qc->max_job_preempt;
	if (mbd->conf.params.max_job_preempt > 0)
		return mbd->conf.params.max_job_preempt;
	return -1;
}

/* Slots of the profile's jobs by state, as bqueues counts a queue's. */
static void
app_count(struct app_info *ai, const char *name)
{
	for (struct job *j = mbd->jobs_head; j != NULL; j = j->next) {
		int n = j->pj.num_procs;

		if (j->app == NULL || strcmp(j->app, name) != 0)
			continue;
		/* An array's parent stands for its pending elements. */
		if (JOB_IS_PARENT(j)) {
			if (JOB_STAT_PENDING(j->status))
				ai->npend += (int)(j->arr->pend.count * n);
			continue;
		}
		if (JOB_STAT_PENDING(j->status))
			ai->npend += n;
		else if (j->status & JOB_STAT_RUN)
			ai->nrun += n;
		else if (j->status & JOB_STAT_SSUSP)
			ai->nssusp += n;
		else if (j->status & JOB_STAT_USUSP)
			ai->nususp += n;
	}
	ai->njobs = ai->npend + ai->nrun + ai->nssusp + ai->nususp;
}

static void
app_fill(struct app_info *ai, const struct app_conf *a)
{
	memset(ai, 0, sizeof(*ai));
	/* Borrowed from the configuration; app_fill_release drops them. */
	ai->name = a->name;
	ai->description = a->description;
	ai->runlimit = a->runlimit;
	ai->cpulimit = a->cpulimit;
	ai->memlimit = a->memlimit;
	ai->max_job_preempt = a->max_job_preempt;
	ai->rerunnable = a->rerunnable;
	ai->ctl_suspend = a->jobctl.op[JOBCTL_SUSPEND].text;
	ai->ctl_resume = a->jobctl.op[JOBCTL_RESUME].text;
	ai->ctl_terminate = a->jobctl.op[JOBCTL_TERMINATE].text;
	ai->extra.keys = a->keys;
	ai->extra.vals = a->vals;
	app_count(ai, a->name);
}

/*
 * bapp [name ...]: the profiles asked for that exist, in the order of
 * lsb.applications; bapp says which names it did not get back.
 */
void
query_apps(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct strv names = STRV_INIT;
	struct app_list al;
	struct wbuf w;

	if (!get_strv(r, &names) || rbuf_end(r) < 0) {
		strv_release(&names);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	memset(&al, 0, sizeof(al));
	al.v = xcalloc((size_t)mbd->conf.napps + 1, sizeof(*al.v));
	for (int i = 0; i < mbd->conf.napps; i++) {
		const struct app_conf *a = &mbd->conf.apps[i];

		if (names.n > 0 && !strv_contains(&names, a->name))
			continue;
		app_fill(&al.v[al.n++], a);
	}
	wbuf_init(&w);
	app_list_frame(&w, MSG_APP_LIST, seq, &al);
	/* Everything in it is borrowed. */
	free(al.v);
	strv_release(&names);
	conn_send(c, &w);
	wbuf_release(&w);
}
