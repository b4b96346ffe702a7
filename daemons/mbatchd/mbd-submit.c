/*
 * bsub: choose the queue, check the request against it, give the job an
 * ID, log it, and answer once the log is on disk.
 *
 * The submitter is who the kernel says is at the other end of the socket
 * (SO_PEERCRED), never what the request says.  The environment is kept
 * once per distinct environment of a user (a JOB_ENV record in the
 * private lsb.envs, not in the world-readable lsb.events) and jobs name
 * it, so a stream of jobs from one shell costs one copy.
 */
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

#define JOB_NAME_MAX	4094

struct verdict {
	int		 code;		/* LSBE_* */
	char		*context;
	char		*detail;
};

static void
verdict_set(struct verdict *v, int code, const char *context,
    const char *detail)
{
	v->code = code;
	free(v->context);
	free(v->detail);
	v->context = context ? xstrdup(context) : NULL;
	v->detail = detail ? xstrdup(detail) : NULL;
}

static void
verdict_release(struct verdict *v)
{
	free(v->context);
	free(v->detail);
	memset(v, 0, sizeof(*v));
}

/* What a queue checks of a job, from a submission or a job. */
struct qcheck {
	uint32_t	 options;
	int		 num_procs;
	int64_t		 rlimits[LSF_RLIM_NLIMITS];
	const struct strv *asked_hosts;
	const struct strv *res_reqs;
};

static void
qcheck_of_req(struct qcheck *k, const struct submit_req *r)
{
	k->options = r->options;
	k->num_procs = r->num_procs;
	memcpy(k->rlimits, r->rlimits, sizeof(k->rlimits));
	k->asked_hosts = &r->asked_hosts;
	k->res_reqs = &r->res_reqs;
}

static void
qcheck_of_job(struct qcheck *k, const struct job *j)
{
	static const struct strv none = STRV_INIT;

	k->options = j->options;
	k->num_procs = j->pj.num_procs;
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		k->rlimits[i] = j->x ? j->x->rlimits[i] : DEFAULT_RLIMIT;
	k->asked_hosts = j->x ? &j->x->asked_hosts : &none;
	k->res_reqs = j->x ? &j->x->res_reqs : &none;
}

/* A resource a requirement may name: lsf.shared's, or a host type or
 * model (the built-in indices never get here). */
static bool
resource_known(const char *name, void *arg)
{
	const struct shared_conf *sc = &mbd->conf.shared;

	(void)arg;
	for (int i = 0; i < sc->nresources; i++)
		if (strcmp(sc->resources[i].name, name) == 0)
			return true;
	for (int i = 0; i < sc->nmodels; i++)
		if (strcmp(sc->models[i].name, name) == 0)
			return true;
	if (strv_contains(&sc->host_types, name))
		return true;
	/* One a host of lsf.cluster has ("!res": dedicated). */
	for (int i = 0; i < mbd->conf.cluster.nhosts; i++) {
		const struct strv *rs = &mbd->conf.cluster.hosts[i].resources;

		for (size_t k = 0; k < rs->n; k++)
			if (strcmp(rs->v[k] + (rs->v[k][0] == '!'), name) == 0)
				return true;
	}
	return false;
}

/* -G: groups that exist, the user a member of the one charged. */
static int
check_user_group(const char *spec, const char *user, char **context)
{
	struct strv words = STRV_INIT;
	int code = LSBE_NO_ERROR;

	strv_split_ws(&words, spec);
	for (size_t i = 0; i < words.n && code == LSBE_NO_ERROR; i++) {
		const char *g = words.v[i];
		bool excluded = g[0] == '~';

		if (excluded)
			g++;
		if (!user_group_exists(g))
			code = LSBE_BAD_UGROUP;
		else if (!excluded && !user_in_group(user, g))
			code = LSBE_UGROUP_MEMBER;
		if (code != LSBE_NO_ERROR)
			*context = xstrdup(g);
	}
	strv_release(&words);
	return code;
}

/* Was host named in the -m list itself (not through a group)? */
static bool
named(const struct strv *words, const char *host)
{
	for (size_t i = 0; i < words->n; i++) {
		const char *w = words->v[i];
		size_t n = strcspn(w, "+");

		if (strlen(host) == n && strncasecmp(w, host, n) == 0)
			return true;
	}
	return false;
}

/*
 * -m: hosts, host groups, "all", "~host", "others", each with "+N" as
 * a queue's HOSTS takes them.  Every name must be known; a host named
 * itself must be the queue's, and some host asked for must be.
 */
static bool
asked_ok(const struct mqueue *q, const struct strv *words, struct verdict *v)
{
	struct strv hosts = STRV_INIT, bad = STRV_INIT;
	bool any = false, plain = true;

	/* Plain host names, the usual case, cost no expansion. */
	for (size_t i = 0; i < words->n && plain; i++)
		plain = strpbrk(words->v[i], "+~") == NULL &&
		    host_find(words->v[i]) != NULL &&
		    config_host_group(&mbd->conf, words->v[i]) == NULL;
	for (size_t i = 0; i < words->n && plain; i++) {
		struct mhost *h = host_find(words->v[i]);

		if (q->host_ok && !q->host_ok[h->index]) {
			verdict_set(v, LSBE_QUEUE_HOST, words->v[i], NULL);
			return false;
		}
	}
	if (plain)
		return true;
	config_expand_hosts(&mbd->conf, words, &hosts, &bad);
	if (bad.n > 0)
		verdict_set(v, LSBE_BAD_HOST, bad.v[0], NULL);
	for (size_t i = 0; i < hosts.n && v->code == LSBE_NO_ERROR; i++) {
		struct mhost *h = host_find(hosts.v[i]);

		if (h == NULL)
			continue;
		if (q->host_ok == NULL || q->host_ok[h->index])
			any = true;
		else if (named(words, hosts.v[i]))
			verdict_set(v, LSBE_QUEUE_HOST, hosts.v[i], NULL);
	}
	if (v->code == LSBE_NO_ERROR && !any)
		verdict_set(v, LSBE_QUEUE_HOST, words->v[0], NULL);
	strv_release(&hosts);
	strv_release(&bad);
	return v->code == LSBE_NO_ERROR;
}

/* Would queue q take this job?  LSBE_NO_ERROR, or why not. */
static void
check_queue(const char *qname, struct mqueue *q, const struct qcheck *r,
    const char *user, int uid, struct verdict *v)
{
	const struct queue_conf *qc;
	char *cause = NULL;

	verdict_set(v, LSBE_NO_ERROR, NULL, NULL);
	if (q == NULL) {
		verdict_set(v, LSBE_BAD_QUEUE, qname, NULL);
		return;
	}
	qc = q->conf;
	if (!q->open) {
		verdict_set(v, LSBE_QUEUE_CLOSED, q->name, NULL);
		return;
	}
	if (!queue_user_ok(q, user, uid) || !fs_user_may_submit(q, user)) {
		verdict_set(v, LSBE_QUEUE_USE, q->name, NULL);
		return;
	}
	if ((r->options & SUB_EXCLUSIVE) && !qc->exclusive) {
		verdict_set(v, LSBE_EXCLUSIVE, q->name, NULL);
		return;
	}
	if (qc->proclimit.max > 0 && r->num_procs > qc->proclimit.max) {
		verdict_set(v, LSBE_PROC_NUM, NULL, NULL);
		return;
	}
	if (qc->runlimit.max > 0 && r->rlimits[LSF_RLIMIT_RUN] > 0 &&
	    r->rlimits[LSF_RLIMIT_RUN] > qc->runlimit.max * 60) {
		verdict_set(v, LSBE_HARD_LIMIT, "RUNLIMIT", NULL);
		return;
	}
	if (qc->cpulimit.max > 0 && r->rlimits[LSF_RLIMIT_CPU] > 0 &&
	    r->rlimits[LSF_RLIMIT_CPU] > qc->cpulimit.max * 60) {
		verdict_set(v, LSBE_HARD_LIMIT, "CPULIMIT", NULL);
		return;
	}
	if (qc->memlimit.max > 0 && r->rlimits[LSF_RLIMIT_RSS] > 0 &&
	    r->rlimits[LSF_RLIMIT_RSS] > qc->memlimit.max) {
		verdict_set(v, LSBE_HARD_LIMIT, "MEMLIMIT", NULL);
		return;
	}
	if (r->asked_hosts->n > 0 && !asked_ok(q, r->asked_hosts, v))
		return;
	if (r->res_reqs->n > 0) {
		struct resreq jr, eff;
		int rc;

		const char *unknown, *section = NULL;

		if (resreq_merge_job(&jr, r->res_reqs,
		    mbd->conf.lsf.unit_for_limits, &cause) < 0) {
			verdict_set(v, LSBE_BAD_RESREQ, NULL, cause);
			free(cause);
			return;
		}
		unknown = resreq_unknown_name(&jr, resource_known, NULL,
		    &section);
		if (unknown != NULL) {
			/* LSF's words: 'Error in select section: Error near
			 * "foo" : incorrect ... name.' */
			cause = xasprintf("Error in %s section: Error near "
			    "\"%s\" ", section, unknown);
			verdict_set(v, LSBE_BAD_RESNAME, cause, NULL);
			free(cause);
			resreq_release(&jr);
			return;
		}
		rc = resreq_merge_queue(&eff, q->rr, &jr, &cause);
		resreq_release(&jr);
		if (rc < 0) {
			verdict_set(v, LSBE_BAD_RESREQ, NULL, cause);
			free(cause);
			return;
		}
		resreq_release(&eff);
	}
}

int
queue_accepts(struct mqueue *q, struct job *j, const char *user, int uid)
{
	struct qcheck k;
	struct verdict v;
	int code;

	memset(&v, 0, sizeof(v));
	qcheck_of_job(&k, j);
	check_queue(q->name, q, &k, user, uid, &v);
	code = v.code;
	verdict_release(&v);
	return code;
}

/* -m hosts: names, and indices for the policy. */
void
job_set_asked(struct job *j, const struct strv *hosts)
{
	struct job_extra *x;

	if (j->x == NULL) {
		j->x = xcalloc(1, sizeof(*j->x));
		for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
			j->x->rlimits[i] = DEFAULT_RLIMIT;
		j->x->user_priority = -1;
	}
	x = j->x;
	strv_release(&x->asked_hosts);
	strv_copy(&x->asked_hosts, hosts);
	extra_expand_asked(x);
	/* Asked only for hosts that are gone: nothing can match. */
	j->pj.asked = hosts->n ? x->asked_idx : NULL;
	j->pj.nasked = x->nasked;
}

/* The candidate queues: -q, else DEFAULT_QUEUE, else "default". */
static void
candidates(const struct submit_req *r, struct strv *out)
{
	if (r->queue && *r->queue) {
		strv_split_ws(out, r->queue);
		return;
	}
	default_queues(out);
}

static int64_t
next_jobid(void)
{
	int64_t max = mbd->conf.params.max_jobid > 0 ?
	    mbd->conf.params.max_jobid : 999999;

	for (int64_t tries = 0; tries <= max; tries++) {
		int64_t id = mbd->next_jobid++;

		if (id > max) {
			mbd->next_jobid = 2;
			id = 1;
		}
		if (job_find(id, 0) == NULL)
			return id;
	}
	return -1;
}

/* The default job name: the command, its first line for a script. */
static char *
default_name(const char *cmd)
{
	size_t n = strcspn(cmd, "\n");

	if (n > JOB_NAME_MAX)
		n = JOB_NAME_MAX;
	return xstrndup(cmd, n);
}

void
submit_handle(struct conn *c, uint32_t seq, struct rbuf *rb)
{
	struct ev_job_new ev;

	memset(&ev, 0, sizeof(ev));
	if (!submit_req_unpack(rb, &ev.req) || rbuf_end(rb) < 0) {
		submit_req_release(&ev.req);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL,
		    "malformed submission", false);
		return;
	}
	submit_job(c, seq, &ev, (int)c->uid, NULL);
}

/*
 * The request's own checks, before a queue is chosen: who may run jobs,
 * the slot counts, the name and its array part, -sp, -w, -G, -app.
 * Fills what the request leaves to mbatchd (the submitter's home, the
 * default application).  0, or -1 with *v saying why not.
 */
static int
submit_check(struct submit_req *r, int uid, const char *user,
    struct verdict *v)
{
	char *cause = NULL;

	/* A job runs as its submitter: as root only where LSF allows it. */
	if (uid == 0 &&
	    lsf_conf_get(&mbd->conf.lsf, "LSF_ROOT_REX") == NULL) {
		verdict_set(v, LSBE_PERMISSION, NULL,
		    "root's jobs are not run: LSF_ROOT_REX is not set");
		return -1;
	}
	if (r->sub_home == NULL || *r->sub_home == '\0') {
		/* bsub ran without HOME: the submitter's home from passwd. */
		struct passwd *pw = getpwuid((uid_t)uid);

		free(r->sub_home);
		r->sub_home = xstrdup(pw && pw->pw_dir ? pw->pw_dir : "/");
	}
	if (r->num_procs > POL_MAX_SLOTS) {
		verdict_set(v, LSBE_PROC_NUM, NULL, NULL);
		return -1;
	}
	if (r->num_procs <= 0 || r->max_procs < r->num_procs ||
	    r->command == NULL || *r->command == '\0') {
		verdict_set(v, LSBE_BAD_ARG, NULL, NULL);
		return -1;
	}
	if (r->job_name && strlen(r->job_name) > JOB_NAME_MAX) {
		verdict_set(v, LSBE_BAD_JOB_NAME, NULL, NULL);
		return -1;
	}
	if (r->job_name) {
		/* The array part, checked before anything is logged. */
		struct idxset set;
		const char *why = NULL;
		char *base = NULL;
		int limit, rc;

		idxset_init(&set);
		rc = array_spec_parse(r->job_name,
		    mbd->conf.params.max_job_array_size, &base, &set, &limit,
		    &why);
		free(base);
		idxset_release(&set);
		if (rc < 0) {
			verdict_set(v, why && strstr(why, "too large") ?
			    LSBE_ARRAY_INDEX : LSBE_BAD_JOB_NAME, NULL, why);
			return -1;
		}
	}
	if (r->user_priority > 0 &&
	    (mbd->conf.params.max_user_priority <= 0 ||
	    r->user_priority > mbd->conf.params.max_user_priority)) {
		verdict_set(v, LSBE_BAD_ARG, NULL,
		    mbd->conf.params.max_user_priority <= 0 ?
		    "-sp: MAX_USER_PRIORITY is not set" :
		    "-sp: above MAX_USER_PRIORITY");
		return -1;
	}
	if (r->depend_cond) {
		struct job self;
		int code;

		memset(&self, 0, sizeof(self));
		self.uid = uid;
		if (depend_check(r->depend_cond, &self, &code, &cause) < 0) {
			verdict_set(v, code, r->depend_cond, cause);
			free(cause);
			return -1;
		}
	}
	if (r->user_group) {
		char *g = NULL;
		int code = check_user_group(r->user_group, user, &g);

		if (code != LSBE_NO_ERROR) {
			verdict_set(v, code, NULL, NULL);
			log_debug("-G %s refused for %s", g, user);
			free(g);
			return -1;
		}
	}
	/* -app, else DEFAULT_APPLICATION (checked when it was read). */
	if (r->app == NULL && mbd->conf.params.default_application != NULL)
		r->app = xstrdup(mbd->conf.params.default_application);
	if (r->app != NULL && config_app(&mbd->conf, r->app) == NULL) {
		verdict_set(v, LSBE_BAD_APP, r->app, NULL);
		return -1;
	}
	return 0;
}

/*
 * The first candidate queue (-q's list, else DEFAULT_QUEUE) that
 * accepts the job; when none does, *v says why the first one did not,
 * as LSF's bsub says.
 */
static struct mqueue *
submit_pick_queue(const struct submit_req *r, int uid, const char *user,
    struct verdict *v)
{
	struct strv cands = STRV_INIT;
	struct verdict first;
	struct mqueue *q = NULL;
	struct qcheck k;

	memset(&first, 0, sizeof(first));
	candidates(r, &cands);
	qcheck_of_req(&k, r);
	for (size_t i = 0; i < cands.n; i++) {
		struct mqueue *cq = queue_find(cands.v[i]);

		check_queue(cands.v[i], cq, &k, user, uid, v);
		if (v->code == LSBE_NO_ERROR) {
			q = cq;
			break;
		}
		if (i == 0) {
			first = *v;
			memset(v, 0, sizeof(*v));
		}
	}
	if (q != NULL)
		verdict_release(&first);
	else if (first.code) {
		verdict_release(v);
		*v = first;
	}
	strv_release(&cands);
	return q;
}

/*
 * The job: its ID, brestart's checkpoint directory renamed for it, its
 * environment, what mbatchd fills in, and its JOB_NEW logged and applied
 * (log_apply_job_new), as replay makes it.  0, or -1 with *v saying why
 * not (nothing logged).
 */
static int
submit_commit(struct ev_job_new *ev, struct mqueue *q, int uid,
    const char *user, const char *restart_from, int64_t now,
    struct verdict *v)
{
	struct submit_req *r = &ev->req;
	char *cause = NULL;

	ev->jobid = next_jobid();
	if (ev->jobid < 0) {
		verdict_set(v, LSBE_NO_JOB, NULL, "no free job ID");
		return -1;
	}
	if (restart_from != NULL &&
	    chkpnt_dir_move(restart_from, r->chkpnt_dir, ev->jobid, uid,
	    &cause) < 0) {
		verdict_set(v, LSBE_SYS, NULL, cause);
		free(cause);
		return -1;
	}
	/* The environment, once per distinct one of this user's; a
	 * restart keeps the old job's. */
	if (ev->env_id == NULL) {
		struct menv *e = env_for(uid, &r->env, now);

		if (e == NULL) {
			verdict_set(v, LSBE_SYS, NULL,
			    "cannot record the environment");
			return -1;
		}
		ev->env_id = xstrdup(e->id);
	}
	strv_release(&r->env);

	ev->uid = uid;
	ev->user = xstrdup(user);
	ev->submit_time = now;
	ev->queue = xstrdup(q->name);
	ev->job_file = xasprintf("%lld.%lld", (long long)now,
	    (long long)ev->jobid);
	if (r->res_reqs.n)
		ev->res_req = strv_join(&r->res_reqs, " ");
	if (r->job_name == NULL)
		r->job_name = default_name(r->command);
	if (r->project == NULL)
		r->project = xstrdup(mbd->conf.params.default_project ?
		    mbd->conf.params.default_project : "default");
	log_apply_job_new(ev, now);
	if (job_find(ev->jobid, 0) == NULL)
		BUG("job %lld: not made by its JOB_NEW", (long long)ev->jobid);
	return 0;
}

/*
 * Check and take a submission: bsub's, or brestart's copy of an old
 * job's (restart_from: the old checkpoint directory, renamed for the
 * new job ID once it is known).  ev is released.  The job is made and
 * its record logged, and rep says where it went; or -1 with *vout
 * saying why not.  No answer is sent: a job pack answers for many.
 */
static int
submit_take(struct ev_job_new *evp, int uid, const char *restart_from,
    struct submit_reply *rep, struct verdict *vout)
{
	struct ev_job_new ev = *evp;
	struct submit_req *r = &ev.req;
	const char *user = user_name(uid);
	struct mqueue *q = NULL;
	struct verdict v;
	int64_t now = time(NULL);

	memset(evp, 0, sizeof(*evp));
	memset(&v, 0, sizeof(v));
	if (submit_check(r, uid, user, &v) < 0 ||
	    (q = submit_pick_queue(r, uid, user, &v)) == NULL ||
	    submit_commit(&ev, q, uid, user, restart_from, now, &v) < 0) {
		log_debug("submission from uid %d refused: %s%s%s", uid,
		    lsb_errmsg(v.code), v.detail ? ": " : "",
		    v.detail ? v.detail : "");
		*vout = v;
		ev_job_new_release(&ev);
		return -1;
	}
	mbd->nsubmitted++;
	memset(rep, 0, sizeof(*rep));
	rep->jobid = ev.jobid;
	rep->queue = q->name;
	/* brestart says "queue <q>" whatever chose it. */
	rep->default_queue = !(r->options & (SUB_QUEUE | SUB_RESTART));
	mbd_sched_dirty();
	log_debug("job %lld submitted by %s to %s", (long long)ev.jobid, user,
	    q->name);
	ev_job_new_release(&ev);
	return 0;
}

void
submit_job(struct conn *c, uint32_t seq, struct ev_job_new *evp, int uid,
    const char *restart_from)
{
	struct submit_reply rep;
	struct verdict v;
	struct wbuf w;

	memset(&v, 0, sizeof(v));
	if (submit_take(evp, uid, restart_from, &rep, &v) < 0) {
		client_reply_error(c, seq, v.code, v.context, v.detail, false);
		verdict_release(&v);
		return;
	}
	wbuf_init(&w);
	submit_reply_frame(&w, MSG_SUBMIT_REPLY, seq, &rep);
	outbox_add(c, &w);
}

/*
 * bsub -pack: every line's submission in this one turn, so that all
 * their records reach the disk with one write and one fdatasync, and
 * one answer gives each one's outcome in order.  With
 * LSB_PACK_SKIP_ERROR=Y a refused one does not stop the others.
 */
void
submit_pack_handle(struct conn *c, uint32_t seq, struct rbuf *rb)
{
	struct submit_pack p;
	struct submit_pack_reply out;
	struct wbuf w;
	uint32_t nok = 0;

	if (!submit_pack_unpack(rb, &p) || rbuf_end(rb) < 0) {
		submit_pack_release(&p);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL,
		    "malformed job pack", false);
		return;
	}
	if (mbd->conf.lsf.max_pack_jobs <= 0 ||
	    p.n > (uint32_t)mbd->conf.lsf.max_pack_jobs) {
		/* bsub splits a file by the same lsf.conf: a pack over it
		 * comes from a cluster whose files differ. */
		client_reply_error(c, seq, LSBE_BAD_ARG, NULL,
		    mbd->conf.lsf.max_pack_jobs <= 0 ?
		    "job packs are off (LSB_MAX_PACK_JOBS)" :
		    "a job pack over LSB_MAX_PACK_JOBS", false);
		submit_pack_release(&p);
		return;
	}
	out.n = p.n;
	out.v = xcalloc(p.n ? p.n : 1, sizeof(*out.v));
	for (uint32_t i = 0; i < p.n; i++) {
		struct pack_result *res = &out.v[i];
		struct submit_reply rep;
		struct ev_job_new ev;
		struct verdict v;

		memset(&v, 0, sizeof(v));
		memset(&ev, 0, sizeof(ev));
		ev.req = p.v[i];
		memset(&p.v[i], 0, sizeof(p.v[i]));
		if (submit_take(&ev, (int)c->uid, NULL, &rep, &v) < 0) {
			res->code = v.code;
			res->context = v.context;
			res->detail = v.detail;
			/* LSB_PACK_SKIP_ERROR=N: the rest are not tried (a
			 * result of 0 and no code). */
			if (!mbd->conf.lsf.pack_skip_error)
				break;
			continue;
		}
		res->jobid = rep.jobid;
		res->queue = xstrdup(rep.queue);
		res->default_queue = rep.default_queue;
		nok++;
	}
	log_info("job pack from uid %d: %u of %u submitted", (int)c->uid,
	    nok, p.n);
	wbuf_init(&w);
	submit_pack_reply_frame(&w, MSG_SUBMIT_PACK_REPLY, seq, &out);
	outbox_add(c, &w);
	submit_pack_reply_release(&out);
	submit_pack_release(&p);
}
