/*
 * bresume: resume jobs held or stopped by bstop.  A held job pends again;
 * a stopped one waits (SSUSP) until its host's load allows, then runs.
 */
#include "cmd-jobctl.h"
#include "proto.h"

/* LSF's options this version does not do: refused by name. */
static const struct cmdopt bresume_lsf[] = {
	CMDOPT_UNSUP("app", true), CMDOPT_UNSUP("C", true),
	CMDOPT_UNSUP("g", true), CMDOPT_UNSUP("sla", true),
	{ NULL, false, 0 }
};

static const struct jobctl_entry bresume_entry = {
	.name = "bresume",
	.op = JC_RESUME,
	.opts = "Jmqu",
	.name_bad_option = true,
	.args = JOBCTL_JOBS,
	.usage = "bresume [-h] [-V] [-J job_name] [-m host] [-q queue] "
	    "[-u user | all] [jobId | \"jobId[index]\" | 0 ...]",
	.says = JOBCTL_SAY_DONE,
	.lsf = bresume_lsf,
	.done = "is being resumed",
};

int
main(int argc, char **argv)
{
	return jobctl_main(&bresume_entry, argc, argv);
}
