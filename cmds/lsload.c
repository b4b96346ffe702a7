/*
 * lsload: the load indices the master LIM holds for each host, least
 * loaded first (LSF's default order, r15s then pg).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd-display.h"
#include "cmdopt.h"
#include "loadsample.h"

enum { O_W = 1, O_L, O_HELP, O_VERSION };

static const struct cmdopt opts[] = {
	{ "w", false, O_W },
	{ "l", false, O_L },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	/* LSF's options this version does not do: refused by name. */
	CMDOPT_UNSUP("a", false), CMDOPT_UNSUP("cname", false),
	CMDOPT_UNSUP("E", false), CMDOPT_UNSUP("gpu", false),
	CMDOPT_UNSUP("gpuload", false), CMDOPT_UNSUP("I", true),
	CMDOPT_UNSUP("json", false), CMDOPT_UNSUP("loc", false),
	CMDOPT_UNSUP("N", false), CMDOPT_UNSUP("n", true),
	CMDOPT_UNSUP("o", true), CMDOPT_UNSUP("R", true),
	CMDOPT_UNSUP("s", false),
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: lsload [-h] [-V] [-l] [-w] [host_name ...]\n");
	exit(rc);
}

/*
 * The columns: the index, and where its value ends.  Without -l, io is
 * left out and the columns after pg move left (the reference layout);
 * with -l io comes after pg, as in LSF.
 */
struct column {
	int	 idx;
	int	 end;
};
static const struct column short_cols[] = {
	{ LI_R15S, 28 }, { LI_R1M, 34 }, { LI_R15M, 40 }, { LI_UT, 45 },
	{ LI_PG, 51 }, { LI_LS, 55 }, { LI_IT, 61 }, { LI_TMP, 67 },
	{ LI_SWP, 73 }, { LI_MEM, 79 },
};
static const struct column long_cols[] = {
	{ LI_R15S, 28 }, { LI_R1M, 34 }, { LI_R15M, 40 }, { LI_UT, 45 },
	{ LI_PG, 51 }, { LI_IO, 57 }, { LI_LS, 61 }, { LI_IT, 67 },
	{ LI_TMP, 73 }, { LI_SWP, 79 }, { LI_MEM, 85 },
};

static const char *
status_word(int st, char *buf, size_t len)
{
	const char *w;

	if (st & LIM_UNAVAIL)
		return "unavail";
	if (st & LIM_LOCKU)
		w = "lockU";
	else if (st & LIM_LOCKW)
		w = "lockW";
	else if (st & LIM_BUSY)
		w = "busy";
	else
		w = "ok";
	/* "-ok": the LIM is up but the RES is not. */
	snprintf(buf, len, "%s%s", (st & LIM_RESDOWN) ? "-" : "", w);
	return buf;
}

/* Least loaded first; hosts without load last, each group as the LIM
 * listed it. */
static int
cmp_load(const void *a, const void *b)
{
	const struct lim_host *x = a, *y = b;
	bool xu = (x->status & LIM_UNAVAIL) != 0;
	bool yu = (y->status & LIM_UNAVAIL) != 0;

	if (xu != yu)
		return xu ? 1 : -1;
	if (!xu) {
		if (x->load[LI_R15S] != y->load[LI_R15S])
			return x->load[LI_R15S] < y->load[LI_R15S] ? -1 : 1;
		if (x->load[LI_PG] != y->load[LI_PG])
			return x->load[LI_PG] < y->load[LI_PG] ? -1 : 1;
	}
	return 0;
}

static void
sort_hosts(struct lim_host *hs, uint32_t n)
{
	/* Insertion sort: stable, and clusters are small. */
	for (uint32_t i = 1; i < n; i++) {
		struct lim_host t = hs[i];
		uint32_t j = i;

		while (j > 0 && cmp_load(&hs[j - 1], &t) > 0) {
			hs[j] = hs[j - 1];
			j--;
		}
		hs[j] = t;
	}
}

static void
table(const struct lim_host *hs, uint32_t n, bool wide, bool longform)
{
	const struct column *cols = longform ? long_cols : short_cols;
	size_t ncols = longform ? ARRAY_SIZE(long_cols) :
	    ARRAY_SIZE(short_cols);
	struct strbuf sb = STRBUF_INIT;
	char buf[64];
	int shift = 0;

	for (uint32_t i = 0; wide && i < n; i++)
		if ((int)strlen(hs[i].name) - 15 > shift)
			shift = (int)strlen(hs[i].name) - 15;
	col_left(&sb, 1, "HOST_NAME");
	col_right(&sb, 22 + shift, "status");
	for (size_t k = 0; k < ncols; k++)
		col_right(&sb, cols[k].end + shift,
		    load_index_info[cols[k].idx].name);
	col_flush(&sb, stdout);
	for (uint32_t i = 0; i < n; i++) {
		const struct lim_host *h = &hs[i];

		snprintf(buf, sizeof(buf), "%.15s", h->name);
		col_left(&sb, 1, wide ? h->name : buf);
		col_right(&sb, 22 + shift, status_word(h->status, buf,
		    sizeof(buf)));
		/* An unavailable host has no load to show. */
		for (size_t k = 0; !(h->status & LIM_UNAVAIL) && k < ncols;
		    k++) {
			fmt_load_value(cols[k].idx, h->load[cols[k].idx], buf,
			    sizeof(buf));
			col_right(&sb, cols[k].end + shift, buf);
		}
		col_flush(&sb, stdout);
	}
	sb_release(&sb);
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct strv names = STRV_INIT;
	struct lim_load_list ll;
	const char *val;
	bool wide = false, longform = false;
	char **rest;
	int id, nrest;

	progname = "lsload";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_W: wide = true; break;
		case O_L: longform = true; break;
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	rest = cmdopt_rest(&st, &nrest);
	for (int i = 0; i < nrest; i++)
		strv_push(&names, rest[i]);

	disp_load_list(&names, &ll);
	sort_hosts(ll.hosts, ll.nhosts);
	table(ll.hosts, ll.nhosts, wide, longform);
	lim_load_list_release(&ll);
	strv_release(&names);
	free(st.operands);
	return 0;
}
