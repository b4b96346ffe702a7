/*
 * Job users: their passwd entry and group list, looked up in sbatchd and
 * kept a few seconds.  A supervisor is forked from sbatchd, so it and
 * the job's process find the entry in memory: a job becomes its user
 * with setgroups(2) instead of an initgroups(3) that reads /etc/group
 * and loads the NSS modules again in every fresh child.  A group change
 * reaches new jobs within USER_VALID_MS, as a new login would see it.
 */
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sbd.h"

#define USER_VALID_MS	10000

static struct sbd_user *users;

static void
user_clear(struct sbd_user *u)
{
	free(u->pw.pw_name);
	free(u->pw.pw_dir);
	free(u->pw.pw_shell);
	free(u->groups);
	u->pw.pw_name = u->pw.pw_dir = u->pw.pw_shell = NULL;
	u->groups = NULL;
	u->ngroups = 0;
}

static int
user_fill(struct sbd_user *u, const char *name)
{
	struct passwd *pw = getpwnam(name);
	int n = 32;
	gid_t *g;

	if (pw == NULL)
		return -1;
	u->pw.pw_name = xstrdup(pw->pw_name);
	u->pw.pw_passwd = (char *)"x";
	u->pw.pw_uid = pw->pw_uid;
	u->pw.pw_gid = pw->pw_gid;
	u->pw.pw_gecos = (char *)"";
	u->pw.pw_dir = xstrdup(pw->pw_dir ? pw->pw_dir : "/");
	u->pw.pw_shell = xstrdup(pw->pw_shell ? pw->pw_shell : "/bin/sh");
	for (;;) {
		int want = n;

		g = xcalloc((size_t)n, sizeof(*g));
		if (getgrouplist(u->pw.pw_name, u->pw.pw_gid, g, &want) >= 0) {
			n = want;
			break;
		}
		free(g);
		if (want <= n || want > 65536) {
			/* Cannot be listed: the primary group alone. */
			g = xcalloc(1, sizeof(*g));
			g[0] = u->pw.pw_gid;
			n = 1;
			break;
		}
		n = want;
	}
	u->groups = g;
	u->ngroups = n;
	u->fetched_ms = mono_ms();
	return 0;
}

const struct sbd_user *
user_get(const char *name)
{
	struct sbd_user *u;

	if (name == NULL || *name == '\0')
		return NULL;
	for (u = users; u; u = u->next)
		if (strcmp(u->name, name) == 0)
			break;
	if (u && mono_ms() - u->fetched_ms < USER_VALID_MS)
		return u;
	if (u == NULL) {
		u = xcalloc(1, sizeof(*u));
		u->name = xstrdup(name);
		u->next = users;
		users = u;
	} else {
		user_clear(u);
	}
	if (user_fill(u, name) < 0) {
		/* Unknown (now): asked again next time. */
		user_clear(u);
		u->fetched_ms = 0;
		return NULL;
	}
	return u;
}

/* As root: the user's groups, group and uid.  Otherwise nothing (the
 * callers check what they need). */
int
user_become(const struct sbd_user *u)
{
	if (geteuid() != 0)
		return 0;
	if (setgroups((size_t)u->ngroups, u->groups) < 0 ||
	    setgid(u->pw.pw_gid) < 0 || setuid(u->pw.pw_uid) < 0)
		return -1;
	return 0;
}
