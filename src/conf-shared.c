/* $LSF_CONFDIR/lsf.shared: Cluster, HostType, HostModel, Resource. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf-lex.h"

/* Names LIM gives every host; a site resource may not reuse them. */
static const char *const builtin_res[] = {
	"type", "model", "hname", "status", "ncpus", "nprocs", "ncores",
	"nthreads", "ndisks", "maxmem", "maxswp", "maxtmp", "cpuf", "server",
	"rexpri", NULL
};

static void
read_clusters(struct shared_conf *s, const struct conf_table *t,
    struct conf_diag *d)
{
	static const char *const known[] = { "CLUSTERNAME", "SERVERS", NULL };
	int c = conf_table_col(t, "CLUSTERNAME");

	if (!conf_need_col(t, s->path, "Cluster", "ClusterName", d))
		return;
	conf_check_cols(t, s->path, known, NULL, false, d);
	for (int i = 0; i < t->nrows; i++) {
		const char *name = conf_cell(&t->rows[i], c);

		if (name == NULL)
			conf_diag_error(d, s->path, t->rows[i].line,
			    "empty cluster name");
		else if (strv_contains(&s->clusters, name))
			conf_diag_error(d, s->path, t->rows[i].line,
			    "cluster %s listed twice", name);
		else
			strv_push(&s->clusters, name);
	}
}

static void
read_types(struct shared_conf *s, const struct conf_table *t,
    struct conf_diag *d)
{
	static const char *const known[] = { "TYPENAME", NULL };
	int c = conf_table_col(t, "TYPENAME");

	if (!conf_need_col(t, s->path, "HostType", "TYPENAME", d))
		return;
	conf_check_cols(t, s->path, known, NULL, false, d);
	for (int i = 0; i < t->nrows; i++) {
		const char *name = conf_cell(&t->rows[i], c);

		if (name == NULL)
			conf_diag_error(d, s->path, t->rows[i].line,
			    "empty host type");
		else if (strv_contains(&s->host_types, name))
			conf_diag_error(d, s->path, t->rows[i].line,
			    "host type %s defined twice", name);
		else
			strv_push(&s->host_types, name);
	}
}

static void
read_models(struct shared_conf *s, const struct conf_table *t,
    struct conf_diag *d)
{
	static const char *const known[] = { "MODELNAME", "CPUFACTOR",
	    "ARCHITECTURE", NULL };
	int cn = conf_table_col(t, "MODELNAME");
	int cf = conf_table_col(t, "CPUFACTOR");
	int ca = conf_table_col(t, "ARCHITECTURE");

	if (!conf_need_col(t, s->path, "HostModel", "MODELNAME", d) ||
	    !conf_need_col(t, s->path, "HostModel", "CPUFACTOR", d))
		return;
	conf_check_cols(t, s->path, known, NULL, false, d);
	for (int i = 0; i < t->nrows; i++) {
		const struct conf_row *r = &t->rows[i];
		const char *name = conf_cell(r, cn), *cpuf = conf_cell(r, cf);
		const char *arch = conf_cell(r, ca);
		struct host_model *m;
		float f = 0;
		bool dup = false;

		if (name == NULL) {
			conf_diag_error(d, s->path, r->line,
			    "empty host model");
			continue;
		}
		for (int j = 0; j < s->nmodels; j++)
			if (strcmp(s->models[j].name, name) == 0)
				dup = true;
		if (dup) {
			conf_diag_error(d, s->path, r->line,
			    "host model %s defined twice", name);
			continue;
		}
		if (cpuf == NULL || conf_float(cpuf, 0, 1e6, &f) < 0 ||
		    f <= 0) {
			conf_diag_error(d, s->path, r->line,
			    "CPUFACTOR of %s must be a positive number, "
			    "not \"%s\"", name, cpuf ? cpuf : "");
			f = 1;
		}
		s->models = conf_grow(s->models, s->nmodels,
		    sizeof(*s->models));
		m = &s->models[s->nmodels++];
		m->name = xstrdup(name);
		m->cpuf = f;
		m->arch = arch ? xstrdup(arch) : NULL;
	}
}

static bool
valid_res_name(const char *s)
{
	if (!isalpha((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static void
read_resource(struct shared_conf *s, const struct conf_table *t,
    const struct conf_row *r, struct conf_diag *d)
{
	int cn = conf_table_col(t, "RESOURCENAME");
	const char *name = conf_cell(r, cn);
	const char *type = conf_cell(r, conf_table_col(t, "TYPE"));
	const char *iv = conf_cell(r, conf_table_col(t, "INTERVAL"));
	const char *inc = conf_cell(r, conf_table_col(t, "INCREASING"));
	const char *desc = conf_cell(r, conf_table_col(t, "DESCRIPTION"));
	const char *yn[2] = { conf_cell(r, conf_table_col(t, "RELEASE")),
	    conf_cell(r, conf_table_col(t, "CONSUMABLE")) };
	struct resource_def rd = { NULL, RES_BOOLEAN, 0, false, NULL };
	bool b;

	if (name == NULL) {
		conf_diag_error(d, s->path, r->line, "empty resource name");
		return;
	}
	if (!valid_res_name(name)) {
		conf_diag_error(d, s->path, r->line,
		    "bad resource name \"%s\": letters, digits and _, "
		    "starting with a letter", name);
		return;
	}
	if (load_index_lookup(name) >= 0 || conf_key_in(name, builtin_res)) {
		conf_diag_error(d, s->path, r->line,
		    "resource %s is built in and cannot be redefined", name);
		return;
	}
	if (shared_has_resource(s, name)) {
		conf_diag_error(d, s->path, r->line,
		    "resource %s defined twice", name);
		return;
	}
	if (type == NULL)
		conf_diag_error(d, s->path, r->line,
		    "resource %s has no TYPE", name);
	else if (strcasecmp(type, "Numeric") == 0)
		rd.type = RES_NUMERIC;
	else if (strcasecmp(type, "String") == 0)
		rd.type = RES_STRING;
	else if (strcasecmp(type, "Boolean") != 0)
		conf_diag_error(d, s->path, r->line,
		    "TYPE of %s must be Boolean, Numeric or String, not \"%s\"",
		    name, type);
	if (iv != NULL && conf_int(iv, 0, 86400 * 366, &rd.interval) < 0)
		conf_diag_error(d, s->path, r->line,
		    "INTERVAL of %s must be seconds, not \"%s\"", name, iv);
	if (inc != NULL) {
		if (conf_bool(inc, &b) < 0)
			conf_diag_error(d, s->path, r->line,
			    "INCREASING of %s must be Y or N, not \"%s\"",
			    name, inc);
		else
			rd.increasing = b;
	}
	for (int i = 0; i < 2; i++)
		if (yn[i] != NULL && conf_bool(yn[i], &b) < 0)
			conf_diag_error(d, s->path, r->line,
			    "%s of %s must be Y or N, not \"%s\"",
			    i == 0 ? "RELEASE" : "CONSUMABLE", name, yn[i]);
	rd.name = xstrdup(name);
	rd.desc = desc ? xstrdup(desc) : NULL;
	s->resources = conf_grow(s->resources, s->nresources,
	    sizeof(*s->resources));
	s->resources[s->nresources++] = rd;
}

static void
read_resources(struct shared_conf *s, const struct conf_table *t,
    struct conf_diag *d)
{
	static const char *const known[] = { "RESOURCENAME", "TYPE",
	    "INTERVAL", "INCREASING", "DESCRIPTION", "RELEASE", "CONSUMABLE",
	    NULL };

	if (!conf_need_col(t, s->path, "Resource", "RESOURCENAME", d) ||
	    !conf_need_col(t, s->path, "Resource", "TYPE", d))
		return;
	conf_check_cols(t, s->path, known, NULL, false, d);
	for (int i = 0; i < t->nrows; i++)
		read_resource(s, t, &t->rows[i], d);
}

void
shared_conf_read(struct shared_conf *s, const char *path, struct conf_diag *d)
{
	struct conf_file f;
	struct conf_sections secs;
	int cluster_line = 0;

	s->path = xstrdup(path);
	if (conf_file_read(&f, path, 0, d) < 0) {
		conf_diag_error(d, path, 0, "cannot read: %s",
		    strerror(errno));
		conf_file_release(&f);
		return;
	}
	conf_sections_read(&f, &secs, d);
	for (int i = 0; i < secs.n; i++) {
		const struct conf_section *sec = &secs.v[i];
		struct conf_table t;

		if (strcasecmp(sec->name, "Cluster") != 0 &&
		    strcasecmp(sec->name, "HostType") != 0 &&
		    strcasecmp(sec->name, "HostModel") != 0 &&
		    strcasecmp(sec->name, "Resource") != 0) {
			conf_diag_warn(d, path, sec->line,
			    "unknown section %s ignored", sec->name);
			continue;
		}
		conf_table_read(&f, sec, &t, d);
		if (strcasecmp(sec->name, "Cluster") == 0) {
			if (cluster_line == 0)
				cluster_line = sec->line;
			read_clusters(s, &t, d);
		} else if (strcasecmp(sec->name, "HostType") == 0) {
			read_types(s, &t, d);
		} else if (strcasecmp(sec->name, "HostModel") == 0) {
			read_models(s, &t, d);
		} else {
			read_resources(s, &t, d);
		}
		conf_table_release(&t);
	}
	if (s->clusters.n == 0)
		conf_diag_error(d, path, cluster_line,
		    "no cluster name (a Cluster section with a ClusterName "
		    "column)");
	conf_sections_release(&secs);
	conf_file_release(&f);
}

const struct resource_def *
shared_numeric(const struct shared_conf *s, const char *name)
{
	for (int i = 0; i < s->nresources; i++)
		if (strcmp(s->resources[i].name, name) == 0)
			return s->resources[i].type == RES_NUMERIC &&
			    s->resources[i].interval > 0 ?
			    &s->resources[i] : NULL;
	return NULL;
}

bool
shared_has_resource(const struct shared_conf *s, const char *name)
{
	for (int i = 0; i < s->nresources; i++)
		if (strcmp(s->resources[i].name, name) == 0)
			return true;
	return false;
}

void
shared_conf_release(struct shared_conf *s)
{
	free(s->path);
	strv_release(&s->clusters);
	strv_release(&s->host_types);
	for (int i = 0; i < s->nmodels; i++) {
		free(s->models[i].name);
		free(s->models[i].arch);
	}
	free(s->models);
	for (int i = 0; i < s->nresources; i++) {
		free(s->resources[i].name);
		free(s->resources[i].desc);
	}
	free(s->resources);
	memset(s, 0, sizeof(*s));
	strv_init(&s->clusters);
	strv_init(&s->host_types);
}

