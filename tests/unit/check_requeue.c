/*
 * REQUEUE_EXIT_VALUES lists (requeue_values_parse): plain values, all
 * and ~n, EXCLUDE(...) with blanks, and the errors.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "requeue.h"
#include "util.h"

/* The codes listed, as "1 2 x3" (x: by EXCLUDE), up to 20 of them. */
static const char *
listed(const struct requeue_values *rv)
{
	static char buf[256];
	size_t n = 0;
	int count = 0;

	buf[0] = '\0';
	for (int c = 0; c < 256 && count < 20; c++) {
		bool ex;

		if (!requeue_values_has(rv, c, &ex))
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s%d",
		    count++ ? " " : "", ex ? "x" : "", c);
	}
	return buf;
}

static const struct {
	const char	*in;
	const char	*want;
} good[] = {
	{ "", "" },
	{ "1 2", "1 2" },
	{ "  255\t3 ", "3 255" },
	{ "EXCLUDE(4)", "x4" },
	{ "1 exclude( 4  5 ) 7", "1 x4 x5 7" },
	{ "EXCLUDE (9)", "x9" },
	{ "3 EXCLUDE(3)", "x3" },
	{ "all ~0 ~1 ~3", "2 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 "
	    "22" },
	{ "~2 ALL ~1 ~0", "3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 "
	    "22" },
	{ "EXCLUDE(1 2)EXCLUDE(3)", "x1 x2 x3" },
};

START_TEST(test_good)
{
	struct requeue_values rv;
	const char *why = NULL;

	ck_assert_int_eq(requeue_values_parse(good[_i].in, &rv, &why), 0);
	ck_assert_str_eq(listed(&rv), good[_i].want);
}
END_TEST

static const char *const bad[] = {
	"1 x", "256", "-1", "1,2", "EXCLUDE", "EXCLUDE 3", "EXCLUDE()",
	"EXCLUDE(3", "EXCLUDE(a)", "EXCLUDE(300)", "~", "~x", "alll",
	"3a", "EXCLUDE(3 4,)",
};

START_TEST(test_bad)
{
	struct requeue_values rv;
	const char *why = NULL;

	ck_assert_int_eq(requeue_values_parse(bad[_i], &rv, &why), -1);
	ck_assert_ptr_nonnull(why);
}
END_TEST

START_TEST(test_listed)
{
	ck_assert(exit_value_listed("1 EXCLUDE(3)", 3));
	ck_assert(exit_value_listed("1 EXCLUDE(3)", 1));
	ck_assert(!exit_value_listed("1 EXCLUDE(3)", 2));
	/* ~n is not a listed n, as it was when any number counted. */
	ck_assert(!exit_value_listed("all ~4", 4));
	ck_assert(exit_value_listed("all ~4", 5));
	ck_assert(!exit_value_listed(NULL, 1));
	ck_assert(!exit_value_listed("1 x", 1));
}
END_TEST

/* SUCCESS_EXIT_VALUES: plain exit values only. */
START_TEST(test_success_values)
{
	const char *why = NULL;

	ck_assert_int_eq(exit_values_valid("3", &why), 0);
	ck_assert_int_eq(exit_values_valid(" 3  7 255 ", &why), 0);
	ck_assert_int_eq(exit_values_valid("256", &why), -1);
	ck_assert_ptr_nonnull(why);
	ck_assert_int_eq(exit_values_valid("3 x", &why), -1);
	ck_assert_int_eq(exit_values_valid("all", &why), -1);
	ck_assert_int_eq(exit_values_valid("~3", &why), -1);
	ck_assert_int_eq(exit_values_valid("   ", &why), -1);
	ck_assert(success_exit_value("3 7", 3));
	ck_assert(success_exit_value("3 7", 7));
	ck_assert(!success_exit_value("3 7", 5));
	ck_assert(!success_exit_value("3 7", 0));
	ck_assert(!success_exit_value(NULL, 3));
	/* A bad list holds nothing. */
	ck_assert(!success_exit_value("3 x", 3));
}
END_TEST

/* MAX_JOB_REQUEUE: application over queue over lsb.params. */
START_TEST(test_max_requeue)
{
	ck_assert_int_eq(max_job_requeue(-1, -1, -1), -1);
	ck_assert_int_eq(max_job_requeue(-1, -1, 4), 4);
	ck_assert_int_eq(max_job_requeue(-1, 2, 4), 2);
	ck_assert_int_eq(max_job_requeue(1, 2, 4), 1);
	ck_assert_int_eq(max_job_requeue(0, 2, 4), 0);
	ck_assert_int_eq(max_job_requeue(5, -1, -1), 5);
	ck_assert_int_eq(max_job_requeue(-1, 0, 4), 0);

	ck_assert(requeue_allowed(-1, 0));
	ck_assert(requeue_allowed(-1, 1000000));
	ck_assert(!requeue_allowed(0, 0));
	ck_assert(requeue_allowed(1, 0));
	ck_assert(!requeue_allowed(1, 1));
	ck_assert(requeue_allowed(3, 2));
	ck_assert(!requeue_allowed(3, 3));
	ck_assert(!requeue_allowed(3, 4));
}
END_TEST

/* The back-off: 1 s, doubled at each requeue, at most 60 s. */
START_TEST(test_backoff)
{
	ck_assert_int_eq(requeue_backoff(0), REQUEUE_BACKOFF_FIRST);
	ck_assert_int_eq(requeue_backoff(1), 1);
	ck_assert_int_eq(requeue_backoff(2), 2);
	ck_assert_int_eq(requeue_backoff(3), 4);
	ck_assert_int_eq(requeue_backoff(6), 32);
	ck_assert_int_eq(requeue_backoff(7), REQUEUE_BACKOFF_MAX);
	ck_assert_int_eq(requeue_backoff(8), REQUEUE_BACKOFF_MAX);
	ck_assert_int_eq(requeue_backoff(2147483647), REQUEUE_BACKOFF_MAX);
	for (int n = 1; n < 100; n++)
		ck_assert_int_le(requeue_backoff(n), requeue_backoff(n + 1));
}
END_TEST

static Suite *
requeue_suite(void)
{
	Suite *s = suite_create("requeue");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_good, 0, (int)ARRAY_SIZE(good));
	tcase_add_loop_test(tc, test_bad, 0, (int)ARRAY_SIZE(bad));
	tcase_add_test(tc, test_listed);
	tcase_add_test(tc, test_success_values);
	tcase_add_test(tc, test_max_requeue);
	tcase_add_test(tc, test_backoff);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(requeue_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
