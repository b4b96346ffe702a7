/* bsub -b and -t times: each form, rolling over to the next match, errors. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timespec.h"
#include "util.h"

static int64_t
utc(int y, int mon, int d, int h, int min)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = min;
	return (int64_t)timegm(&tm);
}

static void
set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static void
setup(void)
{
	set_tz("UTC");
}

static const struct {
	const char	*text;
	int		 now[5];	/* year month day hour minute */
	int		 want[5];
} good_cases[] = {
	/* hour:minute: today, or tomorrow once past. */
	{ "20:30", { 2026, 3, 15, 12, 0 }, { 2026, 3, 15, 20, 30 } },
	{ "12:00", { 2026, 3, 15, 12, 0 }, { 2026, 3, 15, 12, 0 } },
	{ "11:59", { 2026, 3, 15, 12, 0 }, { 2026, 3, 16, 11, 59 } },
	{ "0:0", { 2026, 3, 15, 12, 0 }, { 2026, 3, 16, 0, 0 } },
	{ "05:07", { 2026, 3, 15, 12, 0 }, { 2026, 3, 16, 5, 7 } },
	{ "23:59", { 2026, 3, 15, 12, 0 }, { 2026, 3, 15, 23, 59 } },
	{ "1:00", { 2026, 12, 31, 23, 0 }, { 2027, 1, 1, 1, 0 } },
	{ "1:00", { 2028, 2, 28, 23, 0 }, { 2028, 2, 29, 1, 0 } },
	/* day:hour:minute: this month, or the next month that has the day. */
	{ "20:12:00", { 2026, 3, 15, 12, 0 }, { 2026, 3, 20, 12, 0 } },
	{ "15:12:00", { 2026, 3, 15, 12, 0 }, { 2026, 3, 15, 12, 0 } },
	{ "15:11:59", { 2026, 3, 15, 12, 0 }, { 2026, 4, 15, 11, 59 } },
	{ "1:0:0", { 2026, 3, 15, 12, 0 }, { 2026, 4, 1, 0, 0 } },
	{ "31:8:00", { 2026, 3, 15, 12, 0 }, { 2026, 3, 31, 8, 0 } },
	{ "31:8:00", { 2026, 4, 15, 12, 0 }, { 2026, 5, 31, 8, 0 } },
	{ "5:1:00", { 2026, 12, 20, 12, 0 }, { 2027, 1, 5, 1, 0 } },
	{ "30:9:00", { 2026, 1, 31, 10, 0 }, { 2026, 3, 30, 9, 0 } },
	{ "29:9:00", { 2026, 1, 31, 10, 0 }, { 2026, 3, 29, 9, 0 } },
	{ "29:9:00", { 2028, 1, 31, 10, 0 }, { 2028, 2, 29, 9, 0 } },
	/* month:day:hour:minute: this year, or the next that has the date. */
	{ "11:5:20:30", { 2026, 3, 15, 12, 0 }, { 2026, 11, 5, 20, 30 } },
	{ "3:15:12:00", { 2026, 3, 15, 12, 0 }, { 2026, 3, 15, 12, 0 } },
	{ "3:15:11:00", { 2026, 3, 15, 12, 0 }, { 2027, 3, 15, 11, 0 } },
	{ "1:1:0:0", { 2026, 3, 15, 12, 0 }, { 2027, 1, 1, 0, 0 } },
	{ "12:31:23:59", { 2026, 3, 15, 12, 0 }, { 2026, 12, 31, 23, 59 } },
	{ "2:29:10:00", { 2026, 3, 15, 12, 0 }, { 2028, 2, 29, 10, 0 } },
	{ "2:29:0:0", { 2028, 3, 1, 0, 0 }, { 2032, 2, 29, 0, 0 } },
	{ "2:29:0:0", { 2096, 3, 1, 0, 0 }, { 2104, 2, 29, 0, 0 } },
	/* year:month:day:hour:minute. */
	{ "2026:11:5:20:30", { 2026, 3, 15, 12, 0 }, { 2026, 11, 5, 20, 30 } },
	{ "2026:3:15:12:0", { 2026, 3, 15, 12, 0 }, { 2026, 3, 15, 12, 0 } },
	{ "2028:2:29:0:0", { 2026, 3, 15, 12, 0 }, { 2028, 2, 29, 0, 0 } },
	{ "2000:02:29:00:00", { 1999, 3, 15, 12, 0 }, { 2000, 2, 29, 0, 0 } },
	{ "2030:12:31:23:59", { 2026, 3, 15, 12, 0 },
	    { 2030, 12, 31, 23, 59 } },
};

START_TEST(test_good)
{
	const int *n = good_cases[_i].now, *w = good_cases[_i].want;
	int64_t out = -1;
	char *cause = NULL;

	if (timespec_parse(good_cases[_i].text, utc(n[0], n[1], n[2], n[3],
	    n[4]), false, &out, &cause) != 0)
		ck_abort_msg("%s: %s", good_cases[_i].text, cause);
	ck_assert_ptr_null(cause);
	ck_assert_int_eq(out, utc(w[0], w[1], w[2], w[3], w[4]));
}
END_TEST

/* Seconds past the minute count: 20:30 at 20:30:15 is tomorrow's. */
START_TEST(test_seconds)
{
	int64_t now = utc(2026, 3, 15, 20, 30) + 15, out;
	char *cause = NULL;

	ck_assert_int_eq(timespec_parse("20:30", now, false, &out, &cause), 0);
	ck_assert_int_eq(out, utc(2026, 3, 16, 20, 30));
	ck_assert_int_eq(timespec_parse("20:31", now, true, &out, &cause), 0);
	ck_assert_int_eq(out, utc(2026, 3, 15, 20, 31));
}
END_TEST

/* A full date in the past is refused, but its time is handed back. */
START_TEST(test_past)
{
	int64_t now = utc(2026, 3, 15, 12, 0), out = -1;
	char *cause = NULL;

	ck_assert_int_eq(timespec_parse("2026:3:15:11:59", now, false, &out,
	    &cause), -1);
	ck_assert_str_eq(cause, "bad time specification \"2026:3:15:11:59\": "
	    "the time is in the past");
	ck_assert_int_eq(out, utc(2026, 3, 15, 11, 59));
	free(cause);
	cause = NULL;
	ck_assert_int_eq(timespec_parse("1970:1:1:0:0", now, false, &out,
	    &cause), -1);
	ck_assert_int_eq(out, 0);
	free(cause);
}
END_TEST

/* Local time, not UTC: New York's offsets in winter and in summer. */
START_TEST(test_local)
{
	int64_t out;
	char *cause = NULL;

	set_tz("EST5EDT,M3.2.0,M11.1.0");
	/* 07:00 EST. */
	ck_assert_int_eq(timespec_parse("20:30", utc(2026, 1, 10, 12, 0),
	    false, &out, &cause), 0);
	ck_assert_int_eq(out, utc(2026, 1, 11, 1, 30));
	ck_assert_int_eq(timespec_parse("6:30", utc(2026, 1, 10, 12, 0),
	    false, &out, &cause), 0);
	ck_assert_int_eq(out, utc(2026, 1, 11, 11, 30));
	/* 22:00 EST is already tomorrow in UTC: today is the local day. */
	ck_assert_int_eq(timespec_parse("23:00", utc(2026, 1, 11, 3, 0),
	    false, &out, &cause), 0);
	ck_assert_int_eq(out, utc(2026, 1, 11, 4, 0));
	ck_assert_int_eq(timespec_parse("10:23:00", utc(2026, 1, 11, 3, 0),
	    false, &out, &cause), 0);
	ck_assert_int_eq(out, utc(2026, 1, 11, 4, 0));
	/* 08:00 EDT. */
	ck_assert_int_eq(timespec_parse("20:30", utc(2026, 7, 1, 12, 0),
	    false, &out, &cause), 0);
	ck_assert_int_eq(out, utc(2026, 7, 2, 0, 30));
	/* Across the change: Saturday EST, the answer on Sunday in EDT. */
	ck_assert_int_eq(timespec_parse("8:12:00", utc(2026, 3, 7, 12, 0),
	    false, &out, &cause), 0);
	ck_assert_int_eq(out, utc(2026, 3, 8, 16, 0));
	ck_assert_int_eq(timespec_parse("2026:11:1:12:00",
	    utc(2026, 7, 1, 12, 0), false, &out, &cause), 0);
	ck_assert_int_eq(out, utc(2026, 11, 1, 17, 0));
}
END_TEST

static const struct {
	const char	*text;
	const char	*why;
} bad_cases[] = {
	{ "20", "expected at least hour:minute" },
	{ "1:2:3:4:5:6", "too many fields" },
	{ "1:2:3:4:5:6:7:8:9", "too many fields" },
	{ "24:00", "hour out of range 0-23" },
	{ "99:00", "hour out of range 0-23" },
	{ "23:60", "minute out of range 0-59" },
	{ "0:12:00", "day out of range 1-31" },
	{ "32:12:00", "day out of range 1-31" },
	{ "0:1:12:00", "month out of range 1-12" },
	{ "13:1:12:00", "month out of range 1-12" },
	{ "2:30:12:00", "no such date" },
	{ "4:31:0:0", "no such date" },
	{ "2027:2:29:0:0", "no such date" },
	{ "2100:2:29:0:0", "no such date" },
	{ "2027:6:31:0:0", "no such date" },
	{ "1969:12:31:23:59", "year before 1970" },
	{ "0:1:1:0:0", "year before 1970" },
	{ "99999:1", "number too large" },
	{ "20:3a", "expected [[[year:]month:]day:]hour:minute" },
	{ "20::30", "expected [[[year:]month:]day:]hour:minute" },
	{ ":20:30", "expected [[[year:]month:]day:]hour:minute" },
	{ "20:30:", "expected [[[year:]month:]day:]hour:minute" },
	{ " 20:30", "expected [[[year:]month:]day:]hour:minute" },
	{ "20:30 ", "expected [[[year:]month:]day:]hour:minute" },
	{ "-1:30", "expected [[[year:]month:]day:]hour:minute" },
	{ "+1:30", "expected [[[year:]month:]day:]hour:minute" },
	{ "20.30", "expected [[[year:]month:]day:]hour:minute" },
	{ "tomorrow", "expected [[[year:]month:]day:]hour:minute" },
};

START_TEST(test_bad)
{
	int64_t out = 42;
	char *cause = NULL, *want;

	ck_assert_int_eq(timespec_parse(bad_cases[_i].text,
	    utc(2026, 3, 15, 12, 0), false, &out, &cause), -1);
	ck_assert_int_eq(out, 42);
	want = xasprintf("bad time specification \"%s\": %s",
	    bad_cases[_i].text, bad_cases[_i].why);
	ck_assert_str_eq(cause, want);
	free(want);
	free(cause);
}
END_TEST

START_TEST(test_empty)
{
	int64_t out = 42;
	char *cause = NULL;

	ck_assert_int_eq(timespec_parse("", 0, false, &out, &cause), -1);
	ck_assert_str_eq(cause, "empty time specification");
	free(cause);
	cause = NULL;
	ck_assert_int_eq(timespec_parse(NULL, 0, false, &out, &cause), -1);
	ck_assert_str_eq(cause, "empty time specification");
	free(cause);
	ck_assert_int_eq(out, 42);
}
END_TEST

static Suite *
timespec_suite(void)
{
	Suite *s = suite_create("timespec");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, test_good, 0, (int)ARRAY_SIZE(good_cases));
	tcase_add_test(tc, test_seconds);
	tcase_add_test(tc, test_past);
	tcase_add_test(tc, test_local);
	tcase_add_loop_test(tc, test_bad, 0, (int)ARRAY_SIZE(bad_cases));
	tcase_add_test(tc, test_empty);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(timespec_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
