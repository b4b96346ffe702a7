/*
 * bsub -b and -t times: "[[[year:]month:]day:]hour:minute", the next
 * matching local time.  Pure: the caller passes the time now.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timespec.h"
#include "util.h"

/* Far enough to find any day: a 31st within a year, a 2:29 within 8. */
#define MONTHS_AHEAD	12
#define YEARS_AHEAD	8

static bool
leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
days_in(int64_t year, int64_t mon)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };

	return mon == 2 && leap(year) ? 29 : days[mon - 1];
}

/*
 * The local time of that date, or -1 when it does not exist (mktime moved
 * the date, or cannot represent it).
 */
static int64_t
local(int64_t y, int64_t mon, int64_t d, int64_t h, int64_t min)
{
	struct tm tm;
	time_t t;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = (int)(y - 1900);
	tm.tm_mon = (int)(mon - 1);
	tm.tm_mday = (int)d;
	tm.tm_hour = (int)h;
	tm.tm_min = (int)min;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t)-1 || tm.tm_year != y - 1900 ||
	    tm.tm_mon != mon - 1 || tm.tm_mday != d)
		return -1;
	return (int64_t)t;
}

static int
bad(char **cause, const char *text, const char *why)
{
	*cause = xasprintf("bad time specification \"%s\": %s", text, why);
	return -1;
}

int
timespec_parse(const char *text, int64_t now, bool end_of_range,
    int64_t *out, char **cause)
{
	int64_t f[5], year, mon, day, hour, min, t = -1;
	const char *p = text;
	struct tm tm;
	time_t tnow = (time_t)now;
	int n = 0;

	(void)end_of_range;
	if (text == NULL || *text == '\0') {
		*cause = xstrdup("empty time specification");
		return -1;
	}
	for (;;) {
		int64_t v = 0;

		if (n == 5)
			return bad(cause, text, "too many fields");
		if (!isdigit((unsigned char)*p))
			return bad(cause, text,
			    "expected [[[year:]month:]day:]hour:minute");
		while (isdigit((unsigned char)*p)) {
			v = v * 10 + (*p++ - '0');
			if (v > 9999)
				return bad(cause, text, "number too large");
		}
		f[n++] = v;
		if (*p == '\0')
			break;
		if (*p++ != ':')
			return bad(cause, text,
			    "expected [[[year:]month:]day:]hour:minute");
	}
	if (n < 2)
		return bad(cause, text, "expected at least hour:minute");
	min = f[n - 1];
	hour = f[n - 2];
	day = n >= 3 ? f[n - 3] : 0;
	mon = n >= 4 ? f[n - 4] : 0;
	year = n == 5 ? f[0] : 0;
	if (min > 59)
		return bad(cause, text, "minute out of range 0-59");
	if (hour > 23)
		return bad(cause, text, "hour out of range 0-23");
	if (n >= 3 && (day < 1 || day > 31))
		return bad(cause, text, "day out of range 1-31");
	if (n >= 4 && (mon < 1 || mon > 12))
		return bad(cause, text, "month out of range 1-12");
	if (n == 5 && year < 1970)
		return bad(cause, text, "year before 1970");
	/* 2:29 exists in leap years only; 2:30 or 4:31 never. */
	if (n >= 4 && day > days_in(n == 5 ? year : 2000, mon))
		return bad(cause, text, "no such date");

	if (localtime_r(&tnow, &tm) == NULL)
		return bad(cause, text, "the time now is out of range");
	switch (n) {
	case 2: {
		/* Today, else tomorrow. */
		int64_t y = tm.tm_year + 1900, m = tm.tm_mon + 1;
		int64_t d = tm.tm_mday;

		t = local(y, m, d, hour, min);
		if (t == -1 || t < now) {
			if (++d > days_in(y, m)) {
				d = 1;
				if (++m > 12) {
					m = 1;
					y++;
				}
			}
			t = local(y, m, d, hour, min);
		}
		break;
	}
	case 3:
		for (int i = 0; i <= MONTHS_AHEAD && (t == -1 || t < now);
		    i++) {
			int64_t m0 = tm.tm_mon + i;
			int64_t y = tm.tm_year + 1900 + m0 / 12;

			if (day <= days_in(y, m0 % 12 + 1))
				t = local(y, m0 % 12 + 1, day, hour, min);
		}
		break;
	case 4:
		for (int i = 0; i <= YEARS_AHEAD && (t == -1 || t < now);
		    i++) {
			int64_t y = tm.tm_year + 1900 + i;

			if (day <= days_in(y, mon))
				t = local(y, mon, day, hour, min);
		}
		break;
	default:
		if ((t = local(year, mon, day, hour, min)) == -1)
			return bad(cause, text, "no such time");
		*out = t;
		if (t < now)
			return bad(cause, text, "the time is in the past");
		return 0;
	}
	if (t == -1 || t < now)
		return bad(cause, text, "no such time");
	*out = t;
	return 0;
}
