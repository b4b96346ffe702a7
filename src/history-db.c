/*
 * The history database (history.h): its schema, the writer's statements,
 * and opening it for readers.  Only mbatchd's history thread writes; it
 * is the one connection that does, so the writer needs no locking of its
 * own, and readers (WAL) never wait for it.  It checkpoints itself, and
 * under a bound (hist_db_wal_limit) waits for readers only when the WAL
 * is full, a second at most, then holds off (history-wal.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "acct.h"
#include "evlog.h"
#include "history.h"
#include "idxset.h"
#include "lsf.h"
#include "util.h"

/* Bumped when the schema changes: an older database is rebuilt. */
#define HIST_SCHEMA	3

static const char schema[] =
"CREATE TABLE IF NOT EXISTS meta ("
"  key TEXT PRIMARY KEY, value);"
"CREATE TABLE IF NOT EXISTS jobs ("
"  jobid INTEGER NOT NULL, idx INTEGER NOT NULL,"
"  user TEXT, uid INTEGER, queue TEXT, app TEXT, project TEXT,"
"  name TEXT, command TEXT, cwd TEXT, from_host TEXT,"
"  submit_time INTEGER, start_time INTEGER, end_time INTEGER,"
"  exec_hosts TEXT, slots INTEGER, status INTEGER,"
"  exit_status INTEGER, exit_reason INTEGER, cpu_time REAL,"
"  max_mem_kb INTEGER, array_base TEXT,"
"  PRIMARY KEY (jobid, idx)) WITHOUT ROWID;"
"CREATE INDEX IF NOT EXISTS jobs_user ON jobs (user, submit_time);"
"CREATE INDEX IF NOT EXISTS jobs_end ON jobs (end_time);"
"CREATE INDEX IF NOT EXISTS jobs_name ON jobs (name);"
"CREATE TABLE IF NOT EXISTS events ("
"  seq INTEGER PRIMARY KEY, jobid INTEGER NOT NULL,"
"  idx INTEGER NOT NULL, time INTEGER NOT NULL, type TEXT NOT NULL,"
"  crc INTEGER NOT NULL, line TEXT NOT NULL, ord INTEGER NOT NULL,"
"  UNIQUE (jobid, time, crc, ord));"
"CREATE TABLE IF NOT EXISTS acct ("
"  seq INTEGER PRIMARY KEY, jobid INTEGER NOT NULL,"
"  idx INTEGER NOT NULL, user TEXT, uid INTEGER, queue TEXT,"
"  project TEXT, app TEXT, name TEXT, from_host TEXT,"
"  submit_time INTEGER, begin_time INTEGER, start_time INTEGER,"
"  end_time INTEGER NOT NULL, status INTEGER, exit_status INTEGER,"
"  exit_info INTEGER, cpu_time REAL, max_mem_kb INTEGER,"
"  max_swap_kb INTEGER, num_procs INTEGER, exec_hosts TEXT,"
"  crc INTEGER NOT NULL, line TEXT NOT NULL, ord INTEGER NOT NULL,"
"  except_mask INTEGER NOT NULL DEFAULT 0,"
"  UNIQUE (jobid, end_time, crc, ord));"
/* bacct's SUMMARY sums these columns: its indexes by user and by end
 * hold them all, so that a summary reads the index and not the rows with
 * their raw lines (a million jobs under a second). */
"CREATE INDEX IF NOT EXISTS acct_user_sums ON acct (user, end_time,"
"  submit_time, start_time, status, cpu_time);"
"CREATE INDEX IF NOT EXISTS acct_queue ON acct (queue, end_time);"
"CREATE INDEX IF NOT EXISTS acct_project ON acct (project, end_time);"
"CREATE INDEX IF NOT EXISTS acct_end_sums ON acct (end_time,"
"  submit_time, start_time, status, cpu_time, user, queue, project);"
"CREATE INDEX IF NOT EXISTS acct_submit ON acct (submit_time);"
"CREATE INDEX IF NOT EXISTS acct_start ON acct (start_time);";

enum {
	S_EVENT, S_JOB_NEW, S_JOB_ELEM, S_START, S_STATUS, S_QUEUE, S_NAME,
	S_PROJECT, S_ACCT, S_GETPOS, S_SETPOS, S_NSTMT
};
static const char *const stmt_sql[S_NSTMT] = {
	[S_EVENT] = "INSERT OR IGNORE INTO events"
	    " (jobid, idx, time, type, crc, line, ord) VALUES (?,?,?,?,?,?,?)",
	[S_JOB_NEW] = "INSERT OR REPLACE INTO jobs (jobid, idx, user, uid,"
	    " queue, app, project, name, command, cwd, from_host,"
	    " submit_time, start_time, end_time, slots, status, array_base)"
	    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,0,0,?,1,?)",
	/* An element's row starts as a copy of its array's, named as
	 * bjobs names it ("name[3]"). */
	[S_JOB_ELEM] = "INSERT OR IGNORE INTO jobs (jobid, idx, user, uid,"
	    " queue, app, project, name, command, cwd, from_host,"
	    " submit_time, start_time, end_time, slots, status, array_base)"
	    " SELECT jobid, ?2, user, uid, queue, app, project,"
	    " coalesce(array_base, '') || '[' || ?2 || ']',"
	    " command, cwd, from_host, submit_time, 0, 0, slots, 1,"
	    " array_base FROM jobs WHERE jobid = ?1 AND idx = 0",
	[S_START] = "UPDATE jobs SET start_time = ?3, exec_hosts = ?4,"
	    " slots = ?5, status = 4, end_time = 0"
	    " WHERE jobid = ?1 AND idx = ?2",
	[S_STATUS] = "UPDATE jobs SET status = ?3,"
	    " end_time = CASE WHEN ?4 THEN ?5 ELSE 0 END,"
	    " exit_status = CASE WHEN ?4 THEN ?6 ELSE exit_status END,"
	    " exit_reason = CASE WHEN ?4 THEN ?7 ELSE exit_reason END,"
	    " cpu_time = CASE WHEN ?8 >= 0 THEN ?8 ELSE cpu_time END,"
	    " max_mem_kb = CASE WHEN ?9 >= 0 THEN ?9 ELSE max_mem_kb END"
	    " WHERE jobid = ?1 AND idx = ?2",
	[S_QUEUE] = "UPDATE jobs SET queue = ?3 WHERE jobid = ?1 AND"
	    " (idx = ?2 OR ?2 = 0)",
	[S_NAME] = "UPDATE jobs SET name = ?3 WHERE jobid = ?1 AND"
	    " (idx = ?2 OR ?2 = 0)",
	[S_PROJECT] = "UPDATE jobs SET project = ?3 WHERE jobid = ?1 AND"
	    " (idx = ?2 OR ?2 = 0)",
	[S_ACCT] = "INSERT OR IGNORE INTO acct (jobid, idx, user, uid,"
	    " queue, project, app, name, from_host, submit_time,"
	    " begin_time, start_time, end_time, status, exit_status,"
	    " exit_info, cpu_time, max_mem_kb, max_swap_kb, num_procs,"
	    " exec_hosts, crc, line, ord, except_mask) VALUES (?1,?2,?3,?4,?5,?6,"
	    " (SELECT app FROM jobs WHERE jobid = ?1 AND idx IN (?2, 0)"
	    " ORDER BY idx DESC LIMIT 1),"
	    " ?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21,?22,"
	    " ?23,?24)",
	[S_GETPOS] = "SELECT value FROM meta WHERE key = ?",
	[S_SETPOS] = "INSERT OR REPLACE INTO meta (key, value) VALUES (?,?)",
};

struct hist_db {
	sqlite3		*db;
	sqlite3_stmt	*st[S_NSTMT];
	bool		 ro;
	bool		 damaged;	/* sqlite found the file corrupt */
	struct hist_wal	 wal;		/* the writer's bound on its WAL */
	int		 page_size;
	int64_t		 wal_frames;	/* what the last commit left */
};

/* The writer waits this long for readers when it must start the WAL
 * again, before it holds off: a bhist takes milliseconds. */
#define HIST_RESTART_WAIT_MS	1000
#define HIST_BUSY_MS		5000

bool
hist_db_damaged(struct hist_db *h)
{
	return h->damaged;
}

sqlite3 *
hist_db_handle(struct hist_db *h)
{
	return h->db;
}

static bool
is_damage(int rc)
{
	rc &= 0xff;
	return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
}

static int
exec(struct hist_db *h, const char *sql, char **cause)
{
	char *err = NULL;
	int rc;

	if ((rc = sqlite3_exec(h->db, sql, NULL, NULL, &err)) != SQLITE_OK) {
		if (is_damage(rc))
			h->damaged = true;
		*cause = xstrdup(err ? err : sqlite3_errstr(rc));
		sqlite3_free(err);
	}
	return rc;
}

void
hist_db_close(struct hist_db *h)
{
	if (h == NULL)
		return;
	for (int i = 0; i < S_NSTMT; i++)
		sqlite3_finalize(h->st[i]);
	sqlite3_close(h->db);
	free(h);
}

static int
pragma_int(struct hist_db *h, const char *sql)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int
user_version(struct hist_db *h)
{
	return pragma_int(h, "PRAGMA user_version");
}

static int
wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
	struct hist_db *h = arg;

	(void)db;
	(void)name;
	h->wal_frames = frames;
	return SQLITE_OK;
}

struct hist_db *
hist_db_open(const char *path, bool *damaged, char **cause)
{
	struct hist_db *h = xcalloc(1, sizeof(*h));
	int rc, v, persist = 1;
	char *sql;

	*damaged = false;
	*cause = NULL;
	rc = sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		*cause = xasprintf("%s: %s", path, sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_busy_timeout(h->db, HIST_BUSY_MS);
	/* Readers open it read-only: the -wal and -shm files must stay
	 * when the writer closes, or they could not. */
	sqlite3_file_control(h->db, NULL, SQLITE_FCNTL_PERSIST_WAL, &persist);
	/*
	 * A reader that opens the database while no one else has it open
	 * reads the whole WAL to index it: it is cut back after each
	 * checkpoint.  No integrity check here: on a large database it
	 * takes seconds; damage found later says so (hist_db_damaged).
	 */
	if ((rc = exec(h, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
	    "PRAGMA journal_size_limit=1048576", cause)) != SQLITE_OK)
		goto damage;
	v = user_version(h);
	if (v != 0 && v != HIST_SCHEMA) {
		*cause = xasprintf("%s: schema version %d, not %d", path, v,
		    HIST_SCHEMA);
		*damaged = true;	/* rebuilt like a damaged one */
		goto fail;
	}
	sql = xasprintf("BEGIN; %s PRAGMA user_version=%d; COMMIT;", schema,
	    HIST_SCHEMA);
	rc = exec(h, sql, cause);
	free(sql);
	if (rc != SQLITE_OK)
		goto damage;
	for (int i = 0; i < S_NSTMT; i++) {
		rc = sqlite3_prepare_v3(h->db, stmt_sql[i], -1,
		    SQLITE_PREPARE_PERSISTENT, &h->st[i], NULL);
		if (rc != SQLITE_OK) {
			*cause = xstrdup(sqlite3_errmsg(h->db));
			goto damage;
		}
	}
	h->page_size = pragma_int(h, "PRAGMA page_size");
	hist_wal_init(&h->wal, 0, h->page_size);
	/* The commits' frames come here, and the checkpoints are the
	 * writer's (hist_db_commit): this replaces sqlite's own. */
	sqlite3_wal_hook(h->db, wal_hook, h);
	return h;
damage:
	*damaged = is_damage(rc) || is_damage(sqlite3_extended_errcode(h->db));
	if (*cause) {
		char *c = xasprintf("%s: %s", path, *cause);

		free(*cause);
		*cause = c;
	}
fail:
	hist_db_close(h);
	return NULL;
}

struct hist_db *
hist_db_open_ro(const char *path, char **cause)
{
	struct hist_db *h = xcalloc(1, sizeof(*h));
	int rc;

	*cause = NULL;
	h->ro = true;
	rc = sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(h->db, HIST_BUSY_MS);
		if (user_version(h) != HIST_SCHEMA)
			rc = SQLITE_NOTADB;
	}
	if (rc != SQLITE_OK) {
		*cause = xasprintf("%s: %s", path, rc == SQLITE_NOTADB ?
		    "not a job history database (mbatchd rebuilds it)" :
		    access(path, F_OK) < 0 ? "no job history here (mbatchd"
		    " keeps it on the master host, in LSB_HIST_DB_DIR or its"
		    " log directory)" :
		    sqlite3_errstr(rc));
		hist_db_close(h);
		return NULL;
	}
	return h;
}

int
hist_db_begin(struct hist_db *h, char **cause)
{
	return exec(h, "BEGIN IMMEDIATE", cause) == SQLITE_OK ? 0 : -1;
}

int
hist_db_commit(struct hist_db *h, char **cause)
{
	int nlog, nckpt;

	if (exec(h, "COMMIT", cause) != SQLITE_OK)
		return -1;
	/*
	 * As sqlite's own checkpoint after a commit: as much as the
	 * readers' snapshots allow, never waiting; when that is all of it,
	 * the next transaction starts the WAL again from its beginning
	 * (unless a reader is still in it).
	 */
	if (hist_wal_commit(&h->wal, h->wal_frames))
		(void)sqlite3_wal_checkpoint_v2(h->db, NULL,
		    SQLITE_CHECKPOINT_PASSIVE, &nlog, &nckpt);
	return 0;
}

void
hist_db_wal_limit(struct hist_db *h, int64_t limit)
{
	int nlog = 0, nckpt = 0;

	hist_wal_init(&h->wal, limit, h->page_size);
	/* What a crash left in it counts. */
	if (sqlite3_wal_checkpoint_v2(h->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
	    &nlog, &nckpt) == SQLITE_OK && nlog > 0)
		h->wal.frames = h->wal_frames = nlog;
}

bool
hist_db_wal_fits(struct hist_db *h, size_t len)
{
	return hist_wal_fits(&h->wal, len);
}

int
hist_db_wal_room(struct hist_db *h, size_t len, char **cause)
{
	int rc, nlog = 0, nckpt = 0;

	*cause = NULL;
	if (hist_wal_fits(&h->wal, len))
		return 1;
	/*
	 * Full: checkpoint all of it and empty the file, which needs every
	 * reader out of the WAL.  One on an older snapshot makes sqlite
	 * wait (the busy handler) and then give up: the writer holds off,
	 * and the WAL stays as it is.
	 */
	sqlite3_busy_timeout(h->db, HIST_RESTART_WAIT_MS);
	rc = sqlite3_wal_checkpoint_v2(h->db, NULL, SQLITE_CHECKPOINT_TRUNCATE,
	    &nlog, &nckpt);
	sqlite3_busy_timeout(h->db, HIST_BUSY_MS);
	if (rc == SQLITE_OK) {
		hist_wal_restart(&h->wal);
		h->wal_frames = 0;
		return 1;
	}
	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		return 0;
	if (is_damage(rc))
		h->damaged = true;
	*cause = xstrdup(sqlite3_errmsg(h->db));
	return -1;
}

int64_t
hist_db_wal_bytes(struct hist_db *h)
{
	return hist_wal_bytes(h->wal.frames, h->page_size);
}

void
hist_db_rollback(struct hist_db *h)
{
	char *cause = NULL;

	(void)exec(h, "ROLLBACK", &cause);
	free(cause);
	hist_wal_rollback(&h->wal);
}

static int
step(struct hist_db *h, int which, char **cause)
{
	sqlite3_stmt *st = h->st[which];
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		if (is_damage(rc))
			h->damaged = true;
		*cause = xstrdup(sqlite3_errmsg(h->db));
		return -1;
	}
	return 0;
}

static void
bind_str(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* The line's checksum token, "@xxxxxxxx" last: part of its identity. */
static int64_t
line_crc(const char *line, size_t len)
{
	char buf[9];

	if (len < 10 || line[len - 9] != '@')
		return 0;
	memcpy(buf, line + len - 8, 8);
	buf[8] = '\0';
	return (int64_t)strtoul(buf, NULL, 16);
}

/* Any other record of a job: the job it names, from its fields (the
 * table says where they are). */
static void
other_job(struct ev_reader *r, int64_t *jobid, int *idx)
{
	const struct ev_type_info *ti = &ev_types[r->id];
	struct ev_any x;

	if (ti->jobid_off < 0)
		return;
	if (ti->read(r, &x) == 0) {
		memcpy(jobid, x.b + ti->jobid_off, sizeof(*jobid));
		memcpy(idx, x.b + ti->idx_off, sizeof(*idx));
	}
	ti->release(&x);
}

/* An array element's first record of its own: its row, from its
 * array's. */
static int
elem(struct hist_db *h, int64_t jobid, int idx, char **cause)
{
	sqlite3_stmt *st = h->st[S_JOB_ELEM];

	if (idx <= 0)
		return 0;
	sqlite3_bind_int64(st, 1, jobid);
	sqlite3_bind_int(st, 2, idx);
	return step(h, S_JOB_ELEM, cause);
}

/* Which job a record names, and what it changes in the job's row. */
static int
event_apply(struct hist_db *h, struct ev_reader *r, int64_t *jobid,
    int *idx, char **cause)
{
	sqlite3_stmt *st;
	int rc = 0;

	*jobid = 0;
	*idx = 0;
	if (r->id < 0 || r->id >= EV_NTYPES)
		return 0;
	switch (ev_types[r->id].hist) {
	case EVH_NONE:
		break;
	case EVH_JOB:
	case EVH_EXECUTE:
		/* Only their place in its timeline. */
		other_job(r, jobid, idx);
		break;
	case EVH_NEW: {
		struct ev_job_new x;

		if (ev_job_new_read(r, &x) == 0) {
			const struct submit_req *q = &x.req;

			*jobid = x.jobid;
			*idx = x.idx;
			st = h->st[S_JOB_NEW];
			sqlite3_bind_int64(st, 1, x.jobid);
			sqlite3_bind_int(st, 2, x.idx);
			bind_str(st, 3, x.user);
			sqlite3_bind_int(st, 4, x.uid);
			bind_str(st, 5, x.queue);
			bind_str(st, 6, q->app);
			bind_str(st, 7, q->project);
			bind_str(st, 8, q->job_name);
			bind_str(st, 9, q->command);
			bind_str(st, 10, q->cwd ? q->cwd : q->sub_cwd);
			bind_str(st, 11, q->from_host);
			sqlite3_bind_int64(st, 12, x.submit_time);
			sqlite3_bind_int(st, 13, q->num_procs);
			if (q->job_name) {
				struct idxset set;
				char *base = NULL;
				const char *why;
				int limit;

				idxset_init(&set);
				if (array_spec_parse(q->job_name, INT32_MAX,
				    &base, &set, &limit, &why) == 0)
					bind_str(st, 14, base);
				idxset_release(&set);
				free(base);
			}
			rc = step(h, S_JOB_NEW, cause);
		}
		ev_job_new_release(&x);
		break;
	}
	case EVH_START: {
		struct ev_job_start x;

		if (ev_job_start_read(r, &x) == 0) {
			char *hosts = strv_join(&x.exec_hosts, " ");

			*jobid = x.jobid;
			*idx = x.idx;
			if ((rc = elem(h, x.jobid, x.idx, cause)) < 0)
				goto start_out;
			st = h->st[S_START];
			sqlite3_bind_int64(st, 1, x.jobid);
			sqlite3_bind_int(st, 2, x.idx);
			sqlite3_bind_int64(st, 3, r->when);
			bind_str(st, 4, hosts);
			sqlite3_bind_int(st, 5, (int)x.exec_hosts.n);
			rc = step(h, S_START, cause);
start_out:
			free(hosts);
		}
		ev_job_start_release(&x);
		break;
	}
	case EVH_STATUS: {
		struct ev_job_status x;

		if (ev_job_status_read(r, &x) == 0) {
			bool fin = JOB_STAT_FINISHED(x.status) != 0;

			*jobid = x.jobid;
			*idx = x.idx;
			if ((rc = elem(h, x.jobid, x.idx, cause)) == 0) {
			st = h->st[S_STATUS];
			sqlite3_bind_int64(st, 1, x.jobid);
			sqlite3_bind_int(st, 2, x.idx);
			sqlite3_bind_int(st, 3, x.status);
			sqlite3_bind_int(st, 4, fin);
			sqlite3_bind_int64(st, 5, x.end_time ? x.end_time :
			    r->when);
			sqlite3_bind_int(st, 6, x.exit_status);
			sqlite3_bind_int(st, 7, x.exit_info);
			sqlite3_bind_double(st, 8, x.cpu_time);
			sqlite3_bind_int64(st, 9, x.max_mem_kb);
			rc = step(h, S_STATUS, cause);
			}
		}
		ev_job_status_release(&x);
		break;
	}
	case EVH_QUEUE: {
		struct ev_job_switch x;

		if (ev_job_switch_read(r, &x) == 0) {
			*jobid = x.jobid;
			*idx = x.idx;
			st = h->st[S_QUEUE];
			sqlite3_bind_int64(st, 1, x.jobid);
			sqlite3_bind_int(st, 2, x.idx);
			bind_str(st, 3, x.queue);
			rc = step(h, S_QUEUE, cause);
		}
		ev_job_switch_release(&x);
		break;
	}
	case EVH_MODIFY: {
		struct ev_job_modify x;

		if (ev_job_modify_read(r, &x) == 0) {
			static const struct { uint32_t bit; int s; } m[] = {
				{ MOD_QUEUE, S_QUEUE }, { MOD_NAME, S_NAME },
				{ MOD_PROJECT, S_PROJECT },
			};

			*jobid = x.jobid;
			*idx = x.idx;
			for (size_t i = 0; i < ARRAY_SIZE(m) && rc == 0;
			    i++) {
				const char *v = m[i].s == S_QUEUE ?
				    x.req.queue : m[i].s == S_NAME ?
				    x.req.job_name : x.req.project;

				if (!(x.set & m[i].bit) || v == NULL)
					continue;
				st = h->st[m[i].s];
				sqlite3_bind_int64(st, 1, x.jobid);
				sqlite3_bind_int(st, 2, x.idx);
				bind_str(st, 3, v);
				rc = step(h, m[i].s, cause);
			}
		}
		ev_job_modify_release(&x);
		break;
	}
	}
	return rc;
}

int
hist_db_event(struct hist_db *h, const char *line, size_t len, int ord,
    char **cause)
{
	struct ev_reader r, copy;
	sqlite3_stmt *st = h->st[S_EVENT];
	const char *why;
	int64_t jobid;
	int idx;

	*cause = NULL;
	hist_wal_add(&h->wal, len);
	if (len == 0 || line[0] == '#')
		return 0;		/* the header */
	if (evr_init(&r, line, len, &why) < 0) {
		*cause = xstrdup(why);
		return -1;
	}
	/* Not a job's record (MBD_START, HOST_CTRL...): not history of
	 * jobs. */
	if (r.id < 0 || r.id >= EV_NTYPES || ev_types[r.id].hist == EVH_NONE)
		return 0;
	copy = r;
	if (ev_types[r.id].key(&copy, &jobid, &idx) < 0 || jobid <= 0)
		return 0;
	/* Only a record not yet there may change the job's row: applying
	 * an older one again would undo what came after it. */
	sqlite3_bind_int64(st, 1, jobid);
	sqlite3_bind_int(st, 2, 0);
	sqlite3_bind_int64(st, 3, r.when);
	sqlite3_bind_text(st, 4, r.type, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 5, line_crc(line, len));
	sqlite3_bind_text(st, 6, line, (int)len, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 7, ord);
	if (step(h, S_EVENT, cause) < 0)
		return -1;
	if (sqlite3_changes(h->db) == 0)
		return 0;
	copy = r;
	if (event_apply(h, &copy, &jobid, &idx, cause) < 0)
		return -1;
	if (idx != 0) {
		char *sql = sqlite3_mprintf("UPDATE events SET idx = %d"
		    " WHERE seq = %lld", idx,
		    (long long)sqlite3_last_insert_rowid(h->db));
		int rc = exec(h, sql, cause);

		sqlite3_free(sql);
		if (rc != SQLITE_OK)
			return -1;
	}
	return 1;
}

int
hist_db_acct(struct hist_db *h, const char *line, size_t len, int ord,
    char **cause)
{
	struct ev_reader r;
	struct acct_finish a;
	sqlite3_stmt *st = h->st[S_ACCT];
	const char *why;
	char *hosts;
	double cpu;
	int rc;

	*cause = NULL;
	hist_wal_add(&h->wal, len);
	if (evr_init(&r, line, len, &why) < 0) {
		*cause = xstrdup(why);
		return -1;
	}
	if (strcmp(r.type, "JOB_FINISH") != 0)
		return 0;
	if (acct_finish_read(&r, &a) < 0) {
		acct_finish_release(&a);
		*cause = xstrdup("malformed JOB_FINISH record");
		return -1;
	}
	hosts = strv_join(&a.exec_hosts, " ");
	cpu = a.utime < 0 && a.stime < 0 ? -1 :
	    (a.utime > 0 ? a.utime : 0) + (a.stime > 0 ? a.stime : 0);
	sqlite3_bind_int64(st, 1, a.jobid);
	sqlite3_bind_int(st, 2, a.idx);
	bind_str(st, 3, a.user);
	sqlite3_bind_int(st, 4, a.uid);
	bind_str(st, 5, a.queue);
	bind_str(st, 6, a.project);
	bind_str(st, 7, a.job_name);
	bind_str(st, 8, a.from_host);
	sqlite3_bind_int64(st, 9, a.submit_time);
	sqlite3_bind_int64(st, 10, a.begin_time);
	sqlite3_bind_int64(st, 11, a.start_time);
	sqlite3_bind_int64(st, 12, a.end_time);
	sqlite3_bind_int(st, 13, a.status);
	sqlite3_bind_int(st, 14, a.exit_status);
	sqlite3_bind_int(st, 15, a.exit_info);
	sqlite3_bind_double(st, 16, cpu);
	sqlite3_bind_int64(st, 17, a.max_mem_kb);
	sqlite3_bind_int64(st, 18, a.max_swap_kb);
	sqlite3_bind_int(st, 19, a.num_procs);
	bind_str(st, 20, hosts);
	sqlite3_bind_int64(st, 21, line_crc(line, len));
	sqlite3_bind_text(st, 22, line, (int)len, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 23, ord);
	sqlite3_bind_int(st, 24, a.except_mask);
	rc = step(h, S_ACCT, cause);
	free(hosts);
	acct_finish_release(&a);
	if (rc < 0)
		return -1;
	return sqlite3_changes(h->db) > 0 ? 1 : 0;
}

int
hist_db_get_pos(struct hist_db *h, const char *source, struct hist_pos *p)
{
	sqlite3_stmt *st = h->st[S_GETPOS];
	unsigned long long dev, ino;
	long long off;
	int found = 0;

	memset(p, 0, sizeof(*p));
	sqlite3_bind_text(st, 1, source, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);

		if (v && sscanf(v, "%llu %llu %lld", &dev, &ino, &off) == 3) {
			p->dev = dev;
			p->ino = ino;
			p->off = off;
			found = 1;
		}
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return found;
}

int
hist_db_set_pos(struct hist_db *h, const char *source,
    const struct hist_pos *p, char **cause)
{
	sqlite3_stmt *st = h->st[S_SETPOS];
	char buf[80];

	snprintf(buf, sizeof(buf), "%llu %llu %lld",
	    (unsigned long long)p->dev, (unsigned long long)p->ino,
	    (long long)p->off);
	sqlite3_bind_text(st, 1, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, buf, -1, SQLITE_TRANSIENT);
	return step(h, S_SETPOS, cause);
}
