/*
 * libFuzzer target: lsb.events.  An input without a newline is one
 * record: through the checksum check, every typed reader, the switch's
 * classifier and the header parser.  A record whose checksum is wrong is
 * fixed up first, so the readers see the bytes themselves; it is also
 * read as a seal line (lsb.events.seal).  An input with newlines is a
 * whole file, replayed the way mbatchd starts, with every record read
 * and noted as a log switch would, and its last line without a newline
 * judged torn or damaged.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "evlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define READ(x)								\
	do {								\
		struct x v;						\
		struct ev_reader r2 = *r;				\
		(void)x##_read(&r2, &v);				\
		x##_release(&v);					\
	} while (0)

static void
read_all(const struct ev_reader *r, struct ev_sw_sel *sel, off_t off)
{
	struct ev_sw_rec sw;

	READ(ev_job_new);
	READ(ev_job_env);
	READ(ev_job_start);
	READ(ev_job_execute);
	READ(ev_job_status);
	READ(ev_job_signal);
	READ(ev_job_clean);
	READ(ev_mbd_start);
	READ(ev_mbd_die);
	READ(ev_job_move);
	READ(ev_job_switch);
	READ(ev_job_requeue);
	READ(ev_job_force);
	READ(ev_mig);
	READ(ev_job_modify);
	READ(ev_log_switch);
	{
		struct ev_ctrl v;
		struct ev_reader r2 = *r;

		(void)ev_ctrl_read(&r2, &v);
		ev_ctrl_release(&v);
	}
	{
		/* Replay's borrowing reader. */
		struct strbuf scratch = STRBUF_INIT;
		struct ev_job_new v;
		struct ev_reader r2 = *r;

		evr_set_scratch(&r2, &scratch);
		(void)ev_job_new_peek(&r2, &v);
		sb_release(&scratch);
	}
	{
		struct ev_reader r2 = *r;

		if (ev_sw_classify(&r2, &sw) == 0) {
			ev_sw_note(sel, &sw, off, off % 2 == 0);
			ev_sw_rec_release(&sw);
		}
	}
}

static int
replayed(void *arg, struct ev_reader *r, off_t off)
{
	read_all(r, arg, off);
	return 0;
}

static void
one_record(const uint8_t *data, size_t size)
{
	struct ev_sw_sel sel;
	struct ev_reader r;
	const char *why;
	char *line;
	int64_t v;

	(void)evlog_header_parse((const char *)data, size, &v, &why);
	/* The bytes, then a checksum that matches them. */
	line = malloc(size + 11);
	memcpy(line, data, size);
	snprintf(line + size, 11, " @%08" PRIx32, crc32c(0, data, size));
	(void)evr_init(&r, (const char *)data, size, &why);
	{
		struct evlog_seal s;

		(void)evlog_seal_parse((const char *)data, size, &s, &why);
		(void)evlog_seal_parse(line, size + 10, &s, &why);
	}
	ev_sw_sel_init(&sel);
	if (evr_init(&r, line, size + 10, &why) == 0)
		read_all(&r, &sel, 0);
	ev_sw_decide(&sel);
	ev_sw_sel_release(&sel);
	free(line);
}

static void
whole_file(const uint8_t *data, size_t size)
{
	struct ev_sw_sel sel;
	char *cause = NULL;
	off_t end;
	int fd;

	if ((fd = memfd_create("lsb.events", 0)) < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	ev_sw_sel_init(&sel);
	if (evlog_replay_fd(fd, "lsb.events", replayed, &sel, &end,
	    &cause) == 0 && (size_t)end < size) {
		(void)evlog_tail_check_buf("lsb.events", (const char *)data +
		    end, size - (size_t)end, end, -1, &cause);
	}
	ev_sw_decide(&sel);
	ev_sw_sel_release(&sel);
	free(cause);
	close(fd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (memchr(data, '\n', size) != NULL)
		whole_file(data, size);
	else
		one_record(data, size);
	return 0;
}
