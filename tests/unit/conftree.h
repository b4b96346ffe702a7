/*
 * Configuration trees for the Check suites that load whole files: a
 * mkdtemp() directory, files written into it (their directories made as
 * needed), and its removal.  Included once by each such suite.
 */
#ifndef CONFTREE_H
#define CONFTREE_H

#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

/* Where lsb.* files go in a tree whose cluster is c1. */
#define LSB	"conf/lsbatch/c1/configdir/"

static char dir[PATH_MAX];

/* A new tree, named after the suite. */
static inline void
tree_make(const char *suite)
{
	snprintf(dir, sizeof(dir), "%s/%s.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", suite);
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static inline int
tree_rm_one(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline void
tree_remove(void)
{
	nftw(dir, tree_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Write rel (under dir), creating the directories it needs. */
static inline void
put(const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", dir, rel);
	FILE *fp;

	for (char *p = path + strlen(dir) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			ck_abort_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
	free(path);
}

#endif
