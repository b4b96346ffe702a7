/*
 * bacct's pure side: LSF's time ranges and the SUMMARY's text.  The
 * figures are aggregated by the database; here they are only divided
 * and laid out in LSF's two columns.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acct-report.h"
#include "timefmt.h"

/* One end of a range; an empty end is open. */
static int
range_end(const char *s, size_t len, int64_t now, bool upper, int64_t *out)
{
	struct tm tm;
	time_t t = (time_t)now;
	int v[5], n = 0;
	const char *p = s, *end = s + len;
	bool hm = memchr(s, ':', len) != NULL;

	if (len == 0) {
		*out = upper ? INT64_MAX : 0;
		return 0;
	}
	while (p < end) {
		long x = 0;

		if (n == 5 || *p < '0' || *p > '9')
			return -1;
		while (p < end && *p >= '0' && *p <= '9' && x < 100000)
			x = x * 10 + (*p++ - '0');
		v[n++] = (int)x;
		if (p < end && (*p == '/' || *p == ':') && p + 1 < end)
			p++;
		else if (p < end)
			return -1;
	}
	localtime_r(&t, &tm);
	tm.tm_sec = 0;
	if (hm) {
		if (n < 2 || v[n - 1] > 59 || v[n - 2] > 23)
			return -1;
		tm.tm_min = v[n - 1];
		tm.tm_hour = v[n - 2];
		/* A minute is a range too: its end is its last second. */
		if (upper)
			tm.tm_sec = 59;
		n -= 2;
	} else {
		tm.tm_hour = upper ? 23 : 0;
		tm.tm_min = upper ? 59 : 0;
		tm.tm_sec = upper ? 59 : 0;
	}
	if (n > 3)
		return -1;
	if (n >= 1) {
		if (v[n - 1] < 1 || v[n - 1] > 31)
			return -1;
		tm.tm_mday = v[n - 1];
	}
	if (n >= 2) {
		if (v[n - 2] < 1 || v[n - 2] > 12)
			return -1;
		tm.tm_mon = v[n - 2] - 1;
	}
	if (n >= 3) {
		if (v[n - 3] < 1970)
			return -1;
		tm.tm_year = v[n - 3] - 1900;
	}
	tm.tm_isdst = -1;
	*out = (int64_t)mktime(&tm);
	return 0;
}

int
acct_range_parse(const char *s, int64_t now, int64_t *from, int64_t *to)
{
	const char *comma = strchr(s, ',');

	if (comma == NULL) {
		if (*s == '\0')
			return -1;
		return range_end(s, strlen(s), now, false, from) < 0 ||
		    range_end(s, strlen(s), now, true, to) < 0 ? -1 : 0;
	}
	if (strchr(comma + 1, ',') != NULL || (comma == s && comma[1] == 0))
		return -1;
	if (range_end(s, (size_t)(comma - s), now, false, from) < 0 ||
	    range_end(comma + 1, strlen(comma + 1), now, true, to) < 0)
		return -1;
	return *from <= *to ? 0 : -1;
}

/* A line of two figures: the left one ends at column 35, the right one
 * 34 further on, as LSF aligns them. */
static void
pair(struct strbuf *sb, const char *l, const char *lv, const char *r,
    const char *rv)
{
	int w = 35 - 1 - (int)strlen(l);

	sb_addf(sb, " %s%*s", l, w > 0 ? w : 0, lv);
	if (r != NULL) {
		w = 34 - (int)strlen(r);
		sb_addf(sb, "      %s%*s", r, w > 0 ? w : 0, rv);
	}
	sb_addc(sb, '\n');
}

static const char *
f1(char *buf, double v)
{
	snprintf(buf, 32, "%.1f", v);
	return buf;
}

static const char *
f2(char *buf, double v)
{
	snprintf(buf, 32, "%.2f", v);
	return buf;
}

static const char *
d(char *buf, int64_t v)
{
	snprintf(buf, 32, "%lld", (long long)v);
	return buf;
}

void
acct_summary_write(struct strbuf *sb, const struct acct_sums *s,
    int64_t begin, int64_t end)
{
	char a[32], b[32];
	int64_t n = s->ndone + s->nexit;
	double hours;

	if (n == 0)
		n = 1;		/* the averages of nothing are 0 */
	if (begin == 0)
		begin = s->first_end;
	if (end == 0)
		end = s->last_end;
	hours = end > begin ? (double)(end - begin) / 3600.0 : 0.0;
	sb_adds(sb, "SUMMARY:      ( time unit: second )\n");
	pair(sb, "Total number of done jobs:", d(a, s->ndone),
	    "Total number of exited jobs:", d(b, s->nexit));
	pair(sb, "Total CPU time consumed:", f1(a, s->cpu_sum),
	    "Average CPU time consumed:", f1(b, s->cpu_sum / (double)n));
	pair(sb, "Maximum CPU time of a job:", f1(a, s->cpu_max),
	    "Minimum CPU time of a job:", f1(b, s->cpu_min));
	pair(sb, "Total wait time in queues:", f1(a, (double)s->wait_sum),
	    NULL, NULL);
	pair(sb, "Average wait time in queue:",
	    f1(a, (double)s->wait_sum / (double)n), NULL, NULL);
	pair(sb, "Maximum wait time in queue:", f1(a, (double)s->wait_max),
	    "Minimum wait time in queue:", f1(b, (double)s->wait_min));
	sb_addf(sb, " Average turnaround time:%10lld (seconds/job)\n",
	    (long long)(s->turn_sum / n));
	pair(sb, "Maximum turnaround time:", d(a, s->turn_max),
	    "Minimum turnaround time:", d(b, s->turn_min));
	sb_addf(sb, " Average hog factor of a job:%6.2f ( cpu time /"
	    " turnaround time )\n", s->hog_sum / (double)n);
	pair(sb, "Maximum hog factor of a job:", f2(a, s->hog_max),
	    "Minimum hog factor of a job:", f2(b, s->hog_min));
	pair(sb, "Total Run time consumed:", d(a, s->run_sum),
	    "Average Run time consumed:", d(b, s->run_sum / n));
	pair(sb, "Maximum Run time of a job:", d(a, s->run_max),
	    "Minimum Run time of a job:", d(b, s->run_min));
	sb_addf(sb, " Total throughput:%17.2f (jobs/hour)  during%8.2f"
	    " hours\n", hours > 0 ? (double)(s->ndone + s->nexit) / hours :
	    0.0, hours);
	fmt_time_short(begin, a, sizeof(a));
	fmt_time_short(end, b, sizeof(b));
	pair(sb, "Beginning time:", a, "Ending time:", b);
}
