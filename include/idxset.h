/*
 * Job array indices: the "name[1-1000:2,5,7]%10" syntax of bsub -J, and
 * a set of indices kept as ranges, so an array's pending elements cost
 * the same whether there are ten or a million of them.
 */
#ifndef LSF_IDXSET_H
#define LSF_IDXSET_H

#include <stdbool.h>
#include <stdint.h>

struct idx_range {
	int32_t		 start;
	int32_t		 end;		/* inclusive, start + k * step */
	int32_t		 step;
};

struct idxset {
	struct idx_range *r;		/* sorted, not overlapping */
	int		 n;
	int		 cap;
	int64_t		 count;		/* indices in the set */
};

void	 idxset_init(struct idxset *);
void	 idxset_release(struct idxset *);
void	 idxset_copy(struct idxset *dst, const struct idxset *src);
bool	 idxset_contains(const struct idxset *, int32_t idx);
/* Remove one index; false if it was not there. */
bool	 idxset_remove(struct idxset *, int32_t idx);
/* The smallest index, or -1 when empty. */
int32_t	 idxset_first(const struct idxset *);
/* The smallest index greater than after, or -1. */
int32_t	 idxset_next(const struct idxset *, int32_t after);
/* "1-10:2,15,20-30" (allocated). */
char	*idxset_format(const struct idxset *);

/*
 * Split a job name into its base and array part.  Returns 0 for an array
 * ("name[1-10:2,15]%5": *base "name", set, *limit 5 or 0), 1 for a plain
 * name (nothing set), -1 for a malformed array part with *cause (static
 * text).  Indices run from 1 to max_index; repeated indices are refused.
 */
int	 array_spec_parse(const char *name, int32_t max_index, char **base,
	    struct idxset *, int *limit, const char **cause);

#endif
