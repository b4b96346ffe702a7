/* A plug-in without its function: refused (check_fsadjust). */
#include "lsf-fsadjust.h"

LSF_FSADJUST_PLUGIN;
