/*
 * Duplicate logging (src/evlog-dup.c and evlog_flush with a second
 * file): comparing two logs, catching up a prefix, copying, writing both,
 * and going on with one when the other cannot be written.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evlog.h"
#include "util.h"

static char dir[PATH_MAX];
static char a[PATH_MAX + 16], b[PATH_MAX + 16];

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void
setup(void)
{
	snprintf(dir, sizeof(dir), "%s/check_evlog_dup.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
}

static void
teardown(void)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void
put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write_all(fd, s, strlen(s)), 0);
	close(fd);
}

static char *
get(const char *path)
{
	static char buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	n = read(fd, buf, sizeof(buf) - 1);
	ck_assert_int_ge(n, 0);
	buf[n] = '\0';
	close(fd);
	return buf;
}

START_TEST(test_compare)
{
	char *cause = NULL;
	off_t off;

	put(a, "hello world\n");
	put(b, "hello world\n");
	ck_assert_int_eq(evlog_dup_compare(a, b, &off, &cause), 0);
	put(b, "hello");
	ck_assert_int_eq(evlog_dup_compare(a, b, &off, &cause), 2);
	ck_assert_int_eq(off, 5);
	ck_assert_int_eq(evlog_dup_compare(b, a, &off, &cause), 1);
	put(b, "hellO world\n");
	ck_assert_int_eq(evlog_dup_compare(a, b, &off, &cause), 3);
	ck_assert_int_eq(off, 4);
	/* Header apart. */
	ck_assert_int_eq(evlog_dup_compare_from(a, b, 5, &off, &cause), 0);
	unlink(b);
	ck_assert_int_eq(evlog_dup_compare(a, b, &off, &cause), 2);
	ck_assert_int_eq(off, 0);
	ck_assert_ptr_null(cause);
}
END_TEST

START_TEST(test_catch_up_and_copy)
{
	char *cause = NULL;
	off_t off;

	put(a, "one\ntwo\nthree\n");
	put(b, "one\ntw");
	ck_assert_int_eq(evlog_dup_catch_up(a, b, &cause), 0);
	ck_assert_str_eq(get(b), "one\ntwo\nthree\n");
	unlink(b);
	ck_assert_int_eq(evlog_dup_copy(a, b, &cause), 0);
	ck_assert_int_eq(evlog_dup_compare(a, b, &off, &cause), 0);
	ck_assert_int_eq(access(b, F_OK), 0);
}
END_TEST

/* Both written; the duplicate lost; the log itself lost. */
START_TEST(test_flush_both)
{
	struct evlog lg;
	char *cause = NULL;
	off_t off;
	int ro;

	ck_assert_int_eq(evlog_open(&lg, a, 0, &cause), 0);
	ck_assert_int_eq(evlog_dup_attach(&lg, b, &cause), 0);
	evlog_append(&lg, "x 1\n", 4);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_int_eq(evlog_dup_compare(a, b, &off, &cause), 0);
	ck_assert_int_eq(off, EVLOG_HEADER_LEN + 4);

	/* The duplicate cannot be written: the log goes on alone. */
	ro = open(b, O_RDONLY);
	close(lg.dup_fd);
	lg.dup_fd = ro;
	evlog_append(&lg, "x 2\n", 4);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert(!lg.dup_on);
	ck_assert_int_ne(lg.dup_lost, 0);
	ck_assert_str_eq(lg.dup_lost_path, b);
	ck_assert_int_eq(evlog_dup_compare(b, a, &off, &cause), 1);
	/* Caught up again, then both written. */
	lg.dup_lost = 0;
	ck_assert_int_eq(evlog_dup_resync(&lg, &cause), 0);
	ck_assert(lg.dup_on);
	evlog_append(&lg, "x 3\n", 4);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_int_eq(evlog_dup_compare(a, b, &off, &cause), 0);

	/* The log itself cannot be written: the duplicate becomes it. */
	ro = open(a, O_RDONLY);
	close(lg.fd);
	lg.fd = ro;
	evlog_append(&lg, "x 4\n", 4);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_str_eq(lg.path, b);
	ck_assert_str_eq(lg.dup_lost_path, a);
	ck_assert_int_eq(evlog_dup_compare(a, b, &off, &cause), 1);
	ck_assert_int_eq(lg.size, off + 4);

	/* Neither: the flush fails. */
	close(lg.fd);
	lg.fd = open(b, O_RDONLY);
	evlog_append(&lg, "x 5\n", 4);
	ck_assert_int_eq(evlog_flush(&lg), -1);
	evlog_close(&lg);
}
END_TEST

/*
 * A side removed or replaced while open takes writes without an error:
 * the flush must notice, or they go to a file no one reads again.
 */
START_TEST(test_flush_name_gone)
{
	struct evlog lg;
	char *cause = NULL;
	off_t off;

	ck_assert_int_eq(evlog_open(&lg, a, 0, &cause), 0);
	ck_assert_int_eq(evlog_dup_attach(&lg, b, &cause), 0);
	evlog_append(&lg, "x 1\n", 4);
	ck_assert_int_eq(evlog_flush(&lg), 0);

	/* The duplicate removed: lost, then caught up. */
	ck_assert_int_eq(unlink(b), 0);
	evlog_append(&lg, "x 2\n", 4);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert(!lg.dup_on);
	ck_assert_int_eq(lg.dup_lost, ENOENT);
	ck_assert_str_eq(lg.dup_lost_path, b);
	ck_assert_int_eq(access(b, F_OK), -1);
	lg.dup_lost = 0;
	ck_assert_int_eq(evlog_dup_resync(&lg, &cause), 0);
	ck_assert_int_eq(evlog_dup_compare(a, b, &off, &cause), 0);

	/* The log replaced by a directory: the duplicate becomes it. */
	ck_assert_int_eq(unlink(a), 0);
	ck_assert_int_eq(mkdir(a, 0755), 0);
	evlog_append(&lg, "x 3\n", 4);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_str_eq(lg.path, b);
	ck_assert_str_eq(lg.dup_lost_path, a);
	ck_assert_int_eq(lg.size, EVLOG_HEADER_LEN + 12);
	ck_assert_int_ne(evlog_dup_resync(&lg, &cause), 0);
	free(cause);
	ck_assert(!lg.dup_on);

	/* The one file left removed: put back under its name. */
	ck_assert_int_eq(unlink(b), 0);
	evlog_append(&lg, "x 4\n", 4);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_int_eq(access(b, F_OK), 0);
	ck_assert_str_eq(get(b) + EVLOG_HEADER_LEN, "x 1\nx 2\nx 3\nx 4\n");
	evlog_append(&lg, "x 5\n", 4);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_str_eq(get(b) + EVLOG_HEADER_LEN,
	    "x 1\nx 2\nx 3\nx 4\nx 5\n");

	/* Back as a file: caught up. */
	ck_assert_int_eq(rmdir(a), 0);
	ck_assert_int_eq(evlog_dup_resync(&lg, &cause), 0);
	ck_assert_int_eq(evlog_dup_compare(a, b, &off, &cause), 0);
	evlog_close(&lg);
}
END_TEST

/* Generations a side lacks, or has cut short, are copied; no others. */
START_TEST(test_sync_generations)
{
	char a1[PATH_MAX + 32], a2[PATH_MAX + 32];
	char b1[PATH_MAX + 32], b2[PATH_MAX + 32];
	char *cause = NULL;
	off_t off;
	int n;

	snprintf(a1, sizeof(a1), "%s.1", a);
	snprintf(a2, sizeof(a2), "%s.2", a);
	snprintf(b1, sizeof(b1), "%s.1", b);
	snprintf(b2, sizeof(b2), "%s.2", b);
	put(a, "new\n");
	put(a1, "one\ntwo\n");
	put(a2, "zero\n");
	put(b1, "one\n");
	ck_assert_int_eq(evlog_dup_sync_generations(a, b, &n, &cause), 0);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(evlog_dup_compare(a1, b1, &off, &cause), 0);
	ck_assert_int_eq(evlog_dup_compare(a2, b2, &off, &cause), 0);
	ck_assert_int_eq(access(b, F_OK), -1);	/* lsb.events is not one */
	ck_assert_int_eq(evlog_dup_sync_generations(a, b, &n, &cause), 0);
	ck_assert_int_eq(n, 0);
	/* One that cannot be read stops it, with why. */
	ck_assert_int_eq(unlink(b2), 0);
	ck_assert_int_eq(mkdir(b2, 0755), 0);
	ck_assert_int_eq(evlog_dup_sync_generations(a, b, &n, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, b2));
	free(cause);
}
END_TEST

static Suite *
dup_suite(void)
{
	Suite *s = suite_create("evlog_dup");
	TCase *t = tcase_create("dup");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_compare);
	tcase_add_test(t, test_catch_up_and_copy);
	tcase_add_test(t, test_flush_both);
	tcase_add_test(t, test_flush_name_gone);
	tcase_add_test(t, test_sync_generations);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(dup_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
