/*
 * The turn of a queue ordered by a share tree (fairshare).
 *
 * Each node of the tree that has a job to try in this turn sits in its
 * parent's heap, ordered by dynamic priority (the highest first, the
 * earlier sibling on a tie).  Walking down from the root through the
 * heaps' tops gives the account whose turn it is; its first job that
 * may start is tried.  A start counts its slots at once in every node
 * above the account (taken), which lowers their priorities, and each of
 * them moves down in its parent's heap: the next choice sees the start,
 * so one user's burst cannot take more than its turn in the same pass.
 *
 * What does not change in a pass (decayed CPU time, run time, the
 * plug-in's adjustment) is computed once per node and pass; a start
 * costs a division and a sift per level.
 */
#include <stdlib.h>
#include <string.h>

#include "policy-pass.h"
#include "util.h"

static double
priority(const struct fs_tree *t, const struct fs_node *n)
{
	double d = n->base + (1 + n->slots + n->reserved + n->taken) *
	    t->f.run_job;

	if (d < 1e-12)
		d = 1e-12;
	return (double)n->shares / d;
}

/* The node's figures for this pass, once. */
static void
node_pass(const struct pass *p, const struct fs_tree *t, struct fs_node *n)
{
	if (n->pass == p->c->pass)
		return;
	n->pass = p->c->pass;
	n->taken = 0;
	n->base = fs_node_cpu(n, &t->f, p->c->now) * t->f.cpu_time +
	    fs_node_run(n, &t->f, p->c->now) * t->f.run_time +
	    n->adjust * t->f.adjust;
	n->prio = priority(t, n);
}

/* Does a come before b? */
static bool
before(const struct fs_node *a, const struct fs_node *b)
{
	if (a->prio != b->prio)
		return a->prio > b->prio;
	if (a->order != b->order)
		return a->order < b->order;
	return strcmp(a->name, b->name) < 0;
}

static void
heap_set(struct fs_node *h, int i, struct fs_node *n)
{
	h->heap[i] = n;
	n->hpos = i;
}

static void
sift_up(struct fs_node *h, int i)
{
	struct fs_node *n = h->heap[i];

	while (i > 0) {
		int up = (i - 1) / 2;

		if (!before(n, h->heap[up]))
			break;
		heap_set(h, i, h->heap[up]);
		i = up;
	}
	heap_set(h, i, n);
}

static void
sift_down(struct fs_node *h, int i)
{
	struct fs_node *n = h->heap[i];

	for (;;) {
		int k = 2 * i + 1;

		if (k >= h->nheap)
			break;
		if (k + 1 < h->nheap && before(h->heap[k + 1], h->heap[k]))
			k++;
		if (!before(h->heap[k], n))
			break;
		heap_set(h, i, h->heap[k]);
		i = k;
	}
	heap_set(h, i, n);
}

/* Every heap empty, with room for every child, for a new turn. */
static void
heap_reset(struct fs_node *n, void *arg)
{
	(void)arg;
	n->hpos = -1;
	n->nheap = 0;
	if (n->aheap < n->nkids) {
		n->aheap = n->nkids;
		n->heap = xrealloc(n->heap, sizeof(*n->heap) *
		    (size_t)n->aheap);
	}
}

/* n has jobs to try: into its parent's heap, and the parent into its
 * own if it was not. */
static void
activate(struct pass *p, struct fs_tree *t, struct fs_node *n)
{
	for (; n->parent != NULL && n->hpos < 0; n = n->parent) {
		struct fs_node *up = n->parent;
		bool was = up->nheap > 0;

		node_pass(p, t, n);
		heap_set(up, up->nheap++, n);
		sift_up(up, n->hpos);
		if (was)
			return;
	}
}

static void
heap_remove(struct fs_node *h, struct fs_node *n)
{
	int i = n->hpos;
	struct fs_node *last = h->heap[--h->nheap];

	n->hpos = -1;
	if (last == n)
		return;
	heap_set(h, i, last);
	sift_up(h, i);
	sift_down(h, last->hpos);
}

/* n has nothing more to try in this turn: out of its parent's heap, and
 * so on up while a heap empties. */
static void
deactivate(struct fs_node *n)
{
	for (; n->parent != NULL; n = n->parent) {
		heap_remove(n->parent, n);
		if (n->parent->nheap > 0)
			return;
	}
}

/* slots started for leaf's account: every node above sees them. */
static void
charge(const struct fs_tree *t, struct fs_node *n, int slots)
{
	for (; n->parent != NULL; n = n->parent) {
		n->taken += slots;
		n->prio = priority(t, n);
		if (n->hpos >= 0)
			sift_down(n->parent, n->hpos);
	}
}

/* The account's next job to try, from a->cur on; NULL none. */
static struct pol_job *
next_candidate(struct pass *p, struct pol_fs_acct *a)
{
	struct pol_job *j;

	for (j = a->cur; j != NULL; j = j->fnext)
		if (pass_candidate(p, j))
			break;
	a->cur = j;
	return j;
}

int
pass_fairshare(struct pass *p, struct pol_decision *out, int max)
{
	struct pol_queue *q = p->q;
	struct fs_tree *t = q->fs;
	struct fs_node *root = t->root;
	int n = 0;

	fs_tree_walk(t, heap_reset, NULL);
	for (struct pol_fs_acct *a = q->faccts; a != NULL; a = a->qnext) {
		if (a->head == NULL)
			continue;
		a->cur = a->head;
		activate(p, t, a->leaf);
	}
	while (root->nheap > 0) {
		struct fs_node *leaf = root;
		struct pol_fs_acct *a;
		struct pol_job *j;
		int64_t want;
		int r;

		while (!leaf->leaf)
			leaf = leaf->heap[0];
		a = leaf->accts[q->fs_slot];
		if ((j = next_candidate(p, a)) == NULL) {
			deactivate(leaf);
			continue;
		}
		if (j->started_pass != p->c->pass) {
			j->started_pass = p->c->pass;
			j->started = 0;
		}
		want = j->count > 1 ? j->count : 1;
		r = pass_try_one(p, j, out, max, &n, j->started > 0);
		if (r == TRY_STOP) {
			/* The slots went to accounts of a higher priority:
			 * that is why the others wait. */
			if (n > 0 && q->cut_reason == PEND_NO_HOST)
				q->cut_reason = PEND_FAIRSHARE;
			break;
		}
		if (r == TRY_STARTED) {
			if (++j->started >= want)
				a->cur = j->fnext;
			charge(t, leaf, j->num_procs);
			continue;
		}
		/* No room left because this turn gave it to accounts of a
		 * higher priority: that is why it waits. */
		if (n > 0 && p->room == 0 && j->reason_pass == p->c->pass &&
		    j->pend_reason == PEND_NO_HOST)
			j->pend_reason = PEND_FAIRSHARE;
		a->cur = j->fnext;
	}
	return n;
}
