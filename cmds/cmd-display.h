/*
 * What the display and admin commands share (bqueues, bhosts, lsload,
 * lshosts, lsid, lsclusters, bparams, badmin, lsadmin): one request to
 * mbatchd or the LIMs with LSF's messages on failure, and the pieces of
 * LSF's table layouts that appear in more than one command.
 */
#ifndef CMD_DISPLAY_H
#define CMD_DISPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "client.h"
#include "util.h"

/* -V: "<LSF product>, <project> <version>" on stderr; exits 0. */
void	 disp_version(void) NORETURN;

/*
 * One request to mbatchd: body is the names (MSG_QUEUE_QUERY, ...) or
 * nothing when names is NULL.  Returns the reply, of type want.  An
 * MSG_ERROR reply is printed as "<context>: <message>" and exits 255;
 * so does a lost connection or a reply of another type.
 */
void	 disp_mbd_query(uint16_t type, const struct strv *names,
	    uint16_t want, struct reply *rp);
/* The same with a request framed by the caller (a body that is not a
 * list of names). */
void	 disp_mbd_call(const struct wbuf *, uint16_t want, struct reply *rp);
/* The same with the LIMs; "LIM is down; try later" when none answers. */
void	 disp_lim_query(uint16_t type, const struct strv *names,
	    uint16_t want, struct reply *rp);
/* A reply that does not unpack: print it and exit 255. */
void	 disp_bad_reply(const char *from) NORETURN;

/*
 * Tables are built a line at a time in a strbuf, each value placed by
 * column (1-based) as LSF's layouts do.  A value that does not fit
 * pushes the rest of the line right; values are always separated by at
 * least one space.
 */
void	 col_right(struct strbuf *, int end, const char *s);
void	 col_left(struct strbuf *, int start, const char *s);
/* Print the line with trailing blanks removed, and empty the buffer. */
void	 col_flush(struct strbuf *, FILE *);

/* A load threshold, printed as lsload prints the index (finer values
 * of the run queue and paging indices keep two decimals). */
void	 disp_threshold_value(int idx, float v, char *buf, size_t len);
/*
 * The loadSched/loadStop table of bqueues -l, bhosts -l and bjobs -l;
 * external indices with thresholds follow in a table of their own.
 * _wire: from a queue_info's or host_info's fields.
 */
struct thresholds;
void	 disp_thresholds(FILE *, const struct thresholds *);
void	 disp_thresholds_wire(FILE *, const float *sched, const float *stop,
	    uint32_t sched_set, uint32_t stop_set, const struct strv *ext);

/* "    KEY = VALUE" lines: bparams -a, badmin and lsadmin showconf. */
void	 disp_kv(FILE *, const struct kv_list *);
/* The value of key in kv, or NULL. */
const char *disp_kv_get(const struct kv_list *, const char *key);
/* Ask the LIM for the load of names (all if empty); exits with LSF's
 * message when one of them is not a host it knows. */
void	 disp_load_list(const struct strv *names, struct lim_load_list *);
/* badmin/lsadmin ckconfig [-v]: check parts, report on stderr. */
int	 disp_ckconfig(int argc, char **argv, unsigned parts,
	    void (*usage)(int) NORETURN);
/* "<what> configuration at Sat Nov 22 04:50:01 2025" */
void	 disp_conf_header(FILE *, const char *what);

/*
 * Shared resources of the ResourceMap (cmd-sharedres.c), one item per
 * instance: lshosts -s (static), lsload -s (dynamic), bhosts -s
 * (numeric).  A name in names that is not a mapped resource is refused
 * with LSF's "Unknown resource name" (exit 255).
 */
#define SHARED_STATIC	0x01
#define SHARED_DYNAMIC	0x02
#define SHARED_NUMERIC	0x04
struct shared_res {
	const char			*name;
	const struct resource_def	*def;
	char				*value;	/* NULL: not known */
	char				*hosts;	/* space-separated */
};
struct shared_res_list {
	struct shared_res	*v;
	size_t			 n;
};
void	 disp_shared_resources(const struct lsf_config *, unsigned what,
	    char *const *names, int nnames, struct shared_res_list *);
void	 shared_res_list_release(struct shared_res_list *);
/* The RESOURCE VALUE LOCATION table of lshosts -s and lsload -s. */
void	 disp_shared_table(FILE *, const struct shared_res_list *);
/* lshosts -s, lsload -s: the resources of that kind (all, or those
 * named) in that table; the command's exit status. */
int	 disp_shared_show(unsigned what, char *const *names, int nnames);

/* Is name in the space-separated list, case-insensitively? */
bool	 disp_in_list(const char *list, const char *name);

#endif
