/*
 * Switching lsb.events (lsb.params MAX_JOB_NUM): which records a fresh
 * file starts with, and the switch itself.
 *
 * The fresh file is the old one with what no longer matters left out:
 * every record of a job still in memory and the last control record of
 * each host and queue are copied verbatim (with their checksums), in
 * their order, so replaying the fresh file runs the same code on the
 * same records as replaying the old one did, minus jobs that are gone.
 * A LOG_SWITCH record with the last job ID ends the copied part, and the
 * header "#<offset>" says where the history after it starts.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evlog.h"

/* the choice */

/*
 * What the table says of the record's type (EVLOG_RECORDS): a job's
 * record is read only as far as its job ID (and a JOB_MOVE's position);
 * a host's or queue's, whole, for its key.
 */
int
ev_sw_classify(struct ev_reader *r, struct ev_sw_rec *out)
{
	const struct ev_type_info *ti;

	memset(out, 0, sizeof(*out));
	out->kind = EVSW_DROP;
	if (r->id < 0 || r->id >= EV_NTYPES)
		return 0;	/* unknown: replay skips it too */
	ti = &ev_types[r->id];
	switch (ti->sw) {
	case EVSW_JOB:
		if (ti->key(r, &out->jobid, &out->idx) < 0 ||
		    out->jobid <= 0)
			return -1;
		out->kind = EVSW_JOB;
		out->job_new = r->id == EV_JOB_NEW;
		out->job_clean = r->id == EV_JOB_CLEAN;
		/* JOB_MOVE: position next (replay takes below 1 as 1). */
		if (r->id == EV_JOB_MOVE && !evr_i32(r, &out->move_pos))
			return -1;
		return 0;
	case EVSW_CTRL: {
		bool host = r->id == EV_HOST_CTRL;
		struct ev_ctrl c;

		if (ev_ctrl_read(r, &c) < 0) {
			/* What it read before the damage is allocated. */
			ev_ctrl_release(&c);
			return -1;
		}
		/* Open and close set one state; a queue's activate and
		 * inactivate another; a host's 3 and 4 (sbatchd restart,
		 * shutdown) none. */
		if (c.name != NULL && c.op >= 1 && c.op <= (host ? 2 : 4)) {
			out->kind = EVSW_CTRL;
			out->key = xasprintf("%c%c %s", host ? 'H' : 'Q',
			    c.op <= 2 ? 'o' : 'a', c.name);
		}
		ev_ctrl_release(&c);
		return 0;
	}
	case EVSW_DROP:
	case EVSW_SUMMARY:
	case EVSW_ENVS:
		return 0;
	}
	return 0;
}

void
ev_sw_rec_release(struct ev_sw_rec *x)
{
	free(x->key);
	memset(x, 0, sizeof(*x));
}

/* A job gone from memory: where its records start and end. */
struct ev_sw_job {
	int64_t		 jobid;		/* 0: a free slot */
	off_t		 first;		/* its JOB_NEW, -1 none */
	off_t		 clean;		/* its JOB_CLEAN, -1 none */
	bool		 kept;
};
struct ev_sw_move {
	off_t		 off;
	int64_t		 jobid;
	bool		 live;
};

void
ev_sw_sel_init(struct ev_sw_sel *s)
{
	memset(s, 0, sizeof(*s));
	strv_init(&s->keys);
}

void
ev_sw_sel_release(struct ev_sw_sel *s)
{
	strv_release(&s->keys);
	free(s->last);
	free(s->jobs);
	free(s->moves);
	memset(s, 0, sizeof(*s));
}

static size_t
job_slot(const struct ev_sw_job *t, size_t size, int64_t jobid)
{
	size_t i = (size_t)((uint64_t)jobid * 0x9e3779b97f4a7c15ULL) &
	    (size - 1);

	while (t[i].jobid != 0 && t[i].jobid != jobid)
		i = (i + 1) & (size - 1);
	return i;
}

static struct ev_sw_job *
job_get(struct ev_sw_sel *s, int64_t jobid)
{
	struct ev_sw_job *j;

	if (2 * (s->njobs + 1) > s->jobs_size) {
		struct ev_sw_job *old = s->jobs;
		size_t osize = s->jobs_size;

		s->jobs_size = osize ? 2 * osize : 1024;
		s->jobs = xcalloc(s->jobs_size, sizeof(*s->jobs));
		for (size_t i = 0; i < osize; i++)
			if (old[i].jobid != 0)
				s->jobs[job_slot(s->jobs, s->jobs_size,
				    old[i].jobid)] = old[i];
		free(old);
	}
	j = &s->jobs[job_slot(s->jobs, s->jobs_size, jobid)];
	if (j->jobid == 0) {
		j->jobid = jobid;
		j->first = j->clean = -1;
		s->njobs++;
	}
	return j;
}

static const struct ev_sw_job *
job_look(const struct ev_sw_sel *s, int64_t jobid)
{
	const struct ev_sw_job *j;

	if (s->jobs_size == 0)
		return NULL;
	j = &s->jobs[job_slot(s->jobs, s->jobs_size, jobid)];
	return j->jobid == jobid ? j : NULL;
}

static ssize_t
key_index(const struct ev_sw_sel *s, const char *key)
{
	/* Control records are few: hosts and queues an administrator
	 * touched since the last switch. */
	for (size_t i = 0; i < s->keys.n; i++)
		if (strcmp(s->keys.v[i], key) == 0)
			return (ssize_t)i;
	return -1;
}

void
ev_sw_note(struct ev_sw_sel *s, const struct ev_sw_rec *x, off_t off,
    bool live)
{
	ssize_t i;

	if (x->kind == EVSW_JOB) {
		if (!live && (x->job_new || x->job_clean)) {
			struct ev_sw_job *j = job_get(s, x->jobid);

			if (x->job_new && j->first < 0)
				j->first = off;
			if (x->job_clean)
				j->clean = off;
		}
		if (x->move_pos > 1) {
			if (s->nmoves == s->moves_cap) {
				s->moves_cap = s->moves_cap ?
				    2 * s->moves_cap : 64;
				s->moves = xrealloc(s->moves, s->moves_cap *
				    sizeof(*s->moves));
			}
			s->moves[s->nmoves].off = off;
			s->moves[s->nmoves].jobid = x->jobid;
			s->moves[s->nmoves].live = live;
			s->nmoves++;
		}
		return;
	}
	if (x->kind != EVSW_CTRL)
		return;
	if ((i = key_index(s, x->key)) < 0) {
		strv_push(&s->keys, x->key);
		s->last = xrealloc(s->last, s->keys.n * sizeof(*s->last));
		i = (ssize_t)s->keys.n - 1;
	}
	s->last[i] = off;
}

/*
 * Which jobs gone from memory a copied move counted: every one that was
 * in memory then (its JOB_NEW before the move, its JOB_CLEAN after), a
 * superset of the pending jobs of the move's queue and class.  Copying
 * such a job whole makes the move find the same jobs ahead on replay;
 * its own moves to positions above 1 are then copied too, and counted
 * jobs in turn.  Moves to position 1 (plain btop/bbot) do not depend on
 * the jobs around: the first or last of the class, whichever it is.
 */
void
ev_sw_decide(struct ev_sw_sel *s)
{
	off_t *work;
	size_t nwork = 0;

	if (s->nmoves == 0 || s->njobs == 0)
		return;
	/* Each move enters the work list once: from its live job, or when
	 * its job becomes kept. */
	work = xcalloc(s->nmoves, sizeof(*work));
	for (size_t i = 0; i < s->nmoves; i++)
		if (s->moves[i].live)
			work[nwork++] = s->moves[i].off;
	while (nwork > 0) {
		off_t m = work[--nwork];

		for (size_t i = 0; i < s->jobs_size; i++) {
			struct ev_sw_job *j = &s->jobs[i];

			if (j->jobid == 0 || j->kept || j->first < 0 ||
			    j->clean < 0 || !(j->first < m && m < j->clean))
				continue;
			j->kept = true;
			for (size_t k = 0; k < s->nmoves; k++)
				if (s->moves[k].jobid == j->jobid)
					work[nwork++] = s->moves[k].off;
		}
	}
	free(work);
}

bool
ev_sw_keep(const struct ev_sw_sel *s, const struct ev_sw_rec *x, off_t off,
    bool live)
{
	const struct ev_sw_job *j;
	ssize_t i;

	switch (x->kind) {
	case EVSW_JOB:
		if (live)
			return true;
		/* Gone, but counted by a copied move. */
		j = job_look(s, x->jobid);
		return j != NULL && j->kept;
	case EVSW_CTRL:
		i = key_index(s, x->key);
		return i >= 0 && s->last[i] == off;
	default:
		return false;
	}
}

/* the switch */

struct sw {
	const char	*base;		/* the mapped old file */
	off_t		 size;
	const char	*path;
};

/* Call fn for every record of the old file. */
static int
each_record(struct sw *w, int (*fn)(void *, struct ev_reader *, off_t,
    size_t), void *arg, char **cause)
{
	const char *p = w->base, *end = w->base + w->size, *nl, *why;
	struct ev_reader r;

	for (; p < end; p = nl + 1) {
		off_t off = p - w->base;

		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL) {
			*cause = xasprintf("%s: offset %lld: record has no "
			    "newline", w->path, (long long)off);
			return -1;
		}
		if (evlog_line_check(p, (size_t)(nl - p), off, &r, &why) < 0) {
			*cause = xasprintf("%s: offset %lld: %s", w->path,
			    (long long)off, why);
			return -1;
		}
		if (r.end == NULL)
			continue;	/* the header */
		if (fn(arg, &r, off, (size_t)(nl - p) + 1) < 0) {
			*cause = xasprintf("%s: offset %lld: bad \"%s\" record",
			    w->path, (long long)off, r.type);
			return -1;
		}
	}
	return 0;
}

struct pass {
	struct ev_sw_sel sel;
	const struct evlog_switch_ops *ops;
	struct evlog_switch_result *res;
	struct sw	*w;
	int		 fd;		/* the fresh file */
	struct strbuf	 out;		/* not yet written to fd */
	off_t		 written;
	int64_t		 newest;	/* the old file's newest record */
	size_t		 cap;
	int		 io_errno;	/* a write of the fresh file failed */
};

static int
note_cb(void *arg, struct ev_reader *r, off_t off, size_t len)
{
	struct pass *ps = arg;
	struct ev_sw_rec x;

	if (ev_sw_classify(r, &x) < 0)
		return -1;
	ev_sw_note(&ps->sel, &x, off, x.kind == EVSW_JOB &&
	    ps->ops->live(ps->ops->arg, x.jobid));
	ev_sw_rec_release(&x);
	if (r->when > ps->newest)
		ps->newest = r->when;
	ps->res->nread++;
	if (r->id < 0) {
		/* A newer version's: not carried forward, and said so. */
		if (ps->res->nunknown++ == 0)
			snprintf(ps->res->unknown_type,
			    sizeof(ps->res->unknown_type), "%s", r->type);
	}
	return 0;
}

static int
drain(struct pass *ps)
{
	if (write_all(ps->fd, ps->out.buf, ps->out.len) < 0)
		return -1;
	ps->written += (off_t)ps->out.len;
	sb_reset(&ps->out);
	return 0;
}

static int
copy_cb(void *arg, struct ev_reader *r, off_t off, size_t len)
{
	struct pass *ps = arg;
	struct evlog_switch_result *res = ps->res;
	struct ev_sw_rec x;
	bool live, keep;

	if (ev_sw_classify(r, &x) < 0)
		return -1;
	live = x.kind == EVSW_JOB && ps->ops->live(ps->ops->arg, x.jobid);
	keep = ev_sw_keep(&ps->sel, &x, off, live);
	if (keep && x.job_new) {
		if (res->nmoved == ps->cap) {
			ps->cap = ps->cap ? ps->cap * 2 : 1024;
			res->moved = xrealloc(res->moved,
			    ps->cap * sizeof(*res->moved));
		}
		res->moved[res->nmoved].jobid = x.jobid;
		res->moved[res->nmoved].off = ps->written +
		    (off_t)ps->out.len;
		res->nmoved++;
	}
	ev_sw_rec_release(&x);
	if (!keep)
		return 0;
	sb_add(&ps->out, ps->w->base + off, len);
	res->ncopied++;
	if (ps->out.len >= (1u << 20) && drain(ps) < 0) {
		ps->io_errno = errno;
		return -1;
	}
	return 0;
}

static int
gen_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? 1 : x > y ? -1 : 0;	/* descending: oldest first */
}

int
evlog_generations(const char *path, long **out, size_t *nout, char **cause)
{
	char *dcopy = xstrdup(path), *ncopy = xstrdup(path);
	const char *dir = dirname(dcopy), *name = basename(ncopy);
	size_t nlen = strlen(name);
	long *gen = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	*out = NULL;
	*nout = 0;
	*cause = NULL;
	if ((d = opendir(dir)) == NULL) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		free(dcopy);
		free(ncopy);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		const char *s = de->d_name;
		char *e;
		long g;

		if (strncmp(s, name, nlen) != 0 || s[nlen] != '.' ||
		    s[nlen + 1] < '1' || s[nlen + 1] > '9')
			continue;
		errno = 0;
		g = strtol(s + nlen + 1, &e, 10);
		if (*e != '\0' || errno != 0 || g <= 0 || g >= 1000000000)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			gen = xrealloc(gen, cap * sizeof(*gen));
		}
		gen[n++] = g;
	}
	closedir(d);
	if (n > 0)
		qsort(gen, n, sizeof(*gen), gen_cmp);
	free(dcopy);
	free(ncopy);
	*out = gen;
	*nout = n;
	return 0;
}

/* lsb.events.N -> lsb.events.N+1, from the oldest down. */
static int
shift_generations(const char *path, int *count, char **cause)
{
	long *gen;
	size_t n;
	int rc = 0;

	*count = 0;
	if (evlog_generations(path, &gen, &n, cause) < 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *from = xasprintf("%s.%ld", path, gen[i]);
		char *to = xasprintf("%s.%ld", path, gen[i] + 1);

		if (rename(from, to) < 0) {
			*cause = xasprintf("rename %s %s: %s", from, to,
			    strerror(errno));
			rc = -1;
		} else
			(*count)++;
		free(from);
		free(to);
	}
	free(gen);
	return rc;
}

/*
 * The duplicate follows a switch of lg: its generations are renamed up
 * as lg's were, its lsb.events becomes its lsb.events.1 with lg's new
 * header there, and a copy of lg's fresh file, synced, is renamed over
 * its lsb.events.  Any failure leaves the duplicate off (caught up
 * later by evlog_dup_resync); lg itself is switched already.
 */
static void
dup_switch(struct evlog *lg, struct evlog_switch_result *res)
{
	char *one = xasprintf("%s.1", lg->dup_path);
	char *lone = xasprintf("%s.1", lg->path);
	char hdr[EVLOG_HEADER_LEN];
	char *cause = NULL;
	int n, fd;

	if (shift_generations(lg->dup_path, &n, &cause) < 0)
		goto fail;
	(void)unlink(one);
	if (link(lg->dup_path, one) < 0) {
		cause = xasprintf("link %s %s: %s", lg->dup_path, one,
		    strerror(errno));
		goto fail;
	}
	/* lsb.events.1 the same on both sides, its header included. */
	if ((fd = open(lone, O_RDONLY | O_CLOEXEC)) >= 0) {
		if (pread(fd, hdr, sizeof(hdr), 0) == (ssize_t)sizeof(hdr) &&
		    hdr[0] == '#' && hdr[sizeof(hdr) - 1] == '\n')
			(void)pwrite(lg->dup_fd, hdr, sizeof(hdr), 0);
		close(fd);
	}
	close(lg->dup_fd);
	lg->dup_fd = -1;
	lg->dup_on = false;
	/* Its seal says "either" (evlog_switch) until the attach below
	 * writes the fresh file's. */
	if (lg->dup_seal_fd >= 0)
		close(lg->dup_seal_fd);
	lg->dup_seal_fd = -1;
	if (evlog_dup_copy_fd(lg->fd, lg->size, lg->dup_path, &cause) < 0 ||
	    evlog_dup_attach(lg, lg->dup_path, &cause) < 0)
		goto fail;
	goto out;
fail:
	if (lg->dup_on) {
		close(lg->dup_fd);
		lg->dup_fd = -1;
		lg->dup_on = false;
	}
	if (lg->dup_seal_fd >= 0)
		close(lg->dup_seal_fd);
	lg->dup_seal_fd = -1;
	res->dup_cause = cause;
out:
	free(one);
	free(lone);
}

int
evlog_dup_finish_switch(const char *done, const char *behind, char **cause)
{
	char *one = xasprintf("%s.1", behind);
	char *done1 = xasprintf("%s.1", done);
	char hdr[EVLOG_HEADER_LEN];
	int n, fd, rc = -1;

	*cause = NULL;
	if (shift_generations(behind, &n, cause) < 0)
		goto out;
	if (link(behind, one) < 0) {
		*cause = xasprintf("link %s %s: %s", behind, one,
		    strerror(errno));
		goto out;
	}
	if ((fd = open(done1, O_RDONLY | O_CLOEXEC)) >= 0) {
		int wfd = open(one, O_WRONLY | O_CLOEXEC);

		if (wfd >= 0 &&
		    pread(fd, hdr, sizeof(hdr), 0) == (ssize_t)sizeof(hdr))
			(void)pwrite(wfd, hdr, sizeof(hdr), 0);
		if (wfd >= 0)
			close(wfd);
		close(fd);
	}
	rc = evlog_dup_copy(done, behind, cause);
out:
	free(one);
	free(done1);
	return rc;
}

/*
 * The order makes every crash leave a lsb.events that replays to the
 * whole state:
 *
 * 1. lsb.events.tmp is written and fdatasync'ed.  Until step 4, the
 *    name lsb.events is the old file, complete (nothing is pending), and
 *    lsb.events.tmp is only a leftover the next switch overwrites.
 * 2. Older generations are renamed up.  A crash half-way leaves a gap
 *    in the numbers, never two files with one name.
 * 3. lsb.events is hard-linked as lsb.events.1: the old file now has
 *    both names, so there is no moment without a lsb.events.  A crash
 *    here leaves lsb.events.1 the same file as lsb.events; the next
 *    switch finds that (same inode) and drops the extra name first.
 * 4. rename(lsb.events.tmp, lsb.events) replaces the name atomically:
 *    before it, the old file; after it, the fresh one, durable since 1.
 * 5. The directory is fsync'ed: the renames are on disk before
 *    anything is appended to the fresh file and acknowledged.
 * 6. The old file's header becomes "#<time>" of its newest record, in
 *    place (same width).  Only history readers look at it; a crash
 *    leaves the old offset there, which they do not use (they skip the
 *    copied part of a generation up to its LOG_SWITCH record).
 *
 * A sealed log (evlog_seal_open) must never have a seal that the name
 * lsb.events does not satisfy, or a crash would make a false refusal:
 * between 1 and 2 both slots of each side's seal say "either" (the fresh
 * file's size and token, or the old file's), synced, which every file
 * the name may lead to from there on satisfies; after 5 lg's seal says
 * the fresh file alone, synced, and the duplicate's follows when it is
 * attached to its fresh copy (dup_switch).  A seal that cannot be
 * written before the rename stops the switch: nothing is changed.
 */
int
evlog_switch(struct evlog *lg, const struct evlog_switch_ops *ops,
    struct evlog_switch_result *res, bool *committed, char **cause)
{
	struct pass ps;
	struct sw w;
	struct strbuf rec = STRBUF_INIT;
	struct stat st_cur, st_one;
	char hdr[EVLOG_HEADER_LEN + 1], tail[9];
	char *tmp = NULL, *one = NULL, *dcopy = NULL;
	const char *dir;
	void *map = MAP_FAILED;
	int rc = -1, err;

	memset(res, 0, sizeof(*res));
	memset(&ps, 0, sizeof(ps));
	*committed = false;
	*cause = NULL;
	ps.fd = -1;
	if (lg->fd < 0 || lg->pending.len > 0 || lg->size <= 0) {
		*cause = xasprintf("%s: not ready to switch", lg->path);
		return -1;
	}
	dcopy = xstrdup(lg->path);
	dir = dirname(dcopy);
	tmp = xasprintf("%s.tmp", lg->path);
	one = xasprintf("%s.1", lg->path);
	res->old_size = lg->size;

	map = mmap(NULL, (size_t)lg->size, PROT_READ, MAP_PRIVATE, lg->fd, 0);
	if (map == MAP_FAILED) {
		*cause = xasprintf("%s: mmap: %s", lg->path, strerror(errno));
		goto out;
	}
	(void)madvise(map, (size_t)lg->size, MADV_SEQUENTIAL);
	w.base = map;
	w.size = lg->size;
	w.path = lg->path;
	ev_sw_sel_init(&ps.sel);
	ps.ops = ops;
	ps.res = res;
	ps.w = &w;
	if (each_record(&w, note_cb, &ps, cause) < 0)
		goto out;
	ev_sw_decide(&ps.sel);

	/* 1. The fresh file. */
	ps.fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (ps.fd < 0) {
		*cause = xasprintf("%s: %s", tmp, strerror(errno));
		goto out;
	}
	evlog_header_fmt(hdr, 0);
	sb_add(&ps.out, hdr, EVLOG_HEADER_LEN);
	if (each_record(&w, copy_cb, &ps, cause) < 0) {
		if (ps.io_errno != 0) {
			/* A write failed, not a record. */
			free(*cause);
			*cause = xasprintf("%s: %s", tmp,
			    strerror(ps.io_errno));
		}
		goto out;
	}
	/* An empty strbuf has no buffer: memcpy from NULL is undefined. */
	if (ops->extra != NULL && ops->extra->len > 0)
		sb_add(&ps.out, ops->extra->buf, ops->extra->len);
	{
		struct ev_log_switch ls = { .last_jobid = ops->last_jobid };

		ev_log_switch_write(&rec, ops->now, &ls);
		sb_add(&ps.out, rec.buf, rec.len);
	}
	if (drain(&ps) < 0)
		goto io;
	res->new_size = ps.written;
	evlog_header_fmt(hdr, res->new_size);
	if (pwrite(ps.fd, hdr, EVLOG_HEADER_LEN, 0) != EVLOG_HEADER_LEN ||
	    fdatasync(ps.fd) < 0)
		goto io;
	/* The fresh file ends with LOG_SWITCH: its token. */
	memcpy(tail, rec.buf + rec.len - 9, 8);
	tail[8] = '\0';
	if (lg->seal_on) {
		struct evlog_seal t = lg->seal;

		t.seq++;
		t.when = ops->now;
		t.size = res->new_size;
		memcpy(t.token, tail, sizeof(t.token));
		if (ops->last_jobid + 1 > t.next_jobid)
			t.next_jobid = ops->last_jobid + 1;
		t.alt_size = lg->size;
		memcpy(t.alt_token, lg->tail, sizeof(t.alt_token));
		if (evlog_seal_put(lg, &t, 3, true, true) < 0) {
			*cause = xasprintf("%s%s: %s", lg->path,
			    EVLOG_SEAL_SUFFIX, strerror(errno));
			goto out;
		}
	}

	/* 2. and 3. */
	if (fstat(lg->fd, &st_cur) == 0 && stat(one, &st_one) == 0 &&
	    st_cur.st_dev == st_one.st_dev && st_cur.st_ino == st_one.st_ino &&
	    unlink(one) < 0) {
		*cause = xasprintf("%s: %s", one, strerror(errno));
		goto out;
	}
	if (shift_generations(lg->path, &res->generations, cause) < 0)
		goto out;
	if (link(lg->path, one) < 0) {
		*cause = xasprintf("link %s %s: %s", lg->path, one,
		    strerror(errno));
		goto out;
	}
	/* 4. */
	if (rename(tmp, lg->path) < 0) {
		*cause = xasprintf("rename %s %s: %s", tmp, lg->path,
		    strerror(errno));
		(void)unlink(one);
		goto out;
	}
	*committed = true;
	/* From here on, lg is the fresh file; its descriptor's position is
	 * at its end already (the header went by pwrite). */
	{
		int old = lg->fd;

		lg->fd = ps.fd;
		lg->size = res->new_size;
		memcpy(lg->tail, tail, sizeof(lg->tail));
		ps.fd = old;
	}
	rc = 0;
	/* 5. */
	if (fsync_dir(dir) < 0) {
		*cause = xasprintf("%s: fsync: %s", dir, strerror(errno));
		rc = -1;
		goto out;
	}
	if (lg->seal_on) {
		struct evlog_seal t = lg->seal;

		t.seq++;
		t.alt_size = 0;
		t.alt_token[0] = '\0';
		/* Failing, it still says "either": the fresh file passes. */
		(void)evlog_seal_put(lg, &t, 1, false, true);
	}
	/* 6. A file from before headers has no line to rewrite.  A
	 * failure costs only the date there: not worth stopping for. */
	if (w.size >= EVLOG_HEADER_LEN && w.base[0] == '#' &&
	    w.base[EVLOG_HEADER_LEN - 1] == '\n') {
		evlog_header_fmt(hdr, ps.newest);
		res->header_failed = pwrite(ps.fd, hdr, EVLOG_HEADER_LEN, 0) !=
		    EVLOG_HEADER_LEN;
	}
	if (lg->dup_on)
		dup_switch(lg, res);
	goto out;
io:
	*cause = xasprintf("%s: %s", tmp, strerror(errno));
out:
	err = errno;
	if (!*committed && ps.fd >= 0)
		(void)unlink(tmp);
	if (ps.fd >= 0)
		close(ps.fd);
	if (map != MAP_FAILED)
		munmap(map, (size_t)w.size);
	if (!*committed) {
		free(res->moved);
		res->moved = NULL;
		res->nmoved = 0;
	}
	ev_sw_sel_release(&ps.sel);
	sb_release(&ps.out);
	sb_release(&rec);
	free(tmp);
	free(one);
	free(dcopy);
	errno = err;
	return rc;
}
