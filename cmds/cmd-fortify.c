/*
 * Debian builds libmunge.a, libjansson.a and libyaml.a with
 * _FORTIFY_SOURCE, so they call glibc's
 * checked printf family.  musl has no such entry points; the commands
 * that link the archive statically with musl get these, which do what
 * the unchecked functions do (libmunge formats only its own messages).
 * glibc builds have the real ones and skip this file's contents.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#ifndef __GLIBC__
int	__fprintf_chk(FILE *, int, const char *, ...);
int	__printf_chk(int, const char *, ...);
int	__snprintf_chk(char *, size_t, int, size_t, const char *, ...);
int	__vsnprintf_chk(char *, size_t, int, size_t, const char *, va_list);
void	__syslog_chk(int, int, const char *, ...);
int	__sprintf_chk(char *, int, size_t, const char *, ...);
char	*__strncpy_chk(char *, const char *, size_t, size_t);

int
__fprintf_chk(FILE *f, int flag, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

int
__printf_chk(int flag, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}

int
__vsnprintf_chk(char *s, size_t max, int flag, size_t slen, const char *fmt,
    va_list ap)
{
	return vsnprintf(s, max, fmt, ap);
}

int
__snprintf_chk(char *s, size_t max, int flag, size_t slen, const char *fmt,
    ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s, max, fmt, ap);
	va_end(ap);
	return n;
}

void
__syslog_chk(int pri, int flag, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsyslog(pri, fmt, ap);
	va_end(ap);
}
int
__sprintf_chk(char *s, int flag, size_t slen, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s, slen, fmt, ap);
	va_end(ap);
	return n;
}

char *
__strncpy_chk(char *d, const char *s, size_t n, size_t dlen)
{
	return strncpy(d, s, n < dlen ? n : dlen);
}
#endif
