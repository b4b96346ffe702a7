/*
 * bsub's options (src/bsub-opts.c): values and their errors, the #BSUB
 * lines of a script and their shell-like words, and the command line
 * laid over the script.  The scenario tests t0002 and t0019 drive the
 * same code through bsub itself.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bsub-opts.h"
#include "jobpath.h"


static const char *
unit_mb(void)
{
	return "MB";
}

/* Parse the words of a NULL-terminated list as bsub's command line. */
static int
parse(struct bsub_opts *g, const char *const *words, char **cause)
{
	struct strv v = STRV_INIT;
	struct cmdopt_state st;
	int rc;

	strv_push(&v, "bsub");
	for (; *words != NULL; words++)
		strv_push(&v, *words);
	*cause = NULL;
	rc = bsub_opts_parse(g, (int)v.n, v.v, unit_mb, &st, cause);
	cmdopt_release(&st);
	strv_release(&v);
	return rc;
}

START_TEST(test_values)
{
	const char *const w[] = { "-n", "2,4", "-M", "2G!", "-W", "1:30",
	    "-C", "1", "-p", "7", "-sp", "9", "-oo", "out", "-x", "-q",
	    "short", "true", NULL };
	struct bsub_opts g;
	char *cause;

	bsub_opts_init(&g);
	ck_assert_int_eq(parse(&g, w, &cause), BSUB_OPTS_OK);
	ck_assert_int_eq(g.nmin, 2);
	ck_assert_int_eq(g.nmax, 4);
	ck_assert_int_eq(g.memlimit, 2 * 1024 * 1024);
	ck_assert_int_eq(g.runlimit, 90 * 60);
	ck_assert_int_eq(g.rlim[LSF_RLIMIT_CORE], 1024);
	ck_assert_int_eq(g.rlim[LSF_RLIMIT_PROCESS], 7);
	ck_assert_int_eq(g.sprio, 9);
	ck_assert_str_eq(g.out, "out");
	ck_assert(g.out_over);
	ck_assert(g.exclusive);
	ck_assert_str_eq(g.queue, "short");
	bsub_opts_release(&g);
}
END_TEST

static const struct {
	const char	*opt;
	const char	*val;
	int		 rc;
	const char	*cause;
} bad_cases[] = {
	{ "-n", "0", BSUB_OPTS_BAD_VALUE, "0: Bad argument" },
	{ "-n", "4,2", BSUB_OPTS_BAD_VALUE, "4,2: Bad argument" },
	{ "-n", "2,", BSUB_OPTS_BAD_VALUE, "2,: Bad argument" },
	/* Beyond 32 bits: once cut to 1, now refused. */
	{ "-n", "4294967297", BSUB_OPTS_BAD_VALUE,
	    "4294967297: Bad argument" },
	{ "-n", "1,4294967297", BSUB_OPTS_BAD_VALUE,
	    "1,4294967297: Bad argument" },
	{ "-M", "lots", BSUB_OPTS_BAD_VALUE, "lots: Bad argument" },
	{ "-W", "0", BSUB_OPTS_BAD_VALUE, "0: Bad time specification" },
	{ "-sp", "2147483648", BSUB_OPTS_BAD_VALUE,
	    "2147483648: Bad argument" },
	{ "-k", "", BSUB_OPTS_BAD_VALUE, "-k: no checkpoint directory" },
	{ "-k", "/c 0", BSUB_OPTS_BAD_VALUE, "-k: 0: the checkpoint period "
	    "must be a positive number of minutes" },
	{ "-k", "/c 5 6", BSUB_OPTS_BAD_VALUE, "-k: 6: the checkpoint period "
	    "must be a positive number of minutes" },
	{ "-k", "/c 5x", BSUB_OPTS_BAD_VALUE, "-k: 5x: the checkpoint period "
	    "must be a positive number of minutes" },
	{ "-k", "/c init=5", BSUB_OPTS_BAD_VALUE, "-k: init=5: an initial "
	    "checkpoint period is not supported" },
	{ "-k", "/c method=", BSUB_OPTS_BAD_VALUE,
	    "-k: method=: bad checkpoint method" },
	{ "-k", "/c method=a method=b", BSUB_OPTS_BAD_VALUE,
	    "-k: method=b: bad checkpoint method" },
	{ "-k", "/c method=../x", BSUB_OPTS_BAD_VALUE,
	    "-k: method=../x: bad checkpoint method" },
	{ "-zz", NULL, BSUB_OPTS_BAD_OPTION, "-zz" },
	{ "-q", NULL, BSUB_OPTS_BAD_OPTION, "-q" },
	{ "-sla", "x", BSUB_OPTS_UNSUPPORTED, "-sla" },
	/* Refused by name, never split into shorter options (issue 19). */
	{ "-jsdl", "/tmp", BSUB_OPTS_UNSUPPORTED, "-jsdl" },
	{ "-ti", NULL, BSUB_OPTS_UNSUPPORTED, "-ti" },
	{ "-tty", NULL, BSUB_OPTS_UNSUPPORTED, "-tty" },
	{ "-hl", NULL, BSUB_OPTS_UNSUPPORTED, "-hl" },
	{ "-Is", NULL, BSUB_OPTS_UNSUPPORTED, "-Is" },
	{ "-slafoo", NULL, BSUB_OPTS_UNSUPPORTED, "-sla" },
	{ "-h", NULL, BSUB_OPTS_HELP, NULL },
	{ "-V", NULL, BSUB_OPTS_VERSION, NULL },
};

START_TEST(test_bad)
{
	const char *w[] = { bad_cases[_i].opt, bad_cases[_i].val, NULL };
	struct bsub_opts g;
	char *cause;

	bsub_opts_init(&g);
	ck_assert_int_eq(parse(&g, w, &cause), bad_cases[_i].rc);
	if (bad_cases[_i].cause == NULL)
		ck_assert_ptr_null(cause);
	else
		ck_assert_str_eq(cause, bad_cases[_i].cause);
	free(cause);
	bsub_opts_release(&g);
}
END_TEST

START_TEST(test_script)
{
	const char *script =
	    "#!/bin/sh\n"
	    "  \n"
	    "#BSUB -J 'it''s' -o \"a \\\"b\\\" \\$c\" -e x\\ y\n"
	    "# BSUB -q first   # a comment\n"
	    "#BSUB -x stray words\n"
	    "#BSUBX -q never\n"
	    "echo hi\n"
	    "#BSUB -q after\n";
	struct strv ignored = STRV_INIT;
	struct bsub_opts g;
	char *cause = NULL;

	bsub_opts_init(&g);
	ck_assert_int_eq(bsub_opts_script(&g, script, unit_mb, &ignored,
	    &cause), BSUB_OPTS_OK);
	ck_assert_str_eq(g.name, "its");
	ck_assert_str_eq(g.out, "a \"b\" $c");
	ck_assert_str_eq(g.err, "x y");
	ck_assert_str_eq(g.queue, "first");
	ck_assert(g.exclusive);
	ck_assert_uint_eq(ignored.n, 1);
	ck_assert_str_eq(ignored.v[0], "stray");
	strv_release(&ignored);
	bsub_opts_release(&g);
}
END_TEST

/*
 * A first word "" on a #BSUB line: the word's buffer was allocated but
 * never terminated, and pushing it read past the allocation (found by
 * tests/fuzz/fuzz_bsub; corpus/bsub/regress-empty-word).
 */
START_TEST(test_empty_first_word)
{
	struct strv ignored = STRV_INIT;
	struct bsub_opts g;
	char *cause = NULL;

	bsub_opts_init(&g);
	ck_assert_int_eq(bsub_opts_script(&g, "#BSUB \"\" -q x\n", unit_mb,
	    &ignored, &cause), BSUB_OPTS_OK);
	ck_assert_uint_eq(ignored.n, 1);
	ck_assert_str_eq(ignored.v[0], "");
	ck_assert_ptr_null(g.queue);
	ck_assert_int_eq(bsub_opts_script(&g, "#BSUB -J \"\"\n", unit_mb,
	    &ignored, &cause), BSUB_OPTS_OK);
	ck_assert_str_eq(g.name, "");
	strv_release(&ignored);
	bsub_opts_release(&g);
}
END_TEST

START_TEST(test_script_error)
{
	struct strv ignored = STRV_INIT;
	struct bsub_opts g;
	char *cause = NULL;

	bsub_opts_init(&g);
	ck_assert_int_eq(bsub_opts_script(&g, "#BSUB -x a\n#BSUB -n x\n"
	    "#BSUB -q never\n", unit_mb, &ignored, &cause),
	    BSUB_OPTS_BAD_VALUE);
	ck_assert_str_eq(cause, "x: Bad argument");
	ck_assert_ptr_null(g.queue);
	ck_assert_uint_eq(ignored.n, 1);
	free(cause);
	strv_release(&ignored);
	bsub_opts_release(&g);
}
END_TEST

START_TEST(test_overlay)
{
	const char *w[] = { "-q", "cl", "-n", "3", "-R", "span[hosts=1]",
	    NULL };
	struct strv ignored = STRV_INIT;
	struct bsub_opts cl, sc;
	char *cause = NULL;

	bsub_opts_init(&cl);
	bsub_opts_init(&sc);
	ck_assert_int_eq(bsub_opts_script(&sc, "#BSUB -q sc -J name -n 1,2 "
	    "-R a -R b\n", unit_mb, &ignored, &cause), BSUB_OPTS_OK);
	ck_assert_int_eq(parse(&cl, w, &cause), BSUB_OPTS_OK);
	bsub_opts_overlay(&sc, &cl);
	ck_assert_str_eq(sc.queue, "cl");
	ck_assert_str_eq(sc.name, "name");
	ck_assert_int_eq(sc.nmin, 3);
	ck_assert_int_eq(sc.nmax, 3);
	ck_assert_uint_eq(sc.res.n, 1);
	ck_assert_str_eq(sc.res.v[0], "span[hosts=1]");
	strv_release(&ignored);
	bsub_opts_release(&cl);
	bsub_opts_release(&sc);
}
END_TEST

/* -outdir is a word of its own, not -o with "utdir". */
START_TEST(test_outdir)
{
	const char *const w[] = { "-outdir", "/tmp/%J", "-o", "x", "true",
	    NULL };
	struct bsub_opts g;
	char *cause;

	bsub_opts_init(&g);
	ck_assert_int_eq(parse(&g, w, &cause), BSUB_OPTS_OK);
	ck_assert_str_eq(g.outdir, "/tmp/%J");
	ck_assert_str_eq(g.out, "x");
	bsub_opts_release(&g);
}
END_TEST

/* -wa and -wt are taken as written (bsub checks them); no longer refused
 * as options of LSF's this version lacks. */
START_TEST(test_warning)
{
	const char *const w[] = { "-wa", "USR1", "-wt", "1:30", "true",
	    NULL };
	struct bsub_opts g;
	char *cause;

	bsub_opts_init(&g);
	ck_assert_int_eq(parse(&g, w, &cause), BSUB_OPTS_OK);
	ck_assert_str_eq(g.warn_action, "USR1");
	ck_assert_str_eq(g.warn_time, "1:30");
	bsub_opts_release(&g);
}
END_TEST

/* -k "dir [period] [method=name]": the period in seconds. */
START_TEST(test_chkpnt)
{
	const char *const w[] = { "-k", " /c/d  30 method=sample ", "true",
	    NULL };
	const char *const w2[] = { "-k", "rel", "true", NULL };
	struct bsub_opts g;
	char *cause;

	bsub_opts_init(&g);
	ck_assert_int_eq(parse(&g, w, &cause), BSUB_OPTS_OK);
	ck_assert_str_eq(g.chkpnt_dir, "/c/d");
	ck_assert_str_eq(g.chkpnt_method, "sample");
	ck_assert_int_eq(g.chkpnt_period, 1800);
	bsub_opts_release(&g);
	bsub_opts_init(&g);
	ck_assert_int_eq(parse(&g, w2, &cause), BSUB_OPTS_OK);
	ck_assert_str_eq(g.chkpnt_dir, "rel");
	ck_assert_ptr_null(g.chkpnt_method);
	ck_assert_int_eq(g.chkpnt_period, 0);
	bsub_opts_release(&g);
}
END_TEST

/* The patterns of -outdir and -cwd (src/jobpath.c). */
START_TEST(test_jobpath)
{
	static const struct {
		const char	*in, *out;
		bool		 had;
	} t[] = {
		{ "/o/%J_%I", "/o/42_7", true },
		{ "%EJ.%EI/%JG/x", "42.7//x", true },
		{ "%U-%G-%P-%H", "ann--proj-hostb", true },
		{ "plain/path", "plain/path", false },
		{ "100%", "100%", false },
		{ "%x%%J", "%x%42", true },
		{ "", "", false },
	};
	struct jobpath_vars v = { 42, 7, "ann", NULL, "proj", "hostb" };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		bool had = !t[i].had;
		char *s = jobpath_expand(t[i].in, &v, &had);

		ck_assert_str_eq(s, t[i].out);
		ck_assert_int_eq(had, t[i].had);
		free(s);
	}
	v.idx = 0;
	v.group = "ug";
	{
		char *s = jobpath_expand("%I/%G", &v, NULL);

		ck_assert_str_eq(s, "0/ug");
		free(s);
	}
}
END_TEST

static Suite *
bsub_opts_suite(void)
{
	Suite *s = suite_create("bsub_opts");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_values);
	tcase_add_loop_test(tc, test_bad, 0, (int)ARRAY_SIZE(bad_cases));
	tcase_add_test(tc, test_script);
	tcase_add_test(tc, test_empty_first_word);
	tcase_add_test(tc, test_script_error);
	tcase_add_test(tc, test_overlay);
	tcase_add_test(tc, test_outdir);
	tcase_add_test(tc, test_chkpnt);
	tcase_add_test(tc, test_warning);
	tcase_add_test(tc, test_jobpath);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(bsub_opts_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
