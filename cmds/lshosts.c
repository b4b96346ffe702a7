/*
 * lshosts: the static figures of each host (type, model, CPU factor,
 * CPUs, memory, swap, resources), from the master LIM.  A host that has
 * not reported shows what the configuration says and "-" elsewhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd-display.h"
#include "cmdopt.h"
#include "loadsample.h"

enum { O_W = 1, O_L, O_S, O_T, O_HELP, O_VERSION };

static const struct cmdopt opts[] = {
	{ "w", false, O_W },
	{ "l", false, O_L },
	{ "s", false, O_S },
	{ "T", false, O_T },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	/* LSF's options this version does not do: refused by name. */
	CMDOPT_UNSUP("a", false), CMDOPT_UNSUP("cname", false),
	CMDOPT_UNSUP("gpu", false), CMDOPT_UNSUP("json", false),
	CMDOPT_UNSUP("loc", false), CMDOPT_UNSUP("mig", false),
	CMDOPT_UNSUP("o", true), CMDOPT_UNSUP("R", true),
	CMDOPT_UNSUP("sl", false),
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: lshosts [-h] [-V] [-w | -l] [-T] "
	    "[host_name ...]\n"
	    "       lshosts -s [resource_name ...]\n");
	exit(rc);
}

/* "!" (detect) from a host that never reported: LSF's UNKNOWN words. */
static const char *
type_word(const char *t)
{
	return t == NULL || *t == '\0' || strcmp(t, "!") == 0 ? "UNKNOWN" : t;
}

static const char *
model_word(const char *m)
{
	return m == NULL || *m == '\0' || strcmp(m, "!") == 0 ?
	    "UNKNOWN_AUTO_DETECT" : m;
}

static void
int_text(int v, char *buf, size_t len)
{
	if (v <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%d", v);
}

static char *
resources_text(const struct lim_host *h)
{
	char *j = strv_join(&h->resources, " ");
	char *s = xasprintf("(%s)", j);

	free(j);
	return s;
}

/*
 * The reference's columns: name in 11 characters, type in 7 and model
 * in 8 (both cut, right-aligned), then right-aligned figures.  -w cuts
 * nothing and gives the three text columns the room the longest needs.
 */
static void
table(const struct lim_host *hs, uint32_t n, bool wide)
{
	int wn = 11, wt = 7, wm = 8;

	for (uint32_t i = 0; wide && i < n; i++) {
		int l;

		if ((l = (int)strlen(hs[i].name)) > wn)
			wn = l;
		if ((l = (int)strlen(type_word(hs[i].type))) > wt)
			wt = l;
		if ((l = (int)strlen(model_word(hs[i].model))) > wm)
			wm = l;
	}
	printf("%-*s %*s %*s %5s %5s %6s %6s %6s %s\n", wn, "HOST_NAME",
	    wt, "type", wm, "model", "cpuf", "ncpus", "maxmem", "maxswp",
	    "server", "RESOURCES");
	for (uint32_t i = 0; i < n; i++) {
		const struct lim_host *h = &hs[i];
		char ncpus[16], mem[16], swp[16], *res = resources_text(h);

		int_text(h->ncpus, ncpus, sizeof(ncpus));
		fmt_mem_mb(h->maxmem, mem, sizeof(mem));
		fmt_mem_mb(h->maxswp, swp, sizeof(swp));
		printf("%-*.*s %*.*s %*.*s %5.1f %5s %6s %6s %6s %s\n",
		    wn, wn, h->name, wt, wt, type_word(h->type),
		    wm, wm, model_word(h->model), (double)h->cpuf, ncpus,
		    mem, swp, h->server ? "Yes" : "No", res);
		free(res);
	}
}

/* lsf.cluster's busy thresholds of the host, in lsload's index order. */
static void
thresholds(const struct cluster_host *ch)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[32];
	int end = 0;

	printf("\nLOAD_THRESHOLDS:\n");
	for (int i = 0; i < NLOADIDX; i++)
		col_right(&sb, end += 6, load_index_info[i].name);
	col_flush(&sb, stdout);
	end = 0;
	for (int i = 0; i < NLOADIDX; i++) {
		if (ch && (ch->busy_set & (1u << i)))
			disp_threshold_value(i, ch->busy[i], buf,
			    sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "-");
		col_right(&sb, end += 6, buf);
	}
	col_flush(&sb, stdout);
	sb_release(&sb);
}

/*
 * -l: one block per host in the shape of IBM's long format (the
 * reference does not show it): the name, a row of static figures,
 * resources, run windows and the LIM's load thresholds.
 */
static void
long_host(const struct lsf_config *c, const struct lim_host *h)
{
	const struct cluster_host *ch = config_cluster_host(c, h->name);
	char cpuf[16], ncpus[16], mem[16], swp[16], tmp[16], nprocs[16];
	char ncores[16], nthreads[16], *res = resources_text(h);
	int np = 0;

	if (h->ncores > 0 && h->nthreads > 0)
		np = h->ncpus / (h->ncores * h->nthreads);
	snprintf(cpuf, sizeof(cpuf), "%.1f", (double)h->cpuf);
	int_text(h->ncpus, ncpus, sizeof(ncpus));
	int_text(np, nprocs, sizeof(nprocs));
	int_text(h->ncores, ncores, sizeof(ncores));
	int_text(h->nthreads, nthreads, sizeof(nthreads));
	fmt_mem_mb(h->maxmem, mem, sizeof(mem));
	fmt_mem_mb(h->maxswp, swp, sizeof(swp));
	fmt_mem_mb(h->maxtmp, tmp, sizeof(tmp));

	printf("\nHOST_NAME:  %s\n", h->name);
	printf("%-10s %19s %5s %5s %6s %6s %6s %6s %6s %6s %6s %6s %8s\n",
	    "type", "model", "cpuf", "ncpus", "ndisks", "maxmem", "maxswp",
	    "maxtmp", "rexpri", "server", "nprocs", "ncores", "nthreads");
	printf("%-10s %19s %5s %5s %6s %6s %6s %6s %6d %6s %6s %6s %8s\n",
	    type_word(h->type), model_word(h->model), cpuf, ncpus, "-", mem,
	    swp, tmp, ch ? ch->rexpri : 0, h->server ? "Yes" : "No", nprocs,
	    ncores, nthreads);
	printf("\nRESOURCES: %s\n", h->resources.n ? res : "Not defined");
	printf("RUN_WINDOWS:  %s\n", ch && ch->runwindow && *ch->runwindow ?
	    ch->runwindow : "(always open)");
	thresholds(ch);
	free(res);
}

/*
 * -T: LSF draws each host's NUMA nodes, sockets, cores and threads
 * under "Host[<memory>] <name>".  This version detects no topology, so
 * each host shows as LSF shows one whose topology is not known: the
 * line alone, with "-" for the memory of a host that has not reported.
 */
static void
topology(const struct lim_host *hs, uint32_t n)
{
	char mem[16];

	for (uint32_t i = 0; i < n; i++) {
		if (hs[i].status & LIM_UNAVAIL)
			snprintf(mem, sizeof(mem), "-");
		else
			fmt_mem_mb(hs[i].maxmem, mem, sizeof(mem));
		printf("Host[%s] %s\n", mem, hs[i].name);
	}
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct strv names = STRV_INIT;
	struct lim_load_list ll;
	const char *val;
	bool wide = false, longform = false, sh = false, topo = false;
	char **rest;
	int id, nrest;

	progname = "lshosts";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_W: wide = true; break;
		case O_L: longform = true; break;
		case O_S: sh = true; break;
		case O_T: topo = true; break;
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	rest = cmdopt_rest(&st, &nrest);
	if (sh) {
		if (wide || longform || topo)
			usage(255);
		id = disp_shared_show(SHARED_STATIC, rest, nrest);
		cmdopt_release(&st);
		return id;
	}
	for (int i = 0; i < nrest; i++)
		strv_push(&names, rest[i]);

	disp_load_list(&names, &ll);
	if (topo) {
		topology(ll.hosts, ll.nhosts);
	} else if (longform) {
		/* lim_call has read lsf.cluster: windows and thresholds. */
		const struct lsf_config *c = client_config(CONF_CLUSTER);

		for (uint32_t i = 0; i < ll.nhosts; i++)
			long_host(c, &ll.hosts[i]);
		printf("\n");
	} else {
		table(ll.hosts, ll.nhosts, wide);
	}
	lim_load_list_release(&ll);
	strv_release(&names);
	cmdopt_release(&st);
	return 0;
}
