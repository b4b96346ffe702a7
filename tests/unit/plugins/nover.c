/* A plug-in without LSF_FSADJUST_PLUGIN: refused (check_fsadjust). */
#include "lsf-fsadjust.h"

double
lsf_fairshare_adjust(const struct lsf_fs_account *a)
{
	return 1;
}
