/*
 * The option parser (src/cmdopt.c): whole words first, values attached
 * or separate, bundles of flags, and LSF's options this version does not
 * do refused by name rather than split into shorter ones.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdopt.h"
#include "util.h"

enum { A = 1, W, U, O, OO, NOHDR, S, SUM, JSON, JD, J, ON };

/* A bjobs-like table: real options, then LSF's others. */
static const struct cmdopt tab[] = {
	{ "a", false, A }, { "w", false, W }, { "u", true, U },
	{ "o", true, O }, { "oo", true, OO }, { "noheader", false, NOHDR },
	{ "s", false, S }, { "J", true, J }, { "on", false, ON },
	/* A real entry before an unsupported one of the same name wins. */
	{ "json", false, JSON },
	CMDOPT_UNSUP("sum", false), CMDOPT_UNSUP("psum", false),
	CMDOPT_UNSUP("outdir", true), CMDOPT_UNSUP("Jd", true),
	CMDOPT_UNSUP("json", false), CMDOPT_UNSUP("x", false),
	{ NULL, false, 0 }
};

/*
 * Parse a command line (words separated by '|') and describe what came
 * out: "id=value" per option, "!bad" for an unknown one, "?-name" for
 * an unsupported one (which ends the parse), then "+operand"s.
 */
static char *
run(const char *line, bool permute)
{
	struct strv argv = STRV_INIT;
	struct strbuf out = STRBUF_INIT;
	struct cmdopt_state st;
	char *copy = xstrdup(line), *p = copy, *w;
	const char *v;
	char **rest;
	int id, n;

	strv_push(&argv, "cmd");
	while ((w = strsep(&p, "|")) != NULL)
		if (*w)
			strv_push(&argv, w);
	cmdopt_init(&st, (int)argv.n, argv.v, permute);
	st.quiet = true;
	while ((id = cmdopt_next(&st, tab, &v)) != 0) {
		if (id == CMDOPT_UNSUPPORTED) {
			sb_addf(&out, "?%s ", cmdopt_unsupported_name(&st));
			break;
		}
		if (id < 0) {
			sb_addf(&out, "!%s ", st.bad ? st.bad : "");
			break;
		}
		sb_addf(&out, "%d", id);
		if (v)
			sb_addf(&out, "=%s", v);
		sb_addc(&out, ' ');
	}
	if (id >= 0) {
		rest = cmdopt_rest(&st, &n);
		for (int i = 0; i < n; i++)
			sb_addf(&out, "+%s ", rest[i]);
	}
	sb_add(&out, "", 0);
	cmdopt_release(&st);
	strv_release(&argv);
	free(copy);
	return sb_detach(&out);
}

static const struct {
	const char	*line;
	bool		 permute;
	const char	*want;
} cases[] = {
	/* Whole words, values separate and attached. */
	{ "-noheader|-u|all", true, "6 3=all " },
	{ "-uall|-oo|f|-ofile", true, "3=all 5=f 4=file " },
	{ "-oofile", true, "5=file " },
	/* A value attached to the longest option taking one, even where a
	 * longer flag starts the word (bmod -onew.out: -o new.out). */
	{ "-onew.out", true, "4=new.out " },
	{ "-on", true, "12 " },
	{ "-o jobid stat", true, "4=jobid stat " },
	/* Bundles of single-letter flags, the last may take a value. */
	{ "-aw|12", true, "1 2 +12 " },
	{ "-awu|bob", true, "1 2 3=bob " },
	{ "-as", true, "1 7 " },
	/* LSF's options this version does not do: refused by name. */
	{ "-sum", true, "?-sum " },
	{ "-psum", true, "?-psum " },
	{ "-outdir|/tmp", false, "?-outdir " },
	{ "-outdir", false, "?-outdir " },
	{ "-outdir/tmp", false, "?-outdir " },
	{ "-Jdtext", true, "?-Jd " },
	{ "-Jname", true, "11=name " },
	{ "-ax", true, "1 ?-x " },
	/* A real entry first wins over the unsupported one. */
	{ "-json", true, "9 " },
	/* A longer flag at the start of a word is never split off. */
	{ "-sumx", true, "!-sumx " },
	{ "-noheaderx", true, "!-noheaderx " },
	/* Unknown words and letters. */
	{ "-zz", true, "!-zz " },
	{ "-az", true, "1 !z " },
	{ "-u", true, "!-u " },
	/* Operands: collected when permuting, else the end. */
	{ "12|-w|13", true, "2 +12 +13 " },
	{ "cmd|-w", false, "+cmd +-w " },
	{ "-a|--|-w", true, "1 +-w " },
};

START_TEST(test_cases)
{
	char *got = run(cases[_i].line, cases[_i].permute);

	ck_assert_msg(strcmp(got, cases[_i].want) == 0,
	    "%s: got \"%s\", want \"%s\"", cases[_i].line, got,
	    cases[_i].want);
	free(got);
}
END_TEST

static Suite *
cmdopt_suite(void)
{
	Suite *s = suite_create("cmdopt");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_cases, 0, (int)ARRAY_SIZE(cases));
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(cmdopt_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
