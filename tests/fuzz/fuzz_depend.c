/*
 * libFuzzer target: any string as bsub -w, through the parser, a walk
 * over the references and evaluation against jobs whose counts depend
 * on the reference, so that every function and operator is compared.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "depend.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Counts made from the reference: some refs match nothing. */
static int
lookup(void *ctx, const struct dep_ref *ref, int op, int code,
    struct dep_counts *c)
{
	uint64_t h = (uint64_t)ref->jobid * 31 + (uint64_t)ref->idx;

	for (const char *s = ref->name; s != NULL && *s != '\0'; s++)
		h = h * 131 + (unsigned char)*s;
	h += (uint64_t)op * 7 + (uint64_t)code;
	if (h % 5 == 0)
		return -1;
	memset(c, 0, sizeof(*c));
	c->pend = h % 3;
	c->psusp = h % 2;
	c->run = (h >> 2) % 3;
	c->running = c->run / 2;
	c->done = (h >> 4) % 4;
	c->exit = (h >> 6) % 3;
	c->started = c->run + c->done + c->exit;
	c->post_done = c->done / 2;
	c->post_err = c->exit / 2;
	c->exit_match = c->exit / 2;
	c->total = c->pend + c->psusp + c->run + c->done + c->exit;
	if (*(const int *)ctx)
		c->total = INT64_MAX;
	return 0;
}

static int
visit(void *arg, const struct dep_ref *ref)
{
	int *n = arg;

	if (ref->jobid < 0 || ref->idx < 0)
		abort();
	return ++*n > 1000;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = strndup((const char *)data, size), *cause = NULL;
	struct dep_expr *e;
	int n = 0, big = 0;

	if (dep_parse(text, &e, &cause) == 0) {
		if (cause != NULL)
			abort();
		(void)dep_walk(e, visit, &n);
		(void)dep_eval(e, lookup, &big);
		big = 1;
		(void)dep_eval(e, lookup, &big);
		dep_free(e);
	} else if (cause == NULL)
		abort();
	free(cause);
	free(text);
	return 0;
}
