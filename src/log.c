/* Timestamped daemon log lines. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

static const char *log_ident = "lsf";
static char *log_path;
static int log_fd = 2;
static enum log_level log_level = LOG_LVL_INFO;
static bool log_journal;	/* also to stderr, which is the journal */

int
log_init(const char *ident, const char *path, enum log_level lvl)
{
	char *copy = path ? xstrdup(path) : NULL;

	/* path may be log_path itself (log_reopen): copied before freed. */
	log_ident = ident;
	log_level = lvl;
	free(log_path);
	log_path = copy;
	if (copy == NULL) {
		log_fd = 2;
		return 0;
	}
	int fd = open(copy, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (log_fd > 2)
		close(log_fd);
	log_fd = fd;
	return 0;
}

void
log_reopen(void)
{
	if (log_path)
		(void)log_init(log_ident, log_path, log_level);
}

void
log_also_journal(bool on)
{
	log_journal = on;
}

enum log_level
log_level_from_mask(const char *m)
{
	if (m == NULL)
		return LOG_LVL_INFO;
	if (str_starts(m, "LOG_DEBUG"))
		return LOG_LVL_DEBUG;
	if (strcmp(m, "LOG_INFO") == 0 || strcmp(m, "LOG_NOTICE") == 0)
		return LOG_LVL_INFO;
	if (strcmp(m, "LOG_WARNING") == 0)
		return LOG_LVL_WARN;
	return LOG_LVL_ERR;
}

static void
vlog(enum log_level lvl, int errnum, const char *fmt, va_list ap)
{
	static const char *names[] = { "ERR", "WARN", "INFO", "DEBUG" };
	struct strbuf sb = STRBUF_INIT;
	struct timeval tv;
	struct tm tm;
	char ts[32];

	if (lvl > log_level)
		return;
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%b %d %H:%M:%S", &tm);
	sb_addf(&sb, "%s.%03d %s[%d] %s: ", ts, (int)(tv.tv_usec / 1000),
	    log_ident, (int)getpid(), names[lvl]);
	sb_vaddf(&sb, fmt, ap);
	if (errnum)
		sb_addf(&sb, ": %s", strerror(errnum));
	sb_addc(&sb, '\n');
	(void)write_all(log_fd, sb.buf, sb.len);
	if (log_journal && log_fd != 2) {
		/* journald takes "<N>" as the syslog priority and stamps
		 * the line itself: the message alone after it. */
		static const int prio[] = { 3, 4, 6, 7 };
		size_t skip = strlen(ts) + 5;		/* ".mmm " */
		char pfx[8];
		int n = snprintf(pfx, sizeof(pfx), "<%d>", prio[lvl]);

		if (skip < sb.len) {
			(void)write_all(2, pfx, (size_t)n);
			(void)write_all(2, sb.buf + skip, sb.len - skip);
		}
	}
	sb_release(&sb);
}

#define LOGFN(name, lvl, witherr)				\
void								\
name(const char *fmt, ...)					\
{								\
	int e = errno;						\
	va_list ap;						\
	va_start(ap, fmt);					\
	vlog(lvl, witherr ? e : 0, fmt, ap);			\
	va_end(ap);						\
	errno = e;						\
}
LOGFN(log_warn, LOG_LVL_WARN, 1)
LOGFN(log_warnx, LOG_LVL_WARN, 0)
LOGFN(log_info, LOG_LVL_INFO, 0)
LOGFN(log_debug, LOG_LVL_DEBUG, 0)

/*
 * die() and BUG() in a daemon (set_die_routine): an ERR line in the log,
 * and in the journal, written from the stack: memory may be what ran out.
 */
void
log_die_routine(const char *msg)
{
	char line[2304], ts[32];
	struct timeval tv;
	struct tm tm;
	int n;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%b %d %H:%M:%S", &tm);
	n = snprintf(line, sizeof(line), "%s.%03d %s[%d] ERR: %s\n", ts,
	    (int)(tv.tv_usec / 1000), log_ident, (int)getpid(), msg);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	(void)write_all(log_fd, line, (size_t)n);
	if (log_journal && log_fd != 2) {
		n = snprintf(line, sizeof(line), "<3>%s\n", msg);
		if (n > 0 && (size_t)n < sizeof(line))
			(void)write_all(2, line, (size_t)n);
	}
}

void
fatal(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_LVL_ERR, e, fmt, ap);
	va_end(ap);
	exit(1);
}

void
log_errx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_LVL_ERR, 0, fmt, ap);
	va_end(ap);
}

void
fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_LVL_ERR, 0, fmt, ap);
	va_end(ap);
	exit(1);
}

void
log_limited(struct ratelog *rl, const char *fmt, ...)
{
	uint64_t now = mono_ms();
	char buf[512];
	va_list ap;

	if (rl->lines > 0 && now - rl->since >= RATELOG_MS)
		rl->lines = 0;
	if (rl->lines >= RATELOG_BURST) {
		rl->skipped++;
		return;
	}
	va_start(ap, fmt);
	(void)vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (rl->lines == 0 && rl->skipped > 0)
		log_warnx("%s (and %u more like it in the last %d s)", buf,
		    rl->skipped, (int)((now - rl->since) / 1000));
	else
		log_warnx("%s", buf);
	if (rl->lines == 0) {
		rl->since = now;
		rl->skipped = 0;
	}
	rl->lines++;
}
