/*
 * Fairshare's pure computation: USER_SHARES as written in lsb.queues and
 * lsb.users, good and bad; which account a user's jobs count against
 * (a user, group@, a group, default, others); decay; and dynamic
 * priorities worked out by hand in the comments.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "fairshare.h"

#define EPS	1e-9

static bool
is_group(const char *name, void *arg)
{
	(void)arg;
	return strcmp(name, "bio") == 0 || strcmp(name, "chem") == 0;
}

/* bio: ann, bob; chem: cid. */
static bool
in_group(const char *user, const char *group, void *arg)
{
	(void)arg;
	if (strcmp(group, "bio") == 0)
		return strcmp(user, "ann") == 0 || strcmp(user, "bob") == 0;
	if (strcmp(group, "chem") == 0)
		return strcmp(user, "cid") == 0;
	return false;
}

START_TEST(parse_forms)
{
	struct fs_shares s = { 0 };
	const char *why;

	ck_assert_int_eq(fs_fairshare_parse(
	    "USER_SHARES[[alice, 10] [bio, 5] [default, 1]]", &s, &why), 0);
	ck_assert_int_eq(s.n, 3);
	ck_assert_str_eq(s.v[0].name, "alice");
	ck_assert_int_eq(s.v[0].shares, 10);
	ck_assert_str_eq(s.v[2].name, "default");
	/* lsb.users writes the list without the outer brackets too. */
	ck_assert_int_eq(fs_shares_parse("[ann,2]  [ bob , 3 ]", &s, &why), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_str_eq(s.v[1].name, "bob");
	ck_assert_int_eq(s.v[1].shares, 3);
	fs_shares_release(&s);
}
END_TEST

START_TEST(parse_errors)
{
	static const char *const bad[] = {
		"USER_SHARES[[alice, 10]",		/* missing ] */
		"USER_SHARES[[alice 10]]",		/* no comma */
		"USER_SHARES[[alice, 0]]",		/* not positive */
		"USER_SHARES[[alice, x]]",
		"USER_SHARES[[, 3]]",			/* no name */
		"USER_SHARES[[alice, 1] [alice, 2]]",	/* twice */
		"USER_SHARES[]",			/* nothing */
		"SHARES[[alice, 1]]",			/* not USER_SHARES */
		"USER_SHARES[[alice, 1]] extra",
	};
	struct fs_shares s = { 0 };
	const char *why;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		ck_assert_msg(fs_fairshare_parse(bad[i], &s, &why) == -1,
		    "%s parsed", bad[i]);
		ck_assert_ptr_nonnull(why);
		ck_assert_int_eq(s.n, 0);
	}
}
END_TEST

START_TEST(accounts)
{
	struct fs_shares s = { 0 };
	const char *why;

	ck_assert_int_eq(fs_fairshare_parse("USER_SHARES[[alice, 10] "
	    "[bio, 5] [chem@, 2] [default, 1]]", &s, &why), 0);
	fs_classify(&s, is_group, NULL);
	ck_assert_int_eq(s.v[0].kind, FS_USER);
	ck_assert_int_eq(s.v[1].kind, FS_GROUP);
	ck_assert_int_eq(s.v[2].kind, FS_GROUP_EACH);
	ck_assert_str_eq(s.v[2].name, "chem");
	ck_assert_int_eq(s.v[3].kind, FS_DEFAULT);
	/* alice by name; ann and bob share bio's account; cid has chem@'s
	 * share alone; anyone else the default share alone. */
	ck_assert_int_eq(fs_account_of(&s, "alice", in_group, NULL), 0);
	ck_assert_int_eq(fs_account_of(&s, "ann", in_group, NULL), 1);
	ck_assert_int_eq(fs_account_of(&s, "bob", in_group, NULL), 1);
	ck_assert_int_eq(fs_account_of(&s, "cid", in_group, NULL), 2);
	ck_assert_int_eq(fs_account_of(&s, "dan", in_group, NULL), 3);
	/* Without default or others an unnamed user has no share. */
	ck_assert_int_eq(fs_fairshare_parse("USER_SHARES[[alice, 1] "
	    "[others, 1]]", &s, &why), 0);
	fs_classify(&s, is_group, NULL);
	ck_assert_int_eq(fs_account_of(&s, "dan", in_group, NULL), 1);
	ck_assert_int_eq(fs_fairshare_parse("USER_SHARES[[alice, 1]]", &s,
	    &why), 0);
	fs_classify(&s, is_group, NULL);
	ck_assert_int_eq(fs_account_of(&s, "dan", in_group, NULL), -1);
	fs_shares_release(&s);
}
END_TEST

START_TEST(decay)
{
	/* One hour counts 0.1 hour HIST_HOURS (5) later, 0.01 after 10,
	 * sqrt(0.1) = 0.316... after 2.5. */
	ck_assert_double_eq_tol(fs_decay(1, 5, 5), 0.1, EPS);
	ck_assert_double_eq_tol(fs_decay(1, 10, 5), 0.01, EPS);
	ck_assert_double_eq_tol(fs_decay(1, 2.5, 5), sqrt(0.1), EPS);
	ck_assert_double_eq_tol(fs_decay(7, 0, 5), 7, EPS);
	/* HIST_HOURS = 0: no decay. */
	ck_assert_double_eq_tol(fs_decay(7, 100, 0), 7, EPS);
}
END_TEST

START_TEST(priority)
{
	struct fs_factors f;
	struct fs_usage u;
	int64_t t0 = 1700000000;

	fs_factors_default(&f);
	memset(&u, 0, sizeof(u));
	/* Nothing used: 10 / (1 x 3.0) = 3.333... */
	ck_assert_double_eq_tol(fs_priority(10, &u, &f, t0), 10.0 / 3, EPS);
	/* Two slots running for half an hour:
	 * 10 / (0.5 x 0.7 + 3 x 3.0) = 10 / 9.35. */
	u.slots = 2;
	u.run_hours = 0.5;
	ck_assert_double_eq_tol(fs_priority(10, &u, &f, t0), 10 / 9.35, EPS);
	/* Those jobs end having used 2 CPU hours: 10 / (2 x 0.7 + 3.0) =
	 * 10 / 4.4 at once; five hours later the 2 hours count 0.2:
	 * 10 / (0.2 x 0.7 + 3.0) = 10 / 3.14. */
	u.slots = 0;
	u.run_hours = 0;
	fs_usage_add_cpu(&u, 2, t0, &f);
	ck_assert_double_eq_tol(fs_priority(10, &u, &f, t0), 10 / 4.4, EPS);
	ck_assert_double_eq_tol(fs_priority(10, &u, &f, t0 + 5 * 3600),
	    10 / 3.14, EPS);
	/* One more CPU hour then: 0.2 + 1 = 1.2 hours as of t0 + 5 h. */
	fs_usage_add_cpu(&u, 1, t0 + 5 * 3600, &f);
	ck_assert_double_eq_tol(u.cpu_hours, 1.2, EPS);
	/* The adjustment counts only with its factor. */
	u.adjust = 4;
	f.adjust = 0.5;
	ck_assert_double_eq_tol(fs_priority(10, &u, &f, t0 + 5 * 3600),
	    10 / (1.2 * 0.7 + 3.0 + 2.0), EPS);
	/* All factors 0: no division by zero, shares still order. */
	memset(&f, 0, sizeof(f));
	ck_assert(fs_priority(10, &u, &f, t0) > fs_priority(5, &u, &f, t0));
}
END_TEST

START_TEST(priority_order)
{
	struct fs_factors f;
	struct fs_usage a, b;
	int64_t t = 1700000000;

	/* 3:1 shares, both idle: a first.  a runs 3 slots, b 0:
	 * a = 3 / (4 x 3) = 0.25, b = 1 / 3 = 0.333: b's turn. */
	fs_factors_default(&f);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	ck_assert(fs_priority(3, &a, &f, t) > fs_priority(1, &b, &f, t));
	a.slots = 3;
	ck_assert(fs_priority(3, &a, &f, t) < fs_priority(1, &b, &f, t));
	/* b takes one: b = 1 / 6 = 0.167 < a's 0.25: a's turn again, so
	 * slots go 3:1 while both wait. */
	b.slots = 1;
	ck_assert(fs_priority(3, &a, &f, t) > fs_priority(1, &b, &f, t));
}
END_TEST

static Suite *
fairshare_suite(void)
{
	Suite *s = suite_create("fairshare");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parse_forms);
	tcase_add_test(tc, parse_errors);
	tcase_add_test(tc, accounts);
	tcase_add_test(tc, decay);
	tcase_add_test(tc, priority);
	tcase_add_test(tc, priority_order);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(fairshare_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
