/*
 * Job dependency conditions (bsub -w): "done(12) && (exit(\"a*\", >2) ||
 * numdone(40, >= 5))".  Pure code: mbatchd supplies what it knows about
 * the jobs a condition names through a lookup function.
 *
 * Evaluation is three-valued so mbatchd can tell a condition that is not
 * true yet (PEND_DEPEND) from one that never will be (PEND_DEP_INVALID).
 */
#ifndef LSF_DEPEND_H
#define LSF_DEPEND_H

#include <stdint.h>

enum dep_op { DEP_OP_NONE, DEP_OP_EQ, DEP_OP_NE, DEP_OP_GT, DEP_OP_GE,
	DEP_OP_LT, DEP_OP_LE };
/* NEVER: false and can never become true. */
enum dep_value { DEP_FALSE, DEP_TRUE, DEP_NEVER };

/* One job named in a condition. */
struct dep_ref {
	int64_t		 jobid;		/* 0 when named by job name */
	int32_t		 idx;		/* 0: the whole job (every element
					   of an array); >0 one element */
	const char	*name;		/* name pattern ('*' wildcard, may
					   include "[idx]"), NULL by ID */
};

/*
 * What mbatchd knows about the jobs a reference names, summed over every
 * matching job (an array element counts one, a plain job counts one).
 * The counters compare: numdone done, numended done + exit, numexit exit,
 * numhold psusp, numpend pend, numrun and numstart run.  A total of 0 is
 * taken as no match.
 */
struct dep_counts {
	int64_t		 total;
	int64_t		 pend;		/* PEND */
	int64_t		 psusp;
	int64_t		 run;		/* RUN SSUSP USUSP */
	int64_t		 running;	/* RUN only (numrun) */
	int64_t		 done;
	int64_t		 exit;
	int64_t		 started;	/* have started at least once
					   (includes ended ones that ran) */
	int64_t		 post_done;
	int64_t		 post_err;
	int64_t		 exit_match;	/* EXIT jobs whose exit code
					   satisfies the op/code asked
					   (every EXIT when op is
					   DEP_OP_NONE) */
};

/*
 * Returns 0 and fills *counts, or -1 when nothing matches the reference.
 * op and code are those of exit(ref, op code); every other function
 * passes DEP_OP_NONE and 0.
 */
typedef int (*dep_lookup_fn)(void *ctx, const struct dep_ref *, int op,
    int code, struct dep_counts *);

struct dep_expr;	/* opaque */

/* Parse; -1 with an allocated *cause naming the offending part. */
int	dep_parse(const char *text, struct dep_expr **, char **cause);
void	dep_free(struct dep_expr *);
/* Returns an enum dep_value. */
int	dep_eval(const struct dep_expr *, dep_lookup_fn, void *ctx);
/*
 * Call fn on every reference, left to right (bsub checks each names an
 * existing job); stops and returns fn's non-zero value.
 */
int	dep_walk(const struct dep_expr *,
	    int (*fn)(void *arg, const struct dep_ref *), void *arg);

#endif
