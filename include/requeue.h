/*
 * REQUEUE_EXIT_VALUES (lsb.queues): "[all] [~n ...] [n ...]
 * [EXCLUDE(n ...)]".  A job that exits with a listed value goes back to
 * its queue; with an EXCLUDE value it also never returns to the host it
 * exited on (mbatchd keeps that in memory only, as LSF does).
 */
#ifndef LSF_REQUEUE_H
#define LSF_REQUEUE_H

#include <stdbool.h>
#include <stdint.h>

struct requeue_values {
	uint64_t	 requeue[4];	/* exit codes 0..255 */
	uint64_t	 exclude[4];
};

/* Parse s into rv; -1 and *why on a bad list. */
int		 requeue_values_parse(const char *s, struct requeue_values *rv,
		    const char **why);
/* Is code listed (to requeue, EXCLUDE or not)?  *exclude: by EXCLUDE. */
bool		 requeue_values_has(const struct requeue_values *, int code,
		    bool *exclude);
/* requeue_values_has on a list still as text; a bad list holds none. */
bool		 exit_value_listed(const char *list, int code);

/* SUCCESS_EXIT_VALUES: exit codes 0..255 separated by spaces.  0, or
 * -1 and *why. */
int		 exit_values_valid(const char *list, const char **why);
/* Does the SUCCESS_EXIT_VALUES list (NULL: none) hold code? */
bool		 success_exit_value(const char *list, int code);

/*
 * MAX_JOB_REQUEUE: the narrowest level that sets it wins (application,
 * then queue, then lsb.params); -1 where a level does not set it, and
 * -1 back for no limit.
 */
int		 max_job_requeue(int app, int queue, int params);
/* May a job requeued automatically `done` times so far go back once
 * more under limit `max` (-1: no limit)? */
bool		 requeue_allowed(int max, int done);

/*
 * The pause before the next dispatch of a job requeued automatically
 * for the n-th time (n >= 1), in seconds: REQUEUE_BACKOFF_FIRST doubled
 * at each requeue, at most REQUEUE_BACKOFF_MAX.  A job that exits at
 * once with a requeue value then costs at most a few records a minute
 * (a run every REQUEUE_BACKOFF_MAX seconds once the pause is capped).
 */
#define REQUEUE_BACKOFF_FIRST	1
#define REQUEUE_BACKOFF_MAX	60
int		 requeue_backoff(int n);

#endif
