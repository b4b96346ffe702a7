/*
 * Checkpointable jobs: bsub -k, the profile's CHKPNT_DIR or the queue's
 * CHKPNT.  bchkpnt (and the
 * period, when one is set) asks the execution host to run echkpnt for
 * the job; its end comes back as MSG_SBD_CHKPNT_DONE and is logged as
 * LSF's CHKPNT record, whose apply says a checkpoint exists.  From then
 * on, whenever the job starts again (bmig, MIG, a requeue after its host
 * was lost) it runs erestart instead of its command: job_chkpnt_spec
 * decides that at every dispatch, so any requeue path gets it.  brequeue
 * starts it from scratch (LSF) and forgets the checkpoint.
 *
 * Periodic checkpoints: at most one request per job on its way; the pass
 * runs every CHKPNT_PASS_INTERVAL seconds, and walks the jobs only once
 * some job (JOB_NEW, bchkpnt -p) or queue has had a period, so a cluster
 * without them never walks its jobs for this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

#define CHKPNT_PASS_INTERVAL	5
/* An answer not back by then is lost (sbatchd or its supervisor went
 * away): past the execution host's CHKPNT_TIMEOUT_MS of 600 s. */
#define CHKPNT_LOST_AFTER	660

static bool	chkpnt_periodic;
static int64_t	chkpnt_last_pass;

/* The profile's checkpointing (lsb.applications), when it has a
 * CHKPNT_DIR: its period and method count only with it. */
static const struct app_conf *
chkpnt_app(const struct job *j)
{
	const struct app_conf *a = job_app(j);

	return a != NULL && a->chkpnt_dir != NULL ? a : NULL;
}

/*
 * LSF merges the job's -k and its profile's values, the job's winning
 * one by one; the result wins over the queue's CHKPNT.
 */
const char *
job_chkpnt_dir(const struct job *j)
{
	const struct app_conf *a = chkpnt_app(j);

	if (j->x && j->x->chkpnt_dir)
		return j->x->chkpnt_dir;
	if (a != NULL)
		return a->chkpnt_dir;
	return j->queue->conf->chkpnt_dir;
}

int64_t
job_chkpnt_period(const struct job *j)
{
	const struct app_conf *a = chkpnt_app(j);

	if (j->ck && j->ck->period_set)
		return j->ck->period;
	if (j->x && j->x->chkpnt_dir && j->x->chkpnt_period > 0)
		return j->x->chkpnt_period;
	if (a != NULL)
		return a->chkpnt_period * 60;
	if (j->x && j->x->chkpnt_dir)
		return 0;
	return j->queue->conf->chkpnt_dir ?
	    j->queue->conf->chkpnt_period * 60 : 0;
}

const char *
job_chkpnt_method(const struct job *j)
{
	const struct app_conf *a = chkpnt_app(j);

	if (j->x && j->x->chkpnt_method)
		return j->x->chkpnt_method;
	return a != NULL ? a->chkpnt_method : NULL;
}

static struct job_ck *
job_ck(struct job *j)
{
	if (j->ck == NULL)
		j->ck = xcalloc(1, sizeof(*j->ck));
	return j->ck;
}

void
job_ck_free(struct job *j)
{
	if (j->ck != NULL)
		strv_release(&j->ck->mig_hosts);
	free(j->ck);
	j->ck = NULL;
}

/* brestart's job (JOB_NEW with SUB_RESTART): every start restarts. */
void
job_chkpnt_restarted(struct job *j)
{
	job_ck(j)->taken = true;
}

/* LSF writes a job's checkpoint into dir/jobID. */
char *
job_chkpnt_path(const struct job *j)
{
	const char *d = job_chkpnt_dir(j);

	if (d == NULL)
		return NULL;
	if (j->idx > 0)
		return xasprintf("%s/%lld[%d]", d, (long long)j->jobid, j->idx);
	return xasprintf("%s/%lld", d, (long long)j->jobid);
}

/*
 * What the execution host needs: the directory and method, in the spec
 * and in the job's environment (LSB_CHKPNT_DIR, LSB_ECHKPNT_METHOD), and
 * whether this run restarts from the checkpoint.
 */
void
job_chkpnt_spec(struct job *j, struct job_spec *s)
{
	const char *m = job_chkpnt_method(j);
	char *e;

	if ((s->chkpnt_dir = job_chkpnt_path(j)) == NULL)
		return;
	e = xasprintf("LSB_CHKPNT_DIR=%s", s->chkpnt_dir);
	strv_push_nodup(&s->env, e);
	if (m != NULL) {
		s->chkpnt_method = xstrdup(m);
		strv_push_nodup(&s->env, xasprintf("LSB_ECHKPNT_METHOD=%s", m));
	}
	s->chkpnt_restart = j->ck && j->ck->taken;
	if (s->chkpnt_restart && !j->restart)
		strv_push(&s->env, "LSB_RESTART=Y");
}

/* A job with a period of its own exists (JOB_NEW, live or replayed). */
void
chkpnt_note_period(int64_t period)
{
	if (period > 0)
		chkpnt_periodic = true;
}

/* brequeue: the next run starts from scratch. */
void
job_chkpnt_forget(struct job *j)
{
	if (j->ck)
		j->ck->taken = false;
}

/* CHKPNT, live and in replay. */
void
job_chkpnt_apply(struct job *j, const struct ev_chkpnt *ev, int64_t when)
{
	struct job_ck *ck = job_ck(j);

	if (ev->flags & CHKPNT_F_PERIOD) {
		ck->period = ev->period > 0 ? ev->period : 0;
		ck->period_set = true;
		chkpnt_note_period(ck->period);
		return;
	}
	if (ev->ok)
		ck->taken = true;
	ck->at = when;
}

static void
chkpnt_send(struct job *j)
{
	struct wbuf w;
	struct sbd_signal sg;
	struct mhost *h = j->nexec > 0 ? j->exec[0] : NULL;

	if (h == NULL || h->sbd == NULL)
		return;
	memset(&sg, 0, sizeof(sg));
	sg.jobid = j->jobid;
	sg.idx = j->idx;
	sg.sig = SBD_SIG_CHKPNT;
	sg.run_count = j->run_count;
	wbuf_init(&w);
	sbd_signal_frame(&w, MSG_SBD_JOB_SIGNAL, 0, &sg);
	sbd_send(h, &w, true);
	job_ck(j)->sent = true;
	j->ck->sent_at = time(NULL);
}

static bool
chkpnt_busy(struct job *j, int64_t now)
{
	if (j->ck == NULL)
		return false;
	if (j->ck->sent && now - j->ck->sent_at > CHKPNT_LOST_AFTER) {
		log_warnx("job %lld: no answer to its checkpoint request in "
		    "%d s; taken as lost", (long long)j->jobid,
		    CHKPNT_LOST_AFTER);
		j->ck->sent = false;
	}
	return j->ck->sent;
}

/* bchkpnt [-k] [-p minutes] (period -1: not given). */
int
job_chkpnt(struct job *j, int64_t period, bool kill, int uid,
    const char *user)
{
	if (JOB_STAT_FINISHED(j->status))
		return LSBE_JOB_FINISH;
	if (!JOB_STAT_STARTED(j->status))
		return LSBE_NOT_STARTED;
	/* LSBE_NOT_RERUNNABLE reads "Job is not checkpointable". */
	if (job_chkpnt_dir(j) == NULL)
		return LSBE_NOT_RERUNNABLE;
	if (chkpnt_busy(j, time(NULL)) || j->kill_asked || j->end_action)
		return LSBE_LOCKED;
	if (j->nexec == 0 || j->exec[0]->sbd == NULL)
		return LSBE_SBD_UNREACH;
	if (period >= 0) {
		struct ev_chkpnt ev;
		struct strbuf sb = STRBUF_INIT;
		int64_t now = time(NULL);

		memset(&ev, 0, sizeof(ev));
		ev.jobid = j->jobid;
		ev.idx = j->idx;
		ev.period = period * 60;
		ev.pid = j->pid;
		ev.flags = CHKPNT_F_PERIOD;
		ev_chkpnt_write(&sb, now, &ev);
		log_record(&sb);
		sb_release(&sb);
		job_chkpnt_apply(j, &ev, now);
	}
	job_ck(j)->kill = kill;
	j->ck->uid = uid;
	j->ck->user = intern(user);
	chkpnt_send(j);
	return LSBE_NO_ERROR;
}

/*
 * bmig of a running checkpointable job: LSF checkpoints it first and
 * restarts it from that checkpoint on the new host.  Without the
 * checkpoint it is not migrated: it runs on where it is, as after a
 * failed bchkpnt -k.
 */
static void
chkpnt_mig_go(struct job *j, bool ok)
{
	struct job_ck *ck = j->ck;
	struct mhost **hosts;
	int n = 0;

	ck->mig = false;
	if (!ok) {
		log_warnx("job %lld: not migrated: its checkpoint failed",
		    (long long)j->jobid);
		strv_release(&ck->mig_hosts);
		return;
	}
	hosts = xcalloc(ck->mig_hosts.n + 1, sizeof(*hosts));
	for (size_t i = 0; i < ck->mig_hosts.n; i++)
		if ((hosts[n] = host_find(ck->mig_hosts.v[i])) != NULL)
			n++;
	/* A host gone by reconfig meanwhile: any host, rather than none. */
	job_migrate(j, hosts, n, ck->uid, ck->user ? ck->user : "root",
	    ck->mig_reason);
	free(hosts);
	strv_release(&ck->mig_hosts);
}

/* bmig: LSBE_NO_ERROR when the checkpoint is asked for (the migration
 * follows its answer), -1 when the job is to migrate as it is: not
 * running (a stopped job cannot answer echkpnt) or not checkpointable. */
int
job_chkpnt_mig(struct job *j, struct mhost **hosts, int nhosts, int uid,
    const char *user, int reason)
{
	struct job_ck *ck;

	if (!(j->status & JOB_STAT_RUN) || job_chkpnt_dir(j) == NULL)
		return -1;
	if (chkpnt_busy(j, time(NULL)) || j->kill_asked || j->end_action)
		return LSBE_LOCKED;
	if (j->nexec == 0 || j->exec[0]->sbd == NULL)
		return -1;
	ck = job_ck(j);
	ck->kill = false;
	ck->mig = true;
	strv_release(&ck->mig_hosts);
	for (int i = 0; i < nhosts; i++)
		strv_push(&ck->mig_hosts, hosts[i]->name);
	ck->mig_reason = reason;
	ck->uid = uid;
	ck->user = intern(user);
	chkpnt_send(j);
	return LSBE_NO_ERROR;
}

/* The host's answer: echkpnt's wait status. */
void
job_chkpnt_done(struct mhost *h, const struct job_ack *a)
{
	struct job *j = job_find(a->jobid, a->idx);
	struct ev_chkpnt ev;
	struct strbuf sb = STRBUF_INIT;
	int64_t now = time(NULL);

	/* Unasked for: the queue's SUSPEND[CHKPNT] or TERMINATE[CHKPNT]
	 * took it on the host. */
	if (j == NULL || j->run_count != a->run_count || j->nexec == 0 ||
	    j->exec[0] != h || job_chkpnt_dir(j) == NULL)
		return;
	job_ck(j)->sent = false;
	memset(&ev, 0, sizeof(ev));
	ev.jobid = j->jobid;
	ev.idx = j->idx;
	ev.period = -1;
	ev.pid = j->pid;
	ev.ok = a->status == 0;
	ev.flags = j->ck->kill && ev.ok ? CHKPNT_F_KILL : 0;
	ev_chkpnt_write(&sb, now, &ev);
	log_record(&sb);
	sb_release(&sb);
	job_chkpnt_apply(j, &ev, now);
	if (ev.ok)
		log_info("job %lld: checkpointed", (long long)j->jobid);
	else
		log_warnx("job %lld: its checkpoint failed (wait status %d)",
		    (long long)j->jobid, a->status);
	if (ev.flags & CHKPNT_F_KILL) {
		job_signal_record(j, "KILL", j->ck->uid, j->ck->user ?
		    j->ck->user : "root", 0);
		signal_send(j, SIG_KILL_SEQ, TERM_CHKPNT);
	}
	j->ck->kill = false;
	if (j->ck->mig)
		chkpnt_mig_go(j, ev.ok);
}

/* The run is over (or the host gone): nothing is on its way any more. */
void
job_chkpnt_clear_run(struct job *j)
{
	if (j->ck == NULL)
		return;
	j->ck->sent = false;
	j->ck->kill = false;
	j->ck->at = 0;
	j->ck->mig = false;
	strv_release(&j->ck->mig_hosts);
}

void
chkpnt_pass(int64_t now)
{
	if (now - chkpnt_last_pass < CHKPNT_PASS_INTERVAL)
		return;
	for (int i = 0; i < mbd->nqueues && !chkpnt_periodic; i++)
		if (mbd->queues[i]->conf->chkpnt_dir != NULL &&
		    mbd->queues[i]->conf->chkpnt_period > 0)
			chkpnt_periodic = true;
	for (int i = 0; i < mbd->conf.napps && !chkpnt_periodic; i++)
		if (mbd->conf.apps[i].chkpnt_dir != NULL &&
		    mbd->conf.apps[i].chkpnt_period > 0)
			chkpnt_periodic = true;
	if (!chkpnt_periodic)
		return;
	chkpnt_last_pass = now;
	for (struct job *j = mbd->jobs_head; j; j = j->next) {
		int64_t p, since;

		if (!(j->status & JOB_STAT_RUN) || chkpnt_busy(j, now) ||
		    j->kill_asked || j->end_action || j->nexec == 0 ||
		    j->exec[0]->sbd == NULL)
			continue;
		if ((p = job_chkpnt_period(j)) <= 0 ||
		    job_chkpnt_dir(j) == NULL)
			continue;
		since = j->ck && j->ck->at > j->start_time ? j->ck->at :
		    j->start_time;
		if (since <= 0 || now - since < p)
			continue;
		if (j->ck)
			j->ck->kill = false;
		chkpnt_send(j);
	}
}
