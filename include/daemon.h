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
#include "wire.h"

struct daemon_opts {
	const char	*name;		/* "lim", "sbatchd", "mbatchd" */
	bool		 foreground;
	bool		 debug;
	bool		 check;
	char		*host;		/* -N, else the local host name */
	char		*envdir;	/* -e */
	char		*exe;		/* the program as started, or NULL */
	int		 argc;		/* what is left after the options */
	char		**argv;
};

/*
 * mbatchd's exit status after badmin mbdrestart: its sbatchd starts it
 * again at once, where any other exit waits out a growing delay.
 */
#define MBD_EXIT_RESTART	3

/*
 * Bounds on what peers can make a daemon hold (docs/ARCHITECTURE.md,
 * "Bounds"; struct conn_limits and struct listener_limits in conn.h).
 *
 * A command's frame is a request, the largest a submission with its
 * script and environment (the environment alone can be ~2 MB on Linux);
 * a daemon's may be a job list or a registration with every job of a
 * host, up to WIRE_MAX_FRAME.  A command's unread output may reach a
 * whole listing of every job (a million jobs of bjobs' default fields is
 * ~150 MB); what keeps many such from adding up is that a command that
 * does not read is not read either (CONN_OUT_PAUSE).  A command sends its
 * request as soon as it connects; a daemon too, but may be far away.
 */
#define CMD_MAX_FRAME		WIRE_MAX_REQUEST
#define CMD_MAX_OUT		((size_t)256 * 1024 * 1024)
#define CMD_WAIT_MS		10000
#define CMD_MAX_PER_USER	512	/* concurrent commands of one uid */
#define DAEMON_MAX_FRAME	WIRE_MAX_FRAME
#define DAEMON_WAIT_MS		60000
#define LIM_MAX_FRAME		(4u * 1024 * 1024)
#define LIM_MAX_OUT		((size_t)64 * 1024 * 1024)
#define LIM_MAX_PER_ADDR	256	/* a host's commands come from one */
#define SBD_MAX_PER_ADDR	8	/* mbatchd: one sbatchd per address */
#define ADMIN_MAX_CONNS		64	/* lsadmin's socket to a LIM */
/* Descriptors a daemon keeps for its files, pipes and own connections. */
#define NOFILE_RESERVE		64

/*
 * Raise the soft limit on open files to the hard one (systemd's default
 * soft limit is 1,024) and return it: what the daemon's connection
 * limits are cut from.
 */
int	 daemon_nofile(void);
/* What is left for n connections' worth of listeners after keep: at
 * least a few, so a daemon with a tiny limit still serves. */
int	 daemon_conns_left(int nofile, int keep);

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
/*
 * The same, but a configuration with errors is loaded again as fallback
 * parts only (which must be right), and true says so.
 */
bool	 daemon_config_or(struct daemon_opts *, struct lsf_config *,
	    unsigned parts, unsigned fallback);
/* The second half of daemon_config, for a daemon that loads its
 * configuration itself: the host name against c. */
void	 daemon_config_host(struct daemon_opts *, struct lsf_config *,
	    unsigned parts);
/*
 * Keep the configuration's diagnostics for the log: printed on stderr
 * before the log is open, they are written to it by daemon_start too
 * (daemon_config does this itself).
 */
void	 daemon_config_diags(const struct conf_diag *);
/* Open the log (LSF_LOGDIR/<name>.log.<host>) and daemonize unless -f/-d. */
void	 daemon_start(const struct daemon_opts *, const struct lsf_config *);
/*
 * Execute the daemon again with argv (its whole command line, argv[0]
 * included) from the path it was started by, so an upgraded file is what
 * runs and the process keeps its name (not "exe", as an exec of
 * /proc/self/exe would name it); then from /proc/self/exe, if that path
 * is gone.  Descriptors are the caller's to close first.
 */
void	 daemon_reexec(const struct daemon_opts *, char **argv) NORETURN;
/* Path of a daemon's log file, allocated (NULL without LSF_LOGDIR). */
char	*daemon_log_path(const struct lsf_config *, const char *name,
	    const char *host);

#endif
