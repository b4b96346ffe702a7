/*
 * When a host is lost (hostfail.h): the grace's sum, when a host could
 * start looking, probes within and after the grace, MAX_SBD_FAIL's
 * boundary, a host lost once, and the failover that issue 32 saw kill a
 * healthy host's jobs.
 */
#include <check.h>
#include <stdlib.h>

#include "hostfail.h"
#include "lim-elect.h"
#include "net.h"

#define START	1000000		/* mbatchd became master (ms) */
#define GRACE	20000
#define SLEEP	1000		/* MBD_SLEEP_TIME */

static struct hostfail_params
params(void)
{
	struct hostfail_params p = {
		.max_sbd_fail = 3,
		.grace_ms = GRACE,
		.start_ms = START,
		.feed_ms = START + 50,
	};

	return p;
}

START_TEST(test_grace_sum)
{
	/* The tests' lsf.cluster: EXINTERVAL 1, HOST_INACTIVITY_LIMIT 5. */
	ck_assert_int_eq(hostfail_grace_ms(1, 5, 0),
	    NET_PEER_DEADLINE_MS + LIM_PROBE_MAX_MS + 5000);
	ck_assert_int_eq(LIM_PROBE_MAX_MS, 7000);
	ck_assert_int_eq(hostfail_grace_ms(1, 5, 0), 16000);
	/* LSF's defaults: 15 s, 5 intervals. */
	ck_assert_int_eq(hostfail_grace_ms(15, 5, 0), 4000 + 7000 + 75000);
	ck_assert_int_eq(hostfail_grace_ms(15, 10, 0), 4000 + 7000 + 150000);
}
END_TEST

START_TEST(test_grace_rank)
{
	/* Each candidate before this master: one more probe to pass it. */
	ck_assert_int_eq(hostfail_grace_ms(1, 5, 1) -
	    hostfail_grace_ms(1, 5, 0), LIM_PROBE_MAX_MS);
	ck_assert_int_eq(hostfail_grace_ms(1, 5, 3),
	    NET_PEER_DEADLINE_MS + 4 * LIM_PROBE_MAX_MS + 5000);
}
END_TEST

START_TEST(test_grace_defaults)
{
	/* Below 1: LSF's defaults; a rank below 0 is the first. */
	ck_assert_int_eq(hostfail_grace_ms(0, 0, 0), hostfail_grace_ms(15, 5, 0));
	ck_assert_int_eq(hostfail_grace_ms(-3, 2, 0), hostfail_grace_ms(15, 2, 0));
	ck_assert_int_eq(hostfail_grace_ms(2, -1, 0), hostfail_grace_ms(2, 5, 0));
	ck_assert_int_eq(hostfail_grace_ms(1, 5, -2), hostfail_grace_ms(1, 5, 0));
	/* The largest the files allow does not overflow. */
	ck_assert(hostfail_grace_ms(86400, 86400, 1000) > 0);
}
END_TEST

START_TEST(test_since_latest)
{
	struct hostfail_params p = params();
	struct hostfail_host h = { 0 };

	/* Never seen: from this master's start, or its feed's if later. */
	ck_assert_int_eq(hostfail_since(&p, &h), START + 50);
	p.feed_ms = 0;
	ck_assert_int_eq(hostfail_since(&p, &h), START);
	/* Seen before this master: from the master. */
	h.seen_ms = START - 5000;
	ck_assert_int_eq(hostfail_since(&p, &h), START);
	/* Seen since: from then. */
	h.seen_ms = START + 7000;
	ck_assert_int_eq(hostfail_since(&p, &h), START + 7000);
	/* A feed begun again after: from the new feed. */
	p.feed_ms = START + 9000;
	ck_assert_int_eq(hostfail_since(&p, &h), START + 9000);
}
END_TEST

START_TEST(test_seen_clears)
{
	struct hostfail_host h = { .seen_ms = 5, .fails = 2, .doubt = true,
	    .lost = true };

	hostfail_seen(&h, START + 123);
	ck_assert_int_eq(h.seen_ms, START + 123);
	ck_assert_int_eq(h.fails, 0);
	ck_assert(!h.doubt);
	ck_assert(!h.lost);
}
END_TEST

/* A host seen at `seen`, probed every SLEEP from then: the verdicts. */
START_TEST(test_in_grace_not_counted)
{
	struct hostfail_params p = params();
	struct hostfail_host h = { 0 };
	int64_t seen = START + 10000, t;

	hostfail_seen(&h, seen);
	for (t = seen + SLEEP; t < seen + GRACE; t += SLEEP) {
		ck_assert_int_eq(hostfail_probe(&p, &h, t), HOSTFAIL_GRACE);
		ck_assert(h.doubt);
		ck_assert_int_eq(h.fails, 0);
	}
	/* The grace's last millisecond is still in it. */
	ck_assert_int_eq(hostfail_probe(&p, &h, seen + GRACE - 1),
	    HOSTFAIL_GRACE);
}
END_TEST

START_TEST(test_counted_after_grace)
{
	struct hostfail_params p = params();
	struct hostfail_host h = { 0 };
	int64_t seen = START + 10000, end = seen + GRACE;

	hostfail_seen(&h, seen);
	ck_assert_int_eq(hostfail_probe(&p, &h, end - 1), HOSTFAIL_GRACE);
	ck_assert_int_eq(hostfail_probe(&p, &h, end), HOSTFAIL_FAILED);
	ck_assert_int_eq(h.fails, 1);
	ck_assert_int_eq(hostfail_probe(&p, &h, end + SLEEP), HOSTFAIL_FAILED);
	ck_assert_int_eq(h.fails, 2);
	ck_assert(!h.lost);
	/* The MAX_SBD_FAIL-th. */
	ck_assert_int_eq(hostfail_probe(&p, &h, end + 2 * SLEEP),
	    HOSTFAIL_LOST);
	ck_assert(h.lost);
	ck_assert(h.doubt);
}
END_TEST

START_TEST(test_lost_once)
{
	struct hostfail_params p = params();
	struct hostfail_host h = { 0 };
	int64_t t = START + GRACE + 100;

	p.max_sbd_fail = 1;
	hostfail_seen(&h, START);
	ck_assert_int_eq(hostfail_probe(&p, &h, t), HOSTFAIL_LOST);
	for (int i = 1; i <= 5; i++)
		ck_assert_int_eq(hostfail_probe(&p, &h, t + i * SLEEP),
		    HOSTFAIL_GONE);
	/* Even when a new feed would give it a new grace. */
	p.feed_ms = t + 10 * SLEEP;
	ck_assert_int_eq(hostfail_probe(&p, &h, t + 11 * SLEEP),
	    HOSTFAIL_GONE);
	ck_assert(h.doubt);
}
END_TEST

START_TEST(test_back_then_lost_again)
{
	struct hostfail_params p = params();
	struct hostfail_host h = { 0 };
	int64_t t = START + GRACE + 100, back;

	p.max_sbd_fail = 2;
	hostfail_seen(&h, START);
	ck_assert_int_eq(hostfail_probe(&p, &h, t), HOSTFAIL_FAILED);
	ck_assert_int_eq(hostfail_probe(&p, &h, t + SLEEP), HOSTFAIL_LOST);
	/* It answers: no longer lost, and a new grace from then. */
	back = t + 5 * SLEEP;
	hostfail_seen(&h, back);
	ck_assert_int_eq(hostfail_probe(&p, &h, back + SLEEP), HOSTFAIL_GRACE);
	ck_assert_int_eq(hostfail_probe(&p, &h, back + GRACE),
	    HOSTFAIL_FAILED);
	ck_assert_int_eq(hostfail_probe(&p, &h, back + GRACE + SLEEP),
	    HOSTFAIL_LOST);
}
END_TEST

START_TEST(test_back_before_max)
{
	struct hostfail_params p = params();
	struct hostfail_host h = { 0 };
	int64_t t = START + GRACE + 100;

	hostfail_seen(&h, START);
	ck_assert_int_eq(hostfail_probe(&p, &h, t), HOSTFAIL_FAILED);
	ck_assert_int_eq(hostfail_probe(&p, &h, t + SLEEP), HOSTFAIL_FAILED);
	/* Back before the last probe: the count starts over, with a grace. */
	hostfail_seen(&h, t + 2 * SLEEP - 10);
	ck_assert_int_eq(hostfail_probe(&p, &h, t + 2 * SLEEP),
	    HOSTFAIL_GRACE);
	ck_assert_int_eq(h.fails, 0);
}
END_TEST

START_TEST(test_count_starts_over_in_grace)
{
	struct hostfail_params p = params();
	struct hostfail_host h = { 0 };
	int64_t t = START + GRACE + 100;

	hostfail_seen(&h, START);
	ck_assert_int_eq(hostfail_probe(&p, &h, t), HOSTFAIL_FAILED);
	ck_assert_int_eq(hostfail_probe(&p, &h, t + SLEEP), HOSTFAIL_FAILED);
	/* The load feed begins again (a new master LIM): every host
	 * reports anew, so a new grace, and the two probes are forgotten. */
	p.feed_ms = t + 2 * SLEEP;
	ck_assert_int_eq(hostfail_probe(&p, &h, t + 3 * SLEEP),
	    HOSTFAIL_GRACE);
	ck_assert_int_eq(h.fails, 0);
	ck_assert_int_eq(hostfail_probe(&p, &h, p.feed_ms + GRACE),
	    HOSTFAIL_FAILED);
	ck_assert_int_eq(hostfail_probe(&p, &h, p.feed_ms + GRACE + SLEEP),
	    HOSTFAIL_FAILED);
	ck_assert_int_eq(hostfail_probe(&p, &h,
	    p.feed_ms + GRACE + 2 * SLEEP), HOSTFAIL_LOST);
}
END_TEST

/*
 * Issue 32: a silent master loss; the new mbatchd starts, and a healthy
 * host finds it 18 s later.  MAX_SBD_FAIL probes from the start (the old
 * rule) would have lost it at 3 s; with the grace it is not.
 */
START_TEST(test_failover_slow_host)
{
	struct hostfail_params p = params();
	struct hostfail_host slow = { 0 }, gone = { 0 };
	int64_t grace = hostfail_grace_ms(1, 5, 1);	/* second candidate */
	int64_t t;

	p.grace_ms = grace;
	p.feed_ms = START + 200;
	ck_assert(grace > 18000);
	/* Both were seen by the old master only: never by us. */
	for (t = START + SLEEP; t < START + 18000; t += SLEEP) {
		ck_assert_int_eq(hostfail_probe(&p, &slow, t), HOSTFAIL_GRACE);
		ck_assert_int_eq(hostfail_probe(&p, &gone, t), HOSTFAIL_GRACE);
	}
	hostfail_seen(&slow, t);
	ck_assert(!slow.doubt);
	/* The other never comes: lost MAX_SBD_FAIL probes after the
	 * grace, counted from the feed. */
	for (; t < p.feed_ms + grace; t += SLEEP)
		ck_assert_int_eq(hostfail_probe(&p, &gone, t), HOSTFAIL_GRACE);
	ck_assert_int_eq(hostfail_probe(&p, &gone, t), HOSTFAIL_FAILED);
	ck_assert_int_eq(hostfail_probe(&p, &gone, t + SLEEP),
	    HOSTFAIL_FAILED);
	ck_assert_int_eq(hostfail_probe(&p, &gone, t + 2 * SLEEP),
	    HOSTFAIL_LOST);
}
END_TEST

START_TEST(test_clock_behind)
{
	struct hostfail_params p = params();
	struct hostfail_host h = { 0 };

	/* A probe timed before the host was seen counts for nothing. */
	hostfail_seen(&h, START + 50000);
	ck_assert_int_eq(hostfail_probe(&p, &h, START), HOSTFAIL_GRACE);
	ck_assert_int_eq(h.fails, 0);
}
END_TEST

START_TEST(test_max_at_least_one)
{
	struct hostfail_params p = params();
	struct hostfail_host h = { 0 };

	p.max_sbd_fail = 0;
	ck_assert_int_eq(hostfail_probe(&p, &h, START + 50 + GRACE),
	    HOSTFAIL_LOST);
}
END_TEST

static Suite *
hostfail_suite(void)
{
	Suite *s = suite_create("hostfail");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_grace_sum);
	tcase_add_test(tc, test_grace_rank);
	tcase_add_test(tc, test_grace_defaults);
	tcase_add_test(tc, test_since_latest);
	tcase_add_test(tc, test_seen_clears);
	tcase_add_test(tc, test_in_grace_not_counted);
	tcase_add_test(tc, test_counted_after_grace);
	tcase_add_test(tc, test_lost_once);
	tcase_add_test(tc, test_back_then_lost_again);
	tcase_add_test(tc, test_back_before_max);
	tcase_add_test(tc, test_count_starts_over_in_grace);
	tcase_add_test(tc, test_failover_slow_host);
	tcase_add_test(tc, test_clock_behind);
	tcase_add_test(tc, test_max_at_least_one);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(hostfail_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
