/*
 * bjobs <id> of a job mbatchd has cleaned: the answer comes from the job
 * history database, so a workflow tool polling a finished job never takes
 * it for a lost one.  Only jobs asked for by ID and no longer in memory
 * come here; a primary-key lookup each, never a scan.
 *
 * The connection is the main thread's own, read-only, opened on first
 * use and separate from the history thread's.  It never waits: a busy or
 * missing database answers "not found", as before history existed.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "evlog.h"
#include "history.h"
#include "log.h"
#include "mbd.h"

/* Kept inline by mbatchd (mbd-replay.c): a longer one is short-listed
 * without its command, so the same here. */
#define HJ_COMMAND_INLINE	256
#define HJ_RETRY_SECS		5

static struct hist_db	*hj_db;
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
	char *path, *cause;
	int64_t now = time(NULL);

	if (hj_db)
		return true;
	if (hj_failed && now - hj_failed < HJ_RETRY_SECS)
		return false;
	path = xasprintf("%s/%s", mbd->logdir, HISTORY_DB_NAME);
	hj_db = hist_db_open_ro(path, &cause);
	free(path);
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

/* The records that make a finished job's bjobs answer. */
struct hj_recs {
	struct ev_job_new	 new;
	struct ev_job_start	 start;
	struct ev_job_execute	 exec;
	struct ev_job_status	 status;
	bool			 has_new, has_start, has_exec, has_status;
	int64_t			 start_when, status_when;
};

static void
hj_recs_release(struct hj_recs *h)
{
	if (h->has_new)
		ev_job_new_release(&h->new);
	if (h->has_start)
		ev_job_start_release(&h->start);
	if (h->has_exec)
		ev_job_execute_release(&h->exec);
	if (h->has_status)
		ev_job_status_release(&h->status);
	memset(h, 0, sizeof(*h));
}

/* Read one record into its slot; a later one replaces an earlier. */
static void
hj_take(struct hj_recs *h, const char *type, const char *line, size_t len,
    bool new_only)
{
	struct ev_reader r;
	const char *why;

	if (evr_init(&r, line, len, &why) < 0)
		return;
#define TAKE(name, slot, has, rd, rl) \
	if (strcmp(type, name) == 0) {					\
		if (h->has)						\
			rl(&h->slot);					\
		h->has = rd(&r, &h->slot) == 0;				\
		if (!h->has)						\
			rl(&h->slot);					\
		return;							\
	}
	TAKE("JOB_NEW", new, has_new, ev_job_new_read, ev_job_new_release)
	if (new_only)
		return;
	/* Another run: what the last one left goes. */
	if (strcmp(type, "JOB_START") == 0 && h->has_exec) {
		ev_job_execute_release(&h->exec);
		h->has_exec = false;
	}
	if (strcmp(type, "JOB_START") == 0)
		h->start_when = r.when;
	else if (strcmp(type, "JOB_STATUS") == 0)
		h->status_when = r.when;
	TAKE("JOB_START", start, has_start, ev_job_start_read,
	    ev_job_start_release)
	TAKE("JOB_EXECUTE", exec, has_exec, ev_job_execute_read,
	    ev_job_execute_release)
	TAKE("JOB_STATUS", status, has_status, ev_job_status_read,
	    ev_job_status_release)
#undef TAKE
}

static bool
hj_events(struct hj_recs *h, int64_t jobid, int idx, bool new_only)
{
	sqlite3_stmt *st = hj_st[HJ_EVENTS];
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, jobid);
	sqlite3_bind_int(st, 2, idx);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		hj_take(h, (const char *)sqlite3_column_text(st, 0),
		    (const char *)sqlite3_column_text(st, 1),
		    (size_t)sqlite3_column_bytes(st, 1), new_only);
	sqlite3_reset(st);
	return rc == SQLITE_DONE;
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/*
 * The reply's job as job_fill_info gives it for a finished job in
 * memory, from its records and the name and queue its row holds (a
 * bswitch, bmod -J or an element's name).  Everything is allocated:
 * histjob_release frees it.
 */
static void
histjob_fill(struct job_info *ji, int64_t jobid, int idx, const char *queue,
    const char *name, struct hj_recs *h, bool longform)
{
	const struct submit_req *r = &h->new.req;
	const struct ev_job_status *s = &h->status;

	job_info_init(ji);
	ji->present = JI_ALL;
	ji->jobid = jobid;
	ji->idx = idx;
	ji->status = s->status & (JOB_STAT_DONE | JOB_STAT_EXIT |
	    JOB_STAT_PDONE | JOB_STAT_PERR);
	ji->options = r->options;
	ji->options2 = r->options2;
	ji->user = dup_or_null(h->new.user);
	ji->queue = xstrdup(queue ? queue : h->new.queue ? h->new.queue : "");
	ji->from_host = dup_or_null(r->from_host);
	if (h->has_start)
		strv_copy(&ji->exec_hosts, &h->start.exec_hosts);
	ji->job_name = dup_or_null(idx > 0 && name ? name : r->job_name);
	if (r->command && (longform ||
	    strlen(r->command) <= HJ_COMMAND_INLINE))
		ji->command = xstrdup(r->command);
	else if (longform)
		ji->command = xstrdup("");
	ji->project = xstrdup(r->project ? r->project : "default");
	ji->app = dup_or_null(r->app);
	if (r->chkpnt_dir) {
		ji->chkpnt_dir = idx > 0 ?
		    xasprintf("%s/%lld[%d]", r->chkpnt_dir, (long long)jobid,
		    idx) : xasprintf("%s/%lld", r->chkpnt_dir,
		    (long long)jobid);
		ji->chkpnt_period = r->chkpnt_period > 0 ?
		    r->chkpnt_period : 0;
		ji->chkpnt_method = dup_or_null(r->chkpnt_method);
	}
	ji->cwd = dup_or_null(r->cwd ? r->cwd : r->sub_cwd);
	ji->sub_home = dup_or_null(r->sub_home);
	ji->out_file = dup_or_null(r->out_file);
	ji->err_file = dup_or_null(r->err_file);
	ji->in_file = dup_or_null(r->in_file);
	ji->mail_user = dup_or_null(r->mail_user);
	ji->user_group = dup_or_null(r->user_group);
	ji->depend_cond = dup_or_null(r->depend_cond);
	ji->begin_time = r->begin_time;
	ji->term_time = r->term_time;
	ji->user_priority = r->user_priority;
	strv_copy(&ji->asked_hosts, &r->asked_hosts);
	ji->login_shell = dup_or_null(r->login_shell);
	ji->pre_exec = dup_or_null(r->pre_exec);
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		ji->rlimits[i] = r->rlimits[i] > 0 ? r->rlimits[i] :
		    DEFAULT_RLIMIT;
	ji->res_req = dup_or_null(h->new.res_req);
	if (h->has_start && h->start.effective_res_req &&
	    *h->start.effective_res_req)
		ji->effective_res_req = xstrdup(h->start.effective_res_req);
	else {
		struct mqueue *q = queue_find(ji->queue);

		ji->effective_res_req = q && q->rr ? resreq_to_string(q->rr) :
		    xstrdup("select[type == local] order[r15s:pg] ");
	}
	if (h->has_exec) {
		ji->exec_cwd = dup_or_null(h->exec.exec_cwd);
		ji->exec_home = dup_or_null(h->exec.exec_home);
		ji->exec_user = dup_or_null(h->exec.exec_user);
		ji->pgid = h->exec.pgid;
		if (h->exec.pid > 0)
			strv_push_nodup(&ji->pids,
			    xasprintf("%d", h->exec.pid));
	}
	ji->submit_time = h->new.submit_time;
	ji->start_time = h->has_start ? h->start_when : 0;
	ji->end_time = s->end_time ? s->end_time : h->status_when;
	ji->num_procs = ji->max_procs = r->num_procs > 0 ? r->num_procs : 1;
	ji->exit_status = s->exit_status;
	ji->exit_reason = s->exit_info;
	ji->cpu_time = s->cpu_time;
	ji->max_mem_kb = s->max_mem_kb;
	ji->avg_mem_kb = s->avg_mem_kb;
	ji->run_count = (int)s->run_count;
}

void
histjob_release(struct job_info *ji)
{
	if (ji == NULL)
		return;
	free(ji->user);
	free(ji->queue);
	free(ji->from_host);
	strv_release(&ji->exec_hosts);
	free(ji->job_name);
	free(ji->command);
	free(ji->project);
	free(ji->app);
	free(ji->chkpnt_dir);
	free(ji->chkpnt_method);
	free(ji->cwd);
	free(ji->sub_home);
	free(ji->out_file);
	free(ji->err_file);
	free(ji->in_file);
	free(ji->mail_user);
	free(ji->user_group);
	free(ji->depend_cond);
	strv_release(&ji->asked_hosts);
	free(ji->login_shell);
	free(ji->pre_exec);
	free(ji->res_req);
	free(ji->effective_res_req);
	free(ji->exec_cwd);
	free(ji->exec_home);
	free(ji->exec_user);
	strv_release(&ji->pids);
	free(ji);
}

/* One finished job or element, or NULL. */
static struct job_info *
hj_one(int64_t jobid, int idx, const char *queue, const char *name,
    bool longform)
{
	struct hj_recs h;
	struct job_info *ji = NULL;

	memset(&h, 0, sizeof(h));
	if (!hj_events(&h, jobid, idx, false))
		goto out;
	/* An element's submission is its array's. */
	if (!h.has_new && idx > 0 && !hj_events(&h, jobid, 0, true))
		goto out;
	if (!h.has_new || !h.has_status ||
	    !JOB_STAT_FINISHED(h.status.status))
		goto out;
	ji = xcalloc(1, sizeof(*ji));
	histjob_fill(ji, jobid, idx, queue, name, &h, longform);
out:
	hj_recs_release(&h);
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
