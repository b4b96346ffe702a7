/*
 * bpeek: the output of an unfinished job so far.
 *
 *	bpeek [-f] [-q queue | -m host | -J name] [jobID | "jobID[index]"]
 *
 * mbatchd asks the job's execution host for a piece of the output at a
 * time (its spool, or its -o file); bpeek asks again from where each
 * piece ended until it has it all.  -f shows the last lines and then
 * follows, like tail -f, until the job ends.  Without a job ID: the
 * caller's most recent started job (of the queue, host or name given).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "cmdopt.h"
#include "lsf.h"

#define CHUNK		(64 * 1024)	/* bytes asked for at a time */
#define TAIL_LINES	10		/* what -f shows first, as tail -f */
#define FOLLOW_MS	500		/* -f: how often to look again */

enum { O_F = 1, O_Q, O_M, O_J, O_H, O_V };

static const struct cmdopt opts[] = {
	{ "f", false, O_F }, { "q", true, O_Q }, { "m", true, O_M },
	{ "J", true, O_J }, { "h", false, O_H }, { "V", false, O_V },
	{ NULL, false, 0 }
};

static void NORETURN
usage_exit(int code)
{
	fprintf(stderr,
	    "Usage: bpeek [-h] [-V] [-f] [-q queue_name | -m host_name |\n"
	    "             -J job_name | jobId | \"jobId[index]\"]\n");
	exit(code);
}

/* LSF's words for why there is nothing to show; exits 255. */
static void NORETURN
refused(const struct msg_error *e)
{
	const char *jid = e->context;

	if (jid == NULL)
		fprintf(stderr, "%s\n", e->code == LSBE_NO_JOB ?
		    "No unfinished job found" : lsb_errmsg(e->code));
	else if (e->code == LSBE_NOT_STARTED)
		fprintf(stderr, "Job <%s> : Not yet started.\n", jid);
	else if (e->code == LSBE_JOB_FINISH)
		fprintf(stderr, "Job <%s> : Already finished.\n", jid);
	else
		fprintf(stderr, "Job <%s>: %s\n", jid, e->detail ? e->detail :
		    lsb_errmsg(e->code));
	exit(255);
}

/*
 * One piece: 1 with it in *rp, 0 when the job has just ended (only when
 * following), else exits with the reason.
 */
static int
ask(int fd, const struct peek_req *rq, struct peek_reply *rp, bool ended_ok)
{
	struct wbuf w;
	struct reply r;
	struct msg_error e;

	wbuf_init(&w);
	peek_req_frame(&w, MSG_JOB_PEEK, 1, rq);
	if (mbd_call(fd, &w, &r) < 0) {
		fprintf(stderr, "bpeek: lost the connection to mbatchd\n");
		exit(255);
	}
	wbuf_release(&w);
	if (reply_is_error(&r, &e)) {
		if (ended_ok && e.code == LSBE_JOB_FINISH) {
			msg_error_release(&e);
			reply_release(&r);
			return 0;
		}
		refused(&e);
	}
	if (r.hdr.type != MSG_PEEK_REPLY || !peek_reply_unpack(&r.r, rp) ||
	    rbuf_end(&r.r) < 0) {
		fprintf(stderr, "bpeek: unexpected reply from mbatchd\n");
		exit(255);
	}
	reply_release(&r);
	return 1;
}

static void
put(const char *s)
{
	fputs(s, stdout);
	fflush(stdout);
}

/* The whole output so far. */
static void
peek_all(int fd, struct peek_req *rq)
{
	struct peek_reply rp;
	bool first = true;

	rq->offset = 0;
	for (;;) {
		ask(fd, rq, &rp, false);
		if (first)
			printf("<< output from stdout >>\n");
		first = false;
		put(rp.data ? rp.data : "");
		rq->jobid = rp.jobid;
		rq->idx = rp.idx;
		if (rp.next - rp.offset < rq->max || rp.next <= rq->offset) {
			peek_reply_release(&rp);
			return;
		}
		rq->offset = rp.next;
		peek_reply_release(&rp);
	}
}

/* The last TAIL_LINES lines of s. */
static const char *
last_lines(const char *s)
{
	const char *p = s + strlen(s);
	int n = 0;

	if (p > s && p[-1] == '\n')
		p--;
	while (p > s) {
		if (p[-1] == '\n' && ++n == TAIL_LINES)
			break;
		p--;
	}
	return p;
}

/* -f: the last lines, then what comes, until the job ends. */
static void
peek_follow(int fd, struct peek_req *rq)
{
	struct peek_reply rp;
	struct timespec pause = { 0, FOLLOW_MS * 1000000L };

	rq->offset = -1;
	ask(fd, rq, &rp, false);
	printf("<< output from stdout >>\n");
	put(last_lines(rp.data ? rp.data : ""));
	rq->jobid = rp.jobid;
	rq->idx = rp.idx;
	rq->flags |= PEEK_F_FOLLOW;
	for (;;) {
		bool more = rp.next - rp.offset >= rq->max;
		bool finished = rp.finished;

		rq->offset = rp.next;
		peek_reply_release(&rp);
		if (finished && !more)
			return;
		if (!more)
			nanosleep(&pause, NULL);
		if (ask(fd, rq, &rp, true) == 0)
			return;
		put(rp.data ? rp.data : "");
	}
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct peek_req rq;
	struct job_id *ids = NULL;
	uint32_t nids = 0;
	bool follow = false;
	const char *v;
	char **args;
	int nargs, id, fd;

	progname = "bpeek";
	memset(&rq, 0, sizeof(rq));
	rq.max = CHUNK;
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &v)) != 0) {
		switch (id) {
		case O_F: follow = true; break;
		case O_Q: rq.queue = xstrdup(v); break;
		case O_M: rq.host = xstrdup(v); break;
		case O_J: rq.job_name = xstrdup(v); break;
		case O_V:
			print_version();
			exit(0);
		case O_H:
			usage_exit(0);
		default:
			if (id == -1)
				fprintf(stderr, "bpeek: bad option %s\n",
				    st.bad ? st.bad : "");
			usage_exit(255);
		}
	}
	args = cmdopt_rest(&st, &nargs);
	if (nargs > 1)
		usage_exit(255);
	if (nargs == 1) {
		if (parse_job_id(args[0], &ids, &nids) < 0 || nids != 1 ||
		    ids[0].jobid <= 0) {
			fprintf(stderr, "%s: Illegal job ID.\n", args[0]);
			exit(255);
		}
		rq.jobid = ids[0].jobid;
		rq.idx = ids[0].idx;
	}
	fd = mbd_connect();
	if (follow)
		peek_follow(fd, &rq);
	else
		peek_all(fd, &rq);
	free(ids);
	peek_req_release(&rq);
	cmdopt_release(&st);
	return 0;
}
