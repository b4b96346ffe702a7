/*
 * Where the history database is, and opening it as bhist and bacct do:
 * the cluster's, named by the lsf.conf the commands read, read-only, and
 * the invoker's user name for their default selection.  A failure is
 * said and exits 255.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <sqlite3.h>

#include "client.h"
#include "conf.h"
#include "history.h"
#include "util.h"

char *
hist_db_path(const struct lsf_config *c)
{
	if (c->lsf.hist_dir != NULL)
		return xasprintf("%s/%s", c->lsf.hist_dir, HISTORY_DB_NAME);
	return xasprintf("%s/%s/logdir/%s", c->lsf.sharedir, c->cluster.name,
	    HISTORY_DB_NAME);
}

struct hist_db *
hist_db_open_cmd(const char *prog, char **pathp)
{
	const struct lsf_config *c = client_config(CONF_SHARED);
	struct hist_db *h;
	char *path, *cause;

	if (c->lsf.sharedir == NULL && c->lsf.hist_dir == NULL)
		die("LSB_SHAREDIR is not set in %s", c->lsf.path ?
		    c->lsf.path : "lsf.conf");
	path = hist_db_path(c);
	if ((h = hist_db_open_ro(path, &cause)) == NULL) {
		fprintf(stderr, "%s: %s\n", prog, cause);
		exit(255);
	}
	if (pathp != NULL)
		*pathp = path;
	else
		free(path);
	return h;
}

int64_t *
hist_rowids(sqlite3_stmt *st, size_t *n)
{
	int64_t *v = NULL;
	size_t cap = 0;
	int rc;

	*n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 1024;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[(*n)++] = sqlite3_column_int64(st, 0);
	}
	if (rc != SQLITE_DONE)
		die("%s", sqlite3_errmsg(sqlite3_db_handle(st)));
	sqlite3_reset(st);
	return v;
}

#define HIST_CHUNK_ROWS	1000	/* a millisecond or two of lookups */

void
hist_rows_each(sqlite3_stmt *by_id, const int64_t *ids, size_t n,
    void (*fn)(sqlite3_value **, void *), void *arg)
{
	sqlite3 *db = sqlite3_db_handle(by_id);
	size_t ncol = (size_t)sqlite3_column_count(by_id), want, got;
	sqlite3_value **rows;

	rows = xcalloc(HIST_CHUNK_ROWS * ncol, sizeof(*rows));
	for (size_t i = 0; i < n; i += want) {
		want = n - i < HIST_CHUNK_ROWS ? n - i : HIST_CHUNK_ROWS;
		got = 0;
		if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
			die("%s", sqlite3_errmsg(db));
		for (size_t k = 0; k < want; k++) {
			int rc;

			sqlite3_bind_int64(by_id, 1, ids[i + k]);
			if ((rc = sqlite3_step(by_id)) == SQLITE_ROW) {
				sqlite3_value **row = rows + got++ * ncol;

				for (size_t c = 0; c < ncol; c++)
					if ((row[c] = sqlite3_value_dup(
					    sqlite3_column_value(by_id,
					    (int)c))) == NULL)
						die("out of memory");
			} else if (rc != SQLITE_DONE)
				die("%s", sqlite3_errmsg(db));
			sqlite3_reset(by_id);
		}
		if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
			die("%s", sqlite3_errmsg(db));
		/* Out of the transaction: fn may take its time. */
		for (size_t k = 0; k < got; k++) {
			fn(rows + k * ncol, arg);
			for (size_t c = 0; c < ncol; c++)
				sqlite3_value_free(rows[k * ncol + c]);
		}
	}
	free(rows);
}

char *
hist_invoker(void)
{
	struct passwd *pw = getpwuid(getuid());

	if (pw == NULL)
		die("cannot find your user name");
	return xstrdup(pw->pw_name);
}
