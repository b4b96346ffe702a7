/*
 * lsclusters: one line for our one cluster.  Workflow tools read line 2,
 * token 1 as the cluster name (the Snakemake LSF plugin), so no field is
 * ever cut, with or without -w.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd-display.h"
#include "cmdopt.h"

enum { O_W = 1, O_L, O_HELP, O_VERSION };

static const struct cmdopt opts[] = {
	{ "w", false, O_W },
	{ "l", false, O_L },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: lsclusters [-h] [-V] [-w | -l] "
	    "[cluster_name]\n");
	exit(rc);
}

static void
print_list(const char *label, const struct strv *v)
{
	printf("%s", label);
	for (size_t i = 0; i < v->n; i++)
		printf(" %s", v->v[i]);
	printf("\n");
}

/*
 * -l: after the short table (so that line 2 still starts with the
 * cluster name), what LSF's long format adds: the administrators and
 * the resources, host types and host models the cluster defines.
 */
static void
long_part(const struct lim_cluster_info *ci)
{
	const struct lsf_config *c = client_config(CONF_CLUSTER);
	struct strv v = STRV_INIT;

	printf("\n");
	print_list("Cluster administrators:", &ci->admins);
	for (int i = 0; i < c->shared.nresources; i++)
		strv_push(&v, c->shared.resources[i].name);
	print_list("Available resources:", &v);
	print_list("Available host types:", &c->shared.host_types);
	strv_release(&v);
	for (int i = 0; i < c->shared.nmodels; i++)
		strv_push(&v, c->shared.models[i].name);
	print_list("Available host models:", &v);
	strv_release(&v);
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
	bool longform = false;

	progname = "lsclusters";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_W: break;	/* nothing is cut anyway */
		case O_L: longform = true; break;
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
	if (longform)
		long_part(&ci);
	lim_cluster_info_release(&ci);
	reply_release(&rp);
	cmdopt_release(&st);
	return 0;
}
