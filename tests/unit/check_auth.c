/*
 * The claims MUNGE credentials carry between daemons (include/auth.h):
 * formatted and parsed back, and every malformed payload refused.  The
 * expected texts are written out by hand, not produced by the formatter.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "auth.h"
#include "util.h"

#define NONCE	"0123456789abcdef0123456789abcdef"

static struct auth_claim
sample(void)
{
	struct auth_claim c;

	memset(&c, 0, sizeof(c));
	c.kind = AUTH_HELLO;
	c.from_role = AUTH_SBD;
	strcpy(c.from_host, "hostb");
	c.to_role = AUTH_MBD;
	strcpy(c.to_host, "hosta");
	strcpy(c.nonce, NONCE);
	return c;
}

START_TEST(test_format)
{
	struct auth_claim c = sample();
	char buf[512];

	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf,
	    "lsf-auth 1 hello sbatchd hostb mbatchd hosta " NONCE);
	c.kind = AUTH_REPLY;
	c.from_role = AUTH_LIM;
	c.to_role = AUTH_CMD;
	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf,
	    "lsf-auth 1 reply lim hostb command hosta " NONCE);
	/* Too small a buffer is an error, never a cut claim. */
	ck_assert_int_eq(auth_claim_format(&c, buf, 20), -1);
}
END_TEST

START_TEST(test_format_bad)
{
	struct auth_claim c = sample();
	char buf[512];

	c.from_role = AUTH_NONE;
	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), -1);
	c = sample();
	strcpy(c.to_host, "two words");
	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), -1);
	c = sample();
	c.nonce[5] = '\0';
	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), -1);
	c = sample();
	c.kind = 0;
	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), -1);
}
END_TEST

START_TEST(test_parse)
{
	const char *t = "lsf-auth 1 reply mbatchd hosta sbatchd hostb " NONCE;
	struct auth_claim c;
	const char *why;

	ck_assert_int_eq(auth_claim_parse(t, strlen(t), &c, &why), 0);
	ck_assert_int_eq(c.kind, AUTH_REPLY);
	ck_assert_int_eq(c.from_role, AUTH_MBD);
	ck_assert_str_eq(c.from_host, "hosta");
	ck_assert_int_eq(c.to_role, AUTH_SBD);
	ck_assert_str_eq(c.to_host, "hostb");
	ck_assert_str_eq(c.nonce, NONCE);
}
END_TEST

START_TEST(test_round_trip)
{
	struct auth_claim c = sample(), back;
	char buf[512];
	const char *why;

	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), 0);
	ck_assert_int_eq(auth_claim_parse(buf, strlen(buf), &back, &why), 0);
	ck_assert_mem_eq(&c, &back, sizeof(c));
}
END_TEST

static const char *const bad_cases[] = {
	"",
	"lsf-auth",
	"lsf-auth 2 hello sbatchd hostb mbatchd hosta " NONCE,
	"lsf-auth 1x hello sbatchd hostb mbatchd hosta " NONCE,
	"lsf-auth 1 howdy sbatchd hostb mbatchd hosta " NONCE,
	"lsf-auth 1 hello none hostb mbatchd hosta " NONCE,
	"lsf-auth 1 hello root hostb mbatchd hosta " NONCE,
	"lsf-auth 1 hello sbatchd hostb mbatchd " NONCE,
	"lsf-auth 1 hello sbatchd hostb mbatchd hosta",
	"lsf-auth 1 hello sbatchd hostb mbatchd hosta 0123",
	"lsf-auth 1 hello sbatchd hostb mbatchd hosta "
	    "0123456789ABCDEF0123456789ABCDEF",
	"lsf-auth 1 hello sbatchd hostb mbatchd hosta " NONCE " extra",
	"lsf-auth 1 hello sbatchd hostb mbatchd hosta " NONCE "0",
	"lsf-auth 1 hello sbatchd host\tb mbatchd hosta " NONCE,
	"lsf-auth 1 hello sbatchd  hostb mbatchd hosta " NONCE,
	"lsf-auth 1 hello sbatchd hostb mbatchd hosta  " NONCE,
	" lsf-auth 1 hello sbatchd hostb mbatchd hosta " NONCE,
};

START_TEST(test_parse_bad)
{
	const char *t = bad_cases[_i];
	struct auth_claim c;
	const char *why = NULL;

	ck_assert_msg(auth_claim_parse(t, strlen(t), &c, &why) == -1,
	    "accepted \"%s\"", t);
	ck_assert_ptr_nonnull(why);
}
END_TEST

/* A NUL inside the payload ends nothing: it is a bad byte. */
START_TEST(test_parse_nul)
{
	char t[] = "lsf-auth 1 hello sbatchd hostb mbatchd hosta " NONCE;
	struct auth_claim c;
	const char *why;

	t[27] = '\0';
	ck_assert_int_eq(auth_claim_parse(t, sizeof(t) - 1, &c, &why), -1);
	t[27] = 's';
	t[sizeof(t) - 3] = '\0';	/* in the nonce */
	ck_assert_int_eq(auth_claim_parse(t, sizeof(t) - 1, &c, &why), -1);
}
END_TEST

/* A host name of the longest length fits; one byte more does not. */
START_TEST(test_long_host)
{
	struct auth_claim c = sample(), back;
	char buf[1024];
	const char *why;

	memset(c.from_host, 'h', AUTH_HOST_MAX);
	c.from_host[AUTH_HOST_MAX] = '\0';
	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), 0);
	ck_assert_int_eq(auth_claim_parse(buf, strlen(buf), &back, &why), 0);
	ck_assert_str_eq(back.from_host, c.from_host);
	snprintf(buf, sizeof(buf), "lsf-auth 1 hello sbatchd %sh mbatchd "
	    "hosta " NONCE, c.from_host);
	ck_assert_int_eq(auth_claim_parse(buf, strlen(buf), &back, &why), -1);
}
END_TEST

START_TEST(test_nonce)
{
	struct auth_claim a, b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	auth_new_nonce(&a);
	auth_new_nonce(&b);
	ck_assert_uint_eq(strlen(a.nonce), AUTH_NONCE_LEN);
	ck_assert_uint_eq(strspn(a.nonce, "0123456789abcdef"), AUTH_NONCE_LEN);
	ck_assert_str_ne(a.nonce, b.nonce);
}
END_TEST

static Suite *
auth_suite(void)
{
	Suite *s = suite_create("auth");
	TCase *tc = tcase_create("claims");

	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_format_bad);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_round_trip);
	tcase_add_loop_test(tc, test_parse_bad, 0, (int)ARRAY_SIZE(bad_cases));
	tcase_add_test(tc, test_parse_nul);
	tcase_add_test(tc, test_long_host);
	tcase_add_test(tc, test_nonce);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(auth_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
