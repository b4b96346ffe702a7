/*
 * The fairshare adjustment plug-in: the loader (src/fsadjust.c) takes a
 * good library and refuses bad ones with a reason, tames wild values,
 * and the sample (etc/plugins) answers from its file.  The libraries are
 * built beside this test: the sample in build/lib, the bad ones from
 * tests/unit/plugins in build/tests/plugins.
 */
#include <check.h>
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fairshare.h"
#include "fsadjust.h"
#include "policy.h"
#include "util.h"

static char testdir[PATH_MAX];	/* build/tests */
static char envdir[] = "/tmp/check_fsadjust.XXXXXX";

static char *
lib(const char *rel)
{
	return xasprintf("%s/%s", testdir, rel);
}

static void
setup(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	snprintf(testdir, sizeof(testdir), "%s", dirname(exe));
	ck_assert_ptr_nonnull(mkdtemp(envdir));
}

static void
teardown(void)
{
	char *f = xasprintf("%s/fairshare.adjust", envdir);

	unlink(f);
	free(f);
	rmdir(envdir);
}

static void
write_file(const char *text)
{
	char *f = xasprintf("%s/fairshare.adjust", envdir);
	FILE *fp = fopen(f, "w");

	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
	free(f);
}

/* What the sample says of path at now (its tree does not matter). */
static double
ask(struct fsadjust *fa, const char *path, int64_t now)
{
	struct lsf_fs_account a;
	const char *slash = strrchr(path, '/');
	bool bad = false;
	double v;

	memset(&a, 0, sizeof(a));
	a.now = now;
	a.envdir = envdir;
	a.tree = "normal";
	a.path = path;
	a.name = slash ? slash + 1 : path;
	a.leaf = 1;
	a.shares = 1;
	v = fsadjust_call(fa, &a, &bad);
	ck_assert(!bad);
	return v;
}

START_TEST(test_sample)
{
	char *p = lib("../lib/libfairshareadjust.so"), *cause;
	struct fsadjust *fa = fsadjust_open(p, &cause);

	ck_assert_msg(fa != NULL, "%s", cause ? cause : "no file");
	ck_assert_int_eq(fsadjust_version(fa), LSF_FSADJUST_VERSION);
	ck_assert_str_eq(fsadjust_path(fa), p);
	/* No file yet: 0 for everyone. */
	ck_assert(ask(fa, "bio/ann", 100) == 0);

	write_file("# account adjustment\n"
	    "bio/ann\t4\n"
	    "  alice 0.5   # a comment after\n"
	    "carol -1\n"		/* negative: ignored */
	    "dave many\n"		/* not a number: ignored */
	    "erin 2 3\n"		/* more than two: ignored */
	    "frank\n"			/* no value: ignored */
	    "bio 7\n"
	    "bio 1.5\n");		/* the later line counts */
	ck_assert(ask(fa, "bio/ann", 101) == 4);
	ck_assert(ask(fa, "alice", 101) == 0.5);
	ck_assert(ask(fa, "bio", 101) == 1.5);
	ck_assert(ask(fa, "ann", 101) == 0);	/* a path, not a name */
	ck_assert(ask(fa, "bio/bob", 101) == 0);
	ck_assert(ask(fa, "carol", 101) == 0);
	ck_assert(ask(fa, "dave", 101) == 0);
	ck_assert(ask(fa, "erin", 101) == 0);
	ck_assert(ask(fa, "frank", 101) == 0);

	/* Changed: seen at the next second, without a reload. */
	write_file("bio/ann 9\nbio/bob 3\n");
	ck_assert(ask(fa, "bio/ann", 102) == 9);
	ck_assert(ask(fa, "bio/bob", 102) == 3);
	ck_assert(ask(fa, "alice", 102) == 0);
	teardown();
	ck_assert(ask(fa, "bio/ann", 103) == 0);
	fsadjust_close(fa);
	free(p);
}
END_TEST

START_TEST(test_missing)
{
	char *cause = (char *)"x";
	struct fsadjust *fa;

	fa = fsadjust_open("/nonexistent/libfairshareadjust.so", &cause);

	ck_assert_ptr_null(fa);
	ck_assert_ptr_null(cause);
}
END_TEST

static const struct {
	const char	*lib;
	const char	*why;	/* in the cause */
} refused[] = {
	{ "plugins/nofunc.so", "no function lsf_fairshare_adjust" },
	{ "plugins/nover.so", "LSF_FSADJUST_PLUGIN" },
	{ "plugins/oldver.so", "version 2, mbatchd has version 1" },
	{ "check_fsadjust.o", "" },	/* not a library at all */
	{ "plugins", "" },		/* a directory */
};

START_TEST(test_refused)
{
	char *p, *cause;
	struct fsadjust *fa;

	if (strcmp(refused[_i].lib, "check_fsadjust.o") == 0)
		p = lib("unit/check_fsadjust.o");
	else
		p = lib(refused[_i].lib);
	ck_assert_int_eq(access(p, F_OK), 0);
	fa = fsadjust_open(p, &cause);
	ck_assert_ptr_null(fa);
	ck_assert_ptr_nonnull(cause);
	ck_assert_msg(strstr(cause, refused[_i].why) != NULL, "%s", cause);
	free(cause);
	free(p);
}
END_TEST

START_TEST(test_wild)
{
	static const char *const names[] = { "nan", "inf", "neg" };
	char *p = lib("plugins/wild.so"), *cause;
	struct fsadjust *fa = fsadjust_open(p, &cause);
	struct lsf_fs_account a;
	bool bad;

	ck_assert_msg(fa != NULL, "%s", cause ? cause : "no file");
	memset(&a, 0, sizeof(a));
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		a.name = names[i];
		bad = false;
		ck_assert(fsadjust_call(fa, &a, &bad) == 0);
		ck_assert(bad);
	}
	/* The version is set by the call (wild.c gives -1 without it). */
	a.name = "abcd";
	a.started = 3;
	bad = false;
	ck_assert(fsadjust_call(fa, &a, &bad) == 7);
	ck_assert(!bad);
	ck_assert_int_eq(a.version, LSF_FSADJUST_VERSION);
	fsadjust_close(fa);
	free(p);
}
END_TEST

static void
copy(const char *from, const char *to)
{
	char *tmp = xasprintf("%s.tmp", to), buf[4096];
	FILE *in = fopen(from, "rb"), *out = fopen(tmp, "wb");
	size_t n;

	ck_assert(in != NULL && out != NULL);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
	fclose(in);
	ck_assert_int_eq(fclose(out), 0);
	/* A new file, as install(1) makes: never one that is mapped. */
	ck_assert_int_eq(rename(tmp, to), 0);
	free(tmp);
}

/* Closed and opened again, the file now at the path is what loads. */
START_TEST(test_reload)
{
	char *wild = lib("plugins/wild.so");
	char *sample = lib("../lib/libfairshareadjust.so");
	char *p = xasprintf("%s/libfairshareadjust.so", envdir), *cause;
	struct fsadjust *fa;

	copy(wild, p);
	fa = fsadjust_open(p, &cause);
	ck_assert_ptr_nonnull(fa);
	ck_assert(ask(fa, "abcd", 1) == 4);
	fsadjust_close(fa);
	copy(sample, p);
	write_file("abcd 2\n");
	fa = fsadjust_open(p, &cause);
	ck_assert_ptr_nonnull(fa);
	ck_assert(ask(fa, "abcd", 2) == 2);
	fsadjust_close(fa);
	unlink(p);
	free(p);
	free(sample);
	free(wild);
}
END_TEST

/* lsb.users: group bio with shares of its own, group chem without. */
static bool
is_group(const char *name, void *arg)
{
	return strcmp(name, "bio") == 0 || strcmp(name, "chem") == 0;
}

static bool
in_group(const char *user, const char *group, void *arg)
{
	return (strcmp(group, "bio") == 0 && (strcmp(user, "ann") == 0 ||
	    strcmp(user, "neg") == 0)) || (strcmp(group, "chem") == 0 &&
	    strcmp(user, "carl") == 0);
}

static const char *
shares_of(const char *group, void *arg)
{
	return strcmp(group, "bio") == 0 ? "[ann, 3] [neg, 1]" : NULL;
}

/*
 * A tree over every kind of account, through the spy plug-in: each node
 * is asked once, with its own figures (a group's are its members'), and
 * takes the value; the bad one is 0, counted and named.
 */
START_TEST(test_tree)
{
	char *p = lib("plugins/spy.so"), *cause, bad[64];
	const struct lsf_fs_account *(*spy_get)(const char *);
	const struct lsf_fs_account *a;
	struct fs_groups g = { is_group, in_group, shares_of, NULL };
	struct fs_shares sh = { 0 };
	struct lsf_fs_account base;
	struct pol_queue q;
	struct fs_factors f;
	struct fs_tree *t;
	struct fs_node *ann, *carl, *zed;
	struct fsadjust *fa;
	const char *why;
	void *dl;
	int64_t now = 1700000000;

	fa = fsadjust_open(p, &cause);
	ck_assert_msg(fa != NULL, "%s", cause ? cause : "no file");
	/* The same library, for its spy_get. */
	ck_assert_ptr_nonnull(dl = dlopen(p, RTLD_NOW | RTLD_NOLOAD));
	*(void **)&spy_get = dlsym(dl, "spy_get");
	ck_assert_ptr_nonnull(spy_get);

	ck_assert_int_eq(fs_shares_parse("[[bio, 5] [chem, 2] [alice, 4] "
	    "[default, 1]]", &sh, &why), 0);
	fs_factors_default(&f);
	f.adjust = 1;
	t = fs_tree_new("queue/normal", &sh, &f, &g);
	t->nqueues = 1;
	ann = fs_tree_account(t, "ann");
	carl = fs_tree_account(t, "carl");
	zed = fs_tree_account(t, "zed");	/* default: its own leaf */
	ck_assert(ann != NULL && carl != NULL && zed != NULL);
	fs_charge_start(ann, &t->f, 2, now - 3600);
	memset(&q, 0, sizeof(q));
	q.fs = t;
	policy_fs_acct(&q, ann)->npend = 4;
	policy_fs_acct(&q, carl)->npend = 1;

	memset(&base, 0, sizeof(base));
	base.now = now;
	base.envdir = "/etc";
	base.tree = "normal";
	ck_assert_int_eq(fsadjust_tree(fa, t, &base, bad, sizeof(bad)), 1);
	ck_assert_str_eq(bad, "bio/neg");

	ck_assert_ptr_nonnull(a = spy_get("bio/ann"));
	ck_assert_int_eq(a->version, LSF_FSADJUST_VERSION);
	ck_assert(a->now == now);
	ck_assert_str_eq(a->name, "ann");
	ck_assert(!a->group && a->leaf);
	ck_assert_int_eq(a->depth, 2);
	ck_assert_int_eq(a->shares, 3);
	ck_assert_int_eq(a->started, 2);
	ck_assert_int_eq(a->running, 1);
	ck_assert_int_eq(a->pending, 4);
	ck_assert(fabs(a->run_hours - 1) < 1e-9);
	ck_assert(ann->adjust == 3.2);

	ck_assert_ptr_nonnull(a = spy_get("bio"));
	ck_assert(a->group && !a->leaf);
	ck_assert_int_eq(a->depth, 1);
	ck_assert_int_eq(a->shares, 5);
	ck_assert_int_eq(a->started, 2);
	ck_assert_int_eq(a->pending, 4);
	ck_assert(ann->parent->adjust == 5.1);

	ck_assert_ptr_nonnull(a = spy_get("chem"));
	ck_assert(a->group && a->leaf);	/* one account for its members */
	ck_assert_int_eq(a->pending, 1);
	ck_assert(carl->adjust == 2.1);

	ck_assert_ptr_nonnull(a = spy_get("zed"));
	ck_assert(!a->group && a->leaf);
	ck_assert(zed->adjust == 1.1);

	ck_assert_ptr_nonnull(spy_get("alice"));
	ck_assert_ptr_null(spy_get(""));	/* not the root */
	ck_assert(fs_tree_account(t, "neg")->adjust == 0);

	fsadjust_tree_clear(t);
	ck_assert(ann->adjust == 0 && ann->parent->adjust == 0 &&
	    carl->adjust == 0);

	policy_fs_release(&q);
	fs_tree_free(t);
	fs_shares_release(&sh);
	dlclose(dl);
	fsadjust_close(fa);
	free(p);
}
END_TEST

static Suite *
fsadjust_suite(void)
{
	Suite *s = suite_create("fsadjust");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sample);
	tcase_add_test(tc, test_missing);
	tcase_add_loop_test(tc, test_refused, 0, (int)ARRAY_SIZE(refused));
	tcase_add_test(tc, test_wild);
	tcase_add_test(tc, test_reload);
	tcase_add_test(tc, test_tree);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(fsadjust_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
