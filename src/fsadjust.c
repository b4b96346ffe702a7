/*
 * The fairshare adjustment plug-in, loaded with dlopen (rules in
 * include/fsadjust.h and include/lsf-fsadjust.h).
 */
#include <sys/stat.h>

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare.h"
#include "fsadjust.h"
#include "policy.h"
#include "util.h"

struct fsadjust {
	char		*path;
	void		*dl;
	int		 version;
	double		(*fn)(const struct lsf_fs_account *);
};

struct fsadjust *
fsadjust_open(const char *path, char **cause)
{
	struct fsadjust *fa;
	const int *ver;
	struct stat st;
	void *dl, *sym;
	const char *e;

	*cause = NULL;
	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			*cause = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	/* RTLD_NOW: an unresolved symbol is found here, not in a pass. */
	if ((dl = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		e = dlerror();
		*cause = xasprintf("%s", e != NULL ? e : path);
		return NULL;
	}
	if ((ver = dlsym(dl, "lsf_fairshare_adjust_version")) == NULL) {
		*cause = xasprintf("%s: no lsf_fairshare_adjust_version: not "
		    "built with LSF_FSADJUST_PLUGIN (lsf-fsadjust.h)", path);
		dlclose(dl);
		return NULL;
	}
	if (*ver != LSF_FSADJUST_VERSION) {
		*cause = xasprintf("%s: built for plug-in interface version "
		    "%d, mbatchd has version %d", path, *ver,
		    LSF_FSADJUST_VERSION);
		dlclose(dl);
		return NULL;
	}
	if ((sym = dlsym(dl, "lsf_fairshare_adjust")) == NULL) {
		*cause = xasprintf("%s: no function lsf_fairshare_adjust",
		    path);
		dlclose(dl);
		return NULL;
	}
	fa = xcalloc(1, sizeof(*fa));
	fa->path = xstrdup(path);
	fa->dl = dl;
	fa->version = *ver;
	/* POSIX: a function's address from dlsym converts so. */
	*(void **)&fa->fn = sym;
	return fa;
}

void
fsadjust_close(struct fsadjust *fa)
{
	if (fa == NULL)
		return;
	dlclose(fa->dl);
	free(fa->path);
	free(fa);
}

const char *
fsadjust_path(const struct fsadjust *fa)
{
	return fa->path;
}

int
fsadjust_version(const struct fsadjust *fa)
{
	return fa->version;
}

double
fsadjust_call(const struct fsadjust *fa, struct lsf_fs_account *a, bool *bad)
{
	double v;

	a->version = LSF_FSADJUST_VERSION;
	v = fa->fn(a);
	if (!isfinite(v) || v < 0) {
		*bad = true;
		return 0;
	}
	return v;
}

/* The pending jobs of a leaf, over the queues its tree orders. */
static int
leaf_pending(const struct fs_tree *t, const struct fs_node *n)
{
	int np = 0;

	if (n->accts == NULL)
		return 0;
	for (int i = 0; i < t->nqueues; i++)
		if (n->accts[i] != NULL)
			np += n->accts[i]->npend;
	return np;
}

struct walk {
	const struct fsadjust *fa;
	const struct fs_tree *t;
	struct lsf_fs_account a;
	char		 path[1024];
	int		 nbad;
	char		*badpath;
	size_t		 badsize;
};

/* Children first: a group's pending count is its subtree's. */
static int
walk_node(struct walk *w, struct fs_node *n)
{
	int np = n->leaf ? leaf_pending(w->t, n) : 0;
	bool bad = false;

	for (int i = 0; i < n->nkids; i++)
		np += walk_node(w, n->kids[i]);
	if (n->parent == NULL)
		return np;
	fs_node_path(n, w->path, sizeof(w->path));
	w->a.path = w->path;
	w->a.name = n->name;
	w->a.group = n->kind == FS_GROUP || n->kind == FS_OTHERS || !n->leaf;
	w->a.leaf = n->leaf;
	w->a.depth = n->depth;
	w->a.shares = n->shares;
	w->a.started = n->slots;
	w->a.reserved = n->reserved;
	w->a.running = n->njobs;
	w->a.pending = np;
	w->a.cpu_hours = fs_node_cpu(n, &w->t->f, w->a.now);
	w->a.run_hours = fs_node_run(n, &w->t->f, w->a.now);
	n->adjust = fsadjust_call(w->fa, &w->a, &bad);
	if (bad && w->nbad++ == 0 && w->badsize > 0)
		snprintf(w->badpath, w->badsize, "%s", w->path);
	return np;
}

int
fsadjust_tree(const struct fsadjust *fa, struct fs_tree *t,
    const struct lsf_fs_account *base, char *badpath, size_t size)
{
	struct walk w;

	memset(&w, 0, sizeof(w));
	w.fa = fa;
	w.t = t;
	w.a = *base;
	w.badpath = badpath;
	w.badsize = size;
	if (size > 0)
		badpath[0] = '\0';
	walk_node(&w, t->root);
	return w.nbad;
}

static void
clear_node(struct fs_node *n, void *arg)
{
	n->adjust = 0;
}

void
fsadjust_tree_clear(struct fs_tree *t)
{
	fs_tree_walk(t, clear_node, NULL);
}
