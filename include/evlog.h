/*
 * lsb.events: the append-only log mbatchd rebuilds its state from.
 *
 * One record per line in LSF's syntax,
 *
 *	"JOB_NEW" "10.1" 1700000000 101 1000 ... @1a2b3c4d
 *
 * strings double-quoted with an embedded '"' doubled, numbers bare, lists
 * as a count and the items.  Fields are LSF's, in LSF's order, so tools
 * that read lsb.events by position keep working; fields of our own come
 * after LSF's (readers tolerate extra trailing fields and default missing
 * ones, which is how records stay extensible).  Control characters and
 * '\' inside strings are escaped C-style (\n, \\, \xHH) so a record stays
 * one line.  The last token, '@' and eight hex digits, is the CRC-32C of
 * the line before it: a damaged record anywhere stops start-up with the
 * file and offset; a last line without its newline whose checksum also
 * fails (a torn write) is kept aside in lsb.events.torn and cut off.
 * There are no comments.  What mbatchd acknowledged is kept beside the
 * log, in lsb.events.seal (below), so that a log cut at a line boundary
 * or replaced by an older copy is refused too.
 *
 * The first line is "#<offset>" as in LSF: the offset of the first record
 * written since the last switch (before it, the records copied forward,
 * see evlog_switch); in an older generation lsb.events.N it becomes
 * "#<time>" of the file's newest record.  It is blank-padded to a fixed
 * width so it can be rewritten in place; a file without one (written
 * before headers) still replays.
 */
#ifndef LSF_EVLOG_H
#define LSF_EVLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "proto.h"
#include "util.h"

/* Writing one record into a buffer. */
void	 ev_begin(struct strbuf *, const char *type, int64_t when);
void	 ev_int(struct strbuf *, int64_t);
void	 ev_float(struct strbuf *, const char *fmt, double);
void	 ev_str(struct strbuf *, const char *);	/* NULL writes "" */
void	 ev_strv(struct strbuf *, const struct strv *);	/* count + items */
/* Append the checksum and the newline; rec_start is where ev_begin
 * started writing in the buffer. */
void	 ev_end(struct strbuf *, size_t rec_start);

/* Reading one record. */
struct ev_reader {
	const char	*p;		/* next field */
	const char	*end;		/* end of fields (before the CRC) */
	bool		 err;
	char		 type[32];
	int		 id;		/* enum ev_type, -1 unknown */
	char		 version[16];
	int64_t		 when;
	struct strbuf	*scratch;	/* for borrowed reads, or NULL */
	bool		 borrow;	/* strings point into scratch */
};
/*
 * Check the CRC and read the three common fields of the line [line,
 * line+len) (without its newline).  Returns 0, or -1 with *why set.
 */
int	 evr_init(struct ev_reader *, const char *line, size_t len,
	    const char **why);
bool	 evr_int(struct ev_reader *, int64_t *);
bool	 evr_i32(struct ev_reader *, int *);
bool	 evr_u32(struct ev_reader *, uint32_t *);
bool	 evr_float(struct ev_reader *, double *);
bool	 evr_str(struct ev_reader *, char **);	/* allocated */
bool	 evr_strv(struct ev_reader *, struct strv *);
bool	 evr_skip(struct ev_reader *);
/* No fields left? */
bool	 evr_at_end(const struct ev_reader *);
/* Optional trailing fields: the default when the record is older. */
bool	 evr_int_opt(struct ev_reader *, int64_t *, int64_t dflt);
bool	 evr_i32_opt(struct ev_reader *, int *, int dflt);
bool	 evr_str_opt(struct ev_reader *, char **);
/*
 * Reading without allocating: between evr_borrow_begin and
 * evr_borrow_end, evr_str and evr_strv give strings and arrays in the
 * scratch buffer given to evr_set_scratch (evlog_replay gives one), valid
 * until the next record; they are never freed.  -1 without a scratch.
 */
void	 evr_set_scratch(struct ev_reader *, struct strbuf *);
int	 evr_borrow_begin(struct ev_reader *);
void	 evr_borrow_end(struct ev_reader *);

/*
 * The seal: path.seal beside the log (one in each directory with
 * LSB_LOCALDIR) says what mbatchd acknowledged, where a log cut short at
 * a line boundary, or replaced by an older copy, cannot hide it.  One
 * line in the records' syntax, with its own checksum token:
 *
 *	"SEAL" "10.1" <time> <seq> <size> "<token>" <next job ID>
 *	    <alt size> "<alt token>" "<host>" <blanks> @1a2b3c4d
 *
 * size is the log's length once a turn's write and fdatasync returned,
 * token the checksum token (8 hex digits) of the record that ends there,
 * which a restored or different file does not have there even when it is
 * long enough; the next job ID is the high-water of the IDs given.  The
 * seal is written after the log's sync, so it never claims more than the
 * disk holds, and before the answers leave, so it covers every one; it
 * is synced once a second, at a switch and at a clean stop (a lagging
 * seal claims less, which is safe).  The file holds two such lines of
 * EVLOG_SEAL_SLOT bytes, each in its own sector, written in turn: a
 * write torn by a power cut damages one, seq picks the newer good one.
 * Around a switch both say "either": size and token of the fresh file,
 * alt_size and alt_token of the old one (evlog_switch).
 */
#define EVLOG_SEAL_SLOT		512
#define EVLOG_SEAL_HOST_MAX	64
struct evlog_seal {
	uint64_t	 seq;
	int64_t		 when;		/* written */
	off_t		 size;		/* the log's acknowledged length */
	char		 token[9];	/* of the line ending at size, or "" */
	int64_t		 next_jobid;
	off_t		 alt_size;	/* a switch's other file, 0 none */
	char		 alt_token[9];
	char		 host[EVLOG_SEAL_HOST_MAX];	/* mbatchd's */
};

/* The log file. */
struct evlog {
	int		 fd;
	char		*path;
	off_t		 size;		/* bytes on disk (written) */
	struct strbuf	 pending;	/* appended, not yet written */
	uint64_t	 nrecords;	/* appended since open */
	uint64_t	 nflushes;
	/*
	 * Duplicate logging (LSB_LOCALDIR): the same bytes go to a second
	 * file, dup_path, which is dup_fd while dup_on.  evlog_flush writes
	 * and syncs both; when one fails the other goes on alone (the
	 * failed one, if it was fd, is swapped out so fd is always the
	 * file that holds everything) and dup_lost says so once.
	 */
	bool		 dup_on;
	int		 dup_fd;
	char		*dup_path;	/* kept while off, to catch up */
	int		 dup_lost;	/* errno of the lost side, 0 none */
	char		*dup_lost_path;
	/* The checksum token of the record that ends at size ("" none). */
	char		 tail[9];
	/*
	 * The seal, once evlog_seal_open made seal_on: seal_fd is path's,
	 * dup_seal_fd dup_path's while dup_on; seal is the last written.
	 */
	bool		 seal_on;
	bool		 seal_unsynced;
	int		 seal_fd;
	int		 dup_seal_fd;
	struct evlog_seal seal;
};

/*
 * Replay: call cb for every record of path in order, with the record's
 * byte offset.  Every line is a record whose checksum must match, but
 * the first, which may be the header; nothing is a comment.  Replay
 * stops quietly before an incomplete last line (no newline), which a
 * reader of a live log meets while a record is written, and *valid_end
 * is where good data ends; at start, evlog_tail_check says whether that
 * line is a torn write (keep it with evlog_keep_torn before evlog_open
 * cuts it off) or damage.  Any complete line that fails its checksum or
 * does not parse, the last one included, or a cb returning -1, fails
 * with *cause (allocated, naming the file and offset).  A missing file
 * is an empty log.
 */
typedef int (*evlog_cb)(void *arg, struct ev_reader *, off_t offset);
int	 evlog_replay(const char *path, evlog_cb cb, void *arg,
	    off_t *valid_end, char **cause);
/* The same, of a file already open (left open); path names it in
 * *cause. */
int	 evlog_replay_fd(int fd, const char *path, evlog_cb cb, void *arg,
	    off_t *valid_end, char **cause);
/*
 * The rule above for one line [line, line+len) at offset off: 0 with r
 * ready for the record's fields, or with r->end NULL for the header (a
 * first line that starts with '#', damaged or not, unless it ends with
 * a record's checksum token); -1 with *why.
 */
int	 evlog_line_check(const char *line, size_t len, off_t off,
	    struct ev_reader *r, const char **why);
/*
 * The last line of a log, [line, line+len) at offset off, without its
 * newline: a torn write (0), or damage (-1, *cause allocated, naming
 * path and the offset).  A torn write is a write that never finished, so
 * nothing of it was acknowledged.  A line that holds a whole record, its
 * checksum right once the bytes after its token (a damaged newline) are
 * set aside, is damage; one whose checksum fails is torn.  acked is the
 * length a seal that matches the file says was acknowledged (-1
 * without one): a line that starts there or after is torn whatever its
 * checksum says, since a write cut by kill -9 at a page boundary can end
 * right before a newline.
 */
int	 evlog_tail_check_buf(const char *path, const char *line, size_t len,
	    off_t off, off_t acked, char **cause);
/* The same for path's bytes from valid_end (from replay) on; 0 when
 * there are none. */
int	 evlog_tail_check(const char *path, off_t valid_end, off_t acked,
	    char **cause);
/*
 * Keep the torn tail of path, [valid_end, end of file), for inspection:
 * appended to path.torn after a "#" line saying where it came from and
 * made durable, so that cutting it off the log loses nothing.  0 when
 * there is none, 1 with *len when one was kept, -1 with *cause.
 */
int	 evlog_keep_torn(const char *path, off_t valid_end, off_t *len,
	    char **cause);
/* Read a record's fields with the typed reader of its type, as the
 * offline check does: -1 with *why when they do not parse.  Types this
 * version does not know pass: newer versions may write them. */
int	 ev_record_check(struct ev_reader *, const char **why);
/* Map a whole open file to read it (*size 0 and nothing mapped when it
 * is empty); munmap(*base, *size) after. */
int	 evlog_map_fd(int fd, const char *path, const char **base,
	    size_t *size, char **cause);

/* Open for appending, cutting the file at valid_end (from replay). */
int	 evlog_open(struct evlog *, const char *path, off_t valid_end,
	    char **cause);
void	 evlog_close(struct evlog *);
/* Queue a finished record (from ev_begin..ev_end); returns the offset the
 * record will have in the file. */
off_t	 evlog_append(struct evlog *, const char *rec, size_t len);
/* Write what is pending and fdatasync.  -1 with errno on failure. */
int	 evlog_flush(struct evlog *);
bool	 evlog_dirty(const struct evlog *);
/* Read back the record at offset (for data not kept in memory). */
int	 evlog_read_at(struct evlog *, off_t, struct strbuf *line);

/*
 * The seal (evlog-seal.c).  evlog_seal_fmt writes one slot, a line of
 * EVLOG_SEAL_SLOT bytes with its newline; evlog_seal_parse reads one
 * line [line, line+len) without it (-1 with *why).  evlog_seal_read
 * gives the newest good slot of the seal file sealpath: 1, or 0 when
 * there is no seal (no file, or one never written), -1 with *cause when
 * it cannot be read or no slot is good.
 */
#define EVLOG_SEAL_SUFFIX	".seal"
#define EVLOG_SEAL_LOST		".seal.lost"	/* set aside by an admin */
void	 evlog_seal_fmt(char slot[EVLOG_SEAL_SLOT], const struct evlog_seal *);
int	 evlog_seal_parse(const char *line, size_t len, struct evlog_seal *,
	    const char **why);
int	 evlog_seal_read(const char *sealpath, struct evlog_seal *,
	    char **cause);
/*
 * Does the log path hold what s says was acknowledged: at least s->size
 * bytes, a line ending there with s->token (or the same of alt_size and
 * alt_token)?  0 with *acked the length that matched; 1 when it does not,
 * with *why (allocated) naming path, its length and what mbatchd on
 * s->host acknowledged and when; -1 with *why when path cannot be read.
 * A missing log is an empty one.
 */
int	 evlog_seal_match(const char *path, const struct evlog_seal *,
	    off_t *acked, char **why);
/* The checksum token of the line of fd that ends at off: 0 with tok
 * ("" when that line has none, as the header), -1 when no line ends
 * there (or it cannot be read). */
int	 evlog_token_at(int fd, off_t off, char tok[9]);
/*
 * Seal lg as it is written.  evlog_seal_open opens (creating them) the
 * seals beside lg's file and its duplicate, syncs the logs and writes
 * both slots of each, synced, with lg's size and tail, next_jobid and
 * seq + 1 (seq: the highest read at start); a duplicate whose seal
 * cannot be written is lost as a failed write would lose it.
 * evlog_seal_write, after each evlog_flush, writes the next slot of each
 * side without syncing; evlog_seal_sync syncs what was written since
 * the last.  -1 with errno.
 */
int	 evlog_seal_open(struct evlog *, uint64_t seq, const char *host,
	    int64_t next_jobid, int64_t now, char **cause);
int	 evlog_seal_write(struct evlog *, int64_t next_jobid, int64_t now);
int	 evlog_seal_sync(struct evlog *);
/* Internal to evlog*.c: write s into one slot (both) of the sides
 * asked for (1 lg's, 2 the duplicate's), synced if sync. */
int	 evlog_seal_put(struct evlog *, const struct evlog_seal *, int sides,
	    bool both, bool sync);
/* Internal: the duplicate just attached gets lg's seal, both slots,
 * synced (nothing without a seal). */
int	 evlog_seal_attach(struct evlog *, char **cause);
/* Internal: before the log at dst is made a copy of lg's, its seal
 * becomes lg's, synced, so that no crash leaves it one about the file
 * it had (a start makes the two logs equal before it checks seals). */
int	 evlog_seal_before_copy(struct evlog *, const char *dst, char **cause);
/*
 * At start with duplicate logging: the log at dst is about to be made a
 * copy of the log at src (caught up, or replaced when replaced), so its
 * seal follows first, for the same reason.  src's seal is copied over
 * dst's; without one, a dst seal about a file to be replaced is set
 * aside as dst.seal.lost, which keeps its job IDs.
 */
int	 evlog_seal_follow(const char *src, const char *dst, bool replaced,
	    char **cause);

/*
 * Duplicate logging (evlog-dup.c).  evlog_dup_compare reads two files
 * (a missing one is empty): 0 when identical, 1 when a is a strict
 * prefix of b, 2 when b is one of a, 3 when they differ at *off; -1
 * with *cause.  evlog_dup_catch_up appends to the file at dst what src
 * has beyond dst's size (dst a prefix of src) and syncs it.
 * evlog_dup_copy makes dst a copy of src: written beside it, synced
 * and renamed over it, the directory synced.
 */
int	 evlog_dup_compare(const char *a, const char *b, off_t *off,
	    char **cause);
/* The same from offset at on (the header of a generation differs). */
int	 evlog_dup_compare_from(const char *a, const char *b, off_t at,
	    off_t *off, char **cause);
int	 evlog_dup_catch_up(const char *src, const char *dst, char **cause);
int	 evlog_dup_copy_fd(int src_fd, off_t size, const char *dst,
	    char **cause);
int	 evlog_dup_copy(const char *src, const char *dst, char **cause);
/* Attach path as lg's duplicate once lg is open: it must hold lg's
 * bytes, a torn tail beyond them is cut.  With lg sealed, its seal is
 * written too (lg's, synced), or the attach fails. */
int	 evlog_dup_attach(struct evlog *, const char *path, char **cause);
/* Make each lsb.events.N of dst a copy of src's where they differ
 * (dst's beyond src's are left); *ncopied says how many were copied. */
int	 evlog_dup_sync_generations(const char *src, const char *dst,
	    int *ncopied, char **cause);
/* Make the duplicate a copy of lg again and attach it (lg's written
 * part; what is pending goes to both at the next flush). */
int	 evlog_dup_resync(struct evlog *, char **cause);

/*
 * The header line: '#', a number, blanks to EVLOG_HEADER_LEN - 1 bytes,
 * and a newline.  evlog_header_parse reads the first line [line,
 * line+len) of a file: 1 with *v when it is a header ("#" and blanks
 * alone, LSF's placeholder, is 0), 0 when it is not one (a record: a file
 * from before headers), -1 with *why when it starts with '#' but is
 * damaged.  evlog_header_read does the same for a file (a missing or
 * empty file: 0).
 */
#define EVLOG_HEADER_LEN	21
void	 evlog_header_fmt(char buf[EVLOG_HEADER_LEN + 1], int64_t v);
int	 evlog_header_parse(const char *line, size_t len, int64_t *v,
	    const char **why);
int	 evlog_header_read(const char *path, int64_t *v, char **cause);

/*
 * Switching (LSF's MAX_JOB_NUM): the records of lsb.events a fresh file
 * must start with so that replaying it alone rebuilds the state.  A
 * record belongs to a job (EVSW_JOB: every record naming a job ID, an
 * array's elements under their array's ID), sets a piece of state that
 * outlives jobs (EVSW_CTRL: HOST_CTRL open/close, QUEUE_CTRL open/close
 * and activate/inactivate; only the last one for each key matters), or
 * is history alone (EVSW_DROP: MBD_START, MBD_DIE, the sbatchd restarts
 * of HOST_CTRL, types this version does not know, which replay skips
 * too), or state the switch writes afresh (EVSW_SUMMARY: LOG_SWITCH and
 * FS_USAGE, dropped from the copy).  EVLOG_RECORDS below says which each
 * type is.
 *
 * One kind of record depends on jobs other than its own: a JOB_MOVE to a
 * position above 1 (btop/bbot N) counts the jobs ahead of it.  So a job
 * gone from memory is copied all the same, from its JOB_NEW to its
 * JOB_CLEAN, when it was in memory when such a move that is copied was
 * made (and then its own such moves count too).
 */
enum ev_sw_kind {
	EVSW_DROP,	/* history alone */
	EVSW_JOB,	/* a job's: copied while it is in memory */
	EVSW_CTRL,	/* host or queue state: its key's last one copied */
	EVSW_SUMMARY,	/* state the switch writes afresh (ops->extra,
			   LOG_SWITCH): the old ones are dropped */
	EVSW_ENVS	/* lsb.envs' own, never in lsb.events */
};
struct ev_sw_rec {
	enum ev_sw_kind	 kind;
	int64_t		 jobid;		/* EVSW_JOB */
	int32_t		 idx;
	bool		 job_new;	/* a JOB_NEW: its offset will change */
	bool		 job_clean;	/* a JOB_CLEAN: it leaves memory */
	int		 move_pos;	/* a JOB_MOVE's position, else 0 */
	char		*key;		/* EVSW_CTRL, allocated */
};
/* -1 when the fields that say which job or key are unreadable. */
int	 ev_sw_classify(struct ev_reader *, struct ev_sw_rec *);
void	 ev_sw_rec_release(struct ev_sw_rec *);
/*
 * The choice: note every record in a first pass (live: its job is still
 * in memory), decide, then ask of each record in the second pass whether
 * it is copied.
 */
struct ev_sw_job;
struct ev_sw_move;
struct ev_sw_sel {
	struct strv	 keys;
	off_t		*last;		/* per key, its last record */
	struct ev_sw_job *jobs;		/* jobs gone, by ID (open hash) */
	size_t		 njobs;
	size_t		 jobs_size;
	struct ev_sw_move *moves;	/* JOB_MOVEs to a position above 1 */
	size_t		 nmoves;
	size_t		 moves_cap;
};
void	 ev_sw_sel_init(struct ev_sw_sel *);
void	 ev_sw_sel_release(struct ev_sw_sel *);
void	 ev_sw_note(struct ev_sw_sel *, const struct ev_sw_rec *, off_t,
	    bool live);
void	 ev_sw_decide(struct ev_sw_sel *);
bool	 ev_sw_keep(const struct ev_sw_sel *, const struct ev_sw_rec *,
	    off_t, bool live);

struct evlog_switch_ops {
	/* Is the job (array) still in memory? */
	bool		(*live)(void *arg, int64_t jobid);
	void		*arg;
	int64_t		 last_jobid;	/* for the LOG_SWITCH record */
	int64_t		 now;
	/* Records of state that outlives the copied ones (FS_USAGE), to go
	 * after them and before LOG_SWITCH; NULL none. */
	const struct strbuf *extra;
};
struct evlog_switch_result {
	/* Where each copied JOB_NEW now is, in file order. */
	struct ev_sw_moved {
		int64_t	 jobid;		/* an array's elements share it */
		off_t	 off;
	}		*moved;
	size_t		 nmoved;
	uint64_t	 nread;		/* records in the old file */
	uint64_t	 ncopied;
	/* Records of types this version does not know (a newer one wrote
	 * them): left in lsb.events.1, not copied; the first one's type. */
	uint64_t	 nunknown;
	char		 unknown_type[32];
	off_t		 old_size;
	off_t		 new_size;	/* with LOG_SWITCH: the header's offset */
	int		 generations;	/* lsb.events.N renamed up */
	bool		 header_failed;	/* lsb.events.1 kept "#<offset>" */
	char		*dup_cause;	/* the duplicate was not switched:
					   it is off (allocated) */
};
/*
 * Switch lg (nothing pending): lsb.events becomes lsb.events.1 (older
 * generations move up by one) and a fresh lsb.events holds the records
 * chosen above, verbatim, then LOG_SWITCH; lg appends to it afterwards.
 * -1 with *cause: nothing changed when *committed is false, else the
 * new file is in place and only tidying failed.  Free res->moved.  A
 * sealed lg's seals say "either" file before the rename, the fresh one
 * after (the order is in evlog-switch.c).
 */
int	 evlog_switch(struct evlog *, const struct evlog_switch_ops *,
	    struct evlog_switch_result *, bool *committed, char **cause);
/*
 * A crash between a switch of one side (done) and of the other (behind):
 * behind is still done.1 but for its header.  Finish the switch of
 * behind as evlog_switch would have.
 */
int	 evlog_dup_finish_switch(const char *done, const char *behind,
	    char **cause);
/* The N of the older generations path.N there are, oldest (highest)
 * first; *out allocated. */
int	 evlog_generations(const char *path, long **out, size_t *n,
	    char **cause);
/* Where an open file's own history starts: after its first LOG_SWITCH
 * record (what precedes it was copied forward), or 0. */
int	 evlog_history_start_fd(int fd, const char *path, off_t *start,
	    char **cause);

/*
 * Every generation of a log, for history readers: path.N oldest first,
 * then path itself, each open, taken as one consistent set.  mbatchd may
 * switch the log while a reader lists it; a set read across a switch
 * could hold one file twice or miss one, so a set is kept only when
 * neither path nor any generation's name changed file while it was
 * opened, and is otherwise taken again.
 */
struct evlog_gen {
	int		 fd;
	char		*path;		/* path or path.N */
};
struct evlog_gens {
	struct evlog_gen *v;
	size_t		 n;
};
int	 evlog_gens_open(const char *path, struct evlog_gens *, char **cause);
void	 evlog_gens_release(struct evlog_gens *);

/*
 * Typed records.  Field lists follow LSF's; the "ext" fields are ours.
 */
struct ev_job_new {
	int64_t		 jobid;
	int		 uid;
	char		*user;
	int64_t		 submit_time;
	char		*queue;		/* the queue chosen */
	char		*job_file;
	char		*res_req;	/* merged -R text */
	char		*env_id;	/* ext: JOB_ENV record holding env */
	int		 idx;
	struct submit_req req;		/* everything bsub sent */
};
struct ev_job_env {
	char		*env_id;
	struct strv	 env;
};
struct ev_job_start {
	int64_t		 jobid;
	int		 status;
	int		 pid;
	int		 pgid;
	struct strv	 exec_hosts;	/* one per slot */
	int		 idx;
	char		*effective_res_req;
	uint32_t	 run_count;	/* ext */
};
struct ev_job_execute {
	int64_t		 jobid;
	int		 exec_uid;
	int		 pgid;
	char		*exec_cwd;
	char		*exec_home;
	char		*exec_user;
	int		 pid;
	int		 idx;
	uint32_t	 run_count;	/* ext */
};
struct ev_job_status {
	int64_t		 jobid;
	int		 status;
	int		 reason;
	int		 subreasons;
	double		 cpu_time;
	int64_t		 end_time;
	int		 exit_status;
	int		 idx;
	int64_t		 max_mem_kb;	/* ext, -1 unknown */
	int64_t		 avg_mem_kb;	/* ext */
	int		 exit_info;	/* ext: TERM_* */
	uint32_t	 run_count;	/* ext */
};
struct ev_job_signal {
	int64_t		 jobid;
	int		 uid;
	uint32_t	 run_count;
	char		*signal;	/* "KILL", "TERM", ... */
	int		 idx;
	char		*user;
	int		 flags;		/* ext: SIG_F_* of the request */
};
struct ev_job_clean {
	int64_t		 jobid;
	int		 idx;
};
struct ev_mbd_start {
	char		*master;
	char		*cluster;
	int		 nhosts;
	int		 nqueues;
	char		*user;		/* ext: the account mbatchd runs as */
};
struct ev_mbd_die {
	char		*master;
	int		 nremoved;
	int		 exit_code;
	char		*user;		/* ext: who asked (badmin mbdrestart) */
	char		*comment;	/* ext: its -C */
};

/*
 * JOB_MOVE: btop/bbot.  Whether the mover administers the job (a queue
 * or cluster administrator: the job moves among all jobs of its
 * priority) or owns it (among the owner's own) is decided when it is
 * asked and kept in the record (ext), so replay does not decide again
 * with what it knows then; a record from before says -1, and replay
 * asks whether the user is a cluster administrator, as it did.
 */
#define EV_MOVE_UNKNOWN	(-1)
#define EV_MOVE_OWN	0
#define EV_MOVE_ALL	1
struct ev_job_move {
	int		 uid;
	int64_t		 jobid;
	int		 position;
	int		 base;		/* 1 top, 2 bottom */
	int		 idx;
	char		*user;
	int		 scope;		/* ext: EV_MOVE_* */
};
struct ev_job_switch {
	int		 uid;
	int64_t		 jobid;
	char		*queue;
	int		 idx;
	char		*user;
};
struct ev_job_requeue {
	int64_t		 jobid;
	int		 idx;
};
struct ev_job_force {
	int64_t		 jobid;
	int		 uid;
	int		 idx;
	int		 options;	/* 1: brun -f */
	struct strv	 hosts;
	char		*user;
};
struct ev_mig {
	int64_t		 jobid;
	struct strv	 hosts;		/* -m, may be empty */
	int		 uid;
	int		 idx;
	char		*user;
};
/* CHKPNT: a checkpoint of a started job ended (ok 1, else 0), or bchkpnt
 * -p changed its period (seconds, -1 unchanged); flags CHKPNT_F_*. */
#define CHKPNT_F_KILL	0x01	/* bchkpnt -k: killed after it */
#define CHKPNT_F_PERIOD	0x02	/* only the period changed */
struct ev_chkpnt {
	int64_t		 jobid;
	int64_t		 period;
	int		 pid;
	int		 ok;
	int		 flags;
	int		 idx;
};
/* LOG_SWITCH: the last job ID given when lsb.events was switched, so
 * that job IDs go on from there whatever the fresh file holds. */
struct ev_log_switch {
	int64_t		 last_jobid;
};

/* FS_USAGE (ours): a fairshare account's history when lsb.events was
 * switched, decayed CPU and run hours as of their times; the records of
 * the jobs that made it may be gone. */
struct ev_fs_usage {
	char		*tree;		/* "queue/<name>" or "hpart/<name>" */
	char		*path;		/* "bio/ann" */
	char		*name;		/* the account's own name */
	double		 cpu_hours;
	int64_t		 cpu_at;
	double		 hrun_hours;
	int64_t		 hrun_at;
};

/* HOST_CTRL and QUEUE_CTRL opcodes. */
#define HCTRL_OPEN	1
#define HCTRL_CLOSE	2
#define HCTRL_RESTART	3	/* LSF's HOST_REBOOT: sbatchd restarted */
#define HCTRL_SHUTDOWN	4
#define QCTRL_OPEN	1
#define QCTRL_CLOSE	2
#define QCTRL_ACT	3
#define QCTRL_INACT	4
struct ev_ctrl {
	int		 op;
	char		*name;		/* host or queue */
	int		 uid;
	char		*user;
	char		*comment;
};

/* JOB_MODIFY2: bmod.  LSF's leading fields, then which MOD_* bits were
 * set and reset (ext). */
struct ev_job_modify {
	int64_t		 jobid;
	int		 idx;
	int		 uid;
	char		*user;
	uint32_t	 set;		/* MOD_* (proto.h) taken from req */
	uint32_t	 del;		/* MOD_* reset */
	struct submit_req req;
};

/*
 * Every record type, once.  R(NAME, id, T, sw, hist, load):
 *
 *	NAME	its name on disk ("JOB_START"), and EV_NAME its enum ev_type
 *	id	its C name: ev_<id>_write writes one, and mbatchd's
 *		apply_<id> is what it does to the state (mbd.h), live and in
 *		replay
 *	T	the struct its fields are read into, struct ev_<T>, with
 *		ev_<T>_put/_read/_release (HOST_CTRL and QUEUE_CTRL share one)
 *	sw	what a log switch does with it (enum ev_sw_kind)
 *	hist	what history takes from it (enum ev_hist)
 *	load	how replay reads it: READ, or PEEK (borrowed strings, for the
 *		one record there are a million of)
 *
 * Each struct's fields are listed once, in LSF's order and then ours, in
 * src/evlog-rec.c, which generates its codec from the list (JOB_NEW and
 * JOB_MODIFY2, with LSF's conditional fields, are written by hand there).
 * Everything that dispatches on a type is driven by this table: the
 * reader's lookup (evr_init sets r->id), the offline check, the switch's
 * classifier, history's extraction (src/history-db.c, src/histjob.c) and
 * mbatchd's replay and live logging (mbd-apply-table.c); a type is added
 * here and its apply function written, or the build fails.
 * tests/unit/check_evlog_table.c checks every entry's parts and that the
 * bytes on disk do not change.
 */
#define EVLOG_RECORDS(R)						\
	R(JOB_NEW,	job_new,	job_new,	EVSW_JOB,	EVH_NEW,	PEEK) \
	R(JOB_START,	job_start,	job_start,	EVSW_JOB,	EVH_START,	READ) \
	R(JOB_EXECUTE,	job_execute,	job_execute,	EVSW_JOB,	EVH_EXECUTE,	READ) \
	R(JOB_STATUS,	job_status,	job_status,	EVSW_JOB,	EVH_STATUS,	READ) \
	R(JOB_SIGNAL,	job_signal,	job_signal,	EVSW_JOB,	EVH_JOB,	READ) \
	R(JOB_CLEAN,	job_clean,	job_clean,	EVSW_JOB,	EVH_JOB,	READ) \
	R(JOB_MOVE,	job_move,	job_move,	EVSW_JOB,	EVH_JOB,	READ) \
	R(JOB_SWITCH,	job_switch,	job_switch,	EVSW_JOB,	EVH_QUEUE,	READ) \
	R(JOB_REQUEUE,	job_requeue,	job_requeue,	EVSW_JOB,	EVH_JOB,	READ) \
	R(JOB_FORCE,	job_force,	job_force,	EVSW_JOB,	EVH_JOB,	READ) \
	R(MIG,		mig,		mig,		EVSW_JOB,	EVH_JOB,	READ) \
	R(CHKPNT,	chkpnt,		chkpnt,		EVSW_JOB,	EVH_JOB,	READ) \
	R(JOB_MODIFY2,	job_modify,	job_modify,	EVSW_JOB,	EVH_MODIFY,	READ) \
	R(HOST_CTRL,	host_ctrl,	ctrl,		EVSW_CTRL,	EVH_NONE,	READ) \
	R(QUEUE_CTRL,	queue_ctrl,	ctrl,		EVSW_CTRL,	EVH_NONE,	READ) \
	R(MBD_START,	mbd_start,	mbd_start,	EVSW_DROP,	EVH_NONE,	READ) \
	R(MBD_DIE,	mbd_die,	mbd_die,	EVSW_DROP,	EVH_NONE,	READ) \
	R(LOG_SWITCH,	log_switch,	log_switch,	EVSW_SUMMARY,	EVH_NONE,	READ) \
	R(FS_USAGE,	fs_usage,	fs_usage,	EVSW_SUMMARY,	EVH_NONE,	READ) \
	R(JOB_ENV,	job_env,	job_env,	EVSW_ENVS,	EVH_NONE,	READ)

enum ev_type {
#define EV_ENUM(NAME, id, T, sw, hist, load)	EV_##NAME,
	EVLOG_RECORDS(EV_ENUM)
#undef EV_ENUM
	EV_NTYPES
};

/*
 * What history takes from a record: nothing (not a job's), only its
 * place in the job's timeline, or that and the fields of the job's row
 * (or of bjobs' answer for a finished job) it sets.
 */
enum ev_hist {
	EVH_NONE, EVH_JOB, EVH_NEW, EVH_START, EVH_EXECUTE, EVH_STATUS,
	EVH_QUEUE, EVH_MODIFY
};

/* A type's entry, for code that handles records of any type. */
struct ev_type_info {
	const char	*name;
	enum ev_sw_kind	 sw;
	enum ev_hist	 hist;
	size_t		 size;		/* of its struct */
	/* Where a job's record keeps its ID and index, else -1. */
	long		 jobid_off;
	long		 idx_off;
	void		(*write)(struct strbuf *, int64_t, const void *);
	int		(*read)(struct ev_reader *, void *);
	void		(*release)(void *);
	/* The job ID of a job's record from its leading fields alone (and
	 * its index where that comes with it, else 0); -1 unreadable. */
	int		(*key)(struct ev_reader *, int64_t *jobid, int *idx);
};
extern const struct ev_type_info ev_types[EV_NTYPES];
/* Room for any type's struct, for code that reads records of any type
 * (evlog-rec.c checks that each fits). */
#define EV_RECORD_MAX	1024
struct ev_any {
	_Alignas(max_align_t) unsigned char b[EV_RECORD_MAX];
};
/* The type of that name, or -1 (a type this version does not know). */
int	 ev_type_find(const char *name);

/* Each struct's codec: _put writes a record of the given type name. */
#define EV_STRUCT_DECL(NAME, id, T, sw, hist, load)			\
	void	 ev_##T##_put(struct strbuf *, int64_t when,		\
		    const char *type, const struct ev_##T *);		\
	int	 ev_##T##_read(struct ev_reader *, struct ev_##T *);	\
	void	 ev_##T##_release(struct ev_##T *);			\
	void	 ev_##id##_write(struct strbuf *, int64_t when,		\
		    const struct ev_##T *);
EVLOG_RECORDS(EV_STRUCT_DECL)
#undef EV_STRUCT_DECL
/* ev_job_new_read borrowing its strings and lists (evr_borrow_begin):
 * nothing to release. */
int	 ev_job_new_peek(struct ev_reader *, struct ev_job_new *);

#endif
