/* check_mbd's stand-ins for mbatchd's I/O (mbd-stubs.c). */
#ifndef MBD_STUBS_H
#define MBD_STUBS_H

#include <stdbool.h>

#include "util.h"

extern struct strbuf mbd_stub_log;	/* every record appended */
extern bool mbd_stub_keep_log;		/* false: records are dropped */
extern int mbd_stub_sends;		/* messages for sbatchds */
extern int mbd_stub_acct;		/* lsb.acct records made */

#endif
