/*
 * bkill.  A pending job is finished here and now; a started one is
 * signalled through its sbatchd and finishes when sbatchd reports its
 * end (bkill -r does not wait).  Users may signal their own jobs,
 * cluster administrators any job.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

static bool
kill_like(int sig)
{
	return sig == SIG_KILL_SEQ || sig == SIGKILL || sig == SIGTERM ||
	    sig == SIGINT || sig == SIGQUIT || sig == SIGHUP || sig == SIGABRT;
}

void
signal_send(struct job *j, int sig, int reason)
{
	struct wbuf w;
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
	sg.flags = (uint32_t)j->end_action;
	wbuf_init(&w);
	sbd_signal_frame(&w, MSG_SBD_JOB_SIGNAL, 0, &sg);
	sbd_send(h, &w, true);
	j->sig_pending = false;
}

/* End a job that will not report an end itself. */
void
job_finish_now(struct job *j, int status, int reason)
{
	struct ev_job_status ev;

	/* An array's parent: its virtual elements end together. */
	job_status_fill(j, status, &ev);
	ev.exit_info = reason;
	ev.end_time = time(NULL);
	job_status_record(j, &ev);
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
	/* SIGSTOP and SIGTSTP are bstop, SIGCONT is bresume (LSF). */
	if (!force && (rq->sig == SIGSTOP || rq->sig == SIGTSTP))
		return job_stop(j, uid, user, admin);
	if (!force && rq->sig == SIGCONT) {
		int code = job_resume(j, uid, user, admin);

		return code == LSBE_NOT_SUSPENDED ? LSBE_NO_ERROR : code;
	}
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
		job_signal_record(j, symbol, uid, user, (int)rq->flags);
		job_finish_now(j, rq->flags & SIG_F_DONE ? JOB_STAT_DONE :
		    JOB_STAT_EXIT, reason);
		return LSBE_NO_ERROR;
	}
	job_signal_record(j, symbol, uid, user, (int)rq->flags);
	signal_send(j, force ? SIGKILL : rq->sig, reason);
	if (force) {
		/* Removed now; its end, when it comes, is only acknowledged. */
		j->exit_status = (128 + SIGKILL) << 8;
		job_finish_now(j, rq->flags & SIG_F_DONE ? JOB_STAT_DONE :
		    JOB_STAT_EXIT, reason);
	}
	return LSBE_NO_ERROR;
}

static bool
matches(const struct jsel *sel, const struct job *j)
{
	if (sel->user && strcmp(j->user, sel->user) != 0)
		return false;
	if (sel->queue && strcmp(j->queue->name, sel->queue) != 0)
		return false;
	if (sel->job_name && !job_name_matches(j, sel->job_name))
		return false;
	if (sel->on_host && !job_on_hosts(j, sel->on_host))
		return false;
	return true;
}

void
job_results_add(struct job_results *r, int64_t jobid, int32_t idx, int code)
{
	r->v = xrealloc(r->v, sizeof(*r->v) * (r->n + 1));
	r->v[r->n].jobid = jobid;
	r->v[r->n].idx = idx;
	r->v[r->n].code = code;
	r->n++;
}

/* The answer goes after the log: it reports what the log now says. */
void
job_results_reply(struct conn *c, uint32_t seq, struct job_results *res)
{
	struct job_result_list l = { res->n, res->v };
	struct wbuf w;

	wbuf_init(&w);
	job_result_list_frame(&w, MSG_SIGNAL_REPLY, seq, &l);
	outbox_add(c, &w);
	free(res->v);
	res->v = NULL;
	res->n = 0;
}

/* Is this job, or for an array any part of it, unfinished? */
static bool
unfinished(const struct job *j)
{
	if (JOB_IS_PARENT(j))
		return !array_finished(j);
	return !JOB_STAT_FINISHED(j->status);
}

/*
 * A whole array: its virtual pending elements (through the parent) and
 * every element that is a job.  One result for all: done if anything
 * was, else the first refusal.
 */
static int
act_array(struct job *parent, bool finished_too, job_action act, void *arg)
{
	int code = -1, c;
	struct job *e, *next;

	if (JOB_STAT_PENDING(parent->status)) {
		c = act(parent, arg);
		if (c == LSBE_NO_ERROR || code < 0)
			code = c;
	}
	for (e = parent->next; e && e->jobid == parent->jobid; e = next) {
		next = e->next;
		if (!finished_too && JOB_STAT_FINISHED(e->status))
			continue;
		c = act(e, arg);
		if (c == LSBE_NO_ERROR || code < 0)
			code = c;
	}
	return code < 0 ? LSBE_JOB_FINISH : code;
}

static int
act_one(struct job *j, bool finished_too, job_action act, void *arg)
{
	if (JOB_IS_PARENT(j))
		return act_array(j, finished_too, act, arg);
	return act(j, arg);
}

void
jobs_select(const struct jsel *sel, job_action act, void *arg,
    struct job_results *res)
{
	if (sel->nids == 0) {
		/* No ID: the most recent unfinished job that matches. */
		for (struct job *j = mbd->jobs_tail; j; j = j->prev)
			if (!JOB_IS_ELEMENT(j) && unfinished(j) &&
			    matches(sel, j)) {
				job_results_add(res, j->jobid, j->idx,
				    act_one(j, false, act, arg));
				return;
			}
		job_results_add(res, 0, 0, LSBE_NO_JOB);
		return;
	}
	for (uint32_t i = 0; i < sel->nids; i++) {
		const struct job_id *id = &sel->ids[i];
		struct job *j, *next;

		if (id->jobid == 0) {
			uint32_t before = res->n;

			for (j = mbd->jobs_head; j; j = next) {
				next = j->next;
				/* Skip past an array's elements first: the
				 * action may end them. */
				if (JOB_IS_PARENT(j))
					while (next && next->jobid == j->jobid)
						next = next->next;
				if (JOB_IS_ELEMENT(j))
					continue;
				if ((sel->finished_too || unfinished(j)) &&
				    matches(sel, j))
					job_results_add(res, j->jobid, j->idx,
					    act_one(j, sel->finished_too, act,
					    arg));
			}
			if (res->n == before)
				job_results_add(res, 0, 0, LSBE_NO_JOB);
			continue;
		}
		j = job_lookup(id->jobid, id->idx);
		if (j == NULL)
			job_results_add(res, id->jobid, id->idx, LSBE_NO_JOB);
		else
			job_results_add(res, id->jobid, id->idx,
			    act_one(j, sel->finished_too, act, arg));
	}
}

struct sig_ctx {
	const struct sig_req *rq;
	int		 uid;
	const char	*user;
	bool		 admin;
};

static int
signal_one(struct job *j, void *arg)
{
	struct sig_ctx *c = arg;

	return do_signal(j, c->rq, c->uid, c->user,
	    c->admin || user_admins_job(j, c->user, c->uid));
}

void
signal_handle(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct sig_req rq;
	struct job_results res = { NULL, 0 };
	const char *caller = user_name((int)c->uid);
	struct sig_ctx ctx;
	struct jsel sel;

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
	ctx.rq = &rq;
	ctx.uid = (int)c->uid;
	ctx.user = caller;
	ctx.admin = user_is_admin(caller, (int)c->uid);
	memset(&sel, 0, sizeof(sel));
	if (rq.user && strcmp(rq.user, "all") == 0)
		sel.user = NULL;
	else
		sel.user = rq.user ? rq.user : caller;
	sel.queue = rq.queue;
	if (rq.host && (sel.on_host = host_mask(rq.host)) == NULL) {
		client_reply_error(c, seq, LSBE_BAD_HOST, rq.host, NULL,
		    false);
		sig_req_release(&rq);
		return;
	}
	sel.job_name = rq.job_name;
	sel.ids = rq.ids;
	sel.nids = rq.nids;
	jobs_select(&sel, signal_one, &ctx, &res);
	job_results_reply(c, seq, &res);
	free(sel.on_host);
	sig_req_release(&rq);
}
