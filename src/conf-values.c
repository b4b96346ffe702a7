/*
 * Values in LSF syntax that several files (and the commands) share:
 * memory amounts, time limits and load thresholds.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf-lex.h"
#include "num.h"

/* Power of 1024 bytes a unit stands for (B 0, KB 1 ... ZB 7), or -1. */
static int
unit_power(const char *u)
{
	static const char *const names[] = { "K", "M", "G", "T", "P", "E",
	    "Z" };
	size_t n = strlen(u);

	if (strcasecmp(u, "B") == 0)
		return 0;
	if (n == 2 && (u[1] == 'B' || u[1] == 'b'))
		n = 1;
	if (n != 1)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (toupper((unsigned char)u[0]) == names[i][0])
			return (int)i + 1;
	return -1;
}

int
parse_mem_kb(const char *s, const char *unit, long long *kb)
{
	const char *p = s;
	char num[64];
	long double v, r;
	size_t n;
	int digits = 0, pw;

	if (s == NULL)
		return -1;
	/* Only digits and one dot: strtold alone would take "inf", hex
	 * and exponents, none of which LSF accepts. */
	while (isdigit((unsigned char)*p))
		p++, digits++;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			digits++;
	n = (size_t)(p - s);
	if (digits == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	if (*p != '\0')
		pw = unit_power(p);
	else if (unit == NULL || *unit == '\0')
		pw = 1;
	else
		pw = unit_power(unit);
	if (pw < 0)
		return -1;
	v = strtold(num, NULL) * num_pow1024(pw - 1);
	if (v >= (long double)LLONG_MAX)
		return -1;
	/* Round up a fraction of a KB, but not an error of the float. */
	r = (long double)num_round(v);
	if (fabsl(v - r) <= 1e-9L * (r > 1 ? r : 1))
		*kb = (long long)r;
	else
		*kb = num_ceil(v);
	return 0;
}

/* A string of digits (at most 9) as a number, or -1. */
static long
digits_val(const char *s, size_t n)
{
	long v = 0;

	if (n == 0 || n > 9)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int
parse_time_limit(const char *s, long long *minutes)
{
	const char *slash, *colon, *end;
	long h = 0, m;

	if (s == NULL)
		return -1;
	/* "/host_or_model" names the CPU the limit was measured on; the
	 * normalisation is the caller's business. */
	slash = strchr(s, '/');
	if (slash != NULL && slash[1] == '\0')
		return -1;
	end = slash ? slash : s + strlen(s);
	colon = memchr(s, ':', (size_t)(end - s));
	if (colon != NULL) {
		if ((h = digits_val(s, (size_t)(colon - s))) < 0)
			return -1;
		m = digits_val(colon + 1, (size_t)(end - colon - 1));
		if (m < 0 || m > 59)
			return -1;
	} else if ((m = digits_val(s, (size_t)(end - s))) < 0) {
		return -1;
	}
	*minutes = (long long)h * 60 + m;
	return 0;
}

const char *
conf_pend_limit(const char *v, long long *minutes)
{
	long long m;

	/* No host to normalise a pending time by. */
	if (strchr(v, '/') != NULL || parse_time_limit(v, &m) < 0 || m <= 0)
		return "must be [hour:]minute, above 0";
	*minutes = m;
	return NULL;
}

long long
pend_limit_effective(long long job, long long app, long long queue,
    long long cluster)
{
	if (job > 0)
		return job;
	if (app > 0)
		return app;
	if (queue > 0)
		return queue;
	return cluster > 0 ? cluster : -1;
}

void
thresholds_init(struct thresholds *t)
{
	for (int i = 0; i < NLOADIDX; i++) {
		float none = load_index_info[i].increasing ? INFINIT_LOAD :
		    -INFINIT_LOAD;

		t->sched[i] = none;
		t->stop[i] = none;
	}
	t->sched_set = 0;
	t->stop_set = 0;
	t->next = 0;
}

int
conf_load_value(const char *s, int idx, float *out, const char **why)
{
	double v;

	if (parse_double(s, &v) < 0) {
		*why = "not a number";
		return -1;
	}
	if (v < 0) {
		*why = "negative value";
		return -1;
	}
	/* ut is a fraction, but sites write 70 for 70%. */
	if (idx == LI_UT && v > 1) {
		if (v > 100) {
			*why = "ut must be a fraction or a percentage";
			return -1;
		}
		v /= 100;
	}
	if (v > INFINIT_LOAD) {
		*why = "value too large";
		return -1;
	}
	*out = (float)v;
	return 0;
}

/* "sched[/stop]": what is given of each; idx is the load index (for ut's
 * percentages) or -1 for an external one. */
static int
parse_pair(const char *val, int idx, bool *has_s, float *fs, bool *has_t,
    float *ft, const char **why)
{
	char *copy, *s, *slash, *stop = NULL;
	int rc = -1;

	*has_s = *has_t = false;
	if (val == NULL)
		return 0;
	copy = xstrdup(val);
	s = str_trim(copy);
	if (*s == '\0' || strcmp(s, "-") == 0 || strcmp(s, "()") == 0) {
		free(copy);
		return 0;
	}
	if ((slash = strchr(s, '/')) != NULL) {
		*slash = '\0';
		stop = str_trim(slash + 1);
		if (strchr(stop, '/') != NULL) {
			*why = "more than one \"/\"";
			goto out;
		}
		*has_t = *stop != '\0';
	}
	s = str_trim(s);
	*has_s = *s != '\0';
	if (!*has_s && !*has_t) {
		*why = "no value";
		goto out;
	}
	if (*has_s && conf_load_value(s, idx, fs, why) < 0)
		goto out;
	if (*has_t && conf_load_value(stop, idx, ft, why) < 0)
		goto out;
	rc = 0;
out:
	free(copy);
	return rc;
}

int
parse_threshold(const char *val, int idx, struct thresholds *t,
    const char **why)
{
	float fs = 0, ft = 0;
	bool has_s, has_t;

	if (idx < 0 || idx >= NLOADIDX) {
		*why = "unknown load index";
		return -1;
	}
	if (parse_pair(val, idx, &has_s, &fs, &has_t, &ft, why) < 0)
		return -1;
	if (has_s) {
		t->sched[idx] = fs;
		t->sched_set |= 1u << idx;
	}
	if (has_t) {
		t->stop[idx] = ft;
		t->stop_set |= 1u << idx;
	}
	return 0;
}

int
parse_threshold_ext(const char *val, const char *name, int res,
    bool increasing, struct thresholds *t, const char **why)
{
	struct ext_threshold *e = NULL;
	float fs = 0, ft = 0;
	bool has_s, has_t;

	if (strlen(name) >= EXT_THRESHOLD_NAME) {
		*why = "resource name too long";
		return -1;
	}
	if (parse_pair(val, -1, &has_s, &fs, &has_t, &ft, why) < 0)
		return -1;
	if (!has_s && !has_t)
		return 0;
	for (int i = 0; i < t->next; i++)
		if (strcmp(t->ext[i].name, name) == 0)
			e = &t->ext[i];
	if (e == NULL) {
		if (t->next == MAX_EXT_THRESHOLDS) {
			*why = "more than 8 external load indices have "
			    "thresholds";
			return -1;
		}
		e = &t->ext[t->next++];
	}
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->increasing = increasing;
	e->res = res;
	e->sched_set = has_s;
	e->sched = fs;
	e->stop_set = has_t;
	e->stop = ft;
	return 0;
}

/* "name res increasing sched_set sched stop_set stop" */
void
thresholds_ext_to_strv(const struct thresholds *t, struct strv *v)
{
	for (int i = 0; i < t->next; i++) {
		const struct ext_threshold *e = &t->ext[i];

		strv_push_nodup(v, xasprintf("%s %d %d %d %.9g %d %.9g",
		    e->name, e->res, e->increasing, e->sched_set,
		    (double)e->sched, e->stop_set, (double)e->stop));
	}
}

int
thresholds_ext_from_strv(const struct strv *v, struct thresholds *t)
{
	t->next = 0;
	for (size_t i = 0; i < v->n && t->next < MAX_EXT_THRESHOLDS; i++) {
		struct ext_threshold *e = &t->ext[t->next];
		char name[EXT_THRESHOLD_NAME];
		int res, inc, ss, ts, n = 0;
		float sv, tv;

		if (sscanf(v->v[i], "%39s %d %d %d %g %d %g%n", name, &res,
		    &inc, &ss, &sv, &ts, &tv, &n) != 7 || v->v[i][n] != '\0')
			return -1;
		memset(e, 0, sizeof(*e));
		memcpy(e->name, name, sizeof(e->name));
		e->res = res;
		e->increasing = inc != 0;
		e->sched_set = ss != 0;
		e->sched = sv;
		e->stop_set = ts != 0;
		e->stop = tv;
		t->next++;
	}
	return 0;
}

void
thresholds_to_wire(const struct thresholds *t, float *sched, float *stop,
    uint32_t *sched_set, uint32_t *stop_set, struct strv *ext)
{
	memcpy(sched, t->sched, sizeof(t->sched));
	memcpy(stop, t->stop, sizeof(t->stop));
	*sched_set = t->sched_set;
	*stop_set = t->stop_set;
	thresholds_ext_to_strv(t, ext);
}

void
thresholds_from_wire(struct thresholds *t, const float *sched,
    const float *stop, uint32_t sched_set, uint32_t stop_set,
    const struct strv *ext)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->sched, sched, sizeof(t->sched));
	memcpy(t->stop, stop, sizeof(t->stop));
	t->sched_set = sched_set;
	t->stop_set = stop_set;
	if (ext != NULL && thresholds_ext_from_strv(ext, t) < 0)
		t->next = 0;
}
