/*
 * Cluster host names sorted for lookup.  Sites have clusters of many
 * thousands of hosts and host groups that list them all; a scan of the
 * host table per name would make reading such a configuration slow.
 */
#include <stdlib.h>
#include <strings.h>

#include "conf-lex.h"

static int
host_name_cmp(const void *a, const void *b)
{
	const struct host_name *x = a, *y = b;
	int c = strcasecmp(x->name, y->name);

	/* Equal names (a duplicate being reported) keep table order. */
	if (c == 0)
		return (x->idx > y->idx) - (x->idx < y->idx);
	return c;
}

void
host_index_build(struct host_index *hi, const struct cluster_conf *c)
{
	hi->n = c->nhosts;
	hi->v = xcalloc((size_t)c->nhosts + 1, sizeof(*hi->v));
	for (int i = 0; i < c->nhosts; i++) {
		hi->v[i].name = c->hosts[i].name;
		hi->v[i].idx = i;
	}
	qsort(hi->v, (size_t)hi->n, sizeof(*hi->v), host_name_cmp);
}

int
host_index_find(const struct host_index *hi, const char *name)
{
	int lo = 0, up = hi->n;

	/* The first of equal names, so a duplicate finds the original. */
	while (lo < up) {
		int mid = lo + (up - lo) / 2;

		if (strcasecmp(hi->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			up = mid;
	}
	if (lo < hi->n && strcasecmp(hi->v[lo].name, name) == 0)
		return hi->v[lo].idx;
	return -1;
}

void
host_index_release(struct host_index *hi)
{
	free(hi->v);
	hi->v = NULL;
	hi->n = 0;
}
