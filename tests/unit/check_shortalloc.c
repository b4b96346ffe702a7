/* The commands' allocator: sizes, alignment, reuse, zeroing, growth. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortalloc.h"

static int
aligned(const void *p, size_t a)
{
	return ((uintptr_t)p & (a - 1)) == 0;
}

START_TEST(test_sizes)
{
	static const size_t sizes[] = { 0, 1, 15, 16, 17, 31, 32, 33, 100,
	    1000, 4095, 4096, 4097, 65535, 65536, 65537, 1 << 20 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned char *p = sa_malloc(sizes[i]);
		size_t u;

		ck_assert_ptr_nonnull(p);
		ck_assert(aligned(p, 16));
		u = sa_usable_size(p);
		ck_assert_uint_ge(u, sizes[i]);
		/* Small blocks are at most twice what was asked. */
		if (sizes[i] > 16 && sizes[i] <= 65536)
			ck_assert_uint_lt(u, 2 * sizes[i]);
		memset(p, 0xa5, u);
		sa_free(p);
	}
	ck_assert_uint_eq(sa_usable_size(NULL), 0);
	sa_free(NULL);
}
END_TEST

/* A freed block serves the next request of its class, and only that. */
START_TEST(test_reuse)
{
	void *a = sa_malloc(40), *b, *c;

	sa_free(a);
	b = sa_malloc(200);
	ck_assert_ptr_ne(a, b);
	c = sa_malloc(33);
	ck_assert_ptr_eq(a, c);
	sa_free(b);
	sa_free(c);
}
END_TEST

/* Live blocks never overlap, across the first region into mapped ones. */
START_TEST(test_no_overlap)
{
	enum { N = 3000 };
	static unsigned char *p[N];
	static size_t len[N];

	for (int i = 0; i < N; i++) {
		len[i] = 1 + (size_t)(i * 7919) % 3000;
		p[i] = sa_malloc(len[i]);
		ck_assert_ptr_nonnull(p[i]);
		memset(p[i], i & 0xff, len[i]);
	}
	for (int i = 0; i < N; i++) {
		unsigned char want[3000];

		memset(want, i & 0xff, len[i]);
		ck_assert_int_eq(memcmp(p[i], want, len[i]), 0);
		if (i % 2)
			sa_free(p[i]);
	}
	for (int i = 0; i < N; i += 2)
		sa_free(p[i]);
}
END_TEST

START_TEST(test_calloc)
{
	unsigned char *p = sa_malloc(100), *q;

	memset(p, 0xff, 100);
	sa_free(p);
	q = sa_calloc(10, 10);
	ck_assert_ptr_eq(p, q);		/* the same block, used before */
	for (int i = 0; i < 100; i++)
		ck_assert_uint_eq(q[i], 0);
	sa_free(q);
	q = sa_calloc(1000, 1000);
	ck_assert_ptr_nonnull(q);
	for (int i = 0; i < 1000 * 1000; i += 997)
		ck_assert_uint_eq(q[i], 0);
	sa_free(q);
	errno = 0;
	ck_assert_ptr_null(sa_calloc(SIZE_MAX / 2, 4));
	ck_assert_int_eq(errno, ENOMEM);
}
END_TEST

START_TEST(test_realloc)
{
	unsigned char *p = sa_realloc(NULL, 10);
	size_t n;

	for (int i = 0; i < 10; i++)
		p[i] = (unsigned char)i;
	ck_assert_ptr_eq(sa_realloc(p, 16), p);	/* fits its block */
	/* Small to small, small to large, large to larger (mremap). */
	for (n = 100; n <= (size_t)8 << 20; n *= 4) {
		p = sa_realloc(p, n);
		ck_assert_ptr_nonnull(p);
		ck_assert(aligned(p, 16));
		ck_assert_uint_ge(sa_usable_size(p), n);
		for (int i = 0; i < 10; i++)
			ck_assert_uint_eq(p[i], (unsigned)i);
		p[n - 1] = 0x5a;
	}
	sa_free(p);
	errno = 0;
	ck_assert_ptr_null(sa_malloc(SIZE_MAX - 8));
	ck_assert_int_eq(errno, ENOMEM);
}
END_TEST

START_TEST(test_memalign)
{
	static const size_t aligns[] = { 1, 8, 16, 32, 64, 4096, 65536 };

	for (size_t i = 0; i < sizeof(aligns) / sizeof(aligns[0]); i++) {
		char *p = sa_memalign(aligns[i], 300);

		ck_assert_ptr_nonnull(p);
		ck_assert(aligned(p, aligns[i]));
		ck_assert_uint_ge(sa_usable_size(p), 300);
		memset(p, 1, 300);
		/* An aligned large block grows by copy. */
		p = sa_realloc(p, 200000);
		ck_assert_ptr_nonnull(p);
		ck_assert_int_eq(p[299], 1);
		sa_free(p);
	}
	errno = 0;
	ck_assert_ptr_null(sa_memalign(24, 10));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

static Suite *
shortalloc_suite(void)
{
	Suite *s = suite_create("shortalloc");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_reuse);
	tcase_add_test(tc, test_no_overlap);
	tcase_add_test(tc, test_calloc);
	tcase_add_test(tc, test_realloc);
	tcase_add_test(tc, test_memalign);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(shortalloc_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
