/*
 * Lost execution hosts.  A host whose sbatchd connection is gone and
 * whose LIM is down too (bhosts: unavail) is in doubt: its started jobs
 * show UNKWN.  Every MBD_SLEEP_TIME it is probed (has its sbatchd come
 * back, does its LIM report again?); after MAX_SBD_FAIL failed probes,
 * counted only once it has had the time a healthy host needs to find
 * this master (hostfail.h: after a failover the hosts' LIMs take a
 * while to find the new one, and a healthy host must keep its jobs
 * meanwhile), it is lost: its rerunnable jobs go back to the head of
 * their queue, to run again elsewhere with LSB_RESTART=Y, the others end
 * EXIT with TERM_ZOMBIE, and the owners are told by mail (job_lost).  A
 * host whose sbatchd registers without a job it ran, or says the job's
 * supervisor is gone (the host went down with it), settles the job the
 * same way.
 * A host whose LIM still reports is not in doubt: only its sbatchd is
 * away, and its jobs run on (an sbatchd restart keeps them).  While
 * mbatchd has no load feed from the master LIM, no probe counts.  If the
 * host comes back with a lost job still running, its sbatchd is told to
 * kill it (mbd-sbd.c).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "mbd.h"

bool
host_in_doubt(const struct mhost *h)
{
	return h->hf.doubt && h->sbd == NULL && !h->lim_up;
}

/* A started job on a host in doubt: UNKWN for bjobs. */
bool
job_in_doubt(const struct job *j)
{
	if (!JOB_STAT_STARTED(j->status))
		return false;
	for (int i = 0; i < j->nexec; i++)
		if (host_in_doubt(j->exec[i]))
			return true;
	return false;
}

static bool
runs_on(const struct job *j, const struct mhost *h)
{
	if (!JOB_STAT_STARTED(j->status) || JOB_STAT_FINISHED(j->status))
		return false;
	for (int i = 0; i < j->nexec; i++)
		if (j->exec[i] == h)
			return true;
	return false;
}

/*
 * The mail program runs in a grandchild, so that mbatchd neither waits
 * for it nor leaves a zombie: the child exits at once, init reaps the
 * rest.
 */
static void
lost_mail(const struct job *j, const struct mhost *h, bool requeued)
{
	const struct lsf_conf *lc = &mbd->conf.lsf;
	const char *prog = lc->mailprog ? lc->mailprog : "/usr/lib/sendmail";
	const char *to = j->x && j->x->mail_user && *j->x->mail_user ?
	    j->x->mail_user : j->user;
	struct strbuf sb = STRBUF_INIT;
	int p[2], fd;
	pid_t pid;

	sb_addf(&sb, "From: LSF System <root@%s>\nTo: %s\n", mbd->host, to);
	sb_addf(&sb, "Subject: Job %lld", (long long)j->jobid);
	if (j->idx > 0)
		sb_addf(&sb, "[%d]", j->idx);
	sb_addf(&sb, ": <%s> in cluster <%s> %s\n\n",
	    j->job_name ? j->job_name : "", mbd->cluster,
	    requeued ? "Requeued" : "Exited");
	sb_addf(&sb, "Job <%lld> was running on host <%s>, which became "
	    "unavailable.\n", (long long)j->jobid, h->name);
	if (requeued)
		sb_adds(&sb, "The job is rerunnable: it was requeued and will "
		    "run again from the beginning.\n");
	else
		sb_adds(&sb, "The job is not rerunnable: it is reported as "
		    "exited (TERM_ZOMBIE).\n");
	pid = fork();
	if (pid < 0) {
		log_warn("job %lld: fork for the mail", (long long)j->jobid);
		sb_release(&sb);
		return;
	}
	if (pid == 0) {
		if (fork() != 0)
			_exit(0);
		if (pipe(p) < 0)
			_exit(1);
		pid = fork();
		if (pid == 0) {
			char *argv[] = { (char *)prog, "-oi", "-F",
			    "LSF System", (char *)to, NULL };

			dup2(p[0], 0);
			fd = open("/dev/null", O_WRONLY);
			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
			close_fds_from(3, -1);
			signal(SIGPIPE, SIG_DFL);
			execv(prog, argv);
			_exit(127);
		}
		close(p[0]);
		(void)write_all(p[1], sb.buf, sb.len);
		close(p[1]);
		_exit(0);
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	sb_release(&sb);
}

/*
 * A started job that is gone from host h with no word of its end: it
 * goes back to its queue if rerunnable, else it ends EXIT with
 * TERM_ZOMBIE; either way its owner is told.  The same whether the host
 * stayed away (host_lost) or came back without it: its sbatchd has no
 * trace of it, or found it without a supervisor (a reboot, say).
 */
void
job_lost(struct job *j, struct mhost *h)
{
	struct ev_job_status ev;

	if (job_rerunnable(j)) {
		log_info("job %lld: rerunnable; requeued", (long long)j->jobid);
		job_requeue(j, false, PEND_HOST_LOST);
		lost_mail(j, h, true);
		return;
	}
	log_info("job %lld: lost with %s", (long long)j->jobid, h->name);
	job_status_fill(j, JOB_STAT_EXIT, &ev);
	ev.exit_info = TERM_ZOMBIE;
	ev.end_time = time(NULL);
	job_status_record(j, &ev);
	client_job_event(j, JE_FINISHED);
	lost_mail(j, h, false);
	mbd_sched_dirty();
}

/* MAX_SBD_FAIL probes failed: settle the fate of its jobs, once. */
static void
host_lost(struct mhost *h, const struct hostfail_params *hp, int64_t now)
{
	log_warnx("host %s: no sbatchd and no LIM for %lld s, %d probes "
	    "after the %lld s a host has to find the master; its jobs are "
	    "lost", h->name, (long long)((now - hostfail_since(hp, &h->hf)) /
	    1000), h->hf.fails, (long long)(hp->grace_ms / 1000));
	for (struct job *j = mbd->jobs_head; j; j = j->next)
		if (runs_on(j, h))
			job_lost(j, h);
	mbd_sched_dirty();
}

/* Our place in the candidates the LIMs walk (the last if not there). */
static int
master_rank(void)
{
	struct strv cand = STRV_INIT;
	size_t i;

	config_master_candidates(&mbd->conf, &cand, NULL);
	for (i = 0; i < cand.n; i++)
		if (strcasecmp(cand.v[i], mbd->host) == 0)
			break;
	strv_release(&cand);
	return (int)i;
}

/*
 * Each second (the tick): a host that answers is seen, so that its time
 * is counted from its last second; a probe each MBD_SLEEP_TIME.
 */
void
hostfail_tick(void)
{
	static int64_t last;
	const struct lsb_params *p = &mbd->conf.params;
	int64_t every = (int64_t)(p->mbd_sleep_time > 0 ?
	    p->mbd_sleep_time : 10) * 1000;
	int64_t now = (int64_t)mono_ms();
	struct hostfail_params hp;

	for (int i = 0; i < mbd->nhosts; i++) {
		struct mhost *h = mbd->hosts[i];

		if (h->sbd != NULL || h->lim_up)
			hostfail_seen(&h->hf, now);
	}
	/* Without the LIM's word a host's LIM is not known to be down. */
	if (now - last < every || !lim_feed_ok())
		return;
	last = now;
	hp.max_sbd_fail = p->max_sbd_fail > 0 ? p->max_sbd_fail : 3;
	hp.grace_ms = hostfail_grace_ms(mbd->conf.cluster.exinterval,
	    mbd->conf.cluster.host_inactivity_limit, master_rank());
	hp.start_ms = mbd->master_ms;
	hp.feed_ms = lim_feed_since();
	for (int i = 0; i < mbd->nhosts; i++) {
		struct mhost *h = mbd->hosts[i];
		bool doubt = h->hf.doubt;
		int64_t left;

		if (h->sbd != NULL || h->lim_up)
			continue;
		if (hostfail_probe(&hp, &h->hf, now) == HOSTFAIL_LOST) {
			host_lost(h, &hp, now);
			continue;
		}
		if (doubt || h->hf.lost)
			continue;
		left = hostfail_since(&hp, &h->hf) + hp.grace_ms +
		    hp.max_sbd_fail * every - now;
		log_info("host %s: no sbatchd and no LIM; in doubt, lost if "
		    "still silent in about %lld s", h->name,
		    (long long)(left > 0 ? left / 1000 : 0));
	}
}
