/*
 * Supervisors kept between jobs.  A supervisor is forked once, does its
 * set-up (session, descriptors, log, signals, signalfd), and then serves
 * jobs one after another: a job's start costs sbatchd a write down a
 * socket instead of a fork, and the supervisor's exit and the next one's
 * fork, with their page-table copies and copy-on-write faults, are saved.
 * One (SPARES_MIN) is forked ahead of the first job when sbatchd has
 * nothing else to do (the event's priority is below every other's).
 *
 * Each supervisor has a socketpair with sbatchd.  A job is one frame down
 * it: the job's directory (whose spec sbatchd has written) and its user's
 * entry from sbatchd's cache, which a supervisor forked before the user
 * was cached would otherwise look up through NSS.  When the job's end is
 * reported and its lock released, the supervisor writes one byte back and
 * waits for the next; sbatchd keeps up to SPARES_MAX idle, and closes the
 * socket of any more, which a supervisor takes as its cue to exit, as it
 * does when sbatchd dies.  An idle supervisor has no job directory, so a
 * restarted sbatchd cannot take one for a job; a busy one is its job's
 * supervisor like any other, and its job outlives sbatchd the same way.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"
#include "sbd.h"

/* Idle supervisors kept ready, forked ahead if need be, and at most. */
#define SPARES_MIN	1
#define SPARES_MAX	4
/* A job that finds none idle waits for no fork ahead: it forks one, and
 * the pool is topped up this long after it ran short, unless supervisors
 * coming back from their jobs have done it (as they do under a stream
 * of short jobs). */
#define FILL_DELAY_MS	20
/* One that died idle is replaced after this long, so one that cannot set
 * itself up does not make sbatchd fork in a loop. */
#define RETRY_MS	1000

struct spare {
	pid_t		 pid;
	int		 fd;		/* sbatchd's end */
	unsigned	 gen;		/* spares_renew() count at its fork */
	struct event	*ev;		/* while busy: its byte back */
	struct spare	*next;
};

static struct spare	*idle;		/* waiting for a job */
static struct spare	*busy;		/* supervising one */
static unsigned		 gen;
static struct event	*ev_fill;
static struct event	*ev_delay;

static void
unlink_spare(struct spare **list, struct spare *sp)
{
	for (struct spare **pp = list; *pp; pp = &(*pp)->next)
		if (*pp == sp) {
			*pp = sp->next;
			break;
		}
}

/* At most SPARES_MAX: counted, not kept. */
static int
nidle(void)
{
	int n = 0;

	for (struct spare *sp = idle; sp; sp = sp->next)
		n++;
	return n;
}

/* Forget it; its end of the socket closes, and it exits when it reads. */
static void
spare_free(struct spare *sp)
{
	if (sp->ev)
		event_free(sp->ev);
	close(sp->fd);
	free(sp);
}

static void
fill_later(int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	if (!evtimer_pending(ev_delay, NULL))
		evtimer_add(ev_delay, &tv);
}

static struct spare *
spare_fork(void)
{
	struct spare *sp;
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		log_warn("socketpair for a supervisor");
		return NULL;
	}
	pid = fork();
	if (pid < 0) {
		log_warn("fork of a supervisor");
		close(sv[0]);
		close(sv[1]);
		return NULL;
	}
	if (pid == 0)
		jobsup_spare_main(sv[1]);
	close(sv[1]);
	/* Its frames are small; one it cannot take at once is not sent. */
	(void)set_nonblock(sv[0]);
	sp = xcalloc(1, sizeof(*sp));
	sp->pid = pid;
	sp->fd = sv[0];
	sp->gen = gen;
	log_debug("supervisor %d forked", (int)pid);
	return sp;
}

static void
add_idle(struct spare *sp)
{
	sp->next = idle;
	idle = sp;
}

/* One fork per call, and again on a later idle turn if more are due. */
static void
fill_cb(evutil_socket_t fd, short ev, void *arg)
{
	struct spare *sp;

	if (sbd->stopping || nidle() >= SPARES_MIN)
		return;
	if ((sp = spare_fork()) == NULL) {
		fill_later(RETRY_MS);
		return;
	}
	add_idle(sp);
	if (nidle() < SPARES_MIN)
		event_active(ev_fill, EV_TIMEOUT, 0);
}

static void
delay_cb(evutil_socket_t fd, short ev, void *arg)
{
	event_active(ev_fill, EV_TIMEOUT, 0);
}

void
spares_init(void)
{
	ev_fill = event_new(sbd->base, -1, 0, fill_cb, NULL);
	ev_delay = evtimer_new(sbd->base, delay_cb, NULL);
	if (ev_fill == NULL || ev_delay == NULL)
		fatalx("event_new failed");
	/* Below every other event: only when sbatchd is idle. */
	event_priority_set(ev_fill, SBD_PRI_IDLE);
	event_active(ev_fill, EV_TIMEOUT, 0);
}

/* A busy supervisor's byte: it is free again, or (end of file) gone. */
static void
back_cb(evutil_socket_t fd, short ev, void *arg)
{
	struct spare *sp = arg;
	char c;
	ssize_t n = read(fd, &c, 1);

	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		(void)event_add(sp->ev, NULL);
		return;
	}
	unlink_spare(&busy, sp);
	event_free(sp->ev);
	sp->ev = NULL;
	if (n == 1)
		jobs_sup_free(sp->pid);
	if (n != 1 || sp->gen != gen || sbd->stopping ||
	    nidle() >= SPARES_MAX) {
		spare_free(sp);
		return;
	}
	add_idle(sp);
}

static int
send_job(struct spare *sp, const struct wbuf *w)
{
	if (wire_send(sp->fd, w) < 0) {
		/* Gone, or not reading: it must not take a later job. */
		log_warn("supervisor %d", (int)sp->pid);
		(void)kill(sp->pid, SIGKILL);
		spare_free(sp);
		return -1;
	}
	sp->ev = event_new(sbd->base, sp->fd, EV_READ, back_cb, sp);
	if (sp->ev == NULL || event_add(sp->ev, NULL) < 0)
		fatalx("event_new failed");
	sp->next = busy;
	busy = sp;
	return 0;
}

/*
 * Hand the job in dir to an idle supervisor, or to one forked for it;
 * its pid, or -1 when neither could take it.
 */
pid_t
spares_take(const char *dir, const struct sbd_user *u)
{
	struct spare *sp;
	struct wbuf w;
	pid_t pid = -1;

	wbuf_init(&w);
	wbuf_begin(&w, MSG_SBD_JOB_START, 0, 0);
	put_str(&w, dir);
	user_pack(&w, u);
	wbuf_end_frame(&w);
	while (pid < 0 && (sp = idle) != NULL) {
		unlink_spare(&idle, sp);
		if (send_job(sp, &w) == 0)
			pid = sp->pid;
	}
	if (pid < 0 && (sp = spare_fork()) != NULL && send_job(sp, &w) == 0)
		pid = sp->pid;
	wbuf_release(&w);
	if (nidle() < SPARES_MIN && !sbd->stopping)
		fill_later(FILL_DELAY_MS);
	return pid;
}

/*
 * A supervisor has died.  True if it was idle (no job is concerned);
 * a busy one's job is the caller's to look after.
 */
bool
spares_reap(pid_t pid)
{
	struct spare *sp;

	for (sp = idle; sp; sp = sp->next)
		if (sp->pid == pid) {
			log_warnx("idle supervisor %d died", (int)pid);
			unlink_spare(&idle, sp);
			spare_free(sp);
			fill_later(RETRY_MS);
			return true;
		}
	for (sp = busy; sp; sp = sp->next)
		if (sp->pid == pid) {
			unlink_spare(&busy, sp);
			spare_free(sp);
			break;
		}
	return false;
}

/*
 * Let the idle supervisors go, and the busy ones when their jobs end,
 * and fork new ones: after a log reopen, whose new file they must use.
 */
void
spares_renew(void)
{
	gen++;
	while (idle) {
		struct spare *sp = idle;

		unlink_spare(&idle, sp);
		spare_free(sp);
	}
	if (!sbd->stopping)
		event_active(ev_fill, EV_TIMEOUT, 0);
}
