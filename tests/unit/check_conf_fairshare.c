/*
 * Fairshare in the configuration: the factors of lsb.params and the
 * queues' over them, FAIRSHARE classified against lsb.users, the lists
 * of FAIRSHARE_QUEUES/QUEUE_GROUP once every queue is read, lsb.users
 * USER_SHARES loops and strangers, and lsb.hosts HostPartition.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "conftree.h"
#include "conf-lex.h"

static const char shared_text[] =
    "Begin Cluster\nClusterName\nc1\nEnd Cluster\n"
    "Begin HostType\nTYPENAME\nLINUX64\nEnd HostType\n";

static const char cluster_text[] =
    "Begin ClusterAdmins\nAdministrators = lsfadmin\nEnd ClusterAdmins\n"
    "Begin Host\n"
    "HOSTNAME  model  type  server  RESOURCES\n"
    "h1        !      !     1       ()\n"
    "h2        !      !     1       ()\n"
    "h3        !      !     1       ()\n"
    "h4        !      !     1       ()\n"
    "End Host\n";

static const char users_text[] =
    "Begin UserGroup\n"
    "GROUP_NAME GROUP_MEMBER USER_SHARES\n"
    "bio (ann bob) ([ann, 2] [bob, 1])\n"
    "End UserGroup\n";

/* A tree with the given lsb.params, lsb.queues, lsb.users and
 * lsb.hosts (NULL: a plain one, or none for lsb.hosts). */
static void
tree(const char *params, const char *queues, const char *users,
    const char *hosts)
{
	char *conf;

	tree_make("check_conf_fairshare");
	conf = xasprintf("LSF_CONFDIR=%s/conf\nLSB_SHAREDIR=%s/work\n", dir,
	    dir);
	put("lsf.conf", conf);
	free(conf);
	put("conf/lsf.shared", shared_text);
	put("conf/lsf.cluster.c1", cluster_text);
	put(LSB "lsb.params", params ? params :
	    "Begin Parameters\nEnd Parameters\n");
	put(LSB "lsb.queues", queues);
	put(LSB "lsb.users", users ? users : users_text);
	if (hosts != NULL)
		put(LSB "lsb.hosts", hosts);
}

static int
load(struct lsf_config *cfg, struct conf_diag *d)
{
	conf_diag_init(d);
	return config_load(cfg, dir, CONF_ALL, d);
}

static void
unload(struct lsf_config *cfg, struct conf_diag *d)
{
	config_release(cfg);
	conf_diag_release(d);
	tree_remove();
}

/* A message holding "<file>:<line>: " and why. */
static bool
has_msg(const struct conf_diag *d, const char *file, int line,
    const char *why)
{
	char *where = xasprintf("/%s:%d: ", file, line);
	bool found = false;

	for (size_t i = 0; i < d->msgs.n && !found; i++)
		found = strstr(d->msgs.v[i], where) != NULL &&
		    strstr(d->msgs.v[i], why) != NULL;
	free(where);
	return found;
}

START_TEST(factor_values)
{
	struct fs_factors f;
	unsigned set = 0;
	const char *why;

	fs_factors_default(&f);
	ck_assert_int_eq(conf_fs_factor("RUN_JOB_FACTOR", "2.5", &f, &set,
	    &why), 1);
	ck_assert_ptr_null(why);
	ck_assert(fabs(f.run_job - 2.5) < 1e-12);
	ck_assert_uint_eq(set, FSF_RUN_JOB);
	ck_assert_int_eq(conf_fs_factor("hist_hours", " 0 ", &f, &set, &why),
	    1);
	ck_assert_ptr_null(why);
	ck_assert(f.hist_hours == 0);
	ck_assert_uint_eq(set, FSF_RUN_JOB | FSF_HIST_HOURS);
	/* An empty value sets nothing. */
	ck_assert_int_eq(conf_fs_factor("CPU_TIME_FACTOR", "", &f, &set,
	    &why), 1);
	ck_assert_ptr_null(why);
	ck_assert(fabs(f.cpu_time - 0.7) < 1e-12);
	ck_assert_uint_eq(set, FSF_RUN_JOB | FSF_HIST_HOURS);
	/* Bad values leave the factor and its bit alone. */
	static const char *const bad[] = { "-1", "x", "1 2", "nan", "inf",
	    "1e10", "3x" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		ck_assert_int_eq(conf_fs_factor("RUN_TIME_FACTOR", bad[i], &f,
		    &set, &why), 1);
		ck_assert_msg(why != NULL, "%s accepted", bad[i]);
	}
	ck_assert(fabs(f.run_time - 0.7) < 1e-12);
	ck_assert_uint_eq(set & FSF_RUN_TIME, 0);
	ck_assert_int_eq(conf_fs_factor("COMMITTED_RUN_TIME_FACTOR", "1", &f,
	    &set, &why), 0);
}
END_TEST

/* lsb.params' factors, and a queue's over them whichever comes first. */
START_TEST(factor_merge)
{
	struct lsf_config cfg;
	struct conf_diag d;
	const struct queue_conf *q;

	tree("Begin Parameters\n"
	    "CPU_TIME_FACTOR = 0.5\n"
	    "RUN_JOB_FACTOR = 4\n"
	    "HIST_HOURS = 10\n"
	    "ENABLE_HIST_RUN_TIME = Y\n"
	    "End Parameters\n",
	    "Begin Queue\nQUEUE_NAME = a\n"
	    "FAIRSHARE = USER_SHARES[[bio, 2] [bio@, 1] [ann, 3] "
	    "[others, 1]]\n"
	    "RUN_JOB_FACTOR = 1\nHIST_HOURS = 0\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = b\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = c\n"
	    "FAIRSHARE = USER_SHARES[[default, 1]]\n"
	    "ENABLE_HIST_RUN_TIME = n\nRUN_TIME_DECAY = Y\nEnd Queue\n",
	    NULL, NULL);
	ck_assert_int_eq(load(&cfg, &d), 0);
	ck_assert(cfg.params.hist_run_time);
	ck_assert(cfg.params.fs_factors.hist_run);
	ck_assert(fabs(cfg.params.fs_factors.run_time - 0.7) < 1e-12);
	q = config_queue(&cfg, "a");
	ck_assert_uint_eq(q->fs_factors_set, FSF_RUN_JOB | FSF_HIST_HOURS);
	ck_assert(fabs(q->fs_factors.cpu_time - 0.5) < 1e-12);
	ck_assert(fabs(q->fs_factors.run_job - 1) < 1e-12);
	ck_assert(q->fs_factors.hist_hours == 0);
	ck_assert(q->fs_factors.hist_run);
	ck_assert_int_eq(q->fs_shares.n, 4);
	ck_assert_int_eq(q->fs_shares.v[0].kind, FS_GROUP);
	ck_assert_int_eq(q->fs_shares.v[1].kind, FS_GROUP_EACH);
	ck_assert_str_eq(q->fs_shares.v[1].name, "bio");
	ck_assert_int_eq(q->fs_shares.v[2].kind, FS_USER);
	ck_assert_int_eq(q->fs_shares.v[3].kind, FS_OTHERS);
	ck_assert_int_eq(q->fairshare_line, 3);
	q = config_queue(&cfg, "b");
	ck_assert_int_eq(q->fs_shares.n, 0);
	ck_assert(fabs(q->fs_factors.run_job - 4) < 1e-12);
	ck_assert(fabs(q->fs_factors.hist_hours - 10) < 1e-12);
	ck_assert(!q->fs_factors.run_decay);
	/* The queue's switches win over lsb.params'. */
	q = config_queue(&cfg, "c");
	ck_assert_uint_eq(q->fs_factors_set, FSF_HIST_RUN | FSF_RUN_DECAY);
	ck_assert(!q->fs_factors.hist_run);
	ck_assert(q->fs_factors.run_decay);
	ck_assert(fabs(q->fs_factors.hist_hours - 10) < 1e-12);
	unload(&cfg, &d);
}
END_TEST

/* The switches: Y or N, an empty value the default. */
START_TEST(factor_switches)
{
	struct fs_factors f;
	unsigned set = 0;
	const char *why;

	fs_factors_default(&f);
	ck_assert(!f.run_decay && !f.hist_run);
	ck_assert_int_eq(conf_fs_factor("run_time_decay", "y", &f, &set,
	    &why), 1);
	ck_assert_ptr_null(why);
	ck_assert(f.run_decay);
	ck_assert_uint_eq(set, FSF_RUN_DECAY);
	ck_assert_int_eq(conf_fs_factor("ENABLE_HIST_RUN_TIME", "", &f, &set,
	    &why), 1);
	ck_assert_ptr_null(why);
	ck_assert_uint_eq(set, FSF_RUN_DECAY);
	ck_assert_int_eq(conf_fs_factor("ENABLE_HIST_RUN_TIME", "maybe", &f,
	    &set, &why), 1);
	ck_assert_ptr_nonnull(why);
	ck_assert(!f.hist_run);
	ck_assert_uint_eq(set, FSF_RUN_DECAY);
}
END_TEST

/* DISPATCH_ORDER: QUEUE in a cross-queue master; anything else an
 * error, and a warning where it cannot act. */
START_TEST(dispatch_order)
{
	struct lsf_config cfg;
	struct conf_diag d;

	tree(NULL,
	    "Begin Queue\nQUEUE_NAME = m\n"			/* 1 */
	    "FAIRSHARE = USER_SHARES[[default, 1]]\n"
	    "FAIRSHARE_QUEUES = c\n"
	    "DISPATCH_ORDER = queue\n"				/* 5 */
	    "End Queue\n"
	    "Begin Queue\nQUEUE_NAME = c\nEnd Queue\n"		/* 7 */
	    "Begin Queue\nQUEUE_NAME = lone\n"			/* 10 */
	    "FAIRSHARE = USER_SHARES[[default, 1]]\n"
	    "DISPATCH_ORDER = QUEUE\n"				/* 13 */
	    "End Queue\n"
	    "Begin Queue\nQUEUE_NAME = bad\n"			/* 15 */
	    "DISPATCH_ORDER = USER\n"				/* 17 */
	    "End Queue\n", NULL, NULL);
	(void)load(&cfg, &d);
	ck_assert(config_queue(&cfg, "m")->dispatch_order_queue);
	ck_assert(!config_queue(&cfg, "c")->dispatch_order_queue);
	ck_assert(!has_msg(&d, "lsb.queues", 5, ""));
	ck_assert(has_msg(&d, "lsb.queues", 13,
	    "DISPATCH_ORDER = QUEUE without FAIRSHARE_QUEUES"));
	ck_assert(has_msg(&d, "lsb.queues", 17, "the only value is QUEUE"));
	ck_assert(!config_queue(&cfg, "bad")->dispatch_order_queue);
	unload(&cfg, &d);
}
END_TEST

START_TEST(fairshare_queues)
{
	struct lsf_config cfg;
	struct conf_diag d;
	const struct queue_conf *q;

	tree(NULL,
	    "Begin Queue\nQUEUE_NAME = m1\n"			/* 1 */
	    "FAIRSHARE = USER_SHARES[[default, 1]]\n"
	    "FAIRSHARE_QUEUES = c1 c2 nosuch\n"			/* 4 */
	    "End Queue\n"
	    "Begin Queue\nQUEUE_NAME = m2\n"			/* 6 */
	    "FAIRSHARE = USER_SHARES[[default, 1]]\n"
	    "QUEUE_GROUP = c2 c3 m1 m2\n"			/* 9 */
	    "End Queue\n"
	    "Begin Queue\nQUEUE_NAME = c1\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = c2\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = c3\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = lone\n"			/* 20 */
	    "QUEUE_GROUP = c3\n"				/* 22 */
	    "End Queue\n", NULL, NULL);
	ck_assert_int_eq(load(&cfg, &d), 0);
	ck_assert(has_msg(&d, "lsb.queues", 4, "nosuch is not a queue"));
	ck_assert(has_msg(&d, "lsb.queues", 9,
	    "c2 is already in the share tree of queue m1"));
	ck_assert(has_msg(&d, "lsb.queues", 9,
	    "m1 has a FAIRSHARE of its own"));
	ck_assert(has_msg(&d, "lsb.queues", 9, "m2 is this queue"));
	ck_assert(has_msg(&d, "lsb.queues", 22,
	    "QUEUE_GROUP without FAIRSHARE"));
	ck_assert_int_eq(d.nerrors, 0);
	ck_assert_int_eq(d.nwarnings, 5);
	q = config_queue(&cfg, "m1");
	ck_assert_int_eq((int)q->fairshare_queues.n, 2);
	ck_assert_str_eq(q->fairshare_queues.v[0], "c1");
	ck_assert_str_eq(q->fairshare_queues.v[1], "c2");
	q = config_queue(&cfg, "m2");
	ck_assert_int_eq((int)q->fairshare_queues.n, 1);
	ck_assert_str_eq(q->fairshare_queues.v[0], "c3");
	ck_assert_int_eq((int)config_queue(&cfg, "lone")->fairshare_queues.n,
	    0);
	unload(&cfg, &d);
}
END_TEST

START_TEST(user_shares_checks)
{
	struct lsf_config cfg;
	struct conf_diag d;

	tree(NULL, "Begin Queue\nQUEUE_NAME = q\nEnd Queue\n",
	    "Begin UserGroup\n"
	    "GROUP_NAME GROUP_MEMBER USER_SHARES\n"
	    "a (b x) ([b, 1] [x, 1] [y, 1] [default, 1])\n"	/* 3 */
	    "b (c) ([c@, 1] [b@, 2] [others, 1])\n"		/* 4 */
	    "c (a) ([a, 1])\n"					/* 5 */
	    "d (a) ([a, 1])\n"					/* 6 */
	    "e (all) ([anyone, 1])\n"				/* 7 */
	    "End UserGroup\n", NULL);
	/* c -> a -> b, and b's c@ is followed no further (each member of
	 * c an account of its own): no loop.  e has all as a member. */
	ck_assert_int_eq(load(&cfg, &d), 0);
	ck_assert(has_msg(&d, "lsb.users", 3,
	    "warning: user group a: USER_SHARES names y, which is not a "
	    "member"));
	ck_assert_int_eq(d.nerrors, 0);
	ck_assert_int_eq(d.nwarnings, 1);
	unload(&cfg, &d);

	tree(NULL, "Begin Queue\nQUEUE_NAME = q\nEnd Queue\n",
	    "Begin UserGroup\n"
	    "GROUP_NAME GROUP_MEMBER USER_SHARES\n"
	    "a (b) ([b, 1])\n"					/* 3 */
	    "b (c) ([c, 1])\n"					/* 4 */
	    "c (a) ([a, 1])\n"					/* 5 */
	    "End UserGroup\n", NULL);
	ck_assert_int_eq(load(&cfg, &d), -1);
	ck_assert(has_msg(&d, "lsb.users", 3,
	    "user group a: USER_SHARES leads back to it (a -> b -> c -> a)"));
	ck_assert_int_eq(d.nerrors, 1);
	unload(&cfg, &d);
}
END_TEST

START_TEST(host_partitions)
{
	struct lsf_config cfg;
	struct conf_diag d;
	const struct host_partition *hp;

	tree(NULL,
	    "Begin Queue\nQUEUE_NAME = fq\n"
	    "FAIRSHARE = USER_SHARES[[default, 1]]\n"		/* 3 */
	    "HOSTS = h2\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = plain\nHOSTS = h1\nEnd Queue\n",
	    NULL,
	    "Begin HostPartition\n"				/* 1 */
	    "HPART_NAME = p1\n"
	    "HOSTS = g1 ghost\n"
	    "USER_SHARES = [[bio, 2] [default, 1]]\n"
	    "End HostPartition\n"
	    "Begin HostGroup\n"
	    "GROUP_NAME GROUP_MEMBER\n"
	    "g1 (h1 h2)\n"
	    "End HostGroup\n");
	ck_assert_int_eq(load(&cfg, &d), 0);
	ck_assert_int_eq(cfg.nhparts, 1);
	hp = &cfg.hparts[0];
	ck_assert_str_eq(hp->name, "p1");
	ck_assert_int_eq(hp->line, 1);
	ck_assert_int_eq((int)hp->hosts.n, 1);
	ck_assert_str_eq(hp->hosts.v[0], "g1");
	ck_assert_str_eq(hp->shares_text, "[[bio, 2] [default, 1]]");
	ck_assert_int_eq(hp->shares.n, 2);
	ck_assert_int_eq(hp->shares.v[0].kind, FS_GROUP);
	ck_assert_int_eq(hp->shares.v[1].kind, FS_DEFAULT);
	ck_assert(has_msg(&d, "lsb.hosts", 1, "HOSTS names ghost"));
	ck_assert(has_msg(&d, "lsb.queues", 3, "queue fq: its hosts are in "
	    "host partition p1"));
	ck_assert_int_eq(d.nwarnings, 2);
	unload(&cfg, &d);

	tree(NULL, "Begin Queue\nQUEUE_NAME = q\nEnd Queue\n", NULL,
	    "Begin HostPartition\nHPART_NAME = p1\nHOSTS = h1 h2\n"
	    "USER_SHARES = [default, 1]\nEnd HostPartition\n"
	    "Begin HostPartition\nHPART_NAME = p2\nHOSTS = all\n"	/* 6 */
	    "USER_SHARES = [default, 1]\nEnd HostPartition\n"
	    "Begin HostPartition\nHPART_NAME = p1\nHOSTS = h4\n"	/* 11 */
	    "USER_SHARES = [default, 1]\nEnd HostPartition\n"
	    "Begin HostPartition\nHPART_NAME = p3\n"		/* 16 */
	    "USER_SHARES = [default, 1]\nEnd HostPartition\n");
	ck_assert_int_eq(load(&cfg, &d), -1);
	ck_assert(has_msg(&d, "lsb.hosts", 6,
	    "host h1 and 1 more are in host partitions p1 (line 1) and p2"));
	ck_assert(has_msg(&d, "lsb.hosts", 12,
	    "host partition p1 is already defined at line 1"));
	ck_assert(has_msg(&d, "lsb.hosts", 16,
	    "host partition p3 has no HOSTS"));
	ck_assert_int_eq(d.nerrors, 3);
	ck_assert_int_eq(cfg.nhparts, 2);
	unload(&cfg, &d);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("conf_fairshare");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, factor_values);
	tcase_add_test(tc, factor_merge);
	tcase_add_test(tc, factor_switches);
	tcase_add_test(tc, dispatch_order);
	tcase_add_test(tc, fairshare_queues);
	tcase_add_test(tc, user_shares_checks);
	tcase_add_test(tc, host_partitions);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
