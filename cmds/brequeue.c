/*
 * brequeue: kill and requeue jobs, or requeue finished ones: same job ID,
 * same submit time, back to PEND (-H: PSUSP) at the head of the queue.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "cmd-jobctl.h"
#include "cmdopt.h"
#include "lsf.h"

enum { O_J = 1, O_M, O_Q, O_U, O_H, O_V, O_DD, O_EE, O_RR, O_AA, O_HH };

static const struct cmdopt opts[] = {
	{ "J", true, O_J }, { "m", true, O_M }, { "q", true, O_Q },
	{ "u", true, O_U }, { "h", false, O_H }, { "V", false, O_V },
	{ "d", false, O_DD }, { "e", false, O_EE }, { "r", false, O_RR },
	{ "a", false, O_AA }, { "H", false, O_HH },
	{ NULL, false, 0 }
};

static void NORETURN
usage(int code)
{
	fprintf(stderr, "Usage: brequeue [-h] [-V] [-d] [-e] [-r] [-a] [-H] [-J job_name] [-u user | all] [jobId | \"jobId[index]\" | 0 ...]\n");
	exit(code);
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct ctrl_req rq;
	const char *v;
	char **rest;
	int id, nrest;

	progname = "brequeue";
	memset(&rq, 0, sizeof(rq));
	rq.op = JC_REQUEUE;
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &v)) != 0) {
		switch (id) {
		case O_J: rq.job_name = xstrdup(v); break;
		case O_M: rq.host = xstrdup(v); break;
		case O_Q: rq.src_queue = xstrdup(v); break;
		case O_U: rq.user = xstrdup(v); break;
		case O_DD: rq.flags |= JC_F_DONE; break;
		case O_EE: rq.flags |= JC_F_EXIT; break;
		case O_RR: rq.flags |= JC_F_RUN; break;
		case O_AA: rq.flags |= JC_F_ALL; break;
		case O_HH: rq.flags |= JC_F_HOLD; break;
		case O_H: usage(0);
		case O_V:
			print_version();
			exit(0);
		default:
			if (id < 0)
				fprintf(stderr, "brequeue: bad option %s\n",
				    st.bad ? st.bad : "");
			usage(255);
		}
	}
	rest = cmdopt_rest(&st, &nrest);
	if (nrest == 0 && !rq.job_name && !rq.host && !rq.src_queue &&
	    !rq.user)
		usage(255);
	jobctl_ids(&rq, rest, nrest);
	cmdopt_release(&st);
	return jobctl_send(&rq, "is being requeued");
}
