/*
 * lsb.hosts: per-host batch settings (Host), host groups (HostGroup) and
 * host partitions (HostPartition, in conf-fairshare.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf-lex.h"

static void
read_host_row(struct lsf_config *cfg, const char *path,
    const struct conf_table *t, const struct conf_row *r,
    struct conf_diag *d)
{
	const char *name = conf_cell(r, conf_table_col(t, "HOST_NAME"));
	const char *mxj = conf_cell(r, conf_table_col(t, "MXJ"));
	const char *jlu = conf_cell(r, conf_table_col(t, "JL/U"));
	const char *win = conf_cell(r, conf_table_col(t, "DISPATCH_WINDOW"));
	const char *mig = conf_cell(r, conf_table_col(t, "MIG"));
	const char *er = conf_cell(r, conf_table_col(t, "EXIT_RATE"));
	struct lsb_host_conf *h;
	const char *why;

	if (name == NULL) {
		conf_diag_error(d, path, r->line, "empty HOST_NAME");
		return;
	}
	for (int i = 0; i < cfg->nbhosts; i++)
		if (strcasecmp(cfg->bhosts[i].name, name) == 0) {
			conf_diag_error(d, path, r->line,
			    "host %s is already listed at line %d; ignored",
			    name, conf_line_no(cfg->bhosts[i].line));
			return;
		}
	cfg->bhosts = conf_grow(cfg->bhosts, cfg->nbhosts,
	    sizeof(*cfg->bhosts));
	h = &cfg->bhosts[cfg->nbhosts++];
	memset(h, 0, sizeof(*h));
	h->name = xstrdup(name);
	h->line = r->line;
	h->mxj = -1;
	h->jlu = -1;
	h->mig = -1;
	h->exit_rate = -1;
	thresholds_init(&h->thr);

	if (mxj != NULL) {
		if (strcmp(mxj, "!") == 0)
			h->mxj = MXJ_NCPUS;
		else if (conf_int(mxj, 0, INT_MAX, &h->mxj) < 0)
			conf_diag_error(d, path, r->line,
			    "host %s: MXJ must be a number, ! or -, not \"%s\"",
			    name, mxj);
	}
	if (jlu != NULL && conf_int(jlu, 0, INT_MAX, &h->jlu) < 0)
		conf_diag_error(d, path, r->line,
		    "host %s: JL/U must be a number or -, not \"%s\"", name,
		    jlu);
	if (mig != NULL && conf_int(mig, 0, INT_MAX, &h->mig) < 0)
		conf_diag_error(d, path, r->line,
		    "host %s: MIG must be minutes or -, not \"%s\"", name, mig);
	if (er != NULL && conf_int(er, 0, INT_MAX, &h->exit_rate) < 0)
		conf_diag_error(d, path, r->line,
		    "host %s: EXIT_RATE must be a number of jobs or -, not "
		    "\"%s\"", name, er);
	if (win != NULL && windows_parse(&h->dispatch_window, win, &why) < 0)
		conf_diag_error(d, path, r->line,
		    "host %s: bad DISPATCH_WINDOW \"%s\": %s", name, win, why);
	for (size_t i = 0; i < t->cols.n; i++) {
		int idx = load_index_lookup(t->cols.v[i]);
		const char *v = conf_cell(r, (int)i);
		const struct resource_def *rd;

		if (v == NULL)
			continue;
		if (idx < 0) {
			/* A column named after an ELIM's index. */
			rd = shared_numeric(&cfg->shared, t->cols.v[i]);
			if (rd != NULL && parse_threshold_ext(v, rd->name,
			    (int)(rd - cfg->shared.resources), rd->increasing,
			    &h->thr, &why) < 0)
				conf_diag_error(d, path, r->line,
				    "host %s: bad threshold %s = %s: %s", name,
				    t->cols.v[i], v, why);
			continue;
		}
		if (parse_threshold(v, idx, &h->thr, &why) < 0)
			conf_diag_error(d, path, r->line,
			    "host %s: bad threshold %s = %s: %s", name,
			    t->cols.v[i], v, why);
	}
}

/* Warn lists: columns LSF has that this version reads and ignores;
 * man/lsb.hosts.5 lists them. */
static const char *const host_warn[] = {
	"CHKPNT",
	"AFFINITY",
	NULL
};
static const char *const group_warn[] = {
	"GROUP_ADMIN",
	"CONDENSE",
	NULL
};

const char *const *
lsb_hosts_warn_cols(void)
{
	return host_warn;
}

const char *const *
lsb_hostgroups_warn_cols(void)
{
	return group_warn;
}

static void
read_hosts(struct lsf_config *cfg, const char *path,
    const struct conf_table *t, struct conf_diag *d)
{
	static const char *const known[] = { "HOST_NAME", "MXJ", "JL/U",
	    "DISPATCH_WINDOW", "MIG", "EXIT_RATE", "CHKPNT", "AFFINITY",
	    NULL };

	if (!conf_need_col(t, path, "Host", "HOST_NAME", d))
		return;
	conf_check_cols(t, path, known, &cfg->shared, true, d);
	conf_warn_cols("lsb.hosts", host_warn, path, t, "Host", d);
	for (size_t i = 0; i < t->cols.n; i++) {
		const char *c = t->cols.v[i];

		if (!conf_key_in(c, known) && load_index_lookup(c) < 0 &&
		    shared_numeric(&cfg->shared, c) == NULL &&
		    shared_has_resource(&cfg->shared, c))
			conf_diag_warn(d, path, t->line, "Host column %s: not "
			    "a dynamic numeric resource, a threshold on it has "
			    "no effect", c);
	}
	for (int i = 0; i < t->nrows; i++)
		read_host_row(cfg, path, t, &t->rows[i], d);
}

static void
read_groups(struct lsf_config *cfg, const char *path,
    const struct conf_table *t, struct conf_diag *d)
{
	static const char *const known[] = { "GROUP_NAME", "GROUP_MEMBER",
	    "GROUP_ADMIN", "CONDENSE", NULL };
	int cn = conf_table_col(t, "GROUP_NAME");
	int cm = conf_table_col(t, "GROUP_MEMBER");

	if (!conf_need_col(t, path, "HostGroup", "GROUP_NAME", d) ||
	    !conf_need_col(t, path, "HostGroup", "GROUP_MEMBER", d))
		return;
	conf_check_cols(t, path, known, NULL, false, d);
	conf_warn_cols("lsb.hosts", group_warn, path, t, "HostGroup", d);
	for (int i = 0; i < t->nrows; i++) {
		const struct conf_row *r = &t->rows[i];
		const char *name = conf_cell(r, cn);
		const char *mem = conf_cell(r, cm);
		const struct host_group *old;
		struct host_group *g;

		if (name == NULL) {
			conf_diag_error(d, path, r->line, "empty GROUP_NAME");
			continue;
		}
		if ((old = config_host_group(cfg, name)) != NULL) {
			conf_diag_error(d, path, r->line,
			    "host group %s is already defined at line %d; "
			    "ignored", name, conf_line_no(old->line));
			continue;
		}
		if (config_cluster_host(cfg, name) != NULL) {
			conf_diag_error(d, path, r->line,
			    "host group %s has the name of a host; ignored",
			    name);
			continue;
		}
		cfg->hgroups = conf_grow(cfg->hgroups, cfg->nhgroups,
		    sizeof(*cfg->hgroups));
		g = &cfg->hgroups[cfg->nhgroups++];
		g->name = xstrdup(name);
		g->line = r->line;
		strv_init(&g->members);
		if (mem != NULL)
			strv_split_ws(&g->members, mem);
		if (g->members.n == 0)
			conf_diag_warn(d, path, r->line,
			    "host group %s has no members", name);
	}
}

/* A member's name without "~" and "+pref". */
static char *
member_name(const char *m)
{
	const char *plus;

	if (*m == '~')
		m++;
	plus = strrchr(m, '+');
	return xstrndup(m, plus ? (size_t)(plus - m) : strlen(m));
}

/* Does group gi (transitively) contain group target?  seen[] keeps
 * the walk linear whatever the group graph looks like. */
static bool
reaches(const struct lsf_config *cfg, int gi, int target, bool *seen)
{
	const struct host_group *g = &cfg->hgroups[gi];

	for (size_t i = 0; i < g->members.n; i++) {
		char *m = member_name(g->members.v[i]);
		const struct host_group *sub = config_host_group(cfg, m);
		int si = sub ? (int)(sub - cfg->hgroups) : -1;

		free(m);
		if (si < 0 || seen[si])
			continue;
		if (si == target)
			return true;
		seen[si] = true;
		if (reaches(cfg, si, target, seen))
			return true;
	}
	return false;
}

/* Members may name groups defined further down, so check at the end. */
static void
check_groups(const struct lsf_config *cfg, const char *path,
    struct conf_diag *d)
{
	static const char *const words[] = { "all", "others", "none", "!",
	    NULL };
	bool *seen = xcalloc((size_t)cfg->nhgroups + 1, sizeof(*seen));
	struct host_index hi;

	host_index_build(&hi, &cfg->cluster);
	for (int i = 0; i < cfg->nhgroups; i++) {
		const struct host_group *g = &cfg->hgroups[i];

		for (size_t j = 0; j < g->members.n; j++) {
			char *m = member_name(g->members.v[j]);

			if (!conf_key_in(m, words) &&
			    config_host_group(cfg, m) == NULL &&
			    cfg->cluster.nhosts > 0 &&
			    host_index_find(&hi, m) < 0)
				conf_diag_warn(d, path, g->line,
				    "host group %s: %s is not a known host or "
				    "host group", g->name, m);
			free(m);
		}
		memset(seen, 0, (size_t)cfg->nhgroups * sizeof(*seen));
		if (reaches(cfg, i, i, seen))
			conf_diag_error(d, path, g->line,
			    "host group %s contains itself", g->name);
	}
	free(seen);
	host_index_release(&hi);
}

void
lsb_hosts_read(struct lsf_config *cfg, const char *path, struct conf_diag *d)
{
	static const struct conf_table_kind kinds[] = {
		{ "Host", read_hosts },
		{ "HostGroup", read_groups },
		{ NULL, NULL }
	};

	conf_read_tables_kv(cfg, path, kinds, "HostPartition",
	    lsb_hosts_read_partition, d);
	check_groups(cfg, path, d);
	lsb_hosts_check_partitions(cfg, path, d);
}

void
lsb_hosts_release(struct lsf_config *cfg)
{
	for (int i = 0; i < cfg->nbhosts; i++) {
		free(cfg->bhosts[i].name);
		windows_release(&cfg->bhosts[i].dispatch_window);
	}
	free(cfg->bhosts);
	for (int i = 0; i < cfg->nhgroups; i++) {
		free(cfg->hgroups[i].name);
		strv_release(&cfg->hgroups[i].members);
	}
	free(cfg->hgroups);
	lsb_hparts_release(cfg);
	cfg->bhosts = NULL;
	cfg->nbhosts = 0;
	cfg->hgroups = NULL;
	cfg->nhgroups = 0;
}
