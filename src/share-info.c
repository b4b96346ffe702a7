/*
 * Share trees into the rows bqueues -l and bhpart print.  Pure: the
 * time comes in, and decay is applied as each figure is read (the
 * fs_node_* functions), never stored.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "share-info.h"

struct walk {
	const struct fs_tree	*tree;
	int64_t			 now;
	const struct fs_node	**nodes;	/* the rows', to find parents */
	struct fs_row		*rows;
	uint32_t		 n;
	uint32_t		 cap;
};

/* The row of a node already seen: parents come before their children,
 * so it is looked for backwards from the child, where it is near. */
static int
row_of(const struct walk *wk, const struct fs_node *node)
{
	for (uint32_t i = wk->n; i-- > 0;)
		if (wk->nodes[i] == node)
			return (int)i;
	return -1;
}

static void
add_row(struct fs_node *node, void *arg)
{
	struct walk *wk = arg;
	const struct fs_factors *f = &wk->tree->f;
	struct fs_row *r;

	if (node->parent == NULL)	/* the root: the rows are its subtree */
		return;
	if (wk->n == wk->cap) {
		wk->cap = wk->cap ? wk->cap * 2 : 16;
		wk->rows = xrealloc(wk->rows, wk->cap * sizeof(*wk->rows));
		wk->nodes = xrealloc(wk->nodes, wk->cap * sizeof(*wk->nodes));
	}
	r = &wk->rows[wk->n];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(node->name);
	r->parent = node->parent->parent == NULL ? -1 :
	    row_of(wk, node->parent);
	r->depth = node->depth;
	r->group = !node->leaf;
	r->shares = node->shares;
	r->priority = fs_node_priority(node, f, wk->now, 0);
	r->started = node->slots;
	r->reserved = node->reserved;
	r->cpu_time = fs_node_cpu(node, f, wk->now) * 3600.0;
	r->run_time = llround(fs_node_run(node, f, wk->now) * 3600.0);
	r->adjust = node->adjust;
	wk->nodes[wk->n++] = node;
}

void
share_rows(struct fs_tree *t, int64_t now, struct fs_row **rows,
    uint32_t *nrows)
{
	struct walk wk;

	memset(&wk, 0, sizeof(wk));
	wk.tree = t;
	wk.now = now;
	if (t != NULL)
		fs_tree_walk(t, add_row, &wk);
	free(wk.nodes);
	*rows = wk.rows;
	*nrows = wk.n;
}

char *
share_text(const struct fs_shares *s, const char *written)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *end;

	if (s == NULL || s->n == 0) {
		if (written == NULL)
			return xstrdup("");
		if ((p = strstr(written, "USER_SHARES")) != NULL &&
		    (p = strchr(p, '[')) != NULL) {
			p++;
			end = strrchr(p, ']');
			return xstrndup(p, end ? (size_t)(end - p) :
			    strlen(p));
		}
		return xstrdup(written);
	}
	for (int i = 0; i < s->n; i++)
		sb_addf(&sb, "%s[%s%s, %d]", i ? " " : "", s->v[i].name,
		    s->v[i].kind == FS_GROUP_EACH ? "@" : "",
		    s->v[i].shares);
	return sb_detach(&sb);
}
