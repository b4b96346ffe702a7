/*
 * bsub's options, from its command line and from the #BSUB lines of a
 * script, read into a struct with no I/O: cmds/bsub.c prints what goes
 * wrong and builds the request, and the fuzz target and unit tests run
 * the very code bsub runs.
 */
#ifndef LSF_BSUB_OPTS_H
#define LSF_BSUB_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "cmdopt.h"
#include "lsf.h"
#include "util.h"

/* One source of options (script or command line); NULL/0 = not given. */
struct bsub_opts {
	char		*queue;
	char		*name;
	int		 nmin;
	int		 nmax;
	char		*out;
	bool		 out_over;
	char		*err;
	bool		 err_over;
	char		*cwd;
	char		*outdir;	/* -outdir as written */
	struct strv	 res;
	char		*hosts;
	bool		 exclusive;
	int64_t		 runlimit;	/* seconds, 0 = unset */
	int64_t		 memlimit;	/* KB, 0 = unset */
	int64_t		 rlim[LSF_RLIM_NLIMITS]; /* -c -C -D -F -S -v -p */
	char		*term;		/* -t as written */
	char		*pre;		/* -E */
	char		*post;		/* -Ep */
	char		*warn_action;	/* -wa */
	char		*warn_time;	/* -wt as written */
	char		*depend;	/* -w */
	char		*begin;		/* -b as written */
	int		 sprio;		/* -sp, 0 = unset */
	bool		 rerun;
	bool		 hold;
	char		*project;
	char		*group;
	char		*env;
	bool		 block;
	char		*mail;
	bool		 mail_begin;	/* -B */
	bool		 mail_end;	/* -N */
	char		*in;
	char		*shell;
	char		*app;		/* -app */
	char		*chkpnt_dir;	/* -k dir */
	char		*chkpnt_method;	/* -k method=name */
	int64_t		 chkpnt_period;	/* -k period, seconds */
	char		*yaml;		/* -yaml file */
	char		*json;		/* -json file */
	char		*pack;		/* -pack file */
	int		 nopts;		/* options given */
};

/* What stopped the parse, and what *cause then holds (allocated). */
enum bsub_opts_rc {
	BSUB_OPTS_OK,
	BSUB_OPTS_HELP,		/* -h */
	BSUB_OPTS_VERSION,	/* -V */
	BSUB_OPTS_BAD_OPTION,	/* the unknown option, or one without
				   its value */
	BSUB_OPTS_BAD_VALUE,	/* "<value>: Bad argument" and the like */
	BSUB_OPTS_UNSUPPORTED,	/* an option of LSF's bsub this version
				   does not do (a CMDOPT_UNSUPPORTED
				   entry), by name: "-sla" */
};

/*
 * LSF_UNIT_FOR_LIMITS, the unit of a bare memory limit: asked only when
 * a limit is given, since reading it means reading the configuration.
 */
typedef const char *(*bsub_unit_fn)(void);

void	 bsub_opts_init(struct bsub_opts *);
void	 bsub_opts_release(struct bsub_opts *);
/*
 * The options of argv (argv[0] is the program) up to the command; st
 * is left for cmdopt_rest() and cmdopt_release().  Returns an enum
 * bsub_opts_rc, and the first problem stops it.
 */
int	 bsub_opts_parse(struct bsub_opts *, int argc, char **argv,
	    bsub_unit_fn, struct cmdopt_state *st, char **cause);
/*
 * The #BSUB lines of a script, up to its first command.  Words left
 * after a line's options are pushed to ignored.
 */
int	 bsub_opts_script(struct bsub_opts *, const char *script,
	    bsub_unit_fn, struct strv *ignored, char **cause);
/*
 * One option by its name without the '-' and its value (NULL or "" for
 * a flag), through the same checks as on the command line: a job file.
 */
int	 bsub_opts_one(struct bsub_opts *, const char *name, const char *v,
	    bsub_unit_fn, char **cause);
bool	 bsub_opts_takes_value(const char *name);
/* Split a line into words as a shell would; an unquoted '#' word ends
 * it (a #BSUB line, a -pack line). */
void	 bsub_opts_words(const char *line, struct strv *out);
/* Overlay: what src gives wins over dst (the command line over the
 * script). */
void	 bsub_opts_overlay(struct bsub_opts *dst,
	    const struct bsub_opts *src);

#endif
