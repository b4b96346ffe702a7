/*
 * The fairshare turn of a queue (src/fairshare-policy.c) on small
 * clusters built in memory: hosts of one slot each, users named by one
 * letter, and the order of the starts of a pass worked out by hand.
 * With the default factors and no history, an account's priority is
 * shares / ((1 + slots) x 3.0), slots counting those it took in the
 * pass; a tie goes to the earlier sibling in USER_SHARES.
 *
 * policy_schedule() does not apply its decisions: apply() below does what
 * mbatchd does between passes (slots used on hosts, the start charged to
 * the share tree, the job off the pending list).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare.h"
#include "lsf.h"
#include "policy.h"
#include "util.h"

#include "polhost.h"

#define MAXH	16
#define MAXQ	2
#define MAXJ	128
#define NOW	1700000000
#define HOUR	3600

static struct {
	struct pol_cluster	 c;
	struct pol_host		 h[MAXH];
	struct pol_host		*hp[MAXH];
	float			 load[MAXH][NLOADIDX];
	char			 name[MAXH][16];
	struct pol_queue	 q[MAXQ];
	struct pol_queue	*qp[MAXQ];
	struct pol_job		 j[MAXJ];
	char			 who[MAXJ][8];	/* the job's user */
	int			 nj;
	struct pol_decision	 d[MAXJ];
	int			 nd;
	struct fs_tree		*t;
	char			 seq[MAXJ + 1];
} F;

/* lsb.users: ga has USER_SHARES [a, 3] [b, 1]; gb is plain, with c. */
static bool
is_group(const char *name, void *arg)
{
	(void)arg;
	return strcmp(name, "ga") == 0 || strcmp(name, "gb") == 0;
}

static bool
in_group(const char *user, const char *group, void *arg)
{
	(void)arg;
	if (strcmp(group, "ga") == 0)
		return strcmp(user, "a") == 0 || strcmp(user, "b") == 0;
	if (strcmp(group, "gb") == 0)
		return strcmp(user, "c") == 0;
	return false;
}

static const char *
shares_of(const char *group, void *arg)
{
	(void)arg;
	return strcmp(group, "ga") == 0 ? "[a, 3] [b, 1]" : NULL;
}

/* nh hosts of one slot, nq queues (q0 before q1) ordered by one tree. */
static void
fx_init(int nh, int nq, const char *user_shares)
{
	static const struct fs_groups g = {
		is_group, in_group, shares_of, NULL
	};
	struct fs_shares s = { 0 };
	struct fs_factors f;
	const char *why;

	memset(&F, 0, sizeof(F));
	for (int i = 0; i < nh; i++) {
		polhost_init(&F.h[i], i, F.name[i], sizeof(F.name[i]),
		    F.load[i], 1, 1);
		F.hp[i] = &F.h[i];
	}
	ck_assert_msg(fs_fairshare_parse(user_shares, &s, &why) == 0, "%s",
	    why);
	fs_factors_default(&f);
	F.t = fs_tree_new("queue/q0", &s, &f, &g);
	fs_shares_release(&s);
	F.t->nqueues = nq;
	for (int i = 0; i < nq; i++) {
		struct pol_queue *q = &F.q[i];

		q->name = i == 0 ? "q0" : "q1";
		q->priority = 20 - 10 * i;
		q->order = i;
		q->active = true;
		q->qcap.max = -1;
		q->hjob_limit = -1;
		q->pjob_limit = -1;
		q->fs = F.t;
		q->fs_slot = i;
		F.qp[i] = q;
	}
	F.c.hosts = F.hp;
	F.c.nhosts = nh;
	F.c.queues = F.qp;
	F.c.nqueues = nq;
	F.c.now = NOW;
}

static void
teardown(void)
{
	policy_decisions_free(F.d, F.nd);
	F.nd = 0;
	for (int i = 0; i < MAXQ; i++)
		policy_fs_release(&F.q[i]);
	fs_tree_free(F.t);
	F.t = NULL;
}

/* A pending job of user's in queue qi, its account set first. */
static struct pol_job *
ujob(int qi, const char *user)
{
	struct pol_job *j;
	struct fs_node *leaf = fs_tree_account(F.t, user);

	ck_assert_int_lt(F.nj, MAXJ);
	ck_assert_ptr_nonnull(leaf);
	j = &F.j[F.nj];
	snprintf(F.who[F.nj], sizeof(F.who[0]), "%s", user);
	F.nj++;
	j->num_procs = 1;
	j->fsa = policy_fs_acct(&F.q[qi], leaf);
	ck_assert_ptr_nonnull(j->fsa);
	policy_job_append(&F.q[qi], j);
	return j;
}

static const char *
who(const struct pol_job *j)
{
	return F.who[j - F.j];
}

/* One pass; the users of its starts in order ("aab"). */
static const char *
run(void)
{
	policy_decisions_free(F.d, F.nd);
	F.nd = policy_schedule(&F.c, F.d, MAXJ);
	ck_assert_int_ge(F.nd, 0);
	for (int i = 0; i < F.nd; i++)
		F.seq[i] = who(F.d[i].job)[0];
	F.seq[F.nd] = '\0';
	return F.seq;
}

/* What mbatchd does with the decisions: slots used, the start charged
 * to the tree, the job (an array's element) off the pending list. */
static void
apply(void)
{
	for (int i = 0; i < F.nd; i++) {
		struct pol_job *j = F.d[i].job;
		struct fs_node *leaf = fs_tree_account(F.t, who(j));

		for (int k = 0; k < j->num_procs; k++)
			F.h[F.d[i].slots[k]].used_slots++;
		fs_charge_start(leaf, &F.t->f, j->num_procs, F.c.now);
		if (j->count > 1)
			j->count--;
		else
			policy_job_remove(j);
	}
	policy_decisions_free(F.d, F.nd);
	F.nd = 0;
}

/* The account's list, as the users' job numbers "3 1 4", checked both
 * ways and against npend. */
static void
assert_acct(const struct pol_fs_acct *a, const char *want)
{
	char got[256] = "";
	int n = 0;
	const struct pol_job *j, *last = NULL;

	for (j = a->head; j != NULL; j = j->fnext) {
		ck_assert_ptr_eq(j->fprev, last);
		ck_assert_ptr_eq(j->fsa, a);
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%td",
		    n ? " " : "", j - F.j);
		last = j;
		n++;
	}
	ck_assert_ptr_eq(a->tail, last);
	ck_assert_int_eq(a->npend, n);
	ck_assert_str_eq(got, want);
}

START_TEST(shares_3_1)
{
	/* a 3, b 1, 8 free slots, 10 jobs each:
	 *   a 3/3 = 1     b 1/3     -> a (a 3/6 = 1/2)
	 *   a 1/2 > 1/3             -> a (a 3/9 = 1/3)
	 *   a 1/3 = b 1/3, a first  -> a (a 3/12 = 1/4)
	 *   b 1/3 > 1/4             -> b (b 1/6)
	 *   a 1/4 > 1/6             -> a (a 3/15 = 1/5)
	 *   a 1/5 > 1/6             -> a (a 3/18 = 1/6)
	 *   tie, a first            -> a (a 3/21 = 1/7)
	 *   b 1/6 > 1/7             -> b
	 * 6 for a, 2 for b: 3:1. */
	struct pol_job *a0, *b0;

	fx_init(8, 1, "USER_SHARES[[a, 3] [b, 1]]");
	b0 = ujob(0, "b");	/* b's jobs first in the queue: no matter */
	for (int i = 1; i < 10; i++)
		ujob(0, "b");
	a0 = ujob(0, "a");
	for (int i = 1; i < 10; i++)
		ujob(0, "a");
	ck_assert_str_eq(run(), "aaabaaab");
	/* Each account's first jobs, in queue order. */
	ck_assert_ptr_eq(F.d[0].job, a0);
	ck_assert_ptr_eq(F.d[1].job, a0 + 1);
	ck_assert_ptr_eq(F.d[3].job, b0);
	ck_assert_ptr_eq(F.d[7].job, b0 + 1);
	ck_assert_ptr_eq(F.d[6].job, a0 + 5);
	/* Eight different hosts. */
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < i; k++)
			ck_assert_int_ne(F.d[i].slots[0], F.d[k].slots[0]);
}
END_TEST

START_TEST(history_first)
{
	/* a and b 1:1; a used 10 CPU hours 5 hours ago: 1 hour now.
	 *   a 1 / (1 x 0.7 + 3) = 1/3.7    b 1/3     -> b (b 1/6)
	 *   a 1/3.7 > b 1/6                          -> a (a 1/6.7)
	 *   b 1/6 > a 1/6.7                          -> b
	 * (without the history: a b a). */
	fx_init(3, 1, "USER_SHARES[[a, 1] [b, 1]]");
	for (int i = 0; i < 3; i++) {
		ujob(0, "a");
		ujob(0, "b");
	}
	fs_charge_history(fs_tree_account(F.t, "a"), &F.t->f, 10,
	    NOW - 5 * HOUR, 0, 0);
	ck_assert_str_eq(run(), "bab");
}
END_TEST

START_TEST(hierarchy)
{
	/* ga and gb 1:1 at the top; in ga, a and b 3:1; gb one account (c).
	 * Each group: 1 / ((1 + taken) x 3); in ga, a 3 / ((1 + a) x 3),
	 * b 1 / ((1 + b) x 3).
	 *   ga 1/3 = gb 1/3, ga first; a 1 > b 1/3     -> a  (ga 1/6, a 1/2)
	 *   gb 1/3 > ga 1/6                            -> c  (gb 1/6)
	 *   tie, ga; a 1/2 > b 1/3                     -> a  (ga 1/9, a 1/3)
	 *   gb                                         -> c  (gb 1/9)
	 *   tie, ga; a 1/3 = b 1/3, a first            -> a  (ga 1/12, a 1/4)
	 *   gb                                         -> c  (gb 1/12)
	 *   tie, ga; b 1/3 > a 1/4                     -> b  (ga 1/15)
	 *   gb                                         -> c
	 * The groups split 4:4, then ga's 4 go 3:1. */
	fx_init(8, 1, "USER_SHARES[[ga, 1] [gb, 1]]");
	for (int i = 0; i < 10; i++) {
		ujob(0, "a");
		ujob(0, "b");
		ujob(0, "c");
	}
	ck_assert_str_eq(run(), "acacacbc");
}
END_TEST

START_TEST(array_elements)
{
	/* a's array of 3 elements, b's 3 jobs, 1:1, 4 slots.  Each element
	 * counts at once:
	 *   tie, a first  -> a[1] (a 1/6);  b 1/3 -> b (b 1/6)
	 *   tie, a first  -> a[2] (a 1/9);  b 1/6 -> b */
	struct pol_job *arr;

	fx_init(4, 1, "USER_SHARES[[a, 1] [b, 1]]");
	arr = ujob(0, "a");
	arr->count = 3;
	for (int i = 0; i < 3; i++)
		ujob(0, "b");
	ck_assert_str_eq(run(), "abab");
	ck_assert_ptr_eq(F.d[0].job, arr);
	ck_assert_ptr_eq(F.d[2].job, arr);
	ck_assert_ptr_eq(F.d[1].job, &F.j[1]);
	ck_assert_ptr_eq(F.d[3].job, &F.j[2]);
	/* Applied (a and b hold 2 slots each), then a second slot on each
	 * host:  a 1/9 = b 1/9, a first -> a[3] (a 1/12); b -> its last
	 * job; nothing else is pending. */
	apply();
	ck_assert_int_eq(arr->count, 1);
	F.h[0].max_slots = F.h[1].max_slots = F.h[2].max_slots =
	    F.h[3].max_slots = 2;
	ck_assert_str_eq(run(), "ab");
	ck_assert_ptr_eq(F.d[0].job, arr);
	ck_assert_ptr_eq(F.d[1].job, &F.j[3]);
}
END_TEST

START_TEST(blocked_jobs)
{
	/* host00 is full.  a's first job asks for host00 (-m), b's first is
	 * held: neither stops its account or the other.  1:1, 3 free slots:
	 *   tie, a first: a0 cannot start, a1 does (a 1/6)
	 *   b: b0 held, b1 starts (b 1/6)
	 *   tie, a first: a2 */
	static const int asked[] = { 0, 0 };
	struct pol_job *a0, *a1, *a2, *b0, *b1;

	fx_init(4, 1, "USER_SHARES[[a, 1] [b, 1]]");
	F.h[0].used_slots = 1;
	a0 = ujob(0, "a");
	a0->asked = asked;
	a0->nasked = 1;
	b0 = ujob(0, "b");
	b0->held = true;
	a1 = ujob(0, "a");
	b1 = ujob(0, "b");
	a2 = ujob(0, "a");
	ck_assert_str_eq(run(), "aba");
	ck_assert_ptr_eq(F.d[0].job, a1);
	ck_assert_ptr_eq(F.d[1].job, b1);
	ck_assert_ptr_eq(F.d[2].job, a2);
	for (int i = 0; i < F.nd; i++)
		ck_assert(F.d[i].job != a0 && F.d[i].job != b0);
}
END_TEST

START_TEST(account_order)
{
	/* The queue a0 b1 a2 b3 a4 a5 (job numbers), then moved about; a's
	 * list always follows the queue's order. */
	struct pol_job *j[6];
	struct pol_queue *q;
	struct pol_fs_acct *fa, *fb;

	fx_init(6, 1, "USER_SHARES[[a, 1] [b, 1]]");
	q = &F.q[0];
	for (int i = 0; i < 6; i++)
		j[i] = ujob(0, i == 1 || i == 3 ? "b" : "a");
	fa = j[0]->fsa;
	fb = j[1]->fsa;
	/* One account per leaf and queue. */
	ck_assert_ptr_eq(policy_fs_acct(q, fs_tree_account(F.t, "a")), fa);
	ck_assert_ptr_null(policy_fs_acct(q, NULL));
	assert_acct(fa, "0 2 4 5");
	assert_acct(fb, "1 3");
	/* btop of a4: 4 0 b1 2 b3 5. */
	policy_job_remove(j[4]);
	assert_acct(fa, "0 2 5");
	policy_job_prepend(q, j[4]);
	assert_acct(fa, "4 0 2 5");
	/* a5 before b1: 4 0 5 b1 2 b3. */
	policy_job_remove(j[5]);
	policy_job_insert_before(q, j[1], j[5]);
	assert_acct(fa, "4 0 5 2");
	/* bbot of a4, after b3: 0 5 b1 2 b3 4. */
	policy_job_remove(j[4]);
	policy_job_insert_after(q, j[3], j[4]);
	assert_acct(fa, "0 5 2 4");
	/* a0 after a2: 5 b1 2 0 b3 4. */
	policy_job_remove(j[0]);
	policy_job_insert_after(q, j[2], j[0]);
	assert_acct(fa, "5 2 0 4");
	/* Insert after NULL is a prepend: 2 5 b1 0 b3 4. */
	policy_job_remove(j[2]);
	policy_job_insert_after(q, NULL, j[2]);
	assert_acct(fa, "2 5 0 4");
	/* b1 goes (killed); removing it twice does nothing more. */
	policy_job_remove(j[1]);
	policy_job_remove(j[1]);
	assert_acct(fb, "3");
	/* The pass takes a's in that order, b3 between:
	 *   tie, a first -> a2 (a 1/6); b -> b3 (b 1/6, no more);
	 *   then a5, a0, a4. */
	ck_assert_str_eq(run(), "abaaa");
	ck_assert_ptr_eq(F.d[0].job, j[2]);
	ck_assert_ptr_eq(F.d[1].job, j[3]);
	ck_assert_ptr_eq(F.d[2].job, j[5]);
	ck_assert_ptr_eq(F.d[3].job, j[0]);
	ck_assert_ptr_eq(F.d[4].job, j[4]);
	apply();
	assert_acct(fa, "");
	assert_acct(fb, "");
}
END_TEST

START_TEST(release)
{
	struct pol_queue *q;
	struct fs_node *la;

	fx_init(4, 1, "USER_SHARES[[a, 1] [b, 1]]");
	q = &F.q[0];
	for (int i = 0; i < 4; i++)
		ujob(0, i < 2 ? "b" : "a");
	la = fs_tree_account(F.t, "a");
	ck_assert_ptr_nonnull(la->accts[0]);
	policy_fs_release(q);
	ck_assert_ptr_null(q->faccts);
	ck_assert_ptr_null(la->accts[0]);
	for (int i = 0; i < 4; i++) {
		ck_assert_ptr_null(F.j[i].fsa);
		ck_assert_ptr_null(F.j[i].fnext);
		ck_assert_ptr_null(F.j[i].fprev);
	}
	/* The queue's own list is whole: without its tree the queue is
	 * FCFS again (b b a a). */
	q->fs = NULL;
	ck_assert_str_eq(run(), "bbaa");
	/* A job removed after the release is left alone by its account. */
	apply();
	ck_assert_ptr_null(q->head);
}
END_TEST

START_TEST(second_pass)
{
	/* a 3, b 1.  First pass, 2 free slots: a (1/2), a (1/3).  Applied:
	 * a holds 2 slots.  Then 6 more hosts:
	 *   a 3/9 = 1/3 = b 1/3, a first -> a (3/12 = 1/4)
	 *   b 1/3                        -> b (1/6)
	 *   a 1/4 -> a (1/5); a 1/5 -> a (1/6); tie, a first -> a (1/7);
	 *   b 1/6                        -> b
	 * 6:2 in all, as in one pass.  (Had the first starts not been
	 * charged: a a a b a a.) */
	fx_init(8, 1, "USER_SHARES[[a, 3] [b, 1]]");
	for (int i = 0; i < 10; i++) {
		ujob(0, "a");
		ujob(0, "b");
	}
	for (int i = 2; i < 8; i++)
		F.h[i].max_slots = 0;
	ck_assert_str_eq(run(), "aa");
	apply();
	ck_assert_int_eq(fs_tree_account(F.t, "a")->slots, 2);
	ck_assert_int_eq(F.t->root->slots, 2);
	for (int i = 2; i < 8; i++)
		F.h[i].max_slots = 1;
	ck_assert_str_eq(run(), "abaaab");
}
END_TEST

START_TEST(cross_queue)
{
	/* q0 (higher priority) and q1 share the tree; a and b 1:1, 4 slots.
	 * q0 has a's 2 jobs: a, a (a took 2).  In q1 that is seen:
	 *   a 1/9 < b 1/3 -> b (1/6); b 1/6 > a 1/9 -> b
	 * (without it: a b). */
	fx_init(4, 2, "USER_SHARES[[a, 1] [b, 1]]");
	ujob(0, "a");
	ujob(0, "a");
	ujob(1, "a");
	ujob(1, "a");
	ujob(1, "b");
	ujob(1, "b");
	ck_assert_str_eq(run(), "aabb");
	ck_assert_ptr_eq(F.d[0].job->queue, &F.q[0]);
	ck_assert_ptr_eq(F.d[2].job->queue, &F.q[1]);
	/* One account per queue for a. */
	ck_assert_ptr_ne(F.j[0].fsa, F.j[2].fsa);
	ck_assert_ptr_eq(fs_tree_account(F.t, "a")->accts[1], F.j[2].fsa);
}
END_TEST

START_TEST(zero_factors)
{
	/* Every factor 0: no division by zero; nothing a start takes moves
	 * a priority, so b (3 shares to a's 1) takes every slot it can. */
	fx_init(3, 1, "USER_SHARES[[a, 1] [b, 3]]");
	memset(&F.t->f, 0, sizeof(F.t->f));
	for (int i = 0; i < 4; i++) {
		ujob(0, "a");
		ujob(0, "b");
	}
	ck_assert_str_eq(run(), "bbb");
}
END_TEST

START_TEST(new_accounts)
{
	/* [default, 1]: each user a leaf of the root, made when first seen.
	 * x alone first (2 slots open): x x.  Then y, z and w come with a
	 * job each and 4 slots open; x holds 2 (1/9), each newcomer 1/3,
	 * ties (one entry, default, made them all) by name, whatever order
	 * they were made in, so that a restart keeps it: w y z, then x. */
	fx_init(6, 1, "USER_SHARES[[default, 1]]");
	for (int i = 0; i < 4; i++)
		ujob(0, "x");
	for (int i = 2; i < 6; i++)
		F.h[i].max_slots = 0;
	ck_assert_str_eq(run(), "xx");
	apply();
	ujob(0, "y");
	ujob(0, "z");
	ujob(0, "w");
	ck_assert_int_eq(F.t->root->nkids, 4);
	for (int i = 2; i < 6; i++)
		F.h[i].max_slots = 1;
	ck_assert_str_eq(run(), "wyzx");
}
END_TEST

START_TEST(fairshare_reason)
{
	/* a 1, b 3, one slot: b (3/3) goes before a (1/3) and takes it;
	 * a's job finds no room left because of that, which bjobs -p says.
	 * The next pass finds no free slot at all: then the slot limit is
	 * the reason. */
	const uint32_t *counts;
	struct pol_job *a, *b;

	fx_init(1, 1, "USER_SHARES[[a, 1] [b, 3]]");
	a = ujob(0, "a");
	b = ujob(0, "b");
	ck_assert_str_eq(run(), "b");
	ck_assert_ptr_eq(F.d[0].job, b);
	ck_assert_int_eq(policy_job_reason(&F.c, a, &counts), PEND_FAIRSHARE);
	apply();
	ck_assert_str_eq(run(), "");
	ck_assert_int_eq(policy_job_reason(&F.c, a, &counts), PEND_NO_HOST);
}
END_TEST

static Suite *
fspolicy_suite(void)
{
	Suite *s = suite_create("fspolicy");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, shares_3_1);
	tcase_add_test(tc, history_first);
	tcase_add_test(tc, hierarchy);
	tcase_add_test(tc, array_elements);
	tcase_add_test(tc, blocked_jobs);
	tcase_add_test(tc, account_order);
	tcase_add_test(tc, release);
	tcase_add_test(tc, second_pass);
	tcase_add_test(tc, cross_queue);
	tcase_add_test(tc, zero_factors);
	tcase_add_test(tc, new_accounts);
	tcase_add_test(tc, fairshare_reason);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(fspolicy_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
