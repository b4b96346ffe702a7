/*
 * Automatic load-based suspension and resumption (susp_policy_decide):
 * one test per rule and per exception of LSF's "Automatic job
 * suspension", the seed's worked example as a sequence of calls, and a
 * job that suspends itself by its own load, over and over.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "lsf.h"
#include "resreq.h"
#include "susp-policy.h"

#define NOW	1700000000
#define MAXJ	8

static struct {
	float			 load[NLOADIDX];
	struct thresholds	 hthr;
	struct thresholds	 qthr[MAXJ];
	struct susp_host	 h;
	struct susp_job		 j[MAXJ];
	struct resreq		 rr[4];
	int			 nrr;
	struct susp_decision	 d;
} F;

static void
thr_init(struct thresholds *t)
{
	for (int i = 0; i < NLOADIDX; i++)
		t->sched[i] = t->stop[i] = INFINIT_LOAD;
	t->sched_set = t->stop_set = 0;
}

static void
thr_sched(struct thresholds *t, int i, float v)
{
	t->sched[i] = v;
	t->sched_set |= 1u << i;
}

static void
thr_stop(struct thresholds *t, int i, float v)
{
	t->stop[i] = v;
	t->stop_set |= 1u << i;
}

/* An idle one-CPU host, nobody logged in for an hour, no thresholds. */
static void
fx_init(void)
{
	for (int i = 0; i < F.nrr; i++)
		resreq_release(&F.rr[i]);
	memset(&F, 0, sizeof F);
	F.load[LI_IT] = 60;
	F.load[LI_TMP] = 1000;
	F.load[LI_SWP] = 1000;
	F.load[LI_MEM] = 1000;
	thr_init(&F.hthr);
	F.h.load = F.load;
	F.h.ncpus = 1;
	F.h.thr = &F.hthr;
	F.h.pg_susp_it = 180;
	F.h.now = NOW;
	for (int i = 0; i < MAXJ; i++) {
		thr_init(&F.qthr[i]);
		F.j[i].qthr = &F.qthr[i];
		F.j[i].qprio = 10;
		F.j[i].start_time = NOW - 600 + i;
	}
}

static const struct resreq *
cond(const char *text)
{
	struct resreq *rr = &F.rr[F.nrr++];
	char *cause = NULL;

	resreq_init(rr);
	ck_assert_msg(resreq_parse(rr, text, "MB", &cause) == 0, "%s: %s",
	    text, cause ? cause : "");
	return rr;
}

static enum susp_action
decide(int njobs)
{
	return susp_policy_decide(&F.h, F.j, njobs, &F.d);
}

static void
expect_suspend(int njobs, int job, enum susp_why why, int index)
{
	ck_assert_int_eq(decide(njobs), SUSP_ACT_SUSPEND);
	ck_assert_int_eq(F.d.job, job);
	ck_assert_int_eq(F.d.why, why);
	ck_assert_int_eq(F.d.index, index);
}

static void
expect_resume(int njobs, int job)
{
	ck_assert_int_eq(decide(njobs), SUSP_ACT_RESUME);
	ck_assert_int_eq(F.d.job, job);
}

static void
expect_none(int njobs)
{
	ck_assert_int_eq(decide(njobs), SUSP_ACT_NONE);
	ck_assert_int_eq(F.d.job, -1);
}

START_TEST(test_no_jobs)
{
	fx_init();
	thr_stop(&F.hthr, LI_R1M, 0.5f);
	F.load[LI_R1M] = 5;
	expect_none(0);
}
END_TEST

/* An index with only a scheduling threshold is never checked. */
START_TEST(test_no_stop_threshold)
{
	fx_init();
	thr_sched(&F.hthr, LI_R1M, 0.5f);
	thr_sched(&F.qthr[0], LI_UT, 0.1f);
	thr_sched(&F.qthr[1], LI_UT, 0.1f);
	F.load[LI_R1M] = 50;
	F.load[LI_UT] = 1;
	expect_none(2);
}
END_TEST

START_TEST(test_host_threshold)
{
	fx_init();
	thr_stop(&F.hthr, LI_R15S, 2);
	F.load[LI_R15S] = 3;
	expect_suspend(2, 1, SUSPW_HOST_LOAD, LI_R15S);
}
END_TEST

/* A queue's threshold applies to its jobs only. */
START_TEST(test_queue_threshold)
{
	fx_init();
	thr_sched(&F.qthr[0], LI_UT, 0.5f);
	thr_stop(&F.qthr[0], LI_UT, 0.8f);
	F.j[0].qprio = 5;
	F.load[LI_UT] = 0.9f;
	F.load[LI_IT] = 0;
	expect_suspend(2, 0, SUSPW_QUEUE_LOAD, LI_UT);

	/* Job 1's queue has no threshold on ut: not suspended. */
	F.j[0].load_susp = true;
	expect_none(2);
}
END_TEST

/* The host's threshold is reported before the queue's. */
START_TEST(test_host_before_queue)
{
	fx_init();
	thr_stop(&F.hthr, LI_IO, 100);
	thr_stop(&F.qthr[0], LI_R1M, 1);
	F.load[LI_IO] = 200;
	F.load[LI_R1M] = 2;
	F.load[LI_IT] = 0;
	expect_suspend(1, 0, SUSPW_HOST_LOAD, LI_IO);
}
END_TEST

/* Increasing index: load == stop is past it. */
START_TEST(test_equal_increasing)
{
	fx_init();
	thr_stop(&F.hthr, LI_LS, 3);
	F.load[LI_LS] = 2.99f;
	expect_none(2);
	F.load[LI_LS] = 3;
	expect_suspend(2, 1, SUSPW_HOST_LOAD, LI_LS);
}
END_TEST

/* Decreasing index (mem, swp, tmp, it): value <= stop is past it. */
START_TEST(test_decreasing)
{
	static const int idx[] = { LI_MEM, LI_SWP, LI_TMP };

	for (size_t k = 0; k < sizeof idx / sizeof idx[0]; k++) {
		fx_init();
		thr_stop(&F.qthr[1], idx[k], 100);
		F.load[idx[k]] = 101;
		expect_none(2);
		F.load[idx[k]] = 100;
		expect_suspend(2, 1, SUSPW_QUEUE_LOAD, idx[k]);
		F.load[idx[k]] = 20;
		expect_suspend(2, 1, SUSPW_QUEUE_LOAD, idx[k]);
	}
	/* it: an interactive user (it <= stop) stops jobs. */
	fx_init();
	thr_stop(&F.hthr, LI_IT, 5);
	F.load[LI_IT] = 30;
	expect_none(2);
	F.load[LI_IT] = 2;
	expect_suspend(2, 1, SUSPW_HOST_LOAD, LI_IT);
}
END_TEST

/* r15s, r1m, r15m compare per CPU. */
START_TEST(test_effective_run_queue)
{
	static const int idx[] = { LI_R15S, LI_R1M, LI_R15M };

	for (size_t k = 0; k < sizeof idx / sizeof idx[0]; k++) {
		fx_init();
		F.h.ncpus = 4;
		thr_stop(&F.hthr, idx[k], 1.75f);
		F.load[idx[k]] = 4;		/* 1.0 per CPU */
		expect_none(2);
		F.load[idx[k]] = 7;		/* 1.75 per CPU */
		expect_suspend(2, 1, SUSPW_HOST_LOAD, idx[k]);
	}
	/* Other indices are not scaled. */
	fx_init();
	F.h.ncpus = 4;
	thr_stop(&F.hthr, LI_UT, 0.5f);
	F.load[LI_UT] = 0.6f;
	expect_suspend(2, 1, SUSPW_HOST_LOAD, LI_UT);
	/* An unknown CPU count counts as one. */
	fx_init();
	F.h.ncpus = 0;
	thr_stop(&F.hthr, LI_R1M, 1);
	F.load[LI_R1M] = 1;
	expect_suspend(2, 1, SUSPW_HOST_LOAD, LI_R1M);
}
END_TEST

/* An unknown value never suspends. */
START_TEST(test_unknown_load)
{
	fx_init();
	thr_stop(&F.hthr, LI_R1M, 1);
	thr_stop(&F.hthr, LI_MEM, 10);
	F.load[LI_R1M] = INFINIT_LOAD;
	F.load[LI_MEM] = INFINIT_LOAD;
	expect_none(2);
}
END_TEST

START_TEST(test_stop_cond)
{
	fx_init();
	F.j[0].stop_cond = cond("r1m > 1.0 && mem < 500");
	F.load[LI_R1M] = 2;
	expect_none(2);
	F.load[LI_MEM] = 400;
	expect_suspend(2, 0, SUSPW_STOP_COND, -1);

	/* The condition sees the effective run queue. */
	F.h.ncpus = 4;
	expect_none(2);
	F.load[LI_R1M] = 4.4f;
	expect_suspend(2, 0, SUSPW_STOP_COND, -1);
}
END_TEST

/* Several jobs past their thresholds: one per call. */
START_TEST(test_one_per_call)
{
	fx_init();
	thr_sched(&F.hthr, LI_R1M, 0.5f);
	thr_stop(&F.hthr, LI_R1M, 1);
	F.load[LI_R1M] = 5;
	F.j[0].qprio = 30;
	F.j[1].qprio = 10;
	F.j[2].qprio = 20;
	expect_suspend(3, 1, SUSPW_HOST_LOAD, LI_R1M);
	F.j[1].load_susp = true;
	/* Still too busy next turn: the next one up. */
	expect_suspend(3, 2, SUSPW_HOST_LOAD, LI_R1M);
	F.j[2].load_susp = true;
	/* The last one running is the only job, the host idle: it stays. */
	expect_none(3);
}
END_TEST

/* The lowest-priority queue is checked first; a job whose thresholds
 * hold is passed over for a higher one whose do not. */
START_TEST(test_lowest_priority_first)
{
	fx_init();
	F.j[0].qprio = 50;
	F.j[1].qprio = 10;
	F.j[2].qprio = 30;
	thr_stop(&F.qthr[0], LI_R1M, 1);
	thr_stop(&F.qthr[1], LI_R1M, 1);
	thr_stop(&F.qthr[2], LI_R1M, 1);
	F.load[LI_R1M] = 2;
	expect_suspend(3, 1, SUSPW_QUEUE_LOAD, LI_R1M);

	fx_init();
	F.j[0].qprio = 50;
	F.j[1].qprio = 10;
	thr_stop(&F.qthr[0], LI_R1M, 1);
	F.load[LI_R1M] = 2;
	expect_suspend(2, 0, SUSPW_QUEUE_LOAD, LI_R1M);
}
END_TEST

/* Equal priorities: the most recently started first. */
START_TEST(test_tie_recent_first)
{
	fx_init();
	thr_stop(&F.hthr, LI_R1M, 1);
	F.load[LI_R1M] = 3;
	F.j[0].start_time = NOW - 10;
	F.j[1].start_time = NOW - 500;
	F.j[2].start_time = NOW - 100;
	expect_suspend(3, 0, SUSPW_HOST_LOAD, LI_R1M);
	F.j[0].load_susp = true;
	expect_suspend(3, 2, SUSPW_HOST_LOAD, LI_R1M);
}
END_TEST

/* brun -f: never suspended; the next candidate is. */
START_TEST(test_forced)
{
	fx_init();
	thr_stop(&F.hthr, LI_R1M, 1);
	F.load[LI_R1M] = 3;
	F.load[LI_IT] = 0;
	F.j[0].qprio = 1;
	F.j[0].forced = true;
	expect_suspend(2, 1, SUSPW_HOST_LOAD, LI_R1M);
	F.j[1].forced = true;
	expect_none(2);
	/* Alone on an interactive host, still not. */
	expect_none(1);
}
END_TEST

/* The only running job: only while it < 1 minute. */
START_TEST(test_only_job)
{
	fx_init();
	thr_sched(&F.hthr, LI_R1M, 0.5f);
	thr_stop(&F.hthr, LI_R1M, 1);
	F.load[LI_R1M] = 3;
	F.load[LI_IT] = 1;
	expect_none(1);
	F.load[LI_IT] = 0.9f;
	expect_suspend(1, 0, SUSPW_HOST_LOAD, LI_R1M);

	/* A suspended job does not count as running. */
	F.load[LI_IT] = 30;
	F.j[0].load_susp = true;
	F.j[0].start_time = NOW - 5;	/* not the tie's pick */
	expect_none(2);
	F.j[0].load_susp = false;
	F.j[0].other_susp = true;
	expect_none(2);
	/* Two running: the host need not be interactive. */
	F.j[0].other_susp = false;
	expect_suspend(2, 0, SUSPW_HOST_LOAD, LI_R1M);
}
END_TEST

/* pg is not checked while the host has been idle > PG_SUSP_IT. */
START_TEST(test_pg_idle)
{
	fx_init();
	thr_stop(&F.hthr, LI_PG, 10);
	thr_stop(&F.qthr[1], LI_PG, 10);
	F.load[LI_PG] = 50;
	F.h.pg_susp_it = 180;
	F.load[LI_IT] = 4;		/* 240 s idle */
	expect_none(2);
	F.load[LI_IT] = 3;		/* 180 s: not longer */
	expect_suspend(2, 1, SUSPW_HOST_LOAD, LI_PG);
	F.load[LI_IT] = 0;
	expect_suspend(2, 1, SUSPW_HOST_LOAD, LI_PG);

	/* Other indices are still checked on an idle host. */
	F.load[LI_IT] = 100;
	thr_stop(&F.qthr[1], LI_R1M, 1);
	F.load[LI_R1M] = 2;
	expect_suspend(2, 1, SUSPW_QUEUE_LOAD, LI_R1M);
}
END_TEST

/* A job that just started is not judged on a load it is not in yet. */
START_TEST(test_min_run)
{
	fx_init();
	thr_stop(&F.hthr, LI_R1M, 1);
	F.load[LI_R1M] = 3;
	F.h.min_run = 30;
	F.j[0].start_time = NOW - 100;
	F.j[1].start_time = NOW - 10;
	expect_suspend(2, 0, SUSPW_HOST_LOAD, LI_R1M);
	F.j[0].start_time = NOW - 20;
	expect_none(2);
}
END_TEST

/* Resumed only when every scheduling threshold of host and queue holds. */
START_TEST(test_resume_all_sched)
{
	fx_init();
	thr_sched(&F.hthr, LI_R1M, 0.5f);
	thr_sched(&F.hthr, LI_MEM, 100);
	thr_sched(&F.qthr[0], LI_UT, 0.3f);
	thr_stop(&F.qthr[0], LI_UT, 0.9f);
	F.j[0].load_susp = true;
	F.load[LI_R1M] = 0.6f;
	F.load[LI_UT] = 0.2f;
	expect_none(2);			/* host r1m */
	F.load[LI_R1M] = 0.5f;		/* equal is within */
	F.load[LI_MEM] = 99;
	expect_none(2);			/* host mem */
	F.load[LI_MEM] = 100;
	F.load[LI_UT] = 0.5f;
	expect_none(2);			/* queue ut, below its stop */
	F.load[LI_UT] = 0.3f;
	expect_resume(2, 0);
}
END_TEST

/* RESUME_COND replaces the queue's scheduling thresholds. */
START_TEST(test_resume_cond)
{
	fx_init();
	thr_sched(&F.qthr[0], LI_R1M, 0.25f);
	thr_sched(&F.hthr, LI_UT, 0.5f);
	F.j[0].resume_cond = cond("r1m < 1.0");
	F.j[0].load_susp = true;
	F.load[LI_R1M] = 0.8f;		/* queue r1m over, condition true */
	expect_resume(2, 0);
	F.load[LI_R1M] = 1.2f;
	expect_none(2);
	/* The host's thresholds still hold. */
	F.load[LI_R1M] = 0.1f;
	F.load[LI_UT] = 0.7f;
	expect_none(2);
	F.load[LI_UT] = 0.1f;
	expect_resume(2, 0);
}
END_TEST

/* One per call, higher-priority queues first, then the earliest started. */
START_TEST(test_resume_order)
{
	fx_init();
	F.j[0].qprio = 10;
	F.j[1].qprio = 40;
	F.j[2].qprio = 40;
	F.j[0].load_susp = F.j[1].load_susp = F.j[2].load_susp = true;
	F.j[1].start_time = NOW - 50;
	F.j[2].start_time = NOW - 90;
	expect_resume(4, 2);
	F.j[2].load_susp = false;
	expect_resume(4, 1);
	F.j[1].load_susp = false;
	expect_resume(4, 0);
	F.j[0].load_susp = false;
	expect_none(4);

	/* A job whose thresholds do not hold is passed over. */
	fx_init();
	F.j[0].qprio = 10;
	F.j[1].qprio = 40;
	F.j[0].load_susp = F.j[1].load_susp = true;
	thr_sched(&F.qthr[1], LI_R1M, 0.1f);
	F.load[LI_R1M] = 0.5f;
	expect_resume(2, 0);
}
END_TEST

/* Also stopped by its user or an administrator: not resumed here. */
START_TEST(test_other_susp)
{
	fx_init();
	F.j[0].load_susp = true;
	F.j[0].other_susp = true;
	expect_none(2);
	F.j[0].other_susp = false;
	expect_resume(2, 0);
	/* And a user-stopped job is never picked for load suspension. */
	fx_init();
	thr_stop(&F.hthr, LI_R1M, 1);
	F.load[LI_R1M] = 2;
	F.j[1].other_susp = true;
	F.load[LI_IT] = 0;
	expect_suspend(2, 0, SUSPW_HOST_LOAD, LI_R1M);
}
END_TEST

/* A suspension this turn: no resumption in the same call. */
START_TEST(test_suspend_wins)
{
	fx_init();
	thr_stop(&F.qthr[0], LI_R1M, 1);
	F.load[LI_R1M] = 2;
	F.j[2].load_susp = true;
	expect_suspend(3, 0, SUSPW_QUEUE_LOAD, LI_R1M);
}
END_TEST

/*
 * The seed: low-priority queue r1m = 0.25/1.75, high-priority queue
 * r1m = 1.5 with no suspending threshold, one host.
 */
START_TEST(test_seed_example)
{
	enum { LOW, HIGH };

	fx_init();
	F.j[LOW].qprio = 10;
	thr_sched(&F.qthr[LOW], LI_R1M, 0.25f);
	thr_stop(&F.qthr[LOW], LI_R1M, 1.75f);
	F.j[HIGH].qprio = 50;
	thr_sched(&F.qthr[HIGH], LI_R1M, 1.5f);
	F.j[LOW].start_time = NOW - 120;

	/* Idle host, the low job starts alone. */
	F.load[LI_R1M] = 0;
	expect_none(1);
	F.load[LI_R1M] = 1.25f;
	expect_none(1);
	/* The high job joins: 2.25 is past the low queue's 1.75. */
	F.j[HIGH].start_time = NOW - 30;
	expect_none(2);
	F.load[LI_R1M] = 2.25f;
	expect_suspend(2, LOW, SUSPW_QUEUE_LOAD, LI_R1M);
	F.j[LOW].load_susp = true;
	/* Next turns: the high job keeps running, the low one waits. */
	expect_none(2);
	F.load[LI_R1M] = 1.1f;
	expect_none(2);
	/* The high job exits, r1m falls back to idle: resumed. */
	F.load[LI_R1M] = 0.3f;
	expect_none(1);
	F.load[LI_R1M] = 0.1f;
	expect_resume(1, LOW);
}
END_TEST

/* A job suspends itself by its own load, resumes, suspends again. */
START_TEST(test_self_cycle)
{
	fx_init();
	thr_sched(&F.qthr[0], LI_R1M, 0.5f);
	thr_stop(&F.qthr[0], LI_R1M, 1.5f);
	F.load[LI_IT] = 0;		/* interactive: the only job may stop */
	for (int k = 0; k < 5; k++) {
		F.load[LI_R1M] = 1.0f;
		expect_none(1);
		F.load[LI_R1M] = 1.6f;
		expect_suspend(1, 0, SUSPW_QUEUE_LOAD, LI_R1M);
		F.j[0].load_susp = true;
		F.load[LI_R1M] = 0.9f;	/* falling, not yet within */
		expect_none(1);
		F.load[LI_R1M] = 0.4f;
		expect_resume(1, 0);
		F.j[0].load_susp = false;
	}
}
END_TEST

START_TEST(test_reason_text)
{
	char buf[128];

	ck_assert_str_eq(susp_policy_reason(SUSPW_QUEUE_LOAD, LI_R1M, buf,
	    sizeof buf),
	    "Host load exceeded threshold: 1-minute CPU run queue length "
	    "(r1m)");
	ck_assert_str_eq(susp_policy_reason(SUSPW_HOST_LOAD, LI_R1M, buf,
	    sizeof buf),
	    "Host load exceeded threshold: 1-minute CPU run queue length "
	    "(r1m)");
	ck_assert_str_eq(susp_policy_reason(SUSPW_HOST_LOAD, LI_IT, buf,
	    sizeof buf), "Host load exceeded threshold: Idle time (it)");
	ck_assert_str_eq(susp_policy_reason(SUSPW_HOST_LOAD, LI_PG, buf,
	    sizeof buf), "Job was suspended due to paging rate (pg) and "
	    "the host is not idle yet");
	ck_assert_str_eq(susp_policy_reason(SUSPW_STOP_COND, -1, buf,
	    sizeof buf), "STOP_COND is true with current host load");
	ck_assert_str_eq(susp_policy_reason(SUSPW_RESUME_COND, -1, buf,
	    sizeof buf), "RESUME_COND is false with current host load");
	ck_assert_str_eq(susp_policy_reason(SUSPW_NONE, -1, buf,
	    sizeof buf), "");
	ck_assert_str_eq(susp_policy_reason(SUSPW_HOST_LOAD, 99, buf,
	    sizeof buf), "Host load exceeded threshold");
	/* Truncated, never overrun. */
	ck_assert_str_eq(susp_policy_reason(SUSPW_QUEUE_LOAD, LI_R1M, buf,
	    10), "Host load");
}
END_TEST

static Suite *
susp_suite(void)
{
	Suite *s = suite_create("susp");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_no_jobs);
	tcase_add_test(tc, test_no_stop_threshold);
	tcase_add_test(tc, test_host_threshold);
	tcase_add_test(tc, test_queue_threshold);
	tcase_add_test(tc, test_host_before_queue);
	tcase_add_test(tc, test_equal_increasing);
	tcase_add_test(tc, test_decreasing);
	tcase_add_test(tc, test_effective_run_queue);
	tcase_add_test(tc, test_unknown_load);
	tcase_add_test(tc, test_stop_cond);
	tcase_add_test(tc, test_one_per_call);
	tcase_add_test(tc, test_lowest_priority_first);
	tcase_add_test(tc, test_tie_recent_first);
	tcase_add_test(tc, test_forced);
	tcase_add_test(tc, test_only_job);
	tcase_add_test(tc, test_pg_idle);
	tcase_add_test(tc, test_min_run);
	tcase_add_test(tc, test_resume_all_sched);
	tcase_add_test(tc, test_resume_cond);
	tcase_add_test(tc, test_resume_order);
	tcase_add_test(tc, test_other_susp);
	tcase_add_test(tc, test_suspend_wins);
	tcase_add_test(tc, test_seed_example);
	tcase_add_test(tc, test_self_cycle);
	tcase_add_test(tc, test_reason_text);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(susp_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
