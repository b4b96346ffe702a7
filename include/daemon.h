/*
 * What the three daemons share at start-up: the same options, the same
 * configuration loading, log file naming and daemonizing.
 *
 *	-f	stay in the foreground (systemd); log to the log file
 *	-d	stay in the foreground and log to stderr, with debug messages
 *	-n	check the configuration and exit (0 if it has no errors)
 *	-N name	run as host "name" and bind the address it resolves to
 *		(without -N: $LSF_LOCAL_HOST, else this machine's name)
 *	-e dir	read lsf.conf from dir instead of $LSF_ENVDIR
 *	-V	print the version and exit
 */
#ifndef LSF_DAEMON_H
#define LSF_DAEMON_H

#include <stdbool.h>

#include "conf.h"

struct daemon_opts {
	const char	*name;		/* "lim", "sbatchd", "mbatchd" */
	bool		 foreground;
	bool		 debug;
	bool		 check;
	char		*host;		/* -N, else the local host name */
	char		*envdir;	/* -e */
	int		 argc;		/* what is left after the options */
	char		**argv;
};

/*
 * mbatchd's exit status after badmin mbdrestart: its sbatchd starts it
 * again at once, where any other exit waits out a growing delay.
 */
#define MBD_EXIT_RESTART	3

/* Parse the common options; exits on -V, -h and bad options. */
void	 daemon_getopt(struct daemon_opts *, const char *name, int argc,
	    char **argv);
/*
 * Load the configuration (parts), print diagnostics; with -n exit with
 * the check's status.  Exits 1 on errors.  Resolves the host name (-N or
 * the local name) against the cluster.
 */
void	 daemon_config(struct daemon_opts *, struct lsf_config *,
	    unsigned parts);
/* Open the log (LSF_LOGDIR/<name>.log.<host>) and daemonize unless -f/-d. */
void	 daemon_start(const struct daemon_opts *, const struct lsf_config *);
/* Path of a daemon's log file, allocated (NULL without LSF_LOGDIR). */
char	*daemon_log_path(const struct lsf_config *, const char *name,
	    const char *host);

#endif
