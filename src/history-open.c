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

char *
hist_invoker(void)
{
	struct passwd *pw = getpwuid(getuid());

	if (pw == NULL)
		die("cannot find your user name");
	return xstrdup(pw->pw_name);
}
