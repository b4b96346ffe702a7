/* lsb.queues JOB_CONTROLS (see jobctl.h for the syntax). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jobctl.h"
#include "lsf.h"
#include "util.h"

static const char *const op_names[JOBCTL_NOPS] = {
	[JOBCTL_SUSPEND] = "SUSPEND",
	[JOBCTL_RESUME] = "RESUME",
	[JOBCTL_TERMINATE] = "TERMINATE",
};

const char *
jobctl_op_name(enum jobctl_op op)
{
	return op < JOBCTL_NOPS ? op_names[op] : "";
}

void
jobctl_init(struct jobctl *jc)
{
	memset(jc, 0, sizeof(*jc));
}

void
jobctl_action_release(struct jobctl_action *a)
{
	free(a->text);
	memset(a, 0, sizeof(*a));
}

void
jobctl_release(struct jobctl *jc)
{
	for (int i = 0; i < JOBCTL_NOPS; i++)
		jobctl_action_release(&jc->op[i]);
}

/* A single word, "SIG", a letter, letters and digits (SIGUSR2): meant
 * as a signal, known or not. */
static bool
looks_like_signal(const char *s)
{
	if (strncasecmp(s, "SIG", 3) != 0 || !isalpha((unsigned char)s[3]))
		return false;
	for (s += 3; *s; s++)
		if (!isalnum((unsigned char)*s))
			return false;
	return true;
}

int
jobctl_action_parse(struct jobctl_action *a, enum jobctl_op op,
    const char *text, char **cause)
{
	const char *end;
	char *t;

	memset(a, 0, sizeof(*a));
	if (text == NULL)
		return 0;
	while (isspace((unsigned char)*text))
		text++;
	end = text + strlen(text);
	while (end > text && isspace((unsigned char)end[-1]))
		end--;
	if (end == text)
		return 0;
	t = xstrndup(text, (size_t)(end - text));
	if (looks_like_signal(t)) {
		int sig = sig_from_name(t);

		if (sig <= 0) {
			*cause = xasprintf("%s: unknown signal %s",
			    jobctl_op_name(op), t);
			free(t);
			return -1;
		}
		a->kind = JOBCTL_SIGNAL;
		a->sig = sig;
	} else if (strcasecmp(t, "CHKPNT") == 0) {
		if (op == JOBCTL_RESUME) {
			*cause = xasprintf("RESUME: CHKPNT is only for SUSPEND "
			    "and TERMINATE");
			free(t);
			return -1;
		}
		a->kind = JOBCTL_CHKPNT;
	} else {
		a->kind = JOBCTL_COMMAND;
	}
	a->text = t;
	return 0;
}

static int
fail(struct jobctl *jc, char **cause, char *why)
{
	jobctl_release(jc);
	*cause = why;
	return -1;
}

int
jobctl_parse(struct jobctl *jc, const char *s, char **cause)
{
	jobctl_init(jc);
	if (s == NULL)
		return 0;
	for (;;) {
		const char *kw, *body;
		size_t kwlen;
		int op, depth;
		char *text, *why = NULL;

		while (isspace((unsigned char)*s))
			s++;
		if (*s == '\0')
			return 0;
		kw = s;
		while (*s && *s != '[' && !isspace((unsigned char)*s))
			s++;
		kwlen = (size_t)(s - kw);
		for (op = 0; op < JOBCTL_NOPS; op++)
			if (strlen(op_names[op]) == kwlen &&
			    strncasecmp(kw, op_names[op], kwlen) == 0)
				break;
		if (op == JOBCTL_NOPS)
			return fail(jc, cause, kwlen ? xasprintf("unknown "
			    "action %.*s: expected SUSPEND, RESUME or TERMINATE",
			    (int)kwlen, kw) : xasprintf("[ without SUSPEND, "
			    "RESUME or TERMINATE before it"));
		while (isspace((unsigned char)*s))
			s++;
		if (*s != '[')
			return fail(jc, cause, xasprintf("%s: expected [ after "
			    "it", op_names[op]));
		if (jc->op[op].kind != JOBCTL_DEFAULT)
			return fail(jc, cause, xasprintf("%s is given twice",
			    op_names[op]));
		/* The action ends at the ] that matches its [. */
		body = ++s;
		for (depth = 1; *s; s++) {
			if (*s == '[')
				depth++;
			else if (*s == ']' && --depth == 0)
				break;
		}
		if (*s != ']')
			return fail(jc, cause, xasprintf("%s: no ] to end it",
			    op_names[op]));
		text = xstrndup(body, (size_t)(s - body));
		s++;
		if (jobctl_action_parse(&jc->op[op], op, text, &why) < 0) {
			free(text);
			return fail(jc, cause, why);
		}
		free(text);
		if (jc->op[op].kind == JOBCTL_DEFAULT)
			return fail(jc, cause, xasprintf("%s[]: no action",
			    op_names[op]));
	}
}

/* The command's first word, without its directory. */
static bool
first_word_is(const char *cmd, const char *name)
{
	const char *w, *e, *slash;

	for (w = cmd; isspace((unsigned char)*w); w++)
		;
	for (e = w; *e && !isspace((unsigned char)*e) && *e != ';'; e++)
		;
	for (slash = w; slash < e; slash++)
		if (*slash == '/')
			w = slash + 1;
	return (size_t)(e - w) == strlen(name) &&
	    strncmp(w, name, (size_t)(e - w)) == 0;
}

char *
jobctl_warning(const struct jobctl *jc, enum jobctl_op op)
{
	/* Each command asks for the very action that runs it. */
	static const struct {
		enum jobctl_op	 op;
		const char	*cmd;
	} loops[] = {
		{ JOBCTL_SUSPEND, "bstop" },
		{ JOBCTL_RESUME, "bresume" },
		{ JOBCTL_TERMINATE, "bkill" },
		{ JOBCTL_TERMINATE, "brequeue" },
	};
	const struct jobctl_action *a = &jc->op[op];

	if (a->kind != JOBCTL_COMMAND)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(loops); i++)
		if (loops[i].op == op && first_word_is(a->text, loops[i].cmd))
			return xasprintf("%s[%s]: the command asks for the %s "
			    "action again, which LSF documents as a deadlock",
			    op_names[op], loops[i].cmd, op_names[op]);
	return NULL;
}
