/*
 * The -o "field[:[-][width]] ... [delimiter='c']" [-json] output that
 * bqueues and busers share: a field without a colon is as wide as its
 * value, with "name:" it takes the field's width, a value longer than
 * the width is cut at its end, "-" justifies right; headers are the
 * field names in capitals; -json is one document, LSF's
 * {"COMMAND":..., "<COUNT>":n, "RECORDS":[{...}]} with string values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd-fields.h"
#include "util.h"

struct fcol {
	const struct fmt_field	*f;
	int			 width;		/* 0: as long as it is */
	bool			 right;
};

static const struct fmt_field *
field_find(const struct fmt_set *set, const char *w)
{
	for (size_t i = 0; i < set->nfields; i++)
		if (strcasecmp(set->fields[i].name, w) == 0 ||
		    (set->fields[i].alias &&
		    strcasecmp(set->fields[i].alias, w) == 0))
			return &set->fields[i];
	return NULL;
}

/* Parse the spec into cols; -1 with *bad. */
static int
parse(const struct fmt_set *set, const char *spec, struct fcol **cols,
    int *ncols, char **delim, char **bad)
{
	struct strv words = STRV_INIT;
	char *copy = xstrdup(spec), *d;
	int n = 0, rc = 0;

	*delim = NULL;
	/* delimiter='c' may hold a blank, so take it out first. */
	if ((d = strstr(copy, "delimiter=")) != NULL) {
		char *v = d + strlen("delimiter="), *e;

		if (*v == '\'' || *v == '"') {
			e = strchr(v + 1, *v);
			*delim = xstrndup(v + 1, e ? (size_t)(e - v - 1) :
			    strlen(v + 1));
			e = e ? e + 1 : v + strlen(v);
		} else {
			e = v + strcspn(v, " \t");
			*delim = xstrndup(v, (size_t)(e - v));
		}
		memmove(d, e, strlen(e) + 1);
	}
	strv_split_ws(&words, copy);
	free(copy);
	*cols = xcalloc(words.n * set->nfields + 1, sizeof(**cols));
	for (size_t i = 0; i < words.n && rc == 0; i++) {
		char *w = words.v[i], *c = strchr(w, ':');
		const struct fmt_field *f;
		int width = 0;
		bool right = false;

		if (c != NULL) {
			*c++ = '\0';
			if (*c == '-') {
				right = true;
				c++;
			}
			if (*c) {
				long l;

				if (parse_long(c, &l) < 0 || l < 1 ||
				    l > 4096) {
					*bad = xstrdup(spec);
					rc = -1;
					break;
				}
				width = (int)l;
			}
		}
		if (strcasecmp(w, "all") == 0) {
			for (size_t k = 0; k < set->nfields; k++) {
				(*cols)[n].f = &set->fields[k];
				(*cols)[n].width = c && !width ?
				    set->fields[k].width : width;
				(*cols)[n++].right = right;
			}
			continue;
		}
		if ((f = field_find(set, w)) == NULL) {
			*bad = xstrdup(w);
			rc = -1;
			break;
		}
		(*cols)[n].f = f;
		(*cols)[n].width = c && !width ? f->width : width;
		(*cols)[n++].right = right;
	}
	strv_release(&words);
	if (rc == 0 && n == 0) {
		*bad = xstrdup(spec);
		rc = -1;
	}
	*ncols = n;
	return rc;
}

static void
header(const struct fmt_field *f, char *buf, size_t len)
{
	size_t i;

	for (i = 0; f->name[i] && i + 1 < len; i++)
		buf[i] = (char)(f->name[i] >= 'a' && f->name[i] <= 'z' ?
		    f->name[i] - 'a' + 'A' : f->name[i]);
	buf[i] = '\0';
}

static void
cell(struct strbuf *line, const struct fcol *cl, const char *s)
{
	if (cl->width == 0)
		sb_adds(line, s);
	else
		sb_addf(line, cl->right ? "%*.*s" : "%-*.*s", cl->width,
		    cl->width, s);
}

/* The length of a valid UTF-8 sequence at s, or 0. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	c = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and past U+10FFFF are not UTF-8. */
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return n;
}

json_t *
fmt_json_str(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	const unsigned char *p;
	json_t *j;
	size_t n;

	if (s == NULL)
		s = "";
	j = json_string(s);
	if (j != NULL)
		return j;
	/* jansson takes UTF-8 only: a name in another encoding would
	 * otherwise print as nothing, or as a document no parser reads. */
	for (p = (const unsigned char *)s; *p; p += n) {
		if ((n = utf8_len(p)) == 0) {
			sb_adds(&sb, "\xef\xbf\xbd");
			n = 1;
		} else
			sb_add(&sb, (const char *)p, n);
	}
	j = json_string(sb.buf ? sb.buf : "");
	sb_release(&sb);
	return j;
}

json_t *
fmt_json_doc(const char *command, const char *count_key, size_t n,
    json_t **records)
{
	json_t *doc = json_object();

	*records = json_array();
	json_object_set_new(doc, "COMMAND", json_string(command));
	json_object_set_new(doc, count_key, json_integer((json_int_t)n));
	json_object_set_new(doc, "RECORDS", *records);
	return doc;
}

void
fmt_json_print(json_t *doc)
{
	/* LSF's layout: two spaces a level, no space after the colon, and
	 * '/' escaped as "\/". */
	json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_COMPACT |
	    JSON_ESCAPE_SLASH | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(doc);
}

int
fmt_print(const struct fmt_set *set, const void *recs, size_t recsize,
    uint32_t n, const char *spec, bool json, bool noheader, char **bad)
{
	const char *base = recs;
	struct strbuf sb = STRBUF_INIT;
	struct fcol *cols;
	char *delim, h[64], v[1024];
	const char *sep;
	int ncols;

	*bad = NULL;
	if (parse(set, spec, &cols, &ncols, &delim, bad) < 0) {
		free(cols);
		free(delim);
		return -1;
	}
	sep = delim ? delim : " ";
	if (json) {
		json_t *arr, *doc = fmt_json_doc(set->command,
		    set->count_key, n, &arr);

		for (uint32_t i = 0; i < n; i++) {
			json_t *r = json_object();

			for (int c = 0; c < ncols; c++) {
				header(cols[c].f, h, sizeof(h));
				set->value(base + i * recsize, cols[c].f->id, v,
				    sizeof(v));
				json_object_set_new(r, h, fmt_json_str(v));
			}
			json_array_append_new(arr, r);
		}
		fmt_json_print(doc);
	} else {
		if (!noheader) {
			for (int c = 0; c < ncols; c++) {
				if (c)
					sb_adds(&sb, sep);
				header(cols[c].f, h, sizeof(h));
				cell(&sb, &cols[c], h);
			}
			if (!delim)
				sb_rtrim(&sb);
			printf("%s\n", sb.buf);
		}
		for (uint32_t i = 0; i < n; i++) {
			sb_reset(&sb);
			for (int c = 0; c < ncols; c++) {
				if (c)
					sb_adds(&sb, sep);
				set->value(base + i * recsize, cols[c].f->id, v, sizeof(v));
				cell(&sb, &cols[c], v);
			}
			if (!delim)
				sb_rtrim(&sb);
			printf("%s\n", sb.buf);
		}
	}
	sb_release(&sb);
	free(cols);
	free(delim);
	return 0;
}
