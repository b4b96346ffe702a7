/*
 * The job control commands' one main (cmd-jobctl.h): the command line
 * into a ctrl_req, one MSG_JOB_CONTROL, a line for each job in the reply.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "cmd-jobctl.h"
#include "cmdopt.h"
#include "lsf.h"

/* Every option of the family but -h and -V; an entry takes some. */
static const struct cmdopt family_opts[] = {
	{ "J", true, 'J' }, { "m", true, 'm' }, { "q", true, 'q' },
	{ "u", true, 'u' }, { "f", false, 'f' }, { "d", false, 'd' },
	{ "e", false, 'e' }, { "r", false, 'r' }, { "a", false, 'a' },
	{ "H", false, 'H' }, { "k", false, 'k' }, { "p", true, 'p' },
};

static void NORETURN
usage(const struct jobctl_entry *e, int code)
{
	fprintf(stderr, "Usage: %s\n", e->usage);
	exit(code);
}

/* The entry's options, -h and -V, as a table for cmdopt_next. */
static struct cmdopt *
entry_opts(const struct jobctl_entry *e)
{
	struct cmdopt *t;
	size_t n = 0, nlsf = 0;

	while (e->lsf && e->lsf[nlsf].name)
		nlsf++;
	t = xcalloc(ARRAY_SIZE(family_opts) + nlsf + 3, sizeof(*t));
	for (size_t i = 0; i < ARRAY_SIZE(family_opts); i++)
		if (strchr(e->opts, family_opts[i].id) != NULL)
			t[n++] = family_opts[i];
	t[n++] = (struct cmdopt){ "h", false, 'h' };
	t[n++] = (struct cmdopt){ "V", false, 'V' };
	for (size_t i = 0; i < nlsf; i++)
		t[n++] = e->lsf[i];
	return t;
}

static void
parse_opts(const struct jobctl_entry *e, struct cmdopt_state *st,
    struct ctrl_req *rq)
{
	struct cmdopt *opts = entry_opts(e);
	const char *v;
	int id;

	while ((id = cmdopt_next(st, opts, &v)) != 0) {
		switch (id) {
		case 'J': rq->job_name = xstrdup(v); break;
		case 'q': rq->src_queue = xstrdup(v); break;
		case 'u': rq->user = xstrdup(v); break;
		case 'f': rq->flags |= JC_F_FORCE; break;
		case 'd': rq->flags |= JC_F_DONE; break;
		case 'e': rq->flags |= JC_F_EXIT; break;
		case 'r': rq->flags |= JC_F_RUN; break;
		case 'a': rq->flags |= JC_F_ALL; break;
		case 'H': rq->flags |= JC_F_HOLD; break;
		case 'k': rq->flags |= JC_F_KILL; break;
		case 'p': {
			char *end;
			long m;

			errno = 0;
			m = strtol(v, &end, 10);
			if (errno || *end || end == v || m < 0 ||
			    m > 1000000) {
				fprintf(stderr, "%s: %s: Bad checkpoint "
				    "period\n", e->name, v);
				usage(e, 255);
			}
			rq->position = (int)m;
			break;
		}
		case 'm':
			if (e->hosts)
				strv_split_ws(&rq->hosts, v);
			else
				rq->host = xstrdup(v);
			break;
		case 'h':
			usage(e, 0);
		case 'V':
			print_version();
			exit(0);
		default:
			if (e->name_bad_option && id != CMDOPT_UNSUPPORTED)
				fprintf(stderr, "%s: bad option %s\n", e->name,
				    st->bad ? st->bad : "");
			usage(e, 255);
		}
	}
	free(opts);
}

/* The job IDs of argv into rq ("0" = all matching); exits on a bad ID. */
static void
parse_ids(struct ctrl_req *rq, char **argv, int argc)
{
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "0") == 0) {
			rq->ids = xrealloc(rq->ids, sizeof(*rq->ids) *
			    (rq->nids + 1));
			rq->ids[rq->nids].jobid = 0;
			rq->ids[rq->nids].idx = 0;
			rq->nids++;
			continue;
		}
		if (parse_job_id(argv[i], &rq->ids, &rq->nids) < 0) {
			fprintf(stderr, "%s: Illegal job ID.\n", argv[i]);
			exit(255);
		}
	}
}

/* Do the options alone choose jobs (bstop -u all)? */
static bool
filtered(const struct ctrl_req *rq)
{
	return rq->job_name || rq->host || rq->src_queue || rq->user;
}

static void
parse_operands(const struct jobctl_entry *e, char **rest, int nrest,
    struct ctrl_req *rq)
{
	long pos = 1;

	switch (e->args) {
	case JOBCTL_QUEUE_JOBS:
		if (nrest < 1)
			usage(e, 255);
		rq->queue = xstrdup(rest[0]);
		rest++;
		nrest--;
		/* FALLTHROUGH */
	case JOBCTL_JOBS:
		if (nrest == 0 && !filtered(rq))
			usage(e, 255);
		break;
	case JOBCTL_JOB_POSITION:
		if (nrest < 1 || nrest > 2)
			usage(e, 255);
		if (nrest == 2 && (parse_long(rest[1], &pos) < 0 || pos < 1)) {
			fprintf(stderr, "%s: Bad position\n", rest[1]);
			exit(255);
		}
		rq->position = (int)pos;
		nrest = 1;
		break;
	case JOBCTL_JOB_HOSTS:
		if (nrest != 1 || rq->hosts.n == 0)
			usage(e, 255);
		break;
	}
	parse_ids(rq, rest, nrest);
}

static void
say_done(const struct jobctl_entry *e, const struct ctrl_req *rq,
    const char *jid)
{
	switch (e->says) {
	case JOBCTL_SAY_DONE:
		printf("Job <%s> %s\n", jid, e->done);
		break;
	case JOBCTL_SAY_MOVED:
		fprintf(stderr, "Job <%s> has been moved to position %d from "
		    "%s.\n", jid, rq->position < 1 ? 1 : rq->position,
		    e->done);
		break;
	case JOBCTL_SAY_SWITCHED:
		printf("Job <%s> is switched to queue <%s>\n", jid,
		    rq->queue ? rq->queue : "");
		break;
	}
}

/*
 * Send rq and print, for each job, the entry's line on success or
 * "Job <N>: <why>" on stderr.  0 when every job was acted on, else 255.
 */
static int
send_request(const struct jobctl_entry *e, const struct ctrl_req *rq)
{
	struct job_result_list rl;
	struct msg_error err;
	struct reply rp;
	struct wbuf w;
	int fd, rc = 0;

	wbuf_init(&w);
	ctrl_req_frame(&w, MSG_JOB_CONTROL, 1, rq);
	fd = mbd_connect();
	if (mbd_call(fd, &w, &rp) < 0) {
		fprintf(stderr, "%s: lost the connection to mbatchd\n",
		    progname);
		exit(255);
	}
	wbuf_release(&w);
	if (reply_is_error(&rp, &err)) {
		if (err.context)
			fprintf(stderr, "%s: %s\n", err.context,
			    lsb_errmsg(err.code));
		else
			fprintf(stderr, "%s\n", lsb_errmsg(err.code));
		if (err.detail)
			fprintf(stderr, "%s: %s\n", progname, err.detail);
		exit(255);
	}
	if (rp.hdr.type != MSG_SIGNAL_REPLY ||
	    !job_result_list_unpack(&rp.r, &rl) || rbuf_end(&rp.r) < 0) {
		fprintf(stderr, "%s: unexpected reply from mbatchd\n", progname);
		exit(255);
	}
	for (uint32_t i = 0; i < rl.n; i++) {
		const struct job_result *res = &rl.v[i];
		char jid[48];

		if (res->idx > 0)
			snprintf(jid, sizeof(jid), "%lld[%d]",
			    (long long)res->jobid, res->idx);
		else
			snprintf(jid, sizeof(jid), "%lld",
			    (long long)res->jobid);
		if (res->code == LSBE_NO_ERROR) {
			say_done(e, rq, jid);
		} else if (res->jobid == 0) {
			fprintf(stderr, "%s\n", lsb_errmsg(res->code));
			rc = 255;
		} else {
			fprintf(stderr, "Job <%s>: %s\n", jid,
			    lsb_errmsg(res->code));
			rc = 255;
		}
	}
	job_result_list_release(&rl);
	reply_release(&rp);
	close(fd);
	fflush(stdout);
	return rc;
}

int
jobctl_main(const struct jobctl_entry *e, int argc, char **argv)
{
	struct cmdopt_state st;
	struct ctrl_req rq;
	char **rest;
	int nrest, rc;

	progname = e->name;
	memset(&rq, 0, sizeof(rq));
	rq.op = e->op;
	if (rq.op == JC_CHKPNT)
		rq.position = -1;	/* -p not given */
	cmdopt_init(&st, argc, argv, true);
	parse_opts(e, &st, &rq);
	rest = cmdopt_rest(&st, &nrest);
	parse_operands(e, rest, nrest, &rq);
	cmdopt_release(&st);
	rc = send_request(e, &rq);
	ctrl_req_release(&rq);
	return rc;
}
