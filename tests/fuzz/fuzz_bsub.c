/*
 * libFuzzer target: bsub's options.  The input is a script, a NUL, then
 * command-line arguments separated by NULs: the arguments are parsed as
 * bsub's command line, the script's #BSUB lines as bsub reads them, the
 * one laid over the other, and -t and -b read as times, as cmds/bsub.c
 * does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bsub-opts.h"
#include "timespec.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A cause comes with the errors, and only with them. */
static void
check_cause(int rc, const char *cause)
{
	bool error = rc != BSUB_OPTS_OK && rc != BSUB_OPTS_HELP &&
	    rc != BSUB_OPTS_VERSION;

	if (error != (cause != NULL))
		abort();
}

static const char *
unit(void)
{
	return "MB";
}

/* -t and -b, at a fixed now (a Wednesday in 2023). */
static void
times(const struct bsub_opts *g)
{
	const char *t[] = { g->term, g->begin };
	char *cause;
	int64_t out;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (t[i] == NULL)
			continue;
		cause = NULL;
		if (timespec_parse(t[i], 1700000000, i == 0, &out,
		    &cause) == 0 && cause != NULL)
			abort();
		free(cause);
	}
}

/* The NUL-separated words of [p, end), after "bsub". */
static void
split_args(const char *p, const char *end, struct strv *args)
{
	strv_push(args, "bsub");
	while (p < end) {
		size_t n = strnlen(p, (size_t)(end - p));

		strv_push_nodup(args, strndup(p, n));
		p += n + 1;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	size_t n = strnlen(p, size);
	char *script = strndup(p, n), *cause = NULL, **rest;
	struct strv args = STRV_INIT, ignored = STRV_INIT;
	struct bsub_opts cl, sc;
	struct cmdopt_state st;
	int nrest, rc;

	split_args(p + n + 1 < end ? p + n + 1 : end, end, &args);
	bsub_opts_init(&cl);
	bsub_opts_init(&sc);
	rc = bsub_opts_parse(&cl, (int)args.n, args.v, unit, &st, &cause);
	check_cause(rc, cause);
	if (rc == BSUB_OPTS_OK) {
		rest = cmdopt_rest(&st, &nrest);
		if (nrest < 0 || (nrest > 0 && rest[0] == NULL))
			abort();
	}
	cmdopt_release(&st);
	free(cause);
	cause = NULL;
	rc = bsub_opts_script(&sc, script, unit, &ignored, &cause);
	check_cause(rc, cause);
	bsub_opts_overlay(&sc, &cl);
	times(&sc);
	if (sc.nmin < 0 || sc.nmax < sc.nmin)
		abort();
	free(cause);
	bsub_opts_release(&cl);
	bsub_opts_release(&sc);
	strv_release(&ignored);
	strv_release(&args);
	free(script);
	return 0;
}
