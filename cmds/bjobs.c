/*
 * bjobs: show jobs.
 *
 *	bjobs [-a|-d|-p|-r|-s] [-l|-w|-W|-o "fields" [-json]] [-noheader]
 *	      [-u user|all] [-q queue] [-m host] [-J name] [-P project]
 *	      [jobID ...]
 *
 * Workflow tools parse this output, so its shapes are LSF's to the byte:
 * fixed columns by default, the header found by its JOBID and STAT
 * words, "-" for empty -o values, one JSON document with -json, and
 * "Job <N> is not found" on stderr (never stdout) for a missing ID.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "cmd-display.h"
#include "cmd-fields.h"
#include "cmdopt.h"
#include "jobfmt.h"
#include "lsf.h"
#include "policy.h"
#include "timefmt.h"

enum {
	O_A = 1, O_D, O_P, O_R, O_S, O_L, O_W, O_WW, O_NOHDR, O_U, O_Q,
	O_M, O_J, O_PROJ, O_O, O_JSON, O_H, O_V, O_ARR, O_SUM, O_X, O_UF,
	O_G, O_HMS, O_APP
};

static const struct cmdopt opts[] = {
	{ "a", false, O_A }, { "d", false, O_D }, { "p", false, O_P },
	{ "r", false, O_R }, { "s", false, O_S }, { "l", false, O_L },
	{ "w", false, O_W }, { "W", false, O_WW },
	{ "noheader", false, O_NOHDR }, { "u", true, O_U }, { "q", true, O_Q },
	{ "m", true, O_M }, { "J", true, O_J }, { "P", true, O_PROJ },
	{ "o", true, O_O }, { "json", false, O_JSON }, { "h", false, O_H },
	{ "V", false, O_V }, { "A", false, O_ARR }, { "sum", false, O_SUM },
	{ "X", false, O_X }, { "UF", false, O_UF }, { "G", true, O_G },
	{ "hms", false, O_HMS }, { "p0", false, O_P },
	{ "app", true, O_APP },
	/* LSF's options this version does not do: refused by name. */
#define L CMDOPT_UNSUP
	L("aff", false), L("aps", false), L("cname", false),
	L("data", false), L("env", false), L("fwd", false), L("g", true),
	L("gpu", false), L("hostfile", false), L("Jd", true), L("Lp", true),
	L("N", true), L("p1", false), L("p2", false), L("p3", false),
	L("pe", false), L("pei", false), L("pi", false), L("plan", false),
	L("prio", false), L("psum", false), L("rusage", true),
	L("script", false), L("sla", true), L("ss", false), L("WF", false),
	L("WL", false), L("WP", false), L("x", false),
#undef L
	{ NULL, false, 0 }
};

struct jobs {
	struct job_info	*v;
	size_t		 n;
	size_t		 cap;
};

/* musl's stdio buffer is 1 KiB: a big listing into a pipe would be a
 * write for every 60 jobs. */
static char obuf[1 << 16];

static void NORETURN
usage_exit(int code)
{
	fprintf(stderr,
	    "Usage: bjobs [-h] [-V] [-a|-d|-p|-r|-s] [-l|-UF|-w|-W|-A|-sum|"
	    "-o \"fields\" [-json]]\n"
	    "             [-noheader] [-hms] [-X] [-u user_name|all]\n"
	    "             [-q queue_name] [-m host_name] [-J job_name]\n"
	    "             [-P project_name] [-G user_group]\n"
	    "             [-app application_profile_name]\n"
	    "             [jobId | \"jobId[index]\" ...]\n");
	exit(code);
}

/* "*tail" truncation LSF uses for narrow columns. */
static void
col(struct strbuf *sb, const char *s, int width, bool last)
{
	size_t n = s ? strlen(s) : 0;

	if (s == NULL)
		s = "";
	if ((int)n > width) {
		sb_addc(sb, '*');
		sb_adds(sb, s + n - (size_t)(width - 1));
	} else {
		sb_adds(sb, s);
		if (!last)
			for (size_t i = n; (int)i < width; i++)
				sb_addc(sb, ' ');
	}
	if (!last)
		sb_addc(sb, ' ');
}

static void
wide_col(struct strbuf *sb, const char *s, int width)
{
	size_t n = s ? strlen(s) : 0;

	sb_adds(sb, s ? s : "");
	for (size_t i = n; (int)i < width; i++)
		sb_addc(sb, ' ');
	sb_addc(sb, ' ');
}

/*
 * Pollers list a user's jobs many times a second, and jobs submitted
 * together share their submission time: format each time once.
 */
static const char *
short_time(int64_t t)
{
	static int64_t last = -1;
	static char buf[32];

	if (t != last) {
		fmt_time_short(t, buf, sizeof(buf));
		last = t;
	}
	return buf;
}

/* The job's name as the job_name column prints it. */
static void
job_name_col(const struct job_info *j, struct strbuf *sb)
{
	static const struct jfield *f;

	if (f == NULL)
		f = jfield_find("job_name");
	sb_reset(sb);
	f->get(j, NULL, sb);
}

static void
print_default(const struct jobs *js, bool wide, bool noheader)
{
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;

	if (!noheader)
		printf("JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   "
		    "JOB_NAME   SUBMIT_TIME\n");
	for (size_t i = 0; i < js->n; i++) {
		const struct job_info *j = &js->v[i];
		struct strv per_host = STRV_INIT;
		char id[32], *hosts;

		snprintf(id, sizeof(id), "%lld", (long long)j->jobid);
		job_name_col(j, &name);
		sb_reset(&sb);
		if (wide) {
			hosts = jobfmt_hosts(&j->exec_hosts, ":");
			wide_col(&sb, id, 7);
			wide_col(&sb, j->user, 7);
			wide_col(&sb, job_stat_str(j->status), 5);
			wide_col(&sb, j->queue, 10);
			wide_col(&sb, j->from_host, 11);
			wide_col(&sb, hosts, 11);
			wide_col(&sb, name.buf, 10);
			free(hosts);
		} else {
			/* One line per execution host: "2*hostA". */
			if (j->exec_hosts.n > 0) {
				hosts = jobfmt_hosts(&j->exec_hosts, " ");
				strv_split_ws(&per_host, hosts);
				free(hosts);
			}
			sb_addf(&sb, "%-7s ", id);
			col(&sb, j->user, 7, false);
			col(&sb, job_stat_str(j->status), 5, false);
			col(&sb, j->queue, 10, false);
			col(&sb, j->from_host, 11, false);
			col(&sb, per_host.n ? per_host.v[0] : "", 11, false);
			col(&sb, name.buf, 10, false);
		}
		sb_adds(&sb, short_time(j->submit_time));
		sb_addc(&sb, '\n');
		fwrite(sb.buf, 1, sb.len, stdout);
		for (size_t k = 1; k < per_host.n; k++)
			printf("%45s%s\n", "", per_host.v[k]);
		strv_release(&per_host);
	}
	sb_release(&sb);
	sb_release(&name);
}

static void
print_W(const struct jobs *js, bool noheader)
{
	if (!noheader)
		printf("JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   "
		    "JOB_NAME   SUBMIT_TIME  PROJ_NAME CPU_USED MEM SWAP PIDS "
		    "START_TIME FINISH_TIME\n");
	for (size_t i = 0; i < js->n; i++) {
		const struct job_info *j = &js->v[i];
		struct strbuf sb = STRBUF_INIT, mem = STRBUF_INIT;
		char id[32], sub[32], st[32], fin[32], cpu[32], *hosts;
		struct strbuf name = STRBUF_INIT;

		snprintf(id, sizeof(id), "%lld", (long long)j->jobid);
		fmt_time_w(j->submit_time, sub, sizeof(sub));
		fmt_time_w(j->start_time, st, sizeof(st));
		fmt_time_w(JOB_STAT_FINISHED(j->status) ? j->end_time : 0, fin,
		    sizeof(fin));
		if (j->start_time > 0)
			fmt_cpu_hms(j->cpu_time, cpu, sizeof(cpu));
		else
			strcpy(cpu, "-");
		hosts = jobfmt_hosts(&j->exec_hosts, ":");
		job_name_col(j, &name);
		wide_col(&sb, id, 7);
		wide_col(&sb, j->user, 7);
		wide_col(&sb, job_stat_str(j->status), 5);
		wide_col(&sb, j->queue, 10);
		wide_col(&sb, j->from_host, 11);
		wide_col(&sb, *hosts ? hosts : "-", 11);
		wide_col(&sb, name.buf, 10);
		wide_col(&sb, sub, 12);
		wide_col(&sb, j->project, 9);
		wide_col(&sb, cpu, 8);
		if (JOB_STAT_STARTED(j->status) && j->mem_kb >= 0)
			sb_addf(&mem, "%lld", (long long)j->mem_kb);
		else
			sb_adds(&mem, "-");
		wide_col(&sb, mem.buf, 3);
		wide_col(&sb, j->swap_kb >= 0 ? "0" : "-", 4);
		if (j->pids.n) {
			char *p = strv_join(&j->pids, ",");

			wide_col(&sb, p, 4);
			free(p);
		} else {
			wide_col(&sb, "-", 4);
		}
		wide_col(&sb, st, 10);
		sb_adds(&sb, fin);
		printf("%s\n", sb.buf);
		free(hosts);
		sb_release(&sb);
		sb_release(&mem);
		sb_release(&name);
	}
}

/* One reason per line, as bjobs -p, -s and -l show them. */
static void
print_reasons(const struct job_info *j)
{
	if (j->status & (JOB_STAT_USUSP | JOB_STAT_SSUSP)) {
		char buf[160];

		if (j->susp_reason)
			printf(" %s;\n", susp_reason_fmt(j->susp_reason,
			    j->susp_sub, j->susp_ext, buf, sizeof(buf)));
		return;
	}
	if (j->pend_reason != PEND_NO_HOST) {
		printf(" %s;\n", pend_reason_text(j->pend_reason));
		return;
	}
	if (j->nhost_reasons == 0)
		printf(" %s;\n", pend_reason_text(PEND_NEW_JOB));
	for (uint32_t i = 0; i < j->nhost_reasons; i++)
		printf(" %s: %d host%s;\n",
		    host_reason_text(j->host_reasons[i].reason),
		    j->host_reasons[i].count,
		    j->host_reasons[i].count == 1 ? "" : "s");
}

static void
print_pending(const struct jobs *js, bool noheader)
{
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;

	if (!noheader)
		printf("JOBID   USER    STAT  QUEUE       FROM_HOST      "
		    "JOB_NAME           SUBMIT_TIME\n");
	for (size_t i = 0; i < js->n; i++) {
		const struct job_info *j = &js->v[i];
		char id[32];

		snprintf(id, sizeof(id), "%lld", (long long)j->jobid);
		job_name_col(j, &name);
		sb_reset(&sb);
		sb_addf(&sb, "%-7s ", id);
		col(&sb, j->user, 7, false);
		col(&sb, job_stat_str(j->status), 5, false);
		col(&sb, j->queue, 11, false);
		col(&sb, j->from_host, 14, false);
		col(&sb, name.buf, 18, false);
		sb_adds(&sb, short_time(j->submit_time));
		sb_addc(&sb, '\n');
		fwrite(sb.buf, 1, sb.len, stdout);
		if (JOB_STAT_PENDING(j->status) || JOB_STAT_SUSPENDED(j->status))
			print_reasons(j);
	}
	sb_release(&sb);
	sb_release(&name);
}

/*
 * bjobs -l: the thresholds that apply to the job, those of its queue and,
 * once it has started, of its execution hosts too, each index at the
 * more restrictive value (what keeps it running, or resumes it).
 * Without an answer (or with one that does not parse) the jobs are shown
 * without them.
 */
static struct queue_list queues;
static struct host_list hosts;

/* Every queue or host (an empty name list): true with the reply when
 * it is of type want; the caller releases *rp either way. */
static bool
query_all(uint16_t type, uint16_t want, struct reply *rp)
{
	struct wbuf w;
	bool ok;
	int fd;

	wbuf_init(&w);
	wbuf_begin(&w, type, 3, 0);
	put_u32(&w, 0);
	wbuf_end_frame(&w);
	fd = mbd_connect();
	ok = mbd_call(fd, &w, rp) == 0 && rp->hdr.type == want;
	wbuf_release(&w);
	close(fd);
	return ok;
}

static void
fetch_queues(void)
{
	struct reply rp;

	if (query_all(MSG_QUEUE_QUERY, MSG_QUEUE_LIST, &rp) &&
	    (!queue_list_unpack(&rp.r, &queues) || rbuf_end(&rp.r) < 0))
		queue_list_release(&queues);
	reply_release(&rp);
}

static void
fetch_hosts(void)
{
	struct reply rp;

	if (query_all(MSG_HOST_QUERY, MSG_HOST_LIST, &rp) &&
	    (!host_list_unpack(&rp.r, &hosts) || rbuf_end(&rp.r) < 0))
		host_list_release(&hosts);
	reply_release(&rp);
}

static const struct queue_info *
queue_of(const char *name)
{
	for (uint32_t i = 0; name && i < queues.n; i++)
		if (queues.v[i].name && strcmp(queues.v[i].name, name) == 0)
			return &queues.v[i];
	return NULL;
}

static const struct host_info *
host_of(const char *name)
{
	for (uint32_t i = 0; name && i < hosts.n; i++)
		if (hosts.v[i].name && strcmp(hosts.v[i].name, name) == 0)
			return &hosts.v[i];
	return NULL;
}

static void
job_thresholds(const struct job_info *j, const struct queue_info *q,
    struct thresholds *t)
{
	struct thresholds one;

	memset(t, 0, sizeof(*t));
	if (q)
		thresholds_from_wire(t, q->sched, q->stop, q->sched_set,
		    q->stop_set, &q->ext_thr);
	if (!JOB_STAT_STARTED(j->status) && !JOB_STAT_FINISHED(j->status))
		return;
	for (size_t i = 0; i < j->exec_hosts.n; i++) {
		const struct host_info *h = host_of(j->exec_hosts.v[i]);

		if (h == NULL)
			continue;
		thresholds_from_wire(&one, h->sched, h->stop, h->sched_set,
		    h->stop_set, &h->ext_thr);
		policy_thresholds_merge(t, &one);
	}
}

/*
 * The limits that apply to the job (its own or its queue's), each as a
 * " NAME" line and a value line: times in minutes of the host they are
 * measured on, memory in LSF_UNIT_FOR_LIMITS.
 */
static void
print_limits(const struct job_info *j)
{
	static const struct {
		const char	*name;
		int		 lim;
	} times[] = {
		{ "CPULIMIT", LSF_RLIMIT_CPU }, { "RUNLIMIT", LSF_RLIMIT_RUN },
	};
	const char *host = j->from_host ? j->from_host : "";

	for (size_t i = 0; i < ARRAY_SIZE(times); i++)
		if (j->rlimits[times[i].lim] > 0)
			printf("\n %s\n %.1f min of %s\n", times[i].name,
			    (double)j->rlimits[times[i].lim] / 60.0, host);
	if (j->rlimits[LSF_RLIMIT_RSS] > 0) {
		const struct lsf_config *c = client_config(CONF_SHARED);
		struct strbuf sb = STRBUF_INIT;

		jobfmt_limit_mem(j->rlimits[LSF_RLIMIT_RSS],
		    c->lsf.unit_for_limits, &sb);
		printf("\n MEMLIMIT\n%s\n", sb.buf);
		sb_release(&sb);
	}
}

static void
print_long(const struct job_info *j)
{
	struct strbuf sb = STRBUF_INIT, tmp = STRBUF_INIT;
	const struct queue_info *q = queue_of(j->queue);
	struct thresholds thr;
	char id[32], when[64], *cwd;
	int64_t now = time(NULL);

	jobfmt_id(j, id, sizeof(id));
	printf("\n");
	sb_addf(&sb, "Job <%s>, ", id);
	if (j->options & SUB_JOB_NAME) {
		jfield_find("job_name")->get(j, NULL, &tmp);
		sb_addf(&sb, "Job Name <%s>, ", tmp.buf);
		sb_reset(&tmp);
	}
	sb_addf(&sb, "User <%s>, Project <%s>, ", j->user,
	    j->project ? j->project : "default");
	if (j->app)
		sb_addf(&sb, "Application <%s>, ", j->app);
	if (j->mail_user)
		sb_addf(&sb, "Mail <%s>, ", j->mail_user);
	sb_addf(&sb, "Status <%s>, Queue <%s>, ", job_stat_str(j->status),
	    j->queue);
	if (j->user_priority > 0)
		sb_addf(&sb, "Job Priority <%d>, ", j->user_priority);
	if (j->depend_cond)
		sb_addf(&sb, "Dependency Condition <%s>, ", j->depend_cond);
	jfield_find("command")->get(j, NULL, &tmp);
	sb_addf(&sb, "Command <%s>", tmp.buf);
	sb_reset(&tmp);
	jobfmt_wrap(stdout, sb.buf);

	/* Submission. */
	sb_reset(&sb);
	jobfmt_stamp(&sb, j->submit_time);
	cwd = jobfmt_home_path(j->cwd, j->sub_home);
	sb_addf(&sb, "Submitted from host <%s>",
	    j->from_host ? j->from_host : "");
	if (j->begin_time > 0) {
		fmt_time_long(j->begin_time, when, sizeof(when));
		sb_addf(&sb, ", Specified Start Time <%s>", when);
	}
	if (j->term_time > 0) {
		fmt_time_long(j->term_time, when, sizeof(when));
		sb_addf(&sb, ", Specified Termination Time <%s>", when);
	}
	sb_addf(&sb, ", CWD <%s>", cwd);
	free(cwd);
	if (j->in_file)
		sb_addf(&sb, ", Input File <%s>", j->in_file);
	if (j->out_file)
		sb_addf(&sb, ", Output File <%s>", j->out_file);
	if (j->err_file)
		sb_addf(&sb, ", Error File <%s>", j->err_file);
	if (j->options & SUB_EXCLUSIVE)
		sb_adds(&sb, ", Exclusive Execution");
	if (j->options & SUB_RERUNNABLE)
		sb_adds(&sb, ", Re-runnable");
	if (j->chkpnt_dir) {
		if (j->chkpnt_period > 0)
			sb_addf(&sb, ", Checkpoint period %lld min.",
			    (long long)(j->chkpnt_period / 60));
		sb_addf(&sb, ", Checkpoint directory <%s>", j->chkpnt_dir);
		if (j->chkpnt_method)
			sb_addf(&sb, ", Checkpoint method <%s>",
			    j->chkpnt_method);
	}
	if ((j->options & SUB_NOTIFY_BEGIN) && (j->options & SUB_NOTIFY_END))
		sb_adds(&sb, ", Notify when job begins/ends");
	else if (j->options & SUB_NOTIFY_BEGIN)
		sb_adds(&sb, ", Notify when job begins");
	else if (j->options & SUB_NOTIFY_END)
		sb_adds(&sb, ", Notify when job ends");
	if (j->num_procs > 1)
		sb_addf(&sb, ", %d Task(s)", j->num_procs);
	if (j->res_req && *j->res_req)
		sb_addf(&sb, ", Requested Resources <%s>", j->res_req);
	if (j->login_shell && *j->login_shell)
		sb_addf(&sb, ", Login Shell <%s>", j->login_shell);
	if (j->pre_exec && *j->pre_exec)
		sb_addf(&sb, ", Pre-execute Command <%s>", j->pre_exec);
	for (size_t i = 0; i < j->asked_hosts.n; i++)
		sb_addf(&sb, "%s<%s>", i ? ", " : ", Specified Hosts ",
		    j->asked_hosts.v[i]);
	sb_addc(&sb, ';');
	jobfmt_wrap(stdout, sb.buf);

	print_limits(j);

	/* The run. */
	if (j->start_time > 0) {
		char *h1 = jobfmt_hosts(&j->exec_hosts, "> <");

		sb_reset(&sb);
		jobfmt_stamp(&sb, j->start_time);
		sb_addf(&sb, "Started %zu Task(s) on Host(s) <%s>, Allocated "
		    "%zu Slot(s) on Host(s) <%s>", j->exec_hosts.n, h1,
		    j->exec_hosts.n, h1);
		if (j->exec_home && *j->exec_home)
			sb_addf(&sb, ", Execution Home <%s>", j->exec_home);
		if (j->exec_cwd && *j->exec_cwd)
			sb_addf(&sb, ", Execution CWD <%s>", j->exec_cwd);
		sb_addc(&sb, ';');
		jobfmt_wrap(stdout, sb.buf);
		free(h1);
	}
	if (JOB_STAT_STARTED(j->status) && j->mem_kb >= 0) {
		sb_reset(&sb);
		jobfmt_stamp(&sb, now);
		sb_adds(&sb, "Resource usage collected.");
		sb_reset(&tmp);
		jobfmt_mem(j->mem_kb, &tmp);
		if (jobfmt_unformatted) {
			/* -UF: the usage on the stamped line, its parts
			 * ended by semicolons, as LSF's. */
			sb_addf(&sb, " MEM: %s;  SWAP: 0 Mbytes;  NTHREAD: 1;",
			    tmp.buf);
			if (j->pgid > 0) {
				char *p = strv_join(&j->pids, " ");

				sb_addf(&sb, "  PGID: %d;  PIDs: %s;", j->pgid,
				    p);
				free(p);
			}
			jobfmt_wrap(stdout, sb.buf);
		} else {
			jobfmt_wrap(stdout, sb.buf);
			printf("%21sMEM: %s;", "", tmp.buf);
			printf("  SWAP: 0 Mbytes;  NTHREAD: 1\n");
			if (j->pgid > 0) {
				char *p = strv_join(&j->pids, " ");

				printf("%21sPGID: %d;  PIDs: %s\n", "",
				    j->pgid, p);
				free(p);
			}
		}
	}
	if (JOB_STAT_FINISHED(j->status)) {
		const char *rn = term_reason_name(j->exit_reason);

		sb_reset(&sb);
		jobfmt_stamp(&sb, j->end_time);
		if (j->status & JOB_STAT_DONE)
			sb_addf(&sb, "Done successfully. The CPU time used is "
			    "%.1f seconds.", j->cpu_time);
		else if (j->start_time > 0)
			sb_addf(&sb, "Exited with exit code %d. The CPU time "
			    "used is %.1f seconds.", jobfmt_exit_code(j),
			    j->cpu_time);
		else
			sb_addf(&sb, "Exited. The CPU time used is %.1f "
			    "seconds.", j->cpu_time);
		jobfmt_wrap(stdout, sb.buf);
		sb_reset(&sb);
		jobfmt_stamp(&sb, j->end_time);
		sb_addf(&sb, "Completed <%s>",
		    j->status & JOB_STAT_DONE ? "done" : "exit");
		if (rn)
			sb_addf(&sb, "; %s: %s", rn,
			    term_reason_text(j->exit_reason));
		sb_addc(&sb, '.');
		jobfmt_wrap(stdout, sb.buf);
	}
	if (j->max_mem_kb >= 0 && j->start_time > 0) {
		struct strbuf a = STRBUF_INIT;

		sb_reset(&tmp);
		jobfmt_mem(j->max_mem_kb, &tmp);
		jobfmt_mem(j->avg_mem_kb, &a);
		printf("\n MEMORY USAGE:\n MAX MEM: %s;  AVG MEM: %s\n",
		    tmp.buf, a.buf);
		sb_release(&a);
	}
	if (j->exceptions) {
		/* The job exceptions of its queue it has triggered. */
		printf("\n EXCEPTION STATUS: ");
		if (j->exceptions & JOB_EXC_OVERRUN)
			printf(" overrun");
		if (j->exceptions & JOB_EXC_UNDERRUN)
			printf(" underrun");
		if (j->exceptions & JOB_EXC_IDLE)
			printf(" idle");
		printf("\n");
	}
	if (j->nrequeue > 0)
		printf("\n Requeued %d time%s by REQUEUE_EXIT_VALUES.\n",
		    j->nrequeue, j->nrequeue == 1 ? "" : "s");
	if (JOB_STAT_PENDING(j->status)) {
		printf("\n PENDING REASONS:\n");
		print_reasons(j);
	} else if (j->status & (JOB_STAT_USUSP | JOB_STAT_SSUSP)) {
		printf("\n SUSPENDING REASONS:\n");
		print_reasons(j);
	}
	printf("\n SCHEDULING PARAMETERS:\n");
	job_thresholds(j, q, &thr);
	disp_thresholds(stdout, &thr);
	if (j->effective_res_req) {
		sb_reset(&tmp);
		sb_adds(&tmp, j->effective_res_req);
		sb_rtrim(&tmp);
		printf("\n RESOURCE REQUIREMENT DETAILS:\n");
		printf(" Combined: %s\n Effective: %s\n", tmp.buf, tmp.buf);
	}
	sb_release(&sb);
	sb_release(&tmp);
}

static void
print_json(const struct jobs *js, const struct jformat *jf,
    const struct job_id *miss, uint32_t nmiss)
{
	struct strbuf v = STRBUF_INIT;
	json_t *recs, *doc = fmt_json_doc("bjobs", "JOBS", js->n + nmiss,
	    &recs);

	for (size_t i = 0; i < js->n; i++) {
		json_t *r = json_object();

		for (int c = 0; c < jf->ncols; c++) {
			sb_reset(&v);
			jf->cols[c].f->get(&js->v[i], jf->cols[c].unit, &v);
			json_object_set_new(r, jf->cols[c].f->header,
			    fmt_json_str(v.buf ? v.buf : ""));
		}
		json_array_append_new(recs, r);
	}
	for (uint32_t i = 0; i < nmiss; i++) {
		char id[48], msg[96];
		json_t *r = json_object();

		if (miss[i].idx > 0)
			snprintf(id, sizeof(id), "%lld[%d]",
			    (long long)miss[i].jobid, miss[i].idx);
		else
			snprintf(id, sizeof(id), "%lld",
			    (long long)miss[i].jobid);
		snprintf(msg, sizeof(msg), "Job <%s> is not found", id);
		json_object_set_new(r, "JOBID", json_string(id));
		json_object_set_new(r, "ERROR", json_string(msg));
		json_array_append_new(recs, r);
	}
	fmt_json_print(doc);
	sb_release(&v);
}

static void
print_fields(const struct jobs *js, const struct jformat *jf, bool noheader)
{
	struct strbuf line = STRBUF_INIT, v = STRBUF_INIT;
	const char *sep = jf->delimiter ? jf->delimiter : " ";

	if (!noheader) {
		for (int c = 0; c < jf->ncols; c++) {
			const struct jcol *cl = &jf->cols[c];

			if (c)
				sb_adds(&line, sep);
			if (cl->width)
				sb_addf(&line, cl->right ? "%*.*s" : "%-*.*s",
				    cl->width, cl->width, cl->f->header);
			else
				sb_adds(&line, cl->f->header);
		}
		if (!jf->delimiter)
			sb_rtrim(&line);
		printf("%s\n", line.buf);
	}
	for (size_t i = 0; i < js->n; i++) {
		sb_reset(&line);
		for (int c = 0; c < jf->ncols; c++) {
			const struct jcol *cl = &jf->cols[c];
			const char *s;

			sb_reset(&v);
			cl->f->get(&js->v[i], cl->unit, &v);
			s = v.len ? v.buf : "-";
			if (c)
				sb_adds(&line, sep);
			if (cl->width && (int)strlen(s) > cl->width) {
				/* Too long: keep the tail, as LSF does. */
				sb_addc(&line, '*');
				sb_adds(&line, s + strlen(s) -
				    (size_t)(cl->width - 1));
			} else if (cl->width) {
				sb_addf(&line, cl->right ? "%*s" : "%-*s",
				    cl->width, s);
			} else {
				sb_adds(&line, s);
			}
		}
		if (!jf->delimiter)
			sb_rtrim(&line);
		printf("%s\n", line.buf);
	}
	sb_release(&line);
	sb_release(&v);
}

static void
print_missing(const struct job_id *miss, uint32_t nmiss)
{
	for (uint32_t i = 0; i < nmiss; i++) {
		if (miss[i].idx > 0)
			fprintf(stderr, "Job <%lld[%d]> is not found\n",
			    (long long)miss[i].jobid, miss[i].idx);
		else
			fprintf(stderr, "Job <%lld> is not found\n",
			    (long long)miss[i].jobid);
	}
}

/* Mark the IDs asked for that this reply names (listed or missing). */
static void
mark_seen(const struct job_query *q, bool *seen, int64_t jobid)
{
	for (uint32_t i = 0; i < q->nids; i++)
		if (q->ids[i].jobid == jobid)
			seen[i] = true;
}

/*
 * bjobs -A lists arrays only: an ID that mbatchd neither listed nor
 * reported missing is a job that is not an array (LSF's message).
 */
static uint32_t
print_not_arrays(const struct job_query *q, const bool *seen)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < q->nids; i++)
		if (!seen[i]) {
			fprintf(stderr, "Job <%lld> is not a job array\n",
			    (long long)q->ids[i].jobid);
			n++;
		}
	return n;
}

static const char *
none_message(uint32_t flags)
{
	if (flags & JQ_PEND)
		return "No pending job found";
	if (flags & JQ_RUN)
		return "No running job found";
	if (flags & JQ_SUSP)
		return "No suspended job found";
	if (flags & (JQ_ALL | JQ_DONE))
		return "No job found";
	return "No unfinished job found";
}

/* bjobs -sum: the job slots of unfinished jobs by state. */
enum { SUM_RUN, SUM_SSUSP, SUM_USUSP, SUM_UNKNOWN, SUM_PEND, SUM_FWD_PEND,
	SUM_PSUSP, SUM_N };

static void
count_slots(const struct jobs *js, int64_t sum[SUM_N])
{
	for (size_t i = 0; i < js->n; i++) {
		const struct job_info *j = &js->v[i];
		int64_t n = j->num_procs > 0 ? j->num_procs : 1;

		if (j->status & JOB_STAT_UNKWN)
			sum[SUM_UNKNOWN] += n;
		else if (j->status & JOB_STAT_RUN)
			sum[SUM_RUN] += n;
		else if (j->status & JOB_STAT_SSUSP)
			sum[SUM_SSUSP] += n;
		else if (j->status & JOB_STAT_USUSP)
			sum[SUM_USUSP] += n;
		else if (j->status & JOB_STAT_PSUSP)
			sum[SUM_PSUSP] += n;
		else if (j->status & JOB_STAT_PEND)
			sum[SUM_PEND] += n;
	}
}

static void
print_sum(const int64_t sum[SUM_N])
{
	static const char *const head[SUM_N] = { "RUN", "SSUSP", "USUSP",
	    "UNKNOWN", "PEND", "FWD_PEND", "PSUSP" };
	static const int width[SUM_N] = { 11, 12, 11, 11, 11, 10, 9 };

	for (int i = 0; i < SUM_N; i++)
		printf("%-*s", width[i], head[i]);
	printf("\n");
	for (int i = 0; i < SUM_N; i++)
		printf("%-*lld", width[i], (long long)sum[i]);
	printf("\n");
}

/* bjobs -A */
static void
print_arrays(const struct jobs *js, bool noheader)
{
	if (!noheader)
		printf("%-8s %-11s %-7s %5s %4s %4s %4s %4s %5s %5s %5s\n",
		    "JOBID", "ARRAY_SPEC", "OWNER", "NJOBS", "PEND", "DONE",
		    "RUN", "EXIT", "SSUSP", "USUSP", "PSUSP");
	for (size_t i = 0; i < js->n; i++) {
		const struct job_info *j = &js->v[i];
		const int64_t *c = j->array_counts;

		printf("%-8lld %-11s %-7s %5lld %4lld %4lld %4lld %4lld "
		    "%5lld %5lld %5lld\n", (long long)j->jobid,
		    j->job_name ? j->job_name : "", j->user ? j->user : "",
		    (long long)c[JA_NJOBS], (long long)c[JA_PEND],
		    (long long)c[JA_DONE], (long long)c[JA_RUN],
		    (long long)c[JA_EXIT], (long long)c[JA_SSUSP],
		    (long long)c[JA_USUSP], (long long)c[JA_PSUSP]);
	}
}

/* What each form prints, so that mbatchd sends only that. */
#define JI_SHORT	(JI_BASE | JI(user) | JI(queue) | JI(from_host) |	\
	JI(exec_hosts) | JI(job_name) | JI(submit_time))
#define JI_WIDE		(JI_SHORT | JI(project) | JI(start_time) |	\
	JI(end_time) | JI(cpu_time) | JI(mem_kb) | JI(swap_kb) | JI(pids))
#define JI_PENDING	(JI_SHORT | JI(susp_reason) | JI(susp_sub) |	\
	JI(susp_ext) | JI(pend_reason) | JI(host_reasons))
#define JI_ARRAYS	(JI_BASE | JI(job_name) | JI(user) |		\
	JI(array_counts))

static uint64_t
fields_wanted(const struct jformat *jf, uint32_t flags, bool longf,
    bool Wide)
{
	if (longf)
		return JI_ALL;
	if (flags & JQ_ARRAY)
		return JI_ARRAYS;
	if (jf)
		return jformat_fields(jf);
	if (flags & (JQ_PEND | JQ_SUSP))
		return JI_PENDING;
	return Wide ? JI_WIDE : JI_SHORT;
}

/* One page of the reply, in any form but -l and -json. */
static void
print_page(const struct jobs *js, const struct jformat *jf,
    const char *format, uint32_t flags, bool wide, bool Wide, bool noheader)
{
	if (flags & JQ_ARRAY)
		print_arrays(js, noheader);
	else if (format)
		print_fields(js, jf, noheader);
	else if (flags & (JQ_PEND | JQ_SUSP))
		print_pending(js, noheader);
	else if (Wide)
		print_W(js, noheader);
	else
		print_default(js, wide, noheader);
}

/* LSB_BJOBS_CONSISTENT_EXIT_CODE=Y: exit 0 only when every job asked for
 * was listed (IBM's lsf.conf page); the environment overrides lsf.conf. */
static bool
consistent_exit(void)
{
	const char *v = getenv("LSB_BJOBS_CONSISTENT_EXIT_CODE");

	if (v == NULL)
		v = lsf_conf_get(&client_config(CONF_SHARED)->lsf,
		    "LSB_BJOBS_CONSISTENT_EXIT_CODE");
	return v != NULL && (v[0] == 'y' || v[0] == 'Y');
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct job_query q;
	struct jformat jf;
	struct jobs js = { 0 };
	struct job_id *miss = NULL;
	struct job_list jl = { 0 };
	uint32_t nmiss = 0, jcap = 0;
	size_t nlisted = 0;
	bool longf = false, wide = false, Wide = false, noheader = false,
	    json = false, sum = false;
	int64_t sums[SUM_N] = { 0 };
	const char *format = NULL, *project = NULL, *ugroup = NULL, *v;
	char **ids;
	int nids, id, fd;
	bool *seen = NULL;	/* -A: the IDs asked for that came back */
	struct wbuf w;
	struct reply rp;
	struct msg_error e;

	progname = "bjobs";
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	memset(&q, 0, sizeof(q));
	memset(&jf, 0, sizeof(jf));
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &v)) != 0) {
		switch (id) {
		case O_A: q.flags |= JQ_ALL; break;
		case O_D: q.flags |= JQ_DONE; break;
		case O_P: q.flags |= JQ_PEND; break;
		case O_R: q.flags |= JQ_RUN; break;
		case O_S: q.flags |= JQ_SUSP; break;
		case O_L: longf = true; q.flags |= JQ_LONG; break;
		case O_W: wide = true; break;
		case O_WW: Wide = true; break;
		case O_NOHDR: noheader = true; break;
		case O_U: q.user = xstrdup(v); break;
		case O_Q: q.queue = xstrdup(v); break;
		case O_M: q.host = xstrdup(v); break;
		case O_J: q.job_name = xstrdup(v); break;
		case O_PROJ: project = v; break;	/* filtered below */
		case O_APP: q.app = xstrdup(v); break;
		case O_O: format = v; break;
		case O_JSON: json = true; break;
		case O_ARR: q.flags |= JQ_ARRAY; break;
		case O_SUM: sum = true; break;
		case O_X: break;	/* host groups are never condensed */
		case O_UF:
			longf = true;
			q.flags |= JQ_LONG;
			jobfmt_unformatted = true;
			break;
		case O_G: ugroup = v; break;	/* filtered below */
		case O_HMS: jobfmt_hms = true; break;
		case O_V:
			print_version();
			exit(0);
		case O_H:
			usage_exit(0);
		default:
			if (id == -1)
				fprintf(stderr, "bjobs: bad option %s\n",
				    st.bad ? st.bad : "");
			usage_exit(255);
		}
	}
	ids = cmdopt_rest(&st, &nids);
	for (int i = 0; i < nids; i++)
		if (parse_job_id(ids[i], &q.ids, &q.nids) < 0) {
			fprintf(stderr, "%s: Bad job ID\n", ids[i]);
			exit(255);
		}
	if (sum) {
		/* Unfinished jobs only, whatever else was asked. */
		q.flags &= ~(uint32_t)(JQ_ALL | JQ_DONE | JQ_LONG | JQ_ARRAY);
		longf = wide = Wide = json = false;
		format = NULL;
	} else if (format == NULL && !longf && !wide && !Wide &&
	    !(q.flags & JQ_PEND)) {
		/* The environment wins over lsf.conf. */
		format = getenv("LSB_BJOBS_FORMAT");
		if (format == NULL)
			format = lsf_conf_get(&client_config(CONF_SHARED)->lsf,
			    "LSB_BJOBS_FORMAT");
	}
	if (json && format == NULL) {
		fprintf(stderr, "bjobs: -json must be used with -o\n");
		exit(255);
	}
	if (format) {
		char *bad = NULL;

		if (jformat_parse(&jf, format, &bad) < 0) {
			fprintf(stderr, "%s: Illegal field name.\n",
			    bad ? bad : format);
			exit(255);
		}
		/* Long fields need the long reply. */
		for (int i = 0; i < jf.ncols; i++)
			if (strcmp(jf.cols[i].f->name, "command") == 0)
				q.flags |= JQ_LONG;
	}
	q.fields = fields_wanted(format ? &jf : NULL, q.flags, longf, Wide);
	if (project)
		q.fields |= JI(project);
	if (ugroup)
		q.fields |= JI(user_group);
	if (sum)
		q.fields |= JI(num_procs);

	if ((q.flags & JQ_ARRAY) && q.nids > 0 && !json)
		seen = xcalloc(q.nids, sizeof(*seen));
	wbuf_init(&w);
	job_query_frame(&w, MSG_JOB_QUERY, 1, &q);
	fd = mbd_connect();
	if (mbd_call(fd, &w, &rp) < 0) {
		fprintf(stderr, "bjobs: lost the connection to mbatchd\n");
		exit(255);
	}
	for (;;) {
		uint32_t n = 0;

		if (reply_is_error(&rp, &e)) {
			if (e.context)
				fprintf(stderr, "%s: ", e.context);
			fprintf(stderr, "%s\n", lsb_errmsg(e.code));
			exit(255);
		}
		if (rp.hdr.type != MSG_JOB_LIST ||
		    !job_list_unpack_reuse(&rp.r, &jl, &jcap) ||
		    rbuf_end(&rp.r) < 0) {
			fprintf(stderr, "bjobs: unexpected reply from mbatchd\n");
			exit(255);
		}
		for (uint32_t i = 0; seen && i < jl.njobs; i++)
			mark_seen(&q, seen, jl.jobs[i].jobid);
		for (uint32_t i = 0; seen && i < jl.nmissing; i++)
			mark_seen(&q, seen, jl.missing[i].jobid);
		for (uint32_t i = 0; i < jl.njobs; i++) {
			if ((project && !streq(project, jl.jobs[i].project)) ||
			    (ugroup && !streq(ugroup, jl.jobs[i].user_group)))
				job_info_release(&jl.jobs[i]);
			else if (n++ != i)
				jl.jobs[n - 1] = jl.jobs[i];
		}
		if (jl.nmissing && json) {
			miss = jl.missing;
			nmiss = jl.nmissing;
		} else {
			print_missing(jl.missing, jl.nmissing);
			nmiss += jl.nmissing;
			free(jl.missing);
		}
		/*
		 * A page at a time, straight from the reply, so that a
		 * listing of every job holds one page and not all of them.
		 * The JSON form counts its records first, and -l asks
		 * mbatchd for the queues: those keep every page.
		 */
		if (json || longf) {
			for (uint32_t i = 0; i < n; i++) {
				if (js.n == js.cap) {
					js.cap = js.cap ? js.cap * 2 : 256;
					js.v = xrealloc(js.v,
					    js.cap * sizeof(*js.v));
				}
				js.v[js.n++] = jl.jobs[i];
			}
		} else if (n > 0) {
			struct jobs page = { jl.jobs, n, n };

			if (sum)
				count_slots(&page, sums);
			else
				print_page(&page, &jf, format, q.flags, wide,
				    Wide, noheader || nlisted > 0);
			nlisted += n;
			for (uint32_t i = 0; i < n; i++)
				job_info_release(&jl.jobs[i]);
		}
		if (!(rp.hdr.flags & WIRE_F_MORE))
			break;
		if (mbd_next(fd, &rp) < 0) {
			fprintf(stderr, "bjobs: lost the connection to mbatchd\n");
			exit(255);
		}
	}
	reply_release(&rp);
	free(jl.jobs);
	close(fd);

	if (sum) {
		/* A summary, of nothing too: never "No ... job found". */
		print_sum(sums);
		return 0;
	}
	nlisted += js.n;
	if (seen)
		nmiss += print_not_arrays(&q, seen);
	if (nlisted == 0 && !json) {
		if (nids == 0)
			fprintf(stderr, "%s\n", none_message(q.flags));
		/* LSF's default: "No ... job found" is an answer (exit 0),
		 * every ID given being unknown is not; with
		 * LSB_BJOBS_CONSISTENT_EXIT_CODE=Y nothing found is 255. */
		if (consistent_exit())
			return 255;
		return nids > 0 && nmiss >= q.nids ? 255 : 0;
	}
	if (nmiss > 0 && consistent_exit())
		return 255;
	if (json)
		print_json(&js, &jf, miss, nmiss);
	else if (longf) {
		fetch_queues();
		for (size_t i = 0; i < js.n; i++)
			if (js.v[i].exec_hosts.n > 0) {
				fetch_hosts();
				break;
			}
		for (size_t i = 0; i < js.n; i++)
			print_long(&js.v[i]);
	}
	return 0;
}
