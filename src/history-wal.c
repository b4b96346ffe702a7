/*
 * The bound on the history database's write-ahead log (history.h): may
 * the writer's transaction take one more record, and when must the WAL
 * start again first.  Pure: the writer (history-db.c) tells it what
 * sqlite says.
 *
 * A transaction's frames are known only once it has committed, so each
 * record is charged what it may add: two frames, and twice the pages
 * its line fills (the line is stored, and a JOB_NEW's command once more
 * in the job's row).  A record adds well under one frame in a
 * batch of a hundred or more (the pages it touches are the ones its
 * neighbours touched), and up to 25 alone: what a transaction adds
 * beyond its records' charge is its fixed part (the pages every
 * transaction writes: the positions, the leaves its first records
 * open), learnt as the most any has added, from 32 frames at first.
 * The WAL reaches the bound only when a transaction adds more than that.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "history.h"

#define WAL_HDR		32	/* the WAL file's header */
#define FRAME_HDR	24	/* each frame's, before its page */
#define REC_FRAMES	2	/* a record's charge, but for its line */
#define FIXED_FRAMES	32	/* a transaction's fixed part, at first */

int64_t
hist_wal_bytes(int64_t frames, int page_size)
{
	return frames > 0 ? WAL_HDR + frames * (page_size + FRAME_HDR) : 0;
}

void
hist_wal_init(struct hist_wal *w, int64_t limit, int page_size)
{
	memset(w, 0, sizeof(*w));
	w->page = page_size > 0 ? page_size : 4096;
	w->fixed = FIXED_FRAMES;
	if (limit > 0) {
		w->limit = (limit - WAL_HDR) / (w->page + FRAME_HDR);
		if (w->limit < 1)
			w->limit = 1;
	}
	/* Checkpoint as sqlite would by itself, or sooner under a small
	 * bound, so that the WAL starts again long before it is full. */
	w->ckpt = HIST_WAL_CKPT;
	if (w->limit > 0 && w->ckpt > w->limit / 4)
		w->ckpt = w->limit / 4 > 0 ? w->limit / 4 : 1;
}

int64_t
hist_wal_cost(const struct hist_wal *w, size_t len)
{
	return REC_FRAMES + (int64_t)((2 * len + (size_t)w->page - 1) /
	    (size_t)w->page);
}

bool
hist_wal_fits(const struct hist_wal *w, size_t len)
{
	/* An empty WAL takes any transaction's first record: nothing
	 * would make progress under a bound smaller than one. */
	if (w->limit == 0 || (w->frames == 0 && w->txn == 0))
		return true;
	return w->frames + w->fixed + w->txn + hist_wal_cost(w, len) <=
	    w->limit;
}

void
hist_wal_add(struct hist_wal *w, size_t len)
{
	w->txn += hist_wal_cost(w, len);
}

bool
hist_wal_commit(struct hist_wal *w, int64_t frames)
{
	/* Fewer than before: sqlite started the WAL again at this
	 * transaction's first frame, so all of them are its own. */
	int64_t added = frames >= w->frames ? frames - w->frames : frames;

	if (added - w->txn > w->fixed)
		w->fixed = added - w->txn;
	w->frames = frames;
	w->txn = 0;
	return frames >= w->ckpt;
}

void
hist_wal_rollback(struct hist_wal *w)
{
	w->txn = 0;
}

void
hist_wal_restart(struct hist_wal *w)
{
	w->frames = 0;
}
