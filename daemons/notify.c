/*
 * sd_notify for the daemons (include/notify.h).  Here and not in
 * src/: the commands are linked statically (and with musl) and must
 * not pull in libsystemd.
 *
 * NOTIFY_SOCKET is taken out of the environment at start-up and kept
 * here: what a daemon forks and executes (mbatchd, the job supervisors,
 * the jobs) must not be able to speak for the service, and a job that
 * inherited the variable could.  It is put back only for the length of
 * each message, and before the daemon executes itself again (limrestart,
 * hrestart), so that the new image can say READY=1 in turn.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>
#include <systemd/sd-daemon.h>

#include "log.h"
#include "notify.h"
#include "util.h"

static char *notify_socket;

void
notify_init(void)
{
	const char *s = getenv("NOTIFY_SOCKET");

	if (s == NULL || *s == '\0')
		return;
	notify_socket = xstrdup(s);
	(void)unsetenv("NOTIFY_SOCKET");
}

void
notify_send(const char *state)
{
	int rc;

	if (notify_socket == NULL)
		return;
	if (setenv("NOTIFY_SOCKET", notify_socket, 1) < 0)
		return;
	/* 1: sd_notify takes the variable out again. */
	rc = sd_notify(1, state);
	if (rc < 0)
		log_warnx("sd_notify %s: %s", state, strerror(-rc));
	else
		log_debug("told systemd %s", state);
}

void
notify_reloading(void)
{
	struct timespec ts;
	char buf[64];

	if (notify_socket == NULL)
		return;
	/* systemd (253 and later) matches the reload by this time. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(buf, sizeof(buf), "RELOADING=1\nMONOTONIC_USEC=%llu",
	    (unsigned long long)ts.tv_sec * 1000000ULL +
	    (unsigned long long)ts.tv_nsec / 1000ULL);
	notify_send(buf);
}

void
notify_before_exec(void)
{
	if (notify_socket != NULL)
		(void)setenv("NOTIFY_SOCKET", notify_socket, 1);
}

static void
ready_cb(evutil_socket_t fd, short ev, void *arg)
{
	notify_send("READY=1");
}

/*
 * From inside the loop's first turn rather than before it: by then the
 * listening sockets are being served, so whoever waits for READY=1 (a
 * unit ordered After= this one) finds the daemon answering.
 */
void
notify_ready_on(struct event_base *base)
{
	struct timeval now = { 0, 0 };

	if (notify_socket == NULL)
		return;
	if (event_base_once(base, -1, EV_TIMEOUT, ready_cb, NULL, &now) < 0)
		log_warnx("cannot schedule the READY notification");
}
