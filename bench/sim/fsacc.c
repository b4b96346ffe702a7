/*
 * Fairshare accuracy (issue 22): the real scheduling pass (src/policy.c,
 * src/fairshare-policy.c) and share tree (src/fairshare-tree.c) over a
 * small simulated cluster, 100 hosts of 4 slots, one queue with
 * FAIRSHARE = USER_SHARES[[a, 5] [b, 3] [c, 1] [d, 1]] and lsb.params'
 * default factors unless said otherwise.  Jobs take one slot and run 5
 * to 60 minutes (uniform); they are charged as mbatchd charges them: the
 * slot at the start (fs_charge_start), the run time as CPU hours at the
 * end (fs_charge_end, one CPU busy per slot).  A pass runs as mbatchd
 * runs one: every tick while jobs pend (-t, default 5 simulated seconds),
 * at every job end and every submission, again at once when it started
 * its maximum.
 *
 *	fsacc [-F] [-s seed] [-t tick]
 *
 * -F: the queue FCFS (no tree): a control, every check must fail.
 *
 * day: each user submits a burst every 4 hours, the first ones 10
 *     minutes apart (a at 0:00, b 0:10, c 0:20, d 0:30), the later ones
 *     at different hours (user k's at 4h x n + k hours); every burst,
 *     whatever the user's shares, asks 1.5 times the slot time a's
 *     share gives it in 4 hours, so users compete most of the day and
 *     FCFS would give them about a quarter each.  Over the time when
 *     every user has pending jobs, each user's part of the slot time
 *     used must be within 0.02 of its part of the shares (0.5, 0.3,
 *     0.1, 0.1): |used - shares| <= 0.02 as fractions of the whole.
 *
 * burst: a, b and c submit enough jobs at 0:00 to stay pending for the
 *     test; d submits 10,000 jobs at once, at 0:00 just before them
 *     (burst-fresh: nobody has history, and in FCFS order d's jobs come
 *     first) or at 2:00 into a cluster full of the others' jobs
 *     (burst-busy); each runs 8 simulated hours after the burst.
 *     After every pass, while some other user has pending jobs, d must
 *     hold at most its share of the slots plus one, its share being
 *     400 x shares(d) / the sum of the shares of the users that have
 *     pending jobs after the pass (d's own included); the one slot
 *     covers the rounding of a share that is not a whole number of
 *     slots.  burst-busy runs with CPU_TIME_FACTOR and RUN_TIME_FACTOR
 *     0 (only slots count): with the defaults, d, which has no history,
 *     is owed more than its share of the slots until its usage catches
 *     up (LSF's formula, not a burst getting through); that run is made
 *     too (burst-busy-hist) and its figures printed, without a check.
 *
 * Prints RESULT|w9acc.key|value|unit lines and one PASS or FAIL line per
 * check on stdout; exits 1 when a check fails.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "lsf.h"
#include "policy.h"
#include "util.h"

#define NHOSTS		100
#define SLOTS		4
#define NSLOTS		(NHOSTS * SLOTS)
#define NUSERS		4
#define MAXDEC		10000
#define T0		1700000000LL
#define HOUR		3600

struct ajob {
	struct pol_job	 pj;		/* first: a decision's job */
	int		 user;
	int64_t		 submit;
	int		 run;		/* seconds */
	int		 slot;		/* host index once started */
	int64_t		 end;
	size_t		 seq;		/* submission order */
};

struct auser {
	const char	*name;
	int		 shares;
	struct pol_fs_acct *fsa;
	int		 npend;
	int		 held;
	double		 slot_s;	/* slot seconds while all pend */
	double		 slot_all;	/* slot seconds */
};

static const char	*names[NUSERS] = { "a", "b", "c", "d" };
static const int	 shares[NUSERS] = { 5, 3, 1, 1 };
static const double	 share_sum = 10;

static struct pol_host	 hosts[NHOSTS], *hostp[NHOSTS];
static float		 loads[NHOSTS][NLOADIDX];
static struct pol_queue	 queue, *queuep[1];
static struct pol_cluster cl;
static struct auser	 users[NUSERS];
static struct ajob	*jobs;
static size_t		 njobs, capjobs;
static struct ajob	**heap;		/* running jobs by end */
static size_t		 nheap;
static int		 tick = 5;
static bool		 fcfs;		/* -F */
static uint64_t		 rng;

static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void
add_job(int user, int64_t submit)
{
	struct ajob *j;

	if (njobs == capjobs) {
		capjobs = capjobs ? capjobs * 2 : 4096;
		jobs = xrealloc(jobs, sizeof(*jobs) * capjobs);
	}
	j = &jobs[njobs++];
	memset(j, 0, sizeof(*j));
	j->user = user;
	j->submit = T0 + submit;
	j->run = 5 * 60 + (int)(rnd() % (55 * 60 + 1));
	j->slot = -1;
	j->seq = njobs;
}

static int
by_submit(const void *a, const void *b)
{
	const struct ajob *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void
heap_push(struct ajob *j)
{
	size_t i = nheap++;

	while (i > 0 && heap[(i - 1) / 2]->end > j->end) {
		heap[i] = heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = j;
}

static struct ajob *
heap_pop(void)
{
	struct ajob *top = heap[0], *last = heap[--nheap];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= nheap)
			break;
		if (c + 1 < nheap && heap[c + 1]->end < heap[c]->end)
			c++;
		if (heap[c]->end >= last->end)
			break;
		heap[i] = heap[c];
		i = c;
	}
	if (nheap > 0)
		heap[i] = last;
	return top;
}

/* A fresh cluster, queue and tree with factors f. */
static void
setup(const struct fs_factors *f)
{
	static int *host_used;
	struct fs_shares s = { NULL, 0 };
	struct fs_groups g = { NULL, NULL, NULL, NULL };
	const char *why;

	for (int i = 0; i < NHOSTS; i++) {
		struct pol_host *h = &hosts[i];
		char name[16];

		memset(h, 0, sizeof(*h));
		memset(loads[i], 0, sizeof(loads[i]));
		snprintf(name, sizeof(name), "h%03d", i);
		h->index = i;
		h->usable = true;
		h->max_slots = SLOTS;
		h->jl_u = -1;
		h->rr.name = xstrdup(name);
		h->rr.type = "X86_64";
		h->rr.model = "generic";
		h->rr.ncpus = SLOTS;
		h->rr.cpuf = 1.0f;
		h->rr.maxmem = h->rr.maxswp = 8192;
		h->rr.maxtmp = 10240;
		h->rr.server = true;
		loads[i][LI_MEM] = loads[i][LI_SWP] = 8192;
		loads[i][LI_TMP] = 10240;
		h->rr.load = loads[i];
		hostp[i] = h;
	}
	if (queue.fs) {
		policy_fs_release(&queue);
		fs_tree_free(queue.fs);
	}
	free(host_used);
	host_used = xcalloc(NHOSTS + 1, sizeof(int));
	memset(&queue, 0, sizeof(queue));
	queue.name = "fair";
	queue.priority = 40;
	queue.active = true;
	queue.qcap.max = -1;
	queue.qcap.reason = PEND_QUEUE_JOB_LIMIT;
	queue.hjob_limit = -1;
	queue.pjob_limit = -1;
	queue.host_used = host_used;
	queuep[0] = &queue;
	memset(&cl, 0, sizeof(cl));
	cl.hosts = hostp;
	cl.nhosts = NHOSTS;
	cl.queues = queuep;
	cl.nqueues = 1;
	if (fs_fairshare_parse("USER_SHARES[[a, 5] [b, 3] [c, 1] [d, 1]]",
	    &s, &why) < 0) {
		fprintf(stderr, "fsacc: %s\n", why);
		exit(2);
	}
	memset(users, 0, sizeof(users));
	if (!fcfs) {
		queue.fs = fs_tree_new("queue/fair", &s, f, &g);
		queue.fs->nqueues = 1;
		queue.fs_slot = 0;
	}
	for (int u = 0; u < NUSERS; u++) {
		users[u].name = names[u];
		users[u].shares = shares[u];
		if (!fcfs)
			users[u].fsa = policy_fs_acct(&queue,
			    fs_tree_account(queue.fs, names[u]));
	}
	fs_shares_release(&s);
	njobs = 0;
	nheap = 0;
}

static void
start(struct ajob *j, int host)
{
	struct auser *u = &users[j->user];

	policy_job_remove(&j->pj);
	j->slot = host;
	j->pj.exec = &j->slot;
	j->pj.nexec = 1;
	j->pj.start_time = cl.now;
	hosts[host].used_slots++;
	hosts[host].last_dispatch = cl.now;
	queue.host_used[host]++;
	queue.qcap.used++;
	policy_list_add(&queue.running, &j->pj);
	if (j->pj.fsa)
		fs_charge_start(j->pj.fsa->leaf, &queue.fs->f, 1, cl.now);
	u->npend--;
	u->held++;
	j->end = cl.now + j->run;
	heap_push(j);
}

static void
finish(struct ajob *j)
{
	struct auser *u = &users[j->user];

	hosts[j->slot].used_slots--;
	queue.host_used[j->slot]--;
	queue.qcap.used--;
	policy_list_remove(&queue.running, &j->pj);
	if (j->pj.fsa)
		fs_charge_end(j->pj.fsa->leaf, &queue.fs->f, 1,
		    j->pj.start_time, 0, (double)(cl.now - j->pj.start_time) /
		    HOUR, cl.now);
	u->held--;
}

struct result {
	double		 contended_s;	/* every user pending */
	int		 max_held;	/* the burster, while others pend */
	double		 max_over;	/* held - its share, the most */
	int64_t		 max_at;
	size_t		 over;		/* passes over share + 1 */
	size_t		 checked;	/* passes checked */
	size_t		 passes;
};

/*
 * Run to length simulated seconds; burster >= 0: check it after every
 * pass.
 */
static void
run(int64_t length, int burster, struct result *r)
{
	struct pol_decision *d = xcalloc(MAXDEC, sizeof(*d));
	size_t next = 0;
	int64_t end = T0 + length;

	memset(r, 0, sizeof(*r));
	r->max_over = -1e9;
	heap = xrealloc(heap, sizeof(*heap) * (njobs + 1));
	qsort(jobs, njobs, sizeof(*jobs), by_submit);
	cl.now = T0;
	while (cl.now < end) {
		int64_t t = end;
		int n, npend = 0, pendshares = 0;
		bool all = true;

		while (nheap > 0 && heap[0]->end <= cl.now)
			finish(heap_pop());
		while (next < njobs && jobs[next].submit <= cl.now) {
			struct ajob *j = &jobs[next++];

			j->pj.num_procs = 1;
			j->pj.fsa = users[j->user].fsa;
			policy_job_append(&queue, &j->pj);
			users[j->user].npend++;
		}
		do {
			n = policy_schedule(&cl, d, MAXDEC);
			for (int i = 0; i < n; i++)
				start((struct ajob *)d[i].job, d[i].slots[0]);
			policy_decisions_free(d, n);
			r->passes++;
		} while (n == MAXDEC);

		for (int u = 0; u < NUSERS; u++) {
			npend += users[u].npend;
			if (users[u].npend > 0)
				pendshares += users[u].shares;
			else
				all = false;
		}
		if (burster >= 0) {
			struct auser *b = &users[burster];
			bool others = false;

			for (int u = 0; u < NUSERS; u++)
				if (u != burster && users[u].npend > 0)
					others = true;
			/* From its burst on. */
			if (others && (b->npend > 0 || b->held > 0)) {
				/* Its share among the users with pending
				 * work, itself included. */
				double share = (double)NSLOTS * b->shares /
				    (pendshares + (b->npend > 0 ? 0 :
				    b->shares));

				r->checked++;
				if (b->held > r->max_held)
					r->max_held = b->held;
				if (b->held - share > r->max_over) {
					r->max_over = b->held - share;
					r->max_at = cl.now - T0;
				}
				if (b->held > share + 1)
					r->over++;
			}
		}

		if (nheap > 0 && heap[0]->end < t)
			t = heap[0]->end;
		if (next < njobs && jobs[next].submit < t)
			t = jobs[next].submit;
		if (npend > 0 && cl.now + tick < t)
			t = cl.now + tick;
		for (int u = 0; u < NUSERS; u++) {
			users[u].slot_all += (double)users[u].held *
			    (double)(t - cl.now);
			if (all)
				users[u].slot_s += (double)users[u].held *
				    (double)(t - cl.now);
		}
		if (all)
			r->contended_s += (double)(t - cl.now);
		cl.now = t;
	}
	free(d);
}

static int	 failed;

static void
verdict(bool ok, const char *what)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", what);
	if (!ok)
		failed = 1;
}

/* The day of bursts. */
static void
day(void)
{
	struct fs_factors f;
	struct result r;
	double used = 0, worst = 0;
	char what[512];
	int len = 0;

	fs_factors_default(&f);
	setup(&f);
	for (int u = 0; u < NUSERS; u++) {
		/* 1.5 x what a's share gives it in 4 hours, by the mean
		 * run time (32.5 minutes). */
		int n = (int)ceil(1.5 * NSLOTS * shares[0] / share_sum *
		    4.0 / (32.5 / 60));

		for (int b = 0; b < 6; b++) {
			int64_t at = b == 0 ? u * 600 :
			    (int64_t)(4 * b + u) * HOUR;

			if (at >= 24 * HOUR)
				break;
			for (int k = 0; k < n; k++)
				add_job(u, at);
		}
	}
	run(24 * HOUR, -1, &r);
	for (int u = 0; u < NUSERS; u++)
		used += users[u].slot_s;
	printf("RESULT|w9acc.day_contended_h|%.2f|h\n", r.contended_s / HOUR);
	printf("RESULT|w9acc.day_passes|%zu|passes\n", r.passes);
	for (int u = 0; u < NUSERS; u++) {
		double got = used > 0 ? users[u].slot_s / used : 0;
		double want = shares[u] / share_sum;

		printf("RESULT|w9acc.day_share_%s|%.4f|fraction\n", names[u],
		    got);
		if (fabs(got - want) > worst)
			worst = fabs(got - want);
		len += snprintf(what + len, sizeof(what) - (size_t)len,
		    "%s%s %.4f (%.2f)", u ? ", " : "", names[u], got, want);
	}
	printf("RESULT|w9acc.day_worst_diff|%.4f|fraction\n", worst);
	fprintf(stderr, "fsacc: day: %zu jobs, %zu passes, every user "
	    "pending for %.2f h of 24; whole day's slot time:", njobs,
	    r.passes, r.contended_s / HOUR);
	for (int u = 0; u < NUSERS; u++)
		fprintf(stderr, " %s %.4f", names[u], users[u].slot_all /
		    (NSLOTS * 24.0 * HOUR));
	fputc('\n', stderr);
	snprintf(what + len, sizeof(what) - (size_t)len, "; worst %.4f over "
	    "%.2f h with every user pending)", worst, r.contended_s / HOUR);
	{
		char line[640];

		snprintf(line, sizeof(line), "day: slot time while every user "
		    "pends within 0.02 of the shares (%s", what);
		verdict(worst <= 0.02 && r.contended_s >= 12 * HOUR, line);
	}
}

/* One burst run: d's 10,000 jobs at burst_at (seconds). */
static void
burst(const char *name, int64_t burst_at, bool slots_only, bool check)
{
	struct fs_factors f;
	struct result r;
	char line[512];
	int64_t length = burst_at + 8 * HOUR;

	fs_factors_default(&f);
	if (slots_only)
		f.cpu_time = f.run_time = 0;
	setup(&f);
	for (int k = 0; burst_at == 0 && k < 10000; k++)
		add_job(NUSERS - 1, burst_at);
	/* The others pend all along: twice what the whole cluster runs
	 * in the test, each. */
	for (int u = 0; u < NUSERS - 1; u++)
		for (int k = 0; k < 2 * NSLOTS * length / HOUR * 60 / 32; k++)
			add_job(u, 0);
	for (int k = 0; burst_at > 0 && k < 10000; k++)
		add_job(NUSERS - 1, burst_at);
	run(length, NUSERS - 1, &r);
	printf("RESULT|w9acc.%s_max_held|%d|slots\n", name, r.max_held);
	printf("RESULT|w9acc.%s_max_over|%.2f|slots\n", name, r.max_over);
	printf("RESULT|w9acc.%s_passes_over|%zu|passes\n", name, r.over);
	fprintf(stderr, "fsacc: %s: %zu passes, %zu checked; d held at most "
	    "%d slots, at most %.2f over its share (at t+%llds), over share "
	    "+ 1 in %zu; at the end a/b/c/d hold %d/%d/%d/%d\n", name,
	    r.passes, r.checked, r.max_held, r.max_over,
	    (long long)r.max_at, r.over, users[0].held, users[1].held,
	    users[2].held, users[3].held);
	snprintf(line, sizeof(line), "%s: the user of 10,000 jobs holds at "
	    "most its share + 1 slot while others pend (at most %.2f over "
	    "its share of %.0f; over in %zu of %zu passes)", name,
	    r.max_over, (double)NSLOTS / share_sum, r.over, r.checked);
	if (check)
		verdict(r.over == 0 && r.checked > 0, line);
	else
		printf("INFO %s\n", line);
}

int
main(int argc, char **argv)
{
	uint64_t seed = 22;
	int c;

	while ((c = getopt(argc, argv, "Fs:t:")) != -1) {
		switch (c) {
		case 'F':
			fcfs = true;
			break;
		case 's':
			seed = strtoull(optarg, NULL, 10);
			break;
		case 't':
			tick = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: fsacc [-F] [-s seed] "
			    "[-t tick]\n");
			return 2;
		}
	}
	if (tick < 1 || seed == 0) {
		fprintf(stderr, "fsacc: tick and seed must be positive\n");
		return 2;
	}
	rng = seed * 0x9e3779b97f4a7c15ULL;
	day();
	burst("burst_fresh", 0, false, true);
	burst("burst_busy", 2 * HOUR, true, true);
	burst("burst_busy_hist", 2 * HOUR, false, false);
	return failed;
}
