/*
 * ELIM output lines.  Every field is checked before any is used, so a
 * half-written or garbled line changes nothing.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "elim.h"

/* The next blank-separated word: *p advanced past it, its length. */
static size_t
next_word(const char **p, const char **start)
{
	const char *s = *p;

	while (*s == ' ' || *s == '\t')
		s++;
	*start = s;
	while (*s != '\0' && *s != ' ' && *s != '\t')
		s++;
	*p = s;
	return (size_t)(s - *start);
}

static bool
valid_name(const char *s, size_t n)
{
	if (n == 0 || n > ELIM_MAX_NAME || !isalpha((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

int
elim_parse_line(const char *line, struct elim_pair *pairs, const char **why)
{
	const char *p = line, *w;
	char buf[64], *end;
	size_t n;
	long count;

	if (strlen(line) > ELIM_MAX_LINE) {
		*why = "line too long";
		return -1;
	}
	for (const char *c = line; *c != '\0'; c++) {
		if (!isprint((unsigned char)*c) && *c != '\t') {
			*why = "control character in line";
			return -1;
		}
	}
	n = next_word(&p, &w);
	if (n == 0 || n >= sizeof(buf)) {
		*why = "no count of values";
		return -1;
	}
	memcpy(buf, w, n);
	buf[n] = '\0';
	errno = 0;
	count = strtol(buf, &end, 10);
	if (*end != '\0' || errno != 0 || count < 0) {
		*why = "bad count of values";
		return -1;
	}
	if (count > ELIM_MAX_PAIRS) {
		*why = "too many values";
		return -1;
	}
	for (long i = 0; i < count; i++) {
		n = next_word(&p, &w);
		if (n == 0) {
			*why = "fewer values than the count";
			return -1;
		}
		if (!valid_name(w, n)) {
			*why = "bad resource name";
			return -1;
		}
		memcpy(pairs[i].name, w, n);
		pairs[i].name[n] = '\0';
		n = next_word(&p, &w);
		if (n == 0) {
			*why = "name without a value";
			return -1;
		}
		if (n == 1 && *w == '-') {
			pairs[i].known = false;
			pairs[i].value = 0;
			continue;
		}
		if (n >= sizeof(buf)) {
			*why = "bad value";
			return -1;
		}
		memcpy(buf, w, n);
		buf[n] = '\0';
		errno = 0;
		pairs[i].value = strtod(buf, &end);
		if (*end != '\0' || errno != 0 || !isfinite(pairs[i].value) ||
		    fabs(pairs[i].value) >= 1e29) {
			*why = "bad value";
			return -1;
		}
		pairs[i].known = true;
	}
	if (next_word(&p, &w) != 0) {
		*why = "more values than the count";
		return -1;
	}
	return (int)count;
}
