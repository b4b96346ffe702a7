/* A plug-in whose values the loader must tame: by the account's name,
 * NaN, infinite, negative, or the name's length plus the slots started. */
#include <math.h>
#include <string.h>

#include "lsf-fsadjust.h"

LSF_FSADJUST_PLUGIN;

double
lsf_fairshare_adjust(const struct lsf_fs_account *a)
{
	if (strcmp(a->name, "nan") == 0)
		return NAN;
	if (strcmp(a->name, "inf") == 0)
		return INFINITY;
	if (strcmp(a->name, "neg") == 0)
		return -1;
	if (a->version != LSF_FSADJUST_VERSION)
		return -1;
	return (double)strlen(a->name) + a->started;
}
