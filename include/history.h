/*
 * Job history: lsb.history.db in LSB_SHAREDIR/<cluster>/logdir, or in
 * LSB_HIST_DB_DIR, an sqlite3 database (WAL) that mbatchd's history
 * thread (mbd-history.c) keeps from lsb.events, its generations and
 * lsb.acct, and that bhist and bacct read.
 * The logs stay the truth: the database is a derived index, rebuilt from
 * them when it is lost, damaged or behind.
 *
 * Tables (the schema is in history-db.c, nowhere else):
 *	jobs	one row per job (jobid, idx): who, where, when, how it ended;
 *	events	the job's timeline: each lsb.events record naming it, its
 *		type, time and raw line (read back with the record reader);
 *	acct	lsb.acct's JOB_FINISH records, with the columns bacct selects
 *		and sums on, and the raw line;
 *	meta	the schema version and how far each source was read.
 * A record is applied once: events and acct rows are unique by (jobid,
 * time, the line's checksum, ord), ord being how many byte-identical
 * lines come before the line in its file (struct hist_ord).  Identical
 * records (bstop, bresume, bstop in one second) are so counted, not
 * collapsed, while a record that is already there changes nothing:
 * reading a source again from an earlier position (a crash between a
 * commit and the next, a rebuild, a replica under another inode) gives
 * each line the ord it had.  Counting from the file's start (the records
 * a switch copied forward included) gives the same ords in every
 * generation: a switch copies all records of a live job, verbatim and in
 * their order, so a job's identical lines come before one another in the
 * same number in the old file and the new one.
 */
#ifndef LSF_HISTORY_H
#define LSF_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#define HISTORY_DB_NAME	"lsb.history.db"

/* The states whose time bhist sums, in its column order. */
enum hist_state {
	HS_PEND, HS_PSUSP, HS_RUN, HS_USUSP, HS_SSUSP, HS_UNKWN, HS_NSTATES,
	HS_END = HS_NSTATES, HS_NONE
};

/*
 * Time in each state (history.c, pure): feed the job's records in order
 * with hist_times_feed, then hist_times_end.  The clock is the caller's
 * (now, for a job not yet finished).
 */
struct hist_times {
	enum hist_state	 state;
	int64_t		 since;
	int64_t		 secs[HS_NSTATES];
	int64_t		 end;		/* when it finished, else 0 */
};
void	 hist_times_init(struct hist_times *);
/* A record of type with its time, and for JOB_STATUS its status bits
 * (JOB_NEW: JOB_STAT_PSUSP when submitted held; others: 0). */
void	 hist_times_feed(struct hist_times *, const char *type, int64_t when,
	    int status);
/* The total up to the end (finished) or now. */
int64_t	 hist_times_end(struct hist_times *, int64_t now);
/* The state a JOB_STATUS status means. */
enum hist_state hist_state_of(int status);

/*
 * bhist -l's lines for a job's records (history-render.c), fed in order:
 * what came before decides some wording (who stopped it, what it is
 * resumed from).
 */
struct hist_render {
	FILE		*fp;
	const char	*indent;	/* before each line */
	char		 tag[48];	/* after its date: "Job <N>, " (-t) */
	bool		 brief;		/* -b: the submission without details */
	enum hist_state	 state;
	const char	*sig_user;	/* of the last JOB_SIGNAL */
	char		 sig_user_buf[64];
};
void	 hist_render_init(struct hist_render *, FILE *, bool brief,
	    const char *indent);
void	 hist_render_line(struct hist_render *, const char *type,
	    const char *line, size_t len);

/*
 * The bound on the write-ahead log (history-wal.c, pure).  A reader's
 * transaction keeps the WAL from being checkpointed past the snapshot it
 * reads and from starting again at its beginning, so while one is open
 * every commit makes the WAL longer.  The writer asks before each record
 * whether its transaction may take it: the frames in the WAL, what the
 * transaction's records may add (hist_wal_cost) and its fixed part must
 * fit under the bound.  When they do not, the transaction is committed;
 * when a new one has no room, all of the WAL must be checkpointed and
 * the WAL started again first, which a reader on an older snapshot
 * prevents: the writer then adds nothing until it can.  The logs keep
 * what it has not read, so history falls behind and catches up; nothing
 * is lost.  Frames are the WAL's unit: a page and its 24-byte header.
 */
#define HIST_WAL_CKPT		1000	/* frames: sqlite's autocheckpoint */
struct hist_wal {
	int64_t		 limit;		/* frames the WAL may hold; 0: no bound */
	int64_t		 ckpt;		/* frames from which to checkpoint */
	int64_t		 frames;	/* in the WAL after the last commit */
	int64_t		 fixed;		/* a transaction's fixed part: the most
					 * one added beyond its records' cost */
	int64_t		 txn;		/* the open transaction's records' cost */
	int		 page;		/* the database's page size */
};
/* A bound of limit bytes (0: none) on a database of page_size pages. */
void	 hist_wal_init(struct hist_wal *, int64_t limit, int page_size);
/* The frames a record of a line of len bytes may add. */
int64_t	 hist_wal_cost(const struct hist_wal *, size_t len);
/* May the open transaction (or a new one) take a record of len bytes? */
bool	 hist_wal_fits(const struct hist_wal *, size_t len);
/* It has taken one. */
void	 hist_wal_add(struct hist_wal *, size_t len);
/* A commit left frames in the WAL; true if a checkpoint is due. */
bool	 hist_wal_commit(struct hist_wal *, int64_t frames);
void	 hist_wal_rollback(struct hist_wal *);
/* A checkpoint of all of it emptied the WAL. */
void	 hist_wal_restart(struct hist_wal *);
/* A WAL of frames pages, in bytes. */
int64_t	 hist_wal_bytes(int64_t frames, int page_size);

/* The database (history-db.c). */
struct hist_db;
/* Open for writing, creating or upgrading the schema; NULL with *cause.
 * *damaged says sqlite found the file corrupt (the caller moves it aside
 * and starts again). */
struct hist_db *hist_db_open(const char *path, bool *damaged, char **cause);
/* Where the cluster's database is: in LSB_HIST_DB_DIR if lsf.conf sets
 * it, else in LSB_SHAREDIR/<cluster>/logdir; allocated (history-open.c).
 * mbatchd's writer and reader, bhist and bacct all find it here. */
struct lsf_config;
char	*hist_db_path(const struct lsf_config *);
/* bhist's and bacct's: the cluster's database read-only (its path in
 * *path if not NULL), and the invoker's user name; they exit on failure
 * (history-open.c). */
struct hist_db *hist_db_open_cmd(const char *prog, char **path);
char	*hist_invoker(void);
/*
 * Readers' transactions kept short (history-open.c): a read transaction
 * holds the writer's WAL (struct hist_wal), so a command never keeps one
 * open while it prints, which may wait on a pager for as long as its
 * user reads.  hist_rowids: what a query's first column gives (rowids),
 * in its order, read to the end at once.  hist_rows_each: for each of
 * them the row by_id gives (bound to ?1), a chunk at a time, each chunk
 * in a transaction of its own that has ended before fn sees its rows.
 * The rows they are used on are never changed once written, so the
 * chunks agree with the snapshot the rowids came from.  Both exit on a
 * database error.
 */
struct sqlite3_stmt;
struct sqlite3_value;
int64_t	*hist_rowids(struct sqlite3_stmt *, size_t *n);
void	 hist_rows_each(struct sqlite3_stmt *by_id, const int64_t *ids,
	    size_t n, void (*fn)(struct sqlite3_value **, void *), void *arg);
/* Open read-only (bhist, bacct): NULL with *cause. */
struct hist_db *hist_db_open_ro(const char *path, char **cause);
void	 hist_db_close(struct hist_db *);
/* Has a statement found the file damaged?  The writer starts again. */
bool	 hist_db_damaged(struct hist_db *);
/* The underlying handle, for readers' own queries. */
struct sqlite3	*hist_db_handle(struct hist_db *);

/* Writing: records between begin and commit are one transaction. */
int	 hist_db_begin(struct hist_db *, char **cause);
int	 hist_db_commit(struct hist_db *, char **cause);
void	 hist_db_rollback(struct hist_db *);
/*
 * The WAL's bound (struct hist_wal): limit bytes, 0 for none (the
 * default).  Before each record of len bytes the writer asks
 * hist_db_wal_fits whether the open transaction may take it (if not, it
 * commits first), and before a transaction hist_db_wal_room: 1 go on, 0
 * the WAL is full and a reader holds it (write nothing now, ask again
 * later), -1 with *cause.
 */
void	 hist_db_wal_limit(struct hist_db *, int64_t limit);
bool	 hist_db_wal_fits(struct hist_db *, size_t len);
int	 hist_db_wal_room(struct hist_db *, size_t len, char **cause);
int64_t	 hist_db_wal_bytes(struct hist_db *);	/* as the last commit left it */
/*
 * One lsb.events line (without its newline), or one lsb.acct line: 1
 * applied, 0 already there or not a job's record, -1 with *cause when it
 * is damaged (the caller logs it and goes on: the log's own reader
 * stops mbatchd on damage, history only skips).
 */
int	 hist_db_event(struct hist_db *, const char *line, size_t len,
	    int ord, char **cause);
int	 hist_db_acct(struct hist_db *, const char *line, size_t len,
	    int ord, char **cause);
/* How far a source was read: its file's identity and the offset. */
struct hist_pos {
	uint64_t	 dev;
	uint64_t	 ino;
	int64_t		 off;
};
int	 hist_db_get_pos(struct hist_db *, const char *source,
	    struct hist_pos *);	/* 0 none saved, 1 found */
int	 hist_db_set_pos(struct hist_db *, const char *source,
	    const struct hist_pos *, char **cause);

/*
 * A line's ord (history-ord.c): hist_ord_next gives how many lines
 * identical to it the map has counted, and counts it.  A reader that
 * starts in the middle of a file first counts what comes before
 * (hist_ord_scan, complete lines only).
 */
struct hist_ord;
struct hist_ord	*hist_ord_new(void);
void	 hist_ord_free(struct hist_ord *);
void	 hist_ord_clear(struct hist_ord *);
int	 hist_ord_next(struct hist_ord *, const char *line, size_t len);
void	 hist_ord_scan(struct hist_ord *, const char *buf, size_t len);

#endif
