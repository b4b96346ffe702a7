/*
 * lsid: the product and version, the cluster's name and its master host,
 * from any LIM.  Scripts grep "My cluster name is" and "My master name
 * is", so those two lines keep LSF's words exactly; line 1 starts with
 * the LSF version we are compatible with, where tools look for it.  We
 * are not IBM, so IBM's copyright lines are replaced by our own line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd-display.h"
#include "cmdopt.h"

enum { O_HELP = 1, O_VERSION };

static const struct cmdopt opts[] = {
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: lsid [-h] [-V]\n");
	exit(rc);
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct lim_cluster_info ci;
	struct reply rp;
	const char *val;
	int id, nrest;

	progname = "lsid";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	(void)cmdopt_rest(&st, &nrest);
	if (nrest > 0)
		usage(255);

	disp_lim_query(MSG_LIM_CLUSTER_QUERY, NULL, MSG_LIM_CLUSTER_INFO, &rp);
	if (!lim_cluster_info_unpack(&rp.r, &ci) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("the LIM");
	printf("%s, %s\n", ci.product ? ci.product : LSF_PRODUCT_STR,
	    PROJECT_DATE);
	printf("This is %s %s, a free implementation of the LSF "
	    "interfaces.\n", PROJECT_NAME, PROJECT_VERSION);
	printf("\nMy cluster name is %s\n", ci.cluster ? ci.cluster : "");
	if (ci.master == NULL || *ci.master == '\0') {
		/* The LIMs have not agreed on a master yet. */
		fflush(stdout);
		fprintf(stderr, "%s: Cannot locate master LIM now, try later\n",
		    progname);
		exit(255);
	}
	printf("My master name is %s\n", ci.master);
	lim_cluster_info_release(&ci);
	reply_release(&rp);
	free(st.operands);
	return 0;
}
