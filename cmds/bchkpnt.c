/*
 * bchkpnt: checkpoint started checkpointable jobs (bsub -k, or a queue
 * with CHKPNT): the execution host runs echkpnt for each; -k kills the
 * job once it is checkpointed, -p sets the checkpoint period (minutes,
 * 0 none).
 */
#include "cmd-jobctl.h"
#include "proto.h"

static const struct jobctl_entry bchkpnt_entry = {
	.name = "bchkpnt",
	.op = JC_CHKPNT,
	.opts = "Jmqukpf",
	.name_bad_option = true,
	.args = JOBCTL_JOBS,
	.usage = "bchkpnt [-h] [-V] [-f] [-k] [-p minutes | -p 0] "
	    "[-J job_name] [-m host | -m host_group] [-q queue] "
	    "[-u user | -u all] "
	    "[jobId | \"jobId[index]\" | 0 ...]",
	.says = JOBCTL_SAY_DONE,
	.done = "is being checkpointed",
};

int
main(int argc, char **argv)
{
	return jobctl_main(&bchkpnt_entry, argc, argv);
}
