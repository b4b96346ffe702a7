/* Job fields and long-format lines, as LSF's commands print them. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>

#include "jobfmt.h"
#include "lsf.h"
#include "timefmt.h"

bool	 jobfmt_hms;
bool	 jobfmt_unformatted;

#define WRAP_FIRST	79
#define WRAP_INDENT	21
#define WRAP_REST	58

void
jobfmt_id(const struct job_info *j, char *buf, size_t len)
{
	if (j->idx > 0)
		snprintf(buf, len, "%lld[%d]", (long long)j->jobid, j->idx);
	else
		snprintf(buf, len, "%lld", (long long)j->jobid);
}

char *
jobfmt_hosts(const struct strv *slots, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < slots->n;) {
		size_t k = i;

		while (k < slots->n && strcmp(slots->v[k], slots->v[i]) == 0)
			k++;
		if (sb.len)
			sb_adds(&sb, sep);
		if (k - i > 1)
			sb_addf(&sb, "%zu*", k - i);
		sb_adds(&sb, slots->v[i]);
		i = k;
	}
	return sb_detach(&sb);
}

void
jobfmt_mem(int64_t kb, struct strbuf *sb)
{
	if (kb < 0)
		sb_adds(sb, "-");
	else if (kb < 1024)
		sb_addf(sb, "%lld Kbytes", (long long)kb);
	else if (kb < 1024 * 1024)
		sb_addf(sb, "%lld Mbytes", (long long)((kb + 512) / 1024));
	else
		sb_addf(sb, "%.1f Gbytes", (double)kb / (1024.0 * 1024.0));
}

void
jobfmt_limit_mem(int64_t kb, const char *unit, struct strbuf *sb)
{
	static const char letters[] = "KMGTPE";
	const char *l = unit && *unit ?
	    strchr(letters, toupper((unsigned char)unit[0])) : NULL;
	int pw = l ? (int)(l - letters) : 0;
	double v = (double)kb;

	for (int i = 0; i < pw; i++)
		v /= 1024.0;
	sb_addf(sb, "%7.1f %c", v, letters[pw]);
}

int
jobfmt_exit_code(const struct job_info *j)
{
	if (j->exit_status <= 0)
		return 0;
	if (WIFSIGNALED(j->exit_status))
		return 128 + WTERMSIG(j->exit_status);
	return WEXITSTATUS(j->exit_status);
}

char *
jobfmt_home_path(const char *path, const char *home)
{
	size_t n;

	if (path == NULL)
		return xstrdup("");
	if (home && *home && strcmp(home, "/") != 0) {
		n = strlen(home);
		if (strncmp(path, home, n) == 0 &&
		    (path[n] == '/' || path[n] == '\0'))
			return xasprintf("$HOME%s", path + n);
	}
	return xstrdup(path);
}

void
jobfmt_stamp(struct strbuf *sb, int64_t t)
{
	char buf[64];

	fmt_time_long(t, buf, sizeof(buf));
	sb_addf(sb, "%s: ", buf);
}

void
jobfmt_wrap(FILE *f, const char *line)
{
	size_t len = strlen(line), off;

	if (len <= WRAP_FIRST || jobfmt_unformatted) {
		fprintf(f, "%s\n", line);
		return;
	}
	fprintf(f, "%.*s\n", WRAP_FIRST, line);
	for (off = WRAP_FIRST; off < len; off += WRAP_REST)
		fprintf(f, "%*s%.*s\n", WRAP_INDENT, "", WRAP_REST, line + off);
}

/* Field getters. */

#define GET(name) static void name(const struct job_info *j, \
    const char *unit, struct strbuf *sb)

GET(f_jobid) { sb_addf(sb, "%lld", (long long)j->jobid); }
GET(f_stat) { sb_adds(sb, job_stat_str(j->status)); }
GET(f_user) { sb_adds(sb, j->user ? j->user : ""); }
GET(f_user_group) { sb_adds(sb, j->user_group ? j->user_group : ""); }
GET(f_queue) { sb_adds(sb, j->queue ? j->queue : ""); }
GET(f_job_name)
{
	if (j->idx > 0 && j->job_name && !strchr(j->job_name, '['))
		sb_addf(sb, "%s[%d]", j->job_name, j->idx);
	else
		sb_adds(sb, j->job_name ? j->job_name : "");
}
GET(f_empty) { (void)j; }
GET(f_project) { sb_adds(sb, j->project ? j->project : ""); }
GET(f_app) { sb_adds(sb, j->app ? j->app : ""); }
GET(f_priority)
{
	if (j->user_priority > 0)
		sb_addf(sb, "%d", j->user_priority);
}
GET(f_dependency) { sb_adds(sb, j->depend_cond ? j->depend_cond : ""); }
GET(f_command)
{
	const char *c = j->command ? j->command : "";

	for (; *c; c++)
		sb_addc(sb, *c == '\n' ? ';' : *c);
	while (sb->len && sb->buf[sb->len - 1] == ';')
		sb->buf[--sb->len] = '\0';
}
GET(f_pids)
{
	for (size_t i = 0; i < j->pids.n; i++)
		sb_addf(sb, "%s%s", i ? "," : "", j->pids.v[i]);
}
GET(f_exit_code)
{
	if (j->status & JOB_STAT_EXIT)
		sb_addf(sb, "%d", jobfmt_exit_code(j));
}
GET(f_exit_reason)
{
	const char *n = term_reason_name(j->exit_reason);

	if ((j->status & (JOB_STAT_EXIT | JOB_STAT_DONE)) && n)
		sb_addf(sb, "%s: %s", n, term_reason_text(j->exit_reason));
}
GET(f_pend_reason)
{
	if (!JOB_STAT_PENDING(j->status))
		return;
	if (j->pend_reason != PEND_NO_HOST) {
		sb_adds(sb, pend_reason_text(j->pend_reason));
		return;
	}
	for (uint32_t i = 0; i < j->nhost_reasons; i++)
		sb_addf(sb, "%s%s: %d host%s", i ? "; " : "",
		    host_reason_text(j->host_reasons[i].reason),
		    j->host_reasons[i].count,
		    j->host_reasons[i].count == 1 ? "" : "s");
}
GET(f_from_host) { sb_adds(sb, j->from_host ? j->from_host : ""); }
GET(f_exec_host)
{
	char *h = jobfmt_hosts(&j->exec_hosts, ":");

	sb_adds(sb, h);
	free(h);
}
static void
time_field(int64_t t, struct strbuf *sb)
{
	char buf[64];

	if (t > 0) {
		fmt_time_short(t, buf, sizeof(buf));
		sb_adds(sb, buf);
	}
}
GET(f_submit_time) { time_field(j->submit_time, sb); }
GET(f_start_time) { time_field(j->start_time, sb); }
GET(f_finish_time)
{
	if (JOB_STAT_FINISHED(j->status))
		time_field(j->end_time, sb);
}
/* A duration as bjobs -hms writes it. */
static void
hms(int64_t secs, struct strbuf *sb)
{
	char buf[32];

	fmt_duration_hms(secs, buf, sizeof(buf));
	sb_adds(sb, buf);
}
GET(f_cpu_used)
{
	if (j->start_time <= 0)
		return;
	if (jobfmt_hms)
		hms((int64_t)j->cpu_time, sb);
	else
		sb_addf(sb, "%.1f second(s)", j->cpu_time);
}
/* How long the job has run: to its end, or now. */
static int64_t
ran(const struct job_info *j)
{
	int64_t end = JOB_STAT_FINISHED(j->status) ? j->end_time : time(NULL);

	return j->start_time > 0 && end > j->start_time ?
	    end - j->start_time : 0;
}
/* time_left: "hh:mm L" (or hh:mm:ss with -hms) of the run limit left,
 * for a started, unfinished job with one. */
GET(f_time_left)
{
	int64_t left, lim = j->rlimits[LSF_RLIMIT_RUN];

	if (lim <= 0 || j->start_time <= 0 || JOB_STAT_FINISHED(j->status))
		return;
	left = lim - ran(j);
	if (left < 0)
		left = 0;
	if (jobfmt_hms)
		hms(left, sb);
	else
		sb_addf(sb, "%lld:%02lld", (long long)(left / 3600),
		    (long long)(left / 60 % 60));
	sb_adds(sb, " L");
}
/* %complete: the share of the run limit used, "25% L". */
GET(f_complete)
{
	int64_t lim = j->rlimits[LSF_RLIMIT_RUN];

	if (lim <= 0 || j->start_time <= 0)
		return;
	sb_addf(sb, "%lld%% L", (long long)(ran(j) * 100 / lim));
}
/* idle_factor: CPU time over run time. */
GET(f_idle_factor)
{
	int64_t t = ran(j);

	if (j->start_time <= 0)
		return;
	sb_addf(sb, "%.2f", t > 0 ? j->cpu_time / (double)t : 0.0);
}
GET(f_interactive) { (void)j; sb_adds(sb, "N"); }
GET(f_first_host)
{
	if (j->exec_hosts.n > 0)
		sb_adds(sb, j->exec_hosts.v[0]);
}
GET(f_nexec_host)
{
	size_t n = 0;

	for (size_t i = 0; i < j->exec_hosts.n; i++) {
		size_t k = 0;

		while (k < i && strcmp(j->exec_hosts.v[k],
		    j->exec_hosts.v[i]) != 0)
			k++;
		if (k == i)
			n++;
	}
	if (n > 0)
		sb_addf(sb, "%zu", n);
}
GET(f_susp_reason)
{
	char buf[160];

	if (JOB_STAT_SUSPENDED(j->status) && j->susp_reason)
		sb_adds(sb, susp_reason_fmt(j->susp_reason, j->susp_sub,
		    j->susp_ext, buf,
		    sizeof(buf)));
}
GET(f_run_time)
{
	if (j->start_time > 0)
		hms(ran(j), sb);
}
static void
mem_field(int64_t kb, const char *unit, struct strbuf *sb)
{
	if (kb < 0)
		return;
	if (unit) {
		double div = 1;

		if (strcasecmp(unit, "MB") == 0)
			div = 1024;
		else if (strcasecmp(unit, "GB") == 0)
			div = 1024.0 * 1024;
		else if (strcasecmp(unit, "TB") == 0)
			div = 1024.0 * 1024 * 1024;
		sb_addf(sb, "%.2f", (double)kb / div);
		return;
	}
	jobfmt_mem(kb, sb);
}
GET(f_max_mem) { mem_field(j->max_mem_kb, unit, sb); }
GET(f_avg_mem) { mem_field(j->avg_mem_kb, unit, sb); }
GET(f_mem) { mem_field(JOB_STAT_STARTED(j->status) ? j->mem_kb : -1, unit, sb); }
GET(f_swap) { mem_field(j->swap_kb, unit, sb); }
GET(f_memlimit)
{
	if (j->rlimits[LSF_RLIMIT_RSS] > 0)
		mem_field(j->rlimits[LSF_RLIMIT_RSS], unit, sb);
}
GET(f_corelimit)
{
	if (j->rlimits[LSF_RLIMIT_CORE] >= 0)
		mem_field(j->rlimits[LSF_RLIMIT_CORE], unit, sb);
}
GET(f_stacklimit)
{
	if (j->rlimits[LSF_RLIMIT_STACK] >= 0)
		mem_field(j->rlimits[LSF_RLIMIT_STACK], unit, sb);
}
GET(f_swaplimit)
{
	if (j->rlimits[LSF_RLIMIT_SWAP] >= 0)
		mem_field(j->rlimits[LSF_RLIMIT_SWAP], unit, sb);
}
/* A time limit in minutes, or hh:mm:ss with -hms. */
static void
limit_minutes(int64_t secs, struct strbuf *sb)
{
	if (secs <= 0)
		return;
	if (jobfmt_hms)
		hms(secs, sb);
	else
		sb_addf(sb, "%.1f", (double)secs / 60.0);
}
GET(f_cpulimit) { limit_minutes(j->rlimits[LSF_RLIMIT_CPU], sb); }
GET(f_runlimit) { limit_minutes(j->rlimits[LSF_RLIMIT_RUN], sb); }
GET(f_sub_cwd) { sb_adds(sb, j->cwd ? j->cwd : ""); }
GET(f_exec_cwd) { sb_adds(sb, j->exec_cwd ? j->exec_cwd : ""); }
GET(f_exec_home) { sb_adds(sb, j->exec_home ? j->exec_home : ""); }
GET(f_out) { sb_adds(sb, j->out_file ? j->out_file : ""); }
GET(f_err) { sb_adds(sb, j->err_file ? j->err_file : ""); }
GET(f_in) { sb_adds(sb, j->in_file ? j->in_file : ""); }
GET(f_resreq) { sb_adds(sb, j->res_req ? j->res_req : ""); }
GET(f_eff_resreq)
{
	sb_adds(sb, j->effective_res_req ? j->effective_res_req : "");
	sb_rtrim(sb);
}
GET(f_slots) { sb_addf(sb, "%d", j->num_procs); }
GET(f_jobindex) { sb_addf(sb, "%d", j->idx); }
GET(f_alloc_slot)
{
	char *h = jobfmt_hosts(&j->exec_hosts, " ");

	sb_adds(sb, h);
	free(h);
}
GET(f_mail) { sb_adds(sb, j->mail_user ? j->mail_user : ""); }

static const struct jfield fields[] = {
	{ "jobid", "JOBID", 7, f_jobid, 0 },
	{ "stat", "STAT", 5, f_stat, 0 },
	{ "user", "USER", 7, f_user, JI(user) },
	{ "user_group", "USER_GROUP", 15, f_user_group, JI(user_group) },
	{ "queue", "QUEUE", 10, f_queue, JI(queue) },
	{ "job_name", "JOB_NAME", 10, f_job_name, JI(job_name) },
	{ "job_description", "JOB_DESCRIPTION", 17, f_empty, 0 },
	{ "proj_name", "PROJ_NAME", 11, f_project, JI(project) },
	{ "app", "APP", 16, f_app, JI(app) },
	{ "job_group", "JOB_GROUP", 10, f_empty, 0 },
	{ "job_priority", "JOB_PRIORITY", 12, f_priority, JI(user_priority) },
	{ "dependency", "DEPENDENCY", 15, f_dependency, JI(depend_cond) },
	{ "command", "COMMAND", 15, f_command, JI(command) },
	{ "pids", "PIDS", 20, f_pids, JI(pids) },
	{ "exit_code", "EXIT_CODE", 10, f_exit_code, JI(exit_status) },
	{ "exit_reason", "EXIT_REASON", 50, f_exit_reason, JI(exit_reason) },
	{ "pend_reason", "PEND_REASON", 11, f_pend_reason,
	    JI(pend_reason) | JI(host_reasons) },
	{ "from_host", "FROM_HOST", 11, f_from_host, JI(from_host) },
	{ "exec_host", "EXEC_HOST", 11, f_exec_host, JI(exec_hosts) },
	{ "submit_time", "SUBMIT_TIME", 15, f_submit_time, JI(submit_time) },
	{ "start_time", "START_TIME", 15, f_start_time, JI(start_time) },
	{ "finish_time", "FINISH_TIME", 16, f_finish_time, JI(end_time) },
	{ "cpu_used", "CPU_USED", 10, f_cpu_used,
	    JI(start_time) | JI(cpu_time) },
	{ "run_time", "RUN_TIME", 15, f_run_time,
	    JI(start_time) | JI(end_time) },
	{ "max_mem", "MAX_MEM", 15, f_max_mem, JI(max_mem_kb) },
	{ "avg_mem", "AVG_MEM", 15, f_avg_mem, JI(avg_mem_kb) },
	{ "mem", "MEM", 15, f_mem, JI(mem_kb) },
	{ "swap", "SWAP", 15, f_swap, JI(swap_kb) },
	{ "memlimit", "MEMLIMIT", 10, f_memlimit, JI(rlimits) },
	{ "cpulimit", "CPULIMIT", 10, f_cpulimit, JI(rlimits) },
	{ "runtimelimit", "RUNTIMELIMIT", 12, f_runlimit, JI(rlimits) },
	{ "sub_cwd", "SUB_CWD", 30, f_sub_cwd, JI(cwd) },
	{ "exec_cwd", "EXEC_CWD", 30, f_exec_cwd, JI(exec_cwd) },
	{ "exec_home", "EXEC_HOME", 30, f_exec_home, JI(exec_home) },
	{ "output_file", "OUTPUT_FILE", 30, f_out, JI(out_file) },
	{ "error_file", "ERROR_FILE", 30, f_err, JI(err_file) },
	{ "input_file", "INPUT_FILE", 30, f_in, JI(in_file) },
	{ "res_req", "RES_REQ", 20, f_resreq, JI(res_req) },
	{ "effective_resreq", "EFFECTIVE_RESREQ", 20, f_eff_resreq,
	    JI(effective_res_req) },
	{ "slots", "SLOTS", 5, f_slots, JI(num_procs) },
	{ "nthreads", "NTHREADS", 10, f_empty, 0 },
	{ "jobindex", "JOBINDEX", 8, f_jobindex, 0 },
	{ "alloc_slot", "ALLOC_SLOT", 20, f_alloc_slot, JI(exec_hosts) },
	{ "mail_user", "MAIL_USER", 20, f_mail, JI(mail_user) },
	{ "time_left", "TIME_LEFT", 11, f_time_left,
	    JI(rlimits) | JI(start_time) | JI(end_time) },
	{ "%complete", "%COMPLETE", 11, f_complete,
	    JI(rlimits) | JI(start_time) | JI(end_time) },
	{ "idle_factor", "IDLE_FACTOR", 11, f_idle_factor,
	    JI(cpu_time) | JI(start_time) | JI(end_time) },
	{ "interactive", "INTERACTIVE", 11, f_interactive, 0 },
	{ "first_host", "FIRST_HOST", 11, f_first_host, JI(exec_hosts) },
	{ "nexec_host", "NEXEC_HOST", 10, f_nexec_host, JI(exec_hosts) },
	{ "estimated_start_time", "ESTIMATED_START_TIME", 20, f_empty, 0 },
	{ "suspend_reason", "SUSPEND_REASON", 50, f_susp_reason,
	    JI(susp_reason) | JI(susp_sub) | JI(susp_ext) },
	{ "corelimit", "CORELIMIT", 15, f_corelimit, JI(rlimits) },
	{ "stacklimit", "STACKLIMIT", 15, f_stacklimit, JI(rlimits) },
	{ "swaplimit", "SWAPLIMIT", 10, f_swaplimit, JI(rlimits) },
};

static const struct {
	const char	*alias;
	const char	*name;
} aliases[] = {
	{ "id", "jobid" }, { "name", "job_name" }, { "project", "proj_name" },
	{ "proj", "proj_name" }, { "nalloc_slot", "slots" },
	{ "effective_res_req", "effective_resreq" },
	{ "combined_resreq", "effective_resreq" },
	{ "max_req_proc", "slots" }, { "min_req_proc", "slots" },
};

const struct jfield *
jfield_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (strcasecmp(name, aliases[i].alias) == 0)
			name = aliases[i].name;
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		if (strcasecmp(name, fields[i].name) == 0)
			return &fields[i];
	return NULL;
}

static void
add_col(struct jformat *jf, const struct jfield *f, int width, bool right,
    const char *unit)
{
	jf->cols = xrealloc(jf->cols, sizeof(*jf->cols) *
	    (size_t)(jf->ncols + 1));
	jf->cols[jf->ncols].f = f;
	jf->cols[jf->ncols].width = width;
	jf->cols[jf->ncols].right = right;
	jf->cols[jf->ncols].unit = unit ? xstrdup(unit) : NULL;
	jf->ncols++;
}

int
jformat_parse(struct jformat *jf, const char *spec, char **bad)
{
	struct strv words = STRV_INIT;
	int rc = 0;

	memset(jf, 0, sizeof(*jf));
	*bad = NULL;
	/* delimiter='c' may hold a blank, so take it out first. */
	{
		const char *d = strstr(spec, "delimiter=");
		char *copy = xstrdup(spec);

		if (d) {
			const char *v = d + strlen("delimiter=");
			char *cut = copy + (d - spec);
			size_t n;

			if (*v == '\'' || *v == '"') {
				const char *e = strchr(v + 1, *v);

				n = e ? (size_t)(e - v - 1) : strlen(v + 1);
				jf->delimiter = xstrndup(v + 1, n);
				v = e ? e + 1 : v + strlen(v);
			} else {
				n = strcspn(v, " \t");
				jf->delimiter = xstrndup(v, n);
				v += n;
			}
			memmove(cut, copy + (v - spec), strlen(v) + 1);
		}
		strv_split_ws(&words, copy);
		free(copy);
	}
	for (size_t i = 0; i < words.n && rc == 0; i++) {
		char *w = words.v[i], *c1 = strchr(w, ':'), *c2 = NULL;
		int width = 0;
		bool right = false;
		const char *unit = NULL;

		if (c1) {
			*c1++ = '\0';
			c2 = strchr(c1, ':');
			if (c2)
				*c2++ = '\0';
			if (*c1 == '-') {
				right = true;
				c1++;
			}
			if (*c1) {
				long n;

				if (parse_long(c1, &n) < 0 || n < 1 || n > 4096) {
					rc = -1;
					*bad = xstrdup(words.v[i]);
					break;
				}
				width = (int)n;
			}
			unit = c2;
			if (unit && *unit && strcasecmp(unit, "KB") != 0 &&
			    strcasecmp(unit, "MB") != 0 &&
			    strcasecmp(unit, "GB") != 0 &&
			    strcasecmp(unit, "TB") != 0) {
				*bad = xstrdup(words.v[i]);
				rc = -1;
				break;
			}
		}
		if (strcasecmp(w, "all") == 0) {
			for (size_t k = 0; k < ARRAY_SIZE(fields); k++)
				add_col(jf, &fields[k], 0, false, NULL);
			continue;
		}
		{
			const struct jfield *f = jfield_find(w);

			if (f == NULL) {
				*bad = xstrdup(w);
				rc = -1;
				break;
			}
			if (c1 && width == 0)
				width = f->width;
			add_col(jf, f, width, right, unit);
		}
	}
	strv_release(&words);
	if (rc == 0 && jf->ncols == 0) {
		*bad = xstrdup(spec);
		rc = -1;
	}
	return rc;
}

uint64_t
jformat_fields(const struct jformat *jf)
{
	uint64_t m = JI_BASE;

	for (int i = 0; i < jf->ncols; i++)
		m |= jf->cols[i].f->need;
	return m;
}

void
jformat_release(struct jformat *jf)
{
	for (int i = 0; i < jf->ncols; i++)
		free(jf->cols[i].unit);
	free(jf->cols);
	free(jf->delimiter);
	memset(jf, 0, sizeof(*jf));
}
