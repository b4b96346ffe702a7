/*
 * Workload 9: mbatchd's scheduling and state core driven by a simulated
 * cluster read from text files.  It times one scheduling pass, then
 * drains every job: passes, decisions carried out by mbatchd's own code
 * and jobs ending after their run time on a simulated clock.
 *
 * The state is mbatchd's, built and changed by its state core
 * (libmbdcore.a, daemons/mbatchd; its I/O stubbed as check_mbd's is,
 * tests/unit/stubs/mbd-stubs.c, with the log kept nowhere): CLUSTER is
 * written out as lsf.cluster, lsb.hosts, lsb.queues, lsb.users and
 * lsb.params in a temporary directory and loaded as mbatchd loads them
 * (config_load, state_init); each host is reported up by a LIM as the
 * load feed reports it (host_load_apply) and registered; each job is a
 * JOB_NEW record, applied as replay applies it.  A decision is carried
 * out by sched_apply (mbd-start.c: victims suspended through their
 * JOB_STATUS, the start through its JOB_START), as sched_run does, and a
 * job's end is its JOB_STATUS DONE (job_status_apply); so the slot
 * accounting, limits, rusage[] reservations (reserve_pass before each
 * pass), preempted lists and fairshare charges are mbatchd's own.  What
 * is simulated is only what the hosts would do: each job ends after its
 * run time, and a suspended job's run time stands still.
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
 * unset ones are 0, mem/swp/tmp default to maxmem/maxswp/maxtmp), as
 * the LIM reports them; sched= the host's (lsb.hosts) or queue's
 * scheduling thresholds.  mxj=-1 is unlimited (lsb.hosts MXJ -).  A
 * host is of type X86_64 and model generic unless given.  status=closed
 * is closed by an administrator, unavail a host whose LIM is down.
 * accept_interval defaults to 10 s, the project's default
 * (JOB_ACCEPT_INTERVAL 1 x MBD_SLEEP_TIME 10; written as seconds with
 * MBD_SLEEP_TIME 1).  Queues come before the jobs that name them.
 *
 * preemption= is lsb.queues' PREEMPTION with commas for blanks
 * (preemption=PREEMPTIVE[idle+2,low+1] or preemption=PREEMPTABLE);
 * preempt_for= is lsb.params' PREEMPT_FOR, commas for blanks.  The
 * drain counts preemptions, flip-flops (a job preempted by one it
 * preempted earlier) and superfluous victims (one without which the
 * other victims and the free slots of the hosts chosen still give the
 * preemptor its slots, judged from the hosts before the decision), and
 * times the first pass of the drain that preempts again, -r times with
 * preemption and -r times with the queues' victim lists hidden (the same
 * pass as if preemption were not configured), outside the drain's time;
 * every pass that preempts is made once more so, for the same comparison
 * (w9.preempt_passes_ratio: the time of those passes with preemption
 * over their time without).  A victim's JOB_STATUS is timed by the wall
 * clock, as mbatchd's live records are (job_status_record): fairshare
 * and preemption are not combined in one run.
 *
 * JOBS has one pending job a line, in submission order:
 *
 *	QUEUE USER SLOTS SUBMIT_TIME RUN_SECONDS FLAGS [RESREQ...]
 *
 * FLAGS is "-" or "x" (bsub -x), either followed by "bN": a begin time
 * (bsub -b) N seconds after the clock's start; RESREQ, the rest of the
 * line, is one bsub -R string, merged with the queue's RES_REQ as
 * mbatchd merges it.  Job n (its line number) has job ID n.  Every job
 * is pending at the start; the clock starts at the latest SUBMIT_TIME.
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
 * fairshare; groups may come after the queues that name them.  A job's
 * CPU time at its end is its run time times its slots (one CPU busy per
 * slot), which mbatchd charges to its account.
 *
 * Not simulated: load that changes as jobs run (only rusage[]
 * reservations move eff load), arrays, dependencies, -m.
 *
 * Prints RESULT|key|value|unit lines on stdout, commentary on stderr.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "mbd.h"
#include "mbd-stubs.h"

#define DEF_MAX		10000

/* What the simulated hosts know of a job: when it ends. */
struct sjob {
	struct job	*j;
	int		 runtime;
	int64_t		 end;		/* when it ends, while it runs */
	int64_t		 left;		/* run time left, while suspended */
	uint32_t	 gen;		/* its heap entry's, while it runs */
};

struct run {
	int64_t		 end;
	struct sjob	*j;
	uint32_t	 gen;		/* stale unless the job's */
};

/* A host line of CLUSTER: its LIM's report, and whether it is closed. */
struct shost {
	struct lim_host	 lh;
	bool		 closed;
};

static struct shost	*hosts;
static int		 nhosts;
static struct sjob	*jobs;
static size_t		 njobs;
static int		 nusers;

/* The configuration files, written from CLUSTER. */
static struct strbuf	 f_cluster = STRBUF_INIT;
static struct strbuf	 f_queues = STRBUF_INIT;
static struct strbuf	 f_users = STRBUF_INIT, f_groups = STRBUF_INIT;
static struct strbuf	 f_params = STRBUF_INIT;
static struct strv	 resources = STRV_INIT;	/* for lsf.shared */
/* lsb.hosts: the threshold columns, each host's row ("|" between). */
static struct strv	 bcols = STRV_INIT;
static struct strv	 brows = STRV_INIT;
static char		*confdir;		/* $TMPDIR/w9sim.XXXXXX */

/* Running jobs, a min-heap on end time. */
static struct run	*heap;
static size_t		 nheap, capheap;

static bool		 share_rr;
static bool		 no_fairshare;		/* -F */

/* Preemption. */
static bool		 no_preempt_conf;	/* -P */
static bool		 selftest;		/* -X */
static size_t		 nrunning, nsusp;
static size_t		 npreempt, nresume, nflip, nsuperfluous, nshort;
static size_t		 npreempt_dec, noversub;
static int64_t		*begins;		/* sorted begin times */
static int64_t		 sim0;			/* the clock's start */
static size_t		 nbegins, nextbegin;

#define NOW		(mbd->pc.now)

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

static struct sjob *
sjob_of(const struct pol_job *p)
{
	return &jobs[JOB_OF_PJ(p)->jobid - 1];
}

static size_t
jindex(const struct pol_job *p)
{
	return (size_t)(JOB_OF_PJ(p)->jobid - 1);
}

static void
commas_to_blanks(char *v)
{
	for (char *c = v; *c; c++)
		if (*c == ',')
			*c = ' ';
}

/* "idx:v,idx:v": load values into a LIM report, or thresholds written
 * as lsb.queues lines (q) or lsb.hosts cells (cells, by bcols). */
static void
parse_pairs(const char *file, int line, const char *s, float *load,
    struct strbuf *q, struct strv *cells)
{
	char *copy = xstrdup(s), *p, *save = NULL;

	for (p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",",
	    &save)) {
		char *colon = strchr(p, ':');
		int k;

		if (colon == NULL)
			bad(file, line, "expected idx:value", p);
		*colon = '\0';
		if ((k = load_index_lookup(p)) < 0)
			bad(file, line, "unknown load index", p);
		if (load)
			load[k] = strtof(colon + 1, NULL);
		else if (q)
			sb_addf(q, "%s = %s\n", p, colon + 1);
		else {
			size_t c;

			for (c = 0; c < bcols.n; c++)
				if (strcmp(bcols.v[c], p) == 0)
					break;
			if (c == bcols.n)
				strv_push(&bcols, p);
			while (cells->n <= c)
				strv_push(cells, "()");
			free(cells->v[c]);
			cells->v[c] = xstrdup(colon + 1);
		}
	}
	free(copy);
}

static void
add_host(const char *file, int line, char **f, int nf)
{
	static int cap;
	struct shost *s;
	struct lim_host *h;
	struct strv cells = STRV_INIT, res = STRV_INIT;
	bool loadset[NLOADIDX] = { false };
	const char *mxj = "1", *jlu = "-";

	if (nhosts == cap) {
		cap = cap ? cap * 2 : 1024;
		hosts = xrealloc(hosts, sizeof(*hosts) * (size_t)cap);
	}
	s = &hosts[nhosts];
	memset(s, 0, sizeof(*s));
	h = &s->lh;
	h->name = xstrdup(f[1]);
	h->type = "X86_64";
	h->model = "generic";
	h->ncpus = 1;
	h->cpuf = 1.0f;
	h->maxmem = 4096;
	h->maxswp = 4096;
	h->maxtmp = 10240;
	h->server = true;
	for (int i = 2; i < nf; i++) {
		char *k = f[i], *v = strchr(k, '=');

		if (v == NULL)
			bad(file, line, "expected key=value", k);
		*v++ = '\0';
		if (strcmp(k, "mxj") == 0)
			mxj = atoi(v) < 0 ? "-" : v;
		else if (strcmp(k, "ncpus") == 0)
			h->ncpus = atoi(v);
		else if (strcmp(k, "maxmem") == 0)
			h->maxmem = atoi(v);
		else if (strcmp(k, "maxswp") == 0)
			h->maxswp = atoi(v);
		else if (strcmp(k, "maxtmp") == 0)
			h->maxtmp = atoi(v);
		else if (strcmp(k, "type") == 0)
			h->type = xstrdup(v);
		else if (strcmp(k, "model") == 0)
			h->model = xstrdup(v);
		else if (strcmp(k, "cpuf") == 0)
			h->cpuf = strtof(v, NULL);
		else if (strcmp(k, "jl_u") == 0)
			jlu = atoi(v) < 0 ? "-" : v;
		else if (strcmp(k, "res") == 0) {
			char *save = NULL;

			for (char *r = strtok_r(v, ",", &save); r;
			    r = strtok_r(NULL, ",", &save)) {
				strv_push(&res, r);
				if (!strv_contains(&resources, r))
					strv_push(&resources, r);
			}
		} else if (strcmp(k, "status") == 0) {
			if (strcmp(v, "unavail") == 0)
				h->status = LIM_UNAVAIL;
			else if (strcmp(v, "closed") == 0)
				s->closed = true;
			else if (strcmp(v, "ok") != 0)
				bad(file, line, "bad status", v);
		} else if (strcmp(k, "load") == 0) {
			float tmp[NLOADIDX];

			for (int x = 0; x < NLOADIDX; x++)
				tmp[x] = -1;
			parse_pairs(file, line, v, tmp, NULL, NULL);
			for (int x = 0; x < NLOADIDX; x++)
				if (tmp[x] != -1) {
					h->load[x] = tmp[x];
					loadset[x] = true;
				}
		} else if (strcmp(k, "sched") == 0)
			parse_pairs(file, line, v, NULL, NULL, &cells);
		else
			bad(file, line, "unknown host key", k);
	}
	if (!loadset[LI_MEM])
		h->load[LI_MEM] = (float)h->maxmem;
	if (!loadset[LI_SWP])
		h->load[LI_SWP] = (float)h->maxswp;
	if (!loadset[LI_TMP])
		h->load[LI_TMP] = (float)h->maxtmp;
	/* lsf.cluster leaves the type and model to the LIM's report. */
	sb_addf(&f_cluster, "%s ! ! 1 (", h->name);
	for (size_t i = 0; i < res.n; i++)
		sb_addf(&f_cluster, "%s%s", i ? " " : "", res.v[i]);
	sb_addf(&f_cluster, ")\n");
	{
		struct strbuf row = STRBUF_INIT;

		sb_addf(&row, "%s %s %s", h->name, mxj, jlu);
		for (size_t i = 0; i < cells.n; i++)
			sb_addf(&row, "|%s", cells.v[i]);
		strv_push(&brows, row.buf);
		sb_release(&row);
	}
	strv_release(&cells);
	strv_release(&res);
	nhosts++;
}

static void
add_queue(const char *file, int line, char **f, int nf, const char *rest)
{
	struct strbuf *q = &f_queues;
	bool ai = false;

	sb_addf(q, "Begin Queue\nQUEUE_NAME = %s\n", f[1]);
	for (int i = 2; i < nf; i++) {
		char *k = f[i], *v = strchr(k, '=');

		if (v == NULL)
			bad(file, line, "expected key=value", k);
		*v++ = '\0';
		if (strcmp(k, "priority") == 0)
			sb_addf(q, "PRIORITY = %s\n", v);
		else if (strcmp(k, "qjob_limit") == 0)
			sb_addf(q, "QJOB_LIMIT = %s\n", v);
		else if (strcmp(k, "hjob_limit") == 0)
			sb_addf(q, "HJOB_LIMIT = %s\n", v);
		else if (strcmp(k, "pjob_limit") == 0)
			sb_addf(q, "PJOB_LIMIT = %s\n", v);
		else if (strcmp(k, "ujob_limit") == 0)
			sb_addf(q, "UJOB_LIMIT = %s\n", v);
		else if (strcmp(k, "accept_interval") == 0) {
			sb_addf(q, "JOB_ACCEPT_INTERVAL = %s\n", v);
			ai = true;
		} else if (strcmp(k, "sched") == 0)
			parse_pairs(file, line, v, NULL, q, NULL);
		else if (strcmp(k, "preemption") == 0) {
			if (no_preempt_conf)
				continue;
			commas_to_blanks(v);
			sb_addf(q, "PREEMPTION = %s\n", v);
		} else if (strcmp(k, "fairshare") == 0) {
			if (no_fairshare)
				continue;
			sb_addf(q, "FAIRSHARE = %s\n", v);
		} else
			bad(file, line, "unknown queue key", k);
	}
	if (!ai)
		sb_addf(q, "JOB_ACCEPT_INTERVAL = 10\n");
	if (rest)
		sb_addf(q, "RES_REQ = %s\n", rest);
	sb_addf(q, "End Queue\n\n");
}

static void
add_user(const char *file, int line, char **f, int nf)
{
	const char *max = "-", *jlp = "-";

	for (int i = 2; i < nf; i++) {
		char *k = f[i], *v = strchr(k, '=');

		if (v == NULL)
			bad(file, line, "expected key=value", k);
		*v++ = '\0';
		if (strcmp(k, "max_jobs") == 0)
			max = atoi(v) < 0 ? "-" : v;
		else if (strcmp(k, "jl_p") == 0)
			jlp = strtof(v, NULL) < 0 ? "-" : v;
		else
			bad(file, line, "unknown user key", k);
	}
	sb_addf(&f_users, "%s %s %s\n", f[1], max, jlp);
}

static void
add_group(const char *file, int line, char **f, int nf)
{
	const char *members = "", *shares = NULL;

	for (int i = 2; i < nf; i++) {
		char *k = f[i], *v = strchr(k, '=');

		if (v == NULL)
			bad(file, line, "expected key=value", k);
		*v++ = '\0';
		if (strcmp(k, "members") == 0) {
			commas_to_blanks(v);
			members = v;
		} else if (strcmp(k, "user_shares") == 0)
			shares = v;
		else
			bad(file, line, "unknown group key", k);
	}
	sb_addf(&f_groups, "%s (%s) (%s)\n", f[1], members,
	    shares ? shares : "");
}

static void
add_params(const char *file, int line, char **f, int nf)
{
	for (int i = 1; i < nf; i++) {
		char *k = f[i], *v = strchr(k, '=');

		if (v == NULL)
			bad(file, line, "expected key=value", k);
		*v++ = '\0';
		if (strcmp(k, "preempt_for") != 0)
			bad(file, line, "unknown params key", k);
		if (no_preempt_conf)
			continue;
		commas_to_blanks(v);
		sb_addf(&f_params, "PREEMPT_FOR = %s\n", v);
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

/* A buffer's text, "" when nothing was added. */
static const char *
text_of(const struct strbuf *sb)
{
	return sb->len > 0 ? sb->buf : "";
}

static void
write_file(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) == EOF || fclose(f) == EOF)
		bad(path, 0, strerror(errno), NULL);
	free(path);
}

static void
mkdirs(const char *path)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			(void)mkdir(p, 0755);
			*s = '/';
		}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		bad(p, 0, strerror(errno), NULL);
	free(p);
}

/* CLUSTER as mbatchd's configuration files, in confdir. */
static void
write_conf(void)
{
	struct strbuf t = STRBUF_INIT;
	const char *tmp = getenv("TMPDIR");
	char *cd, *lsb;

	confdir = xasprintf("%s/w9sim.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(confdir) == NULL)
		bad(confdir, 0, strerror(errno), NULL);
	cd = xasprintf("%s/conf", confdir);
	lsb = xasprintf("%s/lsbatch/w9/configdir", cd);
	mkdirs(lsb);
	sb_addf(&t, "LSF_CONFDIR=%s\nLSB_SHAREDIR=%s/work\n"
	    "LSF_MASTER_LIST=\"%s\"\nLSF_UNIT_FOR_LIMITS=MB\n", cd, confdir,
	    hosts[0].lh.name);
	write_file(confdir, "lsf.conf", t.buf);
	sb_reset(&t);
	sb_addf(&t, "Begin Cluster\nClusterName\nw9\nEnd Cluster\n\n"
	    "Begin Resource\nRESOURCENAME TYPE INTERVAL INCREASING "
	    "DESCRIPTION\n");
	for (size_t i = 0; i < resources.n; i++)
		sb_addf(&t, "%s Boolean () () (%s)\n", resources.v[i],
		    resources.v[i]);
	sb_addf(&t, "End Resource\n");
	write_file(cd, "lsf.shared", t.buf);
	sb_reset(&t);
	sb_addf(&t, "Begin ClusterAdmins\nAdministrators = root\n"
	    "End ClusterAdmins\n\nBegin Host\nHOSTNAME model type server "
	    "RESOURCES\n%sEnd Host\n", text_of(&f_cluster));
	write_file(cd, "lsf.cluster.w9", t.buf);
	sb_reset(&t);
	sb_addf(&t, "Begin Host\nHOST_NAME MXJ JL/U");
	for (size_t i = 0; i < bcols.n; i++)
		sb_addf(&t, " %s", bcols.v[i]);
	sb_addf(&t, "\n");
	for (size_t r = 0; r < brows.n; r++) {
		char *row = brows.v[r], *cell, *save = NULL;
		size_t c = 0;

		cell = strtok_r(row, "|", &save);
		sb_addf(&t, "%s", cell);
		while ((cell = strtok_r(NULL, "|", &save)) != NULL) {
			sb_addf(&t, " %s", cell);
			c++;
		}
		for (; c < bcols.n; c++)
			sb_addf(&t, " ()");
		sb_addf(&t, "\n");
	}
	sb_addf(&t, "End Host\n");
	write_file(lsb, "lsb.hosts", t.buf);
	sb_reset(&t);
	write_file(lsb, "lsb.queues", text_of(&f_queues));
	sb_addf(&t, "Begin Parameters\nMBD_SLEEP_TIME = 1\n"
	    "JOB_ACCEPT_INTERVAL = 10\n%sEnd Parameters\n", text_of(&f_params));
	write_file(lsb, "lsb.params", t.buf);
	sb_reset(&t);
	if (f_groups.len > 0)
		sb_addf(&t, "Begin UserGroup\nGROUP_NAME GROUP_MEMBER "
		    "USER_SHARES\n%sEnd UserGroup\n\n", text_of(&f_groups));
	if (f_users.len > 0)
		sb_addf(&t, "Begin User\nUSER_NAME MAX_JOBS JL/P\n%s"
		    "End User\n", text_of(&f_users));
	write_file(lsb, "lsb.users", text_of(&t));
	sb_release(&t);
	free(cd);
	free(lsb);
}

static void
remove_conf(void)
{
	char *cmd = xasprintf("rm -rf '%s'", confdir);

	if (system(cmd) != 0)
		fprintf(stderr, "sim: could not remove %s\n", confdir);
	free(cmd);
}

/*
 * mbatchd's state from the files, as it starts: the configuration
 * loaded (its warnings printed), every host reported up (or down) by
 * its LIM and registered with an sbatchd (one that takes what is sent
 * and says nothing: mbd-stubs.c's sbd_send), closed ones closed.
 */
static void
state_start(const char *file)
{
	static struct conn registered;
	struct conf_diag d;
	int rc;

	write_conf();
	mbd = xcalloc(1, sizeof(*mbd));
	mbd->outbox_tail = &mbd->outbox;
	conf_diag_init(&d);
	rc = config_load(&mbd->conf, confdir, CONF_ALL, &d);
	conf_diag_print(&d, stderr);
	conf_diag_release(&d);
	if (rc < 0)
		bad(file, 0, "the configuration written from it has errors "
		    "(above)", confdir);
	mbd->cluster = mbd->conf.cluster.name;
	mbd->host = mbd->conf.cluster.hosts[0].name;
	state_init();
	if (mbd->nhosts != nhosts)
		bad(file, 0, "a host is missing from the state", NULL);
	for (int i = 0; i < nhosts; i++) {
		struct mhost *h = mbd->hosts[i];

		h->sbd = &registered;
		h->closed_adm = hosts[i].closed;
		host_load_apply(h, &hosts[i].lh);
	}
}

/* Shared requirements (-S): by queue and string. */
struct rrent {
	char		*text;
	const struct mqueue *q;
	struct resreq	*rr;
	struct rrent	*next;
};
#define RRBUCKETS	65536
static struct rrent	*rrbucket[RRBUCKETS];
static size_t		 nrr;

static unsigned
hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* -S: the job takes the requirement parsed for the first job of its
 * queue with the same string (the sim never frees a job). */
static void
share_resreq(struct job *j, const char *text)
{
	unsigned b = (hash(text) + (unsigned)j->queue->index) % RRBUCKETS;
	struct rrent *e;

	for (e = rrbucket[b]; e; e = e->next)
		if (e->q == j->queue && strcmp(e->text, text) == 0) {
			resreq_release(j->rr);
			free(j->rr);
			j->rr = e->rr;
			j->pj.rr = e->rr;
			return;
		}
	e = xmalloc(sizeof(*e));
	e->text = xstrdup(text);
	e->q = j->queue;
	e->rr = j->rr;
	e->next = rrbucket[b];
	rrbucket[b] = e;
}

/* Distinct users, for the commentary (interned: the pointer is the
 * name). */
static void
count_user(const char *u)
{
	static const char **set;
	static size_t cap;
	size_t i;

	if (2 * ((size_t)nusers + 1) > cap) {
		const char **old = set;
		size_t oldcap = cap;

		cap = cap ? cap * 2 : 4096;
		set = xcalloc(cap, sizeof(*set));
		nusers = 0;
		for (size_t k = 0; k < oldcap; k++)
			if (old[k])
				count_user(old[k]);
		free(old);
	}
	for (i = ((uintptr_t)u >> 4) & (cap - 1); set[i]; i = (i + 1) &
	    (cap - 1))
		if (set[i] == u)
			return;
	set[i] = u;
	nusers++;
}

struct jline {
	char		*queue;
	char		*user;
	int		 slots;
	int64_t		 submit;
	int		 runtime;
	bool		 exclusive;
	int64_t		 begin;		/* bN of FLAGS, or -1 */
	char		*rr;
};

/* Job n of the file, submitted: its JOB_NEW applied by the function
 * that bsub's record and replay's go through (not written out and
 * read back: mbatchd reads each once at a restart, workload 8). */
static void
submit(const char *file, size_t n, const struct jline *l, int64_t t0)
{
	struct ev_job_new ev;
	struct job *j;

	memset(&ev, 0, sizeof(ev));
	ev.jobid = (int64_t)n + 1;
	ev.uid = 1000;
	ev.user = l->user;
	ev.submit_time = l->submit;
	ev.queue = l->queue;
	ev.req.options = l->exclusive ? SUB_EXCLUSIVE : 0;
	ev.req.num_procs = ev.req.max_procs = l->slots;
	ev.req.command = "sim";
	ev.req.user_priority = -1;
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		ev.req.rlimits[i] = DEFAULT_RLIMIT;
	if (l->begin >= 0)
		ev.req.begin_time = t0 + l->begin;
	if (l->rr) {
		ev.res_req = l->rr;
		strv_push(&ev.req.res_reqs, l->rr);
	}
	if (apply_job_new(&ev, ev.submit_time, 0) < 0 ||
	    (j = job_find(ev.jobid, 0)) == NULL)
		bad(file, (int)n + 1, "JOB_NEW not applied", NULL);
	strv_release(&ev.req.res_reqs);
	if (l->rr && j->rr == NULL)
		bad(file, (int)n + 1, "bad -R", l->rr);
	if (j->rr) {
		nrr++;
		if (share_rr)
			share_resreq(j, l->rr);
	}
	count_user(j->user);
	jobs[n].j = j;
	jobs[n].runtime = l->runtime;
}

static void
read_jobs(const char *file)
{
	FILE *fp = fopen(file, "r");
	char buf[8192], *f[6];
	size_t cap = 0;
	struct jline *lines = NULL;
	int64_t t0 = 0;
	int line = 0;

	if (fp == NULL)
		bad(file, 0, strerror(errno), NULL);
	while (fgets(buf, sizeof(buf), fp)) {
		struct jline *l;
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
		if (queue_find(f[0]) == NULL)
			bad(file, line, "unknown queue", f[0]);
		if (njobs == cap) {
			cap = cap ? cap * 2 : 65536;
			lines = xrealloc(lines, sizeof(*lines) * cap);
		}
		l = &lines[njobs++];
		memset(l, 0, sizeof(*l));
		l->queue = (char *)intern(f[0]);
		l->user = (char *)intern(f[1]);
		if ((l->slots = atoi(f[2])) < 1)
			bad(file, line, "bad slot count", f[2]);
		l->submit = strtoll(f[3], NULL, 10);
		l->runtime = atoi(f[4]);
		l->exclusive = strchr(f[5], 'x') != NULL;
		l->begin = -1;
		if ((nl = strchr(f[5], 'b')) != NULL) {
			char *end;

			l->begin = strtoll(nl + 1, &end, 10);
			if (end == nl + 1 || *end != '\0' || l->begin < 0)
				bad(file, line, "bad begin time", f[5]);
			nbegins++;
		}
		if (rest && *rest)
			l->rr = xstrdup(rest);
		if (l->submit > t0)
			t0 = l->submit;
	}
	fclose(fp);
	/* The clock's start is known: submit them now, in file order. */
	jobs = xcalloc(njobs + 1, sizeof(*jobs));
	if (nbegins > 0)
		begins = xcalloc(nbegins, sizeof(*begins));
	nbegins = 0;
	for (size_t i = 0; i < njobs; i++) {
		submit(file, i, &lines[i], t0);
		if (lines[i].begin >= 0)
			begins[nbegins++] = t0 + lines[i].begin;
		free(lines[i].rr);
	}
	free(lines);
	mbd->pc.now = t0;
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

/* Running jobs' ends, with entries left by a suspension skipped. */
static bool
run_stale(const struct run *r)
{
	return r->gen != r->j->gen || !(r->j->j->status & JOB_STAT_RUN);
}

static void
heap_clean(void)
{
	while (nheap > 0 && run_stale(&heap[0]))
		(void)heap_pop();
}

static void
run_until(struct sjob *s, int64_t end)
{
	struct run r;

	s->end = end;
	r.end = end;
	r.j = s;
	r.gen = ++s->gen;
	heap_push(r);
}

/* Its host reports it done, as mbatchd records it: one CPU busy per
 * slot for its run. */
static void
job_end(struct sjob *s)
{
	struct job *j = s->j;
	struct ev_job_status ev;

	job_status_fill(j, JOB_STAT_DONE, &ev);
	ev.end_time = NOW;
	ev.cpu_time = (double)(NOW - j->start_time) * j->pj.num_procs;
	job_status_apply(j, &ev, NOW);
	nrunning--;
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
has_cap(const struct job *j, const struct pol_cap *c)
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
	struct job *j = JOB_OF_PJ(d->job);
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
			const struct pol_host *h = &mbd->hosts[d->slots[k]]->ph;

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
		const struct job *v = JOB_OF_PJ(d->victims[i]);

		for (int s = 0; s < v->pj.nexec; s++)
			for (int x = 0; x < nh; x++)
				if (uh[x] == v->pj.exec[s])
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
		const struct job *v = JOB_OF_PJ(d->victims[i]);
		bool needed = false;

		for (int x = 0; x < nh && !needed; x++) {
			int on = 0;

			for (int s = 0; s < v->pj.nexec; s++)
				on += v->pj.exec[s] == uh[x];
			if (on > 0 && have[x] - on < need[x])
				needed = true;
		}
		for (int c = 0; c < nover && !needed; c++)
			if (has_cap(v, over[c]) && capfreed[c] -
			    (over[c]->per_job ? 1 : v->pj.num_procs) <
			    overn[c])
				needed = true;
		if (!needed && nsuperfluous++ < 5) {
			fprintf(stderr, "sim: superfluous victim: job %zu "
			    "(%d slots, first on host %d) of job %zu (%d slots) "
			    "at t+%llds; the chosen hosts, free/with victims/"
			    "needed:", jindex(&v->pj), v->pj.num_procs,
			    v->pj.nexec ? v->pj.exec[0] : -1, jindex(&j->pj),
			    n, (long long)(NOW - sim0));
			for (int x = 0; x < nh; x++) {
				const struct pol_host *h =
				    &mbd->hosts[uh[x]]->ph;

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
	struct job *j = JOB_OF_PJ(d->job);

	selftest = false;
	for (size_t i = 0; i < njobs; i++) {
		struct job *x = jobs[i].j;
		bool on = x == j;

		if (!(x->status & JOB_STAT_RUN))
			continue;
		for (int k = 0; k < d->nvictims; k++)
			on |= d->victims[k] == &x->pj;
		for (int s = 0; s < x->pj.nexec && !on; s++)
			for (int k = 0; k < j->pj.num_procs; k++)
				on |= x->pj.exec[s] == d->slots[k];
		if (on)
			continue;
		d->victims = xrealloc(d->victims, sizeof(*d->victims) *
		    (size_t)(d->nvictims + 1));
		d->victims[d->nvictims++] = &x->pj;
		pair_add((uint64_t)i << 32 | (uint64_t)jindex(&j->pj));
		fprintf(stderr, "sim: -X: job %zu added as a victim of job "
		    "%zu\n", i, jindex(&j->pj));
		return;
	}
}

/* A victim about to be suspended for its preemptor: its host stops its
 * clock, and the checks note the pair. */
static void
suspending(struct job *v, struct job *by)
{
	uint64_t vi = jindex(&v->pj), bi = jindex(&by->pj);
	struct sjob *s = sjob_of(&v->pj);

	if (!(v->status & JOB_STAT_RUN))
		bad("sim", 0, "a victim that does not run", NULL);
	if (pair_has(vi << 32 | bi))
		nflip++;
	pair_add(bi << 32 | vi);
	s->left = s->end - NOW;
	s->gen++;		/* its end is off */
	nrunning--;
	nsusp++;
	npreempt++;
}

static void
dump_decision(const struct pol_decision *d)
{
	struct job *j = JOB_OF_PJ(d->job);

	dsum_add(NOW);
	if (d->resume) {
		dsum_add(-1 - (int64_t)jindex(d->job));
		if (dumpfp)
			fprintf(dumpfp, "%lld r %zu\n", (long long)NOW,
			    jindex(d->job));
		return;
	}
	dsum_add((int64_t)jindex(d->job));
	for (int k = 0; k < j->pj.num_procs; k++)
		dsum_add(d->slots[k]);
	for (int k = 0; k < d->nvictims; k++)
		dsum_add(-1 - (int64_t)jindex(d->victims[k]));
	if (dumpfp == NULL)
		return;
	fprintf(dumpfp, "%lld %zu", (long long)NOW, jindex(d->job));
	for (int k = 0; k < j->pj.num_procs; k++)
		fprintf(dumpfp, " %d", d->slots[k]);
	if (d->nvictims > 0)
		fputs(" v", dumpfp);
	for (int k = 0; k < d->nvictims; k++)
		fprintf(dumpfp, " %zu", jindex(d->victims[k]));
	fputc('\n', dumpfp);
}

/* Carry the decisions out as mbatchd's sched_run does (sched_apply);
 * the hosts start what is started.  Returns how many jobs started. */
static int
apply(struct pol_decision *d, int n)
{
	int started = 0;

	for (int i = 0; i < n; i++) {
		struct job *j = JOB_OF_PJ(d[i].job), *got;
		struct sjob *s = sjob_of(d[i].job);
		bool over = false;

		dump_decision(&d[i]);
		if (d[i].resume) {
			if (!(j->status & JOB_STAT_SSUSP))
				bad("sim", 0, "a resumed job that is not "
				    "suspended", NULL);
			(void)sched_apply(&d[i], NOW);
			run_until(s, NOW + s->left);
			nrunning++;
			nsusp--;
			nresume++;
			continue;
		}
		if (d[i].nvictims > 0) {
			if (selftest)
				selftest_victim(&d[i]);
			check_victims(&d[i]);
			npreempt_dec++;
			for (int k = 0; k < d[i].nvictims; k++)
				suspending(JOB_OF_PJ(d[i].victims[k]), j);
		}
		if ((got = sched_apply(&d[i], NOW)) != j)
			bad("sim", 0, "a decision that started another job",
			    NULL);
		for (int k = 0; k < j->nexec; k++) {
			const struct pol_host *h = &j->exec[k]->ph;

			if (h->max_slots >= 0 && h->used_slots > h->max_slots)
				over = true;
		}
		noversub += over;
		run_until(s, NOW + (s->runtime > 0 ? s->runtime : 1));
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
	for (int i = 0; i < mbd->pc.nqueues && shown < 5; i++) {
		for (struct pol_job *j = mbd->pc.queues[i]->head; j &&
		    shown < 5; j = j->next) {
			const uint32_t *counts;
			int r = policy_job_reason(&mbd->pc, j, &counts);

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
	int *nv = xcalloc((size_t)mbd->nqueues + 1, sizeof(int));
	int noff = 0, nvic = 0;

	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < mbd->nqueues; i++) {
			nv[i] = mbd->queues[i]->pq.nvictims;
			mbd->queues[i]->pq.nvictims = 0;
		}
		policy_decisions_free(d, n);
		t0 = now_s();
		noff = n = policy_schedule(&mbd->pc, d, max);
		t = now_s() - t0;
		if (t < off)
			off = t;
		for (int i = 0; i < mbd->nqueues; i++)
			mbd->queues[i]->pq.nvictims = nv[i];
	}
	for (int r = 0; r < reps; r++) {
		policy_decisions_free(d, n);
		t0 = now_s();
		n = policy_schedule(&mbd->pc, d, max);
		t = now_s() - t0;
		if (t < on)
			on = t;
	}
	for (int i = 0; i < n; i++)
		nvic += d[i].nvictims;
	fprintf(stderr, "sim: the first pass that preempts (t+%llds, %zu "
	    "pending, %zu running): %d decisions, %d victims, %.4f s; "
	    "with preemption off %d decisions, %.4f s (least of %d)\n",
	    (long long)(NOW - sim0), pending, nrunning,
	    n, nvic, on, noff, off, reps);
	printf("RESULT|%sbusy_pass_s|%.4f|s\n", key, on);
	printf("RESULT|%sbusy_off_pass_s|%.4f|s\n", key, off);
	printf("RESULT|%sbusy_ratio|%.2f|x\n", key, on / off);
	fflush(stdout);
	free(nv);
	return n;
}

/* The pass just made, made again into d2 with preemption off (the
 * queues' victims hidden): its time.  The state it leaves is the same. */
static double
pass_off(struct pol_decision *d2, int max)
{
	int *nv = xcalloc((size_t)mbd->nqueues + 1, sizeof(int)), n;
	double t0, t;

	for (int i = 0; i < mbd->nqueues; i++) {
		nv[i] = mbd->queues[i]->pq.nvictims;
		mbd->queues[i]->pq.nvictims = 0;
	}
	t0 = now_s();
	n = policy_schedule(&mbd->pc, d2, max);
	t = now_s() - t0;
	policy_decisions_free(d2, n);
	for (int i = 0; i < mbd->nqueues; i++)
		mbd->queues[i]->pq.nvictims = nv[i];
	free(nv);
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
	double wall_limit = 0, t0, t1, setup, tconf, *times;
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

	/* mbatchd's warnings, not its news of every host and preemption. */
	(void)log_init("sim", NULL, LOG_LVL_WARN);
	t0 = now_s();
	read_cluster(argv[0]);
	if (nhosts == 0 || f_queues.len == 0)
		bad(argv[0], 0, "no hosts or no queues", NULL);
	/* The log is kept nowhere: its records are built and dropped. */
	mbd_stub_keep_log = false;
	state_start(argv[0]);
	remove_conf();
	tconf = now_s() - t0;
	read_jobs(argv[1]);
	qsort(begins, nbegins, sizeof(*begins), cmp_int64);
	setup = now_s() - t0;

	d = xcalloc((size_t)max, sizeof(*d));
	pending = njobs;
	sim0 = NOW;

	fprintf(stderr, "sim: %d hosts, %d queues, %d users, %zu jobs, "
	    "%zu parsed requirements%s; setup %.2f s (the configuration "
	    "%.2f s)\n", nhosts, mbd->nqueues, nusers, njobs, nrr,
	    share_rr ? " (shared by string)" : "", setup, tconf);
	for (int i = 0; i < mbd->nqueues; i++)
		if (mbd->queues[i]->pq.fs)
			fprintf(stderr, "sim: queue %s: fairshare, %d accounts\n",
			    mbd->queues[i]->name,
			    mbd->queues[i]->pq.fs->nleaves);
	for (int i = 0; i < mbd->nqueues; i++)
		for (int v = 0; v < mbd->queues[i]->pq.nvictims; v++)
			fprintf(stderr, "sim: queue %s may preempt queue %s\n",
			    mbd->queues[i]->name,
			    mbd->queues[i]->pq.victims[v]->name);

	/* One pass, timed reps times on the same state (a pass changes
	 * only its scratch and the reasons: the decisions are applied
	 * after). */
	times = xcalloc((size_t)reps, sizeof(*times));
	n = 0;
	reserve_pass(NOW);
	for (int r = 0; r < reps; r++) {
		policy_decisions_free(d, n);
		t0 = now_s();
		n = policy_schedule(&mbd->pc, d, max);
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
			int64_t next = NOW + tick;

			heap_clean();
			while (nextbegin < nbegins &&
			    begins[nextbegin] <= NOW)
				nextbegin++;
			if (nheap > 0 && heap[0].end > next)
				next = heap[0].end;
			if (nextbegin < nbegins && (nheap == 0 ||
			    begins[nextbegin] < next))
				next = begins[nextbegin] > NOW + tick ?
				    begins[nextbegin] : NOW + tick;
			if (nheap == 0 && nextbegin == nbegins) {
				never_start(pending);
				break;
			}
			NOW = next;
			for (;;) {
				heap_clean();
				if (nheap == 0 || heap[0].end > NOW)
					break;
				job_end(heap_pop().j);
				ended++;
			}
		}
		/* As sched_run: reservations summed, then the pass. */
		reserve_pass(NOW);
		t0 = now_s();
		n = policy_schedule(&mbd->pc, d, max);
		pt = now_s() - t0;
		if (mbd->preempt_on && has_victims(d, n)) {
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
			    passes, (long long)(NOW - sim0), pending,
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
		NOW = r.end;
		job_end(r.j);
		ended++;
	}
	t1 = now_s();
	fprintf(stderr, "sim: drain: %zu passes, %zu jobs started, %zu "
	    "ended, %zu not started; simulated %lld s; wall %.2f s (in passes "
	    "%.2f s, mean %.4f s, max %.4f s)\n", passes, started, ended,
	    pending, (long long)(NOW - sim0), t1 - dstart, pass_sum,
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
	    (long long)(NOW - sim0));
	printf("RESULT|%sdrain_pass_mean_s|%.4f|s\n", key,
	    pass_sum / (double)passes);
	printf("RESULT|%sdrain_pass_max_s|%.4f|s\n", key, pass_max);
	if (mbd->preempt_on) {
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
