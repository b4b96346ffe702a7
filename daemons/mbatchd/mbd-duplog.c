/*
 * Duplicate logging (lsf.conf LSB_LOCALDIR): the primary lsb.events in
 * LSB_LOCALDIR on the master's own disk, its replica in
 * LSB_SHAREDIR/<cluster>/logdir.  Each turn's records are written and
 * synced to both before any answer leaves (evlog_flush), so an
 * acknowledged record is on both disks, or on the one left when the
 * other fails.
 *
 * At start the two are made equal before replay: the longer of two
 * files one of which is a prefix of the other holds everything
 * acknowledged (a crash between the two writes, or a side that was
 * away), and the shorter is brought up to it; a missing primary is
 * recreated from the replica.  Two files that differ inside are not
 * guessed at: mbatchd does not start.  A side that cannot be written
 * (at start, or at a flush: an error, or its file removed or replaced)
 * is left off and caught up, a whole copy and the generations it
 * lacks, a second after it was lost and then less and less often, up
 * to every DUPLOG_RETRY seconds (a passing fault costs a second, one
 * that lasts a try each 10 s); the answers meanwhile mean the record is
 * on the other side.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "mbd.h"

#define DUPLOG_RETRY	10

static char	*dup_other;	/* the side not replayed */
static bool	 dup_same;	/* on, and made equal to it */
static int64_t	 dup_next_try;
static int	 dup_delay = 1;	/* seconds to the next try */

/* The first try a second after a side was lost. */
static void
dup_lost_now(void)
{
	dup_delay = 1;
	dup_next_try = time(NULL) + dup_delay;
}

/* A directory in its place is no log (and root may open it). */
static bool
usable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, R_OK | W_OK) == 0;
}

/* Is the directory of path there and writable, making it if need be? */
static bool
dir_ok(const char *dir)
{
	if (mkdir_parents(dir, 0755) < 0 && errno != EEXIST)
		return false;
	return access(dir, W_OK | X_OK) == 0;
}

/*
 * Two logs that differ: is it a crash between the switch of one side
 * and that of the other?  Then the side behind is the other's
 * lsb.events.1 but for the header: finish its switch.
 */
static bool
switch_unfinished(const char *done, const char *behind)
{
	char *done1 = xasprintf("%s.1", done), *cause = NULL;
	off_t off;
	int rc;

	rc = access(done1, F_OK) < 0 ? -1 : evlog_dup_compare_from(done1,
	    behind, EVLOG_HEADER_LEN, &off, &cause);
	free(done1);
	free(cause);
	/* Shorter: it was off, or full, when the other was switched; its
	 * lsb.events.1 is then copied whole with the generations. */
	if (rc != 0 && rc != 2)
		return false;
	log_warnx("%s was switched and %s not: switching it", done, behind);
	/* Its seal first, or a crash between would leave it one about
	 * the file it had (mbd-seal.c). */
	if (evlog_seal_follow(done, behind, true, &cause) < 0 ||
	    evlog_dup_finish_switch(done, behind, &cause) < 0)
		fatalx("%s; not starting", cause);
	return true;
}

/*
 * The generations follow lsb.events: from the side that was ahead, or,
 * the two equal, from the one with more (a side whose directory was
 * lost, or that was off at a switch).
 */
static void
start_generations(const char *primary, const char *replica, const char *src)
{
	const char *dst;
	char *cause = NULL;
	long *gp, *gr;
	size_t np = 0, nr = 0;
	int n;

	if (src == NULL) {
		if (evlog_generations(primary, &gp, &np, &cause) < 0)
			goto fail;
		free(gp);
		if (evlog_generations(replica, &gr, &nr, &cause) < 0)
			goto fail;
		free(gr);
		src = nr > np ? replica : primary;
	}
	dst = src == primary ? replica : primary;
	/* History only: replay does not need them, so not fatal. */
	if (evlog_dup_sync_generations(src, dst, &n, &cause) < 0)
		goto fail;
	if (n > 0)
		log_warnx("%d of %s's generations copied from %s", n, dst,
		    src);
	return;
fail:
	log_warnx("%s; the generations of %s and %s may differ", cause,
	    primary, replica);
	free(cause);
}

/*
 * Before replay: choose the file to replay (mbd->evpath) and make the
 * other equal to it, or leave the other off.
 */
void
duplog_start(void)
{
	const char *ldir = mbd->conf.lsf.localdir, *gen_src = NULL;
	char *primary, *replica = mbd->evpath, *cause = NULL;
	bool p_ok, r_ok, p_there, r_there;
	off_t off;
	int rc;

	if (ldir == NULL)
		return;
	primary = xasprintf("%s/lsb.events", ldir);
	p_ok = dir_ok(ldir);
	r_ok = dir_ok(mbd->logdir);
	p_there = access(primary, F_OK) == 0;
	r_there = access(replica, F_OK) == 0;
	if (p_ok && p_there && !usable(primary))
		p_ok = false;
	if (r_ok && r_there && !usable(replica))
		r_ok = false;

	if (p_ok && r_ok) {
		rc = evlog_dup_compare(primary, replica, &off, &cause);
		switch (rc) {
		case -1:
			fatalx("%s; not starting", cause);
		case 3:
			if (switch_unfinished(primary, replica)) {
				gen_src = primary;
				break;
			}
			if (switch_unfinished(replica, primary)) {
				gen_src = replica;
				break;
			}
			fatalx("%s and %s differ at offset %lld, and neither "
			    "is a prefix of the other; not starting (keep "
			    "the right one and move the other aside)",
			    primary, replica, (long long)off);
		case 1:
		case 2: {
			const char *lo = rc == 1 ? primary : replica;
			const char *hi = rc == 1 ? replica : primary;

			log_warnx("%s is %s's first %lld bytes: caught up "
			    "from it", lo, hi, (long long)off);
			if (!(rc == 1 ? p_there : r_there))
				log_warnx("%s was missing", lo);
			if (evlog_seal_follow(hi, lo, false, &cause) < 0 ||
			    evlog_dup_catch_up(hi, lo, &cause) < 0) {
				/* A full disk must not keep the cluster
				 * down: the longer one holds it all. */
				log_warnx("%s", cause);
				free(cause);
				if (rc == 1)
					p_ok = false;
				else
					r_ok = false;
				break;
			}
			gen_src = hi;
			break;
		}
		}
		if (p_ok && r_ok) {
			start_generations(primary, replica, gen_src);
			mbd->evpath = primary;
			dup_other = replica;
			dup_same = true;
			return;
		}
	}
	if (!p_ok && !r_ok)
		fatalx("neither %s nor %s can be written; not starting",
		    ldir, mbd->logdir);
	if (r_ok) {
		log_warnx("%s cannot be used: running on the replica %s "
		    "alone, trying again within %d seconds", primary, replica,
		    DUPLOG_RETRY);
		dup_other = primary;
	} else {
		log_warnx("%s cannot be used: running on the primary %s "
		    "alone, trying again within %d seconds", replica, primary,
		    DUPLOG_RETRY);
		mbd->evpath = primary;
		dup_other = replica;
	}
}

const char *
duplog_twin(bool *same)
{
	*same = dup_other != NULL && dup_same;
	return dup_other;
}

/* After log_open: the other side follows mbd->log. */
void
duplog_attach(void)
{
	char *cause = NULL;

	if (dup_other == NULL)
		return;
	mbd->log.dup_path = xstrdup(dup_other);
	if (evlog_dup_attach(&mbd->log, dup_other, &cause) < 0) {
		log_warnx("%s; running on %s alone", cause, mbd->log.path);
		free(cause);
		dup_lost_now();
	}
}

/* After a flush or a switch: say when a side was lost. */
void
duplog_check(void)
{
	struct evlog *lg = &mbd->log;

	if (lg->dup_lost == 0)
		return;
	log_warnx("cannot write %s: %s; running on %s alone, trying again "
	    "within %d seconds", lg->dup_lost_path, strerror(lg->dup_lost),
	    lg->path, DUPLOG_RETRY);
	lg->dup_lost = 0;
	dup_lost_now();
}

/* From the timer: copy the log to the side that was off, and go on
 * writing both. */
void
duplog_retry(void)
{
	struct evlog *lg = &mbd->log;
	char *cause = NULL, *dir, *slash;

	if (lg->dup_on || lg->dup_path == NULL || time(NULL) < dup_next_try)
		return;
	dup_delay = dup_delay * 2 > DUPLOG_RETRY ? DUPLOG_RETRY : dup_delay * 2;
	dup_next_try = time(NULL) + dup_delay;
	dir = xstrdup(lg->dup_path);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	if (!dir_ok(dir)) {
		free(dir);
		return;
	}
	free(dir);
	if (evlog_dup_resync(lg, &cause) < 0) {
		log_debug("%s", cause);
		free(cause);
		return;
	}
	log_info("%s is a copy of %s again: writing both", lg->dup_path,
	    lg->path);
}
