/*
 * What a job's JOB_START, JOB_EXECUTE, JOB_STATUS, JOB_SIGNAL and
 * JOB_REQUEUE records do to the state: one function each, called by the
 * live code right after it appends the record (the *_record functions
 * below) and by replay on the same record (mbd-replay.c).  So a field is
 * changed in one place, and a restarted mbatchd is in the state the old
 * one was (tests/scenario/t0034-replay.sh compares them).  What only a
 * live mbatchd does (send the job to its host, answer a command, wake
 * bsub -K) stays with the callers.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

/* JOB_START: out of its queue, onto its hosts (one per slot). */
void
job_start_apply(struct job *j, struct mhost **hosts, int n,
    uint32_t run_count, int64_t when)
{
	policy_job_remove(&j->pj);
	fs_set_when(when);
	/* Leave PEND (its slot count) before the hosts are set. */
	job_set_status(j, JOB_STAT_NULL);
	free(j->exec);
	j->exec = xcalloc((size_t)n + 1, sizeof(*j->exec));
	memcpy(j->exec, hosts, (size_t)n * sizeof(*hosts));
	j->nexec = n;
	preempt_set_exec(j);
	j->preempt_kill = false;
	j->exceptions = 0;	/* a new run: its own exceptions */
	j->preempt_resuming = false;
	if (j->run_count == 0 && JOB_IS_ELEMENT(j))
		j->arr->nstarted++;
	j->run_count = run_count;
	j->start_time = when;
	j->executed = false;
	j->pid = j->pgid = 0;
	j->exit_status = -1;
	j->exit_reason = 0;
	j->susp_reason = 0;
	j->pend_note = 0;
	j->resume_sent = false;
	j->stop_sent = false;
	j->window_sent = false;
	j->lock_sent = false;
	j->limits_pending = false;	/* its spec has them */
	job_set_status(j, JOB_STAT_RUN);
	reserve_add(j);
}

static void
set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = v ? xstrdup(v) : NULL;
}

/* JOB_EXECUTE: the host started it, as this pid, there, as that user. */
void
job_execute_apply(struct job *j, const struct ev_job_execute *ev)
{
	if (!JOB_STAT_STARTED(j->status))
		return;
	j->pid = ev->pid;
	j->pgid = ev->pgid;
	j->executed = true;
	set_str(&j->exec_cwd, ev->exec_cwd);
	set_str(&j->exec_home, ev->exec_home);
	set_str(&j->exec_user, ev->exec_user);
}

/* An array's parent stands for its virtual elements. */
static void
parent_status_apply(struct job *j, const struct ev_job_status *ev,
    int64_t when)
{
	if (JOB_STAT_FINISHED(ev->status)) {
		array_end_virtual(j, ev->end_time ? ev->end_time : when,
		    ev->exit_info);
	} else if (JOB_STAT_PENDING(ev->status) &&
	    JOB_STAT_PENDING(j->status)) {
		job_set_status(j, ev->status & JOB_STAT_PSUSP ?
		    JOB_STAT_PSUSP : JOB_STAT_PEND);
		j->hold_reason = ev->status & JOB_STAT_PSUSP ? ev->reason : 0;
	}
}

/* A requeued job, or one whose pre-exec failed, goes first in its queue. */
static void
to_queue_head(struct job *j)
{
	policy_job_remove(&j->pj);
	policy_job_prepend(&j->queue->pq, &j->pj);
	j->pj.reason_pass = 0;
}

static void
retry_later(struct job *j, int64_t when)
{
	j->pj.eligible_time = when + PREEXEC_RETRY_INTERVAL;
	j->pj.eligible_reason = PEND_PRE_EXEC;
	to_queue_head(j);
}

/* PEND or PSUSP: held, released, or back in its queue after a run. */
static void
pending_apply(struct job *j, const struct ev_job_status *ev, int64_t when)
{
	int st = ev->status & JOB_STAT_PSUSP ? JOB_STAT_PSUSP : JOB_STAT_PEND;

	if (JOB_STAT_STARTED(j->status) || JOB_STAT_FINISHED(j->status)) {
		/* A migrated job keeps LSB_RESTART=Y for its next run, as
		 * does one rerun after its host was lost. */
		bool mig = (j->end_action & SIG_F_MIG) != 0 ||
		    ev->reason == PEND_HOST_LOST;
		bool requeue = (j->end_action & (SIG_F_REQUEUE |
		    SIG_F_HOLD)) != 0;
		/* Back by REQUEUE_EXIT_VALUES: no brequeue, bmig or host
		 * lost asked for it. */
		bool automatic = st == JOB_STAT_PEND &&
		    ev->reason == PEND_REQUEUED && !(j->end_action &
		    (SIG_F_REQUEUE | SIG_F_MIG | SIG_F_HOLD));

		job_set_status(j, st);
		job_clear_run(j);
		j->restart = mig;
		/* brequeue: from scratch, whatever was checkpointed. */
		if (requeue && !mig)
			job_chkpnt_forget(j);
		job_make_pending(j);
		if (st == JOB_STAT_PEND && ev->reason == PEND_PRE_EXEC) {
			j->preexec_fails++;
			retry_later(j, when);
		}
		if (automatic) {
			/* Its one record: first in its queue, not before
			 * its back-off has passed (requeue_backoff). */
			j->nrequeue++;
			j->pj.eligible_time = when +
			    requeue_backoff(j->nrequeue);
			j->pj.eligible_reason = PEND_REQUEUED;
			to_queue_head(j);
		}
	} else {
		job_set_status(j, st);
	}
	j->hold_reason = st == JOB_STAT_PSUSP ? ev->reason : 0;
	/* Held after its last pre-exec try: bresume gives it them again. */
	if (st == JOB_STAT_PSUSP && ev->reason == PEND_PRE_EXEC_LIMIT)
		j->preexec_fails = 0;
	/* Why it is back (requeue, migration, pre-exec), or why not. */
	if (st == JOB_STAT_PEND)
		j->pend_note = ev->reason;
}

/* JOB_STATUS: its new state, with what the state carries. */
void
job_status_apply(struct job *j, const struct ev_job_status *ev,
    int64_t when)
{
	fs_set_when(when);
	if (JOB_IS_PARENT(j)) {
		parent_status_apply(j, ev, when);
		return;
	}
	if (JOB_STAT_FINISHED(ev->status)) {
		policy_job_remove(&j->pj);
		j->exit_status = ev->exit_status;
		j->exit_reason = ev->exit_info;
		j->cpu_time = ev->cpu_time;
		j->end_time = ev->end_time ? ev->end_time : when;
		j->max_mem_kb = ev->max_mem_kb;
		j->avg_mem_kb = ev->avg_mem_kb;
		exc_exit_apply(j, ev, when);
		j->sig_pending = false;
		j->end_action = 0;
		j->preexec_fails = 0;
		j->stop_sent = j->resume_sent = false;
		/* With its post-exec's outcome, when that is known. */
		job_set_status(j, ev->status & (JOB_STAT_DONE | JOB_STAT_EXIT |
		    JOB_STAT_PDONE | JOB_STAT_PERR));
	} else if (JOB_STAT_PENDING(ev->status)) {
		pending_apply(j, ev, when);
	} else if (JOB_STAT_STARTED(j->status)) {
		/* RUN, USUSP or SSUSP of a started job.  A preemption is
		 * counted for MAX_JOB_PREEMPT, replayed too. */
		if ((ev->status & JOB_STAT_SSUSP) &&
		    ev->reason == SUSP_PREEMPTED && (j->status & JOB_STAT_RUN))
			j->npreempt++;
		j->susp_reason = ev->status & JOB_STAT_RUN ? 0 : ev->reason;
		j->susp_sub = ev->status & JOB_STAT_RUN ? 0 : ev->subreasons;
		j->resume_sent = false;
		/* MIG counts from the record that made it SSUSP. */
		if (!(ev->status & JOB_STAT_SSUSP))
			j->ssusp_since = 0;
		else if (!(j->status & JOB_STAT_SSUSP))
			j->ssusp_since = when;
		job_set_status(j, ev->status & (JOB_STAT_RUN | JOB_STAT_USUSP |
		    JOB_STAT_SSUSP));
	}
}

/*
 * JOB_SIGNAL.  What it asks of a started job's end (brequeue, bmig,
 * bkill -d) is kept; a termination or a bstop is pending until its host
 * has it: the live mbatchd sends it at once (signal_send), a restarted
 * one when the host registers (the TERMINATE sequence is idempotent, and
 * stopping a stopped job changes nothing).  A bresume cancels a bstop
 * still pending.  Other signals are not repeated.
 */
void
job_signal_apply(struct job *j, const struct ev_job_signal *ev)
{
	int sig = ev->signal ? sig_from_name(ev->signal) : -1;

	if (!JOB_STAT_STARTED(j->status) || ev->run_count != j->run_count) {
		if (sig == SIGCONT && j->sig_pending &&
		    j->pending_sig == SBD_SIG_SUSPEND)
			j->sig_pending = false;
		return;
	}
	if (ev->flags & (SIG_F_REQUEUE | SIG_F_MIG))
		j->end_action = ev->flags & (SIG_F_REQUEUE | SIG_F_HOLD |
		    SIG_F_MIG);
	if (sig == SIGKILL || sig == SIGTERM || sig == SIGINT) {
		j->kill_asked = true;
		j->sig_pending = true;
		j->pending_sig = sig == SIGKILL && !(ev->flags & SIG_F_FORCE) ?
		    SIG_KILL_SEQ : sig;
		j->pending_reason = ev->uid == j->uid ? TERM_OWNER : TERM_ADMIN;
		if (ev->flags & SIG_F_DONE)
			j->kill_done = true;
		if ((ev->flags & SIG_F_PREEMPT) && !j->preempt_kill) {
			/* Its slots are its preemptor's from now. */
			j->pending_reason = TERM_PREEMPT;
			j->preempt_kill = true;
			job_set_status(j, j->status);
		}
	} else if (sig == SIGSTOP &&
	    !(j->sig_pending && j->pending_sig != SBD_SIG_SUSPEND)) {
		j->sig_pending = true;
		j->pending_sig = SBD_SIG_SUSPEND;
		j->pending_reason = ev->uid == j->uid ? SUSP_USER_STOP :
		    SUSP_ADMIN_STOP;
	} else if (sig == SIGCONT && j->sig_pending &&
	    j->pending_sig == SBD_SIG_SUSPEND) {
		j->sig_pending = false;
	}
}

/* MIG (bmig): where it may go next, and LSB_RESTART=Y when it does. */
void
job_mig_apply(struct job *j, const struct ev_mig *ev)
{
	if (ev->hosts.n)
		job_set_asked(j, &ev->hosts);
	j->restart = true;
}

/* JOB_REQUEUE: a requeued job goes first in its queue. */
void
job_requeue_apply(struct job *j)
{
	if (!JOB_STAT_PENDING(j->status))
		return;
	to_queue_head(j);
	if (j->pend_note == 0)
		j->pend_note = PEND_REQUEUED;
}

/*
 * The live side: build the record, append it, apply it.  The record is
 * on disk before anything it causes leaves mbatchd (end_of_turn).
 */
static void
append(struct strbuf *sb)
{
	log_record(sb);
	sb_release(sb);
}
void
job_start_record(struct job *j, struct mhost **hosts, int n, int64_t now)
{
	struct ev_job_start ev;
	struct strbuf sb = STRBUF_INIT;

	memset(&ev, 0, sizeof(ev));
	ev.jobid = j->jobid;
	ev.status = JOB_STAT_RUN;
	ev.idx = j->idx;
	ev.run_count = j->run_count + 1;
	for (int i = 0; i < n; i++)
		strv_push(&ev.exec_hosts, hosts[i]->name);
	ev.effective_res_req = j->rr ? resreq_to_string(j->rr) :
	    xstrdup(j->queue->rr ? "" : "select[type == local] order[r15s:pg] ");
	ev_job_start_write(&sb, now, &ev);
	append(&sb);
	job_start_apply(j, hosts, n, ev.run_count, now);
	ev_job_start_release(&ev);
}

void
job_execute_record(struct job *j, const struct job_status *st)
{
	struct ev_job_execute ev;
	struct strbuf sb = STRBUF_INIT;

	memset(&ev, 0, sizeof(ev));
	ev.jobid = j->jobid;
	ev.exec_uid = j->uid;
	ev.pid = st->pid;
	ev.pgid = st->pgid;
	ev.exec_cwd = st->exec_cwd;
	ev.exec_home = st->exec_home;
	ev.exec_user = st->exec_user;
	ev.idx = j->idx;
	ev.run_count = j->run_count;
	ev_job_execute_write(&sb, time(NULL), &ev);
	append(&sb);
	job_execute_apply(j, &ev);
}

/*
 * A JOB_STATUS record for the job as it is, moving to `status`: the
 * caller changes what differs (the reason, the end's figures) and hands
 * it to job_status_record.
 */
void
job_status_fill(const struct job *j, int status, struct ev_job_status *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->jobid = j->jobid;
	ev->idx = j->idx;
	ev->status = status;
	/* LSF's reason field: why it is held, suspended or back. */
	if (status & JOB_STAT_PSUSP)
		ev->reason = j->hold_reason;
	else if (status & (JOB_STAT_USUSP | JOB_STAT_SSUSP)) {
		ev->reason = j->susp_reason;
		ev->subreasons = j->susp_sub;
	}
	else if (status & JOB_STAT_PEND)
		ev->reason = j->pend_note;
	ev->cpu_time = j->cpu_time;
	ev->end_time = JOB_STAT_FINISHED(status) ? j->end_time : 0;
	ev->exit_status = j->exit_status < 0 ? 0 : j->exit_status;
	ev->max_mem_kb = j->max_mem_kb;
	ev->avg_mem_kb = j->avg_mem_kb;
	ev->exit_info = j->exit_reason;
	ev->run_count = j->run_count;
}

void
job_status_record(struct job *j, const struct ev_job_status *ev)
{
	struct strbuf sb = STRBUF_INIT;
	int64_t now = time(NULL);
	bool ended = JOB_STAT_FINISHED(j->status);
	int64_t virt = JOB_IS_PARENT(j) ? j->arr->pend.count : 0;

	ev_job_status_write(&sb, now, ev);
	append(&sb);
	job_status_apply(j, ev, now);
	/* Accounting records, here and not in the apply function that
	 * replay calls: once per finish (mbd-acct.c). */
	if (JOB_IS_PARENT(j)) {
		if (virt > 0 && j->arr->pend.count == 0 &&
		    JOB_STAT_FINISHED(ev->status))
			acct_array_ended(j, now);
	} else if (!ended && JOB_STAT_FINISHED(j->status)) {
		acct_job_finished(j, now);
	}
}

/* The job moves to `status` with `reason`, nothing else changing. */
void
job_status_change(struct job *j, int status, int reason)
{
	job_susp_change(j, status, reason, 0);
}

/* The same, with a subreason: the load index of a load suspension. */
void
job_susp_change(struct job *j, int status, int reason, int sub)
{
	struct ev_job_status ev;

	job_status_fill(j, status, &ev);
	ev.reason = reason;
	ev.subreasons = sub;
	job_status_record(j, &ev);
}

void
job_signal_record(struct job *j, const char *sig, int uid, const char *user,
    int flags)
{
	struct ev_job_signal ev;
	struct strbuf sb = STRBUF_INIT;

	memset(&ev, 0, sizeof(ev));
	ev.jobid = j->jobid;
	ev.uid = uid;
	ev.run_count = j->run_count;
	ev.signal = (char *)sig;
	ev.idx = j->idx;
	ev.user = (char *)user;
	ev.flags = flags;
	ev_job_signal_write(&sb, time(NULL), &ev);
	append(&sb);
	job_signal_apply(j, &ev);
}

void
job_requeue_record(struct job *j)
{
	struct ev_job_requeue ev = { .jobid = j->jobid, .idx = j->idx };
	struct strbuf sb = STRBUF_INIT;

	ev_job_requeue_write(&sb, time(NULL), &ev);
	append(&sb);
	job_requeue_apply(j);
}
