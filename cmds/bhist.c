/*
 * bhist: the history of jobs, from the history database mbatchd keeps
 * (include/history.h), read-only, as LSF's bhist reads lsb.events.
 *
 *	bhist [-a|-d|-p|-r|-s] [-l [-b]] [-w] [-t] [-n N] [-u user|all]
 *	      [-q queue] [-J name] [-S t1,t2] [-C t1,t2] [-D t1,t2]
 *	      [jobID | "jobID[index]"] ...
 *
 * Without options: the caller's unfinished jobs.  The summary table is
 * LSF's (fixed columns); -l gives each job's timeline, one dated line a
 * record, rendered from the raw lsb.events records the database keeps,
 * and the time spent in each state.  -n only bounds how far back LSF
 * reads its files; the database holds them all, so it is accepted and
 * does nothing.
 */
#include <ctype.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "acct-report.h"
#include "client.h"
#include "cmdopt.h"
#include "conf.h"
#include "evlog.h"
#include "history.h"
#include "jobfmt.h"
#include "lsf.h"
#include "timefmt.h"

enum {
	O_A = 1, O_D, O_P, O_R, O_S, O_L, O_B, O_W, O_T, O_N, O_U, O_Q, O_J,
	O_SS, O_CC, O_DD, O_H, O_V
};

static const struct cmdopt opts[] = {
	{ "a", false, O_A }, { "d", false, O_D }, { "p", false, O_P },
	{ "r", false, O_R }, { "s", false, O_S }, { "l", false, O_L },
	{ "b", false, O_B }, { "w", false, O_W }, { "t", false, O_T },
	{ "n", true, O_N }, { "u", true, O_U }, { "q", true, O_Q },
	{ "J", true, O_J }, { "S", true, O_SS }, { "C", true, O_CC },
	{ "D", true, O_DD }, { "h", false, O_H }, { "V", false, O_V },
#define L CMDOPT_UNSUP
	L("aff", false), L("app", true), L("cname", false), L("data", false),
	L("e", false), L("f", true), L("G", true), L("gpu", false),
	L("hostfile", false), L("Jd", true), L("Lp", true), L("m", true),
	L("N", true), L("P", true), L("T", true), L("UF", false),
#undef L
	{ NULL, false, 0 }
};

#define F_PEND	0x01
#define F_RUN	0x02
#define F_SUSP	0x04
#define F_DONE	0x08
#define F_ALL	0x0f

struct range {
	bool		 set;
	int64_t		 from, to;
};

struct sel {
	unsigned	 states;
	const char	*user;		/* NULL: anyone */
	const char	*queue;
	const char	*name;
	struct range	 sub, end, start;
	int64_t		*ids;
	int		*idxs;		/* -1: every element */
	int		 nids;
};

static int64_t	 now;

static void NORETURN
usage(int rc)
{
	fprintf(rc ? stderr : stdout,
	    "Usage: bhist [-h] [-V] [-a | -d | -p | -r | -s] [-l [-b]] [-w]"
	    " [-t]\n"
	    "             [-n num_logfiles] [-u user_name | -u all]"
	    " [-q queue_name]\n"
	    "             [-J job_name] [-S time0,time1] [-C time0,time1]\n"
	    "             [-D time0,time1] [jobId | \"jobId[index]\" ...]\n");
	exit(rc);
}


static void
parse_range(const char *opt, const char *s, struct range *r)
{
	/* The same time ranges as bacct's (src/acct-report.c). */
	if (acct_range_parse(s, now, &r->from, &r->to) < 0) {
		fprintf(stderr, "%s: Bad time specification for %s\n", s, opt);
		exit(255);
	}
	r->set = true;
}

static void
add_id(struct sel *s, const char *arg)
{
	char *e;
	long long id = strtoll(arg, &e, 10);
	long idx = -1;

	if (e == arg || id <= 0)
		goto bad;
	if (*e == '[') {
		idx = strtol(e + 1, &e, 10);
		if (idx <= 0 || strcmp(e, "]") != 0)
			goto bad;
	} else if (*e != '\0')
		goto bad;
	s->ids = xrealloc(s->ids, (size_t)(s->nids + 1) * sizeof(*s->ids));
	s->idxs = xrealloc(s->idxs, (size_t)(s->nids + 1) * sizeof(*s->idxs));
	s->ids[s->nids] = id;
	s->idxs[s->nids] = (int)idx;
	s->nids++;
	return;
bad:
	fprintf(stderr, "%s: Bad job ID\n", arg);
	exit(255);
}

/* The selection as SQL over jobs; bound in the same order by bind_sel. */
static char *
sel_sql(const struct sel *s)
{
	struct strbuf sb = STRBUF_INIT;

	sb_adds(&sb, "SELECT jobid, idx, user, queue, name, command, project,"
	    " status, submit_time, end_time FROM jobs WHERE 1");
	if (s->user)
		sb_adds(&sb, " AND user = :user");
	if (s->queue)
		sb_adds(&sb, " AND queue = :queue");
	/* -J: LSF's * alone is special; an array's name matches each of
	 * its elements. */
	if (s->name)
		sb_adds(&sb, " AND (name GLOB :name OR array_base GLOB :name)");
	if (s->sub.set)
		sb_adds(&sb, " AND submit_time BETWEEN :s0 AND :s1");
	if (s->end.set)
		sb_adds(&sb, " AND end_time > 0 AND end_time BETWEEN :c0 AND"
		    " :c1");
	if (s->start.set)
		sb_adds(&sb, " AND start_time > 0 AND start_time BETWEEN :d0 AND"
		    " :d1");
	if (s->nids > 0) {
		/* Each term one that the primary key answers (a constant
		 * term in the OR would make it a scan). */
		sb_adds(&sb, " AND (");
		for (int i = 0; i < s->nids; i++)
			sb_addf(&sb, s->idxs[i] < 0 ? "%sjobid = %lld" :
			    "%s(jobid = %lld AND idx = %d)", i ? " OR " : "",
			    (long long)s->ids[i], s->idxs[i]);
		sb_adds(&sb, ")");
	}
	if (s->states != F_ALL) {
		sb_adds(&sb, " AND (0");
		if (s->states & F_PEND)
			sb_adds(&sb, " OR status & 3");
		if (s->states & F_RUN)
			sb_adds(&sb, " OR (status & 4 AND NOT status & 96)");
		if (s->states & F_SUSP)
			sb_adds(&sb, " OR (status & 26 AND NOT status & 96)");
		if (s->states & F_DONE)
			sb_adds(&sb, " OR status & 96");
		sb_adds(&sb, ")");
	}
	/* An array's own row stands for its elements only while none has
	 * a row of its own (none started). */
	sb_adds(&sb, " AND NOT (idx = 0 AND array_base IS NOT NULL AND"
	    " EXISTS (SELECT 1 FROM jobs e WHERE e.jobid = jobs.jobid AND"
	    " e.idx > 0))");
	sb_adds(&sb, " ORDER BY submit_time, jobid, idx");
	return sb_detach(&sb);
}

static void
bind_one(sqlite3_stmt *st, const char *name, const char *text, int64_t v)
{
	int i = sqlite3_bind_parameter_index(st, name);

	if (i == 0)
		return;
	if (text)
		sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_int64(st, i, v);
}

/* -J's name as a GLOB pattern: LSF's * stays, sqlite's ? and [ do not. */
static char *
name_glob(const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = name; *p; p++) {
		if (*p == '?' || *p == '[')
			sb_addf(&sb, "[%c]", *p);
		else
			sb_addc(&sb, *p);
	}
	return sb_detach(&sb);
}

static void
bind_sel(sqlite3_stmt *st, const struct sel *s)
{
	char *g = s->name ? name_glob(s->name) : NULL;

	bind_one(st, ":user", s->user, 0);
	bind_one(st, ":queue", s->queue, 0);
	bind_one(st, ":name", g, 0);
	bind_one(st, ":s0", NULL, s->sub.from);
	bind_one(st, ":s1", NULL, s->sub.to);
	bind_one(st, ":c0", NULL, s->end.from);
	bind_one(st, ":c1", NULL, s->end.to);
	bind_one(st, ":d0", NULL, s->start.from);
	bind_one(st, ":d1", NULL, s->start.to);
	free(g);
}

struct job {
	int64_t		 jobid;
	int		 idx;
	char		*user, *queue, *name, *command, *project;
	int		 status;
	int64_t		 end;
};

/* A job's records, in order: its array's (idx 0) and its own. */
/* Prepared once: a summary of many jobs asks once for each. */
static sqlite3_stmt *events_st;

static sqlite3_stmt *
events_of(sqlite3 *db, const struct job *j)
{
	if (events_st == NULL && sqlite3_prepare_v3(db, "SELECT type, time,"
	    " line FROM events WHERE jobid = ? AND idx IN (0, ?)"
	    " ORDER BY seq", -1, SQLITE_PREPARE_PERSISTENT, &events_st,
	    NULL) != SQLITE_OK)
		die("%s", sqlite3_errmsg(db));
	sqlite3_reset(events_st);
	sqlite3_bind_int64(events_st, 1, j->jobid);
	sqlite3_bind_int(events_st, 2, j->idx);
	return events_st;
}

/* A record's status field, for the time in states. */
static int
status_of(const char *type, const char *line, size_t len)
{
	struct ev_reader r;
	struct ev_job_status x;
	const char *why;
	int status = 0;

	if (strcmp(type, "JOB_NEW") == 0) {
		struct ev_job_new n;

		/* bsub -H: held from the start. */
		if (evr_init(&r, line, len, &why) == 0 &&
		    ev_job_new_read(&r, &n) == 0 &&
		    (n.req.options2 & SUB2_HOLD))
			status = JOB_STAT_PSUSP;
		ev_job_new_release(&n);
		return status;
	}
	if (strcmp(type, "JOB_STATUS") != 0 ||
	    evr_init(&r, line, len, &why) < 0)
		return 0;
	if (ev_job_status_read(&r, &x) == 0)
		status = x.status;
	ev_job_status_release(&x);
	return status;
}

static int64_t
times_of(sqlite3 *db, const struct job *j, struct hist_times *t)
{
	sqlite3_stmt *st = events_of(db, j);

	hist_times_init(t);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		const char *line = (const char *)sqlite3_column_text(st, 2);

		hist_times_feed(t, type, sqlite3_column_int64(st, 1),
		    status_of(type, line, (size_t)sqlite3_column_bytes(st, 2)));
	}
	sqlite3_reset(st);
	return hist_times_end(t, now);
}

/* A job's records in memory, read in a transaction that has ended before
 * any is printed (history-open.c). */
struct ev_row {
	char		*type;
	int64_t		 time;
	char		*line;
	size_t		 len;
};

static struct ev_row *
rows_of(sqlite3 *db, const struct job *j, size_t *n)
{
	sqlite3_stmt *st = events_of(db, j);
	struct ev_row *v = NULL;
	int rc;

	*n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		const char *line = (const char *)sqlite3_column_text(st, 2);
		struct ev_row *r;

		v = xrealloc(v, (*n + 1) * sizeof(*v));
		r = &v[(*n)++];
		r->type = xstrdup(type ? type : "");
		r->time = sqlite3_column_int64(st, 1);
		r->len = (size_t)sqlite3_column_bytes(st, 2);
		r->line = xstrndup(line ? line : "", r->len);
	}
	if (rc != SQLITE_DONE)
		die("%s", sqlite3_errmsg(db));
	sqlite3_reset(st);
	return v;
}

static void
job_id_str(const struct job *j, char *buf, size_t len)
{
	if (j->idx > 0)
		snprintf(buf, len, "%lld[%d]", (long long)j->jobid, j->idx);
	else
		snprintf(buf, len, "%lld", (long long)j->jobid);
}

static void
summary_row(sqlite3 *db, const struct job *j, bool wide)
{
	struct hist_times t;
	int64_t total = times_of(db, j, &t);
	const char *name = j->name ? j->name : "";
	char id[32], nbuf[16];

	job_id_str(j, id, sizeof(id));
	if (!wide && strlen(name) > 9) {
		snprintf(nbuf, sizeof(nbuf), "*%s", name + strlen(name) - 8);
		name = nbuf;
	}
	printf(wide ? "%-7s %-7s %s  " : "%-7s %-7s %-9s ", id,
	    j->user ? j->user : "", name);
	for (int i = 0; i < HS_NSTATES; i++)
		printf("%-7lld ", (long long)t.secs[i]);
	printf("%lld\n", (long long)total);
}

static void
long_job(sqlite3 *db, const struct job *j, bool brief)
{
	struct hist_render rd;
	struct hist_times t;
	struct ev_row *rows;
	size_t n;
	int64_t total;
	char id[32], tbuf[64];

	hist_render_init(&rd, stdout, brief, "");
	job_id_str(j, id, sizeof(id));
	printf("\nJob <%s>,", id);
	if (j->name && j->command && strcmp(j->name, j->command) != 0)
		printf(" Job Name <%s>,", j->name);
	printf(" User <%s>, Project <%s>, Command <%s>\n",
	    j->user ? j->user : "", j->project && *j->project ? j->project :
	    "default", j->command ? j->command : "");
	rows = rows_of(db, j, &n);
	hist_times_init(&t);
	for (size_t i = 0; i < n; i++) {
		hist_render_line(&rd, rows[i].type, rows[i].line, rows[i].len);
		hist_times_feed(&t, rows[i].type, rows[i].time,
		    status_of(rows[i].type, rows[i].line, rows[i].len));
		free(rows[i].type);
		free(rows[i].line);
	}
	free(rows);
	total = hist_times_end(&t, now);
	fmt_time_long(t.end ? t.end : now, tbuf, sizeof(tbuf));
	printf("\nSummary of time in seconds spent in various states by  %s\n",
	    tbuf);
	printf("  PEND     PSUSP    RUN      USUSP    SSUSP    UNKWN    TOTAL\n");
	printf(" ");
	for (int i = 0; i < HS_NSTATES; i++)
		printf(" %-8lld", (long long)t.secs[i]);
	printf(" %lld\n", (long long)total);
}

/* -t: every selected job's records, in time order, each line naming its
 * job; each job's wording still follows its own earlier records. */
struct chrono_job {
	int64_t		 jobid;
	int		 idx;
	struct hist_render rd;
};

static int
chrono_cmp(const void *a, const void *b)
{
	const struct chrono_job *x = a, *y = b;

	if (x->jobid != y->jobid)
		return x->jobid < y->jobid ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

struct chrono {
	struct chrono_job *cj;
	size_t		 n;
};

static void
chrono_line(sqlite3_value **v, void *arg)
{
	struct chrono *c = arg;
	struct chrono_job key, *found;

	key.jobid = sqlite3_value_int64(v[3]);
	key.idx = sqlite3_value_int(v[4]);
	found = bsearch(&key, c->cj, c->n, sizeof(*c->cj), chrono_cmp);
	if (found == NULL)
		return;		/* an element not asked for */
	hist_render_line(&found->rd, (const char *)sqlite3_value_text(v[0]),
	    (const char *)sqlite3_value_text(v[2]),
	    (size_t)sqlite3_value_bytes(v[2]));
}

/* The records' rowids in time order, then the records a chunk at a time:
 * no transaction is open while they are printed (history-open.c). */
static void
chrono(sqlite3 *db, const struct job *jobs, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	struct chrono_job *cj = xcalloc(n, sizeof(*cj));
	struct chrono c = { cj, n };
	sqlite3_stmt *st, *by_id;
	int64_t *ids;
	size_t nids;

	for (size_t i = 0; i < n; i++) {
		char id[32];

		cj[i].jobid = jobs[i].jobid;
		cj[i].idx = jobs[i].idx;
		hist_render_init(&cj[i].rd, stdout, true, "");
		job_id_str(&jobs[i], id, sizeof(id));
		snprintf(cj[i].rd.tag, sizeof(cj[i].rd.tag), "Job <%s>, ", id);
	}
	qsort(cj, n, sizeof(*cj), chrono_cmp);
	sb_adds(&sb, "SELECT seq FROM events WHERE jobid IN (");
	for (size_t i = 0; i < n; i++)
		sb_addf(&sb, "%s%lld", i ? "," : "", (long long)jobs[i].jobid);
	sb_adds(&sb, ") ORDER BY time, seq");
	if (sqlite3_prepare_v2(db, sb.buf, -1, &st, NULL) != SQLITE_OK)
		die("%s", sqlite3_errmsg(db));
	sb_release(&sb);
	ids = hist_rowids(st, &nids);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "SELECT type, time, line, jobid, idx FROM"
	    " events WHERE seq = ?1", -1, &by_id, NULL) != SQLITE_OK)
		die("%s", sqlite3_errmsg(db));
	hist_rows_each(by_id, ids, nids, chrono_line, &c);
	sqlite3_finalize(by_id);
	free(ids);
	free(cj);
}

static char *
col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? xstrdup(s) : NULL;
}

int
main(int argc, char **argv)
{
	struct cmdopt_state cs;
	struct sel s;
	struct hist_db *h;
	struct job *jobs = NULL;
	size_t njobs = 0;
	sqlite3_stmt *st;
	bool longf = false, brief = false, wide = false, chron = false,
	    anyuser = false;
	char *sql, **ids;
	const char *v;
	int id, nids;

	progname = "bhist";
	now = (int64_t)time(NULL);
	memset(&s, 0, sizeof(s));
	cmdopt_init(&cs, argc, argv, true);
	while ((id = cmdopt_next(&cs, opts, &v)) != 0) {
		switch (id) {
		case O_A: s.states |= F_ALL; break;
		case O_D: s.states |= F_DONE; break;
		case O_P: s.states |= F_PEND; break;
		case O_R: s.states |= F_RUN; break;
		case O_S: s.states |= F_SUSP; break;
		case O_L: longf = true; break;
		case O_B: brief = true; break;
		case O_W: wide = true; break;
		case O_T: chron = true; break;
		case O_N:
			if (atoi(v) < 0) {
				fprintf(stderr, "%s: Bad number of log"
				    " files\n", v);
				exit(255);
			}
			break;
		case O_U:
			if (strcmp(v, "all") == 0)
				anyuser = true;
			else
				s.user = v;
			break;
		case O_Q: s.queue = v; break;
		case O_J: s.name = v; break;
		case O_SS: parse_range("-S", v, &s.sub); break;
		case O_CC: parse_range("-C", v, &s.end); break;
		case O_DD: parse_range("-D", v, &s.start); break;
		case O_V:
			print_version();
			exit(0);
		case O_H:
			usage(0);
		default:
			if (id == CMDOPT_UNSUPPORTED)
				cmdopt_unsupported(&cs, progname);
			else
				fprintf(stderr, "bhist: bad option %s\n",
				    cs.bad ? cs.bad : "");
			usage(255);
		}
	}
	ids = cmdopt_rest(&cs, &nids);
	for (int i = 0; i < nids; i++)
		add_id(&s, ids[i]);
	/* Asked by ID, a job is shown whoever owns it and whatever its
	 * state; -a overrides -d -p -r -s. */
	if (nids > 0 || (s.states & F_ALL) == F_ALL || s.end.set)
		s.states = s.end.set && !(s.states & F_ALL) ? F_DONE : F_ALL;
	else if (s.states == 0)
		s.states = F_PEND | F_RUN | F_SUSP;
	if (nids > 0 && s.user == NULL)
		anyuser = true;
	if (!anyuser && s.user == NULL)
		s.user = hist_invoker();

	h = hist_db_open_cmd("bhist", NULL);
	sql = sel_sql(&s);
	if (sqlite3_prepare_v2(hist_db_handle(h), sql, -1, &st, NULL) !=
	    SQLITE_OK)
		die("%s", sqlite3_errmsg(hist_db_handle(h)));
	bind_sel(st, &s);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct job *j;

		jobs = xrealloc(jobs, (njobs + 1) * sizeof(*jobs));
		j = &jobs[njobs++];
		j->jobid = sqlite3_column_int64(st, 0);
		j->idx = sqlite3_column_int(st, 1);
		j->user = col(st, 2);
		j->queue = col(st, 3);
		j->name = col(st, 4);
		j->command = col(st, 5);
		j->project = col(st, 6);
		j->status = sqlite3_column_int(st, 7);
		j->end = sqlite3_column_int64(st, 9);
	}
	sqlite3_finalize(st);
	free(sql);
	if (njobs == 0) {
		fprintf(stderr, "No matching job found\n");
		hist_db_close(h);
		return 255;
	}
	if (chron)
		chrono(hist_db_handle(h), jobs, njobs);
	else if (longf || brief) {
		for (size_t i = 0; i < njobs; i++) {
			if (i > 0)
				printf("----------------------------------------"
				    "--------------------------------------\n");
			long_job(hist_db_handle(h), &jobs[i], brief && !longf);
		}
	} else {
		printf("Summary of time in seconds spent in various"
		    " states:\n");
		printf("JOBID   USER    JOB_NAME  PEND    PSUSP   RUN     "
		    "USUSP   SSUSP   UNKWN   TOTAL\n");
		for (size_t i = 0; i < njobs; i++)
			summary_row(hist_db_handle(h), &jobs[i], wide);
	}
	sqlite3_finalize(events_st);
	hist_db_close(h);
	return 0;
}
