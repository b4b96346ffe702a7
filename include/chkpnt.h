/*
 * Checkpointing's words: bsub -k "dir [period] [method=name]" and
 * lsb.queues CHKPNT = dir [period], read the one way.  No I/O.
 */
#ifndef LSF_CHKPNT_H
#define LSF_CHKPNT_H

#include <stdbool.h>
#include <stdint.h>

struct chkpnt_spec {
	char		*dir;		/* as written */
	int64_t		 period;	/* minutes, 0 none */
	char		*method;	/* NULL: none given */
};

/*
 * Parse s into c (released by chkpnt_spec_release); with_method, the
 * method=name word of bsub -k is allowed.  -1 with *cause (allocated)
 * when s is not one of the forms.
 */
int	 chkpnt_spec_parse(const char *s, bool with_method,
	    struct chkpnt_spec *c, char **cause);
void	 chkpnt_spec_release(struct chkpnt_spec *);
/* A method names LSF_SERVERDIR's echkpnt.<method>: no slash, no blank. */
bool	 chkpnt_method_ok(const char *);

#endif
