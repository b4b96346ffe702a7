/*
 * bacct's arithmetic and text, pure (acct-report.c): the time ranges of
 * -C -S -D in LSF's format, and the SUMMARY block from the sums the
 * database computed.  No I/O, no clock: now is the caller's.
 */
#ifndef LSF_ACCT_REPORT_H
#define LSF_ACCT_REPORT_H

#include <stdint.h>

#include "util.h"

/*
 * "time0,time1", each [[[year/]month/]day/]hour:minute or
 * [[year/]month/]day (a day alone is the whole day), missing parts from
 * now, in local time; an empty end is open ("t0," or ",t1"); one time
 * without a comma is the range of that time (a day: the whole day).
 * 0 with *from and *to (INT64_MAX for an open end), or -1.
 */
int	 acct_range_parse(const char *s, int64_t now, int64_t *from,
	    int64_t *to);

/* What the SUMMARY is made of; times in seconds. */
struct acct_sums {
	int64_t		 ndone;
	int64_t		 nexit;
	double		 cpu_sum, cpu_max, cpu_min;
	int64_t		 wait_sum, wait_max, wait_min;
	int64_t		 turn_sum, turn_max, turn_min;
	double		 hog_sum, hog_max, hog_min;
	int64_t		 run_sum, run_max, run_min;
	int64_t		 first_end;	/* the first and last job logged */
	int64_t		 last_end;
};

/* The SUMMARY block.  begin and end bound the throughput's period (-C's
 * range), or 0 for the first and last job's end. */
void	 acct_summary_write(struct strbuf *, const struct acct_sums *,
	    int64_t begin, int64_t end);

#endif
