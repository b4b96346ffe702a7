/*
 * badmin's requests: close and open hosts; restart and shut down their
 * sbatchds; close, open, inactivate and activate queues; reconfig and
 * mbdrestart.  Cluster administrators may do all of it; a queue's
 * ADMINISTRATORS only the queue operations, on their own queues
 * (admin_handle, queue_ctrl).
 *
 * Each change is a HOST_CTRL or QUEUE_CTRL record with who asked and
 * why, written before the answer goes out and replayed at start-up, so a
 * closed host or a closed or inactive queue stays so across restarts.
 * These states are the administrator's, not the configuration's: a
 * reconfig keeps them.
 */
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conf-lex.h"
#include "log.h"
#include "mbd.h"

#define LOST_AND_FOUND	"lost_and_found"

struct results {
	struct admin_result *v;
	uint32_t	 n;
};

static void
result_add(struct results *rs, const char *name, int code, const char *detail)
{
	struct admin_result *r;

	rs->v = xrealloc(rs->v, sizeof(*rs->v) * (rs->n + 1));
	r = &rs->v[rs->n++];
	r->name = name ? xstrdup(name) : NULL;
	r->code = code;
	r->detail = detail ? xstrdup(detail) : NULL;
}

/* The answer waits for the records it reports. */
static void
results_reply(struct conn *c, uint32_t seq, struct results *rs)
{
	struct admin_result_list l = { rs->n, rs->v };
	struct wbuf w;

	wbuf_init(&w);
	admin_result_list_frame(&w, MSG_ADMIN_REPLY, seq, &l);
	outbox_add(c, &w);
	for (uint32_t i = 0; i < rs->n; i++)
		admin_result_release(&rs->v[i]);
	free(rs->v);
	rs->v = NULL;
	rs->n = 0;
}

/* A HOST_CTRL or QUEUE_CTRL record, logged and applied
 * (mbd-apply-ctrl.c). */
static void
log_ctrl(bool host, int op, const char *name, int uid, const char *user,
    const char *comment)
{
	struct ev_ctrl ev = {
		.op = op,
		.name = (char *)name,
		.uid = uid,
		.user = (char *)user,
		.comment = (char *)comment,
	};

	if (host)
		log_apply_host_ctrl(&ev, time(NULL));
	else
		log_apply_queue_ctrl(&ev, time(NULL));
}

/* badmin hclose as the primary administrator, with a comment: what
 * LSF's default eadmin does to a host with too many exited jobs. */
void
admin_host_close(struct mhost *h, const char *comment)
{
	const char *user = mbd->admins.n > 0 ? mbd->admins.v[0] : "root";
	struct passwd *pw = getpwnam(user);
	int uid = pw ? (int)pw->pw_uid : 0;

	log_ctrl(true, HCTRL_CLOSE, h->name, uid, user, comment);
	log_info("host %s closed by %s: %s", h->name, user, comment);
}

/* The hosts a name stands for: a host, a host group or "all". */
static void
hosts_named(const char *name, struct strv *out, bool *bad)
{
	struct strv one = STRV_INIT, miss = STRV_INIT;

	*bad = false;
	if (strcmp(name, "all") == 0) {
		for (int i = 0; i < mbd->nhosts; i++)
			if (!mbd->hosts[i]->removed)
				strv_push(out, mbd->hosts[i]->name);
		return;
	}
	strv_push(&one, name);
	config_expand_hosts(&mbd->conf, &one, out, &miss);
	*bad = miss.n > 0 || out->n == 0;
	strv_release(&one);
	strv_release(&miss);
}

/*
 * hrestart, hshutdown: the request goes down the host's own sbatchd
 * connection, after the HOST_CTRL record that badmin hhist shows (the
 * answer and the request leave together, after the log is synced).
 * sbatchd stops or executes itself again; its jobs keep running under
 * their supervisors.  A host whose sbatchd is not connected cannot be
 * reached from here.
 */
static void
host_sbd_ctrl(struct mhost *h, int op, int uid, const char *user,
    const char *comment, struct results *rs)
{
	struct wbuf w;

	if (h->sbd == NULL) {
		result_add(rs, h->name, LSBE_SBD_UNREACH, NULL);
		return;
	}
	log_ctrl(true, op, h->name, uid, user, comment);
	wbuf_init(&w);
	msg_put_empty(&w, op == HCTRL_RESTART ? MSG_SBD_RESTART :
	    MSG_SBD_SHUTDOWN, 0);
	sbd_send(h, &w, true);
	log_info("sbatchd on %s %s by %s", h->name, op == HCTRL_RESTART ?
	    "restarted" : "shut down", user);
	result_add(rs, h->name, LSBE_NO_ERROR, NULL);
}

static int
host_op(int adm_op)
{
	switch (adm_op) {
	case ADM_HOST_OPEN:
		return HCTRL_OPEN;
	case ADM_HOST_CLOSE:
		return HCTRL_CLOSE;
	case ADM_HOST_RESTART:
		return HCTRL_RESTART;
	default:
		return HCTRL_SHUTDOWN;
	}
}

static void
host_ctrl(const struct admin_req *rq, int uid, const char *user,
    struct results *rs)
{
	int op = host_op(rq->op);
	struct strv names = STRV_INIT;

	/* No name: the host the command runs on, which is ours. */
	if (rq->names.n == 0)
		strv_push(&names, mbd->host);
	else
		strv_copy(&names, &rq->names);
	for (size_t i = 0; i < names.n; i++) {
		struct strv hosts = STRV_INIT;
		bool bad;

		hosts_named(names.v[i], &hosts, &bad);
		if (bad) {
			result_add(rs, names.v[i], LSBE_BAD_HOST, NULL);
			strv_release(&hosts);
			continue;
		}
		for (size_t k = 0; k < hosts.n; k++) {
			struct mhost *h = host_find(hosts.v[k]);

			if (h == NULL || h->removed) {
				/* A client host: mbatchd has nothing there. */
				result_add(rs, hosts.v[k], LSBE_BAD_HOST,
				    "not a server host");
				continue;
			}
			if (op == HCTRL_RESTART || op == HCTRL_SHUTDOWN) {
				host_sbd_ctrl(h, op, uid, user, rq->comment,
				    rs);
				continue;
			}
			log_ctrl(true, op, h->name, uid, user, rq->comment);
			log_info("host %s %s by %s", h->name, op == HCTRL_OPEN ?
			    "opened" : "closed", user);
			result_add(rs, h->name, LSBE_NO_ERROR, NULL);
		}
		strv_release(&hosts);
	}
	strv_release(&names);
}

static int
queue_op(int op)
{
	switch (op) {
	case ADM_QUEUE_OPEN:
		return QCTRL_OPEN;
	case ADM_QUEUE_CLOSE:
		return QCTRL_CLOSE;
	case ADM_QUEUE_ACT:
		return QCTRL_ACT;
	default:
		return QCTRL_INACT;
	}
}

static void
queue_ctrl(const struct admin_req *rq, int uid, const char *user,
    bool cluster_admin, struct results *rs)
{
	static const char *const done[] = {
		"", "opened", "closed", "activated", "inactivated"
	};
	int op = queue_op(rq->op);
	struct strv names = STRV_INIT;

	/* No name: the default queue(s), as LSF does. */
	if (rq->names.n == 0)
		default_queues(&names);
	else if (rq->names.n == 1 && strcmp(rq->names.v[0], "all") == 0 &&
	    queue_find("all") == NULL) {
		for (int i = 0; i < mbd->pc.nqueues; i++)
			strv_push(&names, mbd->pc.queues[i]->name);
	} else
		strv_copy(&names, &rq->names);
	for (size_t i = 0; i < names.n; i++) {
		struct mqueue *q = queue_find(names.v[i]);

		if (q == NULL) {
			result_add(rs, names.v[i], LSBE_BAD_QUEUE, NULL);
			continue;
		}
		if (!cluster_admin && !strv_contains(&q->admins, user)) {
			result_add(rs, q->name, LSBE_PERMISSION, NULL);
			continue;
		}
		log_ctrl(false, op, q->name, uid, user, rq->comment);
		log_info("queue %s %s by %s", q->name, done[op], user);
		result_add(rs, q->name, LSBE_NO_ERROR, NULL);
	}
	strv_release(&names);
}

static void
reconfig(int uid, const char *user, struct results *rs)
{
	struct lsf_config nc;
	char *cause = NULL;

	if (reconfig_check(&nc, &cause) < 0) {
		log_warnx("reconfig by %s refused: %s", user, cause);
		result_add(rs, NULL, LSBE_CONF, cause);
		free(cause);
		return;
	}
	reconfig_apply(&nc);
	log_info("reconfigured by %s", user);
	result_add(rs, NULL, LSBE_NO_ERROR, NULL);
}

/*
 * mbdrestart: the new mbatchd must be able to start, so the files are
 * checked here first.  Then MBD_DIE, the answer, and the loop stops at
 * the end of this turn (mbatchd.c); sbatchd starts the new one.
 */
static void
restart(struct conn *c, const char *user, const char *comment,
    struct results *rs)
{
	struct lsf_config nc;
	char *cause = NULL;

	if (reconfig_check(&nc, &cause) < 0) {
		log_warnx("mbdrestart by %s refused: %s", user, cause);
		result_add(rs, NULL, LSBE_CONF, cause);
		free(cause);
		return;
	}
	config_release(&nc);
	mbd->restart = true;
	mbd->restart_conn = c;
	mbd->restart_user = xstrdup(user);
	mbd->restart_comment = comment ? xstrdup(comment) : NULL;
	log_mbd_die(MBD_EXIT_RESTART);
	log_info("restart asked by %s", user);
	result_add(rs, NULL, LSBE_NO_ERROR, NULL);
}

/* badmin statedump: mbd-dump.c's text, a result per line. */
static void
state_dump_results(struct results *rs)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *next;

	state_dump(&sb);
	for (line = sb.buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		result_add(rs, NULL, LSBE_NO_ERROR, line);
	}
	sb_release(&sb);
}

void
admin_handle(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct admin_req rq;
	struct results rs = { NULL, 0 };
	int uid = (int)c->uid;
	const char *user = user_name(uid);
	bool cluster_admin = user_is_admin(user, uid);

	if (!admin_req_unpack(r, &rq) || rbuf_end(r) < 0 ||
	    rq.op < ADM_HOST_OPEN || rq.op > ADM_STATE_DUMP) {
		admin_req_release(&rq);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	/* A queue's ADMINISTRATORS may open, close and (in)activate it. */
	if (!cluster_admin && (rq.op < ADM_QUEUE_OPEN ||
	    rq.op > ADM_QUEUE_INACT)) {
		client_reply_error(c, seq, LSBE_PERMISSION, NULL, NULL, false);
		admin_req_release(&rq);
		return;
	}
	if (mbd->restart) {
		/* Too late: this mbatchd is on its way out. */
		client_reply_error(c, seq, LSBE_NOLSF, NULL,
		    "mbatchd is restarting", false);
		admin_req_release(&rq);
		return;
	}
	switch (rq.op) {
	case ADM_HOST_OPEN:
	case ADM_HOST_CLOSE:
	case ADM_HOST_RESTART:
	case ADM_HOST_SHUTDOWN:
		host_ctrl(&rq, uid, user, &rs);
		break;
	case ADM_RECONFIG:
		reconfig(uid, user, &rs);
		break;
	case ADM_MBD_RESTART:
		restart(c, user, rq.comment, &rs);
		break;
	case ADM_STATE_DUMP:
		state_dump_results(&rs);
		break;
	default:
		queue_ctrl(&rq, uid, user, cluster_admin, &rs);
		break;
	}
	results_reply(c, seq, &rs);
	admin_req_release(&rq);
}

void
admin_conn_closed(struct conn *c)
{
	if (mbd->restart_conn == c)
		mbd->restart_conn = NULL;
}

/*
 * Before exiting for mbdrestart: write the answer now, without running
 * the loop again (that would take new requests this mbatchd would never
 * answer).
 */
void
admin_restart_flush(void)
{
	if (mbd->restart_conn != NULL &&
	    conn_flush_now(mbd->restart_conn, 2000) < 0)
		log_warnx("%s: the answer to mbdrestart was not sent",
		    mbd->restart_conn->name);
}

/*
 * lost_and_found: where the jobs of a queue removed from lsb.queues go,
 * as in LSF.  It is closed and inactive: its jobs wait until an
 * administrator (or their owner) moves them with bswitch.  Made when first
 * needed and kept; a queue of that name in lsb.queues is used instead.
 */
static struct queue_conf lost_conf;

bool
queue_is_lost_found(const struct mqueue *q)
{
	return q->conf == &lost_conf;
}

static const struct queue_conf *
lost_conf_get(void)
{
	if (lost_conf.name == NULL) {
		queue_conf_init(&lost_conf);
		lost_conf.name = xstrdup(LOST_AND_FOUND);
		lost_conf.description = xstrdup("Jobs of queues removed from "
		    "the configuration; move them with bswitch.");
	}
	return &lost_conf;
}

/* Also for a configured lost_and_found that reconfig finds removed. */
void
queue_become_lost_found(struct mqueue *q)
{
	queue_configure(q, lost_conf_get(), q->index);
	q->open = false;
	q->active = false;
	queue_set_active(q, time(NULL));
}

struct mqueue *
queue_lost_found(void)
{
	struct mqueue *q = queue_find(LOST_AND_FOUND);

	if (q != NULL)
		return q;
	q = queue_add(lost_conf_get(), mbd->nqueues);
	queue_become_lost_found(q);
	state_lists_rebuild();
	log_info("queue %s made for the jobs of removed queues",
	    LOST_AND_FOUND);
	return q;
}
