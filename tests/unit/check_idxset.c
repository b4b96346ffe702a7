/* Job array index sets and the array part of job names (bsub -J). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idxset.h"
#include "util.h"

#define MAXIDX	1000000

/* Parse a spec that must be good; the caller releases the set. */
static void
parse_ok(const char *spec, struct idxset *s, const char *base, int limit)
{
	const char *cause = NULL;
	char *b = NULL;
	int lim = -1;

	if (array_spec_parse(spec, MAXIDX, &b, s, &lim, &cause) != 0)
		ck_abort_msg("parse \"%s\": %s", spec, cause);
	ck_assert_str_eq(b, base);
	ck_assert_int_eq(lim, limit);
	free(b);
}

static void
check_format(const struct idxset *s, const char *want)
{
	char *f = idxset_format(s);

	ck_assert_str_eq(f, want);
	free(f);
}

START_TEST(test_parse_good)
{
	struct idxset s;

	parse_ok("a[1-10]", &s, "a", 0);
	ck_assert_int_eq(s.count, 10);
	ck_assert_int_eq(s.n, 1);
	check_format(&s, "1-10");
	idxset_release(&s);

	parse_ok("a[1-10:2,15,20-30]%5", &s, "a", 5);
	ck_assert_int_eq(s.count, 5 + 1 + 11);
	check_format(&s, "1-9:2,15,20-30");
	ck_assert(idxset_contains(&s, 9));
	ck_assert(!idxset_contains(&s, 10));
	idxset_release(&s);

	parse_ok("a[5]", &s, "a", 0);
	ck_assert_int_eq(s.count, 1);
	check_format(&s, "5");
	idxset_release(&s);

	/* Given out of order, kept sorted. */
	parse_ok("job name[20-22,3,1]%1", &s, "job name", 1);
	ck_assert_int_eq(s.count, 5);
	check_format(&s, "1,3,20-22");
	idxset_release(&s);

	/* A step larger than the range leaves one index. */
	parse_ok("a[7-8:2147483647]", &s, "a", 0);
	ck_assert_int_eq(s.count, 1);
	check_format(&s, "7");
	ck_assert_int_eq(s.r[0].step, 1);
	ck_assert_int_eq(idxset_next(&s, 7), -1);
	idxset_release(&s);

	/* The end is rounded down to the last index the step reaches. */
	parse_ok("a[1-10:4]", &s, "a", 0);
	ck_assert_int_eq(s.count, 3);
	check_format(&s, "1-9:4");
	idxset_release(&s);

	parse_ok("a[1-1000000]", &s, "a", 0);
	ck_assert_int_eq(s.count, 1000000);
	idxset_release(&s);

	/* Interleaved ranges are merged into ranges that do not overlap. */
	parse_ok("a[1-9:2,4]", &s, "a", 0);
	ck_assert_int_eq(s.count, 6);
	check_format(&s, "1-3:2,4-5,7-9:2");
	for (int i = 1; i <= 10; i++)
		ck_assert(idxset_contains(&s, i) == (i % 2 == 1 || i == 4));
	ck_assert(idxset_remove(&s, 4));
	ck_assert_int_eq(idxset_next(&s, 3), 5);
	idxset_release(&s);
	/* An index named twice is one element (the issue's own example). */
	parse_ok("name[1-1000:2,5,7]%10", &s, "name", 10);
	ck_assert_int_eq(s.count, 500);
	check_format(&s, "1-999:2");
	idxset_release(&s);
	parse_ok("a[1-5,3]", &s, "a", 0);
	ck_assert_int_eq(s.count, 5);
	check_format(&s, "1-5");
	idxset_release(&s);
	parse_ok("a[4,4]", &s, "a", 0);
	ck_assert_int_eq(s.count, 1);
	check_format(&s, "4");
	idxset_release(&s);
	parse_ok("a[1-10,10-12]", &s, "a", 0);
	ck_assert_int_eq(s.count, 12);
	check_format(&s, "1-12");
	idxset_release(&s);
	parse_ok("a[1-999:2,2-1000:2]", &s, "a", 0);
	ck_assert_int_eq(s.count, 1000);
	check_format(&s, "1-1000");
	idxset_release(&s);
}
END_TEST

START_TEST(test_parse_plain)
{
	struct idxset s;
	const char *cause = NULL;
	char *b = (char *)"junk";
	int lim = -1;

	ck_assert_int_eq(array_spec_parse("plain", MAXIDX, &b, &s, &lim,
	    &cause), 1);
	ck_assert_ptr_null(b);
	ck_assert_int_eq(lim, 0);
	ck_assert_int_eq(s.n, 0);
	ck_assert_int_eq(s.count, 0);
	idxset_release(&s);
}
END_TEST

static const struct {
	const char	*spec;
	const char	*cause;
} bad_specs[] = {
	{ "[1-3]", "the array has no name" },
	{ "a[3-1]", "bad index list" },
	{ "a[0]", "bad index list" },
	{ "a[0-3]", "bad index list" },
	{ "a[1-1000001]", "index too large" },
	{ "a[1000001]", "index too large" },
	{ "a[1-5", "unbalanced brackets" },
	{ "a[1-5]]", "unbalanced brackets" },
	{ "a[1-5][2]", "unbalanced brackets" },
	{ "a[1-5]x", "junk after the indices" },
	{ "a[1-5]%0", "bad %N limit" },
	{ "a[1-5]%", "bad %N limit" },
	{ "a[1-5]%3x", "bad %N limit" },
	{ "a[1-5]%99999999999", "bad %N limit" },
	{ "a[1-10:0]", "bad index list" },
	{ "a[1-10:99999999999]", "bad index list" },
	{ "a[1-10:]", "bad index list" },
	{ "a[]", "bad index list" },
	{ "a[,]", "bad index list" },
	{ "a[1,]", "bad index list" },
	{ "a[,1]", "bad index list" },
	{ "a[1,,2]", "bad index list" },
	{ "a[-1]", "bad index list" },
	{ "a[1 - 3]", "bad index list" },
	{ "a[1-]", "bad index list" },
	{ "a[x]", "bad index list" },
	{ "a[99999999999]", "bad index list" },
};

START_TEST(test_parse_bad)
{
	struct idxset s;
	const char *cause = NULL;
	char *b = NULL;
	int lim = -1;

	if (array_spec_parse(bad_specs[_i].spec, MAXIDX, &b, &s, &lim,
	    &cause) != -1)
		ck_abort_msg("\"%s\" accepted", bad_specs[_i].spec);
	ck_assert_ptr_null(b);
	ck_assert_ptr_nonnull(cause);
	ck_assert_str_eq(cause, bad_specs[_i].cause);
	ck_assert_int_eq(s.n, 0);
	ck_assert_int_eq(s.count, 0);
	idxset_release(&s);
}
END_TEST

START_TEST(test_small_max)
{
	struct idxset s;
	const char *cause = NULL;
	char *b = NULL;
	int lim;

	ck_assert_int_eq(array_spec_parse("a[1-1000]", 1000, &b, &s, &lim,
	    &cause), 0);
	ck_assert_int_eq(s.count, 1000);
	free(b);
	idxset_release(&s);
	ck_assert_int_eq(array_spec_parse("a[1001]", 1000, &b, &s, &lim,
	    &cause), -1);
	ck_assert_str_eq(cause, "index too large");
}
END_TEST

/* Every index of the set in order, through first/next, as "1 3 5". */
static char *
walk(const struct idxset *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (int32_t i = idxset_first(s); i != -1; i = idxset_next(s, i))
		sb_addf(&sb, sb.len ? " %d" : "%d", i);
	return sb_detach(&sb);
}

static void
check_walk(const struct idxset *s, const char *want)
{
	char *w = walk(s);

	ck_assert_str_eq(w, want);
	free(w);
}

START_TEST(test_contains_next)
{
	struct idxset s;

	parse_ok("a[2-10:4,11,20-23]", &s, "a", 0);
	check_walk(&s, "2 6 10 11 20 21 22 23");
	ck_assert_int_eq(idxset_first(&s), 2);
	ck_assert_int_eq(idxset_next(&s, -5), 2);
	ck_assert_int_eq(idxset_next(&s, 0), 2);
	ck_assert_int_eq(idxset_next(&s, 3), 6);
	ck_assert_int_eq(idxset_next(&s, 7), 10);
	ck_assert_int_eq(idxset_next(&s, 12), 20);
	ck_assert_int_eq(idxset_next(&s, 23), -1);
	ck_assert_int_eq(idxset_next(&s, INT32_MAX), -1);
	ck_assert(!idxset_contains(&s, 0));
	ck_assert(!idxset_contains(&s, -1));
	ck_assert(!idxset_contains(&s, 4));
	ck_assert(idxset_contains(&s, 6));
	ck_assert(!idxset_contains(&s, 24));
	ck_assert(!idxset_contains(&s, INT32_MAX));
	ck_assert(!idxset_contains(&s, INT32_MIN));
	idxset_release(&s);
}
END_TEST

START_TEST(test_remove)
{
	struct idxset s;

	parse_ok("a[1-21:2,30]", &s, "a", 0);
	ck_assert_int_eq(s.count, 12);

	/* Not members: nothing changes. */
	ck_assert(!idxset_remove(&s, 2));
	ck_assert(!idxset_remove(&s, 0));
	ck_assert(!idxset_remove(&s, 31));
	ck_assert_int_eq(s.count, 12);

	/* The middle of a stepped range splits it. */
	ck_assert(idxset_remove(&s, 11));
	ck_assert_int_eq(s.count, 11);
	ck_assert_int_eq(s.n, 3);
	check_format(&s, "1-9:2,13-21:2,30");
	ck_assert(!idxset_contains(&s, 11));
	ck_assert(idxset_contains(&s, 9));
	ck_assert(idxset_contains(&s, 13));
	ck_assert_int_eq(idxset_next(&s, 9), 13);
	ck_assert(!idxset_remove(&s, 11));

	/* The ends of a range. */
	ck_assert(idxset_remove(&s, 1));
	ck_assert(idxset_remove(&s, 21));
	check_format(&s, "3-9:2,13-19:2,30");
	ck_assert_int_eq(idxset_first(&s), 3);

	/* Down to one index, then gone. */
	ck_assert(idxset_remove(&s, 30));
	ck_assert(idxset_remove(&s, 5));
	ck_assert(idxset_remove(&s, 7));
	check_format(&s, "3,9,13-19:2");
	ck_assert(idxset_remove(&s, 3));
	ck_assert(idxset_remove(&s, 9));
	check_format(&s, "13-19:2");
	ck_assert_int_eq(s.count, 4);
	check_walk(&s, "13 15 17 19");
	ck_assert(idxset_remove(&s, 15));
	ck_assert(idxset_remove(&s, 13));
	ck_assert(idxset_remove(&s, 19));
	ck_assert(idxset_remove(&s, 17));
	ck_assert_int_eq(s.count, 0);
	ck_assert_int_eq(s.n, 0);
	ck_assert_int_eq(idxset_first(&s), -1);
	ck_assert_int_eq(idxset_next(&s, 0), -1);
	check_format(&s, "");
	ck_assert(!idxset_remove(&s, 17));
	idxset_release(&s);
}
END_TEST

/* Splitting many ranges grows the vector, including one from a copy. */
START_TEST(test_remove_many)
{
	struct idxset s, c;
	int64_t left = 1000;

	parse_ok("a[1-1000]", &s, "a", 0);
	idxset_copy(&c, &s);
	for (int32_t i = 2; i < 1000; i += 3) {
		ck_assert(idxset_remove(&c, i));
		left--;
	}
	ck_assert_int_eq(c.count, left);
	for (int32_t i = 1; i <= 1000; i++)
		ck_assert(idxset_contains(&c, i) == (i % 3 != 2));
	ck_assert_int_eq(s.count, 1000);
	check_format(&s, "1-1000");
	{
		int64_t n = 0;

		for (int32_t i = idxset_first(&c); i != -1;
		    i = idxset_next(&c, i))
			n++;
		ck_assert_int_eq(n, left);
	}
	idxset_release(&c);
	idxset_release(&s);
}
END_TEST

START_TEST(test_copy)
{
	struct idxset s, c, e, ec;

	parse_ok("a[1-9:2,15,20-30]", &s, "a", 0);
	idxset_copy(&c, &s);
	ck_assert_int_eq(c.count, s.count);
	ck_assert_int_eq(c.n, s.n);
	ck_assert_ptr_ne(c.r, s.r);
	check_format(&c, "1-9:2,15,20-30");
	/* The copy is independent of the original. */
	ck_assert(idxset_remove(&c, 25));
	check_format(&c, "1-9:2,15,20-24,26-30");
	check_format(&s, "1-9:2,15,20-30");
	idxset_release(&c);
	idxset_release(&s);

	idxset_init(&e);
	idxset_copy(&ec, &e);
	ck_assert_int_eq(ec.n, 0);
	ck_assert_int_eq(ec.count, 0);
	ck_assert_int_eq(idxset_first(&ec), -1);
	ck_assert(!idxset_contains(&ec, 1));
	idxset_release(&ec);
	idxset_release(&e);
}
END_TEST

static Suite *
idxset_suite(void)
{
	Suite *s = suite_create("idxset");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_good);
	tcase_add_test(tc, test_parse_plain);
	tcase_add_loop_test(tc, test_parse_bad, 0, (int)ARRAY_SIZE(bad_specs));
	tcase_add_test(tc, test_small_max);
	tcase_add_test(tc, test_contains_next);
	tcase_add_test(tc, test_remove);
	tcase_add_test(tc, test_remove_many);
	tcase_add_test(tc, test_copy);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(idxset_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
