/*
 * The claims MUNGE credentials carry between daemons (include/auth.h):
 * formatted and parsed back, every malformed payload refused, and every
 * rule of auth_claim_check, the comparison that binds a credential to
 * one connection.  The expected texts are written out by hand, not
 * produced by the formatter.
 */
#include <check.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "proto.h"
#include "util.h"

#define NC	"0123456789abcdef0123456789abcdef"
#define NS	"fedcba9876543210fedcba9876543210"
#define CEP	"127.0.0.12:40001"
#define SEP	"127.0.0.11:20001"
#define TAIL	NC " " NS " " CEP " " SEP

static struct auth_claim
sample(void)
{
	struct auth_claim c;

	memset(&c, 0, sizeof(c));
	c.kind = AUTH_PROOF;
	c.from_role = AUTH_SBD;
	strcpy(c.from_host, "hostb");
	c.to_role = AUTH_MBD;
	strcpy(c.to_host, "hosta");
	strcpy(c.client_nonce, NC);
	strcpy(c.server_nonce, NS);
	strcpy(c.client_ep, CEP);
	strcpy(c.server_ep, SEP);
	return c;
}

START_TEST(test_format)
{
	struct auth_claim c = sample();
	char buf[512];

	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf,
	    "lsf-auth 2 proof sbatchd hostb mbatchd hosta " TAIL);
	c.kind = AUTH_CHALLENGE;
	c.from_role = AUTH_LIM;
	c.to_role = AUTH_CMD;
	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf,
	    "lsf-auth 2 challenge lim hostb command hosta " TAIL);
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
	c.client_nonce[5] = '\0';
	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), -1);
	c = sample();
	c.server_nonce[0] = 'X';
	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), -1);
	c = sample();
	c.server_ep[0] = '\0';
	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), -1);
	c = sample();
	c.kind = 0;
	ck_assert_int_eq(auth_claim_format(&c, buf, sizeof(buf)), -1);
}
END_TEST

START_TEST(test_parse)
{
	const char *t = "lsf-auth 2 challenge mbatchd hosta sbatchd hostb "
	    TAIL;
	struct auth_claim c;
	const char *why;

	ck_assert_int_eq(auth_claim_parse(t, strlen(t), &c, &why), 0);
	ck_assert_int_eq(c.kind, AUTH_CHALLENGE);
	ck_assert_int_eq(c.from_role, AUTH_MBD);
	ck_assert_str_eq(c.from_host, "hosta");
	ck_assert_int_eq(c.to_role, AUTH_SBD);
	ck_assert_str_eq(c.to_host, "hostb");
	ck_assert_str_eq(c.client_nonce, NC);
	ck_assert_str_eq(c.server_nonce, NS);
	ck_assert_str_eq(c.client_ep, CEP);
	ck_assert_str_eq(c.server_ep, SEP);
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
	/* The first version's claims, which bound no server nonce. */
	"lsf-auth 1 hello sbatchd hostb mbatchd hosta " NC,
	"lsf-auth 1 proof sbatchd hostb mbatchd hosta " TAIL,
	"lsf-auth 2x proof sbatchd hostb mbatchd hosta " TAIL,
	"lsf-auth 2 hello sbatchd hostb mbatchd hosta " TAIL,
	"lsf-auth 2 proof none hostb mbatchd hosta " TAIL,
	"lsf-auth 2 proof root hostb mbatchd hosta " TAIL,
	"lsf-auth 2 proof sbatchd hostb mbatchd " TAIL,
	"lsf-auth 2 proof sbatchd hostb mbatchd hosta",
	"lsf-auth 2 proof sbatchd hostb mbatchd hosta " NC,
	"lsf-auth 2 proof sbatchd hostb mbatchd hosta " NC " " NS,
	"lsf-auth 2 proof sbatchd hostb mbatchd hosta " NC " " NS " " CEP,
	"lsf-auth 2 proof sbatchd hostb mbatchd hosta 0123 " NS " " CEP " "
	    SEP,
	"lsf-auth 2 proof sbatchd hostb mbatchd hosta "
	    "0123456789ABCDEF0123456789ABCDEF " NS " " CEP " " SEP,
	"lsf-auth 2 proof sbatchd hostb mbatchd hosta " TAIL " extra",
	"lsf-auth 2 proof sbatchd hostb mbatchd hosta " TAIL " ",
	"lsf-auth 2 proof sbatchd host\tb mbatchd hosta " TAIL,
	"lsf-auth 2 proof sbatchd  hostb mbatchd hosta " TAIL,
	"lsf-auth 2 proof sbatchd hostb mbatchd hosta  " TAIL,
	" lsf-auth 2 proof sbatchd hostb mbatchd hosta " TAIL,
	/* An endpoint longer than any address and port. */
	"lsf-auth 2 proof sbatchd hostb mbatchd hosta " NC " " NS " "
	    "1234567890123456789012345678901234567890123456789012345678901234 "
	    SEP,
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
	char t[] = "lsf-auth 2 proof sbatchd hostb mbatchd hosta " TAIL;
	struct auth_claim c;
	const char *why;

	t[27] = '\0';
	ck_assert_int_eq(auth_claim_parse(t, sizeof(t) - 1, &c, &why), -1);
	t[27] = 's';
	ck_assert_int_eq(auth_claim_parse(t, sizeof(t) - 1, &c, &why), 0);
	t[sizeof(t) - 3] = '\0';	/* in the server's endpoint */
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
	snprintf(buf, sizeof(buf), "lsf-auth 2 proof sbatchd %sh mbatchd "
	    "hosta " TAIL, c.from_host);
	ck_assert_int_eq(auth_claim_parse(buf, strlen(buf), &back, &why), -1);
}
END_TEST

START_TEST(test_nonce)
{
	char a[AUTH_NONCE_LEN + 1], b[AUTH_NONCE_LEN + 1];

	auth_new_nonce(a);
	auth_new_nonce(b);
	ck_assert_uint_eq(strlen(a), AUTH_NONCE_LEN);
	ck_assert_uint_eq(strspn(a, "0123456789abcdef"), AUTH_NONCE_LEN);
	ck_assert_str_ne(a, b);
}
END_TEST

/* The claim check: the wanted claim accepted, each difference refused. */
static void
refused(const struct auth_claim *got, uid_t uid, const struct auth_claim *want,
    const char *words)
{
	char *why = NULL;

	ck_assert_int_eq(auth_claim_check(got, uid, want, &why), -1);
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strstr(why, words) != NULL, "\"%s\" lacks \"%s\"", why,
	    words);
	free(why);
}

START_TEST(test_check)
{
	struct auth_claim want = sample(), got;
	char *why = (char *)"unset";

	/* Root's sbatchd proof for this connection. */
	got = want;
	ck_assert_int_eq(auth_claim_check(&got, 0, &want, &why), 0);
	ck_assert_ptr_null(why);
	/* Host names without regard to case, as the hosts file has them. */
	strcpy(got.from_host, "HostB");
	ck_assert_int_eq(auth_claim_check(&got, 0, &want, &why), 0);
	/* An ordinary user may not speak for a daemon. */
	got = want;
	refused(&got, 1000, &want, "uid 1000's, who may not act as sbatchd");
	/* A command's proof is the user's own. */
	want.from_role = got.from_role = AUTH_CMD;
	ck_assert_int_eq(auth_claim_check(&got, 1000, &want, &why), 0);
	/* A challenge always comes from a daemon's uid, even to a command. */
	want.kind = got.kind = AUTH_CHALLENGE;
	want.from_role = got.from_role = AUTH_MBD;
	want.to_role = got.to_role = AUTH_CMD;
	refused(&got, 1000, &want, "uid 1000's");
	ck_assert_int_eq(auth_claim_check(&got, 0, &want, &why), 0);
	want = sample();
	/* A challenge presented as a proof, and the other way round. */
	got = want;
	got.kind = AUTH_CHALLENGE;
	refused(&got, 0, &want, "a challenge, not a proof");
	/* Someone else, or for someone else. */
	got = want;
	got.from_role = AUTH_LIM;
	refused(&got, 0, &want, "it is lim on hostb, not sbatchd on hostb");
	got = want;
	strcpy(got.from_host, "hostc");
	refused(&got, 0, &want, "it is sbatchd on hostc");
	got = want;
	strcpy(got.to_host, "hostc");
	refused(&got, 0, &want, "it is for mbatchd on hostc, not mbatchd on "
	    "hosta");
	got = want;
	got.to_role = AUTH_LIM;
	refused(&got, 0, &want, "it is for lim on hosta");
	/* Made for another connection: either nonce, either endpoint. */
	got = want;
	got.client_nonce[0] = '1';
	refused(&got, 0, &want, "another connection (nonce)");
	got = want;
	got.server_nonce[31] = '1';
	refused(&got, 0, &want, "another connection (nonce)");
	got = want;
	strcpy(got.client_ep, "127.0.0.99:40001");
	refused(&got, 0, &want, "the connection 127.0.0.99:40001 to "
	    "127.0.0.11:20001, not 127.0.0.12:40001 to 127.0.0.11:20001");
	got = want;
	strcpy(got.server_ep, "127.0.0.99:20001");
	refused(&got, 0, &want, "to 127.0.0.99:20001");
}
END_TEST

START_TEST(test_endpoint)
{
	struct sockaddr_in a;
	struct sockaddr_in6 b;
	char ep[AUTH_EP_MAX + 1];

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(20001);
	inet_pton(AF_INET, "127.0.0.11", &a.sin_addr);
	ck_assert_int_eq(auth_endpoint((struct sockaddr *)&a, sizeof(a), ep),
	    0);
	ck_assert_str_eq(ep, "127.0.0.11:20001");
	/* A v4 peer seen through a v6 socket is the same endpoint. */
	memset(&b, 0, sizeof(b));
	b.sin6_family = AF_INET6;
	b.sin6_port = htons(20001);
	inet_pton(AF_INET6, "::ffff:127.0.0.11", &b.sin6_addr);
	ck_assert_int_eq(auth_endpoint((struct sockaddr *)&b, sizeof(b), ep),
	    0);
	ck_assert_str_eq(ep, "127.0.0.11:20001");
	inet_pton(AF_INET6, "2001:db8::1", &b.sin6_addr);
	ck_assert_int_eq(auth_endpoint((struct sockaddr *)&b, sizeof(b), ep),
	    0);
	ck_assert_str_eq(ep, "[2001:db8::1]:20001");
	/* Not TCP/IP, or too short: no endpoint. */
	a.sin_family = AF_UNIX;
	ck_assert_int_eq(auth_endpoint((struct sockaddr *)&a, sizeof(a), ep),
	    -1);
	ck_assert_int_eq(auth_endpoint((struct sockaddr *)&b, 8, ep), -1);
}
END_TEST

START_TEST(test_hello)
{
	struct auth_hello h = {
		.from_role = AUTH_SBD, .from_host = (char *)"hostb",
		.to_role = AUTH_MBD, .to_host = (char *)"hosta",
		.nonce = (char *)NC,
	};
	struct auth_hello bad;
	const char *why;

	ck_assert(auth_hello_ok(&h, &why));
	bad = h;
	bad.from_role = 0;
	ck_assert(!auth_hello_ok(&bad, &why));
	bad = h;
	bad.to_role = 99;
	ck_assert(!auth_hello_ok(&bad, &why));
	bad = h;
	bad.from_host = NULL;
	ck_assert(!auth_hello_ok(&bad, &why));
	ck_assert_str_eq(why, "bad host");
	bad = h;
	bad.to_host = (char *)"a b";
	ck_assert(!auth_hello_ok(&bad, &why));
	bad = h;
	bad.nonce = (char *)"0123";
	ck_assert(!auth_hello_ok(&bad, &why));
	ck_assert_str_eq(why, "bad nonce");
	bad = h;
	bad.nonce = NULL;
	ck_assert(!auth_hello_ok(&bad, &why));
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
	tcase_add_test(tc, test_check);
	tcase_add_test(tc, test_endpoint);
	tcase_add_test(tc, test_hello);
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
