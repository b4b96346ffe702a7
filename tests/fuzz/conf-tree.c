/*
 * A configuration tree for the fuzz targets (see conf-tree.h).  It is
 * written once per process; each run rewrites only the fuzzed file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "conf-tree.h"

static const struct {
	const char	*file;
	const char	*text;
} tree[] = {
	{ "lsf.shared",
	    "Begin Cluster\nClusterName\n" CONF_TREE_CLUSTER "\nEnd Cluster\n"
	    "Begin HostType\nTYPENAME\nX86_64\nEnd HostType\n"
	    "Begin HostModel\nMODELNAME CPUFACTOR ARCHITECTURE\n"
	    "generic 1.0 ()\nfast 2.0 (x86_64)\nEnd HostModel\n"
	    "Begin Resource\nRESOURCENAME TYPE INTERVAL INCREASING "
	    "DESCRIPTION\nbigmem Boolean () () (much memory)\n"
	    "scratch Numeric 60 N (scratch space)\nEnd Resource\n" },
	{ "lsf.cluster." CONF_TREE_CLUSTER,
	    "Begin Parameters\nEXINTERVAL = 15\nEnd Parameters\n"
	    "Begin ClusterAdmins\nAdministrators = lsfadmin\n"
	    "End ClusterAdmins\n"
	    "Begin Host\nHOSTNAME model type server r1m RESOURCES\n"
	    "hostA ! ! 1 3.5 (bigmem)\nhostB fast X86_64 1 () ()\n"
	    "hostC ! ! 0 () ()\nEnd Host\n" },
	{ "hosts", "10.0.0.1 hostA a\n10.0.0.2 hostB\n::1 hostC\n" },
	{ CONF_TREE_LSB "lsb.params",
	    "Begin Parameters\nDEFAULT_QUEUE = normal\nMAX_JOB_NUM = 100\n"
	    "End Parameters\n" },
	{ CONF_TREE_LSB "lsb.users",
	    "Begin UserGroup\nGROUP_NAME GROUP_MEMBER\n"
	    "staff (alice bob)\nEnd UserGroup\n"
	    "Begin User\nUSER_NAME MAX_JOBS JL/P\nstaff@ 4 1\n"
	    "default 10 -\nEnd User\n" },
	{ CONF_TREE_LSB "lsb.hosts",
	    "Begin Host\nHOST_NAME MXJ JL/U r1m DISPATCH_WINDOW\n"
	    "hostA 2 1 2.0/4.0 (8:00-18:00)\ndefault ! - () ()\nEnd Host\n"
	    "Begin HostGroup\nGROUP_NAME GROUP_MEMBER\n"
	    "hg1 (hostA hostB)\nhg2 (all ~hostB)\nEnd HostGroup\n" },
	{ CONF_TREE_LSB "lsb.queues",
	    "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\n"
	    "HOSTS = hg1 hostC+2\nRES_REQ = select[mem>10]\n"
	    "RUN_WINDOW = 5:19:00-1:8:30\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = short\nUSERS = staff\n"
	    "RUNLIMIT = 10 60\nMEMLIMIT = 100 2G\nEnd Queue\n" },
	{ CONF_TREE_LSB "lsb.applications",
	    "Begin Application\nNAME = fluent\nRUNLIMIT = 30\n"
	    "SUSPEND_CONTROL = SIGTSTP\nEnd Application\n" },
};

static char	*top;
static FILE	*sink;

/*
 * What lsf.conf must say for the tree to be read: the directories, which
 * the lsf.conf target appends to its input, so that they win.
 */
static const char *
lsf_conf_tail(void)
{
	static char *tail;

	if (tail == NULL && asprintf(&tail, "\nLSF_CONFDIR=%s\n"
	    "LSB_CONFDIR=%s/lsbatch\nLSB_SHAREDIR=%s/work\n", top, top,
	    top) < 0)
		abort();
	return tail;
}

static void
put(const char *file, const void *data, size_t size, const char *tail)
{
	char *path;
	FILE *fp;

	if (asprintf(&path, "%s/%s", top, file) < 0)
		abort();
	if ((fp = fopen(path, "w")) == NULL)
		abort();
	if (fwrite(data, 1, size, fp) != size || fputs(tail, fp) < 0 ||
	    fclose(fp) != 0)
		abort();
	free(path);
}

static void
remove_tree(void)
{
	char *cmd;

	if (asprintf(&cmd, "rm -rf '%s'", top) < 0)
		return;
	(void)system(cmd);
	free(cmd);
}

static void
make_dir(const char *sub)
{
	char *path;

	if (asprintf(&path, "%s/%s", top, sub) < 0 || mkdir(path, 0700) < 0)
		abort();
	free(path);
}

static void
make_tree(void)
{
	const char *tmp = getenv("TMPDIR");

	/* /dev/shm: a run writes a file, and the disk need not see it. */
	if (access("/dev/shm", W_OK) == 0)
		tmp = "/dev/shm";
	else if (tmp == NULL)
		tmp = "/tmp";
	if (asprintf(&top, "%s/fuzzconf.XXXXXX", tmp) < 0 ||
	    mkdtemp(top) == NULL)
		abort();
	atexit(remove_tree);
	make_dir("lsbatch");
	make_dir("lsbatch/" CONF_TREE_CLUSTER);
	make_dir(CONF_TREE_LSB);
	for (size_t i = 0; i < sizeof(tree) / sizeof(tree[0]); i++)
		put(tree[i].file, tree[i].text, strlen(tree[i].text), "");
	put("lsf.conf", "", 0, lsf_conf_tail());
	/* FUZZ_CONF_VERBOSE=1 shows what an input was read as. */
	if (getenv("FUZZ_CONF_VERBOSE") != NULL)
		sink = stderr;
	else if ((sink = fopen("/dev/null", "w")) == NULL)
		abort();
}

/* What the daemons and commands do with a configuration once read. */
static void
use(const struct lsf_config *cfg)
{
	struct strv in = STRV_INIT, out = STRV_INIT, bad = STRV_INIT;

	config_dump(cfg, sink);
	for (int i = 0; i < cfg->nqueues; i++) {
		const struct queue_conf *q = &cfg->queues[i];

		config_expand_hosts(cfg, &q->hosts, &out, &bad);
		(void)windows_open(&q->run_window, 5, 19 * 60);
		(void)windows_open(&q->dispatch_window, 0, 0);
		(void)config_queue(cfg, q->name);
		strv_release(&out);
		strv_release(&bad);
	}
	for (int i = 0; i < cfg->cluster.nhosts; i++) {
		const char *h = cfg->cluster.hosts[i].name;

		(void)config_lsb_host(cfg, h, NULL, NULL);
		(void)config_cluster_host(cfg, h);
	}
	for (int i = 0; i < cfg->nhgroups; i++) {
		strv_push(&in, cfg->hgroups[i].name);
		(void)config_host_group(cfg, cfg->hgroups[i].name);
	}
	strv_push(&in, "all");
	strv_push(&in, "~hostA");
	config_expand_hosts(cfg, &in, &out, &bad);
	(void)config_is_admin(cfg, "lsfadmin");
	for (int i = 0; i < cfg->napps; i++)
		(void)config_app(cfg, cfg->apps[i].name);
	strv_release(&in);
	strv_release(&out);
	strv_release(&bad);
}

void
conf_tree_run(const char *file, const uint8_t *data, size_t size)
{
	struct lsf_config cfg;
	struct conf_diag d;

	if (top == NULL)
		make_tree();
	/* Whatever the input says, the last word (which wins) points the
	 * directories back into the tree. */
	put(file, data, size, strcmp(file, "lsf.conf") == 0 ?
	    lsf_conf_tail() : "");
	conf_diag_init(&d);
	(void)config_load(&cfg, top, CONF_ALL, &d);
	conf_diag_print(&d, sink);
	use(&cfg);
	config_release(&cfg);
	conf_diag_release(&d);
}
