/*
 * Configuration files: the lexer, each file kind good and bad, the value
 * parsers, windows, and the lookups on a loaded configuration.  Fixture
 * trees are written into a mkdtemp() directory per test.
 */
#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "conftree.h"
#include "conf-lex.h"



static void
setup(void)
{
	tree_make("check_conf");
}

static void
teardown(void)
{
	tree_remove();
}



/* The full path of rel, in a buffer that lives until the next call. */
static const char *
at(const char *rel)
{
	static char buf[PATH_MAX + 64];

	snprintf(buf, sizeof(buf), "%s/%s", dir, rel);
	return buf;
}

static const char shared_text[] =
    "Begin Cluster\n"
    "ClusterName\n"
    "c1\n"
    "End Cluster\n"
    "\n"
    "Begin HostType\n"
    "TYPENAME\n"
    "LINUX64\n"
    "End HostType\n"
    "\n"
    "Begin HostModel\n"
    "MODELNAME  CPUFACTOR  ARCHITECTURE\n"
    "Xeon       20         (x86_64)\n"
    "Old        5          ()\n"
    "End HostModel\n"
    "\n"
    "Begin Resource\n"
    "RESOURCENAME TYPE    INTERVAL INCREASING DESCRIPTION\n"
    "bigmem       Boolean ()       ()         (Big memory)\n"
    "scratch      Numeric 30       N          (Scratch MB)\n"
    "End Resource\n";

static const char cluster_text[] =
    "Begin ClusterAdmins\n"
    "Administrators = lsfadmin ops\n"
    "End ClusterAdmins\n"
    "\n"
    "Begin Host\n"
    "HOSTNAME  model  type     server  r1m  RESOURCES\n"
    "h1        Xeon   LINUX64  1       3.5  (bigmem)\n"
    "h2        Old    !        1       ()   ()\n"
    "h3        !      !        1       ()   ()\n"
    "h4        !      !        Y       ()   ()\n"
    "client    !      !        0       ()   ()\n"
    "End Host\n";

static const char hosts_text[] =
    "Begin Host\n"
    "HOST_NAME  MXJ  JL/U  r1m      pg     DISPATCH_WINDOW\n"
    "h1         8    2     1.0/3.0  15/    ()\n"
    "Old        4    -     ()       ()     (8:00-18:00)\n"
    "LINUX64    2    -     ()       ()     ()\n"
    "default    !    -     ()       /30    ()\n"
    "End Host\n"
    "\n"
    "Begin HostGroup\n"
    "GROUP_NAME  GROUP_MEMBER\n"
    "g12         (h1 h2)\n"
    "gall        (all ~h2)\n"
    "gnest       (g12 h3)\n"
    "End HostGroup\n";

static const char queues_text[] =
    "Begin Queue\n"
    "QUEUE_NAME = normal\n"
    "PRIORITY   = 30\n"
    "r1m        = 0.7/2.0\n"
    "pg         = 15/\n"
    "MEM        = /10\n"
    "ut         = 70\n"
    "RUN_WINDOW = 20:00-8:30\n"
    "RUNLIMIT   = 30 1:30/h1\n"
    "MEMLIMIT   = 1 2\n"
    "PROCLIMIT  = 2 4 8\n"
    "USERS      = all\n"
    "HOSTS      = g12+1 h3\n"
    "EXCLUSIVE  = Y\n"
    "DESCRIPTION = one \\\n"
    "two\n"
    "End Queue\n"
    "Begin Queue\n"
    "QUEUE_NAME = short\n"
    "End Queue\n";

static const char params_text[] =
    "Begin Parameters\n"
    "DEFAULT_QUEUE = normal\n"
    "End Parameters\n";

static const char users_text[] =
    "Begin UserGroup\n"
    "GROUP_NAME GROUP_MEMBER USER_SHARES\n"
    "ug (alice bob) ([alice, 2] [bob, 1])\n"
    "End UserGroup\n"
    "Begin User\n"
    "USER_NAME MAX_JOBS JL/P\n"
    "default 10 -\n"
    "End User\n";

/* A complete good tree; the tests overwrite single files. */
static void
good_tree(void)
{
	char *conf = xasprintf("LSF_CONFDIR=%s/conf\n"
	    "LSB_SHAREDIR=%s/work\n"
	    "LSF_UNIT_FOR_LIMITS=MB\n", dir, dir);

	put("lsf.conf", conf);
	free(conf);
	put("conf/lsf.shared", shared_text);
	put("conf/lsf.cluster.c1", cluster_text);
	put(LSB "lsb.params", params_text);
	put(LSB "lsb.queues", queues_text);
	put(LSB "lsb.hosts", hosts_text);
	put(LSB "lsb.users", users_text);
}

static int
load(struct lsf_config *cfg, struct conf_diag *d, unsigned parts)
{
	conf_diag_init(d);
	return config_load(cfg, dir, parts, d);
}

static void
unload(struct lsf_config *cfg, struct conf_diag *d)
{
	config_release(cfg);
	conf_diag_release(d);
}

/* Is there a message containing both "<file>:<line>:" and why? */
static bool
has_msg(const struct conf_diag *d, const char *file, int line,
    const char *why)
{
	char *where = line > 0 ? xasprintf("/%s:%d: ", file, line) :
	    xasprintf("/%s: ", file);
	bool found = false;

	for (size_t i = 0; i < d->msgs.n && !found; i++)
		found = strstr(d->msgs.v[i], where) != NULL &&
		    strstr(d->msgs.v[i], why) != NULL;
	free(where);
	return found;
}

static void
dump_diag(const struct conf_diag *d)
{
	conf_diag_print(d, stderr);
}

/* lexer */

START_TEST(test_lex_lines)
{
	struct conf_file f;
	struct conf_diag d;

	setup();
	conf_diag_init(&d);
	put("f", "# comment only\n"
	    "\n"
	    "A = 1 # trailing\n"
	    "B = \"x # y\"\n"
	    "C = one \\\n"
	    "  two \\\n"
	    "three\n"
	    "   \t\n"
	    "D = \"open \\\n"
	    "# still quoted\"\n"
	    "E = 5\r\n"
	    "last \\");
	ck_assert_int_eq(conf_file_read(&f, at("f"), 0, &d), 0);
	ck_assert_int_eq(f.nlines, 6);
	ck_assert_str_eq(f.lines[0].text, "A = 1");
	ck_assert_int_eq(f.lines[0].line, 3);
	ck_assert_str_eq(f.lines[1].text, "B = \"x # y\"");
	ck_assert_int_eq(f.lines[1].line, 4);
	ck_assert_str_eq(f.lines[2].text, "C = one   two three");
	ck_assert_int_eq(f.lines[2].line, 5);
	ck_assert_str_eq(f.lines[3].text, "D = \"open # still quoted\"");
	ck_assert_int_eq(f.lines[3].line, 9);
	ck_assert_str_eq(f.lines[4].text, "E = 5");
	ck_assert_int_eq(f.lines[4].line, 11);
	ck_assert_str_eq(f.lines[5].text, "last");
	ck_assert_int_eq(d.nerrors, 0);
	conf_file_release(&f);

	/* An unterminated quote is an error naming its line. */
	put("g", "\n\nX = \"abc\n");
	ck_assert_int_eq(conf_file_read(&f, at("g"), 0, &d), 0);
	ck_assert_int_eq(d.nerrors, 1);
	ck_assert(has_msg(&d, "g", 3, "unterminated"));
	conf_file_release(&f);

	/* Single quotes matter only with CONF_LEX_SQUOTE. */
	put("h", "K='a # b'\nL=it's # c\n");
	conf_diag_release(&d);
	conf_diag_init(&d);
	ck_assert_int_eq(conf_file_read(&f, at("h"),
	    CONF_LEX_SQUOTE, &d), 0);
	ck_assert_str_eq(f.lines[0].text, "K='a # b'");
	conf_file_release(&f);
	ck_assert_int_eq(conf_file_read(&f, at("h"), 0, &d),
	    0);
	ck_assert_str_eq(f.lines[0].text, "K='a");
	ck_assert_str_eq(f.lines[1].text, "L=it's");
	conf_file_release(&f);

	ck_assert_int_eq(conf_file_read(&f, at("none"), 0, &d),
	    -1);
	ck_assert_int_eq(errno, ENOENT);
	conf_file_release(&f);
	conf_diag_release(&d);
	teardown();
}
END_TEST

START_TEST(test_lex_directives)
{
	struct conf_file f;
	struct conf_diag d;

	setup();
	conf_diag_init(&d);
	put("f", "#INCLUDE \"/etc/lsf/more.queues\"\n"	/* 1 */
	    "  #if time(18:30-19:30)\n"			/* 2 */
	    "#else\n"						/* 3 */
	    "#endif  \n"					/* 4 */
	    "#If you read this, nothing\n"
	    "# INCLUDE the word in prose\n"
	    "#elsewhere\n"
	    "#include_not\n"
	    "A = 1\n");
	ck_assert_int_eq(conf_file_read(&f, at("f"), 0, &d), 0);
	ck_assert_int_eq(f.nlines, 1);
	ck_assert_int_eq(d.nerrors, 0);
	ck_assert_int_eq(d.nwarnings, 4);
	ck_assert(has_msg(&d, "f", 1, "#INCLUDE is not supported"));
	ck_assert(has_msg(&d, "f", 2, "#if/#else/#endif"));
	ck_assert(has_msg(&d, "f", 3, "#if/#else/#endif"));
	ck_assert(has_msg(&d, "f", 4, "#if/#else/#endif"));
	conf_file_release(&f);
	conf_diag_release(&d);
	teardown();
}
END_TEST

START_TEST(test_lex_values)
{
	struct conf_val *v;
	const char *why;
	int n;

	ck_assert_int_eq(conf_split_values("h1  (a b  c) () - \"x y\" [h1 h2] "
	    "([all]) !", &v, &n, &why), 0);
	ck_assert_int_eq(n, 8);
	ck_assert_str_eq(v[0].s, "h1");
	ck_assert(!v[0].dflt);
	ck_assert_str_eq(v[1].s, "a b  c");
	ck_assert(v[2].dflt);
	ck_assert(v[3].dflt);
	ck_assert_str_eq(v[4].s, "x y");
	ck_assert_str_eq(v[5].s, "[h1 h2]");
	ck_assert_str_eq(v[6].s, "[all]");
	ck_assert_str_eq(v[7].s, "!");
	conf_vals_free(v, n);

	ck_assert_int_eq(conf_split_values("([a, 1] [b, 2])", &v, &n, &why),
	    0);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(v[0].s, "[a, 1] [b, 2]");
	conf_vals_free(v, n);

	ck_assert_int_eq(conf_split_values("a (b c", &v, &n, &why), -1);
	ck_assert_ptr_null(v);
	ck_assert_int_eq(conf_split_values("a b)", &v, &n, &why), -1);
	ck_assert_int_eq(conf_split_values("(a]", &v, &n, &why), -1);
	ck_assert_int_eq(conf_split_values("\"abc", &v, &n, &why), -1);
	ck_assert_int_eq(conf_split_values("", &v, &n, &why), 0);
	ck_assert_int_eq(n, 0);
	conf_vals_free(v, n);
}
END_TEST

START_TEST(test_lex_sections)
{
	struct conf_file f;
	struct conf_sections s;
	struct conf_table t;
	struct conf_kvs kv;
	struct conf_diag d;
	char *path;

	setup();
	conf_diag_init(&d);
	path = xasprintf("%s/s", dir);
	put("s", "begin PARAMETERS\n"
	    "A=1\n"
	    " B  =  \"two words\" \n"
	    "END parameters\n"
	    "Begin Host\n"
	    "NAME  MXJ  (x)\n"
	    "a     1    (p q)\n"
	    "b     2\n"
	    "c     3    -   extra\n"
	    "End Host\n");
	ck_assert_int_eq(conf_file_read(&f, path, 0, &d), 0);
	conf_sections_read(&f, &s, &d);
	ck_assert_int_eq(s.n, 2);
	ck_assert_str_eq(s.v[0].name, "PARAMETERS");
	ck_assert_int_eq(s.v[0].line, 1);
	conf_kvs_read(&f, &s.v[0], 0, &kv, &d);
	ck_assert_int_eq(kv.n, 2);
	ck_assert_str_eq(kv.v[1].key, "B");
	ck_assert_str_eq(kv.v[1].val, "two words");
	ck_assert_int_eq(kv.v[1].line, 3);
	conf_kvs_release(&kv);
	conf_table_read(&f, &s.v[1], &t, &d);
	ck_assert_int_eq((int)t.cols.n, 3);
	ck_assert_int_eq(conf_table_col(&t, "mxj"), 1);
	ck_assert_int_eq(conf_table_col(&t, "nope"), -1);
	ck_assert_int_eq(t.nrows, 1);
	ck_assert_str_eq(t.rows[0].v[2].s, "p q");
	ck_assert_int_eq(d.nerrors, 2);
	ck_assert(has_msg(&d, "s", 8, "2 values for 3 columns"));
	ck_assert(has_msg(&d, "s", 9, "4 values for 3 columns"));
	conf_table_release(&t);
	conf_sections_release(&s);
	conf_file_release(&f);

	conf_diag_release(&d);
	conf_diag_init(&d);
	put("s", "stray\n"
	    "Begin A\n"
	    "Begin B\n"
	    "End B\n"
	    "End A\n"
	    "Begin C\n"
	    "End D\n"
	    "Begin E\n");
	ck_assert_int_eq(conf_file_read(&f, path, 0, &d), 0);
	conf_sections_read(&f, &s, &d);
	ck_assert_int_eq(s.n, 1);
	ck_assert_str_eq(s.v[0].name, "B");
	ck_assert(has_msg(&d, "s", 1, "outside"));
	ck_assert(has_msg(&d, "s", 3, "Begin B before End A"));
	ck_assert(has_msg(&d, "s", 5, "End A without Begin"));
	ck_assert(has_msg(&d, "s", 7, "End D does not match Begin C"));
	ck_assert(has_msg(&d, "s", 8, "Begin E without End E"));
	ck_assert_int_eq(d.nerrors, 5);
	conf_sections_release(&s);
	conf_file_release(&f);
	conf_diag_release(&d);
	free(path);
	teardown();
}
END_TEST

/* lsf.conf */

START_TEST(test_lsf_conf)
{
	struct lsf_config cfg;
	struct conf_diag d;
	char *text;

	setup();
	text = xasprintf("# site\n"
	    "LSF_CONFDIR=%s/conf\n"
	    "LSF_LOGDIR = \"/var/log/lsf\"\n"
	    "LSF_BINDIR='/opt/bin'\n"
	    "LSF_MASTER_LIST=\"m1  m2 m3\"\n"
	    "LSB_MBD_PORT=1234\n"
	    "LSF_UNIT_FOR_LIMITS=gb\n"
	    "LSB_MAILTO=!U@example.com\n"
	    "LSB_MAILPROG=\"/opt/lsf/bin/mailer\"\n"
	    "SITE_THING=1\n"
	    "SITE_THING=2\n", dir);
	put("lsf.conf", text);
	free(text);
	ck_assert_int_eq(load(&cfg, &d, CONF_LSF), 0);
	ck_assert_int_eq(d.nerrors + d.nwarnings, 0);
	ck_assert_str_eq(cfg.lsf.envdir, dir);
	ck_assert(str_ends(cfg.lsf.path, "/lsf.conf"));
	ck_assert(str_ends(cfg.lsf.confdir, "/conf"));
	ck_assert(str_ends(cfg.lsf.lsb_confdir, "/conf/lsbatch"));
	ck_assert_ptr_null(cfg.lsf.sharedir);
	ck_assert_ptr_null(cfg.lsf.serverdir);
	ck_assert_ptr_null(cfg.lsf.sbd_statedir);
	ck_assert_str_eq(cfg.lsf.logdir, "/var/log/lsf");
	ck_assert_str_eq(cfg.lsf.bindir, "/opt/bin");
	ck_assert_int_eq((int)cfg.lsf.master_list.n, 3);
	ck_assert_str_eq(cfg.lsf.master_list.v[2], "m3");
	ck_assert_int_eq(cfg.lsf.lim_port, 7869);
	ck_assert_int_eq(cfg.lsf.mbd_port, 1234);
	ck_assert_int_eq(cfg.lsf.sbd_port, 6882);
	ck_assert_str_eq(cfg.lsf.unit_for_limits, "GB");
	ck_assert_str_eq(cfg.lsf.mailto, "!U@example.com");
	ck_assert_str_eq(cfg.lsf.mailprog, "/opt/lsf/bin/mailer");
	ck_assert_str_eq(lsf_conf_get(&cfg.lsf, "SITE_THING"), "2");
	ck_assert_ptr_null(lsf_conf_get(&cfg.lsf, "NOPE"));
	ck_assert(cfg.loaded == CONF_LSF);
	unload(&cfg, &d);

	/* LSB_SHAREDIR is needed only when the lsb files are read. */
	text = xasprintf("LSF_CONFDIR=%s/conf\n", dir);
	put("lsf.conf", text);
	free(text);
	ck_assert_int_eq(load(&cfg, &d, CONF_LSB), -1);
	ck_assert(has_msg(&d, "lsf.conf", 0, "LSB_SHAREDIR"));
	unload(&cfg, &d);

	/* $LSF_ENVDIR when no directory is given. */
	setenv("LSF_ENVDIR", dir, 1);
	conf_diag_init(&d);
	ck_assert_int_eq(config_load(&cfg, NULL, CONF_LSF, &d), 0);
	ck_assert_str_eq(cfg.lsf.envdir, dir);
	unload(&cfg, &d);
	unsetenv("LSF_ENVDIR");
	teardown();
}
END_TEST

START_TEST(test_lsf_conf_bad)
{
	struct lsf_config cfg;
	struct conf_diag d;

	setup();
	put("lsf.conf", "LSF_LIM_PORT=0\n"
	    "LSB_MBD_PORT=65536\n"
	    "LSB_SBD_PORT=12ab\n"
	    "LSF_UNIT_FOR_LIMITS=XB\n"
	    "junk line\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_LSF), -1);
	ck_assert(has_msg(&d, "lsf.conf", 0, "LSF_CONFDIR is not defined"));
	ck_assert(has_msg(&d, "lsf.conf", 1, "LSF_LIM_PORT"));
	ck_assert(has_msg(&d, "lsf.conf", 2, "LSB_MBD_PORT"));
	ck_assert(has_msg(&d, "lsf.conf", 3, "LSB_SBD_PORT"));
	ck_assert(has_msg(&d, "lsf.conf", 4, "LSF_UNIT_FOR_LIMITS"));
	ck_assert(has_msg(&d, "lsf.conf", 5, "warning"));
	ck_assert_int_eq(d.nerrors, 5);
	ck_assert_int_eq(d.nwarnings, 1);
	/* Bad values leave the defaults. */
	ck_assert_int_eq(cfg.lsf.lim_port, 7869);
	ck_assert_str_eq(cfg.lsf.unit_for_limits, "KB");
	ck_assert_str_eq(cfg.lsf.mailto, "!U");
	ck_assert_str_eq(cfg.lsf.mailprog, "/usr/lib/sendmail");
	unload(&cfg, &d);

	/* No lsf.conf at all. */
	conf_diag_init(&d);
	ck_assert_int_eq(config_load(&cfg, "/nonexistent/dir", CONF_ALL, &d),
	    -1);
	ck_assert_int_eq(d.nerrors, 1);
	ck_assert(strstr(d.msgs.v[0], "/nonexistent/dir/lsf.conf: cannot "
	    "read") != NULL);
	config_release(&cfg);
	config_release(&cfg);	/* twice is harmless */
	conf_diag_release(&d);

	/* Nor does a NULL diag matter. */
	ck_assert_int_eq(config_load(&cfg, "/nonexistent/dir", CONF_ALL,
	    NULL), -1);
	config_release(&cfg);
	teardown();
}
END_TEST

/* a whole good tree */

START_TEST(test_good_tree)
{
	struct lsf_config cfg;
	struct conf_diag d;
	const struct queue_conf *q;
	const struct cluster_host *h;

	setup();
	good_tree();
	if (load(&cfg, &d, CONF_ALL) != 0 || d.nwarnings != 0)
		dump_diag(&d);
	ck_assert_int_eq(d.nerrors, 0);
	ck_assert_int_eq(d.nwarnings, 0);
	ck_assert_uint_eq(cfg.loaded, CONF_ALL);
	ck_assert_str_eq(cfg.cluster.name, "c1");
	ck_assert(str_ends(cfg.lsf.sbd_statedir, "/work/c1/sbd"));
	ck_assert(str_ends(cfg.lsb_dir, "/conf/lsbatch/c1/configdir"));

	/* lsf.shared */
	ck_assert_int_eq(cfg.shared.nmodels, 2);
	ck_assert(cfg.shared.models[0].cpuf == 20.0f);
	ck_assert_str_eq(cfg.shared.models[0].arch, "x86_64");
	ck_assert_ptr_null(cfg.shared.models[1].arch);
	ck_assert_int_eq(cfg.shared.nresources, 2);
	ck_assert_int_eq(cfg.shared.resources[1].type, RES_NUMERIC);
	ck_assert_int_eq(cfg.shared.resources[1].interval, 30);
	ck_assert(!cfg.shared.resources[1].increasing);
	ck_assert_str_eq(cfg.shared.resources[0].desc, "Big memory");

	/* lsf.cluster */
	ck_assert_int_eq(cfg.cluster.nhosts, 5);
	h = config_cluster_host(&cfg, "H1");
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(h->model, "Xeon");
	ck_assert(h->busy_set == (1u << LI_R1M));
	ck_assert(h->busy[LI_R1M] == 3.5f);
	ck_assert_str_eq(h->resources.v[0], "bigmem");
	ck_assert(config_cluster_host(&cfg, "h4")->server);
	ck_assert(!config_cluster_host(&cfg, "client")->server);
	ck_assert_ptr_null(config_cluster_host(&cfg, "nope"));
	ck_assert_int_eq(cfg.cluster.exinterval, 15);
	ck_assert(config_is_admin(&cfg, "lsfadmin"));
	ck_assert(config_is_admin(&cfg, "ops"));
	ck_assert(config_is_admin(&cfg, "root"));
	ck_assert(!config_is_admin(&cfg, "alice"));
	ck_assert(!config_is_admin(&cfg, NULL));

	/* lsb.params defaults and the one value set */
	ck_assert_str_eq(cfg.params.default_queue.v[0], "normal");
	ck_assert_int_eq(cfg.params.mbd_sleep_time, 10);
	ck_assert_int_eq(cfg.params.max_jobid, 999999);
	ck_assert_int_eq(cfg.params.max_user_priority, -1);
	ck_assert_str_eq(cfg.params.default_project, "default");
	ck_assert_int_eq(cfg.params.max_preexec_retry, 5);

	/* lsb.queues */
	ck_assert_int_eq(cfg.nqueues, 2);
	q = config_queue(&cfg, "normal");
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(q->line, 1);
	ck_assert_int_eq(q->priority, 30);
	ck_assert_uint_eq(q->thr.sched_set,
	    (1u << LI_R1M) | (1u << LI_PG) | (1u << LI_UT));
	ck_assert_uint_eq(q->thr.stop_set, (1u << LI_R1M) | (1u << LI_MEM));
	ck_assert(q->thr.sched[LI_R1M] == 0.7f);
	ck_assert(q->thr.stop[LI_R1M] == 2.0f);
	ck_assert(q->thr.stop[LI_MEM] == 10.0f);
	ck_assert(q->thr.sched[LI_UT] == 0.7f);
	ck_assert_int_eq(q->run_window.n, 1);
	ck_assert_int_eq(q->dispatch_window.n, 0);
	ck_assert(windows_open(&q->run_window, 3, 22 * 60));
	ck_assert(!windows_open(&q->run_window, 3, 12 * 60));
	ck_assert_int_eq(q->runlimit.deflt, 30);
	ck_assert_int_eq(q->runlimit.max, 90);
	ck_assert_int_eq(q->cpulimit.max, -1);
	ck_assert_int_eq(q->memlimit.deflt, 1024);	/* MB unit */
	ck_assert_int_eq(q->memlimit.max, 2048);
	ck_assert_int_eq(q->proclimit_min, 2);
	ck_assert_int_eq(q->proclimit.deflt, 4);
	ck_assert_int_eq(q->proclimit.max, 8);
	ck_assert_int_eq((int)q->users.n, 0);
	ck_assert_int_eq((int)q->hosts.n, 2);
	ck_assert_str_eq(q->hosts.v[0], "g12+1");
	ck_assert(q->exclusive);
	ck_assert_str_eq(q->description, "one two");
	ck_assert_str_eq(q->keys.v[0], "QUEUE_NAME");
	ck_assert_int_eq((int)q->keys.n, 14);
	q = config_queue(&cfg, "short");
	ck_assert_int_eq(q->priority, 1);
	ck_assert_int_eq(q->qjob_limit, -1);
	ck_assert(q->pjob_limit < 0);
	ck_assert_int_eq(q->job_accept_interval, -1);
	ck_assert_int_eq(q->proclimit_min, -1);
	ck_assert_uint_eq(q->thr.sched_set | q->thr.stop_set, 0);
	ck_assert_ptr_null(config_queue(&cfg, "NORMAL"));

	/* lsb.hosts */
	ck_assert_int_eq(cfg.nbhosts, 4);
	ck_assert_int_eq(cfg.bhosts[0].mxj, 8);
	ck_assert_int_eq(cfg.bhosts[0].jlu, 2);
	ck_assert_int_eq(cfg.bhosts[1].jlu, -1);
	ck_assert_int_eq(cfg.bhosts[3].mxj, MXJ_NCPUS);
	ck_assert_uint_eq(cfg.bhosts[0].thr.sched_set,
	    (1u << LI_R1M) | (1u << LI_PG));
	ck_assert_uint_eq(cfg.bhosts[0].thr.stop_set, 1u << LI_R1M);
	ck_assert_uint_eq(cfg.bhosts[3].thr.stop_set, 1u << LI_PG);
	ck_assert_int_eq(cfg.bhosts[1].dispatch_window.n, 1);
	ck_assert_int_eq(cfg.nhgroups, 3);
	ck_assert_str_eq(config_host_group(&cfg, "gall")->members.v[1], "~h2");

	/* lsb.users */
	ck_assert_int_eq(cfg.nugroups, 1);
	ck_assert_str_eq(cfg.ugroups[0].members.v[1], "bob");
	ck_assert_str_eq(cfg.ugroups[0].shares, "[alice, 2] [bob, 1]");
	ck_assert_int_eq(cfg.nulimits, 1);
	ck_assert_int_eq(cfg.ulimits[0].max_jobs, 10);
	ck_assert(cfg.ulimits[0].jl_p < 0);
	ck_assert_int_eq(cfg.ulimits[0].max_pend_jobs, -1);
	unload(&cfg, &d);
	teardown();
}
END_TEST

/* The copy mbatchd keeps of an accepted configuration, and reading it. */
START_TEST(test_save_and_load_saved)
{
	struct lsf_config cfg, sv;
	struct conf_diag d, ds;
	char *link, *cause = NULL, target[64], p[PATH_MAX + 64];
	ssize_t n;

	setup();
	good_tree();
	link = xasprintf("%s/work/%s", dir, CONF_ACCEPTED);
	snprintf(p, sizeof(p), "%s/work", dir);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), 0);
	/* lsf.conf, lsf.shared, lsf.cluster.c1 and the four lsb.* files. */
	ck_assert_uint_eq(cfg.files.n, 7);
	if (config_save(&cfg, link, &cause) != 0)
		ck_abort_msg("config_save: %s", cause);
	n = readlink(link, target, sizeof(target) - 1);
	ck_assert_int_gt(n, 0);
	target[n] = '\0';
	ck_assert_str_eq(target, CONF_ACCEPTED ".0");

	/* The files on disk break; the copy does not. */
	put(LSB "lsb.queues", "not lsb.queues\n");
	unload(&cfg, &d);
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), -1);
	ck_assert(has_msg(&d, "lsb.queues", 1, "outside any Begin/End"));
	conf_diag_init(&ds);
	if (config_load_saved(&sv, link, CONF_ALL, &ds) != 0)
		dump_diag(&ds);
	ck_assert_int_eq(ds.nerrors, 0);
	ck_assert_int_eq(ds.nwarnings, 0);
	ck_assert_uint_eq(sv.loaded, CONF_ALL);
	ck_assert_str_eq(sv.cluster.name, "c1");
	ck_assert_ptr_nonnull(config_queue(&sv, "normal"));
	/* What it points at (LSF_CONFDIR, LSB_SHAREDIR) is unchanged; every
	 * file came from the copy. */
	ck_assert(str_ends(sv.lsf.confdir, "/conf"));
	for (size_t i = 0; i < sv.files.n; i++)
		ck_assert_msg(strstr(sv.files.v[i], CONF_ACCEPTED "/") != NULL,
		    "%s read from outside the copy", sv.files.v[i]);
	ck_assert_uint_eq(sv.files.n, 7);

	/* A second save goes to the other directory, and drops files no
	 * longer read. */
	snprintf(p, sizeof(p), "%s/" LSB "lsb.users", dir);
	ck_assert_int_eq(unlink(p), 0);
	put(LSB "lsb.queues", queues_text);
	unload(&cfg, &d);
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), 0);
	ck_assert_int_eq(config_save(&cfg, link, &cause), 0);
	n = readlink(link, target, sizeof(target) - 1);
	target[n] = '\0';
	ck_assert_str_eq(target, CONF_ACCEPTED ".1");
	snprintf(p, sizeof(p), "%s/lsb.queues", link);
	ck_assert_int_eq(access(p, F_OK), 0);
	snprintf(p, sizeof(p), "%s/lsb.users", link);
	ck_assert_int_eq(access(p, F_OK), -1);
	ck_assert_int_eq(config_save(&cfg, link, &cause), 0);
	n = readlink(link, target, sizeof(target) - 1);
	target[n] = '\0';
	ck_assert_str_eq(target, CONF_ACCEPTED ".0");
	ck_assert_int_eq(access(p, F_OK), -1);

	config_release(&sv);
	conf_diag_release(&ds);
	unload(&cfg, &d);
	free(link);
	teardown();
}
END_TEST

START_TEST(test_lsb_host_lookup)
{
	struct lsf_config cfg;
	struct conf_diag d;

	setup();
	good_tree();
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), 0);
	/* Its own row. */
	ck_assert_str_eq(config_lsb_host(&cfg, "h1", NULL, NULL)->name, "h1");
	/* The configured model (h2 is "Old"), or the one given. */
	ck_assert_str_eq(config_lsb_host(&cfg, "h2", NULL, NULL)->name, "Old");
	ck_assert_str_eq(config_lsb_host(&cfg, "h3", "Old", NULL)->name,
	    "Old");
	/* A type. */
	ck_assert_str_eq(config_lsb_host(&cfg, "h3", NULL, "LINUX64")->name,
	    "LINUX64");
	/* Then default. */
	ck_assert_str_eq(config_lsb_host(&cfg, "h3", NULL, NULL)->name,
	    "default");
	ck_assert_str_eq(config_lsb_host(&cfg, "unknown", "X", "Y")->name,
	    "default");
	unload(&cfg, &d);

	/* Without a default row there may be nothing. */
	put(LSB "lsb.hosts", "Begin Host\nHOST_NAME MXJ\nh1 1\nEnd Host\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), 0);
	ck_assert_ptr_null(config_lsb_host(&cfg, "h3", NULL, NULL));
	ck_assert_ptr_nonnull(config_lsb_host(&cfg, "H1", NULL, NULL));
	unload(&cfg, &d);
	teardown();
}
END_TEST

static bool
list_is(const struct strv *v, const char *want)
{
	char *s = strv_join(v, " ");
	bool eq = strcmp(s, want) == 0;

	if (!eq)
		fprintf(stderr, "got \"%s\", want \"%s\"\n", s, want);
	free(s);
	return eq;
}

static void
expand(const struct lsf_config *cfg, const char *in, const char *want,
    const char *want_bad)
{
	struct strv i = STRV_INIT, o = STRV_INIT, b = STRV_INIT;

	strv_split_ws(&i, in);
	config_expand_hosts(cfg, &i, &o, &b);
	ck_assert_msg(list_is(&o, want), "expand %s", in);
	ck_assert_msg(list_is(&b, want_bad), "bad of %s", in);
	strv_release(&i);
	strv_release(&o);
	strv_release(&b);
}

START_TEST(test_expand_hosts)
{
	struct lsf_config cfg;
	struct conf_diag d;
	struct strv i = STRV_INIT, o = STRV_INIT;

	setup();
	good_tree();
	{
		char *t = xasprintf("%sBegin HostGroup\n"
		    "GROUP_NAME GROUP_MEMBER\n"
		    "loop1 (h1 loop2)\nloop2 (h2 loop1)\nEnd HostGroup\n",
		    hosts_text);

		put(LSB "lsb.hosts", t);
		free(t);
	}
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), -1);
	/* loop1/loop2 contain each other: reported, but usable. */
	ck_assert(has_msg(&d, "lsb.hosts", 17, "loop1 contains itself"));
	expand(&cfg, "all", "h1 h2 h3 h4", "");
	expand(&cfg, "all ~h2", "h1 h3 h4", "");
	expand(&cfg, "h3 H1", "h3 h1", "");
	expand(&cfg, "g12", "h1 h2", "");
	expand(&cfg, "gnest", "h1 h2 h3", "");
	expand(&cfg, "gall", "h1 h3 h4", "");
	expand(&cfg, "all ~g12", "h3 h4", "");
	expand(&cfg, "h4+2 g12+1 others", "h4 h1 h2 h3", "");
	expand(&cfg, "h3 others+1 h1", "h3 h2 h4 h1", "");
	expand(&cfg, "others ~h4", "h1 h2 h3", "");
	expand(&cfg, "loop1", "h1 h2", "");
	expand(&cfg, "h1 nosuch client ~ghost", "h1", "nosuch client ghost");
	expand(&cfg, "none", "", "");
	expand(&cfg, "", "", "");
	/* The "+N" levels: a group's for its members, "others+N" for the
	 * rest, the higher one for a host named twice. */
	{
		static const struct {
			const char	*in, *out;
			int		 pref[4];
		} t[] = {
			{ "h4+2 g12+1 others", "h4 h1 h2 h3", { 2, 1, 1, 0 } },
			{ "h3 others+ h1", "h3 h2 h4 h1", { 0, 1, 1, 0 } },
			{ "gnest+3 h2+5", "h1 h2 h3", { 3, 5, 3, 0 } },
			{ "all ~h1 h3+1", "h2 h3 h4", { 0, 1, 0, 0 } },
		};

		for (size_t k = 0; k < ARRAY_SIZE(t); k++) {
			int *pref = NULL;

			strv_split_ws(&i, t[k].in);
			config_expand_hosts_pref(&cfg, &i, &o, &pref, NULL);
			ck_assert_msg(list_is(&o, t[k].out), "pref %s",
			    t[k].in);
			for (size_t n = 0; n < o.n; n++)
				ck_assert_msg(pref[n] == t[k].pref[n],
				    "%s: %s at level %d", t[k].in, o.v[n],
				    pref[n]);
			free(pref);
			strv_release(&i);
			strv_release(&o);
		}
	}
	/* bad may be NULL; out is appended to. */
	strv_push(&o, "x");
	strv_split_ws(&i, "h2 junk");
	config_expand_hosts(&cfg, &i, &o, NULL);
	ck_assert(list_is(&o, "x h2"));
	strv_release(&i);
	strv_release(&o);
	unload(&cfg, &d);
	teardown();
}
END_TEST

START_TEST(test_missing_lsb)
{
	struct lsf_config cfg;
	struct conf_diag d;

	setup();
	good_tree();
	unlink(at(LSB "lsb.params"));
	unlink(at(LSB "lsb.queues"));
	unlink(at(LSB "lsb.hosts"));
	unlink(at(LSB "lsb.users"));
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), 0);
	ck_assert_int_eq(d.nwarnings, 2);
	ck_assert(has_msg(&d, "lsb.params", 0, "not found"));
	ck_assert(has_msg(&d, "lsb.queues", 0, "not found"));
	ck_assert_int_eq(cfg.nqueues, 1);
	ck_assert_str_eq(cfg.queues[0].name, "default");
	ck_assert_int_eq(cfg.queues[0].priority, 1);
	ck_assert_int_eq(cfg.nbhosts, 0);
	ck_assert_int_eq(cfg.params.clean_period, 3600);
	unload(&cfg, &d);

	/* A file without queues also gets "default". */
	put(LSB "lsb.queues", "# nothing\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), 0);
	ck_assert(has_msg(&d, "lsb.queues", 0, "no queue defined"));
	ck_assert_str_eq(cfg.queues[0].name, "default");
	unload(&cfg, &d);

	/* Parts: CONF_CLUSTER reads no lsb file. */
	ck_assert_int_eq(load(&cfg, &d, CONF_CLUSTER), 0);
	ck_assert_int_eq(d.nwarnings, 0);
	ck_assert_uint_eq(cfg.loaded, CONF_LSF | CONF_SHARED | CONF_CLUSTER);
	ck_assert_int_eq(cfg.nqueues, 0);
	unload(&cfg, &d);
	teardown();
}
END_TEST

/* bad files, each message naming file and line */

START_TEST(test_bad_queues)
{
	struct lsf_config cfg;
	struct conf_diag d;

	setup();
	good_tree();
	put(LSB "lsb.queues",
	    "Begin Queue\n"			/* 1 */
	    "PRIORITY = 3\n"
	    "End Queue\n"
	    "Begin Queue\n"			/* 4 */
	    "QUEUE_NAME = normal\n"
	    "End Queue\n"
	    "Begin Queue\n"			/* 7 */
	    "QUEUE_NAME = normal\n"
	    "End Queue\n"
	    "Begin Queue\n"			/* 10 */
	    "QUEUE_NAME = x\n"
	    "DISPATCH_WINDOW = 8:00-25\n"	/* 12 */
	    "r15s = abc\n"			/* 13 */
	    "WHATEVER = 1\n"			/* 14 */
	    "PRIORITY = -3\n"			/* 15 */
	    "MEMLIMIT = 1 2 3\n"		/* 16 */
	    "CPULIMIT = 1:xx\n"			/* 17 */
	    "TASKLIMIT = 0\n"			/* 18 */
	    "NICE = 5\n"
	    "End Queue\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), -1);
	ck_assert(has_msg(&d, "lsb.queues", 1, "no QUEUE_NAME"));
	ck_assert(has_msg(&d, "lsb.queues", 8, "already defined at line 4"));
	ck_assert(has_msg(&d, "lsb.queues", 12, "DISPATCH_WINDOW"));
	ck_assert(has_msg(&d, "lsb.queues", 13, "threshold r15s"));
	ck_assert(has_msg(&d, "lsb.queues", 14,
	    "warning: queue x: unknown parameter WHATEVER"));
	ck_assert(has_msg(&d, "lsb.queues", 15, "PRIORITY"));
	ck_assert(has_msg(&d, "lsb.queues", 16, "MEMLIMIT"));
	ck_assert(has_msg(&d, "lsb.queues", 17, "CPULIMIT"));
	ck_assert(has_msg(&d, "lsb.queues", 18, "TASKLIMIT"));
	ck_assert_int_eq(d.nerrors, 8);
	ck_assert_int_eq(d.nwarnings, 1);
	/* The good values of a queue with errors are kept. */
	ck_assert_int_eq(config_queue(&cfg, "x")->nice, 5);
	ck_assert_int_eq(config_queue(&cfg, "x")->priority, 1);
	ck_assert_int_eq(cfg.nqueues, 2);
	unload(&cfg, &d);
	teardown();
}
END_TEST

START_TEST(test_queue_dup_keys)
{
	struct lsf_config cfg;
	struct conf_diag d;
	const struct queue_conf *q;

	setup();
	good_tree();
	put(LSB "lsb.queues", "Begin Queue\n"
	    "QUEUE_NAME = normal\n"
	    "pg = 15/\n"
	    "PRIORITY = 4\n"
	    "pg = /8\n"			/* 5: replaces line 3 */
	    "PRIORITY = 7\n"			/* 6 */
	    "HOSTS = h1\n"
	    "HOSTS = all\n"			/* 8 */
	    "End Queue\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), 0);
	ck_assert_int_eq(d.nwarnings, 3);
	ck_assert(has_msg(&d, "lsb.queues", 5, "already set at line 3"));
	ck_assert(has_msg(&d, "lsb.queues", 6, "already set at line 4"));
	ck_assert(has_msg(&d, "lsb.queues", 8, "already set at line 7"));
	q = config_queue(&cfg, "normal");
	ck_assert_int_eq(q->priority, 7);
	ck_assert_uint_eq(q->thr.sched_set, 0);
	ck_assert_uint_eq(q->thr.stop_set, 1u << LI_PG);
	ck_assert(q->thr.stop[LI_PG] == 8.0f);
	ck_assert_int_eq((int)q->hosts.n, 0);
	ck_assert_int_eq((int)q->keys.n, 7);
	unload(&cfg, &d);
	teardown();
}
END_TEST

START_TEST(test_bad_tables)
{
	struct lsf_config cfg;
	struct conf_diag d;

	setup();
	good_tree();
	put("conf/lsf.cluster.c1",
	    "Begin Host\n"
	    "HOSTNAME model type server\n"
	    "h1 ! ! 1\n"
	    "h1 ! ! 1\n"			/* 4: duplicate */
	    "h2 ! ! 1 extra\n"			/* 5: too many */
	    "End Host\n"
	    "Begin Parameters\n"
	    "EXINTERVAL = soon\n"		/* 8 */
	    "End Parameters\n");
	put(LSB "lsb.hosts",
	    "Begin Host\n"
	    "HOST_NAME MXJ JL/U\n"
	    "h1 1\n"				/* 3: too few */
	    "h2 -1 1\n"				/* 4: bad MXJ */
	    "End Host\n");
	put(LSB "lsb.users",
	    "Begin User\n"
	    "USER_NAME MAX_JOBS JL/P\n"
	    "u1 x -\n"				/* 3 */
	    "End User\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), -1);
	ck_assert(has_msg(&d, "lsf.cluster.c1", 4, "already listed at line 3"));
	ck_assert(has_msg(&d, "lsf.cluster.c1", 5, "5 values for 4 columns"));
	ck_assert(has_msg(&d, "lsf.cluster.c1", 8, "EXINTERVAL"));
	ck_assert(has_msg(&d, "lsb.hosts", 3, "2 values for 3 columns"));
	ck_assert(has_msg(&d, "lsb.hosts", 4, "MXJ"));
	ck_assert(has_msg(&d, "lsb.users", 3, "MAX_JOBS"));
	ck_assert_int_eq(cfg.cluster.nhosts, 1);
	unload(&cfg, &d);

	/* A cluster file without hosts. */
	put("conf/lsf.cluster.c1", "Begin Host\nHOSTNAME\nEnd Host\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_CLUSTER), -1);
	ck_assert(has_msg(&d, "lsf.cluster.c1", 1, "no hosts"));
	unload(&cfg, &d);

	/* lsf.shared: no cluster, bad resource. */
	put("conf/lsf.shared", "Begin Resource\n"
	    "RESOURCENAME TYPE INTERVAL INCREASING DESCRIPTION\n"
	    "foo  Strange () () (x)\n"
	    "End Resource\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), -1);
	ck_assert(has_msg(&d, "lsf.shared", 3, "TYPE of foo"));
	ck_assert(has_msg(&d, "lsf.shared", 0, "no cluster name"));
	ck_assert_uint_eq(cfg.loaded, CONF_LSF);
	unload(&cfg, &d);
	teardown();
}
END_TEST

START_TEST(test_bad_params)
{
	struct lsf_config cfg;
	struct conf_diag d;

	setup();
	good_tree();
	put(LSB "lsb.params", "Begin Parameters\n"
	    "MAX_JOBID = 99999\n"		/* 2: below the minimum */
	    "MBD_SLEEP_TIME = 1O\n"		/* 3 */
	    "FOO = bar\n"			/* 4: warning */
	    "HIST_HOURS = 5\n"			/* known, kept */
	    "JOB_SCHEDULING_INTERVAL = 1500ms\n"
	    "DEFAULT_QUEUE = nosuch\n"		/* 7: warning */
	    "MAX_JOB_ARRAY_SIZE = 2147483647\n"	/* 8 */
	    "End Parameters\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), -1);
	ck_assert(has_msg(&d, "lsb.params", 2, "MAX_JOBID"));
	ck_assert(has_msg(&d, "lsb.params", 3, "MBD_SLEEP_TIME"));
	ck_assert(has_msg(&d, "lsb.params", 4, "unknown parameter FOO"));
	ck_assert(has_msg(&d, "lsb.params", 7, "nosuch"));
	ck_assert(has_msg(&d, "lsb.params", 8, "MAX_JOB_ARRAY_SIZE"));
	ck_assert_int_eq(d.nerrors, 3);
	ck_assert_int_eq(d.nwarnings, 2);
	ck_assert_int_eq(cfg.params.max_jobid, 999999);
	ck_assert_int_eq(cfg.params.job_scheduling_interval, 2);
	ck_assert_int_eq((int)cfg.params.keys.n, 7);
	ck_assert_str_eq(cfg.params.vals.v[3], "5");
	unload(&cfg, &d);
	teardown();
}
END_TEST

/* MAX_PREEXEC_RETRY: how many pre-exec failures end a job. */
START_TEST(test_preexec_retry)
{
	struct lsf_config cfg;
	struct conf_diag d;

	setup();
	good_tree();
	put(LSB "lsb.params", "Begin Parameters\n"
	    "MAX_PREEXEC_RETRY = 3\n"
	    "End Parameters\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), 0);
	ck_assert_int_eq(cfg.params.max_preexec_retry, 3);
	unload(&cfg, &d);
	put(LSB "lsb.params", "Begin Parameters\n"
	    "MAX_PREEXEC_RETRY = 0\n"		/* 2: below the minimum */
	    "End Parameters\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), -1);
	ck_assert(has_msg(&d, "lsb.params", 2, "MAX_PREEXEC_RETRY"));
	ck_assert_int_eq(cfg.params.max_preexec_retry, 5);
	unload(&cfg, &d);
	teardown();
}
END_TEST

/*
 * The queue's and the profile's pre- and post-execution keys, and who
 * wins: LOCAL_MAX_PREEXEC_RETRY of the profile over the queue's over
 * lsb.params', then a MAX_PREEXEC_RETRY given (lsb.params' default 5
 * alone is no limit), else unlimited; the narrowest action.
 */
START_TEST(test_prepost_keys)
{
	struct lsf_config cfg;
	struct conf_diag d;
	const struct queue_conf *q, *q2;
	const struct app_conf *a, *a2;
	int limit, action;

	setup();
	good_tree();
	put(LSB "lsb.params", "Begin Parameters\n"
	    "LOCAL_MAX_PREEXEC_RETRY_ACTION = EXIT\n"
	    "End Parameters\n");
	put(LSB "lsb.queues", "Begin Queue\n"
	    "QUEUE_NAME = q\n"
	    "HOST_PRE_EXEC = /bin/hpre x\n"
	    "HOST_POST_EXEC = /bin/hpost\n"
	    "PRE_POST_EXEC_USER = bin\n"
	    "LOCAL_MAX_PREEXEC_RETRY = 4\n"
	    "LOCAL_MAX_PREEXEC_RETRY_ACTION = suspend\n"
	    "JOB_WARNING_ACTION = URG\n"
	    "JOB_ACTION_WARNING_TIME = 1:30\n"
	    "End Queue\n"
	    "Begin Queue\n"
	    "QUEUE_NAME = r\n"			/* 12 */
	    "MAX_PREEXEC_RETRY = 6\n"
	    "JOB_WARNING_ACTION = CHKPNT\n"	/* 14: no time */
	    "End Queue\n");
	put(LSB "lsb.applications", "Begin Application\n"
	    "NAME = a\n"
	    "PRE_EXEC = /bin/apre\n"
	    "POST_EXEC = /bin/apost\n"
	    "LOCAL_MAX_PREEXEC_RETRY = 2\n"
	    "JOB_WARNING_ACTION = SIGUSR2\n"
	    "End Application\n"
	    "Begin Application\n"
	    "NAME = b\n"
	    "End Application\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), 0);
	ck_assert(has_msg(&d, "lsb.queues", 11, "JOB_WARNING_ACTION has no "
	    "effect without JOB_ACTION_WARNING_TIME"));
	q = config_queue(&cfg, "q");
	q2 = config_queue(&cfg, "r");
	a = config_app(&cfg, "a");
	a2 = config_app(&cfg, "b");
	ck_assert_ptr_nonnull(q);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(q->pp.host_pre_exec, "/bin/hpre x");
	ck_assert_str_eq(q->pp.host_post_exec, "/bin/hpost");
	ck_assert_str_eq(q->pp.prepost_user, "bin");
	ck_assert_str_eq(q->pp.warning_action, "URG");
	ck_assert_int_eq(q->pp.warning_time, 90 * 60);
	ck_assert_str_eq(a->pre_exec, "/bin/apre");
	ck_assert_str_eq(a->post_exec, "/bin/apost");
	ck_assert_int_eq(a->pp.warning_time, -1);
	/* The profile's limit, the queue's action. */
	preexec_retry_policy(&cfg.params, q, a, &limit, &action);
	ck_assert_int_eq(limit, 2);
	ck_assert_int_eq(action, PREEXEC_ACT_SUSPEND);
	/* The queue's limit. */
	preexec_retry_policy(&cfg.params, q, a2, &limit, &action);
	ck_assert_int_eq(limit, 4);
	/* MAX_PREEXEC_RETRY given in the queue; lsb.params' action. */
	preexec_retry_policy(&cfg.params, q2, a2, &limit, &action);
	ck_assert_int_eq(limit, 6);
	ck_assert_int_eq(action, PREEXEC_ACT_EXIT);
	/* Nothing given: unlimited, although lsb.params holds 5. */
	preexec_retry_policy(&cfg.params, q2, NULL, &limit, &action);
	ck_assert_int_eq(limit, 6);
	preexec_retry_policy(&cfg.params, NULL, NULL, &limit, &action);
	ck_assert_int_eq(limit, 0);
	cfg.params.max_preexec_retry_set = true;
	preexec_retry_policy(&cfg.params, NULL, NULL, &limit, &action);
	ck_assert_int_eq(limit, 5);
	cfg.params.local_preexec_retry = 3;
	preexec_retry_policy(&cfg.params, q2, NULL, &limit, &action);
	ck_assert_int_eq(limit, 3);	/* LOCAL_ anywhere before MAX_ */
	unload(&cfg, &d);

	/* Bad values: errors with the line. */
	put(LSB "lsb.queues", "Begin Queue\n"
	    "QUEUE_NAME = q\n"
	    "PRE_POST_EXEC_USER = two users\n"		/* 3 */
	    "LOCAL_MAX_PREEXEC_RETRY = 0\n"		/* 4 */
	    "LOCAL_MAX_PREEXEC_RETRY_ACTION = KILL\n"	/* 5 */
	    "JOB_WARNING_ACTION = NOSUCH\n"		/* 6 */
	    "JOB_ACTION_WARNING_TIME = x\n"		/* 7 */
	    "End Queue\n");
	put(LSB "lsb.applications", "Begin Application\n"
	    "NAME = a\n"
	    "MAX_PREEXEC_RETRY = -1\n"			/* 3 */
	    "End Application\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), -1);
	ck_assert(has_msg(&d, "lsb.queues", 3, "PRE_POST_EXEC_USER"));
	ck_assert(has_msg(&d, "lsb.queues", 4, "LOCAL_MAX_PREEXEC_RETRY"));
	ck_assert(has_msg(&d, "lsb.queues", 5, "SUSPEND or EXIT"));
	ck_assert(has_msg(&d, "lsb.queues", 6, "signal name or CHKPNT"));
	ck_assert(has_msg(&d, "lsb.queues", 7, "JOB_ACTION_WARNING_TIME"));
	ck_assert(has_msg(&d, "lsb.applications", 3, "MAX_PREEXEC_RETRY"));
	unload(&cfg, &d);
	teardown();
}
END_TEST

START_TEST(test_conf_check)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	setup();
	good_tree();
	fp = open_memstream(&buf, &len);
	ck_assert_int_eq(conf_check(dir, CONF_ALL, false, fp), 0);
	fclose(fp);
	/* LSF's shape: no blank lines of an empty list, one after. */
	ck_assert_str_eq(buf, "\nChecking configuration files ...\n\n"
	    "No errors found.\n\n");
	free(buf);

	put(LSB "lsb.queues", "Begin Queue\nQUEUE_NAME = q\nODD = 1\n"
	    "End Queue\n");
	fp = open_memstream(&buf, &len);
	ck_assert_int_eq(conf_check(dir, CONF_ALL, true, fp), 0);
	fclose(fp);
	ck_assert(strstr(buf, "Reading ") != NULL);
	ck_assert(strstr(buf, "lsb.queues:3: warning: queue q: unknown") !=
	    NULL);
	ck_assert(str_ends(buf, "\n\nThere are warning errors.\n\n"));
	free(buf);

	put(LSB "lsb.queues", "Begin Queue\nQUEUE_NAME = q\nPRIORITY = x\n"
	    "End Queue\n");
	fp = open_memstream(&buf, &len);
	ck_assert_int_eq(conf_check(dir, CONF_ALL, false, fp), 1);
	fclose(fp);
	ck_assert(strstr(buf, "lsb.queues:3: queue q: bad PRIORITY") != NULL);
	ck_assert(str_ends(buf, "\n\nThere are fatal errors.\n\n"));
	free(buf);
	teardown();
}
END_TEST

/* values */

static const struct {
	const char	*s;
	const char	*unit;
	long long	 kb;		/* -1: rejected */
} mem_cases[] = {
	{ "100", NULL, 100 }, { "100", "KB", 100 }, { "100", "MB", 102400 },
	{ "2", "GB", 2097152 }, { "1.5GB", "KB", 1572864 },
	{ "1000.0", "KB", 1000 }, { "0.1MB", NULL, 103 }, { "1B", NULL, 1 },
	{ "1024b", NULL, 1 }, { "1025B", NULL, 2 }, { "10k", "MB", 10 },
	{ "10K", NULL, 10 }, { "3m", NULL, 3072 }, { "1t", NULL, 1073741824 },
	{ "1ZB", NULL, 1152921504606846976LL }, { "8ZB", NULL, -1 },
	{ "1pb", "KB", 1099511627776LL }, { "1EB", NULL, 1125899906842624LL },
	{ "0", "GB", 0 }, { ".5", "MB", 512 }, { "5.", "KB", 5 },
	{ "-5", NULL, -1 }, { "abc", NULL, -1 }, { "", NULL, -1 },
	{ "5XB", NULL, -1 }, { "5 MB", NULL, -1 }, { "1e3", NULL, -1 },
	{ "inf", NULL, -1 }, { "0x10", NULL, -1 }, { ".", NULL, -1 },
	{ "1.2.3", NULL, -1 }, { "5KBB", NULL, -1 }, { "5", "QB", -1 },
	{ "99999999999999999999999", NULL, -1 },
};

START_TEST(test_mem_kb)
{
	long long kb = 42;
	int rc = parse_mem_kb(mem_cases[_i].s, mem_cases[_i].unit, &kb);

	if (mem_cases[_i].kb < 0) {
		ck_assert_msg(rc == -1, "\"%s\" accepted", mem_cases[_i].s);
	} else {
		ck_assert_msg(rc == 0, "\"%s\" rejected", mem_cases[_i].s);
		ck_assert_msg(kb == mem_cases[_i].kb, "\"%s\": %lld",
		    mem_cases[_i].s, kb);
	}
}
END_TEST

START_TEST(test_time_limit)
{
	static const struct {
		const char	*s;
		long long	 min;
	} c[] = {
		{ "60", 60 }, { "0", 0 }, { "1:30", 90 }, { "1:30/h1", 90 },
		{ "00:05", 5 }, { "100:00", 6000 }, { "90/Xeon", 90 },
		{ "1:60", -1 }, { "abc", -1 }, { "", -1 }, { ":30", -1 },
		{ "1:", -1 }, { "60/", -1 }, { "-5", -1 }, { "1:2:3", -1 },
		{ "1.5", -1 }, { "1 ", -1 }, { "9999999999", -1 },
	};
	long long m;

	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		m = -7;
		if (c[i].min < 0) {
			ck_assert_msg(parse_time_limit(c[i].s, &m) == -1,
			    "\"%s\" accepted", c[i].s);
		} else {
			ck_assert_msg(parse_time_limit(c[i].s, &m) == 0,
			    "\"%s\" rejected", c[i].s);
			ck_assert_int_eq(m, c[i].min);
		}
	}
	ck_assert_int_eq(parse_time_limit(NULL, &m), -1);
	ck_assert_int_eq(parse_mem_kb(NULL, NULL, &m), -1);
}
END_TEST

/* PEND_TIME_LIMIT and ELIGIBLE_PEND_TIME_LIMIT: [hour:]minute at each
 * level, the narrowest set one winning; a bad value an error at its
 * line. */
START_TEST(test_pend_limits)
{
	struct lsf_config cfg;
	struct conf_diag d;
	long long m = -7;

	ck_assert_ptr_null(conf_pend_limit("3:30", &m));
	ck_assert_int_eq(m, 210);
	ck_assert_ptr_null(conf_pend_limit("210", &m));
	ck_assert_int_eq(m, 210);
	ck_assert_ptr_nonnull(conf_pend_limit("0", &m));
	ck_assert_ptr_nonnull(conf_pend_limit("10/hosta", &m));
	ck_assert_ptr_nonnull(conf_pend_limit("soon", &m));
	ck_assert_int_eq(m, 210);
	/* job > application > queue > cluster; -1 a level without. */
	ck_assert_int_eq(pend_limit_effective(5, 10, 20, 30), 5);
	ck_assert_int_eq(pend_limit_effective(-1, 10, 20, 30), 10);
	ck_assert_int_eq(pend_limit_effective(-1, -1, 20, 30), 20);
	ck_assert_int_eq(pend_limit_effective(-1, -1, -1, 30), 30);
	ck_assert_int_eq(pend_limit_effective(-1, -1, -1, -1), -1);

	setup();
	good_tree();
	put(LSB "lsb.params", "Begin Parameters\n"
	    "PEND_TIME_LIMIT = 2:00\n"			/* 2 */
	    "ELIGIBLE_PEND_TIME_LIMIT = x\n"		/* 3 */
	    "End Parameters\n");
	put(LSB "lsb.queues", "Begin Queue\nQUEUE_NAME = normal\n"
	    "PEND_TIME_LIMIT = 30\n"			/* 3 */
	    "ELIGIBLE_PEND_TIME_LIMIT = 1:15\n"
	    "End Queue\n"
	    "Begin Queue\nQUEUE_NAME = other\n"
	    "PEND_TIME_LIMIT = 0\n"			/* 8 */
	    "End Queue\n");
	put(LSB "lsb.applications", "Begin Application\nNAME = app1\n"
	    "PEND_TIME_LIMIT = 45\n"
	    "ELIGIBLE_PEND_TIME_LIMIT = 1:2:3\n"		/* 4 */
	    "End Application\n");
	ck_assert_int_eq(load(&cfg, &d, CONF_ALL), -1);
	ck_assert(has_msg(&d, "lsb.params", 3, "ELIGIBLE_PEND_TIME_LIMIT"));
	ck_assert(has_msg(&d, "lsb.queues", 8, "PEND_TIME_LIMIT"));
	ck_assert(has_msg(&d, "lsb.applications", 4,
	    "ELIGIBLE_PEND_TIME_LIMIT"));
	ck_assert_int_eq(d.nerrors, 3);
	ck_assert_int_eq(cfg.params.pend_time_limit, 120);
	ck_assert_int_eq(cfg.params.eligible_pend_time_limit, -1);
	ck_assert_int_eq(config_queue(&cfg, "normal")->pend_time_limit, 30);
	ck_assert_int_eq(
	    config_queue(&cfg, "normal")->eligible_pend_time_limit, 75);
	ck_assert_int_eq(config_queue(&cfg, "other")->pend_time_limit, -1);
	ck_assert_int_eq(cfg.apps[0].pend_time_limit, 45);
	ck_assert_int_eq(cfg.apps[0].eligible_pend_time_limit, -1);
	unload(&cfg, &d);
	teardown();
}
END_TEST

START_TEST(test_threshold)
{
	struct thresholds t;
	const char *why;

	thresholds_init(&t);
	ck_assert(t.sched[LI_R1M] == INFINIT_LOAD);
	ck_assert(t.sched[LI_MEM] == -INFINIT_LOAD);
	ck_assert_int_eq(parse_threshold("0.7/2.0", LI_R1M, &t, &why), 0);
	ck_assert(t.sched[LI_R1M] == 0.7f && t.stop[LI_R1M] == 2.0f);
	ck_assert_int_eq(parse_threshold("15/", LI_PG, &t, &why), 0);
	ck_assert_int_eq(parse_threshold("/10", LI_MEM, &t, &why), 0);
	ck_assert_int_eq(parse_threshold("5", LI_IT, &t, &why), 0);
	ck_assert_int_eq(parse_threshold(" 3 / 4 ", LI_LS, &t, &why), 0);
	ck_assert_uint_eq(t.sched_set, (1u << LI_R1M) | (1u << LI_PG) |
	    (1u << LI_IT) | (1u << LI_LS));
	ck_assert_uint_eq(t.stop_set, (1u << LI_R1M) | (1u << LI_MEM) |
	    (1u << LI_LS));
	/* ut as a percentage or a fraction. */
	ck_assert_int_eq(parse_threshold("70/90", LI_UT, &t, &why), 0);
	ck_assert(t.sched[LI_UT] == 0.7f && t.stop[LI_UT] == 0.9f);
	ck_assert_int_eq(parse_threshold("0.5", LI_UT, &t, &why), 0);
	ck_assert(t.sched[LI_UT] == 0.5f);
	/* "-" and "()" set nothing. */
	ck_assert_int_eq(parse_threshold("-", LI_IO, &t, &why), 0);
	ck_assert_int_eq(parse_threshold("()", LI_IO, &t, &why), 0);
	ck_assert(!(t.sched_set & (1u << LI_IO)));

	ck_assert_int_eq(parse_threshold("/", LI_IO, &t, &why), -1);
	ck_assert_int_eq(parse_threshold("x", LI_IO, &t, &why), -1);
	ck_assert_int_eq(parse_threshold("1/x", LI_IO, &t, &why), -1);
	ck_assert_int_eq(parse_threshold("1/2/3", LI_IO, &t, &why), -1);
	ck_assert_int_eq(parse_threshold("-1", LI_IO, &t, &why), -1);
	ck_assert_int_eq(parse_threshold("150", LI_UT, &t, &why), -1);
	ck_assert_int_eq(parse_threshold("nan", LI_IO, &t, &why), -1);
	ck_assert_int_eq(parse_threshold("1", NLOADIDX, &t, &why), -1);
	ck_assert_int_eq(parse_threshold("1", -1, &t, &why), -1);
	/* A failed parse changes nothing. */
	ck_assert(!(t.sched_set & (1u << LI_IO)));
	ck_assert_ptr_nonnull(why);
}
END_TEST

START_TEST(test_windows)
{
	struct windows w;
	const char *why;

	ck_assert_int_eq(windows_parse(&w, NULL, &why), 0);
	ck_assert(windows_open(&w, 0, 0));
	ck_assert_ptr_null(w.text);
	ck_assert(windows_open(NULL, 3, 100));
	ck_assert_int_eq(windows_parse(&w, "  ", &why), 0);
	ck_assert_int_eq(w.n, 0);
	ck_assert_int_eq(windows_parse(&w, "()", &why), 0);
	ck_assert_int_eq(w.n, 0);

	/* Daily, wrapping past midnight. */
	ck_assert_int_eq(windows_parse(&w, "20:00-8:30", &why), 0);
	ck_assert_str_eq(w.text, "20:00-8:30");
	ck_assert_int_eq(w.w[0].start_day, -1);
	ck_assert_int_eq(w.w[0].start_min, 1200);
	ck_assert_int_eq(w.w[0].end_min, 510);
	ck_assert(windows_open(&w, 2, 20 * 60));
	ck_assert(windows_open(&w, 2, 23 * 60 + 59));
	ck_assert(windows_open(&w, 3, 0));
	ck_assert(windows_open(&w, 3, 8 * 60 + 29));
	ck_assert(!windows_open(&w, 3, 8 * 60 + 30));
	ck_assert(!windows_open(&w, 3, 12 * 60));
	ck_assert(!windows_open(&w, 3, 19 * 60 + 59));
	windows_release(&w);

	/* Hours only, parenthesised, two windows. */
	ck_assert_int_eq(windows_parse(&w, "(8-12 13-17)", &why), 0);
	ck_assert_int_eq(w.n, 2);
	ck_assert_str_eq(w.text, "8-12 13-17");
	ck_assert(windows_open(&w, 1, 8 * 60));
	ck_assert(!windows_open(&w, 1, 12 * 60 + 30));
	ck_assert(windows_open(&w, 1, 16 * 60 + 59));
	ck_assert(!windows_open(&w, 1, 17 * 60));
	windows_release(&w);

	/* 24:00 ends a day. */
	ck_assert_int_eq(windows_parse(&w, "18:00-24:00", &why), 0);
	ck_assert(windows_open(&w, 0, 23 * 60 + 59));
	ck_assert(!windows_open(&w, 0, 0));
	windows_release(&w);

	/* Weekly: Friday 19:00 to Monday 08:30 wraps round the week. */
	ck_assert_int_eq(windows_parse(&w, "5:19:00-1:8:30", &why), 0);
	ck_assert_int_eq(w.w[0].start_day, 5);
	ck_assert_int_eq(w.w[0].end_day, 1);
	ck_assert(!windows_open(&w, 5, 18 * 60));
	ck_assert(windows_open(&w, 5, 19 * 60));
	ck_assert(windows_open(&w, 6, 12 * 60));
	ck_assert(windows_open(&w, 0, 12 * 60));
	ck_assert(windows_open(&w, 1, 8 * 60));
	ck_assert(!windows_open(&w, 1, 9 * 60));
	ck_assert(!windows_open(&w, 3, 12 * 60));
	/* Out-of-range arguments wrap rather than read past anything. */
	ck_assert(windows_open(&w, 7 + 6, 12 * 60));
	ck_assert(windows_open(&w, -1, 12 * 60));
	windows_release(&w);

	/* Weekly without wrap. */
	ck_assert_int_eq(windows_parse(&w, "1:9:00-5:17:00", &why), 0);
	ck_assert(windows_open(&w, 3, 0));
	ck_assert(!windows_open(&w, 6, 10 * 60));
	ck_assert(!windows_open(&w, 1, 8 * 60));
	windows_release(&w);

	static const char *const bad[] = {
		"25:00-1:00", "8:60-9:00", "7:8:00-1:9:00", "1:8:00-9:00",
		"8:00-8:00", "abc", "8:00", "8:00-9:00-10:00", "8:00-", "-9",
		"24:00-8:00", "24:30-1", "1:2:3:4-5", "8:-9", "a-b",
		"8:00-9:00 bad", "(8-9", "99999-1",
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		why = NULL;
		ck_assert_msg(windows_parse(&w, bad[i], &why) == -1,
		    "\"%s\" accepted", bad[i]);
		ck_assert_ptr_nonnull(why);
		ck_assert_int_eq(w.n, 0);
		ck_assert_ptr_null(w.w);
	}
}
END_TEST

START_TEST(test_diag)
{
	struct conf_diag d;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	conf_diag_init(&d);
	conf_diag_error(&d, "/a/f", 3, "bad %s", "thing");
	conf_diag_warn(&d, "/a/f", 0, "whole file");
	conf_diag_error(&d, NULL, 0, "no file");
	conf_diag_error(NULL, "/a/f", 1, "ignored");
	ck_assert_int_eq(d.nerrors, 2);
	ck_assert_int_eq(d.nwarnings, 1);
	fp = open_memstream(&buf, &len);
	conf_diag_print(&d, fp);
	fclose(fp);
	ck_assert_str_eq(buf, "/a/f:3: bad thing\n"
	    "/a/f: warning: whole file\n"
	    "no file\n");
	free(buf);
	conf_diag_release(&d);
}
END_TEST

/*
 * Damaged copies of good files must never crash or leak (run under
 * SANITIZE=address,undefined): flip, drop and duplicate bytes at random.
 */
START_TEST(test_fuzz)
{
	static const struct {
		const char	*rel;
		const char	*text;
	} files[] = {
		{ "conf/lsf.shared", shared_text },
		{ "conf/lsf.cluster.c1", cluster_text },
		{ LSB "lsb.hosts", hosts_text },
		{ LSB "lsb.queues", queues_text },
		{ LSB "lsb.params", params_text },
		{ LSB "lsb.users", users_text },
	};
	static const char noise[] = "()[]\"'#\\/=-~+!: \n\tx9";
	unsigned seed = 12345;
	/* CONF_FUZZ_ITERS=100000 for a longer run by hand. */
	int iters = getenv("CONF_FUZZ_ITERS") ?
	    atoi(getenv("CONF_FUZZ_ITERS")) : 400;
	FILE *null;

	/* CONF_FUZZ_SEED tries other damage. */
	if (getenv("CONF_FUZZ_SEED"))
		seed = (unsigned)atoi(getenv("CONF_FUZZ_SEED"));
	setup();
	null = fopen("/dev/null", "w");
	ck_assert_ptr_nonnull(null);
	for (int iter = 0; iter < iters; iter++) {
		size_t f = (size_t)iter % ARRAY_SIZE(files);
		size_t n = strlen(files[f].text);
		char *t = xmalloc(n * 2 + 1);
		struct lsf_config cfg;
		struct conf_diag d;
		size_t o = 0;

		good_tree();
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			switch ((seed >> 16) % 40) {
			case 0:
				break;				/* drop */
			case 1:
				t[o++] = noise[(seed >> 8) %
				    (sizeof(noise) - 1)];	/* replace */
				break;
			case 2:
				t[o++] = files[f].text[i];	/* double */
				t[o++] = files[f].text[i];
				break;
			default:
				t[o++] = files[f].text[i];
			}
		}
		t[o] = '\0';
		put(files[f].rel, t);
		free(t);
		(void)load(&cfg, &d, CONF_ALL);
		config_dump(&cfg, null);
		unload(&cfg, &d);
	}
	fclose(null);
	teardown();
}
END_TEST

static Suite *
conf_suite(void)
{
	Suite *s = suite_create("conf");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_diag);
	tcase_add_test(tc, test_lex_lines);
	tcase_add_test(tc, test_lex_directives);
	tcase_add_test(tc, test_lex_values);
	tcase_add_test(tc, test_lex_sections);
	tcase_add_test(tc, test_save_and_load_saved);
	tcase_add_test(tc, test_lsf_conf);
	tcase_add_test(tc, test_lsf_conf_bad);
	tcase_add_test(tc, test_good_tree);
	tcase_add_test(tc, test_lsb_host_lookup);
	tcase_add_test(tc, test_expand_hosts);
	tcase_add_test(tc, test_missing_lsb);
	tcase_add_test(tc, test_bad_queues);
	tcase_add_test(tc, test_queue_dup_keys);
	tcase_add_test(tc, test_bad_tables);
	tcase_add_test(tc, test_bad_params);
	tcase_add_test(tc, test_preexec_retry);
	tcase_add_test(tc, test_prepost_keys);
	tcase_add_test(tc, test_conf_check);
	tcase_add_loop_test(tc, test_mem_kb, 0, (int)ARRAY_SIZE(mem_cases));
	tcase_add_test(tc, test_time_limit);
	tcase_add_test(tc, test_pend_limits);
	tcase_add_test(tc, test_threshold);
	tcase_add_test(tc, test_windows);
	tcase_add_test(tc, test_fuzz);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(conf_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
