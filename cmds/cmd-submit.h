#ifndef CMD_SUBMIT_H
#define CMD_SUBMIT_H

#include "bsub-opts.h"
#include "client.h"

/* "...: why. Job not submitted." on stderr, and exit 255. */
void NORETURN	 not_submitted(const char *fmt, ...)
		    __attribute__((format(printf, 1, 2)));
/* The request for options g (the command or script already in rq); cwd
 * is where the command runs.  -1 with *cause on a bad time. */
int	 make_request(const struct bsub_opts *g, const char *cwd,
	    struct submit_req *rq, char **cause);
/* Send w, framed, and take the MSG_SUBMIT_REPLY; errors exit. */
int	 submit_call(const char *prog, struct wbuf *w,
	    struct submit_reply *rep);

#endif
