/*
 * brestart: a new job, with a new ID, from the checkpoint of a finished
 * one.  It is the old job's submission (its JOB_NEW read back) with the
 * options given over it, flagged SUB_RESTART so that every start runs
 * erestart; dir/oldID is renamed dir/newID, the old name left as a link
 * (LSF).  The JOB_NEW record is the only state change: replay gets the
 * restart from its flag.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "mbd.h"

static char *
ck_path(const char *dir, int64_t jobid, int idx)
{
	if (idx > 0)
		return xasprintf("%s/%lld[%d]", dir, (long long)jobid, idx);
	return xasprintf("%s/%lld", dir, (long long)jobid);
}

/*
 * mbatchd runs as root, and the directory is the user's: its files are
 * looked at and moved with the job owner's file system identity, so a
 * link planted in the path reaches nothing the owner could not.
 */
static void
fs_as(int uid)
{
	struct passwd *pw;

	if (geteuid() != 0)
		return;
	pw = uid >= 0 ? getpwuid((uid_t)uid) : NULL;
	(void)setfsgid(pw ? pw->pw_gid : getegid());
	(void)setfsuid(uid >= 0 ? (uid_t)uid : 0);
}

/* dir/old to dir/new, and a link by the old name, as the job's owner. */
int
chkpnt_dir_move(const char *from, const char *dir, int64_t jobid, int uid,
    char **cause)
{
	char *to = ck_path(dir, jobid, 0);
	char *name = xasprintf("%lld", (long long)jobid);
	int rc = 0;

	fs_as(uid);
	if (rename(from, to) < 0) {
		*cause = xasprintf("%s: %s", from, strerror(errno));
		rc = -1;
	} else if (symlink(name, from) < 0)
		log_warnx("%s: cannot link to %s: %s", from, to,
		    strerror(errno));
	fs_as(-1);
	free(to);
	free(name);
	return rc;
}

/* The options brestart passes win over the old job's. */
static void
restart_overlay(struct submit_req *r, struct submit_req *o)
{
#define TAKE(f) do { free(r->f); r->f = o->f; o->f = NULL; } while (0)
	if (o->options & SUB_QUEUE)
		TAKE(queue);
	if (o->options & SUB_HOST) {
		strv_release(&r->asked_hosts);
		strv_copy(&r->asked_hosts, &o->asked_hosts);
	}
	if (o->options & SUB_RES_REQ) {
		strv_release(&r->res_reqs);
		strv_copy(&r->res_reqs, &o->res_reqs);
	}
	if (o->options & SUB_DEPEND_COND)
		TAKE(depend_cond);
	if (o->options & SUB_PRE_EXEC)
		TAKE(pre_exec);
	if (o->options & SUB_USER_GROUP)
		TAKE(user_group);
#undef TAKE
	r->options |= o->options & (SUB_QUEUE | SUB_HOST | SUB_RES_REQ |
	    SUB_DEPEND_COND | SUB_PRE_EXEC | SUB_USER_GROUP | SUB_EXCLUSIVE |
	    SUB_NOTIFY_BEGIN | SUB_NOTIFY_END);
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		if (o->rlimits[i] != DEFAULT_RLIMIT)
			r->rlimits[i] = o->rlimits[i];
	/* The old job's -b and -t are past or near: only new ones. */
	r->begin_time = o->begin_time;
	r->term_time = o->term_time;
	r->options2 &= ~(SUB2_HOLD | SUB2_BSUB_BLOCK);
}

/* Are a and b the same directory, seen by the owner? */
static bool
same_dir(const char *a, const char *b, int uid)
{
	struct stat sa, sb;
	bool same;

	fs_as(uid);
	same = b != NULL && stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	    S_ISDIR(sa.st_mode) && sa.st_dev == sb.st_dev &&
	    sa.st_ino == sb.st_ino;
	fs_as(-1);
	return same;
}

static int
restart_check(const struct job *j, const struct restart_req *rq, int uid,
    const char *path, char **detail)
{
	struct stat sb;
	int rc;

	if (j == NULL)
		return LSBE_NO_JOB;
	if (j->uid != uid && !user_is_admin(user_name(uid), uid))
		return LSBE_PERMISSION;
	if (!JOB_STAT_FINISHED(j->status) &&
	    !(j->status & JOB_STAT_UNKWN))
		return JOB_STAT_STARTED(j->status) ? LSBE_JOB_STARTED :
		    LSBE_NOT_STARTED;
	/* LSBE_NOT_RERUNNABLE reads "Job is not checkpointable". */
	if (job_chkpnt_dir(j) == NULL || j->ck == NULL || !j->ck->taken) {
		*detail = xasprintf("job %lld has no checkpoint",
		    (long long)j->jobid);
		return LSBE_NOT_RERUNNABLE;
	}
	/* Its own directory only: root renames in it. */
	if (!same_dir(rq->dir, job_chkpnt_dir(j), j->uid)) {
		*detail = xasprintf("%s: not the checkpoint directory of job "
		    "%lld (%s)", rq->dir, (long long)j->jobid,
		    job_chkpnt_dir(j));
		return LSBE_BAD_ARG;
	}
	/* A link: restarted already, the checkpoint is the new job's. */
	fs_as(j->uid);
	rc = lstat(path, &sb);
	fs_as(-1);
	if (rc < 0) {
		*detail = xasprintf("%s: %s", path, strerror(errno));
		return LSBE_BAD_ARG;
	}
	if (!S_ISDIR(sb.st_mode)) {
		*detail = xasprintf("%s: not a directory (restarted already?)",
		    path);
		return LSBE_BAD_ARG;
	}
	return LSBE_NO_ERROR;
}

void
restart_handle(struct conn *c, uint32_t seq, struct rbuf *rb)
{
	struct restart_req rq;
	struct ev_job_new ev;
	struct job *j;
	char *path = NULL, *detail = NULL, *b;
	int code;

	memset(&rq, 0, sizeof(rq));
	memset(&ev, 0, sizeof(ev));
	if (!restart_req_unpack(rb, &rq) || rbuf_end(rb) < 0 ||
	    rq.dir == NULL || rq.dir[0] != '/' || rq.idx < 0) {
		restart_req_release(&rq);
		client_reply_error(c, seq, LSBE_PROTOCOL, NULL,
		    "malformed restart request", false);
		return;
	}
	j = job_find(rq.jobid, rq.idx);
	path = ck_path(rq.dir, rq.jobid, rq.idx);
	code = restart_check(j, &rq, (int)c->uid, path, &detail);
	if (code == LSBE_NO_ERROR && job_new_record(j, &ev) < 0) {
		code = LSBE_SYS;
		detail = xstrdup("cannot read the job's JOB_NEW record");
	}
	if (code != LSBE_NO_ERROR) {
		client_reply_error(c, seq, code, NULL, detail, false);
		free(detail);
		free(path);
		restart_req_release(&rq);
		return;
	}
	restart_overlay(&ev.req, &rq.req);
	/* The period and method it had (bchkpnt -p, a queue's or a
	 * profile's), its own from now on: the directory is brestart's. */
	if ((ev.req.chkpnt_period = job_chkpnt_period(j)) > 0)
		ev.req.options |= SUB_CHKPNT_PERIOD;
	if (ev.req.chkpnt_method == NULL && job_chkpnt_method(j) != NULL)
		ev.req.chkpnt_method = xstrdup(job_chkpnt_method(j));
	free(ev.req.chkpnt_dir);
	ev.req.chkpnt_dir = xstrdup(rq.dir);
	ev.req.options |= SUB_RESTART | SUB_CHKPNT_DIR;
	if (rq.flags & RESTART_F_FORCE)
		ev.req.options |= SUB_RESTART_FORCE;
	/* An element comes back as a plain job of the array's name. */
	if (ev.req.job_name && (b = strchr(ev.req.job_name, '[')) != NULL)
		*b = '\0';
	ev.idx = 0;
	free(ev.user);
	free(ev.queue);
	free(ev.job_file);
	free(ev.res_req);
	ev.user = ev.queue = ev.job_file = ev.res_req = NULL;
	log_info("job %lld: restarted from %s by uid %d",
	    (long long)rq.jobid, path, (int)c->uid);
	submit_job(c, seq, &ev, j->uid, path);
	free(path);
	restart_req_release(&rq);
}
