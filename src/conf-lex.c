/*
 * The reader every LSF configuration file goes through: physical lines
 * become logical lines (comments cut, "\" continuations joined), logical
 * lines are grouped into Begin/End sections, and a section is read either
 * as "KEY = value" lines or as a table.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "conf-lex.h"

/* A trimmed copy of n bytes of s. */
static char *
dup_trim(const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)*s))
		s++, n--;
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

/*
 * Is p (len bytes) word, then blanks and what?  An empty what means
 * nothing may follow the word.
 */
static bool
word_then(const char *p, size_t len, const char *word, const char *what)
{
	size_t n = strlen(word), m = strlen(what), i;

	if (len < n || strncmp(p, word, n) != 0)
		return false;
	for (i = n; i < len && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	if (m == 0)
		return i == len;
	return i > n && len - i >= m && strncmp(p + i, what, m) == 0;
}

/*
 * LSF 10 hides directives in comments: '#INCLUDE "file"' and time-based
 * "#if time(...)" blocks.  #INCLUDE is done where CONF_LEX_INCLUDE asks
 * (the lsb.* files): the file it names, allocated, is returned.  The
 * #if blocks we do not evaluate, so say so rather than let a site
 * believe they work.
 */
static char *
check_directive(const char *p, size_t len, unsigned flags, const char *path,
    int line, struct conf_diag *d)
{
	size_t i = 0;

	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (i == len || p[i] != '#')
		return NULL;
	p += i + 1;
	len -= i + 1;
	while (len > 0 && isspace((unsigned char)p[len - 1]))
		len--;
	if (word_then(p, len, "INCLUDE", "\"")) {
		const char *q = memchr(p, '"', len), *e;

		if (!(flags & CONF_LEX_INCLUDE)) {
			conf_diag_warn(d, path, line,
			    "#INCLUDE is not supported in this file; ignored");
			return NULL;
		}
		/* '#INCLUDE "file" # comment': the quoted name. */
		e = memchr(q + 1, '"', len - (size_t)(q + 1 - p));
		if (e == NULL || e == q + 1) {
			conf_diag_error(d, path, line,
			    "#INCLUDE needs a file name in double quotes");
			return NULL;
		}
		return xstrndup(q + 1, (size_t)(e - q - 1));
	} else if (word_then(p, len, "if", "time(") ||
	    word_then(p, len, "elif", "time(") ||
	    word_then(p, len, "else", "") || word_then(p, len, "endif", ""))
		conf_diag_warn(d, path, line,
		    "#if/#else/#endif blocks are not supported; the lines "
		    "between are read as usual");
	return NULL;
}

/*
 * 1 + the first byte of [p, p+len) that no text file holds (NUL and the
 * control characters but the blanks), else 0.  A binary or truncated
 * file can look like lines of comments and blanks, or lose the rest of
 * a line at a NUL, and so pass for an empty file: it is an error, said
 * once per file.
 */
static int
not_text(const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if ((c < 0x20 && c != '\t' && c != '\r' && c != '\f' &&
		    c != '\v') || c == 0x7f)
			return 1 + c;
	}
	return 0;
}

static void
add_line(struct conf_file *f, struct strbuf *cur, int line, int quote,
    struct conf_diag *d)
{
	char *t;

	sb_add(cur, "", 0);	/* a buffer even for an empty line */
	t = str_trim(cur->buf);
	if (quote)
		conf_diag_error(d, f->path, line, "unterminated %c quote",
		    quote);
	if (*t != '\0') {
		f->lines = conf_grow(f->lines, f->nlines, sizeof(*f->lines));
		f->lines[f->nlines].text = xstrdup(t);
		f->lines[f->nlines].line = line;
		f->nlines++;
	}
	sb_reset(cur);
}

/* How deep #INCLUDE may nest: deeper is taken for a file including
 * itself. */
#define INCLUDE_DEPTH	10

static int lex_file(struct conf_file *, const char *path, unsigned flags,
    struct strv *stack, struct conf_diag *);

/* The file an #INCLUDE names: a relative name is taken from the
 * directory of the file that includes it. */
static void
include_file(struct conf_file *f, const char *from, const char *name,
    unsigned flags, struct strv *stack, int line, struct conf_diag *d)
{
	const char *slash = strrchr(from, '/');
	struct stat st;
	char *path;

	if (name[0] == '/' || slash == NULL)
		path = xstrdup(name);
	else
		path = xasprintf("%.*s/%s", (int)(slash - from), from, name);
	if (strv_contains(stack, path))
		conf_diag_error(d, from, line, "#INCLUDE \"%s\": %s is "
		    "being read already (it includes itself); not read again",
		    name, path);
	else if (stack->n >= INCLUDE_DEPTH)
		conf_diag_error(d, from, line, "#INCLUDE \"%s\": included "
		    "files nest more than %d deep; not read", name,
		    INCLUDE_DEPTH);
	else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		conf_diag_error(d, from, line, "#INCLUDE \"%s\": %s is not a "
		    "regular file; not read", name, path);
	else if (lex_file(f, path, flags, stack, d) < 0)
		conf_diag_error(d, from, line, "#INCLUDE \"%s\": cannot read "
		    "%s: %s", name, path, strerror(errno));
	free(path);
}

/* The lines of path, appended to f; those of an included file (depth
 * > 0) numbered with conf_line_encode(). */
static int
lex_file(struct conf_file *f, const char *path, unsigned flags,
    struct strv *stack, struct conf_diag *d)
{
	struct strbuf raw = STRBUF_INIT, cur = STRBUF_INIT;
	size_t pos = 0;
	int lineno = 0, start = 0, quote = 0, binary = 0, ln, depth;
	bool cont = false;
	char *incl;

	if (read_file(path, &raw) < 0) {
		int e = errno;

		sb_release(&raw);
		errno = e;
		return -1;
	}
	if (d != NULL)
		strv_push(&d->files, path);
	depth = (int)stack->n;
	strv_push(stack, path);
	while (pos < raw.len) {
		const char *p = raw.buf + pos;
		const char *nl = memchr(p, '\n', raw.len - pos);
		size_t len = nl ? (size_t)(nl - p) : raw.len - pos;
		size_t keep = len;

		lineno++;
		ln = depth > 0 ? conf_line_encode(path, lineno) : lineno;
		if (!binary && (binary = not_text(p, len)) != 0)
			conf_diag_error(d, path, ln, "byte 0x%02x: not "
			    "a text file, so not LSF syntax", binary - 1);
		if (!cont) {
			start = ln;
			quote = 0;
			incl = check_directive(p, len, flags, path, ln, d);
			if (incl != NULL) {
				include_file(f, path, incl, flags, stack, ln,
				    d);
				free(incl);
				pos += len + (nl ? 1 : 0);
				continue;
			}
		}
		/* The quote state carries over a continuation: a "#" inside
		 * a quoted value split over lines is still not a comment. */
		for (size_t i = 0; i < len; i++) {
			int c = (unsigned char)p[i];

			if (quote) {
				if (c == quote)
					quote = 0;
			} else if (c == '"' ||
			    (c == '\'' && (flags & CONF_LEX_SQUOTE))) {
				quote = c;
			} else if (c == '#') {
				keep = i;
				break;
			}
		}
		while (keep > 0 && isspace((unsigned char)p[keep - 1]))
			keep--;
		cont = keep > 0 && p[keep - 1] == '\\';
		if (cont)
			keep--;
		sb_add(&cur, p, keep);
		if (!cont)
			add_line(f, &cur, start, quote, d);
		pos += len + (nl ? 1 : 0);
	}
	if (cont)
		add_line(f, &cur, start, quote, d);
	sb_release(&cur);
	sb_release(&raw);
	free(stack->v[--stack->n]);
	stack->v[stack->n] = NULL;
	return 0;
}

int
conf_file_read(struct conf_file *f, const char *path, unsigned flags,
    struct conf_diag *d)
{
	f->path = xstrdup(path);
	f->lines = NULL;
	struct strv stack = STRV_INIT;
	int rc;

	f->nlines = 0;
	rc = lex_file(f, path, flags, &stack, d);
	strv_release(&stack);
	return rc;
}

void
conf_file_release(struct conf_file *f)
{
	for (int i = 0; i < f->nlines; i++)
		free(f->lines[i].text);
	free(f->lines);
	free(f->path);
	f->lines = NULL;
	f->path = NULL;
	f->nlines = 0;
}

/* If text starts with the word kw (any case), return what follows it. */
static const char *
after_word(const char *text, const char *kw)
{
	size_t n = strlen(kw);

	if (strncasecmp(text, kw, n) != 0)
		return NULL;
	if (text[n] != '\0' && !isspace((unsigned char)text[n]))
		return NULL;
	text += n;
	while (isspace((unsigned char)*text))
		text++;
	return text;
}

/* The first word of s, allocated; *rest points after it. */
static char *
first_word(const char *s, const char **rest)
{
	const char *e = s;

	while (*e && !isspace((unsigned char)*e))
		e++;
	*rest = e;
	while (isspace((unsigned char)**rest))
		(*rest)++;
	return xstrndup(s, (size_t)(e - s));
}

void
conf_sections_read(const struct conf_file *f, struct conf_sections *s,
    struct conf_diag *d)
{
	struct conf_section cur = { NULL, 0, 0, 0 };
	bool open = false;

	s->v = NULL;
	s->n = 0;
	for (int i = 0; i < f->nlines; i++) {
		const char *text = f->lines[i].text, *arg, *rest;
		int line = f->lines[i].line;

		if ((arg = after_word(text, "begin")) != NULL) {
			if (open) {
				/* A nameless Begin is reported already. */
				if (*cur.name != '\0')
					conf_diag_error(d, f->path, line,
					    "Begin %s before End %s of line %d",
					    arg, cur.name, conf_line_no(cur.line));
				free(cur.name);
			}
			cur.name = first_word(arg, &rest);
			cur.line = line;
			cur.first = i + 1;
			open = true;
			if (*cur.name == '\0')
				conf_diag_error(d, f->path, line,
				    "Begin without a section name");
			else if (*rest != '\0')
				conf_diag_error(d, f->path, line,
				    "unexpected \"%s\" after Begin %s",
				    rest, cur.name);
			continue;
		}
		if ((arg = after_word(text, "end")) != NULL) {
			char *name;

			if (!open) {
				conf_diag_error(d, f->path, line,
				    "End %s without Begin", arg);
				continue;
			}
			name = first_word(arg, &rest);
			open = false;
			if (*cur.name == '\0') {
				/* Already reported at its Begin. */
				free(cur.name);
			} else if (*name != '\0' &&
			    strcasecmp(name, cur.name) != 0) {
				conf_diag_error(d, f->path, line,
				    "End %s does not match Begin %s of line %d",
				    name, cur.name,
				    conf_line_no(cur.line));
				free(cur.name);
			} else {
				cur.last = i;
				s->v = conf_grow(s->v, s->n, sizeof(*s->v));
				s->v[s->n++] = cur;
			}
			free(name);
			cur.name = NULL;
			continue;
		}
		if (!open)
			conf_diag_error(d, f->path, line,
			    "\"%.40s\" is outside any Begin/End section",
			    text);
	}
	if (open) {
		conf_diag_error(d, f->path, cur.line, "Begin %s without End %s",
		    cur.name, cur.name);
		free(cur.name);
	}
}

void
conf_sections_release(struct conf_sections *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

char *
conf_unquote(char *s, unsigned flags)
{
	size_t n = strlen(s);

	if (n >= 2 && (s[0] == '"' ||
	    (s[0] == '\'' && (flags & CONF_LEX_SQUOTE))) && s[n - 1] == s[0] &&
	    memchr(s + 1, s[0], n - 2) == NULL) {
		memmove(s, s + 1, n - 2);
		s[n - 2] = '\0';
	}
	return s;
}

static bool
valid_key(const char *k)
{
	if (*k == '\0')
		return false;
	for (; *k; k++)
		if (isspace((unsigned char)*k) || *k == '"' || *k == '\'')
			return false;
	return true;
}

void
conf_kvs_read(const struct conf_file *f, const struct conf_section *sec,
    unsigned flags, struct conf_kvs *kv, struct conf_diag *d)
{
	int first = sec ? sec->first : 0;
	int last = sec ? sec->last : f->nlines;

	kv->v = NULL;
	kv->n = 0;
	for (int i = first; i < last; i++) {
		const char *text = f->lines[i].text;
		int line = f->lines[i].line;
		const char *eq = strchr(text, '=');
		char *key, *val;

		if (eq == NULL) {
			/* Sites keep odd lines in lsf.conf; other tools
			 * read it too, so only warn there. */
			if (sec == NULL)
				conf_diag_warn(d, f->path, line,
				    "\"%.40s\" is not KEY=value; ignored",
				    text);
			else
				conf_diag_error(d, f->path, line,
				    "expected KEY = value, not \"%.40s\"",
				    text);
			continue;
		}
		key = dup_trim(text, (size_t)(eq - text));
		if (!valid_key(key)) {
			if (sec == NULL)
				conf_diag_warn(d, f->path, line,
				    "bad key \"%s\"; line ignored", key);
			else
				conf_diag_error(d, f->path, line,
				    "bad key \"%s\"", key);
			free(key);
			continue;
		}
		val = dup_trim(eq + 1, strlen(eq + 1));
		conf_unquote(val, flags);
		kv->v = conf_grow(kv->v, kv->n, sizeof(*kv->v));
		kv->v[kv->n].key = key;
		kv->v[kv->n].val = val;
		kv->v[kv->n].line = line;
		kv->n++;
	}
}

void
conf_kvs_release(struct conf_kvs *kv)
{
	for (int i = 0; i < kv->n; i++) {
		free(kv->v[i].key);
		free(kv->v[i].val);
	}
	free(kv->v);
	kv->v = NULL;
	kv->n = 0;
}

void
conf_vals_free(struct conf_val *v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i].s);
	free(v);
}

/* Does the bracket opening t[0] close at t[n - 1]? */
static bool
wrapped(const char *t, size_t n)
{
	int depth = 0;
	int quote = 0;

	for (size_t i = 0; i < n; i++) {
		if (quote) {
			if (t[i] == quote)
				quote = 0;
			continue;
		}
		if (t[i] == '"')
			quote = '"';
		else if (t[i] == '(' || t[i] == '[')
			depth++;
		else if (t[i] == ')' || t[i] == ']') {
			if (--depth == 0)
				return i == n - 1;
		}
	}
	return false;
}

static struct conf_val
make_val(const char *t, size_t n)
{
	struct conf_val v = { NULL, false };

	if (n == 1 && t[0] == '-') {
		v.s = xstrdup("");
		v.dflt = true;
	} else if (n >= 2 && t[0] == '(' && wrapped(t, n)) {
		v.s = dup_trim(t + 1, n - 2);
		v.dflt = v.s[0] == '\0';
	} else if (n >= 2 && t[0] == '"' && t[n - 1] == '"' &&
	    memchr(t + 1, '"', n - 2) == NULL) {
		v.s = xstrndup(t + 1, n - 2);
	} else {
		v.s = xstrndup(t, n);
	}
	return v;
}

int
conf_split_values(const char *text, struct conf_val **out, int *nout,
    const char **why)
{
	struct conf_val *v = NULL;
	int n = 0;
	const char *p = text;

	while (*p) {
		char stack[64];
		int depth = 0, quote = 0;
		const char *start;

		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		start = p;
		for (; *p; p++) {
			int c = (unsigned char)*p;

			if (quote) {
				if (c == quote)
					quote = 0;
			} else if (c == '"') {
				quote = c;
			} else if (c == '(' || c == '[') {
				if (depth == (int)sizeof(stack)) {
					*why = "brackets nested too deeply";
					goto bad;
				}
				stack[depth++] = c == '(' ? ')' : ']';
			} else if (c == ')' || c == ']') {
				if (depth == 0 || stack[depth - 1] != c) {
					*why = c == ')' ? "unbalanced \")\"" :
					    "unbalanced \"]\"";
					goto bad;
				}
				depth--;
			} else if (isspace(c) && depth == 0) {
				break;
			}
		}
		if (quote) {
			*why = "unterminated quote";
			goto bad;
		}
		if (depth) {
			*why = stack[depth - 1] == ')' ? "missing \")\"" :
			    "missing \"]\"";
			goto bad;
		}
		v = conf_grow(v, n, sizeof(*v));
		v[n++] = make_val(start, (size_t)(p - start));
	}
	*out = v;
	*nout = n;
	return 0;
bad:
	conf_vals_free(v, n);
	*out = NULL;
	*nout = 0;
	return -1;
}

void
conf_table_read(const struct conf_file *f, const struct conf_section *sec,
    struct conf_table *t, struct conf_diag *d)
{
	struct conf_val *v;
	const char *why;
	int n, i = sec->first;

	strv_init(&t->cols);
	t->rows = NULL;
	t->nrows = 0;
	t->line = sec->line;
	if (i >= sec->last)
		return;
	t->line = f->lines[i].line;
	if (conf_split_values(f->lines[i].text, &v, &n, &why) < 0) {
		conf_diag_error(d, f->path, t->line, "%s", why);
		/* No columns: every row below is then reported as bad,
		 * which says nothing new; skip them. */
		return;
	}
	for (int c = 0; c < n; c++) {
		if (conf_table_col(t, v[c].s) >= 0)
			conf_diag_error(d, f->path, t->line,
			    "column %s given twice", v[c].s);
		strv_push(&t->cols, v[c].s);
	}
	conf_vals_free(v, n);
	for (i++; i < sec->last; i++) {
		int line = f->lines[i].line;

		if (conf_split_values(f->lines[i].text, &v, &n, &why) < 0) {
			conf_diag_error(d, f->path, line, "%s", why);
			continue;
		}
		if (n != (int)t->cols.n) {
			conf_diag_error(d, f->path, line,
			    "%d values for %zu columns; row ignored", n,
			    t->cols.n);
			conf_vals_free(v, n);
			continue;
		}
		t->rows = conf_grow(t->rows, t->nrows, sizeof(*t->rows));
		t->rows[t->nrows].v = v;
		t->rows[t->nrows].n = n;
		t->rows[t->nrows].line = line;
		t->nrows++;
	}
}

void
conf_table_release(struct conf_table *t)
{
	for (int i = 0; i < t->nrows; i++)
		conf_vals_free(t->rows[i].v, t->rows[i].n);
	free(t->rows);
	strv_release(&t->cols);
	t->rows = NULL;
	t->nrows = 0;
}

int
conf_table_col(const struct conf_table *t, const char *name)
{
	for (size_t i = 0; i < t->cols.n; i++)
		if (strcasecmp(t->cols.v[i], name) == 0)
			return (int)i;
	return -1;
}

void *
conf_grow(void *p, int n, size_t size)
{
	if (n > 0 && (n & (n - 1)) != 0)
		return p;
	return xrealloc(p, (n > 0 ? (size_t)n * 2 : 1) * size);
}

int
conf_int(const char *s, long min, long max, int *out)
{
	long v;

	if (parse_long(s, &v) < 0 || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

int
conf_float(const char *s, double min, double max, float *out)
{
	double v;

	if (parse_double(s, &v) < 0 || v < min || v > max)
		return -1;
	*out = (float)v;
	return 0;
}

int
conf_bool(const char *s, bool *out)
{
	if (strcasecmp(s, "y") == 0 || strcasecmp(s, "yes") == 0) {
		*out = true;
		return 0;
	}
	if (strcasecmp(s, "n") == 0 || strcasecmp(s, "no") == 0) {
		*out = false;
		return 0;
	}
	return -1;
}

bool
conf_key_in(const char *key, const char *const *list)
{
	for (; *list; list++)
		if (strcasecmp(key, *list) == 0)
			return true;
	return false;
}

bool
conf_blank(const char *s)
{
	if (s == NULL)
		return true;
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return false;
	return true;
}

const char *
conf_cell(const struct conf_row *r, int c)
{
	if (c < 0 || c >= r->n || r->v[c].dflt)
		return NULL;
	return r->v[c].s;
}

void
conf_check_cols(const struct conf_table *t, const char *path,
    const char *const *known, const struct shared_conf *res, bool loadidx,
    struct conf_diag *d)
{
	for (size_t i = 0; i < t->cols.n; i++) {
		const char *c = t->cols.v[i];

		if (conf_key_in(c, known) ||
		    (loadidx && load_index_lookup(c) >= 0) ||
		    (res != NULL && shared_has_resource(res, c)))
			continue;
		conf_diag_warn(d, path, t->line, "unknown column %s ignored",
		    c);
	}
}

bool
conf_need_col(const struct conf_table *t, const char *path, const char *sec,
    const char *col, struct conf_diag *d)
{
	if (conf_table_col(t, col) >= 0)
		return true;
	/* An empty section is no mistake; a header without the key is. */
	if (t->cols.n > 0)
		conf_diag_error(d, path, t->line, "%s section has no %s column",
		    sec, col);
	return false;
}

void
conf_kvs_check_dups(const struct conf_kvs *kv, const char *path,
    struct conf_diag *d)
{
	for (int i = 1; i < kv->n; i++)
		for (int j = 0; j < i; j++)
			if (strcasecmp(kv->v[i].key, kv->v[j].key) == 0) {
				conf_diag_warn(d, path, kv->v[i].line,
				    "%s is already set at line %d; this value "
				    "is used", kv->v[i].key, conf_line_no(kv->v[j].line));
				break;
			}
}

void
conf_read_sections(struct lsf_config *cfg, const char *path,
    const char *kind, void (*fn)(struct lsf_config *,
    const struct conf_file *, const struct conf_section *,
    struct conf_diag *), struct conf_diag *d)
{
	struct conf_file f;
	struct conf_sections secs;

	if (conf_file_read(&f, path, CONF_LEX_INCLUDE, d) < 0) {
		conf_diag_error(d, path, 0, "cannot read: %s",
		    strerror(errno));
		conf_file_release(&f);
		return;
	}
	conf_sections_read(&f, &secs, d);
	for (int i = 0; i < secs.n; i++) {
		if (strcasecmp(secs.v[i].name, kind) == 0)
			fn(cfg, &f, &secs.v[i], d);
		else
			conf_diag_warn(d, path, secs.v[i].line,
			    "unknown section %s ignored", secs.v[i].name);
	}
	conf_sections_release(&secs);
	conf_file_release(&f);
}

/* Queue and application names: LSF's characters, at most 59 of them. */
#define SECTION_NAME_MAX	59

static const char *
check_section_name(const char *s)
{
	if (strlen(s) > SECTION_NAME_MAX)
		return "longer than 59 characters";
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' &&
		    *s != '.')
			return "only letters, digits, _ - and . are allowed";
	return NULL;
}

const char *
conf_named_section(const struct conf_file *f, const struct conf_section *sec,
    const char *key, const char *what,
    int (*seen)(const struct lsf_config *, const char *),
    const struct lsf_config *cfg, struct conf_kvs *kv, struct conf_diag *d)
{
	const char *name = NULL, *why;
	int name_line = sec->line, old;

	conf_kvs_read(f, sec, 0, kv, d);
	conf_kvs_check_dups(kv, f->path, d);
	for (int i = 0; i < kv->n; i++)
		if (strcasecmp(kv->v[i].key, key) == 0) {
			name = kv->v[i].val;
			name_line = kv->v[i].line;
		}
	if (conf_blank(name)) {
		conf_diag_error(d, f->path, sec->line,
		    "%s section has no %s; ignored", what, key);
		return NULL;
	}
	if ((why = check_section_name(name)) != NULL) {
		conf_diag_error(d, f->path, name_line,
		    "bad %s \"%s\": %s; %s ignored", key, name, why, what);
		return NULL;
	}
	if ((old = seen(cfg, name)) > 0) {
		conf_diag_error(d, f->path, name_line,
		    "%s %s is already defined at line %d; ignored", what,
		    name, conf_line_no(old));
		return NULL;
	}
	return name;
}

void
conf_read_tables(struct lsf_config *cfg, const char *path,
    const struct conf_table_kind *kinds, struct conf_diag *d)
{
	conf_read_tables_kv(cfg, path, kinds, NULL, NULL, d);
}

void
conf_read_tables_kv(struct lsf_config *cfg, const char *path,
    const struct conf_table_kind *kinds, const char *kv_section,
    void (*kv_fn)(struct lsf_config *, const struct conf_file *,
    const struct conf_section *, struct conf_diag *), struct conf_diag *d)
{
	struct conf_file f;
	struct conf_sections secs;

	if (conf_file_read(&f, path, CONF_LEX_INCLUDE, d) < 0) {
		conf_diag_error(d, path, 0, "cannot read: %s",
		    strerror(errno));
		conf_file_release(&f);
		return;
	}
	conf_sections_read(&f, &secs, d);
	for (int i = 0; i < secs.n; i++) {
		const struct conf_section *sec = &secs.v[i];
		const struct conf_table_kind *k;
		struct conf_table t;

		if (kv_section != NULL &&
		    strcasecmp(sec->name, kv_section) == 0) {
			kv_fn(cfg, &f, sec, d);
			continue;
		}
		for (k = kinds; k->section; k++)
			if (strcasecmp(sec->name, k->section) == 0)
				break;
		if (k->section == NULL) {
			conf_diag_warn(d, path, sec->line,
			    "unknown section %s ignored", sec->name);
			continue;
		}
		conf_table_read(&f, sec, &t, d);
		k->read(cfg, path, &t, d);
		conf_table_release(&t);
	}
	conf_sections_release(&secs);
	conf_file_release(&f);
}
