/*
 * MSG_FS_QUERY: the share trees as bqueues -l and bhpart show them.  A
 * queue named finds the tree that orders it, so a queue of another's
 * FAIRSHARE_QUEUES answers with its master's tree, once however many of
 * the set are named.  Figures are read at the time of the query: decay
 * is applied as they are read (fs_node_cpu and the like), never stored.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mbd.h"
#include "share-info.h"

static void
fill(struct fs_info *x, const struct mfs *m, int64_t now)
{
	memset(x, 0, sizeof(*x));
	if (m->qconf != NULL) {
		x->kind = xstrdup("queue");
		x->name = xstrdup(m->qconf->name);
		for (int i = 0; i < m->nqueues; i++)
			strv_push(&x->members, m->queues[i]->name);
		x->shares = share_text(&m->qconf->fs_shares,
		    m->qconf->fairshare);
	} else {
		x->kind = xstrdup("hpart");
		x->name = xstrdup(m->hpart->name);
		for (size_t i = 0; i < m->hpart->hosts.n; i++)
			strv_push(&x->members, m->hpart->hosts.v[i]);
		x->shares = share_text(&m->hpart->shares,
		    m->hpart->shares_text);
	}
	share_rows(m->tree, now, &x->rows, &x->nrows);
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
