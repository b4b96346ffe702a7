/*
 * brequeue: kill and requeue jobs, or requeue finished ones: same job ID,
 * same submit time, back to PEND (-H: PSUSP) at the head of the queue.
 */
#include "cmd-jobctl.h"
#include "proto.h"

/* LSF's options this version does not do: refused by name. */
static const struct cmdopt brequeue_lsf[] = {
	CMDOPT_UNSUP("p", false),
	{ NULL, false, 0 }
};

static const struct jobctl_entry brequeue_entry = {
	.name = "brequeue",
	.op = JC_REQUEUE,
	.opts = "JmquderaH",
	.name_bad_option = true,
	.args = JOBCTL_JOBS,
	.usage = "brequeue [-h] [-V] [-d] [-e] [-r] [-a] [-H] [-J job_name] "
	    "[-u user | all] [jobId | \"jobId[index]\" | 0 ...]",
	.says = JOBCTL_SAY_DONE,
	.lsf = brequeue_lsf,
	.done = "is being requeued",
};

int
main(int argc, char **argv)
{
	return jobctl_main(&brequeue_entry, argc, argv);
}
