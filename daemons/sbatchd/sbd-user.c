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

/* What a supervisor kept of name is out of date (sbatchd knows no such
 * user now): the next user_get asks again. */
void
user_forget(const char *name)
{
	if (name == NULL)
		return;
	for (struct sbd_user *u = users; u; u = u->next)
		if (strcmp(u->name, name) == 0)
			u->fetched_ms = 0;
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

void
user_pack(struct wbuf *w, const struct sbd_user *u)
{
	put_bool(w, u != NULL);
	if (u == NULL)
		return;
	put_str(w, u->name);
	put_str(w, u->pw.pw_name);
	put_u32(w, (uint32_t)u->pw.pw_uid);
	put_u32(w, (uint32_t)u->pw.pw_gid);
	put_str(w, u->pw.pw_dir);
	put_str(w, u->pw.pw_shell);
	put_u32(w, (uint32_t)u->ngroups);
	for (int i = 0; i < u->ngroups; i++)
		put_u32(w, (uint32_t)u->groups[i]);
}

/*
 * In a spare supervisor: the entry sbatchd had, fresh from now on, in
 * place of what the spare's copy of the cache had (maybe nothing).
 * *none: sbatchd had none (the user is unknown to it).
 */
bool
user_unpack_install(struct rbuf *r, bool *none)
{
	struct sbd_user *u, tmp;
	uint32_t uid, gid, n;
	bool have;
	char *name = NULL;

	*none = false;
	if (!get_bool(r, &have))
		return false;
	if (!have) {
		*none = true;
		return true;
	}
	memset(&tmp, 0, sizeof(tmp));
	if (!get_str(r, &name) || !get_str(r, &tmp.pw.pw_name) ||
	    !get_u32(r, &uid) || !get_u32(r, &gid) ||
	    !get_str(r, &tmp.pw.pw_dir) || !get_str(r, &tmp.pw.pw_shell) ||
	    !get_count(r, &n, sizeof(uint32_t)) || name == NULL ||
	    tmp.pw.pw_name == NULL)
		goto bad;
	tmp.groups = xcalloc(n ? n : 1, sizeof(*tmp.groups));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t g;

		if (!get_u32(r, &g))
			goto bad;
		tmp.groups[i] = (gid_t)g;
	}
	tmp.ngroups = (int)n;
	for (u = users; u; u = u->next)
		if (strcmp(u->name, name) == 0)
			break;
	if (u == NULL) {
		u = xcalloc(1, sizeof(*u));
		u->name = name;
		u->next = users;
		users = u;
	} else {
		free(name);
		user_clear(u);
	}
	u->pw.pw_name = tmp.pw.pw_name;
	u->pw.pw_passwd = (char *)"x";
	u->pw.pw_uid = (uid_t)uid;
	u->pw.pw_gid = (gid_t)gid;
	u->pw.pw_gecos = (char *)"";
	u->pw.pw_dir = tmp.pw.pw_dir ? tmp.pw.pw_dir : xstrdup("/");
	u->pw.pw_shell = tmp.pw.pw_shell ? tmp.pw.pw_shell : xstrdup("/bin/sh");
	u->groups = tmp.groups;
	u->ngroups = tmp.ngroups;
	u->fetched_ms = mono_ms();
	return true;
bad:
	free(name);
	free(tmp.pw.pw_name);
	free(tmp.pw.pw_dir);
	free(tmp.pw.pw_shell);
	free(tmp.groups);
	return false;
}
