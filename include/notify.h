/*
 * Telling systemd how a daemon is doing (sd_notify(3)), for the units'
 * Type=notify.  Only the daemons link this (daemons/notify.c, with
 * libsystemd); every call is a no-op when NOTIFY_SOCKET was not set.
 *
 *	notify_init		at the start of main, before anything forks
 *	notify_ready_on		READY=1 once the loop runs its first turn
 *	notify_send		"STOPPING=1", "READY=1", ...
 *	notify_reloading	"RELOADING=1" with the time systemd wants
 *	notify_before_exec	before the daemon executes itself again
 */
#ifndef LSF_NOTIFY_H
#define LSF_NOTIFY_H

struct event_base;

void	 notify_init(void);
void	 notify_ready_on(struct event_base *);
void	 notify_send(const char *state);
void	 notify_reloading(void);
void	 notify_before_exec(void);

#endif
