/*
 * lsb.acct: one JOB_FINISH record (src/acct.c) for each job that
 * finishes, DONE or EXIT, once, and for each element of an array that
 * ends without having started.  The record is made when the finish is
 * logged (job_status_record), never when lsb.events is replayed, so a
 * restart does not write it again.  It is kept with the turn's records
 * and written right after lsb.events is on disk, so a crash of mbatchd
 * loses none (the kernel has them); it reaches the disk itself within a
 * second (acct_sync, from the tick), not in every turn: lsb.events'
 * fdatasync is what makes a job's end safe, and a second one per turn
 * cost 15% of the job turnover (bench w4).  A crash of the machine can
 * lose the last second's accounting records, never write one twice.
 * A write that fails is kept and tried again the next turn.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "acct.h"
#include "log.h"
#include "mbd.h"

static struct strbuf	 acct_pending = STRBUF_INIT;
static int		 acct_fd = -1;
static bool		 acct_warned;
static bool		 acct_dirty;	/* written, not yet on disk */

static float
host_factor(const struct mhost *h)
{
	for (int i = 0; h && h->model && i < mbd->conf.shared.nmodels; i++)
		if (strcasecmp(mbd->conf.shared.models[i].name, h->model) == 0)
			return mbd->conf.shared.models[i].cpuf;
	return 1.0f;
}

/*
 * The record of job j, or, with idx > 0 for an array's parent, of its
 * element idx that ended without becoming a job of its own (never
 * started: no hosts, no usage).
 */
static void
acct_add(struct job *j, int32_t idx, int64_t now)
{
	const struct job_extra *x = j->x;
	bool virt = idx > 0 && JOB_IS_PARENT(j);
	struct acct_finish a;
	int64_t rl[LSF_RLIM_NLIMITS];
	char *job_file, *command, *eff, *name = NULL;

	acct_finish_init(&a);
	job_limits(j, rl);
	job_file = xasprintf("%lld.%lld", (long long)j->submit_time,
	    (long long)j->jobid);
	command = job_command(j);
	eff = j->rr ? resreq_to_string(j->rr) : j->queue->rr ?
	    resreq_to_string(j->queue->rr) : NULL;
	a.end_time = now;
	a.jobid = j->jobid;
	a.uid = j->uid;
	a.options = j->options;
	a.num_procs = j->pj.num_procs;
	a.max_procs = j->pj.num_procs;
	a.submit_time = j->submit_time;
	/* Borrowed: nothing below is freed through a. */
	a.user = (char *)j->user;
	a.queue = j->queue->name;
	a.res_req = j->res_req;
	a.from_host = (char *)j->from_host;
	a.cwd = (char *)(x && x->cwd_req ? x->cwd_req : j->sub_cwd);
	a.out_file = j->out_file;
	a.err_file = j->err_file;
	a.job_file = job_file;
	a.project = (char *)j->project;
	if (x) {
		a.begin_time = x->begin_time;
		a.term_time = x->term_time;
		a.depend_cond = x->depend_cond;
		a.pre_exec = x->pre_exec;
		a.in_file = x->in_file;
		a.asked_hosts = x->asked_hosts;
		a.mail_user = x->mail_user;
		a.login_shell = x->login_shell;
		a.post_exec = x->post_exec;
	}
	a.options2 = j->options2;
	a.run_limit = rl[LSF_RLIMIT_RUN] > 0 ? rl[LSF_RLIMIT_RUN] : 0;
	a.effective_res_req = eff;
	if (virt) {
		name = array_elem_name(j, idx);
		a.job_name = name;
		a.idx = idx;
		a.status = JOB_STAT_EXIT;
		a.host_factor = 1.0;
		a.exit_info = j->arr->gone_reason;
	} else {
		a.start_time = j->start_time;
		for (int i = 0; i < j->nexec; i++)
			strv_push(&a.exec_hosts, j->exec[i]->name);
		a.status = j->status & (JOB_STAT_DONE | JOB_STAT_EXIT);
		a.host_factor = host_factor(j->nexec > 0 ? j->exec[0] : NULL);
		a.job_name = j->job_name;
		/* Only the sum is known: it is the user time, as bacct
		 * adds. */
		if (j->cpu_time >= 0) {
			a.utime = j->cpu_time;
			a.stime = 0;
		}
		a.maxrss = j->max_mem_kb;
		a.exit_status = j->exit_status < 0 ? 0 : j->exit_status;
		a.idx = j->idx;
		a.max_mem_kb = j->max_mem_kb;
		a.exit_info = j->exit_reason;
		a.except_mask = j->exceptions;
		a.avg_mem_kb = j->avg_mem_kb;
	}
	a.command = command;
	acct_finish_write(&acct_pending, &a);
	strv_release(&a.exec_hosts);
	free(job_file);
	free(command);
	free(eff);
	free(name);
}

void
acct_job_finished(struct job *j, int64_t now)
{
	acct_add(j, j->idx, now);
}

void
acct_array_ended(struct job *parent, int64_t now)
{
	const struct idxset *gone = &parent->arr->gone;

	for (int32_t i = idxset_first(gone); i > 0; i = idxset_next(gone, i))
		acct_add(parent, i, now);
}

/* After lsb.events: the turn's records, made durable the same way. */
void
acct_flush(void)
{
	off_t size;

	if (acct_pending.len == 0)
		return;
	if (acct_fd < 0) {
		char *path = xasprintf("%s/lsb.acct", mbd->logdir);

		acct_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
		    0644);
		if (acct_fd < 0 && !acct_warned)
			log_warn("cannot open %s", path);
		free(path);
		if (acct_fd < 0) {
			acct_warned = true;
			return;
		}
	}
	size = lseek(acct_fd, 0, SEEK_END);
	if (size < 0 ||
	    write_all(acct_fd, acct_pending.buf, acct_pending.len) < 0) {
		/* Retried next turn, after cutting off what was written. */
		if (!acct_warned)
			log_warn("cannot write lsb.acct");
		acct_warned = true;
		if (size >= 0)
			(void)ftruncate(acct_fd, size);
		close(acct_fd);
		acct_fd = -1;
		return;
	}
	acct_warned = false;
	acct_dirty = true;
	sb_reset(&acct_pending);
	if (acct_pending.cap > (1u << 20))
		sb_release(&acct_pending);
}

/* From the one-second tick: what was written reaches the disk. */
void
acct_sync(void)
{
	if (!acct_dirty || acct_fd < 0)
		return;
	if (fdatasync(acct_fd) < 0)
		log_warn("fdatasync lsb.acct");
	acct_dirty = false;
}

void
acct_close(void)
{
	acct_flush();
	acct_sync();
	if (acct_fd >= 0)
		close(acct_fd);
	acct_fd = -1;
	sb_release(&acct_pending);
}
