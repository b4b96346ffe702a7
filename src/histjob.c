/*
 * A finished job's bjobs answer from its history records (histjob.h):
 * what job_fill_info in mbatchd gives for the same job while it still
 * has it, field by field, from the records that set those fields.
 */
#include <stdlib.h>
#include <string.h>

#include "histjob.h"
#include "lsf.h"
#include "util.h"

/* mbatchd keeps a command this long inline and short-lists a longer
 * one without it (mbd-replay.c); the same here. */
#define HJ_COMMAND_INLINE	256

void
hist_job_clear(struct hist_job *h)
{
	if (h->has_new)
		ev_job_new_release(&h->new);
	if (h->has_start)
		ev_job_start_release(&h->start);
	if (h->has_exec)
		ev_job_execute_release(&h->exec);
	if (h->has_status)
		ev_job_status_release(&h->status);
	memset(h, 0, sizeof(*h));
}

void
hist_job_take(struct hist_job *h, const char *type, const char *line,
    size_t len, bool new_only)
{
	struct ev_reader r;
	const char *why;

	if (type == NULL || line == NULL || evr_init(&r, line, len, &why) < 0)
		return;
	if (r.id < 0 || r.id >= EV_NTYPES)
		return;
	/* A later record replaces an earlier one of its type. */
#define TAKE(slot, has, rd, rl)						\
	do {								\
		if (h->has)						\
			rl(&h->slot);					\
		h->has = rd(&r, &h->slot) == 0;				\
		if (!h->has)						\
			rl(&h->slot);					\
	} while (0)
	switch (ev_types[r.id].hist) {
	case EVH_NEW:
		TAKE(new, has_new, ev_job_new_read, ev_job_new_release);
		return;
	case EVH_START:
		if (new_only)
			return;
		/* Another run: what the last one left goes. */
		if (h->has_exec) {
			ev_job_execute_release(&h->exec);
			h->has_exec = false;
		}
		h->start_when = r.when;
		TAKE(start, has_start, ev_job_start_read,
		    ev_job_start_release);
		return;
	case EVH_EXECUTE:
		if (!new_only)
			TAKE(exec, has_exec, ev_job_execute_read,
			    ev_job_execute_release);
		return;
	case EVH_STATUS:
		if (new_only)
			return;
		h->status_when = r.when;
		TAKE(status, has_status, ev_job_status_read,
		    ev_job_status_release);
		return;
	case EVH_NONE:
	case EVH_JOB:
	case EVH_QUEUE:
	case EVH_MODIFY:
		/* bjobs' answer for a finished job: what mbatchd keeps of
		 * these is in the history's row (history-db.c). */
		return;
	}
#undef TAKE
}

bool
hist_job_finished(const struct hist_job *h)
{
	return h->has_new && h->has_status &&
	    JOB_STAT_FINISHED(h->status.status);
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void
hist_job_fill(struct job_info *ji, int64_t jobid, int idx, const char *queue,
    const char *name, const struct hist_job *h, bool longform)
{
	const struct submit_req *r = &h->new.req;
	const struct ev_job_status *s = &h->status;

	job_info_init(ji);
	ji->present = JI_ALL;
	ji->jobid = jobid;
	ji->idx = idx;
	ji->status = s->status & (JOB_STAT_DONE | JOB_STAT_EXIT |
	    JOB_STAT_PDONE | JOB_STAT_PERR);
	ji->options = r->options;
	ji->options2 = r->options2;
	ji->user = dup_or_null(h->new.user);
	ji->queue = xstrdup(queue ? queue : h->new.queue ? h->new.queue : "");
	ji->from_host = dup_or_null(r->from_host);
	if (h->has_start)
		strv_copy(&ji->exec_hosts, &h->start.exec_hosts);
	ji->job_name = dup_or_null(idx > 0 && name ? name : r->job_name);
	if (r->command && (longform ||
	    strlen(r->command) <= HJ_COMMAND_INLINE))
		ji->command = xstrdup(r->command);
	else if (longform)
		ji->command = xstrdup("");
	ji->project = xstrdup(r->project ? r->project : "default");
	ji->app = dup_or_null(r->app);
	if (r->chkpnt_dir) {
		ji->chkpnt_dir = idx > 0 ?
		    xasprintf("%s/%lld[%d]", r->chkpnt_dir, (long long)jobid,
		    idx) : xasprintf("%s/%lld", r->chkpnt_dir,
		    (long long)jobid);
		ji->chkpnt_period = r->chkpnt_period > 0 ?
		    r->chkpnt_period : 0;
		ji->chkpnt_method = dup_or_null(r->chkpnt_method);
	}
	ji->cwd = dup_or_null(r->cwd ? r->cwd : r->sub_cwd);
	ji->sub_home = dup_or_null(r->sub_home);
	ji->out_file = dup_or_null(r->out_file);
	ji->err_file = dup_or_null(r->err_file);
	ji->in_file = dup_or_null(r->in_file);
	ji->mail_user = dup_or_null(r->mail_user);
	ji->user_group = dup_or_null(r->user_group);
	ji->depend_cond = dup_or_null(r->depend_cond);
	ji->begin_time = r->begin_time;
	ji->term_time = r->term_time;
	ji->user_priority = r->user_priority;
	strv_copy(&ji->asked_hosts, &r->asked_hosts);
	ji->login_shell = dup_or_null(r->login_shell);
	ji->pre_exec = dup_or_null(r->pre_exec);
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		ji->rlimits[i] = r->rlimits[i] > 0 ? r->rlimits[i] :
		    DEFAULT_RLIMIT;
	ji->res_req = dup_or_null(h->new.res_req);
	if (h->has_start && h->start.effective_res_req &&
	    *h->start.effective_res_req)
		ji->effective_res_req = xstrdup(h->start.effective_res_req);
	if (h->has_exec) {
		ji->exec_cwd = dup_or_null(h->exec.exec_cwd);
		ji->exec_home = dup_or_null(h->exec.exec_home);
		ji->exec_user = dup_or_null(h->exec.exec_user);
		ji->pgid = h->exec.pgid;
		if (h->exec.pid > 0)
			strv_push_nodup(&ji->pids,
			    xasprintf("%d", h->exec.pid));
	}
	ji->submit_time = h->new.submit_time;
	ji->start_time = h->has_start ? h->start_when : 0;
	ji->end_time = s->end_time ? s->end_time : h->status_when;
	ji->num_procs = ji->max_procs = r->num_procs > 0 ? r->num_procs : 1;
	ji->exit_status = s->exit_status;
	ji->exit_reason = s->exit_info;
	ji->cpu_time = s->cpu_time;
	ji->max_mem_kb = s->max_mem_kb;
	ji->avg_mem_kb = s->avg_mem_kb;
	ji->run_count = (int)s->run_count;
}

void
hist_job_info_release(struct job_info *ji)
{
	free(ji->user);
	free(ji->queue);
	free(ji->from_host);
	strv_release(&ji->exec_hosts);
	free(ji->job_name);
	free(ji->command);
	free(ji->project);
	free(ji->app);
	free(ji->chkpnt_dir);
	free(ji->chkpnt_method);
	free(ji->cwd);
	free(ji->sub_home);
	free(ji->out_file);
	free(ji->err_file);
	free(ji->in_file);
	free(ji->mail_user);
	free(ji->user_group);
	free(ji->depend_cond);
	strv_release(&ji->asked_hosts);
	free(ji->login_shell);
	free(ji->pre_exec);
	free(ji->res_req);
	free(ji->effective_res_req);
	free(ji->exec_cwd);
	free(ji->exec_home);
	free(ji->exec_user);
	strv_release(&ji->pids);
}
