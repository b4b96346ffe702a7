/*
 * The scheduling policy on small clusters built in memory: order of
 * queues and jobs, every per-host reason, select/order/span, exclusive
 * jobs, JOB_ACCEPT_INTERVAL, the cut of a full queue, the failed-shape
 * cache, the pending list, and a fixed-seed property test over random
 * clusters checking the invariants of each pass.
 *
 * policy_schedule() does not apply its decisions: apply() below does what
 * mbatchd does (slots used, job off the pending list) between passes.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "lsf.h"
#include "policy.h"
#include "resreq.h"
#include "util.h"

#define MAXH	64
#define MAXQ	8
#define MAXD	4096
#define NOW	1700000000

/* One cluster at a time, rebuilt by fx_init() in each test. */
static struct {
	struct pol_cluster	 c;
	struct pol_host		 h[MAXH];
	struct pol_host		*hp[MAXH];
	float			 load[MAXH][NLOADIDX];
	char			 name[MAXH][16];
	struct thresholds	 hthr[MAXH];
	struct pol_queue	 q[MAXQ];
	struct pol_queue	*qp[MAXQ];
	char			 qname[MAXQ][16];
	struct thresholds	 qthr[MAXQ];
	bool			 host_ok[MAXQ][MAXH];
	struct pol_decision	 d[MAXD];
	int			 nd;
	struct pol_job		*jobs;
	int			 njobs;
	int			 cap;
} F;

static struct resreq rrs[16];
static int nrrs;

static void
fx_init(int nh, int nq)
{
	free(F.jobs);
	memset(&F, 0, sizeof(F));
	for (int i = 0; i < nh; i++) {
		struct pol_host *h = &F.h[i];

		snprintf(F.name[i], sizeof(F.name[i]), "host%02d", i);
		h->usable = true;
		h->max_slots = 4;
		h->rr.name = F.name[i];
		h->rr.type = "X86_64";
		h->rr.model = "Xeon";
		h->rr.load = F.load[i];
		h->rr.ncpus = 4;
		h->rr.cpuf = 1.0f;
		h->rr.maxmem = 16000;
		h->rr.maxswp = 8000;
		h->rr.maxtmp = 50000;
		h->rr.server = true;
		/* host00 is the least loaded, then host01, ... */
		F.load[i][LI_R15S] = 0.1f * (float)i;
		F.load[i][LI_MEM] = 8000;
		F.load[i][LI_SWP] = 4000;
		F.load[i][LI_TMP] = 20000;
		F.load[i][LI_IT] = 30;
		F.hp[i] = h;
	}
	for (int i = 0; i < nq; i++) {
		struct pol_queue *q = &F.q[i];

		snprintf(F.qname[i], sizeof(F.qname[i]), "q%d", i);
		q->name = F.qname[i];
		q->priority = 10;
		q->order = i;
		q->active = true;
		F.qp[i] = q;
	}
	F.c.hosts = F.hp;
	F.c.nhosts = nh;
	F.c.queues = F.qp;
	F.c.nqueues = nq;
	F.c.now = NOW;
}

static void
fx_free(void)
{
	policy_decisions_free(F.d, F.nd);
	F.nd = 0;
	free(F.jobs);
	F.jobs = NULL;
	F.njobs = F.cap = 0;
	for (int i = 0; i < nrrs; i++)
		resreq_release(&rrs[i]);
	nrrs = 0;
}

static void
teardown(void)
{
	fx_free();
}

/* Jobs live in one array sized up front (the queues hold pointers). */
static void
reserve_jobs(int n)
{
	ck_assert_ptr_null(F.jobs);
	F.jobs = xcalloc((size_t)n, sizeof(*F.jobs));
	F.cap = n;
}

static struct pol_job *
job(int qi)
{
	struct pol_job *j;

	if (F.jobs == NULL)
		reserve_jobs(1024);
	ck_assert_int_lt(F.njobs, F.cap);
	j = &F.jobs[F.njobs++];
	j->num_procs = 1;
	policy_job_append(&F.q[qi], j);
	return j;
}

static const struct resreq *
rr(const char *text)
{
	char *cause = NULL;

	ck_assert_int_lt(nrrs, (int)ARRAY_SIZE(rrs));
	if (resreq_parse(&rrs[nrrs], text, "MB", &cause) != 0)
		ck_abort_msg("resreq_parse \"%s\": %s", text, cause);
	return &rrs[nrrs++];
}

static int
run(void)
{
	policy_decisions_free(F.d, F.nd);
	F.nd = policy_schedule(&F.c, F.d, MAXD);
	ck_assert_int_ge(F.nd, 0);
	return F.nd;
}

/* The decision for j, or NULL. */
static const struct pol_decision *
decided(const struct pol_job *j)
{
	for (int i = 0; i < F.nd; i++)
		if (F.d[i].job == j)
			return &F.d[i];
	return NULL;
}

/* The host j got (a one-slot job), or -1. */
static int
host_of(const struct pol_job *j)
{
	const struct pol_decision *d = decided(j);

	return d ? d->slots[0] : -1;
}

/* Slots of decision d on host h. */
static int
slots_on(const struct pol_decision *d, int h)
{
	int n = 0;

	for (int i = 0; i < d->job->num_procs; i++)
		n += d->slots[i] == h;
	return n;
}

/* What mbatchd does with the decisions of a pass. */
static void
apply(void)
{
	for (int i = 0; i < F.nd; i++) {
		struct pol_decision *d = &F.d[i];

		for (int k = 0; k < (d->job->num_procs > 0 ?
		    d->job->num_procs : 1); k++) {
			F.h[d->slots[k]].used_slots++;
			F.h[d->slots[k]].last_dispatch = F.c.now;
			if (d->job->exclusive)
				F.h[d->slots[k]].exclusive = true;
		}
		policy_job_remove(d->job);
	}
	policy_decisions_free(F.d, F.nd);
	F.nd = 0;
}

/* Assert j waits with reason and exactly these host counts (pairs of
 * HR_* and count, ending with -1). */
static void
assert_reason(const struct pol_job *j, int reason, ...)
{
	const uint32_t *counts;
	uint32_t want[HR_NREASONS];
	int r = policy_job_reason(&F.c, j, &counts);
	va_list ap;
	int k;

	ck_assert_msg(r == reason, "job %td: reason %d, want %d",
	    j - F.jobs, r, reason);
	memset(want, 0, sizeof(want));
	va_start(ap, reason);
	while ((k = va_arg(ap, int)) >= 0)
		want[k] = (uint32_t)va_arg(ap, int);
	va_end(ap);
	if (reason == PEND_NONE || reason == PEND_NEW_JOB)
		return;
	ck_assert_ptr_nonnull(counts);
	for (k = 0; k < HR_NREASONS; k++)
		ck_assert_msg(counts[k] == want[k], "job %td: %u hosts for "
		    "reason %d (%s), want %u", j - F.jobs, counts[k], k,
		    host_reason_text(k), want[k]);
}

START_TEST(test_fcfs)
{
	struct pol_job *j0, *j1, *j2;

	fx_init(2, 1);
	F.h[0].max_slots = F.h[1].max_slots = 1;
	j0 = job(0);
	j1 = job(0);
	j2 = job(0);
	assert_reason(j0, PEND_NEW_JOB, -1);
	ck_assert_int_eq(run(), 2);
	ck_assert_ptr_eq(F.d[0].job, j0);
	ck_assert_ptr_eq(F.d[1].job, j1);
	/* The first job gets the best host (least r15s). */
	ck_assert_int_eq(host_of(j0), 0);
	ck_assert_int_eq(host_of(j1), 1);
	ck_assert_ptr_null(decided(j2));
	assert_reason(j0, PEND_NONE, -1);
	assert_reason(j2, PEND_NO_HOST, HR_FULL, 2, -1);
	apply();
	ck_assert_ptr_eq(F.q[0].head, j2);
	/* Nothing changes: the same answer again. */
	ck_assert_int_eq(run(), 0);
	assert_reason(j2, PEND_NO_HOST, HR_FULL, 2, -1);
	/* A slot frees up: j2 takes it. */
	F.h[1].used_slots = 0;
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(j2), 1);
}
END_TEST

/* A job that cannot start does not hold back the ones behind it. */
START_TEST(test_fcfs_big_first)
{
	struct pol_job *big, *small;

	fx_init(2, 1);
	big = job(0);
	big->num_procs = 100;
	small = job(0);
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(small), 0);
	assert_reason(big, PEND_NO_HOST, HR_NOT_ENOUGH, 2, -1);
}
END_TEST

START_TEST(test_queue_priority)
{
	struct pol_job *lo, *hi, *mid;

	fx_init(1, 3);
	F.h[0].max_slots = 2;
	F.q[0].priority = 10;
	F.q[1].priority = 50;
	F.q[2].priority = 30;
	lo = job(0);		/* submitted first, lowest queue */
	mid = job(2);
	hi = job(1);
	policy_sort_queues(F.qp, 3);
	ck_assert_ptr_eq(F.qp[0], &F.q[1]);
	ck_assert_ptr_eq(F.qp[1], &F.q[2]);
	ck_assert_ptr_eq(F.qp[2], &F.q[0]);
	ck_assert_int_eq(run(), 2);
	ck_assert_ptr_eq(F.d[0].job, hi);
	ck_assert_ptr_eq(F.d[1].job, mid);
	ck_assert_ptr_null(decided(lo));
	/* The low queue was full before it was reached. */
	assert_reason(lo, PEND_NO_HOST, HR_FULL, 1, -1);
}
END_TEST

START_TEST(test_equal_priority_config_order)
{
	struct pol_job *a, *b;

	fx_init(1, 2);
	F.h[0].max_slots = 1;
	F.q[0].order = 1;	/* later in lsb.queues */
	F.q[1].order = 0;
	a = job(0);
	b = job(1);
	policy_sort_queues(F.qp, 2);
	ck_assert_ptr_eq(F.qp[0], &F.q[1]);
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_eq(F.d[0].job, b);
	assert_reason(a, PEND_NO_HOST, HR_FULL, 1, -1);
}
END_TEST

START_TEST(test_mxj)
{
	struct pol_job *j[10];
	int per[3] = { 0 };

	fx_init(3, 1);
	F.h[0].max_slots = 2;
	F.h[0].used_slots = 1;
	F.h[1].max_slots = 3;
	F.h[2].max_slots = 1;
	F.h[2].used_slots = 1;
	for (int i = 0; i < 10; i++)
		j[i] = job(0);
	ck_assert_int_eq(run(), 4);
	for (int i = 0; i < F.nd; i++)
		per[F.d[i].slots[0]]++;
	ck_assert_int_eq(per[0], 1);
	ck_assert_int_eq(per[1], 3);
	ck_assert_int_eq(per[2], 0);
	for (int i = 0; i < 4; i++)
		ck_assert_ptr_nonnull(decided(j[i]));
	assert_reason(j[4], PEND_NO_HOST, HR_FULL, 3, -1);
	apply();
	ck_assert_int_eq(run(), 0);
	assert_reason(j[9], PEND_NO_HOST, HR_FULL, 3, -1);
	/* MXJ 0: never anything. */
	fx_free();
	fx_init(2, 1);
	F.h[0].max_slots = 0;
	F.h[1].max_slots = 0;
	job(0);
	ck_assert_int_eq(run(), 0);
	assert_reason(&F.jobs[0], PEND_NO_HOST, HR_FULL, 2, -1);
}
END_TEST

START_TEST(test_unlimited)
{
	fx_init(1, 1);
	F.h[0].max_slots = -1;
	F.h[0].used_slots = 1000;
	for (int i = 0; i < 50; i++)
		job(0);
	ck_assert_int_eq(run(), 50);
	for (int i = 0; i < 50; i++)
		ck_assert_int_eq(host_of(&F.jobs[i]), 0);
}
END_TEST

/* The decision limit. */
START_TEST(test_max_decisions)
{
	struct pol_decision d[2];
	int n;

	fx_init(2, 1);
	for (int i = 0; i < 5; i++)
		job(0);
	n = policy_schedule(&F.c, d, 2);
	ck_assert_int_eq(n, 2);
	ck_assert_ptr_eq(d[0].job, &F.jobs[0]);
	ck_assert_ptr_eq(d[1].job, &F.jobs[1]);
	policy_decisions_free(d, n);
	ck_assert_ptr_null(d[0].slots);
}
END_TEST

START_TEST(test_over_sched)
{
	struct thresholds t;
	float load[NLOADIDX];

	memset(&t, 0, sizeof(t));
	memset(load, 0, sizeof(load));
	ck_assert_int_eq(policy_over_sched(NULL, load), -1);
	ck_assert_int_eq(policy_over_sched(&t, load), -1);
	/* Increasing index: over when load > sched; equal is within. */
	t.sched[LI_R1M] = 1.0f;
	t.sched_set = 1u << LI_R1M;
	load[LI_R1M] = 1.0f;
	ck_assert_int_eq(policy_over_sched(&t, load), -1);
	load[LI_R1M] = 1.01f;
	ck_assert_int_eq(policy_over_sched(&t, load), LI_R1M);
	load[LI_R1M] = 0.5f;
	/* Decreasing index: over when load < sched. */
	t.sched[LI_MEM] = 500;
	t.sched_set |= 1u << LI_MEM;
	load[LI_MEM] = 500;
	ck_assert_int_eq(policy_over_sched(&t, load), -1);
	load[LI_MEM] = 499;
	ck_assert_int_eq(policy_over_sched(&t, load), LI_MEM);
	load[LI_MEM] = 100000;
	ck_assert_int_eq(policy_over_sched(&t, load), -1);
	/* Values of unset indices do not count. */
	t.sched[LI_UT] = 0.1f;
	load[LI_UT] = 0.9f;
	ck_assert_int_eq(policy_over_sched(&t, load), -1);
	/* The first index over is reported. */
	t.sched_set |= 1u << LI_UT;
	load[LI_MEM] = 1;
	ck_assert_int_eq(policy_over_sched(&t, load), LI_UT);
	t.stop_set = ~0u;	/* loadStop plays no part in dispatch */
	ck_assert_int_eq(policy_over_sched(&t, load), LI_UT);
}
END_TEST

START_TEST(test_thresholds)
{
	struct pol_job *j0, *j1, *big;

	fx_init(4, 1);
	/* host00: its own r1m threshold exceeded. */
	F.hthr[0].sched[LI_R1M] = 1.0f;
	F.hthr[0].sched_set = 1u << LI_R1M;
	F.load[0][LI_R1M] = 1.5f;
	F.h[0].thr = &F.hthr[0];
	/* host01: too little free memory for its own threshold. */
	F.hthr[1].sched[LI_MEM] = 500;
	F.hthr[1].sched_set = 1u << LI_MEM;
	F.load[1][LI_MEM] = 200;
	F.h[1].thr = &F.hthr[1];
	/* host02: over the queue's r1m threshold only. */
	F.load[2][LI_R1M] = 0.7f;
	/* host03: exactly at both thresholds, which is within them. */
	F.load[3][LI_R1M] = 0.5f;
	F.hthr[3].sched[LI_MEM] = 8000;
	F.hthr[3].sched_set = 1u << LI_MEM;
	F.h[3].thr = &F.hthr[3];
	F.h[3].max_slots = 1;
	F.qthr[0].sched[LI_R1M] = 0.5f;
	F.qthr[0].sched_set = 1u << LI_R1M;
	F.q[0].thr = &F.qthr[0];

	j0 = job(0);
	big = job(0);
	big->num_procs = 2;
	j1 = job(0);
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(j0), 3);
	assert_reason(big, PEND_NO_HOST, HR_LOAD_SCHED, 2, HR_QUEUE_LOAD, 1,
	    HR_FULL, 1, -1);
	assert_reason(j1, PEND_NO_HOST, HR_LOAD_SCHED, 2, HR_QUEUE_LOAD, 1,
	    HR_FULL, 1, -1);
}
END_TEST

START_TEST(test_unusable)
{
	struct pol_job *j0, *j1, *j2;

	fx_init(3, 1);
	F.h[0].usable = false;
	F.h[1].usable = false;
	F.h[1].unusable_reason = HR_CLOSED_ADM;
	F.h[2].max_slots = 1;
	j0 = job(0);
	j1 = job(0);
	j2 = job(0);
	j2->exclusive = true;
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(j0), 2);
	assert_reason(j1, PEND_NO_HOST, HR_UNAVAIL, 1, HR_CLOSED_ADM, 1,
	    HR_FULL, 1, -1);
	/* j2 was cut: the queue had no room left. */
	assert_reason(j2, PEND_NO_HOST, HR_UNAVAIL, 1, HR_CLOSED_ADM, 1,
	    HR_FULL, 1, -1);
	/* Unusable hosts, nothing else: nothing at all. */
	F.h[2].usable = false;
	F.h[2].used_slots = 0;
	ck_assert_int_eq(run(), 0);
	assert_reason(j0, PEND_NO_HOST, HR_UNAVAIL, 2, HR_CLOSED_ADM, 1, -1);
}
END_TEST

START_TEST(test_queue_hosts)
{
	struct pol_job *j0, *j1, *j2, *j3;

	fx_init(3, 1);
	for (int i = 0; i < 3; i++)
		F.h[i].max_slots = 1;
	F.host_ok[0][1] = F.host_ok[0][2] = true;	/* not host00 */
	F.q[0].host_ok = F.host_ok[0];
	j0 = job(0);
	j1 = job(0);
	j2 = job(0);
	j3 = job(0);
	j3->num_procs = 2;
	ck_assert_int_eq(run(), 2);
	ck_assert_int_eq(host_of(j0), 1);
	ck_assert_int_eq(host_of(j1), 2);
	assert_reason(j2, PEND_NO_HOST, HR_NOT_USED_BY_QUEUE, 1, HR_FULL, 2,
	    -1);
	assert_reason(j3, PEND_NO_HOST, HR_NOT_USED_BY_QUEUE, 1, HR_FULL, 2,
	    -1);
}
END_TEST

START_TEST(test_asked_hosts)
{
	static const int only2[] = { 2 };
	static const int also2[] = { 2 };
	static const int first_two[] = { 0, 1 };
	struct pol_job *j0, *j1, *j2, *j3, *j4;

	fx_init(3, 1);
	for (int i = 0; i < 3; i++)
		F.h[i].max_slots = 1;
	j0 = job(0);
	j0->asked = only2;
	j0->nasked = 1;
	j1 = job(0);
	j1->asked = also2;
	j1->nasked = 1;
	j2 = job(0);
	j3 = job(0);
	j3->asked = first_two;
	j3->nasked = 2;
	j4 = job(0);
	j4->asked = first_two;
	j4->nasked = 2;
	ck_assert_int_eq(run(), 3);
	ck_assert_int_eq(host_of(j0), 2);	/* not the best host */
	ck_assert_ptr_null(decided(j1));
	assert_reason(j1, PEND_NO_HOST, HR_NOT_REQUESTED, 2, HR_FULL, 1, -1);
	ck_assert_int_eq(host_of(j2), 0);
	ck_assert_int_eq(host_of(j3), 1);
	/* j3 took the last free slot: the queue was cut before j4, which
	 * shares the queue's summary instead of its own counts. */
	assert_reason(j4, PEND_NO_HOST, HR_FULL, 3, -1);
}
END_TEST

START_TEST(test_select)
{
	struct pol_job *j0, *j1, *j2;

	fx_init(3, 1);
	F.load[0][LI_MEM] = 500;
	F.load[1][LI_MEM] = 2000;
	F.load[2][LI_MEM] = 3000;
	j0 = job(0);
	j0->rr = rr("select[mem>1000]");
	j1 = job(0);
	j1->rr = rr("select[mem>5000]");
	j2 = job(0);
	j2->rr = rr("mem>2500 && type==X86_64");
	ck_assert_int_eq(run(), 2);
	ck_assert_int_eq(host_of(j0), 1);
	assert_reason(j1, PEND_NO_HOST, HR_RESREQ, 3, -1);
	ck_assert_int_eq(host_of(j2), 2);

	/* The queue's RES_REQ applies to plain jobs too. */
	fx_free();
	fx_init(3, 1);
	F.load[0][LI_MEM] = 500;
	F.load[1][LI_MEM] = 2000;
	F.load[2][LI_MEM] = 3000;
	for (int i = 0; i < 3; i++)
		F.h[i].max_slots = 1;
	F.q[0].rr = rr("select[mem>1000]");
	j0 = job(0);
	j1 = job(0);
	j2 = job(0);
	ck_assert_int_eq(run(), 2);
	ck_assert_int_eq(host_of(j0), 1);
	ck_assert_int_eq(host_of(j1), 2);
	assert_reason(j2, PEND_NO_HOST, HR_RESREQ, 1, HR_FULL, 2, -1);
}
END_TEST

START_TEST(test_order)
{
	struct pol_job *j;
	static const struct {
		const char	*req;
		int		 want;
	} cases[] = {
		{ "order[-mem]", 0 },
		{ "order[mem]", 1 },
		{ "order[r1m]", 1 },
		{ "order[-r1m]", 0 },
		{ "order[ut:mem]", 2 },
		{ "select[mem>1500] order[-mem]", 2 },
	};

	/* Default r15s:pg: the least r15s, then the least pg. */
	fx_init(3, 1);
	F.load[0][LI_R15S] = 0.5f;
	F.load[1][LI_R15S] = 0.1f;
	F.load[2][LI_R15S] = 0.3f;
	j = job(0);
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(j), 1);
	for (int i = 0; i < 3; i++)
		F.load[i][LI_R15S] = 0.2f;
	F.load[0][LI_PG] = 5;
	F.load[1][LI_PG] = 3;
	F.load[2][LI_PG] = 1;
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(j), 2);

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		fx_free();
		fx_init(3, 1);
		F.load[0][LI_MEM] = 1000;
		F.load[1][LI_MEM] = 3000;
		F.load[2][LI_MEM] = 2000;
		F.load[0][LI_R1M] = 0.9f;
		F.load[1][LI_R1M] = 0.2f;
		F.load[2][LI_R1M] = 0.5f;
		F.load[0][LI_UT] = 0.5f;
		F.load[1][LI_UT] = 0.5f;
		F.load[2][LI_UT] = 0.1f;
		j = job(0);
		j->rr = rr(cases[k].req);
		ck_assert_int_eq(run(), 1);
		ck_assert_msg(host_of(j) == cases[k].want, "%s: host%02d, "
		    "want host%02d", cases[k].req, host_of(j), cases[k].want);
	}

	/* The queue's order[] for plain jobs. */
	fx_free();
	fx_init(3, 1);
	F.load[0][LI_MEM] = 1000;
	F.load[1][LI_MEM] = 3000;
	F.load[2][LI_MEM] = 2000;
	F.h[1].max_slots = 1;
	F.q[0].rr = rr("order[mem]");
	job(0);
	job(0);
	job(0);
	ck_assert_int_eq(run(), 3);
	ck_assert_int_eq(host_of(&F.jobs[0]), 1);
	ck_assert_int_eq(host_of(&F.jobs[1]), 2);
	ck_assert_int_eq(host_of(&F.jobs[2]), 2);
}
END_TEST

START_TEST(test_parallel_spread)
{
	struct pol_job *j5, *j2;
	const struct pol_decision *d;

	fx_init(3, 1);
	for (int i = 0; i < 3; i++)
		F.h[i].max_slots = 2;
	j5 = job(0);
	j5->num_procs = 5;
	j2 = job(0);
	j2->num_procs = 2;
	ck_assert_int_eq(run(), 1);
	d = decided(j5);
	ck_assert_ptr_nonnull(d);
	/* The best hosts first, each up to its free slots. */
	ck_assert_int_eq(slots_on(d, 0), 2);
	ck_assert_int_eq(slots_on(d, 1), 2);
	ck_assert_int_eq(slots_on(d, 2), 1);
	assert_reason(j2, PEND_NO_HOST, HR_FULL, 2, HR_NOT_ENOUGH, 1, -1);
	apply();
	ck_assert_int_eq(F.h[0].used_slots, 2);
	ck_assert_int_eq(F.h[2].used_slots, 1);
	/* Next pass: still one slot only. */
	ck_assert_int_eq(run(), 0);
	assert_reason(j2, PEND_NO_HOST, HR_FULL, 2, HR_NOT_ENOUGH, 1, -1);
	F.h[0].used_slots = 1;
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(slots_on(decided(j2), 0), 1);
	ck_assert_int_eq(slots_on(decided(j2), 2), 1);
}
END_TEST

START_TEST(test_span_one_host)
{
	struct pol_job *a, *b, *c;
	const struct resreq *span = NULL;

	fx_init(3, 1);
	F.h[0].max_slots = 2;
	F.h[1].max_slots = 4;
	F.h[2].max_slots = 3;
	span = rr("span[hosts=1]");
	a = job(0);
	a->num_procs = 4;
	a->rr = span;
	b = job(0);
	b->num_procs = 3;
	b->rr = span;
	c = job(0);
	c->num_procs = 3;
	c->rr = span;
	ck_assert_int_eq(run(), 2);
	ck_assert_int_eq(slots_on(decided(a), 1), 4);
	ck_assert_int_eq(slots_on(decided(b), 2), 3);
	/* Nothing left with three free slots on one host. */
	assert_reason(c, PEND_NO_HOST, HR_NOT_ENOUGH, 1, HR_FULL, 2, -1);

	/* Too big for any host, though the cluster has the slots. */
	fx_free();
	fx_init(3, 1);
	F.h[0].max_slots = 2;
	F.h[1].max_slots = 4;
	F.h[2].max_slots = 3;
	F.h[2].used_slots = 3;
	a = job(0);
	a->num_procs = 5;
	a->rr = rr("span[hosts=1]");
	ck_assert_int_eq(run(), 0);
	assert_reason(a, PEND_NO_HOST, HR_NOT_ENOUGH, 2, HR_FULL, 1, -1);
	/* Without span it spreads. */
	a->rr = NULL;
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(slots_on(decided(a), 0), 2);
	ck_assert_int_eq(slots_on(decided(a), 1), 3);
}
END_TEST

START_TEST(test_exclusive)
{
	struct pol_job *x, *y, *p1, *p2, *low;

	fx_init(2, 2);
	F.h[1].used_slots = 1;		/* host00 is empty and best */
	F.q[1].priority = 1;
	policy_sort_queues(F.qp, 2);
	x = job(0);
	x->exclusive = true;
	y = job(0);
	y->exclusive = true;
	p1 = job(0);
	p2 = job(0);
	low = job(1);
	ck_assert_int_eq(run(), 4);
	ck_assert_int_eq(host_of(x), 0);
	/* The second exclusive job finds no empty host. */
	assert_reason(y, PEND_NO_HOST, HR_EXCL_REQ, 2, -1);
	/* host00 is the exclusive job's for the rest of the pass. */
	ck_assert_int_eq(host_of(p1), 1);
	ck_assert_int_eq(host_of(p2), 1);
	ck_assert_int_eq(host_of(low), 1);
	apply();
	/* While it runs, host00 takes nothing. */
	ck_assert(F.h[0].exclusive);
	job(1);
	ck_assert_int_eq(run(), 0);
	assert_reason(y, PEND_NO_HOST, HR_EXCLUSIVE, 1, HR_FULL, 1, -1);

	/* A host running an exclusive job, and one that is merely busy. */
	fx_free();
	fx_init(3, 1);
	F.h[0].used_slots = 1;
	F.h[1].used_slots = 1;
	F.h[1].exclusive = true;
	F.h[2].max_slots = 0;
	x = job(0);
	x->exclusive = true;
	p1 = job(0);
	ck_assert_int_eq(run(), 1);
	assert_reason(x, PEND_NO_HOST, HR_EXCL_REQ, 1, HR_EXCLUSIVE, 1,
	    HR_FULL, 1, -1);
	ck_assert_int_eq(host_of(p1), 0);
}
END_TEST

/* An exclusive job after plain ones in the same pass. */
START_TEST(test_exclusive_after_plain)
{
	struct pol_job *p, *x;

	fx_init(2, 1);
	p = job(0);
	x = job(0);
	x->exclusive = true;
	ck_assert_int_eq(run(), 2);
	ck_assert_int_eq(host_of(p), 0);
	ck_assert_int_eq(host_of(x), 1);
	ck_assert_int_eq(slots_on(decided(x), 1), 1);
}
END_TEST

/* A multi-slot exclusive job blocks every host it lands on. */
START_TEST(test_exclusive_parallel)
{
	struct pol_job *x, *p;

	fx_init(3, 1);
	for (int i = 0; i < 3; i++)
		F.h[i].max_slots = 2;
	x = job(0);
	x->exclusive = true;
	x->num_procs = 3;
	p = job(0);
	ck_assert_int_eq(run(), 2);
	ck_assert_int_eq(slots_on(decided(x), 0), 2);
	ck_assert_int_eq(slots_on(decided(x), 1), 1);
	ck_assert_int_eq(host_of(p), 2);
}
END_TEST

START_TEST(test_accept_interval)
{
	struct pol_job *j[4], *other;

	fx_init(3, 2);
	for (int i = 0; i < 3; i++)
		F.h[i].max_slots = 4;
	F.q[0].accept_interval = 60;
	F.q[0].priority = 20;
	policy_sort_queues(F.qp, 2);
	F.h[0].last_dispatch = NOW - 10;	/* just took one */
	F.h[1].last_dispatch = NOW - 100;
	F.h[2].last_dispatch = 0;		/* never */
	for (int i = 0; i < 4; i++)
		j[i] = job(0);
	ck_assert_int_eq(run(), 2);
	ck_assert_int_eq(host_of(j[0]), 1);
	ck_assert_int_eq(host_of(j[1]), 2);
	assert_reason(j[2], PEND_NO_HOST, HR_JUST_STARTED, 3, -1);
	assert_reason(j[3], PEND_NO_HOST, HR_JUST_STARTED, 3, -1);
	apply();
	/* 30 s later, all three took a job within the interval. */
	F.c.now = NOW + 30;
	ck_assert_int_eq(run(), 0);
	assert_reason(j[2], PEND_NO_HOST, HR_JUST_STARTED, 3, -1);
	/* Past the interval for host00 only. */
	F.c.now = NOW + 55;
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(j[2]), 0);
	apply();
	/* Everyone past it: one job per host per pass, two left. */
	F.c.now = NOW + 1000;
	for (int i = 0; i < 4; i++)
		job(0);
	ck_assert_int_eq(run(), 3);
	apply();
	/* A queue without an interval is not held back by the hosts'
	 * last dispatch. */
	F.c.now += 1;
	other = job(1);
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_eq(F.d[0].job, other);
}
END_TEST

START_TEST(test_held)
{
	struct pol_job *h, *p;

	fx_init(1, 1);
	F.h[0].max_slots = 1;
	h = job(0);
	h->held = true;
	p = job(0);
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_eq(F.d[0].job, p);
	ck_assert_ptr_null(decided(h));
	ck_assert_int_ne(policy_job_reason(&F.c, h, &(const uint32_t *){ 0 }),
	    PEND_NONE);
	apply();
	/* Still held with a free slot: still nothing. */
	F.h[0].used_slots = 0;
	ck_assert_int_eq(run(), 0);
	h->held = false;
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_eq(F.d[0].job, h);
}
END_TEST

START_TEST(test_inactive_queue)
{
	struct pol_job *a, *b;
	const uint32_t *counts;

	fx_init(2, 2);
	F.q[0].priority = 50;
	F.q[0].active = false;
	F.q[0].inactive_reason = PEND_QUEUE_WINDOW;
	policy_sort_queues(F.qp, 2);
	a = job(0);
	b = job(1);
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_eq(F.d[0].job, b);
	ck_assert_int_eq(host_of(b), 0);	/* the best host was free */
	ck_assert_int_eq(policy_job_reason(&F.c, a, &counts),
	    PEND_QUEUE_WINDOW);
	ck_assert_ptr_nonnull(counts);
	for (int k = 0; k < HR_NREASONS; k++)
		ck_assert_uint_eq(counts[k], 0);
	F.q[0].inactive_reason = PEND_QUEUE_INACT;
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(policy_job_reason(&F.c, a, &counts),
	    PEND_QUEUE_INACT);
	F.q[0].active = true;
	ck_assert_int_eq(run(), 2);
	ck_assert_ptr_nonnull(decided(a));
}
END_TEST

/* A full cluster and a long queue: the pass stops at once. */
START_TEST(test_cut)
{
	enum { N = 100000 };
	const uint32_t *counts;
	uint64_t t0;

	fx_init(4, 1);
	for (int i = 0; i < 4; i++) {
		F.h[i].max_slots = 1;
		F.h[i].used_slots = 1;
	}
	reserve_jobs(N);
	for (int i = 0; i < N; i++)
		job(0);
	t0 = mono_ms();
	for (int k = 0; k < 10; k++)
		ck_assert_int_eq(run(), 0);
	ck_assert_msg(mono_ms() - t0 < 500, "10 passes took %llu ms",
	    (unsigned long long)(mono_ms() - t0));
	ck_assert_int_eq(policy_job_reason(&F.c, &F.jobs[N / 2], &counts),
	    PEND_NO_HOST);
	ck_assert_ptr_eq(counts, F.q[0].cut_counts);
	assert_reason(&F.jobs[N / 2], PEND_NO_HOST, HR_FULL, 4, -1);
	assert_reason(&F.jobs[N - 1], PEND_NO_HOST, HR_FULL, 4, -1);
	assert_reason(&F.jobs[0], PEND_NO_HOST, HR_FULL, 4, -1);

	/* Two free slots: two start, the next is judged, the rest cut. */
	F.h[1].used_slots = 0;
	F.h[3].used_slots = 0;
	t0 = mono_ms();
	ck_assert_int_eq(run(), 2);
	ck_assert_msg(mono_ms() - t0 < 200, "pass took %llu ms",
	    (unsigned long long)(mono_ms() - t0));
	ck_assert_int_eq(host_of(&F.jobs[0]), 1);
	ck_assert_int_eq(host_of(&F.jobs[1]), 3);
	assert_reason(&F.jobs[2], PEND_NO_HOST, HR_FULL, 4, -1);
	ck_assert_int_eq(policy_job_reason(&F.c, &F.jobs[3], &counts),
	    PEND_NO_HOST);
	ck_assert_ptr_eq(counts, F.q[0].cut_counts);
	assert_reason(&F.jobs[70000], PEND_NO_HOST, HR_FULL, 4, -1);
	apply();
	ck_assert_ptr_eq(F.q[0].head, &F.jobs[2]);

	/* Non-plain jobs behind a full queue are cut too. */
	F.jobs[5].num_procs = 2;
	F.jobs[6].exclusive = true;
	ck_assert_int_eq(run(), 0);
	assert_reason(&F.jobs[5], PEND_NO_HOST, HR_FULL, 4, -1);
	assert_reason(&F.jobs[6], PEND_NO_HOST, HR_FULL, 4, -1);
}
END_TEST

/* Many identical jobs that cannot run, and many different ones. */
START_TEST(test_shape_cache)
{
	const struct resreq *huge;
	struct pol_job *p[4];
	int np = 0;

	fx_init(3, 1);
	for (int i = 0; i < 3; i++)
		F.h[i].max_slots = 2;
	for (int i = 0; i < 3; i++)
		F.load[i][LI_MEM] = 4000;
	huge = rr("select[mem>5000]");
	reserve_jobs(400);
	for (int i = 0; i < 200; i++) {
		struct pol_job *j = job(0);

		if (i % 50 == 25) {
			p[np++] = j;	/* plain, fits */
			continue;
		}
		j->rr = huge;
		j->num_procs = 1 + i % 2;
	}
	ck_assert_int_eq(run(), np);
	for (int i = 0; i < np; i++)
		ck_assert_ptr_nonnull(decided(p[i]));
	for (int i = 0; i < 200; i++) {
		if (i % 50 == 25)
			continue;
		assert_reason(&F.jobs[i], PEND_NO_HOST, HR_RESREQ, 3, -1);
	}

	/* 80 shapes (more than the cache holds), all too big to fit, then
	 * the same 80 again, then one that fits. */
	fx_free();
	fx_init(3, 1);
	for (int i = 0; i < 3; i++)
		F.h[i].max_slots = 2;
	reserve_jobs(200);
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 80; i++)
			job(0)->num_procs = 7 + i;
	job(0)->num_procs = 6;
	job(0)->num_procs = 1;
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_nonnull(decided(&F.jobs[160]));
	ck_assert_int_eq(slots_on(decided(&F.jobs[160]), 0), 2);
	ck_assert_int_eq(slots_on(decided(&F.jobs[160]), 2), 2);
	for (int i = 0; i < 160; i++)
		assert_reason(&F.jobs[i], PEND_NO_HOST, HR_NOT_ENOUGH, 3, -1);
	/* The last plain job found the queue full. */
	assert_reason(&F.jobs[161], PEND_NO_HOST, HR_FULL, 3, -1);

	/* Same requirement, different slot counts: not the same shape. */
	fx_free();
	fx_init(2, 1);
	huge = rr("select[mem>1000]");
	reserve_jobs(10);
	{
		struct pol_job *a = job(0), *b = job(0), *c = job(0);

		a->rr = huge;
		a->num_procs = 9;
		b->rr = huge;
		b->num_procs = 2;
		c->rr = huge;
		c->num_procs = 9;
		ck_assert_int_eq(run(), 1);
		ck_assert_ptr_nonnull(decided(b));
		assert_reason(a, PEND_NO_HOST, HR_NOT_ENOUGH, 2, -1);
		assert_reason(c, PEND_NO_HOST, HR_NOT_ENOUGH, 2, -1);
	}
}
END_TEST

START_TEST(test_sort_queues)
{
	static const int prio[] = { 10, 50, 10, 30, 50, 30 };
	static const int want[] = { 1, 4, 3, 5, 0, 2 };
	static const int perms[][6] = {
		{ 0, 1, 2, 3, 4, 5 }, { 5, 4, 3, 2, 1, 0 },
		{ 2, 0, 4, 1, 5, 3 }, { 3, 5, 1, 0, 2, 4 },
	};

	fx_init(0, 6);
	for (int i = 0; i < 6; i++)
		F.q[i].priority = prio[i];
	for (size_t p = 0; p < ARRAY_SIZE(perms); p++) {
		for (int i = 0; i < 6; i++)
			F.qp[i] = &F.q[perms[p][i]];
		policy_sort_queues(F.qp, 6);
		for (int i = 0; i < 6; i++)
			ck_assert_msg(F.qp[i] == &F.q[want[i]], "perm %zu: "
			    "position %d is %s, want q%d", p, i,
			    F.qp[i]->name, want[i]);
	}
	policy_sort_queues(F.qp, 0);
	policy_sort_queues(F.qp, 1);
	ck_assert_ptr_eq(F.qp[0], &F.q[1]);
}
END_TEST

static void
assert_list(const struct pol_queue *q, struct pol_job *const *want, int n)
{
	const struct pol_job *j = q->head, *prev = NULL;

	for (int i = 0; i < n; i++) {
		ck_assert_ptr_eq(j, want[i]);
		ck_assert_ptr_eq(j->prev, prev);
		ck_assert_ptr_eq(j->queue, q);
		prev = j;
		j = j->next;
	}
	ck_assert_ptr_null(j);
	ck_assert_ptr_eq(q->tail, n ? want[n - 1] : NULL);
	if (n == 0)
		ck_assert_ptr_null(q->head);
}

START_TEST(test_pending_list)
{
	struct pol_job *a, *b, *c, *d, *e;
	struct pol_job lone;

	fx_init(1, 2);
	a = job(0);
	b = job(0);
	c = job(0);
	d = job(0);
	e = job(0);
	assert_list(&F.q[0], (struct pol_job *[]){ a, b, c, d, e }, 5);
	policy_job_remove(a);		/* head */
	ck_assert_ptr_null(a->next);
	ck_assert_ptr_null(a->prev);
	assert_list(&F.q[0], (struct pol_job *[]){ b, c, d, e }, 4);
	policy_job_remove(c);		/* middle */
	assert_list(&F.q[0], (struct pol_job *[]){ b, d, e }, 3);
	policy_job_remove(e);		/* tail */
	assert_list(&F.q[0], (struct pol_job *[]){ b, d }, 2);
	/* Removing one that is not listed changes nothing. */
	policy_job_remove(e);
	policy_job_remove(a);
	assert_list(&F.q[0], (struct pol_job *[]){ b, d }, 2);
	policy_job_append(&F.q[0], a);	/* back at the tail */
	assert_list(&F.q[0], (struct pol_job *[]){ b, d, a }, 3);
	policy_job_remove(d);
	policy_job_remove(b);
	assert_list(&F.q[0], (struct pol_job *[]){ a }, 1);
	policy_job_remove(a);		/* the only one */
	assert_list(&F.q[0], NULL, 0);
	/* Moved to another queue. */
	policy_job_append(&F.q[1], c);
	policy_job_append(&F.q[1], e);
	assert_list(&F.q[1], (struct pol_job *[]){ c, e }, 2);
	assert_list(&F.q[0], NULL, 0);
	/* A job in no queue. */
	memset(&lone, 0, sizeof(lone));
	policy_job_remove(&lone);
	/* Removed jobs are not scheduled. */
	ck_assert_int_eq(run(), 2);
	ck_assert_ptr_nonnull(decided(c));
	ck_assert_ptr_nonnull(decided(e));
}
END_TEST

START_TEST(test_reason_before_pass)
{
	const uint32_t *counts = (const uint32_t *)1;
	struct pol_job *j;

	fx_init(1, 1);
	j = job(0);
	ck_assert_int_eq(policy_job_reason(&F.c, j, &counts), PEND_NEW_JOB);
	ck_assert_ptr_null(counts);
	/* No hosts at all. */
	fx_free();
	fx_init(0, 1);
	j = job(0);
	ck_assert_int_eq(run(), 0);
	ck_assert_int_eq(policy_job_reason(&F.c, j, &counts), PEND_NO_HOST);
	/* A job added after the pass that cut its queue shares the cut. */
	fx_free();
	fx_init(1, 1);
	F.h[0].max_slots = 0;
	job(0);
	ck_assert_int_eq(run(), 0);
	j = job(0);
	assert_reason(j, PEND_NO_HOST, HR_FULL, 1, -1);
}
END_TEST

/*
 * Property test: random clusters, several passes each, with the
 * invariants of every pass checked against the cluster's state.
 */
static uint64_t rng_state;

static uint64_t
rng(void)
{
	uint64_t x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545f4914f6cdd1dull;
}

static int
rnd(int n)
{
	return n > 0 ? (int)(rng() % (uint64_t)n) : 0;
}

static bool
chance(int pct)
{
	return rnd(100) < pct;
}

/* Can host h serve queue q at all (its static conditions)? */
static bool
queue_can_use(const struct pol_queue *q, const struct pol_host *h)
{
	return (q->host_ok == NULL || q->host_ok[h->index]) && h->usable &&
	    !h->exclusive && policy_over_sched(h->thr, h->rr.load) < 0 &&
	    policy_over_sched(q->thr, h->rr.load) < 0 &&
	    (q->rr == NULL || resreq_select(q->rr, &h->rr));
}

static bool
recent(const struct pol_queue *q, const struct pol_host *h)
{
	return q->accept_interval > 0 && h->last_dispatch > 0 &&
	    F.c.now - h->last_dispatch < q->accept_interval;
}

static int
queue_rank(const struct pol_queue *q)
{
	for (int i = 0; i < F.c.nqueues; i++)
		if (F.c.queues[i] == q)
			return i;
	ck_abort_msg("queue not in the cluster");
	return -1;
}

static bool
is_plain(const struct pol_job *j)
{
	return j->rr == NULL && j->asked == NULL && !j->exclusive &&
	    j->num_procs <= 1;
}

static void
check_pass(int pass_no)
{
	int nh = F.c.nhosts;
	int taken[MAXH] = { 0 };
	bool by_interval[MAXH] = { false };
	bool excl[MAXH] = { false };
	int nused[MAXH] = { 0 };
	char *seen = xcalloc((size_t)F.njobs, 1);

	for (int i = 0; i < F.nd; i++) {
		const struct pol_decision *d = &F.d[i];
		const struct pol_job *j = d->job;
		const struct pol_queue *q = j->queue;
		int need = j->num_procs > 0 ? j->num_procs : 1;
		int first = d->slots[0];

		ck_assert_msg(j >= F.jobs && j < F.jobs + F.njobs,
		    "pass %d: decision for an unknown job", pass_no);
		ck_assert_msg(!seen[j - F.jobs], "pass %d: job %td decided "
		    "twice", pass_no, j - F.jobs);
		seen[j - F.jobs] = 1;
		ck_assert(q->active);
		ck_assert(!j->held);
		for (int k = 0; k < need; k++) {
			int hi = d->slots[k];
			const struct pol_host *h;

			ck_assert_msg(hi >= 0 && hi < nh, "pass %d: slot on "
			    "host %d", pass_no, hi);
			h = &F.h[hi];
			ck_assert_msg(queue_can_use(q, h), "pass %d: job %td "
			    "on host%02d, which %s cannot use", pass_no,
			    j - F.jobs, hi, q->name);
			ck_assert(j->rr == NULL || resreq_select(j->rr,
			    &h->rr));
			if (j->asked) {
				bool in = false;

				for (int a = 0; a < j->nasked; a++)
					in |= j->asked[a] == hi;
				ck_assert_msg(in, "pass %d: job %td on "
				    "host%02d, not asked for", pass_no,
				    j - F.jobs, hi);
			}
			if (j->rr && j->rr->span_hosts == 1)
				ck_assert_int_eq(hi, first);
			/* Nothing lands on a host an exclusive job took,
			 * or after an interval queue's job in this pass. */
			ck_assert_msg(!excl[hi], "pass %d: job %td shares "
			    "host%02d with an exclusive job", pass_no,
			    j - F.jobs, hi);
			ck_assert_msg(!by_interval[hi], "pass %d: job %td on "
			    "host%02d after an accept-interval job",
			    pass_no, j - F.jobs, hi);
			ck_assert(!recent(q, h));
			taken[hi]++;
			nused[hi]++;
		}
		for (int k = 0; k < need; k++) {
			int hi = d->slots[k];

			if (j->exclusive) {
				/* The host was empty before this job. */
				ck_assert_int_eq(F.h[hi].used_slots, 0);
				ck_assert_int_eq(taken[hi], slots_on(d, hi));
				excl[hi] = true;
			}
			if (q->accept_interval > 0)
				by_interval[hi] = true;
		}
	}
	/* MXJ. */
	for (int i = 0; i < nh; i++)
		if (F.h[i].max_slots >= 0)
			ck_assert_msg(F.h[i].used_slots + taken[i] <=
			    F.h[i].max_slots, "pass %d: host%02d has %d + %d "
			    "slots, MXJ %d", pass_no, i, F.h[i].used_slots,
			    taken[i], F.h[i].max_slots);
	/* Every job left waiting has a reason, with every host counted. */
	for (int i = 0; i < F.njobs; i++) {
		const struct pol_job *j = &F.jobs[i];
		const uint32_t *counts;
		int r;
		uint32_t sum = 0;

		if (seen[i] || j->queue == NULL || j->held ||
		    (j->prev == NULL && j->queue->head != j))
			continue;
		r = policy_job_reason(&F.c, j, &counts);
		if (!j->queue->active) {
			ck_assert_int_eq(r, j->queue->inactive_reason);
			continue;
		}
		ck_assert_msg(r == PEND_NO_HOST, "pass %d: job %d waits "
		    "with reason %d", pass_no, i, r);
		for (int k = 0; k < HR_NREASONS; k++)
			sum += counts[k];
		ck_assert_msg(counts[HR_NONE] == 0 && sum == (uint32_t)nh,
		    "pass %d: job %d: %u host reasons for %d hosts",
		    pass_no, i, sum, nh);
	}
	/* A plain job of a queue ahead waits only if none of the hosts
	 * later queues got was any good to it. */
	for (int i = 0; i < F.njobs; i++) {
		const struct pol_job *j = &F.jobs[i];

		if (seen[i] || j->queue == NULL || j->held || !is_plain(j) ||
		    !j->queue->active ||
		    (j->prev == NULL && j->queue->head != j))
			continue;
		for (int k = 0; k < F.nd; k++) {
			const struct pol_decision *d = &F.d[k];
			int need = d->job->num_procs > 0 ?
			    d->job->num_procs : 1;

			if (queue_rank(d->job->queue) <= queue_rank(j->queue))
				continue;
			for (int s = 0; s < need; s++) {
				const struct pol_host *h = &F.h[d->slots[s]];

				if (by_interval[h->index] ||
				    recent(j->queue, h))
					continue;
				ck_assert_msg(!queue_can_use(j->queue, h),
				    "pass %d: job %d of %s (priority %d) "
				    "waits while job %td of %s (priority %d) "
				    "got host%02d", pass_no, i,
				    j->queue->name, j->queue->priority,
				    d->job - F.jobs, d->job->queue->name,
				    d->job->queue->priority, h->index);
			}
		}
	}
	free(seen);
}

START_TEST(test_property)
{
	static const char *reqs[] = {
		"select[mem>2000]", "order[-mem]", "select[r1m<1.0] order[mem]",
		"span[hosts=1]", "select[mem>6000] span[hosts=1]",
		"order[r1m:-pg]", "select[type==X86_64]",
	};
	int asked_store[64][MAXH];
	int passes = 0, decisions = 0;

	rng_state = 0x0123456789abcdefull + (uint64_t)_i * 7919u;
	for (int round = 0; round < 40; round++) {
		int nh = 1 + rnd(12), nq = 1 + rnd(4), nasked = 0;
		const struct resreq *parsed[ARRAY_SIZE(reqs)];

		fx_free();
		fx_init(nh, nq);
		for (size_t k = 0; k < ARRAY_SIZE(reqs); k++)
			parsed[k] = rr(reqs[k]);
		for (int i = 0; i < nh; i++) {
			struct pol_host *h = &F.h[i];

			h->usable = chance(90);
			if (!h->usable && chance(50))
				h->unusable_reason = HR_CLOSED_ADM;
			h->max_slots = chance(10) ? -1 : rnd(5);
			h->used_slots = h->max_slots > 0 ?
			    rnd(h->max_slots + 1) : chance(20) ? rnd(3) : 0;
			if (h->max_slots == 0)
				h->used_slots = 0;
			h->exclusive = h->used_slots > 0 && chance(5);
			F.load[i][LI_R15S] = (float)rnd(300) / 100.0f;
			F.load[i][LI_R1M] = (float)rnd(300) / 100.0f;
			F.load[i][LI_PG] = (float)rnd(20);
			F.load[i][LI_MEM] = (float)(500 + rnd(8000));
			if (chance(20)) {
				F.hthr[i].sched[LI_R1M] = 2.0f;
				F.hthr[i].sched[LI_MEM] = 1000;
				F.hthr[i].sched_set = 1u << LI_R1M |
				    1u << LI_MEM;
				h->thr = &F.hthr[i];
			}
			h->last_dispatch = chance(30) ? NOW - rnd(100) : 0;
		}
		for (int qi = 0; qi < nq; qi++) {
			struct pol_queue *q = &F.q[qi];

			q->priority = 10 * (1 + rnd(3));
			q->active = chance(90);
			q->inactive_reason = PEND_QUEUE_INACT;
			if (chance(30)) {
				for (int i = 0; i < nh; i++)
					F.host_ok[qi][i] = chance(60);
				q->host_ok = F.host_ok[qi];
			}
			if (chance(20))
				q->rr = parsed[rnd(3)];
			if (chance(20)) {
				F.qthr[qi].sched[LI_R1M] = 1.5f;
				F.qthr[qi].sched_set = 1u << LI_R1M;
				q->thr = &F.qthr[qi];
			}
			if (chance(20))
				q->accept_interval = 30;
		}
		policy_sort_queues(F.qp, nq);
		for (int qi = 0; qi < nq; qi++) {
			int nj = rnd(30);

			for (int k = 0; k < nj; k++) {
				struct pol_job *j = job(qi);

				if (chance(30))
					j->num_procs = 2 + rnd(4);
				j->exclusive = chance(5);
				j->held = chance(5);
				if (chance(20))
					j->rr = parsed[rnd(
					    (int)ARRAY_SIZE(reqs))];
				if (chance(15) && nasked < 64) {
					int *a = asked_store[nasked++], n = 0;

					for (int i = 0; i < nh; i++)
						if (chance(40))
							a[n++] = i;
					if (n == 0)
						a[n++] = rnd(nh);
					j->asked = a;
					j->nasked = n;
				}
			}
		}
		for (int pass = 0; pass < 5; pass++) {
			run();
			check_pass(passes++);
			decisions += F.nd;
			apply();
			F.c.now += rnd(40);
			/* Some running jobs finish. */
			for (int i = 0; i < nh; i++)
				if (F.h[i].used_slots > 0 && chance(30)) {
					F.h[i].used_slots--;
					if (F.h[i].used_slots == 0)
						F.h[i].exclusive = false;
				}
		}
	}
	ck_assert_int_eq(passes, 200);
	/* Enough happened for the invariants to mean something. */
	ck_assert_int_gt(decisions, 200);
}
END_TEST

static Suite *
policy_suite(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = tcase_create("policy");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_fcfs);
	tcase_add_test(tc, test_fcfs_big_first);
	tcase_add_test(tc, test_queue_priority);
	tcase_add_test(tc, test_equal_priority_config_order);
	tcase_add_test(tc, test_mxj);
	tcase_add_test(tc, test_unlimited);
	tcase_add_test(tc, test_max_decisions);
	tcase_add_test(tc, test_over_sched);
	tcase_add_test(tc, test_thresholds);
	tcase_add_test(tc, test_unusable);
	tcase_add_test(tc, test_queue_hosts);
	tcase_add_test(tc, test_asked_hosts);
	tcase_add_test(tc, test_select);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_parallel_spread);
	tcase_add_test(tc, test_span_one_host);
	tcase_add_test(tc, test_exclusive);
	tcase_add_test(tc, test_exclusive_after_plain);
	tcase_add_test(tc, test_exclusive_parallel);
	tcase_add_test(tc, test_accept_interval);
	tcase_add_test(tc, test_held);
	tcase_add_test(tc, test_inactive_queue);
	tcase_add_test(tc, test_cut);
	tcase_add_test(tc, test_shape_cache);
	tcase_add_test(tc, test_sort_queues);
	tcase_add_test(tc, test_pending_list);
	tcase_add_test(tc, test_reason_before_pass);
	tcase_add_loop_test(tc, test_property, 0, 8);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(policy_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
