/*
 * The patterns of bsub -outdir and -cwd paths, replaced when the job
 * starts: %J job ID, %I array index (0 if none), %EJ and %EI the same
 * (one cluster: the execution job is the job), %JG job group (none: it
 * goes), %U user, %G user group (-G), %P project, %H first execution
 * host.  Pure: no I/O.
 */
#ifndef LSF_JOBPATH_H
#define LSF_JOBPATH_H

#include <stdbool.h>
#include <stdint.h>

struct jobpath_vars {
	int64_t		 jobid;
	int		 idx;
	const char	*user;
	const char	*group;		/* NULL: "" */
	const char	*project;
	const char	*host;
};

/* The path with its patterns replaced, allocated; *had (may be NULL)
 * tells whether it had any.  Any other %x is kept as written. */
char	*jobpath_expand(const char *pattern, const struct jobpath_vars *,
	    bool *had);

#endif
