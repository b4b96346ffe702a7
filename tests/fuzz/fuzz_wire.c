/*
 * libFuzzer target: any bytes, as a frame header and as the body of every
 * message type, must be refused or read without a crash, a leak or an
 * out-of-bounds read; what is accepted must re-encode to the same bytes.
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

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

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
	return 0;
}
