/*
 * The fairshare adjustment plug-in in mbatchd: LSF_LIBDIR/
 * libfairshareadjust.so, loaded at start and at each badmin reconfig,
 * asked for every account's adjustment before each scheduling pass
 * (libfairshareadjust(3); the work is src/fsadjust.c's).  Without it,
 * or in a tree whose FAIRSHARE_ADJUSTMENT_FACTOR is 0, every adjustment
 * is 0.
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
/* Bad values are logged once per library loaded. */
static bool bad_logged;

void
fsadjust_refresh(int64_t now)
{
	struct lsf_fs_account base;
	char badpath[256];
	bool any = false;
	int nbad;

	if (plugin == NULL && !given)
		return;
	memset(&base, 0, sizeof(base));
	base.now = now;
	base.envdir = mbd->conf.lsf.envdir;
	for (int i = 0; i < mbd->nfs; i++) {
		struct mfs *m = mbd->fs[i];

		if (m == NULL || m->tree == NULL)
			continue;
		if (plugin == NULL || m->tree->f.adjust == 0) {
			if (given)
				fsadjust_tree_clear(m->tree);
			continue;
		}
		base.partition = m->hpart != NULL;
		base.tree = m->hpart != NULL ? m->hpart->name :
		    m->qconf != NULL ? m->qconf->name : "";
		nbad = fsadjust_tree(plugin, m->tree, &base, badpath,
		    sizeof(badpath));
		any = true;
		if (nbad > 0 && !bad_logged) {
			bad_logged = true;
			log_errx("%s: %d values negative, NaN or infinite in "
			    "%s, the first for account %s: taken as 0 (logged "
			    "once)", fsadjust_path(plugin), nbad, base.tree,
			    badpath);
		}
	}
	given = any;
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
