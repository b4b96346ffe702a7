/*
 * bhist -l's timeline (history.h): one dated line for each record of a
 * job, in LSF's words, from the raw lsb.events records the history
 * database keeps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "evlog.h"
#include "history.h"
#include "jobfmt.h"
#include "lsf.h"
#include "timefmt.h"

void
hist_render_init(struct hist_render *rd, FILE *fp, bool brief,
    const char *indent)
{
	memset(rd, 0, sizeof(*rd));
	rd->fp = fp;
	rd->brief = brief;
	rd->indent = indent;
	rd->state = HS_NONE;
}

/* What the -l timeline needs to remember between records. */
static void
stamp(const struct hist_render *rd, int64_t when)
{
	char tbuf[64];

	fmt_time_long(when, tbuf, sizeof(tbuf));
	fprintf(rd->fp, "%s%s: %s", rd->indent, tbuf, rd->tag);
}

static void
by_user(const struct hist_render *rd)
{
	if (rd->sig_user && *rd->sig_user)
		fprintf(rd->fp, " by the user or administrator <%s>", rd->sig_user);
}

static void
render_new(struct ev_reader *r, struct hist_render *rd)
{
	struct ev_job_new x;
	const struct submit_req *q;

	if (ev_job_new_read(r, &x) < 0)
		goto out;
	q = &x.req;
	stamp(rd, r->when);
	fprintf(rd->fp, "Submitted from host <%s>, to Queue <%s>",
	    q->from_host ? q->from_host : "", x.queue ? x.queue : "");
	if (!rd->brief) {
		fprintf(rd->fp, ", CWD <%s>", q->cwd ? q->cwd : q->sub_cwd ?
		    q->sub_cwd : "");
		if (q->in_file && *q->in_file)
			fprintf(rd->fp, ", Input File <%s>", q->in_file);
		if (q->out_file && *q->out_file)
			fprintf(rd->fp, ", Output File <%s>", q->out_file);
		if (q->err_file && *q->err_file)
			fprintf(rd->fp, ", Error File <%s>", q->err_file);
		if (q->num_procs > 1)
			fprintf(rd->fp, ", %d Processors Requested", q->num_procs);
		if (x.res_req && *x.res_req)
			fprintf(rd->fp, ", Requested Resources <%s>", x.res_req);
	}
	fprintf(rd->fp, ";\n");
	rd->state = q->options2 & SUB2_HOLD ? HS_PSUSP : HS_PEND;
out:
	ev_job_new_release(&x);
}

static void
render_start(struct ev_reader *r, struct hist_render *rd)
{
	struct ev_job_start x;
	char *hosts;

	if (ev_job_start_read(r, &x) < 0)
		goto out;
	stamp(rd, r->when);
	hosts = jobfmt_hosts(&x.exec_hosts, "> <");
	if (x.exec_hosts.n > 1)
		fprintf(rd->fp, "Dispatched to %zu Hosts/Processors <%s>",
		    x.exec_hosts.n, hosts);
	else
		fprintf(rd->fp, "Dispatched to <%s>", hosts);
	if (x.effective_res_req && *x.effective_res_req)
		fprintf(rd->fp, ", Effective RES_REQ <%s>", x.effective_res_req);
	fprintf(rd->fp, ";\n");
	free(hosts);
	rd->state = HS_RUN;
out:
	ev_job_start_release(&x);
}

static void
render_execute(struct ev_reader *r, struct hist_render *rd)
{
	struct ev_job_execute x;

	if (ev_job_execute_read(r, &x) < 0)
		goto out;
	stamp(rd, r->when);
	fprintf(rd->fp, "Starting (Pid %d);\n", x.pid);
	stamp(rd, r->when);
	fprintf(rd->fp, "Running with execution home <%s>, Execution CWD <%s>,"
	    " Execution Pid <%d>;\n", x.exec_home ? x.exec_home : "",
	    x.exec_cwd ? x.exec_cwd : "", x.pid);
out:
	ev_job_execute_release(&x);
}

static void
render_signal(struct ev_reader *r, struct hist_render *rd)
{
	struct ev_job_signal x;

	if (ev_job_signal_read(r, &x) < 0)
		goto out;
	snprintf(rd->sig_user_buf, sizeof(rd->sig_user_buf), "%s",
	    x.user ? x.user : "");
	rd->sig_user = rd->sig_user_buf;
	/* A stop and a resume show as the states they lead to. */
	if (x.signal && (strcmp(x.signal, "STOP") == 0 ||
	    strcmp(x.signal, "CONT") == 0 || strcmp(x.signal, "RESUME") == 0))
		goto out;
	stamp(rd, r->when);
	if (x.flags & (SIG_F_REQUEUE | SIG_F_HOLD))
		fprintf(rd->fp, "Signal <REQUEUE_PEND> requested");
	else
		fprintf(rd->fp, "Signal <%s> requested", x.signal ? x.signal : "");
	by_user(rd);
	fprintf(rd->fp, ";\n");
out:
	ev_job_signal_release(&x);
}

static double
cpu(double c)
{
	return c < 0 ? 0 : c;
}

static void
render_status(struct ev_reader *r, struct hist_render *rd)
{
	struct ev_job_status x;
	enum hist_state to;
	const char *why;

	if (ev_job_status_read(r, &x) < 0)
		goto out;
	to = hist_state_of(x.status);
	if (x.status & JOB_STAT_DONE) {
		stamp(rd, r->when);
		fprintf(rd->fp, "Done successfully. The CPU time used is %.1f"
		    " seconds;\n", cpu(x.cpu_time));
	} else if (x.status & JOB_STAT_EXIT) {
		stamp(rd, r->when);
		if (WIFSIGNALED(x.exit_status))
			fprintf(rd->fp, "Exited by signal %d.",
			    WTERMSIG(x.exit_status));
		else
			fprintf(rd->fp, "Exited with exit code %d.",
			    WEXITSTATUS(x.exit_status));
		fprintf(rd->fp, " The CPU time used is %.1f seconds;\n",
		    cpu(x.cpu_time));
		if ((why = term_reason_name(x.exit_info)) != NULL) {
			stamp(rd, r->when);
			fprintf(rd->fp, "Completed <exit>; %s: %s.\n", why,
			    term_reason_text(x.exit_info));
		}
	}
	if (x.status & JOB_STAT_PDONE) {
		stamp(rd, r->when);
		fprintf(rd->fp, "Post job process done successfully;\n");
	} else if (x.status & JOB_STAT_PERR) {
		stamp(rd, r->when);
		fprintf(rd->fp, "Post job process failed;\n");
	}
	if (to == HS_END || to == rd->state || to == HS_NONE)
		goto done;
	stamp(rd, r->when);
	switch (to) {
	case HS_PSUSP:
		/* Held by LSF after its last pre-execution try. */
		if (x.reason == PEND_PRE_EXEC_LIMIT) {
			fprintf(rd->fp, "%s", pend_reason_text(x.reason));
			break;
		}
		/* FALLTHROUGH */
	case HS_USUSP:
		fprintf(rd->fp, "Suspended");
		by_user(rd);
		break;
	case HS_SSUSP:
		if (rd->state == HS_USUSP) {
			fprintf(rd->fp, "Resumed");
			by_user(rd);
			break;
		}
		fprintf(rd->fp, "Suspended by the LSF system");
		if ((why = susp_reason_text(x.reason)) != NULL && *why)
			fprintf(rd->fp, ": %s", why);
		break;
	case HS_RUN:
		if (rd->state == HS_USUSP) {
			fprintf(rd->fp, "Resumed");
			by_user(rd);
		} else
			fprintf(rd->fp, "Running");
		break;
	case HS_PEND:
		if (rd->state == HS_PSUSP) {
			fprintf(rd->fp, "Resumed");
			by_user(rd);
		} else
			fprintf(rd->fp, "Pending: Job has been requeued");
		break;
	case HS_UNKWN:
		fprintf(rd->fp, "Unknown: the execution host is unreachable");
		break;
	default:
		break;
	}
	fprintf(rd->fp, ";\n");
done:
	rd->state = to;
out:
	ev_job_status_release(&x);
}

void
hist_render_line(struct hist_render *rd, const char *type,
    const char *line, size_t len)
{
	struct ev_reader r;
	const char *why;

	if (evr_init(&r, line, len, &why) < 0)
		return;
	if (strcmp(type, "JOB_NEW") == 0)
		render_new(&r, rd);
	else if (strcmp(type, "JOB_START") == 0)
		render_start(&r, rd);
	else if (strcmp(type, "JOB_EXECUTE") == 0)
		render_execute(&r, rd);
	else if (strcmp(type, "JOB_SIGNAL") == 0)
		render_signal(&r, rd);
	else if (strcmp(type, "JOB_STATUS") == 0)
		render_status(&r, rd);
	else if (strcmp(type, "JOB_SWITCH") == 0) {
		struct ev_job_switch x;

		if (ev_job_switch_read(&r, &x) == 0) {
			stamp(rd, r.when);
			fprintf(rd->fp, "Switched to Queue <%s> by user or"
			    " administrator <%s>;\n", x.queue ? x.queue : "",
			    x.user ? x.user : "");
		}
		ev_job_switch_release(&x);
	} else if (strcmp(type, "JOB_MODIFY2") == 0) {
		struct ev_job_modify x;

		if (ev_job_modify_read(&r, &x) == 0) {
			stamp(rd, r.when);
			fprintf(rd->fp, "Parameters of Job are changed:");
			if ((x.set & MOD_QUEUE) && x.req.queue)
				fprintf(rd->fp, " Job queue changes to : %s;",
				    x.req.queue);
			if ((x.set & MOD_NAME) && x.req.job_name)
				fprintf(rd->fp, " Job name changes to : %s;",
				    x.req.job_name);
			if ((x.set & MOD_PROJECT) && x.req.project)
				fprintf(rd->fp, " Project changes to : %s;",
				    x.req.project);
			if (x.set & MOD_RUNLIMIT)
				fprintf(rd->fp, " Run limit changes;");
			if (x.set & ~(uint32_t)(MOD_QUEUE | MOD_NAME |
			    MOD_PROJECT | MOD_RUNLIMIT))
				fprintf(rd->fp, " Other parameters change;");
			fprintf(rd->fp, " by user or administrator <%s>;\n",
			    x.user ? x.user : "");
		}
		ev_job_modify_release(&x);
	} else if (strcmp(type, "JOB_MOVE") == 0) {
		struct ev_job_move x;

		if (ev_job_move_read(&r, &x) == 0) {
			stamp(rd, r.when);
			fprintf(rd->fp, "Job moved to position %d relative to <%s>"
			    " by user or administrator <%s>;\n", x.position,
			    x.base == 2 ? "bottom" : "top",
			    x.user ? x.user : "");
		}
		ev_job_move_release(&x);
	} else if (strcmp(type, "JOB_FORCE") == 0) {
		struct ev_job_force x;

		if (ev_job_force_read(&r, &x) == 0) {
			stamp(rd, r.when);
			fprintf(rd->fp, "Job is forced to run by user or administrator"
			    " <%s>;\n", x.user ? x.user : "");
		}
		ev_job_force_release(&x);
	} else if (strcmp(type, "MIG") == 0) {
		struct ev_mig x;

		if (ev_mig_read(&r, &x) == 0) {
			stamp(rd, r.when);
			fprintf(rd->fp, "Migration requested by user or administrator"
			    " <%s>;\n", x.user ? x.user : "");
		}
		ev_mig_release(&x);
	} else if (strcmp(type, "JOB_REQUEUE") == 0) {
		stamp(rd, r.when);
		fprintf(rd->fp, "Pending: Job has been requeued;\n");
		rd->state = HS_PEND;
	} else if (strcmp(type, "CHKPNT") == 0) {
		struct ev_chkpnt x;

		if (ev_chkpnt_read(&r, &x) == 0 &&
		    !(x.flags & CHKPNT_F_PERIOD)) {
			stamp(rd, r.when);
			fprintf(rd->fp, x.ok ? "Checkpoint succeeded (actpid %d);\n" :
			    "Checkpoint failed (actpid %d);\n", x.pid);
		}
		ev_chkpnt_release(&x);
	}
}

