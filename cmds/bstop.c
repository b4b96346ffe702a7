/*
 * bstop: suspend jobs.  A pending job is held (PSUSP); a started one is
 * stopped (SIGSTOP, SIGTSTP for a parallel job) and shows USUSP.
 */
#include "cmd-jobctl.h"
#include "proto.h"

/* LSF's options this version does not do: refused by name. */
static const struct cmdopt bstop_lsf[] = {
	CMDOPT_UNSUP("a", false), CMDOPT_UNSUP("app", true),
	CMDOPT_UNSUP("C", true), CMDOPT_UNSUP("g", true),
	CMDOPT_UNSUP("sla", true),
	{ NULL, false, 0 }
};

static const struct jobctl_entry bstop_entry = {
	.name = "bstop",
	.op = JC_STOP,
	.opts = "Jmqu",
	.name_bad_option = true,
	.args = JOBCTL_JOBS,
	.usage = "bstop [-h] [-V] [-J job_name] [-m host] [-q queue] "
	    "[-u user | all] [jobId | \"jobId[index]\" | 0 ...]",
	.says = JOBCTL_SAY_DONE,
	.lsf = bstop_lsf,
	.done = "is being stopped",
};

int
main(int argc, char **argv)
{
	return jobctl_main(&bstop_entry, argc, argv);
}
