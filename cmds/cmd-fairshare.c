/*
 * SHARE_INFO_FOR tables (bqueues -l and -r, bhpart).  The header is
 * LSF's; where the documents show no rows, each value is placed
 * right-aligned under the end of its header word, with PRIORITY and
 * ADJUST to three decimals and CPU_TIME (seconds) to one, as IBM's
 * field descriptions give them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-display.h"
#include "cmd-fairshare.h"

#define FS_HEADER	" USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED" \
			"  CPU_TIME  RUN_TIME   ADJUST"
/* Where each value ends (1-based), under its header word. */
enum { END_SHARES = 20, END_PRIORITY = 30, END_STARTED = 39,
	END_RESERVED = 49, END_CPU = 59, END_RUN = 69, END_ADJUST = 78 };

void
fs_fetch(const char *kind, const struct strv *names, struct fs_list *fl)
{
	struct fs_query q;
	struct reply rp;
	struct wbuf w;

	memset(&q, 0, sizeof(q));
	q.kind = (char *)kind;
	q.names = *names;
	wbuf_init(&w);
	fs_query_frame(&w, MSG_FS_QUERY, 1, &q);
	disp_mbd_call(&w, MSG_FS_LIST, &rp);
	wbuf_release(&w);
	if (!fs_list_unpack(&rp.r, fl) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("mbatchd");
	/* A parent comes before its children: the tables rely on it. */
	for (uint32_t i = 0; i < fl->n; i++)
		for (uint32_t k = 0; k < fl->v[i].nrows; k++) {
			int p = fl->v[i].rows[k].parent;

			if (p < -1 || p >= (int)k || fl->v[i].rows[k].name ==
			    NULL || (p >= 0 && !fl->v[i].rows[p].group))
				disp_bad_reply("mbatchd");
		}
	reply_release(&rp);
}

const struct fs_info *
fs_of_queue(const struct fs_list *fl, const char *queue)
{
	for (uint32_t i = 0; i < fl->n; i++)
		if (strcmp(fl->v[i].kind, "queue") == 0 &&
		    (strcmp(fl->v[i].name, queue) == 0 ||
		    strv_contains(&fl->v[i].members, queue)))
			return &fl->v[i];
	return NULL;
}

static void
row(FILE *fp, struct strbuf *sb, const struct fs_row *r)
{
	char buf[64];

	col_left(sb, 2, r->name);
	snprintf(buf, sizeof(buf), "%d", r->shares);
	col_right(sb, END_SHARES, buf);
	snprintf(buf, sizeof(buf), "%.3f", r->priority);
	col_right(sb, END_PRIORITY, buf);
	snprintf(buf, sizeof(buf), "%d", r->started);
	col_right(sb, END_STARTED, buf);
	snprintf(buf, sizeof(buf), "%d", r->reserved);
	col_right(sb, END_RESERVED, buf);
	snprintf(buf, sizeof(buf), "%.1f", r->cpu_time);
	col_right(sb, END_CPU, buf);
	snprintf(buf, sizeof(buf), "%lld", (long long)r->run_time);
	col_right(sb, END_RUN, buf);
	snprintf(buf, sizeof(buf), "%.3f", r->adjust);
	col_right(sb, END_ADJUST, buf);
	col_flush(sb, fp);
}

/* "groupA/sub/": the names from below the root down to row k. */
static void
path(const struct fs_info *x, int k, struct strbuf *sb)
{
	if (k < 0)
		return;
	path(x, x->rows[k].parent, sb);
	sb_adds(sb, x->rows[k].name);
	sb_adds(sb, "/");
}

/* The table of the children of row parent (-1: of the root). */
static void
table(FILE *fp, const struct fs_info *x, int parent)
{
	struct strbuf sb = STRBUF_INIT;

	path(x, parent, &sb);
	fprintf(fp, "\nSHARE_INFO_FOR: %s/%s\n", x->name, sb.len ? sb.buf :
	    "");
	sb_reset(&sb);
	fprintf(fp, "%s\n", FS_HEADER);
	for (uint32_t k = 0; k < x->nrows; k++)
		if (x->rows[k].parent == parent)
			row(fp, &sb, &x->rows[k]);
	sb_release(&sb);
}

void
fs_print(FILE *fp, const struct fs_info *x, bool recurse)
{
	table(fp, x, -1);
	for (uint32_t k = 0; recurse && k < x->nrows; k++)
		if (x->rows[k].group)
			table(fp, x, (int)k);
}
