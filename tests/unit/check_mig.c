/*
 * Automatic job migration (mig_policy_due): one test per rule of
 * mig-policy.h, the MIG threshold's boundary included.
 */
#include <check.h>
#include <stdlib.h>

#include "lsf.h"
#include "mig-policy.h"

#define NOW	1700000000

/* A rerunnable job system-suspended 90 seconds ago. */
static struct mig_job
ssusp_job(void)
{
	struct mig_job j = {
		.status = JOB_STAT_SSUSP,
		.ssusp_since = NOW - 90,
		.rerunnable = true,
	};

	return j;
}

START_TEST(test_threshold_min)
{
	ck_assert_int_eq(mig_policy_threshold(-1, -1), -1);
	ck_assert_int_eq(mig_policy_threshold(10, -1), 10);
	ck_assert_int_eq(mig_policy_threshold(-1, 10), 10);
	ck_assert_int_eq(mig_policy_threshold(10, 3), 3);
	ck_assert_int_eq(mig_policy_threshold(3, 10), 3);
	ck_assert_int_eq(mig_policy_threshold(0, 10), 0);
	ck_assert_int_eq(mig_policy_threshold(10, 0), 0);
	ck_assert_int_eq(mig_policy_threshold(5, 5), 5);
}
END_TEST

START_TEST(test_unset_never)
{
	struct mig_job j = ssusp_job();

	j.ssusp_since = 1;		/* suspended for decades */
	ck_assert(!mig_policy_due(&j, -1, -1, NOW));
	ck_assert(mig_policy_due(&j, 1, -1, NOW));
	ck_assert(mig_policy_due(&j, -1, 1, NOW));
}
END_TEST

START_TEST(test_zero_at_once)
{
	struct mig_job j = ssusp_job();

	j.ssusp_since = NOW;
	ck_assert(mig_policy_due(&j, 0, -1, NOW));
	ck_assert(mig_policy_due(&j, -1, 0, NOW));
	/* Even when when it was suspended is not known. */
	j.ssusp_since = 0;
	ck_assert(mig_policy_due(&j, 0, -1, NOW));
	ck_assert(!mig_policy_due(&j, 1, -1, NOW));
}
END_TEST

START_TEST(test_boundary)
{
	struct mig_job j = ssusp_job();

	j.ssusp_since = NOW - 119;
	ck_assert(!mig_policy_due(&j, 2, -1, NOW));
	j.ssusp_since = NOW - 120;
	ck_assert(mig_policy_due(&j, 2, -1, NOW));
	j.ssusp_since = NOW - 121;
	ck_assert(mig_policy_due(&j, 2, -1, NOW));
	/* A clock that went back: not yet. */
	j.ssusp_since = NOW + 30;
	ck_assert(!mig_policy_due(&j, 1, -1, NOW));
}
END_TEST

START_TEST(test_lower_of_host_and_queue)
{
	struct mig_job j = ssusp_job();	/* 90 s */

	/* Queue 1 minute, host 10: the queue's applies. */
	ck_assert(mig_policy_due(&j, 1, 10, NOW));
	/* Queue 10, host 1: the host's applies. */
	ck_assert(mig_policy_due(&j, 10, 1, NOW));
	/* Both above 90 s. */
	ck_assert(!mig_policy_due(&j, 2, 10, NOW));
	ck_assert(!mig_policy_due(&j, 10, 2, NOW));
	/* One unset: the other alone. */
	ck_assert(!mig_policy_due(&j, 2, -1, NOW));
	ck_assert(!mig_policy_due(&j, -1, 2, NOW));
}
END_TEST

START_TEST(test_only_ssusp)
{
	struct mig_job j = ssusp_job();
	static const int others[] = {
		JOB_STAT_PEND, JOB_STAT_PSUSP, JOB_STAT_RUN, JOB_STAT_USUSP,
		JOB_STAT_DONE, JOB_STAT_EXIT, JOB_STAT_UNKWN,
		JOB_STAT_SSUSP | JOB_STAT_USUSP,
		JOB_STAT_SSUSP | JOB_STAT_UNKWN,
		JOB_STAT_DONE | JOB_STAT_PDONE,
	};

	ck_assert(mig_policy_due(&j, 0, -1, NOW));
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		j.status = others[i];
		ck_assert_msg(!mig_policy_due(&j, 0, 0, NOW),
		    "status 0x%x migrated", others[i]);
	}
}
END_TEST

START_TEST(test_rerunnable_or_checkpointable)
{
	struct mig_job j = ssusp_job();

	j.rerunnable = false;
	ck_assert(!mig_policy_due(&j, 0, 0, NOW));
	j.checkpointable = true;
	ck_assert(mig_policy_due(&j, 0, 0, NOW));
	j.rerunnable = true;
	ck_assert(mig_policy_due(&j, 0, 0, NOW));
}
END_TEST

START_TEST(test_not_twice)
{
	struct mig_job j = ssusp_job();

	j.migrating = true;
	ck_assert(!mig_policy_due(&j, 0, 0, NOW));
	ck_assert(!mig_policy_due(&j, 1, 1, NOW + 3600));
}
END_TEST

START_TEST(test_resuming)
{
	struct mig_job j = ssusp_job();

	j.resuming = true;
	ck_assert(!mig_policy_due(&j, 0, 0, NOW));
	j.resuming = false;
	ck_assert(mig_policy_due(&j, 0, 0, NOW));
}
END_TEST

START_TEST(test_huge_threshold)
{
	struct mig_job j = ssusp_job();

	j.ssusp_since = 1;
	/* INT_MAX minutes does not overflow into "due". */
	ck_assert(!mig_policy_due(&j, 2147483647, -1, NOW));
}
END_TEST

static Suite *
mig_suite(void)
{
	Suite *s = suite_create("mig");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_threshold_min);
	tcase_add_test(tc, test_unset_never);
	tcase_add_test(tc, test_zero_at_once);
	tcase_add_test(tc, test_boundary);
	tcase_add_test(tc, test_lower_of_host_and_queue);
	tcase_add_test(tc, test_only_ssusp);
	tcase_add_test(tc, test_rerunnable_or_checkpointable);
	tcase_add_test(tc, test_not_twice);
	tcase_add_test(tc, test_resuming);
	tcase_add_test(tc, test_huge_threshold);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(mig_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
