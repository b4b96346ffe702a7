/*
 * bsub: submit a job.
 *
 *	bsub [options] command [arguments]
 *	bsub [options] < script
 *	bsub [options] script		(a text file: its #BSUB lines count)
 *
 * Options come from #BSUB lines of the script first and from the command
 * line over them.  On success stdout is exactly one line, "Job <N> is
 * submitted to [default ]queue <Q>.", which workflow tools parse; every
 * other word goes to stderr.
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

#include "client.h"
#include "cmdopt.h"
#include "lsf.h"
#include "timespec.h"

extern char **environ;

enum {
	O_Q = 1, O_J, O_N, O_O, O_E, O_OO, O_EO, O_CWD, O_R, O_M, O_X, O_W,
	O_MEM, O_RERUN, O_HOLD, O_P, O_G, O_ENV, O_K, O_U, O_I, O_L,
	O_CPU, O_CORE, O_DATA, O_FSIZE, O_STACK, O_SWAP, O_NPROC, O_TERM,
	O_PRE, O_POST, O_DEPEND, O_BEGIN, O_SPRIO,
	O_HELP, O_VERSION, O_MAIL_BEGIN, O_MAIL_END, O_LATER
};

static const struct cmdopt opts[] = {
	{ "q", true, O_Q }, { "J", true, O_J }, { "n", true, O_N },
	{ "o", true, O_O }, { "e", true, O_E }, { "oo", true, O_OO },
	{ "eo", true, O_EO }, { "cwd", true, O_CWD }, { "R", true, O_R },
	{ "m", true, O_M }, { "x", false, O_X }, { "W", true, O_W },
	{ "M", true, O_MEM }, { "r", false, O_RERUN }, { "H", false, O_HOLD },
	{ "P", true, O_P }, { "G", true, O_G }, { "env", true, O_ENV },
	{ "K", false, O_K }, { "u", true, O_U }, { "i", true, O_I },
	{ "L", true, O_L }, { "h", false, O_HELP }, { "V", false, O_VERSION },
	{ "c", true, O_CPU }, { "C", true, O_CORE }, { "D", true, O_DATA },
	{ "F", true, O_FSIZE }, { "S", true, O_STACK }, { "v", true, O_SWAP },
	{ "p", true, O_NPROC }, { "t", true, O_TERM }, { "E", true, O_PRE },
	{ "Ep", true, O_POST },
	/* Options of LSF's bsub this version does not do yet. */
	{ "w", true, O_DEPEND }, { "b", true, O_BEGIN },
	{ "sp", true, O_SPRIO }, { "app", true, O_LATER },
	{ "sla", true, O_LATER }, { "B", false, O_MAIL_BEGIN },
	{ "N", false, O_MAIL_END }, { "I", false, O_LATER },
	{ "Ip", false, O_LATER }, { "Is", false, O_LATER },
	{ "a", true, O_LATER }, { "k", true, O_LATER }, { "f", true, O_LATER },
	{ "Jd", true, O_LATER }, { "g", true, O_LATER },
	{ "nnodes", true, O_LATER }, { "is", true, O_LATER },
	{ "rn", false, O_LATER }, { "ext", true, O_LATER },
	{ NULL, false, 0 }
};

/* One source of options (script or command line); NULL/0 = not given. */
struct given {
	char		*queue;
	char		*name;
	int		 nmin;
	int		 nmax;
	char		*out;
	bool		 out_over;
	char		*err;
	bool		 err_over;
	char		*cwd;
	struct strv	 res;
	char		*hosts;
	bool		 exclusive;
	int64_t		 runlimit;	/* seconds, 0 = unset */
	int64_t		 memlimit;	/* KB, 0 = unset */
	int64_t		 rlim[LSF_RLIM_NLIMITS]; /* -c -C -D -F -S -v -p */
	char		*term;		/* -t as written */
	char		*pre;		/* -E */
	char		*post;		/* -Ep */
	char		*depend;	/* -w */
	char		*begin;		/* -b as written */
	int		 sprio;		/* -sp, 0 = unset */
	bool		 rerun;
	bool		 hold;
	char		*project;
	char		*group;
	char		*env;
	bool		 block;
	char		*mail;
	bool		 mail_begin;	/* -B */
	bool		 mail_end;	/* -N */
	char		*in;
	char		*shell;
};

static void NORETURN
usage_exit(int code)
{
	fprintf(stderr,
	    "Usage: bsub [-h] [-V] [-B] [-H] [-K] [-N] [-r] [-x]\n"
	    "            [-q \"queue_name ...\"] [-m \"host_name ...\"]\n"
	    "            [-n min_proc[,max_proc]] [-R \"res_req\"]...\n"
	    "            [-J job_name] [-P project_name] [-G user_group]\n"
	    "            [-W [hour:]minute] [-M mem_limit] [-u mail_user]\n"
	    "            [-c [hour:]minute] [-t [[[yyyy:]mm:]dd:]hh:mm]\n"
	    "            [-C core_limit] [-D data_limit] [-F file_limit]\n"
	    "            [-S stack_limit] [-v swap_limit] [-p process_limit]\n"
	    "            [-E \"pre_exec_command\"] [-Ep \"post_exec_command\"]\n"
	    "            [-w \"dependency_expression\"] [-sp priority]\n"
	    "            [-b [[[yyyy:]mm:]dd:]hh:mm]\n"
	    "            [-i input_file] [-o out_file | -oo out_file]\n"
	    "            [-e err_file | -eo err_file] [-cwd dir] [-L shell]\n"
	    "            [-env \"all | none | var[=value],...\"]\n"
	    "            [command [argument ...] | script]\n");
	exit(code);
}

static void NORETURN
not_submitted(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ". Job not submitted.\n");
	exit(255);
}

static const char *
unit(void)
{
	const struct lsf_config *c = client_config(CONF_SHARED);

	return c->lsf.unit_for_limits ? c->lsf.unit_for_limits : "KB";
}

static void
set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

/* Apply one parsed option to g; from says where it came from. */
static void
apply(struct given *g, int id, const char *v, const char *opt)
{
	long long minutes, kb;
	char *end;
	long a, b;

	switch (id) {
	case O_Q: set_str(&g->queue, v); break;
	case O_J: set_str(&g->name, v); break;
	case O_N:
		errno = 0;
		a = strtol(v, &end, 10);
		b = a;
		if (*end == ',') {
			b = strtol(end + 1, &end, 10);
		}
		if (errno || *end || a <= 0 || b < a)
			not_submitted("%s: Bad argument", v);
		g->nmin = (int)a;
		g->nmax = (int)b;
		break;
	case O_O: set_str(&g->out, v); g->out_over = false; break;
	case O_OO: set_str(&g->out, v); g->out_over = true; break;
	case O_E: set_str(&g->err, v); g->err_over = false; break;
	case O_EO: set_str(&g->err, v); g->err_over = true; break;
	case O_CWD: set_str(&g->cwd, v); break;
	case O_R: strv_push(&g->res, v); break;
	case O_M: set_str(&g->hosts, v); break;
	case O_X: g->exclusive = true; break;
	case O_W:
		if (parse_time_limit(v, &minutes) < 0 || minutes <= 0)
			not_submitted("%s: Bad time specification", v);
		g->runlimit = minutes * 60;
		break;
	case O_MEM: {
		char *s = xstrdup(v);
		size_t n = strlen(s);

		if (n && s[n - 1] == '!')
			s[n - 1] = '\0';	/* hard limit: enforced anyway */
		if (parse_mem_kb(s, unit(), &kb) < 0 || kb <= 0)
			not_submitted("%s: Bad argument", v);
		free(s);
		g->memlimit = kb;
		break;
	}
	case O_CPU:
		if (parse_time_limit(v, &minutes) < 0 || minutes <= 0)
			not_submitted("%s: Bad time specification", v);
		g->rlim[LSF_RLIMIT_CPU] = minutes * 60;
		break;
	case O_CORE: case O_DATA: case O_FSIZE: case O_STACK: case O_SWAP:
		if (parse_mem_kb(v, unit(), &kb) < 0 || kb <= 0)
			not_submitted("%s: Bad argument", v);
		g->rlim[id == O_CORE ? LSF_RLIMIT_CORE : id == O_DATA ?
		    LSF_RLIMIT_DATA : id == O_FSIZE ? LSF_RLIMIT_FSIZE :
		    id == O_STACK ? LSF_RLIMIT_STACK : LSF_RLIMIT_SWAP] = kb;
		break;
	case O_NPROC:
		errno = 0;
		a = strtol(v, &end, 10);
		if (errno || *end || a <= 0 || a > INT32_MAX)
			not_submitted("%s: Bad argument", v);
		g->rlim[LSF_RLIMIT_PROCESS] = a;
		break;
	case O_TERM: set_str(&g->term, v); break;
	case O_PRE: set_str(&g->pre, v); break;
	case O_DEPEND: set_str(&g->depend, v); break;
	case O_BEGIN: set_str(&g->begin, v); break;
	case O_SPRIO:
		errno = 0;
		a = strtol(v, &end, 10);
		if (errno || *end || a <= 0 || a > INT32_MAX)
			not_submitted("%s: Bad argument", v);
		g->sprio = (int)a;
		break;
	case O_POST: set_str(&g->post, v); break;
	case O_RERUN: g->rerun = true; break;
	case O_HOLD: g->hold = true; break;
	case O_P: set_str(&g->project, v); break;
	case O_G: set_str(&g->group, v); break;
	case O_ENV: set_str(&g->env, v); break;
	case O_K: g->block = true; break;
	case O_U: set_str(&g->mail, v); break;
	case O_MAIL_BEGIN: g->mail_begin = true; break;
	case O_MAIL_END: g->mail_end = true; break;
	case O_I: set_str(&g->in, v); break;
	case O_L: set_str(&g->shell, v); break;
	case O_HELP: usage_exit(0);
	case O_VERSION:
		print_version();
		exit(0);
	case O_LATER:
		/* The option as written, up to any value attached to it. */
		fprintf(stderr, "bsub: option %.*s is not supported by this "
		    "version\n", (int)strcspn(opt ? opt : "", " "), opt ? opt : "");
		not_submitted("Bad argument");
	}
}

/* Overlay: what the command line gives wins over the script. */
static void
overlay(struct given *dst, const struct given *src)
{
#define OV_STR(f) if (src->f) set_str(&dst->f, src->f)
#define OV_VAL(f) if (src->f) dst->f = src->f
	OV_STR(queue); OV_STR(name); OV_STR(cwd); OV_STR(hosts);
	OV_STR(project); OV_STR(group); OV_STR(env); OV_STR(mail);
	OV_STR(in); OV_STR(shell); OV_STR(term); OV_STR(pre); OV_STR(post);
	OV_STR(depend); OV_STR(begin); OV_VAL(sprio);
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		OV_VAL(rlim[i]);
	if (src->out) {
		set_str(&dst->out, src->out);
		dst->out_over = src->out_over;
	}
	if (src->err) {
		set_str(&dst->err, src->err);
		dst->err_over = src->err_over;
	}
	if (src->nmin) {
		dst->nmin = src->nmin;
		dst->nmax = src->nmax;
	}
	if (src->res.n) {
		strv_release(&dst->res);
		strv_copy(&dst->res, &src->res);
	}
	OV_VAL(exclusive); OV_VAL(runlimit); OV_VAL(memlimit);
	OV_VAL(rerun); OV_VAL(hold); OV_VAL(block);
	OV_VAL(mail_begin); OV_VAL(mail_end);
#undef OV_STR
#undef OV_VAL
}

static void
parse_args(struct given *g, int argc, char **argv, bool permute,
    struct cmdopt_state *st, const char *where)
{
	const char *v;
	int id;

	cmdopt_init(st, argc, argv, permute);
	while ((id = cmdopt_next(st, opts, &v)) != 0) {
		if (id < 0) {
			fprintf(stderr, "bsub: %s: bad option %s\n", where,
			    st->bad ? st->bad : "");
			usage_exit(255);
		}
		apply(g, id, v, st->opt);
	}
}

/* Split a #BSUB line the way a shell would; a '#' word ends it. */
static void
shell_words(const char *s, struct strv *out)
{
	struct strbuf w = STRBUF_INIT;
	bool in_word = false;

	for (;;) {
		char c = *s;

		if (c == '\0' || ((c == ' ' || c == '\t') && in_word)) {
			if (in_word) {
				strv_push(out, w.buf ? w.buf : "");
				sb_reset(&w);
				in_word = false;
			}
			if (c == '\0')
				break;
			s++;
			continue;
		}
		if (c == ' ' || c == '\t') {
			s++;
			continue;
		}
		if (c == '#' && !in_word)
			break;
		in_word = true;
		if (c == '\'') {
			const char *e = strchr(s + 1, '\'');

			if (e == NULL)
				e = s + strlen(s);
			sb_add(&w, s + 1, (size_t)(e - s - 1));
			s = *e ? e + 1 : e;
		} else if (c == '"') {
			s++;
			while (*s && *s != '"') {
				if (*s == '\\' && (s[1] == '"' || s[1] == '\\'
				    || s[1] == '$' || s[1] == '`'))
					s++;
				sb_addc(&w, *s++);
			}
			if (*s == '"')
				s++;
			sb_grow(&w, 0);
		} else if (c == '\\' && s[1]) {
			sb_addc(&w, s[1]);
			s += 2;
		} else {
			sb_addc(&w, c);
			s++;
		}
	}
	sb_release(&w);
}

/* #BSUB lines up to the first command of the script. */
static void
parse_script(struct given *g, const char *script)
{
	const char *p = script;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len), *t = line;

		p += len + (nl ? 1 : 0);
		while (*t == ' ' || *t == '\t')
			t++;
		if (*t == '\0') {
			free(line);
			continue;
		}
		if (*t != '#') {
			free(line);
			break;		/* the first command */
		}
		t++;
		while (*t == ' ' || *t == '\t')
			t++;
		if (strncmp(t, "BSUB", 4) == 0 && (t[4] == ' ' ||
		    t[4] == '\t')) {
			struct strv words = STRV_INIT;
			struct cmdopt_state st;
			int n;

			strv_push(&words, "bsub");
			shell_words(t + 4, &words);
			parse_args(g, (int)words.n, words.v, false, &st,
			    "#BSUB line");
			cmdopt_rest(&st, &n);
			if (n > 0)
				fprintf(stderr, "bsub: #BSUB line: \"%s\" "
				    "ignored\n", cmdopt_rest(&st, &n)[0]);
			cmdopt_release(&st);
			strv_release(&words);
		}
		free(line);
	}
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

int
main(int argc, char **argv)
{
	struct given cl, sc, *g;
	struct cmdopt_state st;
	struct submit_req rq;
	struct submit_reply rep;
	struct reply rp;
	struct msg_error e;
	struct wbuf w;
	char **rest, cwd[4096], host[256], *script = NULL;
	const char *home, *envq;
	int nrest, fd, rc;
	mode_t um;
	bool exec_file = false;

	progname = "bsub";
	memset(&cl, 0, sizeof(cl));
	memset(&sc, 0, sizeof(sc));
	parse_args(&cl, argc, argv, false, &st, "command line");
	rest = cmdopt_rest(&st, &nrest);

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
	/* Options on the command line win over #BSUB lines. */
	overlay(&sc, &cl);
	g = &sc;

	submit_req_init(&rq);
	if (script) {
		rq.command = script;
		rq.options2 |= SUB2_JOB_CMD_SPOOL;
	} else {
		struct strv words = STRV_INIT;

		for (int i = 0; i < nrest; i++)
			strv_push(&words, rest[i]);
		rq.command = strv_join(&words, " ");
		strv_release(&words);
	}
	if (g->queue) {
		rq.queue = xstrdup(g->queue);
		rq.options |= SUB_QUEUE;
	} else if ((envq = getenv("LSB_DEFAULTQUEUE")) != NULL && *envq) {
		rq.queue = xstrdup(envq);
	}
	if (g->name) {
		rq.job_name = xstrdup(g->name);
		rq.options |= SUB_JOB_NAME;
	}
	if (g->nmin) {
		rq.num_procs = g->nmin;
		rq.max_procs = g->nmax;
	}
	if (g->out) {
		rq.out_file = xstrdup(g->out);
		rq.options |= SUB_OUT_FILE;
		if (g->out_over)
			rq.options2 |= SUB2_OUT_OVERWRITE;
	}
	if (g->err) {
		rq.err_file = xstrdup(g->err);
		rq.options |= SUB_ERR_FILE;
		if (g->err_over)
			rq.options2 |= SUB2_ERR_OVERWRITE;
	}
	if (g->in) {
		rq.in_file = absolute(g->in, cwd);
		rq.options |= SUB_IN_FILE;
	}
	if (g->cwd)
		rq.cwd = absolute(g->cwd, cwd);
	if (g->res.n) {
		strv_copy(&rq.res_reqs, &g->res);
		rq.options |= SUB_RES_REQ;
	}
	if (g->hosts) {
		struct strv hs = STRV_INIT;

		strv_split_ws(&hs, g->hosts);
		for (size_t i = 0; i < hs.n; i++) {
			/* "host+2": preference is not used yet. */
			char *plus = strchr(hs.v[i], '+');

			if (plus)
				*plus = '\0';
			strv_push(&rq.asked_hosts, hs.v[i]);
		}
		strv_release(&hs);
		rq.options |= SUB_HOST;
	}
	if (g->exclusive)
		rq.options |= SUB_EXCLUSIVE;
	if (g->rerun)
		rq.options |= SUB_RERUNNABLE;
	if (g->hold)
		rq.options2 |= SUB2_HOLD;
	if (g->block)
		rq.options2 |= SUB2_BSUB_BLOCK;
	if (g->runlimit)
		rq.rlimits[LSF_RLIMIT_RUN] = g->runlimit;
	if (g->memlimit)
		rq.rlimits[LSF_RLIMIT_RSS] = g->memlimit;
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		if (g->rlim[i])
			rq.rlimits[i] = g->rlim[i];
	if (g->term) {
		char *why = NULL;

		if (timespec_parse(g->term, (int64_t)time(NULL), true,
		    &rq.term_time, &why) < 0 || rq.term_time <= time(NULL)) {
			free(why);
			not_submitted("%s: Bad time specification", g->term);
		}
	}
	if (g->begin) {
		char *why = NULL;

		/* A time already past just lets the job start. */
		if (timespec_parse(g->begin, (int64_t)time(NULL), false,
		    &rq.begin_time, &why) < 0 && rq.begin_time <= 0) {
			free(why);
			not_submitted("%s: Bad time specification", g->begin);
		}
		free(why);
	}
	if (rq.term_time && rq.begin_time && rq.term_time <= rq.begin_time)
		not_submitted("%s: Bad time specification", g->term);
	if (g->depend) {
		rq.depend_cond = xstrdup(g->depend);
		rq.options |= SUB_DEPEND_COND;
	}
	if (g->sprio) {
		rq.user_priority = g->sprio;
		rq.options2 |= SUB2_JOB_PRIORITY;
	}
	if (g->pre) {
		rq.pre_exec = xstrdup(g->pre);
		rq.options |= SUB_PRE_EXEC;
	}
	if (g->post)
		rq.post_exec = xstrdup(g->post);
	if (g->project || getenv("LSB_DEFAULTPROJECT")) {
		rq.project = xstrdup(g->project ? g->project :
		    getenv("LSB_DEFAULTPROJECT"));
		rq.options |= SUB_PROJECT_NAME;
	}
	if (g->group) {
		rq.user_group = xstrdup(g->group);
		rq.options |= SUB_USER_GROUP;
	}
	if (g->mail) {
		rq.mail_user = xstrdup(g->mail);
		rq.options |= SUB_MAIL_USER;
	}
	if (g->mail_begin)
		rq.options |= SUB_NOTIFY_BEGIN;
	if (g->mail_end)
		rq.options |= SUB_NOTIFY_END;
	if (g->shell) {
		rq.login_shell = xstrdup(g->shell);
		rq.options |= SUB_LOGIN_SHELL;
	}
	rq.sub_cwd = xstrdup(cwd);
	/* Without HOME, mbatchd looks the home up (no NSS in a command). */
	home = getenv("HOME");
	rq.sub_home = xstrdup(home ? home : "");
	if (gethostname(host, sizeof(host)) < 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	rq.from_host = xstrdup(host);
	um = umask(022);
	umask(um);
	rq.umask = (int)um;
	build_env(&rq.env, g->env);

	wbuf_init(&w);
	submit_req_frame(&w, MSG_SUBMIT, 1, &rq);
	fd = mbd_connect();
	rc = mbd_call(fd, &w, &rp);
	wbuf_release(&w);
	if (rc < 0) {
		fprintf(stderr, "bsub: lost the connection to mbatchd; the job "
		    "may or may not have been submitted (check with bjobs)\n");
		exit(255);
	}
	if (reply_is_error(&rp, &e)) {
		if (e.detail)
			fprintf(stderr, "bsub: %s\n", e.detail);
		if (e.context)
			not_submitted("%s: %s", e.context, lsb_errmsg(e.code));
		not_submitted("%s", lsb_errmsg(e.code));
	}
	if (rp.hdr.type != MSG_SUBMIT_REPLY ||
	    !submit_reply_unpack(&rp.r, &rep) || rbuf_end(&rp.r) < 0) {
		fprintf(stderr, "bsub: unexpected reply from mbatchd\n");
		exit(255);
	}
	/* BSUB_STDERR moves even this line to stderr, as in LSF. */
	fprintf(getenv("BSUB_STDERR") ? stderr : stdout,
	    "Job <%lld> is submitted to %squeue <%s>.\n",
	    (long long)rep.jobid, rep.default_queue ? "default " : "",
	    rep.queue);
	fflush(stdout);
	if (g->block)
		exit(block_until_done(fd, rep.jobid));
	return 0;
}
