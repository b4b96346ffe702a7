/*
 * lsb.acct's JOB_FINISH record, field by field in LSF's order (IBM's
 * lsb.acct reference): LSF 9's fields up to commandSpool, then LSF 10's
 * up to forwardTime.  What we do not keep is written as LSF writes an
 * unknown value: "" for a string, -1 for resource usage, 0 otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include "acct.h"
#include "lsf.h"

/*
 * exceptMask in LSF's bits, as its lsb.events JOB_EXCEPTION documents
 * them: 0x02 overrun, 0x04 underrun; idle, which came later, is 0x80
 * here (not checked against LSF).
 */
#define LSF_EXCEPT_OVERRUN	0x02
#define LSF_EXCEPT_UNDERRUN	0x04
#define LSF_EXCEPT_IDLE		0x80

static int
except_to_lsf(int bits)
{
	return (bits & JOB_EXC_OVERRUN ? LSF_EXCEPT_OVERRUN : 0) |
	    (bits & JOB_EXC_UNDERRUN ? LSF_EXCEPT_UNDERRUN : 0) |
	    (bits & JOB_EXC_IDLE ? LSF_EXCEPT_IDLE : 0);
}

static int
except_from_lsf(int mask)
{
	return (mask & LSF_EXCEPT_OVERRUN ? JOB_EXC_OVERRUN : 0) |
	    (mask & LSF_EXCEPT_UNDERRUN ? JOB_EXC_UNDERRUN : 0) |
	    (mask & LSF_EXCEPT_IDLE ? JOB_EXC_IDLE : 0);
}

void
acct_finish_init(struct acct_finish *x)
{
	memset(x, 0, sizeof(*x));
	x->utime = x->stime = -1;
	x->maxrss = x->max_mem_kb = x->max_swap_kb = x->avg_mem_kb = -1;
}

void
acct_finish_write(struct strbuf *sb, const struct acct_finish *x)
{
	size_t start = sb->len;

	ev_begin(sb, "JOB_FINISH", x->end_time);
	ev_int(sb, x->jobid);
	ev_int(sb, x->uid);
	ev_int(sb, x->options);
	ev_int(sb, x->num_procs);
	ev_int(sb, x->submit_time);
	ev_int(sb, x->begin_time);
	ev_int(sb, x->term_time);
	ev_int(sb, x->start_time);
	ev_str(sb, x->user);
	ev_str(sb, x->queue);
	ev_str(sb, x->res_req);
	ev_str(sb, x->depend_cond);
	ev_str(sb, x->pre_exec);
	ev_str(sb, x->from_host);
	ev_str(sb, x->cwd);
	ev_str(sb, x->in_file);
	ev_str(sb, x->out_file);
	ev_str(sb, x->err_file);
	ev_str(sb, x->job_file);
	ev_strv(sb, &x->asked_hosts);
	ev_strv(sb, &x->exec_hosts);
	ev_int(sb, x->status);
	ev_float(sb, "%.1f", x->host_factor);
	ev_str(sb, x->job_name);
	ev_str(sb, x->command);
	/* lsfRusage: ru_utime ru_stime, then 17 integers of which only
	 * ru_maxrss is known. */
	ev_float(sb, "%f", x->utime);
	ev_float(sb, "%f", x->stime);
	ev_int(sb, x->maxrss);
	for (int i = 1; i < 17; i++)
		ev_int(sb, -1);
	ev_str(sb, x->mail_user);
	ev_str(sb, x->project);
	ev_int(sb, x->exit_status);
	ev_int(sb, x->max_procs);
	ev_str(sb, x->login_shell);
	ev_str(sb, "");				/* timeEvent */
	ev_int(sb, x->idx);
	ev_int(sb, x->max_mem_kb);
	ev_int(sb, x->max_swap_kb);
	ev_str(sb, "");				/* inFileSpool */
	ev_str(sb, "");				/* commandSpool */
	/* LSF 10 */
	ev_str(sb, "");				/* rsvId */
	ev_str(sb, "");				/* sla */
	ev_int(sb, except_to_lsf(x->except_mask));	/* exceptMask */
	ev_str(sb, "");				/* additionalInfo */
	ev_int(sb, x->exit_info);		/* exitInfo */
	ev_str(sb, "");				/* warningAction */
	ev_int(sb, -1);				/* warningTimePeriod */
	ev_str(sb, "");				/* chargedSAAP */
	ev_str(sb, "");				/* licenseProject */
	ev_str(sb, "");				/* app */
	ev_str(sb, x->post_exec);
	ev_int(sb, -1);				/* runtimeEstimation */
	ev_str(sb, "");				/* jgroup */
	ev_str(sb, "");				/* requeueEValues */
	ev_int(sb, x->options2);
	ev_str(sb, "");				/* resizeNotifyCmd */
	ev_int(sb, 0);				/* lastResizeTime */
	ev_str(sb, "");				/* rsvId */
	ev_str(sb, "");				/* jobDescription */
	ev_int(sb, 0);				/* submitEXT: none */
	ev_int(sb, 0);				/* numHostRusage */
	ev_int(sb, 0);				/* options3 */
	ev_int(sb, x->run_limit);
	ev_int(sb, x->avg_mem_kb);
	ev_str(sb, x->effective_res_req);
	ev_str(sb, "");				/* srcCluster */
	ev_int(sb, -1);				/* srcJobId */
	ev_str(sb, "");				/* dstCluster */
	ev_int(sb, -1);				/* dstJobId */
	ev_int(sb, 0);				/* forwardTime */
	ev_end(sb, start);
}

static void
skip(struct ev_reader *r, int n)
{
	while (n-- > 0 && !r->err)
		evr_skip(r);
}

int
acct_finish_read(struct ev_reader *r, struct acct_finish *x)
{
	int64_t v;

	acct_finish_init(x);
	x->end_time = r->when;
	evr_int(r, &x->jobid);
	evr_i32(r, &x->uid);
	evr_u32(r, &x->options);
	evr_i32(r, &x->num_procs);
	evr_int(r, &x->submit_time);
	evr_int(r, &x->begin_time);
	evr_int(r, &x->term_time);
	evr_int(r, &x->start_time);
	evr_str(r, &x->user);
	evr_str(r, &x->queue);
	evr_str(r, &x->res_req);
	evr_str(r, &x->depend_cond);
	evr_str(r, &x->pre_exec);
	evr_str(r, &x->from_host);
	evr_str(r, &x->cwd);
	evr_str(r, &x->in_file);
	evr_str(r, &x->out_file);
	evr_str(r, &x->err_file);
	evr_str(r, &x->job_file);
	evr_strv(r, &x->asked_hosts);
	evr_strv(r, &x->exec_hosts);
	evr_i32(r, &x->status);
	evr_float(r, &x->host_factor);
	evr_str(r, &x->job_name);
	evr_str(r, &x->command);
	evr_float(r, &x->utime);
	evr_float(r, &x->stime);
	evr_int(r, &x->maxrss);
	skip(r, 16);
	evr_str(r, &x->mail_user);
	evr_str(r, &x->project);
	evr_i32(r, &x->exit_status);
	evr_i32(r, &x->max_procs);
	evr_str(r, &x->login_shell);
	skip(r, 1);				/* timeEvent */
	evr_i32(r, &x->idx);
	evr_int(r, &x->max_mem_kb);
	evr_int(r, &x->max_swap_kb);
	skip(r, 2);				/* inFileSpool commandSpool */
	/* LSF 10's, where the record has them. */
	if (evr_at_end(r))
		return r->err ? -1 : 0;
	skip(r, 2);				/* rsvId sla */
	evr_i32(r, &x->except_mask);
	x->except_mask = except_from_lsf(x->except_mask);
	skip(r, 1);				/* additionalInfo */
	evr_i32(r, &x->exit_info);
	skip(r, 5);	/* warningAction ... app (chargedSAAP licenseProject) */
	evr_str(r, &x->post_exec);
	skip(r, 3);			/* runtimeEstimation jgroup requeueEValues */
	evr_u32(r, &x->options2);
	skip(r, 4);	/* resizeNotifyCmd lastResizeTime rsvId jobDescription */
	evr_int(r, &v);				/* submitEXT */
	skip(r, (int)(v > 0 && v < 1024 ? 2 * v : 0));
	evr_int(r, &v);				/* numHostRusage */
	skip(r, (int)(v > 0 && v < 4096 ? 5 * v : 0));
	skip(r, 1);				/* options3 */
	evr_int(r, &x->run_limit);
	evr_int(r, &x->avg_mem_kb);
	evr_str(r, &x->effective_res_req);
	/* srcCluster srcJobId dstCluster dstJobId forwardTime; what LSF
	 * writes after them is left unread. */
	if (!evr_at_end(r))
		skip(r, 5);
	return r->err ? -1 : 0;
}

void
acct_finish_release(struct acct_finish *x)
{
	char **s[] = { &x->user, &x->queue, &x->res_req, &x->depend_cond,
	    &x->pre_exec, &x->from_host, &x->cwd, &x->in_file, &x->out_file,
	    &x->err_file, &x->job_file, &x->job_name, &x->command,
	    &x->mail_user, &x->project, &x->login_shell, &x->post_exec,
	    &x->effective_res_req };

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		free(*s[i]);
	strv_release(&x->asked_hosts);
	strv_release(&x->exec_hosts);
	memset(x, 0, sizeof(*x));
}
