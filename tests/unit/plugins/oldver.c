/* A plug-in built for another interface version: refused. */
#include "lsf-fsadjust.h"

const int lsf_fairshare_adjust_version = LSF_FSADJUST_VERSION + 1;

double
lsf_fairshare_adjust(const struct lsf_fs_account *a)
{
	return 1;
}
