/*
 * What bstop, bresume, brequeue, btop, bbot, bswitch, brun and bmig
 * share: job IDs and filters into a ctrl_req, one request to mbatchd,
 * LSF's line per job.
 */
#ifndef CMD_JOBCTL_H
#define CMD_JOBCTL_H

#include "proto.h"

/* The job IDs of argv into rq ("0" = all matching); exits on a bad ID. */
void	 jobctl_ids(struct ctrl_req *, char **argv, int argc);
/*
 * Send rq and print, for each job, "Job <N> <ok>" on stdout or
 * "Job <N>: <why>" on stderr.  ok may hold "%d" for the position
 * (btop, bbot: printed on stderr, as LSF does) and "%s" for the queue
 * (bswitch).  Returns the exit status: 0 when every job was acted on,
 * else 255.
 */
int	 jobctl_send(struct ctrl_req *, const char *ok);

#endif
