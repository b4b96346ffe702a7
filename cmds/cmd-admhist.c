/*
 * badmin hist, hhist, qhist and mbdhist: the administrators' actions
 * (HOST_CTRL, QUEUE_CTRL) and mbatchd's starts and stops (MBD_START,
 * MBD_DIE) in lsb.events, oldest first, one line each:
 *
 *	Tue Nov 22 10:01:02 2026: Host <hostb> closed by administrator <root>.
 *	Tue Nov 22 10:03:15 2026: mbatchd started on host <hosta> by user or
 *	administrator <root>.
 *
 * (each a single line), followed by " Comment: <text>" when the action
 * had one (-C).  Without -f, the older generations lsb.events.N are read
 * first, oldest first.  Each file starts with the records its switch
 * copied forward from the one before (up to its LOG_SWITCH record),
 * which are not history of that file: they are skipped, so each action
 * is printed once.  The files are only read, and taken as one set
 * (evlog_gens_open), so a switch while they are read shows nothing twice
 * and loses nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd-admin.h"
#include "daemon.h"
#include "evlog.h"
#include "timefmt.h"

struct hist {
	unsigned	 what;
	char		**names;
	int		 nnames;
	int		 nprinted;
	off_t		 start;		/* the current file's own history */
};

static bool
wanted(const struct hist *h, const char *name)
{
	if (h->nnames == 0)
		return true;
	for (int i = 0; i < h->nnames; i++)
		if (name && strcasecmp(h->names[i], name) == 0)
			return true;
	return false;
}

static void
line_start(struct hist *h, int64_t when)
{
	char tbuf[64];

	fmt_time_full(when, tbuf, sizeof(tbuf));
	printf("%s: ", tbuf);
	h->nprinted++;
}

static void
line_end(const char *comment)
{
	if (comment && *comment)
		printf(" Comment: %s", comment);
	putchar('\n');
}

static const char *
or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

static int
host_ctrl(struct hist *h, struct ev_reader *r)
{
	static const char *const verb[] = {
		NULL, "opened", "closed", NULL, NULL
	};
	struct ev_ctrl ev;

	if (ev_ctrl_read(r, &ev) < 0)
		return -1;
	if (wanted(h, ev.name)) {
		line_start(h, r->when);
		if (ev.op == 3 || ev.op == 4)
			printf("sbatchd on host <%s> %s by administrator <%s>.",
			    or_unknown(ev.name), ev.op == 3 ? "restarted" :
			    "shut down", or_unknown(ev.user));
		else
			printf("Host <%s> %s by administrator <%s>.",
			    or_unknown(ev.name), ev.op >= 1 && ev.op <= 2 ?
			    verb[ev.op] : "changed", or_unknown(ev.user));
		line_end(ev.comment);
	}
	ev_ctrl_release(&ev);
	return 0;
}

static int
queue_ctrl(struct hist *h, struct ev_reader *r)
{
	static const char *const verb[] = {
		NULL, "opened", "closed", "activated", "inactivated"
	};
	struct ev_ctrl ev;

	if (ev_ctrl_read(r, &ev) < 0)
		return -1;
	if (wanted(h, ev.name)) {
		line_start(h, r->when);
		printf("Queue <%s> %s by user or administrator <%s>.",
		    or_unknown(ev.name), ev.op >= 1 && ev.op <= 4 ?
		    verb[ev.op] : "changed", or_unknown(ev.user));
		line_end(ev.comment);
	}
	ev_ctrl_release(&ev);
	return 0;
}

static int
mbd_start(struct hist *h, struct ev_reader *r)
{
	struct ev_mbd_start ev;

	if (ev_mbd_start_read(r, &ev) < 0)
		return -1;
	line_start(h, r->when);
	if (ev.user && *ev.user)
		printf("mbatchd started on host <%s> by user or "
		    "administrator <%s>.", or_unknown(ev.master), ev.user);
	else
		printf("mbatchd started on host <%s>.", or_unknown(ev.master));
	line_end(NULL);
	ev_mbd_start_release(&ev);
	return 0;
}

static int
mbd_die(struct hist *h, struct ev_reader *r)
{
	struct ev_mbd_die ev;

	if (ev_mbd_die_read(r, &ev) < 0)
		return -1;
	line_start(h, r->when);
	if (ev.exit_code == MBD_EXIT_RESTART && ev.user && *ev.user)
		printf("mbatchd on host <%s> restarted by user or "
		    "administrator <%s>.", or_unknown(ev.master), ev.user);
	else
		printf("mbatchd on host <%s> stopped (exit code %d).",
		    or_unknown(ev.master), ev.exit_code);
	line_end(ev.comment);
	ev_mbd_die_release(&ev);
	return 0;
}

static int
hist_cb(void *arg, struct ev_reader *r, off_t off)
{
	struct hist *h = arg;

	if (off < h->start)
		return 0;
	if ((h->what & HIST_HOST) && strcmp(r->type, "HOST_CTRL") == 0)
		return host_ctrl(h, r);
	if ((h->what & HIST_QUEUE) && strcmp(r->type, "QUEUE_CTRL") == 0)
		return queue_ctrl(h, r);
	if ((h->what & HIST_MBD) && strcmp(r->type, "MBD_START") == 0)
		return mbd_start(h, r);
	if ((h->what & HIST_MBD) && strcmp(r->type, "MBD_DIE") == 0)
		return mbd_die(h, r);
	return 0;
}

/* One file's history; 0, or 255 after a message. */
static int
one_file(struct hist *h, int fd, const char *path)
{
	char *cause = NULL;
	off_t valid_end;

	if (evlog_history_start_fd(fd, path, &h->start, &cause) < 0 ||
	    evlog_replay_fd(fd, path, hist_cb, h, &valid_end, &cause) < 0) {
		fflush(stdout);
		fprintf(stderr, "%s: %s\n", progname, cause);
		free(cause);
		return 255;
	}
	return 0;
}

int
adm_history(const char *path, unsigned what, char **names, int nnames)
{
	struct hist h = { what, names, nnames, 0, 0 };
	struct evlog_gens gs = { NULL, 0 };
	char *own = NULL, *cause = NULL;
	int rc = 0;

	if (path == NULL) {
		const struct lsf_config *c = client_config(CONF_SHARED);

		if (c->lsf.sharedir == NULL)
			die("LSB_SHAREDIR is not set in %s", c->lsf.path ?
			    c->lsf.path : "lsf.conf");
		own = xasprintf("%s/%s/logdir/lsb.events", c->lsf.sharedir,
		    c->cluster.name);
		if (evlog_gens_open(own, &gs, &cause) < 0) {
			fprintf(stderr, "%s: %s\n", progname, cause);
			free(cause);
			free(own);
			return 255;
		}
	} else {
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			fprintf(stderr, "%s: %s: %s\n", progname, path,
			    strerror(errno));
			return 255;
		}
		gs.v = xcalloc(1, sizeof(*gs.v));
		gs.v[0].fd = fd;
		gs.v[0].path = xstrdup(path);
		gs.n = 1;
	}
	for (size_t i = 0; i < gs.n && rc == 0; i++)
		rc = one_file(&h, gs.v[i].fd, gs.v[i].path);
	evlog_gens_release(&gs);
	free(own);
	return rc;
}
