/*
 * A finished job's bjobs answer from its history records (histjob.c,
 * pure): mbatchd gives it for a job asked by ID that it has cleaned
 * (daemons/mbatchd/mbd-histjob.c reads the records from the database).
 */
#ifndef LSF_HISTJOB_H
#define LSF_HISTJOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "evlog.h"
#include "proto.h"

/* The records that make it: the submission and the last run's. */
struct hist_job {
	struct ev_job_new	 new;
	struct ev_job_start	 start;
	struct ev_job_execute	 exec;
	struct ev_job_status	 status;
	bool			 has_new, has_start, has_exec, has_status;
	int64_t			 start_when, status_when;
};

/* Feed the job's records in order (new_only: only a JOB_NEW, an
 * array's for its element); a damaged one is skipped. */
void	 hist_job_take(struct hist_job *, const char *type, const char *line,
	    size_t len, bool new_only);
void	 hist_job_clear(struct hist_job *);
/* Submitted and finished, as far as the records say. */
bool	 hist_job_finished(const struct hist_job *);
/*
 * The reply's job as mbatchd gives it for a finished job in memory;
 * queue and name are its row's (a bswitch, bmod -J, an element's name),
 * or NULL.  Every string is allocated; effective_res_req is NULL when
 * the start did not record one (the caller knows the queue's).
 */
void	 hist_job_fill(struct job_info *, int64_t jobid, int idx,
	    const char *queue, const char *name, const struct hist_job *,
	    bool longform);
/* Free what hist_job_fill allocated. */
void	 hist_job_info_release(struct job_info *);

#endif
