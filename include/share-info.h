/*
 * A share tree as the commands see it (MSG_FS_LIST, proto.h): its nodes
 * as rows, with each figure read at one time, and USER_SHARES as shown.
 */
#ifndef LSF_SHARE_INFO_H
#define LSF_SHARE_INFO_H

#include <stdint.h>

#include "fairshare.h"
#include "proto.h"

/* The nodes below the root, parents before children, each with its
 * parent's row (-1 the root), at time now; the rows are the caller's
 * (fs_row_release each, then free). */
void	 share_rows(struct fs_tree *, int64_t now, struct fs_row **rows,
	    uint32_t *nrows);
/* "[alice, 10] [bio@, 5] [default, 1]" from the parsed entries; when
 * there are none, what is inside USER_SHARES[...] of written. */
char	*share_text(const struct fs_shares *, const char *written);

#endif
