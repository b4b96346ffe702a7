/*
 * libFuzzer target: any line as an lsb.events record, through the
 * checksum check and every typed reader.  A record whose checksum is
 * wrong is fixed up first, so the readers see the bytes themselves.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define READ(x)								\
	do {								\
		struct x v;						\
		struct ev_reader r2 = r;				\
		(void)x##_read(&r2, &v);				\
		x##_release(&v);					\
	} while (0)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ev_reader r;
	const char *why;
	char *line;
	size_t n;

	if (memchr(data, '\n', size))
		return 0;
	/* The bytes, then a checksum that matches them. */
	line = malloc(size + 11);
	memcpy(line, data, size);
	snprintf(line + size, 11, " @%08" PRIx32,
	    crc32c(0, data, size));
	n = size + 10;
	(void)evr_init(&r, (const char *)data, size, &why);
	if (evr_init(&r, line, n, &why) == 0) {
		READ(ev_job_new);
		READ(ev_job_env);
		READ(ev_job_start);
		READ(ev_job_execute);
		READ(ev_job_status);
		READ(ev_job_signal);
		READ(ev_job_clean);
		READ(ev_mbd_start);
		READ(ev_mbd_die);
		{
			/* Replay's borrowing reader. */
			struct strbuf scratch = STRBUF_INIT;
			struct ev_job_new v;
			struct ev_reader r2 = r;

			evr_set_scratch(&r2, &scratch);
			(void)ev_job_new_peek(&r2, &v);
			sb_release(&scratch);
		}
	}
	free(line);
	return 0;
}
