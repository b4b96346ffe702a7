/*
 * Workload 9: the real scheduling code (src/policy.c, src/resreq*.c)
 * driven by a simulated cluster read from text files.  It times one
 * scheduling pass, then drains every job: passes, decisions applied as
 * mbatchd applies them (daemons/mbatchd/mbd-sched.c, mbd-state.c,
 * mbd-users.c, mbd-reserve.c), and jobs ending after their run time on
 * a simulated clock.
 *
 *	sim [-FnPSX] [-d dumpfile] [-k prefix] [-m max] [-p passes] [-r reps]
 *	    [-t tick] [-w wall_s] CLUSTER JOBS
 *
 * -n: the first pass only, no drain; -r: time the first pass that many
 * times (the least is reported); -d: write every decision applied (the
 * time, the job's line number - 1, a host index per slot; then "v" and
 * the victims' line numbers - 1 when it preempts; a resumed job as the
 * time, "r" and its number); -w: stop the drain after that many seconds
 * of wall time; -p: after that many passes; -P: ignore the preemption=
 * and preempt_for= keys (preemption not configured); -k: the prefix of
 * the RESULT keys (default "w9."); -X: a test of the preemption checks
 * (the first preemptor gets a victim too many, which both must count);
 * -F: ignore the fairshare= keys (every queue FCFS).
 *
 * CLUSTER has one record a line ('#' starts a comment):
 *
 *	host NAME [mxj=N] [ncpus=N] [maxmem=MB] [maxswp=MB] [maxtmp=MB]
 *	    [type=T] [model=M] [cpuf=F] [res=a,b,...] [jl_u=N]
 *	    [status=ok|unavail|closed] [load=idx:v,...] [sched=idx:v,...]
 *	queue NAME [priority=N] [qjob_limit=N] [hjob_limit=N]
 *	    [pjob_limit=F] [ujob_limit=N] [accept_interval=SECONDS]
 *	    [sched=idx:v,...] [preemption=TEXT] [fairshare=TEXT]
 *	    [res_req=REST OF LINE]
 *	user NAME [max_jobs=N] [jl_p=F]
 *	group NAME members=USER,... [user_shares=TEXT]
 *	params [preempt_for=KEYWORD,...]
 *
 * load= gives load indices (r15s r1m r15m ut pg io ls it tmp swp mem;
 * unset ones are 0, mem/swp/tmp default to maxmem/maxswp/maxtmp), sched=
 * the host's (lsb.hosts) or queue's scheduling thresholds.  mxj=-1 is
 * unlimited.  accept_interval defaults to 10 s, the project's default
 * (JOB_ACCEPT_INTERVAL 1 x MBD_SLEEP_TIME 10).  Queues come before the
 * jobs that name them.
 *
 * preemption= is lsb.queues' PREEMPTION with commas for blanks
 * (preemption=PREEMPTIVE[idle+2,low+1] or preemption=PREEMPTABLE), read
 * by the real parser (parse_preemption) and checked against the other
 * queues as lsb.queues is (lsb_queues_check_preemption); preempt_for= is
 * lsb.params' PREEMPT_FOR, commas for blanks.  With preemption configured
 * the decisions are carried out as mbatchd does (mbd-sched.c sched_run,
 * mbd-preempt.c, mbd-state.c account()): a preemptor's victims are
 * suspended first (out of their queue's running list into its preempted
 * list; their host slots, and their share of a user's MAX_JOBS, freed),
 * a resume decision puts one back; a suspended job's run time stands
 * still.  TERMINATE_WHEN, MAX_JOB_PREEMPT, brun, application profiles
 * and lsb.resources limits are not simulated.
 * The drain counts preemptions, flip-flops (a job preempted by one it
 * preempted earlier) and superfluous victims (one without which the
 * other victims and the free slots of the hosts chosen still give the
 * preemptor its slots, judged from the hosts before the decision), and
 * times the first pass of the drain that preempts again, -r times with
 * preemption and -r times with the queues' victim lists hidden (the same
 * pass as if preemption were not configured), outside the drain's time;
 * every pass that preempts is made once more so, for the same comparison
 * (w9.preempt_passes_ratio: the time of those passes with preemption
 * over their time without).
 *
 * JOBS has one pending job a line, in submission order:
 *
 *	QUEUE USER SLOTS SUBMIT_TIME RUN_SECONDS FLAGS [RESREQ...]
 *
 * FLAGS is "-" or "x" (bsub -x), either followed by "bN": a begin time
 * (bsub -b) N seconds after the clock's start; RESREQ, the rest of the
 * line, is one bsub -R string, parsed and merged with the queue's
 * RES_REQ by the real parser as mbatchd does.  Every job is pending at
 * the start; the clock starts at the latest SUBMIT_TIME.
 *
 * Each job gets its own parsed requirement, as in mbatchd (-S shares one
 * among the jobs of a queue with the same string instead).  A pass starts
 * at most -m decisions (default 10000, mbatchd's MAX_DISPATCH_PER_PASS);
 * a full pass is followed by another at the same time, as in mbatchd;
 * otherwise the clock moves on by -t seconds (default 1, mbatchd's tick,
 * which schedules every second while jobs pend) or to the next job end.
 *
 * fairshare= is lsb.queues' FAIRSHARE without blanks
 * (fairshare=USER_SHARES[[g00,5][g01,2]]), group an lsb.users group and
 * its USER_SHARES (user_shares=[u0000,3][u0001,1]) for hierarchical
 * fairshare; groups may come after the queues that name them.  Each
 * fairshare queue has a share tree of its own (fs_tree_new, default
 * factors), and its jobs are charged as mbatchd charges them: slots at
 * the start (fs_charge_start), and at the end the run time times the
 * slots as CPU hours (one CPU busy per slot, fs_charge_end).  Fairshare
 * and preemption are not combined in one run (a suspended job is
 * charged as if it ran).
 *
 * Not simulated: load that changes as jobs run
 * (only rusage[] reservations move eff load, held for the whole job:
 * duration and decay are ignored), arrays, dependencies, -m.
 *
 * Prints RESULT|key|value|unit lines on stdout, commentary on stderr.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "conf.h"
#include "lsf.h"
#include "policy.h"
#include "resreq.h"
#include "util.h"

#define DEF_MAX		10000
#define MAXQ		64

struct shost {
	struct pol_host	 ph;
	float		 load[NLOADIDX];
	struct thresholds thr;
	struct strv	 res;
};

struct squeue {
	struct pol_queue pq;
	struct thresholds thr;
	struct resreq	*rr;
	int		 ujob_limit;
	int		 index;
	struct fs_shares fs_shares;	/* FAIRSHARE; n 0 without */
};

/* Each queue's lsb.queues view, for the preemption code (confs[i] is
 * queues[i]'s). */
static struct queue_conf confs[MAXQ];

struct suser {
	char		*name;
	struct suser	*next;		/* hash chain */
	struct pol_user	 pu;
	struct pol_cap	 max_jobs;
	struct pol_cap	 qcaps[MAXQ];	/* UJOB_LIMIT per queue */
	struct pol_fs_acct *fsa[MAXQ];	/* its account in each fairshare
					 * queue, once seen there */
};

/* lsb.users groups, for hierarchical fairshare. */
struct sgroup {
	char		*name;
	struct strv	 members;
	char		*shares;	/* USER_SHARES text, or NULL */
};
static struct sgroup	*groups;
static int		 ngroups;
static bool		 no_fairshare;	/* -F */

enum { J_PEND, J_RUN, J_SSUSP, J_DONE };

struct sjob {
	struct pol_job	 pj;		/* first: a decision's job */
	struct suser	*user;
	int		 qi;		/* queue index */
	int		 runtime;
	int64_t		 submit;
	int		 state;		/* J_* */
	bool		 slots_free;	/* suspended: holds no host slot */
	int		*slots;		/* host index per slot once started */
	int64_t		 end;		/* when it ends, while it runs */
	int64_t		 left;		/* run time left, while suspended */
	uint32_t	 gen;		/* its heap entry's, while it runs */
	int64_t		 begin;		/* bN of FLAGS, or -1 */
};

struct run {
	int64_t		 end;
	struct sjob	*j;
	uint32_t	 gen;		/* stale unless the job's */
};

static struct shost	*hosts;
static struct pol_host	**hostp;
static int		 nhosts;
static struct squeue	 queues[MAXQ];
static struct pol_queue	*queuep[MAXQ];
static int		 nqueues;
static struct sjob	*jobs;
static size_t		 njobs;
static struct pol_cluster cl;

#define UBUCKETS	4096
static struct suser	*ubucket[UBUCKETS];
static int		 nusers;
static bool		 user_limits;	/* some JL/U or JL/P */

/* Running jobs, a min-heap on end time. */
static struct run	*heap;
static size_t		 nheap, capheap;

static bool		 share_rr;

/* Preemption. */
static bool		 no_preempt_conf;	/* -P */
static bool		 selftest;		/* -X */
static bool		 preempt_on;
static size_t		 nrunning, nsusp;
static size_t		 npreempt, nresume, nflip, nsuperfluous, nshort;
static size_t		 npreempt_dec, noversub;
static int64_t		*begins;		/* sorted begin times */
static int64_t		 sim0;			/* the clock's start */
static size_t		 nbegins, nextbegin;

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void __attribute__((noreturn))
bad(const char *file, int line, const char *msg, const char *arg)
{
	fprintf(stderr, "sim: %s:%d: %s%s%s\n", file, line, msg,
	    arg ? ": " : "", arg ? arg : "");
	exit(1);
}

static unsigned
hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static struct suser *
user_get(const char *name)
{
	unsigned b = hash(name) % UBUCKETS;
	struct suser *u;

	for (u = ubucket[b]; u; u = u->next)
		if (strcmp(u->name, name) == 0)
			return u;
	u = xcalloc(1, sizeof(*u));
	u->name = xstrdup(name);
	u->max_jobs.max = -1;
	u->max_jobs.reason = PEND_USER_LIMIT;
	u->pu.jl_p = -1;
	u->next = ubucket[b];
	ubucket[b] = u;
	nusers++;
	return u;
}

static struct squeue *
queue_find(const char *name)
{
	for (int i = 0; i < nqueues; i++)
		if (strcmp(queues[i].pq.name, name) == 0)
			return &queues[i];
	return NULL;
}

/* "idx:v,idx:v" into load values or thresholds. */
static void
parse_pairs(const char *file, int line, const char *s, float *load,
    struct thresholds *t)
{
	char *copy = xstrdup(s), *p, *save = NULL;

	for (p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",",
	    &save)) {
		char *colon = strchr(p, ':');
		const char *why = "bad value";
		int k;

		if (colon == NULL)
			bad(file, line, "expected idx:value", p);
		*colon = '\0';
		if ((k = load_index_lookup(p)) < 0)
			bad(file, line, "unknown load index", p);
		if (load)
			load[k] = strtof(colon + 1, NULL);
		else if (parse_threshold(colon + 1, k, t, &why) < 0)
			bad(file, line, why, colon + 1);
	}
	free(copy);
}

static void
add_host(const char *file, int line, char **f, int nf)
{
	struct shost *s;
	struct pol_host *h;
	bool loadset[NLOADIDX] = { false };
	static int cap;

	if (nhosts == cap) {
		cap = cap ? cap * 2 : 1024;
		hosts = xrealloc(hosts, sizeof(*hosts) * (size_t)cap);
	}
	s = &hosts[nhosts];
	memset(s, 0, sizeof(*s));
	h = &s->ph;
	h->index = nhosts;
	h->usable = true;
	h->max_slots = 1;
	h->jl_u = -1;
	h->rr.name = xstrdup(f[1]);
	h->rr.type = "X86_64";
	h->rr.model = "generic";
	h->rr.ncpus = 1;
	h->rr.cpuf = 1.0f;
	h->rr.maxmem = 4096;
	h->rr.maxswp = 4096;
	h->rr.maxtmp = 10240;
	h->rr.server = true;
	for (int i = 2; i < nf; i++) {
		char *k = f[i], *v = strchr(k, '=');

		if (v == NULL)
			bad(file, line, "expected key=value", k);
		*v++ = '\0';
		if (strcmp(k, "mxj") == 0)
			h->max_slots = atoi(v);
		else if (strcmp(k, "ncpus") == 0)
			h->rr.ncpus = atoi(v);
		else if (strcmp(k, "maxmem") == 0)
			h->rr.maxmem = atoi(v);
		else if (strcmp(k, "maxswp") == 0)
			h->rr.maxswp = atoi(v);
		else if (strcmp(k, "maxtmp") == 0)
			h->rr.maxtmp = atoi(v);
		else if (strcmp(k, "type") == 0)
			h->rr.type = xstrdup(v);
		else if (strcmp(k, "model") == 0)
			h->rr.model = xstrdup(v);
		else if (strcmp(k, "cpuf") == 0)
			h->rr.cpuf = strtof(v, NULL);
		else if (strcmp(k, "jl_u") == 0) {
			h->jl_u = atoi(v);
			if (h->jl_u >= 0)
				user_limits = cl.any_jlu = true;
		} else if (strcmp(k, "res") == 0) {
			char *save = NULL;

			for (char *r = strtok_r(v, ",", &save); r;
			    r = strtok_r(NULL, ",", &save))
				strv_push(&s->res, r);
		} else if (strcmp(k, "status") == 0) {
			if (strcmp(v, "unavail") == 0) {
				h->usable = false;
				h->unusable_reason = HR_UNAVAIL;
			} else if (strcmp(v, "closed") == 0) {
				h->usable = false;
				h->unusable_reason = HR_CLOSED_ADM;
			} else if (strcmp(v, "ok") != 0)
				bad(file, line, "bad status", v);
		} else if (strcmp(k, "load") == 0) {
			float tmp[NLOADIDX];

			for (int x = 0; x < NLOADIDX; x++)
				tmp[x] = -1;
			parse_pairs(file, line, v, tmp, NULL);
			for (int x = 0; x < NLOADIDX; x++)
				if (tmp[x] != -1) {
					s->load[x] = tmp[x];
					loadset[x] = true;
				}
		} else if (strcmp(k, "sched") == 0)
			parse_pairs(file, line, v, NULL, &s->thr);
		else
			bad(file, line, "unknown host key", k);
	}
	if (!loadset[LI_MEM])
		s->load[LI_MEM] = (float)h->rr.maxmem;
	if (!loadset[LI_SWP])
		s->load[LI_SWP] = (float)h->rr.maxswp;
	if (!loadset[LI_TMP])
		s->load[LI_TMP] = (float)h->rr.maxtmp;
	nhosts++;
}

static void
add_queue(const char *file, int line, char **f, int nf, const char *rest)
{
	struct squeue *q;
	struct pol_queue *pq;

	if (nqueues == MAXQ)
		bad(file, line, "too many queues", NULL);
	q = &queues[nqueues];
	pq = &q->pq;
	pq->name = xstrdup(f[1]);
	pq->order = nqueues;
	pq->priority = 30;
	pq->active = true;
	pq->qcap.max = -1;
	pq->qcap.reason = PEND_QUEUE_JOB_LIMIT;
	pq->hjob_limit = -1;
	pq->pjob_limit = -1;
	pq->accept_interval = 10;
	pq->thr = &q->thr;
	q->ujob_limit = -1;
	q->index = nqueues;
	confs[nqueues].name = xstrdup(f[1]);
	confs[nqueues].line = line;
	for (int i = 2; i < nf; i++) {
		char *k = f[i], *v = strchr(k, '=');

		if (v == NULL)
			bad(file, line, "expected key=value", k);
		*v++ = '\0';
		if (strcmp(k, "priority") == 0)
			pq->priority = atoi(v);
		else if (strcmp(k, "qjob_limit") == 0)
			pq->qcap.max = atoi(v);
		else if (strcmp(k, "hjob_limit") == 0)
			pq->hjob_limit = atoi(v);
		else if (strcmp(k, "pjob_limit") == 0)
			pq->pjob_limit = strtof(v, NULL);
		else if (strcmp(k, "ujob_limit") == 0)
			q->ujob_limit = atoi(v);
		else if (strcmp(k, "accept_interval") == 0)
			pq->accept_interval = atoi(v);
		else if (strcmp(k, "sched") == 0)
			parse_pairs(file, line, v, NULL, &q->thr);
		else if (strcmp(k, "preemption") == 0) {
			const char *why;

			if (no_preempt_conf)
				continue;
			for (char *c = v; *c; c++)
				if (*c == ',')
					*c = ' ';
			if (parse_preemption(v, &confs[nqueues].preempt,
			    &why) < 0)
				bad(file, line, why, v);
			confs[nqueues].preempt.line = line;
		} else if (strcmp(k, "fairshare") == 0) {
			const char *why;

			if (no_fairshare)
				continue;
			if (fs_fairshare_parse(v, &q->fs_shares, &why) < 0)
				bad(file, line, why, v);
		} else
			bad(file, line, "unknown queue key", k);
	}
	confs[nqueues].priority = pq->priority;
	if (rest) {
		char *cause = NULL;

		q->rr = xcalloc(1, sizeof(*q->rr));
		if (resreq_parse(q->rr, rest, "MB", &cause) < 0)
			bad(file, line, "bad res_req", cause);
		pq->rr = q->rr;
	}
	nqueues++;
}

static void
add_user(const char *file, int line, char **f, int nf)
{
	struct suser *u = user_get(f[1]);

	for (int i = 2; i < nf; i++) {
		char *k = f[i], *v = strchr(k, '=');

		if (v == NULL)
			bad(file, line, "expected key=value", k);
		*v++ = '\0';
		if (strcmp(k, "max_jobs") == 0)
			u->max_jobs.max = atoi(v);
		else if (strcmp(k, "jl_p") == 0) {
			u->pu.jl_p = strtof(v, NULL);
			if (u->pu.jl_p >= 0)
				user_limits = true;
		} else
			bad(file, line, "unknown user key", k);
	}
}

static void
add_group(const char *file, int line, char **f, int nf)
{
	static int cap;
	struct sgroup *g;

	if (ngroups == cap) {
		cap = cap ? cap * 2 : 64;
		groups = xrealloc(groups, sizeof(*groups) * (size_t)cap);
	}
	g = &groups[ngroups++];
	memset(g, 0, sizeof(*g));
	g->name = xstrdup(f[1]);
	strv_init(&g->members);
	for (int i = 2; i < nf; i++) {
		char *k = f[i], *v = strchr(k, '='), *save = NULL;

		if (v == NULL)
			bad(file, line, "expected key=value", k);
		*v++ = '\0';
		if (strcmp(k, "members") == 0) {
			for (char *m = strtok_r(v, ",", &save); m;
			    m = strtok_r(NULL, ",", &save))
				strv_push(&g->members, m);
		} else if (strcmp(k, "user_shares") == 0)
			g->shares = xstrdup(v);
		else
			bad(file, line, "unknown group key", k);
	}
}

static struct sgroup *
group_find(const char *name)
{
	for (int i = 0; i < ngroups; i++)
		if (strcmp(groups[i].name, name) == 0)
			return &groups[i];
	return NULL;
}

static bool
fs_is_group(const char *name, void *arg)
{
	return group_find(name) != NULL;
}

static bool
fs_in_group(const char *user, const char *group, void *arg)
{
	struct sgroup *g = group_find(group);

	return g != NULL && strv_contains(&g->members, user);
}

static const char *
fs_shares_of(const char *group, void *arg)
{
	struct sgroup *g = group_find(group);

	return g ? g->shares : NULL;
}

/* A share tree for each fairshare queue, as mbatchd builds one for a
 * queue that shares its tree with no other. */
static void
fs_configure(void)
{
	struct fs_groups g = { fs_is_group, fs_in_group, fs_shares_of, NULL };
	struct fs_factors f;
	char key[256];

	fs_factors_default(&f);
	for (int i = 0; i < nqueues; i++) {
		struct squeue *q = &queues[i];

		if (q->fs_shares.n == 0)
			continue;
		snprintf(key, sizeof(key), "queue/%s", q->pq.name);
		q->pq.fs = fs_tree_new(key, &q->fs_shares, &f, &g);
		q->pq.fs->nqueues = 1;
		q->pq.fs_slot = 0;
	}
}

/* The account of j's user in j's queue, made when first seen. */
static struct pol_fs_acct *
fs_account(const char *file, int line, struct sjob *j)
{
	struct squeue *q = &queues[j->qi];
	struct suser *u = j->user;
	struct fs_node *leaf;

	if (u->fsa[j->qi] == NULL) {
		if ((leaf = fs_tree_account(q->pq.fs, u->name)) == NULL)
			bad(file, line, "no share for the user in the queue",
			    u->name);
		u->fsa[j->qi] = policy_fs_acct(&q->pq, leaf);
	}
	return u->fsa[j->qi];
}

static void
add_params(const char *file, int line, char **f, int nf)
{
	for (int i = 1; i < nf; i++) {
		char *k = f[i], *v = strchr(k, '=');
		const char *word;

		if (v == NULL)
			bad(file, line, "expected key=value", k);
		*v++ = '\0';
		if (strcmp(k, "preempt_for") != 0)
			bad(file, line, "unknown params key", k);
		if (no_preempt_conf)
			continue;
		for (char *c = v; *c; c++)
			if (*c == ',')
				*c = ' ';
		if (parse_preempt_for(v, &cl.preempt_for, &word) < 0)
			bad(file, line, "unknown PREEMPT_FOR keyword", word);
	}
}

/* Split at blanks into at most max fields; returns the count. */
static int
split(char *s, char **f, int max, char **rest)
{
	int n = 0;

	*rest = NULL;
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '#')
			break;
		if (n == max) {
			*rest = s;
			break;
		}
		f[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

static void
read_cluster(const char *file)
{
	FILE *fp = fopen(file, "r");
	char buf[8192], *f[64];
	int line = 0;

	if (fp == NULL)
		bad(file, 0, strerror(errno), NULL);
	while (fgets(buf, sizeof(buf), fp)) {
		char *rest, *rr = NULL, *nl;
		int nf;

		line++;
		if ((nl = strchr(buf, '\n')) != NULL)
			*nl = '\0';
		/* res_req= takes the rest of the line. */
		if ((rr = strstr(buf, " res_req=")) != NULL) {
			*rr = '\0';
			rr += strlen(" res_req=");
		}
		nf = split(buf, f, 64, &rest);
		if (nf == 0)
			continue;
		if (strcmp(f[0], "params") == 0) {
			add_params(file, line, f, nf);
			continue;
		}
		if (nf < 2)
			bad(file, line, "expected a name", f[0]);
		if (strcmp(f[0], "host") == 0)
			add_host(file, line, f, nf);
		else if (strcmp(f[0], "queue") == 0)
			add_queue(file, line, f, nf, rr);
		else if (strcmp(f[0], "user") == 0)
			add_user(file, line, f, nf);
		else if (strcmp(f[0], "group") == 0)
			add_group(file, line, f, nf);
		else
			bad(file, line, "unknown record", f[0]);
	}
	fclose(fp);
}

/*
 * As lsb.queues is checked (names that are no queue, or on the wrong
 * side of a queue's priority, dropped with a warning) and as mbatchd's
 * preempt_configure builds each queue's victims.
 */
static void
preempt_configure(const char *file)
{
	struct lsf_config cfg;
	struct conf_diag diag;
	struct pol_queue *pq[MAXQ];
	const struct queue_conf *qc[MAXQ];

	memset(&cfg, 0, sizeof(cfg));
	cfg.queues = confs;
	cfg.nqueues = nqueues;
	conf_diag_init(&diag);
	lsb_queues_check_preemption(&cfg, file, &diag);
	conf_diag_print(&diag, stderr);
	conf_diag_release(&diag);
	for (int i = 0; i < nqueues; i++) {
		pq[i] = &queues[i].pq;
		qc[i] = &confs[i];
		if (confs[i].preempt.preemptive || confs[i].preempt.preemptable)
			preempt_on = true;
	}
	for (int i = 0; i < nqueues; i++)
		preempt_victim_queues(pq[i], qc[i], pq, qc, nqueues);
}

/* Shared requirements (-S): by queue and string. */
struct rrent {
	char		*text;
	int		 qi;
	struct resreq	*rr;
	struct rrent	*next;
};
#define RRBUCKETS	65536
static struct rrent	*rrbucket[RRBUCKETS];
static size_t		 nrr;

static struct resreq *
job_resreq(const char *file, int line, struct squeue *q, const char *text)
{
	struct strv texts = STRV_INIT;
	struct resreq jr, *rr;
	char *cause = NULL;
	unsigned b = 0;

	if (share_rr) {
		b = (hash(text) + (unsigned)q->index) % RRBUCKETS;
		for (struct rrent *e = rrbucket[b]; e; e = e->next)
			if (e->qi == q->index && strcmp(e->text, text) == 0)
				return e->rr;
	}
	/* As mbatchd's job_set_resreq: merge the -R strings, then the
	 * queue's RES_REQ. */
	strv_push(&texts, text);
	if (resreq_merge_job(&jr, &texts, "MB", &cause) < 0)
		bad(file, line, "bad -R", cause);
	strv_release(&texts);
	rr = xcalloc(1, sizeof(*rr));
	if (resreq_merge_queue(rr, q->rr, &jr, &cause) < 0)
		bad(file, line, "-R against the queue", cause);
	resreq_release(&jr);
	nrr++;
	if (share_rr) {
		struct rrent *e = xmalloc(sizeof(*e));

		e->text = xstrdup(text);
		e->qi = q->index;
		e->rr = rr;
		e->next = rrbucket[b];
		rrbucket[b] = e;
	}
	return rr;
}

/* The limits a job counts against, as job_attach_limits does. */
static void
attach_limits(struct sjob *j, struct squeue *q)
{
	struct suser *u = j->user;
	int n = 1;

	/* As mbatchd's user_configure: with preemption, suspended jobs
	 * never count against a user's own total. */
	u->max_jobs.susp_free = preempt_on;
	if (u->max_jobs.max >= 0)
		j->pj.caps[n++] = &u->max_jobs;
	if (q->ujob_limit >= 0) {
		u->qcaps[q->index].max = q->ujob_limit;
		u->qcaps[q->index].reason = PEND_QUEUE_USER_LIMIT;
		j->pj.caps[n++] = &u->qcaps[q->index];
	}
	if (cl.any_jlu || u->pu.jl_p >= 0) {
		if (u->pu.host_used == NULL) {
			u->pu.host_used = xcalloc((size_t)nhosts + 1,
			    sizeof(int));
			u->pu.host_taken = xcalloc((size_t)nhosts + 1,
			    sizeof(int));
			u->pu.host_susp = xcalloc((size_t)nhosts + 1,
			    sizeof(int));
		}
		j->pj.user = &u->pu;
	}
}

static void
read_jobs(const char *file)
{
	FILE *fp = fopen(file, "r");
	char buf[8192], *f[6];
	size_t cap = 0;
	int line = 0;

	if (fp == NULL)
		bad(file, 0, strerror(errno), NULL);
	while (fgets(buf, sizeof(buf), fp)) {
		struct sjob *j;
		struct squeue *q;
		char *rest, *nl;
		int nf;

		line++;
		if ((nl = strchr(buf, '\n')) != NULL)
			*nl = '\0';
		if ((nf = split(buf, f, 6, &rest)) == 0)
			continue;
		if (nf < 6)
			bad(file, line, "expected QUEUE USER SLOTS SUBMIT RUN "
			    "FLAGS [RESREQ]", NULL);
		if ((q = queue_find(f[0])) == NULL)
			bad(file, line, "unknown queue", f[0]);
		if (njobs == cap) {
			cap = cap ? cap * 2 : 65536;
			jobs = xrealloc(jobs, sizeof(*jobs) * cap);
		}
		j = &jobs[njobs++];
		memset(j, 0, sizeof(*j));
		j->user = user_get(f[1]);
		j->qi = q->index;
		j->pj.num_procs = atoi(f[2]);
		if (j->pj.num_procs < 1)
			bad(file, line, "bad slot count", f[2]);
		j->submit = strtoll(f[3], NULL, 10);
		j->runtime = atoi(f[4]);
		j->pj.exclusive = strchr(f[5], 'x') != NULL;
		j->begin = -1;
		if ((nl = strchr(f[5], 'b')) != NULL) {
			char *end;

			j->begin = strtoll(nl + 1, &end, 10);
			if (end == nl + 1 || *end != '\0' || j->begin < 0)
				bad(file, line, "bad begin time", f[5]);
			nbegins++;
		}
		if (rest && *rest)
			j->pj.rr = job_resreq(file, line, q, rest);
		if (j->submit > cl.now)
			cl.now = j->submit;
	}
	fclose(fp);
	/* The array is final: queue the jobs now, in file order. */
	if (nbegins > 0)
		begins = xcalloc(nbegins, sizeof(*begins));
	nbegins = 0;
	for (size_t i = 0; i < njobs; i++) {
		struct sjob *j = &jobs[i];

		if (j->begin >= 0) {
			j->pj.eligible_time = cl.now + j->begin;
			j->pj.eligible_reason = PEND_BEGIN_TIME;
			begins[nbegins++] = j->pj.eligible_time;
		}

		if (queues[j->qi].pq.fs)
			j->pj.fsa = fs_account(file, (int)i + 1, j);
		policy_job_append(&queues[j->qi].pq, &j->pj);
		attach_limits(j, &queues[j->qi]);
	}
}

/* Heap of running jobs. */
static void
heap_push(struct run r)
{
	size_t i;

	if (nheap == capheap) {
		capheap = capheap ? capheap * 2 : 65536;
		heap = xrealloc(heap, sizeof(*heap) * capheap);
	}
	i = nheap++;
	while (i > 0 && heap[(i - 1) / 2].end > r.end) {
		heap[i] = heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = r;
}

static struct run
heap_pop(void)
{
	struct run top = heap[0], last = heap[--nheap];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= nheap)
			break;
		if (c + 1 < nheap && heap[c + 1].end < heap[c].end)
			c++;
		if (heap[c].end >= last.end)
			break;
		heap[i] = heap[c];
		i = c;
	}
	if (nheap > 0)
		heap[i] = last;
	return top;
}

/* A job's rusage[] on its hosts, once per host, as reserve_pass does;
 * sign -1 takes it back. */
static void
reserve(struct sjob *j, const int *slots, int sign)
{
	const struct resreq *rr = j->pj.rr ? j->pj.rr : j->pj.queue->rr;
	int n = j->pj.num_procs;

	if (rr == NULL)
		return;
	for (int u = 0; u < rr->nrusage; u++) {
		int k = load_index_lookup(rr->rusage[u].name);

		if (k < 0)
			continue;
		for (int e = 0; e < n; e++) {
			bool first = true;

			for (int p = 0; p < e && first; p++)
				if (slots[p] == slots[e])
					first = false;
			if (first)
				hosts[slots[e]].ph.rsv[k] += (float)sign *
				    (float)rr->rusage[u].value;
		}
	}
}

/*
 * What a started job holds, by its state, as mbatchd's account()
 * (mbd-state.c) does: called with -1 before a change of state and +1
 * after.  With preemption configured a suspended job holds no host slot
 * and nothing of a limit that does not count suspended jobs
 * (slots_free, remembered for the -1); it still counts in its queue's
 * and its user's per-host figures and in QJOB_LIMIT.  A started job is
 * in its queue's running list, a suspended one in its preempted list.
 */
static void
account(struct sjob *j, int sign)
{
	struct pol_queue *q = j->pj.queue;
	struct pol_list *l;
	int n = j->pj.num_procs;

	if (j->state != J_RUN && j->state != J_SSUSP)
		return;
	if (sign > 0)
		j->slots_free = preempt_on && j->state == J_SSUSP;
	l = j->state == J_RUN ? &q->running : &q->preempted;
	if (sign > 0)
		policy_list_add(l, &j->pj);
	else
		policy_list_remove(l, &j->pj);
	for (int k = 0; k < n; k++) {
		struct pol_host *h = &hosts[j->slots[k]].ph;

		if (!j->slots_free)
			h->used_slots += sign;
		if (j->pj.exclusive)
			h->exclusive = sign > 0;
		q->host_used[j->slots[k]] += sign;
		if (j->user->pu.host_used)
			j->user->pu.host_used[j->slots[k]] += sign;
		/* Those PREEMPT_FOR may leave out of JL/U and JL/P. */
		if (j->user->pu.host_susp && j->slots_free)
			j->user->pu.host_susp[j->slots[k]] += sign;
	}
	q->qcap.used += sign * n;
	for (int k = 0; k < POL_NCAPS; k++) {
		struct pol_cap *c = j->pj.caps[k];

		if (c && !(c->susp_free && j->slots_free))
			c->used += sign * (c->per_job ? 1 : n);
	}
}

/* Running jobs' ends, with entries left by a suspension skipped. */
static bool
run_stale(const struct run *r)
{
	return r->gen != r->j->gen || r->j->state != J_RUN;
}

static void
heap_clean(void)
{
	while (nheap > 0 && run_stale(&heap[0]))
		(void)heap_pop();
}

static void
run_until(struct sjob *j, int64_t end)
{
	struct run r;

	j->end = end;
	r.end = end;
	r.j = j;
	r.gen = ++j->gen;
	heap_push(r);
}

static void
job_end(struct sjob *j)
{
	if (j->pj.fsa) {
		struct fs_tree *t = j->pj.queue->fs;
		int64_t start = j->pj.start_time;
		double cpu = (double)(cl.now - start) / 3600.0 *
		    j->pj.num_procs;

		fs_charge_end(j->pj.fsa->leaf, &t->f, j->pj.num_procs, start,
		    0, cpu, cl.now);
	}
	account(j, -1);
	reserve(j, j->slots, -1);
	j->state = J_DONE;
	nrunning--;
	free(j->slots);
	j->slots = NULL;
	j->pj.exec = NULL;
	j->pj.nexec = 0;
}

/* Every decision of the drain, hashed: two builds of the policy that
 * print the same sum made the same decisions at the same times. */
static uint64_t		 dsum = 1469598103934665603ULL;
static FILE		*dumpfp;

static void
dsum_add(int64_t v)
{
	dsum = (dsum ^ (uint64_t)v) * 1099511628211ULL;
}

/* Pairs (preemptor, victim) seen, for the flip-flop check. */
static uint64_t		*pairs;
static size_t		 npairs, cappairs;

static bool
pair_has(uint64_t key)
{
	size_t m = cappairs - 1, i;

	if (cappairs == 0)
		return false;
	for (i = (size_t)(key * 0x9e3779b97f4a7c15ULL) & m; pairs[i];
	    i = (i + 1) & m)
		if (pairs[i] == key + 1)
			return true;
	return false;
}

static void
pair_add(uint64_t key)
{
	if (pair_has(key))
		return;
	if (2 * (npairs + 1) > cappairs) {
		uint64_t *old = pairs;
		size_t oldcap = cappairs;

		cappairs = cappairs ? cappairs * 2 : 4096;
		pairs = xcalloc(cappairs, sizeof(*pairs));
		npairs = 0;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i])
				pair_add(old[i] - 1);
		free(old);
	}
	for (size_t m = cappairs - 1, i = (size_t)(key *
	    0x9e3779b97f4a7c15ULL) & m;; i = (i + 1) & m)
		if (pairs[i] == 0) {
			pairs[i] = key + 1;
			npairs++;
			return;
		}
}

static bool
has_cap(const struct sjob *j, const struct pol_cap *c)
{
	for (int k = 0; k < POL_NCAPS; k++)
		if (j->pj.caps[k] == c)
			return true;
	return false;
}

/*
 * The victims of one decision against the hosts as they are before it,
 * independently of the policy's own choice: can the preemptor have its
 * slots on the hosts chosen (nshort counts those that cannot), and is
 * each victim needed, there or for a limit that does not count
 * suspended jobs (nsuperfluous counts those that are not)?
 */
static void
check_victims(const struct pol_decision *d)
{
	struct sjob *j = (struct sjob *)d->job;
	int n = j->pj.num_procs, nh = 0;
	int *uh = xcalloc((size_t)n * 3, sizeof(int));
	int *need = uh + n, *have = need + n;
	struct pol_cap *over[POL_NCAPS];
	int overn[POL_NCAPS], capfreed[POL_NCAPS], nover = 0;

	for (int k = 0; k < n; k++) {
		int x;

		for (x = 0; x < nh && uh[x] != d->slots[k]; x++)
			;
		if (x == nh) {
			const struct pol_host *h = &hosts[d->slots[k]].ph;

			uh[nh++] = d->slots[k];
			have[x] = h->max_slots < 0 ? n :
			    h->max_slots - h->used_slots;
		}
		need[x]++;
	}
	for (int k = 0; k < POL_NCAPS; k++) {
		struct pol_cap *c = j->pj.caps[k];
		int o;

		if (c == NULL || !c->susp_free || c->max < 0)
			continue;
		o = c->used + (c->per_job ? 1 : n) - c->max;
		if (o <= 0)
			continue;
		over[nover] = c;
		overn[nover] = o;
		capfreed[nover++] = 0;
	}
	for (int i = 0; i < d->nvictims; i++) {
		const struct sjob *v = (const struct sjob *)d->victims[i];

		for (int s = 0; s < v->pj.nexec; s++)
			for (int x = 0; x < nh; x++)
				if (uh[x] == v->slots[s])
					have[x]++;
		for (int c = 0; c < nover; c++)
			if (has_cap(v, over[c]))
				capfreed[c] += over[c]->per_job ? 1 :
				    v->pj.num_procs;
	}
	for (int x = 0; x < nh; x++)
		if (have[x] < need[x]) {
			nshort++;
			break;
		}
	for (int i = 0; i < d->nvictims; i++) {
		const struct sjob *v = (const struct sjob *)d->victims[i];
		bool needed = false;

		for (int x = 0; x < nh && !needed; x++) {
			int on = 0;

			for (int s = 0; s < v->pj.nexec; s++)
				on += v->slots[s] == uh[x];
			if (on > 0 && have[x] - on < need[x])
				needed = true;
		}
		for (int c = 0; c < nover && !needed; c++)
			if (has_cap(v, over[c]) && capfreed[c] -
			    (over[c]->per_job ? 1 : v->pj.num_procs) <
			    overn[c])
				needed = true;
		if (!needed && nsuperfluous++ < 5) {
			fprintf(stderr, "sim: superfluous victim: job %td "
			    "(%d slots, first on host %d) of job %td (%d slots) "
			    "at t+%llds; the chosen hosts, free/with victims/"
			    "needed:", v - jobs, v->pj.num_procs,
			    v->pj.nexec ? v->slots[0] : -1, j - jobs, n,
			    (long long)(cl.now - sim0));
			for (int x = 0; x < nh; x++) {
				const struct pol_host *h = &hosts[uh[x]].ph;

				fprintf(stderr, " h%d %d/%d/%d", uh[x],
				    h->max_slots - h->used_slots, have[x],
				    need[x]);
			}
			fputc('\n', stderr);
		}
	}
	free(uh);
}

/*
 * -X, a test of the checks themselves: the first preemptor gets one more
 * victim, a running job on none of its hosts, said to have preempted it
 * before; both checks must then count it.
 */
static void
selftest_victim(struct pol_decision *d)
{
	struct sjob *j = (struct sjob *)d->job;

	selftest = false;
	for (size_t i = 0; i < njobs; i++) {
		struct sjob *x = &jobs[i];
		bool on = x == j;

		if (x->state != J_RUN)
			continue;
		for (int k = 0; k < d->nvictims; k++)
			on |= d->victims[k] == &x->pj;
		for (int s = 0; s < x->pj.nexec && !on; s++)
			for (int k = 0; k < j->pj.num_procs; k++)
				on |= x->slots[s] == d->slots[k];
		if (on)
			continue;
		d->victims = xrealloc(d->victims, sizeof(*d->victims) *
		    (size_t)(d->nvictims + 1));
		d->victims[d->nvictims++] = &x->pj;
		pair_add((uint64_t)i << 32 | (uint64_t)(j - jobs));
		fprintf(stderr, "sim: -X: job %zu added as a victim of job "
		    "%td\n", i, j - jobs);
		return;
	}
}

/* A victim suspended for its preemptor, as mbatchd's preempt_victims. */
static void
suspend(struct sjob *v, struct sjob *by)
{
	uint64_t vi = (uint64_t)(v - jobs), bi = (uint64_t)(by - jobs);

	if (v->state != J_RUN)
		bad("sim", 0, "a victim that does not run", NULL);
	if (pair_has(vi << 32 | bi))
		nflip++;
	pair_add(bi << 32 | vi);
	account(v, -1);
	v->left = v->end - cl.now;
	v->state = J_SSUSP;
	v->gen++;		/* its end is off */
	account(v, 1);
	nrunning--;
	nsusp++;
	npreempt++;
}

static void
resume(struct sjob *j)
{
	if (j->state != J_SSUSP)
		bad("sim", 0, "a resumed job that is not suspended", NULL);
	account(j, -1);
	j->state = J_RUN;
	account(j, 1);
	run_until(j, cl.now + j->left);
	nrunning++;
	nsusp--;
	nresume++;
}

/* Carry the decisions out as mbatchd's sched_run does; returns how many
 * jobs started. */
static int
apply(struct pol_decision *d, int n)
{
	int started = 0;

	for (int i = 0; i < n; i++) {
		struct sjob *j = (struct sjob *)d[i].job;
		bool over = false;

		dsum_add(cl.now);
		if (d[i].resume) {
			dsum_add(-1 - (j - jobs));
			if (dumpfp)
				fprintf(dumpfp, "%lld r %td\n",
				    (long long)cl.now, j - jobs);
			resume(j);
			continue;
		}
		dsum_add(j - jobs);
		for (int k = 0; k < j->pj.num_procs; k++)
			dsum_add(d[i].slots[k]);
		for (int k = 0; k < d[i].nvictims; k++)
			dsum_add(-1 - ((struct sjob *)d[i].victims[k] - jobs));
		if (dumpfp) {
			fprintf(dumpfp, "%lld %td", (long long)cl.now,
			    j - jobs);
			for (int k = 0; k < j->pj.num_procs; k++)
				fprintf(dumpfp, " %d", d[i].slots[k]);
			if (d[i].nvictims > 0)
				fputs(" v", dumpfp);
			for (int k = 0; k < d[i].nvictims; k++)
				fprintf(dumpfp, " %td",
				    (struct sjob *)d[i].victims[k] - jobs);
			fputc('\n', dumpfp);
		}

		/* Its victims give up their slots first. */
		if (d[i].nvictims > 0) {
			if (selftest)
				selftest_victim(&d[i]);
			check_victims(&d[i]);
			npreempt_dec++;
			for (int k = 0; k < d[i].nvictims; k++)
				suspend((struct sjob *)d[i].victims[k], j);
		}
		policy_job_remove(&j->pj);
		j->slots = d[i].slots;
		d[i].slots = NULL;
		j->pj.exec = j->slots;
		j->pj.nexec = j->pj.num_procs;
		j->pj.start_time = cl.now;
		j->state = J_RUN;
		for (int k = 0; k < j->pj.num_procs; k++)
			hosts[j->slots[k]].ph.last_dispatch = cl.now;
		account(j, 1);
		reserve(j, j->slots, 1);
		if (j->pj.fsa)
			fs_charge_start(j->pj.fsa->leaf, j->pj.num_procs,
			    cl.now);
		for (int k = 0; k < j->pj.num_procs; k++) {
			const struct pol_host *h = &hosts[j->slots[k]].ph;

			if (h->max_slots >= 0 && h->used_slots > h->max_slots)
				over = true;
		}
		noversub += over;
		run_until(j, cl.now + (j->runtime > 0 ? j->runtime : 1));
		nrunning++;
		started++;
	}
	return started;
}

/* Nothing runs and jobs still wait: say why, for a few. */
static void
never_start(size_t pending)
{
	int shown = 0;

	fprintf(stderr, "sim: %zu jobs can never start, e.g.:\n", pending);
	for (int i = 0; i < nqueues && shown < 5; i++) {
		for (struct pol_job *j = queuep[i]->head; j && shown < 5;
		    j = j->next) {
			const uint32_t *counts;
			int r = policy_job_reason(&cl, j, &counts);

			fprintf(stderr, "  queue %s, %d slots%s, -R \"%s\": "
			    "reason %d", j->queue->name, j->num_procs,
			    j->exclusive ? ", -x" : "",
			    j->rr && j->rr->text ? j->rr->text : "", r);
			for (int k = 0; counts && k < HR_NREASONS; k++)
				if (counts[k])
					fprintf(stderr, " %s:%u",
					    host_reason_text(k), counts[k]);
			fputc('\n', stderr);
			shown++;
		}
	}
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static bool
has_victims(const struct pol_decision *d, int n)
{
	for (int i = 0; i < n; i++)
		if (d[i].nvictims > 0)
			return true;
	return false;
}

/*
 * The first pass of the drain that preempts, timed reps times more on
 * the same state, with the queues' victims hidden (preemption off: the
 * same pass as if it were not configured) and then as it is; the last
 * one's decisions are carried out, the same as the first's.
 */
static int
busy_pass(struct pol_decision *d, int n, int max, int reps, double first,
    const char *key, size_t pending)
{
	double on = first, off = 1e30, t0, t;
	int nv[MAXQ], noff = 0, nvic = 0;

	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < nqueues; i++) {
			nv[i] = queues[i].pq.nvictims;
			queues[i].pq.nvictims = 0;
		}
		policy_decisions_free(d, n);
		t0 = now_s();
		noff = n = policy_schedule(&cl, d, max);
		t = now_s() - t0;
		if (t < off)
			off = t;
		for (int i = 0; i < nqueues; i++)
			queues[i].pq.nvictims = nv[i];
	}
	for (int r = 0; r < reps; r++) {
		policy_decisions_free(d, n);
		t0 = now_s();
		n = policy_schedule(&cl, d, max);
		t = now_s() - t0;
		if (t < on)
			on = t;
	}
	for (int i = 0; i < n; i++)
		nvic += d[i].nvictims;
	fprintf(stderr, "sim: the first pass that preempts (t+%llds, %zu "
	    "pending, %zu running): %d decisions, %d victims, %.4f s; "
	    "with preemption off %d decisions, %.4f s (least of %d)\n",
	    (long long)(cl.now - sim0), pending, nrunning,
	    n, nvic, on, noff, off, reps);
	printf("RESULT|%sbusy_pass_s|%.4f|s\n", key, on);
	printf("RESULT|%sbusy_off_pass_s|%.4f|s\n", key, off);
	printf("RESULT|%sbusy_ratio|%.2f|x\n", key, on / off);
	fflush(stdout);
	return n;
}

/* The pass just made, made again into d2 with preemption off (the
 * queues' victims hidden): its time.  The state it leaves is the same. */
static double
pass_off(struct pol_decision *d2, int max)
{
	int nv[MAXQ], n;
	double t0, t;

	for (int i = 0; i < nqueues; i++) {
		nv[i] = queues[i].pq.nvictims;
		queues[i].pq.nvictims = 0;
	}
	t0 = now_s();
	n = policy_schedule(&cl, d2, max);
	t = now_s() - t0;
	policy_decisions_free(d2, n);
	for (int i = 0; i < nqueues; i++)
		queues[i].pq.nvictims = nv[i];
	return t;
}

static void
usage(void)
{
	fprintf(stderr, "usage: sim [-FnPSX] [-d dumpfile] [-k keyprefix] "
	    "[-m max] [-p passes] [-r reps] [-t tick] [-w wall_limit_s] "
	    "CLUSTER JOBS\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct pol_decision *d;
	int max = DEF_MAX, reps = 3, tick = 1, c, n, k;
	const char *key = "w9.";
	double wall_limit = 0, t0, t1, setup, *times;
	bool drain = true;
	size_t max_passes = 0;
	const char *dump = NULL;
	size_t pending, started = 0, passes = 0, ended = 0, ppasses = 0;
	double pass_sum = 0, pass_max = 0, dstart, ppass_sum = 0;
	double ppass_max = 0, poff_sum = 0, poff_max = 0, pratio_max = 0;
	struct pol_decision *d2 = NULL;
	bool busy_done = false;

	while ((c = getopt(argc, argv, "d:Fk:m:np:Pr:St:w:X")) != -1) {
		switch (c) {
		case 'F':
			no_fairshare = true;
			break;
		case 'k':
			key = optarg;
			break;
		case 'P':
			no_preempt_conf = true;
			break;
		case 'X':
			selftest = true;
			break;
		case 'p':
			max_passes = strtoul(optarg, NULL, 10);
			break;
		case 'd':
			dump = optarg;
			break;
		case 'm':
			max = atoi(optarg);
			break;
		case 'n':
			drain = false;
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 'S':
			share_rr = true;
			break;
		case 't':
			tick = atoi(optarg);
			break;
		case 'w':
			wall_limit = atof(optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2 || max < 1 || reps < 1 || tick < 1)
		usage();

	t0 = now_s();
	read_cluster(argv[0]);
	if (nhosts == 0 || nqueues == 0)
		bad(argv[0], 0, "no hosts or no queues", NULL);
	hostp = xcalloc((size_t)nhosts, sizeof(*hostp));
	for (int i = 0; i < nhosts; i++) {
		struct shost *s = &hosts[i];

		s->ph.rr.load = s->load;
		s->ph.rr.resources = s->res.n ? &s->res : NULL;
		s->ph.thr = s->thr.sched_set ? &s->thr : NULL;
		hostp[i] = &s->ph;
	}
	for (int i = 0; i < nqueues; i++) {
		struct squeue *q = &queues[i];

		q->pq.host_used = xcalloc((size_t)nhosts + 1, sizeof(int));
		if (q->thr.sched_set == 0)
			q->pq.thr = NULL;
		queuep[i] = &q->pq;
	}
	preempt_configure(argv[0]);
	fs_configure();
	read_jobs(argv[1]);
	qsort(begins, nbegins, sizeof(*begins), cmp_int64);
	setup = now_s() - t0;

	cl.hosts = hostp;
	cl.nhosts = nhosts;
	cl.queues = queuep;
	cl.nqueues = nqueues;
	policy_sort_queues(queuep, nqueues);
	d = xcalloc((size_t)max, sizeof(*d));
	pending = njobs;
	sim0 = cl.now;

	fprintf(stderr, "sim: %d hosts, %d queues, %d users, %zu jobs, "
	    "%zu parsed requirements%s; setup %.2f s\n", nhosts, nqueues,
	    nusers, njobs, nrr, share_rr ? " (shared by string)" : "",
	    setup);
	for (int i = 0; i < nqueues; i++)
		if (queues[i].pq.fs)
			fprintf(stderr, "sim: queue %s: fairshare, %d accounts\n",
			    queues[i].pq.name, queues[i].pq.fs->nleaves);
	for (int i = 0; i < nqueues; i++)
		for (int v = 0; v < queues[i].pq.nvictims; v++)
			fprintf(stderr, "sim: queue %s may preempt queue %s\n",
			    queues[i].pq.name, queues[i].pq.victims[v]->name);

	/* One pass, timed reps times on the same state (a pass changes
	 * only its scratch and the reasons: the decisions are applied
	 * after). */
	times = xcalloc((size_t)reps, sizeof(*times));
	n = 0;
	for (int r = 0; r < reps; r++) {
		policy_decisions_free(d, n);
		t0 = now_s();
		n = policy_schedule(&cl, d, max);
		t1 = now_s();
		times[r] = t1 - t0;
	}
	qsort(times, (size_t)reps, sizeof(*times), cmp_double);
	fprintf(stderr, "sim: first pass: %d jobs started, %.3f s (min of "
	    "%d; max %.3f s)\n", n, times[0], reps, times[reps - 1]);
	printf("RESULT|%ssetup_s|%.3f|s\n", key, setup);
	printf("RESULT|%spass_s|%.4f|s\n", key, times[0]);
	printf("RESULT|%sjobs_per_pass|%d|jobs\n", key, n);
	fflush(stdout);
	if (dump && (dumpfp = fopen(dump, "w")) == NULL)
		bad(dump, 0, strerror(errno), NULL);
	if (!drain) {
		if (dumpfp) {
			apply(d, n);
			fclose(dumpfp);
		}
		return 0;
	}

	/* The drain's wall time counts its first pass, timed above. */
	dstart = now_s() - times[0];
	passes = 1;
	pass_sum = pass_max = times[0];
	for (;;) {
		double pt;

		/* As sched_run: the decisions are spent (a pass fills
		 * only what a decision needs). */
		k = apply(d, n);
		policy_decisions_free(d, n);
		started += (size_t)k;
		pending -= (size_t)k;
		if (pending == 0 && nsusp == 0)
			break;
		if (n < max) {
			/* Nothing more now: the next tick, or the next end
			 * or begin time when later. */
			int64_t next = cl.now + tick;

			heap_clean();
			while (nextbegin < nbegins &&
			    begins[nextbegin] <= cl.now)
				nextbegin++;
			if (nheap > 0 && heap[0].end > next)
				next = heap[0].end;
			if (nextbegin < nbegins && (nheap == 0 ||
			    begins[nextbegin] < next))
				next = begins[nextbegin] > cl.now + tick ?
				    begins[nextbegin] : cl.now + tick;
			if (nheap == 0 && nextbegin == nbegins) {
				never_start(pending);
				break;
			}
			cl.now = next;
			for (;;) {
				heap_clean();
				if (nheap == 0 || heap[0].end > cl.now)
					break;
				job_end(heap_pop().j);
				ended++;
			}
		}
		t0 = now_s();
		n = policy_schedule(&cl, d, max);
		pt = now_s() - t0;
		if (preempt_on && has_victims(d, n)) {
			if (!busy_done) {
				/* Time the same pass again, and with
				 * preemption off; not the drain's time. */
				double b0 = now_s();

				busy_done = true;
				n = busy_pass(d, n, max, reps, pt, key,
				    pending);
				dstart += now_s() - b0;
			}
			double b0 = now_s(), off;

			if (d2 == NULL)
				d2 = xcalloc((size_t)max, sizeof(*d2));
			off = pass_off(d2, max);
			dstart += now_s() - b0;
			ppasses++;
			ppass_sum += pt;
			poff_sum += off;
			if (pt > ppass_max)
				ppass_max = pt;
			if (off > poff_max)
				poff_max = off;
			if (off > 0 && pt / off > pratio_max)
				pratio_max = pt / off;
		}
		pass_sum += pt;
		if (pt > pass_max)
			pass_max = pt;
		passes++;
		if (passes % 500 == 0)
			fprintf(stderr, "sim: pass %zu, t+%llds, %zu pending, "
			    "%zu running, %zu suspended, last pass %.3f s\n",
			    passes, (long long)(cl.now - sim0), pending,
			    nrunning, nsusp, pt);
		if (max_passes > 0 && passes >= max_passes) {
			fprintf(stderr, "sim: stopped after %zu passes\n",
			    passes);
			break;
		}
		if (wall_limit > 0 && now_s() - dstart > wall_limit) {
			fprintf(stderr, "sim: wall limit %.0f s reached\n",
			    wall_limit);
			break;
		}
	}
	/* The last jobs run to their end. */
	while (pending == 0 && nsusp == 0 && nheap > 0) {
		struct run r = heap_pop();

		if (run_stale(&r))
			continue;
		cl.now = r.end;
		job_end(r.j);
		ended++;
	}
	t1 = now_s();
	fprintf(stderr, "sim: drain: %zu passes, %zu jobs started, %zu "
	    "ended, %zu not started; simulated %lld s; wall %.2f s (in passes "
	    "%.2f s, mean %.4f s, max %.4f s)\n", passes, started, ended,
	    pending, (long long)(cl.now - sim0), t1 - dstart, pass_sum,
	    pass_sum / (double)passes, pass_max);
	if (dumpfp)
		fclose(dumpfp);
	fprintf(stderr, "sim: decisions checksum %016llx\n",
	    (unsigned long long)dsum);
	/* A drain stopped early has no drain time, only how far it got. */
	if (pending == 0 && nsusp == 0)
		printf("RESULT|%sdrain_s|%.2f|s\n", key, t1 - dstart);
	else
		printf("RESULT|%sdrain_stopped_after_s|%.2f|s\n", key,
		    t1 - dstart);
	printf("RESULT|%sdrain_passes|%zu|passes\n", key, passes);
	printf("RESULT|%sdrain_rate|%.0f|jobs/s\n", key,
	    (double)started / (t1 - dstart));
	printf("RESULT|%sdrain_jobs_per_pass|%.1f|jobs\n", key,
	    (double)started / (double)passes);
	printf("RESULT|%sdrain_sim_s|%lld|s\n", key,
	    (long long)(cl.now - sim0));
	printf("RESULT|%sdrain_pass_mean_s|%.4f|s\n", key,
	    pass_sum / (double)passes);
	printf("RESULT|%sdrain_pass_max_s|%.4f|s\n", key, pass_max);
	if (preempt_on) {
		fprintf(stderr, "sim: preemption: %zu jobs started by "
		    "preempting %zu victims in %zu passes (mean %.4f s, max "
		    "%.4f s; the same passes with preemption off: mean "
		    "%.4f s, max %.4f s; the largest ratio %.2f), %zu "
		    "resumed; %zu flip-flops, %zu superfluous victims, %zu "
		    "preemptors short of slots, %zu starts over a host's "
		    "MXJ\n", npreempt_dec, npreempt, ppasses,
		    ppasses ? ppass_sum / (double)ppasses : 0, ppass_max,
		    ppasses ? poff_sum / (double)ppasses : 0, poff_max,
		    pratio_max, nresume, nflip, nsuperfluous, nshort,
		    noversub);
		printf("RESULT|%sstarts|%zu|jobs\n", key, npreempt_dec);
		printf("RESULT|%svictims|%zu|jobs\n", key, npreempt);
		printf("RESULT|%sresumes|%zu|jobs\n", key, nresume);
		printf("RESULT|%spasses|%zu|passes\n", key, ppasses);
		printf("RESULT|%spasses_mean_s|%.4f|s\n", key,
		    ppasses ? ppass_sum / (double)ppasses : 0);
		printf("RESULT|%spasses_max_s|%.4f|s\n", key, ppass_max);
		printf("RESULT|%spasses_off_mean_s|%.4f|s\n", key,
		    ppasses ? poff_sum / (double)ppasses : 0);
		printf("RESULT|%spasses_off_max_s|%.4f|s\n", key, poff_max);
		printf("RESULT|%spasses_ratio|%.2f|x\n", key,
		    poff_sum > 0 ? ppass_sum / poff_sum : 0);
		printf("RESULT|%sflipflops|%zu|jobs\n", key, nflip);
		printf("RESULT|%ssuperfluous|%zu|jobs\n", key, nsuperfluous);
		printf("RESULT|%sshort|%zu|jobs\n", key, nshort);
	}
	printf("RESULT|%soversubscribed|%zu|jobs\n", key, noversub);
	if (pending > 0 || nsusp > 0)
		printf("RESULT|%sdrain_unfinished|%zu|jobs\n", key,
		    pending + nsusp);
	return pending > 0 || nsusp > 0 ? 1 : 0;
}
