/*
 * The LIM's administrator socket: a Unix-domain socket,
 * $LSB_SHAREDIR/<cluster>/lim.<host>.sock, on which the kernel says who
 * is calling (SO_PEERCRED).  lsadmin reconfig, limrestart,
 * limshutdown, limlock and limunlock come this way, and only root and
 * the cluster administrators are served.  There is deliberately no
 * administrator request over TCP: a LIM on another machine is reached
 * when the commands get an authenticated transport.
 *
 * reconfig reads lsf.shared and lsf.cluster again and applies them in
 * place (a bad file is refused and the old configuration stays); restart
 * closes every socket and executes the LIM again with its arguments.
 */
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client.h"
#include "lim.h"
#include "log.h"
#include "notify.h"

#define CAUSE_MAX	5

static char *sockpath;
static struct listener *admin_listener;

static bool
caller_is_admin(const struct conn *c)
{
	struct passwd *pw;

	if (c->uid == 0)
		return true;
	pw = getpwuid(c->uid);
	return pw != NULL && strv_contains(&lim->conf.cluster.admins,
	    pw->pw_name);
}

static void
send_reply(struct conn *c, struct wbuf *w)
{
	conn_send(c, w);
	wbuf_release(w);
}

static void
reply_ok(struct conn *c, uint32_t seq)
{
	struct wbuf w;

	wbuf_init(&w);
	msg_put_empty(&w, MSG_OK, seq);
	send_reply(c, &w);
}

static void
reply_error(struct conn *c, uint32_t seq, int code, const char *detail)
{
	struct wbuf w;

	wbuf_init(&w);
	msg_put_error(&w, seq, code, lim->host, detail);
	send_reply(c, &w);
}

static bool
is_warning(const char *msg)
{
	return strstr(msg, ": warning: ") != NULL ||
	    str_starts(msg, "warning: ");
}

/* The master's table follows lsf.cluster: entries of hosts that stay are
 * kept (with what they reported), new hosts start unavailable. */
static void
master_reconfig(void)
{
	const struct cluster_conf *cc = &lim->conf.cluster;
	struct lim_entry *old = lim->hosts;
	int nold = lim->nhosts;
	bool *kept = xcalloc((size_t)nold + 1, sizeof(bool));
	struct lim_entry *nv = xcalloc((size_t)cc->nhosts + 1, sizeof(*nv));

	for (int i = 0; i < cc->nhosts; i++) {
		const struct cluster_host *ch = &cc->hosts[i];
		struct lim_entry *e = &nv[i];
		int k;

		for (k = 0; k < nold; k++)
			if (!kept[k] && strcasecmp(old[k].name, ch->name) == 0)
				break;
		if (k < nold) {
			*e = old[k];
			kept[k] = true;
		} else {
			e->name = xstrdup(ch->name);
			e->info.name = xstrdup(ch->name);
			e->info.status = LIM_UNAVAIL;
			e->info.cpuf = 1.0f;
			log_info("reconfig: host %s added", ch->name);
		}
		e->server = ch->server;
		e->info.server = ch->server;
		/* Until it reports for itself, the host is as configured. */
		if (!e->reported) {
			free(e->info.type);
			free(e->info.model);
			e->info.type = xstrdup(ch->type ? ch->type : "!");
			e->info.model = xstrdup(ch->model ? ch->model : "!");
			strv_release(&e->info.resources);
			strv_copy(&e->info.resources, &ch->resources);
		}
	}
	for (int k = 0; k < nold; k++) {
		if (kept[k])
			continue;
		log_info("reconfig: host %s removed", old[k].name);
		if (old[k].conn) {
			master_remove_sub(old[k].conn);
			conn_close(old[k].conn);
		}
		free(old[k].name);
		lim_host_release(&old[k].info);
	}
	free(old);
	free(kept);
	lim->hosts = nv;
	lim->nhosts = cc->nhosts;
}

/*
 * Read lsf.shared and lsf.cluster again.  -1 with the first problems in
 * *cause (allocated) when they have errors; the old ones stay.
 */
static int
lim_reconfig(char **cause)
{
	struct lsf_config nc, old;
	struct strbuf sb = STRBUF_INIT;
	struct conf_diag d;
	int n = 0, rc;

	conf_diag_init(&d);
	rc = config_load(&nc, lim->opts.envdir, CONF_CLUSTER, &d);
	if (rc < 0) {
		for (size_t i = 0; i < d.msgs.n && n < CAUSE_MAX; i++)
			if (!is_warning(d.msgs.v[i]))
				sb_addf(&sb, "%s%s", n++ ? "\n" : "",
				    d.msgs.v[i]);
	} else if (!streq(nc.cluster.name, lim->conf.cluster.name)) {
		sb_addf(&sb, "the cluster name changed from %s to %s: "
		    "restart the LIMs", lim->conf.cluster.name,
		    nc.cluster.name ? nc.cluster.name : "(none)");
		rc = -1;
	} else if (config_cluster_host(&nc, lim->host) == NULL) {
		sb_addf(&sb, "host %s is no longer in %s", lim->host,
		    nc.cluster.path ? nc.cluster.path : "lsf.cluster");
		rc = -1;
	}
	conf_diag_release(&d);
	if (rc < 0) {
		config_release(&nc);
		*cause = sb_detach(&sb);
		return -1;
	}
	sb_release(&sb);

	/* Every pointer into the old configuration is renewed here. */
	old = lim->conf;
	lim->conf = nc;
	net_set_hosts(&lim->conf);
	lim->self_conf = config_cluster_host(&lim->conf, lim->host);
	strv_release(&lim->candidates);
	elect_init();
	lim_fill_static();
	if (lim->hosts != NULL)
		master_reconfig();
	config_release(&old);
	if (lim->is_master) {
		master_report(&lim->me, NULL);
		master_schedule_push();
	} else {
		elect_send_report();
	}
	log_info("reconfigured: %d hosts", lim->conf.cluster.nhosts);
	return 0;
}

static void NORETURN
lim_restart(void)
{
	log_info("restarting");
	notify_reloading();
	notify_before_exec();
	if (sockpath)
		(void)unlink(sockpath);
	elim_stop();
	/* The port stays ours: no one can bind it while we restart. */
	net_listen_pass(lim->lfd, lim->conf.lsf.lim_port);
	close_fds_from(3, -1);
	daemon_reexec(&lim->opts, lim->argv);
}

/*
 * limlock [-l seconds] / limunlock: the host shows lockU in lsload and
 * mbatchd sends it no job until it is unlocked or the time is up.
 */
static void
lock(const struct conn *c, bool on, uint32_t secs)
{
	lim->locked = on;
	lim->lock_until_ms = on && secs > 0 ?
	    mono_ms() + (uint64_t)secs * 1000 : 0;
	if (on && secs > 0)
		log_info("%s locks this host for %u seconds", c->name, secs);
	else
		log_info("%s %s this host", c->name, on ? "locks" : "unlocks");
	lim_report_now();
}

static void
admin_msg(struct conn *c, const struct wire_hdr *h, struct rbuf *r,
    void *arg)
{
	char *cause = NULL;
	uint32_t secs = 0;

	if ((h->type == MSG_LIM_LOCK && !get_u32(r, &secs)) ||
	    rbuf_end(r) < 0) {
		reply_error(c, h->seq, LSBE_PROTOCOL, "unexpected body");
		conn_close_after_write(c);
		return;
	}
	if (h->type == MSG_PING) {
		reply_ok(c, h->seq);
		return;
	}
	if (h->type != MSG_LIM_RECONFIG && h->type != MSG_LIM_RESTART &&
	    h->type != MSG_LIM_SHUTDOWN && h->type != MSG_LIM_LOCK &&
	    h->type != MSG_LIM_UNLOCK) {
		reply_error(c, h->seq, LSBE_PROTOCOL, "unexpected request");
		return;
	}
	if (!caller_is_admin(c)) {
		log_warnx("%s: %s refused: not an administrator", c->name,
		    msg_type_name(h->type));
		reply_error(c, h->seq, LSBE_PERMISSION, NULL);
		return;
	}
	if (h->type == MSG_LIM_RECONFIG) {
		notify_reloading();
		if (lim_reconfig(&cause) < 0) {
			notify_send("READY=1");
			log_warnx("reconfig refused: %s", cause);
			reply_error(c, h->seq, LSBE_CONF, cause);
			free(cause);
			return;
		}
		notify_send("READY=1");
		reply_ok(c, h->seq);
		return;
	}
	if (h->type == MSG_LIM_LOCK || h->type == MSG_LIM_UNLOCK) {
		lock(c, h->type == MSG_LIM_LOCK, secs);
		reply_ok(c, h->seq);
		return;
	}
	if (h->type == MSG_LIM_SHUTDOWN) {
		log_info("%s asks for a shutdown", c->name);
		reply_ok(c, h->seq);
		(void)conn_flush_now(c, 2000);
		notify_send("STOPPING=1");
		event_base_loopbreak(lim->base);
		return;
	}
	log_info("%s asks for a restart", c->name);
	reply_ok(c, h->seq);
	/* The answer must be out before exec closes the socket. */
	(void)conn_flush_now(c, 2000);
	lim_restart();
}

static struct conn *
admin_accept(int fd, struct sockaddr *sa, socklen_t len, void *arg)
{
	struct conn *c = conn_new(lim->base, fd, admin_msg, NULL, NULL);

	if (net_peer_cred(fd, &c->uid, &c->gid, &c->pid) < 0) {
		log_warn("SO_PEERCRED");
		conn_close(c);
		return NULL;
	}
	c->have_cred = true;
	c->name = xasprintf("lsadmin pid %d uid %d", (int)c->pid,
	    (int)c->uid);
	return c;
}

void
lim_admin_init(void)
{
	char *cause = NULL, *dir;
	int fd;

	sockpath = lim_socket_path(&lim->conf, lim->host);
	if (sockpath == NULL) {
		log_warnx("LSB_SHAREDIR is not set: no administrator socket "
		    "(lsadmin reconfig and limrestart will not reach this "
		    "LIM)");
		return;
	}
	dir = xasprintf("%s/%s", lim->conf.lsf.sharedir,
	    lim->conf.cluster.name);
	(void)mkdir(lim->conf.lsf.sharedir, 0755);
	(void)mkdir(dir, 0755);
	free(dir);
	/* Anyone may connect; the request is checked against who it is. */
	fd = net_listen_unix(sockpath, 0666, &cause);
	if (fd < 0) {
		log_warnx("administrator socket: %s", cause);
		free(cause);
		return;
	}
	admin_listener = listener_new(lim->base, fd, admin_accept, NULL);
	listener_set_limits(admin_listener, &(struct listener_limits){
	    .max_conns = ADMIN_MAX_CONNS,
	    .max_per_peer = ADMIN_MAX_CONNS / 4,
	    .conn = { LIM_MAX_FRAME, LIM_MAX_OUT, CMD_WAIT_MS } });
}

void
lim_admin_close(void)
{
	if (admin_listener == NULL)
		return;
	listener_free(admin_listener);
	admin_listener = NULL;
	(void)unlink(sockpath);
}
