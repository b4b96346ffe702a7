/*
 * lsclusters: one line for our one cluster.  Workflow tools read line 2,
 * token 1 as the cluster name (the Snakemake LSF plugin), so no field is
 * ever cut, with or without -w.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd-display.h"
#include "cmdopt.h"

enum { O_W = 1, O_HELP, O_VERSION };

static const struct cmdopt opts[] = {
	{ "w", false, O_W },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	/* LSF's options this version does not do: refused by name. */
	CMDOPT_UNSUP("l", false),
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: lsclusters [-h] [-V] [-w] [cluster_name]\n");
	exit(rc);
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct lim_cluster_info ci;
	struct reply rp;
	const char *val;
	char **rest;
	int id, nrest;

	progname = "lsclusters";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_W: break;	/* nothing is cut anyway */
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	rest = cmdopt_rest(&st, &nrest);

	disp_lim_query(MSG_LIM_CLUSTER_QUERY, NULL, MSG_LIM_CLUSTER_INFO, &rp);
	if (!lim_cluster_info_unpack(&rp.r, &ci) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("the LIM");
	for (int i = 0; i < nrest; i++)
		if (!streq(rest[i], ci.cluster)) {
			fprintf(stderr, "%s: Unknown cluster name\n", rest[i]);
			exit(255);
		}
	printf("%-14s %-8s %-22s %8s %8s %8s\n", "CLUSTER_NAME", "STATUS",
	    "MASTER_HOST", "ADMIN", "HOSTS", "SERVERS");
	/* Without a master the LIMs are still electing one. */
	printf("%-14s %-8s %-22s %8s %8d %8d\n", ci.cluster ? ci.cluster : "-",
	    ci.master ? "ok" : "unavail", ci.master ? ci.master : "-",
	    ci.admins.n > 0 ? ci.admins.v[0] : "-", ci.nhosts, ci.nservers);
	lim_cluster_info_release(&ci);
	reply_release(&rp);
	cmdopt_release(&st);
	return 0;
}
