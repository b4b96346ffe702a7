/*
 * btop: move a pending job to a position from the top of its queue,
 * among the jobs of the same user priority (a user's among his own).
 * The order is the dispatch order bjobs shows.
 */
#include "cmd-jobctl.h"
#include "proto.h"

/* LSF's options this version does not do: refused by name. */
static const struct cmdopt btop_lsf[] = {
	CMDOPT_UNSUP("u", false),
	{ NULL, false, 0 }
};

static const struct jobctl_entry btop_entry = {
	.name = "btop",
	.op = JC_TOP,
	.opts = "",
	.args = JOBCTL_JOB_POSITION,
	.usage = "btop [-h] [-V] jobId | \"jobId[index]\" [position]",
	.says = JOBCTL_SAY_MOVED,
	.lsf = btop_lsf,
	.done = "top",
};

int
main(int argc, char **argv)
{
	return jobctl_main(&btop_entry, argc, argv);
}
