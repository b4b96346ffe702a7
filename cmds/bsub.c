/*
 * bsub: submit a job.
 *
 *	bsub [options] command [arguments]
 *	bsub [options] < script
 *	bsub [options] script		(a text file: its #BSUB lines count)
 *	bsub [options] -yaml|-json file	(options from a job file)
 *	bsub -pack file			(one submission a line)
 *
 * Options come from #BSUB lines of the script first, a job file over
 * them, and the command line over both.  On success stdout is exactly
 * one line, "Job <N> is submitted to [default ]queue <Q>.", which
 * workflow tools parse (one a job with -pack); every other word goes to
 * stderr.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd-submit.h"
#include "jobfile.h"
#include "lsf.h"
#include "timefmt.h"
#include "timespec.h"

static void NORETURN
usage_exit(int code)
{
	fprintf(stderr,
	    "Usage: bsub [-h] [-V] [-B] [-H] [-K] [-N] [-r] [-x]\n"
	    "            [-q \"queue_name ...\"] [-m \"host_name ...\"]\n"
	    "            [-n min_proc[,max_proc]] [-R \"res_req\"]...\n"
	    "            [-J job_name] [-P project_name] [-G user_group]\n"
	    "            [-app application_profile_name]\n"
	    "            [-W [hour:]minute] [-M mem_limit] [-u mail_user]\n"
	    "            [-c [hour:]minute] [-t [[[yyyy:]mm:]dd:]hh:mm]\n"
	    "            [-C core_limit] [-D data_limit] [-F file_limit]\n"
	    "            [-S stack_limit] [-v swap_limit] [-p process_limit]\n"
	    "            [-E \"pre_exec_command\"] [-Ep \"post_exec_command\"]\n"
	    "            [-wa \"signal | CHKPNT\"] [-wt [hour:]minute]\n"
	    "            [-w \"dependency_expression\"] [-sp priority]\n"
	    "            [-b [[[yyyy:]mm:]dd:]hh:mm]\n"
	    "            [-i input_file] [-o out_file | -oo out_file]\n"
	    "            [-e err_file | -eo err_file] [-cwd dir] [-L shell]\n"
	    "            [-outdir output_dir]\n"
	    "            [-k \"chkpnt_dir [chkpnt_period] [method=name]\"]\n"
	    "            [-env \"all | none | var[=value],...\"]\n"
	    "            [-yaml file | -json file]\n"
	    "            [command [argument ...] | script]\n"
	    "       bsub -pack job_submission_file\n");
	exit(code);
}

/* A submission over what mbatchd takes (WIRE_MAX_REQUEST). */
static void NORETURN
too_large(size_t n)
{
	fprintf(stderr, "bsub: the job's script, command and environment "
	    "take %zu bytes; a submission may take %u MB\n", n,
	    WIRE_MAX_REQUEST >> 20);
	not_submitted("Bad argument");
}

static const char *
unit(void)
{
	const struct lsf_config *c = client_config(CONF_SHARED);

	return c->lsf.unit_for_limits ? c->lsf.unit_for_limits : "KB";
}

/* Act on what stopped the parse of options from where. */
static void
parsed(int rc, const char *cause, const char *where)
{
	switch (rc) {
	case BSUB_OPTS_OK:
		return;
	case BSUB_OPTS_HELP:
		usage_exit(0);
	case BSUB_OPTS_VERSION:
		print_version();
		exit(0);
	case BSUB_OPTS_BAD_OPTION:
		fprintf(stderr, "bsub: %s: bad option %s\n", where, cause);
		usage_exit(255);
	case BSUB_OPTS_UNSUPPORTED:
		fprintf(stderr, "bsub: option %s is not supported by this "
		    "version\n", cause);
		not_submitted("Bad argument");
	default:
		not_submitted("%s", cause);
	}
}

/* #BSUB lines up to the first command of the script. */
static void
parse_script(struct bsub_opts *g, const char *script)
{
	struct strv ignored = STRV_INIT;
	char *cause = NULL;
	int rc;

	rc = bsub_opts_script(g, script, unit, &ignored, &cause);
	for (size_t i = 0; i < ignored.n; i++)
		fprintf(stderr, "bsub: #BSUB line: \"%s\" ignored\n",
		    ignored.v[i]);
	parsed(rc, cause, "#BSUB line");
	strv_release(&ignored);
}

static bool
is_text_file(const char *path, bool *executable)
{
	struct stat sb;
	char buf[512];
	ssize_t n;
	int fd;

	if (stat(path, &sb) < 0 || !S_ISREG(sb.st_mode))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0 || memchr(buf, '\0', (size_t)n) != NULL)
		return false;
	*executable = access(path, X_OK) == 0;
	return true;
}

static char *
read_stdin(void)
{
	struct strbuf sb = STRBUF_INIT;
	bool tty = isatty(0);
	char buf[8192];
	ssize_t n;

	if (tty) {
		fputs("bsub> ", stdout);
		fflush(stdout);
	}
	while ((n = read(0, buf, sizeof(buf))) > 0) {
		sb_add(&sb, buf, (size_t)n);
		if (tty && memchr(buf, '\n', (size_t)n)) {
			fputs("bsub> ", stdout);
			fflush(stdout);
		}
	}
	if (tty)
		fputc('\n', stdout);
	return sb_detach(&sb);
}

static int
exit_code_of(int status, int wstatus)
{
	if (status & JOB_STAT_DONE)
		return 0;
	if (wstatus > 0 && WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	if (wstatus > 0 && WEXITSTATUS(wstatus))
		return WEXITSTATUS(wstatus);
	return 255;
}

/* bsub -K: wait for the job, reconnecting if mbatchd restarts. */
static int
block_until_done(int fd, int64_t jobid)
{
	struct wbuf w;
	bool told_start = false;

	fprintf(stderr, "<<Waiting for dispatch ...>>\n");
	mbd_recv_timeout(0);
	for (;;) {
		struct reply rp;
		struct job_event ev;
		struct msg_error e;
		int rc;

		/* Released after every reply, an event or not. */
		memset(&ev, 0, sizeof(ev));
		wbuf_init(&w);
		wbuf_begin(&w, MSG_JOB_WAIT, 2, 0);
		put_i64(&w, jobid);
		wbuf_end_frame(&w);
		rc = mbd_call(fd, &w, &rp);
		wbuf_release(&w);
		while (rc == 0) {
			if (reply_is_error(&rp, &e)) {
				fprintf(stderr, "Job <%lld>: %s\n",
				    (long long)jobid, lsb_errmsg(e.code));
				msg_error_release(&e);
				reply_release(&rp);
				return 255;
			}
			if (rp.hdr.type == MSG_JOB_EVENT &&
			    job_event_unpack(&rp.r, &ev) &&
			    rbuf_end(&rp.r) == 0) {
				if (ev.what == JE_DISPATCHED && !told_start) {
					fprintf(stderr, "<<Starting on %s>>\n",
					    ev.host ? ev.host : "");
					told_start = true;
				} else if (ev.what == JE_FINISHED) {
					int code = exit_code_of(ev.status,
					    ev.exit_status);

					fprintf(stderr, "<<Job is finished>>\n");
					job_event_release(&ev);
					reply_release(&rp);
					return code;
				}
			}
			job_event_release(&ev);
			rc = mbd_next(fd, &rp);
		}
		reply_release(&rp);
		close(fd);
		fd = mbd_connect();
	}
}

/* A job pack's requests on their way, and the line of each. */
struct pack {
	const char	*path;
	struct submit_pack p;
	int		*lines;
	size_t		 bytes;
	int		 bad;		/* lines or jobs not submitted */
	bool		 skip;		/* LSB_PACK_SKIP_ERROR=Y */
	bool		 stop;		/* not skip, and one failed */
};

static void
pack_bad(struct pack *pk, int line, const char *why)
{
	fprintf(stderr, "bsub: %s: line %d: %s. Job not submitted.\n",
	    pk->path, line, why);
	pk->bad++;
}

/* Send the requests gathered so far, and print each one's outcome. */
static void
pack_send(struct pack *pk)
{
	struct submit_pack_reply out;
	struct reply rp;
	struct msg_error e;
	struct wbuf w;
	int fd;

	if (pk->p.n == 0)
		return;
	wbuf_init(&w);
	submit_pack_frame(&w, MSG_SUBMIT_PACK, 1, &pk->p);
	fd = mbd_connect();
	if (mbd_call(fd, &w, &rp) < 0) {
		fprintf(stderr, "bsub: lost the connection to mbatchd; the "
		    "jobs of lines %d-%d may or may not have been submitted "
		    "(check with bjobs)\n", pk->lines[0],
		    pk->lines[pk->p.n - 1]);
		exit(255);
	}
	wbuf_release(&w);
	close(fd);
	if (reply_is_error(&rp, &e)) {
		fprintf(stderr, "bsub: %s: %s%s%s. Jobs not submitted.\n",
		    pk->path, lsb_errmsg(e.code), e.detail ? ": " : "",
		    e.detail ? e.detail : "");
		exit(255);
	}
	if (rp.hdr.type != MSG_SUBMIT_PACK_REPLY ||
	    !submit_pack_reply_unpack(&rp.r, &out) || rbuf_end(&rp.r) < 0 ||
	    out.n != pk->p.n) {
		fprintf(stderr, "bsub: unexpected reply from mbatchd\n");
		exit(255);
	}
	for (uint32_t i = 0; i < out.n; i++) {
		const struct pack_result *r = &out.v[i];
		char *why;

		if (r->jobid > 0) {
			printf("Job <%lld> is submitted to %squeue <%s>.\n",
			    (long long)r->jobid,
			    r->default_queue ? "default " : "",
			    r->queue ? r->queue : "");
			continue;
		}
		pk->stop = !pk->skip;
		if (r->code == 0)	/* after a failure: not tried */
			continue;
		why = r->context ? xasprintf("%s: %s", r->context,
		    lsb_errmsg(r->code)) : xstrdup(lsb_errmsg(r->code));
		if (r->detail)
			fprintf(stderr, "bsub: %s\n", r->detail);
		pack_bad(pk, pk->lines[i], why);
		free(why);
	}
	fflush(stdout);
	submit_pack_reply_release(&out);
	reply_release(&rp);
	submit_pack_release(&pk->p);
	memset(&pk->p, 0, sizeof(pk->p));
	pk->bytes = 0;
}

/* One line of the file: its options and command as on a command line. */
static int
pack_line(const char *text, const char *cwd, struct submit_req *rq,
    char **cause)
{
	struct strv words = STRV_INIT, cmd = STRV_INIT;
	struct bsub_opts g;
	struct cmdopt_state st;
	char **rest, *o;
	int n, rc = -1;

	bsub_opts_init(&g);
	strv_push(&words, "bsub");
	bsub_opts_words(text, &words);
	switch (bsub_opts_parse(&g, (int)words.n, words.v, unit, &st, cause)) {
	case BSUB_OPTS_OK:
		break;
	case BSUB_OPTS_HELP:
	case BSUB_OPTS_VERSION:
		*cause = xstrdup("-h and -V cannot be used in a job pack");
		goto done;
	case BSUB_OPTS_BAD_OPTION:
		o = *cause;
		*cause = xasprintf("bad option %s", o);
		free(o);
		goto done;
	case BSUB_OPTS_UNSUPPORTED:
		o = *cause;
		*cause = xasprintf("option %s is not supported by this "
		    "version", o);
		free(o);
		goto done;
	default:
		goto done;
	}
	/* As LSF: no waiting (-K) and no file in a file. */
	if (g.block || g.pack || g.yaml || g.json) {
		*cause = xstrdup(g.block ? "-K cannot be used in a job pack" :
		    "-pack, -yaml and -json cannot be used in a job pack");
		goto done;
	}
	rest = cmdopt_rest(&st, &n);
	if (n == 0) {
		*cause = xstrdup("No command is specified");
		goto done;
	}
	for (int i = 0; i < n; i++)
		strv_push(&cmd, rest[i]);
	submit_req_init(rq);
	rq->command = strv_join(&cmd, " ");
	if (make_request(&g, cwd, rq, cause) < 0) {
		submit_req_release(rq);
		goto done;
	}
	rc = 0;
done:
	cmdopt_release(&st);
	strv_release(&cmd);
	strv_release(&words);
	bsub_opts_release(&g);
	return rc;
}

/*
 * bsub -pack file: LSB_MAX_PACK_JOBS lines to a request, every one's
 * records written by mbatchd in one turn; a bad line is reported and,
 * with LSB_PACK_SKIP_ERROR=Y, the others still go in.
 */
static int
pack_submit(const char *path)
{
	const struct lsf_config *c = client_config(CONF_SHARED);
	struct strbuf sb = STRBUF_INIT;
	struct pack pk;
	char cwd[4096];
	const char *p;
	int lineno = 0, max = c->lsf.max_pack_jobs;

	if (max <= 0) {
		fprintf(stderr, "bsub: -pack: job packs are not enabled "
		    "(LSB_MAX_PACK_JOBS in lsf.conf)\n");
		return 255;
	}
	if (read_file(path, &sb) < 0) {
		fprintf(stderr, "bsub: %s: %s\n", path, strerror(errno));
		return 255;
	}
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		strcpy(cwd, "/tmp");
	memset(&pk, 0, sizeof(pk));
	pk.path = path;
	pk.skip = c->lsf.pack_skip_error;
	pk.lines = xcalloc((size_t)max, sizeof(*pk.lines));
	for (p = sb.buf ? sb.buf : ""; *p && !pk.stop; ) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len), *t, *cause = NULL;
		struct submit_req rq;
		struct wbuf w;

		p += len + (p[len] == '\n');
		lineno++;
		t = line + strspn(line, " \t\r");
		if (*t == '\0' || *t == '#') {
			free(line);
			continue;
		}
		if (pack_line(t, cwd, &rq, &cause) < 0) {
			pack_bad(&pk, lineno, cause);
			free(cause);
			free(line);
			pk.stop = !pk.skip;
			continue;
		}
		free(line);
		wbuf_init(&w);
		submit_req_pack(&w, &rq);
		/* Each request within what mbatchd takes, and within
		 * LSB_MAX_PACK_JOBS. */
		if (pk.p.n > 0 && (pk.p.n == (uint32_t)max ||
		    pk.bytes + w.len + 64 > WIRE_MAX_REQUEST))
			pack_send(&pk);
		if (w.len + 64 > WIRE_MAX_REQUEST) {
			pack_bad(&pk, lineno, "the job takes more than a "
			    "request may");
			wbuf_release(&w);
			submit_req_release(&rq);
			continue;
		}
		pk.bytes += w.len;
		wbuf_release(&w);
		pk.p.v = xrealloc(pk.p.v, (pk.p.n + 1) * sizeof(*pk.p.v));
		pk.p.v[pk.p.n] = rq;
		pk.lines[pk.p.n++] = lineno;
	}
	/* The lines before a failure still go in, as LSF has them. */
	pack_send(&pk);
	free(pk.lines);
	sb_release(&sb);
	return pk.bad ? 255 : 0;
}

int
main(int argc, char **argv)
{
	struct bsub_opts cl, sc, fl, *g;
	struct strv fwords = STRV_INIT;
	char *fverbatim = NULL;
	struct cmdopt_state st;
	struct submit_req rq;
	struct submit_reply rep;
	struct wbuf w;
	char **rest, cwd[4096], *script = NULL, *cause = NULL;
	int nrest, fd, rc;
	bool exec_file = false;

	progname = "bsub";
	bsub_opts_init(&cl);
	bsub_opts_init(&sc);
	bsub_opts_init(&fl);
	rc = bsub_opts_parse(&cl, argc, argv, unit, &st, &cause);
	parsed(rc, cause, "command line");
	rest = cmdopt_rest(&st, &nrest);
	if (cl.pack) {
		if (cl.nopts > 1 || nrest > 0)
			not_submitted("-pack: the options go on the file's "
			    "lines, not the command line");
		exit(pack_submit(cl.pack));
	}
	if (cl.yaml && cl.json)
		not_submitted("-yaml and -json cannot be used together");
	if (cl.yaml || cl.json) {
		char *fcmd = NULL;

		if (jobfile_read(cl.yaml ? cl.yaml : cl.json,
		    cl.yaml ? JOBFILE_YAML : JOBFILE_JSON, &fl, unit, &fcmd,
		    &cause) < 0) {
			fprintf(stderr, "bsub: %s\n", cause);
			not_submitted("Bad argument");
		}
		/* The file's command when the command line has none: as
		 * written (the job's shell reads it), or a script when it is
		 * one word naming a text file, as on the command line. */
		if (nrest == 0 && fcmd != NULL) {
			bsub_opts_words(fcmd, &fwords);
			rest = fwords.v;
			nrest = (int)fwords.n;
			if (nrest > 1) {
				fverbatim = fcmd;
				fcmd = NULL;
			}
		}
		free(fcmd);
	}

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		strcpy(cwd, "/tmp");
	if (nrest == 0) {
		script = read_stdin();
		if (*script == '\0')
			not_submitted("No command is specified");
		parse_script(&sc, script);
	} else if (nrest == 1 && is_text_file(rest[0], &exec_file)) {
		struct strbuf sb = STRBUF_INIT;

		if (read_file(rest[0], &sb) < 0)
			not_submitted("%s: %s", rest[0], strerror(errno));
		parse_script(&sc, sb.buf);
		if (exec_file)
			sb_release(&sb);	/* run it by its path */
		else
			script = sb_detach(&sb);	/* spool its text */
	}
	if (sc.yaml || sc.json || sc.pack)
		not_submitted("#BSUB line: -yaml, -json and -pack go on the "
		    "command line");
	/* The command line wins over a job file, and both over #BSUB
	 * lines. */
	bsub_opts_overlay(&sc, &fl);
	bsub_opts_overlay(&sc, &cl);
	g = &sc;

	submit_req_init(&rq);
	if (script) {
		rq.command = script;
		rq.options2 |= SUB2_JOB_CMD_SPOOL;
	} else if (fverbatim != NULL) {
		rq.command = fverbatim;
	} else {
		struct strv words = STRV_INIT;

		for (int i = 0; i < nrest; i++)
			strv_push(&words, rest[i]);
		rq.command = strv_join(&words, " ");
		strv_release(&words);
	}
	if (make_request(g, cwd, &rq, &cause) < 0)
		not_submitted("%s", cause);

	/* Too large for mbatchd to take: say so here, not by a closed
	 * connection (nor by a BUG packing a string over the limit). */
	if (rq.command && strlen(rq.command) > WIRE_MAX_STR)
		too_large(strlen(rq.command));
	wbuf_init(&w);
	submit_req_frame(&w, MSG_SUBMIT, 1, &rq);
	if (w.len > WIRE_MAX_REQUEST)
		too_large(w.len);
	fd = submit_call("bsub", &w, &rep);
	wbuf_release(&w);
	/* BSUB_STDERR moves even this line to stderr, as in LSF. */
	fprintf(getenv("BSUB_STDERR") ? stderr : stdout,
	    "Job <%lld> is submitted to %squeue <%s>.\n",
	    (long long)rep.jobid, rep.default_queue ? "default " : "",
	    rep.queue);
	fflush(stdout);
	/* -b and -t are confirmed after the job's line, as in IBM's example
	 * of bsub -b; on stderr, so stdout stays the one line tools parse. */
	if (rq.begin_time > 0 || rq.term_time > 0) {
		char when[64];

		if (rq.begin_time > 0) {
			fmt_time_full(rq.begin_time, when, sizeof(when));
			fprintf(stderr, "Job will be scheduled after %s\n", when);
		}
		if (rq.term_time > 0) {
			fmt_time_full(rq.term_time, when, sizeof(when));
			fprintf(stderr, "Job will be terminated by %s\n", when);
		}
		fflush(stderr);
	}
	if (g->block)
		exit(block_until_done(fd, rep.jobid));
	return 0;
}
