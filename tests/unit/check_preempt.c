/*
 * Preemption, as pure decisions: which queues may preempt which (the
 * three forms of PREEMPTION and PRIORITY), the order of a queue's victim
 * queues, and in scheduling passes over small clusters built in memory,
 * which running jobs a pending job takes: the least-loaded host, the
 * preferred queue, LEAST_RUN_TIME, as many as it needs and no more,
 * MINI_JOB and OPTIMAL_MINI_JOB, span[hosts=1], brun and MAX_JOB_PREEMPT
 * (no_preempt), the own queue, a limit suspended jobs do not count, and
 * the resumption of preempted jobs when their slots are free.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf-lex.h"
#include "lsf.h"
#include "policy.h"
#include "resreq.h"
#include "util.h"

#define MAXH	8
#define MAXQ	4
#define MAXJ	64
#define MAXD	64

static struct {
	struct pol_cluster	 c;
	struct pol_host		 h[MAXH];
	struct pol_host		*hp[MAXH];
	float			 load[MAXH][NLOADIDX];
	char			 name[MAXH][16];
	struct pol_queue	 q[MAXQ];
	struct pol_queue	*qp[MAXQ];
	struct queue_conf	 qc[MAXQ];
	const struct queue_conf	*qcp[MAXQ];
	struct pol_job		 j[MAXJ];
	int			 exec[MAXJ][16];
	int			 nj;
	struct pol_decision	 d[MAXD];
	int			 nd;
	struct resreq		 rr;
	bool			 have_rr;
} F;

static void
fx_init(int nh, int nq)
{
	policy_decisions_free(F.d, F.nd);
	if (F.have_rr)
		resreq_release(&F.rr);
	for (int i = 0; i < MAXQ; i++) {
		free(F.q[i].victims);
		queue_conf_release(&F.qc[i]);
	}
	memset(&F, 0, sizeof(F));
	for (int i = 0; i < nh; i++) {
		struct pol_host *h = &F.h[i];

		snprintf(F.name[i], sizeof(F.name[i]), "host%d", i);
		h->usable = true;
		h->max_slots = 1;
		h->jl_u = -1;
		h->rr.name = F.name[i];
		h->rr.type = "X86_64";
		h->rr.model = "Xeon";
		h->rr.load = F.load[i];
		h->rr.ncpus = 1;
		h->rr.server = true;
		/* host0 the least loaded, then host1, ... */
		F.load[i][LI_R15S] = 0.1f * (float)i;
		F.load[i][LI_MEM] = 8000;
		F.hp[i] = h;
	}
	for (int i = 0; i < nq; i++) {
		struct pol_queue *q = &F.q[i];
		struct queue_conf *c = &F.qc[i];

		queue_conf_init(c);
		c->name = xasprintf("q%d", i);
		c->priority = 10 * (i + 1);	/* q0 lowest */
		q->name = c->name;
		q->priority = c->priority;
		q->order = i;
		q->active = true;
		q->qcap.max = -1;
		q->hjob_limit = -1;
		q->pjob_limit = -1;
		F.qp[i] = q;
		F.qcp[i] = c;
	}
	F.c.hosts = F.hp;
	F.c.nhosts = nh;
	F.c.queues = F.qp;
	F.c.nqueues = nq;
	F.c.now = 1700000000;
}

static void
teardown(void)
{
	fx_init(0, 0);
}

static void
preemption(int qi, const char *text)
{
	const char *why;

	ck_assert_msg(parse_preemption(text, &F.qc[qi].preempt, &why) == 0,
	    "%s: %s", text, why);
}

/* Queues sorted and their victim lists built, as mbatchd does. */
static void
configure(void)
{
	struct pol_queue *qs[MAXQ];

	for (int i = 0; i < F.c.nqueues; i++)
		qs[i] = &F.q[i];
	policy_sort_queues(F.qp, F.c.nqueues);
	for (int i = 0; i < F.c.nqueues; i++)
		preempt_victim_queues(&F.q[i], &F.qc[i], qs, F.qcp,
		    F.c.nqueues);
}

/* q0 and a PREEMPTIVE q1 on nh hosts. */
static void
two_queues(int nh)
{
	fx_init(nh, 2);
	preemption(1, "PREEMPTIVE");
	configure();
}

/* A job of queue qi running on the hosts given (one slot each, -1
 * ends), started at start. */
static struct pol_job *
running(int qi, int64_t start, ...)
{
	struct pol_job *j = &F.j[F.nj];
	va_list ap;
	int h;

	ck_assert_int_lt(F.nj, MAXJ);
	j->queue = &F.q[qi];
	j->exec = F.exec[F.nj];
	va_start(ap, start);
	while ((h = va_arg(ap, int)) >= 0) {
		F.exec[F.nj][j->nexec++] = h;
		F.h[h].used_slots++;
	}
	va_end(ap);
	j->num_procs = j->nexec;
	j->start_time = start;
	policy_list_add(&F.q[qi].running, j);
	F.nj++;
	return j;
}

static struct pol_job *
pending(int qi, int nprocs)
{
	struct pol_job *j = &F.j[F.nj++];

	ck_assert_int_le(F.nj, MAXJ);
	j->queue = &F.q[qi];
	j->num_procs = nprocs;
	policy_job_append(&F.q[qi], j);
	return j;
}

static void
span(const char *text)
{
	char *cause = NULL;

	if (resreq_parse(&F.rr, text, "MB", &cause) != 0)
		ck_abort_msg("resreq_parse %s: %s", text, cause);
	F.have_rr = true;
}

static int
run(void)
{
	policy_decisions_free(F.d, F.nd);
	F.nd = policy_schedule(&F.c, F.d, MAXD);
	return F.nd;
}

static struct pol_decision *
decision(const struct pol_job *j)
{
	for (int i = 0; i < F.nd; i++)
		if (F.d[i].job == j)
			return &F.d[i];
	return NULL;
}

static bool
victim(const struct pol_decision *d, const struct pol_job *v)
{
	for (int i = 0; d && i < d->nvictims; i++)
		if (d->victims[i] == v)
			return true;
	return false;
}

/* Apply the decisions as mbatchd does with preemption configured. */
static void
apply(void)
{
	for (int i = 0; i < F.nd; i++) {
		struct pol_decision *d = &F.d[i];
		struct pol_job *j = d->job;

		for (int k = 0; k < d->nvictims; k++) {
			struct pol_job *v = d->victims[k];

			policy_list_remove(&v->queue->running, v);
			policy_list_add(&v->queue->preempted, v);
			for (int s = 0; s < v->nexec; s++)
				F.h[v->exec[s]].used_slots--;
		}
		if (d->resume) {
			policy_list_remove(&j->queue->preempted, j);
			policy_list_add(&j->queue->running, j);
			for (int s = 0; s < j->nexec; s++)
				F.h[j->exec[s]].used_slots++;
			continue;
		}
		policy_job_remove(j);
		j->exec = F.exec[j - F.j];
		j->nexec = j->num_procs;
		for (int s = 0; s < j->num_procs; s++) {
			F.exec[j - F.j][s] = d->slots[s];
			F.h[d->slots[s]].used_slots++;
		}
		policy_list_add(&j->queue->running, j);
	}
}

/* ---- which queues may preempt which */

START_TEST(may_by_priority)
{
	int pref;

	fx_init(1, 3);
	preemption(2, "PREEMPTIVE");
	ck_assert(preempt_may(&F.qc[2], &F.qc[0], &pref));
	ck_assert(preempt_may(&F.qc[2], &F.qc[1], &pref));
	ck_assert(!preempt_may(&F.qc[0], &F.qc[2], &pref));
	ck_assert(!preempt_may(&F.qc[2], &F.qc[2], &pref));
	/* Not preemptive and nothing preemptable: no preemption. */
	ck_assert(!preempt_may(&F.qc[1], &F.qc[0], &pref));
	/* PREEMPTABLE: by any higher queue, preemptive or not. */
	preemption(0, "PREEMPTABLE");
	ck_assert(preempt_may(&F.qc[1], &F.qc[0], &pref));
	ck_assert(!preempt_may(&F.qc[0], &F.qc[1], &pref));
}
END_TEST

START_TEST(may_equal_priority_never)
{
	int pref;

	fx_init(1, 2);
	F.qc[0].priority = F.qc[1].priority = 30;
	preemption(1, "PREEMPTIVE");
	preemption(0, "PREEMPTABLE");
	ck_assert(!preempt_may(&F.qc[1], &F.qc[0], &pref));
	ck_assert(!preempt_may(&F.qc[0], &F.qc[1], &pref));
}
END_TEST

START_TEST(may_lists)
{
	int pref;

	fx_init(1, 4);
	/* Only the queues listed, with their preference. */
	preemption(3, "PREEMPTIVE[q0+2 q1]");
	ck_assert(preempt_may(&F.qc[3], &F.qc[0], &pref));
	ck_assert_int_eq(pref, 2);
	ck_assert(preempt_may(&F.qc[3], &F.qc[1], &pref));
	ck_assert_int_eq(pref, 0);
	ck_assert(!preempt_may(&F.qc[3], &F.qc[2], &pref));
	/* ... unless that queue is preemptable by everyone above. */
	preemption(2, "PREEMPTABLE");
	ck_assert(preempt_may(&F.qc[3], &F.qc[2], &pref));
	/* PREEMPTABLE[list]: only by those. */
	preemption(1, "PREEMPTABLE[q3]");
	ck_assert(preempt_may(&F.qc[3], &F.qc[1], &pref));
	ck_assert(!preempt_may(&F.qc[2], &F.qc[1], &pref));
}
END_TEST

START_TEST(parse_forms)
{
	struct queue_preempt p;
	const char *why;

	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(parse_preemption("PREEMPTIVE[a+2 b] PREEMPTABLE[c]",
	    &p, &why), 0);
	ck_assert(p.preemptive && p.preemptable);
	ck_assert_int_eq((int)p.victims.n, 2);
	ck_assert_str_eq(p.victims.v[0], "a");
	ck_assert_int_eq(p.pref[0], 2);
	ck_assert_int_eq(p.pref[1], 0);
	ck_assert_str_eq(p.by.v[0], "c");
	ck_assert_int_eq(parse_preemption("preemptive", &p, &why), 0);
	ck_assert(p.preemptive && p.victims.n == 0);
	ck_assert_int_eq(parse_preemption("PREEMPTIVE[a", &p, &why), -1);
	ck_assert_int_eq(parse_preemption("PREEMPTIVE[]", &p, &why), -1);
	ck_assert_int_eq(parse_preemption("PREEMPTABLE[a+1]", &p, &why), -1);
	ck_assert_int_eq(parse_preemption("PREEMPTIVE[a+x]", &p, &why), -1);
	ck_assert_int_eq(parse_preemption("PREEMPTIVE PREEMPTIVE", &p, &why),
	    -1);
	ck_assert_int_eq(parse_preemption("SOMETIMES", &p, &why), -1);
	ck_assert_int_eq(parse_preemption("PREEMPTIVE[a a]", &p, &why), -1);
	queue_preempt_release(&p);
}
END_TEST

START_TEST(parse_keywords)
{
	unsigned m;
	const char *bad;

	ck_assert_int_eq(parse_preempt_for("GROUP_MAX least_run_time", &m,
	    &bad), 0);
	ck_assert_uint_eq(m, PREEMPT_FOR_GROUP_MAX |
	    PREEMPT_FOR_LEAST_RUN_TIME);
	ck_assert_int_eq(parse_preempt_for("GROUP_MAX BIGGEST", &m, &bad), -1);
	ck_assert_str_eq(bad, "BIGGEST");
	ck_assert_int_eq(parse_terminate_when("WINDOW PREEMPT", &m, &bad), 0);
	ck_assert_uint_eq(m, TERMINATE_WHEN_WINDOW | TERMINATE_WHEN_PREEMPT);
	ck_assert_int_eq(parse_terminate_when("SOON", &m, &bad), -1);
}
END_TEST

START_TEST(victim_queue_order)
{
	fx_init(1, 4);
	/* q3 may preempt q0, q1 and q2: q1 preferred (+3), then the
	 * lowest priority first. */
	preemption(3, "PREEMPTIVE[q0 q1+3 q2]");
	configure();
	ck_assert_int_eq(F.q[3].nvictims, 3);
	ck_assert_ptr_eq(F.q[3].victims[0], &F.q[1]);
	ck_assert_ptr_eq(F.q[3].victims[1], &F.q[0]);
	ck_assert_ptr_eq(F.q[3].victims[2], &F.q[2]);
	ck_assert_int_eq(F.q[0].nvictims, 0);
	ck_assert_ptr_null(F.q[0].victims);
}
END_TEST

/* ---- in a pass */

START_TEST(basic)
{
	struct pol_job *low, *high;
	struct pol_decision *d;

	two_queues(1);
	low = running(0, 100, 0, -1);
	high = pending(1, 1);
	ck_assert_int_eq(run(), 1);
	d = decision(high);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->nvictims, 1);
	ck_assert(victim(d, low));
	ck_assert_int_eq(d->slots[0], 0);
	ck_assert(!d->resume);
}
END_TEST

START_TEST(no_preemption_without_config)
{
	fx_init(1, 2);
	configure();
	(void)running(0, 100, 0, -1);
	(void)pending(1, 1);
	ck_assert_int_eq(run(), 0);
}
END_TEST

START_TEST(own_queue_never)
{
	two_queues(1);
	(void)running(1, 100, 0, -1);
	(void)pending(1, 1);
	ck_assert_int_eq(run(), 0);
}
END_TEST

START_TEST(least_loaded_host)
{
	struct pol_job *v[3], *high;

	fx_init(3, 2);
	preemption(0, "PREEMPTABLE");
	configure();
	/* host2 the least loaded now. */
	F.load[0][LI_R15S] = 0.9f;
	F.load[1][LI_R15S] = 0.5f;
	F.load[2][LI_R15S] = 0.1f;
	for (int i = 0; i < 3; i++)
		v[i] = running(0, 100, i, -1);
	high = pending(1, 1);
	ck_assert_int_eq(run(), 1);
	ck_assert(victim(decision(high), v[2]));
	ck_assert_int_eq(decision(high)->nvictims, 1);
	ck_assert_int_eq(decision(high)->slots[0], 2);
}
END_TEST

START_TEST(preferred_queue_first)
{
	struct pol_job *a, *b, *c, *high;

	fx_init(3, 4);
	preemption(3, "PREEMPTIVE[q0 q1+1 q2]");
	configure();
	a = running(0, 100, 0, -1);	/* least loaded host */
	b = running(1, 100, 2, -1);	/* preferred queue, busiest host */
	c = running(2, 100, 1, -1);
	high = pending(3, 1);
	ck_assert_int_eq(run(), 1);
	ck_assert(victim(decision(high), b));
	ck_assert(!victim(decision(high), a) && !victim(decision(high), c));
}
END_TEST

START_TEST(lowest_priority_queue_first)
{
	struct pol_job *a, *b, *high;

	fx_init(2, 3);
	preemption(2, "PREEMPTIVE");
	configure();
	b = running(1, 100, 0, -1);	/* on the least loaded host */
	a = running(0, 100, 1, -1);	/* lower priority */
	high = pending(2, 1);
	ck_assert_int_eq(run(), 1);
	ck_assert(victim(decision(high), a));
	ck_assert(!victim(decision(high), b));
}
END_TEST

START_TEST(least_run_time)
{
	struct pol_job *old, *young, *high;

	two_queues(2);
	old = running(0, 100, 0, -1);		/* least loaded host */
	young = running(0, 5000, 1, -1);
	high = pending(1, 1);
	ck_assert_int_eq(run(), 1);
	ck_assert(victim(decision(high), old));	/* by host load */
	two_queues(2);
	F.c.preempt_for = PREEMPT_FOR_LEAST_RUN_TIME;
	old = running(0, 100, 0, -1);
	young = running(0, 5000, 1, -1);
	high = pending(1, 1);
	ck_assert_int_eq(run(), 1);
	ck_assert(victim(decision(high), young));
	ck_assert_int_eq(decision(high)->nvictims, 1);
}
END_TEST

START_TEST(multi_slot_takes_what_it_needs)
{
	struct pol_job *v[4], *high;
	struct pol_decision *d;

	two_queues(4);
	for (int i = 0; i < 4; i++)
		v[i] = running(0, 100, i, -1);
	high = pending(1, 3);
	ck_assert_int_eq(run(), 1);
	d = decision(high);
	ck_assert_int_eq(d->nvictims, 3);
	/* The three least loaded hosts. */
	ck_assert(victim(d, v[0]) && victim(d, v[1]) && victim(d, v[2]));
	ck_assert(!victim(d, v[3]));
}
END_TEST

START_TEST(free_slots_first)
{
	struct pol_job *v[3], *high;

	two_queues(4);
	for (int i = 0; i < 3; i++)
		v[i] = running(0, 100, i, -1);
	/* host3 is free: a 2-slot job takes it and one victim. */
	high = pending(1, 2);
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(decision(high)->nvictims, 1);
	ck_assert(victim(decision(high), v[0]));
}
END_TEST

START_TEST(no_superfluous_victim)
{
	struct pol_job *small, *big, *high;

	fx_init(2, 2);
	for (int i = 0; i < 2; i++)
		F.h[i].max_slots = 4;
	preemption(1, "PREEMPTIVE");
	configure();
	/* The greedy order takes the small one first; the big one alone
	 * is enough, so the small one is given back. */
	small = running(0, 100, 0, -1);
	F.h[0].max_slots = 1;
	big = running(0, 100, 1, 1, 1, 1, -1);
	high = pending(1, 4);
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(decision(high)->nvictims, 1);
	ck_assert(victim(decision(high), big));
	ck_assert(!victim(decision(high), small));
}
END_TEST

/* Victims, in the default order: a 6-slot job on host0, a 4-slot one on
 * host1; the pending job needs 4. */
static struct pol_job *mini_v6, *mini_v4, *mini_high;

static void
mini_fixture(unsigned flags)
{
	fx_init(2, 2);
	F.h[0].max_slots = 6;
	F.h[1].max_slots = 4;
	preemption(1, "PREEMPTIVE");
	configure();
	F.c.preempt_for = flags;
	mini_v6 = running(0, 100, 0, 0, 0, 0, 0, 0, -1);
	mini_v4 = running(0, 100, 1, 1, 1, 1, -1);
	mini_high = pending(1, 4);
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(decision(mini_high)->nvictims, 1);
}

START_TEST(mini_job)
{
	mini_fixture(0);
	ck_assert(victim(decision(mini_high), mini_v6));
	/* MINI_JOB: the smallest that alone is enough. */
	mini_fixture(PREEMPT_FOR_MINI_JOB);
	ck_assert(victim(decision(mini_high), mini_v4));
}
END_TEST

START_TEST(optimal_mini_job)
{
	struct pol_job *a, *b, *c, *high;

	/* Three 1-slot jobs on the least loaded hosts and a 3-slot job:
	 * the default takes the three, OPTIMAL_MINI_JOB the one. */
	fx_init(4, 2);
	F.h[3].max_slots = 3;
	preemption(1, "PREEMPTIVE");
	configure();
	a = running(0, 100, 0, -1);
	b = running(0, 100, 1, -1);
	c = running(0, 100, 2, -1);
	(void)running(0, 100, 3, 3, 3, -1);
	high = pending(1, 3);
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(decision(high)->nvictims, 3);
	ck_assert(victim(decision(high), a) && victim(decision(high), b) &&
	    victim(decision(high), c));

	fx_init(4, 2);
	F.h[3].max_slots = 3;
	preemption(1, "PREEMPTIVE");
	configure();
	F.c.preempt_for = PREEMPT_FOR_OPTIMAL_MINI_JOB;
	(void)running(0, 100, 0, -1);
	(void)running(0, 100, 1, -1);
	(void)running(0, 100, 2, -1);
	c = running(0, 100, 3, 3, 3, -1);
	high = pending(1, 3);
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(decision(high)->nvictims, 1);
	ck_assert(victim(decision(high), c));
}
END_TEST

START_TEST(span_one_host)
{
	struct pol_job *a, *b, *c, *high;
	struct pol_decision *d;

	/* host0: one job of two slots' room, one free; host1 two jobs. */
	fx_init(2, 2);
	F.h[0].max_slots = 2;
	F.h[1].max_slots = 2;
	preemption(1, "PREEMPTIVE");
	configure();
	F.load[0][LI_R15S] = 0.5f;	/* host1 is the least loaded */
	F.load[1][LI_R15S] = 0.1f;
	a = running(0, 100, 0, -1);
	b = running(0, 100, 1, -1);
	c = running(0, 100, 1, -1);
	span("span[hosts=1]");
	high = pending(1, 2);
	high->rr = &F.rr;
	ck_assert_int_eq(run(), 1);
	d = decision(high);
	/* host1 is preferred by load and its two jobs fit the need. */
	ck_assert_int_eq(d->slots[0], d->slots[1]);
	if (d->slots[0] == 1)
		ck_assert(d->nvictims == 2 && victim(d, b) && victim(d, c));
	else
		ck_assert(d->nvictims == 1 && victim(d, a));
}
END_TEST

START_TEST(no_preempt_jobs)
{
	struct pol_job *forced, *high;

	two_queues(1);
	forced = running(0, 100, 0, -1);
	forced->no_preempt = true;	/* brun, or MAX_JOB_PREEMPT reached */
	high = pending(1, 1);
	ck_assert_int_eq(run(), 0);
	{
		const uint32_t *counts;

		ck_assert_int_eq(policy_job_reason(&F.c, high, &counts),
		    PEND_NO_HOST);
	}
}
END_TEST

START_TEST(victim_once_per_pass)
{
	struct pol_job *v, *h1, *h2;

	two_queues(1);
	v = running(0, 100, 0, -1);
	h1 = pending(1, 1);
	h2 = pending(1, 1);
	ck_assert_int_eq(run(), 1);
	ck_assert(victim(decision(h1), v));
	ck_assert_ptr_null(decision(h2));
}
END_TEST

START_TEST(resume_when_free)
{
	struct pol_job *low, *high, *low2;

	two_queues(1);
	low = running(0, 100, 0, -1);
	high = pending(1, 1);
	ck_assert_int_eq(run(), 1);
	apply();
	/* Nothing is free: the preempted job waits. */
	low2 = pending(0, 1);
	ck_assert_int_eq(run(), 0);
	/* The preemptor ends: the preempted job comes before a pending
	 * job of its queue. */
	policy_list_remove(&F.q[1].running, high);
	F.h[0].used_slots--;
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_eq(F.d[0].job, low);
	ck_assert(F.d[0].resume);
	ck_assert_ptr_null(decision(low2));
}
END_TEST

START_TEST(resume_before_preemptor_ends)
{
	struct pol_job *a, *b, *high;

	two_queues(1);
	F.h[0].max_slots = 2;
	a = running(0, 100, 0, -1);
	b = running(0, 200, 0, -1);
	high = pending(1, 1);
	ck_assert_int_eq(run(), 1);
	ck_assert(victim(decision(high), b));	/* the latest started */
	apply();
	ck_assert_int_eq(run(), 0);
	/* a ends: b runs again beside high, which still runs. */
	policy_list_remove(&F.q[0].running, a);
	F.h[0].used_slots--;
	ck_assert_int_eq(run(), 1);
	ck_assert(F.d[0].resume && F.d[0].job == b);
}
END_TEST

START_TEST(higher_pending_before_resume)
{
	struct pol_job *low, *high, *high2;

	two_queues(1);
	low = running(0, 100, 0, -1);
	high = pending(1, 1);
	ck_assert_int_eq(run(), 1);
	apply();
	high2 = pending(1, 1);
	policy_list_remove(&F.q[1].running, high);
	F.h[0].used_slots--;
	/* The free slot goes to the higher queue's pending job. */
	ck_assert_int_eq(run(), 1);
	ck_assert_ptr_eq(F.d[0].job, high2);
	ck_assert(!F.d[0].resume);
	ck_assert(!victim(&F.d[0], low));
}
END_TEST

START_TEST(limit_freed_by_own_job)
{
	struct pol_cap cap;
	struct pol_job *mine, *other, *high;

	two_queues(2);
	memset(&cap, 0, sizeof(cap));
	cap.max = 1;
	cap.susp_free = true;
	cap.reason = PEND_USER_LIMIT;
	F.h[0].max_slots = F.h[1].max_slots = 2;
	other = running(0, 100, 0, -1);		/* least loaded host */
	mine = running(0, 100, 1, -1);
	mine->caps[1] = &cap;
	cap.used = 1;
	high = pending(1, 1);
	high->caps[1] = &cap;
	/* Host slots are free; the user's limit is not, and only the
	 * user's own job frees it. */
	ck_assert_int_eq(run(), 1);
	ck_assert(victim(decision(high), mine));
	ck_assert(!victim(decision(high), other));
	/* A limit that counts suspended jobs: nothing to gain. */
	cap.susp_free = false;
	high->reason_pass = 0;
	mine->victim_pass = 0;
	ck_assert_int_eq(run(), 0);
	ck_assert_int_eq(high->pend_reason, PEND_USER_LIMIT);
}
END_TEST

/* JL/U = 1 on a host of two slots, where the user's own low job and
 * another user's run: the user's high job can start only by preempting
 * the user's own job, and only when HOST_JLU leaves suspended jobs out
 * of JL/U. */
static struct pol_job *jlu_mine, *jlu_other, *jlu_high;
static struct pol_user jlu_u, jlu_v;
static int jlu_used[2][MAXH], jlu_susp[2][MAXH], jlu_taken[2][MAXH];

static void
jlu_fixture(unsigned flags)
{
	fx_init(1, 2);
	F.h[0].max_slots = 2;
	F.h[0].jl_u = 1;
	F.c.any_jlu = true;
	preemption(1, "PREEMPTIVE");
	configure();
	F.c.preempt_for = flags;
	memset(jlu_used, 0, sizeof(jlu_used));
	memset(jlu_susp, 0, sizeof(jlu_susp));
	memset(&jlu_u, 0, sizeof(jlu_u));
	memset(&jlu_v, 0, sizeof(jlu_v));
	jlu_u.host_used = jlu_used[0];
	jlu_u.host_susp = jlu_susp[0];
	jlu_u.host_taken = jlu_taken[0];
	jlu_u.jl_p = -1;
	jlu_v.host_used = jlu_used[1];
	jlu_v.host_susp = jlu_susp[1];
	jlu_v.host_taken = jlu_taken[1];
	jlu_v.jl_p = -1;
	jlu_other = running(0, 100, 0, -1);	/* the latest started: */
	jlu_other->user = &jlu_v;		/* taken first by default */
	jlu_used[1][0] = 1;
	jlu_mine = running(0, 50, 0, -1);
	jlu_mine->user = &jlu_u;
	jlu_used[0][0] = 1;
	jlu_high = pending(1, 1);
	jlu_high->user = &jlu_u;
}

START_TEST(host_jlu)
{
	jlu_fixture(0);
	ck_assert_int_eq(run(), 0);
	jlu_fixture(PREEMPT_FOR_HOST_JLU);
	ck_assert_int_eq(run(), 1);
	ck_assert_int_eq(decision(jlu_high)->nvictims, 1);
	ck_assert(victim(decision(jlu_high), jlu_mine));
}
END_TEST

/* Jobs that search the cluster for victims do so at most so many times
 * a pass; the pass asks for another at once when it got somewhere. */
START_TEST(tries_per_pass)
{
	struct pol_job *h[4];

	two_queues(4);
	F.c.preempt_tries_max = 2;
	for (int i = 0; i < 4; i++)
		(void)running(0, 100, i, -1);
	span("span[hosts=1]");		/* not one slot with nothing else */
	for (int i = 0; i < 4; i++) {
		h[i] = pending(1, 1);
		h[i]->rr = &F.rr;
	}
	ck_assert_int_eq(run(), 2);
	ck_assert(F.c.preempt_more);
	ck_assert_ptr_nonnull(decision(h[0]));
	ck_assert_ptr_nonnull(decision(h[1]));
	apply();
	ck_assert_int_eq(run(), 2);
	ck_assert_ptr_nonnull(decision(h[2]));
	ck_assert_ptr_nonnull(decision(h[3]));
	apply();
	/* Nothing left to preempt: no call for another pass. */
	pending(1, 1)->rr = &F.rr;
	ck_assert_int_eq(run(), 0);
	ck_assert(!F.c.preempt_more);
}
END_TEST

/*
 * Random clusters (fixed seed): after each pass, applied as mbatchd
 * applies it, no host runs more than its MXJ, every victim was running
 * in a queue its preemptor may preempt and is taken once, and a pending
 * one-slot job that preempted could not have run without: no host had a
 * free slot left when its turn came.
 */
START_TEST(random_invariants)
{
	unsigned seed = 12345;

	for (int round = 0; round < 200; round++) {
		int nh = 1 + (int)(rand_r(&seed) % 6);
		int used[MAXH];

		fx_init(nh, 3);
		F.qc[2].priority = 50;
		preemption(2, "PREEMPTIVE");
		preemption(0, "PREEMPTABLE");
		configure();
		for (int h = 0; h < nh; h++) {
			F.h[h].max_slots = 1 + (int)(rand_r(&seed) % 3);
			F.load[h][LI_R15S] = (float)(rand_r(&seed) % 10) / 10;
		}
		/* Fill the hosts with jobs of q0 and q1. */
		for (int h = 0; h < nh; h++)
			while (F.h[h].used_slots < F.h[h].max_slots &&
			    F.nj < MAXJ / 2 && rand_r(&seed) % 4 != 0)
				(void)running((int)(rand_r(&seed) % 2),
				    (int64_t)(rand_r(&seed) % 1000), h, -1);
		for (int h = 0; h < nh; h++)
			used[h] = F.h[h].used_slots;
		for (int k = 0; k < 6 && F.nj < MAXJ; k++)
			(void)pending(1 + (int)(rand_r(&seed) % 2),
			    1 + (int)(rand_r(&seed) % 2));
		run();
		for (int i = 0; i < F.nd; i++) {
			struct pol_decision *d = &F.d[i];
			int pref;

			for (int k = 0; k < d->nvictims; k++) {
				struct pol_job *v = d->victims[k];

				ck_assert(preempt_may(&F.qc[d->job->queue -
				    F.q], &F.qc[v->queue - F.q], &pref));
				for (int m = 0; m < F.nd; m++)
					for (int t = 0; t < F.d[m].nvictims; t++)
						ck_assert(F.d[m].victims[t] != v ||
						    (m == i && t == k));
			}
			/* In the pass's order: a one-slot job preempts only
			 * when no host has a free slot. */
			for (int k = 0; k < d->nvictims; k++)
				for (int s2 = 0; s2 < d->victims[k]->nexec; s2++)
					used[d->victims[k]->exec[s2]]--;
			if (d->nvictims > 0 && d->job->num_procs == 1)
				for (int h = 0; h < nh; h++)
					ck_assert(used[h] + (h == d->slots[0]) >=
					    F.h[h].max_slots);
			for (int s2 = 0; s2 < d->job->num_procs; s2++)
				used[d->slots[s2]]++;
		}
		apply();
		for (int h = 0; h < nh; h++)
			ck_assert_int_le(F.h[h].used_slots, F.h[h].max_slots);
	}
}
END_TEST

static Suite *
preempt_suite(void)
{
	Suite *s = suite_create("preempt");
	TCase *tc = tcase_create("config");
	TCase *tp = tcase_create("pass");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, may_by_priority);
	tcase_add_test(tc, may_equal_priority_never);
	tcase_add_test(tc, may_lists);
	tcase_add_test(tc, parse_forms);
	tcase_add_test(tc, parse_keywords);
	tcase_add_test(tc, victim_queue_order);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tp, NULL, teardown);
	tcase_add_test(tp, basic);
	tcase_add_test(tp, no_preemption_without_config);
	tcase_add_test(tp, own_queue_never);
	tcase_add_test(tp, least_loaded_host);
	tcase_add_test(tp, preferred_queue_first);
	tcase_add_test(tp, lowest_priority_queue_first);
	tcase_add_test(tp, least_run_time);
	tcase_add_test(tp, multi_slot_takes_what_it_needs);
	tcase_add_test(tp, free_slots_first);
	tcase_add_test(tp, no_superfluous_victim);
	tcase_add_test(tp, mini_job);
	tcase_add_test(tp, optimal_mini_job);
	tcase_add_test(tp, span_one_host);
	tcase_add_test(tp, no_preempt_jobs);
	tcase_add_test(tp, victim_once_per_pass);
	tcase_add_test(tp, resume_when_free);
	tcase_add_test(tp, resume_before_preemptor_ends);
	tcase_add_test(tp, higher_pending_before_resume);
	tcase_add_test(tp, limit_freed_by_own_job);
	tcase_add_test(tp, host_jlu);
	tcase_add_test(tp, tries_per_pass);
	tcase_add_test(tp, random_invariants);
	suite_add_tcase(s, tp);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(preempt_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
