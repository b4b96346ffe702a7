/*
 * The seal of lsb.events (include/evlog.h, src/evlog-seal.c): what
 * mbatchd acknowledged, where a log cut short at a line boundary or
 * replaced by an older copy cannot hide it.
 *
 * Read at start after duplog_start and before replay; checked against
 * the replayed log before it is opened, so that a log without what was
 * acknowledged is refused with both lengths, and job IDs go on above
 * every one the seal (or one an administrator set aside on accepting a
 * loss, lsb.events.seal.lost) says was given.  Written after each
 * turn's flush and before the answers (end_of_turn), synced by the
 * one-second tick and at a clean stop.
 *
 * With LSB_LOCALDIR each directory has its own seal.  duplog_start has
 * made the two logs equal (and a copied side's seal a copy of the
 * other's) by then, so the seal of each side that is on is checked
 * against its log; a side left off gives its job IDs only.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mbd.h"

struct side {
	char		*log;		/* the lsb.events it seals */
	char		*path;		/* the seal */
	struct evlog_seal s;
	bool		 have;
	bool		 check;		/* against its log, or IDs only */
};
static struct side sides[2];
static int nsides;
static uint64_t seq_max;
static int64_t high_water;	/* the highest next job ID of any seal */
static bool write_failed;

static void
note(const struct evlog_seal *s)
{
	if (s->next_jobid > high_water)
		high_water = s->next_jobid;
	if (s->seq > seq_max)
		seq_max = s->seq;
}

/* A seal an administrator set aside to accept a loss: its job IDs. */
static void
read_lost(const char *log)
{
	char *path = xasprintf("%s%s", log, EVLOG_SEAL_LOST), *cause = NULL;
	struct evlog_seal s;

	switch (evlog_seal_read(path, &s, &cause)) {
	case 1:
		note(&s);
		log_info("%s: job IDs go on after %lld, which it says were "
		    "given", path, (long long)(s.next_jobid - 1));
		break;
	case -1:
		log_warnx("%s; job IDs go on from what the other seals and "
		    "the log say", cause);
		free(cause);
		break;
	}
	free(path);
}

static void
read_side(const char *log, bool check)
{
	struct side *sd = &sides[nsides++];
	char *cause = NULL;
	int rc;

	sd->log = xstrdup(log);
	sd->path = xasprintf("%s%s", log, EVLOG_SEAL_SUFFIX);
	sd->check = check;
	rc = evlog_seal_read(sd->path, &sd->s, &cause);
	if (rc < 0 && check)
		fatalx("%s; not starting (to start without it, move it "
		    "aside: mv %s %s%s)", cause, sd->path, log,
		    EVLOG_SEAL_LOST);
	if (rc < 0) {
		log_warnx("%s", cause);
		free(cause);
	}
	sd->have = rc == 1;
	if (sd->have)
		note(&sd->s);
	read_lost(log);
}

void
seal_start(void)
{
	bool same = false;
	const char *twin = duplog_twin(&same);

	read_side(mbd->evpath, true);
	if (twin != NULL)
		read_side(twin, same);
	if (!sides[0].have && !(nsides > 1 && sides[1].have))
		log_info("%s: no seal yet: the log is not checked against "
		    "one this time", sides[0].path);
}

off_t
seal_check(off_t valid_end)
{
	struct strbuf aside = STRBUF_INIT;
	char *first = NULL, *why, *cause;
	off_t acked = -1, a;

	for (int i = 0; i < nsides; i++) {
		struct side *sd = &sides[i];

		if (!sd->have || !sd->check)
			continue;
		switch (evlog_seal_match(sd->log, &sd->s, &a, &why)) {
		case -1:
			fatalx("%s; not starting", why);
		case 1:
			if (first == NULL)
				first = why;
			else
				free(why);
			sb_addf(&aside, "%s mv %s %s%s", aside.len ? ";" : "",
			    sd->path, sd->log, EVLOG_SEAL_LOST);
			break;
		default:
			if (a > acked)
				acked = a;
		}
	}
	/*
	 * A last line without its newline past what was acknowledged is
	 * torn, whatever its checksum.  When the seal does not match, a
	 * last record whose newline was damaged is said as such first.
	 */
	if (evlog_tail_check(mbd->evpath, valid_end, first ? -1 : acked,
	    &cause) < 0)
		fatalx("%s; not starting (repair or move the file aside)",
		    cause);
	if (first != NULL)
		fatalx("%s: acknowledged records are missing (the file was "
		    "cut short, or replaced by another copy); not starting.  "
		    "To start on it anyway, losing them:%s (job IDs still go "
		    "on after %lld)", first, aside.buf,
		    (long long)(high_water - 1));
	sb_release(&aside);
	if (high_water > mbd->next_jobid) {
		log_info("next job ID %lld, as the seal says (the log's "
		    "highest is %lld)", (long long)high_water,
		    (long long)(mbd->next_jobid - 1));
		mbd->next_jobid = high_water;
	}
	return acked;
}

void
seal_open(void)
{
	char *cause = NULL;

	if (evlog_seal_open(&mbd->log, seq_max, mbd->host, mbd->next_jobid,
	    time(NULL), &cause) < 0)
		fatalx("%s; not starting", cause);
	/* A duplicate whose seal could not be written is off. */
	duplog_check();
}

void
seal_turn(void)
{
	if (evlog_seal_write(&mbd->log, mbd->next_jobid, time(NULL)) == 0) {
		write_failed = false;
		return;
	}
	/* Only less is protected then: the seal stays behind, never ahead. */
	if (!write_failed)
		log_warn("%s%s: cannot write the seal", mbd->log.path,
		    EVLOG_SEAL_SUFFIX);
	write_failed = true;
}

void
seal_tick(void)
{
	if (evlog_seal_sync(&mbd->log) < 0 && !write_failed) {
		log_warn("%s%s: cannot sync the seal", mbd->log.path,
		    EVLOG_SEAL_SUFFIX);
		write_failed = true;
	}
}
