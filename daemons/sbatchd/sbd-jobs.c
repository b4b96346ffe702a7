/*
 * The jobs this sbatchd controls.  Each has a directory,
 *
 *	<statedir>/jobs/<jobid>.<index>.<run>/
 *		spec	 what mbatchd sent (wire-encoded job_spec)
 *		job	 the script, owned by the user
 *		lock	 held (flock) by the supervisor while it lives
 *		status	 the final state, written by the supervisor
 *		output	 the spool: the output of a job without -o
 *		nomail	 the run is being requeued (no mail at its end)
 *
 * which is all a restarted sbatchd needs: a directory with a status is a
 * finished job to report; one whose lock is held has a live supervisor
 * that will reconnect; one with neither lost its supervisor (the host
 * rebooted) and is reported as exited.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "sbd.h"

/* An ended job that bpeek -f is following keeps its files this long
 * after mbatchd has its end, so the last of its output can be read. */
#define PEEK_LINGER_MS	5000

void
jobs_init(void)
{
	sbd->jobs = NULL;
}

struct sjob *
jobs_find(int64_t jobid, int32_t idx)
{
	for (struct sjob *j = sbd->jobs; j; j = j->next)
		if (j->jobid == jobid && j->idx == idx)
			return j;
	return NULL;
}

static struct sjob *
sjob_new(int64_t jobid, int32_t idx, uint32_t run, const char *dir)
{
	struct sjob *j = xcalloc(1, sizeof(*j));

	j->jobid = jobid;
	j->idx = idx;
	j->run_count = run;
	j->dir = xstrdup(dir);
	job_status_init(&j->st);
	j->st.jobid = jobid;
	j->st.idx = idx;
	j->st.run_count = run;
	j->next = sbd->jobs;
	sbd->jobs = j;
	return j;
}

static void
rm_rf(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d) {
		while ((de = readdir(d)) != NULL) {
			char *p;

			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			p = xasprintf("%s/%s", dir, de->d_name);
			(void)unlink(p);
			free(p);
		}
		closedir(d);
	}
	if (rmdir(dir) < 0 && errno != ENOENT)
		log_warn("rmdir %s", dir);
}

static void
sjob_free(struct sjob *j)
{
	struct sjob **pp;

	for (pp = &sbd->jobs; *pp; pp = &(*pp)->next)
		if (*pp == j) {
			*pp = j->next;
			break;
		}
	/* Not closed: a spare keeps it for its next job (jobsup.c). */
	if (j->sup)
		j->sup->data = NULL;
	job_status_release(&j->st);
	load_job_free(j);
	free(j->dir);
	free(j->user);
	free(j->out_path);
	free(j);
}

/* What bpeek needs of the spec: whose the job is, where its output is. */
static void
sjob_set_spec(struct sjob *j, const struct job_spec *s)
{
	const struct sbd_user *u = user_get(s->user);

	free(j->user);
	j->user = s->user ? xstrdup(s->user) : NULL;
	j->uid = u ? u->pw.pw_uid : (uid_t)s->uid;
	j->gid = u ? u->pw.pw_gid : (gid_t)-1;
	free(j->out_path);
	j->out_path = jobsup_expand_path(s->out_file, s, ".out");
	j->post_exec = jobsup_has_post(s);
}

/* Is the supervisor alive?  It holds the lock while it runs. */
static bool
supervisor_alive(const char *dir)
{
	char *p = xasprintf("%s/%s", dir, JOBDIR_LOCK);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	bool alive = false;

	free(p);
	if (fd < 0)
		return false;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK)
		alive = true;
	close(fd);
	return alive;
}

/* Recover the jobs of a previous sbatchd from the state directory. */
void
jobs_scan(void)
{
	char *jobsdir = xasprintf("%s/jobs", sbd->statedir);
	DIR *d = opendir(jobsdir);
	struct dirent *de;

	if (d == NULL) {
		log_warn("%s", jobsdir);
		free(jobsdir);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		long long jobid;
		int idx;
		unsigned run;
		char *dir;
		struct sjob *j;
		struct job_spec spec;

		if (sscanf(de->d_name, "%lld.%d.%u", &jobid, &idx, &run) != 3)
			continue;
		dir = xasprintf("%s/%s", jobsdir, de->d_name);
		if (jobfile_read_spec(dir, &spec) < 0) {
			/* Died before the job could start: nothing to keep. */
			log_warnx("%s: no readable spec; removing", dir);
			rm_rf(dir);
			free(dir);
			continue;
		}
		j = sjob_new(jobid, idx, run, dir);
		sjob_set_spec(j, &spec);
		job_spec_release(&spec);
		if (jobfile_read_status(dir, &j->st) == 0) {
			j->finished = true;
			log_info("job %lld[%d]: finished while sbatchd was away",
			    jobid, idx);
		} else if (supervisor_alive(dir)) {
			/*
			 * Its supervisor reconnects and says how it is:
			 * running or stopped.  Until then its state is
			 * unknown (0), and a registration meanwhile tells
			 * mbatchd only that the job is here, not that a
			 * suspended one runs.
			 */
			j->st.status = 0;
			j->sup_seen = true;
			log_info("job %lld[%d]: still running", jobid, idx);
		} else {
			/* Nobody is watching it any more: it is gone. */
			j->st.status = JOB_STAT_EXIT;
			j->st.exit_status = -1;
			j->st.exit_reason = TERM_ZOMBIE;
			j->st.end_time = time(NULL);
			j->finished = true;
			(void)jobfile_write_status(dir, &j->st);
			log_warnx("job %lld[%d]: its supervisor is gone; "
			    "reported as exited", jobid, idx);
		}
		free(dir);
	}
	closedir(d);
	free(jobsdir);
}

static int
write_script(const char *dir, const struct job_spec *s, uid_t uid, gid_t gid)
{
	char *path = xasprintf("%s/%s", dir, JOBDIR_SCRIPT);
	const char *cmd = s->command ? s->command : "";
	int fd, rc = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
	if (fd < 0 || write_all(fd, cmd, strlen(cmd)) < 0 ||
	    (cmd[0] && cmd[strlen(cmd) - 1] != '\n' &&
	    write_all(fd, "\n", 1) < 0))
		rc = -1;
	if (fd >= 0) {
		if (geteuid() == 0 && fchown(fd, uid, gid) < 0)
			rc = -1;
		close(fd);
	}
	if (rc < 0)
		log_warn("%s", path);
	free(path);
	return rc;
}

static void
report_failed_start(struct sjob *j, int reason)
{
	j->st.status = JOB_STAT_EXIT;
	j->st.exit_status = 127 << 8;
	j->st.exit_reason = reason;
	j->st.start_time = j->st.end_time = time(NULL);
	j->finished = true;
	j->post_exec = false;		/* nothing will run it */
	(void)jobfile_write_status(j->dir, &j->st);
	mbd_send_status(j);
}

void
jobs_start(struct job_spec *s)
{
	struct sjob *j = jobs_find(s->jobid, s->idx);
	const struct sbd_user *u;
	uid_t uid = geteuid();
	gid_t gid = getegid();
	char *dir;
	pid_t pid;

	if (j) {
		/* mbatchd did not hear from us: say again how it is. */
		if (j->run_count == s->run_count) {
			mbd_send_status(j);
			return;
		}
		if (!j->finished) {
			log_warnx("job %lld[%d]: run %u requested while run %u "
			    "is still here", (long long)s->jobid, s->idx,
			    s->run_count, j->run_count);
			return;
		}
		rm_rf(j->dir);
		sjob_free(j);
	}
	dir = xasprintf("%s/jobs/%lld.%d.%u", sbd->statedir,
	    (long long)s->jobid, s->idx, s->run_count);
	if (mkdir(dir, 0711) < 0 && errno != EEXIST) {
		log_warn("mkdir %s", dir);
		free(dir);
		return;
	}
	j = sjob_new(s->jobid, s->idx, s->run_count, dir);
	sjob_set_spec(j, s);
	s->term_interval = sbd->term_interval;
	u = user_get(s->user);
	if (u) {
		uid = u->pw.pw_uid;
		gid = u->pw.pw_gid;
	}
	if (jobfile_write_spec(dir, s) < 0 ||
	    write_script(dir, s, uid, gid) < 0) {
		report_failed_start(j, TERM_OTHER);
		free(dir);
		return;
	}
	/* A supervisor kept from an earlier job, or forked ahead. */
	pid = spares_take(dir, u);
	if (pid < 0)
		pid = fork();
	if (pid < 0) {
		log_warn("fork");
		report_failed_start(j, TERM_OTHER);
		free(dir);
		return;
	}
	if (pid == 0)
		jobsup_main(s, dir, sbd->sockpath);
	j->sup_pid = pid;
	j->st.status = JOB_STAT_RUN;
	log_debug("job %lld[%d]: supervisor %d started", (long long)s->jobid,
	    s->idx, (int)pid);
	free(dir);
}

static void
forward_signal(struct sjob *j, const struct sbd_signal *sg)
{
	struct wbuf w;

	wbuf_init(&w);
	sbd_signal_frame(&w, MSG_SBD_JOB_SIGNAL, 0, sg);
	conn_send(j->sup, &w);
	wbuf_release(&w);
}

void
jobs_signal(const struct sbd_signal *sg)
{
	struct sjob *j = jobs_find(sg->jobid, sg->idx);

	if (j == NULL || j->finished)
		return;
	if (sg->flags & (SIG_F_REQUEUE | SIG_F_MIG)) {
		/* Also for a supervisor that only learns of it at the end. */
		char *p = xasprintf("%s/%s", j->dir, JOBDIR_NOMAIL);
		int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);

		if (fd >= 0)
			close(fd);
		free(p);
	}
	if (j->sup) {
		forward_signal(j, sg);
		return;
	}
	if (j->st.pid <= 0) {
		/*
		 * Its supervisor has not said hello yet (the job was started
		 * a moment ago): hold the request until it does.  A later
		 * request replaces an earlier one, but never a termination.
		 */
		if (!j->have_sig || j->pend_sig.sig != SIG_KILL_SEQ) {
			j->pend_sig = *sg;
			j->have_sig = true;
		}
		return;
	}
	/* The supervisor has not connected (yet, or again): act directly. */
	if (j->st.pgid > 0) {
		int sig = sg->sig == SIG_KILL_SEQ ? SIGKILL : sg->sig;

		if (sg->sig == SBD_SIG_SUSPEND)
			sig = SIGSTOP;
		else if (sg->sig == SBD_SIG_RESUME)
			sig = SIGCONT;
		if (sig > 0)
			(void)kill(-j->st.pgid, sig);
	}
}

static void
forward_limits(struct sjob *j, const struct sbd_limits *l)
{
	struct wbuf w;

	wbuf_init(&w);
	sbd_limits_frame(&w, MSG_SBD_JOB_LIMITS, 0, l);
	conn_send(j->sup, &w);
	wbuf_release(&w);
}

/* bmod of a running job: its supervisor enforces the new limits, from
 * now or from its next hello (a later change replaces one held). */
void
jobs_limits(const struct sbd_limits *l)
{
	struct sjob *j = jobs_find(l->jobid, l->idx);

	if (j == NULL || j->finished || j->run_count != l->run_count)
		return;
	log_info("job %lld[%d]: new limits: run %lld, CPU %lld, memory %lld",
	    (long long)l->jobid, l->idx,
	    (long long)l->rlimits[LSF_RLIMIT_RUN],
	    (long long)l->rlimits[LSF_RLIMIT_CPU],
	    (long long)l->rlimits[LSF_RLIMIT_RSS]);
	if (j->sup) {
		forward_limits(j, l);
		return;
	}
	j->pend_lim = *l;
	j->have_lim = true;
}

void
jobs_ack(const struct job_ack *a)
{
	struct sjob *j = jobs_find(a->jobid, a->idx);

	if (j == NULL || j->run_count != a->run_count || !j->finished)
		return;
	if (j->post_exec && j->st.post_exec_status < 0 &&
	    !j->st.pre_exec_failed)
		return;		/* its post-exec's outcome comes next */
	if (j->peek_ms && mono_ms() - j->peek_ms < PEEK_LINGER_MS) {
		if (j->linger_ms == 0)
			j->linger_ms = mono_ms() + PEEK_LINGER_MS;
		return;
	}
	/* mbatchd has logged the end: the directory can go. */
	rm_rf(j->dir);
	sjob_free(j);
}

/*
 * An ended job whose post-exec outcome never came, and whose supervisor
 * is gone: the outcome is in its status file, or the post-exec was cut
 * short (the supervisor was killed), which is an error.
 */
static void
post_orphan(struct sjob *j)
{
	if (!j->post_exec || j->st.post_exec_status >= 0 ||
	    j->st.pre_exec_failed || j->sup || supervisor_alive(j->dir))
		return;
	if (jobfile_read_status(j->dir, &j->st) < 0 ||
	    j->st.post_exec_status < 0) {
		log_warnx("job %lld[%d]: its post-exec did not finish",
		    (long long)j->jobid, j->idx);
		j->st.post_exec_status = SIGKILL;
		(void)jobfile_write_status(j->dir, &j->st);
	}
	mbd_send_status(j);
}

/* A job whose supervisor is gone without a word: finished (its status
 * file says how) or lost. */
static void
check_orphan(struct sjob *j)
{
	if (j->finished) {
		post_orphan(j);
		return;
	}
	if (j->sup || supervisor_alive(j->dir))
		return;
	if (jobfile_read_status(j->dir, &j->st) == 0) {
		j->finished = true;
	} else {
		log_warnx("job %lld[%d]: its supervisor died", (long long)j->jobid,
		    j->idx);
		j->st.status = JOB_STAT_EXIT;
		j->st.exit_reason = TERM_ZOMBIE;
		j->st.end_time = time(NULL);
		j->finished = true;
		(void)jobfile_write_status(j->dir, &j->st);
	}
	mbd_send_status(j);
}

void
jobs_reap(pid_t pid)
{
	for (struct sjob *j = sbd->jobs; j; j = j->next)
		if (j->sup_pid == pid) {
			j->sup_pid = 0;
			j->sup_seen = true;	/* it lived, and is no more */
			check_orphan(j);
		}
}

/* A supervisor done with its job (reported, lock released) is about to
 * serve another: its death is no longer that job's concern. */
void
jobs_sup_free(pid_t pid)
{
	for (struct sjob *j = sbd->jobs; j; j = j->next)
		if (j->sup_pid == pid) {
			j->sup_pid = 0;
			j->sup_seen = true;
		}
}

/*
 * Supervisors not connected: check that they still live.  A supervisor's
 * socket can close before the kernel drops its lock, so the moment the
 * connection ends is not the moment to decide; this runs every second.
 * Only a supervisor known to have lived is checked: one just forked may
 * not hold its lock yet.
 */
void
jobs_check_orphans(void)
{
	struct sjob *j, *next;
	uint64_t now = mono_ms();

	for (j = sbd->jobs; j; j = next) {
		next = j->next;
		if (j->linger_ms && now >= j->linger_ms) {
			rm_rf(j->dir);
			sjob_free(j);
		} else if (j->sup_seen || (j->finished && j->post_exec)) {
			check_orphan(j);
		}
	}
}

/* Supervisor connections. */

/* echkpnt's end, on to mbatchd (lost if it is not there: it gives up
 * on the request in time). */
static void
chkpnt_forward(struct conn *c, struct rbuf *r)
{
	struct job_ack a;
	struct sjob *j;

	if (!job_ack_unpack(r, &a) || rbuf_end(r) < 0) {
		log_warnx("%s: malformed %s", c->name,
		    msg_type_name(MSG_JS_CHKPNT));
		conn_close(c);
		return;
	}
	j = jobs_find(a.jobid, a.idx);
	if (j == NULL || j->run_count != a.run_count)
		return;
	mbd_send_chkpnt(&a);
}

static void
sup_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r, void *arg)
{
	struct job_status st;
	struct sjob *j;

	if (h->type == MSG_JS_CHKPNT) {
		chkpnt_forward(c, r);
		return;
	}
	if (h->type != MSG_JS_HELLO && h->type != MSG_JS_STATUS) {
		log_warnx("%s: unexpected %s", c->name, msg_type_name(h->type));
		conn_close(c);
		return;
	}
	if (!job_status_unpack(r, &st) || rbuf_end(r) < 0) {
		job_status_release(&st);
		log_warnx("%s: malformed job status", c->name);
		conn_close(c);
		return;
	}
	j = jobs_find(st.jobid, st.idx);
	if (j == NULL || j->run_count != st.run_count) {
		log_warnx("status for unknown job %lld[%d] run %u",
		    (long long)st.jobid, st.idx, st.run_count);
		job_status_release(&st);
		conn_close(c);
		return;
	}
	if (j->sup != c) {
		if (j->sup)
			conn_close(j->sup);
		/* A spare's connection moves on to its next job. */
		if (c->data != NULL)
			((struct sjob *)c->data)->sup = NULL;
		j->sup = c;
		c->data = j;
		j->sup_seen = true;
		if (j->have_lim) {
			j->have_lim = false;
			forward_limits(j, &j->pend_lim);
		}
		if (j->have_sig) {
			j->have_sig = false;
			forward_signal(j, &j->pend_sig);
		}
	}
	if (j->finished && JOB_STAT_FINISHED(st.status) &&
	    st.post_exec_status >= 0 && j->st.post_exec_status < 0) {
		/* Its post-exec has ended: that goes up too. */
		job_status_release(&j->st);
		j->st = st;
		mbd_send_status(j);
		return;
	}
	if (j->finished) {
		/* Already known from its status file. */
		job_status_release(&st);
		return;
	}
	job_status_release(&j->st);
	j->st = st;
	if (JOB_STAT_FINISHED(st.status))
		j->finished = true;
	mbd_send_status(j);
}

static void
sup_closed(struct conn *c, void *arg)
{
	struct sjob *j = c->data;

	if (j == NULL)
		return;
	j->sup = NULL;
	check_orphan(j);
}

struct conn *
jobs_sup_accept(int fd, struct sockaddr *sa, socklen_t len, void *arg)
{
	struct conn *c = conn_new(sbd->base, fd, sup_msg, sup_closed, NULL);

	if (sa->sa_family == AF_UNIX) {
		if (net_peer_cred(fd, &c->uid, &c->gid, &c->pid) == 0)
			c->have_cred = true;
		/* Only our own supervisors (same uid as us) may talk here. */
		if (!c->have_cred || c->uid != geteuid()) {
			log_warnx("supervisor socket: refused uid %d",
			    (int)c->uid);
			conn_close(c);
			return NULL;
		}
		c->name = xasprintf("supervisor pid %d", (int)c->pid);
		return c;
	}
	/* LSB_SBD_PORT: nothing is served there yet. */
	conn_close(c);
	return NULL;
}

/* Wire-encoded files. */

static int
write_frame_file(const char *dir, const char *name, struct wbuf *w)
{
	char *tmp = xasprintf("%s/%s.tmp", dir, name);
	char *path = xasprintf("%s/%s", dir, name);
	int fd, rc = -1;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	/*
	 * No fsync: these files carry a job across a restart of sbatchd,
	 * not of the host, and the jobs die with the host anyway.
	 */
	if (fd >= 0 && write_all(fd, w->data, w->len) == 0 &&
	    rename(tmp, path) == 0)
		rc = 0;
	if (fd >= 0)
		close(fd);
	if (rc < 0)
		(void)unlink(tmp);
	free(tmp);
	free(path);
	return rc;
}

static int
read_frame_file(const char *dir, const char *name, uint16_t type,
    struct strbuf *sb, struct rbuf *r)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct wire_hdr h;
	const char *why;
	int rc;

	rc = read_file(path, sb);
	free(path);
	if (rc < 0)
		return -1;
	if (wire_parse_hdr(sb->buf, sb->len, &h, &why) != 1 ||
	    h.type != type || h.len != sb->len)
		return -1;
	rbuf_init(r, sb->buf + WIRE_HDR_LEN, h.len - WIRE_HDR_LEN);
	return 0;
}

int
jobfile_write_spec(const char *dir, const struct job_spec *s)
{
	struct wbuf w;
	int rc;

	wbuf_init(&w);
	job_spec_frame(&w, MSG_SBD_JOB_START, 0, s);
	rc = write_frame_file(dir, JOBDIR_SPEC, &w);
	wbuf_release(&w);
	return rc;
}

int
jobfile_read_spec(const char *dir, struct job_spec *s)
{
	struct strbuf sb = STRBUF_INIT;
	struct rbuf r;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (read_frame_file(dir, JOBDIR_SPEC, MSG_SBD_JOB_START, &sb, &r) == 0) {
		if (job_spec_unpack(&r, s) && rbuf_end(&r) == 0)
			rc = 0;
		else
			job_spec_release(s);
	}
	sb_release(&sb);
	return rc;
}

int
jobfile_write_status(const char *dir, const struct job_status *st)
{
	struct wbuf w;
	int rc;

	wbuf_init(&w);
	job_status_frame(&w, MSG_JS_STATUS, 0, st);
	rc = write_frame_file(dir, JOBDIR_STATUS, &w);
	wbuf_release(&w);
	return rc;
}

int
jobfile_read_status(const char *dir, struct job_status *st)
{
	struct strbuf sb = STRBUF_INIT;
	struct rbuf r;
	struct job_status tmp;
	int rc = -1;

	if (read_frame_file(dir, JOBDIR_STATUS, MSG_JS_STATUS, &sb, &r) == 0) {
		if (job_status_unpack(&r, &tmp) && rbuf_end(&r) == 0) {
			job_status_release(st);
			*st = tmp;
			rc = 0;
		} else {
			job_status_release(&tmp);
		}
	}
	sb_release(&sb);
	return rc;
}
