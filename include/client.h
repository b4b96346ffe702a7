/*
 * What the commands share: the configuration, the way to mbatchd (a
 * Unix-domain socket on the master host) and to the LIMs (TCP), request
 * and reply, and parsing of job IDs.
 */
#ifndef LSF_CLIENT_H
#define LSF_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "conf.h"
#include "proto.h"
#include "wire.h"

/* Load the configuration (dies with the diagnostics on errors). */
const struct lsf_config *client_config(unsigned parts);
/* The socket mbatchd listens on for commands (needs LSB_SHAREDIR). */
char	*mbd_socket_path(const struct lsf_config *);
/* A LIM's administrator socket (lsadmin reconfig, limrestart), or NULL
 * without LSB_SHAREDIR. */
char	*lim_socket_path(const struct lsf_config *, const char *host);

/* A reply frame. */
struct reply {
	struct wire_hdr	 hdr;
	uint8_t		*body;
	struct rbuf	 r;
};
void	 reply_release(struct reply *);

/*
 * Connect to mbatchd.  While it does not answer, prints "batch system
 * daemon not responding ... still trying" once and keeps trying, up to
 * LSB_NTRIES attempts when that is set (else for 10 minutes); then exits
 * with LSF's message.
 */
int	 mbd_connect(void);
/*
 * Send the request and read one reply frame; -1 on a broken connection
 * (the caller prints its own message) or when mbatchd says nothing for
 * LSB_API_RECVTIMEOUT seconds (600 unset; "batch system daemon not
 * responding" is printed then).
 */
int	 mbd_call(int fd, const struct wbuf *req, struct reply *out);
/* Read the next frame of a multi-frame reply. */
int	 mbd_next(int fd, struct reply *out);
/* Wait that long for mbatchd's next byte instead; 0 waits for ever
 * (bsub -K: a job may run for days). */
void	 mbd_recv_timeout(long seconds);
/* If the reply is MSG_ERROR, unpack it into e (returns true). */
bool	 reply_is_error(struct reply *, struct msg_error *e);

/* -V: LSF's version line (product, date), then this project's; stderr. */
void	 print_version(void);

/*
 * Ask the LIMs: the master candidates in order, following MSG_REDIRECT
 * to the master.  Returns -1 when no LIM answers.
 */
int	 lim_call(const struct wbuf *req, struct reply *out);
/* Ask the LIM of one host only (lsadmin showconf lim -h host); -1 when
 * it does not answer. */
int	 lim_call_host(const char *host, const struct wbuf *req,
	    struct reply *out);

/*
 * Job IDs on command lines: "123", "123[4]", "123[1-5,7]" (elements),
 * and, leniently, "Job <123> ..." as workflow tools pass it.  Appends to
 * the list; returns -1 on a malformed ID.
 */
int	 parse_job_id(const char *, struct job_id **ids, uint32_t *n);

#endif
