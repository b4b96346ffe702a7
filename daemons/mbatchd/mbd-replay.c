/*
 * Rebuilding the state from lsb.envs and lsb.events.  Records are
 * applied in order, each by its type's apply function (replay_record,
 * mbd-apply-table.c); what a record refers to that is not there (a job
 * cleaned before, an unknown queue) is logged and skipped, never fatal:
 * only a record that cannot be read stops the start.  Record types this
 * version does not know are skipped, so a newer log can still be read.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mbd.h"

struct replay {
	int64_t		 n;
	off_t		 hist_off;	/* the header's: history starts */
	bool		 counting;	/* past it */
};

static int
replay_cb(void *arg, struct ev_reader *r, off_t off)
{
	struct replay *rp = arg;

	rp->n++;
	if (!rp->counting && off >= rp->hist_off) {
		/* Jobs that end from here on count for MAX_JOB_NUM. */
		mbd->log_nfinished = 0;
		rp->counting = true;
	}
	return replay_record(r, off);
}

static int
env_cb(void *arg, struct ev_reader *r, off_t off)
{
	if (r->id != EV_JOB_ENV)
		return 0;
	return replay_record(r, off);
}

/* lsb.envs: the environments the jobs in lsb.events name. */
int
replay_envs(off_t *valid_end, char **cause)
{
	return evlog_replay(mbd->envpath, env_cb, NULL, valid_end, cause);
}

int
replay_log(off_t *valid_end, char **cause)
{
	struct replay rp = { 0, 0, false };
	int64_t hist = 0;
	char *why = NULL;
	int rc;

	/* The header only says where to count finished jobs from: when it
	 * is damaged, count them all (the log switches sooner). */
	if (evlog_header_read(mbd->evpath, &hist, &why) < 0) {
		log_warnx("%s; counting every finished job in the file for "
		    "MAX_JOB_NUM", why);
		free(why);
		hist = 0;
	}
	rp.hist_off = (off_t)hist;
	rc = evlog_replay(mbd->evpath, replay_cb, &rp, valid_end, cause);
	if (rc == 0 && !rp.counting) {
		if (rp.hist_off <= *valid_end)
			mbd->log_nfinished = 0;	/* nothing since the switch */
		else
			log_warnx("%s: header offset %lld is past the end "
			    "(%lld); counting every finished job in the file "
			    "for MAX_JOB_NUM", mbd->evpath, (long long)hist,
			    (long long)*valid_end);
	}
	log_info("read %lld records from %s, %llu jobs finished since its "
	    "last switch", (long long)rp.n, mbd->evpath,
	    (unsigned long long)mbd->log_nfinished);
	return rc;
}
