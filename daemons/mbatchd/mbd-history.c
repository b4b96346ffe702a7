/*
 * The job history database (include/history.h), kept by a thread of its
 * own so that mbatchd's loop never waits for sqlite: the thread tails
 * lsb.events and lsb.acct and writes what they gained, in transactions
 * that also save how far each file was read.  A crash at any point
 * leaves the database at a commit; the next start reads on from there,
 * and a record read twice is recognised and skipped, so nothing is lost
 * or doubled.  Identical records are told apart by their ord (how many
 * identical lines precede them in the file, history.h): the thread
 * counts the file's lines as it applies them, and counts those before
 * where it starts when it starts anywhere else than where it stopped.
 *
 * The loop wakes the thread after a turn that wrote (a byte on a pipe,
 * one until the thread has woken); the thread gathers what comes in the
 * next 200 ms into one transaction, so a finished job is visible within a
 * second, and looks every few seconds by itself.  It runs at a lower
 * priority than mbatchd's loop, uses no libevent and takes no signals.
 *
 * Switches: the thread keeps the file it follows open, and knows it by
 * device and inode.  When lsb.events is no longer that file, a switch
 * renamed it lsb.events.1 (or further up): the thread reads it to its
 * end, then each newer generation from where its own history starts
 * (evlog_history_start_fd: the records copied forward are not new), then
 * the new lsb.events.  A database that is missing, of another schema or
 * damaged is rebuilt from every generation there is.
 *
 * Readers: a reader's transaction keeps sqlite from checkpointing the
 * WAL past its snapshot, so while one is open the WAL grows with every
 * commit.  The thread bounds it (LSB_HIST_WAL_LIMIT, history-wal.c):
 * when the WAL is full and a reader still holds an old snapshot, the
 * thread writes nothing more, with every position saved, and looks again
 * each second; the logs keep what it has not read, so it catches up from
 * there once the reader is gone.  mbatchd's loop and its logs never wait
 * for any of this.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "evlog.h"
#include "history.h"
#include "log.h"
#include "mbd.h"

#define HIST_BATCH	4096		/* records per transaction */
#define HIST_CHUNK	(1 << 20)	/* bytes read at once */
#define HIST_IDLE_MS	5000
#define HIST_GATHER_MS	200		/* records gathered after a wake */
#define HIST_HELD_MS	1000		/* looks again while held back */
#define HIST_RETRY_MS	30000		/* opens again when it could not */
#define HIST_SAY_SECS	60		/* says a hold at most this often */

static pthread_t	 hist_thread;
static bool		 hist_running;
static int		 hist_pipe[2] = { -1, -1 };
static atomic_bool	 hist_stop;
static atomic_bool	 hist_kicked;	/* a byte is on its way */
static int64_t		 hist_limit;	/* bytes: LSB_HIST_WAL_LIMIT */

/* Episodes of being held back by a reader, for the log. */
struct hold {
	uint64_t	 since;		/* when this one began (ms), 0: none */
	uint64_t	 said_at;	/* when one was last logged */
	unsigned	 unsaid;	/* episodes since, not logged */
	bool		 said;		/* this one was logged */
};

struct tail {
	struct hist_db	*db;
	const char	*source;	/* "events" or "acct" */
	bool		 acct;
	bool		 held;		/* the WAL is full: stopped before */
	char		*buf;
	size_t		 cap;
	uint64_t	 nbad;
	/* Identical lines before the next one to read: the map counts
	 * file (dev, ino) up to ord_off. */
	struct hist_ord	*ord;
	uint64_t	 ord_dev, ord_ino;
	off_t		 ord_off;
};

static void
pos_of(int fd, off_t off, struct hist_pos *p)
{
	struct stat st;

	memset(p, 0, sizeof(*p));
	if (fstat(fd, &st) == 0) {
		p->dev = st.st_dev;
		p->ino = st.st_ino;
	}
	p->off = off;
}

static bool
same(const struct stat *st, const struct hist_pos *p)
{
	return (uint64_t)st->st_dev == p->dev && (uint64_t)st->st_ino == p->ino;
}

/*
 * Make t's map count fd's lines before off.  The usual case reads on
 * where the last read ended and has nothing to do; a start, a switch (a
 * newer generation from its history's start) or a failed transaction
 * counts the file again from its start, which only hashes lines.
 */
static int
ord_seek(struct tail *t, int fd, const char *path, off_t off)
{
	struct hist_pos p;
	const char *base;
	size_t size;
	char *cause;

	pos_of(fd, off, &p);
	if (t->ord == NULL)
		t->ord = hist_ord_new();
	else if (p.dev == t->ord_dev && p.ino == t->ord_ino &&
	    off == t->ord_off)
		return 0;
	hist_ord_clear(t->ord);
	t->ord_dev = t->ord_ino = 0;
	if (off > 0) {
		if (evlog_map_fd(fd, path, &base, &size, &cause) < 0) {
			log_warnx("history: %s", cause);
			free(cause);
			return -1;
		}
		hist_ord_scan(t->ord, base, size < (size_t)off ? size :
		    (size_t)off);
		munmap((void *)base, size);
	}
	t->ord_dev = p.dev;
	t->ord_ino = p.ino;
	t->ord_off = off;
	return 0;
}

/*
 * Apply the complete lines of fd from off on; 0, -1 (logged), or 1 when
 * the WAL is full and a reader holds it (t->held): the lines before the
 * one it stopped at are in, with the position after them.
 */
static int
tail_file(struct tail *t, int fd, const char *path, off_t off)
{
	struct hist_pos p;
	size_t have = 0;
	uint64_t n = 0;
	char *cause = NULL;
	bool open_tx = false;
	int room;

	if (t->buf == NULL) {
		t->cap = HIST_CHUNK;
		t->buf = xmalloc(t->cap);
	}
	if (ord_seek(t, fd, path, off) < 0)
		return -1;
	for (;;) {
		ssize_t got;
		size_t used = 0;

		if (have == t->cap) {
			/* One line longer than the buffer. */
			t->cap *= 2;
			t->buf = xrealloc(t->buf, t->cap);
		}
		got = pread(fd, t->buf + have, t->cap - have, off + have);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			log_warn("history: read %s", path);
			break;
		}
		if (got == 0)
			break;
		have += (size_t)got;
		for (;;) {
			char *nl = memchr(t->buf + used, '\n', have - used);
			size_t len;
			int rc, ord;

			if (nl == NULL)
				break;
			len = (size_t)(nl - (t->buf + used));
			if (open_tx && !hist_db_wal_fits(t->db, len)) {
				/* The WAL's bound ends this transaction. */
				pos_of(fd, off + used, &p);
				if (hist_db_set_pos(t->db, t->source, &p,
				    &cause) < 0 ||
				    hist_db_commit(t->db, &cause) < 0)
					goto fail;
				open_tx = false;
			}
			if (!open_tx) {
				/* Room in the WAL for one more transaction? */
				if ((room = hist_db_wal_room(t->db, len,
				    &cause)) < 0)
					goto fail;
				if (room == 0) {
					/* The map has counted up to here. */
					t->ord_off = off + (off_t)used;
					t->held = true;
					return 1;
				}
				if (hist_db_begin(t->db, &cause) < 0)
					goto fail;
				open_tx = true;
				n = 0;
			}
			ord = hist_ord_next(t->ord, t->buf + used, len);
			rc = t->acct ? hist_db_acct(t->db, t->buf + used,
			    len, ord, &cause) : hist_db_event(t->db,
			    t->buf + used, len, ord, &cause);
			if (rc < 0) {
				/* The log's own readers judge damage. */
				if (t->nbad++ < 10)
					log_warnx("history: %s: offset %lld: %s",
					    path, (long long)(off + used),
					    cause);
				free(cause);
				cause = NULL;
			}
			used += len + 1;
			if (++n == HIST_BATCH) {
				pos_of(fd, off + used, &p);
				if (hist_db_set_pos(t->db, t->source, &p,
				    &cause) < 0 ||
				    hist_db_commit(t->db, &cause) < 0)
					goto fail;
				open_tx = false;
			}
		}
		memmove(t->buf, t->buf + used, have - used);
		have -= used;
		off += used;
		t->ord_off = off;
		if (open_tx) {
			pos_of(fd, off, &p);
			if (hist_db_set_pos(t->db, t->source, &p, &cause) < 0 ||
			    hist_db_commit(t->db, &cause) < 0)
				goto fail;
			open_tx = false;
		}
	}
	return 0;
fail:
	log_warnx("history: %s", cause ? cause : "database error");
	free(cause);
	if (open_tx)
		hist_db_rollback(t->db);
	/* Counted lines that are not in: count again next time. */
	t->ord_dev = t->ord_ino = 0;
	return -1;
}

/* lsb.events and its generations. */
static int
tail_events(struct tail *t, int *cur)
{
	struct evlog_gens gs;
	struct hist_pos p;
	struct stat st;
	char *cause = NULL;
	size_t k;
	int found, rc = 0;

	found = hist_db_get_pos(t->db, "events", &p);
	/* The usual case: the same file, further on. */
	if (found && *cur >= 0 && stat(mbd->evpath, &st) == 0 &&
	    same(&st, &p)) {
		struct stat cs;

		if (fstat(*cur, &cs) == 0 && same(&cs, &p))
			return tail_file(t, *cur, mbd->evpath, (off_t)p.off);
	}
	if (evlog_gens_open(mbd->evpath, &gs, &cause) < 0) {
		if (errno != ENOENT)
			log_warnx("history: %s", cause);
		free(cause);
		return -1;
	}
	for (k = 0; found && k < gs.n; k++)
		if (fstat(gs.v[k].fd, &st) == 0 && same(&st, &p))
			break;
	if (!found || k == gs.n) {
		/* Not a file there is: everything, the oldest whole (what
		 * it copied forward is all that is left of its jobs' start). */
		if (found)
			log_info("history: catching up from every generation");
		k = 0;
		p.off = 0;
	}
	for (size_t i = k; i < gs.n && rc == 0; i++) {
		/* Held back (rc 1): the next look goes on from here. */
		off_t from = (off_t)p.off;

		if (i > k &&
		    evlog_history_start_fd(gs.v[i].fd, gs.v[i].path, &from,
		    &cause) < 0) {
			log_warnx("history: %s", cause);
			free(cause);
			cause = NULL;
			from = 0;
		}
		rc = tail_file(t, gs.v[i].fd, gs.v[i].path, from);
	}
	if (*cur >= 0)
		close(*cur);
	*cur = gs.n > 0 ? dup(gs.v[gs.n - 1].fd) : -1;
	evlog_gens_release(&gs);
	return rc;
}

static int
tail_acct(struct tail *t, int *cur)
{
	char *path = xasprintf("%s/lsb.acct", mbd->logdir);
	struct hist_pos p;
	struct stat st, cs;
	off_t from = 0;
	int rc;

	if (hist_db_get_pos(t->db, "acct", &p) == 1 && stat(path, &st) == 0 &&
	    same(&st, &p) && st.st_size >= p.off)
		from = (off_t)p.off;
	if (*cur >= 0 && (stat(path, &st) < 0 || fstat(*cur, &cs) < 0 ||
	    st.st_ino != cs.st_ino || st.st_dev != cs.st_dev)) {
		close(*cur);
		*cur = -1;
	}
	if (*cur < 0 && (*cur = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		free(path);
		return 0;		/* no job has finished yet */
	}
	rc = tail_file(t, *cur, path, from);
	free(path);
	return rc;
}

/* Move a damaged database aside (kept for a look), with its WAL. */
static void
move_aside(const char *path)
{
	static const char *const sfx[] = { "", "-wal", "-shm" };
	char *aside = xasprintf("%s.bad", path);

	for (size_t i = 0; i < ARRAY_SIZE(sfx); i++) {
		char *a = xasprintf("%s%s", path, sfx[i]);
		char *b = xasprintf("%s%s", aside, sfx[i]);

		(void)rename(a, b);
		free(a);
		free(b);
	}
	log_warnx("history: %s is damaged; moved aside to %s and rebuilt"
	    " from the logs", path, aside);
	free(aside);
}

/* NULL when it cannot, said once in a row of failures (*failed). */
static struct hist_db *
open_db(bool fresh, bool *failed)
{
	const char *path = mbd->histpath;
	struct hist_db *db;
	char *cause;
	bool damaged;

	if (fresh)
		move_aside(path);
	db = hist_db_open(path, &damaged, &cause);
	if (db == NULL && damaged) {
		log_warnx("history: %s", cause);
		free(cause);
		move_aside(path);
		db = hist_db_open(path, &damaged, &cause);
	}
	if (db == NULL) {
		if (!*failed)
			log_warnx("history: %s; no job history is kept until"
			    " it can be opened (trying every %d seconds)",
			    cause, HIST_RETRY_MS / 1000);
		free(cause);
		*failed = true;
		return NULL;
	}
	if (*failed)
		log_info("history: %s is open again: catching up from the"
		    " logs", path);
	*failed = false;
	hist_db_wal_limit(db, hist_limit);
	return db;
}

/* Wait for a kick or ms. */
static void
hist_wait(int ms)
{
	const struct timespec gather = { 0, HIST_GATHER_MS * 1000000L };
	struct pollfd pfd;
	char drain[64];

	pfd.fd = hist_pipe[0];
	pfd.events = POLLIN;
	if (poll(&pfd, 1, ms) > 0) {
		/* One transaction for a burst of turns, not one each: a
		 * job is still in within a second. */
		nanosleep(&gather, NULL);
		atomic_store(&hist_kicked, false);
		while (read(hist_pipe[0], drain, sizeof(drain)) > 0)
			;
	}
}

/*
 * A reader holds the WAL, full (held), or history has all the logs say
 * again (!held): said at the start of an episode, at most once a minute,
 * and when the history has caught up after it.
 */
static void
hold_say(struct hold *h, struct hist_db *db, bool held)
{
	uint64_t now = mono_ms();

	if (held && h->since == 0) {
		h->since = now;
		h->said = h->said_at == 0 ||
		    now - h->said_at >= HIST_SAY_SECS * 1000;
		if (!h->said) {
			h->unsaid++;
			return;
		}
		log_warnx("history: held back by a reader of %s: its"
		    " write-ahead log is full (%.1f MB, LSB_HIST_WAL_LIMIT=%lld)"
		    " and the reader's transaction keeps it from being"
		    " checkpointed; history waits and catches up from the logs"
		    " when it ends%s", mbd->histpath,
		    (double)hist_db_wal_bytes(db) / (1 << 20),
		    (long long)(hist_limit >> 20),
		    h->unsaid ? " (and was held back shortly before)" : "");
		h->said_at = now;
		h->unsaid = 0;
	} else if (!held && h->since != 0) {
		if (h->said)
			log_info("history: caught up, %.1f s after a reader"
			    " held it back", (double)(now - h->since) / 1000);
		h->since = 0;
	}
}

static void *
hist_main(void *arg)
{
	struct tail ev = { .source = "events" };
	struct tail ac = { .source = "acct", .acct = true };
	struct hold hold = { 0 };
	int cur_ev = -1, cur_ac = -1, rc;
	bool failed = false, fresh = false;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	/* History takes what CPU scheduling and answers leave: on a busy
	 * master it lags a little and catches up in bigger batches. */
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
	while (!atomic_load(&hist_stop)) {
		if (ev.db == NULL) {
			/* Its directory may not be there yet (a disk still
			 * to be mounted): history starts when it is. */
			ev.db = ac.db = open_db(fresh, &failed);
			fresh = false;
			if (ev.db == NULL) {
				hist_wait(HIST_RETRY_MS);
				continue;
			}
		}
		ev.held = ac.held = false;
		/* Held back, lsb.acct waits too: the WAL is full. */
		if ((rc = tail_events(&ev, &cur_ev)) != 1 &&
		    tail_acct(&ac, &cur_ac) != 0)
			rc = -1;
		if (hist_db_damaged(ev.db)) {
			/* From scratch: every generation again. */
			hist_db_close(ev.db);
			ev.db = ac.db = NULL;
			fresh = true;
			continue;
		}
		if (ev.held || ac.held)
			hold_say(&hold, ev.db, true);
		else if (rc == 0)
			hold_say(&hold, ev.db, false);	/* all in */
		hist_wait(ev.held || ac.held ? HIST_HELD_MS : HIST_IDLE_MS);
	}
	/* What was written before the stop is in, unless a reader holds
	 * the WAL: then the next start reads it. */
	if (ev.db) {
		(void)tail_events(&ev, &cur_ev);
		(void)tail_acct(&ac, &cur_ac);
	}
	if (cur_ev >= 0)
		close(cur_ev);
	if (cur_ac >= 0)
		close(cur_ac);
	free(ev.buf);
	free(ac.buf);
	hist_ord_free(ev.ord);
	hist_ord_free(ac.ord);
	if (ev.db)
		hist_db_close(ev.db);
	return NULL;
}

void
history_start(void)
{
	struct conf_diag d;

	/* A directory that will not do is said with its lsf.conf line;
	 * the thread keeps trying it. */
	conf_diag_init(&d);
	lsf_conf_check_hist(&mbd->conf.lsf, &d);
	for (size_t i = 0; i < d.msgs.n; i++)
		log_warnx("%s", d.msgs.v[i]);
	conf_diag_release(&d);
	hist_limit = (int64_t)mbd->conf.lsf.hist_wal_limit << 20;
	if (pipe2(hist_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		log_warn("history: pipe");
		return;
	}
	atomic_store(&hist_stop, false);
	if (pthread_create(&hist_thread, NULL, hist_main, NULL) != 0) {
		log_warnx("history: cannot start its thread");
		return;
	}
	/* Its own name in top -H and /proc. */
	(void)pthread_setname_np(hist_thread, "mbd-history");
	hist_running = true;
}

void
history_kick(void)
{
	char c = 0;

	/* One byte until the thread wakes: a turn costs no system call
	 * while one is on its way. */
	if (!hist_running || atomic_exchange(&hist_kicked, true))
		return;
	if (write(hist_pipe[1], &c, 1) < 0)
		return;
}

void
history_stop(void)
{
	if (!hist_running)
		return;
	atomic_store(&hist_stop, true);
	atomic_store(&hist_kicked, false);
	history_kick();
	pthread_join(hist_thread, NULL);
	hist_running = false;
	close(hist_pipe[0]);
	close(hist_pipe[1]);
	hist_pipe[0] = hist_pipe[1] = -1;
}
