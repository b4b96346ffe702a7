/*
 * The typed records of lsb.events (the table is EVLOG_RECORDS in
 * evlog.h).  Each struct's fields are listed once below, LSF's in LSF's
 * order, then ours; the list generates its writer (_put), its reader,
 * which takes defaults for our trailing fields when an older record
 * lacks them and ignores any fields after the ones it knows, its release
 * and, for a job's record, the reader of its job ID alone.  JOB_NEW and
 * JOB_MODIFY2 are written by hand: LSF's conditional fields.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evlog.h"
#include "lsf.h"

#define SIG_VALUE_NONE	(-65535)

/* JOB_NEW */

void
ev_job_new_put(struct strbuf *sb, int64_t when, const char *type,
    const struct ev_job_new *x)
{
	const struct submit_req *q = &x->req;
	size_t start = sb->len;

	ev_begin(sb, type, when);
	ev_int(sb, x->jobid);
	ev_int(sb, x->uid);
	ev_int(sb, q->options);
	ev_int(sb, q->num_procs);
	ev_int(sb, x->submit_time);
	ev_int(sb, q->begin_time);
	ev_int(sb, q->term_time);
	ev_int(sb, SIG_VALUE_NONE);		/* sigValue */
	ev_int(sb, q->chkpnt_period);		/* chkpntPeriod, seconds */
	ev_int(sb, 0);				/* restartPid */
	ev_str(sb, x->user);
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		ev_int(sb, q->rlimits[i]);
	ev_str(sb, "");				/* hostSpec */
	ev_float(sb, "%.2f", 1.0);		/* hostFactor */
	ev_int(sb, q->umask);
	ev_str(sb, x->queue);
	ev_str(sb, x->res_req);
	ev_str(sb, q->from_host);
	ev_str(sb, q->sub_cwd);
	ev_str(sb, q->chkpnt_dir);		/* chkpntDir */
	ev_str(sb, q->in_file);
	ev_str(sb, q->out_file);
	ev_str(sb, q->err_file);
	ev_str(sb, q->sub_home);
	ev_str(sb, x->job_file);
	ev_strv(sb, &q->asked_hosts);
	ev_str(sb, q->depend_cond);
	ev_str(sb, q->pre_exec);
	ev_str(sb, q->job_name);
	ev_str(sb, q->command);
	ev_int(sb, 0);				/* nxf */
	ev_str(sb, q->mail_user);
	ev_str(sb, q->project);
	ev_int(sb, q->max_procs);
	ev_str(sb, "");				/* schedHostType */
	ev_str(sb, q->login_shell);
	ev_str(sb, q->user_group);
	ev_str(sb, "");				/* exceptList */
	ev_str(sb, "");				/* reserved */
	ev_int(sb, q->options2);
	ev_int(sb, x->idx);
	ev_str(sb, "");				/* inFileSpool */
	ev_str(sb, "");				/* commandSpool */
	ev_str(sb, "");				/* jobSpoolDir */
	ev_int(sb, q->user_priority);
	/* ours */
	ev_str(sb, x->env_id);
	ev_str(sb, q->cwd);
	ev_str(sb, q->post_exec);
	ev_strv(sb, &q->res_reqs);
	ev_str(sb, q->queue);			/* -q as asked */
	ev_str(sb, q->outdir);
	ev_str(sb, q->app);			/* -app, DEFAULT_APPLICATION */
	ev_str(sb, q->chkpnt_method);		/* -k method= */
	ev_str(sb, q->warning_action);		/* -wa */
	ev_int(sb, q->warning_time);		/* -wt, seconds; -1 none */
	ev_end(sb, start);
}

int
ev_job_new_read(struct ev_reader *r, struct ev_job_new *x)
{
	struct submit_req *q = &x->req;
	int64_t v;
	double f;

	memset(x, 0, sizeof(*x));
	submit_req_init(q);
	evr_int(r, &x->jobid);
	evr_i32(r, &x->uid);
	evr_u32(r, &q->options);
	evr_i32(r, &q->num_procs);
	evr_int(r, &x->submit_time);
	evr_int(r, &q->begin_time);
	evr_int(r, &q->term_time);
	evr_int(r, &v);
	evr_int(r, &q->chkpnt_period);
	evr_int(r, &v);
	evr_str(r, &x->user);
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		evr_int(r, &q->rlimits[i]);
	evr_skip(r);				/* hostSpec */
	evr_float(r, &f);
	evr_i32(r, &q->umask);
	evr_str(r, &x->queue);
	evr_str(r, &x->res_req);
	evr_str(r, &q->from_host);
	evr_str(r, &q->sub_cwd);
	evr_str(r, &q->chkpnt_dir);
	evr_str(r, &q->in_file);
	evr_str(r, &q->out_file);
	evr_str(r, &q->err_file);
	evr_str(r, &q->sub_home);
	evr_str(r, &x->job_file);
	evr_strv(r, &q->asked_hosts);
	evr_str(r, &q->depend_cond);
	evr_str(r, &q->pre_exec);
	evr_str(r, &q->job_name);
	evr_str(r, &q->command);
	if (evr_int(r, &v) && v != 0) {
		/*
		 * Files transferred with bsub -f: not supported, and never
		 * written by us.  Where the fields after them start is not
		 * known here, so the rest of the record keeps its defaults.
		 */
		q->max_procs = q->num_procs;
		r->p = r->end;
		goto tail;
	}
	evr_str(r, &q->mail_user);
	evr_str(r, &q->project);
	evr_i32(r, &q->max_procs);
	evr_skip(r);
	evr_str(r, &q->login_shell);
	evr_str(r, &q->user_group);
	evr_skip(r);
	evr_skip(r);
	evr_u32(r, &q->options2);
	evr_i32(r, &x->idx);
	evr_skip(r);
	evr_skip(r);
	evr_skip(r);
	evr_i32(r, &q->user_priority);
	evr_str_opt(r, &x->env_id);
	evr_str_opt(r, &q->cwd);
	evr_str_opt(r, &q->post_exec);
	if (!r->err && !evr_at_end(r))
		evr_strv(r, &q->res_reqs);
	evr_str_opt(r, &q->queue);
	evr_str_opt(r, &q->outdir);
	evr_str_opt(r, &q->app);
	evr_str_opt(r, &q->chkpnt_method);
	evr_str_opt(r, &q->warning_action);
	evr_i32_opt(r, &q->warning_time, -1);
tail:
	if (r->err)
		return -1;
	/* Empty strings were NULL when written (borrowed: not freed). */
#define EMPTY_TO_NULL(s) do {					\
	if ((s) && *(s) == '\0') {					\
		if (!r->borrow)						\
			free(s);					\
		(s) = NULL;						\
	}								\
} while (0)
	EMPTY_TO_NULL(q->in_file);
	EMPTY_TO_NULL(q->out_file);
	EMPTY_TO_NULL(q->err_file);
	EMPTY_TO_NULL(q->depend_cond);
	EMPTY_TO_NULL(q->pre_exec);
	EMPTY_TO_NULL(q->mail_user);
	EMPTY_TO_NULL(q->login_shell);
	EMPTY_TO_NULL(q->user_group);
	EMPTY_TO_NULL(q->cwd);
	EMPTY_TO_NULL(q->post_exec);
	EMPTY_TO_NULL(q->chkpnt_dir);
	EMPTY_TO_NULL(q->chkpnt_method);
	EMPTY_TO_NULL(q->queue);
	EMPTY_TO_NULL(q->outdir);
	EMPTY_TO_NULL(q->app);
	EMPTY_TO_NULL(q->warning_action);
	EMPTY_TO_NULL(x->env_id);
	EMPTY_TO_NULL(x->res_req);
#undef EMPTY_TO_NULL
	return 0;
}

int
ev_job_new_peek(struct ev_reader *r, struct ev_job_new *x)
{
	int rc;

	memset(x, 0, sizeof(*x));
	if (evr_borrow_begin(r) < 0)
		return -1;
	rc = ev_job_new_read(r, x);
	evr_borrow_end(r);
	return rc;
}

void
ev_job_new_release(struct ev_job_new *x)
{
	free(x->user);
	free(x->queue);
	free(x->job_file);
	free(x->res_req);
	free(x->env_id);
	submit_req_release(&x->req);
	memset(x, 0, sizeof(*x));
}

/* The job ID comes first. */
static int
ev_job_new_key(struct ev_reader *r, int64_t *jobid, int *idx)
{
	*idx = 0;
	return evr_int(r, jobid) ? 0 : -1;
}

/* JOB_MODIFY2: bmod */

void
ev_job_modify_put(struct strbuf *sb, int64_t when, const char *type,
    const struct ev_job_modify *x)
{
	const struct submit_req *q = &x->req;
	size_t start = sb->len;
	char id[48];

	if (x->idx > 0)
		snprintf(id, sizeof(id), "%lld[%d]", (long long)x->jobid,
		    x->idx);
	else
		snprintf(id, sizeof(id), "%lld", (long long)x->jobid);
	ev_begin(sb, type, when);
	ev_str(sb, id);
	ev_int(sb, q->options);
	ev_int(sb, q->options2);
	ev_int(sb, 0);				/* delOptions */
	ev_int(sb, x->uid);
	ev_str(sb, x->user);
	ev_int(sb, 0);				/* submitTime */
	ev_int(sb, q->umask);
	ev_int(sb, q->num_procs);
	ev_int(sb, q->begin_time);
	ev_int(sb, q->term_time);
	ev_int(sb, SIG_VALUE_NONE);		/* sigValue */
	ev_int(sb, 0);				/* restartPid */
	ev_str(sb, q->job_name);
	ev_str(sb, q->queue);
	ev_strv(sb, &q->asked_hosts);
	ev_str(sb, q->res_reqs.n ? q->res_reqs.v[0] : "");
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		ev_int(sb, q->rlimits[i]);
	ev_str(sb, "");				/* hostSpec */
	ev_str(sb, q->depend_cond);
	/* Ours. */
	ev_int(sb, x->set);
	ev_int(sb, x->del);
	ev_str(sb, q->out_file);
	ev_str(sb, q->err_file);
	ev_str(sb, q->pre_exec);
	ev_str(sb, q->post_exec);
	ev_str(sb, q->mail_user);
	ev_str(sb, q->project);
	ev_int(sb, q->user_priority);
	ev_str(sb, q->cwd);
	ev_int(sb, q->max_procs);
	ev_end(sb, start);
}

int
ev_job_modify_read(struct ev_reader *r, struct ev_job_modify *x)
{
	struct submit_req *q = &x->req;
	char *id = NULL, *rr = NULL, *spec = NULL, *end;
	int64_t skip;

	memset(x, 0, sizeof(*x));
	submit_req_init(q);
	evr_str(r, &id);
	evr_u32(r, &q->options);
	evr_u32(r, &q->options2);
	evr_int(r, &skip);			/* delOptions */
	evr_i32(r, &x->uid);
	evr_str(r, &x->user);
	evr_int(r, &skip);			/* submitTime */
	evr_i32(r, &q->umask);
	evr_i32(r, &q->num_procs);
	evr_int(r, &q->begin_time);
	evr_int(r, &q->term_time);
	evr_int(r, &skip);			/* sigValue */
	evr_int(r, &skip);			/* restartPid */
	evr_str(r, &q->job_name);
	evr_str(r, &q->queue);
	evr_strv(r, &q->asked_hosts);
	evr_str(r, &rr);
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		evr_int(r, &q->rlimits[i]);
	evr_str(r, &spec);			/* hostSpec */
	evr_str(r, &q->depend_cond);
	evr_u32(r, &x->set);
	evr_u32(r, &x->del);
	evr_str_opt(r, &q->out_file);
	evr_str_opt(r, &q->err_file);
	evr_str_opt(r, &q->pre_exec);
	evr_str_opt(r, &q->post_exec);
	evr_str_opt(r, &q->mail_user);
	evr_str_opt(r, &q->project);
	evr_i32_opt(r, &q->user_priority, -1);
	evr_str_opt(r, &q->cwd);
	evr_i32_opt(r, &q->max_procs, q->num_procs);
	if (rr && *rr)
		strv_push(&q->res_reqs, rr);
	free(rr);
	free(spec);
	if (id != NULL) {
		x->jobid = strtoll(id, &end, 10);
		if (*end == '[')
			x->idx = (int)strtol(end + 1, NULL, 10);
	}
	free(id);
	return r->err ? -1 : 0;
}

void
ev_job_modify_release(struct ev_job_modify *x)
{
	free(x->user);
	submit_req_release(&x->req);
	memset(x, 0, sizeof(*x));
}

/* jobIdStr first: "12" or "12[3]". */
static int
ev_job_modify_key(struct ev_reader *r, int64_t *jobid, int *idx)
{
	char *s = NULL, *e;
	long long id;
	long x = 0;
	bool ok = false;

	if (!evr_str(r, &s))
		return -1;
	errno = 0;
	id = strtoll(s, &e, 10);
	if (errno == 0 && e != s && id > 0) {
		if (*e == '\0')
			ok = true;
		else if (*e == '[') {
			char *f;

			x = strtol(e + 1, &f, 10);
			ok = f != e + 1 && f[0] == ']' && f[1] == '\0' &&
			    x > 0 && x <= INT32_MAX;
		}
	}
	free(s);
	*jobid = id;
	*idx = (int)x;
	return ok ? 0 : -1;
}

/*
 * A field, by kind: put writes it, rd reads it, sk skips it (reading
 * the job ID alone), rl releases it.
 *
 *	I64, I32, U32 (f)	a number
 *	JOBID (f)		the job's ID, a number
 *	STR, STRV (f)		a string, a list
 *	FLT (fmt, f)		a float written with fmt
 *	I64_OPT, I32_OPT, U32_OPT (f, dflt), STR_OPT (f)
 *				ours, after LSF's: dflt when an older
 *				record ends before it
 *	K_INT (v), K_FLT (fmt, v), K_STR (s)
 *				LSF's field we do not keep: written as v,
 *				read and dropped
 *	RUSAGE			JOB_STATUS' lsfRusage: a count, 0 here,
 *				and LSF's 19 fields when it is not
 *	CHECK (expr)		reading fails unless expr holds of x
 */
#define PUT_I64(f)		ev_int(sb, x->f);
#define PUT_I32(f)		ev_int(sb, x->f);
#define PUT_U32(f)		ev_int(sb, x->f);
#define PUT_JOBID(f)		ev_int(sb, x->f);
#define PUT_STR(f)		ev_str(sb, x->f);
#define PUT_STRV(f)		ev_strv(sb, &x->f);
#define PUT_FLT(fmt, f)		ev_float(sb, fmt, x->f);
#define PUT_I64_OPT(f, d)	ev_int(sb, x->f);
#define PUT_I32_OPT(f, d)	ev_int(sb, x->f);
#define PUT_U32_OPT(f, d)	ev_int(sb, x->f);
#define PUT_STR_OPT(f)		ev_str(sb, x->f);
#define PUT_K_INT(v)		ev_int(sb, v);
#define PUT_K_FLT(fmt, v)	ev_float(sb, fmt, v);
#define PUT_K_STR(s)		ev_str(sb, s);
#define PUT_RUSAGE()		ev_int(sb, 0);
#define PUT_CHECK(e)

#define RD_I64(f)		evr_int(r, &x->f);
#define RD_I32(f)		evr_i32(r, &x->f);
#define RD_U32(f)		evr_u32(r, &x->f);
#define RD_JOBID(f)		evr_int(r, &x->f);
#define RD_STR(f)		evr_str(r, &x->f);
#define RD_STRV(f)		evr_strv(r, &x->f);
#define RD_FLT(fmt, f)		evr_float(r, &x->f);
#define RD_I64_OPT(f, d)	evr_int_opt(r, &x->f, d);
#define RD_I32_OPT(f, d)	evr_i32_opt(r, &x->f, d);
#define RD_U32_OPT(f, d)	{ int64_t v_;				\
				  evr_int_opt(r, &v_, d);		\
				  x->f = (uint32_t)v_; }
#define RD_STR_OPT(f)		evr_str_opt(r, &x->f);
#define RD_K_INT(v)		{ int64_t v_; evr_int(r, &v_); }
#define RD_K_FLT(fmt, v)	{ double v_; evr_float(r, &v_); }
#define RD_K_STR(s)		evr_skip(r);
#define RD_RUSAGE()		{ int64_t ru_;				\
				  evr_int(r, &ru_);			\
				  for (int i_ = 0; ru_ != 0 && i_ < 19 &&	\
				      !r->err; i_++)			\
					evr_skip(r); }
#define RD_CHECK(e)		if (!r->err && !(e)) r->err = true;

#define SK_I64(f)		if (!evr_skip(r)) return -1;
#define SK_I32(f)		SK_I64(f)
#define SK_U32(f)		SK_I64(f)
#define SK_JOBID(f)		{ *idx = 0;				\
				  return evr_int(r, jobid) ? 0 : -1; }
#define SK_STR(f)		SK_I64(f)
#define SK_STRV(f)		{ int64_t n_;				\
				  if (!evr_int(r, &n_) || n_ < 0)	\
					return -1;			\
				  for (int64_t i_ = 0; i_ < n_; i_++)	\
					SK_I64(f) }
#define SK_FLT(fmt, f)		SK_I64(f)
#define SK_I64_OPT(f, d)	SK_I64(f)
#define SK_I32_OPT(f, d)	SK_I64(f)
#define SK_U32_OPT(f, d)	SK_I64(f)
#define SK_STR_OPT(f)		SK_I64(f)
#define SK_K_INT(v)		SK_I64(v)
#define SK_K_FLT(fmt, v)	SK_I64(v)
#define SK_K_STR(s)		SK_I64(s)
#define SK_RUSAGE()		return -1;
#define SK_CHECK(e)

#define RL_I64(f)
#define RL_I32(f)
#define RL_U32(f)
#define RL_JOBID(f)
#define RL_STR(f)		free(x->f);
#define RL_STRV(f)		strv_release(&x->f);
#define RL_FLT(fmt, f)
#define RL_I64_OPT(f, d)
#define RL_I32_OPT(f, d)
#define RL_U32_OPT(f, d)
#define RL_STR_OPT(f)		free(x->f);
#define RL_K_INT(v)
#define RL_K_FLT(fmt, v)
#define RL_K_STR(s)
#define RL_RUSAGE()
#define RL_CHECK(e)

#define F_PUT(k, ...)	PUT_##k(__VA_ARGS__)
#define F_RD(k, ...)	RD_##k(__VA_ARGS__)
#define F_SK(k, ...)	SK_##k(__VA_ARGS__)
#define F_RL(k, ...)	RL_##k(__VA_ARGS__)

#define EV_IMPL(T, FIELDS)						\
void									\
ev_##T##_put(struct strbuf *sb, int64_t when, const char *type,	\
    const struct ev_##T *x)						\
{									\
	size_t start = sb->len;						\
									\
	ev_begin(sb, type, when);					\
	FIELDS(F_PUT)							\
	ev_end(sb, start);						\
}									\
int									\
ev_##T##_read(struct ev_reader *r, struct ev_##T *x)			\
{									\
	memset(x, 0, sizeof(*x));					\
	FIELDS(F_RD)							\
	return r->err ? -1 : 0;						\
}									\
void									\
ev_##T##_release(struct ev_##T *x)					\
{									\
	FIELDS(F_RL)							\
	memset(x, 0, sizeof(*x));					\
}									\
static int __attribute__((unused))					\
ev_##T##_key(struct ev_reader *r, int64_t *jobid, int *idx)		\
{									\
	FIELDS(F_SK)							\
	return -1;							\
}

/* JOB_ENV (ours, in lsb.envs): an environment shared by the jobs that
 * name it. */
#define JOB_ENV_FIELDS(F)	F(STR, env_id) F(STRV, env)
EV_IMPL(job_env, JOB_ENV_FIELDS)

#define JOB_START_FIELDS(F)						\
	F(JOBID, jobid) F(I32, status) F(I32, pid) F(I32, pgid)		\
	F(K_FLT, "%.1f", 1.0)		/* hostFactor */		\
	F(STRV, exec_hosts)						\
	F(K_STR, "")			/* queuePreCmd */		\
	F(K_STR, "")			/* queuePostCmd */		\
	F(K_INT, 0)			/* jFlags */			\
	F(K_STR, "")			/* userGroup */			\
	F(I32, idx) F(STR_OPT, effective_res_req)			\
	F(U32_OPT, run_count, 0)
EV_IMPL(job_start, JOB_START_FIELDS)

#define JOB_EXECUTE_FIELDS(F)						\
	F(JOBID, jobid) F(I32, exec_uid) F(I32, pgid) F(STR, exec_cwd)	\
	F(STR, exec_home) F(STR, exec_user) F(I32, pid) F(I32, idx)	\
	F(U32_OPT, run_count, 0)
EV_IMPL(job_execute, JOB_EXECUTE_FIELDS)

#define JOB_STATUS_FIELDS(F)						\
	F(JOBID, jobid) F(I32, status) F(I32, reason)			\
	F(I32, subreasons) F(FLT, "%.4f", cpu_time) F(I64, end_time)	\
	F(RUSAGE) F(I32, exit_status) F(I32, idx)			\
	F(I64_OPT, max_mem_kb, -1) F(I64_OPT, avg_mem_kb, -1)		\
	F(I32_OPT, exit_info, 0) F(U32_OPT, run_count, 0)
EV_IMPL(job_status, JOB_STATUS_FIELDS)

#define JOB_SIGNAL_FIELDS(F)						\
	F(JOBID, jobid) F(I32, uid) F(U32, run_count) F(STR, signal)	\
	F(I32, idx) F(STR, user) F(I32_OPT, flags, 0)
EV_IMPL(job_signal, JOB_SIGNAL_FIELDS)

#define JOB_CLEAN_FIELDS(F)	F(JOBID, jobid) F(I32, idx)
EV_IMPL(job_clean, JOB_CLEAN_FIELDS)

#define MBD_START_FIELDS(F)						\
	F(STR, master) F(STR, cluster) F(I32, nhosts) F(I32, nqueues)	\
	F(STR_OPT, user)
EV_IMPL(mbd_start, MBD_START_FIELDS)

#define MBD_DIE_FIELDS(F)						\
	F(STR, master) F(I32, nremoved) F(I32, exit_code)		\
	F(STR_OPT, user) F(STR_OPT, comment)
EV_IMPL(mbd_die, MBD_DIE_FIELDS)

/* btop/bbot */
#define JOB_MOVE_FIELDS(F)						\
	F(I32, uid) F(JOBID, jobid) F(I32, position) F(I32, base)	\
	F(I32, idx) F(STR, user) F(I32_OPT, scope, EV_MOVE_UNKNOWN)
EV_IMPL(job_move, JOB_MOVE_FIELDS)

/* bswitch */
#define JOB_SWITCH_FIELDS(F)						\
	F(I32, uid) F(JOBID, jobid) F(STR, queue) F(I32, idx)		\
	F(STR, user)
EV_IMPL(job_switch, JOB_SWITCH_FIELDS)

/* A job back to its queue's head. */
#define JOB_REQUEUE_FIELDS(F)	F(JOBID, jobid) F(I32, idx)
EV_IMPL(job_requeue, JOB_REQUEUE_FIELDS)

/* brun */
#define JOB_FORCE_FIELDS(F)						\
	F(JOBID, jobid) F(I32, uid) F(I32, idx) F(I32, options)		\
	F(STRV, hosts) F(STR, user)
EV_IMPL(job_force, JOB_FORCE_FIELDS)

/* bmig */
#define MIG_FIELDS(F)							\
	F(JOBID, jobid) F(STRV, hosts) F(I32, uid) F(I32, idx)		\
	F(STR, user)
EV_IMPL(mig, MIG_FIELDS)

#define CHKPNT_FIELDS(F)						\
	F(JOBID, jobid) F(I64, period) F(I32, pid) F(I32, ok)		\
	F(I32, flags) F(I32, idx)
EV_IMPL(chkpnt, CHKPNT_FIELDS)

/* HOST_CTRL and QUEUE_CTRL: opCode name userId userName comments */
#define CTRL_FIELDS(F)							\
	F(I32, op) F(STR, name) F(I32, uid) F(STR, user)		\
	F(STR_OPT, comment)
EV_IMPL(ctrl, CTRL_FIELDS)

/* A job ID is positive; 0 when no job was ever submitted. */
#define LOG_SWITCH_FIELDS(F)						\
	F(I64, last_jobid) F(CHECK, x->last_jobid >= 0)
EV_IMPL(log_switch, LOG_SWITCH_FIELDS)

/* Usage is never negative, nor a time before the epoch. */
#define FS_USAGE_FIELDS(F)						\
	F(STR, tree) F(STR, path) F(STR, name)				\
	F(FLT, "%.17g", cpu_hours) F(I64, cpu_at)			\
	F(FLT, "%.17g", hrun_hours) F(I64, hrun_at)			\
	F(CHECK, x->cpu_hours >= 0 && x->hrun_hours >= 0 &&		\
	    !isinf(x->cpu_hours) && !isinf(x->hrun_hours) &&		\
	    x->cpu_at >= 0 && x->hrun_at >= 0 && x->tree != NULL &&	\
	    x->tree[0] != '\0' && x->path != NULL && x->path[0] != '\0')
EV_IMPL(fs_usage, FS_USAGE_FIELDS)

/* The table's entries, and each type's writer. */

#define EV_OFF_EVSW_JOB(T, f)		(long)offsetof(struct ev_##T, f)
#define EV_OFF_EVSW_CTRL(T, f)		-1L
#define EV_OFF_EVSW_DROP(T, f)		-1L
#define EV_OFF_EVSW_SUMMARY(T, f)	-1L
#define EV_OFF_EVSW_ENVS(T, f)		-1L
#define EV_KEY_EVSW_JOB(T)		ev_##T##_key_any
#define EV_KEY_EVSW_CTRL(T)		NULL
#define EV_KEY_EVSW_DROP(T)		NULL
#define EV_KEY_EVSW_SUMMARY(T)		NULL
#define EV_KEY_EVSW_ENVS(T)		NULL

#define EV_ANY(NAME, id, T, sw, hist, load)				\
void									\
ev_##id##_write(struct strbuf *sb, int64_t when,			\
    const struct ev_##T *x)						\
{									\
	ev_##T##_put(sb, when, #NAME, x);				\
}									\
static void								\
ev_##id##_write_any(struct strbuf *sb, int64_t when, const void *x)	\
{									\
	ev_##T##_put(sb, when, #NAME, x);				\
}									\
static int __attribute__((unused))					\
ev_##id##_read_any(struct ev_reader *r, void *x)			\
{									\
	return ev_##T##_read(r, x);					\
}									\
static void __attribute__((unused))					\
ev_##id##_release_any(void *x)						\
{									\
	ev_##T##_release(x);						\
}									\
static int __attribute__((unused))					\
ev_##id##_key_any(struct ev_reader *r, int64_t *jobid, int *idx)	\
{									\
	return ev_##T##_key(r, jobid, idx);				\
}
EVLOG_RECORDS(EV_ANY)
#undef EV_ANY

#define EV_INFO(NAME, ID, T, SW, HIST, LOAD)				\
	[EV_##NAME] = {							\
		.name = #NAME,						\
		.sw = SW,						\
		.hist = HIST,						\
		.size = sizeof(struct ev_##T),				\
		.jobid_off = EV_OFF_##SW(T, jobid),			\
		.idx_off = EV_OFF_##SW(T, idx),				\
		.write = ev_##ID##_write_any,				\
		.read = ev_##ID##_read_any,				\
		.release = ev_##ID##_release_any,			\
		.key = EV_KEY_##SW(ID),					\
	},
#define EV_FITS(NAME, id, T, sw, hist, load)				\
	_Static_assert(sizeof(struct ev_##T) <= sizeof(struct ev_any),	\
	    #NAME "'s struct is over EV_RECORD_MAX");
EVLOG_RECORDS(EV_FITS)
#undef EV_FITS

const struct ev_type_info ev_types[EV_NTYPES] = {
	EVLOG_RECORDS(EV_INFO)
};
#undef EV_INFO

int
ev_type_find(const char *name)
{
	/* Few types, and most records are of the first few. */
	for (int i = 0; i < EV_NTYPES; i++)
		if (name[0] == ev_types[i].name[0] &&
		    strcmp(name, ev_types[i].name) == 0)
			return i;
	return -1;
}

/* Checking any record: read it with its type's reader, then let it go.
 * Types this version does not know pass: newer versions may write them. */
int
ev_record_check(struct ev_reader *r, const char **why)
{
	const struct ev_type_info *ti;
	struct ev_any u;
	int rc;

	if (r->id < 0 || r->id >= EV_NTYPES)
		return 0;
	ti = &ev_types[r->id];
	rc = ti->read(r, &u);
	ti->release(&u);
	if (rc < 0) {
		*why = "its fields do not parse";
		return -1;
	}
	return 0;
}
