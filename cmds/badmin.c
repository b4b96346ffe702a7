/*
 * badmin: the batch administrator's command.  Host and queue control,
 * restart and shutdown of sbatchds, reconfiguration and restart of
 * mbatchd go to mbatchd (which lets only cluster administrators do
 * them); hstartup starts sbatchds here or through LSF_RSH; ckconfig,
 * logcheck and the history subcommands read the files here; showconf
 * mbd asks mbatchd, showconf sbd reads lsf.conf as the sbatchds do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd-admin.h"
#include "cmd-display.h"
#include "cmdopt.h"
#include "timefmt.h"

/* LSF's subcommands this version does not do yet. */
static const char *const later[] = {
	"hghostadd", "hghostdel",
	"perfmon", "diagnose", "schddebug", "schdtime", "sbddebug",
	"sbdtime", "mbddebug", "mbdtime", "security", "rc", "gpddebug",
	"gpdtime", "showstatus", "lsfproxyd",
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr,
	    "Usage: badmin [-h] [-V] subcommand [options]\n"
	    "Subcommands:\n"
	    "    ckconfig [-v]\n"
	    "    reconfig [-v] [-f]\n"
	    "    mbdrestart [-C comment] [-v] [-f]\n"
	    "    hclose [-C comment] [host_name ... | host_group ... | all]\n"
	    "    hopen [-C comment] [host_name ... | host_group ... | all]\n"
	    "    hrestart [-f] [host_name ... | all]\n"
	    "    hshutdown [-f] [host_name ... | all]\n"
	    "    hstartup [-f] [host_name ... | all]\n"
	    "    qclose [-C comment] [queue_name ... | all]\n"
	    "    qopen [-C comment] [queue_name ... | all]\n"
	    "    qact [-C comment] [queue_name ... | all]\n"
	    "    qinact [-C comment] [queue_name ... | all]\n"
	    "    hist [-f logfile_name]\n"
	    "    hhist [-f logfile_name] [host_name ...]\n"
	    "    qhist [-f logfile_name] [queue_name ...]\n"
	    "    mbdhist [-f logfile_name]\n"
	    "    logcheck [logfile_name ...]\n"
	    "    showconf mbd\n"
	    "    showconf sbd [host_name ... | all]\n"
	    "    statedump\n"
	    "    help\n");
	exit(rc);
}

/* One MSG_ADMIN; the reply's results, or exit with mbatchd's error. */
static void
admin_call(const struct admin_req *rq, struct admin_result_list *rl)
{
	struct msg_error e;
	struct reply rp;
	struct wbuf w;
	int fd;

	wbuf_init(&w);
	admin_req_frame(&w, MSG_ADMIN, 1, rq);
	fd = mbd_connect();
	if (mbd_call(fd, &w, &rp) < 0)
		die("Failed in sending/receiving a message to mbatchd");
	close(fd);
	wbuf_release(&w);
	if (reply_is_error(&rp, &e)) {
		if (e.context)
			fprintf(stderr, "%s: %s\n", e.context,
			    lsb_errmsg(e.code));
		else
			fprintf(stderr, "%s: %s\n", progname,
			    lsb_errmsg(e.code));
		msg_error_release(&e);
		exit(255);
	}
	if (rp.hdr.type != MSG_ADMIN_REPLY ||
	    !admin_result_list_unpack(&rp.r, rl) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("mbatchd");
	reply_release(&rp);
}

static const struct cmdopt comment_opts[] = {
	{ "C", true, 1 },
	/* LSF's hclose/hopen -i lock_id: refused by name. */
	CMDOPT_UNSUP("i", true),
	{ NULL, false, 0 }
};

/* "[-C comment] [name ...]" into rq. */
static void
parse_ctrl(int argc, char **argv, struct admin_req *rq)
{
	struct cmdopt_state st;
	const char *val;
	char **rest;
	int id, nrest;

	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, comment_opts, &val)) != 0) {
		if (id != 1)
			usage(255);
		free(rq->comment);
		rq->comment = xstrdup(val);
	}
	rest = cmdopt_rest(&st, &nrest);
	for (int i = 0; i < nrest; i++)
		strv_push(&rq->names, rest[i]);
	cmdopt_release(&st);
}

/* hclose, hopen: "Close <hostB> ...... done" for each host. */
static int
host_ctrl(int op, int argc, char **argv)
{
	struct admin_req rq = { .op = op };
	struct admin_result_list rl;
	int rc = 0;

	parse_ctrl(argc, argv, &rq);
	admin_call(&rq, &rl);
	for (uint32_t i = 0; i < rl.n; i++) {
		if (rl.v[i].code == LSBE_NO_ERROR) {
			printf("%s <%s> ...... done\n", op == ADM_HOST_OPEN ?
			    "Open" : "Close", rl.v[i].name ? rl.v[i].name : "");
			continue;
		}
		fprintf(stderr, "%s: %s\n", rl.v[i].name ? rl.v[i].name : "",
		    lsb_errmsg(rl.v[i].code));
		rc = 255;
	}
	admin_result_list_release(&rl);
	admin_req_release(&rq);
	return rc;
}

/* "[-f] [host ... | all]": the hosts in rq, true with -f. */
static bool
parse_sbd_ctrl(int argc, char **argv, struct admin_req *rq)
{
	static const struct cmdopt opts[] = {
		{ "f", false, 1 },
		{ NULL, false, 0 }
	};
	struct cmdopt_state st;
	bool force = false;
	const char *val;
	char **rest;
	int id, nrest;

	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		if (id != 1)
			usage(255);
		force = true;
	}
	rest = cmdopt_rest(&st, &nrest);
	for (int i = 0; i < nrest; i++)
		strv_push(&rq->names, rest[i]);
	cmdopt_release(&st);
	return force;
}

static bool
names_all(const struct admin_req *rq)
{
	return rq->names.n == 1 && strcmp(rq->names.v[0], "all") == 0;
}

/* No host named: this one, when it is in the cluster (else mbatchd's). */
static void
default_host(const struct lsf_config *c, struct admin_req *rq)
{
	char *local;

	if (rq->names.n > 0 || (local = adm_local_host(c)) == NULL)
		return;
	strv_push_nodup(&rq->names, local);
}

/*
 * hrestart, hshutdown: mbatchd (administrators only) passes the request
 * to each host's sbatchd; "Restart slave batch daemon on <hostB> ......
 * done" for each.  Running jobs are not touched.
 */
static int
sbd_ctrl(int op, int argc, char **argv)
{
	const char *verb = op == ADM_HOST_RESTART ? "Restart" : "Shut down";
	struct admin_req rq = { .op = op };
	struct admin_result_list rl;
	bool force;
	int rc = 0;

	force = parse_sbd_ctrl(argc, argv, &rq);
	if (names_all(&rq) && !adm_confirm(op == ADM_HOST_RESTART ?
	    "Do you really want to restart slave batch daemons on all "
	    "hosts?" : "Do you really want to shut down slave batch daemons "
	    "on all hosts?", force)) {
		admin_req_release(&rq);
		return 255;
	}
	default_host(client_config(CONF_CLUSTER), &rq);
	admin_call(&rq, &rl);
	for (uint32_t i = 0; i < rl.n; i++) {
		const char *name = rl.v[i].name ? rl.v[i].name : "";

		if (rl.v[i].code == LSBE_BAD_HOST) {
			fprintf(stderr, "%s: %s\n", name,
			    lsb_errmsg(rl.v[i].code));
			rc = 255;
			continue;
		}
		printf("%s slave batch daemon on <%s> ...... %s\n", verb, name,
		    rl.v[i].code == LSBE_NO_ERROR ? "done" :
		    lsb_errmsg(rl.v[i].code));
		if (rl.v[i].code != LSBE_NO_ERROR)
			rc = 255;
	}
	admin_result_list_release(&rl);
	admin_req_release(&rq);
	return rc;
}

/*
 * hstartup: sbatchd here, or through LSF_RSH on another host; only
 * root and cluster administrators (it takes root there).
 */
static int
sbd_startup(int argc, char **argv)
{
	struct admin_req rq = { .op = 0 };
	const struct lsf_config *c = client_config(CONF_CLUSTER);
	struct strv hosts = STRV_INIT;
	bool force;
	int rc = 0;

	force = parse_sbd_ctrl(argc, argv, &rq);
	if (!adm_caller_is_admin(c)) {
		fprintf(stderr, "%s: %s\n", progname,
		    lsb_errmsg(LSBE_PERMISSION));
		admin_req_release(&rq);
		return 255;
	}
	if (names_all(&rq)) {
		if (!adm_confirm("Do you really want to start up slave batch "
		    "daemon on all hosts?", force)) {
			admin_req_release(&rq);
			return 255;
		}
		for (int i = 0; i < c->cluster.nhosts; i++)
			if (c->cluster.hosts[i].server)
				strv_push(&hosts, c->cluster.hosts[i].name);
	} else {
		default_host(c, &rq);
		if (rq.names.n == 0)
			die("this host is not in the cluster; name the hosts");
		for (size_t i = 0; i < rq.names.n; i++) {
			const struct cluster_host *ch =
			    config_cluster_host(c, rq.names.v[i]);

			if (ch == NULL) {
				fprintf(stderr, "%s: %s\n", rq.names.v[i],
				    lsb_errmsg(LSBE_BAD_HOST));
				rc = 255;
				continue;
			}
			strv_push(&hosts, ch->name);
		}
	}
	for (size_t i = 0; i < hosts.n; i++)
		if (adm_daemon_start(c, hosts.v[i], "sbatchd",
		    "slave batch daemon") < 0)
			rc = 255;
	strv_release(&hosts);
	admin_req_release(&rq);
	return rc;
}

/* qclose, qopen, qact, qinact: "Queue <normal> is closed". */
static int
queue_ctrl(int op, int argc, char **argv)
{
	struct admin_req rq = { .op = op };
	struct admin_result_list rl;
	const char *done;
	int rc = 0;

	switch (op) {
	case ADM_QUEUE_OPEN:
		done = "opened";
		break;
	case ADM_QUEUE_CLOSE:
		done = "closed";
		break;
	case ADM_QUEUE_ACT:
		done = "activated";
		break;
	default:
		done = "inactivated";
		break;
	}
	parse_ctrl(argc, argv, &rq);
	admin_call(&rq, &rl);
	for (uint32_t i = 0; i < rl.n; i++) {
		if (rl.v[i].code == LSBE_NO_ERROR) {
			printf("Queue <%s> is %s\n", rl.v[i].name ?
			    rl.v[i].name : "", done);
			continue;
		}
		fprintf(stderr, "%s: %s\n", rl.v[i].name ? rl.v[i].name : "",
		    lsb_errmsg(rl.v[i].code));
		rc = 255;
	}
	admin_result_list_release(&rl);
	admin_req_release(&rq);
	return rc;
}

/*
 * reconfig [-v] [-f], mbdrestart [-C comment] [-v] [-f]: the check
 * first, here; mbatchd checks again with its own eyes before it acts.
 */
static int
reconfig(int op, int argc, char **argv)
{
	static const struct cmdopt opts[] = {
		{ "v", false, 1 },
		{ "f", false, 2 },
		{ "C", true, 3 },
		/* LSF's mbdrestart -p and -s: refused by name. */
		CMDOPT_UNSUP("p", false), CMDOPT_UNSUP("s", false),
		{ NULL, false, 0 }
	};
	struct admin_req rq = { .op = op };
	struct admin_result_list rl;
	struct cmdopt_state st;
	bool verbose = false, force = false;
	const char *val;
	int id, nrest, rc = 0;

	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		if (id == 1)
			verbose = true;
		else if (id == 2)
			force = true;
		else if (id == 3 && op == ADM_MBD_RESTART)
			rq.comment = xstrdup(val);
		else
			usage(255);
	}
	(void)cmdopt_rest(&st, &nrest);
	cmdopt_release(&st);
	if (nrest > 0)
		usage(255);
	if (adm_check(CONF_ALL, verbose, force, op == ADM_RECONFIG ?
	    "Do you want to reconfigure?" : "Do you want to restart MBD?") < 0)
		return 255;
	admin_call(&rq, &rl);
	for (uint32_t i = 0; i < rl.n; i++) {
		if (rl.v[i].code == LSBE_NO_ERROR)
			continue;
		fprintf(stderr, "%s: mbatchd did not %s: %s\n", progname,
		    op == ADM_RECONFIG ? "reconfigure" : "restart",
		    lsb_errmsg(rl.v[i].code));
		if (rl.v[i].detail)
			fprintf(stderr, "%s\n", rl.v[i].detail);
		rc = 255;
	}
	if (rc == 0)
		printf("%s\n", op == ADM_RECONFIG ?
		    "Reconfiguration initiated" : "MBD restart initiated");
	admin_result_list_release(&rl);
	admin_req_release(&rq);
	return rc;
}

/* hist, hhist, qhist, mbdhist [-f logfile] [names]. */
static int
history(unsigned what, bool names_ok, int argc, char **argv)
{
	static const struct cmdopt opts[] = {
		{ "f", true, 1 },
		{ NULL, false, 0 }
	};
	struct cmdopt_state st;
	const char *val, *path = NULL;
	char **rest;
	int id, nrest, rc;

	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		if (id != 1)
			usage(255);
		path = val;
	}
	rest = cmdopt_rest(&st, &nrest);
	if (nrest > 0 && !names_ok)
		usage(255);
	rc = adm_history(path, what, rest, nrest);
	cmdopt_release(&st);
	return rc;
}

/*
 * statedump: mbatchd's state as canonical text, the same before and
 * after a restart (tests/scenario/t0034-replay.sh); this
 * implementation's, for tests and debugging.
 */
static int
statedump(int argc, char **argv)
{
	struct admin_req rq = { .op = ADM_STATE_DUMP };
	struct admin_result_list rl;
	int rc = 0;

	if (argc != 1)
		usage(255);
	admin_call(&rq, &rl);
	for (uint32_t i = 0; i < rl.n; i++) {
		if (rl.v[i].code != LSBE_NO_ERROR) {
			fprintf(stderr, "badmin: %s\n",
			    lsb_errmsg(rl.v[i].code));
			rc = 255;
			continue;
		}
		printf("%s\n", rl.v[i].detail ? rl.v[i].detail : "");
	}
	admin_result_list_release(&rl);
	return rc;
}

static int
ckconfig(int argc, char **argv)
{
	return disp_ckconfig(argc, argv, CONF_ALL, usage);
}

/* logcheck [file ...]: the event logs, read here; no mbatchd needed. */
static int
logcheck(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1] != '\0')
			usage(255);
	return adm_logcheck(argv + 1, argc - 1);
}

/*
 * showconf sbd [host ... | all]: for each host (this one by default),
 * "SBD configuration for host <h> at <date>" and the lsf.conf values
 * an sbatchd reads there, with the defaults of the keys the file does
 * not set, as showconf mbd prints them.  The hosts share LSF_ENVDIR,
 * so the file read here is theirs.
 */
static int
showconf_sbd(int argc, char **argv)
{
	const struct lsf_config *c = client_config(CONF_CLUSTER);
	const struct lsf_conf *lc = &c->lsf;
	struct strv hosts = STRV_INIT;
	struct kv_list kv;
	char date[64];
	int rc = 0;

	for (int i = 0; i < argc; i++)
		if (argv[i][0] == '-')
			usage(255);
	if (argc == 1 && strcmp(argv[0], "all") == 0) {
		for (int i = 0; i < c->cluster.nhosts; i++)
			if (c->cluster.hosts[i].server)
				strv_push(&hosts, c->cluster.hosts[i].name);
	} else if (argc == 0) {
		char *local = adm_local_host(c);

		if (local == NULL)
			die("this host is not in the cluster; name the hosts");
		strv_push_nodup(&hosts, local);
	} else {
		for (int i = 0; i < argc; i++) {
			const struct cluster_host *ch =
			    config_cluster_host(c, argv[i]);

			if (ch == NULL || !ch->server) {
				fprintf(stderr, "%s: %s\n", argv[i],
				    lsb_errmsg(LSBE_BAD_HOST));
				rc = 255;
				continue;
			}
			strv_push(&hosts, ch->name);
		}
	}
	memset(&kv, 0, sizeof(kv));
	for (size_t i = 0; i < lc->keys.n; i++)
		if (!strv_contains(&kv.keys, lc->keys.v[i]))
			kv_add(&kv, lc->keys.v[i], lsf_conf_get(lc,
			    lc->keys.v[i]));
	if (!strv_contains(&kv.keys, "LSF_ENVDIR"))
		kv_add(&kv, "LSF_ENVDIR", lc->envdir);
	if (!strv_contains(&kv.keys, "LSB_CONFDIR"))
		kv_add(&kv, "LSB_CONFDIR", lc->lsb_confdir);
	if (!strv_contains(&kv.keys, "LSF_UNIT_FOR_LIMITS"))
		kv_add(&kv, "LSF_UNIT_FOR_LIMITS", lc->unit_for_limits);
	fmt_time_full(time(NULL), date, sizeof(date));
	for (size_t i = 0; i < hosts.n; i++) {
		printf("SBD configuration for host <%s> at %s\n", hosts.v[i],
		    date);
		disp_kv(stdout, &kv);
	}
	kv_list_release(&kv);
	strv_release(&hosts);
	return rc;
}

/*
 * showconf mbd: a header line, then only "    KEY = VALUE" lines;
 * workflow tools split every line after the first on " = ".
 */
static int
showconf(int argc, char **argv)
{
	struct kv_list kv;
	struct reply rp;

	if (argc >= 2 && strcmp(argv[1], "sbd") == 0)
		return showconf_sbd(argc - 2, argv + 2);
	if (argc != 2 || strcmp(argv[1], "mbd") != 0)
		usage(255);
	disp_mbd_query(MSG_MBD_CONF_QUERY, NULL, MSG_CONF_LIST, &rp);
	memset(&kv, 0, sizeof(kv));
	if (!kv_list_unpack(&rp.r, &kv) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("mbatchd");
	disp_conf_header(stdout, "MBD");
	disp_kv(stdout, &kv);
	kv_list_release(&kv);
	reply_release(&rp);
	return 0;
}

/*
 * While mbatchd runs on the configuration it last accepted because the
 * files on disk have errors (CONF_BROKEN, written by mbatchd), every
 * badmin command says so: it is the tool of the people who can fix it.
 */
static void
warn_broken_conf(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct lsf_config c;
	char *path = NULL, *line, *nl;

	(void)config_load(&c, NULL, CONF_SHARED, NULL);
	if (!(c.loaded & CONF_SHARED) || c.lsf.sharedir == NULL)
		goto out;
	path = xasprintf("%s/%s/logdir/%s", c.lsf.sharedir, c.cluster.name,
	    CONF_BROKEN);
	if (read_file(path, &sb) < 0 || sb.len == 0)
		goto out;
	sb_add(&sb, "", 0);	/* a terminated string */
	for (line = sb.buf; *line != '\0'; line = nl + 1) {
		if ((nl = strchr(line, '\n')) == NULL)
			nl = line + strlen(line);
		fprintf(stderr, "%s%.*s\n", line == sb.buf ?
		    "badmin: warning: " : "    ", (int)(nl - line), line);
		if (*nl == '\0')
			break;
	}
out:
	free(path);
	sb_release(&sb);
	config_release(&c);
}

static const struct {
	const char	*name;
	int		 op;
} ctrl_subs[] = {
	{ "hopen", ADM_HOST_OPEN },
	{ "hclose", ADM_HOST_CLOSE },
	{ "qopen", ADM_QUEUE_OPEN },
	{ "qclose", ADM_QUEUE_CLOSE },
	{ "qact", ADM_QUEUE_ACT },
	{ "qinact", ADM_QUEUE_INACT },
	{ "reconfig", ADM_RECONFIG },
	{ "mbdrestart", ADM_MBD_RESTART },
	{ "hrestart", ADM_HOST_RESTART },
	{ "hshutdown", ADM_HOST_SHUTDOWN },
};

static const struct {
	const char	*name;
	unsigned	 what;
	bool		 names;
} hist_subs[] = {
	{ "hist", HIST_HOST | HIST_QUEUE | HIST_MBD, false },
	{ "hhist", HIST_HOST, true },
	{ "qhist", HIST_QUEUE, true },
	{ "mbdhist", HIST_MBD, false },
};

int
main(int argc, char **argv)
{
	const char *sub;

	progname = "badmin";
	if (argc < 2)
		usage(255);
	sub = argv[1];
	if (strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0)
		usage(0);
	if (strcmp(sub, "-V") == 0)
		disp_version();
	warn_broken_conf();
	if (strcmp(sub, "ckconfig") == 0)
		return ckconfig(argc - 1, argv + 1);
	if (strcmp(sub, "showconf") == 0)
		return showconf(argc - 1, argv + 1);
	if (strcmp(sub, "statedump") == 0)
		return statedump(argc - 1, argv + 1);
	if (strcmp(sub, "logcheck") == 0)
		return logcheck(argc - 1, argv + 1);
	if (strcmp(sub, "hstartup") == 0)
		return sbd_startup(argc - 1, argv + 1);
	for (size_t i = 0; i < ARRAY_SIZE(ctrl_subs); i++) {
		int op = ctrl_subs[i].op;

		if (strcmp(sub, ctrl_subs[i].name) != 0)
			continue;
		if (op == ADM_HOST_OPEN || op == ADM_HOST_CLOSE)
			return host_ctrl(op, argc - 1, argv + 1);
		if (op == ADM_RECONFIG || op == ADM_MBD_RESTART)
			return reconfig(op, argc - 1, argv + 1);
		if (op == ADM_HOST_RESTART || op == ADM_HOST_SHUTDOWN)
			return sbd_ctrl(op, argc - 1, argv + 1);
		return queue_ctrl(op, argc - 1, argv + 1);
	}
	for (size_t i = 0; i < ARRAY_SIZE(hist_subs); i++)
		if (strcmp(sub, hist_subs[i].name) == 0)
			return history(hist_subs[i].what, hist_subs[i].names,
			    argc - 1, argv + 1);
	for (size_t i = 0; i < ARRAY_SIZE(later); i++)
		if (strcmp(sub, later[i]) == 0) {
			fprintf(stderr, "badmin: %s is not supported by this "
			    "version\n", sub);
			return 255;
		}
	fprintf(stderr, "badmin: invalid subcommand %s\n", sub);
	usage(255);
}
