/* lsb.users: user groups (UserGroup) and per-user job limits (User). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf-lex.h"
#include "fairshare.h"

static const struct user_group *
find_ugroup(const struct lsf_config *cfg, const char *name)
{
	for (int i = 0; i < cfg->nugroups; i++)
		if (strcmp(cfg->ugroups[i].name, name) == 0)
			return &cfg->ugroups[i];
	return NULL;
}

/* Warn lists: columns LSF has that this version reads and ignores;
 * man/lsb.users.5 lists them. */
static const char *const group_warn[] = {
	"GROUP_ADMIN",
	"PRIORITY",
	NULL
};
static const char *const user_warn[] = {
	"PRIORITY",
	NULL
};

const char *const *
lsb_users_warn_cols(void)
{
	return group_warn;
}

const char *const *
lsb_userlimits_warn_cols(void)
{
	return user_warn;
}

static void
read_groups(struct lsf_config *cfg, const char *path,
    const struct conf_table *t, struct conf_diag *d)
{
	static const char *const known[] = { "GROUP_NAME", "GROUP_MEMBER",
	    "USER_SHARES", "GROUP_ADMIN", "PRIORITY", NULL };
	int cn = conf_table_col(t, "GROUP_NAME");
	int cm = conf_table_col(t, "GROUP_MEMBER");
	int cs = conf_table_col(t, "USER_SHARES");

	if (!conf_need_col(t, path, "UserGroup", "GROUP_NAME", d) ||
	    !conf_need_col(t, path, "UserGroup", "GROUP_MEMBER", d))
		return;
	conf_check_cols(t, path, known, NULL, false, d);
	conf_warn_cols("lsb.users", group_warn, path, t, "UserGroup", d);
	for (int i = 0; i < t->nrows; i++) {
		const struct conf_row *r = &t->rows[i];
		const char *name = conf_cell(r, cn);
		const char *mem = conf_cell(r, cm);
		const char *shares = conf_cell(r, cs);
		const struct user_group *old;
		struct user_group *g;

		if (name == NULL) {
			conf_diag_error(d, path, r->line, "empty GROUP_NAME");
			continue;
		}
		if ((old = find_ugroup(cfg, name)) != NULL) {
			conf_diag_error(d, path, r->line,
			    "user group %s is already defined at line %d; "
			    "ignored", name, conf_line_no(old->line));
			continue;
		}
		cfg->ugroups = conf_grow(cfg->ugroups, cfg->nugroups,
		    sizeof(*cfg->ugroups));
		g = &cfg->ugroups[cfg->nugroups++];
		g->name = xstrdup(name);
		g->line = r->line;
		strv_init(&g->members);
		if (mem != NULL)
			strv_split_ws(&g->members, mem);
		g->shares = shares ? xstrdup(shares) : NULL;
		if (shares != NULL) {
			struct fs_shares fs = { 0 };
			const char *why;

			if (fs_shares_parse(shares, &fs, &why) < 0)
				conf_diag_error(d, path, r->line, "user group "
				    "%s: bad USER_SHARES \"%s\": %s", name,
				    shares, why);
			fs_shares_release(&fs);
		}
		if (g->members.n == 0)
			conf_diag_warn(d, path, r->line,
			    "user group %s has no members", name);
	}
}

/* "-" (or "()") is unlimited; otherwise a count >= 0. */
static int
limit_int(const char *v, int *out)
{
	if (v == NULL) {
		*out = -1;
		return 0;
	}
	return conf_int(v, 0, INT_MAX, out);
}

static void
read_users(struct lsf_config *cfg, const char *path,
    const struct conf_table *t, struct conf_diag *d)
{
	static const char *const known[] = { "USER_NAME", "MAX_JOBS", "JL/P",
	    "MAX_PEND_JOBS", "MAX_PEND_SLOTS", "PRIORITY", NULL };
	int cn = conf_table_col(t, "USER_NAME");

	if (!conf_need_col(t, path, "User", "USER_NAME", d))
		return;
	conf_check_cols(t, path, known, NULL, false, d);
	conf_warn_cols("lsb.users", user_warn, path, t, "User", d);
	for (int i = 0; i < t->nrows; i++) {
		const struct conf_row *r = &t->rows[i];
		const char *name = conf_cell(r, cn);
		const char *mj = conf_cell(r, conf_table_col(t, "MAX_JOBS"));
		const char *jlp = conf_cell(r, conf_table_col(t, "JL/P"));
		const char *mpj = conf_cell(r,
		    conf_table_col(t, "MAX_PEND_JOBS"));
		const char *mps = conf_cell(r,
		    conf_table_col(t, "MAX_PEND_SLOTS"));
		struct user_limit *u;
		bool dup = false;

		if (name == NULL) {
			conf_diag_error(d, path, r->line, "empty USER_NAME");
			continue;
		}
		for (int j = 0; j < cfg->nulimits; j++)
			if (strcmp(cfg->ulimits[j].name, name) == 0) {
				conf_diag_error(d, path, r->line,
				    "user %s is already listed at line %d; "
				    "ignored", name, conf_line_no(cfg->ulimits[j].line));
				dup = true;
				break;
			}
		if (dup)
			continue;
		cfg->ulimits = conf_grow(cfg->ulimits, cfg->nulimits,
		    sizeof(*cfg->ulimits));
		u = &cfg->ulimits[cfg->nulimits++];
		u->name = xstrdup(name);
		u->line = r->line;
		u->jl_p = -1;
		if (limit_int(mj, &u->max_jobs) < 0) {
			conf_diag_error(d, path, r->line,
			    "user %s: MAX_JOBS must be a number or -, not "
			    "\"%s\"", name, mj);
			u->max_jobs = -1;
		}
		if (limit_int(mpj, &u->max_pend_jobs) < 0) {
			conf_diag_error(d, path, r->line,
			    "user %s: MAX_PEND_JOBS must be a number or -, not "
			    "\"%s\"", name, mpj);
			u->max_pend_jobs = -1;
		}
		if (limit_int(mps, &u->max_pend_slots) < 0) {
			conf_diag_error(d, path, r->line,
			    "user %s: MAX_PEND_SLOTS must be a number or -, "
			    "not \"%s\"", name, mps);
			u->max_pend_slots = -1;
		}
		if (jlp != NULL && conf_float(jlp, 0, 1e9, &u->jl_p) < 0) {
			conf_diag_error(d, path, r->line,
			    "user %s: JL/P must be a number or -, not \"%s\"",
			    name, jlp);
			u->jl_p = -1;
		}
	}
}

void
lsb_users_read(struct lsf_config *cfg, const char *path, struct conf_diag *d)
{
	static const struct conf_table_kind kinds[] = {
		{ "UserGroup", read_groups },
		{ "User", read_users },
		{ NULL, NULL }
	};

	conf_read_tables(cfg, path, kinds, d);
	lsb_users_check_shares(cfg, path, d);
}

void
lsb_users_release(struct lsf_config *cfg)
{
	for (int i = 0; i < cfg->nugroups; i++) {
		free(cfg->ugroups[i].name);
		strv_release(&cfg->ugroups[i].members);
		free(cfg->ugroups[i].shares);
	}
	free(cfg->ugroups);
	for (int i = 0; i < cfg->nulimits; i++)
		free(cfg->ulimits[i].name);
	free(cfg->ulimits);
	cfg->ugroups = NULL;
	cfg->nugroups = 0;
	cfg->ulimits = NULL;
	cfg->nulimits = 0;
}
