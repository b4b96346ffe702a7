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

#endif
