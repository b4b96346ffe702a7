/*
 * lsadmin: the LIM administrator's command.  It checks the configuration
 * (ckconfig), shows a LIM's lsf.conf parameters (showconf lim), and has
 * LIMs read their configuration again (reconfig), restart (limrestart)
 * or stop (limshutdown) through each LIM's administrator socket, a
 * Unix-domain socket under LSB_SHAREDIR: so only LIMs on this machine are
 * reached.  limstartup runs the LIM here, or on another host through
 * LSF_RSH.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cmd-admin.h"
#include "cmd-display.h"
#include "cmdopt.h"
#include "net.h"

/* LSF's subcommands this version does not do yet. */
static const char *const later[] = {
	"resrestart",
	"resstartup", "resshutdown", "reslogon", "reslogoff", "limdebug",
	"limtime", "resdebug", "restime", "expire", "showstatus",
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr,
	    "Usage: lsadmin [-h] [-V] subcommand [options]\n"
	    "Subcommands:\n"
	    "    ckconfig [-v]                 check the cluster "
	    "configuration files\n"
	    "    reconfig [-v] [-f]            have every LIM read the "
	    "configuration again\n"
	    "    limrestart [-v] [-f] [host_name ... | all]\n"
	    "                                  restart LIMs\n"
	    "    limstartup [-f] [host_name ... | all]\n"
	    "                                  start LIMs (here, or through "
	    "LSF_RSH)\n"
	    "    limshutdown [-f] [host_name ... | all]\n"
	    "                                  shut down LIMs\n"
	    "    showconf lim [-h host ... | -h all]\n"
	    "                                  show the lsf.conf parameters "
	    "a LIM uses\n"
	    "    limlock [-l time_seconds]     lock this host\n"
	    "    limunlock                     unlock this host\n"
	    "    help                          show this list\n"
	    "Not supported by this version:\n"
	    "    resrestart resstartup resshutdown limdebug limtime\n");
	exit(rc);
}

static int
ckconfig(int argc, char **argv)
{
	return disp_ckconfig(argc, argv, CONF_CLUSTER, usage);
}

static void
print_conf(struct reply *rp)
{
	struct kv_list kv;

	memset(&kv, 0, sizeof(kv));
	if (!kv_list_unpack(&rp->r, &kv) || rbuf_end(&rp->r) < 0)
		disp_bad_reply("the LIM");
	disp_conf_header(stdout, "LIM");
	disp_kv(stdout, &kv);
	kv_list_release(&kv);
}

/* The LIM of one host, which must answer itself. */
static int
host_conf(const char *host)
{
	struct msg_error e;
	struct reply rp;
	struct wbuf w;

	wbuf_init(&w);
	msg_put_empty(&w, MSG_LIM_CONF_QUERY, 1);
	if (lim_call_host(host, &w, &rp) < 0) {
		fprintf(stderr, "lsadmin: %s: LIM is down; try later\n", host);
		wbuf_release(&w);
		return -1;
	}
	wbuf_release(&w);
	if (reply_is_error(&rp, &e)) {
		fprintf(stderr, "lsadmin: %s: %s\n", host,
		    lsb_errmsg(e.code));
		msg_error_release(&e);
		reply_release(&rp);
		return -1;
	}
	if (rp.hdr.type != MSG_LIM_CONF_LIST)
		disp_bad_reply("the LIM");
	print_conf(&rp);
	reply_release(&rp);
	return 0;
}

/*
 * showconf lim: a header line, then only "    KEY = VALUE" lines, for
 * the first LIM that answers or, with -h, for each host named.
 */
static int
showconf(int argc, char **argv)
{
	static const struct cmdopt opts[] = {
		{ "h", true, 1 },
		{ NULL, false, 0 }
	};
	const struct lsf_config *c;
	struct cmdopt_state st;
	struct strv hosts = STRV_INIT;
	struct reply rp;
	const char *val;
	char **rest;
	int id, nrest, rc = 0;

	if (argc < 2 || strcmp(argv[1], "lim") != 0) {
		if (argc >= 2 && strcmp(argv[1], "res") == 0) {
			fprintf(stderr, "lsadmin: showconf res is not "
			    "supported by this version\n");
			return 255;
		}
		usage(255);
	}
	/* "-h a b c": the hosts after -h are operands too. */
	cmdopt_init(&st, argc - 1, argv + 1, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		if (id != 1)
			usage(255);
		strv_push(&hosts, val);
	}
	rest = cmdopt_rest(&st, &nrest);
	if (nrest > 0 && hosts.n == 0)
		usage(255);
	for (int i = 0; i < nrest; i++)
		strv_push(&hosts, rest[i]);
	cmdopt_release(&st);

	if (hosts.n == 0) {
		disp_lim_query(MSG_LIM_CONF_QUERY, NULL, MSG_LIM_CONF_LIST,
		    &rp);
		print_conf(&rp);
		reply_release(&rp);
		return 0;
	}
	c = client_config(CONF_CLUSTER);
	if (hosts.n == 1 && strcmp(hosts.v[0], "all") == 0) {
		strv_release(&hosts);
		for (int i = 0; i < c->cluster.nhosts; i++)
			strv_push(&hosts, c->cluster.hosts[i].name);
	}
	for (size_t i = 0; i < hosts.n; i++)
		if (config_cluster_host(c, hosts.v[i]) == NULL) {
			fprintf(stderr, "lsadmin: host %s not found\n",
			    hosts.v[i]);
			rc = 255;
		}
	for (size_t i = 0; rc == 0 && i < hosts.n; i++)
		if (host_conf(hosts.v[i]) < 0)
			rc = 255;
	strv_release(&hosts);
	return rc;
}

enum lim_ctl { CTL_RECONFIG, CTL_RESTART, CTL_SHUTDOWN, CTL_STARTUP };

static const struct {
	const char	*name;
	const char	*verb;		/* "<verb> LIM on <host> ......" */
	const char	*question;	/* before all hosts */
	uint16_t	 type;
} ctls[] = {
	[CTL_RECONFIG] = { "reconfig", "Restart",
	    "Do you really want to restart LIMs on all hosts?",
	    MSG_LIM_RECONFIG },
	[CTL_RESTART] = { "limrestart", "Restart",
	    "Do you really want to restart LIMs on all hosts?",
	    MSG_LIM_RESTART },
	[CTL_SHUTDOWN] = { "limshutdown", "Shut down",
	    "Do you really want to shut down LIMs on all hosts?",
	    MSG_LIM_SHUTDOWN },
	[CTL_STARTUP] = { "limstartup", "Start up",
	    "Do you really want to start up LIM on all hosts?", 0 },
};

/* Ask the LIM of host over its administrator socket; 0 when done. */
static int
lim_admin(const struct lsf_config *c, const char *host, enum lim_ctl k)
{
	char *path = lim_socket_path(c, host);
	struct msg_error e;
	struct reply rp;
	struct wbuf w;
	int fd, rc = 0;

	printf("%s LIM on <%s> ...... ", ctls[k].verb, host);
	fflush(stdout);
	if (path == NULL) {
		printf("failed: LSB_SHAREDIR is not set\n");
		return -1;
	}
	fd = net_connect_unix(path);
	if (fd < 0) {
		/* Down, or on another machine: no admin transport there. */
		printf("failed: %s: %s\n", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	wbuf_init(&w);
	msg_put_empty(&w, ctls[k].type, 1);
	if (mbd_call(fd, &w, &rp) < 0) {
		printf("failed: no answer from the LIM\n");
		rc = -1;
	} else if (reply_is_error(&rp, &e)) {
		printf("%s\n", lsb_errmsg(e.code));
		if (e.detail)
			fprintf(stderr, "%s\n", e.detail);
		msg_error_release(&e);
		rc = -1;
	} else if (rp.hdr.type != MSG_OK) {
		printf("failed: unexpected reply\n");
		rc = -1;
	} else {
		printf("done\n");
	}
	reply_release(&rp);
	wbuf_release(&w);
	close(fd);
	return rc;
}

/*
 * reconfig [-v] [-f], limrestart [-v] [-f] [host ... | all],
 * limshutdown [-f] [host ... | all], limstartup [-f] [host ... | all]:
 * check the configuration (reconfig, limrestart), ask before touching
 * every host, then each LIM in turn; no host is this one.  LSF says
 * "Restart LIM" for reconfig too: its reconfig restarts the LIMs, ours
 * have them read the files again in place.  Start-up runs the LIM here
 * or through LSF_RSH, which needs root there; the LIMs check the others
 * themselves.
 */
static int
control(enum lim_ctl k, int argc, char **argv)
{
	static const struct cmdopt opts[] = {
		{ "v", false, 1 },
		{ "f", false, 2 },
		{ NULL, false, 0 }
	};
	const struct lsf_config *c;
	struct cmdopt_state st;
	struct strv hosts = STRV_INIT;
	bool verbose = false, force = false, all, checks;
	const char *val;
	char **rest;
	int id, nrest, rc = 0;

	checks = k == CTL_RECONFIG || k == CTL_RESTART;
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		if (id == 1 && checks)
			verbose = true;
		else if (id == 2)
			force = true;
		else
			usage(255);
	}
	rest = cmdopt_rest(&st, &nrest);
	if (k == CTL_RECONFIG && nrest > 0)
		usage(255);
	all = k == CTL_RECONFIG || (nrest == 1 && strcmp(rest[0], "all") == 0);
	if (checks && conf_check(NULL, CONF_CLUSTER, verbose, stderr) != 0)
		return 255;
	c = client_config(CONF_CLUSTER);
	if (k == CTL_STARTUP && !adm_caller_is_admin(c)) {
		fprintf(stderr, "%s: %s\n", progname,
		    lsb_errmsg(LSBE_PERMISSION));
		return 255;
	}
	if (all) {
		for (int i = 0; i < c->cluster.nhosts; i++)
			strv_push(&hosts, c->cluster.hosts[i].name);
	} else if (nrest == 0) {
		char *local = adm_local_host(c);

		if (local == NULL)
			die("this host is not in the cluster; name the hosts");
		strv_push_nodup(&hosts, local);
	} else {
		for (int i = 0; i < nrest; i++) {
			const struct cluster_host *ch =
			    config_cluster_host(c, rest[i]);

			if (ch == NULL) {
				fprintf(stderr, "lsadmin: host %s not found\n",
				    rest[i]);
				rc = 255;
				continue;
			}
			strv_push(&hosts, ch->name);
		}
	}
	cmdopt_release(&st);
	if (rc != 0 || (all && !adm_confirm(ctls[k].question, force))) {
		strv_release(&hosts);
		return 255;
	}
	for (size_t i = 0; i < hosts.n; i++) {
		int r = k == CTL_STARTUP ?
		    adm_daemon_start(c, hosts.v[i], "lim", "LIM") :
		    lim_admin(c, hosts.v[i], k);

		if (r < 0)
			rc = 255;
	}
	strv_release(&hosts);
	return rc;
}

/*
 * limlock [-l seconds] / limunlock: lock this host's LIM (lsload shows
 * lockU and no batch job is dispatched to it) until limunlock or, with
 * -l, for that many seconds.
 */
static int
lock(bool on, int argc, char **argv)
{
	static const struct cmdopt opts[] = {
		{ "l", true, 1 },
		{ NULL, false, 0 }
	};
	const struct lsf_config *c;
	struct cmdopt_state st;
	struct msg_error e;
	struct reply rp;
	struct wbuf w;
	const char *val;
	char *local, *path, *end;
	unsigned long secs = 0;
	int id, nrest, fd, rc = 0;

	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		if (id != 1 || !on)
			usage(255);
		errno = 0;
		secs = strtoul(val, &end, 10);
		if (*val == '-' || *end != '\0' || end == val || errno != 0 ||
		    secs == 0 || secs > UINT32_MAX) {
			fprintf(stderr, "lsadmin: %s: Bad time specification\n",
			    val);
			return 255;
		}
	}
	(void)cmdopt_rest(&st, &nrest);
	cmdopt_release(&st);
	if (nrest > 0)
		usage(255);
	c = client_config(CONF_CLUSTER);
	if ((local = adm_local_host(c)) == NULL)
		die("this host is not in the cluster");
	path = lim_socket_path(c, local);
	if (path == NULL)
		die("LSB_SHAREDIR is not set");
	if ((fd = net_connect_unix(path)) < 0) {
		fprintf(stderr, "lsadmin: %s: LIM is down; try later\n", local);
		free(path);
		free(local);
		return 255;
	}
	wbuf_init(&w);
	if (on) {
		wbuf_begin(&w, MSG_LIM_LOCK, 1, 0);
		put_u32(&w, (uint32_t)secs);
		wbuf_end_frame(&w);
	} else
		msg_put_empty(&w, MSG_LIM_UNLOCK, 1);
	if (mbd_call(fd, &w, &rp) < 0) {
		fprintf(stderr, "lsadmin: %s: LIM is down; try later\n", local);
		rc = 255;
	} else if (reply_is_error(&rp, &e)) {
		fprintf(stderr, "lsadmin: %s\n", lsb_errmsg(e.code));
		msg_error_release(&e);
		rc = 255;
	} else if (rp.hdr.type != MSG_OK)
		disp_bad_reply("the LIM");
	else
		printf("Host is %s\n", on ? "locked" : "unlocked");
	reply_release(&rp);
	wbuf_release(&w);
	close(fd);
	free(path);
	free(local);
	return rc;
}

int
main(int argc, char **argv)
{
	const char *sub;

	progname = "lsadmin";
	if (argc < 2)
		usage(255);
	sub = argv[1];
	if (strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0)
		usage(0);
	if (strcmp(sub, "-V") == 0)
		disp_version();
	if (strcmp(sub, "ckconfig") == 0)
		return ckconfig(argc - 1, argv + 1);
	if (strcmp(sub, "showconf") == 0)
		return showconf(argc - 1, argv + 1);
	if (strcmp(sub, "limlock") == 0 || strcmp(sub, "limunlock") == 0)
		return lock(strcmp(sub, "limlock") == 0, argc - 1, argv + 1);
	for (size_t i = 0; i < ARRAY_SIZE(ctls); i++)
		if (strcmp(sub, ctls[i].name) == 0)
			return control((enum lim_ctl)i, argc - 1, argv + 1);
	for (size_t i = 0; i < ARRAY_SIZE(later); i++)
		if (strcmp(sub, later[i]) == 0) {
			fprintf(stderr, "lsadmin: %s is not supported by this "
			    "version\n", sub);
			return 255;
		}
	fprintf(stderr, "lsadmin: invalid subcommand %s\n", sub);
	usage(255);
}
