/*
 * The configuration fuzz targets: a whole, valid configuration tree in a
 * temporary directory, one file of which each target replaces with its
 * input before config_load() reads the tree.  The readers take paths,
 * not buffers, and a file read alone would miss what the others check
 * against it (queues name host groups, hosts name lsf.shared resources).
 */
#ifndef FUZZ_CONF_TREE_H
#define FUZZ_CONF_TREE_H

#include <stddef.h>
#include <stdint.h>

/* The cluster the tree's lsf.shared names. */
#define CONF_TREE_CLUSTER	"c1"
#define CONF_TREE_LSB		"lsbatch/" CONF_TREE_CLUSTER "/configdir/"

/*
 * Write data as file (a path under LSF_CONFDIR, or "lsf.conf"), load
 * the whole tree, and use what was read the ways the daemons do.
 */
void	 conf_tree_run(const char *file, const uint8_t *data, size_t size);

#endif
