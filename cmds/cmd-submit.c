/*
 * What bsub and brestart share: the request made from bsub's options,
 * and its call to mbatchd with the answer's errors as bsub words them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd-submit.h"
#include "lsf.h"
#include "timespec.h"

extern char **environ;

void NORETURN
not_submitted(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ". Job not submitted.\n");
	exit(255);
}

/* -env: "all" (default), "none", or "all, ~VAR, VAR=value, VAR". */
static void
build_env(struct strv *env, const char *spec)
{
	struct strv parts = STRV_INIT;
	const char *p;

	if (spec == NULL || strcasecmp(spec, "all") == 0) {
		for (char **e = environ; *e; e++)
			strv_push(env, *e);
		return;
	}
	for (p = spec; *p;) {
		size_t n = strcspn(p, ",");
		char *t = xstrndup(p, n);

		strv_push(&parts, str_trim(t));
		free(t);
		p += n;
		if (*p == ',')
			p++;
	}
	for (size_t i = 0; i < parts.n; i++) {
		const char *t = parts.v[i];

		if (strcasecmp(t, "all") == 0) {
			for (char **e = environ; *e; e++)
				strv_push(env, *e);
		} else if (strcasecmp(t, "none") == 0 || *t == '\0') {
			continue;
		} else if (*t == '~') {
			size_t n = strlen(t + 1);

			for (size_t k = 0; k < env->n; k++)
				if (strncmp(env->v[k], t + 1, n) == 0 &&
				    env->v[k][n] == '=') {
					free(env->v[k]);
					env->v[k] = env->v[--env->n];
					env->v[env->n] = NULL;
					k--;
				}
		} else if (strchr(t, '=')) {
			strv_push(env, t);
		} else if (getenv(t)) {
			strv_push_nodup(env, xasprintf("%s=%s", t, getenv(t)));
		}
	}
	strv_release(&parts);
}

static char *
absolute(const char *path, const char *cwd)
{
	if (path[0] == '/')
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

/*
 * The request for options g (the command or script already in rq);
 * cwd is where bsub runs.  -1 with *cause on a bad time.
 */
int
make_request(const struct bsub_opts *g, const char *cwd,
    struct submit_req *rq, char **cause)
{
	const char *home, *envq;
	char host[256];
	mode_t um;

	if (g->queue) {
		rq->queue = xstrdup(g->queue);
		rq->options |= SUB_QUEUE;
	} else if ((envq = getenv("LSB_DEFAULTQUEUE")) != NULL && *envq) {
		rq->queue = xstrdup(envq);
	}
	if (g->name) {
		rq->job_name = xstrdup(g->name);
		rq->options |= SUB_JOB_NAME;
	}
	if (g->nmin) {
		rq->num_procs = g->nmin;
		rq->max_procs = g->nmax;
	}
	if (g->out) {
		rq->out_file = xstrdup(g->out);
		rq->options |= SUB_OUT_FILE;
		if (g->out_over)
			rq->options2 |= SUB2_OUT_OVERWRITE;
	}
	if (g->err) {
		rq->err_file = xstrdup(g->err);
		rq->options |= SUB_ERR_FILE;
		if (g->err_over)
			rq->options2 |= SUB2_ERR_OVERWRITE;
	}
	if (g->in) {
		rq->in_file = absolute(g->in, cwd);
		rq->options |= SUB_IN_FILE;
	}
	if (g->cwd)
		rq->cwd = absolute(g->cwd, cwd);
	/* Under the submission directory when relative, as LSF makes it;
	 * mbatchd replaces %J and the rest when the job starts. */
	if (g->outdir)
		rq->outdir = absolute(g->outdir, cwd);
	/* Relative to the submission directory, as LSF takes it. */
	if (g->chkpnt_dir) {
		rq->chkpnt_dir = absolute(g->chkpnt_dir, cwd);
		rq->options |= SUB_CHKPNT_DIR;
		if (g->chkpnt_method)
			rq->chkpnt_method = xstrdup(g->chkpnt_method);
		if ((rq->chkpnt_period = g->chkpnt_period) > 0)
			rq->options |= SUB_CHKPNT_PERIOD;
	}
	if (g->res.n) {
		strv_copy(&rq->res_reqs, &g->res);
		rq->options |= SUB_RES_REQ;
	}
	if (g->hosts) {
		struct strv hs = STRV_INIT;

		/* As written: mbatchd expands groups, "all", "~host",
		 * "others" and "+N" preferences. */
		strv_split_ws(&hs, g->hosts);
		strv_copy(&rq->asked_hosts, &hs);
		strv_release(&hs);
		rq->options |= SUB_HOST;
	}
	if (g->exclusive)
		rq->options |= SUB_EXCLUSIVE;
	if (g->rerun)
		rq->options |= SUB_RERUNNABLE;
	if (g->hold)
		rq->options2 |= SUB2_HOLD;
	if (g->block)
		rq->options2 |= SUB2_BSUB_BLOCK;
	if (g->runlimit)
		rq->rlimits[LSF_RLIMIT_RUN] = g->runlimit;
	if (g->memlimit)
		rq->rlimits[LSF_RLIMIT_RSS] = g->memlimit;
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		if (g->rlim[i])
			rq->rlimits[i] = g->rlim[i];
	if (g->term) {
		char *why = NULL;

		if (timespec_parse(g->term, (int64_t)time(NULL), true,
		    &rq->term_time, &why) < 0 || rq->term_time <= time(NULL)) {
			free(why);
			*cause = xasprintf("%s: Bad time specification",
			    g->term);
			return -1;
		}
	}
	if (g->begin) {
		char *why = NULL;

		/* A time already past just lets the job start. */
		if (timespec_parse(g->begin, (int64_t)time(NULL), false,
		    &rq->begin_time, &why) < 0 && rq->begin_time <= 0) {
			free(why);
			*cause = xasprintf("%s: Bad time specification",
			    g->begin);
			return -1;
		}
		free(why);
	}
	if (rq->term_time && rq->begin_time &&
	    rq->term_time <= rq->begin_time) {
		*cause = xasprintf("%s: Bad time specification", g->term);
		return -1;
	}
	if (g->depend) {
		rq->depend_cond = xstrdup(g->depend);
		rq->options |= SUB_DEPEND_COND;
	}
	if (g->sprio) {
		rq->user_priority = g->sprio;
		rq->options2 |= SUB2_JOB_PRIORITY;
	}
	if (g->pre) {
		rq->pre_exec = xstrdup(g->pre);
		rq->options |= SUB_PRE_EXEC;
	}
	if (g->post)
		rq->post_exec = xstrdup(g->post);
	/* -wa and -wt: the job's JOB_WARNING_ACTION and
	 * JOB_ACTION_WARNING_TIME. */
	if (g->warn_action) {
		if (strcasecmp(g->warn_action, "CHKPNT") != 0 &&
		    sig_from_name(g->warn_action) <= 0)
			not_submitted("%s: Bad job warning action: a signal "
			    "name or CHKPNT", g->warn_action);
		rq->warning_action = xstrdup(g->warn_action);
	}
	if (g->warn_time) {
		long long m;

		if (parse_time_limit(g->warn_time, &m) < 0 || m <= 0 ||
		    m > 35791394)
			not_submitted("%s: Bad job action warning time: "
			    "[hour:]minute", g->warn_time);
		rq->warning_time = (int)(m * 60);
	}
	if (g->project || getenv("LSB_DEFAULTPROJECT")) {
		rq->project = xstrdup(g->project ? g->project :
		    getenv("LSB_DEFAULTPROJECT"));
		rq->options |= SUB_PROJECT_NAME;
	}
	if (g->group) {
		rq->user_group = xstrdup(g->group);
		rq->options |= SUB_USER_GROUP;
	}
	if (g->mail) {
		rq->mail_user = xstrdup(g->mail);
		rq->options |= SUB_MAIL_USER;
	}
	if (g->mail_begin)
		rq->options |= SUB_NOTIFY_BEGIN;
	if (g->mail_end)
		rq->options |= SUB_NOTIFY_END;
	if (g->app)
		rq->app = xstrdup(g->app);
	if (g->shell) {
		rq->login_shell = xstrdup(g->shell);
		rq->options |= SUB_LOGIN_SHELL;
	}
	rq->sub_cwd = xstrdup(cwd);
	/* Without HOME, mbatchd looks the home up (no NSS in a command). */
	home = getenv("HOME");
	rq->sub_home = xstrdup(home ? home : "");
	if (gethostname(host, sizeof(host)) < 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	rq->from_host = xstrdup(host);
	um = umask(022);
	umask(um);
	rq->umask = (int)um;
	build_env(&rq->env, g->env);
	return 0;
}

/*
 * Send a framed request that mbatchd answers with MSG_SUBMIT_REPLY; the
 * connection, for bsub -K.  An error is printed the way bsub prints it,
 * and exits.
 */
int
submit_call(const char *prog, struct wbuf *w, struct submit_reply *rep)
{
	struct reply rp;
	struct msg_error e;
	int fd, rc;

	fd = mbd_connect();
	rc = mbd_call(fd, w, &rp);
	if (rc < 0) {
		fprintf(stderr, "%s: lost the connection to mbatchd; the job "
		    "may or may not have been submitted (check with bjobs)\n",
		    prog);
		exit(255);
	}
	if (reply_is_error(&rp, &e)) {
		if (e.detail)
			fprintf(stderr, "%s: %s\n", prog, e.detail);
		if (e.context)
			not_submitted("%s: %s", e.context, lsb_errmsg(e.code));
		not_submitted("%s", lsb_errmsg(e.code));
	}
	if (rp.hdr.type != MSG_SUBMIT_REPLY ||
	    !submit_reply_unpack(&rp.r, rep) || rbuf_end(&rp.r) < 0) {
		fprintf(stderr, "%s: unexpected reply from mbatchd\n", prog);
		exit(255);
	}
	return fd;
}
