/*
 * $LSF_CONFDIR/lsf.cluster.<name>: Parameters, ClusterAdmins, Host and
 * ResourceMap sections.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf-lex.h"

/*
 * The warn list: LIM parameters this version reads and does not use,
 * each value checked against its LSF type (conf-keys.c) and warned
 * about; man/lsf.cluster.5 lists them.
 */
static const char *const quiet_params[] = {
	"ADJUST_DURATION",
	"LSF_ELIM_BLOCKTIME",
	"LSF_ELIM_RESTARTS",
	"LSF_ELIM_DEBUG",
	"PRODUCTS",
	"FLOAT_CLIENTS",
	"FLOAT_CLIENTS_ADDR_RANGE",
	"LSF_HOST_ADDR_RANGE",
	"MASTER_INACTIVITY_LIMIT",
	"PROBE_TIMEOUT",
	"RETRY_LIMIT",
	NULL
};

const char *const *
cluster_conf_warn_keys(void)
{
	return quiet_params;
}

void
cluster_conf_init(struct cluster_conf *c)
{
	memset(c, 0, sizeof(*c));
	strv_init(&c->admins);
	strv_init(&c->resmap_names);
	strv_init(&c->resmap_locations);
	c->exinterval = 15;
	c->host_inactivity_limit = 5;
	c->elim_poll_interval = 5;
}

static void
read_params(struct cluster_conf *c, const struct conf_kvs *kv,
    struct conf_diag *d)
{
	for (int i = 0; i < kv->n; i++) {
		const struct conf_kv *e = &kv->v[i];
		int *dst = NULL;
		float f;

		if (strcasecmp(e->key, "EXINTERVAL") == 0) {
			dst = &c->exinterval;
		} else if (strcasecmp(e->key, "HOST_INACTIVITY_LIMIT") == 0) {
			dst = &c->host_inactivity_limit;
		} else if (strcasecmp(e->key, "ELIM_POLL_INTERVAL") == 0) {
			/* LSF takes fractions of a second; we poll in whole
			 * seconds, so round up. */
			if (conf_float(e->val, 0.001, 3600, &f) < 0)
				conf_diag_error(d, c->path, e->line,
				    "%s must be a positive number of seconds, "
				    "not \"%s\"", e->key, e->val);
			else
				c->elim_poll_interval = (int)ceilf(f);
			continue;
		} else {
			if (!conf_warn_key("lsf.cluster", quiet_params,
			    c->path, e->line, "", e->key, e->val, d))
				conf_diag_warn(d, c->path, e->line,
				    "unknown parameter %s ignored", e->key);
			continue;
		}
		if (conf_int(e->val, 1, 86400, dst) < 0)
			conf_diag_error(d, c->path, e->line,
			    "%s must be a positive integer, not \"%s\"",
			    e->key, e->val);
	}
}

static void
read_admins(struct cluster_conf *c, const struct conf_kvs *kv,
    struct conf_diag *d)
{
	for (int i = 0; i < kv->n; i++) {
		const struct conf_kv *e = &kv->v[i];
		struct strv w = STRV_INIT;
		char *v;
		size_t n;

		if (strcasecmp(e->key, "ADMINISTRATORS") != 0) {
			conf_diag_warn(d, c->path, e->line,
			    "unknown parameter %s ignored", e->key);
			continue;
		}
		v = xstrdup(e->val);
		n = strlen(v);
		if (n >= 2 && v[0] == '(' && v[n - 1] == ')') {
			v[n - 1] = '\0';
			v[0] = ' ';
		}
		strv_split_ws(&w, v);
		if (w.n == 0)
			conf_diag_error(d, c->path, e->line,
			    "no administrator named");
		for (size_t j = 0; j < w.n; j++)
			if (!strv_contains(&c->admins, w.v[j]))
				strv_push(&c->admins, w.v[j]);
		strv_release(&w);
		free(v);
	}
}

static void
host_resources(const struct lsf_config *cfg, struct cluster_host *h,
    const char *list, int line, struct conf_diag *d)
{
	const char *path = cfg->cluster.path;

	strv_split_ws(&h->resources, list);
	for (size_t i = 0; i < h->resources.n; i++) {
		const char *r = h->resources.v[i];
		char *name;

		if (*r == '!')
			r++;
		name = xstrndup(r, strcspn(r, "="));
		if (!shared_has_resource(&cfg->shared, name))
			conf_diag_warn(d, path, line,
			    "host %s: resource %s is not defined in lsf.shared",
			    h->name, name);
		free(name);
	}
}

static void
read_host(struct lsf_config *cfg, const struct conf_table *t,
    const struct conf_row *r, struct conf_diag *d)
{
	struct cluster_conf *c = &cfg->cluster;
	const char *name = conf_cell(r, conf_table_col(t, "HOSTNAME"));
	const char *model = conf_cell(r, conf_table_col(t, "MODEL"));
	const char *type = conf_cell(r, conf_table_col(t, "TYPE"));
	const char *server = conf_cell(r, conf_table_col(t, "SERVER"));
	const char *nd = conf_cell(r, conf_table_col(t, "ND"));
	const char *res = conf_cell(r, conf_table_col(t, "RESOURCES"));
	const char *runwin = conf_cell(r, conf_table_col(t, "RUNWINDOW"));
	const char *rexpri = conf_cell(r, conf_table_col(t, "REXPRI"));
	struct cluster_host *h;
	struct windows w;
	const char *why;
	bool b;

	if (name == NULL) {
		conf_diag_error(d, c->path, r->line, "empty HOSTNAME");
		return;
	}
	c->hosts = conf_grow(c->hosts, c->nhosts, sizeof(*c->hosts));
	h = &c->hosts[c->nhosts++];
	memset(h, 0, sizeof(*h));
	h->name = xstrdup(name);
	h->line = r->line;
	h->model = xstrdup(model ? model : "!");
	h->type = xstrdup(type ? type : "!");
	h->server = true;
	strv_init(&h->resources);
	for (int i = 0; i < NLOADIDX; i++)
		h->busy[i] = load_index_info[i].increasing ? INFINIT_LOAD :
		    -INFINIT_LOAD;

	if (strcmp(h->model, "!") != 0) {
		bool known = false;

		for (int i = 0; i < cfg->shared.nmodels; i++)
			if (strcmp(cfg->shared.models[i].name, h->model) == 0)
				known = true;
		if (!known)
			conf_diag_warn(d, c->path, r->line,
			    "host %s: model %s is not defined in lsf.shared",
			    name, h->model);
	}
	if (strcmp(h->type, "!") != 0 &&
	    !strv_contains(&cfg->shared.host_types, h->type))
		conf_diag_warn(d, c->path, r->line,
		    "host %s: type %s is not defined in lsf.shared", name,
		    h->type);
	if (server != NULL) {
		if (strcmp(server, "1") == 0)
			h->server = true;
		else if (strcmp(server, "0") == 0)
			h->server = false;
		else if (conf_bool(server, &b) == 0)
			h->server = b;
		else
			conf_diag_error(d, c->path, r->line,
			    "host %s: server must be 1 or 0, not \"%s\"",
			    name, server);
	}
	if (nd != NULL && conf_int(nd, 0, 1000000, &h->nd) < 0)
		conf_diag_error(d, c->path, r->line,
		    "host %s: nd must be a number of disks, not \"%s\"", name,
		    nd);
	if (res != NULL)
		host_resources(cfg, h, res, r->line, d);
	if (runwin != NULL) {
		if (windows_parse(&w, runwin, &why) < 0)
			conf_diag_error(d, c->path, r->line,
			    "host %s: bad RUNWINDOW \"%s\": %s", name, runwin,
			    why);
		else if (w.text != NULL)
			h->runwindow = xstrdup(w.text);
		windows_release(&w);
	}
	if (rexpri != NULL && conf_int(rexpri, -20, 20, &h->rexpri) < 0)
		conf_diag_error(d, c->path, r->line,
		    "host %s: REXPRI must be -20 to 20, not \"%s\"", name,
		    rexpri);
	for (size_t i = 0; i < t->cols.n; i++) {
		int idx = load_index_lookup(t->cols.v[i]);
		const char *v = conf_cell(r, (int)i);
		float f;

		if (idx < 0 || v == NULL)
			continue;
		if (conf_load_value(v, idx, &f, &why) < 0) {
			conf_diag_error(d, c->path, r->line,
			    "host %s: bad %s threshold \"%s\": %s", name,
			    load_index_info[idx].name, v, why);
			continue;
		}
		h->busy[idx] = f;
		h->busy_set |= 1u << idx;
	}
}

static void
read_hosts(struct lsf_config *cfg, const struct conf_table *t,
    struct conf_diag *d)
{
	static const char *const known[] = { "HOSTNAME", "MODEL", "TYPE",
	    "SERVER", "ND", "RESOURCES", "RUNWINDOW", "REXPRI", NULL };

	if (!conf_need_col(t, cfg->cluster.path, "Host", "HOSTNAME", d))
		return;
	conf_check_cols(t, cfg->cluster.path, known, NULL, true, d);
	for (int i = 0; i < t->nrows; i++)
		read_host(cfg, t, &t->rows[i], d);
}

static void
read_resmap(struct lsf_config *cfg, const struct conf_table *t,
    struct conf_diag *d)
{
	static const char *const known[] = { "RESOURCENAME", "LOCATION",
	    NULL };
	struct cluster_conf *c = &cfg->cluster;
	int cn = conf_table_col(t, "RESOURCENAME");
	int cl = conf_table_col(t, "LOCATION");

	if (!conf_need_col(t, c->path, "ResourceMap", "RESOURCENAME", d) ||
	    !conf_need_col(t, c->path, "ResourceMap", "LOCATION", d))
		return;
	conf_check_cols(t, c->path, known, NULL, false, d);
	for (int i = 0; i < t->nrows; i++) {
		const struct conf_row *r = &t->rows[i];
		const char *name = conf_cell(r, cn), *loc = conf_cell(r, cl);

		if (name == NULL || loc == NULL) {
			conf_diag_error(d, c->path, r->line,
			    "ResourceMap needs a RESOURCENAME and a LOCATION");
			continue;
		}
		if (strv_contains(&c->resmap_names, name)) {
			conf_diag_error(d, c->path, r->line,
			    "resource %s is already mapped", name);
			continue;
		}
		if (!shared_has_resource(&cfg->shared, name))
			conf_diag_warn(d, c->path, r->line,
			    "resource %s is not defined in lsf.shared", name);
		strv_push(&c->resmap_names, name);
		strv_push(&c->resmap_locations, loc);
	}
}

static void
host_free(struct cluster_host *h)
{
	free(h->name);
	free(h->model);
	free(h->type);
	strv_release(&h->resources);
	free(h->runwindow);
}

/*
 * A host listed twice is an error and the second row is dropped.  Found
 * once every row is read, through a sorted index: clusters of many
 * thousands of hosts exist, and a scan per row would be quadratic.
 */
static void
drop_duplicates(struct cluster_conf *c, struct conf_diag *d)
{
	struct host_index hi;
	bool *dup;
	int first = 0, n = 0;

	host_index_build(&hi, c);
	dup = xcalloc((size_t)c->nhosts + 1, sizeof(*dup));
	for (int i = 1; i < hi.n; i++) {
		const struct cluster_host *orig;

		if (strcasecmp(hi.v[i].name, hi.v[first].name) != 0) {
			first = i;
			continue;
		}
		orig = &c->hosts[hi.v[first].idx];
		dup[hi.v[i].idx] = true;
		conf_diag_error(d, c->path, c->hosts[hi.v[i].idx].line,
		    "host %s is already listed at line %d; ignored",
		    hi.v[i].name, conf_line_no(orig->line));
	}
	for (int i = 0; i < c->nhosts; i++) {
		if (dup[i])
			host_free(&c->hosts[i]);
		else
			c->hosts[n++] = c->hosts[i];
	}
	c->nhosts = n;
	free(dup);
	host_index_release(&hi);
}

void
cluster_conf_read(struct lsf_config *cfg, const char *path,
    struct conf_diag *d)
{
	struct cluster_conf *c = &cfg->cluster;
	struct conf_file f;
	struct conf_sections secs;
	int host_line = 0;

	c->path = xstrdup(path);
	if (conf_file_read(&f, path, 0, d) < 0) {
		conf_diag_error(d, path, 0, "cannot read: %s",
		    strerror(errno));
		conf_file_release(&f);
		return;
	}
	conf_sections_read(&f, &secs, d);
	for (int i = 0; i < secs.n; i++) {
		const struct conf_section *sec = &secs.v[i];
		struct conf_kvs kv;
		struct conf_table t;

		if (strcasecmp(sec->name, "Parameters") == 0 ||
		    strcasecmp(sec->name, "ClusterAdmins") == 0) {
			conf_kvs_read(&f, sec, 0, &kv, d);
			if (strcasecmp(sec->name, "Parameters") == 0)
				read_params(c, &kv, d);
			else
				read_admins(c, &kv, d);
			conf_kvs_release(&kv);
		} else if (strcasecmp(sec->name, "Host") == 0) {
			if (host_line == 0)
				host_line = sec->line;
			conf_table_read(&f, sec, &t, d);
			read_hosts(cfg, &t, d);
			conf_table_release(&t);
		} else if (strcasecmp(sec->name, "ResourceMap") == 0) {
			conf_table_read(&f, sec, &t, d);
			read_resmap(cfg, &t, d);
			conf_table_release(&t);
		} else {
			conf_diag_warn(d, path, sec->line,
			    "unknown section %s ignored", sec->name);
		}
	}
	drop_duplicates(c, d);
	if (c->nhosts == 0)
		conf_diag_error(d, path, host_line,
		    "no hosts (a Host section with at least one host)");
	conf_sections_release(&secs);
	conf_file_release(&f);
}

void
cluster_conf_release(struct cluster_conf *c)
{
	free(c->path);
	free(c->name);
	strv_release(&c->admins);
	for (int i = 0; i < c->nhosts; i++)
		host_free(&c->hosts[i]);
	free(c->hosts);
	strv_release(&c->resmap_names);
	strv_release(&c->resmap_locations);
	cluster_conf_init(c);
}
