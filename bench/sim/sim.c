/*
 * Workload 9: the real scheduling code (src/policy.c, src/resreq*.c)
 * driven by a simulated cluster read from text files.  It times one
 * scheduling pass, then drains every job: passes, decisions applied as
 * mbatchd applies them (daemons/mbatchd/mbd-sched.c, mbd-state.c,
 * mbd-users.c, mbd-reserve.c), and jobs ending after their run time on
 * a simulated clock.
 *
 *	sim [-nS] [-d dumpfile] [-m max] [-p passes] [-r reps] [-t tick]
 *	    [-w wall_s] CLUSTER JOBS
 *
 * -n: the first pass only, no drain; -r: time the first pass that many
 * times (the least is reported); -d: write every decision applied (the
 * time, the job's line number - 1, a host index per slot); -w: stop the drain
 * after that many seconds of wall time; -p: after that many passes.
 *
 * CLUSTER has one record a line ('#' starts a comment):
 *
 *	host NAME [mxj=N] [ncpus=N] [maxmem=MB] [maxswp=MB] [maxtmp=MB]
 *	    [type=T] [model=M] [cpuf=F] [res=a,b,...] [jl_u=N]
 *	    [status=ok|unavail|closed] [load=idx:v,...] [sched=idx:v,...]
 *	queue NAME [priority=N] [qjob_limit=N] [hjob_limit=N]
 *	    [pjob_limit=F] [ujob_limit=N] [accept_interval=SECONDS]
 *	    [sched=idx:v,...] [res_req=REST OF LINE]
 *	user NAME [max_jobs=N] [jl_p=F]
 *
 * load= gives load indices (r15s r1m r15m ut pg io ls it tmp swp mem;
 * unset ones are 0, mem/swp/tmp default to maxmem/maxswp/maxtmp), sched=
 * the host's (lsb.hosts) or queue's scheduling thresholds.  mxj=-1 is
 * unlimited.  accept_interval defaults to 10 s, the project's default
 * (JOB_ACCEPT_INTERVAL 1 x MBD_SLEEP_TIME 10).  Queues come before the
 * jobs that name them.
 *
 * JOBS has one pending job a line, in submission order:
 *
 *	QUEUE USER SLOTS SUBMIT_TIME RUN_SECONDS FLAGS [RESREQ...]
 *
 * FLAGS is "-" or "x" (bsub -x); RESREQ, the rest of the line, is one
 * bsub -R string, parsed and merged with the queue's RES_REQ by the real
 * parser as mbatchd does.  Every job is pending at the start; the clock
 * starts at the latest SUBMIT_TIME.
 *
 * Each job gets its own parsed requirement, as in mbatchd (-S shares one
 * among the jobs of a queue with the same string instead).  A pass starts
 * at most -m decisions (default 10000, mbatchd's MAX_DISPATCH_PER_PASS);
 * a full pass is followed by another at the same time, as in mbatchd;
 * otherwise the clock moves on by -t seconds (default 1, mbatchd's tick,
 * which schedules every second while jobs pend) or to the next job end.
 *
 * Not simulated: fairshare (the project does not implement it yet, so
 * the queues here are FCFS by priority), load that changes as jobs run
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
};

struct suser {
	char		*name;
	struct suser	*next;		/* hash chain */
	struct pol_user	 pu;
	struct pol_cap	 max_jobs;
	struct pol_cap	 qcaps[MAXQ];	/* UJOB_LIMIT per queue */
};

struct sjob {
	struct pol_job	 pj;		/* first: a decision's job */
	struct suser	*user;
	int		 qi;		/* queue index */
	int		 runtime;
	int64_t		 submit;
};

struct run {
	int64_t		 end;
	struct sjob	*j;
	int		*slots;
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
		else
			bad(file, line, "unknown queue key", k);
	}
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
		if (nf < 2)
			bad(file, line, "expected a name", f[0]);
		if (strcmp(f[0], "host") == 0)
			add_host(file, line, f, nf);
		else if (strcmp(f[0], "queue") == 0)
			add_queue(file, line, f, nf, rr);
		else if (strcmp(f[0], "user") == 0)
			add_user(file, line, f, nf);
		else
			bad(file, line, "unknown record", f[0]);
	}
	fclose(fp);
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
		if (rest && *rest)
			j->pj.rr = job_resreq(file, line, q, rest);
		if (j->submit > cl.now)
			cl.now = j->submit;
	}
	fclose(fp);
	/* The array is final: queue the jobs now, in file order. */
	for (size_t i = 0; i < njobs; i++) {
		struct sjob *j = &jobs[i];

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

/* Slots used by a started (sign 1) or ended (-1) job, as mbatchd's
 * slot accounting does. */
static void
account(struct sjob *j, const int *slots, int sign)
{
	struct pol_queue *q = j->pj.queue;
	int n = j->pj.num_procs;

	for (int k = 0; k < n; k++) {
		struct pol_host *h = &hosts[slots[k]].ph;

		h->used_slots += sign;
		if (sign > 0)
			h->last_dispatch = cl.now;
		if (j->pj.exclusive)
			h->exclusive = sign > 0;
		q->host_used[slots[k]] += sign;
		if (j->user->pu.host_used)
			j->user->pu.host_used[slots[k]] += sign;
	}
	q->qcap.used += sign * n;
	for (int k = 0; k < POL_NCAPS; k++)
		if (j->pj.caps[k])
			j->pj.caps[k]->used += sign *
			    (j->pj.caps[k]->per_job ? 1 : n);
	reserve(j, slots, sign);
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

static void
apply(struct pol_decision *d, int n)
{
	for (int i = 0; i < n; i++) {
		struct sjob *j = (struct sjob *)d[i].job;
		struct run r;

		dsum_add(cl.now);
		dsum_add(j - jobs);
		for (int k = 0; k < j->pj.num_procs; k++)
			dsum_add(d[i].slots[k]);
		if (dumpfp) {
			fprintf(dumpfp, "%lld %td", (long long)cl.now,
			    j - jobs);
			for (int k = 0; k < j->pj.num_procs; k++)
				fprintf(dumpfp, " %d", d[i].slots[k]);
			fputc('\n', dumpfp);
		}

		policy_job_remove(&j->pj);
		account(j, d[i].slots, 1);
		r.end = cl.now + (j->runtime > 0 ? j->runtime : 1);
		r.j = j;
		r.slots = d[i].slots;
		d[i].slots = NULL;
		heap_push(r);
	}
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

static void
usage(void)
{
	fprintf(stderr, "usage: sim [-nS] [-d dumpfile] [-m max] [-p passes] "
	    "[-r reps] [-t tick] [-w wall_limit_s] CLUSTER JOBS\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct pol_decision *d;
	int max = DEF_MAX, reps = 3, tick = 1, c, n;
	double wall_limit = 0, t0, t1, setup, *times;
	bool drain = true;
	size_t max_passes = 0;
	const char *dump = NULL;
	size_t pending, started = 0, passes = 0, ended = 0;
	double pass_sum = 0, pass_max = 0, dstart;
	int64_t sim0;

	while ((c = getopt(argc, argv, "d:m:np:r:St:w:")) != -1) {
		switch (c) {
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
	read_jobs(argv[1]);
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
	fprintf(stderr, "sim: fairshare is not implemented by the project "
	    "yet: queues are FCFS by priority, so it is not simulated\n");

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
	printf("RESULT|w9.setup_s|%.3f|s\n", setup);
	printf("RESULT|w9.pass_s|%.4f|s\n", times[0]);
	printf("RESULT|w9.jobs_per_pass|%d|jobs\n", n);
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

		apply(d, n);
		started += (size_t)n;
		pending -= (size_t)n;
		if (pending == 0)
			break;
		if (n < max) {
			/* Nothing more now: the next tick, or the next end
			 * when later. */
			int64_t next = cl.now + tick;

			if (nheap > 0 && heap[0].end > next)
				next = heap[0].end;
			if (nheap == 0) {
				never_start(pending);
				break;
			}
			cl.now = next;
			while (nheap > 0 && heap[0].end <= cl.now) {
				struct run r = heap_pop();

				account(r.j, r.slots, -1);
				free(r.slots);
				ended++;
			}
		}
		t0 = now_s();
		n = policy_schedule(&cl, d, max);
		pt = now_s() - t0;
		pass_sum += pt;
		if (pt > pass_max)
			pass_max = pt;
		passes++;
		if (passes % 500 == 0)
			fprintf(stderr, "sim: pass %zu, t+%llds, %zu pending, "
			    "%zu running, last pass %.3f s\n", passes,
			    (long long)(cl.now - sim0), pending, nheap, pt);
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
	while (pending == 0 && nheap > 0) {
		struct run r = heap_pop();

		cl.now = r.end;
		account(r.j, r.slots, -1);
		free(r.slots);
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
	if (pending == 0)
		printf("RESULT|w9.drain_s|%.2f|s\n", t1 - dstart);
	else
		printf("RESULT|w9.drain_stopped_after_s|%.2f|s\n",
		    t1 - dstart);
	printf("RESULT|w9.drain_passes|%zu|passes\n", passes);
	printf("RESULT|w9.drain_jobs_per_pass|%.1f|jobs\n",
	    (double)started / (double)passes);
	printf("RESULT|w9.drain_sim_s|%lld|s\n", (long long)(cl.now - sim0));
	printf("RESULT|w9.drain_pass_mean_s|%.4f|s\n",
	    pass_sum / (double)passes);
	printf("RESULT|w9.drain_pass_max_s|%.4f|s\n", pass_max);
	if (pending > 0)
		printf("RESULT|w9.drain_unfinished|%zu|jobs\n", pending);
	return pending > 0 ? 1 : 0;
}
