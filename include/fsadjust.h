/*
 * Loading the fairshare adjustment plug-in (include/lsf-fsadjust.h) and
 * calling it: mbatchd's side, apart from mbatchd so that it is tested
 * alone.  Daemons only: the static commands cannot load libraries.
 */
#ifndef LSF_FSADJUST_LOAD_H
#define LSF_FSADJUST_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "lsf-fsadjust.h"

/* The library's name in LSF_LIBDIR. */
#define FSADJUST_LIBNAME	"libfairshareadjust.so"

struct fsadjust;

/*
 * Load the plug-in at path.  NULL with *cause NULL: there is no such
 * file (no plug-in, which is normal); NULL with *cause (allocated): it
 * is there but refused (dlopen failed, a symbol is missing, the version
 * is not ours).
 */
struct fsadjust *fsadjust_open(const char *path, char **cause);
void	 fsadjust_close(struct fsadjust *);
const char *fsadjust_path(const struct fsadjust *);
/* The plug-in's version as the library declares it. */
int	 fsadjust_version(const struct fsadjust *);
/*
 * The plug-in's value for a (its version set here).  One that is
 * negative, NaN or infinite gives 0 and sets *bad.
 */
double	 fsadjust_call(const struct fsadjust *, struct lsf_fs_account *a,
	    bool *bad);

/*
 * Every account's adjust in t from the plug-in, as of base->now (base
 * gives now, envdir, tree and partition; the rest is filled here per
 * account).  Returns how many values were bad (taken as 0), the path of
 * the first in badpath.
 */
struct fs_tree;
int	 fsadjust_tree(const struct fsadjust *, struct fs_tree *t,
	    const struct lsf_fs_account *base, char *badpath, size_t size);
/* Every account's adjust in t to 0. */
void	 fsadjust_tree_clear(struct fs_tree *t);

#endif
