/*
 * libFuzzer target: job files (src/jobfile.c).  The first byte chooses
 * YAML or JSON, the rest is the file.  Whatever the text, the reader
 * returns 0 or -1 with a cause naming the file, and a command only with
 * 0.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *
unit(void)
{
	return "MB";
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bsub_opts g;
	char *cmd = NULL, *cause = NULL;
	int rc;

	if (size == 0)
		return 0;
	bsub_opts_init(&g);
	rc = jobfile_parse("f", (const char *)data + 1, size - 1,
	    data[0] & 1 ? JOBFILE_JSON : JOBFILE_YAML, &g, unit, &cmd,
	    &cause);
	if (rc == 0 && cause != NULL)
		abort();
	if (rc < 0 && (cause == NULL || strncmp(cause, "f:", 2) != 0 ||
	    cmd != NULL))
		abort();
	free(cmd);
	free(cause);
	bsub_opts_release(&g);
	return 0;
}
