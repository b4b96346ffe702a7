/*
 * A sample fairshare adjustment plug-in (libfairshareadjust(3)): the
 * administrator gives accounts an adjustment by hand, in the file
 * LSF_ENVDIR/fairshare.adjust:
 *
 *	# account path		adjustment
 *	bio/ann			4
 *	alice			0.5
 *
 * An account is named by its path in the share tree ("bio/ann": user ann
 * under group bio; "alice": a top entry), in every tree it is in.
 * Accounts not listed get 0.  With FAIRSHARE_ADJUSTMENT_FACTOR=1, an
 * adjustment of 4 counts as four more slots held by the account's jobs.
 * Lines that are not a path and a number of 0 or more are ignored; of
 * two lines for one path, the later counts.
 *
 * The file is read again when it changes (looked at once a second at
 * most): no badmin reconfig is needed.
 *
 * Build and install it:
 *	cc -shared -fPIC -O2 -I$LSF_TOP/include \
 *	    -o $LSF_LIBDIR/libfairshareadjust.so fairshareadjust-sample.c
 *	badmin reconfig
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* asprintf */
#endif
#include <sys/stat.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsf-fsadjust.h"

LSF_FSADJUST_PLUGIN;

struct entry {
	char	*path;
	double	 value;
	size_t	 seq;		/* in the file */
};

static struct entry *entries;	/* sorted by path */
static size_t nentries;
static char *file;		/* the file read */
static int64_t looked;		/* when it was last looked at */
static struct timespec mtime;
static off_t size;

static int
path_cmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path,
	    ((const struct entry *)b)->path);
}

/* By path, then as in the file: the last line of a path is the last. */
static int
entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = path_cmp(a, b);

	return c != 0 ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void
entries_free(void)
{
	for (size_t i = 0; i < nentries; i++)
		free(entries[i].path);
	free(entries);
	entries = NULL;
	nentries = 0;
}

/* One "path value" line into e; 0 when it is not one. */
static int
parse_line(const char *p, struct entry *e)
{
	const char *path;
	char *end;
	size_t len;
	double v;

	p += strspn(p, " \t");
	if (*p == '#' || (len = strcspn(p, " \t\r\n")) == 0)
		return 0;
	path = p;
	p += len;
	v = strtod(p, &end);
	if (end == p || !isfinite(v) || v < 0)
		return 0;
	end += strspn(end, " \t\r\n");
	if (*end != '\0' && *end != '#')
		return 0;
	if ((e->path = strndup(path, len)) == NULL)
		return 0;
	e->value = v;
	return 1;
}

static void
entries_read(const char *path)
{
	struct entry e, *v;
	size_t cap = 0, ecap = 0;
	char *line = NULL;
	FILE *fp;

	entries_free();
	if ((fp = fopen(path, "r")) == NULL)
		return;
	while (getline(&line, &cap, fp) != -1) {
		if (!parse_line(line, &e))
			continue;
		if (nentries == ecap) {
			ecap = ecap ? ecap * 2 : 64;
			if ((v = realloc(entries, ecap * sizeof(*v))) == NULL) {
				free(e.path);
				break;
			}
			entries = v;
		}
		e.seq = nentries;
		entries[nentries++] = e;
	}
	free(line);
	fclose(fp);
	qsort(entries, nentries, sizeof(*entries), entry_cmp);
}

/* Read the file again if it changed, looking once a second at most. */
static void
refresh(const struct lsf_fs_account *a)
{
	struct stat st;
	char *path;

	if (a->envdir == NULL)
		return;
	if (asprintf(&path, "%s/fairshare.adjust", a->envdir) < 0)
		return;
	if (file != NULL && strcmp(file, path) == 0 && a->now == looked) {
		free(path);
		return;
	}
	looked = a->now;
	if (stat(path, &st) < 0)
		memset(&st, 0, sizeof(st));
	if (file != NULL && strcmp(file, path) == 0 &&
	    st.st_mtim.tv_sec == mtime.tv_sec &&
	    st.st_mtim.tv_nsec == mtime.tv_nsec && st.st_size == size) {
		free(path);
		return;
	}
	mtime = st.st_mtim;
	size = st.st_size;
	entries_read(path);
	free(file);
	file = path;
}

/* Unloaded at each badmin reconfig: leave nothing behind. */
__attribute__((destructor)) static void
fini(void)
{
	entries_free();
	free(file);
	file = NULL;
}

double
lsf_fairshare_adjust(const struct lsf_fs_account *a)
{
	struct entry key, *e;

	refresh(a);
	if (nentries == 0)
		return 0;
	key.path = (char *)a->path;
	e = bsearch(&key, entries, nentries, sizeof(*entries), path_cmp);
	if (e == NULL)
		return 0;
	while (e + 1 < entries + nentries && path_cmp(e, e + 1) == 0)
		e++;
	return e->value;
}
