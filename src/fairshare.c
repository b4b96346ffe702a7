/*
 * Fairshare's pure computation (rules in include/fairshare.h): share
 * assignments read from USER_SHARES, the account a user's jobs count
 * against, decay, dynamic priority.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fairshare.h"
#include "util.h"

void
fs_shares_release(struct fs_shares *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

static const char *
skip_ws(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* One "[name, shares]" at *pp. */
static const char *
parse_one(const char **pp, struct fs_shares *s)
{
	const char *p = skip_ws(*pp), *name, *end;
	size_t len;
	long v;
	char *num_end;

	if (*p != '[')
		return "expected [name, shares]";
	p = skip_ws(p + 1);
	name = p;
	while (*p && *p != ',' && *p != ']' && !isspace((unsigned char)*p))
		p++;
	len = (size_t)(p - name);
	if (len == 0)
		return "a name is missing";
	p = skip_ws(p);
	if (*p != ',')
		return "expected a comma after the name";
	p = skip_ws(p + 1);
	v = strtol(p, &num_end, 10);
	if (num_end == p || v <= 0 || v > 1000000000L)
		return "shares must be a positive integer";
	p = skip_ws(num_end);
	if (*p != ']')
		return "expected ] after the shares";
	end = p + 1;
	s->v = xrealloc(s->v, sizeof(*s->v) * (size_t)(s->n + 1));
	s->v[s->n].name = xstrndup(name, len);
	s->v[s->n].shares = (int)v;
	s->v[s->n].kind = FS_USER;
	s->n++;
	*pp = end;
	return NULL;
}

int
fs_shares_parse(const char *text, struct fs_shares *s, const char **why)
{
	const char *p = skip_ws(text);
	bool outer = false;

	fs_shares_release(s);
	*why = NULL;
	/* "[[a, 1] [b, 2]]" or "[a, 1] [b, 2]". */
	if (p[0] == '[' && skip_ws(p + 1)[0] == '[') {
		outer = true;
		p = skip_ws(p + 1);
	}
	while (*why == NULL) {
		p = skip_ws(p);
		if (*p == '\0' || (outer && *p == ']'))
			break;
		*why = parse_one(&p, s);
	}
	if (*why == NULL && outer) {
		if (*p != ']')
			*why = "missing ]";
		else if (*skip_ws(p + 1) != '\0')
			*why = "text after the closing ]";
	}
	if (*why == NULL && s->n == 0)
		*why = "no share assignment";
	for (int i = 0; *why == NULL && i < s->n; i++)
		for (int k = 0; k < i; k++)
			if (strcmp(s->v[i].name, s->v[k].name) == 0) {
				*why = "a name is given twice";
				break;
			}
	if (*why != NULL) {
		fs_shares_release(s);
		return -1;
	}
	return 0;
}

int
fs_fairshare_parse(const char *text, struct fs_shares *s, const char **why)
{
	const char *p = skip_ws(text);

	if (strncasecmp(p, "USER_SHARES", 11) != 0) {
		fs_shares_release(s);
		*why = "expected USER_SHARES[[name, shares] ...]";
		return -1;
	}
	return fs_shares_parse(p + 11, s, why);
}

void
fs_classify(struct fs_shares *s, bool (*is_group)(const char *, void *),
    void *arg)
{
	for (int i = 0; i < s->n; i++) {
		struct fs_share *e = &s->v[i];
		size_t len = strlen(e->name);

		if (strcmp(e->name, "default") == 0)
			e->kind = FS_DEFAULT;
		else if (strcmp(e->name, "others") == 0)
			e->kind = FS_OTHERS;
		else if (len > 1 && e->name[len - 1] == '@') {
			e->name[len - 1] = '\0';
			e->kind = FS_GROUP_EACH;
		} else if (is_group != NULL && is_group(e->name, arg))
			e->kind = FS_GROUP;
		else
			e->kind = FS_USER;
	}
}

int
fs_account_of(const struct fs_shares *s, const char *user,
    bool (*in_group)(const char *, const char *, void *), void *arg)
{
	static const enum fs_kind order[] = { FS_GROUP_EACH, FS_GROUP,
	    FS_DEFAULT, FS_OTHERS };

	for (int i = 0; i < s->n; i++)
		if (s->v[i].kind == FS_USER && strcmp(s->v[i].name, user) == 0)
			return i;
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++)
		for (int i = 0; i < s->n; i++) {
			const struct fs_share *e = &s->v[i];

			if (e->kind != order[o])
				continue;
			if (e->kind == FS_DEFAULT || e->kind == FS_OTHERS)
				return i;
			if (in_group != NULL && in_group(user, e->name, arg))
				return i;
		}
	return -1;
}

double
fs_decay(double value, double elapsed_hours, double hist_hours)
{
	if (hist_hours <= 0 || elapsed_hours <= 0)
		return value;
	return value * pow(0.1, elapsed_hours / hist_hours);
}

double
fs_run_decayed(double drun, int njobs, double elapsed_hours,
    double hist_hours)
{
	double d;

	if (elapsed_hours <= 0)
		return drun;
	if (hist_hours <= 0)
		return drun + (double)njobs * elapsed_hours;
	/* What was there decays; each job adds the integral of 0.1^(age /
	 * hist_hours) over the hours since. */
	d = pow(0.1, elapsed_hours / hist_hours);
	return drun * d + (double)njobs * hist_hours / log(10) * (1 - d);
}

void
fs_factors_default(struct fs_factors *f)
{
	f->cpu_time = 0.7;
	f->run_time = 0.7;
	f->run_job = 3.0;
	f->adjust = 0;
	f->hist_hours = 5;
	f->hist_run = false;
	f->run_decay = false;
}
