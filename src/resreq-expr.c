/*
 * Select expressions: tokenizer, recursive-descent parser building a tree,
 * and the evaluator, printer and copier over that tree.
 *
 * Grammar, loosest binding first:
 *
 *	or	= and { "||" and }
 *	and	= not { "&&" not }
 *	not	= "!" not | cmp
 *	cmp	= sum [ ("==" | "=" | "!=" | ">" | ">=" | "<" | "<=") sum ]
 *	sum	= prod { ("+" | "-") prod }
 *	prod	= unary { ("*" | "/") unary }
 *	unary	= "-" unary | primary
 *	primary	= number[unit] | 'string' | "string" | name
 *		| defined(name) | "(" or ")"
 *
 * After type, model or hname and a comparison operator the right side is
 * read as a word (letters, digits, "_", "-", "."), so host names such as
 * node-01.example.com need no quotes.
 *
 * Evaluation never fails: a name the host does not have, a division by
 * zero or a comparison of a string with a number makes the comparison
 * false.  type==any and type==local are always true; this module does not
 * know the submission host's type, so local is taken to mean any.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "resreq.h"

enum rr_op {
	RR_NUM, RR_STR, RR_IDENT, RR_DEFINED,
	RR_NOT, RR_AND, RR_OR,
	RR_EQ, RR_NE, RR_GT, RR_GE, RR_LT, RR_LE,
	RR_ADD, RR_SUB, RR_MUL, RR_DIV, RR_NEG,
};

/* What a name means on a host; resolved once, when parsed. */
enum rr_ref {
	REF_LOAD,
	REF_NCPUS, REF_CPUF, REF_MAXMEM, REF_MAXSWP, REF_MAXTMP, REF_SERVER,
	REF_TYPE, REF_MODEL, REF_HNAME,
	REF_BOOL,		/* anything else is a Boolean resource */
};

struct rr_expr {
	enum rr_op	 op;
	int		 depth;		/* of this subtree: bounds recursion */
	double		 num;		/* RR_NUM */
	bool		 unit;		/* RR_NUM: already in MB */
	char		*str;		/* STR, IDENT, DEFINED */
	bool		 quoted;	/* RR_STR: print in quotes */
	enum rr_ref	 ref;		/* RR_IDENT, RR_DEFINED */
	int		 idx;		/* REF_LOAD: the load index */
	struct rr_expr	**kid;
	int		 nkid;
};

static const struct {
	const char	*name;
	enum rr_ref	 ref;
} host_names[] = {
	{ "ncpus", REF_NCPUS }, { "cpuf", REF_CPUF },
	{ "maxmem", REF_MAXMEM }, { "maxswp", REF_MAXSWP },
	{ "maxtmp", REF_MAXTMP }, { "server", REF_SERVER },
	{ "type", REF_TYPE }, { "model", REF_MODEL }, { "hname", REF_HNAME },
};

enum tok {
	T_EOF, T_BAD, T_NUM, T_STR, T_NAME,
	T_OR, T_AND, T_NOT,
	T_EQ, T_NE, T_GT, T_GE, T_LT, T_LE,
	T_PLUS, T_MINUS, T_STAR, T_SLASH, T_LPAREN, T_RPAREN,
};

struct parser {
	const char	*p;		/* next character to read */
	const char	*end;
	const char	*start;		/* of the current token */
	enum tok	 tok;
	const char	*text;		/* T_NAME, T_STR: not terminated */
	size_t		 len;
	double		 num;		/* T_NUM */
	bool		 unit;
	const char	*bad;		/* T_BAD: why */
	int		 nest;		/* parser recursion, bounded */
	double		 unit_mb;	/* bare mem/swp/tmp numbers */
	char		*cause;		/* first error */
};

static struct rr_expr *parse_or(struct parser *);

/* Numbers and units */

size_t
rr_scan_number(const char *s, const char *end, double *v, bool *has_unit)
{
	const char *p = s, *q;
	size_t digits = 0;
	double mul = 1;
	char *num;

	for (; p < end && isdigit((unsigned char)*p); p++)
		digits++;
	if (p < end && *p == '.')
		for (p++; p < end && isdigit((unsigned char)*p); p++)
			digits++;
	if (digits == 0)
		return 0;
	if (p < end && (*p == 'e' || *p == 'E')) {
		q = p + 1;
		if (q < end && (*q == '+' || *q == '-'))
			q++;
		if (q < end && isdigit((unsigned char)*q)) {
			for (p = q; p < end && isdigit((unsigned char)*p); p++)
				;
		}
	}
	/* strtod is given only what we scanned: no hex, inf or nan. */
	num = xstrndup(s, (size_t)(p - s));
	*v = strtod(num, NULL);
	free(num);
	*has_unit = false;
	if (p < end) {
		switch (toupper((unsigned char)*p)) {
		case 'K': mul = 1.0 / 1024; break;
		case 'M': mul = 1; break;
		case 'G': mul = 1024; break;
		case 'T': mul = 1024.0 * 1024; break;
		default: mul = 0; break;
		}
		if (mul != 0) {
			*has_unit = true;
			*v *= mul;
			p++;
			if (p < end && toupper((unsigned char)*p) == 'B')
				p++;
		}
	}
	if (!isfinite(*v))
		return 0;
	return (size_t)(p - s);
}

double
rr_unit_mb(const char *unit)
{
	/* Bare values are MB unless the site chose a bigger unit. */
	if (unit == NULL)
		return 1;
	switch (toupper((unsigned char)unit[0])) {
	case 'G': return 1024;
	case 'T': return 1024.0 * 1024;
	case 'P': return 1024.0 * 1024 * 1024;
	case 'E': return 1024.0 * 1024 * 1024 * 1024;
	default: return 1;
	}
}

void
rr_print_number(struct strbuf *sb, double v)
{
	char buf[512];

	/* "%.2f" is what LSF shows; fall back when it would lose digits
	 * or print hundreds of them. */
	snprintf(buf, sizeof(buf), "%.2f", v);
	if (fabs(v) >= 1e15 || strtod(buf, NULL) != v) {
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(buf, sizeof(buf), "%.*g", prec, v);
			if (strtod(buf, NULL) == v)
				break;
		}
	}
	sb_adds(sb, buf);
}

char *
rr_snippet(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = len > 24 ? 24 : len;

	/* Causes end up in daemon logs: keep them on one line. */
	for (size_t i = 0; i < n; i++)
		sb_addc(&sb, isprint((unsigned char)s[i]) ? s[i] : '?');
	if (n < len)
		sb_adds(&sb, "...");
	return sb_detach(&sb);
}

/* Tokenizer */

static bool
is_name_char(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static bool
is_word_char(int c)
{
	return is_name_char(c) || c == '-' || c == '.';
}

static void
skip_blanks(struct parser *ps)
{
	while (ps->p < ps->end && isspace((unsigned char)*ps->p))
		ps->p++;
}

static void
lex(struct parser *ps)
{
	static const struct {
		const char	*s;
		enum tok	 tok;
	} ops[] = {
		{ "||", T_OR }, { "&&", T_AND }, { "==", T_EQ }, { "!=", T_NE },
		{ ">=", T_GE }, { "<=", T_LE }, { "!", T_NOT }, { "=", T_EQ },
		{ ">", T_GT }, { "<", T_LT }, { "+", T_PLUS }, { "-", T_MINUS },
		{ "*", T_STAR }, { "/", T_SLASH }, { "(", T_LPAREN },
		{ ")", T_RPAREN },
	};
	const char *p, *q;
	size_t n;

	skip_blanks(ps);
	p = ps->start = ps->p;
	if (p == ps->end) {
		ps->tok = T_EOF;
		return;
	}
	if (isdigit((unsigned char)*p) ||
	    (*p == '.' && p + 1 < ps->end && isdigit((unsigned char)p[1]))) {
		n = rr_scan_number(p, ps->end, &ps->num, &ps->unit);
		if (n == 0 || (p + n < ps->end &&
		    (is_name_char(p[n]) || p[n] == '.'))) {
			ps->tok = T_BAD;
			ps->bad = "bad number";
			return;
		}
		ps->tok = T_NUM;
		ps->p = p + n;
		return;
	}
	if (isalpha((unsigned char)*p) || *p == '_') {
		for (q = p; q < ps->end && is_name_char(*q); q++)
			;
		ps->tok = T_NAME;
		ps->text = p;
		ps->len = (size_t)(q - p);
		ps->p = q;
		return;
	}
	if (*p == '\'' || *p == '"') {
		q = memchr(p + 1, *p, (size_t)(ps->end - p - 1));
		if (q == NULL) {
			ps->tok = T_BAD;
			ps->bad = "unterminated quote";
			return;
		}
		ps->tok = T_STR;
		ps->text = p + 1;
		ps->len = (size_t)(q - p - 1);
		ps->p = q + 1;
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		n = strlen(ops[i].s);
		if ((size_t)(ps->end - p) >= n && memcmp(p, ops[i].s, n) == 0) {
			ps->tok = ops[i].tok;
			ps->p = p + n;
			return;
		}
	}
	ps->tok = T_BAD;
	ps->bad = "unexpected character";
}

/* Record the first error; returns NULL so callers can return it. */
static struct rr_expr *
fail(struct parser *ps, const char *why)
{
	char *near;

	if (ps->cause != NULL)
		return NULL;
	if (ps->start == NULL || ps->start >= ps->end) {
		ps->cause = xasprintf("%s at end of expression", why);
		return NULL;
	}
	near = rr_snippet(ps->start, (size_t)(ps->end - ps->start));
	ps->cause = xasprintf("%s near '%s'", why, near);
	free(near);
	return NULL;
}

static struct rr_expr *
fail_tok(struct parser *ps)
{
	if (ps->tok == T_BAD)
		return fail(ps, ps->bad);
	if (ps->tok == T_EOF) {
		if (ps->cause == NULL)
			ps->cause = xstrdup("unexpected end of expression");
		return NULL;
	}
	return fail(ps, "syntax error");
}

/* Tree */

static struct rr_expr *
node(enum rr_op op)
{
	struct rr_expr *e = xcalloc(1, sizeof(*e));

	e->op = op;
	e->depth = 1;
	return e;
}

static void
add_kid(struct rr_expr *e, struct rr_expr *k)
{
	/* Capacity is the next power of two: no separate field needed. */
	if (e->nkid == 0 || (e->nkid & (e->nkid - 1)) == 0)
		e->kid = xrealloc(e->kid,
		    (size_t)(e->nkid ? e->nkid * 2 : 2) * sizeof(*e->kid));
	e->kid[e->nkid++] = k;
	if (k->depth + 1 > e->depth)
		e->depth = k->depth + 1;
}

void
rr_expr_free(struct rr_expr *e)
{
	if (e == NULL)
		return;
	for (int i = 0; i < e->nkid; i++)
		rr_expr_free(e->kid[i]);
	free(e->kid);
	free(e->str);
	free(e);
}

struct rr_expr *
rr_expr_copy(const struct rr_expr *e)
{
	struct rr_expr *c;

	if (e == NULL)
		return NULL;
	c = xmalloc(sizeof(*c));
	*c = *e;
	c->str = e->str ? xstrdup(e->str) : NULL;
	c->kid = NULL;
	c->nkid = 0;
	for (int i = 0; i < e->nkid; i++)
		add_kid(c, rr_expr_copy(e->kid[i]));
	return c;
}

struct rr_expr *
rr_expr_and(struct rr_expr *a, struct rr_expr *b)
{
	struct rr_expr *e;

	if (a == NULL)
		return b;
	if (b == NULL)
		return a;
	/* Flatten, so that merging many -R strings adds no depth. */
	if (a->op == RR_AND)
		e = a;
	else {
		e = node(RR_AND);
		add_kid(e, a);
	}
	if (b->op == RR_AND) {
		for (int i = 0; i < b->nkid; i++)
			add_kid(e, b->kid[i]);
		b->nkid = 0;
		rr_expr_free(b);
	} else
		add_kid(e, b);
	return e;
}

static struct rr_expr *
bounded(struct parser *ps, struct rr_expr *e)
{
	if (e->depth > RR_MAX_DEPTH) {
		rr_expr_free(e);
		return fail(ps, "expression nested too deeply");
	}
	return e;
}

static struct rr_expr *
unary(struct parser *ps, enum rr_op op, struct rr_expr *k)
{
	struct rr_expr *e = node(op);

	add_kid(e, k);
	return bounded(ps, e);
}

static struct rr_expr *
binary(struct parser *ps, enum rr_op op, struct rr_expr *l,
    struct rr_expr *r)
{
	struct rr_expr *e = node(op);

	add_kid(e, l);
	add_kid(e, r);
	return bounded(ps, e);
}

static struct rr_expr *
name_node(enum rr_op op, const char *s, size_t len)
{
	struct rr_expr *e = node(op);

	e->str = xstrndup(s, len);
	e->ref = REF_BOOL;
	if ((e->idx = load_index_lookup(e->str)) >= 0) {
		e->ref = REF_LOAD;
		return e;
	}
	for (size_t i = 0; i < ARRAY_SIZE(host_names); i++)
		if (strcasecmp(e->str, host_names[i].name) == 0)
			e->ref = host_names[i].ref;
	return e;
}

static struct rr_expr *
str_node(const char *s, size_t len, bool quoted)
{
	struct rr_expr *e = node(RR_STR);

	e->str = xstrndup(s, len);
	e->quoted = quoted;
	return e;
}

static bool
is_string_ref(const struct rr_expr *e)
{
	return e->op == RR_IDENT &&
	    (e->ref == REF_TYPE || e->ref == REF_MODEL || e->ref == REF_HNAME);
}

static bool
is_mem_ref(const struct rr_expr *e)
{
	if (e->op != RR_IDENT)
		return false;
	if (e->ref == REF_LOAD)
		return e->idx == LI_MEM || e->idx == LI_SWP || e->idx == LI_TMP;
	return e->ref == REF_MAXMEM || e->ref == REF_MAXSWP ||
	    e->ref == REF_MAXTMP;
}

/*
 * mem>4000 uses LSF_UNIT_FOR_LIMITS like rusage[mem=4000] does, so that
 * "select[mem>N] rusage[mem=N]" asks for the same amount twice.  False
 * when the value overflows.
 */
static bool
scale_units(struct parser *ps, struct rr_expr *l, struct rr_expr *r)
{
	struct rr_expr *n = NULL;

	if (is_mem_ref(l) && r->op == RR_NUM && !r->unit)
		n = r;
	else if (is_mem_ref(r) && l->op == RR_NUM && !l->unit)
		n = l;
	if (n == NULL)
		return true;
	n->num *= ps->unit_mb;
	n->unit = true;
	return isfinite(n->num);
}

/* Parser */

static struct rr_expr *
parse_list(struct parser *ps, enum tok sep, enum rr_op op,
    struct rr_expr *(*sub)(struct parser *))
{
	struct rr_expr *e, *k;

	if ((k = sub(ps)) == NULL)
		return NULL;
	if (ps->tok != sep)
		return k;
	/* n-ary: long "a || b || ..." host lists stay shallow. */
	e = node(op);
	add_kid(e, k);
	while (ps->tok == sep) {
		lex(ps);
		if ((k = sub(ps)) == NULL) {
			rr_expr_free(e);
			return NULL;
		}
		add_kid(e, k);
	}
	return bounded(ps, e);
}

static struct rr_expr *
parse_primary(struct parser *ps)
{
	struct rr_expr *e;
	const char *q;

	switch (ps->tok) {
	case T_NUM:
		e = node(RR_NUM);
		e->num = ps->num;
		e->unit = ps->unit;
		lex(ps);
		return e;
	case T_STR:
		e = str_node(ps->text, ps->len, true);
		lex(ps);
		return e;
	case T_NAME:
		for (q = ps->p; q < ps->end && isspace((unsigned char)*q); q++)
			;
		if (ps->len == 7 && strncasecmp(ps->text, "defined", 7) == 0 &&
		    q < ps->end && *q == '(') {
			lex(ps);
			lex(ps);
			if (ps->tok != T_NAME)
				return fail(ps, "defined() needs a name");
			e = name_node(RR_DEFINED, ps->text, ps->len);
			lex(ps);
			if (ps->tok != T_RPAREN) {
				rr_expr_free(e);
				return fail(ps, "missing ')' after defined(");
			}
			lex(ps);
			return e;
		}
		e = name_node(RR_IDENT, ps->text, ps->len);
		lex(ps);
		return e;
	case T_LPAREN:
		if (++ps->nest > RR_MAX_DEPTH)
			return fail(ps, "expression nested too deeply");
		lex(ps);
		e = parse_or(ps);
		ps->nest--;
		if (e == NULL)
			return NULL;
		if (ps->tok != T_RPAREN) {
			rr_expr_free(e);
			return fail(ps, "missing ')'");
		}
		lex(ps);
		return e;
	default:
		return fail_tok(ps);
	}
}

static struct rr_expr *
parse_unary(struct parser *ps)
{
	struct rr_expr *k;

	if (ps->tok != T_MINUS)
		return parse_primary(ps);
	if (++ps->nest > RR_MAX_DEPTH)
		return fail(ps, "expression nested too deeply");
	lex(ps);
	k = parse_unary(ps);
	ps->nest--;
	return k ? unary(ps, RR_NEG, k) : NULL;
}

static struct rr_expr *
parse_prod(struct parser *ps)
{
	struct rr_expr *e, *r;
	enum rr_op op;

	if ((e = parse_unary(ps)) == NULL)
		return NULL;
	while (ps->tok == T_STAR || ps->tok == T_SLASH) {
		op = ps->tok == T_STAR ? RR_MUL : RR_DIV;
		lex(ps);
		if ((r = parse_unary(ps)) == NULL) {
			rr_expr_free(e);
			return NULL;
		}
		if ((e = binary(ps, op, e, r)) == NULL)
			return NULL;
	}
	return e;
}

static struct rr_expr *
parse_sum(struct parser *ps)
{
	struct rr_expr *e, *r;
	enum rr_op op;

	if ((e = parse_prod(ps)) == NULL)
		return NULL;
	while (ps->tok == T_PLUS || ps->tok == T_MINUS) {
		op = ps->tok == T_PLUS ? RR_ADD : RR_SUB;
		lex(ps);
		if ((r = parse_prod(ps)) == NULL) {
			rr_expr_free(e);
			return NULL;
		}
		if ((e = binary(ps, op, e, r)) == NULL)
			return NULL;
	}
	return e;
}

static int
cmp_op(enum tok t)
{
	switch (t) {
	case T_EQ: return RR_EQ;
	case T_NE: return RR_NE;
	case T_GT: return RR_GT;
	case T_GE: return RR_GE;
	case T_LT: return RR_LT;
	case T_LE: return RR_LE;
	default: return -1;
	}
}

/* The right side of type==, model== or hname==: a word or a string. */
static struct rr_expr *
parse_word(struct parser *ps)
{
	struct rr_expr *e;
	const char *q;

	skip_blanks(ps);
	ps->start = ps->p;
	if (ps->p < ps->end && (*ps->p == '\'' || *ps->p == '"')) {
		lex(ps);
		if (ps->tok != T_STR)
			return fail_tok(ps);
		e = str_node(ps->text, ps->len, true);
		lex(ps);
		return e;
	}
	for (q = ps->p; q < ps->end && is_word_char(*q); q++)
		;
	if (q == ps->p)
		return fail(ps, "expected a name");
	e = str_node(ps->p, (size_t)(q - ps->p), false);
	ps->p = q;
	lex(ps);
	return e;
}

static struct rr_expr *
parse_cmp(struct parser *ps)
{
	struct rr_expr *l, *r, *e;
	int op;

	if ((l = parse_sum(ps)) == NULL)
		return NULL;
	if ((op = cmp_op(ps->tok)) < 0) {
		if (l->op == RR_STR) {
			rr_expr_free(l);
			return fail(ps, "a quoted string must be compared");
		}
		return l;
	}
	if (is_string_ref(l))
		r = parse_word(ps);
	else {
		lex(ps);
		r = parse_sum(ps);
	}
	if (r == NULL) {
		rr_expr_free(l);
		return NULL;
	}
	if (!scale_units(ps, l, r)) {
		rr_expr_free(l);
		rr_expr_free(r);
		return fail(ps, "number too large");
	}
	if ((e = binary(ps, (enum rr_op)op, l, r)) == NULL)
		return NULL;
	if (cmp_op(ps->tok) >= 0) {
		rr_expr_free(e);
		return fail(ps, "comparisons cannot be chained");
	}
	return e;
}

static struct rr_expr *
parse_not(struct parser *ps)
{
	struct rr_expr *k;

	if (ps->tok != T_NOT)
		return parse_cmp(ps);
	if (++ps->nest > RR_MAX_DEPTH)
		return fail(ps, "expression nested too deeply");
	lex(ps);
	k = parse_not(ps);
	ps->nest--;
	return k ? unary(ps, RR_NOT, k) : NULL;
}

static struct rr_expr *
parse_and(struct parser *ps)
{
	return parse_list(ps, T_AND, RR_AND, parse_not);
}

static struct rr_expr *
parse_or(struct parser *ps)
{
	return parse_list(ps, T_OR, RR_OR, parse_and);
}

/*
 * The old form "r1m=0.5:swp=20:type=ALPHA": each term is a bound in the
 * index's good direction.  Returns 1, consuming nothing, when s is not
 * in that form so that it is read as an expression instead.
 */
static int
parse_old(struct parser *ps, const char *s, size_t len,
    struct rr_expr **out)
{
	struct rr_expr *all = NULL, *l, *r;
	const char *p, *end = s + len, *t, *te, *eq, *n0, *n1, *v0, *v1;
	enum rr_op op;
	bool unit;
	double v;

	/* First pass: only "name=word" terms separated by ':'. */
	for (p = s;; p = te + 1) {
		te = memchr(p, ':', (size_t)(end - p));
		if (te == NULL)
			te = end;
		if ((eq = memchr(p, '=', (size_t)(te - p))) == NULL)
			return 1;
		for (n0 = p; n0 < eq && isspace((unsigned char)*n0); n0++)
			;
		for (n1 = eq; n1 > n0 && isspace((unsigned char)n1[-1]); n1--)
			;
		if (n1 == n0 || (!isalpha((unsigned char)*n0) && *n0 != '_'))
			return 1;
		for (t = n0; t < n1; t++)
			if (!is_name_char(*t))
				return 1;
		for (v0 = eq + 1; v0 < te && isspace((unsigned char)*v0); v0++)
			;
		for (v1 = te; v1 > v0 && isspace((unsigned char)v1[-1]); v1--)
			;
		if (v1 == v0)
			return 1;
		for (t = v0; t < v1; t++)
			if (!is_word_char(*t))
				return 1;
		if (te == end)
			break;
	}

	for (p = s;; p = te + 1) {
		te = memchr(p, ':', (size_t)(end - p));
		if (te == NULL)
			te = end;
		eq = memchr(p, '=', (size_t)(te - p));
		for (n0 = p; isspace((unsigned char)*n0); n0++)
			;
		for (n1 = eq; isspace((unsigned char)n1[-1]); n1--)
			;
		for (v0 = eq + 1; isspace((unsigned char)*v0); v0++)
			;
		for (v1 = te; isspace((unsigned char)v1[-1]); v1--)
			;
		l = name_node(RR_IDENT, n0, (size_t)(n1 - n0));
		if (is_string_ref(l)) {
			r = str_node(v0, (size_t)(v1 - v0), false);
			op = RR_EQ;
		} else if (rr_scan_number(v0, v1, &v, &unit) ==
		    (size_t)(v1 - v0)) {
			r = node(RR_NUM);
			r->num = v;
			r->unit = unit;
			if (l->ref == REF_LOAD)
				op = load_index_info[l->idx].increasing ?
				    RR_LE : RR_GE;
			else if (l->ref == REF_BOOL || l->ref == REF_SERVER)
				op = RR_EQ;
			else
				op = RR_GE;
		} else if (l->ref == REF_BOOL) {
			/* Quoted: outside type== a-b would read as a - b. */
			r = str_node(v0, (size_t)(v1 - v0), true);
			op = RR_EQ;
		} else
			r = NULL;
		if (r == NULL || !scale_units(ps, l, r)) {
			ps->start = v0;
			fail(ps, "bad number");
			rr_expr_free(l);
			rr_expr_free(r);
			rr_expr_free(all);
			return -1;
		}
		all = rr_expr_and(all, binary(ps, op, l, r));
		if (te == end)
			break;
	}
	*out = all;
	return 0;
}

int
rr_expr_parse(struct rr_expr **out, const char *s, size_t len,
    const char *unit, bool oldform, char **cause)
{
	struct parser ps;
	struct rr_expr *e;
	int r;

	memset(&ps, 0, sizeof(ps));
	ps.p = s;
	ps.end = s + len;
	ps.unit_mb = rr_unit_mb(unit);
	*out = NULL;
	if (oldform && (r = parse_old(&ps, s, len, out)) <= 0) {
		if (r < 0)
			*cause = ps.cause;
		return r;
	}
	lex(&ps);
	if (ps.tok == T_EOF)
		e = fail(&ps, "empty expression");
	else if ((e = parse_or(&ps)) != NULL && ps.tok != T_EOF) {
		rr_expr_free(e);
		e = fail_tok(&ps);
	}
	if (e == NULL) {
		*cause = ps.cause ? ps.cause : xstrdup("syntax error");
		return -1;
	}
	*out = e;
	return 0;
}

/* Evaluation */

struct val {
	enum { V_NONE, V_NUM, V_STR } kind;
	double		 n;
	const char	*s;
};

static struct val
num_val(double n)
{
	struct val v = { V_NUM, n, NULL };

	/* inf - inf and friends: unknown rather than a surprise. */
	if (!isfinite(n))
		v.kind = V_NONE;
	return v;
}

static struct val
str_val(const char *s)
{
	struct val v = { s ? V_STR : V_NONE, 0, s };

	return v;
}

static const struct val none_val = { V_NONE, 0, NULL };

static struct val
host_val(const struct rr_expr *e, const struct rr_host *h)
{
	double d;
	float f;

	switch (e->ref) {
	case REF_LOAD:
		if (h->load == NULL)
			return none_val;
		f = h->load[e->idx];
		if (isnan(f) || f >= INFINIT_LOAD)
			return none_val;
		return num_val(f);
	case REF_NCPUS: return num_val(h->ncpus);
	case REF_CPUF: return num_val(h->cpuf);
	case REF_MAXMEM: return num_val(h->maxmem);
	case REF_MAXSWP: return num_val(h->maxswp);
	case REF_MAXTMP: return num_val(h->maxtmp);
	case REF_SERVER: return num_val(h->server);
	case REF_TYPE: return str_val(h->type);
	case REF_MODEL: return str_val(h->model);
	case REF_HNAME: return str_val(h->name);
	case REF_BOOL:
		/* A Numeric resource an ELIM reports for the host. */
		if (resreq_ext_value(h, e->str, &d))
			return num_val(d);
		/* Absent is unknown, not 0: "foo > 3" is then false. */
		if (h->resources && strv_contains(h->resources, e->str))
			return num_val(1);
		return none_val;
	}
	return none_val;
}

static bool	 truth(const struct rr_expr *, const struct rr_host *);

static struct val
value(const struct rr_expr *e, const struct rr_host *h)
{
	struct val l, r;

	switch (e->op) {
	case RR_NUM:
		return num_val(e->num);
	case RR_STR:
		return str_val(e->str);
	case RR_IDENT:
		return host_val(e, h);
	case RR_NEG:
		l = value(e->kid[0], h);
		return l.kind == V_NUM ? num_val(-l.n) : none_val;
	case RR_ADD: case RR_SUB: case RR_MUL: case RR_DIV:
		l = value(e->kid[0], h);
		r = value(e->kid[1], h);
		if (l.kind != V_NUM || r.kind != V_NUM)
			return none_val;
		switch (e->op) {
		case RR_ADD: return num_val(l.n + r.n);
		case RR_SUB: return num_val(l.n - r.n);
		case RR_MUL: return num_val(l.n * r.n);
		default: return r.n == 0 ? none_val : num_val(l.n / r.n);
		}
	default:
		return num_val(truth(e, h));
	}
}

static bool
compare(const struct rr_expr *e, const struct rr_host *h)
{
	const struct rr_expr *lk = e->kid[0], *rk = e->kid[1];
	struct val l, r;
	int c;

	if (lk->op == RR_IDENT &&
	    (lk->ref == REF_TYPE || lk->ref == REF_MODEL) &&
	    rk->op == RR_STR && (strcasecmp(rk->str, "any") == 0 ||
	    strcasecmp(rk->str, "local") == 0))
		return e->op == RR_EQ;
	l = value(lk, h);
	r = value(rk, h);
	if (l.kind == V_NUM && r.kind == V_NUM)
		c = l.n < r.n ? -1 : l.n > r.n;
	else if (l.kind == V_STR && r.kind == V_STR)
		/* Host names are case-insensitive, as in DNS. */
		c = lk->op == RR_IDENT && lk->ref == REF_HNAME ?
		    strcasecmp(l.s, r.s) : strcmp(l.s, r.s);
	else
		return false;
	switch (e->op) {
	case RR_EQ: return c == 0;
	case RR_NE: return c != 0;
	case RR_GT: return c > 0;
	case RR_GE: return c >= 0;
	case RR_LT: return c < 0;
	default: return c <= 0;
	}
}

const char *
rr_expr_unknown(const struct rr_expr *e, resreq_known_fn known, void *arg)
{
	const char *n;

	if (e == NULL)
		return NULL;
	if ((e->op == RR_IDENT || e->op == RR_DEFINED) &&
	    e->ref == REF_BOOL && !known(e->str, arg))
		return e->str;
	for (int i = 0; i < e->nkid; i++)
		if ((n = rr_expr_unknown(e->kid[i], known, arg)) != NULL)
			return n;
	return NULL;
}

static bool
is_defined(const struct rr_expr *e, const struct rr_host *h)
{
	if (e->ref == REF_SERVER)
		return true;
	return host_val(e, h).kind != V_NONE;
}

static bool
truth(const struct rr_expr *e, const struct rr_host *h)
{
	struct val v;

	switch (e->op) {
	case RR_NOT:
		return !truth(e->kid[0], h);
	case RR_AND:
		for (int i = 0; i < e->nkid; i++)
			if (!truth(e->kid[i], h))
				return false;
		return true;
	case RR_OR:
		for (int i = 0; i < e->nkid; i++)
			if (truth(e->kid[i], h))
				return true;
		return false;
	case RR_EQ: case RR_NE: case RR_GT: case RR_GE: case RR_LT: case RR_LE:
		return compare(e, h);
	case RR_DEFINED:
		return is_defined(e, h);
	default:
		v = value(e, h);
		return v.kind == V_NUM && v.n != 0;
	}
}

bool
rr_expr_eval(const struct rr_expr *e, const struct rr_host *h)
{
	if (e == NULL)
		return true;
	if (h == NULL)
		return false;
	return truth(e, h);
}

/* Printing */

static int
prec(const struct rr_expr *e)
{
	switch (e->op) {
	case RR_OR: return 1;
	case RR_AND: return 2;
	case RR_NOT: return 3;
	case RR_EQ: case RR_NE: case RR_GT: case RR_GE: case RR_LT: case RR_LE:
		return 4;
	case RR_ADD: case RR_SUB: return 5;
	case RR_MUL: case RR_DIV: return 6;
	case RR_NEG: return 7;
	default: return 8;
	}
}

static void	 print_kid(struct strbuf *, const struct rr_expr *, bool);

static const char *
op_str(enum rr_op op)
{
	switch (op) {
	case RR_AND: return " && ";
	case RR_OR: return " || ";
	case RR_EQ: return " == ";
	case RR_NE: return " != ";
	case RR_GT: return " > ";
	case RR_GE: return " >= ";
	case RR_LT: return " < ";
	case RR_LE: return " <= ";
	case RR_ADD: return " + ";
	case RR_SUB: return " - ";
	case RR_MUL: return " * ";
	case RR_DIV: return " / ";
	default: return " ? ";
	}
}

/* The same tree, node by node. */
bool
rr_expr_equal(const struct rr_expr *a, const struct rr_expr *b)
{
	if (a == b)
		return true;
	if (a == NULL || b == NULL || a->op != b->op || a->num != b->num ||
	    a->unit != b->unit || a->quoted != b->quoted || a->ref != b->ref ||
	    a->idx != b->idx || a->nkid != b->nkid ||
	    (a->str == NULL) != (b->str == NULL) ||
	    (a->str && strcmp(a->str, b->str) != 0))
		return false;
	for (int i = 0; i < a->nkid; i++)
		if (!rr_expr_equal(a->kid[i], b->kid[i]))
			return false;
	return true;
}

/*
 * Single spaces around binary operators, parentheses only where the
 * grammar needs them to rebuild the same tree, numbers as "%.2f": e.g.
 * "mem >= 8192.00 && (type == X86_64 || !bigmem)".
 */
void
rr_expr_print(struct strbuf *sb, const struct rr_expr *e)
{
	int p = prec(e);

	switch (e->op) {
	case RR_NUM:
		rr_print_number(sb, e->num);
		break;
	case RR_STR:
		if (!e->quoted)
			sb_adds(sb, e->str);
		else if (strchr(e->str, '\'') != NULL)
			sb_addf(sb, "\"%s\"", e->str);
		else
			sb_addf(sb, "'%s'", e->str);
		break;
	case RR_IDENT:
		sb_adds(sb, e->str);
		break;
	case RR_DEFINED:
		sb_addf(sb, "defined(%s)", e->str);
		break;
	case RR_NOT:
		sb_addc(sb, '!');
		print_kid(sb, e->kid[0],
		    prec(e->kid[0]) < 7 && e->kid[0]->op != RR_NOT);
		break;
	case RR_NEG:
		sb_addc(sb, '-');
		print_kid(sb, e->kid[0], prec(e->kid[0]) < 7);
		break;
	case RR_AND: case RR_OR:
		for (int i = 0; i < e->nkid; i++) {
			if (i)
				sb_adds(sb, op_str(e->op));
			print_kid(sb, e->kid[i], prec(e->kid[i]) <= p);
		}
		break;
	default:
		/* Comparisons do not chain; arithmetic is left-associative. */
		print_kid(sb, e->kid[0],
		    p == 4 ? prec(e->kid[0]) <= p : prec(e->kid[0]) < p);
		sb_adds(sb, op_str(e->op));
		print_kid(sb, e->kid[1], prec(e->kid[1]) <= p);
		break;
	}
}

static void
print_kid(struct strbuf *sb, const struct rr_expr *e, bool paren)
{
	if (paren)
		sb_addc(sb, '(');
	rr_expr_print(sb, e);
	if (paren)
		sb_addc(sb, ')');
}
