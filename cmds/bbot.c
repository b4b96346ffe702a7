/*
 * bbot: move a pending job to a position from the bottom of its queue,
 * among the jobs of the same user priority (a user's among his own).
 * The order is the dispatch order bjobs shows.
 */
#include "cmd-jobctl.h"
#include "proto.h"

static const struct jobctl_entry bbot_entry = {
	.name = "bbot",
	.op = JC_BOTTOM,
	.opts = "",
	.args = JOBCTL_JOB_POSITION,
	.usage = "bbot [-h] [-V] jobId | \"jobId[index]\" [position]",
	.says = JOBCTL_SAY_MOVED,
	.done = "bottom",
};

int
main(int argc, char **argv)
{
	return jobctl_main(&bbot_entry, argc, argv);
}
