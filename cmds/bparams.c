/*
 * bparams: mbatchd's lsb.params values.  The short form is LSF's four
 * lines; -l describes each parameter LSF's -l shows; -a lists every
 * pair mbatchd sends as "    KEY = VALUE", which pollers parse
 * (RESOURCE_RESERVE_PER_TASK among them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-display.h"
#include "cmdopt.h"

enum { O_L = 1, O_A, O_HELP, O_VERSION };

static const struct cmdopt opts[] = {
	{ "l", false, O_L },
	{ "a", false, O_A },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: bparams [-h] [-V] [-l | -a]\n");
	exit(rc);
}

/* The parameters -l explains, in its order, with their unit. */
static const struct {
	const char	*key;
	const char	*desc;
	const char	*unit;
} known[] = {
	{ "DEFAULT_QUEUE", "Queues a job goes to when bsub names none",
	    NULL },
	{ "DEFAULT_PROJECT", "Project of a job submitted without -P", NULL },
	{ "MBD_SLEEP_TIME", "Base interval of mbatchd's periodic work",
	    "seconds" },
	{ "SBD_SLEEP_TIME", "Interval at which sbatchd checks its jobs",
	    "seconds" },
	{ "JOB_ACCEPT_INTERVAL",
	    "Wait before a host gets a second job, in MBD_SLEEP_TIME units",
	    "* MBD_SLEEP_TIME" },
	{ "JOB_SCHEDULING_INTERVAL", "Pause between scheduling sessions",
	    "seconds" },
	{ "CLEAN_PERIOD", "How long finished jobs stay visible to bjobs",
	    "seconds" },
	{ "JOB_TERMINATE_INTERVAL",
	    "Wait between the signals that kill a job", "seconds" },
	{ "PG_SUSP_IT",
	    "Idle time a host needs before paging-suspended jobs resume",
	    "seconds" },
	{ "MAX_SBD_FAIL",
	    "Failed contacts before an sbatchd's host is unreachable", NULL },
	{ "MAX_JOB_NUM", "Finished jobs kept before the event log switches",
	    NULL },
	{ "MAX_JOB_ARRAY_SIZE", "Largest number of elements of a job array",
	    NULL },
	{ "MAX_JOBID", "Largest job ID before the numbers start again", NULL },
	{ "SUB_TRY_INTERVAL", "Wait before bsub retries a refused submission",
	    "seconds" },
	{ "MAX_USER_PRIORITY", "Largest priority a user may give (bsub -sp)",
	    NULL },
	{ "MAX_PEND_JOBS", "Pending jobs a user may have", NULL },
	{ "MAX_JOB_PREEMPT", "Maximum number of times a job can be preempted",
	    NULL },
	{ "DEFAULT_APPLICATION",
	    "Application profile of a job submitted without -app", NULL },
	{ "PREEMPT_FOR",
	    "Limits that leave suspended jobs out, and how victims are chosen",
	    NULL },
	{ "RESOURCE_RESERVE_PER_TASK",
	    "Resource reservation is per task (Y) or per job (N)", NULL },
};

static long
num(const struct kv_list *kv, const char *key, long dflt)
{
	const char *v = disp_kv_get(kv, key);
	long n;

	if (v == NULL || parse_long(v, &n) < 0)
		return dflt;
	return n;
}

static void
short_form(const struct kv_list *kv)
{
	const char *dq = disp_kv_get(kv, "DEFAULT_QUEUE");
	long sleep = num(kv, "MBD_SLEEP_TIME", 10);

	printf("Default Queues:  %s\n", dq ? dq : "default");
	printf("MBD_SLEEP_TIME used for calculations:  %ld seconds\n", sleep);
	printf("Job Checking Interval:  %ld seconds\n",
	    num(kv, "SBD_SLEEP_TIME", 30));
	printf("Job Accepting Interval:  %ld seconds\n",
	    num(kv, "JOB_ACCEPT_INTERVAL", 1) * sleep);
}

static void
long_form(const struct kv_list *kv)
{
	for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
		const char *v = disp_kv_get(kv, known[i].key);

		if (v == NULL)
			continue;
		printf("%s:\n    %s = %s", known[i].desc, known[i].key, v);
		if (known[i].unit)
			printf(" (%s)", known[i].unit);
		printf("\n\n");
	}
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct kv_list kv;
	struct reply rp;
	const char *val;
	bool longform = false, all = false;
	int id, nrest;

	progname = "bparams";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_L: longform = true; break;
		case O_A: all = true; break;
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	(void)cmdopt_rest(&st, &nrest);
	if (nrest > 0)
		usage(255);

	disp_mbd_query(MSG_PARAM_QUERY, NULL, MSG_PARAM_LIST, &rp);
	memset(&kv, 0, sizeof(kv));
	if (!kv_list_unpack(&rp.r, &kv) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("mbatchd");
	if (all) {
		printf("System default parameters:\n");
		disp_kv(stdout, &kv);
	} else if (longform) {
		long_form(&kv);
	} else {
		short_form(&kv);
	}
	kv_list_release(&kv);
	reply_release(&rp);
	cmdopt_release(&st);
	return 0;
}
