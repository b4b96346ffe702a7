/*
 * bjobs <id> of a job mbatchd has cleaned: the answer comes from the job
 * history database, so a workflow tool polling a finished job never takes
 * it for a lost one.  Only jobs asked for by ID and no longer in memory
 * come here; a primary-key lookup each, never a scan.
 *
 * The connection is the main thread's own, read-only, opened on first
 * use and separate from the history thread's.  It never waits: a busy or
 * missing database answers "not found", as before history existed.  Its
 * read transaction lasts one lookup, every statement reset before the
 * answer goes: one left open would hold the writer's WAL
 * (history-wal.c) for as long as mbatchd runs.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "evlog.h"
#include "histjob.h"
#include "history.h"
#include "log.h"
#include "mbd.h"

#define HJ_RETRY_SECS		5

static struct hist_db	*hj_db;
static struct stat	 hj_st_db;	/* the file it has open */
static int64_t		 hj_failed;	/* when opening last failed */

enum { HJ_ROW, HJ_ELEMS, HJ_EVENTS, HJ_NSTMT };
static sqlite3_stmt	*hj_st[HJ_NSTMT];
static const char *const hj_sql[HJ_NSTMT] = {
	[HJ_ROW] = "SELECT idx, queue, name, array_base, status FROM jobs"
	    " WHERE jobid = ?1 AND idx = ?2",
	[HJ_ELEMS] = "SELECT idx, queue, name, array_base, status FROM jobs"
	    " WHERE jobid = ?1 AND idx > 0 ORDER BY idx",
	[HJ_EVENTS] = "SELECT type, line FROM events WHERE jobid = ?1 AND"
	    " idx = ?2 AND type IN ('JOB_NEW', 'JOB_START', 'JOB_EXECUTE',"
	    " 'JOB_STATUS') ORDER BY seq",
};

static void
hj_close(void)
{
	for (int i = 0; i < HJ_NSTMT; i++) {
		sqlite3_finalize(hj_st[i]);
		hj_st[i] = NULL;
	}
	if (hj_db)
		hist_db_close(hj_db);
	hj_db = NULL;
}

static bool
hj_open(void)
{
	const char *path;
	char *cause;
	int64_t now = time(NULL);
	struct stat sb;
	bool there;

	path = mbd->histpath;
	there = stat(path, &sb) == 0;
	/* The writer moves a damaged database aside and builds a new one
	 * under the name: follow the name, not the old file. */
	if (hj_db && (!there || sb.st_ino != hj_st_db.st_ino ||
	    sb.st_dev != hj_st_db.st_dev))
		hj_close();
	if (hj_db)
		return true;
	if (!there || (hj_failed && now - hj_failed < HJ_RETRY_SECS))
		return false;
	hj_db = hist_db_open_ro(path, &cause);
	hj_st_db = sb;
	if (hj_db == NULL) {
		free(cause);
		hj_failed = now;
		return false;
	}
	/* mbatchd's loop never waits for sqlite. */
	sqlite3_busy_timeout(hist_db_handle(hj_db), 0);
	for (int i = 0; i < HJ_NSTMT; i++)
		if (sqlite3_prepare_v3(hist_db_handle(hj_db), hj_sql[i], -1,
		    SQLITE_PREPARE_PERSISTENT, &hj_st[i], NULL) != SQLITE_OK) {
			log_warnx("history: %s",
			    sqlite3_errmsg(hist_db_handle(hj_db)));
			hj_close();
			hj_failed = now;
			return false;
		}
	return true;
}

static bool
hj_events(struct hist_job *h, int64_t jobid, int idx, bool new_only)
{
	sqlite3_stmt *st = hj_st[HJ_EVENTS];
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, jobid);
	sqlite3_bind_int(st, 2, idx);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		hist_job_take(h, (const char *)sqlite3_column_text(st, 0),
		    (const char *)sqlite3_column_text(st, 1),
		    (size_t)sqlite3_column_bytes(st, 1), new_only);
	sqlite3_reset(st);
	return rc == SQLITE_DONE;
}

void
histjob_release(struct job_info *ji)
{
	if (ji == NULL)
		return;
	hist_job_info_release(ji);
	free(ji);
}

/* One finished job or element, or NULL. */
static struct job_info *
hj_one(int64_t jobid, int idx, const char *queue, const char *name,
    bool longform)
{
	struct hist_job h;
	struct job_info *ji = NULL;

	memset(&h, 0, sizeof(h));
	if (!hj_events(&h, jobid, idx, false))
		goto out;
	/* An element's submission is its array's. */
	if (!h.has_new && idx > 0 && !hj_events(&h, jobid, 0, true))
		goto out;
	if (!hist_job_finished(&h))
		goto out;
	ji = xcalloc(1, sizeof(*ji));
	hist_job_fill(ji, jobid, idx, queue, name, &h, longform);
	if (ji->effective_res_req == NULL) {
		/* As a job in memory without its own: the queue's. */
		struct mqueue *q = queue_find(ji->queue);

		ji->effective_res_req = q && q->rr ? resreq_to_string(q->rr) :
		    xstrdup("select[type == local] order[r15s:pg] ");
	}
out:
	hist_job_clear(&h);
	return ji;
}

static char *
col_dup(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? xstrdup(s) : NULL;
}

/*
 * The finished jobs history has for an ID mbatchd no longer knows: the
 * job, the element, or an array's elements.  Appended to *out (n of
 * them); false when there is none or history cannot say.
 */
bool
histjob_lookup(const struct job_id *id, bool longform,
    struct job_info ***out, size_t *n)
{
	sqlite3_stmt *st;
	size_t before = *n;
	bool array = false;
	int rc;

	if (!hj_open())
		return false;
	st = hj_st[HJ_ROW];
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id->jobid);
	sqlite3_bind_int(st, 2, id->idx);
	for (;;) {
		struct job_info *ji;
		char *queue, *name;
		int idx;

		if ((rc = sqlite3_step(st)) != SQLITE_ROW)
			break;
		idx = sqlite3_column_int(st, 0);
		name = (char *)sqlite3_column_text(st, 2);
		if (st == hj_st[HJ_ROW] && idx == 0 &&
		    sqlite3_column_type(st, 3) != SQLITE_NULL &&
		    name && strchr(name, '[')) {
			/* bjobs <array>: each element it has. */
			sqlite3_reset(st);
			st = hj_st[HJ_ELEMS];
			sqlite3_reset(st);
			sqlite3_bind_int64(st, 1, id->jobid);
			array = true;
			continue;
		}
		queue = col_dup(st, 1);
		name = col_dup(st, 2);
		ji = hj_one(id->jobid, idx, queue, name, longform);
		free(queue);
		free(name);
		if (ji) {
			*out = xrealloc(*out, (*n + 1) * sizeof(**out));
			(*out)[(*n)++] = ji;
		}
		if (!array)
			break;
	}
	sqlite3_reset(st);
	for (int i = 0; i < HJ_NSTMT; i++)
		if (sqlite3_stmt_busy(hj_st[i])) {
			/* The transaction would outlive the lookup. */
			log_warnx("history: a lookup left its statement open");
			sqlite3_reset(hj_st[i]);
		}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		/* Busy, or damaged: not found, and a fresh connection next
		 * time (the writer may have rebuilt the file). */
		log_debug("history: job %lld: %s", (long long)id->jobid,
		    sqlite3_errstr(rc));
		hj_close();
	}
	return *n > before;
}

void
histjob_shutdown(void)
{
	hj_close();
}
