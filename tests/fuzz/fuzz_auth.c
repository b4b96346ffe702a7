/*
 * libFuzzer target: any bytes as the payload of a MUNGE credential, the
 * claim a peer makes of itself (include/auth.h).  What parses must
 * format back to the same bytes, and formatting must not overrun.  The
 * same bytes as a hello frame's body go through auth_hello_ok.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "proto.h"
#include "wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct auth_claim c;
	const char *why;
	char buf[1024];
	struct auth_hello h;
	struct rbuf r;

	rbuf_init(&r, data, size);
	if (auth_hello_unpack(&r, &h))
		(void)auth_hello_ok(&h, &why);
	auth_hello_release(&h);
	if (auth_claim_parse(data, size, &c, &why) < 0)
		return 0;
	if (auth_claim_format(&c, buf, sizeof(buf)) < 0 ||
	    strlen(buf) != size || memcmp(buf, data, size) != 0)
		abort();
	return 0;
}
