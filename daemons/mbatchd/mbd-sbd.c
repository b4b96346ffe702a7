/*
 * sbatchd connections.  An sbatchd connects from its host's address and
 * registers with the state of every job it holds; the address must be the
 * one its host name resolves to.  Registration reconciles: jobs it reports
 * take the state it reports; jobs this mbatchd started there that it
 * does not report never reached it (back to PEND) or were lost with their
 * supervisor (EXIT).  Everything sent to an sbatchd goes through the
 * outbox, after the log records that explain it.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

/*
 * A frame the caller built (x_frame, typed) for the host's sbatchd:
 * after the log (the outbox) or at once.  w is consumed either way.
 */
void
sbd_send(struct mhost *h, struct wbuf *w, bool after_log)
{
	if (h->sbd == NULL) {
		wbuf_release(w);
	} else if (after_log) {
		outbox_add(h->sbd, w);
	} else {
		conn_send(h->sbd, w);
		wbuf_release(w);
	}
}

static void
send_ack(struct mhost *h, const struct job_status *st)
{
	struct wbuf w;
	struct job_ack a;

	a.jobid = st->jobid;
	a.idx = st->idx;
	a.status = st->status;
	a.run_count = st->run_count;
	wbuf_init(&w);
	job_ack_frame(&w, MSG_SBD_JOB_ACK, 0, &a);
	sbd_send(h, &w, true);
}

static void
kill_stray(struct mhost *h, const struct job_status *st)
{
	struct wbuf w;
	struct sbd_signal sg;

	memset(&sg, 0, sizeof(sg));
	sg.jobid = st->jobid;
	sg.idx = st->idx;
	sg.sig = SIGKILL;
	sg.reason = TERM_ADMIN;
	sg.run_count = st->run_count;
	wbuf_init(&w);
	sbd_signal_frame(&w, MSG_SBD_JOB_SIGNAL, 0, &sg);
	sbd_send(h, &w, true);
}

/*
 * The host says whether the job runs or is stopped.  mbatchd keeps its
 * own refinement of a stopped job (SSUSP after bresume, waiting for the
 * load) until the host says it runs again.
 */
static void
apply_suspension(struct job *j, const struct job_status *st)
{
	bool stopped = (st->status & (JOB_STAT_USUSP | JOB_STAT_SSUSP)) != 0;

	if (preempt_host_report(j, st))
		return;
	if (stopped) {
		int want = st->status & JOB_STAT_USUSP ? JOB_STAT_USUSP :
		    JOB_STAT_SSUSP;
		bool by_load = st->susp_reason == SUSP_LOAD ||
		    st->susp_reason == SUSP_STOP_COND;

		j->stop_sent = false;
		/*
		 * Stopped now; or stopped by its user after a bresume; or,
		 * by load, for another reason than the one logged (resumed
		 * and suspended again while mbatchd was away).
		 */
		if (j->status & JOB_STAT_RUN || (want == JOB_STAT_USUSP &&
		    (j->status & JOB_STAT_SSUSP) &&
		    j->susp_reason != SUSP_USER_RESUME) ||
		    (want == JOB_STAT_SSUSP && (j->status & JOB_STAT_SSUSP) &&
		    by_load && (st->susp_reason != j->susp_reason ||
		    st->susp_sub != j->susp_sub)))
			job_susp_change(j, want, st->susp_reason,
			    st->susp_sub);
	} else if ((st->status & JOB_STAT_RUN) &&
	    (j->status & (JOB_STAT_USUSP | JOB_STAT_SSUSP))) {
		job_status_change(j, JOB_STAT_RUN, 0);
		mbd_sched_dirty();
	}
}

static void
apply_status(struct mhost *h, struct job_status *st)
{
	struct job *j = job_find(st->jobid, st->idx);
	bool fin = JOB_STAT_FINISHED(st->status);

	if (j == NULL || st->run_count != j->run_count ||
	    j->nexec == 0 || j->exec[0] != h) {
		/* Not (or no longer) ours to run there. */
		if (fin) {
			send_ack(h, st);
		} else {
			/* Requeued when its host was lost, say: it runs
			 * again elsewhere, or will. */
			log_warnx("%s runs job %lld[%d] run %u that is not "
			    "running there; killing it", h->name,
			    (long long)st->jobid, st->idx, st->run_count);
			kill_stray(h, st);
		}
		return;
	}
	if (fin && st->exit_reason == TERM_ZOMBIE && !j->kill_asked &&
	    !(j->end_action & (SIG_F_REQUEUE | SIG_F_MIG)) &&
	    !JOB_STAT_FINISHED(j->status)) {
		/* Its supervisor is gone: the host went down with it. */
		log_warnx("job %lld: its supervisor on %s is gone; it is lost",
		    (long long)j->jobid, h->name);
		job_lost(j, h);
		send_ack(h, st);
		return;
	}
	if (fin) {
		sched_finish_job(j, st);
		return;
	}
	if (JOB_STAT_FINISHED(j->status)) {
		/* bkill -r: its end is still to come; or it was given up
		 * with its lost host, which is back: it must not go on. */
		if (j->exit_reason == TERM_ZOMBIE) {
			log_warnx("%s runs job %lld, given up as lost; "
			    "killing it", h->name, (long long)st->jobid);
			kill_stray(h, st);
		}
		return;
	}
	if (!j->executed && st->pid > 0)
		job_execute_record(j, st);
	apply_suspension(j, st);
	if (st->mem_kb >= 0)
		j->mem_kb = st->mem_kb;
	if (st->max_mem_kb >= 0)
		j->max_mem_kb = st->max_mem_kb;
	if (st->avg_mem_kb >= 0)
		j->avg_mem_kb = st->avg_mem_kb;
	if (st->cpu_time > 0) {
		j->cpu_time = st->cpu_time;
		fs_job_cpu(j);
	}
}

/* Jobs started on h that its sbatchd does not know. */
static void
reconcile_missing(struct mhost *h, const struct sbd_register *reg)
{
	for (struct job *j = mbd->jobs_head; j; j = j->next) {
		bool known = false;

		if (!JOB_STAT_STARTED(j->status) || j->nexec == 0 ||
		    j->exec[0] != h)
			continue;
		for (uint32_t i = 0; i < reg->njobs; i++)
			if (reg->jobs[i].jobid == j->jobid &&
			    reg->jobs[i].idx == j->idx &&
			    reg->jobs[i].run_count == j->run_count)
				known = true;
		if (known)
			continue;
		if (j->executed) {
			log_warnx("job %lld: %s has no trace of it; it is "
			    "lost", (long long)j->jobid, h->name);
			job_lost(j, h);
		} else {
			/* It never reached the host: run it again. */
			log_info("job %lld never reached %s; pending again",
			    (long long)j->jobid, h->name);
			job_status_change(j, JOB_STAT_PEND, 0);
		}
	}
}

static void
do_register(struct conn *c, struct sbd_register *reg)
{
	struct wbuf w;
	struct mhost *h = reg->host ? host_find(reg->host) : NULL;
	struct sbd_register_reply rr;

	if (h == NULL) {
		log_warnx("%s: registration for unknown host %s", c->name,
		    reg->host ? reg->host : "(none)");
		client_reply_error(c, 0, LSBE_BAD_HOST, reg->host,
		    "not a server host of this cluster", false);
		conn_close_after_write(c);
		return;
	}
	if (strcasecmp(h->name, c->auth_host) != 0 ||
	    !net_same_ip((struct sockaddr *)&h->addr.ss,
	    (struct sockaddr *)&c->peer)) {
		log_warnx("%s: claims to be %s; refused", c->name, h->name);
		client_reply_error(c, 0, LSBE_PERMISSION, h->name,
		    "address does not match the host", false);
		conn_close_after_write(c);
		return;
	}
	if (h->sbd && h->sbd != c) {
		log_info("host %s: replacing its previous sbatchd connection",
		    h->name);
		outbox_drop_conn(h->sbd);
		h->sbd->data = NULL;
		conn_close(h->sbd);
	}
	h->sbd = c;
	c->data = h;
	free(c->name);
	c->name = xasprintf("sbatchd %s", h->name);
	memset(&rr, 0, sizeof(rr));
	rr.cluster = mbd->cluster;
	rr.job_terminate_interval = mbd->conf.params.job_terminate_interval;
	rr.sbd_sleep_time = mbd->conf.params.sbd_sleep_time;
	wbuf_init(&w);
	sbd_register_reply_frame(&w, MSG_SBD_REGISTER_REPLY, 0, &rr);
	sbd_send(h, &w, true);
	for (uint32_t i = 0; i < reg->njobs; i++)
		apply_status(h, &reg->jobs[i]);
	reconcile_missing(h, reg);
	for (struct job *j = mbd->jobs_head; j; j = j->next) {
		if (j->nexec == 0 || j->exec[0] != h ||
		    !JOB_STAT_STARTED(j->status))
			continue;
		job_susp_send(j);
		if (j->limits_pending)
			job_limits_send(j);
		if (j->sig_pending)
			signal_send(j, j->pending_sig, j->pending_reason);
	}
	host_refresh(h);
	log_info("host %s: sbatchd registered with %u jobs", h->name,
	    reg->njobs);
	mbd_sched_dirty();
}

static void
sbd_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r, void *arg)
{
	struct sbd_register reg;
	struct job_status st;
	struct peek_reply pr;

	if (c->auth_role == AUTH_CMD) {
		client_msg(c, h, r, arg);
		return;
	}
	switch (h->type) {
	case MSG_SBD_REGISTER:
		if (!sbd_register_unpack(r, &reg) || rbuf_end(r) < 0) {
			sbd_register_release(&reg);
			break;
		}
		do_register(c, &reg);
		sbd_register_release(&reg);
		return;
	case MSG_SBD_JOB_STATUS:
		if (c->data == NULL) {
			log_warnx("%s: job status before registering", c->name);
			conn_close(c);
			return;
		}
		if (!job_status_unpack(r, &st) || rbuf_end(r) < 0) {
			job_status_release(&st);
			break;
		}
		apply_status(c->data, &st);
		job_status_release(&st);
		return;
	case MSG_SBD_CHKPNT_DONE: {
		struct job_ack a;

		if (!job_ack_unpack(r, &a) || rbuf_end(r) < 0 ||
		    c->data == NULL) {
			job_ack_release(&a);
			break;
		}
		job_chkpnt_done(c->data, &a);
		job_ack_release(&a);
		return;
	}
	case MSG_SBD_PEEK_REPLY:
		if (!peek_reply_unpack(r, &pr) || rbuf_end(r) < 0 ||
		    c->data == NULL) {
			peek_reply_release(&pr);
			break;
		}
		peek_answer(c->data, &pr);
		peek_reply_release(&pr);
		return;
	default:
		log_warnx("%s: unexpected %s", c->name, msg_type_name(h->type));
		return;
	}
	log_warnx("%s: malformed %s; closing", c->name, msg_type_name(h->type));
	{
		struct mhost *mh = c->data;

		if (mh) {
			mh->sbd = NULL;
			host_refresh(mh);
		}
		outbox_drop_conn(c);
		conn_close(c);
	}
}

static void
sbd_closed(struct conn *c, void *arg)
{
	struct mhost *h = c->data;

	if (c->auth_role == AUTH_CMD) {
		client_closed(c, arg);
		return;
	}
	outbox_drop_conn(c);
	if (h == NULL)
		return;
	log_info("host %s: sbatchd connection closed", h->name);
	h->sbd = NULL;
	host_refresh(h);
	mbd_sched_dirty();
}

/*
 * Sbatchds and commands from other hosts, each proven by its credential,
 * are served on this port; a command then goes to mbd-client.c.
 */
static int
sbd_check(struct conn *c, const struct auth_claim *cl, uid_t uid, char **why)
{
	if (cl->from_role == AUTH_SBD)
		return 0;
	if (cl->from_role == AUTH_CMD) {
		free(c->name);
		c->name = xasprintf("command uid %d from %s", (int)uid,
		    cl->from_host);
		return 0;
	}
	*why = xasprintf("a %s may not connect to the sbatchd port",
	    auth_role_name(cl->from_role));
	return -1;
}

/* The address a registering sbatchd must come from (the hosts file or
 * the resolver). */
void
host_resolve(struct mhost *h)
{
	if (net_resolve(h->name, 0, &h->addr) < 0)
		log_warnx("host %s does not resolve", h->name);
}

struct conn *
sbd_accept(int fd, struct sockaddr *sa, socklen_t len, void *arg)
{
	struct conn *c = conn_new(mbd->base, fd, sbd_msg, sbd_closed, NULL);

	net_peer_deadline(fd, NET_PEER_DEADLINE_MS);
	memcpy(&c->peer, sa, len);
	c->peerlen = len;
	c->name = xasprintf("sbatchd at %s", net_addr_str(sa, len));
	conn_auth_server(c, AUTH_MBD, mbd->host, false, sbd_check);
	return c;
}
