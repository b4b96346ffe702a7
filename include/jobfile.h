/*
 * bsub -yaml and bsub -json: a job file of options grouped under their
 * category (io, limit, notify, properties, resource, schedule), each key
 * an option's name without the '-' or its alias, and the command at the
 * top level.  Each key goes through bsub_opts_one(), the checks of the
 * command line; no I/O but reading the file.
 */
#ifndef LSF_JOBFILE_H
#define LSF_JOBFILE_H

#include <stddef.h>

#include "bsub-opts.h"

enum jobfile_kind {
	JOBFILE_YAML,
	JOBFILE_JSON,
};

/*
 * Read path into g; *command (allocated) gets the top-level "command",
 * or NULL.  Returns 0, or -1 with *cause (allocated) saying
 * "file:line: key: why".
 */
int	 jobfile_read(const char *path, enum jobfile_kind, struct bsub_opts *g,
	    bsub_unit_fn, char **command, char **cause);
/* The same from text in memory; name is the file's, for messages. */
int	 jobfile_parse(const char *name, const char *text, size_t len,
	    enum jobfile_kind, struct bsub_opts *g, bsub_unit_fn,
	    char **command, char **cause);
/* The option a key names (its name or alias), or NULL. */
const char *jobfile_option(const char *key);

#endif
