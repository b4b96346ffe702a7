/*
 * bsub's options: the table, what each one sets, and the #BSUB lines of
 * a script.  No I/O: bsub prints (cmds/bsub.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bsub-opts.h"
#include "chkpnt.h"
#include "conf.h"

enum {
	O_Q = 1, O_J, O_N, O_O, O_E, O_OO, O_EO, O_CWD, O_R, O_M, O_X, O_W,
	O_MEM, O_RERUN, O_HOLD, O_P, O_G, O_ENV, O_K, O_U, O_I, O_L,
	O_CPU, O_CORE, O_DATA, O_FSIZE, O_STACK, O_SWAP, O_NPROC, O_TERM,
	O_PRE, O_POST, O_DEPEND, O_BEGIN, O_SPRIO,
	O_HELP, O_VERSION, O_MAIL_BEGIN, O_MAIL_END, O_OUTDIR, O_APP, O_CHKPNT,
	O_YAML, O_JSON, O_PACK, O_WA, O_WT
};

static const struct cmdopt opts[] = {
	{ "q", true, O_Q }, { "J", true, O_J }, { "n", true, O_N },
	{ "o", true, O_O }, { "e", true, O_E }, { "oo", true, O_OO },
	{ "eo", true, O_EO }, { "cwd", true, O_CWD },
	{ "outdir", true, O_OUTDIR }, { "R", true, O_R },
	{ "m", true, O_M }, { "x", false, O_X }, { "W", true, O_W },
	{ "M", true, O_MEM }, { "r", false, O_RERUN }, { "H", false, O_HOLD },
	{ "P", true, O_P }, { "G", true, O_G }, { "env", true, O_ENV },
	{ "K", false, O_K }, { "u", true, O_U }, { "i", true, O_I },
	{ "L", true, O_L }, { "h", false, O_HELP }, { "V", false, O_VERSION },
	{ "c", true, O_CPU }, { "C", true, O_CORE }, { "D", true, O_DATA },
	{ "F", true, O_FSIZE }, { "S", true, O_STACK }, { "v", true, O_SWAP },
	{ "p", true, O_NPROC }, { "t", true, O_TERM }, { "E", true, O_PRE },
	{ "Ep", true, O_POST },
	{ "w", true, O_DEPEND }, { "b", true, O_BEGIN },
	{ "sp", true, O_SPRIO }, { "B", false, O_MAIL_BEGIN },
	{ "N", false, O_MAIL_END }, { "app", true, O_APP },
	{ "k", true, O_CHKPNT }, { "yaml", true, O_YAML },
	{ "json", true, O_JSON }, { "pack", true, O_PACK },
	{ "wa", true, O_WA }, { "wt", true, O_WT },
	/*
	 * LSF's other options, refused by name (cmdopt.h): never read as
	 * shorter ones (-ti as -t i, -hl as -h).
	 */
#define L CMDOPT_UNSUP
	L("a", true), L("alloc_flags", true),
	L("ar", false), L("clusters", true), L("cn_cu", true),
	L("cn_mem", true), L("core_isolation", true), L("csm", true),
	L("data", true), L("datachk", false), L("datagrp", true),
	L("eptl", true), L("ext", true), L("f", true), L("freq", true),
	L("g", true), L("gpu", true), L("hl", false), L("hostfile", true),
	L("I", false), L("Ip", false), L("IS", false), L("ISp", false),
	L("ISs", false), L("Is", false), L("IX", false), L("is", true),
	L("Jd", true), L("jobaff", true), L("jsdl", true),
	L("jsdl_strict", true), L("jsm", true),
	L("Lp", true), L("ln_mem", true), L("ln_slots", true),
	L("mig", true), L("Ne", false), L("network", true),
	L("nnodes", true), L("notify", true), L("ptl", true),
	L("Q", true), L("rcacct", true),
	L("rn", false), L("rnc", true), L("s", true), L("sla", true),
	L("smt", true), L("stage", true), L("step_cgroup", true),
	L("T", true), L("ti", false), L("tty", false), L("U", true),
	L("ul", false), L("We", true),
	L("XF", false), L("Zs", false),
#undef L
	{ NULL, false, 0 }
};

void
bsub_opts_init(struct bsub_opts *g)
{
	memset(g, 0, sizeof(*g));
	strv_init(&g->res);
}

void
bsub_opts_release(struct bsub_opts *g)
{
	char **s[] = { &g->queue, &g->name, &g->out, &g->err, &g->cwd,
	    &g->outdir,
	    &g->hosts, &g->term, &g->pre, &g->post, &g->depend, &g->begin,
	    &g->project, &g->group, &g->env, &g->mail, &g->in, &g->shell,
	    &g->app, &g->chkpnt_dir, &g->chkpnt_method, &g->yaml, &g->json,
	    &g->pack, &g->warn_action, &g->warn_time };

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		free(*s[i]);
	strv_release(&g->res);
	memset(g, 0, sizeof(*g));
}

static void
set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

static int
bad(char **cause, const char *v, const char *why)
{
	*cause = xasprintf("%s: %s", v, why);
	return BSUB_OPTS_BAD_VALUE;
}

/* A count in 1..INT32_MAX (the wire carries 32 bits). */
static int
count(const char *v, long *n, char **end)
{
	errno = 0;
	*n = strtol(v, end, 10);
	if (errno || *n <= 0 || *n > INT32_MAX)
		return -1;
	return 0;
}

/* -n min[,max] */
static int
procs(struct bsub_opts *g, const char *v, char **cause)
{
	char *end;
	long a, b;

	if (count(v, &a, &end) < 0)
		return bad(cause, v, "Bad argument");
	b = a;
	if (*end == ',' && count(end + 1, &b, &end) < 0)
		return bad(cause, v, "Bad argument");
	if (*end || b < a)
		return bad(cause, v, "Bad argument");
	g->nmin = (int)a;
	g->nmax = (int)b;
	return BSUB_OPTS_OK;
}

/* A memory amount in KB; a trailing '!' (a hard limit) allowed when
 * bang is, since every limit is enforced anyway. */
static int
mem(const char *v, bool bang, bool zero_ok, bsub_unit_fn unit, int64_t *dst,
    char **cause)
{
	char *s = xstrdup(v);
	size_t n = strlen(s);
	long long kb;
	int rc;

	if (bang && n && s[n - 1] == '!')
		s[n - 1] = '\0';
	rc = parse_mem_kb(s, unit(), &kb);
	free(s);
	if (rc < 0 || kb < 0 || (kb == 0 && !zero_ok))
		return bad(cause, v, "Bad argument");
	*dst = kb;
	return BSUB_OPTS_OK;
}

/* -W and -c: [hour:]minute, in seconds. */
static int
minutes(const char *v, int64_t *dst, char **cause)
{
	long long m;

	if (parse_time_limit(v, &m) < 0 || m <= 0)
		return bad(cause, v, "Bad time specification");
	*dst = m * 60;
	return BSUB_OPTS_OK;
}

static int
number(const char *v, long *n, char **cause)
{
	char *end;

	if (count(v, n, &end) < 0 || *end)
		return bad(cause, v, "Bad argument");
	return BSUB_OPTS_OK;
}

/* The rlimit an -C -D -F -S -v option sets. */
static int
rlimit_of(int id)
{
	switch (id) {
	case O_CORE: return LSF_RLIMIT_CORE;
	case O_DATA: return LSF_RLIMIT_DATA;
	case O_FSIZE: return LSF_RLIMIT_FSIZE;
	case O_STACK: return LSF_RLIMIT_STACK;
	default: return LSF_RLIMIT_SWAP;
	}
}

/* The options that take a value and keep it as written. */
static char **
str_field(struct bsub_opts *g, int id)
{
	switch (id) {
	case O_Q: return &g->queue;
	case O_J: return &g->name;
	case O_CWD: return &g->cwd;
	case O_OUTDIR: return &g->outdir;
	case O_M: return &g->hosts;
	case O_TERM: return &g->term;
	case O_PRE: return &g->pre;
	case O_POST: return &g->post;
	case O_WA: return &g->warn_action;
	case O_WT: return &g->warn_time;
	case O_DEPEND: return &g->depend;
	case O_BEGIN: return &g->begin;
	case O_P: return &g->project;
	case O_G: return &g->group;
	case O_ENV: return &g->env;
	case O_U: return &g->mail;
	case O_I: return &g->in;
	case O_L: return &g->shell;
	case O_APP: return &g->app;
	case O_YAML: return &g->yaml;
	case O_JSON: return &g->json;
	case O_PACK: return &g->pack;
	default: return NULL;
	}
}

/* -k "dir [period] [method=name]" */
static int
chkpnt(struct bsub_opts *g, const char *v, char **cause)
{
	struct chkpnt_spec c;
	char *why = NULL;

	if (chkpnt_spec_parse(v, true, &c, &why) < 0) {
		*cause = xasprintf("-k: %s", why);
		free(why);
		return BSUB_OPTS_BAD_VALUE;
	}
	free(g->chkpnt_dir);
	free(g->chkpnt_method);
	g->chkpnt_dir = c.dir;
	g->chkpnt_method = c.method;
	g->chkpnt_period = c.period * 60;
	return BSUB_OPTS_OK;
}

/* Apply one parsed option; opt is the option as written. */
static int
apply(struct bsub_opts *g, int id, const char *v, const char *opt,
    bsub_unit_fn unit, char **cause)
{
	char **field = str_field(g, id);
	long n;
	int rc;

	g->nopts++;
	if (field != NULL) {
		set_str(field, v);
		return BSUB_OPTS_OK;
	}
	switch (id) {
	case O_N: return procs(g, v, cause);
	case O_O: case O_OO:
		set_str(&g->out, v);
		g->out_over = id == O_OO;
		return BSUB_OPTS_OK;
	case O_E: case O_EO:
		set_str(&g->err, v);
		g->err_over = id == O_EO;
		return BSUB_OPTS_OK;
	case O_R: strv_push(&g->res, v); return BSUB_OPTS_OK;
	case O_X: g->exclusive = true; return BSUB_OPTS_OK;
	case O_W: return minutes(v, &g->runlimit, cause);
	case O_CPU: return minutes(v, &g->rlim[LSF_RLIMIT_CPU], cause);
	case O_MEM: return mem(v, true, false, unit, &g->memlimit, cause);
	/* Limits set with setrlimit take 0: -C 0 is how core files are
	 * turned off. */
	case O_CORE: case O_DATA: case O_FSIZE: case O_STACK: case O_SWAP:
		return mem(v, false, true, unit, &g->rlim[rlimit_of(id)],
		    cause);
	case O_NPROC:
		if ((rc = number(v, &n, cause)) == BSUB_OPTS_OK)
			g->rlim[LSF_RLIMIT_PROCESS] = n;
		return rc;
	case O_SPRIO:
		if ((rc = number(v, &n, cause)) == BSUB_OPTS_OK)
			g->sprio = (int)n;
		return rc;
	case O_RERUN: g->rerun = true; return BSUB_OPTS_OK;
	case O_HOLD: g->hold = true; return BSUB_OPTS_OK;
	case O_K: g->block = true; return BSUB_OPTS_OK;
	case O_CHKPNT: return chkpnt(g, v, cause);
	case O_MAIL_BEGIN: g->mail_begin = true; return BSUB_OPTS_OK;
	case O_MAIL_END: g->mail_end = true; return BSUB_OPTS_OK;
	case O_HELP: return BSUB_OPTS_HELP;
	case O_VERSION: return BSUB_OPTS_VERSION;
	}
	*cause = xstrdup(opt ? opt : "");
	return BSUB_OPTS_BAD_OPTION;
}

int
bsub_opts_parse(struct bsub_opts *g, int argc, char **argv,
    bsub_unit_fn unit, struct cmdopt_state *st, char **cause)
{
	const char *v;
	int id, rc;

	cmdopt_init(st, argc, argv, false);
	st->quiet = true;	/* bsub says it with "Job not submitted" */
	while ((id = cmdopt_next(st, opts, &v)) != 0) {
		if (id == CMDOPT_UNSUPPORTED) {
			*cause = xstrdup(cmdopt_unsupported_name(st));
			return BSUB_OPTS_UNSUPPORTED;
		}
		if (id < 0) {
			*cause = xstrdup(st->bad ? st->bad : "");
			return BSUB_OPTS_BAD_OPTION;
		}
		if ((rc = apply(g, id, v, st->opt, unit, cause)) != 0)
			return rc;
	}
	return BSUB_OPTS_OK;
}

int
bsub_opts_one(struct bsub_opts *g, const char *name, const char *v,
    bsub_unit_fn unit, char **cause)
{
	const struct cmdopt *o;

	for (o = opts; o->name != NULL; o++)
		if (strcmp(o->name, name) == 0)
			break;
	if (o->name == NULL || o->id == CMDOPT_UNSUPPORTED) {
		*cause = xasprintf("-%s", name);
		return BSUB_OPTS_BAD_OPTION;
	}
	if (o->arg && (v == NULL || *v == '\0')) {
		*cause = xasprintf("-%s: a value is needed", name);
		return BSUB_OPTS_BAD_VALUE;
	}
	return apply(g, o->id, v ? v : "", name, unit, cause);
}

bool
bsub_opts_takes_value(const char *name)
{
	for (const struct cmdopt *o = opts; o->name != NULL; o++)
		if (strcmp(o->name, name) == 0)
			return o->arg;
	return false;
}

/* A '...' word: the text up to the closing quote (or the end). */
static const char *
single_quoted(const char *s, struct strbuf *w)
{
	const char *e = strchr(s + 1, '\'');

	if (e == NULL)
		e = s + strlen(s);
	sb_add(w, s + 1, (size_t)(e - s - 1));
	return *e ? e + 1 : e;
}

/* A "..." word: backslash quotes only " \ $ and `, as in a shell. */
static const char *
double_quoted(const char *s, struct strbuf *w)
{
	s++;
	while (*s && *s != '"') {
		if (*s == '\\' && (s[1] == '"' || s[1] == '\\' ||
		    s[1] == '$' || s[1] == '`'))
			s++;
		sb_addc(w, *s++);
	}
	if (*s == '"')
		s++;
	/* "" is a word, if an empty one: the buffer must hold a string
	 * even when nothing was added (sb_grow alone leaves it
	 * unterminated). */
	sb_add(w, "", 0);
	return s;
}

/* Split a #BSUB line the way a shell would; a '#' word ends it. */
void
bsub_opts_words(const char *s, struct strv *out)
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
		if (c == '\'')
			s = single_quoted(s, &w);
		else if (c == '"')
			s = double_quoted(s, &w);
		else if (c == '\\' && s[1]) {
			sb_addc(&w, s[1]);
			s += 2;
		} else {
			sb_addc(&w, c);
			s++;
		}
	}
	sb_release(&w);
}

/* One #BSUB line's text after "BSUB". */
static int
script_line(struct bsub_opts *g, const char *text, bsub_unit_fn unit,
    struct strv *ignored, char **cause)
{
	struct strv words = STRV_INIT;
	struct cmdopt_state st;
	char **rest;
	int n, rc;

	strv_push(&words, "bsub");
	bsub_opts_words(text, &words);
	rc = bsub_opts_parse(g, (int)words.n, words.v, unit, &st, cause);
	if (rc == BSUB_OPTS_OK) {
		rest = cmdopt_rest(&st, &n);
		if (n > 0)
			strv_push(ignored, rest[0]);
	}
	cmdopt_release(&st);
	strv_release(&words);
	return rc;
}

int
bsub_opts_script(struct bsub_opts *g, const char *script,
    bsub_unit_fn unit, struct strv *ignored, char **cause)
{
	const char *p = script;
	int rc = BSUB_OPTS_OK;

	while (*p && rc == BSUB_OPTS_OK) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len), *t = line;

		p += len + (nl ? 1 : 0);
		t += strspn(t, " \t");
		if (*t != '\0' && *t != '#') {
			free(line);
			break;		/* the first command */
		}
		if (*t == '#') {
			t++;
			t += strspn(t, " \t");
			if (strncmp(t, "BSUB", 4) == 0 &&
			    (t[4] == ' ' || t[4] == '\t'))
				rc = script_line(g, t + 4, unit, ignored,
				    cause);
		}
		free(line);
	}
	return rc;
}

void
bsub_opts_overlay(struct bsub_opts *dst, const struct bsub_opts *src)
{
#define OV_STR(f) if (src->f) set_str(&dst->f, src->f)
#define OV_VAL(f) if (src->f) dst->f = src->f
	OV_STR(queue); OV_STR(name); OV_STR(cwd); OV_STR(outdir);
	OV_STR(hosts);
	OV_STR(project); OV_STR(group); OV_STR(env); OV_STR(mail);
	OV_STR(in); OV_STR(shell); OV_STR(term); OV_STR(pre); OV_STR(post);
	OV_STR(warn_action); OV_STR(warn_time);
	OV_STR(app);
	if (src->chkpnt_dir) {
		set_str(&dst->chkpnt_dir, src->chkpnt_dir);
		free(dst->chkpnt_method);
		dst->chkpnt_method = src->chkpnt_method ?
		    xstrdup(src->chkpnt_method) : NULL;
		dst->chkpnt_period = src->chkpnt_period;
	}
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
