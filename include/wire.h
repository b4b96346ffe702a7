/*
 * The one codec for every message between programs.
 *
 * A frame is a 16-byte header followed by a body:
 *
 *	u32 length	whole frame, header included
 *	u16 type	enum msg_type (proto.h)
 *	u16 version	PROTO_VERSION; a peer with another version is refused
 *	u32 seq		request number, copied into the reply
 *	u32 flags	WIRE_F_* bits
 *
 * Bodies are positional: each message's pack/unpack functions (proto.c)
 * write and read the fields in one order.  Integers are big-endian, a
 * string is a u32 length and its bytes (0xffffffff = NULL), a list is a
 * u32 count and its items.  The reader keeps a sticky error: after one
 * short or malformed field every further get fails, so an unpack function
 * reads everything and checks once, with rbuf_end(), which also refuses
 * leftover bytes.  Nothing read from the wire is trusted: lengths and
 * counts are checked against what is left before anything is allocated.
 */
#ifndef LSF_WIRE_H
#define LSF_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define WIRE_HDR_LEN	16
#define WIRE_MAX_FRAME	(64u * 1024 * 1024)
#define WIRE_MAX_STR	(16u * 1024 * 1024)
/* A command's request: a submission with its script and environment. */
#define WIRE_MAX_REQUEST (16u * 1024 * 1024)

#define WIRE_F_MORE	0x01	/* more frames of this reply follow */

struct wire_hdr {
	uint32_t	 len;
	uint16_t	 type;
	uint16_t	 version;
	uint32_t	 seq;
	uint32_t	 flags;
};

/* Writer: a growable buffer holding one or more frames. */
struct wbuf {
	uint8_t		*data;
	size_t		 len;
	size_t		 cap;
	size_t		 frame;		/* offset of the open frame */
	bool		 open;
};
void	 wbuf_init(struct wbuf *);
void	 wbuf_release(struct wbuf *);
void	 wbuf_reset(struct wbuf *);
/* Start a frame; every put_* goes into it until wbuf_end_frame(). */
void	 wbuf_begin(struct wbuf *, uint16_t type, uint32_t seq, uint32_t flags);
void	 wbuf_end_frame(struct wbuf *);
/* Copy src's frames after w's (neither may have a frame open). */
void	 wbuf_append(struct wbuf *, const struct wbuf *src);
/* Bytes in the open frame so far (to cut long replies into frames). */
size_t	 wbuf_frame_len(const struct wbuf *);

void	 put_u8(struct wbuf *, uint8_t);
void	 put_u16(struct wbuf *, uint16_t);
void	 put_u32(struct wbuf *, uint32_t);
void	 put_u64(struct wbuf *, uint64_t);
void	 put_i32(struct wbuf *, int32_t);
void	 put_i64(struct wbuf *, int64_t);
void	 put_bool(struct wbuf *, bool);
void	 put_double(struct wbuf *, double);
void	 put_float(struct wbuf *, float);
void	 put_str(struct wbuf *, const char *);	/* NULL allowed */
void	 put_bytes(struct wbuf *, const void *, uint32_t);
void	 put_strv(struct wbuf *, const struct strv *);

/* Reader over one frame's body. */
struct rbuf {
	const uint8_t	*p;
	size_t		 len;
	size_t		 off;
	bool		 err;
};
void	 rbuf_init(struct rbuf *, const void *body, size_t len);
bool	 get_u8(struct rbuf *, uint8_t *);
bool	 get_u16(struct rbuf *, uint16_t *);
bool	 get_u32(struct rbuf *, uint32_t *);
bool	 get_u64(struct rbuf *, uint64_t *);
bool	 get_i32(struct rbuf *, int32_t *);
bool	 get_int(struct rbuf *, int *);		/* i32 into an int */
bool	 get_i64(struct rbuf *, int64_t *);
bool	 get_bool(struct rbuf *, bool *);
bool	 get_double(struct rbuf *, double *);
bool	 get_float(struct rbuf *, float *);
/* Allocated copy, NUL-terminated; embedded NULs are an error. */
bool	 get_str(struct rbuf *, char **);
bool	 get_bytes(struct rbuf *, void **, uint32_t *);
bool	 get_strv(struct rbuf *, struct strv *);
/* A count of items each at least min_item bytes long: refuses counts
 * that cannot fit in what is left. */
bool	 get_count(struct rbuf *, uint32_t *, size_t min_item);
/* 0 when every field was read and nothing is left over, else -1. */
int	 rbuf_end(struct rbuf *);
size_t	 rbuf_left(const struct rbuf *);

/*
 * Frame parsing from a byte stream.  Returns 1 and fills hdr when a whole
 * frame is at p (its body at p + WIRE_HDR_LEN), 0 when more bytes are
 * needed, -1 when the header is invalid (*why says how).
 */
int	 wire_parse_hdr(const void *p, size_t avail, struct wire_hdr *hdr,
	    const char **why);

/* Blocking I/O for commands: send a whole buffer (no SIGPIPE); receive
 * one frame into *body (allocated).  timeout_ms is the longest wait for
 * the next byte; < 0 waits forever.  -1 on error/EOF (errno ETIMEDOUT on
 * timeout, EPROTO on a bad frame). */
int	 wire_send(int fd, const struct wbuf *);
int	 wire_recv(int fd, struct wire_hdr *, uint8_t **body, int timeout_ms);
/* The same, refusing (EMSGSIZE) a frame announcing more than max bytes. */
int	 wire_recv_max(int fd, struct wire_hdr *, uint8_t **body,
	    int timeout_ms, uint32_t max);

#endif
