/*
 * Fairshare in the configuration (issue 22): the factors of lsb.params
 * and lsb.queues, the checks that need every queue (FAIRSHARE_QUEUES and
 * QUEUE_GROUP), lsb.users' hierarchical USER_SHARES, and lsb.hosts'
 * HostPartition sections.  The share trees themselves are mbatchd's.
 */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf-lex.h"
#include "fairshare.h"

/* The factors LSF lets a queue override, in FSF_* order. */
static const struct fs_factor_key {
	const char	*key;
	unsigned	 bit;
	size_t		 off;
} factor_keys[] = {
	{ "CPU_TIME_FACTOR", FSF_CPU_TIME,
	    offsetof(struct fs_factors, cpu_time) },
	{ "RUN_TIME_FACTOR", FSF_RUN_TIME,
	    offsetof(struct fs_factors, run_time) },
	{ "RUN_JOB_FACTOR", FSF_RUN_JOB,
	    offsetof(struct fs_factors, run_job) },
	{ "FAIRSHARE_ADJUSTMENT_FACTOR", FSF_ADJUST,
	    offsetof(struct fs_factors, adjust) },
	{ "HIST_HOURS", FSF_HIST_HOURS,
	    offsetof(struct fs_factors, hist_hours) },
};

/* The switches a queue may also give, Y or N. */
static const struct fs_factor_key switch_keys[] = {
	{ "ENABLE_HIST_RUN_TIME", FSF_HIST_RUN,
	    offsetof(struct fs_factors, hist_run) },
	{ "RUN_TIME_DECAY", FSF_RUN_DECAY,
	    offsetof(struct fs_factors, run_decay) },
};

int
conf_fs_factor(const char *key, const char *val, struct fs_factors *f,
    unsigned *set, const char **why)
{
	char *end;
	double v;

	*why = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(switch_keys); i++) {
		bool b;

		if (strcasecmp(key, switch_keys[i].key) != 0)
			continue;
		if (conf_blank(val))
			return 1;
		if (conf_bool(val, &b) < 0) {
			*why = "must be Y or N";
			return 1;
		}
		*(bool *)(void *)((char *)f + switch_keys[i].off) = b;
		if (set != NULL)
			*set |= switch_keys[i].bit;
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(factor_keys); i++) {
		if (strcasecmp(key, factor_keys[i].key) != 0)
			continue;
		/* Empty: the default, as LSF has it. */
		if (conf_blank(val))
			return 1;
		v = strtod(val, &end);
		while (isspace((unsigned char)*end))
			end++;
		if (end == val || *end != '\0' || !isfinite(v) || v < 0 ||
		    v > 1e9) {
			*why = "must be a number >= 0";
			return 1;
		}
		*(double *)(void *)((char *)f + factor_keys[i].off) = v;
		if (set != NULL)
			*set |= factor_keys[i].bit;
		return 1;
	}
	return 0;
}

static const struct user_group *
ugroup(const struct lsf_config *cfg, const char *name)
{
	for (int i = 0; i < cfg->nugroups; i++)
		if (strcmp(cfg->ugroups[i].name, name) == 0)
			return &cfg->ugroups[i];
	return NULL;
}

static bool
is_ugroup(const char *name, void *arg)
{
	return ugroup(arg, name) != NULL;
}

/*
 * lsb.users
 */

/* A USER_SHARES entry of group g that is not one of its members: the
 * tree would give the share to no one there. */
static void
check_members(const struct user_group *g, const struct fs_shares *s,
    const char *path, struct conf_diag *d)
{
	if (strv_contains(&g->members, "all"))
		return;
	for (int i = 0; i < s->n; i++) {
		const char *n = s->v[i].name;
		size_t len = strlen(n);
		char *base;
		bool each, ok;

		if (strcmp(n, "default") == 0 || strcmp(n, "others") == 0)
			continue;
		/* group@: the group is a member, or this group itself. */
		each = len > 1 && n[len - 1] == '@';
		base = each ? xstrndup(n, len - 1) : xstrdup(n);
		ok = strv_contains(&g->members, base) ||
		    (each && strcmp(base, g->name) == 0);
		if (!ok)
			conf_diag_warn(d, path, g->line, "user group %s: "
			    "USER_SHARES names %s, which is not a member of "
			    "the group", g->name, n);
		free(base);
	}
}

/* The groups with USER_SHARES that group i's USER_SHARES names. */
static int
share_kids(struct lsf_config *cfg, int i, int **kids)
{
	struct fs_shares s = { 0 };
	const char *why;
	int n = 0;

	*kids = NULL;
	if (cfg->ugroups[i].shares == NULL ||
	    fs_shares_parse(cfg->ugroups[i].shares, &s, &why) < 0)
		return 0;
	fs_classify(&s, is_ugroup, cfg);
	*kids = xcalloc((size_t)s.n + 1, sizeof(**kids));
	for (int k = 0; k < s.n; k++) {
		const struct user_group *sub;

		if (s.v[k].kind != FS_GROUP ||
		    (sub = ugroup(cfg, s.v[k].name)) == NULL ||
		    sub->shares == NULL)
			continue;
		(*kids)[n++] = (int)(sub - cfg->ugroups);
	}
	fs_shares_release(&s);
	return n;
}

/*
 * Depth-first over the share edges; a group met again while it is on
 * the path closes a loop, reported once with every group on it.
 */
struct loop_walk {
	struct lsf_config	*cfg;
	const char		*path;
	struct conf_diag	*d;
	int			*state;		/* 0 new, 1 on path, 2 done */
	int			*stack;
	int			 depth;
};

static void
loop_visit(struct loop_walk *w, int i)
{
	int *kids, n;

	w->state[i] = 1;
	w->stack[w->depth++] = i;
	n = share_kids(w->cfg, i, &kids);
	for (int k = 0; k < n; k++) {
		int j = kids[k];
		struct strbuf sb;
		int from;

		if (w->state[j] == 0) {
			loop_visit(w, j);
			continue;
		}
		if (w->state[j] != 1)
			continue;
		for (from = w->depth - 1; from > 0 && w->stack[from] != j;
		    from--)
			;
		sb_init(&sb);
		for (int s = from; s < w->depth; s++)
			sb_addf(&sb, "%s -> ",
			    w->cfg->ugroups[w->stack[s]].name);
		sb_addf(&sb, "%s", w->cfg->ugroups[j].name);
		conf_diag_error(w->d, w->path, w->cfg->ugroups[j].line,
		    "user group %s: USER_SHARES leads back to it (%s)",
		    w->cfg->ugroups[j].name, sb.buf);
		sb_release(&sb);
	}
	free(kids);
	w->depth--;
	w->state[i] = 2;
}

void
lsb_users_check_shares(struct lsf_config *cfg, const char *path,
    struct conf_diag *d)
{
	struct loop_walk w = { cfg, path, d, NULL, NULL, 0 };

	for (int i = 0; i < cfg->nugroups; i++) {
		struct fs_shares s = { 0 };
		const char *why;

		if (cfg->ugroups[i].shares == NULL ||
		    fs_shares_parse(cfg->ugroups[i].shares, &s, &why) < 0)
			continue;
		check_members(&cfg->ugroups[i], &s, path, d);
		fs_shares_release(&s);
	}
	w.state = xcalloc((size_t)cfg->nugroups + 1, sizeof(*w.state));
	w.stack = xcalloc((size_t)cfg->nugroups + 1, sizeof(*w.stack));
	for (int i = 0; i < cfg->nugroups; i++)
		if (w.state[i] == 0)
			loop_visit(&w, i);
	free(w.state);
	free(w.stack);
}

/*
 * lsb.hosts: Begin HostPartition, key = value lines.
 */

static int
hpart_seen(const struct lsf_config *cfg, const char *name)
{
	for (int i = 0; i < cfg->nhparts; i++)
		if (strcmp(cfg->hparts[i].name, name) == 0)
			return cfg->hparts[i].line;
	return 0;
}

void
lsb_hosts_read_partition(struct lsf_config *cfg, const struct conf_file *f,
    const struct conf_section *sec, struct conf_diag *d)
{
	struct conf_kvs kv;
	struct host_partition hp;
	const char *name, *hosts = NULL, *shares = NULL, *why;
	int shares_line = sec->line;

	name = conf_named_section(f, sec, "HPART_NAME", "host partition",
	    hpart_seen, cfg, &kv, d);
	if (name == NULL)
		goto out;
	for (int i = 0; i < kv.n; i++) {
		const char *k = kv.v[i].key;

		if (strcasecmp(k, "HOSTS") == 0)
			hosts = kv.v[i].val;
		else if (strcasecmp(k, "USER_SHARES") == 0) {
			shares = kv.v[i].val;
			shares_line = kv.v[i].line;
		} else if (strcasecmp(k, "HPART_NAME") != 0)
			conf_diag_warn(d, f->path, kv.v[i].line, "host "
			    "partition %s: unknown parameter %s ignored", name,
			    k);
	}
	if (conf_blank(hosts) || conf_blank(shares)) {
		conf_diag_error(d, f->path, sec->line, "host partition %s has "
		    "no %s; ignored", name, conf_blank(hosts) ? "HOSTS" :
		    "USER_SHARES");
		goto out;
	}
	memset(&hp, 0, sizeof(hp));
	if (fs_shares_parse(shares, &hp.shares, &why) < 0) {
		conf_diag_error(d, f->path, shares_line, "host partition %s: "
		    "bad USER_SHARES \"%s\": %s; ignored", name, shares, why);
		goto out;
	}
	fs_classify(&hp.shares, is_ugroup, cfg);
	hp.name = xstrdup(name);
	hp.line = sec->line;
	hp.shares_text = xstrdup(shares);
	strv_init(&hp.hosts);
	strv_split_ws(&hp.hosts, hosts);
	cfg->hparts = conf_grow(cfg->hparts, cfg->nhparts,
	    sizeof(*cfg->hparts));
	cfg->hparts[cfg->nhparts++] = hp;
out:
	conf_kvs_release(&kv);
}

/* A list word's host or group name: no "~", no "+pref". */
static char *
word_name(const char *w)
{
	const char *plus;

	if (*w == '~')
		w++;
	plus = strrchr(w, '+');
	if (plus != NULL)
		for (const char *p = plus + 1; *p; p++)
			if (!isdigit((unsigned char)*p)) {
				plus = NULL;
				break;
			}
	return xstrndup(w, plus ? (size_t)(plus - w) : strlen(w));
}

/*
 * Which partition each cluster host is in (-1: none), by index into
 * cluster.hosts; with d set, names that are no host or group are dropped
 * from HOSTS and a host in two partitions reported, else quietly.
 */
static int *
hpart_owners(struct lsf_config *cfg, const char *path, struct conf_diag *d)
{
	int nh = cfg->cluster.nhosts;
	int *owner = xcalloc((size_t)nh + 1, sizeof(*owner));
	struct host_index hi;

	for (int i = 0; i < nh; i++)
		owner[i] = -1;
	host_index_build(&hi, &cfg->cluster);
	for (int p = 0; p < cfg->nhparts; p++) {
		struct host_partition *hp = &cfg->hparts[p];
		struct strv out = STRV_INIT, bad = STRV_INIT;
		int *clash = xcalloc((size_t)cfg->nhparts + 1, sizeof(*clash));
		const char **first = xcalloc((size_t)cfg->nhparts + 1,
		    sizeof(*first));

		config_expand_hosts(cfg, &hp->hosts, &out, &bad);
		if (d != NULL && bad.n > 0) {
			size_t k = 0;

			for (size_t i = 0; i < hp->hosts.n; i++) {
				char *n = word_name(hp->hosts.v[i]);

				if (strv_contains(&bad, n)) {
					conf_diag_warn(d, path, hp->line,
					    "host partition %s: HOSTS names "
					    "%s, not a server host or host "
					    "group; left out", hp->name, n);
					free(hp->hosts.v[i]);
				} else
					hp->hosts.v[k++] = hp->hosts.v[i];
				free(n);
			}
			hp->hosts.n = k;
			hp->hosts.v[k] = NULL;
		}
		if (d != NULL && out.n == 0)
			conf_diag_warn(d, path, hp->line, "host partition %s: "
			    "HOSTS leaves no host", hp->name);
		for (size_t i = 0; i < out.n; i++) {
			int h = host_index_find(&hi, out.v[i]);

			if (h < 0)
				continue;
			if (owner[h] < 0) {
				owner[h] = p;
			} else if (clash[owner[h]]++ == 0) {
				first[owner[h]] = cfg->cluster.hosts[h].name;
			}
		}
		for (int o = 0; d != NULL && o < p; o++) {
			if (clash[o] == 0)
				continue;
			if (clash[o] == 1)
				conf_diag_error(d, path, hp->line, "host %s is "
				    "in host partitions %s (line %d) and %s",
				    first[o], cfg->hparts[o].name,
				    conf_line_no(cfg->hparts[o].line),
				    hp->name);
			else
				conf_diag_error(d, path, hp->line, "host %s "
				    "and %d more are in host partitions %s "
				    "(line %d) and %s", first[o], clash[o] - 1,
				    cfg->hparts[o].name,
				    conf_line_no(cfg->hparts[o].line), hp->name);
		}
		free(clash);
		free(first);
		strv_release(&out);
		strv_release(&bad);
	}
	host_index_release(&hi);
	return owner;
}

void
lsb_hosts_check_partitions(struct lsf_config *cfg, const char *path,
    struct conf_diag *d)
{
	/* Without lsf.cluster's hosts there is nothing to expand against. */
	if (cfg->nhparts == 0 || cfg->cluster.nhosts == 0)
		return;
	free(hpart_owners(cfg, path, d));
}

void
lsb_hparts_release(struct lsf_config *cfg)
{
	for (int i = 0; i < cfg->nhparts; i++) {
		struct host_partition *hp = &cfg->hparts[i];

		free(hp->name);
		strv_release(&hp->hosts);
		free(hp->shares_text);
		fs_shares_release(&hp->shares);
	}
	free(cfg->hparts);
	cfg->hparts = NULL;
	cfg->nhparts = 0;
}

/*
 * lsb.queues, once every queue is read.
 */

/* The key the list was given with: FAIRSHARE_QUEUES or QUEUE_GROUP. */
static const char *
fsq_key(const struct queue_conf *q)
{
	const char *key = "FAIRSHARE_QUEUES";

	for (size_t i = 0; i < q->keys.n; i++)
		if (strcasecmp(q->keys.v[i], "QUEUE_GROUP") == 0)
			key = "QUEUE_GROUP";
		else if (strcasecmp(q->keys.v[i], "FAIRSHARE_QUEUES") == 0)
			key = "FAIRSHARE_QUEUES";
	return key;
}

/* Drop the queues a master cannot take, with a warning each; what is
 * kept is claimed in owner[] (by queue index) against a second master. */
static void
check_fsq(struct lsf_config *cfg, struct queue_conf *q, int *owner,
    const char *path, struct conf_diag *d)
{
	const char *key = fsq_key(q);
	struct strv *l = &q->fairshare_queues;
	size_t k = 0;

	if (q->fs_shares.n == 0) {
		conf_diag_warn(d, path, q->fairshare_queues_line, "queue %s: "
		    "%s without FAIRSHARE in this queue; ignored", q->name,
		    key);
		strv_release(l);
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct queue_conf *o = config_queue(cfg, l->v[i]);
		const char *why = NULL;
		char *why2 = NULL;
		bool twice = false;

		for (size_t j = 0; j < k; j++)
			twice = twice || strcmp(l->v[j], l->v[i]) == 0;
		if (o == NULL)
			why = "is not a queue";
		else if (o == q)
			why = "is this queue";
		else if (twice)
			why = "is named twice";
		else if (o->fairshare != NULL)
			why = "has a FAIRSHARE of its own";
		else if (owner[o - cfg->queues] >= 0)
			why = why2 = xasprintf("is already in the share tree "
			    "of queue %s", cfg->queues[owner[o -
			    cfg->queues]].name);
		if (why != NULL) {
			conf_diag_warn(d, path, q->fairshare_queues_line,
			    "queue %s: %s: %s %s; ignored", q->name, key,
			    l->v[i], why);
			free(why2);
			free(l->v[i]);
			continue;
		}
		owner[o - cfg->queues] = (int)(q - cfg->queues);
		l->v[k++] = l->v[i];
	}
	l->n = k;
	if (l->v != NULL)
		l->v[k] = NULL;
}

/* A queue-level fairshare queue whose hosts a partition holds: LSF
 * forbids both; we keep the queue's and say so. */
static void
check_hpart_overlap(const struct lsf_config *cfg, const struct queue_conf *q,
    const int *owner, int line, const char *path, struct conf_diag *d)
{
	struct host_index hi;
	struct strv out = STRV_INIT, all = STRV_INIT;
	bool *said = xcalloc((size_t)cfg->nhparts + 1, sizeof(*said));

	strv_push(&all, "all");
	host_index_build(&hi, &cfg->cluster);
	config_expand_hosts(cfg, q->hosts.n > 0 ? &q->hosts : &all, &out,
	    NULL);
	for (size_t i = 0; i < out.n; i++) {
		int h = host_index_find(&hi, out.v[i]), p;

		if (h < 0 || (p = owner[h]) < 0 || said[p])
			continue;
		said[p] = true;
		conf_diag_warn(d, path, line, "queue %s: its hosts are in "
		    "host partition %s (lsb.hosts line %d): queue-level "
		    "fairshare is used; the partition does not apply to it",
		    q->name, cfg->hparts[p].name,
		    conf_line_no(cfg->hparts[p].line));
	}
	strv_release(&out);
	strv_release(&all);
	host_index_release(&hi);
	free(said);
}

void
lsb_queues_check_fairshare(struct lsf_config *cfg, const char *path,
    struct conf_diag *d)
{
	int n = cfg->nqueues;
	int *owner = xcalloc((size_t)n + 1, sizeof(*owner));
	int *hp_owner = NULL;

	for (int i = 0; i < n; i++) {
		struct queue_conf *q = &cfg->queues[i];
		struct fs_factors own = q->fs_factors;
		unsigned set = q->fs_factors_set;

		owner[i] = -1;
		fs_classify(&q->fs_shares, is_ugroup, cfg);
		q->fs_factors = cfg->params.fs_factors;
		for (size_t k = 0; k < ARRAY_SIZE(factor_keys); k++) {
			size_t off = factor_keys[k].off;

			if (set & factor_keys[k].bit)
				*(double *)(void *)((char *)&q->fs_factors +
				    off) = *(double *)(void *)((char *)&own +
				    off);
		}
		for (size_t k = 0; k < ARRAY_SIZE(switch_keys); k++) {
			size_t off = switch_keys[k].off;

			if (set & switch_keys[k].bit)
				*(bool *)(void *)((char *)&q->fs_factors +
				    off) = *(bool *)(void *)((char *)&own +
				    off);
		}
	}
	for (int i = 0; i < n; i++)
		if (cfg->queues[i].fairshare_queues.n > 0)
			check_fsq(cfg, &cfg->queues[i], owner, path, d);
	/* DISPATCH_ORDER belongs to the master of a cross-queue set. */
	for (int i = 0; i < n; i++) {
		const struct queue_conf *q = &cfg->queues[i];

		if (q->dispatch_order_queue && q->fairshare_queues.n == 0)
			conf_diag_warn(d, path, q->dispatch_order_line,
			    "queue %s: DISPATCH_ORDER = QUEUE without "
			    "FAIRSHARE_QUEUES (or QUEUE_GROUP) in this queue "
			    "has no effect", q->name);
	}
	if (cfg->nhparts > 0 && cfg->cluster.nhosts > 0)
		hp_owner = hpart_owners(cfg, NULL, NULL);
	for (int i = 0; hp_owner != NULL && i < n; i++) {
		const struct queue_conf *q = &cfg->queues[i];

		if (q->fs_shares.n > 0)
			check_hpart_overlap(cfg, q, hp_owner, q->fairshare_line,
			    path, d);
		else if (owner[i] >= 0)
			check_hpart_overlap(cfg, q, hp_owner, q->line, path,
			    d);
	}
	free(hp_owner);
	free(owner);
}
