/* LSF-style command-line options; see cmdopt.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdopt.h"
#include "util.h"

void
cmdopt_init(struct cmdopt_state *st, int argc, char **argv, bool permute)
{
	memset(st, 0, sizeof(*st));
	st->argc = argc;
	st->argv = argv;
	st->i = 1;
	st->permute = permute;
	st->operands = xcalloc((size_t)argc + 1, sizeof(char *));
}

static const struct cmdopt *
find(const struct cmdopt *tab, const char *name, size_t len)
{
	for (const struct cmdopt *o = tab; o->name; o++)
		if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
			return o;
	return NULL;
}

static int
take_value(struct cmdopt_state *st, const struct cmdopt *o, const char *rest,
    const char **val)
{
	if (rest && *rest) {
		*val = rest;
		return o->id;
	}
	if (st->i >= st->argc) {
		/* Refused by name even without its value. */
		if (o->id == CMDOPT_UNSUPPORTED)
			return o->id;
		st->bad = st->argv[st->i - 1];
		return -1;
	}
	*val = st->argv[st->i++];
	return o->id;
}

/* The entry o of the table, as matched: its id, its value taken. */
static int
matched(struct cmdopt_state *st, const struct cmdopt *o, const char *rest,
    const char **val)
{
	st->entry = o;
	if (o->id == CMDOPT_UNSUPPORTED) {
		st->bad = st->opt;
		if (!st->quiet)
			cmdopt_unsupported(st, progname);
	}
	if (o->arg)
		return take_value(st, o, rest, val);
	return o->id;
}

/* The longest name of the table that is a proper prefix of a, of an
 * option that takes a value if arg (else of any option). */
static const struct cmdopt *
longest_prefix(const struct cmdopt *tab, const char *a, bool arg)
{
	const struct cmdopt *o;

	for (size_t len = strlen(a) - 1; len >= 1; len--)
		if ((o = find(tab, a, len)) != NULL && (o->arg || !arg))
			return o;
	return NULL;
}

int
cmdopt_next(struct cmdopt_state *st, const struct cmdopt *tab,
    const char **val)
{
	const struct cmdopt *o;
	const char *a, *sp;

	*val = NULL;
	if (st->bundle && *st->bundle) {
		/* The next flag of a bundle such as -aJ. */
		o = find(tab, st->bundle, 1);
		st->opt = o ? o->name : NULL;
		if (o == NULL) {
			st->bad = st->bundle;
			return -1;
		}
		st->bundle++;
		if (o->arg) {
			const char *rest = st->bundle;

			st->bundle = NULL;
			return matched(st, o, rest, val);
		}
		return matched(st, o, NULL, val);
	}
	st->bundle = NULL;
	for (;;) {
		if (st->i >= st->argc)
			return 0;
		a = st->argv[st->i];
		if (strcmp(a, "--") == 0) {
			st->i++;
			if (st->permute)
				while (st->i < st->argc)
					st->operands[st->noperands++] =
					    st->argv[st->i++];
			return 0;
		}
		if (a[0] != '-' || a[1] == '\0') {
			if (!st->permute)
				return 0;
			st->operands[st->noperands++] = st->argv[st->i++];
			continue;
		}
		break;
	}
	st->i++;
	st->opt = a;
	a++;
	/* The whole word: -noheader, -cwd, -oo, and LSF's options this
	 * version does not do (-sum, -outdir), so that none is split. */
	if ((o = find(tab, a, strlen(a))) != NULL)
		return matched(st, o, NULL, val);
	/* Option and value in one argument: "-o jobid stat". */
	if ((sp = strchr(a, ' ')) != NULL &&
	    (o = find(tab, a, (size_t)(sp - a))) != NULL && o->arg)
		return matched(st, o, sp + 1, val);
	/* The longest option taking a value that prefixes the word has it
	 * attached: -n2, -oFILE, -Rselect[...], -Jname. */
	if ((o = longest_prefix(tab, a, true)) != NULL)
		return matched(st, o, a + strlen(o->name), val);
	/* A bundle of single-letter flags (-aw), unless the word starts
	 * with a longer option, which is never split (-sumx is not
	 * -s -u mx). */
	o = longest_prefix(tab, a, false);
	if (o && strlen(o->name) == 1) {
		st->bundle = a + 1;
		return matched(st, o, NULL, val);
	}
	st->bad = st->argv[st->i - 1];
	return -1;
}

const char *
cmdopt_unsupported_name(const struct cmdopt_state *st)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "-%s", st->entry ? st->entry->name : "");
	return buf;
}

void
cmdopt_unsupported(const struct cmdopt_state *st, const char *prog)
{
	fprintf(stderr, "%s: option %s is not supported by this version\n",
	    prog, cmdopt_unsupported_name(st));
}

char **
cmdopt_rest(struct cmdopt_state *st, int *n)
{
	if (st->permute) {
		while (st->i < st->argc)
			st->operands[st->noperands++] = st->argv[st->i++];
		*n = st->noperands;
		return st->operands;
	}
	*n = st->argc - st->i;
	return st->argv + st->i;
}

void
cmdopt_release(struct cmdopt_state *st)
{
	free(st->operands);
	st->operands = NULL;
	st->noperands = 0;
}
