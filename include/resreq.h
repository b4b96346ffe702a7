/*
 * Resource requirement strings (bsub -R, queue RES_REQ):
 *
 *   select[expr] order[idx:-idx] rusage[res=val[:duration=m][:decay=1],...]
 *   span[hosts=1 | ptile=N] same[res]
 *
 * A string without sections is a select expression; the old form
 * "r1m=0.5:swp=20" is also a select.  Several -R strings are merged
 * (resreq_merge_job) and the queue's RES_REQ is merged with the job's as
 * LSF does (resreq_merge_queue).  Pure code: parsing and evaluation only.
 */
#ifndef LSF_RESREQ_H
#define LSF_RESREQ_H

#include <stdbool.h>

#include "lsf.h"
#include "util.h"

struct rr_expr;			/* select expression tree */

struct rr_order {
	char	*name;		/* load index or numeric resource */
	bool	 reverse;	/* written with a leading '-' */
};

struct rr_usage {
	char	*name;		/* mem, swp, tmp, or a numeric resource */
	double	 value;		/* mem/swp/tmp in MB */
	int	 duration;	/* minutes, 0 = whole job */
	bool	 decay;
	int	 idx;		/* name's load index, -1 none */
};

struct resreq {
	char		*text;		/* as given */
	struct rr_expr	*select;	/* NULL: no select section */
	struct rr_order	*order;
	int		 norder;
	struct rr_usage	*rusage;
	int		 nrusage;
	int		 span_hosts;	/* -1 unset; 1 = all on one host */
	int		 span_ptile;	/* -1 unset */
	char		*same;		/* same[] contents or NULL */
};

/* What a host looks like to a select expression or an order[]. */
struct rr_host {
	const char	*name;
	const char	*type;
	const char	*model;
	const float	*load;		/* NLOADIDX values */
	int		 ncpus;
	float		 cpuf;
	int		 maxmem;	/* MB */
	int		 maxswp;
	int		 maxtmp;
	const struct strv *resources;	/* Boolean resources it has */
	bool		 server;
	const struct strv *ext;		/* ELIMs' indices, name=value */
};

void	 resreq_init(struct resreq *);
void	 resreq_release(struct resreq *);

/*
 * Parse one string.  unit is LSF_UNIT_FOR_LIMITS (bare mem/swp/tmp values
 * are MB when the unit is KB or MB, else in that unit).  On error returns
 * -1 and sets *cause to an allocated message.
 */
int	 resreq_parse(struct resreq *, const char *text, const char *unit,
	    char **cause);
/* Merge several bsub -R strings into one (select AND-ed, rusage items
 * added up, a resource named twice taking the later value; order, span
 * and same from the later string when both have them). */
int	 resreq_merge_job(struct resreq *out, const struct strv *texts,
	    const char *unit, char **cause);
/* The effective requirement of a job in a queue: select AND-ed, queue
 * order ignored when the job has any requirement, queue rusage bounds and
 * overrides, queue span ignored when the job has one.  q or job may be
 * NULL (absent).  Returns -1 with *cause when the job asks for more
 * rusage than the queue allows. */
int	 resreq_merge_queue(struct resreq *out, const struct resreq *q,
	    const struct resreq *job, char **cause);

/*
 * The first resource the requirement names that is neither a built-in
 * index nor one known() accepts (the cluster's lsf.shared resources):
 * NULL if none, else the name (borrowed) and *section, "select" or
 * "rusage".  LSF refuses such a job at submission.
 */
typedef bool (*resreq_known_fn)(const char *name, void *arg);
const char *resreq_unknown_name(const struct resreq *, resreq_known_fn known,
	    void *arg, const char **section);
/* An external index of the host ("name=value" in h->ext): false when
 * it has none. */
bool	 resreq_ext_value(const struct rr_host *, const char *name, double *);
/* Does the host satisfy the select expression (true if none)? */
bool	 resreq_select(const struct resreq *, const struct rr_host *);
/* Order hosts: <0 when a is better than b, by order[] (default
 * r15s:pg when the requirement has none), then by name. */
int	 resreq_order_cmp(const struct resreq *, const struct rr_host *a,
	    const struct rr_host *b);
/*
 * The same order as sort keys, to compute once per host before a sort:
 * resreq_order_values fills resreq_order_nkeys() values for a host,
 * smaller is better, and resreq_order_cmp_values compares two hosts'
 * values (0 on a tie, which the caller breaks by name).  Loads within
 * about 0.1% tie, and the order is a true ordering.
 */
int	 resreq_order_nkeys(const struct resreq *);
void	 resreq_order_values(const struct resreq *, const struct rr_host *,
	    double *v);
int	 resreq_order_cmp_values(const double *a, const double *b, int n);
/* Do the two ask for the same thing (select, order, rusage, span, same),
 * whatever their text?  NULL equals only NULL. */
bool	 resreq_equal(const struct resreq *, const struct resreq *);
/* Do the two order hosts the same way?  Which load indices (bit i for
 * index i) does the order compare? */
bool	 resreq_order_same(const struct resreq *, const struct resreq *);
unsigned resreq_order_loads(const struct resreq *);
/* LSF's display form, e.g. "select[type == local] order[r15s:pg] ". */
char	*resreq_to_string(const struct resreq *);
/* Deep copy. */
void	 resreq_copy(struct resreq *dst, const struct resreq *src);

/*
 * Between src/resreq*.c only; other code uses the functions above.
 * resreq_parse, the merges and resreq_copy initialise *out themselves, so
 * release what it held first.
 */
#define RR_MAX_TEXT	65536	/* longest string resreq_parse takes */
#define RR_MAX_DEPTH	256	/* deepest expression nesting accepted */

/* Parse s[0..len) as a select expression; oldform also accepts the
 * "r1m=0.5:swp=20" form. */
int	 rr_expr_parse(struct rr_expr **, const char *s, size_t len,
	    const char *unit, bool oldform, char **cause);
/* a && b, taking both (either may be NULL). */
struct rr_expr *rr_expr_and(struct rr_expr *, struct rr_expr *);
struct rr_expr *rr_expr_copy(const struct rr_expr *);
void	 rr_expr_free(struct rr_expr *);
bool	 rr_expr_eval(const struct rr_expr *, const struct rr_host *);
void	 rr_expr_print(struct strbuf *, const struct rr_expr *);
bool	 rr_expr_equal(const struct rr_expr *, const struct rr_expr *);
/* The first Boolean-resource name of the tree known() refuses. */
const char *rr_expr_unknown(const struct rr_expr *, resreq_known_fn, void *);
/* A number at s with an optional K/M/G/T[B] suffix (converted to MB);
 * returns the characters used, 0 if none. */
size_t	 rr_scan_number(const char *s, const char *end, double *,
	    bool *has_unit);
/* MB in one LSF_UNIT_FOR_LIMITS unit as bare mem/swp/tmp values use it. */
double	 rr_unit_mb(const char *unit);
/* Shortest of "%.2f" or "%g" forms that reads back to the same value. */
void	 rr_print_number(struct strbuf *, double);
/* The first few characters at s, printable, for error messages. */
char	*rr_snippet(const char *s, size_t len);

#endif
