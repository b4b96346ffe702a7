/*
 * bmig: migrate started rerunnable jobs: kill them and run them again from
 * the start, with LSB_RESTART=Y, on other hosts (-m) if given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "cmd-jobctl.h"
#include "cmdopt.h"
#include "lsf.h"

enum { O_J = 1, O_M, O_Q, O_U, O_H, O_V, O_F };

static const struct cmdopt opts[] = {
	{ "J", true, O_J }, { "m", true, O_M }, { "q", true, O_Q },
	{ "u", true, O_U }, { "h", false, O_H }, { "V", false, O_V },
	{ "f", false, O_F },
	{ NULL, false, 0 }
};

static void NORETURN
usage(int code)
{
	fprintf(stderr, "Usage: bmig [-h] [-V] [-f] [-m \"host ...\"] [-J job_name] [-u user | all] [jobId | \"jobId[index]\" | 0 ...]\n");
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

	progname = "bmig";
	memset(&rq, 0, sizeof(rq));
	rq.op = JC_MIG;
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &v)) != 0) {
		switch (id) {
		case O_J: rq.job_name = xstrdup(v); break;
		case O_M: strv_split_ws(&rq.hosts, v); break;
		case O_Q: rq.src_queue = xstrdup(v); break;
		case O_U: rq.user = xstrdup(v); break;
		case O_F: rq.flags |= JC_F_FORCE; break;
		case O_H: usage(0);
		case O_V:
			print_version();
			exit(0);
		default:
			if (id < 0)
				fprintf(stderr, "bmig: bad option %s\n",
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
	return jobctl_send(&rq, "is being migrated");
}
