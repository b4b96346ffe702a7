/* The request and the replies of the job control commands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "cmd-jobctl.h"

void
jobctl_ids(struct ctrl_req *rq, char **argv, int argc)
{
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "0") == 0) {
			rq->ids = xrealloc(rq->ids, sizeof(*rq->ids) *
			    (rq->nids + 1));
			rq->ids[rq->nids].jobid = 0;
			rq->ids[rq->nids].idx = 0;
			rq->nids++;
			continue;
		}
		if (parse_job_id(argv[i], &rq->ids, &rq->nids) < 0) {
			fprintf(stderr, "%s: Illegal job ID.\n", argv[i]);
			exit(255);
		}
	}
}

int
jobctl_send(struct ctrl_req *rq, const char *ok)
{
	struct wbuf w;
	struct reply rp;
	struct msg_error e;
	struct job_result_list rl;
	int fd, rc = 0;

	wbuf_init(&w);
	ctrl_req_frame(&w, MSG_JOB_CONTROL, 1, rq);
	fd = mbd_connect();
	if (mbd_call(fd, &w, &rp) < 0) {
		fprintf(stderr, "%s: lost the connection to mbatchd\n",
		    progname);
		exit(255);
	}
	wbuf_release(&w);
	if (reply_is_error(&rp, &e)) {
		if (e.context)
			fprintf(stderr, "%s: %s\n", e.context,
			    lsb_errmsg(e.code));
		else
			fprintf(stderr, "%s\n", lsb_errmsg(e.code));
		if (e.detail)
			fprintf(stderr, "%s: %s\n", progname, e.detail);
		exit(255);
	}
	if (rp.hdr.type != MSG_SIGNAL_REPLY ||
	    !job_result_list_unpack(&rp.r, &rl) || rbuf_end(&rp.r) < 0) {
		fprintf(stderr, "%s: unexpected reply from mbatchd\n", progname);
		exit(255);
	}
	for (uint32_t i = 0; i < rl.n; i++) {
		const struct job_result res = rl.v[i];
		char jid[48], line[256];

		if (res.idx > 0)
			snprintf(jid, sizeof(jid), "%lld[%d]",
			    (long long)res.jobid, res.idx);
		else
			snprintf(jid, sizeof(jid), "%lld", (long long)res.jobid);
		if (res.code == LSBE_NO_ERROR) {
			FILE *f = stdout;

			if (strstr(ok, "%d")) {
				/* btop and bbot answer on stderr, as in LSF. */
				snprintf(line, sizeof(line), ok,
				    rq->position < 1 ? 1 : rq->position);
				f = stderr;
			} else if (strstr(ok, "%s")) {
				snprintf(line, sizeof(line), ok,
				    rq->queue ? rq->queue : "");
			} else {
				snprintf(line, sizeof(line), "%s", ok);
			}
			fprintf(f, "Job <%s> %s\n", jid, line);
		} else if (res.jobid == 0) {
			fprintf(stderr, "%s\n", lsb_errmsg(res.code));
			rc = 255;
		} else {
			fprintf(stderr, "Job <%s>: %s\n", jid,
			    lsb_errmsg(res.code));
			rc = 255;
		}
	}
	job_result_list_release(&rl);
	reply_release(&rp);
	close(fd);
	fflush(stdout);
	return rc;
}
