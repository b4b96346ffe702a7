/*
 * Time windows "[day:]hour[:minute]-[day:]hour[:minute] ..." as used by
 * DISPATCH_WINDOW, RUN_WINDOW and RUNWINDOW.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "conf-lex.h"

#define DAY_MIN		1440
#define WEEK_MIN	(7 * DAY_MIN)

struct win_end {
	int	 nf;		/* fields: 1 hour, 2 h:m, 3 d:h:m */
	int	 day;		/* -1 when not written */
	int	 hour;
	int	 minute;
};

static int
parse_end(const char *s, size_t n, struct win_end *e, const char **why)
{
	long f[3];
	size_t i = 0;

	e->nf = 0;
	while (i <= n) {
		size_t j = i;
		long v = 0;

		while (j < n && s[j] != ':')
			j++;
		if (j == i || j - i > 4 || e->nf == 3) {
			*why = e->nf == 3 ? "too many \":\" in a window" :
			    "bad time in window";
			return -1;
		}
		for (size_t k = i; k < j; k++) {
			if (!isdigit((unsigned char)s[k])) {
				*why = "bad time in window";
				return -1;
			}
			v = v * 10 + (s[k] - '0');
		}
		f[e->nf++] = v;
		i = j + 1;
	}
	e->day = -1;
	e->minute = 0;
	if (e->nf == 1) {
		e->hour = (int)f[0];
	} else if (e->nf == 2) {
		e->hour = (int)f[0];
		e->minute = (int)f[1];
	} else {
		if (f[0] > 6) {
			*why = "day must be 0-6 (0 is Sunday)";
			return -1;
		}
		e->day = (int)f[0];
		e->hour = (int)f[1];
		e->minute = (int)f[2];
	}
	if (e->hour > 24 || (e->hour == 24 && e->minute != 0)) {
		*why = "hour must be 0-23 (24:00 ends a day)";
		return -1;
	}
	if (e->minute > 59) {
		*why = "minute must be 0-59";
		return -1;
	}
	return 0;
}

static int
parse_one(const char *s, size_t n, struct time_window *tw, const char **why)
{
	const char *dash = memchr(s, '-', n);
	struct win_end a, b;
	int start, end;

	if (dash == NULL || memchr(dash + 1, '-', n - (size_t)(dash - s) - 1)) {
		*why = "a window is start-end";
		return -1;
	}
	if (parse_end(s, (size_t)(dash - s), &a, why) < 0 ||
	    parse_end(dash + 1, n - (size_t)(dash - s) - 1, &b, why) < 0)
		return -1;
	if ((a.day < 0) != (b.day < 0)) {
		*why = "both ends of a window need a day, or neither";
		return -1;
	}
	if (a.hour == 24) {
		*why = "a window cannot start at 24:00";
		return -1;
	}
	start = (a.day < 0 ? 0 : a.day * DAY_MIN) + a.hour * 60 + a.minute;
	end = (b.day < 0 ? 0 : b.day * DAY_MIN) + b.hour * 60 + b.minute;
	if (start == end) {
		*why = "a window cannot start and end at the same time";
		return -1;
	}
	tw->start_day = a.day;
	tw->start_min = a.hour * 60 + a.minute;
	tw->end_day = b.day;
	tw->end_min = b.hour * 60 + b.minute;
	return 0;
}

int
windows_parse(struct windows *w, const char *text, const char **why)
{
	char *copy, *s, *p;
	size_t len;

	w->text = NULL;
	w->w = NULL;
	w->n = 0;
	if (text == NULL)
		return 0;
	copy = xstrdup(text);
	s = str_trim(copy);
	len = strlen(s);
	if (len >= 2 && s[0] == '(' && s[len - 1] == ')') {
		s[len - 1] = '\0';
		s = str_trim(s + 1);
	}
	if (*s == '\0') {
		free(copy);
		return 0;
	}
	for (p = s; *p;) {
		const char *start;
		struct time_window tw;

		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		start = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (parse_one(start, (size_t)(p - start), &tw, why) < 0) {
			free(copy);
			windows_release(w);
			return -1;
		}
		w->w = conf_grow(w->w, w->n, sizeof(*w->w));
		w->w[w->n++] = tw;
	}
	w->text = xstrdup(s);
	free(copy);
	return 0;
}

void
windows_release(struct windows *w)
{
	free(w->text);
	free(w->w);
	w->text = NULL;
	w->w = NULL;
	w->n = 0;
}

/* Is now in [start, end)?  A start after the end wraps round. */
static bool
in_range(int now, int start, int end)
{
	if (start < end)
		return now >= start && now < end;
	/* 20:00-08:30 wraps past midnight (or Saturday into Sunday). */
	return now >= start || now < end;
}

bool
windows_open(const struct windows *w, int wday, int minute)
{
	if (w == NULL || w->n == 0)
		return true;
	wday = ((wday % 7) + 7) % 7;
	minute = ((minute % DAY_MIN) + DAY_MIN) % DAY_MIN;
	for (int i = 0; i < w->n; i++) {
		const struct time_window *tw = &w->w[i];

		if (tw->start_day < 0) {
			if (in_range(minute, tw->start_min, tw->end_min))
				return true;
		} else if (in_range(wday * DAY_MIN + minute,
		    tw->start_day * DAY_MIN + tw->start_min,
		    tw->end_day * DAY_MIN + tw->end_min)) {
			return true;
		}
	}
	return false;
}
