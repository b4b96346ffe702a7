/*
 * bkill: signal jobs.
 *
 *	bkill [-l] [-s signal | -r] [-d] [-u user|all] [-q queue] [-m host]
 *	      [-J name] [jobID ... | 0 | "jobID[index]" ...]
 *
 * Without -s the job gets SIGINT, SIGTERM and SIGKILL,
 * JOB_TERMINATE_INTERVAL apart; a pending job simply ends.  Job 0 means
 * every job that matches the other options; with no job ID, the most
 * recent one that does.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "cmdopt.h"
#include "lsf.h"

enum { O_S = 1, O_R, O_D, O_U, O_Q, O_M, O_J, O_L, O_H, O_V, O_B };

static const struct cmdopt opts[] = {
	{ "s", true, O_S }, { "r", false, O_R }, { "d", false, O_D },
	{ "u", true, O_U }, { "q", true, O_Q }, { "m", true, O_M },
	{ "J", true, O_J }, { "l", false, O_L }, { "h", false, O_H },
	{ "V", false, O_V }, { "b", false, O_B },
	/* LSF's options this version does not do: refused by name. */
	CMDOPT_UNSUP("app", true), CMDOPT_UNSUP("C", true),
	CMDOPT_UNSUP("g", true), CMDOPT_UNSUP("sla", true),
	CMDOPT_UNSUP("stat", true),
	{ NULL, false, 0 }
};

static void NORETURN
usage_exit(int code)
{
	fprintf(stderr,
	    "Usage: bkill [-h] [-V] [-l] [-s signal_value | -r] [-d] [-b]\n"
	    "             [-q queue_name] [-m host_name] [-u user_name | all]\n"
	    "             [-J job_name] [jobId | \"jobId[index_list]\" ...]\n");
	exit(code);
}

static void
list_signals(void)
{
	const char *sep = "";

	for (int s = 1; s < 32; s++) {
		const char *n = sig_name(s);

		if (n) {
			printf("%s%s", sep, n);
			sep = " ";
		}
	}
	printf("\n");
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct sig_req rq;
	const char *v;
	char **args;
	int nargs, id, fd, rc = 0;
	struct job_result_list rl;
	struct wbuf w;
	struct reply rp;
	struct msg_error e;
	bool any_filter = false;

	progname = "bkill";
	memset(&rq, 0, sizeof(rq));
	rq.sig = SIG_KILL_SEQ;
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &v)) != 0) {
		switch (id) {
		case O_S:
			rq.sig = sig_from_name(v);
			if (rq.sig <= 0) {
				fprintf(stderr, "%s: Illegal signal value\n", v);
				exit(255);
			}
			break;
		case O_R: rq.flags |= SIG_F_FORCE; break;
		case O_D: rq.flags |= SIG_F_DONE; break;
		case O_B: break;	/* bulk: every job is sent in one request */
		case O_U: rq.user = xstrdup(v); any_filter = true; break;
		case O_Q: rq.queue = xstrdup(v); any_filter = true; break;
		case O_M: rq.host = xstrdup(v); any_filter = true; break;
		case O_J: rq.job_name = xstrdup(v); any_filter = true; break;
		case O_L:
			list_signals();
			exit(0);
		case O_V:
			print_version();
			exit(0);
		case O_H:
			usage_exit(0);
		default:
			if (id == -1)
				fprintf(stderr, "bkill: bad option %s\n",
				    st.bad ? st.bad : "");
			usage_exit(255);
		}
	}
	if ((rq.flags & SIG_F_FORCE) && rq.sig != SIG_KILL_SEQ) {
		fprintf(stderr, "bkill: -r and -s cannot be used together\n");
		usage_exit(255);
	}
	args = cmdopt_rest(&st, &nargs);
	if (nargs == 0 && !any_filter)
		usage_exit(255);
	for (int i = 0; i < nargs; i++) {
		if (strcmp(args[i], "0") == 0) {
			struct job_id all = { 0, 0 };

			rq.ids = xrealloc(rq.ids, sizeof(*rq.ids) * (rq.nids + 1));
			rq.ids[rq.nids++] = all;
			continue;
		}
		if (parse_job_id(args[i], &rq.ids, &rq.nids) < 0) {
			fprintf(stderr, "%s: Illegal job ID.\n", args[i]);
			rc = 255;
		}
	}
	if (rq.nids == 0 && nargs > 0)
		exit(255);

	wbuf_init(&w);
	sig_req_frame(&w, MSG_JOB_SIGNAL, 1, &rq);
	fd = mbd_connect();
	if (mbd_call(fd, &w, &rp) < 0) {
		fprintf(stderr, "bkill: lost the connection to mbatchd\n");
		exit(255);
	}
	if (reply_is_error(&rp, &e)) {
		if (e.context)
			fprintf(stderr, "%s: ", e.context);
		fprintf(stderr, "%s\n", lsb_errmsg(e.code));
		exit(255);
	}
	if (rp.hdr.type != MSG_SIGNAL_REPLY ||
	    !job_result_list_unpack(&rp.r, &rl) || rbuf_end(&rp.r) < 0) {
		fprintf(stderr, "bkill: unexpected reply from mbatchd\n");
		exit(255);
	}
	for (uint32_t i = 0; i < rl.n; i++) {
		const struct job_result res = rl.v[i];
		char jid[48];

		if (res.idx > 0)
			snprintf(jid, sizeof(jid), "%lld[%d]",
			    (long long)res.jobid, res.idx);
		else
			snprintf(jid, sizeof(jid), "%lld", (long long)res.jobid);
		if (res.code == LSBE_NO_ERROR) {
			printf("Job <%s> is being %s\n", jid,
			    rq.sig == SIG_KILL_SEQ ? "terminated" : "signaled");
		} else if (res.jobid == 0) {
			fprintf(stderr, "%s\n", lsb_errmsg(res.code));
			rc = 255;
		} else {
			fprintf(stderr, "Job <%s>: %s\n", jid,
			    lsb_errmsg(res.code));
			rc = 255;
		}
	}
	job_result_list_release(&rl);
	fflush(stdout);
	return rc;
}
