/*
 * Occurrence numbers of a file's lines (history.h): a line's ord is how
 * many byte-identical lines come before it in the same file.  It tells
 * two identical records apart (bstop, bresume, bstop in one second: the
 * second stop is the first one's bytes) while a re-read of the file, or
 * of a byte-identical replica, gives every line the ord it had before.
 *
 * The map holds a 64-bit hash of each line seen and its count: identical
 * lines share it, and two different lines of one file sharing it is
 * left to chance (2^-64 a pair).  The hash lives only in memory, so it
 * need not be stable across builds; only the counts go in the database.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "util.h"

struct hist_ord_slot {
	uint64_t	 key;		/* 0: empty */
	uint32_t	 n;
};

struct hist_ord {
	struct hist_ord_slot	*v;
	size_t			 cap;	/* a power of two */
	size_t			 used;
};

static uint64_t
mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

static uint64_t
line_hash(const char *line, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, line + i, 8);
		h = mix(h ^ w);
	}
	w = 0;
	memcpy(&w, line + i, len - i);
	h = mix(h ^ w ^ 0xa5);
	return h != 0 ? h : 1;
}

struct hist_ord *
hist_ord_new(void)
{
	return xcalloc(1, sizeof(struct hist_ord));
}

void
hist_ord_free(struct hist_ord *o)
{
	if (o == NULL)
		return;
	free(o->v);
	free(o);
}

void
hist_ord_clear(struct hist_ord *o)
{
	free(o->v);
	o->v = NULL;
	o->cap = o->used = 0;
}

static struct hist_ord_slot *
slot(struct hist_ord_slot *v, size_t cap, uint64_t key)
{
	size_t i = (size_t)key & (cap - 1);

	while (v[i].key != 0 && v[i].key != key)
		i = (i + 1) & (cap - 1);
	return &v[i];
}

static void
grow(struct hist_ord *o)
{
	size_t cap = o->cap ? o->cap * 2 : 1024;
	struct hist_ord_slot *v = xcalloc(cap, sizeof(*v));

	for (size_t i = 0; i < o->cap; i++)
		if (o->v[i].key != 0)
			*slot(v, cap, o->v[i].key) = o->v[i];
	free(o->v);
	o->v = v;
	o->cap = cap;
}

int
hist_ord_next(struct hist_ord *o, const char *line, size_t len)
{
	uint64_t key = line_hash(line, len);
	struct hist_ord_slot *s;

	if (o->used + 1 > o->cap / 2)
		grow(o);
	s = slot(o->v, o->cap, key);
	if (s->key == 0) {
		s->key = key;
		o->used++;
	}
	return (int)s->n++;
}

void
hist_ord_scan(struct hist_ord *o, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			break;
		(void)hist_ord_next(o, p, (size_t)(nl - p));
	}
}
