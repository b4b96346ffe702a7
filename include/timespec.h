/*
 * The times of bsub -b (begin) and -t (termination):
 * "[[[year:]month:]day:]hour:minute", in local time.
 */
#ifndef LSF_TIMESPEC_H
#define LSF_TIMESPEC_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The first time at or after now that matches text: a time of day that
 * has passed today means tomorrow, a day of the month that has passed
 * means next month (or the next month that has that day), a month and
 * day that have passed mean next year (or the next leap year for 2:29).
 * Returns 0 with *out, or -1 with an allocated *cause.  A full date in
 * the past is an error, but *out is still set to it, so that bsub -b can
 * take it as already reached, as LSF does, and bsub -t refuse it.
 * end_of_range is not used.
 */
int	timespec_parse(const char *text, int64_t now, bool end_of_range,
	    int64_t *out, char **cause);

#endif
