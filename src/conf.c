/*
 * config_load() and the lookups on a loaded configuration.  The files are
 * read in the order LSF's daemons read them, each part only when the
 * caller asked for it: lsadmin needs no lsb.* files, commands often need
 * lsf.conf alone.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "conf-lex.h"

static void
config_init(struct lsf_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	lsf_conf_init(&cfg->lsf);
	strv_init(&cfg->shared.clusters);
	strv_init(&cfg->shared.host_types);
	cluster_conf_init(&cfg->cluster);
	lsb_params_init(&cfg->params);
}

void
config_release(struct lsf_config *cfg)
{
	lsf_conf_release(&cfg->lsf);
	hosts_file_release(cfg);
	shared_conf_release(&cfg->shared);
	cluster_conf_release(&cfg->cluster);
	lsb_params_release(&cfg->params);
	lsb_queues_release(cfg);
	lsb_hosts_release(cfg);
	lsb_users_release(cfg);
	lsb_apps_release(cfg);
	lsb_resources_release(cfg);
	free(cfg->lsb_dir);
	strv_release(&cfg->files);
	free(cfg->cluster_idx.slot);
	free(cfg->bhost_idx.slot);
	memset(cfg, 0, sizeof(*cfg));
}

struct diag_key {
	long	 line;
	size_t	 idx;
	char	*msg;
};

static int
diag_key_cmp(const void *a, const void *b)
{
	const struct diag_key *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Put the messages about path from index from on in line order: the
 * readers find some problems (the shape of a table, a key set twice)
 * before they look at values, but a person reads the file top down.
 * Messages about the file as a whole come last.
 */
static void
sort_by_line(struct conf_diag *d, size_t from, const char *path)
{
	size_t n = d->msgs.n - from, plen = strlen(path);
	struct diag_key *k;

	if (d->msgs.n <= from + 1)
		return;
	k = xcalloc(n, sizeof(*k));
	for (size_t i = 0; i < n; i++) {
		char *m = d->msgs.v[from + i];

		k[i].idx = i;
		k[i].msg = m;
		k[i].line = LONG_MAX;
		if (strncmp(m, path, plen) == 0 && m[plen] == ':' &&
		    isdigit((unsigned char)m[plen + 1]))
			k[i].line = strtol(m + plen + 1, NULL, 10);
	}
	qsort(k, n, sizeof(*k), diag_key_cmp);
	for (size_t i = 0; i < n; i++)
		d->msgs.v[from + i] = k[i].msg;
	free(k);
}

static bool
exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static void
add_default_queue(struct lsf_config *cfg)
{
	struct queue_conf *q;

	cfg->queues = xrealloc(cfg->queues, sizeof(*cfg->queues));
	q = &cfg->queues[0];
	queue_conf_init(q);
	q->name = xstrdup("default");
	q->fs_factors = cfg->params.fs_factors;
	cfg->nqueues = 1;
}

/* Where a file is read from: its own directory, or the saved copy. */
static char *
conf_path(const char *flat, const char *dir, const char *name)
{
	return xasprintf("%s/%s", flat != NULL ? flat : dir, name);
}

/* A file that exists is read, and noted for config_save. */
static bool
note(struct lsf_config *cfg, const char *path)
{
	if (!exists(path))
		return false;
	strv_push(&cfg->files, path);
	return true;
}

static void
load_lsb(struct lsf_config *cfg, const char *flat, struct conf_diag *d)
{
	char *path;
	size_t mark;
	int dq_line = 0;

	if (flat != NULL)
		cfg->lsb_dir = xstrdup(flat);
	else
		cfg->lsb_dir = xasprintf("%s/%s/configdir",
		    cfg->lsf.lsb_confdir, cfg->cluster.name);

	path = xasprintf("%s/lsb.params", cfg->lsb_dir);
	mark = d->msgs.n;
	if (note(cfg, path))
		lsb_params_read(&cfg->params, path, d, &dq_line);
	else
		conf_diag_warn(d, path, 0, "not found; using defaults");
	sort_by_line(d, mark, path);
	free(path);

	/* Users and host groups first: queues refer to them. */
	path = xasprintf("%s/lsb.users", cfg->lsb_dir);
	mark = d->msgs.n;
	if (note(cfg, path))
		lsb_users_read(cfg, path, d);
	sort_by_line(d, mark, path);
	free(path);
	path = xasprintf("%s/lsb.hosts", cfg->lsb_dir);
	mark = d->msgs.n;
	if (note(cfg, path))
		lsb_hosts_read(cfg, path, d);
	sort_by_line(d, mark, path);
	free(path);

	path = xasprintf("%s/lsb.queues", cfg->lsb_dir);
	mark = d->msgs.n;
	if (!note(cfg, path)) {
		conf_diag_warn(d, path, 0, "not found; using queue default");
	} else {
		lsb_queues_read(cfg, path, d);
		if (cfg->nqueues == 0)
			conf_diag_warn(d, path, 0,
			    "no queue defined; using queue default");
	}
	sort_by_line(d, mark, path);
	free(path);
	if (cfg->nqueues == 0)
		add_default_queue(cfg);

	/* Optional: without it there are no application profiles. */
	path = xasprintf("%s/lsb.applications", cfg->lsb_dir);
	mark = d->msgs.n;
	if (note(cfg, path))
		lsb_apps_read(cfg, path, d);
	sort_by_line(d, mark, path);
	free(path);
	if (cfg->params.default_application != NULL &&
	    config_app(cfg, cfg->params.default_application) == NULL)
		conf_diag_error(d, cfg->params.path,
		    cfg->params.default_application_line,
		    "DEFAULT_APPLICATION names %s, which is not an application "
		    "profile", cfg->params.default_application);

	/* Optional, and last: its limits name queues, hosts and groups. */
	path = xasprintf("%s/lsb.resources", cfg->lsb_dir);
	mark = d->msgs.n;
	if (note(cfg, path))
		lsb_resources_read(cfg, path, d);
	sort_by_line(d, mark, path);
	free(path);

	for (size_t i = 0; i < cfg->params.default_queue.n; i++) {
		const char *q = cfg->params.default_queue.v[i];

		if (config_queue(cfg, q) == NULL)
			conf_diag_warn(d, cfg->params.path, dq_line,
			    "DEFAULT_QUEUE names %s, which is not a queue", q);
	}
}

/*
 * Read the files from their directories, or with flat set every one of
 * them from there (a copy config_save made: the same names, side by
 * side).
 */
static unsigned
name_hash(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)tolower((unsigned char)*s)) *
		    16777619u;
	return h;
}

/* Index rows 0..n-1 of a table whose row i is named name(tab, i); the
 * first of two rows of one name is the one found, as a scan finds it. */
static void
nameidx_build(struct conf_nameidx *ix, const void *tab, int n,
    const char *(*name)(const void *, int))
{
	unsigned cap = 16;

	free(ix->slot);
	while (cap < 2u * (unsigned)n)
		cap *= 2;
	ix->slot = xcalloc(cap, sizeof(*ix->slot));
	ix->mask = cap - 1;
	ix->rows = n;
	for (int i = 0; i < n; i++) {
		const char *k = name(tab, i);
		unsigned b;

		if (k == NULL)
			continue;
		for (b = name_hash(k) & ix->mask; ix->slot[b];
		    b = (b + 1) & ix->mask)
			if (strcasecmp(name(tab, ix->slot[b] - 1), k) == 0)
				break;
		if (ix->slot[b] == 0)
			ix->slot[b] = i + 1;
	}
}

/* The row named key, -1 for none; -2 when the index is not of this
 * table (not built, or the table changed size since). */
static int
nameidx_find(const struct conf_nameidx *ix, const void *tab, int n,
    const char *(*name)(const void *, int), const char *key)
{
	if (ix->slot == NULL || ix->rows != n)
		return -2;
	for (unsigned b = name_hash(key) & ix->mask; ix->slot[b];
	    b = (b + 1) & ix->mask)
		if (strcasecmp(name(tab, ix->slot[b] - 1), key) == 0)
			return ix->slot[b] - 1;
	return -1;
}

static const char *
cluster_host_name(const void *tab, int i)
{
	return ((const struct cluster_host *)tab)[i].name;
}

static const char *
bhost_name(const void *tab, int i)
{
	return ((const struct lsb_host_conf *)tab)[i].name;
}

static int
load(struct lsf_config *cfg, const char *envdir, const char *flat,
    unsigned parts, struct conf_diag *d)
{
	struct conf_diag local;
	char *path, *name;
	size_t mark;
	int nerrors, rc;

	conf_diag_init(&local);
	if (d == NULL)
		d = &local;
	nerrors = d->nerrors;
	config_init(cfg);
	/* Each part needs the ones before it. */
	if (parts & CONF_LSB)
		parts |= CONF_CLUSTER;
	if (parts & CONF_CLUSTER)
		parts |= CONF_SHARED;
	parts |= CONF_LSF;
	if (flat != NULL)
		envdir = flat;
	if (envdir == NULL || *envdir == '\0')
		envdir = getenv("LSF_ENVDIR");
	if (envdir == NULL || *envdir == '\0')
		envdir = "/etc";

	mark = d->msgs.n;
	rc = lsf_conf_read(&cfg->lsf, envdir, parts, d);
	sort_by_line(d, mark, cfg->lsf.path);
	if (rc < 0)
		goto out;
	(void)note(cfg, cfg->lsf.path);
	path = conf_path(flat, cfg->lsf.confdir, "hosts");
	mark = d->msgs.n;
	if (note(cfg, path))
		hosts_file_read(cfg, path, d);
	sort_by_line(d, mark, path);
	free(path);
	cfg->loaded |= CONF_LSF;
	if (!(parts & CONF_SHARED))
		goto out;

	path = conf_path(flat, cfg->lsf.confdir, "lsf.shared");
	mark = d->msgs.n;
	(void)note(cfg, path);
	shared_conf_read(&cfg->shared, path, d);
	sort_by_line(d, mark, path);
	free(path);
	if (cfg->shared.clusters.n == 0)
		goto out;
	cfg->cluster.name = xstrdup(cfg->shared.clusters.v[0]);
	if (cfg->lsf.sbd_statedir == NULL && cfg->lsf.sharedir != NULL)
		cfg->lsf.sbd_statedir = xasprintf("%s/%s/sbd",
		    cfg->lsf.sharedir, cfg->cluster.name);
	cfg->loaded |= CONF_SHARED;
	if (!(parts & CONF_CLUSTER))
		goto out;

	name = xasprintf("lsf.cluster.%s", cfg->cluster.name);
	path = conf_path(flat, cfg->lsf.confdir, name);
	free(name);
	mark = d->msgs.n;
	(void)note(cfg, path);
	cluster_conf_read(cfg, path, d);
	sort_by_line(d, mark, path);
	free(path);
	nameidx_build(&cfg->cluster_idx, cfg->cluster.hosts,
	    cfg->cluster.nhosts, cluster_host_name);
	cfg->loaded |= CONF_CLUSTER;
	if (!(parts & CONF_LSB))
		goto out;

	load_lsb(cfg, flat, d);
	nameidx_build(&cfg->bhost_idx, cfg->bhosts, cfg->nbhosts, bhost_name);
	cfg->loaded |= CONF_LSB;
out:
	rc = d->nerrors > nerrors ? -1 : 0;
	conf_diag_release(&local);
	return rc;
}

int
config_load(struct lsf_config *cfg, const char *envdir, unsigned parts,
    struct conf_diag *d)
{
	return load(cfg, envdir, NULL, parts, d);
}

int
config_load_saved(struct lsf_config *cfg, const char *dir, unsigned parts,
    struct conf_diag *d)
{
	return load(cfg, NULL, dir, parts, d);
}

const struct queue_conf *
config_queue(const struct lsf_config *cfg, const char *name)
{
	if (name == NULL)
		return NULL;
	for (int i = 0; i < cfg->nqueues; i++)
		if (strcmp(cfg->queues[i].name, name) == 0)
			return &cfg->queues[i];
	return NULL;
}

/* Host names are DNS names: compared without case. */
const struct cluster_host *
config_cluster_host(const struct lsf_config *cfg, const char *name)
{
	int r;

	if (name == NULL)
		return NULL;
	r = nameidx_find(&cfg->cluster_idx, cfg->cluster.hosts,
	    cfg->cluster.nhosts, cluster_host_name, name);
	if (r >= 0)
		return &cfg->cluster.hosts[r];
	if (r == -1)
		return NULL;
	for (int i = 0; i < cfg->cluster.nhosts; i++)
		if (strcasecmp(cfg->cluster.hosts[i].name, name) == 0)
			return &cfg->cluster.hosts[i];
	return NULL;
}

void
config_master_candidates(const struct lsf_config *cfg, struct strv *out,
    struct strv *ignored)
{
	const struct strv *ml = &cfg->lsf.master_list;

	for (size_t i = 0; i < ml->n; i++) {
		const struct cluster_host *ch =
		    config_cluster_host(cfg, ml->v[i]);

		if (ch != NULL && ch->server)
			strv_push(out, ch->name);
		else if (ignored != NULL)
			strv_push(ignored, ml->v[i]);
	}
	if (ml->n > 0)
		return;
	for (int i = 0; i < cfg->cluster.nhosts; i++)
		if (cfg->cluster.hosts[i].server)
			strv_push(out, cfg->cluster.hosts[i].name);
}

bool
config_master_candidate(const struct lsf_config *cfg, const char *host)
{
	struct strv cand = STRV_INIT;
	bool yes;

	config_master_candidates(cfg, &cand, NULL);
	yes = false;
	for (size_t i = 0; i < cand.n && !yes; i++)
		yes = strcasecmp(cand.v[i], host) == 0;
	strv_release(&cand);
	return yes;
}

const struct cluster_host *
config_cluster_host_local(const struct lsf_config *cfg, const char *local)
{
	size_t ln = strcspn(local, ".");

	for (int i = 0; i < cfg->cluster.nhosts; i++) {
		const char *h = cfg->cluster.hosts[i].name;
		size_t hn = strcspn(h, ".");

		if (strcasecmp(h, local) == 0 || (hn == ln &&
		    strncasecmp(h, local, ln) == 0))
			return &cfg->cluster.hosts[i];
	}
	return NULL;
}

static const struct lsb_host_conf *
bhost_row(const struct lsf_config *cfg, const char *name)
{
	int r;

	if (name == NULL || strcmp(name, "!") == 0)
		return NULL;
	r = nameidx_find(&cfg->bhost_idx, cfg->bhosts, cfg->nbhosts,
	    bhost_name, name);
	if (r >= 0)
		return &cfg->bhosts[r];
	if (r == -1)
		return NULL;
	for (int i = 0; i < cfg->nbhosts; i++)
		if (strcasecmp(cfg->bhosts[i].name, name) == 0)
			return &cfg->bhosts[i];
	return NULL;
}

const struct lsb_host_conf *
config_lsb_host(const struct lsf_config *cfg, const char *host,
    const char *model, const char *type)
{
	const struct cluster_host *ch = config_cluster_host(cfg, host);
	const struct lsb_host_conf *r;

	/* Without a detected model or type, the configured one will do. */
	if (model == NULL && ch != NULL)
		model = ch->model;
	if (type == NULL && ch != NULL)
		type = ch->type;
	if ((r = bhost_row(cfg, host)) != NULL ||
	    (r = bhost_row(cfg, model)) != NULL ||
	    (r = bhost_row(cfg, type)) != NULL)
		return r;
	return bhost_row(cfg, "default");
}

const struct host_group *
config_host_group(const struct lsf_config *cfg, const char *name)
{
	if (name == NULL)
		return NULL;
	for (int i = 0; i < cfg->nhgroups; i++)
		if (strcmp(cfg->hgroups[i].name, name) == 0)
			return &cfg->hgroups[i];
	return NULL;
}

bool
config_is_admin(const struct lsf_config *cfg, const char *user)
{
	if (user == NULL)
		return false;
	return strcmp(user, "root") == 0 ||
	    strv_contains(&cfg->cluster.admins, user);
}
