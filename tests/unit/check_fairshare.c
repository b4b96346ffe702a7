/*
 * Fairshare's pure computation: USER_SHARES as written in lsb.queues and
 * lsb.users, good and bad; which account a user's jobs count against
 * (a user, group@, a group, default, others); decay; and dynamic
 * priorities worked out by hand in the comments.  Share trees: their
 * shape from USER_SHARES and lsb.users (hierarchy, loops, depth), the
 * account of each kind of user, and charges seen by every ancestor.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare.h"

#define EPS	1e-9

static bool
is_group(const char *name, void *arg)
{
	(void)arg;
	return strcmp(name, "bio") == 0 || strcmp(name, "chem") == 0;
}

/* bio: ann, bob; chem: cid. */
static bool
in_group(const char *user, const char *group, void *arg)
{
	(void)arg;
	if (strcmp(group, "bio") == 0)
		return strcmp(user, "ann") == 0 || strcmp(user, "bob") == 0;
	if (strcmp(group, "chem") == 0)
		return strcmp(user, "cid") == 0;
	return false;
}

START_TEST(parse_forms)
{
	struct fs_shares s = { 0 };
	const char *why;

	ck_assert_int_eq(fs_fairshare_parse(
	    "USER_SHARES[[alice, 10] [bio, 5] [default, 1]]", &s, &why), 0);
	ck_assert_int_eq(s.n, 3);
	ck_assert_str_eq(s.v[0].name, "alice");
	ck_assert_int_eq(s.v[0].shares, 10);
	ck_assert_str_eq(s.v[2].name, "default");
	/* lsb.users writes the list without the outer brackets too. */
	ck_assert_int_eq(fs_shares_parse("[ann,2]  [ bob , 3 ]", &s, &why), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_str_eq(s.v[1].name, "bob");
	ck_assert_int_eq(s.v[1].shares, 3);
	fs_shares_release(&s);
}
END_TEST

START_TEST(parse_errors)
{
	static const char *const bad[] = {
		"USER_SHARES[[alice, 10]",		/* missing ] */
		"USER_SHARES[[alice 10]]",		/* no comma */
		"USER_SHARES[[alice, 0]]",		/* not positive */
		"USER_SHARES[[alice, x]]",
		"USER_SHARES[[, 3]]",			/* no name */
		"USER_SHARES[[alice, 1] [alice, 2]]",	/* twice */
		"USER_SHARES[]",			/* nothing */
		"SHARES[[alice, 1]]",			/* not USER_SHARES */
		"USER_SHARES[[alice, 1]] extra",
	};
	struct fs_shares s = { 0 };
	const char *why;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		ck_assert_msg(fs_fairshare_parse(bad[i], &s, &why) == -1,
		    "%s parsed", bad[i]);
		ck_assert_ptr_nonnull(why);
		ck_assert_int_eq(s.n, 0);
	}
}
END_TEST

START_TEST(accounts)
{
	struct fs_shares s = { 0 };
	const char *why;

	ck_assert_int_eq(fs_fairshare_parse("USER_SHARES[[alice, 10] "
	    "[bio, 5] [chem@, 2] [default, 1]]", &s, &why), 0);
	fs_classify(&s, is_group, NULL);
	ck_assert_int_eq(s.v[0].kind, FS_USER);
	ck_assert_int_eq(s.v[1].kind, FS_GROUP);
	ck_assert_int_eq(s.v[2].kind, FS_GROUP_EACH);
	ck_assert_str_eq(s.v[2].name, "chem");
	ck_assert_int_eq(s.v[3].kind, FS_DEFAULT);
	/* alice by name; ann and bob share bio's account; cid has chem@'s
	 * share alone; anyone else the default share alone. */
	ck_assert_int_eq(fs_account_of(&s, "alice", in_group, NULL), 0);
	ck_assert_int_eq(fs_account_of(&s, "ann", in_group, NULL), 1);
	ck_assert_int_eq(fs_account_of(&s, "bob", in_group, NULL), 1);
	ck_assert_int_eq(fs_account_of(&s, "cid", in_group, NULL), 2);
	ck_assert_int_eq(fs_account_of(&s, "dan", in_group, NULL), 3);
	/* Without default or others an unnamed user has no share. */
	ck_assert_int_eq(fs_fairshare_parse("USER_SHARES[[alice, 1] "
	    "[others, 1]]", &s, &why), 0);
	fs_classify(&s, is_group, NULL);
	ck_assert_int_eq(fs_account_of(&s, "dan", in_group, NULL), 1);
	ck_assert_int_eq(fs_fairshare_parse("USER_SHARES[[alice, 1]]", &s,
	    &why), 0);
	fs_classify(&s, is_group, NULL);
	ck_assert_int_eq(fs_account_of(&s, "dan", in_group, NULL), -1);
	fs_shares_release(&s);
}
END_TEST

START_TEST(decay)
{
	/* One hour counts 0.1 hour HIST_HOURS (5) later, 0.01 after 10,
	 * sqrt(0.1) = 0.316... after 2.5. */
	ck_assert_double_eq_tol(fs_decay(1, 5, 5), 0.1, EPS);
	ck_assert_double_eq_tol(fs_decay(1, 10, 5), 0.01, EPS);
	ck_assert_double_eq_tol(fs_decay(1, 2.5, 5), sqrt(0.1), EPS);
	ck_assert_double_eq_tol(fs_decay(7, 0, 5), 7, EPS);
	/* HIST_HOURS = 0: no decay. */
	ck_assert_double_eq_tol(fs_decay(7, 100, 0), 7, EPS);
}
END_TEST

START_TEST(priority)
{
	struct fs_factors f;
	struct fs_node u, v;
	int64_t t0 = 1700000000;

	fs_factors_default(&f);
	memset(&u, 0, sizeof(u));
	u.shares = 10;
	/* Nothing used: 10 / (1 x 3.0) = 3.333... */
	ck_assert_double_eq_tol(fs_node_priority(&u, &f, t0, 0), 10.0 / 3,
	    EPS);
	/* Two slots of one job running for half an hour:
	 * 10 / (0.5 x 0.7 + 3 x 3.0) = 10 / 9.35. */
	fs_charge_start(&u, &f, 2, t0 - 1800);
	ck_assert_double_eq_tol(fs_node_priority(&u, &f, t0, 0), 10 / 9.35,
	    EPS);
	/* That job ends having used 2 CPU hours: 10 / (2 x 0.7 + 3.0) =
	 * 10 / 4.4 at once; five hours later the 2 hours count 0.2:
	 * 10 / (0.2 x 0.7 + 3.0) = 10 / 3.14. */
	fs_charge_end(&u, &f, 2, t0 - 1800, 0, 2, t0);
	ck_assert_double_eq_tol(fs_node_priority(&u, &f, t0, 0), 10 / 4.4,
	    EPS);
	ck_assert_double_eq_tol(fs_node_priority(&u, &f, t0 + 5 * 3600, 0),
	    10 / 3.14, EPS);
	/* One more CPU hour then: 0.2 + 1 = 1.2 hours as of t0 + 5 h. */
	fs_charge_history(&u, &f, 1, t0 + 5 * 3600, 0, 0);
	ck_assert_double_eq_tol(u.cpu_hours, 1.2, EPS);
	/* The adjustment counts only with its factor. */
	u.adjust = 4;
	f.adjust = 0.5;
	ck_assert_double_eq_tol(fs_node_priority(&u, &f, t0 + 5 * 3600, 0),
	    10 / (1.2 * 0.7 + 3.0 + 2.0), EPS);
	/* All factors 0: no division by zero, shares still order. */
	memset(&f, 0, sizeof(f));
	v = u;
	v.shares = 5;
	ck_assert(fs_node_priority(&u, &f, t0, 0) >
	    fs_node_priority(&v, &f, t0, 0));
}
END_TEST

START_TEST(priority_order)
{
	struct fs_factors f;
	struct fs_node a, b;
	int64_t t = 1700000000;

	/* 3:1 shares, both idle: a first.  a runs 3 slots, b 0:
	 * a = 3 / (4 x 3) = 0.25, b = 1 / 3 = 0.333: b's turn. */
	fs_factors_default(&f);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.shares = 3;
	b.shares = 1;
	ck_assert(fs_node_priority(&a, &f, t, 0) >
	    fs_node_priority(&b, &f, t, 0));
	a.slots = 3;
	ck_assert(fs_node_priority(&a, &f, t, 0) <
	    fs_node_priority(&b, &f, t, 0));
	/* b takes one: b = 1 / 6 = 0.167 < a's 0.25: a's turn again, so
	 * slots go 3:1 while both wait. */
	b.slots = 1;
	ck_assert(fs_node_priority(&a, &f, t, 0) >
	    fs_node_priority(&b, &f, t, 0));
}
END_TEST

/*
 * lsb.users for the trees below.  bio and chem are plain groups (as
 * above); phys has USER_SHARES [astro, 3] [hep, 1], and astro its own
 * [eve, 2] [fay, 1] [default, 1]: three levels.  loopy names itself in
 * its shares; ga names gb and gb names ga.  dN (a chain) names d(N+1).
 */
struct group {
	const char	*name;
	const char	*members;	/* " a b c " */
	const char	*shares;	/* lsb.users USER_SHARES, or NULL */
};

static const struct group groups[] = {
	{ "bio",	" ann bob ",			NULL },
	{ "chem",	" cid cal ",			NULL },
	{ "phys",	" eve fay hank gus pat ",
	    "[astro, 3] [hep, 1]" },
	{ "astro",	" eve fay hank ",
	    "[eve, 2] [fay, 1] [default, 1]" },
	{ "hep",	" gus ",			NULL },
	{ "loopy",	" ivy jay ",		"[loopy, 1] [ivy, 2]" },
	{ "ga",		" kim lee ",			"[gb, 1]" },
	{ "gb",		" kim lee ",		"[ga, 1] [kim, 1]" },
};

static const struct group *
group_of(const char *name)
{
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (strcmp(groups[i].name, name) == 0)
			return &groups[i];
	return NULL;
}

/* A chain d0, d1, ... of groups each naming the next: "deep" is in all. */
static bool
is_chain(const char *name)
{
	return name[0] == 'd' && name[1] >= '0' && name[1] <= '9';
}

static bool
t_is_group(const char *name, void *arg)
{
	(void)arg;
	return group_of(name) != NULL || is_chain(name);
}

static bool
t_in_group(const char *user, const char *group, void *arg)
{
	const struct group *g = group_of(group);
	char pat[64];

	(void)arg;
	if (is_chain(group))
		return strcmp(user, "deep") == 0;
	if (g == NULL)
		return false;
	snprintf(pat, sizeof(pat), " %s ", user);
	return strstr(g->members, pat) != NULL;
}

static const char *
t_shares_of(const char *group, void *arg)
{
	static char buf[64];
	const struct group *g = group_of(group);

	(void)arg;
	if (is_chain(group)) {
		snprintf(buf, sizeof(buf), "[d%d, 1]", atoi(group + 1) + 1);
		return buf;
	}
	return g ? g->shares : NULL;
}

static const struct fs_groups tgroups = {
	t_is_group, t_in_group, t_shares_of, NULL
};

static struct fs_tree *
tree(const char *user_shares)
{
	struct fs_shares s = { 0 };
	struct fs_factors f;
	struct fs_tree *t;
	const char *why;

	ck_assert_msg(fs_fairshare_parse(user_shares, &s, &why) == 0,
	    "%s: %s", user_shares, why);
	fs_factors_default(&f);
	t = fs_tree_new("queue/q", &s, &f, &tgroups);
	fs_shares_release(&s);	/* the tree has its copy */
	return t;
}

#define TOP	"USER_SHARES[[alice, 10] [bio, 5] [phys, 4] [chem@, 2] " \
		"[loopy, 1] [ga, 1] [default, 1]]"

static void
walk_paths(struct fs_node *n, void *arg)
{
	char *out = arg, path[256];

	fs_node_path(n, path, sizeof(path));
	snprintf(out + strlen(out), 1024 - strlen(out), "%s%s%s",
	    *out ? "," : "", n->leaf ? "" : "+", path);
}

static void
assert_walk(struct fs_tree *t, const char *want)
{
	char out[1024] = "";

	fs_tree_walk(t, walk_paths, out);
	ck_assert_str_eq(out, want);
}

static struct fs_node *
account(struct fs_tree *t, const char *user, const char *path)
{
	struct fs_node *n = fs_tree_account(t, user);
	char buf[256];

	ck_assert_msg(n != NULL, "%s has no account", user);
	ck_assert(n->leaf);
	fs_node_path(n, buf, sizeof(buf));
	ck_assert_msg(strcmp(buf, path) == 0, "%s: account %s, want %s",
	    user, buf, path);
	return n;
}

START_TEST(tree_shape)
{
	struct fs_tree *t = tree(TOP);

	/* Parents first, siblings in USER_SHARES order ("+" an inner node).
	 * chem@ and default have no leaf until a user is seen.  loopy is an
	 * inner node whose own entry [loopy, 1] is an account (loopy met
	 * again below itself); ga holds gb, whose [ga, 1] is an account. */
	assert_walk(t, "+,alice,bio,+phys,+phys/astro,phys/astro/eve,"
	    "phys/astro/fay,phys/hep,+loopy,loopy/loopy,loopy/ivy,+ga,+ga/gb,"
	    "ga/gb/ga,ga/gb/kim");
	/* alice bio eve fay hep loopy/loopy ivy ga/gb/ga kim */
	ck_assert_int_eq(t->nleaves, 9);
	ck_assert_int_eq(t->root->nkids, 5);
	ck_assert_int_eq(t->root->depth, 0);
	ck_assert_str_eq(t->key, "queue/q");
	/* Each node keeps its entry's shares and its place. */
	ck_assert_int_eq(t->root->kids[0]->shares, 10);
	ck_assert_int_eq(t->root->kids[1]->shares, 5);
	ck_assert_int_eq(t->root->kids[1]->kind, FS_GROUP);
	ck_assert(t->root->kids[1]->leaf);
	ck_assert_int_eq(t->root->kids[2]->shares, 4);
	ck_assert_int_eq(t->root->kids[2]->order, 2);
	ck_assert(!t->root->kids[2]->leaf);
	ck_assert_int_eq(t->root->kids[2]->kids[0]->shares, 3);
	ck_assert_int_eq(t->root->kids[2]->kids[0]->depth, 2);
	ck_assert_int_eq(t->root->kids[2]->kids[0]->kids[0]->shares, 2);
	ck_assert_int_eq(t->root->kids[2]->kids[0]->kids[0]->depth, 3);
	fs_tree_free(t);
}
END_TEST

START_TEST(tree_accounts)
{
	struct fs_tree *t = tree(TOP);
	struct fs_node *cid, *zed, *hank;

	account(t, "alice", "alice");
	/* A plain group: one account its members share. */
	ck_assert_ptr_eq(account(t, "ann", "bio"), account(t, "bob", "bio"));
	/* Hierarchy, three levels: phys, then astro, then the user. */
	account(t, "eve", "phys/astro/eve");
	account(t, "fay", "phys/astro/fay");
	account(t, "gus", "phys/hep");
	/* astro's default: hank gets a leaf of his own with its share. */
	hank = account(t, "hank", "phys/astro/hank");
	ck_assert_int_eq(hank->shares, 1);
	ck_assert_int_eq(hank->depth, 3);
	ck_assert_int_eq(hank->kind, FS_DEFAULT);
	/* In phys, but in neither of its entries: no share. */
	ck_assert_ptr_null(fs_tree_account(t, "pat"));
	/* chem@: each member alone, with chem@'s 2 shares; once made, the
	 * same leaf again. */
	cid = account(t, "cid", "cid");
	ck_assert_int_eq(cid->shares, 2);
	ck_assert_int_eq(cid->kind, FS_GROUP_EACH);
	ck_assert_ptr_ne(cid, account(t, "cal", "cal"));
	ck_assert_ptr_eq(cid, account(t, "cid", "cid"));
	/* Loops end: ivy by name inside loopy, jay on loopy's own entry;
	 * kim by name in gb, lee on gb's [ga, 1]. */
	account(t, "ivy", "loopy/ivy");
	account(t, "jay", "loopy/loopy");
	account(t, "kim", "ga/gb/kim");
	account(t, "lee", "ga/gb/ga");
	/* Anyone else: the top default, one leaf each. */
	zed = account(t, "zed", "zed");
	ck_assert_int_eq(zed->shares, 1);
	ck_assert_ptr_ne(zed, account(t, "yan", "yan"));
	ck_assert_ptr_eq(zed, account(t, "zed", "zed"));
	/* 9 leaves made with the tree, hank cid cal zed yan on demand. */
	ck_assert_int_eq(t->nleaves, 14);
	assert_walk(t, "+,alice,bio,+phys,+phys/astro,phys/astro/eve,"
	    "phys/astro/fay,phys/astro/hank,phys/hep,+loopy,loopy/loopy,"
	    "loopy/ivy,+ga,+ga/gb,ga/gb/ga,ga/gb/kim,cid,cal,zed,yan");
	fs_tree_free(t);

	/* Without default or others, an unnamed user has no share. */
	t = tree("USER_SHARES[[alice, 1] [bio, 1]]");
	ck_assert_ptr_null(fs_tree_account(t, "zed"));
	ck_assert_ptr_null(fs_tree_account(t, "eve"));
	account(t, "bob", "bio");
	ck_assert_int_eq(t->nleaves, 2);
	fs_tree_free(t);
}
END_TEST

START_TEST(tree_others)
{
	struct fs_tree *t = tree("USER_SHARES[[alice, 2] [others, 1]]");

	/* others is one leaf, there from the start, for every user not
	 * named: zed and yan share it. */
	assert_walk(t, "+,alice,others");
	ck_assert_int_eq(t->nleaves, 2);
	ck_assert_ptr_eq(account(t, "zed", "others"),
	    account(t, "yan", "others"));
	account(t, "alice", "alice");
	ck_assert_int_eq(t->nleaves, 2);
	fs_tree_free(t);
}
END_TEST

START_TEST(tree_depth)
{
	/* d0 names d1, d1 names d2, ... without end: inner nodes d0 to d30
	 * (depths 1 to 31), then d31 an account at depth 32 = FS_MAX_DEPTH,
	 * 32 names in its path. */
	struct fs_tree *t = tree("USER_SHARES[[d0, 1]]");
	struct fs_node *n = fs_tree_account(t, "deep");
	char buf[512];

	ck_assert_ptr_nonnull(n);
	ck_assert(n->leaf);
	ck_assert_int_eq(n->depth, FS_MAX_DEPTH);
	ck_assert_str_eq(n->name, "d31");
	ck_assert_int_eq(t->nleaves, 1);
	/* "d0/d1/.../d9/" is 10 x 3, "d10/" to "d31" 22 x 4 less the last
	 * slash: 30 + 88 - 1 = 117. */
	ck_assert_uint_eq(fs_node_path(n, buf, sizeof(buf)), 117);
	ck_assert(strncmp(buf, "d0/d1/d2/", 9) == 0);
	ck_assert_str_eq(buf + 117 - 8, "/d30/d31");
	fs_tree_free(t);
}
END_TEST

START_TEST(tree_path)
{
	struct fs_tree *t = tree(TOP);
	struct fs_node *eve = fs_tree_account(t, "eve");
	char buf[16];

	/* The root's path is empty. */
	ck_assert_uint_eq(fs_node_path(t->root, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	/* Too small: cut, NUL-ended, the whole length returned (as
	 * snprintf does): "phys/astro/eve" is 14. */
	ck_assert_uint_eq(fs_node_path(eve, buf, 5), 14);
	ck_assert_str_eq(buf, "phys");
	ck_assert_uint_eq(fs_node_path(eve, buf, 7), 14);
	ck_assert_str_eq(buf, "phys/a");
	ck_assert_uint_eq(fs_node_path(eve, buf, 0), 14);
	ck_assert_uint_eq(fs_node_path(eve, buf, sizeof(buf)), 14);
	ck_assert_str_eq(buf, "phys/astro/eve");
	fs_tree_free(t);
}
END_TEST

#define T0	1700000000
#define HOUR	3600

START_TEST(charge_running)
{
	struct fs_tree *t = tree(TOP);
	struct fs_node *eve = fs_tree_account(t, "eve");
	struct fs_node *fay = fs_tree_account(t, "fay");
	struct fs_node *astro = eve->parent, *phys = astro->parent;
	struct fs_node *alice = fs_tree_account(t, "alice");
	const struct fs_factors *f = &t->f;

	/* eve starts a 2-slot job at T0 and reports 1.5 CPU hours: every
	 * node from eve up to the root holds them. */
	fs_charge_start(eve, &t->f, 2, T0);
	fs_charge_cpu(eve, 1.0);
	fs_charge_cpu(eve, 0.5);
	for (struct fs_node *n = eve; n != NULL; n = n->parent) {
		ck_assert_int_eq(n->njobs, 1);
		ck_assert_int_eq(n->slots, 2);
		ck_assert_int_eq(n->start_sum, T0);
		ck_assert_double_eq_tol(n->run_cpu, 1.5, EPS);
	}
	ck_assert_int_eq(fay->njobs, 0);
	ck_assert_int_eq(alice->slots, 0);
	/* An hour later: run 1 h, CPU 1.5 h, 2 slots:
	 * eve   2 / (1.5 x 0.7 + 1 x 0.7 + 3 x 3.0) = 2 / 10.75,
	 * astro 3 / 10.75, phys 4 / 10.75; fay untouched 1 / 3. */
	ck_assert_double_eq_tol(fs_node_run(phys, f, T0 + HOUR), 1, EPS);
	ck_assert_double_eq_tol(fs_node_cpu(phys, f, T0 + HOUR), 1.5, EPS);
	ck_assert_double_eq_tol(fs_node_priority(eve, f, T0 + HOUR, 0),
	    2 / 10.75, EPS);
	ck_assert_double_eq_tol(fs_node_priority(astro, f, T0 + HOUR, 0),
	    3 / 10.75, EPS);
	ck_assert_double_eq_tol(fs_node_priority(phys, f, T0 + HOUR, 0),
	    4 / 10.75, EPS);
	ck_assert_double_eq_tol(fs_node_priority(fay, f, T0 + HOUR, 0),
	    1.0 / 3, EPS);
	/* Two slots more counted as taken: 2 / (1.05 + 0.7 + 5 x 3.0). */
	ck_assert_double_eq_tol(fs_node_priority(eve, f, T0 + HOUR, 2),
	    2 / 16.75, EPS);
	/* alice, 10 shares, the same figures: 10 / 10.75. */
	fs_charge_start(alice, &t->f, 2, T0);
	fs_charge_cpu(alice, 1.5);
	ck_assert_double_eq_tol(fs_node_priority(alice, f, T0 + HOUR, 0),
	    10 / 10.75, EPS);
	/* A second job of eve's from T0 + 30 min, one slot: at T0 + 1 h
	 * run = (2 x (T0 + 1 h) - (T0 + T0 + 30 min)) = 1.5 h, in phys
	 * too; the root holds alice's hour as well: 2.5 h. */
	fs_charge_start(eve, &t->f, 1, T0 + HOUR / 2);
	ck_assert_double_eq_tol(fs_node_run(eve, f, T0 + HOUR), 1.5, EPS);
	ck_assert_double_eq_tol(fs_node_run(phys, f, T0 + HOUR), 1.5, EPS);
	ck_assert_double_eq_tol(fs_node_run(t->root, f, T0 + HOUR), 2.5,
	    EPS);
	ck_assert_int_eq(phys->slots, 3);
	ck_assert_int_eq(t->root->slots, 5);
	/* The 2-slot job ends at T0 + 1 h having used 2 CPU hours in all
	 * (1.5 reported): running CPU 0, 2 h to history, no decay yet;
	 * the other job's run is 0.5 h.  eve:
	 * 2 / (2 x 0.7 + 0.5 x 0.7 + 2 x 3.0) = 2 / 7.75. */
	fs_charge_end(eve, f, 2, T0, 1.5, 2.0, T0 + HOUR);
	for (struct fs_node *n = eve; n != t->root; n = n->parent) {
		ck_assert_int_eq(n->njobs, 1);
		ck_assert_int_eq(n->slots, 1);
		ck_assert_double_eq_tol(n->run_cpu, 0, EPS);
		ck_assert_double_eq_tol(fs_node_cpu(n, f, T0 + HOUR), 2, EPS);
		ck_assert_double_eq_tol(fs_node_run(n, f, T0 + HOUR), 0.5,
		    EPS);
	}
	ck_assert_double_eq_tol(fs_node_priority(eve, f, T0 + HOUR, 0),
	    2 / 7.75, EPS);
	/* The root: alice's 1.5 running CPU hours and eve's 2 finished. */
	ck_assert_double_eq_tol(fs_node_cpu(t->root, f, T0 + HOUR), 3.5, EPS);
	/* The last job ends with no CPU: nothing runs in eve's branch. */
	fs_charge_end(eve, f, 1, T0 + HOUR / 2, 0, 0, T0 + HOUR);
	for (struct fs_node *n = eve; n != t->root; n = n->parent) {
		ck_assert_int_eq(n->njobs, 0);
		ck_assert_int_eq(n->slots, 0);
		ck_assert_int_eq(n->start_sum, 0);
		ck_assert_double_eq_tol(fs_node_run(n, f, T0 + 2 * HOUR), 0,
		    EPS);
	}
	/* Five hours after the end the 2 hours count 0.2:
	 * 2 / (0.2 x 0.7 + 3.0) = 2 / 3.14. */
	ck_assert_double_eq_tol(fs_node_cpu(phys, f, T0 + 6 * HOUR), 0.2, EPS);
	ck_assert_double_eq_tol(fs_node_priority(eve, f, T0 + 6 * HOUR, 0),
	    2 / 3.14, EPS);
	fs_tree_free(t);
}
END_TEST

START_TEST(charge_history)
{
	struct fs_tree *t = tree(TOP);
	struct fs_node *alice = fs_tree_account(t, "alice");
	struct fs_node *zed = fs_tree_account(t, "zed");
	const struct fs_factors *f = &t->f;

	/* One hour used at T0 counts 0.1 five hours (HIST_HOURS) later,
	 * sqrt(0.1) = 0.316... after 2.5 hours, 1 before T0 or at it. */
	fs_charge_history(alice, f, 1.0, T0, 0, 0);
	ck_assert_double_eq_tol(fs_node_cpu(alice, f, T0), 1, EPS);
	ck_assert_double_eq_tol(fs_node_cpu(alice, f, T0 - HOUR), 1, EPS);
	ck_assert_double_eq_tol(fs_node_cpu(alice, f, T0 + 5 * HOUR), 0.1,
	    EPS);
	ck_assert_double_eq_tol(fs_node_cpu(alice, f, T0 + 5 * HOUR / 2),
	    sqrt(0.1), EPS);
	ck_assert_double_eq_tol(fs_node_cpu(t->root, f, T0 + 5 * HOUR), 0.1,
	    EPS);
	/* Another hour at T0 + 5 h: 0.1 + 1 = 1.1 then, 0.11 at T0 + 10 h;
	 * a default user's leaf (zed) charges the root too. */
	fs_charge_history(alice, f, 1.0, T0 + 5 * HOUR, 0, 0);
	ck_assert_double_eq_tol(alice->cpu_hours, 1.1, EPS);
	ck_assert_double_eq_tol(fs_node_cpu(alice, f, T0 + 10 * HOUR), 0.11,
	    EPS);
	fs_charge_history(zed, f, 2.0, T0 + 10 * HOUR, 0, 0);
	ck_assert_double_eq_tol(fs_node_cpu(zed, f, T0 + 10 * HOUR), 2, EPS);
	ck_assert_double_eq_tol(fs_node_cpu(t->root, f, T0 + 10 * HOUR), 2.11,
	    EPS);
	/* With history, alice (10 shares) at T0 + 10 h:
	 * 10 / (0.11 x 0.7 + 3.0) = 10 / 3.077. */
	ck_assert_double_eq_tol(fs_node_priority(alice, f, T0 + 10 * HOUR, 0),
	    10 / 3.077, EPS);
	fs_tree_free(t);
}
END_TEST

START_TEST(charge_history_order)
{
	struct fs_tree *t = tree(TOP);
	struct fs_node *alice = fs_tree_account(t, "alice");
	const struct fs_factors *f = &t->f;
	struct fs_node u;
	struct fs_factors uf;

	/* Usage comes in out of time order (two jobs' ends, restored
	 * records): an hour at T0 + 5 h, then an hour at T0.  As of
	 * T0 + 5 h the older hour counts 0.1: 1.1, not 2. */
	fs_charge_history(alice, f, 1.0, T0 + 5 * HOUR, 0, 0);
	fs_charge_history(alice, f, 1.0, T0, 0, 0);
	ck_assert_double_eq_tol(fs_node_cpu(alice, f, T0 + 5 * HOUR), 1.1,
	    EPS);
	ck_assert_double_eq_tol(fs_node_cpu(t->root, f, T0 + 5 * HOUR), 1.1,
	    EPS);
	/* The same for jobs' ends: one that ended at T0 + 5 h with 2 CPU
	 * hours (1.1 + 2 = 3.1), then one that ended at T0 with 1 hour,
	 * reported late (0.1 as of T0 + 5 h): 3.2. */
	fs_charge_start(alice, &t->f, 1, T0 - HOUR);
	fs_charge_start(alice, &t->f, 1, T0 - HOUR);
	fs_charge_end(alice, f, 1, T0 - HOUR, 0, 2.0, T0 + 5 * HOUR);
	fs_charge_end(alice, f, 1, T0 - HOUR, 0, 1.0, T0);
	ck_assert_double_eq_tol(fs_node_cpu(alice, f, T0 + 5 * HOUR), 3.2,
	    EPS);
	fs_tree_free(t);

	/* A node of its own likewise: it keeps the later time. */
	fs_factors_default(&uf);
	memset(&u, 0, sizeof(u));
	fs_charge_history(&u, &uf, 1.0, T0 + 5 * HOUR, 0, 0);
	fs_charge_history(&u, &uf, 1.0, T0, 0, 0);
	ck_assert_int_eq(u.cpu_at, T0 + 5 * HOUR);
	ck_assert_double_eq_tol(u.cpu_hours, 1.1, EPS);
}
END_TEST

START_TEST(charge_hist_run)
{
	struct fs_tree *t = tree(TOP);
	struct fs_node *eve = fs_tree_account(t, "eve");
	struct fs_node *phys = eve->parent->parent;
	struct fs_factors f = t->f;

	/* ENABLE_HIST_RUN_TIME: a job run from T0 to T0 + 2 h leaves 2 h
	 * of run time, decayed as CPU is: 0.2 at T0 + 7 h.  Without it the
	 * run time goes with the job. */
	f.hist_run = true;
	fs_charge_start(eve, &t->f, 1, T0);
	/* Running: 1 h at T0 + 1 h, no history yet. */
	ck_assert_double_eq_tol(fs_node_run(phys, &f, T0 + HOUR), 1, EPS);
	fs_charge_end(eve, &f, 1, T0, 0, 0, T0 + 2 * HOUR);
	ck_assert_double_eq_tol(fs_node_run(eve, &f, T0 + 2 * HOUR), 2, EPS);
	ck_assert_double_eq_tol(fs_node_run(phys, &f, T0 + 7 * HOUR), 0.2,
	    EPS);
	ck_assert_double_eq_tol(fs_node_run(t->root, &f, T0 + 7 * HOUR), 0.2,
	    EPS);
	/* No CPU: cpu history untouched. */
	ck_assert_double_eq_tol(fs_node_cpu(eve, &f, T0 + 2 * HOUR), 0, EPS);
	/* A job running since T0 + 6 h adds its own hour at T0 + 7 h:
	 * 0.2 + 1 = 1.2; eve 2 / (1.2 x 0.7 + 2 x 3.0) = 2 / 6.84. */
	fs_charge_start(eve, &t->f, 1, T0 + 6 * HOUR);
	ck_assert_double_eq_tol(fs_node_run(eve, &f, T0 + 7 * HOUR), 1.2, EPS);
	ck_assert_double_eq_tol(fs_node_priority(eve, &f, T0 + 7 * HOUR, 0),
	    2 / 6.84, EPS);
	/* Read without hist_run: only the running job's hour. */
	ck_assert_double_eq_tol(fs_node_run(eve, &t->f, T0 + 7 * HOUR), 1,
	    EPS);
	/* Restored history: 1 h of run at T0 + 7 h, 3 h of CPU at T0 + 2 h
	 * (0.3 by T0 + 7 h). */
	fs_charge_history(eve, &f, 3, T0 + 2 * HOUR, 1, T0 + 7 * HOUR);
	ck_assert_double_eq_tol(fs_node_run(phys, &f, T0 + 7 * HOUR), 2.2,
	    EPS);
	ck_assert_double_eq_tol(fs_node_cpu(phys, &f, T0 + 7 * HOUR), 0.3,
	    EPS);
	fs_tree_free(t);
}
END_TEST

START_TEST(charge_run_decay)
{
	struct fs_tree *t = tree(TOP);
	struct fs_node *eve = fs_tree_account(t, "eve");
	struct fs_node *phys = eve->parent->parent;
	struct fs_factors f = t->f;
	const double k = 5 / log(10);	/* HIST_HOURS / ln 10 */

	/* The rule alone: an hour counts 0.1 hour HIST_HOURS later, so a
	 * job that has run HIST_HOURS counts 5 / ln 10 x 0.9, not 5;
	 * HIST_HOURS 0 does not decay. */
	ck_assert_double_eq_tol(fs_run_decayed(0, 1, 5, 5), k * 0.9, EPS);
	ck_assert_double_eq_tol(fs_run_decayed(2, 3, 1, 0), 5, EPS);
	ck_assert_double_eq_tol(fs_run_decayed(2, 3, 0, 5), 2, EPS);
	/* An earlier value decays as history does: 1 h, 5 h later. */
	ck_assert_double_eq_tol(fs_run_decayed(1, 0, 5, 5), 0.1, EPS);

	/* RUN_TIME_DECAY: the running job's 5 h count k x 0.9; without
	 * it 5. */
	f.hist_hours = 5;
	f.run_decay = true;
	f.hist_run = true;
	fs_charge_start(eve, &f, 1, T0);
	ck_assert_double_eq_tol(fs_node_run(eve, &f, T0 + 5 * HOUR), k * 0.9,
	    EPS);
	ck_assert_double_eq_tol(fs_node_run(phys, &f, T0 + 5 * HOUR),
	    k * 0.9, EPS);
	ck_assert_double_eq_tol(fs_node_run(eve, &t->f, T0 + 5 * HOUR), 5,
	    EPS);
	/* A second job from T0 + 5 h: at T0 + 10 h, k x 0.99 + k x 0.9. */
	fs_charge_start(eve, &f, 1, T0 + 5 * HOUR);
	ck_assert_double_eq_tol(fs_node_run(eve, &f, T0 + 10 * HOUR),
	    k * 0.99 + k * 0.9, EPS);
	/* The first ends at T0 + 10 h: its decayed run goes to history
	 * (ENABLE_HIST_RUN_TIME), the same sum at that time... */
	fs_charge_end(eve, &f, 1, T0, 0, 0, T0 + 10 * HOUR);
	ck_assert_double_eq_tol(fs_node_run(eve, &f, T0 + 10 * HOUR),
	    k * 0.99 + k * 0.9, EPS);
	/* ... and the second alone without history. */
	fs_charge_end(eve, &f, 1, T0 + 5 * HOUR, 0, 0, T0 + 10 * HOUR);
	ck_assert_int_eq(eve->njobs, 0);
	ck_assert_double_eq_tol(eve->drun, 0, EPS);
	ck_assert_double_eq_tol(fs_node_run(eve, &f, T0 + 10 * HOUR),
	    k * 0.99 + k * 0.9, EPS);
	fs_tree_free(t);

	/* Jobs charged out of time order (replay, reconfig) count the
	 * same: the later start first. */
	t = tree(TOP);
	eve = fs_tree_account(t, "eve");
	fs_charge_start(eve, &f, 1, T0 + 5 * HOUR);
	fs_charge_start(eve, &f, 1, T0);
	ck_assert_double_eq_tol(fs_node_run(eve, &f, T0 + 10 * HOUR),
	    k * 0.99 + k * 0.9, EPS);
	/* An end reported before a later start's time. */
	fs_charge_end(eve, &f, 1, T0, 0, 0, T0 + 2 * HOUR);
	ck_assert_double_eq_tol(fs_node_run(eve, &f, T0 + 10 * HOUR),
	    k * 0.9 + fs_decay(fs_run_decayed(0, 1, 2, 5), 8, 5), EPS);
	fs_tree_free(t);
}
END_TEST

START_TEST(priority_zero_factors)
{
	struct fs_tree *t = tree(TOP);
	struct fs_node *alice = fs_tree_account(t, "alice");
	struct fs_node *bio = fs_tree_account(t, "bob");
	struct fs_factors f;
	double pa, pb;

	/* Every factor 0 (and no decay): no division by zero; the shares
	 * alone order accounts, whatever they use. */
	memset(&f, 0, sizeof(f));
	fs_charge_start(alice, &t->f, 8, T0);
	fs_charge_cpu(alice, 100);
	pa = fs_node_priority(alice, &f, T0 + HOUR, 3);
	pb = fs_node_priority(bio, &f, T0 + HOUR, 0);
	ck_assert(isfinite(pa) && isfinite(pb));
	ck_assert(pa > pb);
	ck_assert_double_eq_tol(pa / pb, 2, EPS);	/* 10 : 5 */
	fs_tree_free(t);
}
END_TEST

static Suite *
fairshare_suite(void)
{
	Suite *s = suite_create("fairshare");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parse_forms);
	tcase_add_test(tc, parse_errors);
	tcase_add_test(tc, accounts);
	tcase_add_test(tc, decay);
	tcase_add_test(tc, priority);
	tcase_add_test(tc, priority_order);
	tcase_add_test(tc, tree_shape);
	tcase_add_test(tc, tree_accounts);
	tcase_add_test(tc, tree_others);
	tcase_add_test(tc, tree_depth);
	tcase_add_test(tc, tree_path);
	tcase_add_test(tc, charge_running);
	tcase_add_test(tc, charge_history);
	tcase_add_test(tc, charge_history_order);
	tcase_add_test(tc, charge_hist_run);
	tcase_add_test(tc, charge_run_decay);
	tcase_add_test(tc, priority_zero_factors);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(fairshare_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
