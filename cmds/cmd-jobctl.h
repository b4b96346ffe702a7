/*
 * bstop, bresume, brequeue, btop, bbot, bswitch, brun and bmig: one
 * program.  Each cmds/<name>.c is an entry saying how that command
 * differs (its options, operands, request and answer) and a main that
 * hands it to jobctl_main, which parses the command line into one
 * ctrl_req, sends it to mbatchd and prints LSF's line per job.
 */
#ifndef CMD_JOBCTL_H
#define CMD_JOBCTL_H

#include <stdbool.h>

#include "cmdopt.h"

/* What follows the options. */
enum jobctl_args {
	JOBCTL_JOBS,		/* job IDs ("0": all), or filters alone */
	JOBCTL_QUEUE_JOBS,	/* a queue, then as JOBCTL_JOBS (bswitch) */
	JOBCTL_JOB_POSITION,	/* one job and a position, 1 by default */
	JOBCTL_JOB_HOSTS,	/* one job; -m is required (brun) */
};

/* The line for each job acted on. */
enum jobctl_says {
	JOBCTL_SAY_DONE,	/* "Job <N> <done>" */
	JOBCTL_SAY_MOVED,	/* "Job <N> has been moved to position P from
				 * <done>." on stderr, as LSF does */
	JOBCTL_SAY_SWITCHED,	/* "Job <N> is switched to queue <Q>" */
};

struct jobctl_entry {
	const char	*name;
	int		 op;		/* JC_* */
	/*
	 * Option letters besides -h and -V: J m q u select jobs (m: their
	 * host), f forces, d e r a H are brequeue's; with hosts set, -m
	 * names the hosts to run on instead.
	 */
	const char	*opts;
	bool		 hosts;
	bool		 name_bad_option; /* "<name>: bad option X" first */
	enum jobctl_args args;
	const char	*usage;		/* after "Usage: " */
	enum jobctl_says says;
	const char	*done;		/* SAY_DONE: the words; MOVED: "top" */
	/* LSF's options of the command this version does not do,
	 * refused by name (CMDOPT_UNSUP entries, NULL-terminated). */
	const struct cmdopt *lsf;
};

/* The whole command; returns its exit status. */
int	 jobctl_main(const struct jobctl_entry *, int argc, char **argv);

#endif
