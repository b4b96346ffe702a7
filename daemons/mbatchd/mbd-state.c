/*
 * mbatchd's state in memory: the job table, queues and hosts built from
 * the configuration, slot accounting, interned strings, users and the
 * shared environments.
 */
#include <sys/mman.h>

#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "depend.h"
#include "log.h"
#include "mbd.h"

/* Interned strings: many jobs share a user, host, project or cwd. */
struct istr {
	struct istr	*next;
	char		 s[];
};
static struct istr **itab;
static size_t itab_size = 4096;

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

const char *
intern(const char *s)
{
	size_t b;
	struct istr *e;

	if (s == NULL)
		return NULL;
	if (itab == NULL)
		itab = xcalloc(itab_size, sizeof(*itab));
	b = hash_str(s) % itab_size;
	for (e = itab[b]; e; e = e->next)
		if (strcmp(e->s, s) == 0)
			return e->s;
	e = xmalloc(sizeof(*e) + strlen(s) + 1);
	strcpy(e->s, s);
	e->next = itab[b];
	itab[b] = e;
	return e->s;
}

/* Users. */

struct ucache {
	int		 uid;
	char		*name;
};
static struct ucache ucache[64];

const char *
user_name(int uid)
{
	struct ucache *u = &ucache[(unsigned)uid % ARRAY_SIZE(ucache)];
	struct passwd *pw;

	if (u->name && u->uid == uid)
		return u->name;
	pw = getpwuid((uid_t)uid);
	free(u->name);
	u->uid = uid;
	u->name = pw ? xstrdup(pw->pw_name) : xasprintf("%d", uid);
	return u->name;
}

bool
user_is_admin(const char *user, int uid)
{
	return uid == 0 || (user && strv_contains(&mbd->admins, user));
}

/*
 * Queue administrators control every job of their queue as its owner
 * would, and more (what cluster administrators may do to a job); not
 * the cluster's hosts or other queues' jobs.
 */
bool
user_admins_job(const struct job *j, const char *user, int uid)
{
	if (user_is_admin(user, uid))
		return true;
	return user && j->queue && strv_contains(&j->queue->admins, user);
}

static void
expand_users(const struct strv *in, struct strv *out, int depth)
{
	for (size_t i = 0; i < in->n; i++) {
		const char *u = in->v[i];
		bool group = false;

		if (strcmp(u, "all") == 0) {
			strv_release(out);
			strv_push(out, "all");
			return;
		}
		for (int g = 0; depth < 8 && g < mbd->conf.nugroups; g++) {
			const struct user_group *ug = &mbd->conf.ugroups[g];

			if (strcmp(ug->name, u) == 0) {
				expand_users(&ug->members, out, depth + 1);
				group = true;
			}
		}
		if (!group && !strv_contains(out, u))
			strv_push(out, u);
	}
}

bool
queue_user_ok(const struct mqueue *q, const char *user, int uid)
{
	if (q->users.n == 0 || strv_contains(&q->users, "all"))
		return true;
	return user_is_admin(user, uid) || strv_contains(&q->users, user);
}

/* Environments. */

static uint64_t
env_hash(const struct strv *env)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < env->n; i++) {
		for (const char *s = env->v[i]; ; s++) {
			h ^= (unsigned char)*s;
			h *= 1099511628211ULL;
			if (*s == '\0')
				break;
		}
	}
	return h;
}

static bool
strv_equal(const struct strv *a, const struct strv *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return false;
	return true;
}

/*
 * Environments are shared only among one user's jobs, and only after
 * their contents were compared: a hash names them, it does not vouch for
 * them.  A collision (within one user) just gets a further ID.
 */
struct menv *
env_for(int uid, const struct strv *env, int64_t now)
{
	uint64_t h = env_hash(env);

	for (int n = 0; n < 1000; n++) {
		char *id = n == 0 ?
		    xasprintf("%d.%016llx", uid, (unsigned long long)h) :
		    xasprintf("%d.%016llx.%d", uid, (unsigned long long)h, n);
		struct menv *e = env_find(id);
		struct strv have = STRV_INIT;
		bool same;

		if (e == NULL) {
			struct ev_job_env ee = { .env_id = id, .env = *env };

			log_apply_job_env(&ee, now);
			e = env_find(id);
			free(id);
			return e;
		}
		free(id);
		same = env_read(e, &have) == 0 && strv_equal(&have, env);
		strv_release(&have);
		if (same)
			return e;
	}
	return NULL;
}

off_t
env_log_record(struct strbuf *rec)
{
	off_t off = evlog_append(&mbd->envlog, rec->buf, rec->len);

	mbd_kick();
	return off;
}

struct menv *
env_find(const char *id)
{
	size_t b = hash_str(id) % mbd->etab_size;

	for (struct menv *e = mbd->etab[b]; e; e = e->next)
		if (strcmp(e->id, id) == 0)
			return e;
	return NULL;
}

struct menv *
env_add(const char *id, off_t off)
{
	struct menv *e = env_find(id);
	size_t b;

	if (e) {
		e->off = off;
		return e;
	}
	e = xcalloc(1, sizeof(*e));
	e->id = xstrdup(id);
	e->off = off;
	b = hash_str(id) % mbd->etab_size;
	e->next = mbd->etab[b];
	mbd->etab[b] = e;
	return e;
}

void
env_unref(struct menv *e)
{
	if (e && e->refs > 0)
		e->refs--;
	/* Kept while in the log: a later job may name it again. */
}

/* Forget the environments no job names (lsb.envs no longer has them,
 * envs_compact); how many. */
size_t
env_prune(void)
{
	size_t n = 0;

	for (size_t b = 0; b < mbd->etab_size; b++) {
		struct menv **pp = &mbd->etab[b], *e;

		while ((e = *pp) != NULL) {
			if (e->refs > 0) {
				pp = &e->next;
				continue;
			}
			*pp = e->next;
			free(e->id);
			free(e);
			n++;
		}
	}
	return n;
}

/* Jobs. */

/*
 * Job IDs come in sequence: consecutive jobs take consecutive buckets, so
 * filling and growing the table (a million jobs at start-up) walk memory
 * in order instead of missing the cache at every job.  Array elements
 * spread from their job's bucket.
 */
static size_t
jbucket(int64_t jobid, int32_t idx)
{
	uint64_t h = (uint64_t)jobid + (uint64_t)(uint32_t)idx *
	    0x9e3779b97f4a7c15ULL;

	return (size_t)(h % mbd->jtab_size);
}

static void
jtab_grow(void)
{
	size_t old = mbd->jtab_size;
	struct job **ot = mbd->jtab;

	mbd->jtab_size = old * 2;
	mbd->jtab = xcalloc(mbd->jtab_size, sizeof(*mbd->jtab));
	for (size_t i = 0; i < old; i++) {
		struct job *j = ot[i], *n;

		for (; j; j = n) {
			size_t b = jbucket(j->jobid, j->idx);

			n = j->hnext;
			j->hnext = mbd->jtab[b];
			mbd->jtab[b] = j;
		}
	}
	free(ot);
}

struct job *
job_find(int64_t jobid, int32_t idx)
{
	for (struct job *j = mbd->jtab[jbucket(jobid, idx)]; j; j = j->hnext)
		if (j->jobid == jobid && j->idx == idx)
			return j;
	return NULL;
}

/*
 * Job structures come from large blocks, not one malloc each: no header
 * per job (16 bytes of a million), and a million jobs at start-up cost a
 * few dozen allocations.  Freed ones are kept for the next jobs.
 * (Sanitizer builds use malloc, to keep use-after-free checks.)
 */
#define JOB_BLOCK	((size_t)32 << 20)

#if defined(__SANITIZE_ADDRESS__)
#define JOB_MALLOC	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JOB_MALLOC	1
#endif
#endif

#ifdef JOB_MALLOC
static struct job *
job_get(void)
{
	return xcalloc(1, sizeof(struct job));
}

static void
job_put(struct job *j)
{
	free(j);
}
#else
static struct job *job_freelist;	/* linked through hnext */
static char *jblk_next, *jblk_end;

/*
 * A block: mapped fresh, so zero and paged in as used, on huge pages
 * where the system gives them on request (transparent hugepages
 * "madvise"): a pass walks every pending job, and a million of them on
 * 4 KB pages cost it a TLB miss each.
 */
static char *
job_block(void)
{
	size_t huge = (size_t)2 << 20;
	char *p = mmap(NULL, JOB_BLOCK + huge, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;

	if (p == MAP_FAILED)
		fatal("mmap of %zu bytes of jobs", (size_t)JOB_BLOCK);
	a = ((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1);
	(void)madvise((void *)a, JOB_BLOCK, MADV_HUGEPAGE);
	return (char *)a;
}

static struct job *
job_get(void)
{
	struct job *j;

	if ((j = job_freelist) != NULL) {
		job_freelist = j->hnext;
		memset(j, 0, sizeof(*j));
		return j;
	}
	if ((size_t)(jblk_end - jblk_next) < sizeof(*j)) {
		jblk_next = job_block();
		jblk_end = jblk_next + JOB_BLOCK;
	}
	j = (struct job *)(void *)jblk_next;
	jblk_next += sizeof(*j);
	return j;
}

static void
job_put(struct job *j)
{
	j->hnext = job_freelist;
	job_freelist = j;
}
#endif

static struct job *
job_alloc(int64_t jobid, int32_t idx)
{
	struct job *j = job_get();
	size_t b;

	j->jobid = jobid;
	j->idx = idx;
	j->exit_status = -1;
	j->mem_kb = j->max_mem_kb = j->avg_mem_kb = -1;
	j->pj.num_procs = 1;
	if (mbd->njobs + 1 > mbd->jtab_size)
		jtab_grow();
	b = jbucket(jobid, idx);
	j->hnext = mbd->jtab[b];
	mbd->jtab[b] = j;
	mbd->njobs++;
	return j;
}

struct job *
job_new(int64_t jobid, int32_t idx)
{
	struct job *j = job_alloc(jobid, idx);

	/* Keep the list in job ID order; new IDs come last. */
	j->prev = mbd->jobs_tail;
	if (mbd->jobs_tail)
		mbd->jobs_tail->next = j;
	else
		mbd->jobs_head = j;
	mbd->jobs_tail = j;
	return j;
}

struct job *
job_new_after(int64_t jobid, int32_t idx, struct job *after)
{
	struct job *j = job_alloc(jobid, idx);

	j->prev = after;
	j->next = after->next;
	if (after->next)
		after->next->prev = j;
	else
		mbd->jobs_tail = j;
	after->next = j;
	return j;
}

void
extra_free(struct job_extra *x)
{
	if (x == NULL)
		return;
	strv_release(&x->asked_hosts);
	free(x->asked_idx);
	free(x->mail_user);
	free(x->user_group);
	free(x->depend_cond);
	free(x->pre_exec);
	free(x->post_exec);
	free(x->login_shell);
	free(x->in_file);
	free(x->cwd_req);
	free(x->outdir);
	free(x->warning_action);
	free(x->chkpnt_dir);
	free(x->chkpnt_method);
	strv_release(&x->res_reqs);
	dep_free(x->dep);
	free(x);
}

static bool
int_in(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* -m: the hosts it means now, with their "+N" levels after them. */
void
extra_expand_asked(struct job_extra *x)
{
	struct strv names = STRV_INIT;
	int *prefs = NULL;

	free(x->asked_idx);
	x->asked_idx = NULL;
	x->nasked = 0;
	if (x->asked_hosts.n == 0)
		return;
	/* Plain host names, the usual case: no expansion (which indexes
	 * every host of the cluster), as replay may do this for each of
	 * many jobs. */
	x->asked_idx = xcalloc(x->asked_hosts.n * 2 + 1, sizeof(int));
	for (size_t i = 0; i < x->asked_hosts.n; i++) {
		const char *w = x->asked_hosts.v[i];
		struct mhost *h;

		if (strpbrk(w, "+~") != NULL || (h = host_find(w)) == NULL ||
		    config_host_group(&mbd->conf, w) != NULL) {
			free(x->asked_idx);
			x->asked_idx = NULL;
			x->nasked = 0;
			break;
		}
		if (x->nasked == 0 || !int_in(x->asked_idx, x->nasked,
		    h->index))
			x->asked_idx[x->nasked++] = h->index;
	}
	if (x->asked_idx != NULL)
		return;		/* levels all 0: calloc'd */
	config_expand_hosts_pref(&mbd->conf, &x->asked_hosts, &names, &prefs,
	    NULL);
	x->asked_idx = xcalloc(names.n * 2 + 1, sizeof(int));
	for (size_t i = 0; i < names.n; i++) {
		struct mhost *h = host_find(names.v[i]);

		if (h)
			x->asked_idx[x->nasked++] = h->index;
	}
	/* The levels after the indices (same order, gone hosts skipped). */
	for (size_t i = 0, k = 0; i < names.n; i++)
		if (host_find(names.v[i]) != NULL)
			x->asked_idx[x->nasked + (int)k++] = prefs[i];
	free(prefs);
	strv_release(&names);
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct job_extra *
extra_dup(const struct job_extra *o)
{
	struct job_extra *x = xcalloc(1, sizeof(*x));

	if (o == NULL) {
		for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
			x->rlimits[i] = DEFAULT_RLIMIT;
		x->user_priority = -1;
		return x;
	}
	*x = *o;
	strv_init(&x->asked_hosts);
	strv_copy(&x->asked_hosts, &o->asked_hosts);
	x->asked_idx = NULL;
	if (o->asked_idx) {
		/* The indices and their preference levels. */
		x->asked_idx = xcalloc((size_t)o->nasked * 2 + 1, sizeof(int));
		memcpy(x->asked_idx, o->asked_idx, sizeof(int) *
		    (size_t)o->nasked * 2);
	}
	x->mail_user = dup_or_null(o->mail_user);
	x->user_group = dup_or_null(o->user_group);
	x->depend_cond = dup_or_null(o->depend_cond);
	x->pre_exec = dup_or_null(o->pre_exec);
	x->post_exec = dup_or_null(o->post_exec);
	x->login_shell = dup_or_null(o->login_shell);
	x->in_file = dup_or_null(o->in_file);
	x->cwd_req = dup_or_null(o->cwd_req);
	x->outdir = dup_or_null(o->outdir);
	x->warning_action = dup_or_null(o->warning_action);
	x->warning_time = o->warning_time;
	x->chkpnt_dir = dup_or_null(o->chkpnt_dir);
	x->chkpnt_method = dup_or_null(o->chkpnt_method);
	strv_init(&x->res_reqs);
	strv_copy(&x->res_reqs, &o->res_reqs);
	x->dep = NULL;		/* parsed again when needed */
	return x;
}

void
job_free(struct job *j)
{
	struct job **pp = &mbd->jtab[jbucket(j->jobid, j->idx)];

	for (; *pp; pp = &(*pp)->hnext)
		if (*pp == j) {
			*pp = j->hnext;
			break;
		}
	if (j->prev)
		j->prev->next = j->next;
	else
		mbd->jobs_head = j->next;
	if (j->next)
		j->next->prev = j->prev;
	else
		mbd->jobs_tail = j->prev;
	policy_job_remove(&j->pj);
	reserve_drop(j);
	for (int i = 0; i < j->nwaiters; i++)
		j->waiters[i]->data = NULL;
	mbd->njobs--;
	if (j->rr) {
		resreq_release(j->rr);
		free(j->rr);
	}
	free(j->job_name);
	job_ck_free(j);
	if (JOB_IS_ELEMENT(j)) {
		/* The rest is its parent's, freed with the parent. */
		if (!j->shared_x)
			extra_free(j->x);
		if (j->own_fields) {
			free(j->out_file);
			free(j->err_file);
			free(j->res_req);
		}
	} else {
		env_unref(j->env);
		free(j->command);
		free(j->out_file);
		free(j->err_file);
		free(j->res_req);
		extra_free(j->x);
		if (j->arr)
			array_release(j->arr);
	}
	free(j->exec);
	free(j->exec_idx);
	free(j->pj.excl);
	free(j->exec_cwd);
	free(j->exec_home);
	free(j->exec_user);
	free(j->waiters);
	job_put(j);
}

/* Slot accounting follows the state: call around every change. */
static void
account(struct job *j, int sign)
{
	int s = j->status, n = j->pj.num_procs;
	struct mqueue *q = j->queue;

	if (q == NULL)
		return;
	if (JOB_IS_ELEMENT(j)) {
		array_count(j, sign);
	} else if (JOB_IS_PARENT(j)) {
		/* It stands for its virtual pending elements. */
		int64_t all = (int64_t)n * j->arr->pend.count;

		n = all > INT32_MAX / 4 ? INT32_MAX / 4 : (int)all;
	}
	if (JOB_STAT_PENDING(s)) {
		q->nslots_pend += sign * n;
		return;
	}
	if (!JOB_STAT_STARTED(s))
		return;
	if (s & JOB_STAT_USUSP)
		q->nslots_ususp += sign * n;
	else if (s & JOB_STAT_SSUSP)
		q->nslots_ssusp += sign * n;
	else
		q->nslots_run += sign * n;
	/*
	 * With preemption configured a suspended job (or one ended for a
	 * preemptor) holds no host slot (MXJ) and nothing of a limit that
	 * does not count suspended jobs.  What it held is remembered, so
	 * that a reconfiguration between the two calls changes nothing.
	 */
	if (sign > 0)
		j->slots_free = mbd->preempt_on && ((s & (JOB_STAT_USUSP |
		    JOB_STAT_SSUSP)) || j->preempt_kill);
	preempt_lists(j, sign);
	/* Started jobs hold their limits' slots, suspended too. */
	q->pq.qcap.used += sign * n;
	for (int i = 0; i < POL_NCAPS; i++) {
		struct pol_cap *k = j->pj.caps[i];

		if (k && !(k->susp_free && j->slots_free))
			k->used += sign * (k->per_job ? 1 : n);
	}
	if (j->pj.nrlims > 0)
		rlimits_account(j, sign);
	user_host_slots(j, sign);
	for (int i = 0; i < j->nexec; i++) {
		struct mhost *h = j->exec[i];

		if (q->pq.host_used)
			q->pq.host_used[h->index] += sign;
		if (!j->slots_free)
			h->ph.used_slots += sign;
		if (s & JOB_STAT_USUSP)
			h->nususp += sign;
		else if (s & JOB_STAT_SSUSP)
			h->nssusp += sign;
		else
			h->nrun += sign;
		if (j->options & SUB_EXCLUSIVE)
			h->ph.exclusive = sign > 0;
	}
}

void
job_set_status(struct job *j, int status)
{
	/* A job ending, in a record logged now or replayed: MAX_JOB_NUM
	 * counts them.  A post-exec outcome is no second end; nor is a
	 * state put back after JOB_STAT_NULL (bswitch, bmod, an ended
	 * array element becoming a job of its own). */
	if (JOB_STAT_FINISHED(status) && j->status != JOB_STAT_NULL &&
	    !JOB_STAT_FINISHED(j->status))
		mbd->log_nfinished++;
	account(j, -1);
	j->status = status;
	account(j, +1);
	fs_job_status(j);
	mbd->state_gen++;
	j->pj.held = (status & JOB_STAT_PSUSP) != 0;
}

void
job_slots_add(struct job *j, int sign)
{
	account(j, sign);
}

int
job_priority(const struct job *j)
{
	int max = mbd->conf.params.max_user_priority;

	if (j->x && j->x->user_priority > 0)
		return j->x->user_priority;
	return max > 0 ? max / 2 : 0;
}

/* Put a job (new or requeued) after the pending jobs of its queue with
 * the same or a higher user priority (FCFS among equals). */
void
job_make_pending(struct job *j)
{
	struct pol_queue *q = &j->queue->pq;
	struct pol_job *p;
	int prio = job_priority(j);

	policy_job_remove(&j->pj);
	j->pj.fsa = fs_job_acct(j);
	for (p = q->tail; p; p = p->prev)
		if (job_priority(JOB_OF_PJ(p)) >= prio)
			break;
	policy_job_insert_after(q, p, &j->pj);
	j->pj.reason_pass = 0;
}

void
default_queues(struct strv *out)
{
	if (mbd->conf.params.default_queue.n > 0)
		strv_copy(out, &mbd->conf.params.default_queue);
	else
		strv_push(out, queue_find("default") ? "default" :
		    mbd->queues[0]->name);
}

/* Queues and hosts. */

struct mqueue *
queue_find(const char *name)
{
	for (int i = 0; i < mbd->nqueues; i++)
		if (strcmp(mbd->queues[i]->name, name) == 0)
			return mbd->queues[i];
	return NULL;
}

struct mhost *
host_find(const char *name)
{
	for (int i = 0; i < mbd->nhosts; i++)
		if (strcasecmp(mbd->hosts[i]->name, name) == 0)
			return mbd->hosts[i];
	return NULL;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The -m of bjobs, bkill and the other job commands: a host, a host
 * group, "all" or the cluster's name, as a flag per host (by index);
 * NULL for a name that is none of them.
 */
bool *
host_mask(const char *name)
{
	struct strv in = STRV_INIT, got = STRV_INIT, bad = STRV_INIT;
	bool *on = NULL;

	if (mbd->conf.cluster.name &&
	    strcasecmp(name, mbd->conf.cluster.name) == 0)
		name = "all";
	strv_push(&in, name);
	config_expand_hosts(&mbd->conf, &in, &got, &bad);
	if (bad.n == 0 && got.n > 0) {
		on = xcalloc((size_t)mbd->nhosts + 1, sizeof(*on));
		qsort(got.v, got.n, sizeof(*got.v), name_cmp);
		for (int i = 0; i < mbd->nhosts; i++)
			on[i] = bsearch(&mbd->hosts[i]->name, got.v, got.n,
			    sizeof(*got.v), name_cmp) != NULL;
	}
	strv_release(&in);
	strv_release(&got);
	strv_release(&bad);
	return on;
}

/* Has the job a slot on a host of the mask? */
bool
job_on_hosts(const struct job *j, const bool *mask)
{
	for (int i = 0; i < j->nexec; i++)
		if (mask[j->exec[i]->index])
			return true;
	return false;
}

void
host_refresh(struct mhost *h)
{
	struct pol_host *ph = &h->ph;
	int mxj = h->bconf ? h->bconf->mxj : -1;

	ph->usable = h->lim_up && h->sbd != NULL && !h->closed_adm &&
	    !h->window_closed && !h->removed && !h->lim_locked;
	if (h->closed_adm)
		ph->unusable_reason = HR_CLOSED_ADM;
	else if (h->lim_up && h->lim_locked)
		ph->unusable_reason = HR_LOCKED;
	else if (h->lim_up && h->sbd != NULL && h->window_closed)
		ph->unusable_reason = HR_WINDOW;
	else
		ph->unusable_reason = HR_UNAVAIL;
	if (mxj == MXJ_NCPUS)
		mxj = h->ph.rr.ncpus > 0 ? h->ph.rr.ncpus : 1;
	ph->max_slots = mxj;
	ph->thr = h->bconf ? &h->bconf->thr : NULL;
	ph->jl_u = h->bconf ? h->bconf->jlu : -1;
	if (ph->jl_u >= 0)
		mbd->pc.any_jlu = true;
	ph->rr.name = h->name;
	ph->rr.type = h->type;
	ph->rr.model = h->model;
	ph->rr.load = h->load;
	/* None rather than an empty list: a pass then never reaches into
	 * the host's record for them (a cache miss per host and job). */
	ph->rr.resources = h->resources.n > 0 ? &h->resources : NULL;
	ph->rr.ext = h->ext.n > 0 ? &h->ext : NULL;
	ph->rr.server = true;
}

/* A LIM's report on a host: its load, what it detected, up or down. */
void
host_load_apply(struct mhost *h, const struct lim_host *lh)
{
	bool up = !(lh->status & LIM_UNAVAIL);

	if (up != h->lim_up)
		log_info("host %s: LIM is %s", h->name, up ? "up" : "down");
	h->lim_up = up;
	/* A lock (limlock or the LIM's run window) keeps new jobs off;
	 * lockU of our own exclusive job changes nothing here. */
	h->lim_locked = up && (lh->status & (LIM_LOCKU | LIM_LOCKW)) != 0 &&
	    !(lh->status & LIM_EXCL_LOCK);
	if (up) {
		memcpy(h->load, lh->load, sizeof(h->load));
		strv_release(&h->ext);
		strv_copy(&h->ext, &lh->ext);
		if (lh->type && *lh->type && strcmp(lh->type, "!") != 0) {
			free(h->type);
			h->type = xstrdup(lh->type);
		}
		if (lh->model && *lh->model && strcmp(lh->model, "!") != 0) {
			free(h->model);
			h->model = xstrdup(lh->model);
		}
		h->ph.rr.ncpus = lh->ncpus;
		h->ph.rr.cpuf = lh->cpuf;
		h->ph.rr.maxmem = lh->maxmem;
		h->ph.rr.maxswp = lh->maxswp;
		h->ph.rr.maxtmp = lh->maxtmp;
		/* A model or type row of lsb.hosts may apply now. */
		h->bconf = config_lsb_host(&mbd->conf, h->name, h->model,
		    h->type);
	} else {
		for (int i = 0; i < NLOADIDX; i++)
			h->load[i] = INFINIT_LOAD;
		strv_release(&h->ext);
	}
	host_refresh(h);
}

/* QJOB_LIMIT, HJOB_LIMIT, PJOB_LIMIT from the queue's configuration. */
void
queue_set_limits(struct mqueue *q)
{
	const struct queue_conf *qc = q->conf;

	q->pq.qcap.max = qc->qjob_limit;
	q->pq.qcap.reason = PEND_QUEUE_JOB_LIMIT;
	q->pq.hjob_limit = qc->hjob_limit;
	q->pq.pjob_limit = qc->pjob_limit;
	if (q->nhosts_used < mbd->nhosts || q->pq.host_used == NULL) {
		size_t n = (size_t)mbd->nhosts + 1;

		q->pq.host_used = xrealloc(q->pq.host_used, n * sizeof(int));
		for (size_t i = (size_t)q->nhosts_used; i < n; i++)
			q->pq.host_used[i] = 0;
		q->nhosts_used = mbd->nhosts;
	}
}

/* Is the queue's RUN_WINDOW open now (or has it none)? */
bool
queue_run_open(const struct mqueue *q, int64_t now)
{
	const struct windows *w = q->conf ? &q->conf->run_window : NULL;
	time_t t = (time_t)now;
	struct tm tm;

	if (w == NULL || w->n == 0)
		return true;
	localtime_r(&t, &tm);
	return windows_open(w, tm.tm_wday, tm.tm_hour * 60 + tm.tm_min);
}

void
queue_set_active(struct mqueue *q, int64_t now)
{
	const struct windows *w = q->conf ? &q->conf->dispatch_window : NULL;
	time_t t = (time_t)now;
	struct tm tm;
	bool win = true;

	if (w && w->n > 0) {
		localtime_r(&t, &tm);
		win = windows_open(w, tm.tm_wday, tm.tm_hour * 60 + tm.tm_min);
	}
	/* Outside its run window a queue dispatches nothing either. */
	q->run_open = queue_run_open(q, now);
	q->pq.active = q->active && win && q->run_open;
	q->pq.inactive_reason = !q->active ? PEND_QUEUE_INACT :
	    PEND_QUEUE_WINDOW;
}

/* Is the host's dispatch window open?  Returns true when it changed. */
bool
host_set_window(struct mhost *h, int64_t now)
{
	const struct windows *w = h->bconf ? &h->bconf->dispatch_window : NULL;
	time_t t = (time_t)now;
	struct tm tm;
	bool closed = false;

	if (w && w->n > 0) {
		localtime_r(&t, &tm);
		closed = !windows_open(w, tm.tm_wday, tm.tm_hour * 60 +
		    tm.tm_min);
	}
	if (closed == h->window_closed)
		return false;
	h->window_closed = closed;
	host_refresh(h);
	return true;
}

/*
 * What a host takes from the configuration; also run by badmin reconfig
 * on a host that stays.  A type or model left to be detected ("!") keeps
 * what the LIM reported.
 */
void
host_configure(struct mhost *h, const struct cluster_host *ch)
{
	const struct lsf_config *c = &mbd->conf;

	h->cconf = ch;
	if (ch->type && strcmp(ch->type, "!") != 0) {
		free(h->type);
		h->type = xstrdup(ch->type);
	} else if (h->type == NULL)
		h->type = xstrdup("");
	if (ch->model && strcmp(ch->model, "!") != 0) {
		free(h->model);
		h->model = xstrdup(ch->model);
	} else if (h->model == NULL)
		h->model = xstrdup("");
	h->bconf = config_lsb_host(c, ch->name, h->model, h->type);
	/* "!res" is dedicated: it counts when asked for by name. */
	strv_release(&h->resources);
	strv_release(&h->ext);
	for (size_t k = 0; k < ch->resources.n; k++)
		strv_push(&h->resources, ch->resources.v[k] +
		    (ch->resources.v[k][0] == '!'));
	host_set_window(h, time(NULL));
	host_refresh(h);
}

/* A new server host, at the end of the table (indices never move).  Its
 * address is the caller's to resolve (host_resolve): the state core
 * does no I/O. */
/*
 * Hosts come from blocks, side by side in the order of their indices: a
 * pass reads every host for every job, and 10,000 of them apart, among
 * their strings, cost it a third more in cache and TLB misses (workload
 * 9).  Never freed: a removed host stays, its index too.
 */
#define HOST_BLOCK	256

static struct mhost *
host_get(void)
{
	static struct mhost *blk;
	static int left;

	if (left == 0) {
		blk = xcalloc(HOST_BLOCK, sizeof(*blk));
		left = HOST_BLOCK;
	}
	left--;
	return blk++;
}

struct mhost *
host_add(const struct cluster_host *ch)
{
	struct mhost *h = host_get();

	h->name = xstrdup(ch->name);
	h->index = mbd->nhosts;
	for (int k = 0; k < NLOADIDX; k++)
		h->load[k] = INFINIT_LOAD;
	h->ph.index = h->index;
	host_configure(h, ch);
	mbd->hosts = xrealloc(mbd->hosts, sizeof(*mbd->hosts) *
	    (size_t)(mbd->nhosts + 2));
	mbd->hosts[mbd->nhosts++] = h;
	mbd->hosts[mbd->nhosts] = NULL;
	return h;
}

static void
hosts_init(void)
{
	const struct lsf_config *c = &mbd->conf;

	for (int i = 0; i < c->cluster.nhosts; i++)
		if (c->cluster.hosts[i].server)
			(void)host_add(&c->cluster.hosts[i]);
}
/*
 * A queue's resource requirement string (RES_REQ, RESUME_COND) parsed
 * into *rrp, replacing what was there; NULL if none.  The file was
 * checked: only a changed syntax fails here, and it is then ignored.
 */
static void
queue_resreq(const struct lsf_config *c, const struct mqueue *q,
    struct resreq **rrp, const char *text, const char *what)
{
	char *cause = NULL;

	if (*rrp) {
		resreq_release(*rrp);
		free(*rrp);
		*rrp = NULL;
	}
	if (text == NULL || *text == '\0')
		return;
	*rrp = xcalloc(1, sizeof(**rrp));
	if (resreq_parse(*rrp, text, c->lsf.unit_for_limits, &cause) < 0) {
		log_warnx("queue %s: %s ignored: %s", q->name, what, cause);
		free(cause);
		resreq_release(*rrp);
		free(*rrp);
		*rrp = NULL;
	}
}


/*
 * What a queue takes from its lsb.queues section (order: its position in
 * the file); also run by badmin reconfig on a queue that stays, so
 * whatever is derived from the section belongs here.
 */
void
queue_configure(struct mqueue *q, const struct queue_conf *qc, int order)
{
	const struct lsf_config *c = &mbd->conf;
	int jai = c->params.job_accept_interval;
	int sleep = c->params.mbd_sleep_time > 0 ? c->params.mbd_sleep_time : 10;
	int qjai = qc->job_accept_interval >= 0 ?
	    qc->job_accept_interval : jai;

	q->conf = qc;
	q->index = order;
	q->pq.name = q->name;
	q->pq.priority = qc->priority;
	q->pq.order = order;
	q->pq.thr = &qc->thr;
	q->pq.accept_interval = qjai > 0 ? qjai * sleep : 0;
	q->pq.new_job_delay = qc->new_job_sched_delay;
	queue_set_limits(q);
	queue_resreq(c, q, &q->rr, qc->res_req, "RES_REQ");
	q->pq.rr = q->rr;
	queue_resreq(c, q, &q->resume_rr, qc->resume_cond, "RESUME_COND");
	free(q->host_ok);
	q->host_ok = NULL;
	if (qc->hosts.n > 0) {
		struct strv names = STRV_INIT;

		config_expand_hosts(c, &qc->hosts, &names, NULL);
		q->host_ok = xcalloc((size_t)mbd->nhosts + 1,
		    sizeof(bool));
		for (size_t k = 0; k < names.n; k++) {
			struct mhost *h = host_find(names.v[k]);

			if (h)
				q->host_ok[h->index] = true;
		}
		strv_release(&names);
	}
	q->pq.host_ok = q->host_ok;
	strv_release(&q->users);
	expand_users(&qc->users, &q->users, 0);
	strv_release(&q->admins);
	expand_users(&qc->administrators, &q->admins, 0);
	queue_set_active(q, time(NULL));
}

/* A new queue, open and active, at the end of the table. */
struct mqueue *
queue_add(const struct queue_conf *qc, int order)
{
	struct mqueue *q = xcalloc(1, sizeof(*q));

	q->name = xstrdup(qc->name);
	q->open = true;
	q->active = true;
	q->run_open = true;
	queue_configure(q, qc, order);
	mbd->queues = xrealloc(mbd->queues, sizeof(*mbd->queues) *
	    (size_t)(mbd->nqueues + 2));
	mbd->queues[mbd->nqueues++] = q;
	mbd->queues[mbd->nqueues] = NULL;
	return q;
}

static void
queues_init(void)
{
	const struct lsf_config *c = &mbd->conf;

	for (int i = 0; i < c->nqueues; i++)
		(void)queue_add(&c->queues[i], i);
}

/* The policy's views of the host and queue tables. */
void
state_lists_rebuild(void)
{
	free(mbd->pc.hosts);
	mbd->pc.hosts = xcalloc((size_t)mbd->nhosts + 1,
	    sizeof(*mbd->pc.hosts));
	for (int i = 0; i < mbd->nhosts; i++)
		mbd->pc.hosts[i] = &mbd->hosts[i]->ph;
	mbd->pc.nhosts = mbd->nhosts;
	free(mbd->pc.queues);
	mbd->pc.queues = xcalloc((size_t)mbd->nqueues + 1,
	    sizeof(*mbd->pc.queues));
	for (int i = 0; i < mbd->nqueues; i++)
		mbd->pc.queues[i] = &mbd->queues[i]->pq;
	mbd->pc.nqueues = mbd->nqueues;
	policy_sort_queues(mbd->pc.queues, mbd->pc.nqueues);
	preempt_configure();
	fs_configure();
	fsadjust_load();
}

void
state_init(void)
{
	mbd->jtab_size = 1024;
	mbd->jtab = xcalloc(mbd->jtab_size, sizeof(*mbd->jtab));
	mbd->etab_size = 1024;
	mbd->etab = xcalloc(mbd->etab_size, sizeof(*mbd->etab));
	mbd->next_jobid = 1;
	strv_copy(&mbd->admins, &mbd->conf.cluster.admins);
	hosts_init();
	queues_init();
	state_lists_rebuild();
	rlimits_configure();
}
