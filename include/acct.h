/*
 * lsb.acct: LSF's accounting log, LSB_SHAREDIR/<cluster>/logdir/lsb.acct.
 * One JOB_FINISH record a line for each job that finishes (DONE or
 * EXIT), in LSF's field order and in lsb.events' syntax (evlog.h): quoted
 * strings, lists as a count and the items, and our checksum token last.
 * mbatchd writes it (mbd-acct.c); bacct and other readers read it here.
 */
#ifndef LSF_ACCT_H
#define LSF_ACCT_H

#include <stdint.h>

#include "evlog.h"
#include "util.h"

/* What a JOB_FINISH record holds that we know; the rest is written as
 * LSF writes an unknown value ("" or -1 or 0). */
struct acct_finish {
	int64_t		 jobid;
	int		 uid;
	uint32_t	 options;	/* SUB_* */
	int		 num_procs;
	int64_t		 submit_time;
	int64_t		 begin_time;	/* -b, 0 none */
	int64_t		 term_time;	/* -t, 0 none */
	int64_t		 start_time;	/* 0: never started */
	char		*user;
	char		*queue;
	char		*res_req;
	char		*depend_cond;
	char		*pre_exec;
	char		*from_host;
	char		*cwd;
	char		*in_file;
	char		*out_file;
	char		*err_file;
	char		*job_file;
	struct strv	 asked_hosts;
	struct strv	 exec_hosts;	/* one per slot */
	int		 status;	/* JOB_STAT_DONE or JOB_STAT_EXIT */
	double		 host_factor;
	char		*job_name;
	char		*command;
	double		 utime;		/* seconds, -1 unknown */
	double		 stime;
	int64_t		 maxrss;	/* KB, -1 unknown */
	char		*mail_user;
	char		*project;
	int		 exit_status;	/* raw wait status */
	int		 max_procs;
	char		*login_shell;
	int		 idx;
	int64_t		 max_mem_kb;	/* maxRMem, -1 unknown */
	int64_t		 max_swap_kb;	/* maxRSwap, -1 unknown */
	int		 exit_info;	/* TERM_* */
	int		 except_mask;	/* JOB_EXC_* it triggered */
	char		*post_exec;
	uint32_t	 options2;	/* SUB2_* */
	int64_t		 run_limit;	/* seconds, 0 none */
	int64_t		 avg_mem_kb;	/* -1 unknown */
	char		*effective_res_req;
	int64_t		 end_time;	/* the record's eventTime */
};

void	 acct_finish_init(struct acct_finish *);
/* The record, with its newline, appended to the buffer. */
void	 acct_finish_write(struct strbuf *, const struct acct_finish *);
/* After evr_init on the line: 0, or -1 if a field is malformed.  A
 * record another LSF wrote (more fields, no checksum) is for a reader
 * of its own; ours are read back whole. */
int	 acct_finish_read(struct ev_reader *, struct acct_finish *);
void	 acct_finish_release(struct acct_finish *);

#endif
