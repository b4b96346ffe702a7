/* ELIM output lines: good ones, unknown values, each kind of garbage. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "elim.h"

START_TEST(good_lines)
{
	struct elim_pair p[ELIM_MAX_PAIRS];
	const char *why = NULL;

	ck_assert_int_eq(elim_parse_line("2 r1m 3.5 nlic 4", p, &why), 2);
	ck_assert_str_eq(p[0].name, "r1m");
	ck_assert(p[0].known);
	ck_assert(p[0].value == 3.5);
	ck_assert_str_eq(p[1].name, "nlic");
	ck_assert(p[1].value == 4);
	ck_assert_int_eq(elim_parse_line("1  ut\t-", p, &why), 1);
	ck_assert(!p[0].known);
	ck_assert_int_eq(elim_parse_line("0", p, &why), 0);
	ck_assert_int_eq(elim_parse_line("1 x_1 -2e3 ", p, &why), 1);
	ck_assert(p[0].value == -2000);
}
END_TEST

START_TEST(bad_lines)
{
	static const char *bad[] = {
		"", "   ", "x r1m 1", "-1", "2 r1m 1", "1 r1m", "1 r1m abc",
		"1 r1m 1 extra", "65 a 1", "1 1abc 2", "1 a-b 2", "1 r1m nan",
		"1 r1m inf", "1 r1m 1e40", "99999999999999999999 a 1",
		"1 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1",
		"1 r1m 1\001",
	};
	struct elim_pair p[ELIM_MAX_PAIRS];
	const char *why;
	char *big;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		ck_assert_msg(elim_parse_line(bad[i], p, &why) == -1,
		    "accepted '%s'", bad[i]);
		ck_assert_ptr_nonnull(why);
	}
	big = malloc(ELIM_MAX_LINE + 10);
	memset(big, ' ', ELIM_MAX_LINE + 9);
	big[0] = '0';
	big[ELIM_MAX_LINE + 9] = '\0';
	ck_assert_int_eq(elim_parse_line(big, p, &why), -1);
	free(big);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("elim");
	TCase *tc = tcase_create("parse");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, good_lines);
	tcase_add_test(tc, bad_lines);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
