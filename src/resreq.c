/*
 * Resource requirement strings: splitting into sections, the order,
 * rusage, span and same sections, merging, host ordering and the display
 * form.  The select expression is in resreq-expr.c.
 *
 * Display form (resreq_to_string), fixed so that tests and bjobs output
 * stay stable: always "select[...] order[...] ", then "rusage[...] ",
 * "span[...] " and "same[...] " when set, each section followed by one
 * blank.  No select shows LSF's default "type == local", no order shows
 * "r15s:pg".  mem, swp and tmp are shown in MB, so the display form reads
 * back the same only with LSF_UNIT_FOR_LIMITS at MB or KB.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "resreq.h"

struct slice {
	const char	*p;
	size_t		 n;
};

typedef int section_fn(struct resreq *, struct slice, const char *unit,
    char **cause);
static section_fn sec_select, sec_order, sec_rusage, sec_span, sec_same;

static const struct {
	const char	*name;
	section_fn	*fn;		/* NULL: LSF's, not supported */
} sections[] = {
	{ "select", sec_select }, { "order", sec_order },
	{ "rusage", sec_rusage }, { "span", sec_span }, { "same", sec_same },
	{ "cu", NULL }, { "affinity", NULL },
};

/* Numeric host values order[] may name besides the load indices. */
static const char *const order_statics[] = {
	"ncpus", "cpuf", "maxmem", "maxswp", "maxtmp",
};

void
resreq_init(struct resreq *rr)
{
	memset(rr, 0, sizeof(*rr));
	rr->span_hosts = -1;
	rr->span_ptile = -1;
}

void
resreq_release(struct resreq *rr)
{
	free(rr->text);
	rr_expr_free(rr->select);
	for (int i = 0; i < rr->norder; i++)
		free(rr->order[i].name);
	free(rr->order);
	for (int i = 0; i < rr->nrusage; i++)
		free(rr->rusage[i].name);
	free(rr->rusage);
	free(rr->same);
	resreq_init(rr);
}

static int
fail(char **cause, const char *fmt, ...) PRINTF(2, 3);

static int
fail(char **cause, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	*cause = sb_detach(&sb);
	return -1;
}

/* Fail with a message naming the offending text. */
static int
fail_at(char **cause, const char *why, struct slice s)
{
	char *near = rr_snippet(s.p, s.n);

	fail(cause, "%s: '%s'", why, near);
	free(near);
	return -1;
}

static struct slice
trim(const char *p, size_t n)
{
	struct slice s;

	while (n > 0 && isspace((unsigned char)*p)) {
		p++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)p[n - 1]))
		n--;
	s.p = p;
	s.n = n;
	return s;
}

/* The next piece of s up to sep (or the end); false when none is left. */
static bool
next_piece(struct slice *rest, int sep, struct slice *piece)
{
	const char *q;

	if (rest->p == NULL)
		return false;
	q = memchr(rest->p, sep, rest->n);
	if (q == NULL) {
		*piece = trim(rest->p, rest->n);
		rest->p = NULL;
		return true;
	}
	*piece = trim(rest->p, (size_t)(q - rest->p));
	rest->n -= (size_t)(q - rest->p) + 1;
	rest->p = q + 1;
	return true;
}

static bool
slice_is(struct slice s, const char *word)
{
	return s.n == strlen(word) && strncasecmp(s.p, word, s.n) == 0;
}

static bool
is_name(struct slice s)
{
	if (s.n == 0 || (!isalpha((unsigned char)s.p[0]) && s.p[0] != '_'))
		return false;
	for (size_t i = 1; i < s.n; i++)
		if (!isalnum((unsigned char)s.p[i]) && s.p[i] != '_')
			return false;
	return true;
}

/* "name=value" split in two; false without a '='. */
static bool
split_eq(struct slice s, struct slice *name, struct slice *val)
{
	const char *eq = memchr(s.p, '=', s.n);

	if (eq == NULL)
		return false;
	*name = trim(s.p, (size_t)(eq - s.p));
	*val = trim(eq + 1, s.n - (size_t)(eq - s.p) - 1);
	return true;
}

/* A whole slice as a non-negative int, digits only. */
static bool
slice_int(struct slice s, int max, int *out)
{
	long v = 0;

	if (s.n == 0)
		return false;
	for (size_t i = 0; i < s.n; i++) {
		if (!isdigit((unsigned char)s.p[i]))
			return false;
		v = v * 10 + (s.p[i] - '0');
		if (v > max)
			return false;
	}
	*out = (int)v;
	return true;
}

/* select */

static int
sec_select(struct resreq *rr, struct slice s, const char *unit,
    char **cause)
{
	return rr_expr_parse(&rr->select, s.p, s.n, unit, false, cause);
}

/* order */

static const char *
order_name(struct slice s)
{
	char *name = xstrndup(s.p, s.n);
	const char *canon = NULL;
	int i;

	if ((i = load_index_lookup(name)) >= 0)
		canon = load_index_info[i].name;
	for (size_t j = 0; j < ARRAY_SIZE(order_statics); j++)
		if (strcasecmp(name, order_statics[j]) == 0)
			canon = order_statics[j];
	free(name);
	return canon;
}

static int
sec_order(struct resreq *rr, struct slice s, const char *unit,
    char **cause)
{
	struct slice rest = s, key;
	const char *name;
	bool reverse;

	while (next_piece(&rest, ':', &key)) {
		reverse = key.n > 0 && key.p[0] == '-';
		if (reverse)
			key = trim(key.p + 1, key.n - 1);
		if ((name = order_name(key)) == NULL)
			return fail_at(cause, "order[] takes load indices "
			    "or ncpus, cpuf, maxmem, maxswp, maxtmp", key);
		rr->order = xrealloc(rr->order,
		    (size_t)(rr->norder + 1) * sizeof(*rr->order));
		rr->order[rr->norder].name = xstrdup(name);
		rr->order[rr->norder++].reverse = reverse;
	}
	return 0;
}

/* rusage */

static bool
is_mem_name(const char *name)
{
	return strcmp(name, "mem") == 0 || strcmp(name, "swp") == 0 ||
	    strcmp(name, "tmp") == 0;
}

static struct rr_usage *
find_usage(const struct resreq *rr, const char *name)
{
	for (int i = 0; i < rr->nrusage; i++)
		if (strcmp(rr->rusage[i].name, name) == 0)
			return &rr->rusage[i];
	return NULL;
}

static void
push_usage(struct resreq *rr, const struct rr_usage *u)
{
	rr->rusage = xrealloc(rr->rusage,
	    (size_t)(rr->nrusage + 1) * sizeof(*rr->rusage));
	rr->rusage[rr->nrusage] = *u;
	rr->rusage[rr->nrusage++].name = xstrdup(u->name);
}

static int
usage_duration(struct slice v, int *out, char **cause)
{
	int mul = 1;

	/* Minutes; LSF also takes an hours suffix. */
	if (v.n > 0 && (v.p[v.n - 1] == 'h' || v.p[v.n - 1] == 'H')) {
		mul = 60;
		v.n--;
	} else if (v.n > 0 && (v.p[v.n - 1] == 'm' || v.p[v.n - 1] == 'M'))
		v.n--;
	if (!slice_int(v, INT_MAX / 60, out))
		return fail_at(cause, "bad duration in rusage[]", v);
	*out *= mul;
	return 0;
}

/* One item: "res=val[:res=val...][:duration=m][:decay=0|1]". */
static int
usage_item(struct resreq *rr, struct slice item, double unit_mb,
    char **cause)
{
	struct slice rest = item, term, name, val;
	struct rr_usage u;
	int first = rr->nrusage, duration = 0, i;
	bool decay = false, has_unit;
	char *canon;

	while (next_piece(&rest, ':', &term)) {
		if (!split_eq(term, &name, &val) || !is_name(name))
			return fail_at(cause, "rusage[] expects name=value",
			    term);
		if (slice_is(name, "duration")) {
			if (usage_duration(val, &duration, cause) == -1)
				return -1;
			continue;
		}
		if (slice_is(name, "decay")) {
			if (!slice_is(val, "0") && !slice_is(val, "1"))
				return fail_at(cause,
				    "decay in rusage[] must be 0 or 1", val);
			decay = val.p[0] == '1';
			continue;
		}
		canon = xstrndup(name.p, name.n);
		if ((i = load_index_lookup(canon)) >= 0) {
			free(canon);
			canon = xstrdup(load_index_info[i].name);
		}
		if (val.n == 0 || rr_scan_number(val.p, val.p + val.n,
		    &u.value, &has_unit) != val.n) {
			free(canon);
			return fail_at(cause, "bad value in rusage[]", term);
		}
		if (has_unit && !is_mem_name(canon)) {
			free(canon);
			return fail_at(cause,
			    "units are for mem, swp and tmp only", term);
		}
		if (!has_unit && is_mem_name(canon))
			u.value *= unit_mb;
		if (!isfinite(u.value)) {
			free(canon);
			return fail_at(cause, "value too large in rusage[]",
			    term);
		}
		if (find_usage(rr, canon) != NULL) {
			fail(cause, "%s appears twice in rusage[]", canon);
			free(canon);
			return -1;
		}
		u.name = canon;
		u.duration = 0;
		u.decay = false;
		u.idx = load_index_lookup(canon);
		push_usage(rr, &u);
		free(canon);
	}
	if (rr->nrusage == first)
		return fail_at(cause, "rusage[] item names no resource", item);
	for (i = first; i < rr->nrusage; i++) {
		rr->rusage[i].duration = duration;
		rr->rusage[i].decay = decay;
	}
	return 0;
}

static int
sec_rusage(struct resreq *rr, struct slice s, const char *unit,
    char **cause)
{
	struct slice rest = s, item;
	double unit_mb = rr_unit_mb(unit);

	for (size_t i = 0; i + 1 < s.n; i++)
		if (s.p[i] == '|' && s.p[i + 1] == '|')
			return fail(cause,
			    "rusage[] alternatives (||) are not supported");
	while (next_piece(&rest, ',', &item)) {
		if (item.n == 0)
			return fail(cause, "empty item in rusage[]");
		if (usage_item(rr, item, unit_mb, cause) == -1)
			return -1;
	}
	return 0;
}

/* span, same */

static int
sec_span(struct resreq *rr, struct slice s, const char *unit,
    char **cause)
{
	struct slice name, val;
	int n;

	if (memchr(s.p, ':', s.n) == NULL && split_eq(s, &name, &val)) {
		if (slice_is(name, "hosts") && slice_is(val, "1")) {
			rr->span_hosts = 1;
			return 0;
		}
		if (slice_is(name, "ptile") && slice_int(val, INT_MAX, &n) &&
		    n >= 1) {
			rr->span_ptile = n;
			return 0;
		}
	}
	return fail_at(cause, "span[] takes hosts=1 or ptile=N", s);
}

static int
sec_same(struct resreq *rr, struct slice s, const char *unit,
    char **cause)
{
	rr->same = xstrndup(s.p, s.n);
	return 0;
}

/* Whole strings */

/* A '[' outside quotes means sections; without one it is an expression. */
static bool
has_sections(const char *s)
{
	char q = 0;

	for (; *s; s++) {
		if (q) {
			if (*s == q)
				q = 0;
		} else if (*s == '\'' || *s == '"')
			q = *s;
		else if (*s == '[')
			return true;
	}
	return false;
}

/* The ']' closing a section whose text starts at p, or NULL. */
static const char *
find_close(const char *p, const char *name, char **cause)
{
	const char *q;

	for (; *p; p++) {
		if (*p == '\'' || *p == '"') {
			if ((q = strchr(p + 1, *p)) == NULL) {
				fail(cause, "unterminated quote in %s[]", name);
				return NULL;
			}
			p = q;
		} else if (*p == '[') {
			fail(cause, "'[' inside %s[]", name);
			return NULL;
		} else if (*p == ']')
			return p;
	}
	fail(cause, "missing ']' after %s[", name);
	return NULL;
}

static int
parse_sections(struct resreq *rr, const char *s, const char *unit,
    char **cause)
{
	const char *p = s, *q, *close;
	struct slice name;
	size_t i;
	unsigned seen = 0;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			return 0;
		for (q = p; isalpha((unsigned char)*q) || *q == '_'; q++)
			;
		name = trim(p, (size_t)(q - p));
		while (isspace((unsigned char)*q))
			q++;
		if (name.n == 0 || *q != '[')
			return fail_at(cause, "expected a section such as "
			    "select[...]", trim(p, strlen(p)));
		for (i = 0; i < ARRAY_SIZE(sections); i++)
			if (slice_is(name, sections[i].name))
				break;
		if (i == ARRAY_SIZE(sections))
			return fail_at(cause, "unknown section", name);
		if (sections[i].fn == NULL)
			return fail(cause, "%s[] is not supported",
			    sections[i].name);
		if (seen & (1u << i))
			return fail(cause, "duplicate %s[] section",
			    sections[i].name);
		seen |= 1u << i;
		if ((close = find_close(q + 1, sections[i].name, cause)) ==
		    NULL)
			return -1;
		if (trim(q + 1, (size_t)(close - q - 1)).n == 0)
			return fail(cause, "empty %s[] section",
			    sections[i].name);
		if (sections[i].fn(rr, trim(q + 1, (size_t)(close - q - 1)),
		    unit, cause) == -1)
			return -1;
		p = close + 1;
	}
}

int
resreq_parse(struct resreq *rr, const char *text, const char *unit,
    char **cause)
{
	struct slice all;
	int r;

	resreq_init(rr);
	*cause = NULL;
	if (text == NULL)
		text = "";
	if (strlen(text) > RR_MAX_TEXT)
		return fail(cause, "resource requirement longer than %d bytes",
		    RR_MAX_TEXT);
	rr->text = xstrdup(text);
	if (has_sections(text))
		r = parse_sections(rr, text, unit, cause);
	else if ((all = trim(text, strlen(text))).n == 0)
		r = 0;
	else
		r = rr_expr_parse(&rr->select, all.p, all.n, unit, true, cause);
	if (r == -1)
		resreq_release(rr);
	return r;
}

/* Copying and merging */

static void
copy_order(struct resreq *dst, const struct resreq *src)
{
	for (int i = 0; i < dst->norder; i++)
		free(dst->order[i].name);
	free(dst->order);
	dst->order = NULL;
	dst->norder = 0;
	if (src->norder == 0)
		return;
	dst->order = xcalloc((size_t)src->norder, sizeof(*dst->order));
	for (int i = 0; i < src->norder; i++) {
		dst->order[i].name = xstrdup(src->order[i].name);
		dst->order[i].reverse = src->order[i].reverse;
	}
	dst->norder = src->norder;
}

static void
copy_rusage(struct resreq *dst, const struct resreq *src)
{
	for (int i = 0; i < dst->nrusage; i++)
		free(dst->rusage[i].name);
	free(dst->rusage);
	dst->rusage = NULL;
	dst->nrusage = 0;
	for (int i = 0; i < src->nrusage; i++)
		push_usage(dst, &src->rusage[i]);
}

static bool
has_span(const struct resreq *rr)
{
	return rr->span_hosts != -1 || rr->span_ptile != -1;
}

static void
copy_same(struct resreq *dst, const struct resreq *src)
{
	free(dst->same);
	dst->same = src->same ? xstrdup(src->same) : NULL;
}

void
resreq_copy(struct resreq *dst, const struct resreq *src)
{
	resreq_init(dst);
	if (src == NULL)
		return;
	dst->text = src->text ? xstrdup(src->text) : NULL;
	dst->select = rr_expr_copy(src->select);
	copy_order(dst, src);
	copy_rusage(dst, src);
	dst->span_hosts = src->span_hosts;
	dst->span_ptile = src->span_ptile;
	copy_same(dst, src);
}

int
resreq_merge_job(struct resreq *out, const struct strv *texts,
    const char *unit, char **cause)
{
	struct resreq one;

	resreq_init(out);
	*cause = NULL;
	for (size_t i = 0; texts != NULL && i < texts->n; i++) {
		if (resreq_parse(&one, texts->v[i], unit, cause) == -1) {
			resreq_release(out);
			return -1;
		}
		/*
		 * Selects add up, and so do rusage items (Nextflow asks
		 * for mem and tmp in two -R); a resource named twice takes
		 * the later value.  Other sections: the later one wins.
		 */
		out->select = rr_expr_and(out->select, one.select);
		one.select = NULL;
		if (one.norder)
			copy_order(out, &one);
		for (int k = 0; k < one.nrusage; k++) {
			struct rr_usage *u = find_usage(out,
			    one.rusage[k].name);

			if (u == NULL) {
				push_usage(out, &one.rusage[k]);
				continue;
			}
			u->value = one.rusage[k].value;
			u->duration = one.rusage[k].duration;
			u->decay = one.rusage[k].decay;
		}
		if (has_span(&one)) {
			out->span_hosts = one.span_hosts;
			out->span_ptile = one.span_ptile;
		}
		if (one.same)
			copy_same(out, &one);
		resreq_release(&one);
	}
	out->text = texts ? strv_join(texts, " ") : xstrdup("");
	return 0;
}

static bool
has_any(const struct resreq *rr)
{
	return rr->select || rr->norder || rr->nrusage || has_span(rr) ||
	    rr->same;
}

int
resreq_merge_queue(struct resreq *out, const struct resreq *q,
    const struct resreq *job, char **cause)
{
	static const struct resreq none = { .span_hosts = -1,
	    .span_ptile = -1 };
	const struct rr_usage *qu;
	struct strbuf sb = STRBUF_INIT;

	resreq_init(out);
	*cause = NULL;
	if (q == NULL)
		q = &none;
	if (job == NULL)
		job = &none;
	for (int i = 0; i < job->nrusage; i++) {
		qu = find_usage(q, job->rusage[i].name);
		if (qu != NULL && job->rusage[i].value > qu->value) {
			sb_addf(&sb, "job's rusage %s=", qu->name);
			rr_print_number(&sb, job->rusage[i].value);
			sb_addf(&sb, " exceeds the queue's limit %s=",
			    qu->name);
			rr_print_number(&sb, qu->value);
			*cause = sb_detach(&sb);
			resreq_release(out);
			return -1;
		}
		push_usage(out, &job->rusage[i]);
	}
	for (int i = 0; i < q->nrusage; i++)
		if (find_usage(job, q->rusage[i].name) == NULL)
			push_usage(out, &q->rusage[i]);
	out->select = rr_expr_and(rr_expr_copy(q->select),
	    rr_expr_copy(job->select));
	/* A job with any requirement of its own gets r15s:pg, not the
	 * queue's order. */
	copy_order(out, has_any(job) ? job : q);
	if (has_span(job) || !has_span(q)) {
		out->span_hosts = job->span_hosts;
		out->span_ptile = job->span_ptile;
	} else {
		out->span_hosts = q->span_hosts;
		out->span_ptile = q->span_ptile;
	}
	copy_same(out, job->same ? job : q);
	out->text = xstrdup(job->text ? job->text : q->text ? q->text : "");
	return 0;
}

/* Using a requirement */

const char *
resreq_unknown_name(const struct resreq *rr, resreq_known_fn known, void *arg,
    const char **section)
{
	const char *n;

	if (rr == NULL)
		return NULL;
	if ((n = rr_expr_unknown(rr->select, known, arg)) != NULL) {
		*section = "select";
		return n;
	}
	for (int i = 0; i < rr->nrusage; i++) {
		n = rr->rusage[i].name;
		if (load_index_lookup(n) < 0 && !known(n, arg)) {
			*section = "rusage";
			return n;
		}
	}
	return NULL;
}

bool
resreq_ext_value(const struct rr_host *h, const char *name, double *v)
{
	size_t n = strlen(name);
	char *end;

	for (size_t i = 0; h->ext != NULL && i < h->ext->n; i++) {
		const char *s = h->ext->v[i];

		if (strncmp(s, name, n) != 0 || s[n] != '=')
			continue;
		*v = strtod(s + n + 1, &end);
		return end != s + n + 1 && *end == '\0' && isfinite(*v);
	}
	return false;
}

bool
resreq_select(const struct resreq *rr, const struct rr_host *h)
{
	return rr == NULL || rr_expr_eval(rr->select, h);
}

/*
 * order[] keys.  A key is a load index (0 .. NLOADIDX-1) or one of the
 * static figures below, resolved from its name once per host rather than
 * once per comparison.
 */
enum { KEY_NCPUS = NLOADIDX, KEY_CPUF, KEY_MAXMEM, KEY_MAXSWP, KEY_MAXTMP,
	KEY_UNKNOWN };

static int
key_id(const char *name)
{
	static const char *const statics[] = { "ncpus", "cpuf", "maxmem",
	    "maxswp", "maxtmp" };
	int i = load_index_lookup(name);

	if (i >= 0)
		return i;
	for (i = 0; i < (int)ARRAY_SIZE(statics); i++)
		if (strcasecmp(name, statics[i]) == 0)
			return KEY_NCPUS + i;
	return KEY_UNKNOWN;
}

/* A host's value for a key; false when it is not known. */
static bool
key_value(int key, const struct rr_host *h, double *v)
{
	switch (key) {
	case KEY_NCPUS:
		*v = h->ncpus;
		break;
	case KEY_CPUF:
		*v = h->cpuf;
		break;
	case KEY_MAXMEM:
		*v = h->maxmem;
		break;
	case KEY_MAXSWP:
		*v = h->maxswp;
		break;
	case KEY_MAXTMP:
		*v = h->maxtmp;
		break;
	case KEY_UNKNOWN:
		return false;
	default:
		if (h->load == NULL || isnan(h->load[key]) ||
		    h->load[key] >= INFINIT_LOAD)
			return false;
		*v = h->load[key];
		return true;
	}
	return isfinite(*v);
}

/*
 * Loads jitter, so values within about 0.1% should tie and let the next
 * key decide.  Rounding to 10 significant bits does that and, unlike
 * "closer than 0.1%", is an equivalence: the order it gives is a true
 * ordering, the same whichever way the hosts are sorted.
 */
static double
coarse(double v)
{
	int e;
	double m = frexp(v, &e);

	return ldexp(nearbyint(m * 1024) / 1024, e);
}

bool
resreq_equal(const struct resreq *a, const struct resreq *b)
{
	if (a == b)
		return true;
	if (a == NULL || b == NULL || a->norder != b->norder ||
	    a->nrusage != b->nrusage || a->span_hosts != b->span_hosts ||
	    a->span_ptile != b->span_ptile ||
	    (a->same == NULL) != (b->same == NULL) ||
	    (a->same && strcmp(a->same, b->same) != 0))
		return false;
	for (int i = 0; i < a->norder; i++)
		if (a->order[i].reverse != b->order[i].reverse ||
		    strcmp(a->order[i].name, b->order[i].name) != 0)
			return false;
	for (int i = 0; i < a->nrusage; i++)
		if (strcmp(a->rusage[i].name, b->rusage[i].name) != 0 ||
		    a->rusage[i].value != b->rusage[i].value ||
		    a->rusage[i].duration != b->rusage[i].duration ||
		    a->rusage[i].decay != b->rusage[i].decay)
			return false;
	return rr_expr_equal(a->select, b->select);
}

int
resreq_order_nkeys(const struct resreq *rr)
{
	return rr != NULL && rr->norder > 0 ? rr->norder : 2;
}

bool
resreq_order_same(const struct resreq *a, const struct resreq *b)
{
	int n = resreq_order_nkeys(a);

	if (n != resreq_order_nkeys(b))
		return false;
	if (a == NULL || a->norder == 0 || b == NULL || b->norder == 0)
		return (a == NULL || a->norder == 0) ==
		    (b == NULL || b->norder == 0);
	for (int i = 0; i < n; i++)
		if (a->order[i].reverse != b->order[i].reverse ||
		    key_id(a->order[i].name) != key_id(b->order[i].name))
			return false;
	return true;
}

unsigned
resreq_order_loads(const struct resreq *rr)
{
	unsigned m = 0;
	int k;

	if (rr == NULL || rr->norder == 0)
		return 1u << LI_R15S | 1u << LI_PG;
	for (int i = 0; i < rr->norder; i++)
		if ((k = key_id(rr->order[i].name)) < NLOADIDX)
			m |= 1u << k;
	return m;
}

void
resreq_order_values(const struct resreq *rr, const struct rr_host *h,
    double *v)
{
	int n = resreq_order_nkeys(rr);

	for (int i = 0; i < n; i++) {
		bool def = rr == NULL || rr->norder == 0;
		int key = def ? (i == 0 ? LI_R15S : LI_PG) :
		    key_id(rr->order[i].name);
		bool ascending = key < NLOADIDX && load_index_info[key].increasing;
		double x;

		if (!def && rr->order[i].reverse)
			ascending = !ascending;
		/* Unknown values go last whatever the direction. */
		if (!key_value(key, h, &x))
			v[i] = HUGE_VAL;
		else
			v[i] = ascending ? coarse(x) : -coarse(x);
	}
}

int
resreq_order_cmp_values(const double *a, const double *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/*
 * LSF sorts by the rightmost key first and the leftmost last, so the
 * leftmost decides: the same as comparing key by key from the left.
 */
int
resreq_order_cmp(const struct resreq *rr, const struct rr_host *a,
    const struct rr_host *b)
{
	int n = resreq_order_nkeys(rr), c;
	double *va = xmalloc(sizeof(double) * (size_t)n * 2), *vb = va + n;

	resreq_order_values(rr, a, va);
	resreq_order_values(rr, b, vb);
	c = resreq_order_cmp_values(va, vb, n);
	free(va);
	if (c != 0)
		return c;
	/* A full tie still needs an order that does not change. */
	if (a->name == NULL || b->name == NULL)
		return (a->name == NULL) - (b->name == NULL);
	c = strcmp(a->name, b->name);
	return c < 0 ? -1 : c > 0;
}

char *
resreq_to_string(const struct resreq *rr)
{
	struct strbuf sb = STRBUF_INIT;
	const struct rr_usage *u;

	sb_adds(&sb, "select[");
	if (rr != NULL && rr->select != NULL)
		rr_expr_print(&sb, rr->select);
	else
		sb_adds(&sb, "type == local");
	sb_adds(&sb, "] order[");
	if (rr != NULL && rr->norder > 0)
		for (int i = 0; i < rr->norder; i++)
			sb_addf(&sb, "%s%s%s", i ? ":" : "",
			    rr->order[i].reverse ? "-" : "",
			    rr->order[i].name);
	else
		sb_adds(&sb, "r15s:pg");
	sb_adds(&sb, "] ");
	if (rr == NULL)
		return sb_detach(&sb);
	if (rr->nrusage > 0) {
		sb_adds(&sb, "rusage[");
		for (int i = 0; i < rr->nrusage; i++) {
			u = &rr->rusage[i];
			sb_addf(&sb, "%s%s=", i ? "," : "", u->name);
			rr_print_number(&sb, u->value);
			if (u->duration > 0)
				sb_addf(&sb, ":duration=%d", u->duration);
			if (u->decay)
				sb_adds(&sb, ":decay=1");
		}
		sb_adds(&sb, "] ");
	}
	if (rr->span_hosts != -1)
		sb_addf(&sb, "span[hosts=%d] ", rr->span_hosts);
	else if (rr->span_ptile != -1)
		sb_addf(&sb, "span[ptile=%d] ", rr->span_ptile);
	if (rr->same != NULL)
		sb_addf(&sb, "same[%s] ", rr->same);
	return sb_detach(&sb);
}
