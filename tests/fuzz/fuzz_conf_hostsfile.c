/*
 * libFuzzer target: any bytes as the hosts file, read with the rest of a
 * valid configuration (conf-tree.c) and used as the daemons use it.
 */
#include <stddef.h>
#include <stdint.h>

#include "conf-tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	conf_tree_run("hosts", data, size);
	return 0;
}
