/*
 * bbot: move a pending job to a position from the bottom of its queue,
 * among the jobs of the same user priority (a user's among his own).
 * The order is the dispatch order bjobs shows.
 */
#include "cmd-jobctl.h"
#include "proto.h"

/* LSF's options this version does not do: refused by name. */
static const struct cmdopt bbot_lsf[] = {
	CMDOPT_UNSUP("u", false),
	{ NULL, false, 0 }
};

static const struct jobctl_entry bbot_entry = {
	.name = "bbot",
	.op = JC_BOTTOM,
	.opts = "",
	.args = JOBCTL_JOB_POSITION,
	.usage = "bbot [-h] [-V] jobId | \"jobId[index]\" [position]",
	.says = JOBCTL_SAY_MOVED,
	.lsf = bbot_lsf,
	.done = "bottom",
};

int
main(int argc, char **argv)
{
	return jobctl_main(&bbot_entry, argc, argv);
}
