/*
 * The fairshare adjustment plug-in in mbatchd: LSF_LIBDIR/
 * libfairshareadjust.so, loaded at start and at each badmin reconfig,
 * asked for every account's adjustment before each scheduling pass
 * (libfairshareadjust(3)).  Without it, or in a tree whose
 * FAIRSHARE_ADJUSTMENT_FACTOR is 0, every adjustment is 0.
 */
#include <stdlib.h>
#include <string.h>

#include "fairshare.h"
#include "fsadjust.h"
#include "log.h"
#include "mbd.h"

static struct fsadjust *plugin;
/* Whether any node may hold a value the plug-in gave (to clear). */
static bool given;
/* A bad value is logged once per library loaded. */
static bool bad_logged;

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
	const struct mfs *m;
	struct lsf_fs_account a;
	char		 path[1024];
	int64_t		 now;
	bool		 bad;
	const char	*bad_path;
};

/* Children first: a group's pending count is its subtree's. */
static int
adjust_node(struct walk *w, struct fs_node *n)
{
	const struct fs_tree *t = w->m->tree;
	int np = n->leaf ? leaf_pending(t, n) : 0;
	bool bad = false;

	for (int i = 0; i < n->nkids; i++)
		np += adjust_node(w, n->kids[i]);
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
	w->a.cpu_hours = fs_node_cpu(n, &t->f, w->now);
	w->a.run_hours = fs_node_run(n, &t->f, w->now);
	n->adjust = fsadjust_call(plugin, &w->a, &bad);
	if (bad && !w->bad) {
		w->bad = true;
		log_errx("%s: a value that is negative, NaN or infinite for "
		    "account %s of %s: taken as 0 (logged once)",
		    fsadjust_path(plugin), w->path, w->a.tree);
	}
	return np;
}

static void
clear_node(struct fs_node *n, void *arg)
{
	n->adjust = 0;
}

void
fsadjust_refresh(int64_t now)
{
	struct walk w;

	if (plugin == NULL && !given)
		return;
	memset(&w, 0, sizeof(w));
	w.now = now;
	w.bad = bad_logged;
	w.a.now = now;
	w.a.envdir = mbd->conf.lsf.envdir;
	given = false;
	for (int i = 0; i < mbd->nfs; i++) {
		struct mfs *m = mbd->fs[i];

		if (m == NULL || m->tree == NULL)
			continue;
		if (plugin == NULL || m->tree->f.adjust == 0) {
			fs_tree_walk(m->tree, clear_node, NULL);
			continue;
		}
		w.m = m;
		w.a.partition = m->hpart != NULL;
		w.a.tree = m->hpart != NULL ? m->hpart->name :
		    m->qconf != NULL ? m->qconf->name : "";
		adjust_node(&w, m->tree->root);
		given = true;
	}
	bad_logged = w.bad;
}

void
fsadjust_load(void)
{
	const char *dir = mbd->conf.lsf.libdir;
	struct fsadjust *fa = NULL;
	char *path, *cause = NULL;

	/*
	 * The old one goes first: dlopen of a path that is loaded gives
	 * the library loaded, not the file there now.
	 */
	fsadjust_close(plugin);
	plugin = NULL;
	bad_logged = false;
	if (dir != NULL && *dir != '\0') {
		path = xasprintf("%s/%s", dir, FSADJUST_LIBNAME);
		fa = fsadjust_open(path, &cause);
		if (fa != NULL)
			log_info("fairshare adjustment plug-in %s loaded",
			    path);
		else if (cause != NULL)
			log_errx("fairshare adjustment plug-in refused, "
			    "adjustments are 0: %s", cause);
		else
			log_debug("no fairshare adjustment plug-in %s", path);
		free(cause);
		free(path);
	} else
		log_debug("LSF_LIBDIR is not set: no fairshare adjustment "
		    "plug-in");
	plugin = fa;
}
