/*
 * The share trees of bqueues -l and bhpart: fetched from mbatchd
 * (MSG_FS_QUERY) and printed as LSF's SHARE_INFO_FOR tables.
 */
#ifndef CMD_FAIRSHARE_H
#define CMD_FAIRSHARE_H

#include <stdbool.h>
#include <stdio.h>

#include "proto.h"

/* The trees of kind ("queue" or "hpart") for names (empty = all); a
 * reply that does not read, or rows that do not form a tree, exit 255. */
void	 fs_fetch(const char *kind, const struct strv *names,
	    struct fs_list *);
/* The tree that orders queue, or NULL. */
const struct fs_info *fs_of_queue(const struct fs_list *, const char *queue);
/* "SHARE_INFO_FOR: <name>/" and the accounts under the root; recurse:
 * then a table for each group of the tree, "<name>/<group>/...". */
void	 fs_print(FILE *, const struct fs_info *, bool recurse);

#endif
