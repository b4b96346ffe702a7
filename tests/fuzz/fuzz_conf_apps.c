/*
 * libFuzzer target: any bytes as lsb.applications, read with the rest of
 * a valid configuration (conf-tree.c) and used as the daemons use it.
 */
#include <stddef.h>
#include <stdint.h>

#include "conf-tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	conf_tree_run(CONF_TREE_LSB "lsb.applications", data, size);
	return 0;
}
