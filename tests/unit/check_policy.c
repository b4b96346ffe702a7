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
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "lsf.h"
#include "policy.h"
#include "resreq.h"
#include "util.h"

#include "polhost.h"

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
	struct pol_user		 u[4];
	struct pol_cap		 caps[8];
	struct pol_decision	 d[MAXD];
	int			 nd;
	struct pol_job		*jobs;
	int			 njobs;
	int			 cap;
} F;

static struct resreq rrs[16];
static int nrrs;

/* The per-host arrays of queues and users, sized to the hosts. */
static void
free_host_arrays(void)
{
	for (int i = 0; i < MAXQ; i++) {
		free(F.q[i].host_used);
		F.q[i].host_used = NULL;
	}
	for (int i = 0; i < (int)ARRAY_SIZE(F.u); i++) {
		free(F.u[i].host_used);
		free(F.u[i].host_taken);
		F.u[i].host_used = F.u[i].host_taken = NULL;
	}
}

static void
fx_init(int nh, int nq)
{
	free(F.jobs);
	free_host_arrays();
	memset(&F, 0, sizeof(F));
	for (int i = 0; i < nh; i++) {
		polhost_init(&F.h[i], i, F.name[i], sizeof(F.name[i]),
		    F.load[i], 4, 4);
		F.hp[i] = &F.h[i];
	}
	for (int i = 0; i < nq; i++) {
		struct pol_queue *q = &F.q[i];

		snprintf(F.qname[i], sizeof(F.qname[i]), "q%d", i);
		q->name = F.qname[i];
		q->priority = 10;
		q->order = i;
		q->active = true;
		/* Limits are off unless a test sets them (0 is a limit). */
		q->qcap.max = -1;
		q->hjob_limit = -1;
		q->pjob_limit = -1;
		q->host_used = xcalloc((size_t)nh + 1, sizeof(int));
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
	free_host_arrays();
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

/* A user for JL/U and JL/P, its arrays sized to the hosts. */
static struct pol_user *
user(int k)
{
	struct pol_user *u = &F.u[k];

	if (u->host_used == NULL) {
		u->host_used = xcalloc((size_t)F.c.nhosts + 1, sizeof(int));
		u->host_taken = xcalloc((size_t)F.c.nhosts + 1, sizeof(int));
		u->jl_p = -1;
	}
	return u;
}

static struct pol_cap *
cap(int k, int max, bool per_job, int reason)
{
	struct pol_cap *c = &F.caps[k];

	c->max = max;
	c->per_job = per_job;
	c->reason = reason;
	return c;
}

/* What mbatchd does with the decisions of a pass: slots used on hosts,
 * by the queue and the user per host, limits' used counts, and the job
 * off the pending list (an array's count down by one per element). */
static void
apply(void)
{
	for (int i = 0; i < F.nd; i++) {
		struct pol_decision *d = &F.d[i];
		struct pol_job *j = d->job;
		int need = j->num_procs > 0 ? j->num_procs : 1;

		for (int k = 0; k < need; k++) {
			int hi = d->slots[k];

			F.h[hi].used_slots++;
			F.h[hi].last_dispatch = F.c.now;
			if (j->exclusive)
				F.h[hi].exclusive = true;
			j->queue->host_used[hi]++;
			if (j->user)
				j->user->host_used[hi]++;
		}
		j->queue->qcap.used += need;
		for (int k = 0; k < POL_NCAPS; k++)
			if (j->caps[k])
				j->caps[k]->used += j->caps[k]->per_job ? 1 :
				    need;
		if (j->count > 1)
			j->count--;
		else
			policy_job_remove(j);
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

/* Thresholds on ELIM indices, by name, in the resource's direction. */
START_TEST(test_ext_thresholds)
{
	struct thresholds t;
	struct strv ext = STRV_INIT, wire = STRV_INIT;
	struct rr_host rh;
	float load[NLOADIDX] = { 0 };
	const char *why = NULL;

	thresholds_init(&t);
	/* nlic: fewer is busier (INCREASING N); scratch: more is busier. */
	ck_assert_int_eq(parse_threshold_ext("2/1", "nlic", 3, false, &t,
	    &why), 0);
	ck_assert_int_eq(parse_threshold_ext("/50", "hot", 4, true, &t,
	    &why), 0);
	ck_assert_int_eq(parse_threshold_ext("1/x", "bad", 5, true, &t,
	    &why), -1);
	ck_assert_str_eq(why, "not a number");
	ck_assert_int_eq(t.next, 2);
	memset(&rh, 0, sizeof(rh));
	rh.name = "h";
	rh.load = load;
	rh.ext = &ext;
	/* Not reported: never past. */
	ck_assert_int_eq(policy_over_ext(&t, &rh, false), -1);
	ck_assert_int_eq(policy_over_ext(&t, &rh, true), -1);
	strv_push(&ext, "nlic=2");
	strv_push(&ext, "hot=10");
	ck_assert_int_eq(policy_over_ext(&t, &rh, false), -1);	/* equal */
	ck_assert_int_eq(policy_over_ext(&t, &rh, true), -1);
	strv_release(&ext);
	strv_push(&ext, "nlic=1.5");
	strv_push(&ext, "hot=10");
	ck_assert_int_eq(policy_over_ext(&t, &rh, false), 0);
	ck_assert_int_eq(policy_over_ext(&t, &rh, true), -1);
	strv_release(&ext);
	strv_push(&ext, "nlic=1");
	strv_push(&ext, "hot=50");
	ck_assert_int_eq(policy_over_ext(&t, &rh, true), 0);	/* at 1 */
	strv_release(&ext);
	strv_push(&ext, "nlic=3");
	strv_push(&ext, "hot=50");
	ck_assert_int_eq(policy_over_ext(&t, &rh, true), 1);	/* hot no sched */
	ck_assert_int_eq(policy_over_ext(&t, &rh, false), -1);
	/* Through the wire and back. */
	thresholds_ext_to_strv(&t, &wire);
	{
		struct thresholds u;

		thresholds_init(&u);
		ck_assert_int_eq(thresholds_ext_from_strv(&wire, &u), 0);
		ck_assert_int_eq(u.next, 2);
		ck_assert_str_eq(u.ext[0].name, "nlic");
		ck_assert_int_eq(u.ext[0].res, 3);
		ck_assert(!u.ext[0].increasing && u.ext[0].sched_set &&
		    u.ext[0].stop_set);
		ck_assert_float_eq(u.ext[0].sched, 2.0f);
		ck_assert_float_eq(u.ext[1].stop, 50.0f);
		ck_assert(!u.ext[1].sched_set);
		strv_push(&wire, "junk");
		ck_assert_int_eq(thresholds_ext_from_strv(&wire, &u), -1);
	}
	strv_release(&wire);
	strv_release(&ext);
}
END_TEST

/* Thresholds see run queue lengths per CPU (lsload -E). */
START_TEST(test_effective_load)
{
	float load[NLOADIDX], eff[NLOADIDX];
	struct thresholds t;

	memset(load, 0, sizeof(load));
	load[LI_R15S] = 2.0f;
	load[LI_R1M] = 3.0f;
	load[LI_R15M] = 1.0f;
	load[LI_UT] = 0.5f;
	load[LI_PG] = 8.0f;
	load[LI_IT] = 3.0f;
	load[LI_MEM] = 1000.0f;
	policy_effective_load(load, 4, eff);
	ck_assert_float_eq(eff[LI_R15S], 0.5f);
	ck_assert_float_eq(eff[LI_R1M], 0.75f);
	ck_assert_float_eq(eff[LI_R15M], 0.25f);
	/* Not run queues: unchanged, decreasing indices included. */
	ck_assert_float_eq(eff[LI_UT], 0.5f);
	ck_assert_float_eq(eff[LI_PG], 8.0f);
	ck_assert_float_eq(eff[LI_IT], 3.0f);
	ck_assert_float_eq(eff[LI_MEM], 1000.0f);
	/* No CPU count known: one CPU. */
	policy_effective_load(load, 0, eff);
	ck_assert_float_eq(eff[LI_R1M], 3.0f);
	/* Unknown stays unknown (and over every threshold). */
	load[LI_R1M] = INFINIT_LOAD;
	policy_effective_load(load, 4, eff);
	ck_assert(eff[LI_R1M] >= INFINIT_LOAD);

	/* r1m 3.0 is within 1.0 on 4 CPUs (0.75), not on 1 CPU. */
	memset(&t, 0, sizeof(t));
	t.sched[LI_R1M] = 1.0f;
	t.sched_set = 1u << LI_R1M;
	load[LI_R1M] = 3.0f;
	ck_assert_int_eq(policy_over_sched_host(&t, load, 4), -1);
	ck_assert_int_eq(policy_over_sched_host(&t, load, 1), LI_R1M);
	ck_assert_int_eq(policy_over_sched_host(&t, load, 2), LI_R1M);
	load[LI_R1M] = 4.0f;		/* 1.0 per CPU: at it is within */
	ck_assert_int_eq(policy_over_sched_host(&t, load, 4), -1);
	load[LI_R1M] = 4.1f;
	ck_assert_int_eq(policy_over_sched_host(&t, load, 4), LI_R1M);
	load[LI_R1M] = INFINIT_LOAD;
	ck_assert_int_eq(policy_over_sched_host(&t, load, 4), LI_R1M);
	/* A decreasing index is not scaled by the CPUs. */
	memset(&t, 0, sizeof(t));
	t.sched[LI_MEM] = 500.0f;
	t.sched_set = 1u << LI_MEM;
	load[LI_MEM] = 400.0f;
	ck_assert_int_eq(policy_over_sched_host(&t, load, 4), LI_MEM);
	load[LI_MEM] = 600.0f;
	ck_assert_int_eq(policy_over_sched_host(&t, load, 4), -1);
	ck_assert_int_eq(policy_over_sched_host(NULL, load, 4), -1);
}
END_TEST

/* Dispatch: a 4-CPU host with r1m 3.0 is within a 1.0 threshold of host
 * or queue, a 1-CPU host with the same load is not. */
START_TEST(test_thresholds_per_cpu)
{
	struct pol_job *j0, *j1, *j2;

	fx_init(2, 1);
	F.h[0].rr.ncpus = 1;
	F.h[1].rr.ncpus = 4;
	F.h[0].max_slots = F.h[1].max_slots = 1;
	for (int i = 0; i < 2; i++) {
		F.load[i][LI_R1M] = 3.0f;
		F.hthr[i].sched[LI_R1M] = 1.0f;
		F.hthr[i].sched_set = 1u << LI_R1M;
		F.h[i].thr = &F.hthr[i];
	}
	j0 = job(0);
	j1 = job(0);
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(j0), 1);
	assert_reason(j1, PEND_NO_HOST, HR_LOAD_SCHED, 1, HR_FULL, 1, -1);

	/* The same through the queue's threshold. */
	fx_init(2, 1);
	F.h[0].rr.ncpus = 1;
	F.h[1].rr.ncpus = 4;
	F.load[0][LI_R1M] = F.load[1][LI_R1M] = 3.0f;
	F.load[0][LI_R15S] = 0.0f;	/* host00 would be preferred */
	F.qthr[0].sched[LI_R1M] = 1.0f;
	F.qthr[0].sched_set = 1u << LI_R1M;
	F.q[0].thr = &F.qthr[0];
	F.h[1].max_slots = 1;
	j0 = job(0);
	j2 = job(0);
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(j0), 1);
	assert_reason(j2, PEND_NO_HOST, HR_QUEUE_LOAD, 1, HR_FULL, 1, -1);
}
END_TEST

/* bjobs -l: queue and host thresholds together, the stricter wins. */
START_TEST(test_thresholds_merge)
{
	struct thresholds q, h;

	memset(&q, 0, sizeof(q));
	memset(&h, 0, sizeof(h));
	q.sched[LI_R1M] = 0.25f;
	q.stop[LI_R1M] = 1.75f;
	q.stop[LI_PG] = 15.0f;
	q.sched[LI_MEM] = 100.0f;
	q.sched_set = 1u << LI_R1M | 1u << LI_MEM;
	q.stop_set = 1u << LI_R1M | 1u << LI_PG;
	h.sched[LI_R1M] = 0.5f;
	h.stop[LI_R1M] = 1.5f;
	h.sched[LI_MEM] = 300.0f;
	h.stop[LI_MEM] = 50.0f;
	h.sched[LI_UT] = 0.8f;
	h.sched_set = 1u << LI_R1M | 1u << LI_MEM | 1u << LI_UT;
	h.stop_set = 1u << LI_R1M | 1u << LI_MEM;
	policy_thresholds_merge(&q, &h);
	/* Increasing: the lower; decreasing: the higher. */
	ck_assert_float_eq(q.sched[LI_R1M], 0.25f);
	ck_assert_float_eq(q.stop[LI_R1M], 1.5f);
	ck_assert_float_eq(q.sched[LI_MEM], 300.0f);
	/* Set on one side only: that value. */
	ck_assert_float_eq(q.stop[LI_MEM], 50.0f);
	ck_assert_float_eq(q.stop[LI_PG], 15.0f);
	ck_assert_float_eq(q.sched[LI_UT], 0.8f);
	ck_assert_uint_eq(q.sched_set,
	    1u << LI_R1M | 1u << LI_MEM | 1u << LI_UT);
	ck_assert_uint_eq(q.stop_set,
	    1u << LI_R1M | 1u << LI_MEM | 1u << LI_PG);
	/* Nothing to merge: unchanged. */
	policy_thresholds_merge(&q, NULL);
	ck_assert_float_eq(q.sched[LI_R1M], 0.25f);
}
END_TEST

START_TEST(test_thresholds)
{
	struct pol_job *j0, *j1, *big;

	fx_init(4, 1);
	/* One CPU each: the run queue lengths are compared as they are. */
	for (int i = 0; i < 4; i++)
		F.h[i].rr.ncpus = 1;
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
	/* Host indices, then as many "+N" levels (none here). */
	static const int only2[] = { 2, 0 };
	static const int also2[] = { 2, 0 };
	static const int first_two[] = { 0, 1, 0, 0 };
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

/* REQUEUE_EXIT_VALUES EXCLUDE: a job never goes back to a host it was
 * excluded from, even the best one; excluded everywhere, it pends with
 * that reason on each host. */
START_TEST(test_excluded_hosts)
{
	static int ex0[] = { 0 };
	static int ex_all[] = { 0, 1, 2 };
	struct pol_job *j0, *j1;

	fx_init(3, 1);
	for (int i = 0; i < 3; i++)
		F.h[i].max_slots = 1;
	j0 = job(0);
	j0->excl = ex0;
	j0->nexcl = 1;
	j1 = job(0);
	j1->excl = ex_all;
	j1->nexcl = 3;
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(j0), 1);	/* host00 is the best */
	ck_assert_ptr_null(decided(j1));
	assert_reason(j1, PEND_NO_HOST, HR_EXIT_EXCLUDED, 3, -1);
}
END_TEST

/* -m "host02+2 host00 host01+1": the highest level with room first,
 * whatever the order of the hosts by load. */
START_TEST(test_asked_pref)
{
	static const int pref[] = { 2, 0, 1, 2, 0, 1 };
	struct pol_job *j[5];

	fx_init(3, 1);
	for (int i = 0; i < 3; i++)
		F.h[i].max_slots = 2;
	for (int i = 0; i < 5; i++) {
		j[i] = job(0);
		j[i]->asked = pref;
		j[i]->nasked = 3;
	}
	ck_assert_int_eq(run(), 5);
	ck_assert_int_eq(host_of(j[0]), 2);
	ck_assert_int_eq(host_of(j[1]), 2);
	ck_assert_int_eq(host_of(j[2]), 1);
	ck_assert_int_eq(host_of(j[3]), 1);
	ck_assert_int_eq(host_of(j[4]), 0);
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

/* The reason of j as policy_job_reason gives it, counts ignored. */
static int
reason_of(const struct pol_job *j)
{
	const uint32_t *counts;

	return policy_job_reason(&F.c, j, &counts);
}

/* An array parent: one decision per element, each its own start. */
START_TEST(test_array_count)
{
	struct pol_job *a, *p, *b;

	fx_init(2, 1);
	F.h[0].max_slots = F.h[1].max_slots = 2;
	a = job(0);
	a->count = 3;
	p = job(0);
	ck_assert_int_eq(run(), 4);
	for (int i = 0; i < 3; i++) {
		ck_assert_ptr_eq(F.d[i].job, a);
		for (int k = 0; k < i; k++)
			ck_assert_ptr_ne(F.d[i].slots, F.d[k].slots);
	}
	ck_assert_int_eq(F.d[0].slots[0], 0);
	ck_assert_int_eq(F.d[1].slots[0], 0);
	ck_assert_int_eq(F.d[2].slots[0], 1);
	ck_assert_ptr_eq(F.d[3].job, p);
	ck_assert_int_eq(F.d[3].slots[0], 1);
	assert_reason(a, PEND_NONE, -1);
	apply();
	ck_assert_ptr_null(F.q[0].head);

	/* More elements than slots: as many as fit, the rest wait. */
	F.h[0].used_slots = F.h[1].used_slots = 0;
	a = job(0);
	a->count = 10;
	b = job(0);
	ck_assert_int_eq(run(), 4);
	for (int i = 0; i < 4; i++)
		ck_assert_ptr_eq(F.d[i].job, a);
	ck_assert_ptr_null(decided(b));
	assert_reason(a, PEND_NO_HOST, HR_FULL, 2, -1);
	assert_reason(b, PEND_NO_HOST, HR_FULL, 2, -1);
	apply();
	ck_assert_int_eq(a->count, 6);
	ck_assert_ptr_eq(F.q[0].head, a);
	ck_assert_int_eq(run(), 0);
	assert_reason(a, PEND_NO_HOST, HR_FULL, 2, -1);
	F.h[1].used_slots = 0;
	ck_assert_int_eq(run(), 2);
	ck_assert_ptr_eq(F.d[0].job, a);
	ck_assert_ptr_eq(F.d[1].job, a);
	ck_assert_int_eq(F.d[0].slots[0], 1);
	ck_assert_int_eq(F.d[1].slots[0], 1);
	apply();
	ck_assert_int_eq(a->count, 4);

	/* Elements of two slots on one host each. */
	fx_free();
	fx_init(2, 1);
	F.h[0].max_slots = F.h[1].max_slots = 3;
	a = job(0);
	a->count = 4;
	a->num_procs = 2;
	a->rr = rr("span[hosts=1]");
	ck_assert_int_eq(run(), 2);
	ck_assert_ptr_eq(F.d[0].job, a);
	ck_assert_ptr_eq(F.d[1].job, a);
	ck_assert_int_eq(slots_on(&F.d[0], 0), 2);
	ck_assert_int_eq(slots_on(&F.d[1], 1), 2);
	assert_reason(a, PEND_NO_HOST, HR_NOT_ENOUGH, 2, -1);
}
END_TEST

/* An array's %N: a cap counting elements, kept across passes. */
START_TEST(test_array_limit)
{
	struct pol_job *a, *p;
	struct pol_cap *k;

	fx_init(2, 1);			/* 8 slots */
	k = cap(0, 2, true, PEND_ARRAY_LIMIT);
	a = job(0);
	a->count = 5;
	a->caps[0] = k;
	p = job(0);
	ck_assert_int_eq(run(), 3);
	ck_assert_ptr_eq(F.d[0].job, a);
	ck_assert_ptr_eq(F.d[1].job, a);
	ck_assert_ptr_eq(F.d[2].job, p);
	assert_reason(a, PEND_ARRAY_LIMIT, -1);
	apply();
	ck_assert_int_eq(k->used, 2);
	ck_assert_int_eq(a->count, 3);
	ck_assert_int_eq(run(), 0);
	assert_reason(a, PEND_ARRAY_LIMIT, -1);
	/* One element ends: one more starts. */
	k->used = 1;
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_eq(F.d[0].job, a);
	assert_reason(a, PEND_ARRAY_LIMIT, -1);
	apply();
	ck_assert_int_eq(k->used, 2);
	ck_assert_int_eq(a->count, 2);

	/* Elements of two slots: %N counts elements, not slots. */
	fx_free();
	fx_init(2, 1);
	k = cap(0, 2, true, PEND_ARRAY_LIMIT);
	a = job(0);
	a->count = 4;
	a->num_procs = 2;
	a->caps[0] = k;
	ck_assert_int_eq(run(), 2);
	/* The same cap counting slots lets one through. */
	k->per_job = false;
	ck_assert_int_eq(run(), 1);
	assert_reason(a, PEND_ARRAY_LIMIT, -1);
	/* -1: no limit. */
	k->max = -1;
	ck_assert_int_eq(run(), 4);
	assert_reason(a, PEND_NONE, -1);
}
END_TEST

/* A slot cap shared by several jobs (a user's MAX_JOBS). */
START_TEST(test_shared_cap)
{
	struct pol_job *a, *b, *c, *d, *e, *f, *g;
	struct pol_cap *k;

	fx_init(3, 1);			/* 12 slots */
	k = cap(2, 5, false, PEND_USER_LIMIT);
	a = job(0);
	a->num_procs = 2;
	a->caps[POL_NCAPS - 1] = k;
	b = job(0);
	b->num_procs = 2;
	b->caps[0] = k;
	c = job(0);
	c->num_procs = 2;
	c->caps[1] = k;
	d = job(0);
	d->caps[0] = k;
	e = job(0);
	e->caps[3] = k;
	f = job(0);			/* not under the cap */
	ck_assert_int_eq(run(), 4);
	ck_assert_ptr_nonnull(decided(a));
	ck_assert_ptr_nonnull(decided(b));
	ck_assert_ptr_nonnull(decided(d));
	ck_assert_ptr_nonnull(decided(f));
	/* 2 + 2 + 2 > 5, but a one-slot job still fits. */
	assert_reason(c, PEND_USER_LIMIT, -1);
	assert_reason(e, PEND_USER_LIMIT, -1);
	apply();
	ck_assert_int_eq(k->used, 5);
	/* Across passes they stop together; others go on. */
	g = job(0);
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_nonnull(decided(g));
	assert_reason(c, PEND_USER_LIMIT, -1);
	assert_reason(e, PEND_USER_LIMIT, -1);
	apply();
	k->max = -1;
	ck_assert_int_eq(run(), 2);
	ck_assert_ptr_nonnull(decided(c));
	ck_assert_ptr_nonnull(decided(e));
}
END_TEST

/* QJOB_LIMIT: the queue stops, others go on. */
START_TEST(test_queue_job_limit)
{
	struct pol_job *j0, *j1, *big, *j3, *j4, *j5, *o0, *o1, *o2;
	const uint32_t *counts;

	fx_init(2, 2);
	F.h[0].max_slots = F.h[1].max_slots = 8;
	F.q[0].priority = 20;
	F.q[0].qcap.max = 3;
	F.q[0].qcap.reason = PEND_QUEUE_JOB_LIMIT;
	policy_sort_queues(F.qp, 2);
	j0 = job(0);
	j1 = job(0);
	big = job(0);
	big->num_procs = 2;
	j3 = job(0);
	j4 = job(0);
	j5 = job(0);
	j5->num_procs = 2;
	o0 = job(1);
	o1 = job(1);
	ck_assert_int_eq(run(), 5);
	ck_assert_ptr_nonnull(decided(j0));
	ck_assert_ptr_nonnull(decided(j1));
	ck_assert_ptr_nonnull(decided(j3));
	ck_assert_ptr_nonnull(decided(o0));
	ck_assert_ptr_nonnull(decided(o1));
	/* Two slots do not fit in the one left; one does. */
	assert_reason(big, PEND_QUEUE_JOB_LIMIT, -1);
	/* Then the queue is full: the rest is cut with its reason. */
	assert_reason(j4, PEND_QUEUE_JOB_LIMIT, -1);
	assert_reason(j5, PEND_QUEUE_JOB_LIMIT, -1);
	ck_assert_int_eq(policy_job_reason(&F.c, j5, &counts),
	    PEND_QUEUE_JOB_LIMIT);
	ck_assert_ptr_eq(counts, F.q[0].cut_counts);
	apply();
	ck_assert_int_eq(F.q[0].qcap.used, 3);
	/* Next pass: the queue's limit holds, the other queue runs. */
	o2 = job(1);
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_nonnull(decided(o2));
	assert_reason(big, PEND_QUEUE_JOB_LIMIT, -1);
	assert_reason(j5, PEND_QUEUE_JOB_LIMIT, -1);
	apply();
	/* A slot of the queue frees: the next one-slot job takes it. */
	F.q[0].qcap.used = 2;
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_nonnull(decided(j4));
	assert_reason(big, PEND_QUEUE_JOB_LIMIT, -1);
	assert_reason(j5, PEND_QUEUE_JOB_LIMIT, -1);
	/* No limit. */
	F.q[0].qcap.max = -1;
	ck_assert_int_eq(run(), 3);
}
END_TEST

/* HJOB_LIMIT and PJOB_LIMIT: the queue's slots per host. */
START_TEST(test_queue_host_limits)
{
	struct pol_job *j[5], *o;

	fx_init(2, 2);
	F.h[0].max_slots = F.h[1].max_slots = 8;
	F.q[0].priority = 20;
	policy_sort_queues(F.qp, 2);
	F.q[0].hjob_limit = 2;
	F.q[0].host_used[0] = 1;	/* one of q0's slots runs there */
	F.h[0].used_slots = 1;
	for (int i = 0; i < 4; i++)
		j[i] = job(0);
	o = job(1);
	ck_assert_int_eq(run(), 4);
	ck_assert_int_eq(host_of(j[0]), 0);
	ck_assert_int_eq(host_of(j[1]), 1);
	ck_assert_int_eq(host_of(j[2]), 1);
	assert_reason(j[3], PEND_NO_HOST, HR_QUEUE_HOST_LIMIT, 2, -1);
	/* Another queue is not held by q0's limit. */
	ck_assert_int_eq(host_of(o), 0);
	apply();
	ck_assert_int_eq(F.q[0].host_used[0], 2);
	ck_assert_int_eq(F.q[0].host_used[1], 2);
	ck_assert_int_eq(run(), 0);
	assert_reason(j[3], PEND_NO_HOST, HR_QUEUE_HOST_LIMIT, 2, -1);
	/* A parallel job spreads to stay within it. */
	F.q[0].host_used[0] = 0;
	F.q[0].host_used[1] = 1;
	j[3]->num_procs = 3;
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(slots_on(decided(j[3]), 0), 2);
	ck_assert_int_eq(slots_on(decided(j[3]), 1), 1);

	/* PJOB_LIMIT 0.5: two slots on 4 CPUs, one on 2. */
	fx_free();
	fx_init(2, 1);
	F.h[0].max_slots = F.h[1].max_slots = 8;
	F.h[1].rr.ncpus = 2;
	F.q[0].pjob_limit = 0.5f;
	for (int i = 0; i < 5; i++)
		j[i] = job(0);
	ck_assert_int_eq(run(), 3);
	ck_assert_int_eq(host_of(j[0]), 0);
	ck_assert_int_eq(host_of(j[1]), 0);
	ck_assert_int_eq(host_of(j[2]), 1);
	assert_reason(j[3], PEND_NO_HOST, HR_QUEUE_PROC_LIMIT, 2, -1);
	assert_reason(j[4], PEND_NO_HOST, HR_QUEUE_PROC_LIMIT, 2, -1);
	apply();
	ck_assert_int_eq(run(), 0);
	/* Both: the tighter one is the reason. */
	F.q[0].host_used[0] = F.q[0].host_used[1] = 0;
	F.q[0].hjob_limit = 1;
	F.h[1].rr.ncpus = 1;		/* PJOB 0.5 of 1 CPU: none */
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(j[3]), 0);
	assert_reason(j[4], PEND_NO_HOST, HR_QUEUE_HOST_LIMIT, 1,
	    HR_QUEUE_PROC_LIMIT, 1, -1);
}
END_TEST

/* lsb.hosts JL/U and lsb.users JL/P. */
START_TEST(test_user_host_limits)
{
	struct pol_job *a[5], *b, *b2, *c[4], *plain;
	struct pol_user *ua, *ub, *uc;

	fx_init(3, 1);
	F.c.any_jlu = true;
	F.h[0].jl_u = 1;
	F.h[1].jl_u = 2;
	F.h[2].max_slots = 1;
	ua = user(0);
	ub = user(1);
	for (int i = 0; i < 5; i++) {
		a[i] = job(0);
		a[i]->user = ua;
	}
	b = job(0);
	b->user = ub;
	ck_assert_int_eq(run(), 5);
	ck_assert_int_eq(host_of(a[0]), 0);
	ck_assert_int_eq(host_of(a[1]), 1);
	ck_assert_int_eq(host_of(a[2]), 1);
	ck_assert_int_eq(host_of(a[3]), 2);
	assert_reason(a[4], PEND_NO_HOST, HR_HOST_USER_LIMIT, 2, HR_FULL, 1,
	    -1);
	/* Another user is not held by the first one's JL/U, though its
	 * job has the same shape as the one that just failed. */
	ck_assert_int_eq(host_of(b), 0);
	apply();
	ck_assert_int_eq(ua->host_used[0], 1);
	ck_assert_int_eq(ua->host_used[1], 2);
	ck_assert_int_eq(ub->host_used[0], 1);
	b2 = job(0);
	b2->user = ub;
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(b2), 1);
	assert_reason(a[4], PEND_NO_HOST, HR_HOST_USER_LIMIT, 2, HR_FULL, 1,
	    -1);

	/* JL/U counts what the user got in every queue of the pass. */
	fx_free();
	fx_init(1, 2);
	F.c.any_jlu = true;
	F.h[0].jl_u = 2;
	F.q[0].priority = 20;
	policy_sort_queues(F.qp, 2);
	ua = user(0);
	a[0] = job(0);
	a[1] = job(1);
	a[2] = job(1);
	for (int i = 0; i < 3; i++)
		a[i]->user = ua;
	ck_assert_int_eq(run(), 2);
	ck_assert_ptr_nonnull(decided(a[0]));
	ck_assert_ptr_nonnull(decided(a[1]));
	assert_reason(a[2], PEND_NO_HOST, HR_HOST_USER_LIMIT, 1, -1);

	/* JL/P 0.5 with no JL/U anywhere: 2 slots on 4 CPUs, 1 on 2. */
	fx_free();
	fx_init(2, 1);
	F.h[0].max_slots = F.h[1].max_slots = 8;
	F.h[1].rr.ncpus = 2;
	uc = user(2);
	uc->jl_p = 0.5f;
	uc->host_used[0] = 1;
	for (int i = 0; i < 4; i++) {
		c[i] = job(0);
		c[i]->user = uc;
	}
	plain = job(0);
	ck_assert_int_eq(run(), 3);
	ck_assert_int_eq(host_of(c[0]), 0);
	ck_assert_int_eq(host_of(c[1]), 1);
	assert_reason(c[2], PEND_NO_HOST, HR_USER_PROC_LIMIT, 2, -1);
	assert_reason(c[3], PEND_NO_HOST, HR_USER_PROC_LIMIT, 2, -1);
	ck_assert_int_eq(host_of(plain), 0);
	apply();
	ck_assert_int_eq(run(), 0);
	assert_reason(c[2], PEND_NO_HOST, HR_USER_PROC_LIMIT, 2, -1);
	/* Rounded up: 0.5 of 3 CPUs is 2 slots. */
	F.h[1].rr.ncpus = 3;
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(host_of(c[2]), 1);
}
END_TEST

/* NEW_JOB_SCHED_DELAY: a job is no candidate before its submission
 * time plus the delay, with "New job is waiting for scheduling"; jobs
 * submitted long enough ago go past it; 0 is no delay. */
START_TEST(test_new_job_delay)
{
	struct pol_job *old, *young, *later;

	fx_init(1, 1);
	F.h[0].max_slots = 4;
	F.q[0].new_job_delay = 30;
	young = job(0);
	young->submit_time = NOW - 10;		/* may start at NOW + 20 */
	old = job(0);
	old->submit_time = NOW - 30;		/* exactly its time */
	later = job(0);
	later->submit_time = NOW;
	ck_assert(policy_new_job_waits(young, NOW));
	ck_assert(!policy_new_job_waits(old, NOW));
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_nonnull(decided(old));
	ck_assert_int_eq(reason_of(young), PEND_NEW_JOB);
	ck_assert_int_eq(young->pend_reason, PEND_NEW_JOB);
	ck_assert_int_eq(reason_of(later), PEND_NEW_JOB);
	apply();
	F.c.now = NOW + 20;
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_nonnull(decided(young));
	ck_assert_int_eq(reason_of(later), PEND_NEW_JOB);
	apply();
	/* The delay taken away (reconfig): at once. */
	F.q[0].new_job_delay = 0;
	ck_assert(!policy_new_job_waits(later, NOW + 20));
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_nonnull(decided(later));
}
END_TEST

/* -w not met (blocked) and -b or a pre-exec retry (eligible_time). */
START_TEST(test_blocked_eligible)
{
	struct pol_job *b, *e, *t, *p1, *p2, *p3, *p4, *b2, *e2;

	fx_init(1, 1);
	F.h[0].max_slots = 2;
	b = job(0);
	b->blocked = PEND_DEPEND;
	e = job(0);
	e->eligible_time = NOW + 100;
	e->eligible_reason = PEND_PRE_EXEC;
	t = job(0);
	t->eligible_time = NOW + 50;	/* no reason given: -b */
	p1 = job(0);
	p2 = job(0);
	p3 = job(0);
	p4 = job(0);			/* the queue is cut here */
	b2 = job(0);
	b2->blocked = PEND_DEP_INVALID;
	e2 = job(0);
	e2->eligible_time = NOW + 100;
	e2->eligible_reason = PEND_PRE_EXEC;
	ck_assert_int_eq(run(), 2);
	ck_assert_ptr_nonnull(decided(p1));
	ck_assert_ptr_nonnull(decided(p2));
	ck_assert_int_eq(reason_of(b), PEND_DEPEND);
	ck_assert_int_eq(reason_of(e), PEND_PRE_EXEC);
	ck_assert_int_eq(reason_of(t), PEND_BEGIN_TIME);
	/* As recorded by the pass too. */
	ck_assert_int_eq(b->reason_pass, F.c.pass);
	ck_assert_int_eq(b->pend_reason, PEND_DEPEND);
	ck_assert_int_eq(e->pend_reason, PEND_PRE_EXEC);
	ck_assert_int_eq(t->pend_reason, PEND_BEGIN_TIME);
	assert_reason(p3, PEND_NO_HOST, HR_FULL, 1, -1);
	/* Behind the cut, not reached: their own reasons still. */
	ck_assert_uint_ne(b2->reason_pass, F.c.pass);
	ck_assert_uint_eq(F.q[0].cut_pass, F.c.pass);
	assert_reason(p4, PEND_NO_HOST, HR_FULL, 1, -1);
	ck_assert_int_eq(reason_of(b2), PEND_DEP_INVALID);
	ck_assert_int_eq(reason_of(e2), PEND_PRE_EXEC);
	apply();
	F.h[0].used_slots = 0;
	/* At its time exactly, t may start. */
	F.c.now = NOW + 50;
	ck_assert_int_eq(run(), 2);
	ck_assert_ptr_nonnull(decided(t));
	ck_assert_ptr_nonnull(decided(p3));
	assert_reason(p4, PEND_NO_HOST, HR_FULL, 1, -1);
	ck_assert_int_eq(reason_of(e), PEND_PRE_EXEC);
	ck_assert_int_eq(reason_of(b), PEND_DEPEND);
	apply();
	F.h[0].used_slots = 0;
	F.c.now = NOW + 100;
	b->blocked = 0;
	ck_assert_int_eq(run(), 2);
	ck_assert_ptr_nonnull(decided(b));
	ck_assert_ptr_nonnull(decided(e));
	ck_assert_int_eq(reason_of(b2), PEND_DEP_INVALID);
}
END_TEST

/* span[ptile=n]: n slots per host, the last host may have fewer. */
START_TEST(test_ptile)
{
	const struct resreq *tile2;
	struct pol_job *a, *b, *c;

	fx_init(4, 1);
	F.h[0].max_slots = 4;
	F.h[1].max_slots = 1;
	F.h[2].max_slots = 3;
	F.h[3].max_slots = 2;
	tile2 = rr("span[ptile=2]");
	a = job(0);
	a->num_procs = 5;
	a->rr = tile2;
	b = job(0);
	b->num_procs = 4;
	b->rr = tile2;
	c = job(0);
	c->num_procs = 3;
	c->rr = tile2;
	ck_assert_int_eq(run(), 2);
	/* Not 4 on host00; host01 has no whole tile. */
	ck_assert_int_eq(slots_on(decided(a), 0), 2);
	ck_assert_int_eq(slots_on(decided(a), 1), 0);
	ck_assert_int_eq(slots_on(decided(a), 2), 2);
	ck_assert_int_eq(slots_on(decided(a), 3), 1);
	/* Left: 2, 1, 1, 1: one whole tile only. */
	assert_reason(b, PEND_NO_HOST, HR_NOT_ENOUGH, 4, -1);
	/* A tile and a remainder of one. */
	ck_assert_int_eq(slots_on(decided(c), 0), 2);
	ck_assert_int_eq(slots_on(decided(c), 1), 1);

	/* Hosts smaller than the tile: never, whatever is free. */
	fx_free();
	fx_init(3, 1);
	for (int i = 0; i < 3; i++)
		F.h[i].max_slots = 2;
	a = job(0);
	a->num_procs = 3;
	a->rr = rr("span[ptile=3]");
	ck_assert_int_eq(run(), 0);
	assert_reason(a, PEND_NO_HOST, HR_NOT_ENOUGH, 3, -1);
	/* span[hosts=1] bigger than any host: the same. */
	a->rr = rr("span[hosts=1]");
	ck_assert_int_eq(run(), 0);
	assert_reason(a, PEND_NO_HOST, HR_NOT_ENOUGH, 3, -1);
	/* Neither: it spreads. */
	a->rr = NULL;
	ck_assert_int_eq(run(), 1);
}
END_TEST

/* Every host of a decision has the same value. */
static void
assert_same(const struct pol_decision *d, const char *res)
{
	const struct pol_host *h0 = &F.h[d->slots[0]];

	for (int i = 1; i < d->job->num_procs; i++) {
		const struct pol_host *h = &F.h[d->slots[i]];

		if (strcmp(res, "type") == 0)
			ck_assert_str_eq(h->rr.type, h0->rr.type);
		else
			ck_assert_str_eq(h->rr.model, h0->rr.model);
	}
}

START_TEST(test_same)
{
	const struct resreq *st;
	struct pol_job *a, *b, *c;

	fx_init(4, 1);
	for (int i = 0; i < 4; i++)
		F.h[i].max_slots = 2;
	F.h[0].rr.type = F.h[2].rr.type = "A";
	F.h[1].rr.type = F.h[3].rr.type = "B";
	st = rr("same[type]");
	a = job(0);
	a->num_procs = 3;
	a->rr = st;
	b = job(0);
	b->num_procs = 3;
	b->rr = st;
	c = job(0);
	c->num_procs = 2;
	c->rr = st;
	ck_assert_int_eq(run(), 2);
	/* host00 and host02, not host00 and the better host01. */
	ck_assert_int_eq(slots_on(decided(a), 0), 2);
	ck_assert_int_eq(slots_on(decided(a), 2), 1);
	assert_same(decided(a), "type");
	ck_assert_int_eq(slots_on(decided(b), 1), 2);
	ck_assert_int_eq(slots_on(decided(b), 3), 1);
	assert_same(decided(b), "type");
	/* One slot of each type left: never mixed. */
	assert_reason(c, PEND_NO_HOST, HR_NOT_ENOUGH, 2, HR_FULL, 2, -1);

	/* The best host's group lacks room: the next group. */
	fx_free();
	fx_init(3, 1);
	for (int i = 0; i < 3; i++)
		F.h[i].max_slots = 2;
	F.h[0].rr.model = "M1";
	F.h[1].rr.model = F.h[2].rr.model = "M2";
	a = job(0);
	a->num_procs = 3;
	a->rr = rr("same[model]");
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(slots_on(decided(a), 0), 0);
	ck_assert_int_eq(slots_on(decided(a), 1), 2);
	ck_assert_int_eq(slots_on(decided(a), 2), 1);
	assert_same(decided(a), "model");
}
END_TEST

/* rusage[]: what running jobs hold (rsv) and what this pass gave out. */
START_TEST(test_rusage)
{
	const struct resreq *r5;
	struct pol_job *a, *b, *c, *d, *e;

	fx_init(3, 1);
	F.h[0].rsv[LI_MEM] = 7000;	/* 1000 MB left on the best host */
	r5 = rr("rusage[mem=5000]");
	a = job(0);
	a->rr = r5;
	b = job(0);
	b->rr = r5;
	c = job(0);
	c->rr = rr("select[mem>3500]");
	d = job(0);
	d->rr = rr("rusage[mem=6000]");
	e = job(0);
	e->rr = rr("select[mem>500]");
	for (int pass = 0; pass < 2; pass++) {
		/* The same again: a pass's own reservations do not stay. */
		ck_assert_int_eq(run(), 3);
		ck_assert_int_eq(host_of(a), 1);
		/* host01 has 3000 left after a. */
		ck_assert_int_eq(host_of(b), 2);
		/* select[] sees what is left too. */
		assert_reason(c, PEND_NO_HOST, HR_RESREQ, 3, -1);
		assert_reason(d, PEND_NO_HOST, HR_RESERVED, 3, -1);
		ck_assert_int_eq(host_of(e), 0);
		for (int i = 0; i < 3; i++)
			ck_assert(F.load[i][LI_MEM] == 8000);
		ck_assert(F.h[0].rsv[LI_MEM] == 7000);
	}
	/* The reservation gone, a fits on host00. */
	F.h[0].rsv[LI_MEM] = 0;
	ck_assert_int_eq(run(), 5);
	ck_assert_int_eq(host_of(a), 0);

	/* The queue's rusage applies to plain jobs, cumulatively. */
	fx_free();
	fx_init(2, 1);
	F.q[0].rr = rr("rusage[mem=3000]");
	a = job(0);
	b = job(0);
	c = job(0);
	ck_assert_int_eq(run(), 3);
	ck_assert_int_eq(host_of(a), 0);
	ck_assert_int_eq(host_of(b), 0);
	ck_assert_int_eq(host_of(c), 1);
}
END_TEST

/* The queue's select[] and thresholds see what jobs of the same queue
 * reserved earlier in the pass. */
START_TEST(test_rusage_queue_select)
{
	struct pol_job *a, *b, *c, *x, *p;

	/* Jobs without -R of their own: the queue's requirement. */
	fx_init(2, 1);
	F.q[0].rr = rr("select[mem>6000] rusage[mem=1000]");
	a = job(0);
	b = job(0);
	c = job(0);
	ck_assert_int_eq(run(), 3);
	ck_assert_int_eq(host_of(a), 0);
	ck_assert_int_eq(host_of(b), 0);	/* 7000 left, > 6000 */
	ck_assert_int_eq(host_of(c), 1);	/* 6000 left: not > 6000 */

	/* A job with its own rusage, then a plain one. */
	fx_free();
	fx_init(2, 1);
	F.q[0].rr = rr("select[mem>6000]");
	x = job(0);
	x->rr = rr("select[mem>6000] rusage[mem=3000]");
	p = job(0);
	ck_assert_int_eq(run(), 2);
	ck_assert_int_eq(host_of(x), 0);
	ck_assert_int_eq(host_of(p), 1);	/* host00 has 5000 left */

	/* The host's own threshold likewise. */
	fx_free();
	fx_init(2, 1);
	F.hthr[0].sched[LI_MEM] = 6000;
	F.hthr[0].sched_set = 1u << LI_MEM;
	F.h[0].thr = &F.hthr[0];
	x = job(0);
	x->rr = rr("rusage[mem=3000]");
	p = job(0);
	ck_assert_int_eq(run(), 2);
	ck_assert_int_eq(host_of(x), 0);
	ck_assert_int_eq(host_of(p), 1);
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

/* Can host h serve queue q at all (its static conditions), with the
 * load of hr? */
static bool
queue_can_use(const struct pol_queue *q, const struct pol_host *h,
    const struct rr_host *hr)
{
	return (q->host_ok == NULL || q->host_ok[h->index]) && h->usable &&
	    !h->exclusive &&
	    policy_over_sched_host(h->thr, hr->load, hr->ncpus) < 0 &&
	    policy_over_sched_host(q->thr, hr->load, hr->ncpus) < 0 &&
	    (q->rr == NULL || resreq_select(q->rr, hr));
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

/* The rusage[mem] of a requirement, 0 if none. */
static double
rusage_mem(const struct resreq *r)
{
	for (int i = 0; r && i < r->nrusage; i++)
		if (strcmp(r->rusage[i].name, "mem") == 0)
			return r->rusage[i].value;
	return 0;
}

/* What the property test saw happen, so that it means something. */
static struct {
	int	 cap_waits;		/* jobs held by a pol_cap */
	int	 limit_hosts;		/* hosts counted for a per-host limit */
	int	 elements;		/* array elements started */
	int	 ptile, same, rusage;	/* decisions with these */
} seen_stats;

static void
check_pass(int pass_no)
{
	int nh = F.c.nhosts, nq = F.c.nqueues;
	int taken[MAXH] = { 0 };
	bool by_interval[MAXH] = { false };
	bool excl[MAXH] = { false };
	int qslots[MAXQ] = { 0 };
	int qhost[MAXQ][MAXH];
	int uhost[ARRAY_SIZE(F.u)][MAXH];
	int capuse[ARRAY_SIZE(F.caps)] = { 0 };
	double memuse[MAXH] = { 0 };
	static float pre[MAXH][NLOADIDX];
	struct rr_host prr[MAXH];
	int *ndec = xcalloc((size_t)F.njobs + 1, sizeof(int));

	memset(qhost, 0, sizeof(qhost));
	memset(uhost, 0, sizeof(uhost));
	/* The load as the pass began: less what running jobs reserve (the
	 * hosts' rr.load now also has this pass's reservations). */
	for (int i = 0; i < nh; i++) {
		for (int k = 0; k < NLOADIDX; k++) {
			pre[i][k] = F.load[i][k];
			if (F.load[i][k] < INFINIT_LOAD)
				pre[i][k] += load_index_info[k].increasing ?
				    F.h[i].rsv[k] : -F.h[i].rsv[k];
		}
		prr[i] = F.h[i].rr;
		prr[i].load = pre[i];
	}
	for (int i = 0; i < F.nd; i++) {
		const struct pol_decision *d = &F.d[i];
		const struct pol_job *j = d->job;
		const struct pol_queue *q = j->queue;
		const struct resreq *er = j->rr ? j->rr : q->rr;
		int need = j->num_procs > 0 ? j->num_procs : 1;
		int qi = (int)(q - F.q);
		int first = d->slots[0];
		int per[MAXH] = { 0 };

		ck_assert_msg(j >= F.jobs && j < F.jobs + F.njobs,
		    "pass %d: decision for an unknown job", pass_no);
		ndec[j - F.jobs]++;
		ck_assert_msg(ndec[j - F.jobs] <= (j->count > 1 ? j->count : 1),
		    "pass %d: job %td decided %d times, count %lld", pass_no,
		    j - F.jobs, ndec[j - F.jobs], (long long)j->count);
		if (j->count > 1)
			seen_stats.elements++;
		ck_assert(q->active);
		ck_assert(!j->held);
		ck_assert(j->blocked == 0);
		ck_assert(j->eligible_time <= F.c.now);
		qslots[qi] += need;
		for (int k = 0; k < POL_NCAPS; k++)
			if (j->caps[k])
				capuse[j->caps[k] - F.caps] +=
				    j->caps[k]->per_job ? 1 : need;
		for (int k = 0; k < need; k++) {
			int hi = d->slots[k];
			const struct pol_host *h;

			ck_assert_msg(hi >= 0 && hi < nh, "pass %d: slot on "
			    "host %d", pass_no, hi);
			h = &F.h[hi];
			ck_assert_msg(queue_can_use(q, h, &prr[hi]), "pass %d: "
			    "job %td on host%02d, which %s cannot use",
			    pass_no, j - F.jobs, hi, q->name);
			ck_assert(j->rr == NULL || resreq_select(j->rr,
			    &prr[hi]));
			if (j->asked) {
				bool in = false;

				for (int a = 0; a < j->nasked; a++)
					in |= j->asked[a] == hi;
				ck_assert_msg(in, "pass %d: job %td on "
				    "host%02d, not asked for", pass_no,
				    j - F.jobs, hi);
			}
			if (er && er->span_hosts == 1)
				ck_assert_int_eq(hi, first);
			if (er && er->same)
				ck_assert_str_eq(h->rr.type,
				    F.h[first].rr.type);
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
			per[hi]++;
			qhost[qi][hi]++;
			if (j->user)
				uhost[j->user - F.u][hi]++;
		}
		/* span[ptile=n]: n on each host but one, which has fewer. */
		if (er && er->span_ptile > 0) {
			int odd = 0;

			for (int hi = 0; hi < nh; hi++) {
				if (per[hi] == 0 || per[hi] == er->span_ptile)
					continue;
				ck_assert_msg(per[hi] < er->span_ptile &&
				    ++odd == 1, "pass %d: job %td: %d slots "
				    "on host%02d, ptile %d", pass_no,
				    j - F.jobs, per[hi], hi, er->span_ptile);
			}
			seen_stats.ptile++;
		}
		if (er && er->same)
			seen_stats.same++;
		if (rusage_mem(er) > 0) {
			seen_stats.rusage++;
			for (int hi = 0; hi < nh; hi++)
				if (per[hi])
					memuse[hi] += rusage_mem(er);
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
	/* MXJ, and what rusage[] reserved. */
	for (int i = 0; i < nh; i++) {
		if (F.h[i].max_slots >= 0)
			ck_assert_msg(F.h[i].used_slots + taken[i] <=
			    F.h[i].max_slots, "pass %d: host%02d has %d + %d "
			    "slots, MXJ %d", pass_no, i, F.h[i].used_slots,
			    taken[i], F.h[i].max_slots);
		if (memuse[i] > 0)
			ck_assert_msg(F.h[i].rsv[LI_MEM] + memuse[i] <=
			    F.load[i][LI_MEM] + 0.01, "pass %d: host%02d: "
			    "%g MB reserved + %g MB taken, %g MB free",
			    pass_no, i, (double)F.h[i].rsv[LI_MEM],
			    memuse[i], (double)F.load[i][LI_MEM]);
	}
	/* No limit goes over by what the pass handed out. */
	for (int qi = 0; qi < nq; qi++) {
		const struct pol_queue *q = &F.q[qi];

		if (q->qcap.max >= 0 && qslots[qi] > 0)
			ck_assert_msg(q->qcap.used + qslots[qi] <=
			    q->qcap.max, "pass %d: %s: %d + %d slots, "
			    "QJOB_LIMIT %d", pass_no, q->name, q->qcap.used,
			    qslots[qi], q->qcap.max);
		for (int i = 0; i < nh; i++) {
			int used = q->host_used[i] + qhost[qi][i];

			if (qhost[qi][i] == 0)
				continue;
			if (q->hjob_limit >= 0)
				ck_assert_msg(used <= q->hjob_limit, "pass "
				    "%d: %s has %d slots on host%02d, "
				    "HJOB_LIMIT %d", pass_no, q->name, used,
				    i, q->hjob_limit);
			if (q->pjob_limit >= 0)
				ck_assert_msg(used <= (int)(q->pjob_limit *
				    F.h[i].rr.ncpus), "pass %d: %s has %d "
				    "slots on host%02d, PJOB_LIMIT %g of %d "
				    "CPUs", pass_no, q->name, used, i,
				    (double)q->pjob_limit, F.h[i].rr.ncpus);
		}
	}
	for (size_t ui = 0; ui < ARRAY_SIZE(F.u); ui++) {
		const struct pol_user *u = &F.u[ui];

		for (int i = 0; u->host_used && i < nh; i++) {
			int used = u->host_used[i] + uhost[ui][i];

			if (uhost[ui][i] == 0)
				continue;
			if (F.c.any_jlu && F.h[i].jl_u >= 0)
				ck_assert_msg(used <= F.h[i].jl_u, "pass %d: "
				    "user %zu has %d slots on host%02d, JL/U "
				    "%d", pass_no, ui, used, i, F.h[i].jl_u);
			/* JL/P is rounded up. */
			if (u->jl_p >= 0)
				ck_assert_msg(used <= (int)ceil((double)u->jl_p *
				    F.h[i].rr.ncpus), "pass %d: user %zu has "
				    "%d slots on host%02d, JL/P %g", pass_no,
				    ui, used, i, (double)u->jl_p);
		}
	}
	for (size_t ci = 0; ci < ARRAY_SIZE(F.caps); ci++) {
		const struct pol_cap *k = &F.caps[ci];

		if (k->max >= 0 && capuse[ci] > 0)
			ck_assert_msg(k->used + capuse[ci] <= k->max, "pass "
			    "%d: cap %zu: %d + %d, max %d", pass_no, ci,
			    k->used, capuse[ci], k->max);
	}
	/* Every job left waiting has a reason: per-host ones with every
	 * host counted, or a limit that is indeed reached. */
	for (int i = 0; i < F.njobs; i++) {
		const struct pol_job *j = &F.jobs[i];
		const struct pol_queue *q = j->queue;
		const uint32_t *counts;
		int r, need = j->num_procs > 0 ? j->num_procs : 1;
		bool full = false;
		uint32_t sum = 0;

		if (ndec[i] == (j->count > 1 ? j->count : 1) || q == NULL ||
		    j->held || (j->prev == NULL && q->head != j))
			continue;
		r = policy_job_reason(&F.c, j, &counts);
		/* The job's own reasons come before its queue's. */
		if (j->blocked) {
			ck_assert_int_eq(r, j->blocked);
			continue;
		}
		if (j->eligible_time > F.c.now) {
			ck_assert_int_eq(r, j->eligible_reason ?
			    j->eligible_reason : PEND_BEGIN_TIME);
			continue;
		}
		if (!q->active) {
			ck_assert_int_eq(r, q->inactive_reason);
			continue;
		}
		switch (r) {
		case PEND_NO_HOST:
			for (int k = 0; k < HR_NREASONS; k++)
				sum += counts[k];
			ck_assert_msg(counts[HR_NONE] == 0 &&
			    sum == (uint32_t)nh, "pass %d: job %d: %u host "
			    "reasons for %d hosts", pass_no, i, sum, nh);
			seen_stats.limit_hosts +=
			    (int)(counts[HR_QUEUE_HOST_LIMIT] +
			    counts[HR_QUEUE_PROC_LIMIT] +
			    counts[HR_HOST_USER_LIMIT] +
			    counts[HR_USER_PROC_LIMIT]);
			continue;
		case PEND_QUEUE_JOB_LIMIT:
			full = q->qcap.max >= 0 && q->qcap.used +
			    qslots[q - F.q] + need > q->qcap.max;
			break;
		case PEND_USER_LIMIT:
		case PEND_ARRAY_LIMIT:
			for (int k = 0; k < POL_NCAPS; k++) {
				const struct pol_cap *c = j->caps[k];

				if (c && c->reason == r && c->max >= 0 &&
				    c->used + capuse[c - F.caps] +
				    (c->per_job ? 1 : need) > c->max)
					full = true;
			}
			break;
		default:
			ck_abort_msg("pass %d: job %d waits with reason %d",
			    pass_no, i, r);
		}
		ck_assert_msg(full, "pass %d: job %d waits for limit %d, "
		    "which it does not reach", pass_no, i, r);
		seen_stats.cap_waits++;
	}
	/* A plain job of a queue ahead waits for hosts only if none of the
	 * hosts later queues got was any good to it. */
	for (int i = 0; i < F.njobs; i++) {
		const struct pol_job *j = &F.jobs[i];
		const struct pol_queue *q = j->queue;
		const uint32_t *counts;

		if (ndec[i] > 0 || q == NULL || j->held || !is_plain(j) ||
		    !q->active || j->user != NULL || q->hjob_limit >= 0 ||
		    q->pjob_limit >= 0 ||
		    (j->prev == NULL && q->head != j) ||
		    policy_job_reason(&F.c, j, &counts) != PEND_NO_HOST)
			continue;
		for (int k = 0; k < F.nd; k++) {
			const struct pol_decision *d = &F.d[k];
			int need = d->job->num_procs > 0 ?
			    d->job->num_procs : 1;

			if (queue_rank(d->job->queue) <= queue_rank(q))
				continue;
			for (int s = 0; s < need; s++) {
				const struct pol_host *h = &F.h[d->slots[s]];

				if (by_interval[h->index] || recent(q, h))
					continue;
				/* The load as the pass left it: no more
				 * than when q's turn came. */
				ck_assert_msg(!queue_can_use(q, h, &h->rr),
				    "pass %d: job %d of %s (priority %d) "
				    "waits while job %td of %s (priority %d) "
				    "got host%02d", pass_no, i, q->name,
				    q->priority, d->job - F.jobs,
				    d->job->queue->name,
				    d->job->queue->priority, h->index);
			}
		}
	}
	free(ndec);
}

START_TEST(test_property)
{
	static const char *reqs[] = {
		"select[mem>2000]", "order[-mem]", "select[r1m<1.0] order[mem]",
		"span[hosts=1]", "select[mem>6000] span[hosts=1]",
		"order[r1m:-pg]", "select[type==X86_64]",
		"span[ptile=2]", "span[ptile=3] order[-mem]", "same[type]",
		"rusage[mem=2000]",
		"select[mem>3000] rusage[mem=1500] span[ptile=2]",
		"same[type] span[ptile=2]",
	};
	int asked_store[64][2 * MAXH];	/* indices, then "+N" levels */
	int passes = 0, decisions = 0;

	memset(&seen_stats, 0, sizeof(seen_stats));
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
			h->rr.type = chance(50) ? "X86_64" : "ARM64";
			h->rr.ncpus = 1 + rnd(8);
			if (chance(20))
				h->rsv[LI_MEM] = (float)rnd(3000);
			if (chance(40)) {
				h->jl_u = rnd(3);
				F.c.any_jlu = true;
			}
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
			if (chance(25)) {
				q->qcap.max = rnd(12);
				q->qcap.used = rnd(q->qcap.max + 1);
				q->qcap.reason = PEND_QUEUE_JOB_LIMIT;
			}
			if (chance(20))
				q->hjob_limit = rnd(4);
			if (chance(15))
				q->pjob_limit = 0.25f * (float)rnd(5);
		}
		for (size_t ui = 0; ui < ARRAY_SIZE(F.u); ui++)
			user((int)ui)->jl_p = chance(40) ?
			    0.25f * (float)(1 + rnd(4)) : -1;
		for (size_t ci = 0; ci < ARRAY_SIZE(F.caps); ci++) {
			struct pol_cap *k = cap((int)ci, chance(20) ? -1 :
			    rnd(8), chance(50), ci % 2 ? PEND_USER_LIMIT :
			    PEND_ARRAY_LIMIT);

			k->used = k->max > 0 ? rnd(k->max + 1) : 0;
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
				if (chance(30))
					j->rr = parsed[rnd(
					    (int)ARRAY_SIZE(reqs))];
				if (chance(15) && nasked < 64) {
					int *a = asked_store[nasked++], n = 0;

					for (int i = 0; i < nh; i++)
						if (chance(40))
							a[n++] = i;
					if (n == 0)
						a[n++] = rnd(nh);
					for (int l = 0; l < n; l++)
						a[n + l] = chance(30) ? rnd(3) : 0;
					j->asked = a;
					j->nasked = n;
				}
				if (chance(10))
					j->count = 2 + rnd(6);
				/* Few users, so that their limits bind. */
				if (chance(60))
					j->user = &F.u[rnd(2)];
				if (chance(25)) {
					/* One or two different limits. */
					int c0 = rnd((int)ARRAY_SIZE(F.caps));

					j->caps[rnd(POL_NCAPS)] = &F.caps[c0];
					if (chance(30)) {
						int c1 = (c0 + 1) %
						    (int)ARRAY_SIZE(F.caps);
						int s = rnd(POL_NCAPS);

						if (j->caps[s] == NULL)
							j->caps[s] =
							    &F.caps[c1];
					}
				}
				if (chance(4))
					j->blocked = PEND_DEPEND;
				if (chance(4)) {
					j->eligible_time = NOW + rnd(150);
					j->eligible_reason = chance(50) ?
					    PEND_PRE_EXEC : 0;
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
			for (int i = 0; i < nh; i++) {
				if (F.h[i].used_slots > 0 && chance(30)) {
					F.h[i].used_slots--;
					if (F.h[i].used_slots == 0)
						F.h[i].exclusive = false;
				}
				for (int qi = 0; qi < nq; qi++)
					if (F.q[qi].host_used[i] > 0 &&
					    chance(30))
						F.q[qi].host_used[i]--;
				for (size_t ui = 0; ui < ARRAY_SIZE(F.u); ui++)
					if (F.u[ui].host_used[i] > 0 &&
					    chance(30))
						F.u[ui].host_used[i]--;
			}
			for (int qi = 0; qi < nq; qi++)
				if (F.q[qi].qcap.used > 0 && chance(30))
					F.q[qi].qcap.used -=
					    1 + rnd(F.q[qi].qcap.used);
			for (size_t ci = 0; ci < ARRAY_SIZE(F.caps); ci++)
				if (F.caps[ci].used > 0 && chance(30))
					F.caps[ci].used--;
		}
	}
	ck_assert_int_eq(passes, 200);
	/* Enough happened for the invariants to mean something. */
	ck_assert_int_gt(decisions, 200);
	ck_assert_int_gt(seen_stats.cap_waits, 0);
	ck_assert_int_gt(seen_stats.limit_hosts, 0);
	ck_assert_int_gt(seen_stats.elements, 0);
	ck_assert_int_gt(seen_stats.ptile, 0);
	ck_assert_int_gt(seen_stats.same, 0);
	ck_assert_int_gt(seen_stats.rusage, 0);
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
	tcase_add_test(tc, test_effective_load);
	tcase_add_test(tc, test_ext_thresholds);
	tcase_add_test(tc, test_thresholds_per_cpu);
	tcase_add_test(tc, test_thresholds_merge);
	tcase_add_test(tc, test_unusable);
	tcase_add_test(tc, test_queue_hosts);
	tcase_add_test(tc, test_asked_hosts);
	tcase_add_test(tc, test_excluded_hosts);
	tcase_add_test(tc, test_asked_pref);
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
	tcase_add_test(tc, test_array_count);
	tcase_add_test(tc, test_array_limit);
	tcase_add_test(tc, test_shared_cap);
	tcase_add_test(tc, test_queue_job_limit);
	tcase_add_test(tc, test_queue_host_limits);
	tcase_add_test(tc, test_user_host_limits);
	tcase_add_test(tc, test_blocked_eligible);
	tcase_add_test(tc, test_new_job_delay);
	tcase_add_test(tc, test_ptile);
	tcase_add_test(tc, test_same);
	tcase_add_test(tc, test_rusage);
	tcase_add_test(tc, test_rusage_queue_select);
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
