/* Time formats: tables, long formats, the job report. */
#include <stdio.h>
#include <time.h>

#include "timefmt.h"

static void
fmt(int64_t t, const char *f, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t <= 0 || localtime_r(&tt, &tm) == NULL) {
		snprintf(buf, len, "-");
		return;
	}
	strftime(buf, len, f, &tm);
}

void
fmt_time_short(int64_t t, char *buf, size_t len)
{
	fmt(t, "%b %e %H:%M", buf, len);
}

void
fmt_time_long(int64_t t, char *buf, size_t len)
{
	fmt(t, "%a %b %e %H:%M:%S", buf, len);
}

void
fmt_time_full(int64_t t, char *buf, size_t len)
{
	fmt(t, "%a %b %e %H:%M:%S %Y", buf, len);
}

void
fmt_time_w(int64_t t, char *buf, size_t len)
{
	fmt(t, "%m/%d-%H:%M:%S", buf, len);
}

void
fmt_cpu_hms(double secs, char *buf, size_t len)
{
	long h, m;
	double s;

	if (secs < 0)
		secs = 0;
	h = (long)(secs / 3600);
	m = (long)((secs - (double)h * 3600) / 60);
	s = secs - (double)h * 3600 - (double)m * 60;
	snprintf(buf, len, "%03ld:%02ld:%05.2f", h, m, s);
}

void
fmt_duration_hms(int64_t secs, char *buf, size_t len)
{
	if (secs < 0)
		secs = 0;
	snprintf(buf, len, "%02lld:%02lld:%02lld", (long long)(secs / 3600),
	    (long long)(secs / 60 % 60), (long long)(secs % 60));
}
