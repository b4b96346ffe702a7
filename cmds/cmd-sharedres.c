/*
 * The shared resources of lsf.cluster's ResourceMap, as lshosts -s,
 * lsload -s and bhosts -s list them: one line per instance, its value
 * and the hosts that share it.
 *
 * A LOCATION is "[all]", "[default]" (each host on its own), "[h1 h2]",
 * or values for such host lists: "(5@[all])", "(2@[h1] 3@[h2 h3])".
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd-display.h"

static void
add(struct shared_res_list *l, const struct resource_def *d,
    const char *value, const char *hosts)
{
	struct shared_res *r;

	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	r = &l->v[l->n++];
	r->name = d->name;
	r->def = d;
	r->value = value ? xstrdup(value) : NULL;
	r->hosts = xstrdup(hosts);
}

static void
push_once(struct strv *v, const char *s)
{
	if (!strv_contains(v, s))
		strv_push(v, s);
}

/* The hosts of one bracketed list, "all" and "default" expanded. */
static void
add_hosts(struct shared_res_list *l, const struct lsf_config *c,
    const struct resource_def *d, const char *value, const char *list)
{
	struct strv words = STRV_INIT, hosts = STRV_INIT;
	char *s;

	strv_split_ws(&words, list);
	if (words.n == 1 && strcasecmp(words.v[0], "default") == 0) {
		for (int i = 0; i < c->cluster.nhosts; i++)
			add(l, d, value, c->cluster.hosts[i].name);
		goto out;
	}
	for (size_t i = 0; i < words.n; i++) {
		if (strcasecmp(words.v[i], "all") == 0) {
			for (int k = 0; k < c->cluster.nhosts; k++)
				push_once(&hosts, c->cluster.hosts[k].name);
		} else
			push_once(&hosts, words.v[i]);
	}
	s = strv_join(&hosts, " ");
	add(l, d, value, s);
	free(s);
out:
	strv_release(&words);
	strv_release(&hosts);
}

static void
parse_location(struct shared_res_list *l, const struct lsf_config *c,
    const struct resource_def *d, const char *loc)
{
	const char *p = loc, *open, *close, *at;
	char *value, *list;

	while ((open = strchr(p, '[')) != NULL &&
	    (close = strchr(open, ']')) != NULL) {
		/* "v@[": the value is the word before the '@'. */
		value = NULL;
		at = open > loc && open[-1] == '@' ? open - 1 : NULL;
		if (at != NULL) {
			const char *v = at;

			while (v > loc && !isspace((unsigned char)v[-1]) &&
			    v[-1] != '(')
				v--;
			value = xstrndup(v, (size_t)(at - v));
		}
		list = xstrndup(open + 1, (size_t)(close - open - 1));
		add_hosts(l, c, d, value, list);
		free(list);
		free(value);
		p = close + 1;
	}
}

static const struct resource_def *
find_def(const struct lsf_config *c, const char *name)
{
	for (int i = 0; i < c->shared.nresources; i++)
		if (strcasecmp(c->shared.resources[i].name, name) == 0)
			return &c->shared.resources[i];
	return NULL;
}

static bool
named(char *const *names, int nnames, const char *name)
{
	for (int i = 0; i < nnames; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

void
disp_shared_resources(const struct lsf_config *c, unsigned what,
    char *const *names, int nnames, struct shared_res_list *l)
{
	memset(l, 0, sizeof(*l));
	for (int i = 0; i < nnames; i++) {
		const struct resource_def *d = find_def(c, names[i]);

		if (d == NULL || !strv_contains(&c->cluster.resmap_names,
		    d->name)) {
			fprintf(stderr, "%s: Unknown resource name\n",
			    names[i]);
			exit(255);
		}
	}
	for (size_t i = 0; i < c->cluster.resmap_names.n; i++) {
		const struct resource_def *d =
		    find_def(c, c->cluster.resmap_names.v[i]);
		bool dynamic;

		if (d == NULL || d->type == RES_BOOLEAN)
			continue;
		dynamic = d->interval > 0;
		if ((what & SHARED_NUMERIC) && d->type != RES_NUMERIC)
			continue;
		if ((what & SHARED_STATIC) && dynamic)
			continue;
		if ((what & SHARED_DYNAMIC) && !dynamic)
			continue;
		if (nnames > 0 && !named(names, nnames, d->name))
			continue;
		parse_location(l, c, d, c->cluster.resmap_locations.v[i]);
	}
}

void
shared_res_list_release(struct shared_res_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].value);
		free(l->v[i].hosts);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int
disp_shared_show(unsigned what, char *const *names, int nnames)
{
	struct shared_res_list l;

	disp_shared_resources(client_config(CONF_CLUSTER), what, names,
	    nnames, &l);
	disp_shared_table(stdout, &l);
	shared_res_list_release(&l);
	return 0;
}

/* lshosts -s, lsload -s: RESOURCE in 40 columns, VALUE in 12. */
void
disp_shared_table(FILE *fp, const struct shared_res_list *l)
{
	fprintf(fp, "%-39s %-11s %s\n", "RESOURCE", "VALUE", "LOCATION");
	for (size_t i = 0; i < l->n; i++)
		fprintf(fp, "%-39s %-11s %s\n", l->v[i].name,
		    l->v[i].value ? l->v[i].value : "-", l->v[i].hosts);
}
