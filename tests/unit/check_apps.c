/*
 * lsb.applications (src/conf-apps.c) and the MAX_JOB_PREEMPT and
 * DEFAULT_APPLICATION parameters of lsb.params and lsb.queues: every
 * field, the defaults, each bad value with its file:line, and a missing
 * file.  Each test writes a small tree into a mkdtemp() directory.
 */
#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "conftree.h"





static void
setup(void)
{
	char *conf;

	tree_make("check_apps");
	conf = xasprintf("LSF_CONFDIR=%s/conf\nLSB_SHAREDIR=%s/work\n"
	    "LSF_UNIT_FOR_LIMITS=MB\n", dir, dir);
	put("lsf.conf", conf);
	free(conf);
	put("conf/lsf.shared", "Begin Cluster\nClusterName\nc1\n"
	    "End Cluster\n");
	put("conf/lsf.cluster.c1", "Begin Host\nHOSTNAME model type server\n"
	    "h1 ! ! 1\nEnd Host\n");
	put(LSB "lsb.queues", "Begin Queue\nQUEUE_NAME = normal\n"
	    "End Queue\n");
}

static void
teardown(void)
{
	tree_remove();
}

/* Load the tree, its diagnostics in d. */
static int
load(struct lsf_config *cfg, struct conf_diag *d)
{
	conf_diag_init(d);
	return config_load(cfg, dir, CONF_ALL, d);
}

static bool
has_msg(const struct conf_diag *d, const char *needle)
{
	for (size_t i = 0; i < d->msgs.n; i++)
		if (strstr(d->msgs.v[i], needle) != NULL)
			return true;
	return false;
}

static void
dump_msgs(const struct conf_diag *d)
{
	for (size_t i = 0; i < d->msgs.n; i++)
		fprintf(stderr, "  %s\n", d->msgs.v[i]);
}

START_TEST(test_none)
{
	struct lsf_config cfg;
	struct conf_diag d;

	/* The file is optional: no profile, no message about it. */
	put(LSB "lsb.params", "Begin Parameters\nEnd Parameters\n");
	ck_assert_int_eq(load(&cfg, &d), 0);
	ck_assert_int_eq(cfg.napps, 0);
	ck_assert_ptr_null(config_app(&cfg, "x"));
	ck_assert(!has_msg(&d, "lsb.applications"));
	ck_assert_int_eq(cfg.params.max_job_preempt, -1);
	ck_assert_ptr_null(cfg.params.default_application);
	ck_assert_int_eq(cfg.queues[0].max_job_preempt, -1);
	config_release(&cfg);
	conf_diag_release(&d);
}
END_TEST

START_TEST(test_good)
{
	struct lsf_config cfg;
	struct conf_diag d;
	const struct app_conf *a, *b, *c;

	put(LSB "lsb.params", "Begin Parameters\nMAX_JOB_PREEMPT = 9\n"
	    "DEFAULT_APPLICATION = b\nEnd Parameters\n");
	put(LSB "lsb.queues", "Begin Queue\nQUEUE_NAME = normal\n"
	    "MAX_JOB_PREEMPT = 4\nEnd Queue\n");
	put(LSB "lsb.applications",
	    "Begin Application\n"
	    "NAME = a\n"
	    "DESCRIPTION = \"The A solver\"\n"
	    "MAX_JOB_PREEMPT = 2\n"
	    "RUNLIMIT = 1:30/h1\n"
	    "CPULIMIT = 45\n"
	    "MEMLIMIT = 2G\n"
	    "RERUNNABLE = Y\n"
	    "SUSPEND_CONTROL = SIGTSTP\n"
	    "RESUME_CONTROL = kill -CONT $LSB_JOBPIDS\n"
	    "TERMINATE_CONTROL = CHKPNT\n"
	    "JOB_STARTER = nice\n"
	    "End Application\n"
	    "Begin Application\n"
	    "NAME = b\n"
	    "RERUNNABLE = no\n"
	    "MEMLIMIT = 64\n"
	    "End Application\n"
	    "Begin Application\n"
	    "NAME = c\n"
	    "RUNLIMIT =\n"
	    "End Application\n");
	if (load(&cfg, &d) != 0)
		dump_msgs(&d);
	ck_assert_int_eq(d.nerrors, 0);
	ck_assert_int_eq(cfg.napps, 3);
	a = config_app(&cfg, "a");
	b = config_app(&cfg, "b");
	c = config_app(&cfg, "c");
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_null(config_app(&cfg, "A"));
	ck_assert_ptr_null(config_app(&cfg, NULL));
	ck_assert_str_eq(a->description, "The A solver");
	ck_assert_int_eq(a->line, 1);
	ck_assert_int_eq(a->max_job_preempt, 2);
	ck_assert_int_eq(a->runlimit, 90);
	ck_assert_int_eq(a->cpulimit, 45);
	ck_assert_int_eq(a->memlimit, 2 * 1024 * 1024);
	ck_assert_int_eq(a->rerunnable, 1);
	ck_assert_int_eq(a->jobctl.op[JOBCTL_SUSPEND].kind, JOBCTL_SIGNAL);
	ck_assert_int_eq(a->jobctl.op[JOBCTL_SUSPEND].sig, SIGTSTP);
	ck_assert_int_eq(a->jobctl.op[JOBCTL_RESUME].kind, JOBCTL_COMMAND);
	ck_assert_str_eq(a->jobctl.op[JOBCTL_RESUME].text,
	    "kill -CONT $LSB_JOBPIDS");
	ck_assert_int_eq(a->jobctl.op[JOBCTL_TERMINATE].kind, JOBCTL_CHKPNT);
	/* CHKPNT (checkpoint, then the action) quietly; JOB_STARTER,
	 * kept without effect, is said to be. */
	ck_assert(!has_msg(&d, "TERMINATE_CONTROL"));
	ck_assert(has_msg(&d, "JOB_STARTER is not supported"));
	ck_assert_uint_eq(a->keys.n, 11);
	ck_assert_str_eq(a->keys.v[10], "JOB_STARTER");
	ck_assert_str_eq(a->vals.v[10], "nice");
	/* A bare MEMLIMIT is in LSF_UNIT_FOR_LIMITS (MB here). */
	ck_assert_int_eq(b->memlimit, 64 * 1024);
	ck_assert_int_eq(b->rerunnable, 0);
	ck_assert_int_eq(b->max_job_preempt, -1);
	ck_assert_int_eq(b->jobctl.op[JOBCTL_SUSPEND].kind, JOBCTL_DEFAULT);
	/* An empty value leaves the default. */
	ck_assert_int_eq(c->runlimit, -1);
	ck_assert_int_eq(c->rerunnable, -1);
	ck_assert_ptr_null(c->description);
	ck_assert_int_eq(cfg.params.max_job_preempt, 9);
	ck_assert_str_eq(cfg.params.default_application, "b");
	ck_assert_int_eq(cfg.queues[0].max_job_preempt, 4);
	/* The file is kept with the others (config_save). */
	ck_assert(strstr(cfg.files.v[cfg.files.n - 1], "lsb.applications"));
	config_release(&cfg);
	conf_diag_release(&d);
}
END_TEST

static const struct {
	const char	*line;
	const char	*msg;
} bad[] = {
	{ "MAX_JOB_PREEMPT = 0", ":3: application x: bad MAX_JOB_PREEMPT "
	    "\"0\": must be an integer from 1 to 2147483646" },
	{ "MAX_JOB_PREEMPT = 2147483647", ":3: application x: bad "
	    "MAX_JOB_PREEMPT" },
	{ "MAX_JOB_PREEMPT = -1", ":3: application x: bad MAX_JOB_PREEMPT" },
	{ "RUNLIMIT = soon", ":3: application x: bad RUNLIMIT \"soon\": not "
	    "a time limit [hh:]mm above 0" },
	{ "RUNLIMIT = 0", ":3: application x: bad RUNLIMIT \"0\"" },
	{ "CPULIMIT = 1:99x", ":3: application x: bad CPULIMIT" },
	{ "MEMLIMIT = lots", ":3: application x: bad MEMLIMIT \"lots\": not "
	    "a memory amount above 0" },
	{ "RERUNNABLE = maybe", ":3: application x: bad RERUNNABLE "
	    "\"maybe\": must be yes or no" },
	{ "SUSPEND_CONTROL = SIGNOPE", ":3: application x: bad "
	    "SUSPEND_CONTROL \"SIGNOPE\": SUSPEND: unknown signal SIGNOPE" },
	{ "RESUME_CONTROL = CHKPNT", ":3: application x: bad RESUME_CONTROL "
	    "\"CHKPNT\": RESUME: CHKPNT is only for SUSPEND and TERMINATE" },
};

START_TEST(test_bad_value)
{
	struct lsf_config cfg;
	struct conf_diag d;
	char *text = xasprintf("Begin Application\nNAME = x\n%s\n"
	    "End Application\n", bad[_i].line);

	put(LSB "lsb.applications", text);
	free(text);
	ck_assert_int_eq(load(&cfg, &d), -1);
	if (!has_msg(&d, bad[_i].msg)) {
		dump_msgs(&d);
		ck_abort_msg("no \"%s\"", bad[_i].msg);
	}
	ck_assert(has_msg(&d, "lsb.applications:3: "));
	/* The profile stays, without the bad value. */
	ck_assert_ptr_nonnull(config_app(&cfg, "x"));
	config_release(&cfg);
	conf_diag_release(&d);
}
END_TEST

START_TEST(test_bad_sections)
{
	struct lsf_config cfg;
	struct conf_diag d;

	put(LSB "lsb.applications",
	    "Begin Application\nDESCRIPTION = none\nEnd Application\n"
	    "Begin Application\nNAME = a/b\nEnd Application\n"
	    "Begin Application\nNAME = ok\nWHAT = 1\nEnd Application\n"
	    "Begin Application\nNAME = ok\nEnd Application\n"
	    "Begin Queue\nQUEUE_NAME = q\nEnd Queue\n");
	ck_assert_int_eq(load(&cfg, &d), -1);
	ck_assert(has_msg(&d, "lsb.applications:1: application section "
	    "has no NAME; ignored"));
	ck_assert(has_msg(&d, "lsb.applications:5: bad NAME \"a/b\": only "
	    "letters, digits, _ - and . are allowed; application ignored"));
	ck_assert(has_msg(&d, "lsb.applications:9: warning: application ok: "
	    "unknown parameter WHAT ignored"));
	ck_assert(has_msg(&d, "lsb.applications:12: application ok is "
	    "already defined at line 7; ignored"));
	ck_assert(has_msg(&d, "lsb.applications:14: warning: unknown "
	    "section Queue ignored"));
	ck_assert_int_eq(cfg.napps, 1);
	config_release(&cfg);
	conf_diag_release(&d);
}
END_TEST

START_TEST(test_params_queues)
{
	struct lsf_config cfg;
	struct conf_diag d;

	put(LSB "lsb.params", "Begin Parameters\nMAX_JOB_PREEMPT = 0\n"
	    "DEFAULT_APPLICATION = nosuch\nEnd Parameters\n");
	put(LSB "lsb.queues", "Begin Queue\nQUEUE_NAME = normal\n"
	    "MAX_JOB_PREEMPT = many\nEnd Queue\n");
	ck_assert_int_eq(load(&cfg, &d), -1);
	ck_assert(has_msg(&d, "lsb.params:2: MAX_JOB_PREEMPT must be an "
	    "integer from 1 to 2147483646, not \"0\""));
	ck_assert(has_msg(&d, "lsb.params:3: DEFAULT_APPLICATION names "
	    "nosuch, which is not an application profile"));
	ck_assert(has_msg(&d, "lsb.queues:3: queue normal: bad "
	    "MAX_JOB_PREEMPT \"many\": must be an integer from 1 to "
	    "2147483646"));
	ck_assert_int_eq(cfg.params.max_job_preempt, -1);
	ck_assert_int_eq(cfg.queues[0].max_job_preempt, -1);
	config_release(&cfg);
	conf_diag_release(&d);
}
END_TEST

static Suite *
apps_suite(void)
{
	Suite *s = suite_create("apps");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_none);
	tcase_add_test(tc, test_good);
	tcase_add_loop_test(tc, test_bad_value, 0, (int)ARRAY_SIZE(bad));
	tcase_add_test(tc, test_bad_sections);
	tcase_add_test(tc, test_params_queues);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(apps_suite());
	int nfail;

	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
