/*
 * bugroup and bmgroup, one table of groups each: "GROUP_NAME USERS" or
 * "GROUP_NAME HOSTS", subgroups written "name/", -r expanding them to
 * their members, -l one block per group (with the shares of a user
 * group), -w names not cut.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-display.h"
#include "cmd-groups.h"
#include "cmdopt.h"
#include "conf.h"

enum { O_L = 1, O_R, O_W, O_HELP, O_VERSION };

#define GROUP_OPTS							\
	{ "l", false, O_L },						\
	{ "r", false, O_R },						\
	{ "w", false, O_W },						\
	{ "h", false, O_HELP },						\
	{ "V", false, O_VERSION }

static const struct cmdopt uopts[] = {
	GROUP_OPTS,
	{ NULL, false, 0 }
};

static const struct cmdopt mopts[] = {
	GROUP_OPTS,
	/* LSF's options this version does not do: refused by name. */
	CMDOPT_UNSUP("cu", false),
	{ NULL, false, 0 }
};

/* One group as both commands see it. */
struct grp {
	const char		*name;
	const struct strv	*members;
	const char		*shares;
};

struct groups {
	bool			 hosts;
	const struct lsf_config	*c;
	struct grp		*v;
	int			 n;
};

static void NORETURN
usage(bool hosts, int rc)
{
	fprintf(stderr, "Usage: %s [-h] [-V] [-r] [-l] [-w] [%s ...]\n",
	    hosts ? "bmgroup" : "bugroup",
	    hosts ? "host_group" : "user_group");
	exit(rc);
}

static const struct grp *
find(const struct groups *g, const char *name)
{
	for (int i = 0; i < g->n; i++)
		if (strcmp(g->v[i].name, name) == 0)
			return &g->v[i];
	return NULL;
}

/* LSF's words for a group of everyone. */
static const char *
all_text(const struct groups *g)
{
	return g->hosts ? "all hosts used by the LSF system" : "all users";
}

/* -r: members of subgroups in place of the subgroups, once each. */
static void
expand(const struct groups *g, const struct strv *in, struct strv *out,
    int depth)
{
	if (g->hosts) {
		config_expand_hosts(g->c, in, out, NULL);
		return;
	}
	for (size_t i = 0; i < in->n; i++) {
		const struct grp *sub = find(g, in->v[i]);

		if (sub != NULL && depth < 16)
			expand(g, sub->members, out, depth + 1);
		else if (!strv_contains(out, in->v[i]))
			strv_push(out, in->v[i]);
	}
}

static void
members_text(const struct groups *g, const struct grp *gr, bool recurse,
    struct strbuf *sb)
{
	struct strv ex = STRV_INIT;
	const struct strv *m = gr->members;

	/* Every user cannot be listed; every host can, with -r. */
	if (strv_contains(m, "all") && (!g->hosts || (m->n == 1 &&
	    !recurse))) {
		sb_adds(sb, all_text(g));
		return;
	}
	if (recurse) {
		expand(g, m, &ex, 0);
		m = &ex;
	}
	for (size_t i = 0; i < m->n; i++) {
		if (i > 0)
			sb_adds(sb, " ");
		sb_adds(sb, m->v[i]);
		if (find(g, m->v[i]) != NULL)
			sb_adds(sb, "/");
	}
	strv_release(&ex);
}

static void
print_short(const struct groups *g, const struct grp **sel, int n,
    bool recurse, bool wide)
{
	struct strbuf sb = STRBUF_INIT;

	printf("GROUP_NAME    %s\n", g->hosts ? "HOSTS" : "USERS");
	for (int i = 0; i < n; i++) {
		if (wide)
			printf("%-13s", sel[i]->name);
		else
			printf("%-13.13s", sel[i]->name);
		members_text(g, sel[i], recurse, &sb);
		printf(" %s\n", sb.buf ? sb.buf : "");
		sb_reset(&sb);
	}
	sb_release(&sb);
}

static void
print_long(const struct groups *g, const struct grp **sel, int n,
    bool recurse)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < n; i++) {
		members_text(g, sel[i], recurse, &sb);
		printf("GROUP_NAME:  %s\n", sel[i]->name);
		printf("%s:  %s\n", g->hosts ? "HOSTS" : "USERS",
		    sb.buf ? sb.buf : "");
		if (sel[i]->shares)
			printf("SHARES:  %s\n", sel[i]->shares);
		printf("\n");
		sb_reset(&sb);
	}
	sb_release(&sb);
}

int
groups_main(int argc, char **argv, bool hosts)
{
	struct cmdopt_state st;
	struct groups g;
	const struct grp **sel;
	const char *val;
	bool longform = false, recurse = false, wide = false;
	char **rest;
	int id, nrest, n = 0, rc = 0;

	progname = hosts ? "bmgroup" : "bugroup";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, hosts ? mopts : uopts, &val)) != 0) {
		switch (id) {
		case O_L: longform = true; break;
		case O_R: recurse = true; break;
		case O_W: wide = true; break;
		case O_HELP: usage(hosts, 0);
		case O_VERSION: disp_version();
		default: usage(hosts, 255);
		}
	}
	rest = cmdopt_rest(&st, &nrest);

	memset(&g, 0, sizeof(g));
	g.hosts = hosts;
	g.c = client_config(CONF_ALL);
	g.n = hosts ? g.c->nhgroups : g.c->nugroups;
	g.v = xcalloc((size_t)g.n + 1, sizeof(*g.v));
	for (int i = 0; i < g.n; i++) {
		if (hosts) {
			g.v[i].name = g.c->hgroups[i].name;
			g.v[i].members = &g.c->hgroups[i].members;
		} else {
			g.v[i].name = g.c->ugroups[i].name;
			g.v[i].members = &g.c->ugroups[i].members;
			g.v[i].shares = g.c->ugroups[i].shares;
		}
	}
	sel = xcalloc((size_t)(nrest > g.n ? nrest : g.n) + 1, sizeof(*sel));
	if (nrest == 0) {
		for (int i = 0; i < g.n; i++)
			sel[n++] = &g.v[i];
	}
	for (int i = 0; i < nrest; i++) {
		const struct grp *gr = find(&g, rest[i]);

		if (gr == NULL) {
			fprintf(stderr, "%s: No such %s group\n", rest[i],
			    hosts ? "host" : "user");
			rc = 255;
		} else
			sel[n++] = gr;
	}
	if (n == 0 && nrest == 0) {
		fprintf(stderr, "No %s group found\n", hosts ? "host" : "user");
		rc = 255;
	}
	if (n > 0 && longform)
		print_long(&g, sel, n, recurse);
	else if (n > 0)
		print_short(&g, sel, n, recurse, wide);
	free(sel);
	free(g.v);
	cmdopt_release(&st);
	return rc;
}
