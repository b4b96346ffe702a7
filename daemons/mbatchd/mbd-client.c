/*
 * Commands.  On the master host they use a Unix-domain socket, where the
 * kernel tells who the caller is (SO_PEERCRED); from other hosts they
 * come to the TCP port with a MUNGE credential naming their user
 * (mbd-sbd.c takes those and hands them here).  That uid is the caller's
 * identity for everything.  One table maps each request to its handler.
 * No request is for cluster administrators alone (badmin's lets queue
 * administrators control their own queues; brun is one operation of the
 * job control request that job owners send), so the handlers check who
 * may do what, once the request is read: its operation and its jobs
 * decide.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mbd.h"

typedef void (*handler_fn)(struct conn *, uint32_t, struct rbuf *);

static void ping(struct conn *, uint32_t, struct rbuf *);
static void wait_job(struct conn *, uint32_t, struct rbuf *);

static const struct {
	int		 type;
	handler_fn	 fn;
} handlers[] = {
	{ MSG_PING,		ping },
	{ MSG_SUBMIT,		submit_handle },
	{ MSG_SUBMIT_PACK,	submit_pack_handle },
	{ MSG_JOB_QUERY,	query_jobs },
	{ MSG_JOB_SIGNAL,	signal_handle },
	{ MSG_QUEUE_QUERY,	query_queues },
	{ MSG_HOST_QUERY,	query_hosts },
	{ MSG_PARAM_QUERY,	query_params },
	{ MSG_JOB_WAIT,		wait_job },
	{ MSG_MBD_CONF_QUERY,	query_conf },
	{ MSG_JOB_CONTROL,	control_handle },
	{ MSG_JOB_MODIFY,	modify_handle },
	{ MSG_JOB_PEEK,		peek_handle },
	{ MSG_USER_QUERY,	query_users },
	{ MSG_WAIT_QUERY,	query_wait },
	{ MSG_APP_QUERY,	query_apps },
	{ MSG_LIMIT_QUERY,	query_limits },
	{ MSG_FS_QUERY,		query_fairshare },
	{ MSG_JOB_RESTART,	restart_handle },
	{ MSG_ADMIN,		admin_handle },
};

void
client_reply_error(struct conn *c, uint32_t seq, int code, const char *context,
    const char *detail, bool wait_log)
{
	struct wbuf w;

	wbuf_init(&w);
	msg_put_error(&w, seq, code, context, detail);
	if (wait_log) {
		outbox_add(c, &w);
	} else {
		conn_send(c, &w);
		wbuf_release(&w);
	}
}

static void
ping(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct wbuf w;

	wbuf_init(&w);
	msg_put_empty(&w, MSG_OK, seq);
	conn_send(c, &w);
	wbuf_release(&w);
}

static void
send_job_event(struct conn *c, struct job *j, int what)
{
	struct job_event ev;
	struct wbuf w;

	memset(&ev, 0, sizeof(ev));
	ev.what = what;
	ev.jobid = j->jobid;
	ev.host = j->nexec > 0 ? j->exec[0]->name : NULL;
	ev.status = j->status;
	ev.exit_status = j->exit_status;
	wbuf_init(&w);
	wbuf_begin(&w, MSG_JOB_EVENT, 0, 0);
	job_event_pack(&w, &ev);
	wbuf_end_frame(&w);
	outbox_add(c, &w);
}

/* An array's waiters hear of each element's start, and of the end when
 * the last element ends (EXIT if any did). */
static void
array_event(struct job *e, int what)
{
	struct job *p = e->arr ? job_find(e->jobid, 0) : NULL;
	const struct jarray *a;
	int status, exit_status;

	if (p == NULL || p->nwaiters == 0)
		return;
	if (what == JE_DISPATCHED) {
		for (int i = 0; i < p->nwaiters; i++)
			send_job_event(p->waiters[i], e, what);
		return;
	}
	if (!array_finished(p))
		return;
	a = p->arr;
	status = p->status, exit_status = p->exit_status;
	p->status = a->nstat[AS_EXIT] + a->gone.count ? JOB_STAT_EXIT :
	    JOB_STAT_DONE;
	p->exit_status = p->status == JOB_STAT_EXIT ? 1 << 8 : 0;
	client_job_event(p, JE_FINISHED);
	p->status = status;
	p->exit_status = exit_status;
}

/* Tell bsub -K what happened to its job. */
void
client_job_event(struct job *j, int what)
{
	if (JOB_IS_ELEMENT(j) || (JOB_IS_PARENT(j) && what == JE_FINISHED &&
	    !JOB_STAT_FINISHED(j->status))) {
		array_event(j, what);
		return;
	}
	for (int i = 0; i < j->nwaiters; i++)
		send_job_event(j->waiters[i], j, what);
	if (what == JE_FINISHED) {
		for (int i = 0; i < j->nwaiters; i++)
			j->waiters[i]->data = NULL;
		j->nwaiters = 0;
	}
}

void
client_drop_waiter(struct conn *c)
{
	struct job *j = c->data;

	if (j == NULL)
		return;
	for (int i = 0; i < j->nwaiters; i++)
		if (j->waiters[i] == c) {
			j->waiters[i] = j->waiters[--j->nwaiters];
			break;
		}
	c->data = NULL;
}

static void
wait_job(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct job *j;
	int64_t jobid;

	if (!get_i64(r, &jobid) || rbuf_end(r) < 0) {
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	j = job_find(jobid, 0);
	if (j == NULL) {
		client_reply_error(c, seq, LSBE_NO_JOB, NULL, NULL, false);
		return;
	}
	if ((int)c->uid != j->uid && !user_admins_job(j,
	    user_name((int)c->uid), (int)c->uid)) {
		client_reply_error(c, seq, LSBE_PERMISSION, NULL, NULL, false);
		return;
	}
	client_drop_waiter(c);
	if (JOB_IS_PARENT(j)) {
		j->waiters = xrealloc(j->waiters, sizeof(*j->waiters) *
		    (size_t)(j->nwaiters + 1));
		j->waiters[j->nwaiters++] = c;
		c->data = j;
		if (array_finished(j))
			array_event(j, JE_FINISHED);
		return;
	}
	if (JOB_STAT_STARTED(j->status) || JOB_STAT_FINISHED(j->status))
		send_job_event(c, j, JE_DISPATCHED);
	if (JOB_STAT_FINISHED(j->status)) {
		send_job_event(c, j, JE_FINISHED);
		return;
	}
	j->waiters = xrealloc(j->waiters, sizeof(*j->waiters) *
	    (size_t)(j->nwaiters + 1));
	j->waiters[j->nwaiters++] = c;
	c->data = j;
}

void
client_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r,
    void *arg)
{
	for (size_t i = 0; i < ARRAY_SIZE(handlers); i++) {
		if (handlers[i].type != h->type)
			continue;
		handlers[i].fn(c, h->seq, r);
		return;
	}
	log_warnx("%s: unexpected %s", c->name, msg_type_name(h->type));
	client_reply_error(c, h->seq, LSBE_PROTOCOL, NULL,
	    "unexpected request", false);
}

void
client_closed(struct conn *c, void *arg)
{
	outbox_drop_conn(c);
	client_drop_waiter(c);
	admin_conn_closed(c);
	peek_drop_conn(c);
}

struct conn *
client_accept(int fd, struct sockaddr *sa, socklen_t len, void *arg)
{
	struct conn *c = conn_new(mbd->base, fd, client_msg, client_closed,
	    NULL);

	if (net_peer_cred(fd, &c->uid, &c->gid, &c->pid) < 0) {
		log_warn("SO_PEERCRED");
		conn_close(c);
		return NULL;
	}
	c->have_cred = true;
	c->name = xasprintf("command pid %d uid %d", (int)c->pid, (int)c->uid);
	return c;
}
