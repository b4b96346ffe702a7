/*
 * The connection to mbatchd.  sbatchd connects from its host's address to
 * the master's LSB_MBD_PORT, registers with the state of every job it
 * holds, and then keeps the connection: job starts and signals come down
 * it, job states go up.  When it breaks, sbatchd reconnects (quickly at
 * first, mbatchd is usually being restarted) and registers again, which
 * is how a new mbatchd learns what happened while it was away.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sbd.h"

#define RETRY_MIN_MS	50
#define RETRY_MAX_MS	2000

static void mbd_connect(void);

/*
 * Frames for mbatchd wait for the end of the turn and leave in one send:
 * a short job's "running" and "done", which its supervisor reports
 * together, then reach mbatchd together, and mbatchd logs both (and the
 * next job's start) under one sync instead of two.  They are for the
 * connection of their generation only: a new one begins with its
 * registration, which carries every job's state anyway.
 */
static struct wbuf	 outq;		/* zero: an empty wbuf */
static unsigned		 outq_gen, conn_gen;
static struct event	*ev_push;

static void
push_cb(evutil_socket_t fd, short ev, void *arg)
{
	if (sbd->mbd && outq_gen == conn_gen && outq.len > 0)
		conn_send_now(sbd->mbd, &outq);
	wbuf_reset(&outq);
}

/*
 * The queue for mbatchd, to append one frame to (job_status_frame(...)),
 * with its send armed for the end of the turn.
 */
static struct wbuf *
outq_frame(void)
{
	if (outq_gen != conn_gen) {
		wbuf_reset(&outq);
		outq_gen = conn_gen;
	}
	if (ev_push == NULL &&
	    (ev_push = event_new(sbd->base, -1, 0, push_cb, NULL)) == NULL)
		fatalx("event_new failed");
	/* Behind every event already active in this turn. */
	event_active(ev_push, EV_TIMEOUT, 0);
	return &outq;
}

void
mbd_send_status(struct sjob *j)
{
	if (sbd->mbd_state != MBD_UP) {
		/* It goes out with or right after the next registration. */
		j->dirty = true;
		return;
	}
	j->dirty = false;
	job_status_frame(outq_frame(), MSG_SBD_JOB_STATUS, 0, &j->st);
}

/* echkpnt's end (jobs' MSG_JS_CHKPNT); dropped while mbatchd is away. */
void
mbd_send_chkpnt(const struct job_ack *a)
{
	if (sbd->mbd_state == MBD_UP)
		job_ack_frame(outq_frame(), MSG_SBD_CHKPNT_DONE, 0, a);
}

static void
do_register(void)
{
	struct sbd_register reg;
	int n = 0;

	memset(&reg, 0, sizeof(reg));
	reg.host = sbd->host;
	reg.pid = (int)getpid();
	for (struct sjob *j = sbd->jobs; j; j = j->next)
		n++;
	reg.jobs = xcalloc((size_t)n, sizeof(*reg.jobs));
	for (struct sjob *j = sbd->jobs; j; j = j->next) {
		reg.jobs[reg.njobs++] = j->st;	/* shallow */
		j->dirty = false;
	}
	sbd_register_frame(outq_frame(), MSG_SBD_REGISTER, 0, &reg);
	free(reg.jobs);
	sbd->mbd_state = MBD_REGISTERING;
}

static void
mbd_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r, void *arg)
{
	struct sbd_register_reply rr;
	struct job_spec spec;
	struct sbd_signal sg;
	struct sbd_limits lim;
	struct sbd_job_susp js;
	struct job_ack ack;
	struct msg_error e;
	struct peek_req pk;
	struct peek_reply pr;

	switch (h->type) {
	case MSG_SBD_REGISTER_REPLY:
		if (!sbd_register_reply_unpack(r, &rr) || rbuf_end(r) < 0) {
			sbd_register_reply_release(&rr);
			goto bad;
		}
		if (rr.job_terminate_interval >= 0)
			sbd->term_interval = rr.job_terminate_interval;
		load_set_sleep_time(rr.sbd_sleep_time);
		sbd_register_reply_release(&rr);
		sbd->mbd_state = MBD_UP;
		sbd->mbd_retry_ms = RETRY_MIN_MS;
		log_info("registered with mbatchd on %s", sbd->master);
		for (struct sjob *j = sbd->jobs; j; j = j->next)
			if (j->dirty)
				mbd_send_status(j);
		break;
	case MSG_SBD_JOB_START:
		if (!job_spec_unpack(r, &spec) || rbuf_end(r) < 0) {
			job_spec_release(&spec);
			goto bad;
		}
		jobs_start(&spec);
		job_spec_release(&spec);
		break;
	case MSG_SBD_JOB_SIGNAL:
		if (!sbd_signal_unpack(r, &sg) || rbuf_end(r) < 0)
			goto bad;
		jobs_signal(&sg);
		break;
	case MSG_SBD_JOB_LIMITS:
		if (!sbd_limits_unpack(r, &lim) || rbuf_end(r) < 0)
			goto bad;
		jobs_limits(&lim);
		break;
	case MSG_SBD_JOB_SUSP:
		if (!sbd_job_susp_unpack(r, &js) || rbuf_end(r) < 0) {
			sbd_job_susp_release(&js);
			goto bad;
		}
		jobs_susp(&js);
		break;
	case MSG_SBD_JOB_ACK:
		if (!job_ack_unpack(r, &ack) || rbuf_end(r) < 0)
			goto bad;
		jobs_ack(&ack);
		break;
	case MSG_SBD_PEEK:
		if (!peek_req_unpack(r, &pk) || rbuf_end(r) < 0) {
			peek_req_release(&pk);
			goto bad;
		}
		peek_read(&pk, &pr);
		peek_reply_frame(outq_frame(), MSG_SBD_PEEK_REPLY, 0, &pr);
		peek_reply_release(&pr);
		peek_req_release(&pk);
		break;
	case MSG_SBD_SHUTDOWN:
	case MSG_SBD_RESTART:
		/* mbatchd let only an administrator's request through. */
		if (rbuf_end(r) < 0)
			goto bad;
		log_info("mbatchd asks for a %s",
		    h->type == MSG_SBD_RESTART ? "restart" : "shutdown");
		sbd_stop(h->type == MSG_SBD_RESTART);
		break;
	case MSG_ERROR:
		if (msg_error_unpack(r, &e))
			log_warnx("mbatchd refused us: %s%s%s",
			    lsb_errmsg(e.code), e.detail ? ": " : "",
			    e.detail ? e.detail : "");
		msg_error_release(&e);
		conn_close(c);
		sbd->mbd = NULL;
		sbd->mbd_state = MBD_DOWN;
		mbd_connect_soon(RETRY_MAX_MS);
		break;
	default:
		log_warnx("mbatchd sent unexpected %s", msg_type_name(h->type));
		break;
	}
	return;
bad:
	log_warnx("malformed %s from mbatchd; reconnecting",
	    msg_type_name(h->type));
	conn_close(c);
	sbd->mbd = NULL;
	sbd->mbd_state = MBD_DOWN;
	mbd_connect_soon(RETRY_MIN_MS);
}

static void
mbd_closed(struct conn *c, void *arg)
{
	if (sbd->mbd_state == MBD_UP)
		log_info("lost the connection to mbatchd");
	sbd->mbd = NULL;
	sbd->mbd_state = MBD_DOWN;
	mbd_connect_soon(sbd->mbd_retry_ms);
	if (sbd->mbd_retry_ms < RETRY_MAX_MS)
		sbd->mbd_retry_ms *= 2;
}

static void
mbd_connected(struct conn *c, int err, void *arg)
{
	if (err) {
		log_debug("mbatchd not reachable: %s", strerror(err));
		sbd->mbd = NULL;
		sbd->mbd_state = MBD_DOWN;
		mbd_connect_soon(sbd->mbd_retry_ms);
		if (sbd->mbd_retry_ms < RETRY_MAX_MS)
			sbd->mbd_retry_ms *= 2;
		return;
	}
	do_register();
}

static void
mbd_connect(void)
{
	struct host_addr to;

	if (sbd->mbd || sbd->master == NULL || sbd->stopping)
		return;
	if (net_resolve(sbd->master, sbd->conf.lsf.mbd_port, &to) < 0) {
		log_warnx("cannot resolve the master %s", sbd->master);
		mbd_connect_soon(RETRY_MAX_MS);
		return;
	}
	conn_gen++;
	sbd->mbd = conn_connect_auth(sbd->base, &to, &sbd->addr, mbd_msg,
	    mbd_closed, mbd_connected, NULL, AUTH_SBD, sbd->host, AUTH_MBD,
	    sbd->master);
	if (sbd->mbd == NULL) {
		log_warn("connect to mbatchd");
		mbd_connect_soon(RETRY_MAX_MS);
		return;
	}
	net_peer_deadline(sbd->mbd->fd, NET_PEER_DEADLINE_MS);
	sbd->mbd->name = xasprintf("mbatchd on %s", sbd->master);
	sbd->mbd_state = MBD_CONNECTING;
}

static void
retry_cb(evutil_socket_t fd, short ev, void *arg)
{
	mbd_connect();
}

void
mbd_connect_soon(int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	if (sbd->ev_mbd_retry == NULL)
		sbd->ev_mbd_retry = evtimer_new(sbd->base, retry_cb, NULL);
	if (sbd->mbd_retry_ms == 0)
		sbd->mbd_retry_ms = RETRY_MIN_MS;
	evtimer_add(sbd->ev_mbd_retry, &tv);
}

void
mbd_master_changed(void)
{
	if (sbd->mbd) {
		conn_close(sbd->mbd);
		sbd->mbd = NULL;
		sbd->mbd_state = MBD_DOWN;
	}
	sbd->mbd_retry_ms = RETRY_MIN_MS;
	if (sbd->master)
		mbd_connect();
}
