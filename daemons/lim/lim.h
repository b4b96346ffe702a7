/*
 * lim: samples this host's load, elects the master LIM, and on the master
 * keeps every host's load for lsload, lshosts, lsid and mbatchd.
 *
 *	lim.c		main, sockets, timers, signals
 *	lim-elect.c	who is master; the connection up to it
 *	lim-master.c	the master's host table and its subscribers
 *	lim-serve.c	requests from commands, daemons and other LIMs
 *	lim-elim.c	the ELIMs: started, read, restarted, stopped
 *	lim-admin.c	lsadmin reconfig, limrestart and limshutdown, on a
 *			Unix socket
 */
#ifndef LIM_H
#define LIM_H

#include <stdbool.h>
#include <stdint.h>

#include <event2/event.h>

#include "conf.h"
#include "auth.h"
#include "conn.h"
#include "daemon.h"
#include "loadsample.h"
#include "net.h"
#include "proto.h"

/* What the master knows of one host. */
struct lim_entry {
	char		*name;
	bool		 server;
	bool		 reported;	/* a report arrived since it came up */
	uint64_t	 last_ms;	/* monotonic time of the last report */
	struct conn	*conn;		/* its report connection */
	struct lim_host	 info;		/* status, load, static figures */
};

struct lim {
	struct event_base	*base;
	struct daemon_opts	 opts;
	char			**argv;		/* as started: limrestart */
	struct lsf_config	 conf;
	const struct cluster_host *self_conf;
	char			*host;		/* our name */
	struct host_addr	 addr;		/* our address (port 0) */
	int			 lfd;		/* LSF_LIM_PORT: kept across
						 * limrestart */

	/* Our own host. */
	struct load_sampler	 sampler;
	struct host_static	 hs;
	struct lim_host		 me;		/* our latest report */
	/* lsadmin limlock: locked, until this monotonic time (0 = until
	 * limunlock). */
	bool			 locked;
	uint64_t		 lock_until_ms;

	/* Election. */
	struct strv		 candidates;	/* master candidates, in order */
	int			 self_rank;	/* index in candidates or -1 */
	char			*master;	/* current master, NULL unknown */
	bool			 is_master;
	struct conn		*up;		/* to the master when not it */
	/* Our sbatchd: subscribed now, ever seen; resigned = not standing
	 * for master while it is gone (lim-elect.c). */
	int			 nsbd;
	bool			 sbd_seen;
	bool			 resigned;
	struct event		*ev_sbd;	/* the grace before resigning */
	struct event		*ev_reelect;	/* elect_run soon, not now */

	/* Master state. */
	struct lim_entry	*hosts;		/* every lsf.cluster host */
	int			 nhosts;
	struct conn		**subs;		/* MSG_LIM_SUBSCRIBE peers */
	int			 nsubs;
	struct conn		**watchers;	/* want MSG_LIM_CLUSTER_INFO */
	int			 nwatchers;
	struct conn		**owners;	/* want our own load (sbatchd) */
	int			 nowners;
	bool			 push_pending;
	/* From mbatchd: hosts running an exclusive job, shown lockU. */
	struct strv		 excl_hosts;

	struct event		*ev_sample;
	struct event		*ev_elect;
	struct event		*ev_push;
	struct event		*ev_own;	/* lim_elim_changed's push */
	uint64_t		 own_push_ms;	/* last serve_push_own */
	double			 exinterval;	/* seconds */
	double			 sample_interval;
};

extern struct lim *lim;

/* lim-elect.c */
void	 elect_init(void);
void	 elect_run(void);
void	 elect_send_report(void);
void	 elect_master_changed(const char *);
/* Our own sbatchd subscribed, or its connection closed. */
void	 elect_sbd_up(void);
void	 elect_sbd_down(void);

/* lim-master.c */
void	 master_init(void);
struct lim_entry *master_find(const char *);
void	 master_report(const struct lim_host *, struct conn *);
void	 master_conn_closed(struct conn *);
void	 master_check_timeouts(void);
void	 master_schedule_push(void);
void	 master_fill_load_list(struct lim_load_list *, const struct strv *);
void	 master_remove_sub(struct conn *);

/* lim.c */
/* Our own static figures from the configuration (again on reconfig). */
void	 lim_fill_static(void);
/* Sample now and send the report at once (a lock changed). */
void	 lim_report_now(void);
/* An ELIM changed a value: our load to sbatchd soon, not at the next
 * sample. */
void	 lim_elim_changed(void);

/* lim-elim.c */
void	 elim_init(void);
void	 elim_stop(void);
void	 elim_apply(struct lim_host *);
/* This host became master or stopped being it: the ELIMs start again
 * with LSF_MASTER telling them which. */
void	 elim_master_changed(void);

/* lim-admin.c */
void	 lim_admin_init(void);
void	 lim_admin_close(void);

/* lim-serve.c */
struct conn *serve_accept(int fd, struct sockaddr *, socklen_t, void *);
void	 serve_send_cluster_info(struct conn *, uint32_t seq);
/* Our own latest load to the LIM_SUB_OWN subscribers. */
void	 serve_push_own(void);

#endif
