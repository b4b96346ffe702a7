/*
 * apply_<id> of the records that are not a job's: a host's or queue's
 * administrative state (HOST_CTRL, QUEUE_CTRL), the job IDs and
 * fairshare history a log switch carries forward (LOG_SWITCH,
 * FS_USAGE), the environments of lsb.envs (JOB_ENV), and mbatchd's own
 * starts and stops, which change nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

void
host_ctrl_apply(struct mhost *h, int op, const char *comment)
{
	h->closed_adm = op == HCTRL_CLOSE;
	/* bhosts -l shows the comment of the close. */
	free(h->adm_comment);
	h->adm_comment = op == HCTRL_CLOSE && comment && *comment ?
	    xstrdup(comment) : NULL;
	host_refresh(h);
	if (op == HCTRL_OPEN) {
		exc_host_opened(h);
		mbd_sched_dirty();
	}
}

void
queue_ctrl_apply(struct mqueue *q, int op)
{
	switch (op) {
	case QCTRL_OPEN:
		q->open = true;
		break;
	case QCTRL_CLOSE:
		q->open = false;
		break;
	case QCTRL_ACT:
		q->active = true;
		break;
	case QCTRL_INACT:
		q->active = false;
		break;
	}
	/* Whether its windows are open is a matter of now, not of when
	 * the record was written. */
	queue_set_active(q, time(NULL));
	if (op == QCTRL_OPEN || op == QCTRL_ACT)
		mbd_sched_dirty();
}

/* 3 and 4 (sbatchd restart, shutdown) change nothing here. */
int
apply_host_ctrl(struct ev_ctrl *ev, int64_t when, off_t off)
{
	struct mhost *h = ev->name ? host_find(ev->name) : NULL;

	if (h == NULL && ev->name != NULL)
		log_debug("lsb.events: HOST_CTRL for unknown host %s skipped",
		    ev->name);
	else if (h && (ev->op == HCTRL_OPEN || ev->op == HCTRL_CLOSE))
		host_ctrl_apply(h, ev->op, ev->comment);
	return 0;
}

int
apply_queue_ctrl(struct ev_ctrl *ev, int64_t when, off_t off)
{
	struct mqueue *q = ev->name ? queue_find(ev->name) : NULL;

	if (q == NULL && ev->name != NULL)
		log_debug("lsb.events: QUEUE_CTRL for unknown queue %s "
		    "skipped", ev->name);
	else if (q && ev->op >= QCTRL_OPEN && ev->op <= QCTRL_INACT)
		queue_ctrl_apply(q, ev->op);
	return 0;
}

/* History for badmin mbdhist: no state. */
int
apply_mbd_start(struct ev_mbd_start *ev, int64_t when, off_t off)
{
	return 0;
}

int
apply_mbd_die(struct ev_mbd_die *ev, int64_t when, off_t off)
{
	return 0;
}

/*
 * LOG_SWITCH ends the records a switch copied forward: job IDs go on
 * after its last one, even when no job it had is left.
 */
int
apply_log_switch(struct ev_log_switch *ev, int64_t when, off_t off)
{
	if (ev->last_jobid >= mbd->next_jobid)
		mbd->next_jobid = ev->last_jobid + 1;
	return 0;
}

/* FS_USAGE: an account's fairshare history as of a switch. */
int
apply_fs_usage(struct ev_fs_usage *ev, int64_t when, off_t off)
{
	fs_usage_apply(ev);
	return 0;
}

/* JOB_ENV: where in lsb.envs an environment is (read when a job that
 * names it starts). */
int
apply_job_env(struct ev_job_env *ev, int64_t when, off_t off)
{
	env_add(ev->env_id, off);
	return 0;
}
