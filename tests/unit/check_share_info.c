/*
 * Share trees into bqueues -l's and bhpart's rows (src/share-info.c):
 * the order and parents of the rows, a group's rows after it, the
 * figures of a charged account at the time asked (hours into seconds),
 * and USER_SHARES as shown.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "share-info.h"

static bool
is_group(const char *name, void *arg)
{
	(void)arg;
	return strcmp(name, "bio") == 0;
}

/* bio: ann, bob. */
static bool
in_group(const char *user, const char *group, void *arg)
{
	(void)arg;
	return strcmp(group, "bio") == 0 &&
	    (strcmp(user, "ann") == 0 || strcmp(user, "bob") == 0);
}

static const char *
shares_of(const char *group, void *arg)
{
	(void)arg;
	return strcmp(group, "bio") == 0 ? "[ann, 2] [bob, 1]" : NULL;
}

static struct fs_tree *
tree(void)
{
	struct fs_groups g = { is_group, in_group, shares_of, NULL };
	struct fs_shares s = { 0 };
	struct fs_factors f;
	struct fs_tree *t;
	const char *why;

	fs_factors_default(&f);
	ck_assert_int_eq(fs_fairshare_parse("USER_SHARES[[bio, 5] [carol, 3] "
	    "[default, 1]]", &s, &why), 0);
	t = fs_tree_new("queue/normal", &s, &f, &g);
	fs_shares_release(&s);
	return t;
}

static void
release(struct fs_row *rows, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		fs_row_release(&rows[i]);
	free(rows);
}

START_TEST(rows_in_tree_order)
{
	struct fs_tree *t = tree();
	struct fs_row *r;
	uint32_t n;

	/* dave has no entry of his own: default makes his account. */
	ck_assert_ptr_nonnull(fs_tree_account(t, "dave"));
	share_rows(t, 1000000, &r, &n);
	ck_assert_uint_eq(n, 5);
	ck_assert_str_eq(r[0].name, "bio");
	ck_assert(r[0].group);
	ck_assert_int_eq(r[0].parent, -1);
	ck_assert_int_eq(r[0].depth, 1);
	ck_assert_int_eq(r[0].shares, 5);
	/* bio's own entries follow it, under it. */
	ck_assert_str_eq(r[1].name, "ann");
	ck_assert_int_eq(r[1].parent, 0);
	ck_assert_int_eq(r[1].depth, 2);
	ck_assert(!r[1].group);
	ck_assert_str_eq(r[2].name, "bob");
	ck_assert_int_eq(r[2].parent, 0);
	ck_assert_int_eq(r[2].shares, 1);
	ck_assert_str_eq(r[3].name, "carol");
	ck_assert_int_eq(r[3].parent, -1);
	ck_assert_str_eq(r[4].name, "dave");
	ck_assert_int_eq(r[4].parent, -1);
	ck_assert_int_eq(r[4].shares, 1);
	/* Nothing used: shares / ((1 + 0 slots) * RUN_JOB_FACTOR 3). */
	ck_assert_double_eq_tol(r[3].priority, 1.0, 1e-9);
	ck_assert_double_eq_tol(r[0].priority, 5.0 / 3, 1e-9);
	ck_assert_int_eq(r[3].started, 0);
	ck_assert_int_eq(r[3].run_time, 0);
	release(r, n);
	fs_tree_free(t);
}
END_TEST

START_TEST(charged_figures)
{
	struct fs_tree *t = tree();
	struct fs_node *ann = fs_tree_account(t, "ann");
	int64_t start = 1000000, now = start + 3600;
	struct fs_row *r;
	uint32_t n;

	ck_assert_ptr_nonnull(ann);
	/* Two slots for an hour, 0.5 CPU hour so far. */
	fs_charge_start(ann, &t->f, 2, start);
	fs_charge_cpu(ann, 0.5);
	share_rows(t, now, &r, &n);
	ck_assert_uint_eq(n, 4);
	for (int i = 0; i < 2; i++) {		/* ann, and bio above her */
		ck_assert_int_eq(r[i].started, 2);
		ck_assert_int_eq(r[i].reserved, 0);
		ck_assert_int_eq(r[i].run_time, 3600);
		ck_assert_double_eq_tol(r[i].cpu_time, 1800.0, 1e-6);
	}
	/* ann: 2 / (0.5 * 0.7 + 1 * 0.7 + (1 + 2) * 3) = 2 / 10.05. */
	ck_assert_double_eq_tol(r[1].priority, 2 / 10.05, 1e-9);
	ck_assert_double_eq_tol(r[1].priority,
	    fs_node_priority(ann, &t->f, now, 0), 1e-12);
	/* bob and carol are untouched. */
	ck_assert_int_eq(r[2].started, 0);
	ck_assert_int_eq(r[3].started, 0);
	release(r, n);
	fs_tree_free(t);
}
END_TEST

START_TEST(shares_as_shown)
{
	struct fs_shares s = { 0 };
	const char *why;
	char *text;

	ck_assert_int_eq(fs_fairshare_parse("USER_SHARES[[alice,10]  [bio@, 5]"
	    " [default,1]]", &s, &why), 0);
	fs_classify(&s, is_group, NULL);
	text = share_text(&s, NULL);
	ck_assert_str_eq(text, "[alice, 10] [bio@, 5] [default, 1]");
	free(text);
	fs_shares_release(&s);
	/* Not parsed: what is inside USER_SHARES[...], as written. */
	text = share_text(&s, "USER_SHARES[[alice, 10] [default, 1]]");
	ck_assert_str_eq(text, "[alice, 10] [default, 1]");
	free(text);
	text = share_text(NULL, NULL);
	ck_assert_str_eq(text, "");
	free(text);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("share_info");
	TCase *tc = tcase_create("share_info");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, rows_in_tree_order);
	tcase_add_test(tc, charged_figures);
	tcase_add_test(tc, shares_as_shown);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
