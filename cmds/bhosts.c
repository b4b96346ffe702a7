/*
 * bhosts: the batch hosts as mbatchd sees them, in LSF's table or, with
 * -l, with their load and thresholds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-display.h"
#include "cmdopt.h"
#include "loadsample.h"

enum { O_W = 1, O_L, O_S, O_E, O_HELP, O_VERSION };

static const struct cmdopt opts[] = {
	{ "w", false, O_W },
	{ "l", false, O_L },
	{ "s", false, O_S },
	{ "e", false, O_E },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	/* LSF's options this version does not do: refused by name. */
	CMDOPT_UNSUP("a", false), CMDOPT_UNSUP("aff", false),
	CMDOPT_UNSUP("alloc", false), CMDOPT_UNSUP("attr", false),
	CMDOPT_UNSUP("cname", false),
	CMDOPT_UNSUP("gpu", false), CMDOPT_UNSUP("json", false),
	CMDOPT_UNSUP("loc", false), CMDOPT_UNSUP("noheader", false),
	CMDOPT_UNSUP("o", true), CMDOPT_UNSUP("R", true),
	CMDOPT_UNSUP("rc", false), CMDOPT_UNSUP("rconly", false),
	CMDOPT_UNSUP("sl", false),
	CMDOPT_UNSUP("x", false), CMDOPT_UNSUP("X", false),
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: bhosts [-h] [-V] [-w | -l | -e] "
	    "[host_name ... | host_group ...]\n"
	    "       bhosts [-e] -s [resource_name ...]\n");
	exit(rc);
}

/* Why a host is closed, in the order LSF reports the first that
 * applies. */
static const struct {
	int		 bit;
	const char	*word;
} closed_why[] = {
	{ HOST_STAT_DISABLED, "closed_Adm" },
	{ HOST_STAT_FULL, "closed_Full" },
	{ HOST_STAT_BUSY, "closed_Busy" },
	{ HOST_STAT_EXCLUSIVE, "closed_Excl" },
	{ HOST_STAT_WIND, "closed_Wind" },
	{ HOST_STAT_LOCKED, "closed_Lock" },
	{ HOST_STAT_NO_LIM, "closed_LIM" },
};

static const char *
status_word(int st, bool detail)
{
	if (st & HOST_STAT_UNAVAIL)
		return "unavail";
	if (st & HOST_STAT_UNREACH)
		return "unreach";
	for (size_t i = 0; i < ARRAY_SIZE(closed_why); i++)
		if (st & closed_why[i].bit)
			return detail ? closed_why[i].word : "closed";
	return "ok";
}

static void
count_text(int v, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%d", v);
}

/*
 * Columns as in the reference: the name in 18 characters, the status
 * from column 20, then right-aligned numbers.  closed_Full and the
 * other -w words are 11 characters and still leave JL/U in place.
 */
static void
short_table(const struct host_info *hs, uint32_t n, bool wide)
{
	static const char *const head[] = {
		"JL/U", "MAX", "NJOBS", "RUN", "SSUSP", "USUSP", "RSV"
	};
	static const int end[] = { 36, 43, 50, 57, 64, 71, 78 };
	struct strbuf sb = STRBUF_INIT;
	char buf[64];
	int shift = 0;

	for (uint32_t i = 0; wide && i < n; i++)
		if ((int)strlen(hs[i].name) - 18 > shift)
			shift = (int)strlen(hs[i].name) - 18;
	col_left(&sb, 1, "HOST_NAME");
	col_left(&sb, 20 + shift, "STATUS");
	for (size_t k = 0; k < ARRAY_SIZE(head); k++)
		col_right(&sb, end[k] + shift, head[k]);
	col_flush(&sb, stdout);
	for (uint32_t i = 0; i < n; i++) {
		const struct host_info *h = &hs[i];
		int v[] = { h->jlu, h->max_slots, h->njobs, h->nrun,
		    h->nssusp, h->nususp, h->nrsv };

		snprintf(buf, sizeof(buf), "%.18s", h->name);
		col_left(&sb, 1, wide ? h->name : buf);
		col_left(&sb, 20 + shift, status_word(h->status, wide));
		for (size_t k = 0; k < ARRAY_SIZE(v); k++) {
			count_text(v[k], buf, sizeof(buf));
			col_right(&sb, end[k] + shift, buf);
		}
		col_flush(&sb, stdout);
	}
	sb_release(&sb);
}

/* Columns of the load rows of -l: header word and value end together. */
static const int load_end[NLOADIDX] = {
	20, 26, 32, 38, 44, 50, 55, 61, 67, 73, 79
};

static void
load_header(void)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < NLOADIDX; i++)
		col_right(&sb, load_end[i], load_index_info[i].name);
	col_right(&sb, 86, "slots");
	col_flush(&sb, stdout);
	sb_release(&sb);
}

static void
load_row(const char *label, const float *load, uint32_t busy, bool known,
    const char *slots)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[32];

	sb_addf(&sb, " %s", label);
	for (int i = 0; i < NLOADIDX; i++) {
		size_t off = 0;

		/* An index past its loadSched is marked, as LSF does. */
		if (busy & (1u << i))
			buf[off++] = '*';
		if (known)
			fmt_load_value(i, load[i], buf + off,
			    sizeof(buf) - off);
		else
			snprintf(buf, sizeof(buf), "-");
		col_right(&sb, load_end[i], buf);
	}
	col_right(&sb, 86, slots);
	col_flush(&sb, stdout);
	sb_release(&sb);
}

static void
long_host(const struct host_info *h)
{
	struct strbuf sb = STRBUF_INIT;
	float total[NLOADIDX];
	bool known = !(h->status & (HOST_STAT_UNAVAIL | HOST_STAT_NO_LIM));
	int v[] = { h->max_slots, h->njobs, h->nrun, h->nssusp, h->nususp,
	    h->nrsv };
	static const int end[] = { 34, 41, 48, 55, 62, 69 };
	char buf[64];

	printf("HOST  %s\n", h->name);
	printf("STATUS           CPUF  JL/U    MAX  NJOBS    RUN  SSUSP  USUSP"
	    "    RSV DISPATCH_WINDOW\n");
	col_left(&sb, 1, status_word(h->status, true));
	snprintf(buf, sizeof(buf), "%.2f", (double)h->cpuf);
	col_right(&sb, 21, buf);
	count_text(h->jlu, buf, sizeof(buf));
	col_right(&sb, 27, buf);
	for (size_t k = 0; k < ARRAY_SIZE(v); k++) {
		count_text(v[k], buf, sizeof(buf));
		col_right(&sb, end[k], buf);
	}
	col_right(&sb, 76, h->dispatch_window ? h->dispatch_window : "-");
	col_flush(&sb, stdout);
	if (h->comment && *h->comment)
		printf(" ADMIN ACTION COMMENT: \"%s\"\n", h->comment);

	printf("\n CURRENT LOAD USED FOR SCHEDULING:\n");
	load_header();
	/* slots: what is still free; "-" without a slot limit. */
	if (h->max_slots >= 0)
		snprintf(buf, sizeof(buf), "%d", h->max_slots > h->njobs ?
		    h->max_slots - h->njobs : 0);
	else
		snprintf(buf, sizeof(buf), "-");
	/* What scheduling sees: the load with the reservations of
	 * running jobs' rusage[] added (or taken from what is free). */
	for (int i = 0; i < NLOADIDX; i++) {
		total[i] = h->load[i];
		if (h->load[i] < INFINIT_LOAD && h->rsv[i] != 0)
			total[i] += load_index_info[i].increasing ?
			    h->rsv[i] : -h->rsv[i];
	}
	load_row("Total", total, known ? h->busy_mask : 0, known,
	    buf);
	load_row("Reserved", h->rsv, 0, true, "-");

	printf("\n LOAD THRESHOLD USED FOR SCHEDULING:\n");
	disp_thresholds_wire(stdout, h->sched, h->stop, h->sched_set,
	    h->stop_set, &h->ext_thr);
	printf("\n");
	sb_release(&sb);
}

/*
 * -s [resource ...]: the numeric shared resources, their total and what
 * running jobs reserve of them (rusage[] of a shared resource reserves
 * nothing in this version, hence 0.0).
 */
static int
shared(char **rest, int nrest)
{
	struct shared_res_list l;

	disp_shared_resources(client_config(CONF_CLUSTER), SHARED_NUMERIC,
	    rest, nrest, &l);
	printf("%-24s %-11s %-14s %s\n", "RESOURCE", "TOTAL", "RESERVED",
	    "LOCATION");
	for (size_t i = 0; i < l.n; i++)
		printf("%-24s %-11s %-14s %s\n", l.v[i].name,
		    l.v[i].value ? l.v[i].value : "-", "0.0", l.v[i].hosts);
	shared_res_list_release(&l);
	return 0;
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct strv names = STRV_INIT;
	struct host_list hl;
	struct reply rp;
	const char *val;
	bool wide = false, longform = false, sh = false, exported = false;
	char **rest;
	int id, nrest;

	progname = "bhosts";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_W: wide = true; break;
		case O_L: longform = true; break;
		case O_S: sh = true; break;
		case O_E: exported = true; break;
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	rest = cmdopt_rest(&st, &nrest);
	if (exported && (wide || longform))
		usage(255);
	/* -e: what this cluster exports to others (LSF multicluster);
	 * a cluster on its own exports nothing. */
	if (exported) {
		fprintf(stderr, "No matching host found\n");
		exit(255);
	}
	if (sh) {
		if (wide || longform)
			usage(255);
		id = shared(rest, nrest);
		cmdopt_release(&st);
		return id;
	}
	for (int i = 0; i < nrest; i++)
		strv_push(&names, rest[i]);

	disp_mbd_query(MSG_HOST_QUERY, &names, MSG_HOST_LIST, &rp);
	if (!host_list_unpack(&rp.r, &hl) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("mbatchd");
	if (hl.n == 0) {
		fprintf(stderr, "No matching host found\n");
		exit(255);
	}
	if (longform)
		for (uint32_t i = 0; i < hl.n; i++)
			long_host(&hl.v[i]);
	else
		short_table(hl.v, hl.n, wide);
	host_list_release(&hl);
	reply_release(&rp);
	strv_release(&names);
	cmdopt_release(&st);
	return 0;
}
