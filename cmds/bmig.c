/*
 * bmig: migrate started rerunnable jobs: kill them and run them again from
 * the start, with LSB_RESTART=Y, on other hosts (-m) if given.
 */
#include "cmd-jobctl.h"
#include "proto.h"

static const struct jobctl_entry bmig_entry = {
	.name = "bmig",
	.op = JC_MIG,
	.opts = "Jmquf",
	.hosts = true,
	.name_bad_option = true,
	.args = JOBCTL_JOBS,
	.usage = "bmig [-h] [-V] [-f] [-m \"host ...\"] [-J job_name] "
	    "[-u user | all] [jobId | \"jobId[index]\" | 0 ...]",
	.says = JOBCTL_SAY_DONE,
	.done = "is being migrated",
};

int
main(int argc, char **argv)
{
	return jobctl_main(&bmig_entry, argc, argv);
}
