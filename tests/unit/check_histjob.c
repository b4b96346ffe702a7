/*
 * bjobs's answer for a cleaned job from its history records (histjob.c):
 * the fields job_fill_info gives a finished job in memory, from the
 * submission and the last run; a later run replaces an earlier one; an
 * element takes its name from its row and the rest from its array's
 * submission; a job that has not finished, or has no submission, is not
 * answered.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "evlog.h"
#include "histjob.h"
#include "lsf.h"
#include "util.h"

/* Feed every line of sb, as the database gives them. */
static void
feed(struct hist_job *h, const struct strbuf *sb, bool new_only)
{
	const char *p = sb->buf, *end = sb->buf + sb->len, *nl;

	for (; p < end; p = nl + 1) {
		char type[32];
		const char *q;
		size_t n;

		nl = memchr(p, '\n', (size_t)(end - p));
		/* The type is the first quoted field. */
		q = strchr(p + 1, '"');
		n = (size_t)(q - p - 1);
		memcpy(type, p + 1, n);
		type[n] = '\0';
		hist_job_take(h, type, p, (size_t)(nl - p), new_only);
	}
}

static void
submission(struct strbuf *sb, int64_t jobid, const char *name)
{
	struct ev_job_new n;

	memset(&n, 0, sizeof(n));
	submit_req_init(&n.req);
	n.jobid = jobid;
	n.uid = 1000;
	n.user = "ann";
	n.submit_time = 1000;
	n.queue = "normal";
	n.res_req = "select[mem>10]";
	n.req.job_name = (char *)name;
	n.req.command = "./sim -x";
	n.req.sub_cwd = "/home/ann";
	n.req.sub_home = "/home/ann";
	n.req.from_host = "hosta";
	n.req.out_file = "out.%J";
	n.req.project = "p1";
	n.req.num_procs = 2;
	n.req.rlimits[LSF_RLIMIT_RUN] = 600;
	ev_job_new_write(sb, 1000, &n);
}

static void
run(struct strbuf *sb, int64_t jobid, int idx, int64_t when, int pid,
    const char *host, int status, int exit_status)
{
	struct ev_job_start s;
	struct ev_job_execute x;
	struct ev_job_status st;

	memset(&s, 0, sizeof(s));
	s.jobid = jobid;
	s.idx = idx;
	s.status = JOB_STAT_RUN;
	strv_push(&s.exec_hosts, host);
	strv_push(&s.exec_hosts, host);
	s.effective_res_req = "select[mem>10] order[r15s:pg]";
	ev_job_start_write(sb, when, &s);
	strv_release(&s.exec_hosts);
	memset(&x, 0, sizeof(x));
	x.jobid = jobid;
	x.idx = idx;
	x.pid = x.pgid = pid;
	x.exec_cwd = "/home/ann";
	x.exec_home = "/home/ann";
	x.exec_user = "ann";
	ev_job_execute_write(sb, when + 1, &x);
	memset(&st, 0, sizeof(st));
	st.jobid = jobid;
	st.idx = idx;
	st.status = status;
	st.exit_status = exit_status;
	st.cpu_time = 1.5;
	st.max_mem_kb = 2048;
	st.avg_mem_kb = 1024;
	st.run_count = 1;
	if (JOB_STAT_FINISHED(status))
		st.end_time = when + 10;
	ev_job_status_write(sb, when + 10, &st);
}

START_TEST(test_done)
{
	struct strbuf sb = STRBUF_INIT;
	struct hist_job h;
	struct job_info ji;

	memset(&h, 0, sizeof(h));
	submission(&sb, 7, "sim");
	run(&sb, 7, 0, 1010, 4321, "hostb", JOB_STAT_EXIT, 3 << 8);
	feed(&h, &sb, false);
	ck_assert(hist_job_finished(&h));
	hist_job_fill(&ji, 7, 0, "short", NULL, &h, false);
	ck_assert_int_eq(ji.jobid, 7);
	ck_assert_int_eq(ji.status, JOB_STAT_EXIT);
	ck_assert_str_eq(ji.user, "ann");
	/* Its row's queue: where a bswitch left it. */
	ck_assert_str_eq(ji.queue, "short");
	ck_assert_str_eq(ji.job_name, "sim");
	ck_assert_str_eq(ji.command, "./sim -x");
	ck_assert_str_eq(ji.project, "p1");
	ck_assert_str_eq(ji.cwd, "/home/ann");
	ck_assert_str_eq(ji.out_file, "out.%J");
	ck_assert_str_eq(ji.res_req, "select[mem>10]");
	ck_assert_str_eq(ji.effective_res_req,
	    "select[mem>10] order[r15s:pg]");
	ck_assert_int_eq((int)ji.exec_hosts.n, 2);
	ck_assert_str_eq(ji.exec_hosts.v[0], "hostb");
	ck_assert_str_eq(ji.exec_user, "ann");
	ck_assert_int_eq(ji.pgid, 4321);
	ck_assert_str_eq(ji.pids.v[0], "4321");
	ck_assert_int_eq(ji.submit_time, 1000);
	ck_assert_int_eq(ji.start_time, 1010);
	ck_assert_int_eq(ji.end_time, 1020);
	ck_assert_int_eq(ji.num_procs, 2);
	ck_assert_int_eq(ji.exit_status, 3 << 8);
	ck_assert_int_eq(ji.max_mem_kb, 2048);
	ck_assert_int_eq(ji.avg_mem_kb, 1024);
	ck_assert(ji.cpu_time == 1.5);
	ck_assert_int_eq(ji.rlimits[LSF_RLIMIT_RUN], 600);
	ck_assert_int_eq(ji.rlimits[LSF_RLIMIT_CPU], DEFAULT_RLIMIT);
	hist_job_info_release(&ji);
	hist_job_clear(&h);
	sb_release(&sb);
}
END_TEST

/* Requeued: the last run is the answer, and no run's execution is left
 * from the one before when the last did not get that far. */
START_TEST(test_rerun)
{
	struct strbuf sb = STRBUF_INIT;
	struct ev_job_start s;
	struct ev_job_status st;
	struct hist_job h;
	struct job_info ji;

	memset(&h, 0, sizeof(h));
	submission(&sb, 8, "sim");
	run(&sb, 8, 0, 1010, 111, "hostb", JOB_STAT_PEND, 0);
	memset(&s, 0, sizeof(s));
	s.jobid = 8;
	s.status = JOB_STAT_RUN;
	strv_push(&s.exec_hosts, "hostc");
	ev_job_start_write(&sb, 1100, &s);
	strv_release(&s.exec_hosts);
	memset(&st, 0, sizeof(st));
	st.jobid = 8;
	st.status = JOB_STAT_EXIT;
	st.exit_info = TERM_OWNER;
	ev_job_status_write(&sb, 1105, &st);
	feed(&h, &sb, false);
	hist_job_fill(&ji, 8, 0, NULL, NULL, &h, true);
	ck_assert_str_eq(ji.queue, "normal");
	ck_assert_str_eq(ji.exec_hosts.v[0], "hostc");
	ck_assert_int_eq(ji.start_time, 1100);
	/* No end time in the record: the record's own. */
	ck_assert_int_eq(ji.end_time, 1105);
	ck_assert_int_eq(ji.exit_reason, TERM_OWNER);
	ck_assert_ptr_null(ji.exec_user);
	ck_assert_int_eq((int)ji.pids.n, 0);
	ck_assert_ptr_null(ji.effective_res_req);
	hist_job_info_release(&ji);
	hist_job_clear(&h);
	sb_release(&sb);
}
END_TEST

START_TEST(test_element)
{
	struct strbuf arr = STRBUF_INIT, el = STRBUF_INIT;
	struct hist_job h;
	struct job_info ji;

	memset(&h, 0, sizeof(h));
	submission(&arr, 9, "a[1-3]");
	run(&arr, 9, 2, 1010, 5, "hostb", JOB_STAT_DONE, 0);
	/* The element's records, then its array's submission alone (the
	 * array's other records are not the element's). */
	run(&el, 9, 2, 1010, 5, "hostb", JOB_STAT_DONE, 0);
	feed(&h, &el, false);
	ck_assert(!hist_job_finished(&h));
	feed(&h, &arr, true);
	ck_assert(hist_job_finished(&h));
	hist_job_fill(&ji, 9, 2, "normal", "a[2]", &h, false);
	ck_assert_int_eq(ji.idx, 2);
	ck_assert_str_eq(ji.job_name, "a[2]");
	ck_assert_int_eq(ji.status, JOB_STAT_DONE);
	hist_job_info_release(&ji);
	hist_job_clear(&h);
	sb_release(&arr);
	sb_release(&el);
}
END_TEST

/* Not finished, or damaged: not answered. */
START_TEST(test_unfinished)
{
	struct strbuf sb = STRBUF_INIT;
	struct hist_job h;

	memset(&h, 0, sizeof(h));
	submission(&sb, 10, "sim");
	run(&sb, 10, 0, 1010, 5, "hostb", JOB_STAT_RUN, 0);
	feed(&h, &sb, false);
	ck_assert(!hist_job_finished(&h));
	hist_job_clear(&h);
	hist_job_take(&h, "JOB_STATUS", "\"JOB_STATUS\" \"10.1\" 1 x", 24,
	    false);
	ck_assert(!h.has_status);
	ck_assert(!hist_job_finished(&h));
	sb_release(&sb);
}
END_TEST

static Suite *
histjob_suite(void)
{
	Suite *s = suite_create("histjob");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_done);
	tcase_add_test(tc, test_rerun);
	tcase_add_test(tc, test_element);
	tcase_add_test(tc, test_unfinished);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(histjob_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
