/*
 * mklog: write an lsb.events holding N pending jobs, for the benchmarks
 * that need a large system (bjobs timings, memory, restart time).
 * Submitting a million jobs one bsub at a time would take hours; instead
 * a real cluster makes a template log (one job submitted into an
 * inactive queue), and this tool repeats its JOB_NEW record N times with
 * job IDs 1..N, through the project's own record writer so every record
 * is one mbatchd accepts.
 *
 *	mklog template-lsb.events out-lsb.events N
 *
 * Records of the template before its first JOB_NEW (MBD_START, the
 * QUEUE_CTRL that made the queue inactive) are copied first; lsb.envs
 * is copied as it is by the caller (every job names the template's
 * environment).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evlog.h"
#include "util.h"

#define HEADER_LINE	"#0                  \n"

static void
fail_io(const char *what)
{
	fprintf(stderr, "mklog: %s: %s\n", what, strerror(errno));
	exit(1);
}

int
main(int argc, char **argv)
{
	struct strbuf tmpl = STRBUF_INIT, out = STRBUF_INIT;
	struct ev_job_new ev;
	struct ev_reader r;
	const char *why, *p, *end, *nl;
	char *jobfile = NULL, *orig_jobfile;
	bool have_new = false;
	long long n;
	FILE *fp;

	if (argc != 4) {
		fprintf(stderr, "usage: mklog template out N\n");
		return 2;
	}
	n = atoll(argv[3]);
	if (read_file(argv[1], &tmpl) < 0)
		fail_io(argv[1]);
	fp = fopen(argv[2], "w");
	if (fp == NULL)
		fail_io(argv[2]);
	setvbuf(fp, NULL, _IOFBF, 1 << 20);
	fputs(HEADER_LINE, fp);
	p = tmpl.buf;
	end = tmpl.buf + tmpl.len;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			break;
		if (*p == '#' || nl == p)
			continue;
		if (evr_init(&r, p, (size_t)(nl - p), &why) < 0) {
			fprintf(stderr, "mklog: %s: %s\n", argv[1], why);
			return 1;
		}
		if (strcmp(r.type, "JOB_NEW") == 0) {
			if (ev_job_new_read(&r, &ev) < 0) {
				fprintf(stderr, "mklog: bad JOB_NEW\n");
				return 1;
			}
			have_new = true;
			break;
		}
		fwrite(p, 1, (size_t)(nl - p + 1), fp);
	}
	if (!have_new) {
		fprintf(stderr, "mklog: no JOB_NEW in %s\n", argv[1]);
		return 1;
	}
	orig_jobfile = ev.job_file;
	for (long long i = 1; i <= n; i++) {
		ev.jobid = i;
		free(jobfile);
		jobfile = xasprintf("%lld.%lld", (long long)ev.submit_time, i);
		ev.job_file = jobfile;
		sb_reset(&out);
		ev_job_new_write(&out, ev.submit_time, &ev);
		if (fwrite(out.buf, 1, out.len, fp) != out.len)
			fail_io(argv[2]);
	}
	ev.job_file = orig_jobfile;
	if (fclose(fp) != 0)
		fail_io(argv[2]);
	ev_job_new_release(&ev);
	free(jobfile);
	sb_release(&out);
	sb_release(&tmpl);
	return 0;
}
