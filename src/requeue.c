/*
 * REQUEUE_EXIT_VALUES lists.  Words are blank-separated; EXCLUDE(...)
 * holds one or more values and may have blanks inside.  "all" lists
 * every code, "~n" takes n out again (whichever order they come in,
 * as LSF reads "all ~1 ~2").
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "requeue.h"

#define BIT_SET(m, n)	((m)[(n) / 64] |= (uint64_t)1 << ((n) % 64))
#define BIT_HAS(m, n)	(((m)[(n) / 64] >> ((n) % 64)) & 1)

/* An exit code at *pp, 0 to 255; -1 when there is none. */
static int
exit_code(const char **pp)
{
	const char *p = *pp;
	long v = 0;

	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (*p++ - '0');
		if (v > 255)
			return -1;
	}
	*pp = p;
	return (int)v;
}

static bool
word_end(char c)
{
	return c == '\0' || isspace((unsigned char)c);
}

/* EXCLUDE's values, from just after the word EXCLUDE. */
static int
exclude_list(const char **pp, struct requeue_values *rv, const char **why)
{
	const char *p = *pp;
	int n = 0, v;

	while (isspace((unsigned char)*p))
		p++;
	if (*p++ != '(') {
		*why = "EXCLUDE needs (values)";
		return -1;
	}
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == ')')
			break;
		if ((v = exit_code(&p)) < 0 || (!word_end(*p) && *p != ')')) {
			*why = "EXCLUDE takes exit values from 0 to 255 "
			    "and a )";
			return -1;
		}
		BIT_SET(rv->exclude, v);
		n++;
	}
	if (n == 0) {
		*why = "EXCLUDE() lists no value";
		return -1;
	}
	*pp = p + 1;
	return 0;
}

int
requeue_values_parse(const char *s, struct requeue_values *rv,
    const char **why)
{
	uint64_t not[4] = { 0, 0, 0, 0 };
	const char *p = s;
	bool all = false;
	int v;

	memset(rv, 0, sizeof(*rv));
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		if (strncasecmp(p, "EXCLUDE", 7) == 0) {
			p += 7;
			if (exclude_list(&p, rv, why) < 0)
				return -1;
		} else if (strncasecmp(p, "all", 3) == 0 && word_end(p[3])) {
			all = true;
			p += 3;
		} else if (*p == '~') {
			p++;
			if ((v = exit_code(&p)) < 0 || !word_end(*p)) {
				*why = "~ takes an exit value from 0 to 255";
				return -1;
			}
			BIT_SET(not, v);
		} else if ((v = exit_code(&p)) >= 0 && word_end(*p)) {
			BIT_SET(rv->requeue, v);
		} else {
			*why = "exit values are numbers from 0 to 255, "
			    "all, ~n or EXCLUDE(n ...)";
			return -1;
		}
	}
	for (int i = 0; i < 4; i++) {
		if (all)
			rv->requeue[i] = ~(uint64_t)0;
		rv->requeue[i] &= ~not[i];
		rv->exclude[i] &= ~not[i];
	}
	return 0;
}

bool
requeue_values_has(const struct requeue_values *rv, int code, bool *exclude)
{
	bool ex;

	if (code < 0 || code > 255)
		return false;
	ex = BIT_HAS(rv->exclude, code);
	if (exclude)
		*exclude = ex;
	return BIT_HAS(rv->requeue, code) || ex;
}

bool
exit_value_listed(const char *list, int code)
{
	struct requeue_values rv;
	const char *why;

	if (list == NULL || requeue_values_parse(list, &rv, &why) < 0)
		return false;
	return requeue_values_has(&rv, code, NULL);
}

int
exit_values_valid(const char *list, const char **why)
{
	const char *p = list;
	int n = 0;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		if (exit_code(&p) < 0 || !word_end(*p)) {
			*why = "exit values are numbers from 0 to 255";
			return -1;
		}
		n++;
	}
	if (n == 0) {
		*why = "no exit value";
		return -1;
	}
	return 0;
}

bool
success_exit_value(const char *list, int code)
{
	const char *p = list, *why;
	int v;

	if (list == NULL || exit_values_valid(list, &why) < 0)
		return false;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			return false;
		if ((v = exit_code(&p)) == code)
			return true;
	}
}

int
max_job_requeue(int app, int queue, int params)
{
	if (app >= 0)
		return app;
	if (queue >= 0)
		return queue;
	return params >= 0 ? params : -1;
}

bool
requeue_allowed(int max, int done)
{
	return max < 0 || done < max;
}

int
requeue_backoff(int n)
{
	int d = REQUEUE_BACKOFF_FIRST;

	if (n <= 1)
		return d;
	for (int i = 1; i < n && d < REQUEUE_BACKOFF_MAX; i++)
		d *= 2;
	return d > REQUEUE_BACKOFF_MAX ? REQUEUE_BACKOFF_MAX : d;
}
