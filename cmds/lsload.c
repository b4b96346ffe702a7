/*
 * lsload: the load indices the master LIM holds for each host, least
 * loaded first (LSF's default order, r15s then pg, or the order[] of
 * -R), or with -s the dynamic shared resources.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd-display.h"
#include "cmdopt.h"
#include "loadsample.h"
#include "resreq.h"

enum { O_W = 1, O_L, O_N, O_E, O_I, O_NUM, O_R, O_S, O_HELP, O_VERSION };

static const struct cmdopt opts[] = {
	{ "w", false, O_W },
	{ "l", false, O_L },
	{ "N", false, O_N },
	{ "E", false, O_E },
	{ "I", true, O_I },
	{ "n", true, O_NUM },
	{ "R", true, O_R },
	{ "s", false, O_S },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	/* LSF's options this version does not do: refused by name. */
	CMDOPT_UNSUP("a", false), CMDOPT_UNSUP("cname", false),
	CMDOPT_UNSUP("gpu", false), CMDOPT_UNSUP("gpuload", false),
	CMDOPT_UNSUP("json", false), CMDOPT_UNSUP("loc", false),
	CMDOPT_UNSUP("o", true),
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: lsload [-h] [-V] [-l] [-w] [-N | -E] "
	    "[-I index_list] [-n num_hosts]\n"
	    "              [-R res_req] [host_name ...]\n"
	    "       lsload -s [resource_name ...]\n");
	exit(rc);
}

/*
 * The columns: the index, and where its value ends.  Without -l, io is
 * left out and the columns after pg move left (the reference layout);
 * with -l io comes after pg, as in LSF.
 */
struct column {
	int		 idx;		/* -1: the external index ext */
	int		 end;
	const char	*ext;
};
static const struct column short_cols[] = {
	{ LI_R15S, 28, NULL }, { LI_R1M, 34, NULL }, { LI_R15M, 40, NULL },
	{ LI_UT, 45, NULL }, { LI_PG, 51, NULL }, { LI_LS, 55, NULL },
	{ LI_IT, 61, NULL }, { LI_TMP, 67, NULL }, { LI_SWP, 73, NULL },
	{ LI_MEM, 79, NULL },
};
static const struct column long_cols[] = {
	{ LI_R15S, 28, NULL }, { LI_R1M, 34, NULL }, { LI_R15M, 40, NULL },
	{ LI_UT, 45, NULL }, { LI_PG, 51, NULL }, { LI_IO, 57, NULL },
	{ LI_LS, 61, NULL }, { LI_IT, 67, NULL }, { LI_TMP, 73, NULL },
	{ LI_SWP, 79, NULL }, { LI_MEM, 85, NULL },
};

/* Built-in and external columns, at most. */
#define MAX_COLS	(NLOADIDX + 32)

/* Each index's column width (its value ends there), as in -l. */
static const int col_width[NLOADIDX] = { 6, 6, 6, 5, 6, 6, 4, 6, 6, 6, 6 };

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

static void
rr_of(const struct lim_host *h, struct rr_host *r)
{
	memset(r, 0, sizeof(*r));
	r->name = h->name;
	r->type = h->type;
	r->model = h->model;
	r->load = h->load;
	r->ncpus = h->ncpus;
	r->cpuf = h->cpuf;
	r->maxmem = h->maxmem;
	r->maxswp = h->maxswp;
	r->maxtmp = h->maxtmp;
	r->resources = &h->resources;
	r->ext = &h->ext;
	r->server = h->server;
}

/* Least loaded first; hosts without load last, each group as the LIM
 * listed it. */
static int
cmp_load(const struct resreq *rr, const struct lim_host *x,
    const struct lim_host *y)
{
	bool xu = (x->status & LIM_UNAVAIL) != 0;
	bool yu = (y->status & LIM_UNAVAIL) != 0;
	struct rr_host a, b;

	if (xu != yu)
		return xu ? 1 : -1;
	if (xu)
		return 0;
	if (rr != NULL) {
		rr_of(x, &a);
		rr_of(y, &b);
		return resreq_order_cmp(rr, &a, &b);
	}
	if (x->load[LI_R15S] != y->load[LI_R15S])
		return x->load[LI_R15S] < y->load[LI_R15S] ? -1 : 1;
	if (x->load[LI_PG] != y->load[LI_PG])
		return x->load[LI_PG] < y->load[LI_PG] ? -1 : 1;
	return 0;
}

static void
sort_hosts(const struct resreq *rr, struct lim_host *hs, uint32_t n)
{
	/* Insertion sort: stable, and clusters are small. */
	for (uint32_t i = 1; i < n; i++) {
		struct lim_host t = hs[i];
		uint32_t j = i;

		while (j > 0 && cmp_load(rr, &hs[j - 1], &t) > 0) {
			hs[j] = hs[j - 1];
			j--;
		}
		hs[j] = t;
	}
}

/*
 * -E: the run queue lengths scaled to one CPU (effective); -N: scaled
 * by the CPU factor too (normalized), so that hosts of any size and
 * speed compare.
 */
static void
scale_run_queues(struct lim_host *h, bool normalize)
{
	static const int rq[] = { LI_R15S, LI_R1M, LI_R15M };
	float div = h->ncpus > 0 ? (float)h->ncpus : 1.0f;

	if (normalize && h->cpuf > 0)
		div *= h->cpuf;
	for (size_t i = 0; i < ARRAY_SIZE(rq); i++)
		if (h->load[rq[i]] >= 0 && h->load[rq[i]] < INFINIT_LOAD)
			h->load[rq[i]] /= div;
}

/* Is this a Numeric resource of lsf.shared, which an ELIM may report? */
static bool
numeric_resource(const char *name)
{
	const struct shared_conf *s = &client_config(CONF_CLUSTER)->shared;

	for (int i = 0; i < s->nresources; i++)
		if (strcmp(s->resources[i].name, name) == 0)
			return s->resources[i].type == RES_NUMERIC;
	return false;
}

/* An external index's column: wide enough for its name. */
static int
ext_width(const char *name)
{
	int w = (int)strlen(name) + 1;

	return w < 7 ? 7 : w;
}

/* -l: the external indices some host reports, in lsf.shared's order. */
static size_t
ext_columns(const struct lim_host *hs, uint32_t n, struct column *cols,
    size_t max, int end)
{
	const struct shared_conf *s = &client_config(CONF_CLUSTER)->shared;
	size_t k = 0;
	double v;

	for (int i = 0; i < s->nresources && k < max; i++) {
		const char *name = s->resources[i].name;
		bool any = false;

		for (uint32_t j = 0; j < n && !any; j++) {
			struct rr_host r;

			rr_of(&hs[j], &r);
			any = resreq_ext_value(&r, name, &v);
		}
		if (!any)
			continue;
		cols[k].idx = -1;
		cols[k].ext = name;
		cols[k].end = end += ext_width(name);
		k++;
	}
	return k;
}

/* -I r15s:ut:mem: the indices to show, in that order; false if a name
 * is not a load index nor a Numeric resource. */
static bool
parse_indices(const char *list, int *idx, const char **ext, size_t *n)
{
	struct strv v = STRV_INIT;
	char *copy = xstrdup(list), *p, *tok;
	bool ok = true;

	*n = 0;
	for (p = copy; (tok = strsep(&p, ":")) != NULL;) {
		int i;

		if (*tok == '\0')
			continue;
		if ((i = load_index_lookup(tok)) < 0 &&
		    numeric_resource(tok)) {
			if (*n < MAX_COLS && !strv_contains(&v, tok)) {
				strv_push(&v, tok);
				ext[*n] = tok;
				idx[(*n)++] = -1;
			}
			continue;
		}
		if (i < 0) {
			fprintf(stderr, "%s: Unknown resource name\n", tok);
			ok = false;
			break;
		}
		if (*n < MAX_COLS &&
		    !strv_contains(&v, load_index_info[i].name)) {
			strv_push(&v, load_index_info[i].name);
			ext[*n] = NULL;
			idx[(*n)++] = i;
		}
	}
	/* The names stay: ext[] points into the copy. */
	strv_release(&v);
	if (!ok)
		free(copy);
	return ok && *n > 0;
}

/* Is this index past the host's lsf.cluster busy threshold?  lsload
 * marks such values with '*' on a busy host. */
static bool
over_busy(const struct lim_host *h, int idx)
{
	const struct cluster_host *ch;

	if (idx < 0 || !(h->status & LIM_BUSY))
		return false;
	ch = config_cluster_host(client_config(CONF_CLUSTER), h->name);
	if (ch == NULL || !(ch->busy_set & (1u << idx)))
		return false;
	return load_index_info[idx].increasing ? h->load[idx] > ch->busy[idx] :
	    h->load[idx] < ch->busy[idx];
}

static void
table(const struct lim_host *hs, uint32_t n, bool wide, bool longform,
    const struct column *pick, size_t npick, bool mark)
{
	struct column all[MAX_COLS];
	const struct column *cols = longform ? long_cols : short_cols;
	size_t ncols = longform ? ARRAY_SIZE(long_cols) :
	    ARRAY_SIZE(short_cols);
	struct strbuf sb = STRBUF_INIT;
	char buf[64];
	int shift = 0;

	if (pick != NULL) {
		cols = pick;
		ncols = npick;
	} else if (longform) {
		/* -l: the external indices after the built-in ones. */
		memcpy(all, long_cols, sizeof(long_cols));
		ncols += ext_columns(hs, n, all + ncols, MAX_COLS - ncols,
		    all[ncols - 1].end);
		cols = all;
	}
	for (uint32_t i = 0; wide && i < n; i++)
		if ((int)strlen(hs[i].name) - 15 > shift)
			shift = (int)strlen(hs[i].name) - 15;
	col_left(&sb, 1, "HOST_NAME");
	col_right(&sb, 22 + shift, "status");
	for (size_t k = 0; k < ncols; k++)
		col_right(&sb, cols[k].end + shift, cols[k].idx < 0 ?
		    cols[k].ext : load_index_info[cols[k].idx].name);
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
			int x = cols[k].idx;
			size_t off = 0;
			struct rr_host r;
			double v;

			if (x < 0) {
				rr_of(h, &r);
				if (resreq_ext_value(&r, cols[k].ext, &v))
					snprintf(buf, sizeof(buf), "%.1f", v);
				else
					snprintf(buf, sizeof(buf), "-");
				col_right(&sb, cols[k].end + shift, buf);
				continue;
			}
			if (mark && over_busy(h, x))
				buf[off++] = '*';
			fmt_load_value(x, h->load[x], buf + off,
			    sizeof(buf) - off);
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
	struct resreq rr, *rrp = NULL;
	struct column pick[MAX_COLS];
	int idx[MAX_COLS];
	const char *ext[MAX_COLS];
	size_t npick = 0;
	const char *val, *index_list = NULL, *req = NULL;
	bool wide = false, longform = false, eff = false, norm = false;
	bool sh = false;
	long maxhosts = -1;
	char **rest, *end, *cause = NULL;
	int id, nrest;
	uint32_t n;

	progname = "lsload";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_W: wide = true; break;
		case O_L: longform = true; break;
		case O_E: eff = true; break;
		case O_N: norm = true; break;
		case O_I: index_list = val; break;
		case O_R: req = val; break;
		case O_S: sh = true; break;
		case O_NUM:
			errno = 0;
			maxhosts = strtol(val, &end, 10);
			if (end == val || *end != '\0' || errno != 0 ||
			    maxhosts <= 0) {
				fprintf(stderr, "%s: Bad number of hosts\n",
				    val);
				exit(255);
			}
			break;
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	rest = cmdopt_rest(&st, &nrest);
	if (eff && norm)
		usage(255);
	if (sh) {
		if (eff || norm || index_list || req || maxhosts > 0 ||
		    longform || wide)
			usage(255);
		id = disp_shared_show(SHARED_DYNAMIC, rest, nrest);
		cmdopt_release(&st);
		return id;
	}
	for (int i = 0; i < nrest; i++)
		strv_push(&names, rest[i]);
	if (index_list != NULL) {
		int end_col = 22;

		if (!parse_indices(index_list, idx, ext, &npick))
			exit(255);
		for (size_t k = 0; k < npick; k++) {
			pick[k].idx = idx[k];
			pick[k].ext = ext[k];
			pick[k].end = end_col += idx[k] < 0 ?
			    ext_width(ext[k]) : col_width[idx[k]];
		}
	}
	if (req != NULL) {
		const struct lsf_config *c = client_config(CONF_CLUSTER);
		const char *unit = c->lsf.unit_for_limits ?
		    c->lsf.unit_for_limits : "KB";

		if (resreq_parse(&rr, req, unit, &cause) < 0) {
			fprintf(stderr, "%s: Bad resource requirement syntax\n",
			    req);
			free(cause);
			exit(255);
		}
		rrp = &rr;
	}

	disp_load_list(&names, &ll);
	for (uint32_t i = 0; (eff || norm) && i < ll.nhosts; i++)
		if (!(ll.hosts[i].status & LIM_UNAVAIL))
			scale_run_queues(&ll.hosts[i], norm);
	/* -R: only the hosts that are up and satisfy its select[]. */
	n = ll.nhosts;
	if (rrp != NULL) {
		uint32_t k = 0;

		for (uint32_t i = 0; i < ll.nhosts; i++) {
			struct lim_host *h = &ll.hosts[i];
			struct rr_host r;
			struct lim_host t;

			rr_of(h, &r);
			if ((h->status & LIM_UNAVAIL) ||
			    !resreq_select(rrp, &r))
				continue;
			t = ll.hosts[k];
			ll.hosts[k++] = *h;
			*h = t;
		}
		n = k;
		if (n == 0) {
			fprintf(stderr, "No matching host found\n");
			exit(255);
		}
	}
	sort_hosts(rrp, ll.hosts, n);
	if (maxhosts > 0 && (uint32_t)maxhosts < n)
		n = (uint32_t)maxhosts;
	/* The thresholds apply to the values as the LIM sees them: none
	 * is marked once -E or -N has scaled them. */
	table(ll.hosts, n, wide, longform, npick ? pick : NULL, npick,
	    !eff && !norm);
	if (rrp != NULL)
		resreq_release(rrp);
	lim_load_list_release(&ll);
	strv_release(&names);
	cmdopt_release(&st);
	return 0;
}
