/*
 * lsb.resources: the Limit sections in both forms, LSF's rules on what
 * goes together, the messages for bad lines; and the policy's use of
 * the limits (struct pol_rlim) on a small cluster built in memory:
 * cluster-wide caps, PER_HOST and HOSTS limits, SLOTS_PER_PROCESSOR,
 * JOBS and MEM, and preemption freeing a limit that leaves suspended
 * jobs out.
 */
#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "conftree.h"
#include "policy.h"





static struct lsf_config cfg;
static struct conf_diag diag;

/* A cluster of h1 h2 h3, a group of users, queues normal and short,
 * and the given lsb.resources; the result of config_load. */
static int
load(const char *resources)
{
	char *conf;

	tree_make("check_resources");
	conf = xasprintf("LSF_CONFDIR=%s/conf\nLSB_CONFDIR=%s/conf/lsbatch\n"
	    "LSB_SHAREDIR=%s/work\n", dir, dir, dir);
	put("lsf.conf", conf);
	free(conf);
	put("conf/lsf.shared", "Begin Cluster\nClusterName\nc1\n"
	    "End Cluster\n");
	put("conf/lsf.cluster.c1", "Begin Host\nHOSTNAME model type server\n"
	    "h1 ! ! 1\nh2 ! ! 1\nh3 ! ! 1\nEnd Host\n");
	put(LSB "lsb.queues", "Begin Queue\nQUEUE_NAME = normal\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = short\nEnd Queue\n");
	put(LSB "lsb.users", "Begin UserGroup\nGROUP_NAME GROUP_MEMBER\n"
	    "grp (alice bob)\nEnd UserGroup\n");
	put(LSB "lsb.hosts", "Begin HostGroup\nGROUP_NAME GROUP_MEMBER\n"
	    "two (h1 h2)\nEnd HostGroup\n");
	put(LSB "lsb.params", "Begin Parameters\nEnd Parameters\n");
	put(LSB "lsb.resources", resources);
	conf_diag_init(&diag);
	return config_load(&cfg, dir, CONF_ALL, &diag);
}

static void
teardown(void)
{
	config_release(&cfg);
	conf_diag_release(&diag);
	tree_remove();
}

/* Does some message hold text? */
static bool
said(const char *text)
{
	for (size_t i = 0; i < diag.msgs.n; i++)
		if (strstr(diag.msgs.v[i], text) != NULL)
			return true;
	return false;
}

START_TEST(horizontal)
{
	const struct limit_conf *l;

	ck_assert_int_eq(load("Begin Limit\nNAME = a\nPER_USER = all ~bob\n"
	    "QUEUES = normal\nHOSTS = two\nSLOTS = 3\nJOBS = 2\nMEM = 100\n"
	    "TMP = 5\nEnd Limit\n"), 0);
	/* TMP is kept without effect, and said to be. */
	ck_assert_int_eq(diag.nwarnings, 1);
	ck_assert(said("TMP is not supported"));
	ck_assert_int_eq(cfg.nlimits, 1);
	l = &cfg.limits[0];
	ck_assert_str_eq(l->name, "a");
	ck_assert(l->per_user);
	ck_assert_int_eq((int)l->users.n, 2);
	ck_assert_str_eq(l->users.v[1], "~bob");
	ck_assert(!l->per_queue);
	ck_assert_str_eq(l->queues.v[0], "normal");
	ck_assert(!l->per_host);
	ck_assert_str_eq(l->hosts.v[0], "two");
	ck_assert_int_eq(l->slots, 3);
	ck_assert_int_eq(l->jobs, 2);
	ck_assert_int_eq(l->mem, 100);
	ck_assert(l->slots_per_proc < 0);
	ck_assert_int_eq(l->line, 1);
}
END_TEST

START_TEST(vertical)
{
	const struct limit_conf *l;

	ck_assert_int_eq(load("Begin Limit\n"
	    "NAME  USERS      PER_QUEUE  PER_HOST  SLOTS_PER_PROCESSOR  MEM\n"
	    "x     (alice)    -          (h1 h2)   1.5                  20%\n"
	    "y     ()         (short)    ()        -                    10\n"
	    "End Limit\n"), 0);
	ck_assert_int_eq(cfg.nlimits, 2);
	l = &cfg.limits[0];
	ck_assert_str_eq(l->name, "x");
	ck_assert_int_eq(l->line, 3);
	ck_assert_str_eq(l->users.v[0], "alice");
	ck_assert_int_eq((int)l->queues.n, 0);
	ck_assert(l->per_host);
	ck_assert_int_eq((int)l->hosts.n, 2);
	ck_assert(l->slots_per_proc == 1.5f);
	ck_assert(l->mem_pct == 20.0f);
	ck_assert_int_eq(l->mem, -1);
	l = &cfg.limits[1];
	ck_assert_int_eq((int)l->users.n, 0);
	ck_assert(l->per_queue);
	ck_assert_int_eq(l->mem, 10);
	ck_assert_int_eq(l->slots, -1);
}
END_TEST

START_TEST(rules)
{
	ck_assert_int_lt(load("Begin Limit\nNAME = b\nUSERS = alice\n"
	    "PER_USER = bob\nSLOTS = 1\nEnd Limit\n"
	    "Begin Limit\nNAME = c\nSLOTS = 1\nSLOTS_PER_PROCESSOR = 2\n"
	    "PER_HOST = h1\nEnd Limit\n"
	    "Begin Limit\nNAME = d\nSLOTS_PER_PROCESSOR = 2\nEnd Limit\n"
	    "Begin Limit\nNAME = e\nHOSTS = h1\nMEM = 5%\nEnd Limit\n"
	    "Begin Limit\nNAME = f\nJOBS = x\nEnd Limit\n"
	    "Begin Limit\nNAME = g\nSLOTS = 1\nEnd Limit\n"
	    "Begin Limit\nNAME = g\nSLOTS = 2\nEnd Limit\n"), 0);
	ck_assert(said("lsb.resources:4: limit b: USERS and PER_USER "
	    "cannot both be set"));
	ck_assert(said("lsb.resources:7: limit c: SLOTS and "
	    "SLOTS_PER_PROCESSOR cannot both be set"));
	ck_assert(said("lsb.resources:13: limit d: SLOTS_PER_PROCESSOR "
	    "needs PER_HOST"));
	ck_assert(said("limit e: MEM as a percentage needs PER_HOST"));
	ck_assert(said("lsb.resources:24: limit f: bad JOBS \"x\""));
	ck_assert(said("lsb.resources:30: limit g is already defined at "
	    "line 26; ignored"));
	ck_assert_int_eq(cfg.nlimits, 1);
	ck_assert_str_eq(cfg.limits[0].name, "g");
	ck_assert_int_eq(cfg.limits[0].slots, 1);
}
END_TEST

START_TEST(warnings)
{
	ck_assert_int_eq(load("Begin Limit\nNAME = w\nQUEUES = nosuch\n"
	    "HOSTS = h9 h1\nLICENSE = ([lic,2])\nBOGUS = 1\nSLOTS = 1\n"
	    "End Limit\n"
	    "Begin Limit\nNAME = none\nUSERS = alice\nEnd Limit\n"
	    "Begin Limit\nEnd Limit\n"), 0);
	ck_assert(said("limit w: nosuch is not a queue"));
	ck_assert(said("limit w: h9 is not a server host or host group"));
	ck_assert(said("limit w: unknown parameter BOGUS ignored"));
	ck_assert(said("LICENSE is not supported"));
	ck_assert(said("limit none sets no SLOTS"));
	ck_assert(said("empty Limit section ignored"));
	ck_assert_int_eq(cfg.nlimits, 1);
	ck_assert_int_eq(diag.nerrors, 0);
}
END_TEST

START_TEST(comments_only)
{
	ck_assert_int_eq(load("# nothing\n"), 0);
	ck_assert_int_eq(cfg.nlimits, 0);
	ck_assert_int_eq(diag.nwarnings, 0);
}
END_TEST

/*
 * The policy: hosts with 4 slots and 2 CPUs each, one queue.
 */
#define NH	3

static struct {
	struct pol_cluster	 c;
	struct pol_host		 h[NH];
	struct pol_host		*hp[NH];
	float			 load[NH][NLOADIDX];
	char			 name[NH][8];
	struct pol_queue	 q[2];
	struct pol_queue	*qp[2];
	struct pol_job		 j[16];
	int			 nj;
	struct pol_decision	 d[32];
	int			 nd;
	struct pol_rlim		 rl[4];
	int			 used[4][NH + 1];
	int			 taken[4][NH + 1];
	bool			 hosts[NH];
} P;

static void
p_init(void)
{
	memset(&P, 0, sizeof(P));
	for (int i = 0; i < NH; i++) {
		struct pol_host *h = &P.h[i];

		snprintf(P.name[i], sizeof(P.name[i]), "h%d", i);
		h->usable = true;
		h->max_slots = 4;
		h->jl_u = -1;
		h->rr.name = P.name[i];
		h->rr.load = P.load[i];
		h->rr.ncpus = 2;
		h->rr.maxmem = 1000;
		P.load[i][LI_R15S] = 0.1f * (float)i;
		P.hp[i] = h;
	}
	for (int i = 0; i < 2; i++) {
		P.q[i].name = i ? "high" : "low";
		P.q[i].priority = i ? 50 : 10;
		P.q[i].order = i;
		P.q[i].active = true;
		P.q[i].qcap.max = -1;
		P.q[i].hjob_limit = -1;
		P.q[i].pjob_limit = -1;
		P.qp[i] = &P.q[i];
	}
	P.c.hosts = P.hp;
	P.c.nhosts = NH;
	P.c.queues = P.qp;
	P.c.nqueues = 1;
	P.c.now = 1700000000;
	for (int k = 0; k < 4; k++) {
		struct pol_rlim *r = &P.rl[k];

		r->cap.max = -1;
		r->host_max = -1;
		r->per_proc = -1;
		r->mem_pct = -1;
		r->host_used = P.used[k];
		r->host_taken = P.taken[k];
		r->cap.reason = PEND_RL_USER;
		r->hreason = HR_RLIMIT_SLOT;
	}
}

static struct pol_rlim *rlv[4][4];

/* A job of queue qi under the limits given by index (-1 ends). */
static struct pol_job *
p_job(int qi, int nprocs, int l0, int l1)
{
	int k = P.nj;
	struct pol_job *j = &P.j[P.nj++];

	j->num_procs = nprocs;
	if (l0 >= 0) {
		rlv[k % 4][0] = &P.rl[l0];
		j->nrlims = 1;
		if (l1 >= 0) {
			rlv[k % 4][1] = &P.rl[l1];
			j->nrlims = 2;
		}
		j->rlims = rlv[k % 4];
		for (int i = 0; i < j->nrlims; i++)
			if (!POL_RL_GLOBAL(j->rlims[i]))
				j->rl_hosts = true;
	}
	policy_job_append(&P.q[qi], j);
	return j;
}

/* Carry out the decisions as mbatchd would; returns how many. */
static int
p_run(void)
{
	policy_decisions_free(P.d, P.nd);
	P.nd = policy_schedule(&P.c, P.d, 32);
	for (int i = 0; i < P.nd; i++) {
		struct pol_job *j = P.d[i].job;

		policy_job_remove(j);
		for (int s = 0; s < j->num_procs; s++)
			P.h[P.d[i].slots[s]].used_slots++;
		for (int k = 0; k < j->nrlims; k++) {
			struct pol_rlim *r = j->rlims[k];

			if (r->per_host)
				for (int s = 0; s < j->num_procs; s++)
					r->host_used[P.d[i].slots[s]] +=
					    r->kind == POL_RL_SLOTS ? 1 : 0;
			else
				r->cap.used += policy_rlim_need(r, j, 0, 1);
		}
	}
	return P.nd;
}

static int
reason(const struct pol_job *j)
{
	const uint32_t *counts;

	return policy_job_reason(&P.c, j, &counts);
}

START_TEST(global_cap)
{
	struct pol_job *a, *b, *c;

	p_init();
	P.rl[0].cap.max = 3;
	a = p_job(0, 2, 0, -1);
	b = p_job(0, 2, 0, -1);
	c = p_job(0, 1, -1, -1);
	ck_assert_int_eq(p_run(), 2);
	ck_assert_ptr_eq(P.d[0].job, a);
	ck_assert_ptr_eq(P.d[1].job, c);
	ck_assert_int_eq(reason(b), PEND_RL_USER);
	ck_assert_int_eq(P.rl[0].cap.used, 2);
	/* A JOBS limit counts jobs, whatever their slots. */
	p_init();
	P.rl[1].kind = POL_RL_JOBS;
	P.rl[1].cap.max = 2;
	P.rl[1].cap.reason = PEND_RL_QUEUE_JOBS;
	a = p_job(0, 3, 1, -1);
	b = p_job(0, 3, 1, -1);
	c = p_job(0, 1, 1, -1);
	ck_assert_int_eq(p_run(), 2);
	ck_assert_int_eq(reason(c), PEND_RL_QUEUE_JOBS);
	ck_assert_int_eq(P.rl[1].cap.used, 2);
}
END_TEST

START_TEST(per_host)
{
	struct pol_job *a, *b, *c, *d;
	const uint32_t *counts;

	p_init();
	P.rl[0].per_host = true;
	P.rl[0].host_max = 1;
	P.hosts[0] = P.hosts[1] = true;
	P.rl[0].hosts = P.hosts;
	a = p_job(0, 1, 0, -1);
	b = p_job(0, 1, 0, -1);
	c = p_job(0, 1, 0, -1);
	d = p_job(0, 3, 0, -1);
	ck_assert_int_eq(p_run(), 4);
	/* One on h0, one on h1, the rest on h2 where it does not count. */
	ck_assert_int_eq(P.d[0].slots[0], 0);
	ck_assert_int_eq(P.d[1].slots[0], 1);
	ck_assert_int_eq(P.d[2].slots[0], 2);
	ck_assert_int_eq(P.d[3].slots[0], 2);
	(void)a; (void)b; (void)c; (void)d;
	a = p_job(0, 1, 0, -1);
	ck_assert_int_eq(p_run(), 0);
	ck_assert_int_eq(reason(a), PEND_NO_HOST);
	(void)policy_job_reason(&P.c, a, &counts);
	ck_assert_uint_eq(counts[HR_RLIMIT_SLOT], 2);
	ck_assert_uint_eq(counts[HR_FULL], 1);
}
END_TEST

START_TEST(per_processor)
{
	struct pol_job *a;

	/* 1.5 per processor on 2 CPUs: 3 slots on each host. */
	p_init();
	P.rl[0].per_host = true;
	P.rl[0].per_proc = 1.5f;
	for (int i = 0; i < 5; i++)
		p_job(0, 2, 0, -1);
	/* Each host takes one 2-slot job, then one over two hosts (one
	 * slot left on each): 9 slots less 8; the fifth job waits. */
	ck_assert_int_eq(p_run(), 4);
	a = p_job(0, 1, 0, -1);
	ck_assert_int_eq(p_run(), 1);
	ck_assert_ptr_eq(P.d[0].job, a);
	for (int i = 0; i < NH; i++)
		ck_assert_int_eq(P.used[0][i], 3);
}
END_TEST

START_TEST(hosts_together)
{
	struct pol_job *a, *b;
	const uint32_t *counts;

	/* 3 slots on h0 and h1 together: each has room, not both. */
	p_init();
	P.rl[0].cap.max = 3;
	P.hosts[0] = P.hosts[1] = true;
	P.rl[0].hosts = P.hosts;
	P.h[2].usable = false;
	a = p_job(0, 2, 0, -1);
	b = p_job(0, 2, 0, -1);
	ck_assert_int_eq(p_run(), 1);
	ck_assert_ptr_eq(P.d[0].job, a);
	ck_assert_int_eq(reason(b), PEND_NO_HOST);
	(void)policy_job_reason(&P.c, b, &counts);
	/* Each host has a slot of the limit's, not two between them. */
	ck_assert_uint_eq(counts[HR_NOT_ENOUGH], 2);
	/* With h2 back: the limit's last slot on h0, the other on h2. */
	P.h[2].usable = true;
	ck_assert_int_eq(p_run(), 1);
	ck_assert_int_eq(P.d[0].slots[0], 0);
	ck_assert_int_eq(P.d[0].slots[1], 2);
}
END_TEST

START_TEST(array_jobs_on_hosts)
{
	struct pol_job *a;

	/* JOBS = 2 on h0 and h1 together: an array of 3 elements (one
	 * pol_job, count 3) starts two, each a job of its own. */
	p_init();
	P.rl[0].kind = POL_RL_JOBS;
	P.rl[0].cap.max = 2;
	P.rl[0].hreason = HR_RLIMIT_JOBS;
	P.hosts[0] = P.hosts[1] = true;
	P.rl[0].hosts = P.hosts;
	P.h[2].usable = false;
	a = p_job(0, 1, 0, -1);
	a->count = 3;
	ck_assert_int_eq(policy_schedule(&P.c, P.d, 32), 2);
	P.nd = 2;
}
END_TEST

START_TEST(mem)
{
	struct pol_job *a, *b;

	p_init();
	P.rl[0].kind = POL_RL_MEM;
	P.rl[0].cap.max = 500;
	P.rl[0].cap.reason = PEND_RL_CLUSTER_MEM;
	a = p_job(0, 1, 0, -1);
	a->rl_mem = 300;
	b = p_job(0, 1, 0, -1);
	b->rl_mem = 300;
	ck_assert_int_eq(p_run(), 1);
	ck_assert_int_eq(reason(b), PEND_RL_CLUSTER_MEM);
	ck_assert_int_eq(P.rl[0].cap.used, 300);
}
END_TEST

START_TEST(preempt_frees_limit)
{
	struct pol_job *l1, *l2, *h;
	struct pol_queue *pq[2];

	/* Two low jobs hold a group's 2 slots; the high queue may preempt
	 * the low one.  With susp_free the limit is freed by suspending
	 * one of them; without, the high job waits for the limit. */
	for (int sf = 0; sf < 2; sf++) {
		p_init();
		P.c.nqueues = 2;
		P.qp[0] = &P.q[1];
		P.qp[1] = &P.q[0];
		pq[0] = &P.q[0];
		P.q[1].victims = pq;
		P.q[1].nvictims = 1;
		P.rl[0].cap.max = 2;
		P.rl[0].cap.susp_free = sf;
		l1 = p_job(0, 1, 0, -1);
		l2 = p_job(0, 1, 0, -1);
		ck_assert_int_eq(p_run(), 2);
		for (int i = 0; i < 2; i++) {
			struct pol_job *v = P.d[i].job;

			v->exec = P.d[i].slots;
			v->nexec = 1;
			policy_list_add(&P.q[0].running, v);
		}
		/* Keep the slot arrays the jobs now point at. */
		for (int i = 0; i < 2; i++)
			P.d[i].slots = NULL;
		P.nd = 0;
		h = p_job(1, 1, 0, -1);
		P.nd = policy_schedule(&P.c, P.d, 32);
		if (sf) {
			ck_assert_int_eq(P.nd, 1);
			ck_assert_ptr_eq(P.d[0].job, h);
			ck_assert_int_eq(P.d[0].nvictims, 1);
		} else {
			ck_assert_int_eq(P.nd, 0);
			ck_assert_int_eq(reason(h), PEND_RL_USER);
		}
		policy_decisions_free(P.d, P.nd);
		P.nd = 0;
		free((void *)l1->exec);
		free((void *)l2->exec);
	}
}
END_TEST

START_TEST(jobs_limit_and_preemption)
{
	struct pol_job *l1, *h;
	struct pol_queue *pq[1];

	/* JOBS = 1 and one slot, held by a low job: the high queue's job
	 * preempts it all the same when it needs the slot; with a free
	 * slot there is nothing to preempt and it waits for the limit. */
	for (int slot_free = 0; slot_free < 2; slot_free++) {
		p_init();
		P.c.nhosts = 1;
		P.h[0].max_slots = slot_free ? 2 : 1;
		P.c.nqueues = 2;
		P.qp[0] = &P.q[1];
		P.qp[1] = &P.q[0];
		pq[0] = &P.q[0];
		P.q[1].victims = pq;
		P.q[1].nvictims = 1;
		P.rl[0].kind = POL_RL_JOBS;
		P.rl[0].cap.max = 1;
		P.rl[0].cap.reason = PEND_RL_CLUSTER_JOBS;
		l1 = p_job(0, 1, 0, -1);
		ck_assert_int_eq(p_run(), 1);
		l1->exec = P.d[0].slots;
		l1->nexec = 1;
		P.d[0].slots = NULL;
		policy_list_add(&P.q[0].running, l1);
		P.nd = 0;
		h = p_job(1, 1, 0, -1);
		P.nd = policy_schedule(&P.c, P.d, 32);
		if (slot_free) {
			ck_assert_int_eq(P.nd, 0);
			ck_assert_int_eq(reason(h), PEND_RL_CLUSTER_JOBS);
		} else {
			ck_assert_int_eq(P.nd, 1);
			ck_assert_ptr_eq(P.d[0].job, h);
			ck_assert_int_eq(P.d[0].nvictims, 1);
			ck_assert_ptr_eq(P.d[0].victims[0], l1);
		}
		policy_decisions_free(P.d, P.nd);
		P.nd = 0;
		free((void *)l1->exec);
	}
}
END_TEST

START_TEST(resume_by_host)
{
	static int exec0[1] = { 0 };
	struct pol_job *v;

	/* A preempted job under a PER_HOST limit that leaves suspended
	 * jobs out resumes only when its host has room under the limit. */
	for (int room = 0; room < 2; room++) {
		p_init();
		P.rl[0].per_host = true;
		P.rl[0].host_max = 1;
		P.rl[0].cap.susp_free = true;
		P.used[0][0] = room ? 0 : 1;
		v = &P.j[P.nj++];
		v->num_procs = 1;
		v->queue = &P.q[0];
		v->exec = exec0;
		v->nexec = 1;
		rlv[0][0] = &P.rl[0];
		v->rlims = rlv[0];
		v->nrlims = 1;
		v->rl_hosts = true;
		policy_list_add(&P.q[0].preempted, v);
		P.nd = policy_schedule(&P.c, P.d, 32);
		if (room) {
			ck_assert_int_eq(P.nd, 1);
			ck_assert(P.d[0].resume);
			ck_assert_ptr_eq(P.d[0].job, v);
			ck_assert_int_eq(P.taken[0][0], 1);
		} else
			ck_assert_int_eq(P.nd, 0);
		policy_decisions_free(P.d, P.nd);
		P.nd = 0;
	}
}
END_TEST

START_TEST(preempt_for_host_limits)
{
	static int used[NH + 1], susp[NH + 1], taken[NH + 1];
	struct pol_user u = { .host_used = used, .host_susp = susp,
	    .jl_p = -1, .host_taken = taken };
	struct pol_job *a;

	/* JL/U 1 on one host, where the user's suspended job holds no
	 * slot: it counts unless PREEMPT_FOR=HOST_JLU leaves it out. */
	for (int pf = 0; pf < 3; pf++) {
		p_init();
		P.c.nhosts = 1;
		P.c.any_jlu = true;
		P.h[0].jl_u = pf == 2 ? -1 : 1;
		memset(used, 0, sizeof(used));
		memset(susp, 0, sizeof(susp));
		used[0] = susp[0] = 1;
		u.pass = 0;
		if (pf == 2) {
			/* JL/P 0.5 of 2 CPUs: one slot; USER_JLP. */
			u.jl_p = 0.5f;
			P.c.preempt_for = PREEMPT_FOR_USER_JLP;
		} else {
			u.jl_p = -1;
			P.c.preempt_for = pf ? PREEMPT_FOR_HOST_JLU : 0;
		}
		a = p_job(0, 1, -1, -1);
		a->user = &u;
		if (pf == 0) {
			ck_assert_int_eq(p_run(), 0);
			ck_assert_int_eq(reason(a), PEND_NO_HOST);
		} else {
			ck_assert_int_eq(p_run(), 1);
		}
		policy_decisions_free(P.d, P.nd);
		P.nd = 0;
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("resources");
	TCase *tc = tcase_create("conf");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, horizontal);
	tcase_add_test(tc, vertical);
	tcase_add_test(tc, rules);
	tcase_add_test(tc, warnings);
	tcase_add_test(tc, comments_only);
	suite_add_tcase(s, tc);
	tc = tcase_create("policy");
	tcase_add_test(tc, global_cap);
	tcase_add_test(tc, per_host);
	tcase_add_test(tc, per_processor);
	tcase_add_test(tc, hosts_together);
	tcase_add_test(tc, mem);
	tcase_add_test(tc, array_jobs_on_hosts);
	tcase_add_test(tc, preempt_frees_limit);
	tcase_add_test(tc, preempt_for_host_limits);
	tcase_add_test(tc, jobs_limit_and_preemption);
	tcase_add_test(tc, resume_by_host);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
