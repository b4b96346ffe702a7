/*
 * Option parsing for the commands, the way LSF's commands take options:
 * multi-letter names (-cwd, -noheader, -json, -oo), values attached or
 * separate (-n2, -n 2), single-letter flags bundled (-aJ name), and an
 * option with its value in one argument ("-o jobid stat").
 */
#ifndef LSF_CMDOPT_H
#define LSF_CMDOPT_H

#include <stdbool.h>

struct cmdopt {
	const char	*name;		/* without the '-' */
	bool		 arg;		/* takes a value */
	int		 id;		/* returned by cmdopt_next */
};

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
};

/*
 * Start after argv[0].  With permute, operands are collected and options
 * after them are still parsed (bjobs 12 -w); without, parsing stops at
 * the first operand (bsub's command).
 */
void	 cmdopt_init(struct cmdopt_state *, int argc, char **argv, bool permute);
/*
 * The next option's id, with its value in *val; 0 at the end; -1 for an
 * unknown option or a missing value (st->bad says which).  "--" ends the
 * options.
 */
int	 cmdopt_next(struct cmdopt_state *, const struct cmdopt *,
	    const char **val);
/* What is left: operands (permute) or everything after the options. */
char	**cmdopt_rest(struct cmdopt_state *, int *n);
/* Free what cmdopt_init allocated (the operands from cmdopt_rest too). */
void	 cmdopt_release(struct cmdopt_state *);

#endif
