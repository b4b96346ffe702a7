/*
 * bacct's pure side (acct-report.c): LSF's time ranges for -C -S -D and
 * the SUMMARY's figures and layout from the database's sums.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acct-report.h"
#include "util.h"

/* 2026-11-26 12:00:00 UTC; the tests run in UTC. */
#define NOW	1795694400

static int64_t
utc(int y, int mo, int d, int h, int mi, int s)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	return (int64_t)timegm(&tm);
}

START_TEST(test_range_full)
{
	int64_t a, b;

	ck_assert_int_eq(acct_range_parse("2026/1/2/0:00,2026/1/2/23:59", NOW,
	    &a, &b), 0);
	ck_assert_int_eq(a, utc(2026, 1, 2, 0, 0, 0));
	/* The end's minute is counted whole. */
	ck_assert_int_eq(b, utc(2026, 1, 2, 23, 59, 59));
}
END_TEST

START_TEST(test_range_defaults)
{
	int64_t a, b;

	/* A day alone is the whole day, of this month and year. */
	ck_assert_int_eq(acct_range_parse("3", NOW, &a, &b), 0);
	ck_assert_int_eq(a, utc(2026, 11, 3, 0, 0, 0));
	ck_assert_int_eq(b, utc(2026, 11, 3, 23, 59, 59));
	/* month/day, and a time of today. */
	ck_assert_int_eq(acct_range_parse("10/1,8:30", NOW, &a, &b), 0);
	ck_assert_int_eq(a, utc(2026, 10, 1, 0, 0, 0));
	ck_assert_int_eq(b, utc(2026, 11, 26, 8, 30, 59));
	/* Open ends. */
	ck_assert_int_eq(acct_range_parse(",11/2", NOW, &a, &b), 0);
	ck_assert_int_eq(a, 0);
	ck_assert_int_eq(b, utc(2026, 11, 2, 23, 59, 59));
	ck_assert_int_eq(acct_range_parse("11/2/6:00,", NOW, &a, &b), 0);
	ck_assert_int_eq(a, utc(2026, 11, 2, 6, 0, 0));
	ck_assert(b == INT64_MAX);
}
END_TEST

START_TEST(test_range_bad)
{
	int64_t a, b;
	static const char *const bad[] = {
		"", ",", "x", "1/x", "13/1", "32", "25:00", "10:61",
		"2026/1/2/3/4:00", "1,2,3", "11/3,11/2", "1:", "/1", NULL
	};

	for (int i = 0; bad[i] != NULL; i++)
		ck_assert_msg(acct_range_parse(bad[i], NOW, &a, &b) < 0,
		    "accepted \"%s\"", bad[i]);
}
END_TEST

static char *
summary(const struct acct_sums *s, int64_t begin, int64_t end)
{
	struct strbuf sb = STRBUF_INIT;

	acct_summary_write(&sb, s, begin, end);
	return sb_detach(&sb);
}

/* check's message for a long mismatch is too long for it: print both. */
static void
expect_text(const char *got, const char *want)
{
	if (got == NULL)	/* sb_detach of nothing written */
		got = "";
	if (strcmp(got, want) != 0)
		fprintf(stderr, "got:\n%s\nwant:\n%s\n", got, want);
	ck_assert_msg(strcmp(got, want) == 0, "SUMMARY text differs");
}

START_TEST(test_summary)
{
	struct acct_sums s;
	char *out;

	memset(&s, 0, sizeof(s));
	s.ndone = 3;
	s.nexit = 1;
	s.cpu_sum = 10.0; s.cpu_max = 6.0; s.cpu_min = 0.5;
	s.wait_sum = 40; s.wait_max = 20; s.wait_min = 2;
	s.turn_sum = 400; s.turn_max = 200; s.turn_min = 50;
	s.hog_sum = 0.2; s.hog_max = 0.1; s.hog_min = 0.01;
	s.run_sum = 360; s.run_max = 180; s.run_min = 40;
	s.first_end = utc(2026, 11, 26, 10, 0, 0);
	s.last_end = utc(2026, 11, 26, 12, 0, 0);
	out = summary(&s, 0, 0);
	expect_text(out,
	    "SUMMARY:      ( time unit: second )\n"
	    " Total number of done jobs:       3"
	    "      Total number of exited jobs:     1\n"
	    " Total CPU time consumed:      10.0"
	    "      Average CPU time consumed:     2.5\n"
	    " Maximum CPU time of a job:     6.0"
	    "      Minimum CPU time of a job:     0.5\n"
	    " Total wait time in queues:    40.0\n"
	    " Average wait time in queue:   10.0\n"
	    " Maximum wait time in queue:   20.0"
	    "      Minimum wait time in queue:    2.0\n"
	    " Average turnaround time:       100 (seconds/job)\n"
	    " Maximum turnaround time:       200"
	    "      Minimum turnaround time:        50\n"
	    " Average hog factor of a job:  0.05 ( cpu time /"
	    " turnaround time )\n"
	    " Maximum hog factor of a job:  0.10"
	    "      Minimum hog factor of a job:  0.01\n"
	    " Total Run time consumed:       360"
	    "      Average Run time consumed:      90\n"
	    " Maximum Run time of a job:     180"
	    "      Minimum Run time of a job:      40\n"
	    " Total throughput:             2.00 (jobs/hour)  during"
	    "    2.00 hours\n"
	    " Beginning time:       Nov 26 10:00"
	    "      Ending time:          Nov 26 12:00\n");
	free(out);
	/* -C's range is the period: 4 jobs over 8 hours. */
	out = summary(&s, utc(2026, 11, 26, 8, 0, 0),
	    utc(2026, 11, 26, 16, 0, 0));
	ck_assert_ptr_nonnull(strstr(out, " Total throughput:"
	    "             0.50 (jobs/hour)  during    8.00 hours\n"));
	ck_assert_ptr_nonnull(strstr(out, " Beginning time:       Nov 26 08:00"
	    "      Ending time:          Nov 26 16:00\n"));
	free(out);
}
END_TEST

START_TEST(test_summary_instant)
{
	struct acct_sums s;
	char *out;

	/* One job: no period, no throughput, and no division by zero. */
	memset(&s, 0, sizeof(s));
	s.nexit = 1;
	s.first_end = s.last_end = utc(2026, 11, 26, 10, 0, 0);
	out = summary(&s, 0, 0);
	ck_assert_ptr_nonnull(strstr(out, " Total throughput:"
	    "             0.00 (jobs/hour)  during    0.00 hours\n"));
	ck_assert_ptr_nonnull(strstr(out, "Average CPU time consumed:"
	    "     0.0\n"));
	free(out);
}
END_TEST

static Suite *
bacct_suite(void)
{
	Suite *s = suite_create("bacct");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_range_full);
	tcase_add_test(tc, test_range_defaults);
	tcase_add_test(tc, test_range_bad);
	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_summary_instant);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	setenv("TZ", "UTC", 1);
	tzset();
	sr = srunner_create(bacct_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail ? 1 : 0;
}
