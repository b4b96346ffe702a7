/*
 * Job files (src/jobfile.c): every key, by name and by alias, in YAML
 * and in JSON, gives what the same option gives on the command line;
 * flags as null or empty; bad types, unknown keys, keys in the wrong
 * category and keys given twice are refused naming the file, the line
 * and the key; the command line wins over the file and the file over
 * #BSUB lines.  Also the words of a -pack line.  t0126 drives the same
 * code through bsub.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsub-opts.h"
#include "jobfile.h"

static const char *
unit_kb(void)
{
	return "KB";
}

/* Every field of g as one string, to compare two parses. */
static char *
print(const struct bsub_opts *g)
{
	struct strbuf sb = STRBUF_INIT;
	char *res = strv_join(&g->res, ";");

#define S(f) sb_addf(&sb, #f "=%s ", g->f ? g->f : "-")
#define I(f) sb_addf(&sb, #f "=%lld ", (long long)g->f)
	S(queue); S(name); I(nmin); I(nmax); S(out); I(out_over); S(err);
	I(err_over); S(cwd); S(outdir); S(hosts); I(exclusive);
	I(runlimit); I(memlimit); S(term); S(pre); S(post); S(depend);
	S(begin); I(sprio); I(rerun); I(hold); S(project); S(group); S(env);
	I(block); S(mail); I(mail_begin); I(mail_end); S(in); S(shell);
	S(app); S(chkpnt_dir); S(chkpnt_method); I(chkpnt_period);
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		sb_addf(&sb, "rlim%d=%lld ", i, (long long)g->rlim[i]);
#undef S
#undef I
	sb_addf(&sb, "res=%s", res);
	free(res);
	return sb_detach(&sb);
}

static int
parse(enum jobfile_kind kind, const char *text, struct bsub_opts *g,
    char **cmd, char **cause)
{
	return jobfile_parse(kind == JOBFILE_JSON ? "f.json" : "f.yaml", text,
	    strlen(text), kind, g, unit_kb, cmd, cause);
}

static const struct {
	const char	*opt;
	const char	*alias;
	const char	*cat;
	const char	*val;		/* NULL: a flag */
} keys[] = {
	{ "cwd", "cwd", "io", "/tmp/w" },
	{ "e", "errorAppend", "io", "err.%J" },
	{ "eo", "errorOverwrite", "io", "err2" },
	{ "i", "inputFile", "io", "/tmp/in" },
	{ "o", "outputAppend", "io", "out.%J" },
	{ "oo", "outputOverwrite", "io", "out2" },
	{ "outdir", "outputDir", "io", "/tmp/od" },
	{ "C", "coreLimit", "limit", "1000" },
	{ "c", "cpuTimeLimit", "limit", "1:30" },
	{ "D", "dataLimit", "limit", "2000" },
	{ "F", "fileLimit", "limit", "3000" },
	{ "M", "memLimit", "limit", "4000" },
	{ "p", "processLimit", "limit", "12" },
	{ "S", "stackLimit", "limit", "5000" },
	{ "v", "swapLimit", "limit", "6000" },
	{ "W", "runtimeLimit", "limit", "45" },
	{ "B", "notifyJobDispatch", "notify", NULL },
	{ "N", "notifyJobDone", "notify", NULL },
	{ "u", "mailUser", "notify", "a@b.c" },
	{ "app", "appName", "properties", "fluent" },
	{ "E", "preExecCmd", "properties", "/bin/true pre" },
	{ "env", "envVariables", "properties", "none" },
	{ "Ep", "postExecCmd", "properties", "/bin/true post" },
	{ "J", "jobName", "properties", "name[1-4]" },
	{ "k", "checkpoint", "properties", "ck 5 method=m" },
	{ "K", "jobWaitDone", "properties", NULL },
	{ "L", "loginShell", "properties", "/bin/sh" },
	{ "P", "projectName", "properties", "proj" },
	{ "q", "queueName", "properties", "short normal" },
	{ "r", "rerun", "properties", NULL },
	{ "sp", "jobPriority", "properties", "7" },
	{ "m", "machines", "resource", "hosta hostb+1" },
	{ "n", "numTasks", "resource", "2,4" },
	{ "R", "resReq", "resource", "select[mem>100] rusage[mem=10]" },
	{ "b", "specifiedStartTime", "schedule", "12:30" },
	{ "G", "userGroup", "schedule", "grp" },
	{ "H", "hold", "schedule", NULL },
	{ "t", "specifiedTerminateTime", "schedule", "2:1:00" },
	{ "w", "dependency", "schedule", "done(1) && ended(\"x\")" },
	{ "x", "exclusive", "schedule", NULL },
};

/* What the command line gives for key i. */
static char *
from_cmdline(int i)
{
	struct strv v = STRV_INIT;
	struct cmdopt_state st;
	struct bsub_opts g;
	char *opt = xasprintf("-%s", keys[i].opt), *cause = NULL, *s;

	strv_push(&v, "bsub");
	strv_push(&v, opt);
	if (keys[i].val)
		strv_push(&v, keys[i].val);
	bsub_opts_init(&g);
	ck_assert_int_eq(bsub_opts_parse(&g, (int)v.n, v.v, unit_kb, &st,
	    &cause), BSUB_OPTS_OK);
	cmdopt_release(&st);
	s = print(&g);
	bsub_opts_release(&g);
	strv_release(&v);
	free(opt);
	return s;
}

/* A value as YAML or JSON: double-quoted, escaping what needs it. */
static char *
quoted(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addc(&sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_addc(&sb, '\\');
		sb_addc(&sb, *s);
	}
	sb_addc(&sb, '"');
	return sb_detach(&sb);
}

/* Every key, by name and by alias, in YAML and JSON (loop: i*4+...). */
START_TEST(test_every_key)
{
	int i = _i / 4;
	bool alias = _i % 2, json = (_i / 2) % 2;
	const char *key = alias ? keys[i].alias : keys[i].opt;
	char *want = from_cmdline(i), *got, *text, *v, *cmd, *cause = NULL;
	struct bsub_opts g;

	v = keys[i].val ? quoted(keys[i].val) : xstrdup(json ? "null" : "");
	if (json)
		text = xasprintf("{\n  \"%s\": {\n    \"%s\": %s\n  },\n"
		    "  \"command\": \"sleep 1\"\n}\n", keys[i].cat, key, v);
	else
		text = xasprintf("%s:\n    %s: %s\ncommand: sleep 1\n",
		    keys[i].cat, key, v);
	bsub_opts_init(&g);
	ck_assert_msg(parse(json ? JOBFILE_JSON : JOBFILE_YAML, text, &g,
	    &cmd, &cause) == 0, "%s: %s", text, cause);
	ck_assert_str_eq(cmd, "sleep 1");
	got = print(&g);
	ck_assert_msg(strcmp(got, want) == 0, "%s\nfile: %s\ncmd:  %s", text,
	    got, want);
	ck_assert_str_eq(jobfile_option(key), keys[i].opt);
	free(got);
	free(want);
	free(cmd);
	free(text);
	free(v);
	bsub_opts_release(&g);
}
END_TEST

/* A flag as null, ~, empty, "" (YAML) and null, "" (JSON). */
START_TEST(test_flags)
{
	static const char *const yaml[] = {
	    "schedule:\n  hold: null\n  x: ~\nproperties:\n  r:\n  K: \"\"\n"
	    "notify:\n  B: ''\n  N: Null\n",
	    "{\"schedule\": {\"hold\": null, \"x\": \"\"}, \"properties\":"
	    " {\"r\": null, \"K\": \"\"}, \"notify\": {\"B\": \"\","
	    " \"N\": null}}" };

	for (int k = 0; k < 2; k++) {
		struct bsub_opts g;
		char *cmd, *cause = NULL;

		bsub_opts_init(&g);
		ck_assert_msg(parse(k ? JOBFILE_JSON : JOBFILE_YAML, yaml[k],
		    &g, &cmd, &cause) == 0, "%s", cause);
		ck_assert(g.hold && g.exclusive && g.rerun && g.block &&
		    g.mail_begin && g.mail_end);
		ck_assert_ptr_null(cmd);
		bsub_opts_release(&g);
	}
}
END_TEST

static const struct {
	int		 json;
	const char	*text;
	const char	*cause;
} bad[] = {
	{ 0, "properties:\n  q: short\n  bogus: 1\n",
	    "f.yaml:3: bogus: unknown key" },
	{ 0, "io:\n  queueName: short\n",
	    "f.yaml:2: queueName: belongs under properties, not io" },
	{ 0, "q: short\n", "f.yaml:1: q: belongs under properties" },
	{ 0, "options:\n  q: short\n", "f.yaml:1: options: unknown category" },
	{ 0, "properties:\n  q:\n    - a\n    - b\n",
	    "f.yaml:2: q: a string is needed, not a list" },
	{ 0, "properties:\n  q: {a: b}\n",
	    "f.yaml:2: q: a string is needed, not a mapping" },
	{ 0, "properties:\n  q:\n", "f.yaml:2: q: a string is needed, not "
	    "null" },
	{ 0, "properties:\n  rerun: yes\n",
	    "f.yaml:2: rerun: a flag takes null or an empty value" },
	{ 0, "properties:\n  q: a\n\n  queueName: b\n",
	    "f.yaml:4: queueName: -q given again (line 2)" },
	{ 0, "properties:\n  q: a\nproperties:\n  J: b\n",
	    "f.yaml:3: properties: category given again" },
	{ 0, "limit:\n  W: soon\n",
	    "f.yaml:2: W: soon: Bad time specification" },
	{ 0, "resource:\n  n: 0\n", "f.yaml:2: n: 0: Bad argument" },
	{ 0, "properties: [a]\n",
	    "f.yaml:1: properties: a mapping of options is needed" },
	{ 0, "command:\n  - a\n", "f.yaml:1: command: a string is needed" },
	{ 0, "- a\n- b\n", "f.yaml:1: the file must be a mapping" },
	{ 0, "properties:\n  q: [a\n", "f.yaml:3: " },
	{ 0, "properties:\n  q: &x a\n  J: *x\n",
	    "f.yaml:3: aliases (*name) are not taken" },
	{ 1, "{\n \"properties\": {\n  \"q\": [\"a\"]\n }\n}",
	    "f.json:3: q: a string is needed, not a list" },
	{ 1, "{\n \"properties\": {\n  \"q\": true\n }\n}",
	    "f.json:3: q: a string is needed, not a boolean" },
	{ 1, "{\n \"limit\": {\n  \"M\": 1.5\n }\n}",
	    "f.json:3: M: a string is needed, not a real number" },
	{ 1, "{\n \"io\": {\n  \"o\": \"x\",\n  \"bogus\": \"y\"\n }\n}",
	    "f.json:4: bogus: unknown key" },
	{ 1, "{\"io\": {\"o\": \"a\"},\n \"schedule\": {\"q\": \"b\"}}",
	    "f.json:2: q: belongs under properties, not schedule" },
	{ 1, "{\"io\": {\"o\": \"a\",\n \"o\": \"b\"}}", "f.json:2: " },
	{ 1, "{\"io\": {\"o\": \"a\",\n \"outputAppend\": \"b\"}}",
	    "f.json:2: outputAppend: -o given again (line 1)" },
	{ 1, "{\"io\": {\"o\": \"a\"}\n,}", "f.json:2: " },
	{ 1, "{\"command\": 5}", "f.json:1: command: a string is needed" },
};

START_TEST(test_bad)
{
	struct bsub_opts g;
	char *cmd, *cause = NULL;

	bsub_opts_init(&g);
	ck_assert_int_eq(parse(bad[_i].json ? JOBFILE_JSON : JOBFILE_YAML,
	    bad[_i].text, &g, &cmd, &cause), -1);
	ck_assert_msg(strncmp(cause, bad[_i].cause, strlen(bad[_i].cause)) ==
	    0, "%s: got \"%s\", want \"%s\"", bad[_i].text, cause,
	    bad[_i].cause);
	ck_assert_ptr_null(cmd);
	free(cause);
	bsub_opts_release(&g);
}
END_TEST

/* The command line over the file, the file over #BSUB lines. */
START_TEST(test_precedence)
{
	const char *script = "#!/bin/sh\n#BSUB -J s -P sp -G sg\n"
	    "#BSUB -q sq\ntrue\n";
	const char *file = "properties:\n  J: f\n  q: fq\nschedule:\n"
	    "  G: fg\n";
	char *argv[] = { "bsub", "-q", "cq", NULL };
	struct bsub_opts sc, fl, cl;
	struct strv ign = STRV_INIT;
	struct cmdopt_state st;
	char *cmd, *cause = NULL;

	bsub_opts_init(&sc);
	bsub_opts_init(&fl);
	bsub_opts_init(&cl);
	ck_assert_int_eq(bsub_opts_script(&sc, script, unit_kb, &ign, &cause),
	    0);
	ck_assert_int_eq(parse(JOBFILE_YAML, file, &fl, &cmd, &cause), 0);
	ck_assert_int_eq(bsub_opts_parse(&cl, 3, argv, unit_kb, &st, &cause),
	    0);
	cmdopt_release(&st);
	bsub_opts_overlay(&sc, &fl);
	bsub_opts_overlay(&sc, &cl);
	ck_assert_str_eq(sc.queue, "cq");	/* command line */
	ck_assert_str_eq(sc.name, "f");		/* file over script */
	ck_assert_str_eq(sc.group, "fg");
	ck_assert_str_eq(sc.project, "sp");	/* script alone */
	bsub_opts_release(&sc);
	bsub_opts_release(&fl);
	bsub_opts_release(&cl);
	strv_release(&ign);
}
END_TEST

/* JSON keys are found on their lines whatever the layout. */
START_TEST(test_json_lines)
{
	const char *text = "{\"io\":\n{\"o\": \"\\\"o\\\": x\"},\n\n"
	    "\"limit\": {\"W\": \"1\",\n\"M\": \"x\"}}";
	struct bsub_opts g;
	char *cmd, *cause = NULL;

	bsub_opts_init(&g);
	ck_assert_int_eq(parse(JOBFILE_JSON, text, &g, &cmd, &cause), -1);
	ck_assert_str_eq(cause, "f.json:5: M: x: Bad argument");
	free(cause);
	bsub_opts_release(&g);
}
END_TEST

/* The words of a -pack line: quotes, backslashes, a '#' comment. */
START_TEST(test_pack_words)
{
	struct strv w = STRV_INIT;
	struct bsub_opts g;
	struct cmdopt_state st;
	char **rest, *cause = NULL;
	int n;

	strv_push(&w, "bsub");
	bsub_opts_words("-J \"a b\" -R 'select[x] rusage[y]' -q\\ x "
	    "echo 'it''s' \"\\$HOME\" # a comment", &w);
	ck_assert_uint_eq(w.n, 9);
	ck_assert_str_eq(w.v[2], "a b");
	ck_assert_str_eq(w.v[4], "select[x] rusage[y]");
	ck_assert_str_eq(w.v[5], "-q x");
	ck_assert_str_eq(w.v[7], "its");
	ck_assert_str_eq(w.v[8], "$HOME");
	bsub_opts_init(&g);
	ck_assert_int_eq(bsub_opts_parse(&g, 5, w.v, unit_kb, &st, &cause),
	    BSUB_OPTS_OK);
	rest = cmdopt_rest(&st, &n);
	ck_assert_int_eq(n, 0);
	(void)rest;
	cmdopt_release(&st);
	ck_assert_str_eq(g.name, "a b");
	bsub_opts_release(&g);
	strv_release(&w);

	/* A bad option on a line stops that line only. */
	strv_push(&w, "bsub");
	bsub_opts_words("-W nonsense true", &w);
	bsub_opts_init(&g);
	ck_assert_int_eq(bsub_opts_parse(&g, (int)w.n, w.v, unit_kb, &st,
	    &cause), BSUB_OPTS_BAD_VALUE);
	ck_assert_str_eq(cause, "nonsense: Bad time specification");
	free(cause);
	cmdopt_release(&st);
	bsub_opts_release(&g);
	strv_release(&w);

	/* A comment line and a blank one have no words. */
	bsub_opts_words("   # -q x", &w);
	ck_assert_uint_eq(w.n, 0);
	bsub_opts_words("", &w);
	ck_assert_uint_eq(w.n, 0);
}
END_TEST

static Suite *
jobfile_suite(void)
{
	Suite *s = suite_create("jobfile");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_every_key, 0,
	    (int)(4 * ARRAY_SIZE(keys)));
	tcase_add_test(tc, test_flags);
	tcase_add_loop_test(tc, test_bad, 0, (int)ARRAY_SIZE(bad));
	tcase_add_test(tc, test_precedence);
	tcase_add_test(tc, test_json_lines);
	tcase_add_test(tc, test_pack_words);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(jobfile_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
