/*
 * Time spent in each state, from a job's records (bhist's summary).  Pure:
 * no I/O and no clock.
 */
#include <string.h>

#include "history.h"
#include "lsf.h"

void
hist_times_init(struct hist_times *t)
{
	memset(t, 0, sizeof(*t));
	t->state = HS_NONE;
}

enum hist_state
hist_state_of(int status)
{
	if (status & (JOB_STAT_DONE | JOB_STAT_EXIT))
		return HS_END;
	if (status & JOB_STAT_UNKWN)
		return HS_UNKWN;
	if (status & JOB_STAT_PSUSP)
		return HS_PSUSP;
	if (status & JOB_STAT_USUSP)
		return HS_USUSP;
	if (status & JOB_STAT_SSUSP)
		return HS_SSUSP;
	if (status & JOB_STAT_RUN)
		return HS_RUN;
	if (status & JOB_STAT_PEND)
		return HS_PEND;
	return HS_NONE;
}

static void
move(struct hist_times *t, enum hist_state to, int64_t when)
{
	if (t->state < HS_NSTATES && when > t->since)
		t->secs[t->state] += when - t->since;
	/* A clock that stepped back counts nothing, and loses nothing
	 * later on. */
	if (when > t->since || t->state >= HS_NSTATES)
		t->since = when;
	t->state = to;
	if (to == HS_END)
		t->end = t->since;
	else
		t->end = 0;
}

void
hist_times_feed(struct hist_times *t, const char *type, int64_t when,
    int status)
{
	enum hist_state to;

	if (strcmp(type, "JOB_NEW") == 0) {
		if (t->state == HS_NONE) {
			t->since = when;
			t->state = status & JOB_STAT_PSUSP ? HS_PSUSP :
			    HS_PEND;
		}
		return;
	}
	if (t->state == HS_NONE)
		return;		/* its submission is not in the history */
	if (strcmp(type, "JOB_START") == 0)
		to = HS_RUN;
	else if (strcmp(type, "JOB_REQUEUE") == 0)
		to = HS_PEND;
	else if (strcmp(type, "JOB_STATUS") == 0)
		to = hist_state_of(status);
	else
		return;
	if (to == HS_NONE || to == t->state)
		return;
	/* A finished job's figures are final; only a requeue reopens it. */
	if (t->state == HS_END && to != HS_PEND && to != HS_PSUSP)
		return;
	move(t, to, when);
}

int64_t
hist_times_end(struct hist_times *t, int64_t now)
{
	int64_t total = 0;

	if (t->state < HS_NSTATES && now > t->since) {
		t->secs[t->state] += now - t->since;
		t->since = now;
	}
	for (int i = 0; i < HS_NSTATES; i++)
		total += t->secs[i];
	return total;
}
