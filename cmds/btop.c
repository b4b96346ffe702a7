/*
 * btop: move a pending job to a position from the top of its queue,
 * among the jobs of the same user priority (a user's among his own).
 * The order is the dispatch order bjobs shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "cmd-jobctl.h"
#include "cmdopt.h"
#include "lsf.h"

enum { O_H = 1, O_V };

static const struct cmdopt opts[] = {
	{ "h", false, O_H }, { "V", false, O_V },
	{ NULL, false, 0 }
};

static void NORETURN
usage(int code)
{
	fprintf(stderr, "Usage: btop [-h] [-V] jobId | \"jobId[index]\" "
	    "[position]\n");
	exit(code);
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct ctrl_req rq;
	const char *v;
	char **rest;
	long pos = 1;
	int id, nrest;

	progname = "btop";
	memset(&rq, 0, sizeof(rq));
	rq.op = JC_TOP;
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &v)) != 0) {
		if (id == O_H)
			usage(0);
		if (id == O_V) {
			print_version();
			exit(0);
		}
		usage(255);
	}
	rest = cmdopt_rest(&st, &nrest);
	if (nrest < 1 || nrest > 2)
		usage(255);
	if (nrest == 2 && (parse_long(rest[1], &pos) < 0 || pos < 1)) {
		fprintf(stderr, "%s: Bad position\n", rest[1]);
		exit(255);
	}
	rq.position = (int)pos;
	jobctl_ids(&rq, rest, 1);
	cmdopt_release(&st);
	return jobctl_send(&rq, "has been moved to position %d from top.");
}
