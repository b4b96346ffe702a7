/*
 * brun: an administrator starts a pending job now, on the hosts given,
 * whatever the limits and the load say.  With -f the job is also never
 * suspended for load or a run window.
 */
#include "cmd-jobctl.h"
#include "proto.h"

/* LSF's options this version does not do: refused by name. */
static const struct cmdopt brun_lsf[] = {
	CMDOPT_UNSUP("b", false), CMDOPT_UNSUP("c", false),
	{ NULL, false, 0 }
};

static const struct jobctl_entry brun_entry = {
	.name = "brun",
	.op = JC_FORCE,
	.opts = "fm",
	.hosts = true,
	.args = JOBCTL_JOB_HOSTS,
	.usage = "brun [-h] [-V] [-f] -m \"host_name ...\" "
	    "jobId | \"jobId[index]\"",
	.says = JOBCTL_SAY_DONE,
	.lsf = brun_lsf,
	.done = "is being forced to run.",
};

int
main(int argc, char **argv)
{
	return jobctl_main(&brun_entry, argc, argv);
}
