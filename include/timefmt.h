/* The time formats LSF prints. */
#ifndef LSF_TIMEFMT_H
#define LSF_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

/* "Nov  2 01:23": tables (bjobs SUBMIT_TIME, -o start_time). */
void	 fmt_time_short(int64_t t, char *buf, size_t len);
/* "Wed Nov  2 01:23:45": long formats (bjobs -l, bhist -l). */
void	 fmt_time_long(int64_t t, char *buf, size_t len);
/* "Wed Nov  2 01:23:45 2026": the job report. */
void	 fmt_time_full(int64_t t, char *buf, size_t len);
/* "11/02-01:23:45": bjobs -W. */
void	 fmt_time_w(int64_t t, char *buf, size_t len);
/* "000:00:01.50": bjobs -W CPU_USED; "00:01:02": RUN_TIME. */
void	 fmt_cpu_hms(double secs, char *buf, size_t len);
void	 fmt_duration_hms(int64_t secs, char *buf, size_t len);

#endif
