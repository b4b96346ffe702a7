/*
 * ELIMs: every executable named elim or elim.* in LSF_SERVERDIR runs as a
 * child of the LIM and prints "N name value ..." lines on its stdout.  A
 * built-in index name replaces the LIM's own sample of it; a Numeric
 * resource of lsf.shared becomes an external load index of this host.
 * A value not refreshed for a while, or whose ELIM died, is dropped.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "elim.h"
#include "lim.h"
#include "log.h"

#define ELIM_MAX		16	/* ELIMs started, at most */
#define ELIM_BACKOFF_MIN_MS	1000
#define ELIM_BACKOFF_MAX_MS	60000
#define ELIM_STABLE_MS		60000	/* ran this long: back-off reset */
#define ELIM_STOP_WAIT_MS	2000	/* SIGTERM, then SIGKILL */
#define ELIM_MAX_VALUES		128	/* names kept across all ELIMs */
#define ELIM_ABORT_VALUE	97	/* its exit status: do not restart */

struct elim_proc {
	char		*path;
	pid_t		 pid;		/* 0: not running */
	int		 fd;		/* its stdout, -1 when closed */
	struct event	*ev_read;
	struct event	*ev_start;
	char		 buf[ELIM_MAX_LINE + 2];
	size_t		 len;
	bool		 skipping;	/* the line was too long */
	uint64_t	 started_ms;
	int		 failures;	/* deaths in a row, for back-off */
	int		 restarts;
	bool		 given_up;
	bool		 restarting;	/* stopped by us, to start again */
};

struct elim_value {
	char		 name[ELIM_MAX_NAME + 1];
	int		 idx;		/* load index, -1 external */
	bool		 known;
	double		 value;
	uint64_t	 at_ms;
	struct elim_proc *from;
};

static struct elim_proc	 elims[ELIM_MAX];
static int		 nelims;
static struct elim_value values[ELIM_MAX_VALUES];
static int		 nvalues;
static struct strv	 warned;	/* names already logged as unknown */
static struct event	*ev_child;

static void	 elim_start(struct elim_proc *);

static const struct resource_def *
numeric_resource(const char *name)
{
	const struct shared_conf *s = &lim->conf.shared;

	for (int i = 0; i < s->nresources; i++)
		if (strcmp(s->resources[i].name, name) == 0)
			return s->resources[i].type == RES_NUMERIC ?
			    &s->resources[i] : NULL;
	return NULL;
}

/* How long a value lasts without a new report. */
static uint64_t
stale_ms(const struct elim_value *v)
{
	const struct resource_def *r;
	double secs = lim->exinterval;

	if (v->idx < 0 && (r = numeric_resource(v->name)) != NULL &&
	    r->interval > 0)
		secs = r->interval;
	secs *= 3;
	if (secs < 3)
		secs = 3;
	return (uint64_t)(secs * 1000);
}

static void
drop_values_of(struct elim_proc *e)
{
	int k = 0;

	for (int i = 0; i < nvalues; i++)
		if (values[i].from != e)
			values[k++] = values[i];
	nvalues = k;
}

/* Keep a value; true when it is new or changed. */
static bool
store(struct elim_proc *e, const struct elim_pair *p, uint64_t now)
{
	struct elim_value *v = NULL;
	int idx = load_index_lookup(p->name);
	bool changed;

	if (idx < 0 && numeric_resource(p->name) == NULL) {
		if (!strv_contains(&warned, p->name)) {
			log_warnx("%s: %s is not a load index nor a Numeric "
			    "resource of lsf.shared: ignored", e->path,
			    p->name);
			strv_push(&warned, p->name);
		}
		return false;
	}
	for (int i = 0; i < nvalues && v == NULL; i++)
		if (strcmp(values[i].name, p->name) == 0)
			v = &values[i];
	if (v == NULL) {
		if (nvalues == ELIM_MAX_VALUES)
			return false;
		v = &values[nvalues++];
		memcpy(v->name, p->name, sizeof(v->name));
		v->idx = idx;
		changed = true;
	} else
		changed = v->known != p->known || v->value != p->value;
	v->known = p->known;
	v->value = p->value;
	v->at_ms = now;
	v->from = e;
	return changed;
}

/* One line; true when a value in it is new or changed. */
static bool
parse_line(struct elim_proc *e, const char *line)
{
	struct elim_pair pairs[ELIM_MAX_PAIRS];
	const char *why;
	uint64_t now = mono_ms();
	bool changed = false;
	int n;

	if ((n = elim_parse_line(line, pairs, &why)) < 0) {
		log_warnx("%s: %s: line ignored", e->path, why);
		return false;
	}
	for (int i = 0; i < n; i++)
		if (store(e, &pairs[i], now))
			changed = true;
	return changed;
}

static void
close_pipe(struct elim_proc *e)
{
	if (e->ev_read != NULL) {
		event_free(e->ev_read);
		e->ev_read = NULL;
	}
	if (e->fd != -1) {
		close(e->fd);
		e->fd = -1;
	}
	e->len = 0;
	e->skipping = false;
}

static void
read_cb(evutil_socket_t fd, short ev, void *arg)
{
	struct elim_proc *e = arg;
	bool changed = false;
	ssize_t n;
	char *nl;

	n = read(fd, e->buf + e->len, sizeof(e->buf) - 1 - e->len);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		/* It closed its output: it is no use any more. */
		close_pipe(e);
		if (e->pid > 0)
			kill(e->pid, SIGTERM);
		return;
	}
	e->len += (size_t)n;
	e->buf[e->len] = '\0';
	while ((nl = memchr(e->buf, '\n', e->len)) != NULL) {
		*nl = '\0';
		if (!e->skipping && nl > e->buf && parse_line(e, e->buf))
			changed = true;
		e->skipping = false;
		e->len -= (size_t)(nl + 1 - e->buf);
		memmove(e->buf, nl + 1, e->len);
		e->buf[e->len] = '\0';
	}
	if (e->len == sizeof(e->buf) - 1) {
		if (!e->skipping)
			log_warnx("%s: line longer than %d bytes ignored",
			    e->path, ELIM_MAX_LINE);
		e->skipping = true;
		e->len = 0;
	}
	if (changed)
		lim_elim_changed();
}

static void
start_cb(evutil_socket_t fd, short ev, void *arg)
{
	elim_start(arg);
}

/* LSF_RESOURCES: the Numeric resources an ELIM may report. */
static char *
resource_list(void)
{
	const struct shared_conf *s = &lim->conf.shared;
	struct strv v = STRV_INIT;
	char *out;

	for (int i = 0; i < s->nresources; i++)
		if (s->resources[i].type == RES_NUMERIC)
			strv_push(&v, s->resources[i].name);
	out = strv_join(&v, " ");
	strv_release(&v);
	return out;
}

static void
elim_start(struct elim_proc *e)
{
	int p[2], null;
	sigset_t all, old;
	pid_t pid;
	char *res;

	if (pipe2(p, O_CLOEXEC) < 0) {
		log_warn("%s: pipe", e->path);
		return;
	}
	res = resource_list();
	/*
	 * Until the child has its own handlers, a signal for it (a SIGTERM
	 * of elim_master_changed, say) would run the LIM's, which tell the
	 * LIM's loop through a pipe they share: blocked across the fork,
	 * and the child puts every handler back to the default first.
	 */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		log_warn("%s: fork", e->path);
		close(p[0]);
		close(p[1]);
		free(res);
		return;
	}
	if (pid == 0) {
		sigset_t none;

		for (int sig = 1; sig < NSIG; sig++)
			signal(sig, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		dup2(p[1], STDOUT_FILENO);
		if ((null = open("/dev/null", O_RDONLY)) >= 0)
			dup2(null, STDIN_FILENO);
		/* Not the LIM's sockets: a lingering ELIM would hold them. */
		close_fds_from(3, -1);
		setpgid(0, 0);
		setenv("LSF_MASTER", lim->is_master ? "Y" : "N", 1);
		setenv("LSF_RESOURCES", res, 1);
		setenv("LSF_LOCAL_HOST", lim->host, 1);
		if (lim->conf.lsf.envdir != NULL)
			setenv("LSF_ENVDIR", lim->conf.lsf.envdir, 1);
		if (lim->conf.lsf.serverdir != NULL)
			setenv("LSF_SERVERDIR", lim->conf.lsf.serverdir, 1);
		execl(e->path, e->path, (char *)NULL);
		_exit(127);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(res);
	close(p[1]);
	setpgid(pid, pid);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	e->pid = pid;
	e->fd = p[0];
	e->len = 0;
	e->skipping = false;
	e->started_ms = mono_ms();
	e->ev_read = event_new(lim->base, e->fd, EV_READ | EV_PERSIST, read_cb,
	    e);
	event_add(e->ev_read, NULL);
	log_info("started %s, pid %ld", e->path, (long)pid);
}

/* It died: its values end, and it starts again after a back-off. */
static void
elim_died(struct elim_proc *e, int status)
{
	const char *max = lsf_conf_get(&lim->conf.lsf, "LSF_ELIM_RESTARTS");
	uint64_t delay;
	struct timeval tv;

	if (WIFSIGNALED(status))
		log_warnx("%s (pid %ld) died of signal %d", e->path,
		    (long)e->pid, WTERMSIG(status));
	else
		log_warnx("%s (pid %ld) exited with status %d", e->path,
		    (long)e->pid, WEXITSTATUS(status));
	e->pid = 0;
	close_pipe(e);
	drop_values_of(e);
	if (WIFEXITED(status) && WEXITSTATUS(status) == ELIM_ABORT_VALUE) {
		log_warnx("%s exited with ELIM_ABORT_VALUE: not started "
		    "again", e->path);
		e->given_up = true;
		e->restarting = false;
		return;
	}
	if (e->restarting) {
		/* Not a failure: started again at once. */
		e->restarting = false;
		elim_start(e);
		return;
	}
	if (max != NULL && e->restarts >= atoi(max)) {
		log_warnx("%s: LSF_ELIM_RESTARTS=%s reached, not started "
		    "again", e->path, max);
		e->given_up = true;
		return;
	}
	if (mono_ms() - e->started_ms >= ELIM_STABLE_MS)
		e->failures = 0;
	delay = ELIM_BACKOFF_MIN_MS << (e->failures < 6 ? e->failures : 6);
	if (delay > ELIM_BACKOFF_MAX_MS)
		delay = ELIM_BACKOFF_MAX_MS;
	e->failures++;
	e->restarts++;
	tv.tv_sec = (time_t)(delay / 1000);
	tv.tv_usec = (suseconds_t)(delay % 1000) * 1000;
	if (e->ev_start == NULL)
		e->ev_start = evtimer_new(lim->base, start_cb, e);
	evtimer_add(e->ev_start, &tv);
}

static void
child_cb(evutil_socket_t sig, short ev, void *arg)
{
	int status;

	for (int i = 0; i < nelims; i++) {
		if (elims[i].pid <= 0)
			continue;
		if (waitpid(elims[i].pid, &status, WNOHANG) == elims[i].pid)
			elim_died(&elims[i], status);
	}
}

void
elim_init(void)
{
	const char *dir = lim->conf.lsf.serverdir;
	struct dirent *de;
	struct stat sb;
	DIR *d;
	char *path;

	if (dir == NULL || (d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL && nelims < ELIM_MAX) {
		if (strcmp(de->d_name, "elim") != 0 &&
		    strncmp(de->d_name, "elim.", 5) != 0)
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (stat(path, &sb) < 0 || !S_ISREG(sb.st_mode) ||
		    access(path, X_OK) < 0) {
			free(path);
			continue;
		}
		elims[nelims].path = path;
		elims[nelims].fd = -1;
		nelims++;
	}
	closedir(d);
	if (nelims == 0)
		return;
	ev_child = evsignal_new(lim->base, SIGCHLD, child_cb, NULL);
	evsignal_add(ev_child, NULL);
	for (int i = 0; i < nelims; i++)
		elim_start(&elims[i]);
}

/*
 * LSF_MASTER is in an ELIM's environment: an ELIM that reports only on
 * the master (a MELIM) must learn that this host now is, or no longer
 * is, the master.  Each running one is stopped and started again (its
 * death comes through child_cb, without blocking here).
 */
void
elim_master_changed(void)
{
	for (int i = 0; i < nelims; i++) {
		struct elim_proc *e = &elims[i];

		if (e->pid <= 0)
			continue;
		log_info("%s: restarted, LSF_MASTER=%s", e->path,
		    lim->is_master ? "Y" : "N");
		e->restarting = true;
		kill(-e->pid, SIGTERM);
	}
}

/* SIGTERM to all, then SIGKILL to those still there after a bound. */
void
elim_stop(void)
{
	uint64_t deadline = mono_ms() + ELIM_STOP_WAIT_MS;
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	bool left;
	int status;

	for (int i = 0; i < nelims; i++) {
		if (elims[i].pid > 0)
			kill(-elims[i].pid, SIGTERM);
		close_pipe(&elims[i]);
		if (elims[i].ev_start != NULL)
			evtimer_del(elims[i].ev_start);
	}
	do {
		left = false;
		for (int i = 0; i < nelims; i++) {
			if (elims[i].pid <= 0)
				continue;
			if (waitpid(elims[i].pid, &status, WNOHANG) != 0)
				elims[i].pid = 0;
			else
				left = true;
		}
		if (left)
			nanosleep(&ts, NULL);
	} while (left && mono_ms() < deadline);
	for (int i = 0; i < nelims; i++) {
		if (elims[i].pid <= 0)
			continue;
		log_warnx("%s (pid %ld) did not stop: killed", elims[i].path,
		    (long)elims[i].pid);
		kill(-elims[i].pid, SIGKILL);
		waitpid(elims[i].pid, &status, 0);
		elims[i].pid = 0;
	}
	nvalues = 0;
}

/*
 * Put the ELIMs' values into a fresh sample: built-in indices replaced,
 * external ones listed as "name=value" in h->ext.
 */
void
elim_apply(struct lim_host *h)
{
	uint64_t now = mono_ms();
	char *s;
	int k = 0;

	strv_release(&h->ext);
	for (int i = 0; i < nvalues; i++) {
		struct elim_value *v = &values[i];

		if (now - v->at_ms > stale_ms(v))
			continue;
		values[k++] = *v;
		if (!v->known)
			continue;
		if (v->idx >= 0)
			h->load[v->idx] = (float)v->value;
		else {
			s = xasprintf("%s=%g", v->name, v->value);
			strv_push_nodup(&h->ext, s);
		}
	}
	nvalues = k;
}
