/*
 * bkill.  A pending job is finished here and now; a started one is
 * signalled through its sbatchd and finishes when sbatchd reports its
 * end (bkill -r does not wait).  Users may signal their own jobs,
 * cluster administrators any job.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

struct results {
	struct job_result *v;
	uint32_t	 n;
};

static void
add_result(struct results *r, int64_t jobid, int32_t idx, int code)
{
	r->v = xrealloc(r->v, sizeof(*r->v) * (r->n + 1));
	r->v[r->n].jobid = jobid;
	r->v[r->n].idx = idx;
	r->v[r->n].code = code;
	r->n++;
}

static bool
kill_like(int sig)
{
	return sig == SIG_KILL_SEQ || sig == SIGKILL || sig == SIGTERM ||
	    sig == SIGINT || sig == SIGQUIT || sig == SIGHUP || sig == SIGABRT;
}

void
signal_send(struct job *j, int sig, int reason)
{
	struct sbd_signal sg;
	struct mhost *h = j->nexec > 0 ? j->exec[0] : NULL;

	if (h == NULL || h->sbd == NULL) {
		/* Delivered when its sbatchd registers again. */
		j->sig_pending = true;
		j->pending_sig = sig;
		j->pending_reason = reason;
		return;
	}
	memset(&sg, 0, sizeof(sg));
	sg.jobid = j->jobid;
	sg.idx = j->idx;
	sg.sig = sig;
	sg.reason = reason;
	sg.run_count = j->run_count;
	sbd_send(h, MSG_SBD_JOB_SIGNAL,
	    (void (*)(struct wbuf *, const void *))sbd_signal_pack, &sg, true);
	j->sig_pending = false;
}

/* End a job that will not report an end itself. */
static void
finish_now(struct job *j, int status, int reason)
{
	int64_t now = time(NULL);

	policy_job_remove(&j->pj);
	j->exit_reason = reason;
	j->end_time = now;
	if (j->exit_status < 0)
		j->exit_status = 0;
	if (!JOB_STAT_STARTED(j->status))
		j->start_time = 0;
	job_set_status(j, status);
	log_job_status(j);
	client_job_event(j, JE_FINISHED);
	mbd_sched_dirty();
}

static int
do_signal(struct job *j, const struct sig_req *rq, int uid, const char *user,
    bool admin)
{
	bool owner = j->uid == uid;
	bool force = rq->flags & SIG_F_FORCE;
	int reason;
	const char *symbol;

	if (!owner && !admin)
		return LSBE_PERMISSION;
	if (JOB_STAT_FINISHED(j->status))
		return LSBE_JOB_FINISH;
	if (force)
		reason = owner ? TERM_FORCE_OWNER : TERM_FORCE_ADMIN;
	else
		reason = owner ? TERM_OWNER : TERM_ADMIN;
	symbol = rq->sig == SIG_KILL_SEQ ? "KILL" : sig_name(rq->sig);
	if (symbol == NULL)
		return LSBE_BAD_SIGNAL;

	if (JOB_STAT_PENDING(j->status)) {
		if (!kill_like(rq->sig) && !force)
			return LSBE_NOT_STARTED;
		log_job_signal(j, symbol, uid, user, (int)rq->flags);
		finish_now(j, rq->flags & SIG_F_DONE ? JOB_STAT_DONE :
		    JOB_STAT_EXIT, reason);
		return LSBE_NO_ERROR;
	}
	log_job_signal(j, symbol, uid, user, (int)rq->flags);
	if (rq->flags & SIG_F_DONE)
		j->kill_done = true;
	signal_send(j, force ? SIGKILL : rq->sig, reason);
	if (force) {
		/* Removed now; its end, when it comes, is only acknowledged. */
		j->removed = true;
		j->exit_status = (128 + SIGKILL) << 8;
		finish_now(j, rq->flags & SIG_F_DONE ? JOB_STAT_DONE :
		    JOB_STAT_EXIT, reason);
	}
	return LSBE_NO_ERROR;
}

static bool
matches(const struct sig_req *rq, const struct job *j, const char *user)
{
	if (user && strcmp(j->user, user) != 0)
		return false;
	if (rq->queue && strcmp(j->queue->name, rq->queue) != 0)
		return false;
	if (rq->job_name && !wildmatch(rq->job_name,
	    j->job_name ? j->job_name : ""))
		return false;
	if (rq->host) {
		bool on = false;

		for (int i = 0; i < j->nexec; i++)
			if (strcasecmp(j->exec[i]->name, rq->host) == 0)
				on = true;
		if (!on)
			return false;
	}
	return true;
}

void
signal_handle(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct sig_req rq;
	struct results res = { NULL, 0 };
	const char *caller = user_name((int)c->uid);
	bool admin = user_is_admin(caller, (int)c->uid);
	const char *user;
	struct wbuf w;

	if (!sig_req_unpack(r, &rq) || rbuf_end(r) < 0) {
		sig_req_release(&rq);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	if (rq.sig != SIG_KILL_SEQ && sig_name(rq.sig) == NULL) {
		sig_req_release(&rq);
		client_reply_error(c, seq, LSBE_BAD_SIGNAL, NULL, NULL, false);
		return;
	}
	if (rq.user && strcmp(rq.user, "all") == 0)
		user = NULL;
	else
		user = rq.user ? rq.user : caller;

	if (rq.nids == 0) {
		/* No ID: the most recent unfinished job that matches. */
		struct job *last = NULL;

		for (struct job *j = mbd->jobs_tail; j; j = j->prev)
			if (!JOB_STAT_FINISHED(j->status) &&
			    matches(&rq, j, user)) {
				last = j;
				break;
			}
		if (last)
			add_result(&res, last->jobid, last->idx,
			    do_signal(last, &rq, (int)c->uid, caller, admin));
		else
			add_result(&res, 0, 0, LSBE_NO_JOB);
	}
	for (uint32_t i = 0; i < rq.nids; i++) {
		struct job_id *id = &rq.ids[i];
		struct job *j;

		if (id->jobid == 0) {
			uint32_t before = res.n;

			for (j = mbd->jobs_head; j; j = j->next)
				if (!JOB_STAT_FINISHED(j->status) &&
				    matches(&rq, j, user))
					add_result(&res, j->jobid, j->idx,
					    do_signal(j, &rq, (int)c->uid,
					    caller, admin));
			if (res.n == before)
				add_result(&res, 0, 0, LSBE_NO_JOB);
			continue;
		}
		j = job_find(id->jobid, id->idx);
		if (j == NULL)
			add_result(&res, id->jobid, id->idx, LSBE_NO_JOB);
		else
			add_result(&res, id->jobid, id->idx,
			    do_signal(j, &rq, (int)c->uid, caller, admin));
	}
	wbuf_init(&w);
	wbuf_begin(&w, MSG_SIGNAL_REPLY, seq, 0);
	put_u32(&w, res.n);
	for (uint32_t i = 0; i < res.n; i++)
		job_result_pack(&w, &res.v[i]);
	wbuf_end_frame(&w);
	outbox_add(c, &w);
	free(res.v);
	sig_req_release(&rq);
}
