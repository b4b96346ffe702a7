/*
 * bacct: accounting of finished jobs, from the history database's acct
 * table (lsb.acct's JOB_FINISH records, include/history.h), read-only.
 *
 *	bacct [-b | -l [-w]] [-d] [-e] [-x] [-u user|all] [-q queue]
 *	      [-m host] [-P project] [-app app] [-C t0,t1] [-S t0,t1]
 *	      [-D t0,t1] [jobID ...]
 *
 * Without options: the caller's jobs, the SUMMARY only.  The SUMMARY's
 * figures are aggregated by sqlite over the filtered rows, so that its
 * cost is the index's and not a walk of every record in C; -b and -l
 * read the matching rows back, and the details each one's raw record.
 */
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "acct.h"
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
	O_B = 1, O_L, O_W, O_D, O_E, O_X, O_U, O_Q, O_M, O_P, O_APP, O_CC,
	O_SS, O_DD, O_H, O_V
};

static const struct cmdopt opts[] = {
	{ "b", false, O_B }, { "l", false, O_L }, { "w", false, O_W },
	{ "d", false, O_D }, { "e", false, O_E }, { "x", false, O_X },
	{ "u", true, O_U }, { "q", true, O_Q }, { "m", true, O_M },
	{ "P", true, O_P }, { "app", true, O_APP }, { "C", true, O_CC },
	{ "S", true, O_SS }, { "D", true, O_DD }, { "h", false, O_H },
	{ "V", false, O_V },
#define L CMDOPT_UNSUP
	L("aff", false), L("cname", false), L("E", false), L("f", true),
	L("gpu", false), L("Lp", true), L("M", true), L("N", true),
	L("rcacct", true), L("rcalloc", true), L("sla", true), L("U", true),
	L("UF", false),
#undef L
	{ NULL, false, 0 }
};

struct range {
	bool		 set;
	int64_t		 from, to;
};

/* What selects the rows: each set field is one term of the WHERE. */
struct sel {
	const char	*user;		/* NULL: all */
	const char	*queue;
	const char	*host;
	const char	*project;
	const char	*app;
	int		 status;	/* 0: done and exited */
	bool		 except;
	struct range	 end, sub, start;
	int64_t		*ids;
	int		 nids;
};

static int64_t now;

static void __attribute__((noreturn))
usage(int rc)
{
	fprintf(rc ? stderr : stdout,
	    "Usage: bacct [-h] [-V] [-b | -l [-w]] [-d] [-e] [-x]"
	    " [-u user_name | -u all]\n"
	    "             [-q queue_name] [-m host_name] [-P project_name]"
	    " [-app app_name]\n"
	    "             [-C time0,time1] [-S time0,time1]"
	    " [-D time0,time1] [jobId ...]\n");
	exit(rc);
}

static void
parse_range(const char *opt, const char *s, struct range *r)
{
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

	if (e == arg || id <= 0 || *e != '\0') {
		fprintf(stderr, "%s: Illegal job ID.\n", arg);
		exit(255);
	}
	s->ids = xrealloc(s->ids, (size_t)(s->nids + 1) * sizeof(*s->ids));
	s->ids[s->nids++] = id;
}

/* The WHERE clause; the values are bound by bind_sel in the same order. */
static void
where(struct strbuf *sb, const struct sel *s)
{
	sb_adds(sb, " WHERE 1");
	if (s->user != NULL)
		sb_adds(sb, " AND user = :user");
	if (s->queue != NULL)
		sb_adds(sb, " AND queue = :queue");
	if (s->project != NULL)
		sb_adds(sb, " AND project = :project");
	if (s->app != NULL)
		sb_adds(sb, " AND app = :app");
	/* exec_hosts holds one name a slot, blank-separated. */
	if (s->host != NULL)
		sb_adds(sb, " AND ' ' || exec_hosts || ' ' LIKE"
		    " '% ' || :host || ' %'");
	if (s->status != 0)
		sb_addf(sb, " AND status = %d", s->status);
	/* Jobs that raised an exception (overrun, underrun, idle). */
	if (s->except)
		sb_adds(sb, " AND except_mask != 0");
	if (s->end.set)
		sb_adds(sb, " AND end_time BETWEEN :e0 AND :e1");
	if (s->sub.set)
		sb_adds(sb, " AND submit_time BETWEEN :s0 AND :s1");
	if (s->start.set)
		sb_adds(sb, " AND start_time BETWEEN :d0 AND :d1");
	if (s->nids > 0) {
		sb_adds(sb, " AND jobid IN (");
		for (int i = 0; i < s->nids; i++)
			sb_addf(sb, "%s%lld", i ? "," : "",
			    (long long)s->ids[i]);
		sb_adds(sb, ")");
	}
}

static void
bind_name(sqlite3_stmt *st, const char *name, const char *v)
{
	int i = sqlite3_bind_parameter_index(st, name);

	if (i > 0)
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
}

static void
bind_range(sqlite3_stmt *st, const char *a, const char *b,
    const struct range *r)
{
	int i;

	if (!r->set)
		return;
	if ((i = sqlite3_bind_parameter_index(st, a)) > 0)
		sqlite3_bind_int64(st, i, r->from);
	if ((i = sqlite3_bind_parameter_index(st, b)) > 0)
		sqlite3_bind_int64(st, i, r->to);
}

static void
bind_sel(sqlite3_stmt *st, const struct sel *s)
{
	bind_name(st, ":user", s->user);
	bind_name(st, ":queue", s->queue);
	bind_name(st, ":project", s->project);
	bind_name(st, ":app", s->app);
	bind_name(st, ":host", s->host);
	bind_range(st, ":e0", ":e1", &s->end);
	bind_range(st, ":s0", ":s1", &s->sub);
	bind_range(st, ":d0", ":d1", &s->start);
}

static sqlite3_stmt *
prepare(sqlite3 *db, struct strbuf *sb, const struct sel *s)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sb->buf, -1, &st, NULL) != SQLITE_OK)
		die("%s", sqlite3_errmsg(db));
	bind_sel(st, s);
	return st;
}

/*
 * A job's figures as the SUMMARY and -l count them: the wait ends at the
 * start (a job that never started waited until it ended), an unknown CPU
 * time is none.
 */
#define FIGURES \
	"max(cpu_time, 0) AS cpu," \
	" (CASE WHEN start_time > 0 THEN start_time ELSE end_time END)" \
	" - submit_time AS wait," \
	" end_time - submit_time AS turn," \
	" CASE WHEN start_time > 0 THEN end_time - start_time ELSE 0 END" \
	" AS run"

/* One part of the SUMMARY's period, summed by its own connection. */
struct part {
	const char	*path;
	const struct sel *s;
	int64_t		 lo, hi;	/* end_time */
	int64_t		 n;
	struct acct_sums a;
	char		*error;
};

static void *
part_sums(void *arg)
{
	struct part *p = arg;
	struct strbuf sb = STRBUF_INIT;
	struct acct_sums *a = &p->a;
	struct hist_db *h;
	sqlite3_stmt *st;
	char *cause;

	if ((h = hist_db_open_ro(p->path, &cause)) == NULL) {
		p->error = cause;
		return NULL;
	}
	sb_adds(&sb, "SELECT count(*), total(status = 64), total(status = 32),"
	    " total(cpu), max(cpu), min(cpu), total(wait), max(wait),"
	    " min(wait), total(turn), max(turn), min(turn),"
	    " total(hog), max(hog), min(hog), total(run), max(run),"
	    " min(run), min(end_time), max(end_time) FROM (SELECT end_time,"
	    " status, cpu, wait, turn, run, CASE WHEN turn > 0 THEN"
	    " cpu / turn ELSE 0 END AS hog FROM (SELECT end_time, status, "
	    FIGURES " FROM acct");
	where(&sb, p->s);
	sb_adds(&sb, " AND end_time BETWEEN :lo AND :hi))");
	st = prepare(hist_db_handle(h), &sb, p->s);
	sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":lo"), p->lo);
	sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":hi"), p->hi);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    (p->n = sqlite3_column_int64(st, 0)) > 0) {
		a->ndone = sqlite3_column_int64(st, 1);
		a->nexit = sqlite3_column_int64(st, 2);
		a->cpu_sum = sqlite3_column_double(st, 3);
		a->cpu_max = sqlite3_column_double(st, 4);
		a->cpu_min = sqlite3_column_double(st, 5);
		a->wait_sum = sqlite3_column_int64(st, 6);
		a->wait_max = sqlite3_column_int64(st, 7);
		a->wait_min = sqlite3_column_int64(st, 8);
		a->turn_sum = sqlite3_column_int64(st, 9);
		a->turn_max = sqlite3_column_int64(st, 10);
		a->turn_min = sqlite3_column_int64(st, 11);
		a->hog_sum = sqlite3_column_double(st, 12);
		a->hog_max = sqlite3_column_double(st, 13);
		a->hog_min = sqlite3_column_double(st, 14);
		a->run_sum = sqlite3_column_int64(st, 15);
		a->run_max = sqlite3_column_int64(st, 16);
		a->run_min = sqlite3_column_int64(st, 17);
		a->first_end = sqlite3_column_int64(st, 18);
		a->last_end = sqlite3_column_int64(st, 19);
	}
	sqlite3_finalize(st);
	sb_release(&sb);
	hist_db_close(h);
	return NULL;
}

#define MAX(x, y)	((x) > (y) ? (x) : (y))
#define MIN(x, y)	((x) < (y) ? (x) : (y))

/*
 * 1 if some job matched, with the sums.  sqlite evaluates the figures
 * row by row on one core: the period is cut in two at its middle and
 * each half summed by its own thread and connection (a WAL reader each),
 * the halves then combined.  Most jobs end at no particular time, so the
 * halves are near enough in size.
 */
static int
summary_sums(const char *path, sqlite3 *db, const struct sel *s,
    struct acct_sums *a)
{
	struct strbuf sb = STRBUF_INIT;
	struct part p[2];
	sqlite3_stmt *st;
	pthread_t t;
	int64_t lo = 0, hi = -1, n = 0;

	sb_adds(&sb, "SELECT min(end_time), max(end_time) FROM acct");
	where(&sb, s);
	st = prepare(db, &sb, s);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL) {
		lo = sqlite3_column_int64(st, 0);
		hi = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	sb_release(&sb);
	memset(a, 0, sizeof(*a));
	if (hi < lo)
		return 0;
	memset(p, 0, sizeof(p));
	for (int i = 0; i < 2; i++) {
		p[i].path = path;
		p[i].s = s;
	}
	p[0].lo = lo;
	p[0].hi = lo + (hi - lo) / 2;
	p[1].lo = p[0].hi + 1;
	p[1].hi = hi;
	if (pthread_create(&t, NULL, part_sums, &p[1]) == 0) {
		part_sums(&p[0]);
		pthread_join(t, NULL);
	} else {
		part_sums(&p[0]);
		part_sums(&p[1]);
	}
	for (int i = 0; i < 2; i++) {
		const struct acct_sums *x = &p[i].a;

		if (p[i].error != NULL)
			die("%s", p[i].error);
		if (p[i].n == 0)
			continue;
		if (n == 0) {
			*a = *x;
			n = p[i].n;
			continue;
		}
		n += p[i].n;
		a->ndone += x->ndone;
		a->nexit += x->nexit;
		a->cpu_sum += x->cpu_sum;
		a->cpu_max = MAX(a->cpu_max, x->cpu_max);
		a->cpu_min = MIN(a->cpu_min, x->cpu_min);
		a->wait_sum += x->wait_sum;
		a->wait_max = MAX(a->wait_max, x->wait_max);
		a->wait_min = MIN(a->wait_min, x->wait_min);
		a->turn_sum += x->turn_sum;
		a->turn_max = MAX(a->turn_max, x->turn_max);
		a->turn_min = MIN(a->turn_min, x->turn_min);
		a->hog_sum += x->hog_sum;
		a->hog_max = MAX(a->hog_max, x->hog_max);
		a->hog_min = MIN(a->hog_min, x->hog_min);
		a->run_sum += x->run_sum;
		a->run_max = MAX(a->run_max, x->run_max);
		a->run_min = MIN(a->run_min, x->run_min);
		a->first_end = MIN(a->first_end, x->first_end);
		a->last_end = MAX(a->last_end, x->last_end);
	}
	return n > 0;
}

static void
range_line(const char *what, const struct range *r)
{
	char a[32], b[32];

	if (!r->set)
		return;
	fmt_time_long(r->from, a, sizeof(a));
	if (r->to == INT64_MAX)
		snprintf(b, sizeof(b), "now");
	else
		fmt_time_long(r->to, b, sizeof(b));
	printf("  - %s between %s and %s.\n", what, a, b);
}

static void
header(const struct sel *s)
{
	printf("Accounting information about jobs that are:\n");
	if (s->user == NULL)
		printf("  - submitted by all users.\n");
	else
		printf("  - submitted by users %s.\n", s->user);
	if (s->project == NULL)
		printf("  - accounted on all projects.\n");
	else
		printf("  - accounted on projects %s.\n", s->project);
	if (s->status == JOB_STAT_DONE)
		printf("  - completed normally\n");
	else if (s->status == JOB_STAT_EXIT)
		printf("  - exited\n");
	else
		printf("  - completed normally or exited\n");
	range_line("submitted", &s->sub);
	range_line("dispatched", &s->start);
	range_line("completed", &s->end);
	if (s->host == NULL)
		printf("  - executed on all hosts.\n");
	else
		printf("  - executed on hosts %s.\n", s->host);
	if (s->queue == NULL)
		printf("  - submitted to all queues.\n");
	else
		printf("  - submitted to queues %s.\n", s->queue);
	if (s->app != NULL)
		printf("  - submitted to application profiles %s.\n", s->app);
	printf("  - accounted on all service classes.\n");
	printf("------------------------------------------------------------"
	    "------------------\n");
}

static const char *
or_default(const char *s, const char *d)
{
	return s != NULL && *s != '\0' ? s : d;
}

/* MEM and SWAP as the table has room for them: "512K", "100M", "2.5G". */
static void
amount(int64_t kb, char *buf, size_t len)
{
	if (kb <= 0)
		snprintf(buf, len, "0M");
	else if (kb < 1024)
		snprintf(buf, len, "%lldK", (long long)kb);
	else if (kb < 1024 * 1024)
		snprintf(buf, len, "%lldM", (long long)(kb / 1024));
	else
		snprintf(buf, len, "%.1fG", (double)kb / (1024.0 * 1024.0));
}

struct form {
	bool		 longf;
	bool		 wide;
};

/* One job of -b or -l, from its raw record and its row's figures (the
 * columns of jobs()'s by_id). */
static void
one_job(sqlite3_value **v, void *arg)
{
	const struct form *f = arg;
	bool longf = f->longf, wide = f->wide;
	struct ev_reader r;
	struct acct_finish a;
	struct strbuf sb = STRBUF_INIT;
	char mem[24], swp[24];
	const char *line = (const char *)sqlite3_value_text(v[0]), *why;
	size_t len = (size_t)sqlite3_value_bytes(v[0]);
	double cpu = sqlite3_value_double(v[1]), hog;
	int64_t wait = sqlite3_value_int64(v[2]);
	int64_t turn = sqlite3_value_int64(v[3]);
	const char *app = (const char *)sqlite3_value_text(v[5]);
	char id[48], *hosts;
	bool done;

	acct_finish_init(&a);
	if (line == NULL || evr_init(&r, line, len, &why) < 0 ||
	    acct_finish_read(&r, &a) < 0) {
		acct_finish_release(&a);
		return;		/* the writer only stores what it read */
	}
	done = a.status == JOB_STAT_DONE;
	if (a.idx > 0)
		snprintf(id, sizeof(id), "%lld[%d]", (long long)a.jobid,
		    a.idx);
	else
		snprintf(id, sizeof(id), "%lld", (long long)a.jobid);
	sb_addf(&sb, "Job <%s>, User <%s>, Project <%s>,", id,
	    or_default(a.user, ""), or_default(a.project, "default"));
	if (app != NULL && *app != '\0')
		sb_addf(&sb, " Application <%s>,", app);
	sb_addf(&sb, " Status <%s>, Queue <%s>, Command <%s>",
	    done ? "DONE" : "EXIT", or_default(a.queue, ""),
	    or_default(a.command, ""));
	if (wide)
		printf("%s\n", sb.buf);
	else
		jobfmt_wrap(stdout, sb.buf);
	if (longf) {
		sb_reset(&sb);
		jobfmt_stamp(&sb, a.submit_time);
		sb_addf(&sb, "Submitted from host <%s>, CWD <%s>;",
		    or_default(a.from_host, ""), or_default(a.cwd, ""));
		wide ? (void)printf("%s\n", sb.buf) :
		    jobfmt_wrap(stdout, sb.buf);
		if (a.start_time > 0) {
			hosts = jobfmt_hosts(&a.exec_hosts, "> <");
			sb_reset(&sb);
			jobfmt_stamp(&sb, a.start_time);
			sb_addf(&sb, "Dispatched to <%s>;", hosts);
			wide ? (void)printf("%s\n", sb.buf) :
			    jobfmt_wrap(stdout, sb.buf);
			free(hosts);
		}
		sb_reset(&sb);
		jobfmt_stamp(&sb, a.end_time);
		if (done)
			sb_adds(&sb, "Completed <done>.");
		else if ((why = term_reason_name(a.exit_info)) != NULL)
			sb_addf(&sb, "Completed <exit>; %s: %s.", why,
			    term_reason_text(a.exit_info));
		else
			sb_adds(&sb, "Completed <exit>.");
		printf("%s\n", sb.buf);
	}
	hog = turn > 0 ? cpu / (double)turn : 0.0;
	amount(a.max_mem_kb, mem, sizeof(mem));
	amount(a.max_swap_kb, swp, sizeof(swp));
	printf("\nAccounting information about this job:\n");
	printf("     CPU_T     WAIT     TURNAROUND   STATUS     HOG_FACTOR"
	    "    MEM    SWAP\n");
	printf("%10.2f %8lld %14lld %8s %14.4f %6s %7s\n", cpu,
	    (long long)wait, (long long)turn, done ? "done" : "exit", hog,
	    mem, swp);
	printf("------------------------------------------------------------"
	    "------------------\n");
	sb_release(&sb);
	acct_finish_release(&a);
}

/*
 * -b and -l: the matching jobs' rowids first, then their rows a chunk at
 * a time, so that no transaction is open while bacct prints (its output
 * may wait on a pager: history-open.c).
 */
static void
jobs(sqlite3 *db, const struct sel *s, bool longf, bool wide)
{
	struct strbuf sb = STRBUF_INIT;
	struct form f = { longf, wide };
	sqlite3_stmt *st, *by_id;
	int64_t *ids;
	size_t n;

	sb_adds(&sb, "SELECT seq FROM acct");
	where(&sb, s);
	sb_adds(&sb, " ORDER BY end_time, seq");
	st = prepare(db, &sb, s);
	ids = hist_rowids(st, &n);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "SELECT line, " FIGURES ", app FROM acct"
	    " WHERE seq = ?1", -1, &by_id, NULL) != SQLITE_OK)
		die("%s", sqlite3_errmsg(db));
	hist_rows_each(by_id, ids, n, one_job, &f);
	sqlite3_finalize(by_id);
	free(ids);
	sb_release(&sb);
}

int
main(int argc, char **argv)
{
	struct cmdopt_state cs;
	struct sel s;
	struct acct_sums sums;
	struct strbuf out = STRBUF_INIT;
	struct hist_db *h;
	bool longf = false, brief = false, wide = false, anyuser = false;
	char *path, **ids;
	const char *v;
	int id, nids;

	progname = "bacct";
	now = (int64_t)time(NULL);
	memset(&s, 0, sizeof(s));
	cmdopt_init(&cs, argc, argv, true);
	while ((id = cmdopt_next(&cs, opts, &v)) != 0) {
		switch (id) {
		case O_B: brief = true; break;
		case O_L: longf = true; break;
		case O_W: wide = true; break;
		case O_D: s.status = JOB_STAT_DONE; break;
		case O_E: s.status = JOB_STAT_EXIT; break;
		case O_X: s.except = true; break;
		case O_U:
			if (strcmp(v, "all") == 0)
				anyuser = true;
			else
				s.user = v;
			break;
		case O_Q: s.queue = v; break;
		case O_M: s.host = v; break;
		case O_P: s.project = v; break;
		case O_APP: s.app = v; break;
		case O_CC: parse_range("-C", v, &s.end); break;
		case O_SS: parse_range("-S", v, &s.sub); break;
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
				fprintf(stderr, "bacct: bad option %s\n",
				    cs.bad ? cs.bad : "");
			usage(255);
		}
	}
	ids = cmdopt_rest(&cs, &nids);
	for (int i = 0; i < nids; i++)
		add_id(&s, ids[i]);
	/* Asked by ID, a job is counted whoever owns it. */
	if (nids > 0 && s.user == NULL)
		anyuser = true;
	if (!anyuser && s.user == NULL)
		s.user = hist_invoker();

	h = hist_db_open_cmd("bacct", &path);
	if (!summary_sums(path, hist_db_handle(h), &s, &sums)) {
		hist_db_close(h);
		fprintf(stderr, "No matching job found\n");
		return 255;
	}
	header(&s);
	if (longf || brief) {
		printf("\n");
		jobs(hist_db_handle(h), &s, longf, wide);
	}
	printf("\n");
	acct_summary_write(&out, &sums, s.end.set ? s.end.from : 0,
	    s.end.set && s.end.to != INT64_MAX ? s.end.to : 0);
	fputs(out.buf, stdout);
	sb_release(&out);
	hist_db_close(h);
	return 0;
}
