/*
 * bwait -w "condition": return when a dependency expression (bsub -w
 * syntax) over the caller's jobs is true.  mbatchd evaluates it; bwait
 * asks again at growing intervals (1, 2, 4, 8, then every 10 seconds),
 * so a long wait costs mbatchd one small query every 10 seconds.  It
 * gives up when the condition can never become true (a job it waits
 * to be done has exited, say) or when the -t timeout (minutes; else
 * DEFAULT_BWAIT_TIMEOUT of lsb.params, else none) has passed.  A
 * restart of mbatchd does not end the wait: mbd_connect waits for it,
 * and a connection lost in the middle of a question is asked again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd-display.h"
#include "cmdopt.h"
#include "conf.h"
#include "depend.h"

enum { O_W = 1, O_T, O_R, O_HELP, O_VERSION };

static const struct cmdopt opts[] = {
	{ "w", true, O_W },
	{ "t", true, O_T },
	{ "r", true, O_R },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	{ NULL, false, 0 }
};

#define POLL_MAX	10	/* seconds between two questions */
#define MINUTES_MAX	525600	/* a year, LSF's bound for -t and -r */
#define MAX_BROKEN	5	/* connections lost in a row before giving up */

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: bwait [-h] [-V] -w \"wait_condition\" "
	    "[-t timeout] [-r rereg_interval]\n");
	exit(rc);
}

static long
minutes(const char *opt, const char *v)
{
	long n;

	if (parse_long(v, &n) < 0 || n < 1 || n > MINUTES_MAX) {
		fprintf(stderr, "bwait: %s: the value must be an integer "
		    "between 1 and %d minutes\n", opt, MINUTES_MAX);
		exit(255);
	}
	return n;
}

/* DEFAULT_BWAIT_TIMEOUT of lsb.params, in minutes; 0 when not set. */
static long
default_timeout(void)
{
	const struct lsf_config *c = client_config(CONF_ALL);
	const struct lsb_params *p = &c->params;
	long n;

	for (size_t i = 0; i < p->keys.n && i < p->vals.n; i++)
		if (strcmp(p->keys.v[i], "DEFAULT_BWAIT_TIMEOUT") == 0 &&
		    parse_long(p->vals.v[i], &n) == 0 && n > 0)
			return n;
	return 0;
}

/*
 * The condition's value now, or -1 when the connection broke (mbatchd
 * restarting, say): then bwait asks again at its next turn.
 */
static int
ask(const char *cond)
{
	struct strv one = STRV_INIT;
	struct wait_reply wr;
	struct msg_error e;
	struct reply rp;
	struct wbuf w;
	int fd;

	strv_push(&one, cond);
	wbuf_init(&w);
	wbuf_begin(&w, MSG_WAIT_QUERY, 1, 0);
	put_strv(&w, &one);
	wbuf_end_frame(&w);
	strv_release(&one);
	fd = mbd_connect();
	if (mbd_call(fd, &w, &rp) < 0) {
		int err = errno;

		close(fd);
		wbuf_release(&w);
		errno = err;
		return -1;
	}
	close(fd);
	wbuf_release(&w);
	if (reply_is_error(&rp, &e)) {
		fprintf(stderr, "%s: %s\n", e.context ? e.context : "bwait",
		    lsb_errmsg(e.code));
		exit(255);
	}
	memset(&wr, 0, sizeof(wr));
	if (rp.hdr.type != MSG_WAIT_REPLY ||
	    !wait_reply_unpack(&rp.r, &wr) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("mbatchd");
	reply_release(&rp);
	return wr.value;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	const char *val, *cond = NULL;
	long timeout = -1;
	double start, left, pause = 1;
	int id, nrest, v, broken = 0;

	progname = "bwait";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_W: cond = val; break;
		case O_T: timeout = minutes("-t", val); break;
		case O_R: (void)minutes("-r", val); break;
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	(void)cmdopt_rest(&st, &nrest);
	if (nrest > 0 || cond == NULL || *cond == '\0')
		usage(255);
	if (timeout < 0)
		timeout = default_timeout();

	start = now();
	for (;;) {
		v = ask(cond);
		if (v < 0 && ++broken > MAX_BROKEN) {
			fprintf(stderr, "bwait: Failed in sending/receiving a "
			    "message: %s\n", strerror(errno));
			exit(255);
		} else if (v >= 0)
			broken = 0;
		switch (v) {
		case DEP_TRUE:
			cmdopt_release(&st);
			return 0;
		case DEP_NEVER:
			fprintf(stderr, "bwait: The wait condition can never "
			    "be satisfied\n");
			exit(255);
		}
		if (timeout > 0) {
			left = start + (double)timeout * 60 - now();
			if (left <= 0) {
				fprintf(stderr, "bwait: The wait condition is "
				    "not satisfied before the timeout\n");
				exit(255);
			}
			if (pause > left)
				pause = left;
		}
		{
			struct timespec ts;

			ts.tv_sec = (time_t)pause;
			ts.tv_nsec = (long)((pause - (double)ts.tv_sec) * 1e9);
			while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
				;
		}
		pause = pause * 2 > POLL_MAX ? POLL_MAX : pause * 2;
	}
}
