/* Resource requirement strings: parsing, select, order, merges, display. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resreq.h"

/* Fake hosts: A is big and idle, B small and busy, C reports no load. */
static char *res_a_v[] = { "bigmem", "linux", NULL };
static char *res_b_v[] = { "linux", NULL };
static struct strv res_a = { res_a_v, 2, 3 };
static struct strv res_b = { res_b_v, 1, 2 };

static float load_a[NLOADIDX] = {
	[LI_R15S] = 0.2f, [LI_R1M] = 0.5f, [LI_R15M] = 0.7f, [LI_UT] = 0.3f,
	[LI_PG] = 1.0f, [LI_IO] = 10, [LI_LS] = 2, [LI_IT] = 5,
	[LI_TMP] = 20000, [LI_SWP] = 4000, [LI_MEM] = 16000,
};
static float load_b[NLOADIDX] = {
	[LI_R15S] = 1.5f, [LI_R1M] = 2, [LI_R15M] = 2.5f, [LI_UT] = 0.9f,
	[LI_PG] = 3, [LI_IO] = 50, [LI_LS] = 5, [LI_IT] = 0,
	[LI_TMP] = 100, [LI_SWP] = 500, [LI_MEM] = 2000,
};

static const struct rr_host host_a = {
	"hostA", "X86_64", "Xeon", load_a, 8, 2.5f, 32000, 8000, 50000,
	&res_a, true, NULL,
};
static const struct rr_host host_b = {
	"hostB", "LINUX64", "Opteron", load_b, 2, 1.0f, 4000, 1000, 200,
	&res_b, false, NULL,
};
static const struct rr_host host_c = {
	"hostC", NULL, NULL, NULL, 1, 1.0f, 1000, 0, 0, NULL, true, NULL,
};

static void
parse_ok(struct resreq *rr, const char *text, const char *unit)
{
	char *cause = NULL;

	if (resreq_parse(rr, text, unit, &cause) != 0)
		ck_abort_msg("parse \"%s\": %s", text, cause);
	ck_assert_ptr_null(cause);
}

static char *
show(const char *text, const char *unit)
{
	struct resreq rr;
	char *s;

	parse_ok(&rr, text, unit);
	s = resreq_to_string(&rr);
	resreq_release(&rr);
	return s;
}

static bool
sel(const char *text, const struct rr_host *h)
{
	struct resreq rr;
	bool r;

	parse_ok(&rr, text, NULL);
	r = resreq_select(&rr, h);
	resreq_release(&rr);
	return r;
}

START_TEST(test_clients)
{
	static const char *ok[] = {
		"select[mem>=8192MB] rusage[mem=8192MB]",
		"rusage[mem=1000.0]",
		"rusage[mem=1000]",
		"span[hosts=1]",
		"span[ptile=2]",
		"select[tmp>=100MB] rusage[tmp=100MB]",
		"select[mem>4000] rusage[mem=4000] span[hosts=1]",
		"select[mem>8192MB && ncpus>=2 && type!=PPC] rusage[mem=1GB]",
		"", "   ",
	};
	struct resreq rr;

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		parse_ok(&rr, ok[i], "KB");
		ck_assert_str_eq(rr.text, ok[i]);
		resreq_release(&rr);
	}

	parse_ok(&rr, "select[mem>=8192MB] rusage[mem=8192MB]", NULL);
	ck_assert_int_eq(rr.nrusage, 1);
	ck_assert_str_eq(rr.rusage[0].name, "mem");
	ck_assert_double_eq(rr.rusage[0].value, 8192);
	ck_assert(resreq_select(&rr, &host_a));
	ck_assert(!resreq_select(&rr, &host_b));
	ck_assert(!resreq_select(&rr, &host_c));
	resreq_release(&rr);

	parse_ok(&rr, "rusage[mem=1000.0]", NULL);
	ck_assert_ptr_null(rr.select);
	ck_assert(resreq_select(&rr, &host_b));
	ck_assert_double_eq(rr.rusage[0].value, 1000);
	ck_assert_int_eq(rr.rusage[0].duration, 0);
	ck_assert(!rr.rusage[0].decay);
	resreq_release(&rr);

	parse_ok(&rr, "span[hosts=1]", NULL);
	ck_assert_int_eq(rr.span_hosts, 1);
	ck_assert_int_eq(rr.span_ptile, -1);
	resreq_release(&rr);
	parse_ok(&rr, "span[ptile=2]", NULL);
	ck_assert_int_eq(rr.span_hosts, -1);
	ck_assert_int_eq(rr.span_ptile, 2);
	resreq_release(&rr);

	parse_ok(&rr, "", NULL);
	ck_assert_ptr_null(rr.select);
	ck_assert_int_eq(rr.norder + rr.nrusage, 0);
	ck_assert_int_eq(rr.span_hosts, -1);
	ck_assert_ptr_null(rr.same);
	resreq_release(&rr);
	/* A released requirement can be released again. */
	resreq_release(&rr);
}
END_TEST

START_TEST(test_units)
{
	struct resreq rr;
	char *cause;

	/* A bare value is MB with KB or MB units, else in the unit. */
	parse_ok(&rr, "rusage[mem=1000]", "KB");
	ck_assert_double_eq(rr.rusage[0].value, 1000);
	resreq_release(&rr);
	parse_ok(&rr, "rusage[mem=1000]", "MB");
	ck_assert_double_eq(rr.rusage[0].value, 1000);
	resreq_release(&rr);
	parse_ok(&rr, "rusage[mem=1000, swp=2, tmp=1]", "GB");
	ck_assert_double_eq(rr.rusage[0].value, 1024000);
	ck_assert_double_eq(rr.rusage[1].value, 2048);
	ck_assert_double_eq(rr.rusage[2].value, 1024);
	resreq_release(&rr);
	parse_ok(&rr, "rusage[mem=1]", "TB");
	ck_assert_double_eq(rr.rusage[0].value, 1048576);
	resreq_release(&rr);
	/* An explicit suffix wins. */
	parse_ok(&rr, "rusage[mem=2GB]", "GB");
	ck_assert_double_eq(rr.rusage[0].value, 2048);
	resreq_release(&rr);
	parse_ok(&rr, "rusage[mem=512KB]", "GB");
	ck_assert_double_eq(rr.rusage[0].value, 0.5);
	resreq_release(&rr);
	parse_ok(&rr, "rusage[mem=1t,swp=3g,tmp=2m]", NULL);
	ck_assert_double_eq(rr.rusage[0].value, 1048576);
	ck_assert_double_eq(rr.rusage[1].value, 3072);
	ck_assert_double_eq(rr.rusage[2].value, 2);
	resreq_release(&rr);
	/* Other resources are counts: no unit, no scaling. */
	parse_ok(&rr, "rusage[licA=2]", "GB");
	ck_assert_double_eq(rr.rusage[0].value, 2);
	resreq_release(&rr);
	ck_assert_int_eq(resreq_parse(&rr, "rusage[licA=2GB]", NULL, &cause),
	    -1);
	free(cause);

	/* select[mem>N] follows the same unit rule as rusage[mem=N]. */
	parse_ok(&rr, "select[mem>15] rusage[mem=15]", "GB");
	ck_assert_double_eq(rr.rusage[0].value, 15360);
	ck_assert(resreq_select(&rr, &host_a));	/* 16000 > 15360 */
	resreq_release(&rr);
	parse_ok(&rr, "select[mem>16]", "GB");
	ck_assert(!resreq_select(&rr, &host_a));
	resreq_release(&rr);
	parse_ok(&rr, "select[mem>16]", "KB");
	ck_assert(resreq_select(&rr, &host_a));
	resreq_release(&rr);
	parse_ok(&rr, "select[16>mem]", "GB");
	ck_assert(resreq_select(&rr, &host_a));
	resreq_release(&rr);
	/* Not a memory index: no scaling. */
	parse_ok(&rr, "select[ncpus>4]", "GB");
	ck_assert(resreq_select(&rr, &host_a));
	resreq_release(&rr);
}
END_TEST

static const struct {
	const char	*expr;
	int		 a, b, c;
} sel_cases[] = {
	{ "mem>=8192MB", 1, 0, 0 },
	{ "mem>8G", 1, 0, 0 },
	{ "mem>8g", 1, 0, 0 },
	{ "mem>=16000", 1, 0, 0 },
	{ "mem>15999 && mem<16001", 1, 0, 0 },
	{ "mem>=15.625GB", 1, 0, 0 },
	{ "mem>16384000KB", 0, 0, 0 },
	{ "mem<.5T", 1, 1, 0 },
	{ "r1m<1", 1, 0, 0 },
	{ "select[r1m=0.5]", 1, 0, 0 },
	{ "select[r1m==0.5]", 1, 0, 0 },
	{ "ut<0.5", 1, 0, 0 },
	{ "it>4", 1, 0, 0 },
	{ "tmp>=100MB", 1, 1, 0 },
	{ "swp>1000", 1, 0, 0 },
	{ "pg<=1", 1, 0, 0 },
	{ "ls!=2", 0, 1, 0 },
	{ "ncpus>4", 1, 0, 0 },
	{ "cpuf>2", 1, 0, 0 },
	{ "maxmem>=32000", 1, 0, 0 },
	{ "maxmem>=31.25G", 1, 0, 0 },
	{ "maxswp<1001", 0, 1, 1 },
	{ "maxtmp>100", 1, 1, 0 },
	{ "server", 1, 0, 1 },
	{ "!server", 0, 1, 0 },
	{ "type==X86_64", 1, 0, 0 },
	{ "type = X86_64", 1, 0, 0 },
	{ "type!=X86_64", 0, 1, 0 },
	{ "type=='X86_64'", 1, 0, 0 },
	{ "type==\"LINUX64\"", 0, 1, 0 },
	{ "type==x86_64", 0, 0, 0 },
	{ "type==any", 1, 1, 1 },
	{ "type==local", 1, 1, 1 },
	{ "type!=any", 0, 0, 0 },
	{ "model==Xeon", 1, 0, 0 },
	{ "model!=Xeon", 0, 1, 0 },
	{ "hname==hosta", 1, 0, 0 },
	{ "hname==hostB", 0, 1, 0 },
	{ "hname=='hostC'", 0, 0, 1 },
	{ "hname==hostA || hname==hostB", 1, 1, 0 },
	{ "hname!=hostA&&hname!=hostB", 0, 0, 1 },
	{ "bigmem", 1, 0, 0 },
	{ "!bigmem", 0, 1, 1 },
	{ "linux && !bigmem", 0, 1, 0 },
	{ "bigmem || ncpus<4", 1, 1, 1 },
	{ "(mem>8000 || swp>8000) && ncpus>=8", 1, 0, 0 },
	{ "mem>8000 || swp>8000 && ncpus>=8", 1, 0, 0 },
	{ "!(mem>8000) && !bigmem", 0, 1, 1 },
	{ "!mem>8000", 0, 1, 1 },
	{ "defined(bigmem)", 1, 0, 0 },
	{ "defined(mem)", 1, 1, 0 },
	{ "defined(type)", 1, 1, 0 },
	{ "defined(ncpus)", 1, 1, 1 },
	{ "defined (linux)", 1, 1, 0 },
	{ "foo>3", 0, 0, 0 },
	{ "foo<3", 0, 0, 0 },
	{ "!(foo>3)", 1, 1, 1 },
	{ "linux==1", 1, 1, 0 },
	{ "mem/0>1", 0, 0, 0 },
	{ "mem/0<1", 0, 0, 0 },
	{ "!(mem/0>1)", 1, 1, 1 },
	{ "mem/ncpus>1000", 1, 0, 0 },
	{ "-mem<0", 1, 1, 0 },
	{ "--mem>0", 1, 1, 0 },
	{ "2*ncpus+1==17", 1, 0, 0 },
	{ "2*(ncpus+1)==18", 1, 0, 0 },
	{ "10-ncpus-1==1", 1, 0, 0 },
	{ "ncpus*1e308*10>0", 0, 0, 0 },
	{ "type==X86_64 > 0", 1, 0, 0 },
	{ "ncpus>4 && type==X86_64 || type==LINUX64", 1, 1, 0 },
	{ "1", 1, 1, 1 },
	{ "0", 0, 0, 0 },
};

START_TEST(test_select)
{
	const char *e = sel_cases[_i].expr;
	char *cause;
	struct resreq rr;

	/* type==X86_64 > 0 reads X86_64 as the word; "> 0" then chains. */
	if (strcmp(e, "type==X86_64 > 0") == 0) {
		ck_assert_int_eq(resreq_parse(&rr, e, NULL, &cause), -1);
		free(cause);
		return;
	}
	ck_assert_msg(sel(e, &host_a) == sel_cases[_i].a, "%s on A", e);
	ck_assert_msg(sel(e, &host_b) == sel_cases[_i].b, "%s on B", e);
	ck_assert_msg(sel(e, &host_c) == sel_cases[_i].c, "%s on C", e);
}
END_TEST

/* External indices an ELIM reports: numbers by name, absent unknown. */
START_TEST(test_select_ext)
{
	struct strv ext = STRV_INIT;
	struct rr_host h = host_a;
	double v;

	strv_push(&ext, "nlic=4");
	strv_push(&ext, "bad=x");
	h.ext = &ext;
	ck_assert(sel("select[nlic > 3]", &h));
	ck_assert(!sel("select[nlic > 4]", &h));
	ck_assert(sel("nlic == 4 && ncpus == 8", &h));
	ck_assert(!sel("select[nli > 0]", &h));
	ck_assert(!sel("select[bad > 0 || bad <= 0]", &h));
	ck_assert(!sel("select[nlic > 3]", &host_a));
	ck_assert(resreq_ext_value(&h, "nlic", &v) && v == 4);
	ck_assert(!resreq_ext_value(&h, "nli", &v));
	strv_release(&ext);
}
END_TEST

START_TEST(test_select_misc)
{
	struct resreq rr;

	/* No requirement and no select accept every host. */
	ck_assert(resreq_select(NULL, &host_c));
	parse_ok(&rr, "rusage[mem=1]", NULL);
	ck_assert(resreq_select(&rr, &host_c));
	resreq_release(&rr);

	/* Unknown load values (INFINIT_LOAD) make comparisons false. */
	{
		float l[NLOADIDX];
		struct rr_host h = host_a;

		memcpy(l, load_a, sizeof(l));
		l[LI_MEM] = INFINIT_LOAD;
		h.load = l;
		ck_assert(!sel("mem>0", &h));
		ck_assert(!sel("mem<0", &h));
		ck_assert(!sel("defined(mem)", &h));
		ck_assert(sel("r15s<1", &h));
	}

	/* Section names are case-insensitive, sections in any order. */
	parse_ok(&rr, "  SPAN[hosts=1]\tRUsage[mem=10]  Select[bigmem]  ",
	    NULL);
	ck_assert(resreq_select(&rr, &host_a));
	ck_assert(!resreq_select(&rr, &host_b));
	ck_assert_int_eq(rr.span_hosts, 1);
	ck_assert_int_eq(rr.nrusage, 1);
	resreq_release(&rr);

	/* Quoted values may hold brackets and operators. */
	parse_ok(&rr, "select[hname=='a [b]|&!<>' || type==\"x'y\"] "
	    "same[type]", NULL);
	ck_assert(!resreq_select(&rr, &host_a));
	ck_assert_str_eq(rr.same, "type");
	resreq_release(&rr);

	/* Host names with dashes and dots need no quotes. */
	{
		struct rr_host h = host_b;

		h.name = "node-01.example.com";
		ck_assert(sel("hname==node-01.example.com", &h));
		ck_assert(sel("select[(hname==node-01.example.com)]", &h));
		ck_assert(!sel("hname==node-02.example.com", &h));
	}
}
END_TEST

START_TEST(test_oldform)
{
	struct resreq rr;
	char *s, *cause;

	s = show("r1m=0.5:swp=20:type=ALPHA", NULL);
	ck_assert_str_eq(s, "select[r1m <= 0.50 && swp >= 20.00 && "
	    "type == ALPHA] order[r15s:pg] ");
	free(s);

	ck_assert(sel("r1m=0.6:mem=8000", &host_a));
	ck_assert(!sel("r1m=0.6:mem=8000", &host_b));
	ck_assert(sel("mem=4000", &host_a));		/* mem>=4000 */
	ck_assert(!sel("mem=4000", &host_b));
	ck_assert(sel(" r1m = 3 : type = LINUX64 ", &host_b));
	ck_assert(sel("type=X86_64", &host_a));
	ck_assert(sel("ncpus=4", &host_a));		/* ncpus>=4 */
	ck_assert(!sel("ncpus=4", &host_b));
	ck_assert(sel("mem=8G:swp=1G", &host_a));
	ck_assert(sel("hname=node-1:type=any", &host_a) == false);

	s = show("mem=4:foo=a-b:ncpus=2", "GB");
	ck_assert_str_eq(s, "select[mem >= 4096.00 && foo == 'a-b' && "
	    "ncpus >= 2.00] order[r15s:pg] ");
	free(s);

	ck_assert_int_eq(resreq_parse(&rr, "r1m=abc", NULL, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "number"));
	free(cause);
	/* Not the old form: read as an expression. */
	ck_assert_int_eq(resreq_parse(&rr, "r1m=0.5:", NULL, &cause), -1);
	free(cause);
	ck_assert_int_eq(resreq_parse(&rr, "r1m=0.5::mem=1", NULL, &cause), -1);
	free(cause);
}
END_TEST

static const char *bad_cases[] = {
	"select[mem>1",
	"select[mem>1]]",
	"select[[mem]]",
	"select[mem>1] [x]",
	"foo[bar]",
	"select[a] select[b]",
	"SELECT[a] select[b]",
	"rusage[mem=1] rusage[swp=1]",
	"cu[type]",
	"affinity[core]",
	"select[]",
	"select[  ]",
	"order[]",
	"rusage[]",
	"span[]",
	"same[]",
	"rusage[mem=abc]",
	"rusage[mem=-5]",
	"rusage[mem]",
	"rusage[=5]",
	"rusage[mem=]",
	"rusage[mem=1,mem=2]",
	"rusage[mem=1,,swp=2]",
	"rusage[mem=1:decay=2]",
	"rusage[mem=1:duration=x]",
	"rusage[mem=1:duration=-1]",
	"rusage[duration=5]",
	"rusage[mem=10 || mem=5]",
	"rusage[mem=10GBX]",
	"rusage[mem=1e999]",
	"rusage[1mem=1]",
	"span[hosts=2]",
	"span[hosts=0]",
	"span[ptile=0]",
	"span[ptile=x]",
	"span[ptile=-1]",
	"span[ptile=99999999999]",
	"span[foo=1]",
	"span[hosts=1:ptile=2]",
	"order[foo]",
	"order[type]",
	"order[r15s::pg]",
	"order[--mem]",
	"mem>",
	"mem>>1",
	"(mem>1",
	"mem>1)",
	"mem>1 junk",
	"a<b<c",
	"'abc'",
	"\"abc",
	"type==",
	"type==(X86_64)",
	"mem>1.2.3",
	"mem>5XB",
	"mem>1e",
	"mem>0x10",
	"select[mem>1] garbage",
	"mem>5 rusage[mem=1]",
	"select['unterminated]",
	"same['a]",
	"defined(",
	"defined(mem",
	"defined(1)",
	"&",
	"mem>1 | mem<2",
	"mem>1 & mem<2",
	"mem>1 ; mem<2",
	"mem:1",
	"()",
	"!",
	"mem>1 &&",
	"|| mem>1",
	"mem==!x",
	"select[mem>1]]]",
	"]",
	"[",
	"select [mem>1",
	"r1m=0.5:swp=20:type=ALPHA junk",
};

START_TEST(test_errors)
{
	struct resreq rr;
	char *cause = NULL;

	if (resreq_parse(&rr, bad_cases[_i], NULL, &cause) != -1)
		ck_abort_msg("\"%s\" parsed", bad_cases[_i]);
	ck_assert_ptr_nonnull(cause);
	ck_assert_msg(*cause != '\0' && strchr(cause, '\n') == NULL,
	    "cause for \"%s\"", bad_cases[_i]);
	/* On error nothing is left to release. */
	ck_assert_ptr_null(rr.text);
	ck_assert_ptr_null(rr.select);
	ck_assert_int_eq(rr.nrusage + rr.norder, 0);
	free(cause);
}
END_TEST

static void
expect_error(const char *text, const char *word)
{
	struct resreq rr;
	char *cause = NULL;

	ck_assert_int_eq(resreq_parse(&rr, text, NULL, &cause), -1);
	ck_assert_msg(strstr(cause, word) != NULL, "\"%s\": cause \"%s\"",
	    text, cause);
	free(cause);
}

START_TEST(test_error_messages)
{
	expect_error("select[a] select[b]", "duplicate select[]");
	expect_error("foo[bar]", "unknown section");
	expect_error("cu[type]", "not supported");
	expect_error("rusage[mem=10 || mem=5]", "||");
	expect_error("rusage[mem=abc]", "mem=abc");
	expect_error("span[ptile=0]", "ptile=N");
	expect_error("order[foo]", "foo");
	expect_error("select[mem>1", "missing ']'");
	expect_error("select[]", "empty select[]");
	expect_error("(mem>1", "missing ')'");
	expect_error("mem>1 junk", "junk");
	expect_error("mem>", "end");
	expect_error("a<b<c", "chained");
}
END_TEST

static char *
repeat(const char *a, int n, const char *mid, const char *b, int m)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < n; i++)
		sb_adds(&sb, a);
	sb_adds(&sb, mid);
	for (int i = 0; i < m; i++)
		sb_adds(&sb, b);
	return sb_detach(&sb);
}

static int
try_parse(const char *text)
{
	struct resreq rr;
	char *cause = NULL;
	int r = resreq_parse(&rr, text, NULL, &cause);

	if (r == 0)
		resreq_release(&rr);
	free(cause);
	return r;
}

START_TEST(test_limits)
{
	char *s;

	s = repeat("(", 200, "mem>1", ")", 200);
	ck_assert_int_eq(try_parse(s), 0);
	free(s);
	s = repeat("(", 300, "mem>1", ")", 300);
	ck_assert_int_eq(try_parse(s), -1);
	free(s);
	s = repeat("(", 60000, "", "", 0);
	ck_assert_int_eq(try_parse(s), -1);
	free(s);
	s = repeat("!", 300, "bigmem", "", 0);
	ck_assert_int_eq(try_parse(s), -1);
	free(s);
	s = repeat("-", 300, "1>0", "", 0);
	ck_assert_int_eq(try_parse(s), -1);
	free(s);
	/* Left-deep arithmetic chains are bounded too. */
	s = repeat("1+", 300, "1>0", "", 0);
	ck_assert_int_eq(try_parse(s), -1);
	free(s);
	s = repeat("1+", 100, "1>0", "", 0);
	ck_assert_int_eq(try_parse(s), 0);
	free(s);
	/* Long host lists are n-ary: no depth problem. */
	s = repeat("hname==h || ", 4000, "hname==x", "", 0);
	ck_assert_int_eq(try_parse(s), 0);
	free(s);
	s = repeat("select[", 1, "", "bigmem && ", 6000);
	s = xrealloc(s, strlen(s) + 8);
	strcat(s, "linux]");
	{
		struct resreq rr;
		char *cause;

		ck_assert_int_eq(resreq_parse(&rr, s, NULL, &cause), 0);
		ck_assert(resreq_select(&rr, &host_a));
		ck_assert(!resreq_select(&rr, &host_b));
		resreq_release(&rr);
	}
	free(s);
	/* 64 KiB is the longest string accepted. */
	s = repeat(" ", RR_MAX_TEXT - 5, "mem>1", "", 0);
	ck_assert_int_eq(try_parse(s), 0);
	free(s);
	s = repeat(" ", RR_MAX_TEXT - 4, "mem>1", "", 0);
	ck_assert_int_eq(try_parse(s), -1);
	free(s);
}
END_TEST

static void
merge_job_list(struct resreq *out, const char *const *texts, size_t n,
    const char *unit, int want)
{
	struct strv sv = STRV_INIT;
	char *cause = NULL;

	for (size_t i = 0; i < n; i++)
		strv_push(&sv, texts[i]);
	ck_assert_int_eq(resreq_merge_job(out, &sv, unit, &cause), want);
	if (want == 0)
		ck_assert_ptr_null(cause);
	else
		ck_assert_ptr_nonnull(cause);
	free(cause);
	strv_release(&sv);
}

START_TEST(test_merge_job)
{
	static const char *nextflow[] = {
		"span[hosts=1]",
		"select[mem>=8192MB] rusage[mem=8192MB]",
		"select[tmp>=100MB] rusage[tmp=100MB]",
	};
	static const char *snake[] = { "rusage[mem=1000.0]", "span[hosts=1]" };
	static const char *spans[] = { "span[hosts=1]", "span[ptile=2]" };
	static const char *bools[] = { "bigmem", "mem>100 || swp>100",
	    "select[linux && ncpus>1]" };
	static const char *orders[] = { "order[-mem] same[type]",
	    "order[ut] same[model]", "rusage[swp=1]" };
	static const char *bad[] = { "span[hosts=1]", "bad[x]" };
	static const char *twice[] = { "rusage[mem=100:duration=5]",
	    "rusage[swp=1]", "rusage[mem=200]" };
	struct resreq rr;
	char *cause, *s;

	merge_job_list(&rr, nextflow, ARRAY_SIZE(nextflow), NULL, 0);
	s = resreq_to_string(&rr);
	/* LSF merges the rusage of several -R: both are reserved. */
	ck_assert_str_eq(s, "select[mem >= 8192.00 && tmp >= 100.00] "
	    "order[r15s:pg] rusage[mem=8192.00,tmp=100.00] span[hosts=1] ");
	free(s);
	ck_assert_str_eq(rr.text, "span[hosts=1] select[mem>=8192MB] "
	    "rusage[mem=8192MB] select[tmp>=100MB] rusage[tmp=100MB]");
	ck_assert(resreq_select(&rr, &host_a));
	ck_assert(!resreq_select(&rr, &host_b));
	resreq_release(&rr);

	merge_job_list(&rr, snake, ARRAY_SIZE(snake), "KB", 0);
	s = resreq_to_string(&rr);
	ck_assert_str_eq(s, "select[type == local] order[r15s:pg] "
	    "rusage[mem=1000.00] span[hosts=1] ");
	free(s);
	resreq_release(&rr);

	merge_job_list(&rr, spans, ARRAY_SIZE(spans), NULL, 0);
	ck_assert_int_eq(rr.span_hosts, -1);
	ck_assert_int_eq(rr.span_ptile, 2);
	resreq_release(&rr);

	merge_job_list(&rr, bools, ARRAY_SIZE(bools), NULL, 0);
	s = resreq_to_string(&rr);
	ck_assert_str_eq(s, "select[bigmem && (mem > 100.00 || swp > 100.00) "
	    "&& linux && ncpus > 1.00] order[r15s:pg] ");
	free(s);
	ck_assert(resreq_select(&rr, &host_a));
	ck_assert(!resreq_select(&rr, &host_b));
	resreq_release(&rr);

	merge_job_list(&rr, orders, ARRAY_SIZE(orders), NULL, 0);
	s = resreq_to_string(&rr);
	ck_assert_str_eq(s, "select[type == local] order[ut] "
	    "rusage[swp=1.00] same[model] ");
	free(s);
	resreq_release(&rr);

	merge_job_list(&rr, twice, ARRAY_SIZE(twice), NULL, 0);
	s = resreq_to_string(&rr);
	ck_assert_str_eq(s, "select[type == local] order[r15s:pg] "
	    "rusage[mem=200.00,swp=1.00] ");
	free(s);
	resreq_release(&rr);

	merge_job_list(&rr, bad, ARRAY_SIZE(bad), NULL, -1);
	ck_assert_ptr_null(rr.text);
	ck_assert_int_eq(rr.span_hosts, -1);

	merge_job_list(&rr, NULL, 0, NULL, 0);
	ck_assert_str_eq(rr.text, "");
	ck_assert_ptr_null(rr.select);
	resreq_release(&rr);
	ck_assert_int_eq(resreq_merge_job(&rr, NULL, NULL, &cause), 0);
	ck_assert_str_eq(rr.text, "");
	resreq_release(&rr);

	/* One string merges to what parsing it gives. */
	merge_job_list(&rr, &nextflow[1], 1, NULL, 0);
	s = resreq_to_string(&rr);
	ck_assert_str_eq(s, "select[mem >= 8192.00] order[r15s:pg] "
	    "rusage[mem=8192.00] ");
	free(s);
	resreq_release(&rr);
}
END_TEST

static char *
merged(const char *qtext, const char *jtext, int want)
{
	struct resreq q, j, out;
	char *cause = NULL, *s = NULL;

	if (qtext)
		parse_ok(&q, qtext, NULL);
	if (jtext)
		parse_ok(&j, jtext, NULL);
	ck_assert_int_eq(resreq_merge_queue(&out, qtext ? &q : NULL,
	    jtext ? &j : NULL, &cause), want);
	if (want == 0) {
		ck_assert_ptr_null(cause);
		s = resreq_to_string(&out);
		resreq_release(&out);
	} else {
		ck_assert_ptr_nonnull(cause);
		ck_assert_ptr_null(out.select);
		ck_assert_int_eq(out.nrusage, 0);
		s = cause;
	}
	if (qtext)
		resreq_release(&q);
	if (jtext)
		resreq_release(&j);
	return s;
}

static void
expect_merged(const char *qtext, const char *jtext, const char *want)
{
	char *s = merged(qtext, jtext, 0);

	ck_assert_str_eq(s, want);
	free(s);
}

START_TEST(test_merge_queue)
{
	const char *q = "select[type==X86_64] order[-mem] "
	    "rusage[mem=1000:duration=10, swp=50] span[ptile=4] same[model]";
	char *s;

	/* Job rusage within the queue's: job value, queue-only added. */
	expect_merged(q, "rusage[mem=500]",
	    "select[type == X86_64] order[r15s:pg] "
	    "rusage[mem=500.00,swp=50.00] span[ptile=4] same[model] ");
	expect_merged(q, "rusage[mem=1000:decay=1]",
	    "select[type == X86_64] order[r15s:pg] "
	    "rusage[mem=1000.00:decay=1,swp=50.00] span[ptile=4] "
	    "same[model] ");
	/* More than the queue allows: rejected, with the reason. */
	s = merged(q, "rusage[mem=2000]", -1);
	ck_assert_ptr_nonnull(strstr(s, "exceeds"));
	ck_assert_ptr_nonnull(strstr(s, "mem=2000.00"));
	ck_assert_ptr_nonnull(strstr(s, "mem=1000.00"));
	free(s);
	s = merged(q, "rusage[lic=1, swp=50.5]", -1);
	ck_assert_ptr_nonnull(strstr(s, "swp"));
	free(s);
	/* Resources the queue does not name are the job's business. */
	expect_merged(q, "rusage[lic=3]",
	    "select[type == X86_64] order[r15s:pg] "
	    "rusage[lic=3.00,mem=1000.00:duration=10,swp=50.00] "
	    "span[ptile=4] same[model] ");
	/* select AND-ed, job span wins, queue order ignored. */
	expect_merged(q, "select[bigmem || linux] span[hosts=1] same[type]",
	    "select[type == X86_64 && (bigmem || linux)] order[r15s:pg] "
	    "rusage[mem=1000.00:duration=10,swp=50.00] span[hosts=1] "
	    "same[type] ");
	expect_merged(q, "order[ut]",
	    "select[type == X86_64] order[ut] "
	    "rusage[mem=1000.00:duration=10,swp=50.00] span[ptile=4] "
	    "same[model] ");
	/* A job with no requirement at all keeps the queue's order. */
	expect_merged(q, "",
	    "select[type == X86_64] order[-mem] "
	    "rusage[mem=1000.00:duration=10,swp=50.00] span[ptile=4] "
	    "same[model] ");
	expect_merged(q, NULL,
	    "select[type == X86_64] order[-mem] "
	    "rusage[mem=1000.00:duration=10,swp=50.00] span[ptile=4] "
	    "same[model] ");
	expect_merged(NULL, "select[bigmem] rusage[mem=5]",
	    "select[bigmem] order[r15s:pg] rusage[mem=5.00] ");
	expect_merged(NULL, NULL, "select[type == local] order[r15s:pg] ");
	expect_merged("mem>1 || swp>1", "r1m=1:ut=0.5",
	    "select[(mem > 1.00 || swp > 1.00) && r1m <= 1.00 && "
	    "ut <= 0.50] order[r15s:pg] ");

	/* text: the job's, else the queue's. */
	{
		struct resreq qr, jr, out;
		char *cause;

		parse_ok(&qr, "order[pg]", NULL);
		parse_ok(&jr, "span[hosts=1]", NULL);
		ck_assert_int_eq(resreq_merge_queue(&out, &qr, &jr, &cause),
		    0);
		ck_assert_str_eq(out.text, "span[hosts=1]");
		resreq_release(&out);
		ck_assert_int_eq(resreq_merge_queue(&out, &qr, NULL, &cause),
		    0);
		ck_assert_str_eq(out.text, "order[pg]");
		resreq_release(&out);
		resreq_release(&qr);
		resreq_release(&jr);
	}
}
END_TEST

static int
order_cmp(const char *text, const struct rr_host *a, const struct rr_host *b)
{
	struct resreq rr;
	int c;

	parse_ok(&rr, text, NULL);
	c = resreq_order_cmp(&rr, a, b);
	resreq_release(&rr);
	ck_assert_int_ge(c, -1);
	ck_assert_int_le(c, 1);
	return c;
}

/*
 * The order is a true ordering even where loads nearly tie (the old
 * "within 0.1%" rule was not transitive), so a list sorted once can be
 * reused: antisymmetric and transitive over loads that crowd together.
 */
START_TEST(test_order_is_an_order)
{
	enum { N = 40 };
	static const char *const orders[] = { "", "order[r15s:pg]",
	    "order[-mem:ut]", "order[maxmem:r1m]" };
	float loads[N][NLOADIDX];
	char names[N][8];
	struct rr_host h[N];
	struct resreq rr;
	unsigned seed = 7;

	for (int i = 0; i < N; i++) {
		memcpy(loads[i], load_a, sizeof(loads[i]));
		/* Around 1.0, steps of 0.04%: many pairs within 0.1%. */
		seed = seed * 1103515245 + 12345;
		loads[i][LI_R15S] = 1.0f + 0.0004f * (float)(seed >> 16 & 15);
		loads[i][LI_PG] = (float)(seed >> 20 & 3);
		loads[i][LI_MEM] = 1000.0f + 0.5f * (float)(seed >> 22 & 7);
		loads[i][LI_UT] = 0.5f + 0.0003f * (float)(seed >> 25 & 7);
		loads[i][LI_R1M] = 2.0f;
		snprintf(names[i], sizeof(names[i]), "h%02d", i);
		h[i] = host_a;
		h[i].name = names[i];
		h[i].load = loads[i];
	}
	for (size_t o = 0; o < ARRAY_SIZE(orders); o++) {
		parse_ok(&rr, orders[o], NULL);
		for (int a = 0; a < N; a++)
			for (int b = 0; b < N; b++) {
				int ab = resreq_order_cmp(&rr, &h[a], &h[b]);

				ck_assert_int_eq(ab, -resreq_order_cmp(&rr,
				    &h[b], &h[a]));
				ck_assert_int_eq(ab == 0, a == b);
				for (int c = 0; c < N; c++)
					if (ab < 0 && resreq_order_cmp(&rr,
					    &h[b], &h[c]) < 0)
						ck_assert_int_lt(
						    resreq_order_cmp(&rr,
						    &h[a], &h[c]), 0);
			}
		resreq_release(&rr);
	}
}
END_TEST

/* Two jobs' requirements parsed apart compare by content. */
START_TEST(test_equal)
{
	static const char *const texts[] = {
		"", "select[mem>100]", "select[mem>100 && type==X86_64]",
		"select[mem>200]", "select[mem>100] order[-ut]",
		"select[mem>100] rusage[mem=100]",
		"select[mem>100] rusage[mem=100:duration=5]",
		"select[mem>100] rusage[mem=100:decay=1]",
		"select[mem>100] span[hosts=1]", "span[ptile=2]",
		"same[type]", "select[defined(bigmem)]", "select[!bigmem]",
	};
	struct resreq a, b;

	ck_assert(resreq_equal(NULL, NULL));
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		parse_ok(&a, texts[i], NULL);
		ck_assert(!resreq_equal(&a, NULL));
		for (size_t k = 0; k < ARRAY_SIZE(texts); k++) {
			parse_ok(&b, texts[k], NULL);
			ck_assert_msg(resreq_equal(&a, &b) == (i == k),
			    "\"%s\" vs \"%s\"", texts[i], texts[k]);
			resreq_release(&b);
		}
		resreq_release(&a);
	}
	/* The same request written another way is the same. */
	parse_ok(&a, "select[mem>100]", NULL);
	parse_ok(&b, "mem>100", NULL);
	ck_assert(resreq_equal(&a, &b));
	resreq_release(&a);
	resreq_release(&b);
}
END_TEST

START_TEST(test_order)
{
	float l1[NLOADIDX], l2[NLOADIDX];
	struct rr_host h1 = host_a, h2 = host_a;
	struct resreq rr;

	/* Default r15s:pg; increasing indices: smaller first. */
	ck_assert_int_lt(order_cmp("", &host_a, &host_b), 0);
	ck_assert_int_gt(order_cmp("", &host_b, &host_a), 0);
	ck_assert_int_lt(resreq_order_cmp(NULL, &host_a, &host_b), 0);
	ck_assert_int_eq(order_cmp("", &host_a, &host_a), 0);
	ck_assert_int_lt(order_cmp("order[ut]", &host_a, &host_b), 0);
	ck_assert_int_gt(order_cmp("order[-ut]", &host_a, &host_b), 0);
	/* Decreasing indices and statics: bigger first. */
	ck_assert_int_lt(order_cmp("order[mem]", &host_a, &host_b), 0);
	ck_assert_int_gt(order_cmp("order[-mem]", &host_a, &host_b), 0);
	ck_assert_int_lt(order_cmp("order[it]", &host_a, &host_b), 0);
	ck_assert_int_lt(order_cmp("order[ncpus]", &host_a, &host_b), 0);
	ck_assert_int_gt(order_cmp("order[-ncpus]", &host_a, &host_b), 0);
	ck_assert_int_lt(order_cmp("order[cpuf]", &host_a, &host_b), 0);
	ck_assert_int_lt(order_cmp("order[maxmem:r15s]", &host_a, &host_b),
	    0);
	/* Leftmost key decides. */
	ck_assert_int_gt(order_cmp("order[-mem:r15s]", &host_a, &host_b), 0);
	ck_assert_int_lt(order_cmp("order[r15s:-mem]", &host_a, &host_b), 0);
	/* Hosts without load go last, whatever the direction. */
	ck_assert_int_lt(order_cmp("order[r15s]", &host_a, &host_c), 0);
	ck_assert_int_gt(order_cmp("order[r15s]", &host_c, &host_a), 0);
	ck_assert_int_lt(order_cmp("order[-r15s]", &host_a, &host_c), 0);
	ck_assert_int_lt(order_cmp("order[mem]", &host_a, &host_c), 0);

	/* Within 0.1% is a tie: the next key decides, then the name. */
	memcpy(l1, load_a, sizeof(l1));
	memcpy(l2, load_a, sizeof(l2));
	h1.load = l1;
	h2.load = l2;
	h1.name = "hostZ";
	h2.name = "hostY";
	l1[LI_R15S] = 1.0f;
	l2[LI_R15S] = 1.0005f;
	l1[LI_PG] = 5;
	l2[LI_PG] = 2;
	ck_assert_int_gt(order_cmp("order[r15s:pg]", &h1, &h2), 0);
	ck_assert_int_gt(order_cmp("", &h1, &h2), 0);
	l2[LI_R15S] = 1.01f;
	ck_assert_int_lt(order_cmp("order[r15s:pg]", &h1, &h2), 0);
	l2[LI_R15S] = 1.0f;
	l2[LI_PG] = 5;
	ck_assert_int_gt(order_cmp("order[r15s:pg]", &h1, &h2), 0);
	ck_assert_int_lt(order_cmp("order[r15s:pg]", &h2, &h1), 0);
	ck_assert_int_eq(order_cmp("order[r15s:pg]", &h1, &h1), 0);
	l1[LI_MEM] = 0;
	l2[LI_MEM] = 0;
	ck_assert_int_gt(order_cmp("order[mem]", &h1, &h2), 0);

	/* Keys are stored under their canonical names. */
	parse_ok(&rr, "order[ R15S : -MEM : NCPUS ]", NULL);
	ck_assert_int_eq(rr.norder, 3);
	ck_assert_str_eq(rr.order[0].name, "r15s");
	ck_assert(!rr.order[0].reverse);
	ck_assert_str_eq(rr.order[1].name, "mem");
	ck_assert(rr.order[1].reverse);
	ck_assert_str_eq(rr.order[2].name, "ncpus");
	resreq_release(&rr);
}
END_TEST

static const struct {
	const char	*in;
	const char	*out;
} show_cases[] = {
	{ "", "select[type == local] order[r15s:pg] " },
	{ "select[type==local]", "select[type == local] order[r15s:pg] " },
	{ "select[mem>=8192MB] rusage[mem=8192MB]",
	  "select[mem >= 8192.00] order[r15s:pg] rusage[mem=8192.00] " },
	{ "rusage[mem=1000.0]",
	  "select[type == local] order[r15s:pg] rusage[mem=1000.00] " },
	{ "span[hosts=1]", "select[type == local] order[r15s:pg] "
	  "span[hosts=1] " },
	{ "span[ ptile = 2 ]", "select[type == local] order[r15s:pg] "
	  "span[ptile=2] " },
	{ "order[r15s:-mem] same[type] select[!bigmem]",
	  "select[!bigmem] order[r15s:-mem] same[type] " },
	{ "rusage[mem=100:swp=50:duration=10:decay=1]",
	  "select[type == local] order[r15s:pg] rusage[mem=100.00:"
	  "duration=10:decay=1,swp=50.00:duration=10:decay=1] " },
	{ "rusage[mem=100:duration=2h:decay=0, lic=1.5]",
	  "select[type == local] order[r15s:pg] rusage[mem=100.00:"
	  "duration=120,lic=1.50] " },
	{ "rusage[mem=1.5GB, tmp=0.001]",
	  "select[type == local] order[r15s:pg] rusage[mem=1536.00,"
	  "tmp=0.001] " },
	{ "(a||b)&&c", "select[(a || b) && c] order[r15s:pg] " },
	{ "a||b&&c", "select[a || b && c] order[r15s:pg] " },
	{ "a&&(b&&c)", "select[a && (b && c)] order[r15s:pg] " },
	{ "!(mem>1)", "select[!(mem > 1.00)] order[r15s:pg] " },
	{ "!!x", "select[!!x] order[r15s:pg] " },
	{ "!-x", "select[!-x] order[r15s:pg] " },
	{ "1-(2-3)", "select[1.00 - (2.00 - 3.00)] order[r15s:pg] " },
	{ "(1-2)-3>0", "select[1.00 - 2.00 - 3.00 > 0.00] order[r15s:pg] " },
	{ "2*(mem+1)>=3", "select[2.00 * (mem + 1.00) >= 3.00] "
	  "order[r15s:pg] " },
	{ "(mem>1)==(swp>1)", "select[(mem > 1.00) == (swp > 1.00)] "
	  "order[r15s:pg] " },
	{ "hname==node-01.example.com", "select[hname == node-01.example.com] "
	  "order[r15s:pg] " },
	{ "type==\"a b\"", "select[type == 'a b'] order[r15s:pg] " },
	{ "type==\"a'b\"", "select[type == \"a'b\"] order[r15s:pg] " },
	{ "select[model=='x]y']", "select[model == 'x]y'] order[r15s:pg] " },
	{ "defined(bigmem)", "select[defined(bigmem)] order[r15s:pg] " },
	{ "--mem<0", "select[--mem < 0.00] order[r15s:pg] " },
	{ "mem>1e6", "select[mem > 1000000.00] order[r15s:pg] " },
	{ "mem>1e300", "select[mem > 1e+300] order[r15s:pg] " },
	{ "mem>1e-5", "select[mem > 1e-05] order[r15s:pg] " },
	{ "mem>0.125", "select[mem > 0.125] order[r15s:pg] " },
	{ "mem>.5", "select[mem > 0.50] order[r15s:pg] " },
	{ "SELECT[mem>1] ORDER[PG] RUSAGE[MEM=1]",
	  "select[mem > 1.00] order[pg] rusage[mem=1.00] " },
	{ "select[mem>4000] rusage[mem=4000] span[hosts=1]",
	  "select[mem > 4000.00] order[r15s:pg] rusage[mem=4000.00] "
	  "span[hosts=1] " },
	{ "same[type,model]", "select[type == local] order[r15s:pg] "
	  "same[type,model] " },
};

START_TEST(test_to_string)
{
	char *s, *again;

	s = show(show_cases[_i].in, "MB");
	ck_assert_str_eq(s, show_cases[_i].out);
	/* The display form reads back to itself. */
	again = show(s, NULL);
	ck_assert_str_eq(again, s);
	free(again);
	free(s);
}
END_TEST

START_TEST(test_to_string_null)
{
	char *s = resreq_to_string(NULL);

	ck_assert_str_eq(s, "select[type == local] order[r15s:pg] ");
	free(s);
}
END_TEST

START_TEST(test_copy)
{
	struct resreq rr, cp;
	char *a, *b;

	parse_ok(&rr, "select[(bigmem || mem>8G) && hname!=hostB] "
	    "order[-ut:mem] rusage[mem=10:duration=5,lic=1] span[ptile=3] "
	    "same[type]", NULL);
	a = resreq_to_string(&rr);
	resreq_copy(&cp, &rr);
	resreq_release(&rr);
	b = resreq_to_string(&cp);
	ck_assert_str_eq(a, b);
	ck_assert_str_eq(cp.text, "select[(bigmem || mem>8G) && hname!=hostB] "
	    "order[-ut:mem] rusage[mem=10:duration=5,lic=1] span[ptile=3] "
	    "same[type]");
	ck_assert(resreq_select(&cp, &host_a));
	ck_assert(!resreq_select(&cp, &host_b));
	ck_assert_int_eq(cp.rusage[0].duration, 5);
	ck_assert_int_eq(cp.span_ptile, 3);
	resreq_release(&cp);
	free(a);
	free(b);

	resreq_copy(&cp, NULL);
	ck_assert_ptr_null(cp.text);
	ck_assert_int_eq(cp.span_hosts, -1);
	resreq_release(&cp);
}
END_TEST

/* Pseudo-random mutations of good and bad strings: nothing may crash or
 * leak (run under ASan), and whatever parses must print and read back. */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static char *
mutate(const char *seed, const char *other)
{
	static const char alpha[] =
	    " \t[]()|&!<>=:,'\"-+*/.0123456789eEabmKGMTBselctoruagpnhdyf_";
	static const char *const words[] = {
		"select[", "]", "rusage[", "&&", "||", "mem", "defined(",
		"type==", "span[hosts=1]", "order[", ":duration=", "1e308",
		"GB", "!", "(", ")", "'", "hname==", "same[", "ptile=",
		":decay=1", ",", "-", "0", "r15s", "==", "1e-300",
	};
	struct strbuf sb = STRBUF_INIT;
	size_t n, at, len;

	sb_adds(&sb, seed);
	for (int k = 1 + (int)rnd(4); k > 0; k--) {
		n = sb.len;
		at = n ? rnd((unsigned)n + 1) : 0;
		switch (rnd(6)) {
		case 0:		/* insert a character */
			sb_addc(&sb, 0);
			memmove(sb.buf + at + 1, sb.buf + at, n - at);
			sb.buf[at] = alpha[rnd(sizeof(alpha) - 1)];
			break;
		case 1:		/* delete a run */
			if (at < n) {
				len = 1 + rnd((unsigned)(n - at));
				if (len > 4)
					len = 4;
				memmove(sb.buf + at, sb.buf + at + len,
				    n - at - len + 1);
				sb.len -= len;
			}
			break;
		case 2:		/* replace a character */
			if (at < n)
				sb.buf[at] = alpha[rnd(sizeof(alpha) - 1)];
			break;
		case 3: {	/* insert a token */
			const char *w = words[rnd(ARRAY_SIZE(words))];
			char *tail = xstrdup(sb.buf + at);

			sb.len = at;
			sb_adds(&sb, w);
			sb_adds(&sb, tail);
			free(tail);
			break;
		}
		case 4:		/* splice with another string */
			sb.len = at;
			sb.buf[at] = '\0';
			sb_adds(&sb, other + rnd((unsigned)strlen(other) + 1));
			break;
		default: {	/* duplicate a run */
			char *run;

			len = at < n ? 1 + rnd((unsigned)(n - at)) : 0;
			run = xstrndup(sb.buf + at, len);
			sb_adds(&sb, run);
			free(run);
			break;
		}
		}
	}
	return sb_detach(&sb);
}

START_TEST(test_fuzz)
{
	static const char *units[] = { NULL, "KB", "MB", "GB" };
	struct strv seeds = STRV_INIT;
	struct resreq q, prev, rr, cp, m;
	char *cause, *text, *s, *s2;
	int nok = 0;

	for (size_t i = 0; i < ARRAY_SIZE(sel_cases); i++)
		strv_push(&seeds, sel_cases[i].expr);
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++)
		strv_push(&seeds, bad_cases[i]);
	for (size_t i = 0; i < ARRAY_SIZE(show_cases); i++) {
		strv_push(&seeds, show_cases[i].in);
		strv_push(&seeds, show_cases[i].out);
	}
	strv_push(&seeds, "r1m=0.5:swp=20:type=ALPHA");
	strv_push(&seeds, "select[mem>=8192MB] rusage[mem=8192MB] "
	    "span[hosts=1] order[-mem:r15s] same[type]");

	parse_ok(&q, "select[type==X86_64] rusage[mem=1000,swp=10] "
	    "order[ut]", NULL);
	parse_ok(&prev, "rusage[mem=1]", NULL);
	for (int iter = 0; iter < 20000; iter++) {
		const char *unit = units[rnd(ARRAY_SIZE(units))];

		text = mutate(seeds.v[rnd((unsigned)seeds.n)],
		    seeds.v[rnd((unsigned)seeds.n)]);
		cause = NULL;
		if (resreq_parse(&rr, text, unit, &cause) == -1) {
			ck_assert_ptr_nonnull(cause);
			free(cause);
			free(text);
			continue;
		}
		nok++;
		ck_assert_ptr_null(cause);
		s = resreq_to_string(&rr);
		(void)resreq_select(&rr, &host_a);
		(void)resreq_select(&rr, &host_b);
		(void)resreq_select(&rr, &host_c);
		(void)resreq_order_cmp(&rr, &host_a, &host_b);
		(void)resreq_order_cmp(&rr, &host_c, &host_a);

		/* The display form (in MB) reads back to itself. */
		if (unit == NULL || unit[0] != 'G') {
			if (resreq_parse(&cp, s, NULL, &cause) != 0)
				ck_abort_msg("\"%s\" -> \"%s\": %s", text, s,
				    cause);
			s2 = resreq_to_string(&cp);
			ck_assert_msg(strcmp(s, s2) == 0, "\"%s\" -> \"%s\" "
			    "-> \"%s\"", text, s, s2);
			free(s2);
			resreq_release(&cp);
		}

		resreq_copy(&cp, &rr);
		s2 = resreq_to_string(&cp);
		ck_assert_str_eq(s, s2);
		free(s2);
		resreq_release(&cp);

		if (resreq_merge_queue(&m, &q, &rr, &cause) == 0) {
			s2 = resreq_to_string(&m);
			(void)resreq_select(&m, &host_a);
			free(s2);
			resreq_release(&m);
		} else
			free(cause);
		{
			struct strv two = STRV_INIT;

			strv_push(&two, prev.text);
			strv_push(&two, text);
			ck_assert_int_eq(resreq_merge_job(&m, &two, NULL,
			    &cause), 0);
			s2 = resreq_to_string(&m);
			free(s2);
			resreq_release(&m);
			strv_release(&two);
		}
		resreq_release(&prev);
		prev = rr;
		free(s);
		free(text);
	}
	/* The mutations must leave enough valid strings to mean something. */
	ck_assert_int_gt(nok, 2000);
	resreq_release(&prev);
	resreq_release(&q);
	strv_release(&seeds);
}
END_TEST

static Suite *
resreq_suite(void)
{
	Suite *s = suite_create("resreq");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_clients);
	tcase_add_test(tc, test_units);
	tcase_add_loop_test(tc, test_select, 0, (int)ARRAY_SIZE(sel_cases));
	tcase_add_test(tc, test_select_misc);
	tcase_add_test(tc, test_select_ext);
	tcase_add_test(tc, test_oldform);
	tcase_add_loop_test(tc, test_errors, 0, (int)ARRAY_SIZE(bad_cases));
	tcase_add_test(tc, test_error_messages);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_merge_job);
	tcase_add_test(tc, test_merge_queue);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_order_is_an_order);
	tcase_add_test(tc, test_equal);
	tcase_add_loop_test(tc, test_to_string, 0,
	    (int)ARRAY_SIZE(show_cases));
	tcase_add_test(tc, test_to_string_null);
	tcase_add_test(tc, test_copy);
	tcase_add_test(tc, test_fuzz);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(resreq_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
