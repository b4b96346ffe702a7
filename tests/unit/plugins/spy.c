/*
 * A plug-in that keeps what it was told (check_fsadjust looks at it
 * through spy_get) and gives each account its shares plus a tenth of its
 * depth; -1 for an account named "neg".
 */
#include <stdlib.h>
#include <string.h>

#include "lsf-fsadjust.h"

LSF_FSADJUST_PLUGIN;

#define SPY_MAX	32

static struct lsf_fs_account seen[SPY_MAX];
static char paths[SPY_MAX][64];
static int nseen;

const struct lsf_fs_account *spy_get(const char *);

/* What the last call for path was given (path and name are copies). */
const struct lsf_fs_account *
spy_get(const char *path)
{
	for (int i = 0; i < nseen; i++)
		if (strcmp(paths[i], path) == 0)
			return &seen[i];
	return NULL;
}

double
lsf_fairshare_adjust(const struct lsf_fs_account *a)
{
	const char *slash;
	int i;

	for (i = 0; i < nseen; i++)
		if (strcmp(paths[i], a->path) == 0)
			break;
	if (i == nseen && nseen < SPY_MAX)
		nseen++;
	if (i < SPY_MAX) {
		seen[i] = *a;
		strncpy(paths[i], a->path, sizeof(paths[i]) - 1);
		seen[i].path = paths[i];
		slash = strrchr(paths[i], '/');
		seen[i].name = slash ? slash + 1 : paths[i];
		seen[i].envdir = NULL;
		seen[i].tree = NULL;
	}
	if (strcmp(a->name, "neg") == 0)
		return -1;
	return a->shares + a->depth / 10.0;
}
