/*
 * MSG_FS_QUERY: the share trees as bqueues -l and bhpart show them.  A
 * queue named finds the tree that orders it, so a queue of another's
 * FAIRSHARE_QUEUES answers with its master's tree, once however many of
 * the set are named.  Figures are read at the time of the query: decay
 * is applied as they are read (fs_node_cpu and the like), never stored.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fairshare.h"
#include "log.h"
#include "mbd.h"

struct walk {
	const struct fs_tree	*tree;
	int64_t			 now;
	const struct fs_node	**nodes;	/* of the rows, to find parents */
	struct fs_row		*rows;
	uint32_t		 n;
	uint32_t		 cap;
};

/* The row of a node already seen (parents come before their children:
 * a parent is looked for backwards from the child, where it is near). */
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

	if (node->parent == NULL)		/* the root: its rows are all */
		return;
	if (wk->n == wk->cap) {
		wk->cap = wk->cap ? wk->cap * 2 : 16;
		wk->rows = xrealloc(wk->rows, wk->cap * sizeof(*wk->rows));
		wk->nodes = xrealloc(wk->nodes, wk->cap * sizeof(*wk->nodes));
	}
	r = &wk->rows[wk->n];
	memset(r, 0, sizeof(*r));
	r->name = node->name;
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

/* "[alice, 10] [bio@, 5] [default, 1]", from the parsed entries. */
static char *
shares_text(const struct fs_shares *s, const char *written)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *end;

	if (s->n == 0) {
		/* Not parsed: what was written, inside USER_SHARES[...]. */
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

static void
fill(struct fs_info *x, const struct mfs *m, int64_t now)
{
	struct walk wk;

	memset(x, 0, sizeof(*x));
	if (m->qconf != NULL) {
		x->kind = xstrdup("queue");
		x->name = xstrdup(m->qconf->name);
		for (int i = 0; i < m->nqueues; i++)
			strv_push(&x->members, m->queues[i]->name);
		x->shares = shares_text(&m->qconf->fs_shares,
		    m->qconf->fairshare);
	} else {
		x->kind = xstrdup("hpart");
		x->name = xstrdup(m->hpart->name);
		for (size_t i = 0; i < m->hpart->hosts.n; i++)
			strv_push(&x->members, m->hpart->hosts.v[i]);
		x->shares = shares_text(&m->hpart->shares,
		    m->hpart->shares_text);
	}
	memset(&wk, 0, sizeof(wk));
	wk.tree = m->tree;
	wk.now = now;
	if (m->tree != NULL)
		fs_tree_walk(m->tree, add_row, &wk);
	/* The names are the tree's: copied, as release frees them. */
	for (uint32_t i = 0; i < wk.n; i++)
		wk.rows[i].name = xstrdup(wk.rows[i].name);
	x->rows = wk.rows;
	x->nrows = wk.n;
	free(wk.nodes);
}

/* The tree answers the query: it is of the kind asked, and named, or
 * orders a queue named. */
static bool
wanted(const struct mfs *m, bool queues, const struct strv *names)
{
	if (queues != (m->qconf != NULL))
		return false;
	if (names->n == 0)
		return true;
	if (!queues)
		return strv_contains(names, m->hpart->name);
	if (strv_contains(names, m->qconf->name))
		return true;
	for (int i = 0; i < m->nqueues; i++)
		if (strv_contains(names, m->queues[i]->name))
			return true;
	return false;
}

void
query_fairshare(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct fs_query q;
	struct fs_list fl;
	struct wbuf w;
	int64_t now = time(NULL);
	bool queues;

	if (!fs_query_unpack(r, &q) || rbuf_end(r) < 0 || q.kind == NULL ||
	    (strcmp(q.kind, "queue") != 0 && strcmp(q.kind, "hpart") != 0)) {
		fs_query_release(&q);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	queues = strcmp(q.kind, "queue") == 0;
	memset(&fl, 0, sizeof(fl));
	fl.v = xcalloc((size_t)mbd->nfs + 1, sizeof(*fl.v));
	for (int i = 0; i < mbd->nfs; i++) {
		const struct mfs *m = mbd->fs[i];

		if (m == NULL || (m->qconf == NULL && m->hpart == NULL) ||
		    !wanted(m, queues, &q.names))
			continue;
		fill(&fl.v[fl.n++], m, now);
	}
	wbuf_init(&w);
	fs_list_frame(&w, MSG_FS_LIST, seq, &fl);
	fs_list_release(&fl);
	fs_query_release(&q);
	conn_send(c, &w);
	wbuf_release(&w);
}
