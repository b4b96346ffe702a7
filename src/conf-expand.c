/*
 * config_expand_hosts(): a HOSTS-style list (hosts, host groups, "all",
 * "others", "~excluded", "name+pref") to the server hosts it means.
 *
 * Sets of hosts are kept as flags over the lsf.cluster host table plus
 * the order hosts were added in, so that "all" on a cluster of thousands
 * of hosts costs a pass, not a pass per host.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf-lex.h"

struct hostset {
	bool	*in;		/* by index into cluster.hosts */
	int	*order;		/* indices, in the order added */
	int	*pref;		/* by index: the "+N" it was named with */
	int	 n;
};

struct expand {
	const struct lsf_config	*cfg;
	struct strv		*bad;
	bool			*active;	/* groups being expanded */
	struct host_index	 byname;
};

static void expand_list(struct expand *, char *const *, size_t, int,
    struct hostset *);

static void
set_init(struct hostset *s, int nhosts)
{
	s->in = xcalloc((size_t)nhosts + 1, sizeof(*s->in));
	s->order = xcalloc((size_t)nhosts + 1, sizeof(*s->order));
	s->pref = xcalloc((size_t)nhosts + 1, sizeof(*s->pref));
	s->n = 0;
}

static void
set_release(struct hostset *s)
{
	free(s->in);
	free(s->order);
	free(s->pref);
}

/* A host named twice keeps the higher preference. */
static void
set_add(struct hostset *s, int i, int pref)
{
	if (!s->in[i]) {
		s->in[i] = true;
		s->order[s->n++] = i;
		s->pref[i] = pref;
	} else if (pref > s->pref[i])
		s->pref[i] = pref;
}

/* "host+2" or "others+" (1) is a preference: the name, and the level
 * in *pref (0 without one). */
static char *
strip_pref(const char *s, int *pref)
{
	const char *plus = strrchr(s, '+');

	*pref = 0;
	if (plus != NULL) {
		for (const char *p = plus + 1; *p; p++)
			if (!isdigit((unsigned char)*p))
				return xstrdup(s);
		*pref = plus[1] ? atoi(plus + 1) : 1;
		return xstrndup(s, (size_t)(plus - s));
	}
	return xstrdup(s);
}

static void
expand_name(struct expand *x, const char *name, int pref,
    struct hostset *dst)
{
	const struct cluster_conf *cc = &x->cfg->cluster;
	const struct host_group *g;
	int hi;

	if (strcasecmp(name, "all") == 0) {
		for (int i = 0; i < cc->nhosts; i++)
			if (cc->hosts[i].server)
				set_add(dst, i, pref);
	} else if (strcasecmp(name, "none") == 0 || strcmp(name, "!") == 0) {
		/* Nothing; "!" is an egroup we cannot resolve here. */
	} else if ((g = config_host_group(x->cfg, name)) != NULL) {
		int gi = (int)(g - x->cfg->hgroups);

		/* A group that contains itself adds nothing the second
		 * time round (lsb.hosts reports the loop). */
		if (x->active[gi])
			return;
		x->active[gi] = true;
		expand_list(x, g->members.v, g->members.n, pref, dst);
		x->active[gi] = false;
	} else if ((hi = host_index_find(&x->byname, name)) >= 0 &&
	    cc->hosts[hi].server) {
		set_add(dst, hi, pref);
	} else if (x->bad != NULL && !strv_contains(x->bad, name)) {
		strv_push(x->bad, name);
	}
}

/* The items of a list named with preference outer (a group's "+N"):
 * a member's own "+N" counts when higher. */
static void
expand_list(struct expand *x, char *const *items, size_t n, int outer,
    struct hostset *out)
{
	const struct cluster_conf *cc = &x->cfg->cluster;
	struct hostset incl, excl;
	int others_at = -1, others_pref = 0;

	set_init(&incl, cc->nhosts);
	set_init(&excl, cc->nhosts);
	for (size_t i = 0; i < n; i++) {
		int pref;
		char *name = strip_pref(items[i], &pref);

		if (pref < outer)
			pref = outer;
		if (name[0] == '~') {
			expand_name(x, name + 1, 0, &excl);
		} else if (strcasecmp(name, "others") == 0) {
			if (others_at < 0)
				others_at = incl.n;
			others_pref = pref;
		} else {
			expand_name(x, name, pref, &incl);
		}
		free(name);
	}
	for (int i = 0; i <= incl.n; i++) {
		/* "others": every server host the list does not name. */
		if (i == others_at)
			for (int j = 0; j < cc->nhosts; j++)
				if (cc->hosts[j].server && !incl.in[j] &&
				    !excl.in[j])
					set_add(out, j, others_pref);
		if (i < incl.n && !excl.in[incl.order[i]])
			set_add(out, incl.order[i],
			    incl.pref[incl.order[i]]);
	}
	set_release(&incl);
	set_release(&excl);
}

void
config_expand_hosts(const struct lsf_config *cfg, const struct strv *in,
    struct strv *out, struct strv *bad)
{
	config_expand_hosts_pref(cfg, in, out, NULL, bad);
}

void
config_expand_hosts_pref(const struct lsf_config *cfg, const struct strv *in,
    struct strv *out, int **prefs, struct strv *bad)
{
	struct expand x;
	struct hostset set;

	x.cfg = cfg;
	x.bad = bad;
	x.active = xcalloc((size_t)cfg->nhgroups + 1, sizeof(*x.active));
	host_index_build(&x.byname, &cfg->cluster);
	set_init(&set, cfg->cluster.nhosts);
	expand_list(&x, in->v, in->n, 0, &set);
	if (prefs != NULL)
		*prefs = xcalloc((size_t)set.n + 1, sizeof(**prefs));
	for (int i = 0; i < set.n; i++) {
		strv_push(out, cfg->cluster.hosts[set.order[i]].name);
		if (prefs != NULL)
			(*prefs)[i] = set.pref[set.order[i]];
	}
	set_release(&set);
	host_index_release(&x.byname);
	free(x.active);
}
