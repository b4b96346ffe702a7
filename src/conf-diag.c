/* Diagnostics collected while reading configuration files. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"

void
conf_diag_init(struct conf_diag *d)
{
	strv_init(&d->msgs);
	strv_init(&d->files);
	d->nerrors = 0;
	d->nwarnings = 0;
}

/* Paths of included files, index + 1 in the top bits of a line. */
static struct strv included = STRV_INIT;

int
conf_line_encode(const char *path, int line)
{
	size_t i;

	for (i = 0; i < included.n; i++)
		if (strcmp(included.v[i], path) == 0)
			break;
	if (i == included.n)
		strv_push(&included, path);
	/* A line number past the field, or a 2048th file: not named. */
	if (line >= (1 << CONF_LINE_BITS) || i + 1 >= (1u << (30 -
	    CONF_LINE_BITS)))
		return line;
	return (int)((i + 1) << CONF_LINE_BITS) | line;
}

int
conf_line_no(int line)
{
	return line & ((1 << CONF_LINE_BITS) - 1);
}

static const char *
line_file(const char *file, int line)
{
	size_t i = (size_t)line >> CONF_LINE_BITS;

	return i > 0 && i <= included.n ? included.v[i - 1] : file;
}

void
conf_diag_release(struct conf_diag *d)
{
	strv_release(&d->msgs);
	strv_release(&d->files);
	d->nerrors = 0;
	d->nwarnings = 0;
}

/*
 * "file:line: why".  Line 0 means the problem is with the file as a whole
 * (missing, or a required section absent), so no line can be named.
 */
static void
diag_add(struct conf_diag *d, bool warning, const char *file, int line,
    const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	if (file != NULL) {
		sb_adds(&sb, line_file(file, line));
		if (line > 0)
			sb_addf(&sb, ":%d", conf_line_no(line));
		sb_adds(&sb, ": ");
	}
	if (warning)
		sb_adds(&sb, "warning: ");
	sb_vaddf(&sb, fmt, ap);
	strv_push_nodup(&d->msgs, sb_detach(&sb));
	if (warning)
		d->nwarnings++;
	else
		d->nerrors++;
}

void
conf_diag_error(struct conf_diag *d, const char *file, int line,
    const char *fmt, ...)
{
	va_list ap;

	if (d == NULL)
		return;
	va_start(ap, fmt);
	diag_add(d, false, file, line, fmt, ap);
	va_end(ap);
}

void
conf_diag_warn(struct conf_diag *d, const char *file, int line,
    const char *fmt, ...)
{
	va_list ap;

	if (d == NULL)
		return;
	va_start(ap, fmt);
	diag_add(d, true, file, line, fmt, ap);
	va_end(ap);
}

void
conf_diag_print(const struct conf_diag *d, FILE *fp)
{
	for (size_t i = 0; i < d->msgs.n; i++)
		fprintf(fp, "%s\n", d->msgs.v[i]);
}

bool
conf_diag_is_warning(const char *msg)
{
	return strstr(msg, ": warning: ") != NULL ||
	    str_starts(msg, "warning: ");
}
