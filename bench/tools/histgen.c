/*
 * histgen: fill a job history database (include/history.h) with N
 * finished jobs, through the writer mbatchd's history thread uses, for
 * timing bhist and bacct over a large history.  Each job has a JOB_NEW,
 * JOB_START, JOB_EXECUTE and JOB_STATUS (DONE) record and a JOB_FINISH
 * accounting record; users u0..u99, queues normal and short, one job a
 * second from 2026-01-01.
 *
 *	histgen out.db N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acct.h"
#include "evlog.h"
#include "history.h"
#include "lsf.h"
#include "util.h"

#define T0	1767225600	/* 2026-01-01 00:00:00 UTC */
#define BATCH	20000

static void
apply(struct hist_db *h, struct strbuf *sb, bool acct)
{
	const char *p = sb->buf, *end = sb->buf + sb->len, *nl;
	char *cause;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		/* Every line differs: each is the first of its kind. */
		if ((acct ? hist_db_acct(h, p, (size_t)(nl - p), 0, &cause) :
		    hist_db_event(h, p, (size_t)(nl - p), 0, &cause)) < 0) {
			fprintf(stderr, "histgen: %s\n", cause);
			exit(1);
		}
	}
	sb_reset(sb);
}

int
main(int argc, char **argv)
{
	struct strbuf ev = STRBUF_INIT, ac = STRBUF_INIT;
	struct hist_db *h;
	char *cause, user[16];
	bool damaged;
	long n;

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: histgen out.db N\n");
		return 2;
	}
	if ((h = hist_db_open(argv[1], &damaged, &cause)) == NULL) {
		fprintf(stderr, "histgen: %s\n", cause);
		return 1;
	}
	for (long i = 1; i <= n; i++) {
		int64_t sub = T0 + i, start = sub + 2, end = start + 30;
		struct ev_job_new jn;
		struct ev_job_start js;
		struct ev_job_execute je;
		struct ev_job_status st;
		struct acct_finish a;

		if ((i - 1) % BATCH == 0 && hist_db_begin(h, &cause) < 0)
			goto fail;
		snprintf(user, sizeof(user), "u%ld", i % 100);
		memset(&jn, 0, sizeof(jn));
		submit_req_init(&jn.req);
		jn.jobid = i;
		jn.uid = 1000 + (int)(i % 100);
		jn.user = user;
		jn.submit_time = sub;
		jn.queue = i % 3 ? "normal" : "short";
		jn.req.job_name = "sim";
		jn.req.command = "./sim -n 100 input.dat";
		jn.req.sub_cwd = "/home/user/run";
		jn.req.from_host = "hosta";
		jn.req.out_file = "out.%J";
		jn.req.num_procs = 1;
		ev_job_new_write(&ev, sub, &jn);
		memset(&js, 0, sizeof(js));
		js.jobid = i;
		js.status = JOB_STAT_RUN;
		js.pid = (int)(i % 30000) + 100;
		strv_push(&js.exec_hosts, i % 2 ? "hostb" : "hostc");
		ev_job_start_write(&ev, start, &js);
		memset(&je, 0, sizeof(je));
		je.jobid = i;
		je.pid = js.pid;
		je.exec_home = "/home/user";
		je.exec_cwd = "/home/user/run";
		je.exec_user = user;
		ev_job_execute_write(&ev, start, &je);
		memset(&st, 0, sizeof(st));
		st.jobid = i;
		st.status = JOB_STAT_DONE;
		st.cpu_time = 29.5;
		st.end_time = end;
		st.max_mem_kb = 102400;
		ev_job_status_write(&ev, end, &st);
		acct_finish_init(&a);
		a.jobid = i;
		a.uid = jn.uid;
		a.user = user;
		a.queue = jn.queue;
		a.submit_time = sub;
		a.start_time = start;
		a.end_time = end;
		a.status = JOB_STAT_DONE;
		a.utime = 29.5;
		a.stime = 0;
		a.exec_hosts = js.exec_hosts;
		a.job_name = "sim";
		a.command = jn.req.command;
		a.from_host = "hosta";
		a.max_mem_kb = 102400;
		acct_finish_write(&ac, &a);
		strv_release(&js.exec_hosts);
		apply(h, &ev, false);
		apply(h, &ac, true);
		if (i % BATCH == 0 || i == n) {
			if (hist_db_commit(h, &cause) < 0)
				goto fail;
		}
	}
	hist_db_close(h);
	return 0;
fail:
	fprintf(stderr, "histgen: %s\n", cause);
	return 1;
}
