/*
 * libFuzzer target: any bytes, as a frame header and as the body of every
 * message type, must be refused or read without a crash, a leak or an
 * out-of-bounds read; what is accepted must re-encode to the same bytes.
 * The bodies that are not one struct are read too: name lists, counted
 * lists of results, and bjobs' paged job lists read into one array.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "wire.h"

#define ROUND(x)							\
	do {								\
		struct x v;						\
		struct rbuf r;						\
		rbuf_init(&r, body, n);					\
		if (x##_unpack(&r, &v) && rbuf_end(&r) == 0) {		\
			struct wbuf w;					\
			wbuf_init(&w);					\
			wbuf_begin(&w, 1, 0, 0);			\
			x##_pack(&w, &v);				\
			wbuf_end_frame(&w);				\
			if (w.len - WIRE_HDR_LEN != n ||		\
			    memcmp(w.data + WIRE_HDR_LEN, body, n) != 0) \
				abort();				\
			wbuf_release(&w);				\
		}							\
		x##_release(&v);					\
	} while (0)

/* "u32 n, n x x", as the replies to signals, queue, host and admin
 * queries are read. */
#define COUNTED(x, min)							\
	do {								\
		struct rbuf r;						\
		uint32_t c;						\
		rbuf_init(&r, body, n);					\
		if (!get_count(&r, &c, min))				\
			break;						\
		for (uint32_t i = 0; i < c; i++) {			\
			struct x v;					\
			bool ok = x##_unpack(&r, &v);			\
			x##_release(&v);				\
			if (!ok)					\
				break;					\
		}							\
		(void)rbuf_end(&r);					\
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Two pages of bjobs into one array, the way bjobs reads them. */
static void
job_pages(const uint8_t *body, size_t n)
{
	struct job_list l;
	struct rbuf r;
	uint32_t cap = 0;

	memset(&l, 0, sizeof(l));
	for (int page = 0; page < 2; page++) {
		bool ok;

		rbuf_init(&r, body, n);
		ok = job_list_unpack_reuse(&r, &l, &cap);
		/* The jobs of a page are the caller's, the array is kept. */
		for (uint32_t i = 0; i < l.njobs; i++)
			job_info_release(&l.jobs[i]);
		free(l.missing);
		if (!ok)
			break;
		(void)rbuf_end(&r);
	}
	free(l.jobs);
}

static void
name_list(const uint8_t *body, size_t n)
{
	struct strv v = STRV_INIT;
	struct rbuf r;

	rbuf_init(&r, body, n);
	if (get_strv(&r, &v))
		(void)rbuf_end(&r);
	strv_release(&v);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wire_hdr h;
	const char *why;
	const uint8_t *body = data;
	size_t n = size;

	(void)wire_parse_hdr(data, size, &h, &why);
	/* Every struct proto.h lists, so a new message is fuzzed too. */
#define ROUND_(x)	ROUND(x);
	PROTO_MESSAGES(ROUND_)
	PROTO_ITEMS(ROUND_)
#undef ROUND_
	COUNTED(job_result, 1);
	COUNTED(queue_info, 1);
	COUNTED(host_info, 1);
	COUNTED(admin_result, 1);
	job_pages(body, n);
	name_list(body, n);
	return 0;
}
