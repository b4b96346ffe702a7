/*
 * The fairshare adjustment plug-in, loaded with dlopen (rules in
 * include/fsadjust.h and include/lsf-fsadjust.h).
 */
#include <sys/stat.h>

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fsadjust.h"
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
