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

void
fmt_json_str(struct strbuf *sb, const char *s)
{
	sb_addc(sb, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"': sb_adds(sb, "\\\""); break;
		case '\\': sb_adds(sb, "\\\\"); break;
		case '/': sb_adds(sb, "\\/"); break;
		case '\n': sb_adds(sb, "\\n"); break;
		case '\t': sb_adds(sb, "\\t"); break;
		case '\r': sb_adds(sb, "\\r"); break;
		default:
			if (c < 0x20)
				sb_addf(sb, "\\u%04x", c);
			else
				sb_addc(sb, (char)c);
		}
	}
	sb_addc(sb, '"');
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
		sb_addf(&sb, "{\n  \"COMMAND\":\"%s\",\n  \"%s\":%u,\n"
		    "  \"RECORDS\":[\n", set->command, set->count_key, n);
		for (uint32_t i = 0; i < n; i++) {
			sb_adds(&sb, "    {\n");
			for (int c = 0; c < ncols; c++) {
				header(cols[c].f, h, sizeof(h));
				set->value(base + i * recsize, cols[c].f->id, v, sizeof(v));
				sb_adds(&sb, "      ");
				fmt_json_str(&sb, h);
				sb_addc(&sb, ':');
				fmt_json_str(&sb, v);
				sb_adds(&sb, c + 1 < ncols ? ",\n" : "\n");
			}
			sb_adds(&sb, i + 1 < n ? "    },\n" : "    }\n");
		}
		sb_adds(&sb, "  ]\n}\n");
		fputs(sb.buf, stdout);
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
