/*
 * The typed records of lsb.events.  Each write function emits LSF's fields
 * in LSF's order, then ours; each read function reads them back, taking
 * defaults for our trailing fields when an older record lacks them and
 * ignoring any fields after the ones it knows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evlog.h"
#include "lsf.h"

#define SIG_VALUE_NONE	(-65535)

/* JOB_NEW */

void
ev_job_new_write(struct strbuf *sb, int64_t when, const struct ev_job_new *x)
{
	const struct submit_req *q = &x->req;
	size_t start = sb->len;

	ev_begin(sb, "JOB_NEW", when);
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

/* JOB_ENV (ours): an environment shared by the jobs that name it. */

void
ev_job_env_write(struct strbuf *sb, int64_t when, const struct ev_job_env *x)
{
	size_t start = sb->len;

	ev_begin(sb, "JOB_ENV", when);
	ev_str(sb, x->env_id);
	ev_strv(sb, &x->env);
	ev_end(sb, start);
}

int
ev_job_env_read(struct ev_reader *r, struct ev_job_env *x)
{
	memset(x, 0, sizeof(*x));
	evr_str(r, &x->env_id);
	evr_strv(r, &x->env);
	return r->err ? -1 : 0;
}

void
ev_job_env_release(struct ev_job_env *x)
{
	free(x->env_id);
	strv_release(&x->env);
	memset(x, 0, sizeof(*x));
}

/* JOB_START */

void
ev_job_start_write(struct strbuf *sb, int64_t when,
    const struct ev_job_start *x)
{
	size_t start = sb->len;

	ev_begin(sb, "JOB_START", when);
	ev_int(sb, x->jobid);
	ev_int(sb, x->status);
	ev_int(sb, x->pid);
	ev_int(sb, x->pgid);
	ev_float(sb, "%.1f", 1.0);		/* hostFactor */
	ev_strv(sb, &x->exec_hosts);
	ev_str(sb, "");				/* queuePreCmd */
	ev_str(sb, "");				/* queuePostCmd */
	ev_int(sb, 0);				/* jFlags */
	ev_str(sb, "");				/* userGroup */
	ev_int(sb, x->idx);
	ev_str(sb, x->effective_res_req);
	ev_int(sb, x->run_count);
	ev_end(sb, start);
}

int
ev_job_start_read(struct ev_reader *r, struct ev_job_start *x)
{
	double f;
	int64_t v;

	memset(x, 0, sizeof(*x));
	evr_int(r, &x->jobid);
	evr_i32(r, &x->status);
	evr_i32(r, &x->pid);
	evr_i32(r, &x->pgid);
	evr_float(r, &f);
	evr_strv(r, &x->exec_hosts);
	evr_skip(r);
	evr_skip(r);
	evr_int(r, &v);
	evr_skip(r);
	evr_i32(r, &x->idx);
	evr_str_opt(r, &x->effective_res_req);
	evr_int_opt(r, &v, 0);
	x->run_count = (uint32_t)v;
	return r->err ? -1 : 0;
}

void
ev_job_start_release(struct ev_job_start *x)
{
	strv_release(&x->exec_hosts);
	free(x->effective_res_req);
	memset(x, 0, sizeof(*x));
}

/* JOB_EXECUTE */

void
ev_job_execute_write(struct strbuf *sb, int64_t when,
    const struct ev_job_execute *x)
{
	size_t start = sb->len;

	ev_begin(sb, "JOB_EXECUTE", when);
	ev_int(sb, x->jobid);
	ev_int(sb, x->exec_uid);
	ev_int(sb, x->pgid);
	ev_str(sb, x->exec_cwd);
	ev_str(sb, x->exec_home);
	ev_str(sb, x->exec_user);
	ev_int(sb, x->pid);
	ev_int(sb, x->idx);
	ev_int(sb, x->run_count);
	ev_end(sb, start);
}

int
ev_job_execute_read(struct ev_reader *r, struct ev_job_execute *x)
{
	int64_t v;

	memset(x, 0, sizeof(*x));
	evr_int(r, &x->jobid);
	evr_i32(r, &x->exec_uid);
	evr_i32(r, &x->pgid);
	evr_str(r, &x->exec_cwd);
	evr_str(r, &x->exec_home);
	evr_str(r, &x->exec_user);
	evr_i32(r, &x->pid);
	evr_i32(r, &x->idx);
	evr_int_opt(r, &v, 0);
	x->run_count = (uint32_t)v;
	return r->err ? -1 : 0;
}

void
ev_job_execute_release(struct ev_job_execute *x)
{
	free(x->exec_cwd);
	free(x->exec_home);
	free(x->exec_user);
	memset(x, 0, sizeof(*x));
}

/* JOB_STATUS */

void
ev_job_status_write(struct strbuf *sb, int64_t when,
    const struct ev_job_status *x)
{
	size_t start = sb->len;

	ev_begin(sb, "JOB_STATUS", when);
	ev_int(sb, x->jobid);
	ev_int(sb, x->status);
	ev_int(sb, x->reason);
	ev_int(sb, x->subreasons);
	ev_float(sb, "%.4f", x->cpu_time);
	ev_int(sb, x->end_time);
	ev_int(sb, 0);				/* ru: no lsfRusage follows */
	ev_int(sb, x->exit_status);
	ev_int(sb, x->idx);
	ev_int(sb, x->max_mem_kb);
	ev_int(sb, x->avg_mem_kb);
	ev_int(sb, x->exit_info);
	ev_int(sb, x->run_count);
	ev_end(sb, start);
}

int
ev_job_status_read(struct ev_reader *r, struct ev_job_status *x)
{
	int64_t ru, v;

	memset(x, 0, sizeof(*x));
	evr_int(r, &x->jobid);
	evr_i32(r, &x->status);
	evr_i32(r, &x->reason);
	evr_i32(r, &x->subreasons);
	evr_float(r, &x->cpu_time);
	evr_int(r, &x->end_time);
	evr_int(r, &ru);
	if (ru != 0) {
		/* LSF's lsfRusage block: two floats and 17 integers. */
		for (int i = 0; i < 19 && !r->err; i++)
			evr_skip(r);
	}
	evr_i32(r, &x->exit_status);
	evr_i32(r, &x->idx);
	evr_int_opt(r, &x->max_mem_kb, -1);
	evr_int_opt(r, &x->avg_mem_kb, -1);
	evr_i32_opt(r, &x->exit_info, 0);
	evr_int_opt(r, &v, 0);
	x->run_count = (uint32_t)v;
	return r->err ? -1 : 0;
}

void
ev_job_status_release(struct ev_job_status *x)
{
	memset(x, 0, sizeof(*x));
}

/* JOB_SIGNAL */

void
ev_job_signal_write(struct strbuf *sb, int64_t when,
    const struct ev_job_signal *x)
{
	size_t start = sb->len;

	ev_begin(sb, "JOB_SIGNAL", when);
	ev_int(sb, x->jobid);
	ev_int(sb, x->uid);
	ev_int(sb, x->run_count);
	ev_str(sb, x->signal);
	ev_int(sb, x->idx);
	ev_str(sb, x->user);
	ev_int(sb, x->flags);
	ev_end(sb, start);
}

int
ev_job_signal_read(struct ev_reader *r, struct ev_job_signal *x)
{
	memset(x, 0, sizeof(*x));
	evr_int(r, &x->jobid);
	evr_i32(r, &x->uid);
	evr_u32(r, &x->run_count);
	evr_str(r, &x->signal);
	evr_i32(r, &x->idx);
	evr_str(r, &x->user);
	evr_i32_opt(r, &x->flags, 0);
	return r->err ? -1 : 0;
}

void
ev_job_signal_release(struct ev_job_signal *x)
{
	free(x->signal);
	free(x->user);
	memset(x, 0, sizeof(*x));
}

/* JOB_CLEAN */

void
ev_job_clean_write(struct strbuf *sb, int64_t when,
    const struct ev_job_clean *x)
{
	size_t start = sb->len;

	ev_begin(sb, "JOB_CLEAN", when);
	ev_int(sb, x->jobid);
	ev_int(sb, x->idx);
	ev_end(sb, start);
}

int
ev_job_clean_read(struct ev_reader *r, struct ev_job_clean *x)
{
	memset(x, 0, sizeof(*x));
	evr_int(r, &x->jobid);
	evr_i32(r, &x->idx);
	return r->err ? -1 : 0;
}

void
ev_job_clean_release(struct ev_job_clean *x)
{
	memset(x, 0, sizeof(*x));
}

/* MBD_START */

void
ev_mbd_start_write(struct strbuf *sb, int64_t when,
    const struct ev_mbd_start *x)
{
	size_t start = sb->len;

	ev_begin(sb, "MBD_START", when);
	ev_str(sb, x->master);
	ev_str(sb, x->cluster);
	ev_int(sb, x->nhosts);
	ev_int(sb, x->nqueues);
	ev_str(sb, x->user);
	ev_end(sb, start);
}

int
ev_mbd_start_read(struct ev_reader *r, struct ev_mbd_start *x)
{
	memset(x, 0, sizeof(*x));
	evr_str(r, &x->master);
	evr_str(r, &x->cluster);
	evr_i32(r, &x->nhosts);
	evr_i32(r, &x->nqueues);
	evr_str_opt(r, &x->user);
	return r->err ? -1 : 0;
}

void
ev_mbd_start_release(struct ev_mbd_start *x)
{
	free(x->master);
	free(x->cluster);
	free(x->user);
	memset(x, 0, sizeof(*x));
}

/* MBD_DIE */

void
ev_mbd_die_write(struct strbuf *sb, int64_t when, const struct ev_mbd_die *x)
{
	size_t start = sb->len;

	ev_begin(sb, "MBD_DIE", when);
	ev_str(sb, x->master);
	ev_int(sb, x->nremoved);
	ev_int(sb, x->exit_code);
	ev_str(sb, x->user);
	ev_str(sb, x->comment);
	ev_end(sb, start);
}

int
ev_mbd_die_read(struct ev_reader *r, struct ev_mbd_die *x)
{
	memset(x, 0, sizeof(*x));
	evr_str(r, &x->master);
	evr_i32(r, &x->nremoved);
	evr_i32(r, &x->exit_code);
	evr_str_opt(r, &x->user);
	evr_str_opt(r, &x->comment);
	return r->err ? -1 : 0;
}

void
ev_mbd_die_release(struct ev_mbd_die *x)
{
	free(x->master);
	free(x->user);
	free(x->comment);
	memset(x, 0, sizeof(*x));
}

/* JOB_MOVE: btop/bbot */

void
ev_job_move_write(struct strbuf *sb, int64_t when, const struct ev_job_move *x)
{
	size_t start = sb->len;

	ev_begin(sb, "JOB_MOVE", when);
	ev_int(sb, x->uid);
	ev_int(sb, x->jobid);
	ev_int(sb, x->position);
	ev_int(sb, x->base);
	ev_int(sb, x->idx);
	ev_str(sb, x->user);
	ev_end(sb, start);
}

int
ev_job_move_read(struct ev_reader *r, struct ev_job_move *x)
{
	memset(x, 0, sizeof(*x));
	evr_i32(r, &x->uid);
	evr_int(r, &x->jobid);
	evr_i32(r, &x->position);
	evr_i32(r, &x->base);
	evr_i32(r, &x->idx);
	evr_str(r, &x->user);
	return r->err ? -1 : 0;
}

void
ev_job_move_release(struct ev_job_move *x)
{
	free(x->user);
	memset(x, 0, sizeof(*x));
}

/* JOB_SWITCH: bswitch */

void
ev_job_switch_write(struct strbuf *sb, int64_t when,
    const struct ev_job_switch *x)
{
	size_t start = sb->len;

	ev_begin(sb, "JOB_SWITCH", when);
	ev_int(sb, x->uid);
	ev_int(sb, x->jobid);
	ev_str(sb, x->queue);
	ev_int(sb, x->idx);
	ev_str(sb, x->user);
	ev_end(sb, start);
}

int
ev_job_switch_read(struct ev_reader *r, struct ev_job_switch *x)
{
	memset(x, 0, sizeof(*x));
	evr_i32(r, &x->uid);
	evr_int(r, &x->jobid);
	evr_str(r, &x->queue);
	evr_i32(r, &x->idx);
	evr_str(r, &x->user);
	return r->err ? -1 : 0;
}

void
ev_job_switch_release(struct ev_job_switch *x)
{
	free(x->queue);
	free(x->user);
	memset(x, 0, sizeof(*x));
}

/* JOB_REQUEUE: a job back to its queue's head */

void
ev_job_requeue_write(struct strbuf *sb, int64_t when,
    const struct ev_job_requeue *x)
{
	size_t start = sb->len;

	ev_begin(sb, "JOB_REQUEUE", when);
	ev_int(sb, x->jobid);
	ev_int(sb, x->idx);
	ev_end(sb, start);
}

int
ev_job_requeue_read(struct ev_reader *r, struct ev_job_requeue *x)
{
	memset(x, 0, sizeof(*x));
	evr_int(r, &x->jobid);
	evr_i32(r, &x->idx);
	return r->err ? -1 : 0;
}

void
ev_job_requeue_release(struct ev_job_requeue *x)
{
	memset(x, 0, sizeof(*x));
}

/* JOB_FORCE: brun */

void
ev_job_force_write(struct strbuf *sb, int64_t when,
    const struct ev_job_force *x)
{
	size_t start = sb->len;

	ev_begin(sb, "JOB_FORCE", when);
	ev_int(sb, x->jobid);
	ev_int(sb, x->uid);
	ev_int(sb, x->idx);
	ev_int(sb, x->options);
	ev_strv(sb, &x->hosts);
	ev_str(sb, x->user);
	ev_end(sb, start);
}

int
ev_job_force_read(struct ev_reader *r, struct ev_job_force *x)
{
	memset(x, 0, sizeof(*x));
	evr_int(r, &x->jobid);
	evr_i32(r, &x->uid);
	evr_i32(r, &x->idx);
	evr_i32(r, &x->options);
	evr_strv(r, &x->hosts);
	evr_str(r, &x->user);
	return r->err ? -1 : 0;
}

void
ev_job_force_release(struct ev_job_force *x)
{
	strv_release(&x->hosts);
	free(x->user);
	memset(x, 0, sizeof(*x));
}

/* MIG: bmig */

void
ev_mig_write(struct strbuf *sb, int64_t when, const struct ev_mig *x)
{
	size_t start = sb->len;

	ev_begin(sb, "MIG", when);
	ev_int(sb, x->jobid);
	ev_strv(sb, &x->hosts);
	ev_int(sb, x->uid);
	ev_int(sb, x->idx);
	ev_str(sb, x->user);
	ev_end(sb, start);
}

int
ev_mig_read(struct ev_reader *r, struct ev_mig *x)
{
	memset(x, 0, sizeof(*x));
	evr_int(r, &x->jobid);
	evr_strv(r, &x->hosts);
	evr_i32(r, &x->uid);
	evr_i32(r, &x->idx);
	evr_str(r, &x->user);
	return r->err ? -1 : 0;
}

void
ev_mig_release(struct ev_mig *x)
{
	strv_release(&x->hosts);
	free(x->user);
	memset(x, 0, sizeof(*x));
}

/* CHKPNT: jobId period pid ok flags idx */

void
ev_chkpnt_write(struct strbuf *sb, int64_t when, const struct ev_chkpnt *x)
{
	size_t start = sb->len;

	ev_begin(sb, "CHKPNT", when);
	ev_int(sb, x->jobid);
	ev_int(sb, x->period);
	ev_int(sb, x->pid);
	ev_int(sb, x->ok);
	ev_int(sb, x->flags);
	ev_int(sb, x->idx);
	ev_end(sb, start);
}

int
ev_chkpnt_read(struct ev_reader *r, struct ev_chkpnt *x)
{
	memset(x, 0, sizeof(*x));
	evr_int(r, &x->jobid);
	evr_int(r, &x->period);
	evr_i32(r, &x->pid);
	evr_i32(r, &x->ok);
	evr_i32(r, &x->flags);
	evr_i32(r, &x->idx);
	return r->err ? -1 : 0;
}

void
ev_chkpnt_release(struct ev_chkpnt *x)
{
	memset(x, 0, sizeof(*x));
}

/* HOST_CTRL and QUEUE_CTRL: opCode name userId userName comments */

void
ev_ctrl_write(struct strbuf *sb, int64_t when, const char *type,
    const struct ev_ctrl *x)
{
	size_t start = sb->len;

	ev_begin(sb, type, when);
	ev_int(sb, x->op);
	ev_str(sb, x->name);
	ev_int(sb, x->uid);
	ev_str(sb, x->user);
	ev_str(sb, x->comment);
	ev_end(sb, start);
}

int
ev_ctrl_read(struct ev_reader *r, struct ev_ctrl *x)
{
	memset(x, 0, sizeof(*x));
	evr_i32(r, &x->op);
	evr_str(r, &x->name);
	evr_i32(r, &x->uid);
	evr_str(r, &x->user);
	evr_str_opt(r, &x->comment);
	return r->err ? -1 : 0;
}

void
ev_ctrl_release(struct ev_ctrl *x)
{
	free(x->name);
	free(x->user);
	free(x->comment);
	memset(x, 0, sizeof(*x));
}

/* JOB_MODIFY2: bmod */

void
ev_job_modify_write(struct strbuf *sb, int64_t when,
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
	ev_begin(sb, "JOB_MODIFY2", when);
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

/* LOG_SWITCH */

void
ev_log_switch_write(struct strbuf *sb, int64_t when,
    const struct ev_log_switch *x)
{
	size_t start = sb->len;

	ev_begin(sb, "LOG_SWITCH", when);
	ev_int(sb, x->last_jobid);
	ev_end(sb, start);
}

int
ev_log_switch_read(struct ev_reader *r, struct ev_log_switch *x)
{
	memset(x, 0, sizeof(*x));
	evr_int(r, &x->last_jobid);
	/* A job ID is positive; 0 when no job was ever submitted. */
	if (!r->err && x->last_jobid < 0)
		r->err = true;
	return r->err ? -1 : 0;
}

void
ev_log_switch_release(struct ev_log_switch *x)
{
	memset(x, 0, sizeof(*x));
}

/* FS_USAGE */

void
ev_fs_usage_write(struct strbuf *sb, int64_t when, const struct ev_fs_usage *x)
{
	size_t start = sb->len;

	ev_begin(sb, "FS_USAGE", when);
	ev_str(sb, x->tree);
	ev_str(sb, x->path);
	ev_str(sb, x->name);
	ev_float(sb, "%.17g", x->cpu_hours);
	ev_int(sb, x->cpu_at);
	ev_float(sb, "%.17g", x->hrun_hours);
	ev_int(sb, x->hrun_at);
	ev_end(sb, start);
}

int
ev_fs_usage_read(struct ev_reader *r, struct ev_fs_usage *x)
{
	memset(x, 0, sizeof(*x));
	evr_str(r, &x->tree);
	evr_str(r, &x->path);
	evr_str(r, &x->name);
	evr_float(r, &x->cpu_hours);
	evr_int(r, &x->cpu_at);
	evr_float(r, &x->hrun_hours);
	evr_int(r, &x->hrun_at);
	/* Usage is never negative, nor a time before the epoch. */
	if (!r->err && (!(x->cpu_hours >= 0) || !(x->hrun_hours >= 0) ||
	    isinf(x->cpu_hours) || isinf(x->hrun_hours) || x->cpu_at < 0 ||
	    x->hrun_at < 0 || x->tree == NULL || x->tree[0] == '\0' ||
	    x->path == NULL || x->path[0] == '\0'))
		r->err = true;
	return r->err ? -1 : 0;
}

void
ev_fs_usage_release(struct ev_fs_usage *x)
{
	free(x->tree);
	free(x->path);
	free(x->name);
	memset(x, 0, sizeof(*x));
}

/* Checking any record: read it with its type's reader, then let it go. */

#define EV_CHECK(x)							\
static int								\
x##_check(struct ev_reader *r)						\
{									\
	struct x v;							\
	int rc;								\
									\
	memset(&v, 0, sizeof(v));					\
	rc = x##_read(r, &v);						\
	x##_release(&v);						\
	return rc;							\
}
EV_CHECK(ev_job_new)
EV_CHECK(ev_job_env)
EV_CHECK(ev_job_start)
EV_CHECK(ev_job_execute)
EV_CHECK(ev_job_status)
EV_CHECK(ev_job_signal)
EV_CHECK(ev_job_clean)
EV_CHECK(ev_mbd_start)
EV_CHECK(ev_mbd_die)
EV_CHECK(ev_job_move)
EV_CHECK(ev_job_switch)
EV_CHECK(ev_job_requeue)
EV_CHECK(ev_job_force)
EV_CHECK(ev_mig)
EV_CHECK(ev_chkpnt)
EV_CHECK(ev_job_modify)
EV_CHECK(ev_log_switch)
EV_CHECK(ev_fs_usage)
EV_CHECK(ev_ctrl)
#undef EV_CHECK

static const struct {
	const char	*type;
	int		(*check)(struct ev_reader *);
} ev_checks[] = {
	{ "JOB_NEW", ev_job_new_check },
	{ "JOB_ENV", ev_job_env_check },
	{ "JOB_START", ev_job_start_check },
	{ "JOB_EXECUTE", ev_job_execute_check },
	{ "JOB_STATUS", ev_job_status_check },
	{ "JOB_SIGNAL", ev_job_signal_check },
	{ "JOB_CLEAN", ev_job_clean_check },
	{ "MBD_START", ev_mbd_start_check },
	{ "MBD_DIE", ev_mbd_die_check },
	{ "JOB_MOVE", ev_job_move_check },
	{ "JOB_SWITCH", ev_job_switch_check },
	{ "JOB_REQUEUE", ev_job_requeue_check },
	{ "JOB_FORCE", ev_job_force_check },
	{ "MIG", ev_mig_check },
	{ "CHKPNT", ev_chkpnt_check },
	{ "JOB_MODIFY2", ev_job_modify_check },
	{ "LOG_SWITCH", ev_log_switch_check },
	{ "FS_USAGE", ev_fs_usage_check },
	{ "HOST_CTRL", ev_ctrl_check },
	{ "QUEUE_CTRL", ev_ctrl_check },
};

int
ev_record_check(struct ev_reader *r, const char **why)
{
	for (size_t i = 0; i < ARRAY_SIZE(ev_checks); i++) {
		if (strcmp(r->type, ev_checks[i].type) != 0)
			continue;
		if (ev_checks[i].check(r) < 0) {
			*why = "its fields do not parse";
			return -1;
		}
		return 0;
	}
	return 0;
}
