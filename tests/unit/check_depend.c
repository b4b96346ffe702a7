/*
 * Dependency conditions (bsub -w): parsing, every error path, precedence,
 * the three-valued result of each function, arrays, names with wildcards
 * and the nesting limit, against a fake table of jobs standing in for
 * mbatchd.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "depend.h"
#include "util.h"

enum fstat { PEND, PSUSP, RUN, SSUSP, USUSP, DONE, EXIT };
enum fpost { POST_NONE, POST_DONE, POST_ERR };

struct fjob {
	int64_t		 id;
	int32_t		 idx;		/* 0: not an array */
	const char	*name;
	enum fstat	 stat;
	int		 code;		/* exit code when EXIT */
	enum fpost	 post;
	bool		 ran;		/* false: killed while pending */
};

/* The fake mbatchd: a table of jobs, and what the last lookup asked. */
struct fake {
	const struct fjob *jobs;
	size_t		 njobs;
	int		 calls;
	int		 op;
	int		 code;
};

static bool
cmp(int64_t a, int op, int64_t b)
{
	switch (op) {
	case DEP_OP_NONE:
		return true;
	case DEP_OP_EQ:
		return a == b;
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
	}
	ck_abort_msg("bad op %d", op);
	return false;
}

/* A name reference "base[idx]" matches element idx of jobs named base. */
static bool
match(const struct dep_ref *ref, const struct fjob *j)
{
	char base[128];
	const char *lb;
	int32_t idx = 0;

	if (ref->name == NULL)
		return j->id == ref->jobid && (ref->idx == 0 ||
		    ref->idx == j->idx);
	ck_assert_int_eq(ref->jobid, 0);
	ck_assert_int_eq(ref->idx, 0);
	snprintf(base, sizeof(base), "%s", ref->name);
	if ((lb = strchr(ref->name, '[')) != NULL) {
		base[lb - ref->name] = '\0';
		idx = atoi(lb + 1);
	}
	return wildmatch(base, j->name) && (idx == 0 || idx == j->idx);
}

static int
lookup(void *ctx, const struct dep_ref *ref, int op, int code,
    struct dep_counts *c)
{
	struct fake *f = ctx;

	f->calls++;
	f->op = op;
	f->code = code;
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < f->njobs; i++) {
		const struct fjob *j = &f->jobs[i];

		if (!match(ref, j))
			continue;
		c->total++;
		switch (j->stat) {
		case PEND:
			c->pend++;
			break;
		case PSUSP:
			c->psusp++;
			break;
		case RUN:
			c->running++;
			c->run++;
			break;
		case SSUSP:
		case USUSP:
			c->run++;
			break;
		case DONE:
			c->done++;
			break;
		case EXIT:
			c->exit++;
			if (cmp(j->code, op, code))
				c->exit_match++;
			break;
		}
		if (j->ran || (j->stat >= RUN && j->stat <= DONE))
			c->started++;
		if (j->post == POST_DONE)
			c->post_done++;
		if (j->post == POST_ERR)
			c->post_err++;
	}
	return c->total ? 0 : -1;
}

/*
 * 1 done, 2 pending, 3 exited 3 after running, 4 running, 5 held,
 * 6 exited without running, 7 done with a good post-exec, 8 done with a
 * failed one; array 100 "arr" [1-4] done, exit 2, running, pending;
 * array 200 "fin" [1-2] done, exit 1; names "job1" done, "job2" done,
 * "jobx" pending, "12abc" done.
 */
static const struct fjob jobs[] = {
	{ 1, 0, "one", DONE, 0, POST_NONE, true },
	{ 2, 0, "two", PEND, 0, POST_NONE, false },
	{ 3, 0, "three", EXIT, 3, POST_NONE, true },
	{ 4, 0, "four", RUN, 0, POST_NONE, true },
	{ 5, 0, "five", PSUSP, 0, POST_NONE, false },
	{ 6, 0, "six", EXIT, 130, POST_NONE, false },
	{ 7, 0, "seven", DONE, 0, POST_DONE, true },
	{ 8, 0, "eight", DONE, 0, POST_ERR, true },
	{ 9, 0, "nine", SSUSP, 0, POST_NONE, true },
	{ 100, 1, "arr", DONE, 0, POST_NONE, true },
	{ 100, 2, "arr", EXIT, 2, POST_NONE, true },
	{ 100, 3, "arr", RUN, 0, POST_NONE, true },
	{ 100, 4, "arr", PEND, 0, POST_NONE, false },
	{ 200, 1, "fin", DONE, 0, POST_NONE, true },
	{ 200, 2, "fin", EXIT, 1, POST_NONE, true },
	{ 300, 0, "job1", DONE, 0, POST_NONE, true },
	{ 301, 0, "job2", DONE, 0, POST_NONE, true },
	{ 302, 0, "jobx", PEND, 0, POST_NONE, false },
	{ 303, 0, "12abc", DONE, 0, POST_NONE, true },
};

static struct dep_expr *
parse_ok(const char *text)
{
	struct dep_expr *e = NULL;
	char *cause = NULL;

	if (dep_parse(text, &e, &cause) != 0)
		ck_abort_msg("parse \"%s\": %s", text, cause);
	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_null(cause);
	return e;
}

static int
eval_with(const char *text, struct fake *f)
{
	struct dep_expr *e = parse_ok(text);
	int v = dep_eval(e, lookup, f);

	dep_free(e);
	return v;
}

static int
eval_text(const char *text)
{
	struct fake f = { jobs, ARRAY_SIZE(jobs), 0, -1, -1 };

	return eval_with(text, &f);
}

static const char *
vname(int v)
{
	return v == DEP_TRUE ? "TRUE" : v == DEP_FALSE ? "FALSE" :
	    v == DEP_NEVER ? "NEVER" : "?";
}

#define T	DEP_TRUE
#define F	DEP_FALSE
#define N	DEP_NEVER

static const struct {
	const char	*text;
	int		 want;
} eval_cases[] = {
	/* done: true when all done, never once all ended otherwise. */
	{ "done(1)", T }, { "done(2)", F }, { "done(3)", N },
	{ "done(4)", F }, { "done(5)", F }, { "done(9)", F },
	/* A bare reference means done(). */
	{ "1", T }, { "2", F }, { "3", N }, { "one", T }, { "three", N },
	/* ended: value and final are the same. */
	{ "ended(1)", T }, { "ended(3)", T }, { "ended(2)", F },
	{ "ended(4)", F }, { "ended(6)", T },
	/* exit, with and without an exit code. */
	{ "exit(3)", T }, { "exit(1)", N }, { "exit(2)", F }, { "exit(4)", F },
	{ "exit(3, 3)", T }, { "exit(3, 4)", N }, { "exit(3,==3)", T },
	{ "exit(3, != 3)", N }, { "exit(3, > 2)", T }, { "exit(3, >3)", N },
	{ "exit(3, >= 3)", T }, { "exit(3, < 3)", N }, { "exit(3, <= 3)", T },
	{ "exit(6, >= 128)", T }, { "exit(4, 0)", F },
	/* started: final once true, or once ended without starting. */
	{ "started(4)", T }, { "started(1)", T }, { "started(3)", T },
	{ "started(9)", T }, { "started(2)", F }, { "started(5)", F },
	{ "started(6)", N }, { "!started(4)", N }, { "!started(2)", T },
	/* post_done and post_err. */
	{ "post_done(7)", T }, { "post_done(8)", N }, { "post_done(1)", F },
	{ "post_done(2)", F },
	{ "post_err(8)", T }, { "post_err(7)", N }, { "post_err(1)", F },
	/* A job that is gone can never satisfy anything. */
	{ "done(999)", N }, { "ended(999)", N }, { "exit(999)", N },
	{ "started(999)", N }, { "numdone(999, >= 0)", N },
	{ "done(\"nosuch\")", N }, { "done(1[1])", N },
	/* ! flips the value and keeps final. */
	{ "!done(2)", T }, { "!done(1)", N }, { "!done(3)", T },
	{ "!!done(3)", N }, { "!!done(2)", F }, { "!ended(2)", T },
	{ "!done(999)", T },
	/* && and ||, three-valued. */
	{ "done(1) && done(7)", T }, { "done(1) && done(2)", F },
	{ "done(3) && done(2)", N }, { "done(2) && done(3)", N },
	{ "done(2) && done(4)", F },
	{ "done(1) || done(2)", T }, { "done(2) || done(1)", T },
	{ "done(3) || done(2)", F }, { "done(3) || exit(1)", N },
	{ "done(3) || done(1)", T }, { "done(2) || done(4)", F },
	/* Precedence: ! over && over ||, parentheses over all. */
	{ "done(1) || done(2) && done(2)", T },
	{ "(done(1) || done(2)) && done(2)", F },
	{ "done(2) && done(2) || done(1)", T },
	{ "done(2) && (done(2) || done(1))", F },
	{ "!done(1) && done(2)", N },
	{ "!(done(1) && done(2))", T },
	{ "!done(2) || done(3)", T },
	{ "!(done(2) || done(1))", N },
	{ "1 && 7 && 8 && 300 || 2", T },
	{ "2 || 3 || 999 || 4", F },
	{ "3 || 999 || exit(1)", N },
	{ "((((done(1)))))", T },
	{ " \t\n done(1)\n&&\tended(3) ", T },
	/* Arrays: the whole array, one element, by name, counters. */
	{ "done(100)", F }, { "done(100[1])", T }, { "done(100[2])", N },
	{ "exit(100[2], 2)", T }, { "ended(100)", F },
	{ "started(100)", F }, { "started(100[3])", T },
	{ "done(arr[1])", T }, { "done(\"arr[2]\")", N }, { "done(arr)", F },
	{ "ended(200)", T }, { "done(200)", N }, { "exit(200)", N },
	{ "numdone(100, == 1)", T }, { "numdone(100, > 1)", F },
	{ "numdone(100, != 1)", F }, { "numdone(100, >= 1)", T },
	{ "numdone(100, < 2)", T }, { "numdone(100, <= 0)", F },
	{ "numended(100, == 2)", T }, { "numexit(100, >= 1)", T },
	{ "numhold(100, == 0)", T }, { "numpend(100, == 1)", T },
	{ "numrun(100, == 1)", T }, { "numstart(100, == 1)", T },
	{ "numdone(100, *)", F }, { "numdone(100, == *)", F },
	{ "numdone(100, < *)", T }, { "numended(100, *)", F },
	{ "numdone(arr, == 1)", T },
	/* A count beyond the array's size can never be met (4 elements). */
	{ "numdone(100, > 4)", N }, { "numdone(100, >= 5)", N },
	{ "numdone(100, == 5)", N }, { "numended(100, > 3)", F },
	{ "numpend(100, < 0)", N }, { "numdone(100, <= 4)", T },
	{ "!numdone(100, > 4)", T }, { "numdone(100, >= 4)", F },
	/* Once every element has ended, a counter is final. */
	{ "numdone(200, *)", N }, { "numended(200, *)", T },
	{ "numended(200, == *)", T }, { "numdone(200, >= 1)", T },
	{ "numdone(200, > 1)", N }, { "numexit(200, == 1)", T },
	{ "numhold(5, == 1)", T }, { "numhold(5, *)", T },
	{ "numpend(2, *)", T }, { "numrun(9, *)", F },
	{ "numstart(9, *)", T },
	/* Names with wildcards: every matching job must pass. */
	{ "done(\"job1\")", T }, { "done(job1)", T }, { "done('job2')", T },
	{ "done(job*)", F }, { "done(\"job*\")", F }, { "done(\"job?\")", F },
	{ "done(jo*1)", T }, { "ended(\"job*\")", F }, { "numdone(job*, == 2)",
	    T },
	{ "done(\"12abc\")", T }, { "done(one) && done(seven)", T },
};

START_TEST(test_eval)
{
	int v = eval_text(eval_cases[_i].text);

	if (v != eval_cases[_i].want)
		ck_abort_msg("%s: %s, want %s", eval_cases[_i].text, vname(v),
		    vname(eval_cases[_i].want));
}
END_TEST

START_TEST(test_lookup_args)
{
	struct fake f = { jobs, ARRAY_SIZE(jobs), 0, -1, -1 };

	eval_with("done(3)", &f);
	ck_assert_int_eq(f.op, DEP_OP_NONE);
	ck_assert_int_eq(f.code, 0);
	eval_with("exit(3)", &f);
	ck_assert_int_eq(f.op, DEP_OP_NONE);
	ck_assert_int_eq(f.code, 0);
	eval_with("exit(3, 7)", &f);
	ck_assert_int_eq(f.op, DEP_OP_EQ);
	ck_assert_int_eq(f.code, 7);
	eval_with("exit(3, != 255)", &f);
	ck_assert_int_eq(f.op, DEP_OP_NE);
	ck_assert_int_eq(f.code, 255);
	eval_with("exit(3,>0)", &f);
	ck_assert_int_eq(f.op, DEP_OP_GT);
	eval_with("exit(3, >= 1)", &f);
	ck_assert_int_eq(f.op, DEP_OP_GE);
	eval_with("exit(3, <1)", &f);
	ck_assert_int_eq(f.op, DEP_OP_LT);
	eval_with("exit(3, <= 1)", &f);
	ck_assert_int_eq(f.op, DEP_OP_LE);
	/* The counters do not pass their comparison to the lookup. */
	eval_with("numdone(100, >= 2)", &f);
	ck_assert_int_eq(f.op, DEP_OP_NONE);
	ck_assert_int_eq(f.code, 0);
}
END_TEST

/* An operand that decides && or || for good stops the evaluation. */
START_TEST(test_short_circuit)
{
	struct fake f = { jobs, ARRAY_SIZE(jobs), 0, -1, -1 };

	ck_assert_int_eq(eval_with("done(3) && done(1) && done(2)", &f), N);
	ck_assert_int_eq(f.calls, 1);
	f.calls = 0;
	ck_assert_int_eq(eval_with("done(1) || done(2) || done(3)", &f), T);
	ck_assert_int_eq(f.calls, 1);
	/* Not final: the rest must still be asked. */
	f.calls = 0;
	ck_assert_int_eq(eval_with("done(2) && done(4) && done(3)", &f), N);
	ck_assert_int_eq(f.calls, 3);
}
END_TEST

/* Every reference, as "12", "12[3]" or "name", in order. */
static int
collect(void *arg, const struct dep_ref *ref)
{
	struct strbuf *sb = arg;

	if (sb->len)
		sb_addc(sb, ' ');
	if (ref->name != NULL) {
		ck_assert_int_eq(ref->jobid, 0);
		ck_assert_int_eq(ref->idx, 0);
		sb_addf(sb, "<%s>", ref->name);
	} else if (ref->idx)
		sb_addf(sb, "%lld[%d]", (long long)ref->jobid, ref->idx);
	else
		sb_addf(sb, "%lld", (long long)ref->jobid);
	return 0;
}

static const struct {
	const char	*text;
	const char	*refs;
} ref_cases[] = {
	{ "done(12)", "12" },
	{ "12", "12" },
	{ "12[3]", "12[3]" },
	{ "ended( 12[3] )", "12[3]" },
	{ "done(2147483646)", "2147483646" },
	{ "done(1[2147483646])", "1[2147483646]" },
	{ "myjob", "<myjob>" },
	{ "done(myjob)", "<myjob>" },
	{ "done(\"my job\")", "<my job>" },
	{ "done('x(y)')", "<x(y)>" },
	{ "done(\"123\")", "<123>" },
	{ "done('it\"s')", "<it\"s>" },
	{ "arr[3]", "<arr[3]>" },
	{ "prefix*", "<prefix*>" },
	{ "done(a-b.c_d/e:f@g)", "<a-b.c_d/e:f@g>" },
	{ "done", "<done>" },
	{ "done && exit", "<done> <exit>" },
	{ "exit(1, 2) || numdone(3, >= 4) && !started(x*)", "1 3 <x*>" },
	{ "(1||2)&&(3||!4)", "1 2 3 4" },
	{ "post_done(5) post_err(6)", NULL },
	{ "post_done(5) || post_err(6)", "5 6" },
	{ "numended(7,*) && numexit(7,>*) && numhold(7,==0) && numpend(7,<1)"
	    " && numrun(7,!=2) && numstart(7, <= 3)", "7 7 7 7 7 7" },
};

START_TEST(test_refs)
{
	struct dep_expr *e;
	struct strbuf sb = STRBUF_INIT;
	char *cause = NULL;

	if (ref_cases[_i].refs == NULL) {
		ck_assert_int_eq(dep_parse(ref_cases[_i].text, &e, &cause),
		    -1);
		free(cause);
		return;
	}
	e = parse_ok(ref_cases[_i].text);
	ck_assert_int_eq(dep_walk(e, collect, &sb), 0);
	ck_assert_str_eq(sb.buf, ref_cases[_i].refs);
	sb_release(&sb);
	dep_free(e);
}
END_TEST

/* A lookup that says yes but counts no job. */
static int
lookup_none(void *ctx, const struct dep_ref *ref, int op, int code,
    struct dep_counts *c)
{
	memset(c, 0, sizeof(*c));
	return 0;
}

START_TEST(test_no_jobs)
{
	static const char *texts[] = {
		"done(1)", "ended(1)", "exit(1)", "started(1)", "post_done(1)",
		"post_err(1)", "numdone(1, *)", "numpend(1, == 0)",
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		struct dep_expr *e = parse_ok(texts[i]);

		ck_assert_int_eq(dep_eval(e, lookup_none, NULL), DEP_NEVER);
		dep_free(e);
	}
}
END_TEST

static int
stop_at_second(void *arg, const struct dep_ref *ref)
{
	int *n = arg;

	return ++*n == 2 ? 7 : 0;
}

START_TEST(test_walk_stops)
{
	struct dep_expr *e = parse_ok("1 && (2 || 3) && 4");
	int n = 0;

	ck_assert_int_eq(dep_walk(e, stop_at_second, &n), 7);
	ck_assert_int_eq(n, 2);
	dep_free(e);
	/* NULL is harmless everywhere. */
	dep_free(NULL);
	ck_assert_int_eq(dep_walk(NULL, stop_at_second, &n), 0);
	ck_assert_int_eq(dep_eval(NULL, lookup, NULL), DEP_NEVER);
}
END_TEST

static const struct {
	const char	*text;
	const char	*cause;
} bad_cases[] = {
	{ "", "empty dependency condition" },
	{ NULL, "empty dependency condition" },
	{ " \t\n", "empty dependency condition" },
	{ "done(", "missing job ID or name at the end of \"done(\"" },
	{ "done()", "missing job ID or name near \")\"" },
	{ "done( )", "missing job ID or name near \")\"" },
	{ "done(1", "syntax error at the end of \"done(1\"" },
	{ "done(1))", "unbalanced ')' near \")\"" },
	{ "(done(1)", "missing ')' at the end of \"(done(1)\"" },
	{ "((done(1)) && 2", "missing ')' at the end of \"((done(1)) && 2\"" },
	{ "done(1) &&", "missing job ID or name at the end of \"done(1) &&\"" },
	{ "done(1) ||", "missing job ID or name at the end of \"done(1) ||\"" },
	{ "&& done(1)", "missing job ID or name near \"&& done(1)\"" },
	{ "done(1) & done(2)", "syntax error near \"& done(2)\"" },
	{ "done(1) | done(2)", "syntax error near \"| done(2)\"" },
	{ "done(1) done(2)", "syntax error near \"done(2)\"" },
	{ "done(1) || || done(2)",
	    "missing job ID or name near \"|| done(2)\"" },
	{ "done(1) && )", "missing job ID or name near \")\"" },
	{ "!", "missing job ID or name at the end of \"!\"" },
	{ "()", "missing job ID or name near \")\"" },
	{ ")", "missing job ID or name near \")\"" },
	{ "foo(1)", "unknown dependency function near \"foo(1)\"" },
	{ "DONE(1)", "unknown dependency function near \"DONE(1)\"" },
	{ "Done (1)", "unknown dependency function near \"Done (1)\"" },
	{ "external(1, \"x\")",
	    "unknown dependency function near \"external(1, \"x\")\"" },
	{ "done(\"abc)", "unterminated quote near \"\"abc)\"" },
	{ "done('abc\")", "unterminated quote near \"'abc\")\"" },
	{ "done('')", "empty job name near \"'')\"" },
	{ "done(\"\")", "empty job name near \"\"\")\"" },
	{ "done(0)", "bad job ID near \"0)\"" },
	{ "done(2147483647)", "bad job ID near \"2147483647)\"" },
	{ "done(999999999999999999999999999999)",
	    "bad job ID near \"999999999999999999999999...\"" },
	{ "done(12abc)", "bad job ID near \"12abc)\"" },
	{ "12abc", "bad job ID near \"12abc\"" },
	{ "done(12[3]x)", "bad job ID near \"12[3]x)\"" },
	{ "done(12[0])", "bad array index near \"12[0])\"" },
	{ "done(12[)", "bad array index near \"12[)\"" },
	{ "done(12[3)", "bad array index near \"12[3)\"" },
	{ "done(12[*])", "bad array index near \"12[*])\"" },
	{ "done(12[2147483647])", "bad array index near \"12[2147483647])\"" },
	{ "done(1, 2)", "syntax error near \", 2)\"" },
	{ "done(a b)", "syntax error near \"b)\"" },
	{ "done(\"a\" b)", "syntax error near \"b)\"" },
	{ "exit(1,)", "bad exit code near \")\"" },
	{ "exit(1, =5)", "bad operator near \"=5)\"" },
	{ "exit(1, => 5)", "bad operator near \"=> 5)\"" },
	{ "exit(1, !5)", "bad operator near \"!5)\"" },
	{ "exit(1, >)", "bad exit code near \">)\"" },
	{ "exit(1, -1)", "bad exit code near \"-1)\"" },
	{ "exit(1, 256)", "bad exit code near \"256)\"" },
	{ "exit(1, *)", "bad exit code near \"*)\"" },
	{ "exit(1, 2, 3)", "syntax error near \", 3)\"" },
	{ "exit(1, 2", "syntax error at the end of \"exit(1, 2\"" },
	{ "numdone(1)", "expected \", operator count\" near \")\"" },
	{ "numdone(1, 5)", "missing operator near \"5)\"" },
	{ "numdone(1, >=)", "bad count near \">=)\"" },
	{ "numdone(1, > -2)", "bad count near \"> -2)\"" },
	{ "numdone(1, >= 2147483647)", "bad count near \">= 2147483647)\"" },
	{ "numdone(1, == **)", "syntax error near \"*)\"" },
	{ "numrun(1, * 2)", "syntax error near \"2)\"" },
	{ "done(\x01)", "missing job ID or name near \"\x01)\"" },
	{ "done(1) \x01", "syntax error near \"\x01\"" },
};

START_TEST(test_errors)
{
	struct dep_expr *e = (struct dep_expr *)&e;
	char *cause = NULL;

	if (dep_parse(bad_cases[_i].text, &e, &cause) != -1)
		ck_abort_msg("\"%s\" accepted", bad_cases[_i].text);
	ck_assert_ptr_null(e);
	ck_assert_ptr_nonnull(cause);
	ck_assert_str_eq(cause, bad_cases[_i].cause);
	free(cause);
}
END_TEST

static char *
repeat(const char *s, int n, const char *tail, const char *end)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < n; i++)
		sb_adds(&sb, s);
	sb_adds(&sb, tail);
	for (int i = 0; i < n; i++)
		sb_adds(&sb, end);
	return sb_detach(&sb);
}

static void
check_depth(const char *open, const char *close, int ok_depth)
{
	struct dep_expr *e;
	char *cause = NULL, *s;

	s = repeat(open, ok_depth, "done(1)", close);
	e = parse_ok(s);
	ck_assert_int_ne(dep_eval(e, lookup, &(struct fake){ jobs,
	    ARRAY_SIZE(jobs), 0, -1, -1 }), DEP_FALSE);
	dep_free(e);
	free(s);

	s = repeat(open, ok_depth + 1, "done(1)", close);
	ck_assert_int_eq(dep_parse(s, &e, &cause), -1);
	ck_assert_ptr_null(e);
	ck_assert(str_starts(cause, "expression nested too deeply near"));
	free(cause);
	free(s);

	/* Far too deep must fail the same way, not exhaust the stack. */
	s = repeat(open, 100000, "done(1)", close);
	ck_assert_int_eq(dep_parse(s, &e, &cause), -1);
	ck_assert(str_starts(cause, "expression nested too deeply near"));
	free(cause);
	free(s);
}

START_TEST(test_depth)
{
	check_depth("(", ")", 64);
	check_depth("!", "", 64);
	check_depth("!(", ")", 32);
	check_depth("(done(2) || ", ")", 64);
}
END_TEST

/* A long flat chain is a wide node: no deep recursion to parse or free. */
START_TEST(test_wide)
{
	struct strbuf sb = STRBUF_INIT;
	struct fake f = { jobs, ARRAY_SIZE(jobs), 0, -1, -1 };
	struct dep_expr *e;

	sb_adds(&sb, "done(2)");
	for (int i = 0; i < 200000; i++)
		sb_adds(&sb, i % 2 ? " || done(2)" : " && done(4)");
	sb_adds(&sb, " || done(1)");
	e = parse_ok(sb.buf);
	ck_assert_int_eq(dep_eval(e, lookup, &f), DEP_TRUE);
	dep_free(e);
	sb_release(&sb);
}
END_TEST

/* Mutations of good strings: parse or fail with a cause, never crash. */
START_TEST(test_fuzz)
{
	static const char alphabet[] = "()!&|,*[]\"' =<>0123456789"
	    "donexitarumsphl_";
	uint32_t seed = 12345;
	int nok = 0, nbad = 0;

	for (int round = 0; round < 20000; round++) {
		const char *base = ref_cases[round %
		    ARRAY_SIZE(ref_cases)].text;
		char buf[256];
		size_t len = strlen(base);
		struct dep_expr *e;
		char *cause = NULL;

		snprintf(buf, sizeof(buf), "%s", base);
		for (int k = 0; k < 3; k++) {
			size_t at;

			seed = seed * 1103515245 + 12345;
			at = len ? (seed >> 8) % len : 0;
			seed = seed * 1103515245 + 12345;
			switch ((seed >> 16) % 3) {
			case 0:		/* replace */
				if (len)
					buf[at] = alphabet[(seed >> 4) %
					    (sizeof(alphabet) - 1)];
				break;
			case 1:		/* delete */
				if (len) {
					memmove(buf + at, buf + at + 1,
					    len - at);
					len--;
				}
				break;
			default:	/* insert */
				if (len + 1 < sizeof(buf)) {
					memmove(buf + at + 1, buf + at,
					    len - at + 1);
					buf[at] = alphabet[(seed >> 4) %
					    (sizeof(alphabet) - 1)];
					len++;
				}
				break;
			}
		}
		if (dep_parse(buf, &e, &cause) == 0) {
			struct fake f = { jobs, ARRAY_SIZE(jobs), 0, -1, -1 };
			struct strbuf sb = STRBUF_INIT;
			int v = dep_eval(e, lookup, &f);

			ck_assert(v == DEP_TRUE || v == DEP_FALSE ||
			    v == DEP_NEVER);
			ck_assert_int_eq(dep_walk(e, collect, &sb), 0);
			sb_release(&sb);
			dep_free(e);
			nok++;
		} else {
			ck_assert_ptr_null(e);
			ck_assert_ptr_nonnull(cause);
			ck_assert(*cause != '\0');
			free(cause);
			nbad++;
		}
	}
	/* Both kinds must be common for the test to mean anything. */
	ck_assert_int_gt(nok, 1000);
	ck_assert_int_gt(nbad, 1000);
}
END_TEST

static Suite *
depend_suite(void)
{
	Suite *s = suite_create("depend");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_eval, 0, (int)ARRAY_SIZE(eval_cases));
	tcase_add_test(tc, test_lookup_args);
	tcase_add_test(tc, test_short_circuit);
	tcase_add_loop_test(tc, test_refs, 0, (int)ARRAY_SIZE(ref_cases));
	tcase_add_test(tc, test_walk_stops);
	tcase_add_test(tc, test_no_jobs);
	tcase_add_loop_test(tc, test_errors, 0, (int)ARRAY_SIZE(bad_cases));
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_wide);
	tcase_add_test(tc, test_fuzz);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(depend_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
