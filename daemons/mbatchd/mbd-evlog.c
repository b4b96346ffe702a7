/*
 * Writing lsb.events, and the outbox of messages that must not leave
 * before the records they answer are on disk.  Also the way back to data
 * kept only in the log: a job's command when it is long, and its
 * environment (lsb.envs, rewritten after each switch of lsb.events).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "mbd.h"

off_t
log_record(struct strbuf *rec)
{
	off_t off = evlog_append(&mbd->log, rec->buf, rec->len);

	mbd_kick();
	return off;
}

void
outbox_add(struct conn *c, struct wbuf *w)
{
	struct outmsg *m = xcalloc(1, sizeof(*m));

	m->conn = c;
	m->w = *w;
	wbuf_init(w);
	*mbd->outbox_tail = m;
	mbd->outbox_tail = &m->next;
	mbd_kick();
}

void
outbox_drop_conn(struct conn *c)
{
	for (struct outmsg *m = mbd->outbox; m; m = m->next)
		if (m->conn == c)
			m->conn = NULL;
}

/*
 * One send for each peer: an sbatchd's ack of one job's end and the
 * start of the next, or the starts of an array's elements, leave
 * together and wake it once.  Each peer's frames keep their order (the
 * sort's second key, qsort being unstable); there is none to keep
 * between peers, whose sockets are read apart.
 */
struct outref {
	struct outmsg	*m;
	size_t		 seq;
};

static int
outref_cmp(const void *a, const void *b)
{
	const struct outref *x = a, *y = b;

	if (x->m->conn != y->m->conn)
		return (uintptr_t)x->m->conn < (uintptr_t)y->m->conn ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void
outbox_flush(void)
{
	struct outmsg *m = mbd->outbox;
	struct outref *v;
	size_t n = 0, i, j;

	mbd->outbox = NULL;
	mbd->outbox_tail = &mbd->outbox;
	for (struct outmsg *p = m; p; p = p->next)
		n++;
	if (n == 0)
		return;
	v = xcalloc(n, sizeof(*v));
	for (i = 0; m; m = m->next, i++) {
		v[i].m = m;
		v[i].seq = i;
	}
	qsort(v, n, sizeof(*v), outref_cmp);
	for (i = 0; i < n; i = j) {
		struct outmsg *first = v[i].m;

		for (j = i + 1; j < n && v[j].m->conn == first->conn; j++)
			if (first->conn)
				wbuf_append(&first->w, &v[j].m->w);
		if (first->conn)
			conn_send_now(first->conn, &first->w);
	}
	for (i = 0; i < n; i++) {
		wbuf_release(&v[i].m->w);
		free(v[i].m);
	}
	free(v);
}

void
log_mbd_start(void)
{
	struct ev_mbd_start ev;
	struct strbuf sb = STRBUF_INIT;

	ev.master = mbd->host;
	ev.cluster = mbd->cluster;
	ev.nhosts = mbd->nhosts;
	ev.nqueues = mbd->nqueues;
	ev.user = (char *)user_name((int)geteuid());
	ev_mbd_start_write(&sb, time(NULL), &ev);
	log_record(&sb);
	sb_release(&sb);
}

void
log_mbd_die(int code)
{
	struct ev_mbd_die ev;
	struct strbuf sb = STRBUF_INIT;

	ev.master = mbd->host;
	ev.nremoved = 0;
	ev.exit_code = code;
	ev.user = mbd->restart_user;
	ev.comment = mbd->restart_comment;
	ev_mbd_die_write(&sb, time(NULL), &ev);
	log_record(&sb);
	sb_release(&sb);
}

/* Read back a record and hand it to a reader. */
static int
read_record(struct evlog *lg, off_t off, const char *type,
    struct strbuf *line, struct ev_reader *r)
{
	const char *why;

	if (evlog_read_at(lg, off, line) < 0 ||
	    evr_init(r, line->buf, line->len, &why) < 0 ||
	    strcmp(r->type, type) != 0) {
		log_warnx("%s: no %s record at offset %lld", lg->path, type,
		    (long long)off);
		return -1;
	}
	return 0;
}

/* The job's JOB_NEW, read back (released by ev_job_new_release). */
int
job_new_record(struct job *j, struct ev_job_new *ev)
{
	struct strbuf line = STRBUF_INIT;
	struct ev_reader r;
	int rc = -1;

	if (read_record(&mbd->log, j->new_off, "JOB_NEW", &line, &r) == 0 &&
	    ev_job_new_read(&r, ev) == 0)
		rc = 0;
	sb_release(&line);
	return rc;
}

char *
job_command(struct job *j)
{
	struct strbuf line = STRBUF_INIT;
	struct ev_reader r;
	struct ev_job_new ev;
	char *cmd = NULL;

	if (j->command)
		return xstrdup(j->command);
	if (read_record(&mbd->log, j->new_off, "JOB_NEW", &line, &r) == 0 &&
	    ev_job_new_read(&r, &ev) == 0) {
		cmd = ev.req.command;
		ev.req.command = NULL;
		ev_job_new_release(&ev);
	}
	sb_release(&line);
	return cmd ? cmd : xstrdup("");
}

/* The last environment read is kept: jobs come in runs of one. */
static const struct menv *env_cached;
static struct strv env_cache = STRV_INIT;

int
env_read(const struct menv *e, struct strv *env)
{
	struct strbuf line = STRBUF_INIT;
	struct ev_reader r;
	struct ev_job_env ev;

	if (env_cached != e) {
		if (read_record(&mbd->envlog, e->off, "JOB_ENV", &line,
		    &r) < 0 || ev_job_env_read(&r, &ev) < 0 ||
		    strcmp(ev.env_id, e->id) != 0) {
			sb_release(&line);
			return -1;
		}
		strv_release(&env_cache);
		env_cache = ev.env;
		memset(&ev.env, 0, sizeof(ev.env));
		ev_job_env_release(&ev);
		env_cached = e;
		sb_release(&line);
	}
	strv_copy(env, &env_cache);
	return 0;
}

int
job_env(struct job *j, struct strv *env)
{
	if (j->env == NULL)
		return 0;
	return env_read(j->env, env);
}

/*
 * lsb.envs is only appended to, one JOB_ENV per distinct environment, so
 * after each switch of lsb.events it is rewritten with the environments
 * of the jobs still in memory, which are all the fresh lsb.events names.
 * A crash at any point is harmless: lsb.events is already switched, and
 * until the new file is durable and renamed over the old one, the old
 * one, which has every environment the new lsb.events names and more,
 * is what a restart reads.  A failure leaves the old file in use.
 */
static void
envs_compact(void)
{
	struct strbuf line = STRBUF_INIT;
	struct evlog nl;
	/* The new offsets, set only once the new file is in place. */
	struct kept {
		struct menv	*e;
		off_t		 off;
	} *keep = NULL;
	size_t nkeep = 0, nall = 0, n = 0;
	char *tmp, *cause = NULL;
	int fd;

	for (size_t b = 0; b < mbd->etab_size; b++)
		for (struct menv *e = mbd->etab[b]; e; e = e->next) {
			nall++;
			if (e->refs > 0)
				nkeep++;
		}
	if (nkeep == nall)
		return;
	tmp = xasprintf("%s.new", mbd->envpath);
	(void)unlink(tmp);
	/* Environments may hold secrets: the file is the admin's alone. */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || close(fd) < 0 || evlog_open(&nl, tmp, 0, &cause) < 0) {
		if (cause == NULL)
			cause = xasprintf("%s: %s", tmp, strerror(errno));
		goto fail;
	}
	keep = xcalloc(nkeep + 1, sizeof(*keep));
	for (size_t b = 0; b < mbd->etab_size; b++)
		for (struct menv *e = mbd->etab[b]; e; e = e->next) {
			struct ev_reader r;
			struct ev_job_env ev;
			bool same;

			if (e->refs == 0)
				continue;
			if (read_record(&mbd->envlog, e->off, "JOB_ENV", &line,
			    &r) < 0 || ev_job_env_read(&r, &ev) < 0) {
				cause = xasprintf("%s: no JOB_ENV %s at offset "
				    "%lld", mbd->envpath, e->id,
				    (long long)e->off);
				goto fail_new;
			}
			same = strcmp(ev.env_id, e->id) == 0;
			ev_job_env_release(&ev);
			if (!same) {
				cause = xasprintf("%s: the record at offset %lld "
				    "is not %s", mbd->envpath, (long long)e->off,
				    e->id);
				goto fail_new;
			}
			sb_addc(&line, '\n');
			keep[n].e = e;
			keep[n++].off = evlog_append(&nl, line.buf, line.len);
		}
	if (evlog_flush(&nl) < 0 || rename(tmp, mbd->envpath) < 0) {
		cause = xasprintf("%s: %s", tmp, strerror(errno));
		goto fail_new;
	}
	/* Not durable yet is harmless: the old file would come back. */
	if (fsync_dir(mbd->logdir) < 0)
		log_warn("fsync %s", mbd->logdir);
	evlog_close(&mbd->envlog);
	free(nl.path);
	nl.path = xstrdup(mbd->envpath);
	mbd->envlog = nl;
	for (size_t i = 0; i < n; i++)
		keep[i].e->off = keep[i].off;
	env_cached = NULL;
	log_info("rewrote %s: kept %zu environments, dropped %zu that no "
	    "job names", mbd->envpath, n, env_prune());
	goto out;
fail_new:
	evlog_close(&nl);
	(void)unlink(tmp);
fail:
	log_warnx("%s not rewritten: %s", mbd->envpath, cause);
	free(cause);
out:
	free(keep);
	free(tmp);
	sb_release(&line);
}

static bool
job_live(void *arg, int64_t jobid)
{
	/* An array's elements live and go with its parent. */
	return job_find(jobid, 0) != NULL;
}

/*
 * Switch lsb.events (evlog_switch) and point the jobs at their JOB_NEW
 * records in the fresh file.  This runs between turns, with the log
 * flushed and the answers sent; it costs a read of the whole file and a
 * write of the live jobs' records, so its time is logged.
 */
static void
log_switch(void)
{
	struct evlog_switch_ops ops;
	struct evlog_switch_result res;
	struct strbuf extra = STRBUF_INIT;
	uint64_t t0 = mono_ms();
	char *cause = NULL;
	bool committed;
	int rc;

	memset(&ops, 0, sizeof(ops));
	ops.live = job_live;
	ops.last_jobid = mbd->next_jobid - 1;
	ops.now = time(NULL);
	/* Fairshare history outlives the records that made it. */
	fs_usage_records(&extra, ops.now);
	ops.extra = &extra;
	rc = evlog_switch(&mbd->log, &ops, &res, &committed, &cause);
	sb_release(&extra);
	if (!committed) {
		/* The old file is intact and still appended to. */
		log_warnx("cannot switch %s: %s; trying again in a minute",
		    mbd->evpath, cause);
		free(cause);
		mbd->switch_retry = ops.now + 60;
		return;
	}
	for (size_t i = 0; i < res.nmoved; i++) {
		struct job *j = job_find(res.moved[i].jobid, 0);

		/* The parent, then its elements, which share its JOB_NEW. */
		for (; j && j->jobid == res.moved[i].jobid; j = j->next)
			j->new_off = res.moved[i].off;
	}
	free(res.moved);
	if (rc < 0) {
		/* The fresh file is in place but may not be durable: as
		 * with a failed flush, let the restart sort it out. */
		fatalx("switching %s: %s", mbd->evpath, cause);
	}
	log_info("switched %s after %llu finished jobs: %llu of %llu records "
	    "copied (%lld of %lld bytes), %d older generations renamed, "
	    "%llu ms", mbd->evpath, (unsigned long long)mbd->log_nfinished,
	    (unsigned long long)res.ncopied, (unsigned long long)res.nread,
	    (long long)res.new_size, (long long)res.old_size,
	    res.generations, (unsigned long long)(mono_ms() - t0));
	if (res.nunknown > 0)
		log_warnx("%s: %llu records of types this version does not "
		    "know (%s, ...) were not carried forward; they stay in "
		    "%s.1", mbd->evpath, (unsigned long long)res.nunknown,
		    res.unknown_type, mbd->evpath);
	if (res.header_failed)
		log_warnx("%s.1: its first line was not set to the time of "
		    "its newest record", mbd->evpath);
	if (res.dup_cause != NULL) {
		log_warnx("%s not switched with %s: %s; running on %s alone, "
		    "trying again in a while", mbd->log.dup_path,
		    mbd->log.path, res.dup_cause, mbd->log.path);
		free(res.dup_cause);
	}
	mbd->log_nfinished = 0;
	envs_compact();
}

void
log_switch_check(void)
{
	int max = mbd->conf.params.max_job_num;

	/* MAX_JOB_NUM 0 (or less): one file for ever. */
	if (max <= 0 || mbd->log_nfinished < (uint64_t)max)
		return;
	if (evlog_dirty(&mbd->log) || time(NULL) < mbd->switch_retry)
		return;
	log_switch();
}
