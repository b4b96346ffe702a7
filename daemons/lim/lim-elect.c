/*
 * Master election.  The master is the first master candidate
 * (LSF_MASTER_LIST, else the server hosts of lsf.cluster in order) whose
 * LIM answers.  Every LIM runs the same walk down the list: it probes the
 * candidates before it; the first that answers is followed, and if none
 * does and the LIM is a candidate itself, it is the master.  The walk is
 * repeated every EXINTERVAL, so a preferred master that comes back takes
 * over again, and at once when the connection to the master breaks.
 *
 * Probes are blocking connects with a short timeout: on a LAN a dead host
 * costs at most that timeout per election.
 *
 * The master is the master for batch too: its sbatchd runs mbatchd.  A
 * master LIM whose own sbatchd has gone (its connection closed and no
 * new one within SBD_GRACE_MS) resigns, if another candidate's LIM
 * answers: it refuses probes, so every LIM's walk passes it by and the
 * next candidate, whose sbatchd starts mbatchd, becomes master.  Its
 * sbatchd back (restarted by hand, by systemd or by lsf_daemons), it
 * stands again and, being earlier in the list, takes over again.  The
 * LIM does not start sbatchd itself: under systemd that is the unit's
 * job, and a LIM-forked sbatchd would race badmin hrestart and a
 * deliberate stop; resigning also covers an sbatchd that cannot start.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lim-elect.h"
#include "lim.h"
#include "log.h"

/* The probes' bounds are in lim-elect.h: mbatchd's rule for a lost host
 * gives a host the time they add up to. */
/* Long enough for badmin hrestart (sbatchd executes itself again and
 * subscribes anew: tens of ms), short against a cluster without
 * mbatchd: issue 23 asks for batch service back within 2 s. */
#define SBD_GRACE_MS		1000
/* After resigning, elect once our followers have re-elected. */
#define REELECT_MS		100

static void up_msg(struct conn *, const struct wire_hdr *, struct rbuf *,
    void *);
static void up_closed(struct conn *, void *);

void
elect_init(void)
{
	struct strv *cand = &lim->candidates, ignored = STRV_INIT;

	config_master_candidates(&lim->conf, cand, &ignored);
	for (size_t i = 0; i < ignored.n; i++)
		log_warnx("LSF_MASTER_LIST host %s is not a server host of "
		    "the cluster; ignored", ignored.v[i]);
	strv_release(&ignored);
	lim->self_rank = -1;
	for (size_t i = 0; i < cand->n; i++)
		if (strcasecmp(cand->v[i], lim->host) == 0)
			lim->self_rank = (int)i;
}

/* Tell the daemons watching us (sbatchd, mbatchd) who the master is. */
void
elect_master_changed(const char *master)
{
	if (streq(master, lim->master))
		return;
	log_info("master is now %s", master ? master : "unknown");
	free(lim->master);
	lim->master = master ? xstrdup(master) : NULL;
	for (int i = 0; i < lim->nwatchers; i++)
		serve_send_cluster_info(lim->watchers[i], 0);
}

static void
become_master(void)
{
	if (lim->up) {
		conn_close(lim->up);
		lim->up = NULL;
	}
	if (!lim->is_master) {
		lim->is_master = true;
		master_init();
		master_report(&lim->me, NULL);
		elim_master_changed();
	}
	elect_master_changed(lim->host);
}

/* Connect to a candidate and ask it; the connected fd on success. */
static int
probe(const char *host, char **master_out)
{
	struct host_addr to, from = lim->addr;
	struct wbuf w;
	struct wire_hdr h;
	uint8_t *body = NULL;
	struct lim_probe_reply rep;
	struct rbuf r;
	char *cause = NULL;
	int fd;

	*master_out = NULL;
	if (net_resolve(host, lim->conf.lsf.lim_port, &to) < 0)
		return -1;
	fd = net_connect_tcp(&to, &from, LIM_PROBE_TIMEOUT_MS);
	if (fd < 0)
		return -1;
	if (auth_client_fd(fd, AUTH_LIM, lim->host, AUTH_LIM, host,
	    LIM_PROBE_ANSWER_MS, &cause) < 0) {
		log_warnx("LIM on %s: not following it: %s", host, cause);
		free(cause);
		close(fd);
		return -1;
	}
	wbuf_init(&w);
	wbuf_begin(&w, MSG_LIM_PROBE, 0, 0);
	put_str(&w, lim->host);
	wbuf_end_frame(&w);
	if (wire_send(fd, &w) < 0 ||
	    wire_recv(fd, &h, &body, LIM_PROBE_ANSWER_MS) < 0 ||
	    h.type != MSG_LIM_PROBE_REPLY) {
		wbuf_release(&w);
		free(body);
		close(fd);
		return -1;
	}
	wbuf_release(&w);
	rbuf_init(&r, body, h.len - WIRE_HDR_LEN);
	if (!lim_probe_reply_unpack(&r, &rep) || rbuf_end(&r) < 0) {
		lim_probe_reply_release(&rep);
		free(body);
		close(fd);
		return -1;
	}
	*master_out = rep.master ? xstrdup(rep.master) : NULL;
	lim_probe_reply_release(&rep);
	free(body);
	return fd;
}

static void
follow(const char *host, int fd)
{
	if (lim->up)
		conn_close(lim->up);
	if (lim->is_master) {
		log_info("master candidate %s is up; giving up mastership",
		    host);
		lim->is_master = false;
		elim_master_changed();
	}
	/* A master cut off by the network must not be followed for ever. */
	net_peer_deadline(fd, NET_PEER_DEADLINE_MS);
	lim->up = conn_new(lim->base, fd, up_msg, up_closed, NULL);
	lim->up->name = xasprintf("master LIM %s", host);
	elect_master_changed(host);
	elect_send_report();
}

void
elect_run(void)
{
	for (size_t i = 0; i < lim->candidates.n; i++) {
		const char *c = lim->candidates.v[i];
		char *their_master = NULL;
		int fd;

		if ((int)i == lim->self_rank) {
			if (lim->resigned)
				continue;
			become_master();
			return;
		}
		/* Still connected to this one: nothing earlier answered. */
		if (lim->up && streq(lim->master, c))
			return;
		fd = probe(c, &their_master);
		free(their_master);
		if (fd >= 0) {
			follow(c, fd);
			return;
		}
	}
	/* Resigned, but nobody else stands: better a master without
	 * batch service than none. */
	if (lim->resigned) {
		log_warnx("no other master candidate answers; master again");
		lim->resigned = false;
		become_master();
		if (lim->nsbd == 0)
			elect_sbd_down();
		return;
	}
	/* Not a candidate, and no candidate answers. */
	if (lim->up) {
		conn_close(lim->up);
		lim->up = NULL;
	}
	if (lim->is_master) {
		lim->is_master = false;
		elim_master_changed();
	}
	elect_master_changed(NULL);
}

void
elect_send_report(void)
{
	struct wbuf w;

	if (lim->up == NULL)
		return;
	wbuf_init(&w);
	lim_host_frame(&w, MSG_LIM_REPORT, 0, &lim->me);
	conn_send(lim->up, &w);
	wbuf_release(&w);
}

static void
up_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r, void *arg)
{
	char *m = NULL;

	switch (h->type) {
	case MSG_REDIRECT:
		/* It is no longer master: elect again. */
		(void)get_str(r, &m);
		log_info("%s: no longer master (says %s)", c->name,
		    m ? m : "unknown");
		free(m);
		conn_close(c);
		lim->up = NULL;
		elect_run();
		break;
	default:
		break;
	}
}

static void
up_closed(struct conn *c, void *arg)
{
	log_info("lost the connection to the master LIM");
	lim->up = NULL;
	elect_master_changed(NULL);
	elect_run();
}

static void
reelect_cb(evutil_socket_t fd, short ev, void *arg)
{
	elect_run();
}

/* Does a candidate other than us answer?  Then it can take over. */
static bool
other_candidate_up(void)
{
	for (size_t i = 0; i < lim->candidates.n; i++) {
		char *m = NULL;
		int fd;

		if ((int)i == lim->self_rank)
			continue;
		fd = probe(lim->candidates.v[i], &m);
		free(m);
		if (fd >= 0) {
			close(fd);
			return true;
		}
	}
	return false;
}

static void
resign(void)
{
	struct timeval tv = { 0, REELECT_MS * 1000 };

	log_warnx("our sbatchd is gone: giving up mastership to the next "
	    "master candidate");
	lim->resigned = true;
	lim->is_master = false;
	elim_master_changed();
	/*
	 * Close the reports' connections: each LIM elects again at once,
	 * and passes us by.  We elect a little later, not now: a blocking
	 * probe of a LIM that is probing us would cost both a timeout.
	 */
	for (int i = 0; i < lim->nhosts; i++) {
		struct conn *c = lim->hosts[i].conn;

		if (c == NULL)
			continue;
		lim->hosts[i].conn = NULL;
		master_remove_sub(c);
		conn_close(c);
	}
	elect_master_changed(NULL);
	if (lim->ev_reelect == NULL)
		lim->ev_reelect = evtimer_new(lim->base, reelect_cb, NULL);
	evtimer_add(lim->ev_reelect, &tv);
}

static void
sbd_grace_cb(evutil_socket_t fd, short ev, void *arg)
{
	struct timeval tv;

	if (lim->nsbd > 0 || !lim->is_master)
		return;
	if (other_candidate_up()) {
		resign();
		return;
	}
	/* Nobody to hand over to: look again an exchange later. */
	tv.tv_sec = (time_t)lim->exinterval;
	tv.tv_usec = 0;
	evtimer_add(lim->ev_sbd, &tv);
}

void
elect_sbd_up(void)
{
	lim->nsbd++;
	lim->sbd_seen = true;
	if (lim->ev_sbd)
		evtimer_del(lim->ev_sbd);
	if (lim->resigned) {
		log_info("our sbatchd is back: standing for master again");
		lim->resigned = false;
		elect_run();
	}
}

/*
 * Only a master whose sbatchd once subscribed: at boot lim starts
 * first, and a cluster of LIMs alone (no sbatchd) keeps its master.
 */
void
elect_sbd_down(void)
{
	struct timeval tv = { SBD_GRACE_MS / 1000,
	    (SBD_GRACE_MS % 1000) * 1000 };

	if (lim->nsbd > 0)
		lim->nsbd--;
	if (lim->nsbd > 0 || !lim->sbd_seen || lim->candidates.n < 2)
		return;
	if (lim->ev_sbd == NULL)
		lim->ev_sbd = evtimer_new(lim->base, sbd_grace_cb, NULL);
	evtimer_add(lim->ev_sbd, &tv);
}
