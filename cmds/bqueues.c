/*
 * bqueues: the queues as mbatchd sees them, highest priority first, in
 * LSF's table, with -l (or -r) LSF's long format, with -o the fields
 * asked for (cmd-qfields.c), as JSON with -json.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd-display.h"
#include "cmd-fairshare.h"
#include "cmd-qfields.h"
#include "cmdopt.h"
#include "loadsample.h"

enum { O_W = 1, O_L, O_R, O_O, O_JSON, O_NOHEADER, O_M, O_U, O_HELP,
	O_VERSION };

static const struct cmdopt opts[] = {
	{ "w", false, O_W },
	{ "l", false, O_L },
	{ "r", false, O_R },
	{ "lr", false, O_R },
	{ "o", true, O_O },
	{ "json", false, O_JSON },
	{ "noheader", false, O_NOHEADER },
	{ "m", true, O_M },
	{ "u", true, O_U },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	/* LSF's options this version does not do: refused by name. */
	CMDOPT_UNSUP("alloc", false),
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: bqueues [-h] [-V] [-w | -l | -r | "
	    "-o \"field ... [delimiter='c']\" [-json]] [-noheader]\n"
	    "               [-m host_name] [-u user_name] "
	    "[queue_name ...]\n");
	exit(rc);
}

static void
short_table(const struct queue_info *qs, uint32_t n, bool wide,
    bool noheader)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[64];
	int shift = 0;

	/* -w never cuts a name; the columns move right to make room. */
	for (uint32_t i = 0; wide && i < n; i++)
		if ((int)strlen(qs[i].name) - 15 > shift)
			shift = (int)strlen(qs[i].name) - 15;
	col_left(&sb, 1, "QUEUE_NAME");
	col_right(&sb, 20 + shift, "PRIO");
	col_left(&sb, 22 + shift, "STATUS");
	col_right(&sb, 40 + shift, "MAX");
	col_right(&sb, 45 + shift, "JL/U");
	col_right(&sb, 50 + shift, "JL/P");
	col_right(&sb, 55 + shift, "JL/H");
	col_right(&sb, 61 + shift, "NJOBS");
	col_right(&sb, 67 + shift, "PEND");
	col_right(&sb, 73 + shift, "RUN");
	col_right(&sb, 79 + shift, "SUSP");
	if (noheader)
		sb_reset(&sb);
	else
		col_flush(&sb, stdout);
	for (uint32_t i = 0; i < n; i++) {
		const struct queue_info *q = &qs[i];

		snprintf(buf, sizeof(buf), "%.*s", wide ? 63 : 15, q->name);
		col_left(&sb, 1, wide ? q->name : buf);
		snprintf(buf, sizeof(buf), "%d", q->priority);
		col_right(&sb, 19 + shift, buf);
		qfmt_status(q->status, false, buf, sizeof(buf));
		col_left(&sb, 22 + shift, buf);
		qfmt_limit(q->qjob_limit, buf, sizeof(buf));
		col_right(&sb, 40 + shift, buf);
		qfmt_limit(q->ujob_limit, buf, sizeof(buf));
		col_right(&sb, 45 + shift, buf);
		qfmt_plimit(q->pjob_limit, buf, sizeof(buf));
		col_right(&sb, 50 + shift, buf);
		qfmt_limit(q->hjob_limit, buf, sizeof(buf));
		col_right(&sb, 55 + shift, buf);
		snprintf(buf, sizeof(buf), "%d", q->njobs);
		col_right(&sb, 61 + shift, buf);
		snprintf(buf, sizeof(buf), "%d", q->npend);
		col_right(&sb, 67 + shift, buf);
		snprintf(buf, sizeof(buf), "%d", q->nrun);
		col_right(&sb, 73 + shift, buf);
		snprintf(buf, sizeof(buf), "%d", q->nssusp + q->nususp);
		col_right(&sb, 79 + shift, buf);
		col_flush(&sb, stdout);
	}
	sb_release(&sb);
}

static void
stats_line(const struct queue_info *q)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[64];

	snprintf(buf, sizeof(buf), "%d", q->priority);
	col_right(&sb, 3, buf);
	snprintf(buf, sizeof(buf), "%d", q->nice);
	col_right(&sb, 8, buf);
	qfmt_status(q->status, true, buf, sizeof(buf));
	col_left(&sb, 11, buf);
	qfmt_limit(q->qjob_limit, buf, sizeof(buf));
	col_right(&sb, 29, buf);
	qfmt_limit(q->ujob_limit, buf, sizeof(buf));
	col_right(&sb, 34, buf);
	qfmt_plimit(q->pjob_limit, buf, sizeof(buf));
	col_right(&sb, 39, buf);
	qfmt_limit(q->hjob_limit, buf, sizeof(buf));
	col_right(&sb, 44, buf);
	snprintf(buf, sizeof(buf), "%d", q->njobs);
	col_right(&sb, 50, buf);
	snprintf(buf, sizeof(buf), "%d", q->npend);
	col_right(&sb, 56, buf);
	snprintf(buf, sizeof(buf), "%d", q->nrun);
	col_right(&sb, 62, buf);
	snprintf(buf, sizeof(buf), "%d", q->nssusp);
	col_right(&sb, 68, buf);
	snprintf(buf, sizeof(buf), "%d", q->nususp);
	col_right(&sb, 74, buf);
	snprintf(buf, sizeof(buf), "%d", q->nrsv);
	col_right(&sb, 79, buf);
	col_flush(&sb, stdout);
	sb_release(&sb);
}

/* One limit block: " NAME" and its value on the next line. */
static void
limit_block(const char *name, int64_t v, bool mem, bool time, bool *first)
{
	char buf[64];

	if (v < 0)
		return;
	if (mem)
		qfmt_mem(v, buf, sizeof(buf));
	else if (time)
		snprintf(buf, sizeof(buf), "%.1f min", (double)v);
	else
		snprintf(buf, sizeof(buf), "%lld", (long long)v);
	printf("%s %s\n %s\n", *first ? "" : "\n", name, buf);
	*first = false;
}

/*
 * The limits, one " NAME" line and one value line each.  Limits given
 * as "default maximum" pairs split them, as LSF does, into a DEFAULT
 * LIMITS block and a MAXIMUM LIMITS block; with maxima only, the
 * blocks stand alone.
 */
static void
limits(const struct queue_info *q)
{
	bool dflt = q->runlimit_dflt >= 0 || q->cpulimit_dflt >= 0 ||
	    q->memlimit_dflt >= 0 || q->proclimit_dflt >= 0;
	bool any = q->runlimit >= 0 || q->cpulimit >= 0 ||
	    q->memlimit >= 0 || q->proclimit >= 0;
	bool first = false;

	if (dflt) {
		printf("\n DEFAULT LIMITS:\n");
		first = true;
		limit_block("RUNLIMIT", q->runlimit_dflt, false, true, &first);
		limit_block("CPULIMIT", q->cpulimit_dflt, false, true, &first);
		limit_block("MEMLIMIT", q->memlimit_dflt, true, false, &first);
		limit_block("PROCLIMIT", q->proclimit_dflt, false, false,
		    &first);
		if (any)
			printf("\n MAXIMUM LIMITS:\n");
		first = true;
	}
	limit_block("RUNLIMIT", q->runlimit, false, true, &first);
	limit_block("CPULIMIT", q->cpulimit, false, true, &first);
	limit_block("MEMLIMIT", q->memlimit, true, false, &first);
	limit_block("PROCLIMIT", q->proclimit, false, false, &first);
}

/* "USER_SHARES[[alice, 10] [default, 1]]" -> "[alice, 10] [default, 1]" */
static char *
user_shares(const char *fairshare)
{
	const char *p = strchr(fairshare, '[');
	size_t len;

	if (p == NULL)
		return xstrdup(fairshare);
	p++;
	len = strlen(p);
	while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
		len--;
	if (len > 0 && p[len - 1] == ']')
		len--;
	return xstrndup(p, len);
}

/*
 * A queue of a share tree, its own FAIRSHARE or a master's (a queue of
 * another's FAIRSHARE_QUEUES shows the master's shares and table, as
 * LSF shows the same fairshare information for every queue of the set).
 */
static void
policies(const struct queue_info *q, const struct fs_info *fi, bool recurse)
{
	const char *fs = qfmt_extra(q, "FAIRSHARE");
	const char *pre = qfmt_extra(q, "PREEMPTION");
	const char *v;
	struct strbuf sb = STRBUF_INIT;

	if (fs || fi)
		sb_adds(&sb, "  FAIRSHARE");
	if (pre && strcasestr(pre, "PREEMPTIVE"))
		sb_adds(&sb, "  PREEMPTIVE");
	if (pre && strcasestr(pre, "PREEMPTABLE"))
		sb_adds(&sb, "  PREEMPTABLE");
	if (q->exclusive)
		sb_adds(&sb, "  EXCLUSIVE");
	if (sb.len > 0) {
		printf("\nSCHEDULING POLICIES:%s\n", sb.buf);
		if (fi && fi->members.n > 1) {
			printf("FAIRSHARE_QUEUES: ");
			for (size_t i = 0; i < fi->members.n; i++)
				printf(" %s", fi->members.v[i]);
			printf("\n");
		}
		/* The master's, as LSF shows it. */
		if (fi && fi->members.n > 1 && (v = qfmt_extra(q,
		    "DISPATCH_ORDER")) != NULL && strcasecmp(v, "QUEUE") == 0)
			printf("DISPATCH_ORDER:  QUEUE\n");
		if (fi) {
			printf("USER_SHARES:  %s\n", fi->shares ? fi->shares :
			    "");
			fs_print(stdout, fi, recurse);
		} else if (fs) {
			char *us = user_shares(fs);

			printf("USER_SHARES:  %s\n", us);
			free(us);
		}
	}
	sb_release(&sb);
}

/*
 * LSF's long format.  The reference shows the blocks up to HOSTS; where
 * it is silent (limits, windows, the lines after HOSTS) the layout
 * follows IBM's: a blank line before each block, "NAME:  value" lines.
 */
static void
long_queue(const struct queue_info *q, const struct fs_info *fi,
    bool recurse)
{
	static const char *const tail[] = {
		"ADMINISTRATORS", "PRE_EXEC", "POST_EXEC",
		"REQUEUE_EXIT_VALUES", "JOB_STARTER", "MAX_JOB_PREEMPT",
		"PEND_TIME_LIMIT", "ELIGIBLE_PEND_TIME_LIMIT",
	};
	bool windows = q->run_window || q->dispatch_window;
	const char *v;

	printf("QUEUE: %s\n", q->name);
	printf("  -- %s\n", q->description && *q->description ?
	    q->description : "No description provided.");
	printf("\nPARAMETERS/STATISTICS\n");
	printf("PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND"
	    "   RUN SSUSP USUSP  RSV\n");
	stats_line(q);
	printf("Interval for a host to accept two jobs is %d seconds\n",
	    q->accept_interval);
	limits(q);
	printf("\nSCHEDULING PARAMETERS\n");
	disp_thresholds_wire(stdout, q->sched, q->stop, q->sched_set,
	    q->stop_set, &q->ext_thr);
	policies(q, fi, recurse);
	if (windows)
		printf("\n");
	if (q->run_window)
		printf("RUN_WINDOW:  %s\n", q->run_window);
	if (q->dispatch_window)
		printf("DISPATCH_WINDOW:  %s\n", q->dispatch_window);
	printf("\nUSERS: %s\n", q->users ? q->users : "all");
	printf("HOSTS:  %s\n", q->hosts ? q->hosts : "all");
	for (size_t i = 0; i < ARRAY_SIZE(tail); i++)
		if ((v = qfmt_extra(q, tail[i])) != NULL)
			printf("%s:  %s\n", tail[i], v);
	if (q->res_req)
		printf("RES_REQ:  %s\n", q->res_req);
	printf("\n");
}

/* -u: the queue lets the user submit (USERS all, the user, or all
 * users of a group the user is directly in). */
static bool
user_match(const struct lsf_config *c, const struct queue_info *q,
    const char *user)
{
	struct strv v = STRV_INIT;
	bool ok = false;

	if (strcmp(user, "all") == 0)
		return true;
	strv_split_ws(&v, q->users ? q->users : "all");
	for (size_t i = 0; i < v.n && !ok; i++) {
		char *u = v.v[i];
		size_t len = strlen(u);

		if (len > 1 && u[len - 1] == '/')
			u[len - 1] = '\0';
		if (strcmp(u, "all") == 0 || strcmp(u, user) == 0)
			ok = true;
		for (int g = 0; c && !ok && g < c->nugroups; g++)
			if (strcmp(c->ugroups[g].name, u) == 0)
				ok = strv_contains(&c->ugroups[g].members,
				    user) || strv_contains(
				    &c->ugroups[g].members, "all");
	}
	strv_release(&v);
	return ok;
}

/* -m: the queue can use one of the hosts. */
static bool
host_match(const struct lsf_config *c, const struct queue_info *q,
    const struct strv *hosts)
{
	struct strv in = STRV_INIT, out = STRV_INIT;
	bool ok = false;

	strv_split_ws(&in, q->hosts ? q->hosts : "all");
	config_expand_hosts(c, &in, &out, NULL);
	for (size_t i = 0; i < hosts->n && !ok; i++)
		ok = strv_contains(&out, hosts->v[i]);
	strv_release(&in);
	strv_release(&out);
	return ok;
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	const struct lsf_config *c = NULL;
	const char *val, *user = NULL, *host = NULL;
	struct strv names = STRV_INIT, mhosts = STRV_INIT;
	struct queue_list ql;
	struct queue_info *qs;
	struct reply rp;
	const char *format = NULL;
	bool wide = false, longform = false, json = false, noheader = false;
	bool recurse = false;
	struct fs_list fl;
	char *badfield;
	uint32_t shown = 0;
	char **rest;
	int id, nrest;

	progname = "bqueues";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_W: wide = true; break;
		case O_L: longform = true; break;
		/* -r: -l with every level of a share tree. */
		case O_R: longform = recurse = true; break;
		case O_O: format = val; break;
		case O_JSON: json = true; break;
		case O_NOHEADER: noheader = true; break;
		case O_M: host = val; break;
		case O_U: user = val; break;
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	rest = cmdopt_rest(&st, &nrest);
	for (int i = 0; i < nrest; i++)
		strv_push(&names, rest[i]);
	if (format && (longform || wide))
		usage(255);
	if (json && format == NULL) {
		fprintf(stderr, "bqueues: -json must be used with -o\n");
		exit(255);
	}
	/* The default format, when no other is asked for. */
	if (format == NULL && !longform && !wide &&
	    (format = getenv("LSB_BQUEUES_FORMAT")) != NULL && *format == '\0')
		format = NULL;

	if (host || user) {
		/* Host and user groups come from the configuration. */
		c = client_config(CONF_ALL);
	}
	if (host) {
		struct strv one = STRV_INIT, bad = STRV_INIT;

		strv_push(&one, host);
		config_expand_hosts(c, &one, &mhosts, &bad);
		if (bad.n > 0 || mhosts.n == 0) {
			fprintf(stderr, "%s: %s\n", host,
			    lsb_errmsg(LSBE_BAD_HOST));
			exit(255);
		}
		strv_release(&one);
		strv_release(&bad);
	}

	disp_mbd_query(MSG_QUEUE_QUERY, &names, MSG_QUEUE_LIST, &rp);
	if (!queue_list_unpack(&rp.r, &ql) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("mbatchd");

	/* Keep the queues that pass -u and -m, in mbatchd's order. */
	qs = ql.v;
	for (uint32_t i = 0; i < ql.n; i++) {
		if ((user && !user_match(c, &qs[i], user)) ||
		    (host && !host_match(c, &qs[i], &mhosts))) {
			queue_info_release(&qs[i]);
			continue;
		}
		if (shown != i)
			qs[shown] = qs[i];
		shown++;
	}
	if (shown == 0) {
		fprintf(stderr, "%s\n", lsb_errmsg(LSBE_BAD_QUEUE));
		exit(255);
	}
	if (format) {
		if (qfmt_print(qs, shown, format, json, noheader,
		    &badfield) < 0) {
			fprintf(stderr, "%s: Illegal field name.\n", badfield);
			exit(255);
		}
	} else if (longform) {
		fs_fetch("queue", &names, &fl);
		for (uint32_t i = 0; i < shown; i++)
			long_queue(&qs[i], fs_of_queue(&fl, qs[i].name),
			    recurse);
		fs_list_release(&fl);
	}
	else
		short_table(qs, shown, wide, noheader);
	ql.n = shown;		/* the others were released above */
	queue_list_release(&ql);
	reply_release(&rp);
	strv_release(&names);
	strv_release(&mhosts);
	cmdopt_release(&st);
	return 0;
}
