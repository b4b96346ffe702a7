/*
 * Job dependency conditions: the bsub -w parser and the three-valued
 * evaluation.
 *
 * && and || nodes hold all their operands in one vector, so a long flat
 * chain ("1 || 2 || ... || 50000") makes a wide tree, not a deep one; the
 * depth of the tree is bounded by the nesting the parser allows, and so is
 * the recursion of every walk over it.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "depend.h"
#include "util.h"

/* Nested parentheses and '!' together; a hostile string cannot go deeper. */
#define DEP_MAX_DEPTH	64
/* LSF's largest job ID and array index. */
#define DEP_MAX_ID	2147483646
#define DEP_MAX_CODE	255

enum dep_func {
	F_DONE, F_ENDED, F_EXIT, F_STARTED, F_POST_DONE, F_POST_ERR,
	F_NUMDONE, F_NUMENDED, F_NUMEXIT, F_NUMHOLD, F_NUMPEND, F_NUMRUN,
	F_NUMSTART,
};

static const struct {
	const char	*name;
	enum dep_func	 func;
} funcs[] = {
	{ "done", F_DONE }, { "ended", F_ENDED }, { "exit", F_EXIT },
	{ "started", F_STARTED }, { "post_done", F_POST_DONE },
	{ "post_err", F_POST_ERR }, { "numdone", F_NUMDONE },
	{ "numended", F_NUMENDED }, { "numexit", F_NUMEXIT },
	{ "numhold", F_NUMHOLD }, { "numpend", F_NUMPEND },
	{ "numrun", F_NUMRUN }, { "numstart", F_NUMSTART },
};

enum node_kind { N_COND, N_NOT, N_AND, N_OR };

struct dep_expr {
	enum node_kind	  kind;
	/* N_NOT: one operand; N_AND, N_OR: two or more. */
	struct dep_expr	**kids;
	int		  nkids;
	int		  cap;
	/* N_COND */
	enum dep_func	  func;
	struct dep_ref	  ref;
	char		 *name;		/* owns ref.name */
	int		  op;		/* enum dep_op */
	int64_t		  n;		/* exit code or count */
	bool		  all;		/* count given as '*' */
};

struct parser {
	const char	*text;
	const char	*p;
	int		 depth;
	char		*cause;
};

static struct dep_expr *parse_or(struct parser *);

/* Record the first error only: callers unwind without adding their own. */
static struct dep_expr *
fail(struct parser *ps, const char *at, const char *why)
{
	if (ps->cause != NULL)
		return NULL;
	if (at == NULL || *at == '\0')
		ps->cause = xasprintf("%s at the end of \"%s\"", why,
		    ps->text);
	else
		ps->cause = xasprintf("%s near \"%.24s%s\"", why, at,
		    strlen(at) > 24 ? "..." : "");
	return NULL;
}

static void
skip_ws(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

/* Characters that end a bare job name. */
static bool
ends_bare(int c)
{
	return c == '\0' || isspace(c) || iscntrl(c) ||
	    strchr("()\"',&|!<>=", c) != NULL;
}

/* Digits only, at most max; false on overflow or no digits. */
static bool
number(const char **pp, int64_t max, int64_t *v)
{
	const char *p = *pp;
	int64_t x = 0;

	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p)) {
		x = x * 10 + (*p - '0');
		if (x > max)
			return false;
		p++;
	}
	*pp = p;
	*v = x;
	return true;
}

static struct dep_expr *
node_new(enum node_kind kind)
{
	struct dep_expr *e = xcalloc(1, sizeof(*e));

	e->kind = kind;
	return e;
}

static void
add_kid(struct dep_expr *e, struct dep_expr *kid)
{
	if (e->nkids == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 2;
		e->kids = xrealloc(e->kids, sizeof(*e->kids) * (size_t)e->cap);
	}
	e->kids[e->nkids++] = kid;
}

void
dep_free(struct dep_expr *e)
{
	if (e == NULL)
		return;
	for (int i = 0; i < e->nkids; i++)
		dep_free(e->kids[i]);
	free(e->kids);
	free(e->name);
	free(e);
}

/*
 * A job ID "12", an element "12[3]", a quoted name "a b" or 'a', or a bare
 * name that does not start with a digit ("arr[3]", "prefix*").
 */
static int
parse_ref(struct parser *ps, struct dep_expr *e)
{
	const char *start;

	skip_ws(ps);
	start = ps->p;
	if (*ps->p == '"' || *ps->p == '\'') {
		const char *end = strchr(ps->p + 1, *ps->p);

		if (end == NULL) {
			fail(ps, start, "unterminated quote");
			return -1;
		}
		if (end == ps->p + 1) {
			fail(ps, start, "empty job name");
			return -1;
		}
		e->name = xstrndup(ps->p + 1, (size_t)(end - ps->p - 1));
		e->ref.name = e->name;
		ps->p = end + 1;
		return 0;
	}
	if (ends_bare((unsigned char)*ps->p)) {
		fail(ps, start, "missing job ID or name");
		return -1;
	}
	if (isdigit((unsigned char)*ps->p)) {
		int64_t v;

		if (!number(&ps->p, DEP_MAX_ID, &v) || v == 0) {
			fail(ps, start, "bad job ID");
			return -1;
		}
		e->ref.jobid = v;
		if (*ps->p == '[') {
			ps->p++;
			if (!number(&ps->p, DEP_MAX_ID, &v) || v == 0 ||
			    *ps->p != ']') {
				fail(ps, start, "bad array index");
				return -1;
			}
			ps->p++;
			e->ref.idx = (int32_t)v;
		}
		/* Names that start with a digit must be quoted, as in LSF. */
		if (!ends_bare((unsigned char)*ps->p)) {
			fail(ps, start, "bad job ID");
			return -1;
		}
		return 0;
	}
	while (!ends_bare((unsigned char)*ps->p))
		ps->p++;
	e->name = xstrndup(start, (size_t)(ps->p - start));
	e->ref.name = e->name;
	return 0;
}

/* An operator, or DEP_OP_NONE when none is there. */
static int
parse_op(struct parser *ps)
{
	static const struct {
		const char	*s;
		int		 op;
	} ops[] = {
		{ "==", DEP_OP_EQ }, { "!=", DEP_OP_NE }, { ">=", DEP_OP_GE },
		{ "<=", DEP_OP_LE }, { ">", DEP_OP_GT }, { "<", DEP_OP_LT },
	};

	skip_ws(ps);
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (str_starts(ps->p, ops[i].s)) {
			ps->p += strlen(ops[i].s);
			return ops[i].op;
		}
	return DEP_OP_NONE;
}

/* The ", [op] value" of exit() and the num*() counters. */
static int
parse_arg(struct parser *ps, struct dep_expr *e)
{
	bool counter = e->func >= F_NUMDONE;
	const char *at;

	skip_ws(ps);
	if (*ps->p != ',') {
		if (!counter)
			return 0;
		fail(ps, ps->p, "expected \", operator count\"");
		return -1;
	}
	ps->p++;
	skip_ws(ps);
	at = ps->p;
	e->op = parse_op(ps);
	if (e->op == DEP_OP_NONE && *ps->p != '\0' &&
	    strchr("=!<>", *ps->p) != NULL) {
		fail(ps, at, "bad operator");
		return -1;
	}
	skip_ws(ps);
	if (counter && *ps->p == '*') {
		ps->p++;
		e->all = true;
		if (e->op == DEP_OP_NONE)
			e->op = DEP_OP_EQ;
		return 0;
	}
	if (counter && e->op == DEP_OP_NONE) {
		fail(ps, at, "missing operator");
		return -1;
	}
	if (!number(&ps->p, counter ? DEP_MAX_ID : DEP_MAX_CODE, &e->n)) {
		fail(ps, at, counter ? "bad count" : "bad exit code");
		return -1;
	}
	/* exit(ref, code) means exit code == code. */
	if (e->op == DEP_OP_NONE)
		e->op = DEP_OP_EQ;
	return 0;
}

static struct dep_expr *
parse_call(struct parser *ps, enum dep_func func)
{
	struct dep_expr *e = node_new(N_COND);

	e->func = func;
	e->op = DEP_OP_NONE;
	if (parse_ref(ps, e) == -1)
		goto bad;
	if ((func == F_EXIT || func >= F_NUMDONE) && parse_arg(ps, e) == -1)
		goto bad;
	skip_ws(ps);
	if (*ps->p != ')') {
		fail(ps, ps->p, "syntax error");
		goto bad;
	}
	ps->p++;
	return e;
bad:
	dep_free(e);
	return NULL;
}

/* "name(...)" or a bare reference, which means done(ref). */
static struct dep_expr *
parse_cond(struct parser *ps)
{
	const char *start = ps->p, *q = ps->p;
	struct dep_expr *e;

	while (isalnum((unsigned char)*q) || *q == '_')
		q++;
	if (q != start) {
		const char *id_end = q;

		while (isspace((unsigned char)*q))
			q++;
		if (*q == '(') {
			size_t len = (size_t)(id_end - start);

			for (size_t i = 0; i < ARRAY_SIZE(funcs); i++)
				if (strlen(funcs[i].name) == len &&
				    memcmp(funcs[i].name, start, len) == 0) {
					ps->p = q + 1;
					return parse_call(ps, funcs[i].func);
				}
			return fail(ps, start, "unknown dependency function");
		}
	}
	e = node_new(N_COND);
	e->func = F_DONE;
	e->op = DEP_OP_NONE;
	if (parse_ref(ps, e) == -1) {
		dep_free(e);
		return NULL;
	}
	return e;
}

static struct dep_expr *
parse_unary(struct parser *ps)
{
	struct dep_expr *e, *kid;

	skip_ws(ps);
	if (*ps->p != '!' && *ps->p != '(')
		return parse_cond(ps);
	if (++ps->depth > DEP_MAX_DEPTH)
		return fail(ps, ps->p, "expression nested too deeply");
	if (*ps->p == '!') {
		ps->p++;
		if ((kid = parse_unary(ps)) == NULL)
			return NULL;
		e = node_new(N_NOT);
		add_kid(e, kid);
	} else {
		ps->p++;
		if ((e = parse_or(ps)) == NULL)
			return NULL;
		skip_ws(ps);
		if (*ps->p != ')') {
			dep_free(e);
			return fail(ps, ps->p, "missing ')'");
		}
		ps->p++;
	}
	ps->depth--;
	return e;
}

/* One level of && or ||: operands are collected into a single node. */
static struct dep_expr *
parse_list(struct parser *ps, const char *op,
    struct dep_expr *(*operand)(struct parser *), enum node_kind kind)
{
	struct dep_expr *e, *kid;
	bool list = false;

	if ((e = operand(ps)) == NULL)
		return NULL;
	for (;;) {
		skip_ws(ps);
		if (!str_starts(ps->p, op))
			return e;
		ps->p += 2;
		if ((kid = operand(ps)) == NULL) {
			dep_free(e);
			return NULL;
		}
		if (!list) {
			struct dep_expr *first = e;

			e = node_new(kind);
			add_kid(e, first);
			list = true;
		}
		add_kid(e, kid);
	}
}

static struct dep_expr *
parse_and(struct parser *ps)
{
	return parse_list(ps, "&&", parse_unary, N_AND);
}

static struct dep_expr *
parse_or(struct parser *ps)
{
	return parse_list(ps, "||", parse_and, N_OR);
}

int
dep_parse(const char *text, struct dep_expr **out, char **cause)
{
	struct parser ps = { text, text, 0, NULL };
	struct dep_expr *e;

	*out = NULL;
	if (text == NULL)
		ps.p = ps.text = "";
	skip_ws(&ps);
	if (*ps.p == '\0') {
		*cause = xstrdup("empty dependency condition");
		return -1;
	}
	e = parse_or(&ps);
	if (e != NULL) {
		skip_ws(&ps);
		if (*ps.p != '\0') {
			dep_free(e);
			e = NULL;
			fail(&ps, ps.p, *ps.p == ')' ? "unbalanced ')'" :
			    "syntax error");
		}
	}
	if (e == NULL) {
		if (ps.cause == NULL)
			ps.cause = xstrdup("syntax error");
		*cause = ps.cause;
		return -1;
	}
	*out = e;
	return 0;
}

/* The truth of a condition so far, and whether it can still change. */
struct tv {
	bool	 value;
	bool	 final;
};

static bool
compare(int64_t a, int op, int64_t b)
{
	switch (op) {
	case DEP_OP_NE:
		return a != b;
	case DEP_OP_GT:
		return a > b;
	case DEP_OP_GE:
		return a >= b;
	case DEP_OP_LT:
		return a < b;
	case DEP_OP_LE:
		return a <= b;
	default:
		return a == b;
	}
}

static int64_t
counter(const struct dep_counts *c, enum dep_func func)
{
	switch (func) {
	case F_NUMDONE:
		return c->done;
	case F_NUMENDED:
		return c->done + c->exit;
	case F_NUMEXIT:
		return c->exit;
	case F_NUMHOLD:
		return c->psusp;
	case F_NUMPEND:
		return c->pend;
	case F_NUMRUN:
		return c->running;	/* RUN only */
	default:
		/* numstart: RUN, SSUSP and USUSP. */
		return c->run;
	}
}

/* Can a count between 0 and total compare true with n? */
static bool
reachable(int op, int64_t n, int64_t total)
{
	switch (op) {
	case DEP_OP_NE:
		return total > 0 || n != 0;
	case DEP_OP_GT:
		return n < total;
	case DEP_OP_GE:
		return n <= total;
	case DEP_OP_LT:
		return n > 0;
	case DEP_OP_LE:
		return n >= 0;
	default:
		return n >= 0 && n <= total;
	}
}

static struct tv
eval_cond(const struct dep_expr *e, dep_lookup_fn lookup, void *ctx)
{
	struct dep_counts c;
	struct tv r = { false, true };
	int64_t n;
	bool ended;

	memset(&c, 0, sizeof(c));
	if (e->func == F_EXIT) {
		if (lookup(ctx, &e->ref, e->op, (int)e->n, &c) == -1)
			return r;
	} else if (lookup(ctx, &e->ref, DEP_OP_NONE, 0, &c) == -1)
		return r;
	/* A lookup that matched no job is as good as none. */
	if (c.total <= 0)
		return r;
	ended = c.done + c.exit == c.total;
	switch (e->func) {
	case F_DONE:
		r.value = c.done == c.total;
		r.final = ended;
		break;
	case F_ENDED:
		r.value = r.final = ended;
		break;
	case F_EXIT:
		r.value = c.exit_match == c.total;
		r.final = ended;
		break;
	case F_STARTED:
		r.value = c.started == c.total;
		r.final = r.value || ended;
		break;
	case F_POST_DONE:
		r.value = c.post_done == c.total;
		r.final = c.post_done + c.post_err == c.total;
		break;
	case F_POST_ERR:
		r.value = c.post_err == c.total;
		r.final = c.post_done + c.post_err == c.total;
		break;
	default:
		n = e->all ? c.total : e->n;
		r.value = compare(counter(&c, e->func), e->op, n);
		/* A count no number of elements can meet never will. */
		r.final = ended || !reachable(e->op, n, c.total);
		break;
	}
	return r;
}

static struct tv
eval(const struct dep_expr *e, dep_lookup_fn lookup, void *ctx)
{
	struct tv r, k;
	bool is_and = e->kind == N_AND;

	switch (e->kind) {
	case N_COND:
		return eval_cond(e, lookup, ctx);
	case N_NOT:
		r = eval(e->kids[0], lookup, ctx);
		r.value = !r.value;
		return r;
	default:
		break;
	}
	/*
	 * An operand that is final and decides the result (false for &&,
	 * true for ||) makes the whole final: the rest need not be asked.
	 */
	r.value = is_and;
	r.final = true;
	for (int i = 0; i < e->nkids; i++) {
		k = eval(e->kids[i], lookup, ctx);
		if (k.final && k.value != is_and) {
			r.value = k.value;
			r.final = true;
			return r;
		}
		if (k.value != is_and)
			r.value = k.value;
		if (!k.final)
			r.final = false;
	}
	return r;
}

int
dep_eval(const struct dep_expr *e, dep_lookup_fn lookup, void *ctx)
{
	struct tv r;

	if (e == NULL)
		return DEP_NEVER;
	r = eval(e, lookup, ctx);
	if (r.value)
		return DEP_TRUE;
	return r.final ? DEP_NEVER : DEP_FALSE;
}

int
dep_walk(const struct dep_expr *e,
    int (*fn)(void *arg, const struct dep_ref *), void *arg)
{
	int rc;

	if (e == NULL)
		return 0;
	if (e->kind == N_COND)
		return fn(arg, &e->ref);
	for (int i = 0; i < e->nkids; i++)
		if ((rc = dep_walk(e->kids[i], fn, arg)) != 0)
			return rc;
	return 0;
}
