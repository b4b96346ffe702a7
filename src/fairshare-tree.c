/*
 * Share trees: the accounts of one FAIRSHARE or host partition, and the
 * usage charged to them.  Pure code; see include/fairshare.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare.h"
#include "util.h"

static struct fs_node *
node_new(struct fs_node *parent, const char *name, int shares,
    enum fs_kind kind, bool leaf, int order)
{
	struct fs_node *n = xcalloc(1, sizeof(*n));

	n->name = xstrdup(name);
	n->shares = shares;
	n->kind = kind;
	n->leaf = leaf;
	n->hpos = -1;
	n->parent = parent;
	if (parent != NULL) {
		n->depth = parent->depth + 1;
		n->order = order;
		if (parent->nkids == parent->akids) {
			parent->akids = parent->akids ? parent->akids * 2 : 4;
			parent->kids = xrealloc(parent->kids,
			    (size_t)parent->akids * sizeof(*parent->kids));
		}
		parent->kids[parent->nkids++] = n;
	}
	return n;
}

static void
shares_copy(struct fs_shares *dst, const struct fs_shares *src)
{
	dst->n = src->n;
	dst->v = xcalloc((size_t)src->n + 1, sizeof(*dst->v));
	for (int i = 0; i < src->n; i++) {
		dst->v[i] = src->v[i];
		dst->v[i].name = xstrdup(src->v[i].name);
	}
}

static bool
on_path(const struct fs_node *n, const char *group)
{
	for (; n != NULL && n->parent != NULL; n = n->parent)
		if (strcmp(n->name, group) == 0)
			return true;
	return false;
}

/* A group with USER_SHARES of its own, not already above n: its
 * entries, parsed and classified into sub. */
static bool
group_shares(struct fs_tree *t, const struct fs_node *n, const char *group,
    struct fs_shares *sub)
{
	const char *text, *why;

	if (t->g.shares_of == NULL || n->depth + 1 >= FS_MAX_DEPTH ||
	    on_path(n, group) || (text = t->g.shares_of(group, t->g.arg)) ==
	    NULL)
		return false;
	if (fs_shares_parse(text, sub, &why) < 0 || sub->n == 0) {
		fs_shares_release(sub);
		return false;
	}
	fs_classify(sub, t->g.is_group, t->g.arg);
	return true;
}

/* The children n's entries name now; default and group@ ones come with
 * their users. */
static void
build(struct fs_tree *t, struct fs_node *n)
{
	for (int i = 0; i < n->sub.n; i++) {
		const struct fs_share *e = &n->sub.v[i];
		struct fs_shares sub = { 0 };
		struct fs_node *k;

		switch (e->kind) {
		case FS_USER:
			node_new(n, e->name, e->shares, e->kind, true, i);
			t->nleaves++;
			break;
		case FS_OTHERS:
			node_new(n, "others", e->shares, e->kind, true, i);
			t->nleaves++;
			break;
		case FS_GROUP:
			if (group_shares(t, n, e->name, &sub)) {
				k = node_new(n, e->name, e->shares, e->kind,
				    false, i);
				k->sub = sub;
				build(t, k);
			} else {
				node_new(n, e->name, e->shares, e->kind, true,
				    i);
				t->nleaves++;
			}
			break;
		case FS_GROUP_EACH:
		case FS_DEFAULT:
			break;
		}
	}
}

struct fs_tree *
fs_tree_new(const char *key, const struct fs_shares *shares,
    const struct fs_factors *f, const struct fs_groups *g)
{
	struct fs_tree *t = xcalloc(1, sizeof(*t));

	t->key = xstrdup(key);
	t->f = *f;
	if (g != NULL)
		t->g = *g;
	t->root = node_new(NULL, "", 1, FS_GROUP, false, 0);
	shares_copy(&t->root->sub, shares);
	fs_classify(&t->root->sub, t->g.is_group, t->g.arg);
	build(t, t->root);
	return t;
}

static void
node_free(struct fs_node *n)
{
	for (int i = 0; i < n->nkids; i++)
		node_free(n->kids[i]);
	fs_shares_release(&n->sub);
	free(n->kids);
	free(n->heap);
	free(n->accts);
	free(n->name);
	free(n);
}

void
fs_tree_free(struct fs_tree *t)
{
	if (t == NULL)
		return;
	node_free(t->root);
	free(t->key);
	free(t);
}

static struct fs_node *
kid(const struct fs_node *n, const char *name, bool each)
{
	for (int i = 0; i < n->nkids; i++) {
		struct fs_node *k = n->kids[i];
		bool k_each = k->kind == FS_DEFAULT ||
		    k->kind == FS_GROUP_EACH;

		if (k_each == each && strcmp(k->name, name) == 0)
			return k;
	}
	return NULL;
}

struct fs_node *
fs_tree_account(struct fs_tree *t, const char *user)
{
	struct fs_node *n = t->root, *k;

	for (;;) {
		int i = fs_account_of(&n->sub, user, t->g.in_group, t->g.arg);
		const struct fs_share *e;

		if (i < 0)
			return NULL;
		e = &n->sub.v[i];
		switch (e->kind) {
		case FS_USER:
			return kid(n, e->name, false);
		case FS_OTHERS:
			return kid(n, "others", false);
		case FS_GROUP:
			if ((k = kid(n, e->name, false)) == NULL)
				return NULL;
			if (k->leaf)
				return k;
			n = k;
			continue;
		case FS_GROUP_EACH:
		case FS_DEFAULT:
			if ((k = kid(n, user, true)) == NULL) {
				k = node_new(n, user, e->shares, e->kind, true,
				    i);
				t->nleaves++;
			}
			return k;
		}
		return NULL;
	}
}

static void
walk(struct fs_node *n, void (*fn)(struct fs_node *, void *), void *arg)
{
	fn(n, arg);
	for (int i = 0; i < n->nkids; i++)
		walk(n->kids[i], fn, arg);
}

void
fs_tree_walk(struct fs_tree *t, void (*fn)(struct fs_node *, void *),
    void *arg)
{
	walk(t->root, fn, arg);
}

size_t
fs_node_path(const struct fs_node *n, char *buf, size_t size)
{
	const struct fs_node *up[FS_MAX_DEPTH + 1];
	int nup = 0;
	size_t len = 0;

	for (; n != NULL && n->parent != NULL && nup <= FS_MAX_DEPTH;
	    n = n->parent)
		up[nup++] = n;
	if (size > 0)
		buf[0] = '\0';
	while (nup-- > 0) {
		int w = snprintf(buf + (len < size ? len : size),
		    len < size ? size - len : 0, "%s%s", len ? "/" : "",
		    up[nup]->name);

		if (w > 0)
			len += (size_t)w;
	}
	return len;
}

/* The decayed run of n's running jobs brought to when (never back). */
static void
drun_advance(struct fs_node *n, int64_t when, double hist_hours)
{
	if (n->drun_at != 0 && when > n->drun_at)
		n->drun = fs_run_decayed(n->drun, n->njobs,
		    (double)(when - n->drun_at) / 3600, hist_hours);
	if (when > n->drun_at)
		n->drun_at = when;
}

/* One job's decayed run hours, started at start, as of at. */
static double
drun_one(int64_t start, int64_t at, double hist_hours)
{
	if (at <= start)
		return 0;
	return fs_run_decayed(0, 1, (double)(at - start) / 3600, hist_hours);
}

void
fs_charge_start(struct fs_node *n, const struct fs_factors *f, int slots,
    int64_t start)
{
	for (; n != NULL; n = n->parent) {
		/* A job restored after later ones (replay, reconfig)
		 * brings what it ran up to drun_at. */
		drun_advance(n, start, f->hist_hours);
		n->drun += drun_one(start, n->drun_at, f->hist_hours);
		n->njobs++;
		n->start_sum += start;
		n->slots += slots;
	}
}

void
fs_charge_cpu(struct fs_node *n, double hours)
{
	for (; n != NULL; n = n->parent)
		n->run_cpu += hours;
}

/* value (as of *at) decayed to when, plus add; *at becomes when.  Usage
 * older than *at (a late end, a restored record) is decayed to *at. */
static void
history_add(double *value, int64_t *at, double add, int64_t when,
    double hist_hours)
{
	if (*at != 0 && when > *at)
		*value = fs_decay(*value, (double)(when - *at) / 3600,
		    hist_hours);
	else if (when < *at)
		add = fs_decay(add, (double)(*at - when) / 3600, hist_hours);
	if (when > *at)
		*at = when;
	*value += add;
}

void
fs_charge_end(struct fs_node *n, const struct fs_factors *f, int slots,
    int64_t start, double run_cpu, double cpu, int64_t end)
{
	double run = end > start ? (double)(end - start) / 3600 : 0;

	/* With RUN_TIME_DECAY the run goes to history decayed as it was
	 * counted while the job ran. */
	if (f->run_decay)
		run = drun_one(start, end, f->hist_hours);
	for (; n != NULL; n = n->parent) {
		drun_advance(n, end, f->hist_hours);
		n->drun -= drun_one(start, n->drun_at, f->hist_hours);
		n->njobs--;
		n->start_sum -= start;
		n->slots -= slots;
		n->run_cpu -= run_cpu;
		if (n->njobs == 0) {
			/* No rounding left over when nothing runs. */
			n->run_cpu = 0;
			n->start_sum = 0;
			n->drun = 0;
		} else if (n->drun < 0) {
			n->drun = 0;
		}
		if (cpu > 0)
			history_add(&n->cpu_hours, &n->cpu_at, cpu, end,
			    f->hist_hours);
		if (f->hist_run && run > 0)
			history_add(&n->hrun_hours, &n->hrun_at, run, end,
			    f->hist_hours);
	}
}

void
fs_charge_history(struct fs_node *n, const struct fs_factors *f,
    double cpu_hours, int64_t cpu_at, double hrun_hours, int64_t hrun_at)
{
	for (; n != NULL; n = n->parent) {
		if (cpu_hours > 0)
			history_add(&n->cpu_hours, &n->cpu_at, cpu_hours,
			    cpu_at, f->hist_hours);
		if (hrun_hours > 0)
			history_add(&n->hrun_hours, &n->hrun_at, hrun_hours,
			    hrun_at, f->hist_hours);
	}
}

static double
decayed(double value, int64_t at, int64_t now, double hist_hours)
{
	if (at == 0 || now <= at)
		return value;
	return fs_decay(value, (double)(now - at) / 3600, hist_hours);
}

double
fs_node_cpu(const struct fs_node *n, const struct fs_factors *f, int64_t now)
{
	double run_cpu = n->run_cpu > 0 ? n->run_cpu : 0;

	return decayed(n->cpu_hours, n->cpu_at, now, f->hist_hours) + run_cpu;
}

double
fs_node_run(const struct fs_node *n, const struct fs_factors *f, int64_t now)
{
	double run = 0;

	if (n->njobs > 0 && f->run_decay) {
		run = n->drun_at != 0 && now > n->drun_at ?
		    fs_run_decayed(n->drun, n->njobs,
		    (double)(now - n->drun_at) / 3600, f->hist_hours) : n->drun;
		if (run < 0)
			run = 0;
	} else if (n->njobs > 0) {
		run = ((double)n->njobs * (double)now - (double)n->start_sum) /
		    3600;
		if (run < 0)
			run = 0;
	}
	if (f->hist_run)
		run += decayed(n->hrun_hours, n->hrun_at, now, f->hist_hours);
	return run;
}

double
fs_node_priority(const struct fs_node *n, const struct fs_factors *f,
    int64_t now, int extra_slots)
{
	double d = fs_node_cpu(n, f, now) * f->cpu_time +
	    fs_node_run(n, f, now) * f->run_time +
	    (1 + n->slots + n->reserved + extra_slots) * f->run_job +
	    n->adjust * f->adjust;

	/* All factors 0: the shares alone order the accounts. */
	if (d < 1e-12)
		d = 1e-12;
	return (double)n->shares / d;
}
