/*
 * What badmin and lsadmin share around their control subcommands: the
 * configuration check that comes first, the question asked on a
 * terminal, and the history of administrator actions in lsb.events.
 */
#ifndef CMD_ADMIN_H
#define CMD_ADMIN_H

#include <stdbool.h>

#include "cmd-display.h"

/*
 * Check the configuration parts (ckconfig's report, on stderr).  Fatal
 * errors: returns -1 (nothing may go on).  Warnings: asks question on a
 * terminal unless force, and returns -1 on anything but "y".  Else 0.
 */
int	 adm_check(unsigned parts, bool verbose, bool force,
	    const char *question);
/* Ask "question [y/n] " when stdin is a terminal; true for "y", and
 * true without a terminal (nobody to ask) or with force. */
bool	 adm_confirm(const char *question, bool force);

/* This machine's host in the cluster ($LSF_LOCAL_HOST, else by its
 * name), allocated; NULL when it is not in the cluster. */
char	*adm_local_host(const struct lsf_config *);
/* Root or a cluster administrator (ClusterAdmins). */
bool	 adm_caller_is_admin(const struct lsf_config *);
/*
 * "Start up <what> on <host> ...... done": run LSF_SERVERDIR/<daemon>
 * here, or "$LSF_RSH host LSF_SERVERDIR/<daemon>" (ssh by default) for
 * another host.  -1 (and "failed: why") when it did not start.
 */
int	 adm_daemon_start(const struct lsf_config *, const char *host,
	    const char *daemon, const char *what);

/* badmin hist, hhist, qhist, mbdhist. */
#define HIST_HOST	0x01
#define HIST_QUEUE	0x02
#define HIST_MBD	0x04
/* Print the control history of path (NULL: this cluster's lsb.events),
 * limited to names when there are any.  Returns the exit status. */
int	 adm_history(const char *path, unsigned what, char **names, int nnames);
/* badmin logcheck: check the event logs named (none: this cluster's
 * lsb.events and lsb.envs) offline.  0 when clean, 1 when damaged or
 * torn, 255 when a file cannot be read. */
int	 adm_logcheck(char **files, int nfiles);

#endif
