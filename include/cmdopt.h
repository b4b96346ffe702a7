/*
 * Option parsing for the commands, the way LSF's commands take options:
 * multi-letter names (-cwd, -noheader, -json, -oo), values attached or
 * separate (-n2, -n 2), single-letter flags bundled (-aJ name), and an
 * option with its value in one argument ("-o jobid stat").
 *
 * A word is first looked up whole, so a command's table lists every
 * option LSF's command has: those this version does not do carry the id
 * CMDOPT_UNSUPPORTED and are refused by name, never read as shorter
 * options with a value attached (-outdir as -o utdir) or as a bundle of
 * flags (-sum as -s -u m).  The first entry of a name wins, so a real
 * entry placed before the unsupported ones overrides them.
 */
#ifndef LSF_CMDOPT_H
#define LSF_CMDOPT_H

#include <stdbool.h>

struct cmdopt {
	const char	*name;		/* without the '-' */
	bool		 arg;		/* takes a value */
	int		 id;		/* returned by cmdopt_next */
};

/* The id of an LSF option this version does not do; cmdopt_next
 * returns it (negative, so "id < 0" still catches it). */
#define CMDOPT_UNSUPPORTED	(-2)
/* A table entry for such an option. */
#define CMDOPT_UNSUP(name, arg)	{ (name), (arg), CMDOPT_UNSUPPORTED }

struct cmdopt_state {
	int		 argc;
	char		**argv;
	int		 i;		/* next argument */
	const char	*bundle;	/* rest of a bundle of flags */
	bool		 permute;	/* options may follow operands */
	char		**operands;	/* collected when permuting */
	int		 noperands;
	const char	*bad;		/* the offending argument on error */
	const char	*opt;		/* the last option as written */
	const struct cmdopt *entry;	/* the last entry matched */
	bool		 quiet;		/* the caller reports unsupported
					   options itself */
};

/*
 * Start after argv[0].  With permute, operands are collected and options
 * after them are still parsed (bjobs 12 -w); without, parsing stops at
 * the first operand (bsub's command).
 */
void	 cmdopt_init(struct cmdopt_state *, int argc, char **argv, bool permute);
/*
 * The next option's id, with its value in *val; 0 at the end; -1 for an
 * unknown option or a missing value (st->bad says which);
 * CMDOPT_UNSUPPORTED for an LSF option this version does not do, having
 * said so on stderr unless st->quiet (cmdopt_unsupported): the command
 * then prints its usage and exits 255 as for a bad option.  "--" ends
 * the options.
 */
int	 cmdopt_next(struct cmdopt_state *, const struct cmdopt *,
	    const char **val);
/*
 * "<prog>: option -<name> is not supported by this version" on stderr,
 * for the option cmdopt_next refused.
 */
void	 cmdopt_unsupported(const struct cmdopt_state *, const char *prog);
/* The option refused as unsupported, "-<name>" (static storage). */
const char *cmdopt_unsupported_name(const struct cmdopt_state *);
/* What is left: operands (permute) or everything after the options. */
char	**cmdopt_rest(struct cmdopt_state *, int *n);
/* Free what cmdopt_init allocated (the operands from cmdopt_rest too). */
void	 cmdopt_release(struct cmdopt_state *);

#endif
