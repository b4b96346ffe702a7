/*
 * bswitch: move jobs to another queue.  The queue must take the job as
 * if it were submitted now; a started job keeps running where it is, so
 * its hosts must be the new queue's too.
 */
#include "cmd-jobctl.h"
#include "proto.h"

/* LSF's options this version does not do: refused by name. */
static const struct cmdopt bswitch_lsf[] = {
	CMDOPT_UNSUP("a", true),
	{ NULL, false, 0 }
};

static const struct jobctl_entry bswitch_entry = {
	.name = "bswitch",
	.op = JC_SWITCH,
	.opts = "Jmqu",
	.name_bad_option = true,
	.args = JOBCTL_QUEUE_JOBS,
	.usage = "bswitch [-h] [-V] [-J job_name] [-m host] [-q queue] "
	    "[-u user | all] destination_queue "
	    "[jobId | \"jobId[index]\" | 0 ...]",
	.says = JOBCTL_SAY_SWITCHED,
	.lsf = bswitch_lsf,
};

int
main(int argc, char **argv)
{
	return jobctl_main(&bswitch_entry, argc, argv);
}
