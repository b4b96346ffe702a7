/*
 * brun: an administrator starts a pending job now, on the hosts given,
 * whatever the limits and the load say.  With -f the job is also never
 * suspended for load or a run window.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "cmd-jobctl.h"
#include "cmdopt.h"
#include "lsf.h"

enum { O_F = 1, O_M, O_H, O_V };

static const struct cmdopt opts[] = {
	{ "f", false, O_F }, { "m", true, O_M }, { "h", false, O_H },
	{ "V", false, O_V },
	{ NULL, false, 0 }
};

static void NORETURN
usage(int code)
{
	fprintf(stderr, "Usage: brun [-h] [-V] [-f] -m \"host_name ...\" "
	    "jobId | \"jobId[index]\"\n");
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

	progname = "brun";
	memset(&rq, 0, sizeof(rq));
	rq.op = JC_FORCE;
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &v)) != 0) {
		switch (id) {
		case O_F: rq.flags |= JC_F_FORCE; break;
		case O_M: strv_split_ws(&rq.hosts, v); break;
		case O_H: usage(0);
		case O_V:
			print_version();
			exit(0);
		default:
			usage(255);
		}
	}
	rest = cmdopt_rest(&st, &nrest);
	if (nrest != 1 || rq.hosts.n == 0)
		usage(255);
	jobctl_ids(&rq, rest, 1);
	cmdopt_release(&st);
	return jobctl_send(&rq, "is being forced to run.");
}
