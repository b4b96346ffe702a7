/*
 * ELIM output lines: "N name1 value1 ... nameN valueN", one report per
 * line.  Pure code: lim reads the pipes and keeps the values.
 */
#ifndef LSF_ELIM_H
#define LSF_ELIM_H

#include <stdbool.h>

#define ELIM_MAX_LINE	4096	/* longer lines are refused */
#define ELIM_MAX_PAIRS	64	/* N above this is refused */
#define ELIM_MAX_NAME	39	/* a resource name, as in lsf.shared */

struct elim_pair {
	char	 name[ELIM_MAX_NAME + 1];
	bool	 known;		/* false: the value was "-" */
	double	 value;
};

/*
 * Parse one line (without its newline) into at most ELIM_MAX_PAIRS
 * pairs.  Returns the number of pairs, or -1 with *why set to a static
 * message when the line is malformed (nothing is then used).
 */
int	elim_parse_line(const char *line, struct elim_pair *pairs,
	    const char **why);

#endif
