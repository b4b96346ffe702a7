/*
 * Daemon logging in the OpenBSD manner: log_warn appends strerror(errno),
 * log_warnx does not; fatal/fatalx log and exit.  Lines go to
 * LSF_LOGDIR/<daemon>.log.<host>, or to stderr in the foreground with -d;
 * under systemd to the journal as well.
 */
#ifndef LSF_LOG_H
#define LSF_LOG_H

#include "util.h"

enum log_level { LOG_LVL_ERR, LOG_LVL_WARN, LOG_LVL_INFO, LOG_LVL_DEBUG };

/*
 * Open the log.  path NULL: stderr.  Returns -1 with errno when the file
 * cannot be opened (the caller decides whether that is fatal).
 */
int	 log_init(const char *ident, const char *path, enum log_level);
/* Reopen the same file (after rotation). */
void	 log_reopen(void);
/* Also write each line to stderr, with journald's priority prefix (the
 * daemon runs under systemd, whose journal reads its stderr). */
void	 log_also_journal(bool);
/* Parse LSF_LOG_MASK values (LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG*). */
enum log_level log_level_from_mask(const char *);

/* An error the daemon goes on after (ERR level, without errno). */
void	 log_errx(const char *, ...) PRINTF(1, 2);
void	 log_warn(const char *, ...) PRINTF(1, 2);
void	 log_warnx(const char *, ...) PRINTF(1, 2);
void	 log_info(const char *, ...) PRINTF(1, 2);
void	 log_debug(const char *, ...) PRINTF(1, 2);
/*
 * What a peer can cause at will (a timeout, a refused frame or
 * handshake) is logged at most RATELOG_BURST times every RATELOG_MS for
 * each kind, then counted: a few refusals are each logged, a thousand
 * hostile connections do not write a thousand lines.  One struct
 * ratelog per kind, zeroed.
 */
#define RATELOG_MS	10000
#define RATELOG_BURST	5
struct ratelog {
	uint64_t	 since;		/* this window's first line */
	unsigned	 lines;		/* written in it */
	unsigned	 skipped;
};
void	 log_limited(struct ratelog *, const char *, ...) PRINTF(2, 3);
/* For set_die_routine: die() and BUG() go to the log. */
void	 log_die_routine(const char *msg);
void	 fatal(const char *, ...) PRINTF(1, 2) NORETURN;
void	 fatalx(const char *, ...) PRINTF(1, 2) NORETURN;

#endif
