/* Job array index sets and the array part of job names. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "idxset.h"
#include "util.h"

void
idxset_init(struct idxset *s)
{
	memset(s, 0, sizeof(*s));
}

void
idxset_release(struct idxset *s)
{
	free(s->r);
	idxset_init(s);
}

void
idxset_copy(struct idxset *dst, const struct idxset *src)
{
	idxset_init(dst);
	if (src->n) {
		dst->r = xcalloc((size_t)src->n, sizeof(*dst->r));
		memcpy(dst->r, src->r, sizeof(*dst->r) * (size_t)src->n);
	}
	dst->n = dst->cap = src->n;
	dst->count = src->count;
}

static int64_t
range_count(const struct idx_range *r)
{
	return ((int64_t)r->end - r->start) / r->step + 1;
}

static bool
in_range(const struct idx_range *r, int32_t idx)
{
	return idx >= r->start && idx <= r->end &&
	    (idx - r->start) % r->step == 0;
}

/* The first range that ends at or after idx (ends are sorted too). */
static int
find(const struct idxset *s, int32_t idx)
{
	int lo = 0, hi = s->n - 1, at = s->n;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (s->r[mid].end >= idx) {
			at = mid;
			hi = mid - 1;
		} else {
			lo = mid + 1;
		}
	}
	return at;
}

bool
idxset_contains(const struct idxset *s, int32_t idx)
{
	int i = find(s, idx);

	return i < s->n && in_range(&s->r[i], idx);
}

static void
insert_at(struct idxset *s, int at, struct idx_range r)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4;
		s->r = xrealloc(s->r, sizeof(*s->r) * (size_t)s->cap);
	}
	memmove(&s->r[at + 1], &s->r[at], sizeof(*s->r) * (size_t)(s->n - at));
	s->r[at] = r;
	s->n++;
}

bool
idxset_remove(struct idxset *s, int32_t idx)
{
	int i = find(s, idx);
	struct idx_range *r;

	if (i >= s->n || !in_range(&s->r[i], idx))
		return false;
	r = &s->r[i];
	s->count--;
	if (r->start == r->end) {
		memmove(r, r + 1, sizeof(*r) * (size_t)(s->n - i - 1));
		s->n--;
	} else if (idx == r->start) {
		r->start += r->step;
	} else if (idx == r->end) {
		r->end -= r->step;
	} else {
		/* Split around it. */
		struct idx_range after = { idx + r->step, r->end, r->step };

		r->end = idx - r->step;
		insert_at(s, i + 1, after);
	}
	return true;
}

int32_t
idxset_first(const struct idxset *s)
{
	return s->n ? s->r[0].start : -1;
}

int32_t
idxset_next(const struct idxset *s, int32_t after)
{
	int i;

	if (after < 0)
		return idxset_first(s);
	if (after == INT32_MAX)
		return -1;
	i = find(s, after + 1);
	if (i >= s->n)
		return -1;
	if (s->r[i].start > after)
		return s->r[i].start;
	/* after lies inside this range: the next member of it. */
	{
		int64_t k = ((int64_t)after - s->r[i].start) / s->r[i].step + 1;
		int64_t v = s->r[i].start + k * s->r[i].step;

		if (v <= s->r[i].end)
			return (int32_t)v;
	}
	return i + 1 < s->n ? s->r[i + 1].start : -1;
}

char *
idxset_format(const struct idxset *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < s->n; i++) {
		const struct idx_range *r = &s->r[i];

		if (i)
			sb_addc(&sb, ',');
		if (r->start == r->end)
			sb_addf(&sb, "%d", r->start);
		else if (r->step == 1)
			sb_addf(&sb, "%d-%d", r->start, r->end);
		else
			sb_addf(&sb, "%d-%d:%d", r->start, r->end, r->step);
	}
	return sb_detach(&sb);
}

static bool
number(const char **p, int64_t *v)
{
	int64_t x = 0;
	int n = 0;

	while (isdigit((unsigned char)**p)) {
		x = x * 10 + (**p - '0');
		if (x > INT32_MAX)
			return false;
		(*p)++;
		n++;
	}
	*v = x;
	return n > 0;
}

static int
cmp_range(const void *a, const void *b)
{
	const struct idx_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Ranges whose spans overlap ("1-9:2,2-10:2,4") are merged, index by
 * index, into ranges that do not; an index named twice ("1-1000:2,5,7",
 * as LSF users write) is one element.  The cost is the element count
 * times the number of ranges, both bounded by the caller's maximum and
 * the length of the name.
 */
static void
merge_ranges(struct idxset *s)
{
	int n = s->n;
	struct idx_range *in = s->r;
	int64_t *next = xcalloc((size_t)n, sizeof(*next));
	struct idxset out;
	int64_t run_start = -1, run_step = 0, run_end = -1, count = 0;

	idxset_init(&out);
	for (int i = 0; i < n; i++)
		next[i] = in[i].start;
	for (;;) {
		int64_t v = INT64_MAX;

		for (int i = 0; i < n; i++)
			if (next[i] >= 0 && next[i] < v)
				v = next[i];
		if (v == INT64_MAX)
			break;
		for (int i = 0; i < n; i++)
			if (next[i] == v)
				next[i] = v + in[i].step > in[i].end ? -1 :
				    v + in[i].step;
		count++;
		if (run_start < 0) {
			run_start = run_end = v;
			run_step = 0;
		} else if (run_step == 0 || v - run_end == run_step) {
			run_step = v - run_end;
			run_end = v;
		} else {
			struct idx_range r = { (int32_t)run_start,
			    (int32_t)run_end, (int32_t)run_step };

			insert_at(&out, out.n, r);
			run_start = run_end = v;
			run_step = 0;
		}
	}
	if (run_start >= 0) {
		struct idx_range r = { (int32_t)run_start, (int32_t)run_end,
		    (int32_t)(run_step ? run_step : 1) };

		insert_at(&out, out.n, r);
	}
	out.count = count;
	free(next);
	idxset_release(s);
	*s = out;
	return;
}

int
array_spec_parse(const char *name, int32_t max_index, char **base,
    struct idxset *s, int *limit, const char **cause)
{
	const char *lb = strchr(name, '['), *p, *rb;

	*base = NULL;
	*limit = 0;
	idxset_init(s);
	if (lb == NULL)
		return 1;
	rb = strchr(lb, ']');
	if (rb == NULL || strchr(rb + 1, '[') || strchr(rb + 1, ']')) {
		*cause = "unbalanced brackets";
		return -1;
	}
	if (lb == name) {
		*cause = "the array has no name";
		return -1;
	}
	for (p = lb + 1; p < rb;) {
		int64_t a, b, step = 1;
		struct idx_range r;

		if (!number(&p, &a) || a < 1)
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (!number(&p, &b) || b < a)
				goto bad;
			if (*p == ':') {
				p++;
				if (!number(&p, &step) || step < 1)
					goto bad;
			}
		}
		if (b > max_index) {
			*cause = "index too large";
			goto fail;
		}
		r.start = (int32_t)a;
		r.end = (int32_t)(a + (b - a) / step * step);
		/* One index: a step larger than the range means nothing. */
		r.step = r.start == r.end ? 1 : (int32_t)step;
		insert_at(s, s->n, r);
		s->count += range_count(&r);
		if (*p == ',' && p + 1 < rb) {
			p++;
			continue;
		}
		if (p != rb)
			goto bad;
	}
	if (s->n == 0)
		goto bad;
	qsort(s->r, (size_t)s->n, sizeof(*s->r), cmp_range);
	for (int i = 1; i < s->n; i++)
		if (s->r[i].start <= s->r[i - 1].end) {
			/* Interleaved ranges ("1-9:2,4"): merge them. */
			merge_ranges(s);
			break;
		}
	if (s->count > max_index) {
		*cause = "too many elements";
		goto fail;
	}
	if (rb[1] == '%') {
		int64_t l;

		p = rb + 2;
		if (!number(&p, &l) || l < 1 || *p != '\0') {
			*cause = "bad %N limit";
			goto fail;
		}
		*limit = (int)l;
	} else if (rb[1] != '\0') {
		*cause = "junk after the indices";
		goto fail;
	}
	*base = xstrndup(name, (size_t)(lb - name));
	return 0;
bad:
	*cause = "bad index list";
fail:
	idxset_release(s);
	return -1;
}
