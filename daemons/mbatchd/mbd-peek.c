/*
 * bpeek.  A running job's output is on its execution host, so the request
 * goes on to that host's sbatchd with a tag, and the answer that comes
 * back with the tag goes to the command that asked.  Nothing is logged:
 * a peek changes nothing.
 *
 * Each request waits PEEK_TIMEOUT_SEC at most for its answer.  The
 * command may leave first (peek_drop_conn forgets its requests) and the
 * host may never answer (the timer does); a late answer finds no request
 * and is dropped.  A request keeps its host only to compare it.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

#define PEEK_TIMEOUT_SEC	5
/* bpeek -f may still read a job that ended this recently: its sbatchd
 * keeps the files of a job being followed that long (sbd-jobs.c). */
#define PEEK_FOLLOW_SEC		4

struct peek {
	uint32_t	 tag;
	struct conn	*client;
	uint32_t	 seq;
	const struct mhost *host;
	char		*hostname;
	int64_t		 jobid;
	int32_t		 idx;
	struct event	*timer;
	struct peek	*next;
};

static struct peek *peeks;
static uint32_t last_tag;

static void
peek_free(struct peek *p)
{
	struct peek **pp;

	for (pp = &peeks; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	event_free(p->timer);
	free(p->hostname);
	free(p);
}

/* "123" or "123[4]", for LSF's "Job <...>" messages. */
static void
peek_error(struct conn *c, uint32_t seq, int code, int64_t jobid, int32_t idx,
    const char *detail)
{
	char jid[48];

	if (jobid == 0) {
		client_reply_error(c, seq, code, NULL, detail, false);
		return;
	}
	if (idx > 0)
		snprintf(jid, sizeof(jid), "%lld[%d]", (long long)jobid, idx);
	else
		snprintf(jid, sizeof(jid), "%lld", (long long)jobid);
	client_reply_error(c, seq, code, jid, detail, false);
}

static void
timeout_cb(evutil_socket_t fd, short ev, void *arg)
{
	struct peek *p = arg;
	char *why = xasprintf("sbatchd on %s did not answer", p->hostname);

	peek_error(p->client, p->seq, LSBE_SYS, p->jobid, p->idx, why);
	free(why);
	peek_free(p);
}

static bool
peek_matches(const struct job *j, const struct peek_req *rq)
{
	if (rq->queue && strcmp(j->queue->name, rq->queue) != 0)
		return false;
	if (rq->job_name && !wildmatch(rq->job_name,
	    j->job_name ? j->job_name : ""))
		return false;
	if (rq->host) {
		for (int i = 0; i < j->nexec; i++)
			if (strcasecmp(j->exec[i]->name, rq->host) == 0)
				return true;
		return false;
	}
	return true;
}

/* bpeek without a job ID: the caller's most recent started job that
 * matches; else the most recent pending one, which has no output. */
static struct job *
most_recent(int uid, const struct peek_req *rq)
{
	struct job *pending = NULL;

	for (struct job *j = mbd->jobs_tail; j; j = j->prev) {
		if (j->uid != uid || JOB_STAT_FINISHED(j->status) ||
		    !peek_matches(j, rq))
			continue;
		if (JOB_STAT_STARTED(j->status))
			return j;
		if (pending == NULL)
			pending = j;
	}
	return pending;
}

void
peek_handle(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct wbuf w;
	struct peek_req rq;
	struct peek *p;
	struct mhost *h;
	struct job *j;
	struct timeval tv = { PEEK_TIMEOUT_SEC, 0 };
	const char *caller = user_name((int)c->uid);
	int64_t now = time(NULL);

	if (!peek_req_unpack(r, &rq) || rbuf_end(r) < 0) {
		peek_req_release(&rq);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	j = rq.jobid == 0 ? most_recent((int)c->uid, &rq) :
	    job_find(rq.jobid, rq.idx);
	if (j == NULL) {
		peek_error(c, seq, LSBE_NO_JOB, rq.jobid, rq.idx, NULL);
		goto out;
	}
	if (j->uid != (int)c->uid && !user_admins_job(j, caller, (int)c->uid)) {
		peek_error(c, seq, LSBE_PERMISSION, j->jobid, j->idx, NULL);
		goto out;
	}
	if (JOB_STAT_FINISHED(j->status) && !((rq.flags & PEEK_F_FOLLOW) &&
	    j->nexec > 0 && now - j->end_time <= PEEK_FOLLOW_SEC)) {
		peek_error(c, seq, LSBE_JOB_FINISH, j->jobid, j->idx, NULL);
		goto out;
	}
	if (j->nexec == 0 || (!JOB_STAT_STARTED(j->status) &&
	    !JOB_STAT_FINISHED(j->status))) {
		peek_error(c, seq, LSBE_NOT_STARTED, j->jobid, j->idx, NULL);
		goto out;
	}
	h = j->exec[0];
	if (h->sbd == NULL && JOB_STAT_FINISHED(j->status)) {
		peek_error(c, seq, LSBE_JOB_FINISH, j->jobid, j->idx, NULL);
		goto out;
	}
	if (h->sbd == NULL) {
		char *why = xasprintf("sbatchd on %s is not reachable",
		    h->name);

		peek_error(c, seq, LSBE_SYS, j->jobid, j->idx, why);
		free(why);
		goto out;
	}
	p = xcalloc(1, sizeof(*p));
	if (++last_tag == 0)
		last_tag = 1;
	p->tag = last_tag;
	p->client = c;
	p->seq = seq;
	p->host = h;
	p->hostname = xstrdup(h->name);
	p->jobid = j->jobid;
	p->idx = j->idx;
	p->timer = evtimer_new(mbd->base, timeout_cb, p);
	evtimer_add(p->timer, &tv);
	p->next = peeks;
	peeks = p;

	/* What the host needs: the job, this run, the piece, the tag. */
	free(rq.queue);
	free(rq.host);
	free(rq.job_name);
	rq.queue = rq.host = rq.job_name = NULL;
	rq.jobid = j->jobid;
	rq.idx = j->idx;
	rq.run_count = j->run_count;
	rq.tag = p->tag;
	wbuf_init(&w);
	peek_req_frame(&w, MSG_SBD_PEEK, 0, &rq);
	sbd_send(h, &w, false);
out:
	peek_req_release(&rq);
}

void
peek_answer(struct mhost *h, struct peek_reply *rp)
{
	struct peek *p;
	struct wbuf w;

	for (p = peeks; p; p = p->next)
		if (p->tag == rp->tag)
			break;
	if (p == NULL || p->host != h) {
		log_debug("host %s: bpeek answer %u that nobody waits for",
		    h->name, rp->tag);
		return;
	}
	if (rp->code != LSBE_NO_ERROR) {
		struct job *j = job_find(p->jobid, p->idx);

		/* The host has forgotten a job that ended meanwhile. */
		if (rp->code == LSBE_NOT_STARTED && j &&
		    JOB_STAT_FINISHED(j->status))
			rp->code = LSBE_JOB_FINISH;
		peek_error(p->client, p->seq, rp->code, p->jobid, p->idx, NULL);
		peek_free(p);
		return;
	}
	rp->jobid = p->jobid;
	rp->idx = p->idx;
	wbuf_init(&w);
	wbuf_begin(&w, MSG_PEEK_REPLY, p->seq, 0);
	peek_reply_pack(&w, rp);
	wbuf_end_frame(&w);
	conn_send(p->client, &w);
	wbuf_release(&w);
	peek_free(p);
}

void
peek_drop_conn(struct conn *c)
{
	struct peek *p, *next;

	for (p = peeks; p; p = next) {
		next = p->next;
		if (p->client == c)
			peek_free(p);
	}
}
