/*
 * lsb.resources: resource allocation limits, "Begin Limit ... End
 * Limit" sections in either of LSF's two forms: KEY = value lines (one
 * limit a section), or a table whose header names the keys and whose
 * rows are one limit each.  Both forms go through one function per key,
 * so they accept the same values.  Other sections of the file (HostExport,
 * SharedResourceExport, ResourceReservation, GuaranteedResourcePool) are
 * warned about and ignored.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf-lex.h"

/*
 * The warn list: Limit keys LSF has that this version does not enforce.
 * Each value is checked against its LSF type (conf-keys.c) and warned
 * about; man/lsb.resources.5 lists them.  Implementing one: delete its
 * line, handle it in apply_key.
 */
static const char *const quiet_keys[] = {
	"SWP",
	"TMP",
	"LICENSE",
	"RESOURCE",
	"APPS",
	"PER_APP",
	"LIC_PROJECTS",
	"PER_LIC_PROJECT",
	"INELIGIBLE",
	"ELIGIBLE_PEND_JOBS",
	"JOBS_PER_SCHED_CYCLE",
	"CLUSTERS",
	"PER_CLUSTER",
	NULL
};

const char *const *
lsb_resources_warn_keys(void)
{
	return quiet_keys;
}

static void
limit_init(struct limit_conf *l)
{
	memset(l, 0, sizeof(*l));
	strv_init(&l->users);
	strv_init(&l->queues);
	strv_init(&l->hosts);
	strv_init(&l->projects);
	l->slots = -1;
	l->slots_per_proc = -1;
	l->mem = -1;
	l->mem_pct = -1;
	l->jobs = -1;
}

static void
limit_release(struct limit_conf *l)
{
	free(l->name);
	strv_release(&l->users);
	strv_release(&l->queues);
	strv_release(&l->hosts);
	strv_release(&l->projects);
	limit_init(l);
}

void
lsb_resources_release(struct lsf_config *cfg)
{
	for (int i = 0; i < cfg->nlimits; i++)
		limit_release(&cfg->limits[i]);
	free(cfg->limits);
	cfg->limits = NULL;
	cfg->nlimits = 0;
}

/* Which consumer list a key sets, and whether it is a PER_ one. */
static struct strv *
consumer(struct limit_conf *l, const char *k, bool *per, bool **flag)
{
	bool p = strncasecmp(k, "PER_", 4) == 0;
	const char *base = p ? k + 4 : k;

	*per = p;
	if (strcasecmp(base, p ? "USER" : "USERS") == 0) {
		*flag = &l->per_user;
		return &l->users;
	}
	if (strcasecmp(base, p ? "QUEUE" : "QUEUES") == 0) {
		*flag = &l->per_queue;
		return &l->queues;
	}
	if (strcasecmp(base, p ? "HOST" : "HOSTS") == 0) {
		*flag = &l->per_host;
		return &l->hosts;
	}
	if (strcasecmp(base, p ? "PROJECT" : "PROJECTS") == 0) {
		*flag = &l->per_project;
		return &l->projects;
	}
	return NULL;
}

/*
 * One key of a limit.  Returns NULL, or why the value is wrong (then
 * the limit is dropped).  *conflict says a consumer and its PER_ form
 * were both given.
 */
static const char *
apply_key(struct limit_conf *l, const char *k, const char *v,
    bool *conflict)
{
	struct strv *list;
	bool per, *flag;

	if (strcasecmp(k, "NAME") == 0) {
		free(l->name);
		l->name = xstrdup(v);
		return NULL;
	}
	if ((list = consumer(l, k, &per, &flag)) != NULL) {
		if (list->n > 0 && *flag != per)
			*conflict = true;
		strv_release(list);
		strv_split_ws(list, v);
		*flag = per;
		if (list->n == 0)
			return "an empty list";
		return NULL;
	}
	if (strcasecmp(k, "SLOTS") == 0)
		return conf_int(v, 0, INT_MAX, &l->slots) < 0 ?
		    "must be an integer >= 0" : NULL;
	if (strcasecmp(k, "JOBS") == 0)
		return conf_int(v, 0, INT_MAX, &l->jobs) < 0 ?
		    "must be an integer >= 0" : NULL;
	if (strcasecmp(k, "SLOTS_PER_PROCESSOR") == 0)
		return conf_float(v, 0, 1e9, &l->slots_per_proc) < 0 ||
		    l->slots_per_proc <= 0 ? "must be a number > 0" : NULL;
	if (strcasecmp(k, "MEM") == 0) {
		size_t n = strlen(v);

		if (n > 1 && v[n - 1] == '%') {
			char *num = xstrndup(v, n - 1);
			int bad = conf_float(num, 0, 100, &l->mem_pct);

			free(num);
			return bad < 0 ? "must be a percentage from 0 to 100" :
			    NULL;
		}
		return conf_int(v, 0, INT_MAX, &l->mem) < 0 ?
		    "must be megabytes >= 0 or a percentage" : NULL;
	}
	return "";
}

/* Names a limit lists that the configuration does not know. */
static void
check_names(const struct lsf_config *cfg, const struct limit_conf *l,
    const char *path, struct conf_diag *d)
{
	struct strv out = STRV_INIT, bad = STRV_INIT;

	for (size_t i = 0; i < l->queues.n; i++) {
		const char *q = l->queues.v[i] + (l->queues.v[i][0] == '~');

		if (strcasecmp(q, "all") != 0 && config_queue(cfg, q) == NULL)
			conf_diag_warn(d, path, l->line, "limit %s: %s is not "
			    "a queue", l->name, q);
	}
	for (size_t i = 0; i < l->users.n; i++) {
		const char *u = l->users.v[i] + (l->users.v[i][0] == '~');
		size_t n = strlen(u);

		/* "group@" is lsb.users' syntax, not this file's. */
		if (n > 1 && u[n - 1] == '@')
			conf_diag_warn(d, path, l->line, "limit %s: %s: a "
			    "group's members are each limited with PER_USER",
			    l->name, u);
	}
	if (l->hosts.n > 0 && cfg->cluster.nhosts > 0) {
		config_expand_hosts(cfg, &l->hosts, &out, &bad);
		for (size_t i = 0; i < bad.n; i++)
			conf_diag_warn(d, path, l->line, "limit %s: %s is not "
			    "a server host or host group", l->name, bad.v[i]);
	}
	strv_release(&out);
	strv_release(&bad);
}

/*
 * The limit as a whole: LSF's rules for what goes together.  Returns
 * false (with an error) when the limit cannot be used.
 */
static bool
check_limit(const struct lsf_config *cfg, struct limit_conf *l,
    const char *path, struct conf_diag *d)
{
	if (l->name == NULL)
		l->name = xasprintf("limit%d", cfg->nlimits + 1);
	for (int i = 0; i < cfg->nlimits; i++)
		if (strcmp(cfg->limits[i].name, l->name) == 0) {
			conf_diag_error(d, path, l->line, "limit %s is already "
			    "defined at line %d; ignored", l->name,
			    conf_line_no(cfg->limits[i].line));
			return false;
		}
	if (l->slots < 0 && l->slots_per_proc < 0 && l->mem < 0 &&
	    l->mem_pct < 0 && l->jobs < 0) {
		conf_diag_warn(d, path, l->line, "limit %s sets no SLOTS, "
		    "SLOTS_PER_PROCESSOR, MEM or JOBS; ignored", l->name);
		return false;
	}
	if (l->slots >= 0 && l->slots_per_proc >= 0) {
		conf_diag_error(d, path, l->line, "limit %s: SLOTS and "
		    "SLOTS_PER_PROCESSOR cannot both be set", l->name);
		return false;
	}
	if (l->slots_per_proc >= 0 && !l->per_host) {
		conf_diag_error(d, path, l->line, "limit %s: "
		    "SLOTS_PER_PROCESSOR needs PER_HOST", l->name);
		return false;
	}
	if (l->mem_pct >= 0 && !l->per_host) {
		conf_diag_error(d, path, l->line, "limit %s: MEM as a "
		    "percentage needs PER_HOST", l->name);
		return false;
	}
	check_names(cfg, l, path, d);
	return true;
}

static void
add_limit(struct lsf_config *cfg, struct limit_conf *l, const char *path,
    struct conf_diag *d)
{
	if (!check_limit(cfg, l, path, d)) {
		limit_release(l);
		return;
	}
	cfg->limits = conf_grow(cfg->limits, cfg->nlimits,
	    sizeof(*cfg->limits));
	cfg->limits[cfg->nlimits++] = *l;
}

/*
 * One key = value of either form; false when the limit must go.  Keys
 * are told apart by name: a known one with a bad value is an error, an
 * unknown one a warning.
 */
static bool
limit_key(struct limit_conf *l, const char *k, const char *v,
    const char *path, int line, struct conf_diag *d)
{
	bool conflict = false;
	const char *why = apply_key(l, k, v, &conflict);
	char *who;

	if (conflict) {
		static const char *const pairs[][2] = { { "USERS", "PER_USER" },
		    { "QUEUES", "PER_QUEUE" }, { "HOSTS", "PER_HOST" },
		    { "PROJECTS", "PER_PROJECT" } };
		size_t i = 0;

		while (i < 3 && strcasecmp(k, pairs[i][0]) != 0 &&
		    strcasecmp(k, pairs[i][1]) != 0)
			i++;
		conf_diag_error(d, path, line, "limit %s: %s and %s cannot "
		    "both be set", l->name ? l->name : "-", pairs[i][0],
		    pairs[i][1]);
		return false;
	}
	if (why == NULL)
		return true;
	if (*why != '\0') {
		conf_diag_error(d, path, line, "limit %s: bad %s \"%s\": %s",
		    l->name ? l->name : "-", k, v, why);
		return false;
	}
	who = xasprintf("limit %s: ", l->name ? l->name : "-");
	if (!conf_warn_key("lsb.resources", quiet_keys, path, line, who, k, v,
	    d))
		conf_diag_warn(d, path, line, "limit %s: unknown parameter %s "
		    "ignored", l->name ? l->name : "-", k);
	free(who);
	return true;
}

/* The NAME of a section or row first: messages name the limit. */
static void
read_kv_limit(struct lsf_config *cfg, const struct conf_file *f,
    const struct conf_section *sec, struct conf_diag *d)
{
	struct conf_kvs kv;
	struct limit_conf l;
	bool ok = true;

	limit_init(&l);
	l.line = sec->line;
	conf_kvs_read(f, sec, 0, &kv, d);
	conf_kvs_check_dups(&kv, f->path, d);
	for (int i = 0; i < kv.n; i++)
		if (strcasecmp(kv.v[i].key, "NAME") == 0 &&
		    !conf_blank(kv.v[i].val)) {
			free(l.name);
			l.name = xstrdup(kv.v[i].val);
		}
	for (int i = 0; i < kv.n && ok; i++) {
		if (conf_blank(kv.v[i].val))
			continue;
		ok = limit_key(&l, kv.v[i].key, kv.v[i].val, f->path,
		    kv.v[i].line, d);
	}
	if (ok)
		add_limit(cfg, &l, f->path, d);
	else
		limit_release(&l);
	conf_kvs_release(&kv);
}

static void
read_table_limits(struct lsf_config *cfg, const struct conf_file *f,
    const struct conf_section *sec, struct conf_diag *d)
{
	struct conf_table t;
	int cn;

	conf_table_read(f, sec, &t, d);
	cn = conf_table_col(&t, "NAME");
	for (int r = 0; r < t.nrows; r++) {
		const struct conf_row *row = &t.rows[r];
		struct limit_conf l;
		bool ok = true;

		limit_init(&l);
		l.line = row->line;
		if (conf_cell(row, cn) != NULL)
			l.name = xstrdup(conf_cell(row, cn));
		for (size_t c = 0; c < t.cols.n && ok; c++) {
			const char *v = conf_cell(row, (int)c);

			/* "-" or "()": every consumer, or no limit. */
			if (v == NULL || (int)c == cn)
				continue;
			ok = limit_key(&l, t.cols.v[c], v, f->path, row->line,
			    d);
		}
		if (ok)
			add_limit(cfg, &l, f->path, d);
		else
			limit_release(&l);
	}
	conf_table_release(&t);
}

/* Key = value lines have an '=' on their first line; a table not. */
static bool
is_table(const struct conf_file *f, const struct conf_section *sec)
{
	return sec->first < sec->last &&
	    strchr(f->lines[sec->first].text, '=') == NULL;
}

void
lsb_resources_read(struct lsf_config *cfg, const char *path,
    struct conf_diag *d)
{
	struct conf_file f;
	struct conf_sections secs;

	if (conf_file_read(&f, path, CONF_LEX_INCLUDE, d) < 0) {
		conf_diag_error(d, path, 0, "cannot read: %s",
		    strerror(errno));
		conf_file_release(&f);
		return;
	}
	conf_sections_read(&f, &secs, d);
	for (int i = 0; i < secs.n; i++) {
		const struct conf_section *sec = &secs.v[i];

		if (strcasecmp(sec->name, "Limit") != 0)
			conf_diag_warn(d, path, sec->line,
			    "section %s is not supported; ignored", sec->name);
		else if (sec->first >= sec->last)
			conf_diag_warn(d, path, sec->line,
			    "empty Limit section ignored");
		else if (is_table(&f, sec))
			read_table_limits(cfg, &f, sec, d);
		else
			read_kv_limit(cfg, &f, sec, d);
	}
	conf_sections_release(&secs);
	conf_file_release(&f);
}
