/*
 * lsb.queues JOB_CONTROLS (jobctl_parse, jobctl_action_parse,
 * jobctl_warning): every form of action, every error with its words, and
 * LSF's suspend-reason bits for LSB_SUSP_REASONS.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobctl.h"
#include "lsf.h"
#include "util.h"

/* Each op's kind, and its signal or text, as "KIND:detail" or "-". */
static const char *
show(const struct jobctl_action *a)
{
	static char buf[3][256];
	static int n;
	char *b = buf[n++ % 3];

	switch (a->kind) {
	case JOBCTL_DEFAULT:
		return "-";
	case JOBCTL_SIGNAL:
		snprintf(b, 256, "SIG:%d", a->sig);
		break;
	case JOBCTL_CHKPNT:
		snprintf(b, 256, "CHKPNT:%s", a->text);
		break;
	case JOBCTL_COMMAND:
		snprintf(b, 256, "CMD:%s", a->text);
		break;
	}
	return b;
}

static const struct {
	const char	*in;
	const char	*susp, *resume, *term;
} good[] = {
	{ "", "-", "-", "-" },
	{ "   ", "-", "-", "-" },
	{ "SUSPEND[SIGTSTP]", "SIG:20", "-", "-" },
	{ "RESUME[SIGCONT]", "-", "SIG:18", "-" },
	{ "TERMINATE[SIGTERM]", "-", "-", "SIG:15" },
	/* The reference's example, brackets and $ kept for the shell. */
	{ "SUSPEND[SIGTSTP] TERMINATE[kill -KILL $LSB_JOBPIDS]", "SIG:20",
	    "-", "CMD:kill -KILL $LSB_JOBPIDS" },
	/* Any order, any case, blanks around and inside. */
	{ " terminate [ SIGKILL ]  Resume[SIGUSR1]suspend[SIGUSR2] ",
	    "SIG:12", "SIG:10", "SIG:9" },
	{ "SUSPEND[sigstop]", "SIG:19", "-", "-" },
	/* CHKPNT: SUSPEND and TERMINATE. */
	{ "SUSPEND[CHKPNT] TERMINATE[chkpnt]", "CHKPNT:CHKPNT", "-",
	    "CHKPNT:chkpnt" },
	/* Commands: anything that is not a signal or CHKPNT, with nested
	 * brackets that balance. */
	{ "SUSPEND[[ -f /tmp/x ] && kill -STOP -$LSB_JOBPGIDS]",
	    "CMD:[ -f /tmp/x ] && kill -STOP -$LSB_JOBPGIDS", "-", "-" },
	{ "RESUME[echo ${a[0]}; kill -CONT $LSB_JOBPIDS]", "-",
	    "CMD:echo ${a[0]}; kill -CONT $LSB_JOBPIDS", "-" },
	{ "SUSPEND[brequeue $LSB_JOBID]", "CMD:brequeue $LSB_JOBID", "-",
	    "-" },
	/* Not "SIG" and letters alone: a command, not a signal. */
	{ "TERMINATE[SIGTERM $LSB_JOBPIDS]", "-", "-",
	    "CMD:SIGTERM $LSB_JOBPIDS" },
	{ "TERMINATE[SIG9]", "-", "-", "CMD:SIG9" },
	{ "TERMINATE[TERM]", "-", "-", "CMD:TERM" },
	{ "SUSPEND[CHKPNT now]", "CMD:CHKPNT now", "-", "-" },
};

START_TEST(test_good)
{
	struct jobctl jc;
	char *cause = NULL;

	ck_assert_msg(jobctl_parse(&jc, good[_i].in, &cause) == 0,
	    "%s: %s", good[_i].in, cause ? cause : "");
	ck_assert_ptr_null(cause);
	ck_assert_str_eq(show(&jc.op[JOBCTL_SUSPEND]), good[_i].susp);
	ck_assert_str_eq(show(&jc.op[JOBCTL_RESUME]), good[_i].resume);
	ck_assert_str_eq(show(&jc.op[JOBCTL_TERMINATE]), good[_i].term);
	jobctl_release(&jc);
}
END_TEST

static const struct {
	const char	*in;
	const char	*why;
} bad[] = {
	{ "STOP[SIGSTOP]",
	    "unknown action STOP: expected SUSPEND, RESUME or TERMINATE" },
	{ "SUSPEND[SIGTSTP] KILL[x]",
	    "unknown action KILL: expected SUSPEND, RESUME or TERMINATE" },
	{ "[SIGTSTP]", "[ without SUSPEND, RESUME or TERMINATE before it" },
	{ "SUSPEND", "SUSPEND: expected [ after it" },
	{ "SUSPEND SIGTSTP", "SUSPEND: expected [ after it" },
	{ "SUSPEND[SIGTSTP", "SUSPEND: no ] to end it" },
	{ "RESUME[[ -f x ]", "RESUME: no ] to end it" },
	{ "SUSPEND[]", "SUSPEND[]: no action" },
	{ "TERMINATE[   ]", "TERMINATE[]: no action" },
	{ "SUSPEND[SIGTSTP] SUSPEND[SIGSTOP]", "SUSPEND is given twice" },
	{ "suspend[SIGTSTP] SUSPEND[x]", "SUSPEND is given twice" },
	{ "SUSPEND[SIGNOPE]", "SUSPEND: unknown signal SIGNOPE" },
	{ "TERMINATE[SIGFOO]", "TERMINATE: unknown signal SIGFOO" },
	{ "RESUME[CHKPNT]", "RESUME: CHKPNT is only for SUSPEND and TERMINATE" },
	{ "SUSPEND[SIGTSTP] ]", "unknown action ]: expected SUSPEND, RESUME "
	    "or TERMINATE" },
};

START_TEST(test_bad)
{
	struct jobctl jc;
	char *cause = NULL;

	ck_assert_int_eq(jobctl_parse(&jc, bad[_i].in, &cause), -1);
	ck_assert_ptr_nonnull(cause);
	ck_assert_str_eq(cause, bad[_i].why);
	free(cause);
	/* Nothing half-parsed stays: all defaults. */
	for (int op = 0; op < JOBCTL_NOPS; op++) {
		ck_assert_int_eq(jc.op[op].kind, JOBCTL_DEFAULT);
		ck_assert_ptr_null(jc.op[op].text);
	}
	jobctl_release(&jc);
}
END_TEST

START_TEST(test_null)
{
	struct jobctl jc;
	char *cause = NULL;

	ck_assert_int_eq(jobctl_parse(&jc, NULL, &cause), 0);
	for (int op = 0; op < JOBCTL_NOPS; op++)
		ck_assert_int_eq(jc.op[op].kind, JOBCTL_DEFAULT);
	jobctl_release(&jc);
}
END_TEST

/* What the execution host does with one action's text. */
START_TEST(test_action)
{
	struct jobctl_action a;
	char *cause = NULL;

	ck_assert_int_eq(jobctl_action_parse(&a, JOBCTL_SUSPEND, NULL,
	    &cause), 0);
	ck_assert_int_eq(a.kind, JOBCTL_DEFAULT);
	ck_assert_int_eq(jobctl_action_parse(&a, JOBCTL_SUSPEND, "", &cause),
	    0);
	ck_assert_int_eq(a.kind, JOBCTL_DEFAULT);
	ck_assert_int_eq(jobctl_action_parse(&a, JOBCTL_SUSPEND, " SIGTSTP ",
	    &cause), 0);
	ck_assert_int_eq(a.kind, JOBCTL_SIGNAL);
	ck_assert_int_eq(a.sig, SIGTSTP);
	ck_assert_str_eq(a.text, "SIGTSTP");
	jobctl_action_release(&a);
	ck_assert_int_eq(jobctl_action_parse(&a, JOBCTL_TERMINATE,
	    "kill -TERM $LSB_JOBPIDS", &cause), 0);
	ck_assert_int_eq(a.kind, JOBCTL_COMMAND);
	ck_assert_str_eq(a.text, "kill -TERM $LSB_JOBPIDS");
	jobctl_action_release(&a);
	ck_assert_int_eq(jobctl_action_parse(&a, JOBCTL_RESUME, "CHKPNT",
	    &cause), -1);
	ck_assert_str_eq(cause, "RESUME: CHKPNT is only for SUSPEND and "
	    "TERMINATE");
	ck_assert_int_eq(a.kind, JOBCTL_DEFAULT);
	free(cause);
	cause = NULL;
	ck_assert_int_eq(jobctl_action_parse(&a, JOBCTL_SUSPEND, "SIGXYZ",
	    &cause), -1);
	ck_assert_str_eq(cause, "SUSPEND: unknown signal SIGXYZ");
	free(cause);
	ck_assert_str_eq(jobctl_op_name(JOBCTL_SUSPEND), "SUSPEND");
	ck_assert_str_eq(jobctl_op_name(JOBCTL_RESUME), "RESUME");
	ck_assert_str_eq(jobctl_op_name(JOBCTL_TERMINATE), "TERMINATE");
}
END_TEST

static const struct {
	const char	*in;
	enum jobctl_op	 op;
	const char	*warn;		/* NULL: none */
} warns[] = {
	/* CHKPNT checkpoints now: nothing to warn of. */
	{ "SUSPEND[CHKPNT]", JOBCTL_SUSPEND, NULL },
	{ "TERMINATE[CHKPNT]", JOBCTL_TERMINATE, NULL },
	{ "TERMINATE[bkill $LSB_JOBID]", JOBCTL_TERMINATE, "TERMINATE[bkill]: "
	    "the command asks for the TERMINATE action again, which LSF "
	    "documents as a deadlock" },
	{ "TERMINATE[ /opt/lsf/bin/brequeue $LSB_JOBID]", JOBCTL_TERMINATE,
	    "TERMINATE[brequeue]: the command asks for the TERMINATE action "
	    "again, which LSF documents as a deadlock" },
	{ "SUSPEND[bstop $LSB_JOBID]", JOBCTL_SUSPEND, "SUSPEND[bstop]: the "
	    "command asks for the SUSPEND action again, which LSF documents "
	    "as a deadlock" },
	{ "RESUME[bresume;true]", JOBCTL_RESUME, "RESUME[bresume]: the "
	    "command asks for the RESUME action again, which LSF documents "
	    "as a deadlock" },
	/* Preemption's documented requeue is no loop. */
	{ "SUSPEND[brequeue $LSB_JOBID]", JOBCTL_SUSPEND, NULL },
	{ "TERMINATE[bkillall]", JOBCTL_TERMINATE, NULL },
	{ "TERMINATE[SIGTERM]", JOBCTL_TERMINATE, NULL },
	{ "", JOBCTL_TERMINATE, NULL },
};

START_TEST(test_warning)
{
	struct jobctl jc;
	char *cause = NULL, *w;

	ck_assert_int_eq(jobctl_parse(&jc, warns[_i].in, &cause), 0);
	w = jobctl_warning(&jc, warns[_i].op);
	if (warns[_i].warn == NULL)
		ck_assert_ptr_null(w);
	else
		ck_assert_str_eq(w ? w : "(none)", warns[_i].warn);
	free(w);
	jobctl_release(&jc);
}
END_TEST

/* LSB_SUSP_REASONS: lsbatch.h's bit for each reason we have. */
START_TEST(test_susp_bits)
{
	ck_assert_int_eq(susp_reason_lsf_bits(SUSP_NONE), 0);
	ck_assert_int_eq(susp_reason_lsf_bits(SUSP_USER_RESUME), 0x1);
	ck_assert_int_eq(susp_reason_lsf_bits(SUSP_USER_STOP), 0x2);
	ck_assert_int_eq(susp_reason_lsf_bits(SUSP_QUEUE_WINDOW), 0x8);
	ck_assert_int_eq(susp_reason_lsf_bits(SUSP_HOST_LOCK), 0x20);
	ck_assert_int_eq(susp_reason_lsf_bits(SUSP_LOAD), 0x40);
	ck_assert_int_eq(susp_reason_lsf_bits(SUSP_ADMIN_STOP), 0x4000);
	ck_assert_int_eq(susp_reason_lsf_bits(SUSP_STOP_COND), 0x200);
	ck_assert_int_eq(susp_reason_lsf_bits(-1), 0);
	ck_assert_int_eq(susp_reason_lsf_bits(SUSP_NREASONS), 0);
	/* LSB_SUSP_SUBREASONS uses lsf.h's index numbers: ours are they. */
	ck_assert_int_eq(LI_R15S, 0);
	ck_assert_int_eq(LI_R1M, 1);
	ck_assert_int_eq(LI_IT, 7);
	ck_assert_int_eq(LI_MEM, 10);
}
END_TEST

static Suite *
jobctl_suite(void)
{
	Suite *s = suite_create("jobctl");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_good, 0, (int)ARRAY_SIZE(good));
	tcase_add_loop_test(tc, test_bad, 0, (int)ARRAY_SIZE(bad));
	tcase_add_test(tc, test_null);
	tcase_add_test(tc, test_action);
	tcase_add_loop_test(tc, test_warning, 0, (int)ARRAY_SIZE(warns));
	tcase_add_test(tc, test_susp_bits);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(jobctl_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
