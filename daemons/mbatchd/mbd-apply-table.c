/*
 * The one way a record reaches the state, generated from EVLOG_RECORDS
 * (evlog.h): replay reads a record of any type and hands it to its
 * type's apply_<id>; the live code appends a record and hands it, read
 * back, to the same function (log_apply_<id>).  The apply functions are
 * in mbd-apply.c, mbd-apply-new.c and mbd-apply-ctrl.c.
 */
#include <stdlib.h>

#include "mbd.h"

/*
 * The live path applies the record as replay will: read back from the
 * line just appended, so that what is applied is what the log holds
 * (a NULL written as "" reads back as replay reads it, a field the
 * writer does not keep is not seen), whatever the caller's struct held.
 */
static struct strbuf live_scratch = STRBUF_INIT;

/* How replay reads each type: whole, or borrowing its strings. */
#define LOAD_READ(T, r, x)	ev_##T##_read(r, x)
#define LOAD_PEEK(T, r, x)	ev_##T##_peek(r, x)
#define UNLOAD_READ(T, x)	ev_##T##_release(x)
#define UNLOAD_PEEK(T, x)	((void)(x))	/* nothing of its own */

/* Where each type is logged. */
#define LOG_TO_EVSW_JOB(sb)	log_record(sb)
#define LOG_TO_EVSW_CTRL(sb)	log_record(sb)
#define LOG_TO_EVSW_DROP(sb)	log_record(sb)
#define LOG_TO_EVSW_SUMMARY(sb)	log_record(sb)
#define LOG_TO_EVSW_ENVS(sb)	env_log_record(sb)

#define APPLY_PATHS(NAME, id, T, SW, hist, LOAD)			\
static int								\
replay_##id(struct ev_reader *r, off_t off)				\
{									\
	struct ev_##T x;						\
	int rc;								\
									\
	if (LOAD_##LOAD(T, r, &x) < 0) {				\
		UNLOAD_##LOAD(T, &x);					\
		return -1;						\
	}								\
	rc = apply_##id(&x, r->when, off);				\
	UNLOAD_##LOAD(T, &x);						\
	return rc;							\
}									\
off_t									\
log_apply_##id(struct ev_##T *x, int64_t when)				\
{									\
	struct strbuf sb = STRBUF_INIT;					\
	struct ev_reader r;						\
	const char *why;						\
	off_t off;							\
									\
	ev_##id##_write(&sb, when, x);					\
	off = LOG_TO_##SW(&sb);						\
	if (evr_init(&r, sb.buf, sb.len - 1, &why) < 0)			\
		BUG("%s record does not read back: %s", #NAME, why);	\
	evr_set_scratch(&r, &live_scratch);				\
	if (replay_##id(&r, off) < 0)					\
		BUG("%s record does not apply", #NAME);			\
	sb_release(&sb);						\
	return off;							\
}
EVLOG_RECORDS(APPLY_PATHS)
#undef APPLY_PATHS

static int (*const replay_fn[EV_NTYPES])(struct ev_reader *, off_t) = {
#define REPLAY_FN(NAME, id, T, sw, hist, load)	[EV_##NAME] = replay_##id,
	EVLOG_RECORDS(REPLAY_FN)
#undef REPLAY_FN
};

int
replay_record(struct ev_reader *r, off_t off)
{
	/* A type this version does not know: a newer mbatchd wrote it. */
	if (r->id < 0 || r->id >= EV_NTYPES)
		return 0;
	return replay_fn[r->id](r, off);
}
