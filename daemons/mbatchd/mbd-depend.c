/*
 * Job dependencies (bsub -w): the condition is parsed once (src/depend.c)
 * and judged before each scheduling pass against the jobs it names.  A
 * job whose condition is not met yet is blocked with PEND_DEPEND; one
 * that can never be met with PEND_DEP_INVALID, and stays pending, as in
 * LSF, until someone kills or modifies it.
 *
 * A job named by ID is that job (every element, for an array); a job
 * named by name is every job of the same user with that name, or only
 * the most recent one with JOB_DEP_LAST_SUB=1 (lsb.params).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "depend.h"
#include "log.h"
#include "mbd.h"

struct depctx {
	const struct job *j;		/* whose condition */
};

static bool
op_ok(int op, int64_t a, int64_t b)
{
	switch (op) {
	case DEP_OP_NE: return a != b;
	case DEP_OP_GT: return a > b;
	case DEP_OP_GE: return a >= b;
	case DEP_OP_LT: return a < b;
	case DEP_OP_LE: return a <= b;
	default: return a == b;
	}
}

/* The exit code LSF shows: exit() value, or 128 + signal. */
static int
exit_code(const struct job *e)
{
	int st = e->exit_status;

	if (st < 0)
		return 0;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

static void
add_state(struct dep_counts *c, int status, bool started, int code, int op,
    int want)
{
	c->total++;
	if (status & JOB_STAT_PEND)
		c->pend++;
	else if (status & JOB_STAT_PSUSP)
		c->psusp++;
	else if (JOB_STAT_STARTED(status)) {
		c->run++;
		if (status & (JOB_STAT_RUN | JOB_STAT_UNKWN))
			c->running++;
	}
	else if (status & JOB_STAT_DONE)
		c->done++;
	else if (status & JOB_STAT_EXIT) {
		c->exit++;
		if (op == DEP_OP_NONE || op_ok(op, code, want))
			c->exit_match++;
	}
	if (started)
		c->started++;
	if (status & JOB_STAT_PDONE)
		c->post_done++;
	if (status & JOB_STAT_PERR)
		c->post_err++;
}

static void
add_job(struct dep_counts *c, const struct job *e, int op, int code)
{
	add_state(c, e->status, e->run_count > 0, exit_code(e), op, code);
}

/* Every element of an array: counters, and a walk only for exit(). */
static void
add_array(struct dep_counts *c, const struct job *p, int op, int code)
{
	const struct jarray *a = p->arr;
	int64_t vp = a->pend.count;

	c->total += a->total;
	c->pend += a->nstat[AS_PEND] + (p->status & JOB_STAT_PSUSP ? 0 : vp);
	c->psusp += a->nstat[AS_PSUSP] + (p->status & JOB_STAT_PSUSP ? vp : 0);
	c->run += a->nstat[AS_RUN] + a->nstat[AS_SSUSP] + a->nstat[AS_USUSP];
	c->running += a->nstat[AS_RUN];
	c->done += a->nstat[AS_DONE];
	c->exit += a->nstat[AS_EXIT] + a->gone.count;
	c->started += a->nstarted;
	c->post_done += a->npdone;
	c->post_err += a->nperr;
	if (op == DEP_OP_NONE) {
		c->exit_match += a->nstat[AS_EXIT] + a->gone.count;
		return;
	}
	/* Ended before they started: exit code 0. */
	if (op_ok(op, 0, code))
		c->exit_match += a->gone.count;
	for (const struct job *e = p->next; e && e->jobid == p->jobid;
	    e = e->next)
		if ((e->status & JOB_STAT_EXIT) &&
		    op_ok(op, exit_code(e), code))
			c->exit_match++;
}

static bool
add_by_id(struct dep_counts *c, int64_t jobid, int32_t idx, int op, int code)
{
	struct job *j = job_find(jobid, idx), *p;

	if (j != NULL) {
		if (JOB_IS_PARENT(j))
			add_array(c, j, op, code);
		else
			add_job(c, j, op, code);
		return true;
	}
	if (idx <= 0 || (p = job_find(jobid, 0)) == NULL || !JOB_IS_PARENT(p))
		return false;
	if (idxset_contains(&p->arr->pend, idx)) {
		add_state(c, p->status & JOB_STAT_PSUSP ? JOB_STAT_PSUSP :
		    JOB_STAT_PEND, false, 0, op, code);
		return true;
	}
	if (idxset_contains(&p->arr->gone, idx)) {
		add_state(c, JOB_STAT_EXIT, false, 0, op, code);
		return true;
	}
	return false;
}

/* "name" or "name[idx]": every job of the user (or the latest). */
static void
add_by_name(struct dep_counts *c, const struct job *self, const char *name,
    int op, int code)
{
	const char *lb = strchr(name, '[');
	char *base = lb ? xstrndup(name, (size_t)(lb - name)) : NULL;
	long idx = lb ? strtol(lb + 1, NULL, 10) : 0;
	bool last = mbd->conf.params.job_dep_last_sub == 1;

	for (struct job *j = last ? mbd->jobs_tail : mbd->jobs_head; j;
	    j = last ? j->prev : j->next) {
		if (JOB_IS_ELEMENT(j) || j == self || j->uid != self->uid)
			continue;
		if (lb != NULL) {
			if (!JOB_IS_PARENT(j) || !wildmatch(base, j->arr->base) ||
			    idx <= 0 || idx > INT32_MAX ||
			    !add_by_id(c, j->jobid, (int32_t)idx, op, code))
				continue;
		} else if (job_name_matches(j, name)) {
			add_by_id(c, j->jobid, 0, op, code);
		} else {
			continue;
		}
		if (last)
			break;
	}
	free(base);
}

static int
lookup(void *arg, const struct dep_ref *ref, int op, int code,
    struct dep_counts *c)
{
	struct depctx *ctx = arg;

	memset(c, 0, sizeof(*c));
	if (ref->name)
		add_by_name(c, ctx->j, ref->name, op, code);
	else
		add_by_id(c, ref->jobid, ref->idx, op, code);
	return c->total > 0 ? 0 : -1;
}

/* Is the referenced job there?  For bsub: a condition on nothing is
 * refused. */
static int
ref_exists(void *arg, const struct dep_ref *ref)
{
	struct dep_counts c;

	return lookup(arg, ref, DEP_OP_NONE, 0, &c) < 0 ? -1 : 0;
}

int
depend_check(const char *cond, const struct job *self, int *code,
    char **cause)
{
	struct dep_expr *e = NULL;
	struct depctx ctx = { self };

	*cause = NULL;
	if (dep_parse(cond, &e, cause) < 0) {
		*code = LSBE_DEP_SYNTAX;
		return -1;
	}
	if (dep_walk(e, ref_exists, &ctx) != 0) {
		*code = LSBE_DEP_NOT_FOUND;
		dep_free(e);
		return -1;
	}
	dep_free(e);
	return 0;
}

void
depend_attach(struct job *j)
{
	char *cause = NULL;

	if (j->x == NULL || j->x->depend_cond == NULL || j->x->dep != NULL)
		return;
	mbd->ndepend++;
	if (dep_parse(j->x->depend_cond, &j->x->dep, &cause) < 0) {
		/* Logged by an older version, say: it waits for ever. */
		log_warnx("job %lld: dependency \"%s\": %s", (long long)j->jobid,
		    j->x->depend_cond, cause);
		free(cause);
		j->x->dep = NULL;
		j->pj.blocked = PEND_DEP_INVALID;
	}
}

static void
judge(struct job *j)
{
	struct depctx ctx = { j };
	int v;

	if (j->x == NULL || j->x->depend_cond == NULL) {
		j->pj.blocked = 0;
		return;
	}
	if (j->x->dep == NULL) {
		j->pj.blocked = PEND_DEP_INVALID;
		return;
	}
	v = dep_eval(j->x->dep, lookup, &ctx);
	j->pj.blocked = v == DEP_TRUE ? 0 : v == DEP_NEVER ?
	    PEND_DEP_INVALID : PEND_DEPEND;
}

/*
 * Before a pass: judge every pending job that has a condition.  Nothing
 * to do unless a job changed state since the last time (mbd->state_gen).
 */
void
depend_pass(void)
{
	static uint64_t seen = (uint64_t)-1;

	if (seen == mbd->state_gen || mbd->ndepend == 0)
		return;
	seen = mbd->state_gen;
	for (int i = 0; i < mbd->pc.nqueues; i++)
		for (struct pol_job *p = mbd->pc.queues[i]->head; p;
		    p = p->next) {
			struct job *j = JOB_OF_PJ(p);

			if (j->x && j->x->depend_cond)
				judge(j);
		}
}

/*
 * bwait: the value of a condition now, for the caller's jobs as bsub -w
 * would see it.  A syntax error or a job that does not exist is refused
 * as bsub refuses it; bwait asks again until the value is not DEP_FALSE.
 */
void
query_wait(struct conn *c, uint32_t seq, struct rbuf *r)
{
	struct strv cond = STRV_INIT;
	struct dep_expr *e = NULL;
	struct job self;
	struct depctx ctx = { &self };
	struct wait_reply wr;
	struct wbuf w;
	char *cause = NULL;
	int code = LSBE_DEP_SYNTAX;

	if (!get_strv(r, &cond) || rbuf_end(r) < 0 || cond.n != 1) {
		strv_release(&cond);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL, NULL, false);
		return;
	}
	memset(&self, 0, sizeof(self));
	self.uid = (int)c->uid;
	if (depend_check(cond.v[0], &self, &code, &cause) < 0 ||
	    dep_parse(cond.v[0], &e, &cause) < 0) {
		client_reply_error(c, seq, code, cond.v[0], cause, false);
		free(cause);
		strv_release(&cond);
		return;
	}
	wr.value = dep_eval(e, lookup, &ctx);
	dep_free(e);
	wbuf_init(&w);
	wait_reply_frame(&w, MSG_WAIT_REPLY, seq, &wr);
	conn_send(c, &w);
	wbuf_release(&w);
	strv_release(&cond);
}
