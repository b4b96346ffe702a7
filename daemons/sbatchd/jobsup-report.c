/*
 * LSF's job report, appended to the job's -o file when it ends (the mail
 * of jobsup-mail.c carries the same body).  Workflow tools read it:
 * Snakemake's LSF profile takes the line two above "Resource usage
 * summary:" ("Successfully completed." or "Exited with exit code N.") as
 * the job's fate.  The file is the user's, so it is
 * opened by a child that has become the user.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lsf.h"
#include "sbd.h"
#include "timefmt.h"

/* "<2*hostA> <hostB>" */
static void
add_hosts(struct strbuf *sb, const struct strv *hosts)
{
	for (size_t i = 0; i < hosts->n;) {
		size_t k = i;

		while (k < hosts->n && strcmp(hosts->v[k], hosts->v[i]) == 0)
			k++;
		if (i)
			sb_addc(sb, ' ');
		if (k - i > 1)
			sb_addf(sb, "<%zu*%s>", k - i, hosts->v[i]);
		else
			sb_addf(sb, "<%s>", hosts->v[i]);
		i = k;
	}
}

static void
mem_line(struct strbuf *sb, const char *label, int64_t kb, bool dec)
{
	sb_addf(sb, "    %-44s ", label);
	if (kb < 0)
		sb_adds(sb, "-\n");
	else if (dec)
		sb_addf(sb, "%.2f MB\n", (double)kb / 1024.0);
	else
		sb_addf(sb, "%lld MB\n", (long long)((kb + 1023) / 1024));
}

const char *
jobsup_sender(void)
{
	return sbd->conf.cluster.admins.n ? sbd->conf.cluster.admins.v[0] :
	    "lsfadmin";
}

void
jobsup_subject(struct strbuf *sb, const struct job_spec *s, const char *what)
{
	sb_addf(sb, "Job %lld", (long long)s->jobid);
	if (s->idx > 0)
		sb_addf(sb, "[%d]", s->idx);
	sb_addf(sb, ": <%s> in cluster <%s> %s", s->job_name ? s->job_name :
	    "", s->cluster ? s->cluster : "", what);
}

/* Who submitted the job, where it runs, in which directories. */
static void
report_where(struct strbuf *sb, const struct job_spec *s,
    const struct job_status *st, const char *home, const char *cwd)
{
	const char *cluster = s->cluster ? s->cluster : "";
	const char *name = s->job_name ? s->job_name : "";
	char tsub[64], tstart[64];

	fmt_time_full(s->submit_time, tsub, sizeof(tsub));
	fmt_time_full(st->start_time, tstart, sizeof(tstart));
	sb_addf(sb, "Job <%s> was submitted from host <%s> by user <%s> in "
	    "cluster <%s> at %s\n", name, s->from_host ? s->from_host : "",
	    s->user ? s->user : "", cluster, tsub);
	sb_adds(sb, "Job was executed on host(s) ");
	add_hosts(sb, &s->exec_hosts);
	sb_addf(sb, ", in queue <%s>, as user <%s> in cluster <%s> at %s\n",
	    s->queue ? s->queue : "", s->user ? s->user : "", cluster, tstart);
	sb_addf(sb, "<%s> was used as the home directory.\n", home);
	sb_addf(sb, "<%s> was used as the working directory.\n", cwd);
}

void
jobsup_report_start(struct strbuf *sb, const struct job_spec *s,
    const struct job_status *st, const char *home, const char *cwd)
{
	char tstart[64];

	fmt_time_full(st->start_time, tstart, sizeof(tstart));
	report_where(sb, s, st, home, cwd);
	sb_addf(sb, "Started at %s\n", tstart);
}

/* "Max Processes :" and "Max Threads :", "-" when never seen. */
static void
count_line(struct strbuf *sb, const char *label, int n)
{
	if (n > 0)
		sb_addf(sb, "    %-44s %d\n", label, n);
	else
		sb_addf(sb, "    %-44s -\n", label);
}

void
jobsup_report_body(struct strbuf *sb, const struct job_spec *s,
    const struct job_status *st, const struct job_end *end, const char *home,
    const char *cwd)
{
	char tstart[64], tend[64], tnow[64];
	bool done = st->status == JOB_STAT_DONE;
	int code;

	fmt_time_full(st->start_time, tstart, sizeof(tstart));
	fmt_time_full(st->end_time, tend, sizeof(tend));
	fmt_time_full(time(NULL), tnow, sizeof(tnow));
	report_where(sb, s, st, home, cwd);
	sb_addf(sb, "Started at %s\n", tstart);
	sb_addf(sb, "Terminated at %s\n", tend);
	sb_addf(sb, "Results reported at %s\n", tnow);
	sb_adds(sb, "\nYour job looked like:\n\n");
	sb_adds(sb, "------------------------------------------------------------\n");
	sb_adds(sb, "# LSBATCH: User input\n");
	sb_adds(sb, s->command ? s->command : "");
	if (s->command && *s->command &&
	    s->command[strlen(s->command) - 1] != '\n')
		sb_addc(sb, '\n');
	sb_adds(sb, "------------------------------------------------------------\n\n");
	if (done) {
		sb_adds(sb, "Successfully completed.\n");
	} else {
		const char *rn = term_reason_name(st->exit_reason);

		if (rn)
			sb_addf(sb, "%s: %s.\n", rn,
			    term_reason_text(st->exit_reason));
		if (st->exit_status < 0)
			code = 1;
		else if (WIFSIGNALED(st->exit_status))
			code = 128 + WTERMSIG(st->exit_status);
		else
			code = WEXITSTATUS(st->exit_status);
		sb_addf(sb, "Exited with exit code %d.\n", code);
	}
	sb_adds(sb, "\nResource usage summary:\n\n");
	sb_addf(sb, "    %-44s %.2f sec.\n", "CPU time :", st->cpu_time);
	mem_line(sb, "Max Memory :", st->max_mem_kb, false);
	mem_line(sb, "Average Memory :", st->avg_mem_kb, true);
	sb_addf(sb, "    %-44s -\n", "Total Requested Memory :");
	sb_addf(sb, "    %-44s -\n", "Delta Memory :");
	sb_addf(sb, "    %-44s -\n", "Max Swap :");
	count_line(sb, "Max Processes :", end->max_procs);
	count_line(sb, "Max Threads :", end->max_threads);
	sb_addf(sb, "    %-44s %lld sec.\n", "Run time :",
	    (long long)(st->end_time - st->start_time));
	sb_addf(sb, "    %-44s %lld sec.\n", "Turnaround time :",
	    (long long)(st->end_time - s->submit_time));
}

static void
build_report(struct strbuf *sb, const struct job_spec *s,
    const struct job_status *st, const struct job_end *end,
    const char *out, const char *home, const char *cwd)
{
	char *err = jobsup_expand_path(s->err_file, s, ".err");

	sb_adds(sb, "\n------------------------------------------------------------\n");
	sb_addf(sb, "Sender: LSF System <%s@%s>\n", jobsup_sender(), sbd->host);
	sb_adds(sb, "Subject: ");
	jobsup_subject(sb, s, st->status == JOB_STAT_DONE ? "Done" : "Exited");
	sb_adds(sb, "\n\n");
	jobsup_report_body(sb, s, st, end, home, cwd);
	sb_adds(sb, "\nThe output (if any) is above this job summary.\n\n");
	/* LSF's trailer when stderr has a file of its own; scripts wait
	 * for its last line to know the report is complete. */
	if (err && strcmp(err, out) != 0 && !end->err_errno)
		sb_addf(sb, "\n\nPS:\n\nRead file <%s> for stderr output of "
		    "this job.\n\n", err);
	free(err);
}

void
jobsup_write_report(const struct job_spec *s, const struct job_status *st,
    const struct job_end *end)
{
	struct strbuf rep = STRBUF_INIT;
	const struct sbd_user *u;
	const struct passwd *pw;
	const char *cwd;
	struct stat sb;
	char *out;
	pid_t pid;
	int status;

	out = jobsup_expand_path(s->out_file, s, ".out");
	if (out == NULL || end->out_errno) {
		/* It goes by mail (jobsup-mail.c). */
		free(out);
		return;
	}
	u = user_get(s->user);
	if (u == NULL || strcmp(out, "/dev/null") == 0) {
		/* Nobody to write it as, or nowhere it would stay. */
		free(out);
		return;
	}
	pw = &u->pw;
	/* Where the job ran: the directory fill_exec_info chose. */
	cwd = s->cwd && *s->cwd ? s->cwd : s->sub_cwd;
	if (cwd == NULL || stat(cwd, &sb) < 0 || !S_ISDIR(sb.st_mode))
		cwd = "/tmp";
	build_report(&rep, s, st, end, out, pw->pw_dir, cwd);
	/*
	 * vfork: the child only becomes the user, opens the file and
	 * writes what is built above, all system calls, which do not need
	 * a copy of our page tables as a fork's child would have.
	 */
	pid = vfork();
	if (pid == 0) {
		int fd;

		if (user_become(u) < 0 || (chdir(cwd) < 0 && chdir("/tmp") < 0))
			_exit(1);
		fd = open(out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			_exit(1);
		(void)write_all(fd, rep.buf, rep.len);
		_exit(0);
	}
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	sb_release(&rep);
	free(out);
}
