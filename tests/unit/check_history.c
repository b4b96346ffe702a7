/*
 * The job history: the time spent in each state (history.c), the
 * database writer (history-db.c: a record applied twice changes nothing,
 * records copied forward by a switch are not new, positions are kept),
 * bhist -l's line for each kind of record (history-render.c), the
 * WAL's bound (history-wal.c) against a reader that holds it, and the
 * readers' chunked reads (history-open.c).
 */
#include <sys/stat.h>

#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "acct.h"
#include "evlog.h"
#include "history.h"
#include "lsf.h"
#include "util.h"

START_TEST(test_times)
{
	struct hist_times t;

	hist_times_init(&t);
	hist_times_feed(&t, "JOB_NEW", 100, 0);
	hist_times_feed(&t, "JOB_START", 110, 0);
	hist_times_feed(&t, "JOB_EXECUTE", 111, 0);
	hist_times_feed(&t, "JOB_STATUS", 120, JOB_STAT_USUSP);
	hist_times_feed(&t, "JOB_STATUS", 125, JOB_STAT_SSUSP);
	hist_times_feed(&t, "JOB_STATUS", 127, JOB_STAT_RUN);
	hist_times_feed(&t, "JOB_STATUS", 140, JOB_STAT_DONE);
	/* A finished job's figures do not grow with the clock. */
	ck_assert_int_eq(hist_times_end(&t, 1000), 40);
	ck_assert_int_eq(t.secs[HS_PEND], 10);
	ck_assert_int_eq(t.secs[HS_RUN], 23);
	ck_assert_int_eq(t.secs[HS_USUSP], 5);
	ck_assert_int_eq(t.secs[HS_SSUSP], 2);
	ck_assert_int_eq(t.end, 140);

	/* Held at submission, released, requeued after a run, unfinished. */
	hist_times_init(&t);
	hist_times_feed(&t, "JOB_NEW", 0 + 100, JOB_STAT_PSUSP);
	hist_times_feed(&t, "JOB_STATUS", 103, JOB_STAT_PEND);
	hist_times_feed(&t, "JOB_START", 104, 0);
	hist_times_feed(&t, "JOB_STATUS", 108, JOB_STAT_PEND);
	hist_times_feed(&t, "JOB_START", 110, 0);
	hist_times_feed(&t, "JOB_STATUS", 111, JOB_STAT_UNKWN);
	ck_assert_int_eq(hist_times_end(&t, 120), 20);
	ck_assert_int_eq(t.secs[HS_PSUSP], 3);
	ck_assert_int_eq(t.secs[HS_PEND], 3);
	ck_assert_int_eq(t.secs[HS_RUN], 5);
	ck_assert_int_eq(t.secs[HS_UNKWN], 9);
	ck_assert_int_eq(t.end, 0);

	/* Records before its submission are not its history. */
	hist_times_init(&t);
	hist_times_feed(&t, "JOB_STATUS", 50, JOB_STAT_RUN);
	ck_assert_int_eq(hist_times_end(&t, 60), 0);
}
END_TEST

/* Records of one job's life, as mbatchd writes them. */
static void
job_records(struct strbuf *sb, int64_t jobid, const char *queue)
{
	struct ev_job_new n;
	struct ev_job_start s;
	struct ev_job_status st;
	struct ev_job_switch sw;

	memset(&n, 0, sizeof(n));
	submit_req_init(&n.req);
	n.jobid = jobid;
	n.uid = 1000;
	n.user = "ann";
	n.submit_time = 1000;
	n.queue = "normal";
	n.req.job_name = "sim";
	n.req.command = "./sim -x";
	n.req.sub_cwd = "/home/ann";
	n.req.from_host = "hosta";
	n.req.num_procs = 1;
	n.req.project = "p1";
	ev_job_new_write(sb, 1000, &n);
	memset(&sw, 0, sizeof(sw));
	sw.jobid = jobid;
	sw.queue = (char *)queue;
	sw.user = "ann";
	ev_job_switch_write(sb, 1001, &sw);
	memset(&s, 0, sizeof(s));
	s.jobid = jobid;
	s.status = JOB_STAT_RUN;
	strv_push(&s.exec_hosts, "hostb");
	strv_push(&s.exec_hosts, "hostb");
	ev_job_start_write(sb, 1005, &s);
	strv_release(&s.exec_hosts);
	memset(&st, 0, sizeof(st));
	st.jobid = jobid;
	st.status = JOB_STAT_EXIT;
	st.exit_status = 3 << 8;
	st.cpu_time = 1.5;
	st.end_time = 1020;
	st.max_mem_kb = 2048;
	st.exit_info = TERM_OWNER;
	ev_job_status_write(sb, 1020, &st);
}

/*
 * Apply the lines of a file from offset from on, as the writer does
 * when it starts there: the lines before it counted, not applied.  The
 * number applied.
 */
static int
apply_from(struct hist_db *h, const struct strbuf *sb, size_t from)
{
	const char *p = sb->buf + from, *end = sb->buf + sb->len, *nl;
	struct hist_ord *o = hist_ord_new();
	char *cause;
	int n = 0, rc;

	hist_ord_scan(o, sb->buf, from);
	ck_assert_int_eq(hist_db_begin(h, &cause), 0);
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		rc = hist_db_event(h, p, (size_t)(nl - p),
		    hist_ord_next(o, p, (size_t)(nl - p)), &cause);
		ck_assert_msg(rc >= 0, "%s", rc < 0 ? cause : "");
		n += rc;
	}
	ck_assert_int_eq(hist_db_commit(h, &cause), 0);
	hist_ord_free(o);
	return n;
}

/* Apply every line of buf; the number applied. */
static int
apply(struct hist_db *h, const struct strbuf *sb)
{
	return apply_from(h, sb, 0);
}

static int
count(struct hist_db *h, const char *sql)
{
	sqlite3_stmt *st;
	int n = -1;

	ck_assert_int_eq(sqlite3_prepare_v2(hist_db_handle(h), sql, -1, &st,
	    NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* The whole database as text, to compare. */
static char *
dump(struct hist_db *h)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const q[] = {
		"SELECT jobid, idx, user, queue, project, name, command, cwd,"
		" from_host, submit_time, start_time, end_time, exec_hosts,"
		" slots, status, exit_status, exit_reason, cpu_time,"
		" max_mem_kb FROM jobs ORDER BY jobid, idx",
		"SELECT jobid, idx, time, type, line FROM events ORDER BY seq",
		"SELECT jobid, user, queue, end_time, status, cpu_time"
		" FROM acct ORDER BY seq",
	};
	sqlite3_stmt *st;

	for (size_t i = 0; i < ARRAY_SIZE(q); i++) {
		ck_assert_int_eq(sqlite3_prepare_v2(hist_db_handle(h), q[i],
		    -1, &st, NULL), SQLITE_OK);
		while (sqlite3_step(st) == SQLITE_ROW) {
			for (int c = 0; c < sqlite3_column_count(st); c++) {
				const char *v = (const char *)
				    sqlite3_column_text(st, c);

				sb_addf(&sb, "%s|", v ? v : "NULL");
			}
			sb_addc(&sb, '\n');
		}
		sqlite3_finalize(st);
		sb_adds(&sb, "--\n");
	}
	return sb_detach(&sb);
}

/* The directories tmpdb made, removed when the test's process ends. */
static struct strv tmpdirs = STRV_INIT;

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void
tmpdirs_remove(void)
{
	for (size_t i = 0; i < tmpdirs.n; i++)
		nftw(tmpdirs.v[i], rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static char *
tmpdb(void)
{
	const char *t = getenv("TMPDIR");
	char *dir = xasprintf("%s/check_history.XXXXXX", t && *t ? t : "/tmp");

	ck_assert_ptr_nonnull(mkdtemp(dir));
	if (tmpdirs.n == 0)
		atexit(tmpdirs_remove);
	strv_push(&tmpdirs, dir);
	free(dir);
	return xasprintf("%s/%s", tmpdirs.v[tmpdirs.n - 1], HISTORY_DB_NAME);
}

START_TEST(test_writer)
{
	struct strbuf sb = STRBUF_INIT, copied = STRBUF_INIT;
	struct hist_db *h;
	struct hist_pos p = { 1, 2, 3 }, got;
	char *path = tmpdb(), *cause, *once, *twice;
	bool damaged;

	h = hist_db_open(path, &damaged, &cause);
	ck_assert_ptr_nonnull(h);
	job_records(&sb, 7, "other");
	ck_assert_int_eq(apply(h, &sb), 4);
	once = dump(h);
	ck_assert_ptr_nonnull(strstr(once, "7|0|ann|other|p1|sim|./sim -x|"
	    "/home/ann|hosta|1000|1005|1020|hostb hostb|2|32|768|14|1.5|"
	    "2048|\n"));
	/* The same records again (a catch-up from an earlier position)
	 * change nothing; nor do they out of order. */
	ck_assert_int_eq(apply(h, &sb), 0);
	twice = dump(h);
	ck_assert_str_eq(once, twice);
	free(twice);
	/* A switch copies a live job's records forward verbatim: they are
	 * not new either; what follows them is. */
	sb_add(&copied, sb.buf, sb.len);
	{
		struct ev_log_switch ls = { 7 };
		struct ev_job_requeue rq = { 7, 0 };

		ev_log_switch_write(&copied, 1030, &ls);
		ev_job_requeue_write(&copied, 1031, &rq);
	}
	ck_assert_int_eq(apply(h, &copied), 1);
	twice = dump(h);
	ck_assert_str_ne(once, twice);
	ck_assert_ptr_nonnull(strstr(twice, "|JOB_REQUEUE|"));
	free(twice);
	/* Positions. */
	ck_assert_int_eq(hist_db_get_pos(h, "events", &got), 0);
	ck_assert_int_eq(hist_db_set_pos(h, "events", &p, &cause), 0);
	ck_assert_int_eq(hist_db_get_pos(h, "events", &got), 1);
	ck_assert_int_eq(got.dev, 1);
	ck_assert_int_eq(got.ino, 2);
	ck_assert_int_eq(got.off, 3);
	/* Damage is reported, and not applied. */
	ck_assert_int_eq(hist_db_event(h, "\"JOB_NEW\" \"10.1\" 5 @00000000",
	    28, 0, &cause), -1);
	free(cause);
	hist_db_close(h);
	/* Readers see it read-only. */
	h = hist_db_open_ro(path, &cause);
	ck_assert_ptr_nonnull(h);
	twice = dump(h);
	ck_assert_ptr_nonnull(strstr(twice, "|JOB_REQUEUE|"));
	free(twice);
	hist_db_close(h);
	free(once);
	sb_release(&sb);
	sb_release(&copied);
	free(path);
}
END_TEST

START_TEST(test_acct)
{
	struct strbuf sb = STRBUF_INIT;
	struct acct_finish a;
	struct hist_db *h;
	char *path = tmpdb(), *cause, *d;
	bool damaged;

	h = hist_db_open(path, &damaged, &cause);
	ck_assert_ptr_nonnull(h);
	acct_finish_init(&a);
	a.jobid = 9;
	a.user = "bob";
	a.queue = "normal";
	a.project = "p2";
	a.status = JOB_STAT_DONE;
	a.utime = 2.0;
	a.stime = 0.5;
	a.end_time = 2000;
	a.submit_time = 1900;
	a.start_time = 1950;
	acct_finish_write(&sb, &a);
	ck_assert_int_eq(hist_db_acct(h, sb.buf, sb.len - 1, 0, &cause), 1);
	ck_assert_int_eq(hist_db_acct(h, sb.buf, sb.len - 1, 0, &cause), 0);
	/* The same record again in the same file (a requeued job that
	 * ran and ended twice in one second): counted, not collapsed. */
	ck_assert_int_eq(hist_db_acct(h, sb.buf, sb.len - 1, 1, &cause), 1);
	ck_assert_int_eq(hist_db_acct(h, sb.buf, sb.len - 1, 1, &cause), 0);
	ck_assert_int_eq(count(h, "SELECT count(*) FROM acct"), 2);
	d = dump(h);
	ck_assert_ptr_nonnull(strstr(d, "9|bob|normal|2000|64|2.5|\n"));
	free(d);
	hist_db_close(h);
	sb_release(&sb);
	free(path);
}
END_TEST

START_TEST(test_array)
{
	struct strbuf sb = STRBUF_INIT;
	struct ev_job_new n;
	struct ev_job_start st;
	struct hist_db *h;
	char *path = tmpdb(), *cause, *d;
	bool damaged;

	h = hist_db_open(path, &damaged, &cause);
	ck_assert_ptr_nonnull(h);
	memset(&n, 0, sizeof(n));
	submit_req_init(&n.req);
	n.jobid = 5;
	n.user = "ann";
	n.queue = "normal";
	n.submit_time = 100;
	n.req.job_name = "a[1-3]%2";
	n.req.command = "run";
	ev_job_new_write(&sb, 100, &n);
	memset(&st, 0, sizeof(st));
	st.jobid = 5;
	st.idx = 2;
	st.status = JOB_STAT_RUN;
	strv_push(&st.exec_hosts, "hosta");
	ev_job_start_write(&sb, 101, &st);
	strv_release(&st.exec_hosts);
	ck_assert_int_eq(apply(h, &sb), 2);
	d = dump(h);
	/* The array's row, and its element's, named as bjobs names it. */
	ck_assert_ptr_nonnull(strstr(d, "5|0|ann|normal||a[1-3]%2|"));
	ck_assert_ptr_nonnull(strstr(d, "5|2|ann|normal||a[2]|run|"));
	/* The element's record is filed under it. */
	ck_assert_ptr_nonnull(strstr(d, "5|2|101|JOB_START|"));
	free(d);
	hist_db_close(h);
	sb_release(&sb);
	free(path);
}
END_TEST

/* bstop, bresume, bstop in one second: the second stop is the same
 * bytes as the first. */
static void
stop_resume_stop(struct strbuf *sb, int64_t jobid, int64_t when)
{
	struct ev_job_status st;

	memset(&st, 0, sizeof(st));
	st.jobid = jobid;
	st.status = JOB_STAT_USUSP;
	ev_job_status_write(sb, when, &st);
	st.status = JOB_STAT_RUN;
	ev_job_status_write(sb, when, &st);
	st.status = JOB_STAT_USUSP;
	ev_job_status_write(sb, when, &st);
}

/* The offset just after the nth line of sb holding what. */
static size_t
after(const struct strbuf *sb, const char *what, int nth)
{
	const char *p = sb->buf;

	for (; nth > 0; nth--) {
		p = strstr(p, what);
		ck_assert_ptr_nonnull(p);
		p = strchr(p, '\n') + 1;
	}
	return (size_t)(p - sb->buf);
}

/* Events rows of job 7 stopped by its user (USUSP, 16). */
static int
stops(struct hist_db *h)
{
	return count(h, "SELECT count(*) FROM events WHERE jobid = 7 AND"
	    " type = 'JOB_STATUS' AND line LIKE '%\"JOB_STATUS\" % 7 16 %'");
}

START_TEST(test_identical)
{
	struct strbuf old = STRBUF_INIT, cur = STRBUF_INIT;
	struct hist_db *h;
	char *path = tmpdb(), *path2 = tmpdb(), *cause, *a, *b;
	const char *l1, *l2;
	size_t mid, start;
	bool damaged;

	h = hist_db_open(path, &damaged, &cause);
	ck_assert_ptr_nonnull(h);
	job_records(&old, 7, "other");
	/* Not finished yet: drop its JOB_STATUS EXIT. */
	old.len = after(&old, "\"JOB_START\"", 1);
	stop_resume_stop(&old, 7, 1010);
	l1 = old.buf + after(&old, "\"JOB_START\"", 1);
	l2 = old.buf + after(&old, "\"JOB_STATUS\"", 2);
	ck_assert_int_eq(memcmp(l1, l2, (size_t)(strchr(l1, '\n') - l1)),
	    0);
	/* Both stops are kept; the file again adds nothing. */
	ck_assert_int_eq(apply(h, &old), 6);
	ck_assert_int_eq(stops(h), 2);
	ck_assert_int_eq(apply(h, &old), 0);
	ck_assert_int_eq(stops(h), 2);
	/* A byte-identical replica read from its start (another inode,
	 * so no saved position): nothing new either. */
	ck_assert_int_eq(apply_from(h, &old, 0), 0);
	hist_db_close(h);

	/* Resume between the two stops: the second is new, the first is
	 * not applied again. */
	h = hist_db_open(path2, &damaged, &cause);
	ck_assert_ptr_nonnull(h);
	mid = after(&old, "\"JOB_STATUS\"", 1);
	{
		struct strbuf head = STRBUF_INIT;

		sb_add(&head, old.buf, mid);
		ck_assert_int_eq(apply(h, &head), 4);
		sb_release(&head);
	}
	ck_assert_int_eq(stops(h), 1);
	ck_assert_int_eq(apply_from(h, &old, mid), 2);
	ck_assert_int_eq(stops(h), 2);
	/* A catch-up from before the first stop adds nothing. */
	ck_assert_int_eq(apply_from(h, &old, after(&old, "\"JOB_START\"",
	    1)), 0);
	ck_assert_int_eq(stops(h), 2);
	a = dump(h);

	/* A switch copies the live job's records forward, then a third
	 * stop of the same second follows the LOG_SWITCH: read from the
	 * new file's history start, only it is new. */
	sb_add(&cur, old.buf, old.len);
	{
		struct ev_log_switch ls = { 7 };
		struct ev_job_status st;

		ev_log_switch_write(&cur, 1010, &ls);
		memset(&st, 0, sizeof(st));
		st.jobid = 7;
		st.status = JOB_STAT_RUN;
		ev_job_status_write(&cur, 1010, &st);
		st.status = JOB_STAT_USUSP;
		ev_job_status_write(&cur, 1010, &st);
	}
	start = after(&cur, "\"LOG_SWITCH\"", 1);
	ck_assert_int_eq(apply_from(h, &cur, start), 2);
	ck_assert_int_eq(stops(h), 3);
	free(a);
	a = dump(h);
	hist_db_close(h);

	/* Rebuilt from the new file alone (the old one gone): the same
	 * history, in the same order. */
	unlink(path);
	h = hist_db_open(path, &damaged, &cause);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(apply(h, &cur), 8);
	ck_assert_int_eq(stops(h), 3);
	b = dump(h);
	ck_assert_str_eq(a, b);
	/* And the old file read again after it adds nothing. */
	ck_assert_int_eq(apply(h, &old), 0);
	hist_db_close(h);
	free(a);
	free(b);
	sb_release(&old);
	sb_release(&cur);
	free(path);
	free(path2);
}
END_TEST

START_TEST(test_ord)
{
	struct hist_ord *o = hist_ord_new();
	const char buf[] = "a\nb\na\na\n";

	ck_assert_int_eq(hist_ord_next(o, "a", 1), 0);
	ck_assert_int_eq(hist_ord_next(o, "b", 1), 0);
	ck_assert_int_eq(hist_ord_next(o, "a", 1), 1);
	ck_assert_int_eq(hist_ord_next(o, "ab", 2), 0);
	hist_ord_clear(o);
	/* Only complete lines are counted. */
	hist_ord_scan(o, buf, sizeof(buf) - 2);
	ck_assert_int_eq(hist_ord_next(o, "a", 1), 2);
	ck_assert_int_eq(hist_ord_next(o, "b", 1), 1);
	/* Many lines: the map grows and keeps its counts. */
	hist_ord_clear(o);
	for (int i = 0; i < 5000; i++) {
		char l[16];

		snprintf(l, sizeof(l), "l%d", i % 2500);
		ck_assert_int_eq(hist_ord_next(o, l, strlen(l)), i / 2500);
	}
	hist_ord_free(o);
}
END_TEST

/* A record rendered as bhist -l prints it, without its date. */
static char *
rendered(struct hist_render *rd, const struct strbuf *sb)
{
	char *out = NULL, *p;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	const char *line = sb->buf, *end = sb->buf + sb->len, *nl;
	struct ev_reader r;
	const char *why;

	rd->fp = fp;
	for (; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		ck_assert_int_eq(evr_init(&r, line, (size_t)(nl - line), &why),
		    0);
		hist_render_line(rd, r.type, line, (size_t)(nl - line));
	}
	fclose(fp);
	/* Strip the dates: "Wed Nov  2 01:23:45: ". */
	for (p = out; (p = strstr(p, ": ")) != NULL; ) {
		char *bol = p;

		while (bol > out && bol[-1] != '\n')
			bol--;
		memmove(bol, p + 2, strlen(p + 2) + 1);
		p = bol;
		p = strchr(p, '\n');
		if (p == NULL)
			break;
	}
	return out;
}

START_TEST(test_render)
{
	struct strbuf sb = STRBUF_INIT;
	struct hist_render rd;
	struct ev_job_signal sg;
	struct ev_job_status st;
	struct ev_job_execute ex;
	struct ev_job_modify m;
	char *out;

	hist_render_init(&rd, NULL, false, "");
	job_records(&sb, 7, "other");
	out = rendered(&rd, &sb);
	ck_assert_str_eq(out,
	    "Submitted from host <hosta>, to Queue <normal>, CWD </home/ann>;\n"
	    "Switched to Queue <other> by user or administrator <ann>;\n"
	    "Dispatched to 2 Hosts/Processors <2*hostb>;\n"
	    "Exited with exit code 3. The CPU time used is 1.5 seconds;\n"
	    "Completed <exit>; TERM_OWNER: job killed by owner.\n");
	free(out);

	/* Started, stopped by its owner, resumed, done. */
	sb_reset(&sb);
	hist_render_init(&rd, NULL, false, "");
	rd.state = HS_RUN;
	memset(&ex, 0, sizeof(ex));
	ex.jobid = 7;
	ex.pid = 42;
	ex.exec_home = "/home/ann";
	ex.exec_cwd = "/w";
	ev_job_execute_write(&sb, 1006, &ex);
	memset(&sg, 0, sizeof(sg));
	sg.jobid = 7;
	sg.signal = "STOP";
	sg.user = "ann";
	ev_job_signal_write(&sb, 1007, &sg);
	memset(&st, 0, sizeof(st));
	st.jobid = 7;
	st.status = JOB_STAT_USUSP;
	ev_job_status_write(&sb, 1007, &st);
	sg.signal = "CONT";
	ev_job_signal_write(&sb, 1008, &sg);
	st.status = JOB_STAT_RUN;
	ev_job_status_write(&sb, 1008, &st);
	sg.signal = "KILL";
	sg.flags = SIG_F_REQUEUE;
	ev_job_signal_write(&sb, 1009, &sg);
	st.status = JOB_STAT_PEND;
	ev_job_status_write(&sb, 1010, &st);
	memset(&m, 0, sizeof(m));
	submit_req_init(&m.req);
	m.jobid = 7;
	m.user = "ann";
	m.set = MOD_NAME;
	m.req.job_name = "new";
	ev_job_modify_write(&sb, 1011, &m);
	st.status = JOB_STAT_DONE | JOB_STAT_PDONE;
	st.cpu_time = 0.25;
	ev_job_status_write(&sb, 1012, &st);
	out = rendered(&rd, &sb);
	ck_assert_str_eq(out,
	    "Starting (Pid 42);\n"
	    "Running with execution home </home/ann>, Execution CWD </w>,"
	    " Execution Pid <42>;\n"
	    "Suspended by the user or administrator <ann>;\n"
	    "Resumed by the user or administrator <ann>;\n"
	    "Signal <REQUEUE_PEND> requested by the user or administrator"
	    " <ann>;\n"
	    "Pending: Job has been requeued;\n"
	    "Parameters of Job are changed: Job name changes to : new; by"
	    " user or administrator <ann>;\n"
	    "Done successfully. The CPU time used is 0.2 seconds;\n"
	    "Post job process done successfully;\n");
	free(out);
	sb_release(&sb);
}
END_TEST

/* The WAL's bound, as the writer asks it (history-wal.c). */
START_TEST(test_wal_bound)
{
	struct hist_wal w;

	/* None: every record, sqlite's own checkpoint. */
	hist_wal_init(&w, 0, 4096);
	ck_assert(hist_wal_fits(&w, 300));
	for (int i = 0; i < 100000; i++)
		hist_wal_add(&w, 300);
	ck_assert(hist_wal_fits(&w, 1 << 20));
	ck_assert(!hist_wal_commit(&w, 999));
	ck_assert(hist_wal_commit(&w, 1000));
	ck_assert(hist_wal_commit(&w, 1000000));
	ck_assert(hist_wal_fits(&w, 300));
	ck_assert_int_eq(hist_wal_bytes(0, 4096), 0);
	ck_assert_int_eq(hist_wal_bytes(2, 4096), 32 + 2 * 4120);

	/* A record's charge: two frames, and twice the pages of its line. */
	ck_assert_int_eq(hist_wal_cost(&w, 0), 2);
	ck_assert_int_eq(hist_wal_cost(&w, 300), 3);
	ck_assert_int_eq(hist_wal_cost(&w, 2048), 3);
	ck_assert_int_eq(hist_wal_cost(&w, 2049), 4);
	ck_assert_int_eq(hist_wal_cost(&w, 100000), 2 + 49);

	/* 1 MB of 4 KB pages: 254 frames, a checkpoint from a quarter. */
	hist_wal_init(&w, 1 << 20, 4096);
	ck_assert_int_eq(w.limit, 254);
	ck_assert_int_eq(w.ckpt, 63);
	ck_assert_int_eq(w.fixed, 32);
	/* An empty WAL: 74 records of 3 frames and the fixed 32 fit (254),
	 * the 75th does not. */
	for (int i = 0; i < 74; i++) {
		ck_assert(hist_wal_fits(&w, 300));
		hist_wal_add(&w, 300);
	}
	ck_assert(!hist_wal_fits(&w, 300));
	/* They added 40 frames: the charge was enough, the fixed part
	 * stays. */
	ck_assert(!hist_wal_commit(&w, 40));
	ck_assert_int_eq(w.fixed, 32);
	ck_assert_int_eq(w.txn, 0);
	/* 40 + 32 + 3k <= 254: 60 records. */
	for (int i = 0; i < 60; i++) {
		ck_assert(hist_wal_fits(&w, 300));
		hist_wal_add(&w, 300);
	}
	ck_assert(!hist_wal_fits(&w, 300));
	ck_assert(hist_wal_commit(&w, 100));	/* 60 more: due */
	/* One record alone added 50: a fixed part of 47 from now on. */
	hist_wal_add(&w, 300);
	ck_assert(hist_wal_commit(&w, 150));
	ck_assert_int_eq(w.fixed, 47);
	/* 150 + 47 + 3k <= 254: 19 records; after 55 more frames, none
	 * for a new transaction. */
	for (int i = 0; i < 19; i++) {
		ck_assert(hist_wal_fits(&w, 300));
		hist_wal_add(&w, 300);
	}
	ck_assert(!hist_wal_fits(&w, 300));
	ck_assert(hist_wal_commit(&w, 205));
	ck_assert(!hist_wal_fits(&w, 300));	/* 205 + 47 + 3 > 254 */
	ck_assert(hist_wal_fits(&w, 0));	/* a header: 2 */
	/* A long line needs more room than a short one. */
	ck_assert(!hist_wal_fits(&w, 8192));
	/* A checkpoint of all of it empties it: room again. */
	hist_wal_restart(&w);
	ck_assert(hist_wal_fits(&w, 300));
	/* sqlite began again at the first frame of a transaction: all of
	 * its frames are the transaction's. */
	hist_wal_add(&w, 300);
	ck_assert(!hist_wal_commit(&w, 30));
	ck_assert(hist_wal_commit(&w, 100));
	ck_assert_int_eq(w.fixed, 70);
	hist_wal_add(&w, 300);
	ck_assert(!hist_wal_commit(&w, 20));
	ck_assert_int_eq(w.frames, 20);
	ck_assert_int_eq(w.fixed, 70);
	/* A rolled back transaction charges nothing. */
	hist_wal_add(&w, 300);
	hist_wal_rollback(&w);
	ck_assert_int_eq(w.txn, 0);
	/* An empty WAL takes a record bigger than the bound. */
	hist_wal_restart(&w);
	ck_assert(hist_wal_fits(&w, 10 << 20));
	hist_wal_add(&w, 10 << 20);
	ck_assert(!hist_wal_fits(&w, 300));
	/* Tiny bounds and pages. */
	hist_wal_init(&w, 100, 4096);
	ck_assert_int_eq(w.limit, 1);
	ck_assert_int_eq(w.ckpt, 1);
	ck_assert(hist_wal_fits(&w, 300));
	hist_wal_add(&w, 300);
	ck_assert(!hist_wal_fits(&w, 300));
	hist_wal_init(&w, 1 << 20, 0);
	ck_assert_int_eq(w.limit, 254);
}
END_TEST

static int64_t
file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

/*
 * A reader that holds a transaction open: the writer fills the WAL up
 * to its bound, then holds off with nothing lost; once the reader lets
 * go the WAL starts again and the rest goes in.
 */
/*
 * Apply the lines from *pp to end as the writer does under its bound: a
 * transaction ends at the bound or at 32 records; 0 when the WAL is
 * full and held, with *pp at the first line not applied, else 1.  *max:
 * the most the -wal file took.
 */
static int
write_bounded(struct hist_db *h, const char **pp, const char *end,
    const char *wal, int64_t *max)
{
	const char *p = *pp, *nl;
	char *cause;
	int room = 1;

	while (p < end) {
		int n = 0;

		nl = memchr(p, '\n', (size_t)(end - p));
		if ((room = hist_db_wal_room(h, (size_t)(nl - p), &cause)) != 1)
			break;
		ck_assert_int_eq(hist_db_begin(h, &cause), 0);
		for (; p < end && n < 32; p = nl + 1, n++) {
			nl = memchr(p, '\n', (size_t)(end - p));
			if (!hist_db_wal_fits(h, (size_t)(nl - p)))
				break;
			ck_assert_int_eq(hist_db_event(h, p, (size_t)(nl - p),
			    0, &cause), 1);
		}
		ck_assert_int_eq(hist_db_commit(h, &cause), 0);
		if (file_size(wal) > *max)
			*max = file_size(wal);
	}
	*pp = p;
	return room;
}

START_TEST(test_wal_reader)
{
	struct strbuf sb = STRBUF_INIT;
	struct hist_db *h;
	sqlite3 *r;
	char *path = tmpdb(), *wal, *cause;
	const char *p, *end;
	int64_t jobs, limit = 1 << 20, max = 0;
	bool damaged;

	wal = xasprintf("%s-wal", path);
	h = hist_db_open(path, &damaged, &cause);
	ck_assert_ptr_nonnull(h);
	hist_db_wal_limit(h, limit);
	job_records(&sb, 1, "normal");
	ck_assert_int_eq(apply(h, &sb), 4);
	ck_assert_int_eq(sqlite3_open_v2(path, &r, SQLITE_OPEN_READONLY,
	    NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(r, "BEGIN; SELECT count(*) FROM jobs",
	    NULL, NULL, NULL), SQLITE_OK);
	/* 5,000 jobs' records, in transactions as the writer cuts them. */
	sb_reset(&sb);
	for (int64_t j = 2; j <= 5001; j++)
		job_records(&sb, j, "normal");
	p = sb.buf;
	end = sb.buf + sb.len;
	ck_assert_int_eq(write_bounded(h, &p, end, wal, &max), 0);
	ck_assert_msg(max <= limit && max > limit / 2, "the WAL reached %lld"
	    " bytes of %lld", (long long)max, (long long)limit);
	jobs = count(h, "SELECT count(*) FROM jobs");
	ck_assert_msg(jobs > 10 && jobs < 5001, "held back after %lld jobs",
	    (long long)jobs);
	/* Held, it stays held: nothing was written. */
	ck_assert_int_eq(hist_db_wal_room(h, 300, &cause), 0);
	ck_assert_int_eq(file_size(wal), max);
	/* The reader lets go: the WAL is checkpointed and emptied, and the
	 * rest goes in from where it stopped. */
	ck_assert_int_eq(sqlite3_exec(r, "COMMIT", NULL, NULL, NULL),
	    SQLITE_OK);
	ck_assert_int_eq(hist_db_wal_room(h, 300, &cause), 1);
	ck_assert_int_eq(file_size(wal), 0);
	max = 0;
	ck_assert_int_eq(write_bounded(h, &p, end, wal, &max), 1);
	ck_assert(p == end);
	ck_assert_int_eq(count(h, "SELECT count(*) FROM jobs"), 5001);
	ck_assert_int_eq(count(h, "SELECT count(*) FROM events"), 5001 * 4);
	ck_assert_msg(max <= limit, "the WAL reached %lld bytes of %lld",
	    (long long)max, (long long)limit);
	sqlite3_close(r);
	hist_db_close(h);
	sb_release(&sb);
	free(wal);
	free(path);
}
END_TEST

/* hist_rows_each: rows in the order asked, chunk by chunk, and no
 * transaction open while they are handed over. */
struct rows_seen {
	sqlite3		*db;
	sqlite3_stmt	*by_id;
	int64_t		 n;
	int64_t		 last;
	bool		 in_order;
	bool		 outside;
};

static void
row_seen(sqlite3_value **v, void *arg)
{
	struct rows_seen *rs = arg;
	int64_t seq = sqlite3_value_int64(v[0]);

	if (rs->n > 0 && seq >= rs->last)
		rs->in_order = false;
	rs->last = seq;
	rs->n++;
	if (!sqlite3_get_autocommit(rs->db) || sqlite3_stmt_busy(rs->by_id))
		rs->outside = false;
}

START_TEST(test_rows_each)
{
	struct strbuf sb = STRBUF_INIT;
	struct hist_db *h;
	struct rows_seen rs = { .in_order = true, .outside = true };
	sqlite3_stmt *st;
	char *path = tmpdb(), *cause;
	int64_t *ids;
	size_t n;
	bool damaged;

	h = hist_db_open(path, &damaged, &cause);
	ck_assert_ptr_nonnull(h);
	for (int64_t j = 1; j <= 700; j++)
		job_records(&sb, j, "normal");
	ck_assert_int_eq(apply(h, &sb), 2800);
	hist_db_close(h);
	h = hist_db_open_ro(path, &cause);
	ck_assert_ptr_nonnull(h);
	rs.db = hist_db_handle(h);
	/* Newest first, to see the order kept across chunks. */
	ck_assert_int_eq(sqlite3_prepare_v2(rs.db, "SELECT seq FROM events"
	    " ORDER BY seq DESC", -1, &st, NULL), SQLITE_OK);
	ids = hist_rowids(st, &n);
	sqlite3_finalize(st);
	ck_assert_int_eq(n, 2800);
	ck_assert_int_eq(sqlite3_prepare_v2(rs.db, "SELECT seq, line FROM"
	    " events WHERE seq = ?1", -1, &rs.by_id, NULL), SQLITE_OK);
	hist_rows_each(rs.by_id, ids, n, row_seen, &rs);
	ck_assert_int_eq(rs.n, 2800);
	ck_assert(rs.in_order);
	ck_assert(rs.outside);
	sqlite3_finalize(rs.by_id);
	free(ids);
	hist_db_close(h);
	sb_release(&sb);
	free(path);
}
END_TEST

static Suite *
history_suite(void)
{
	Suite *s = suite_create("history");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_times);
	tcase_add_test(tc, test_writer);
	tcase_add_test(tc, test_acct);
	tcase_add_test(tc, test_array);
	tcase_add_test(tc, test_identical);
	tcase_add_test(tc, test_ord);
	tcase_add_test(tc, test_render);
	tcase_add_test(tc, test_wal_bound);
	tcase_add_test(tc, test_wal_reader);
	tcase_add_test(tc, test_rows_each);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(history_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
