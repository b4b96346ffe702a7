/*
 * How the commands print jobs: the bjobs -o field catalog, host lists,
 * memory amounts, exit codes, and the long-format line wrapping that
 * bjobs -l, bhist -l and bacct -l share.
 */
#ifndef LSF_JOBFMT_H
#define LSF_JOBFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "proto.h"
#include "util.h"

/* One column of bjobs -o. */
struct jfield {
	const char	*name;		/* as written: jobid, stat, ... */
	const char	*header;	/* JOBID, STAT, ... */
	int		 width;		/* recommended width for "name:" */
	void		(*get)(const struct job_info *, const char *unit,
			    struct strbuf *);
	uint64_t	 need;		/* JI() bits get reads, beyond JI_BASE */
};

/* bjobs -hms: durations and time limits as hh:mm:ss. */
extern bool	 jobfmt_hms;
/* bjobs -UF: long-format lines whole, never cut at 79 columns. */
extern bool	 jobfmt_unformatted;

/* Look up a field by name or alias (case-insensitive). */
const struct jfield *jfield_find(const char *);

/* A parsed -o specification. */
struct jcol {
	const struct jfield *f;
	int		 width;		/* 0: as wide as the value */
	bool		 right;		/* "-": right-justify */
	char		*unit;		/* KB MB GB TB for memory fields */
};
struct jformat {
	struct jcol	*cols;
	int		 ncols;
	char		*delimiter;	/* NULL: one space */
};
/* Parse "jobid stat:8 max_mem:-:MB delimiter='^'"; -1 with *bad set to
 * the offending word (allocated). */
int	 jformat_parse(struct jformat *, const char *spec, char **bad);
void	 jformat_release(struct jformat *);
/* The job_info fields the columns need (JI() bits, JI_BASE included). */
uint64_t jformat_fields(const struct jformat *);

/* "hostA", "2*hostA", with sep between hosts: "2*hostA:hostB". */
char	*jobfmt_hosts(const struct strv *slots, const char *sep);
/* "2 Mbytes", "5.2 Gbytes" (LSF's memory wording); "-" when unknown. */
void	 jobfmt_mem(int64_t kb, struct strbuf *);
/* A memory limit in unit (LSF_UNIT_FOR_LIMITS; NULL: KB), as bjobs -l
 * shows it: "   37.1 G". */
void	 jobfmt_limit_mem(int64_t kb, const char *unit, struct strbuf *);
/* The exit code of a finished job: 128+signal for a signal. */
int	 jobfmt_exit_code(const struct job_info *);
/* "123" or "123[4]". */
void	 jobfmt_id(const struct job_info *, char *buf, size_t len);
/* cwd with the home directory written as $HOME. */
char	*jobfmt_home_path(const char *path, const char *home);

/*
 * Long formats build each logical line and cut it as LSF does: the first
 * physical line holds 79 characters, every further one 21 blanks and 58
 * characters, even in the middle of a word.
 */
void	 jobfmt_wrap(FILE *, const char *line);
/* "Mon Nov  2 01:23:45: " prefix helper. */
void	 jobfmt_stamp(struct strbuf *, int64_t t);

#endif
