/*
 * malloc and its kin for the commands, when they are built with musl
 * (the Makefile defines LSF_SHORTALLOC then): src/shortalloc.c says why.
 * musl lets a program replace its allocator by defining these.  Builds
 * with glibc, and the sanitizers' builds, keep their libc's.
 */
#ifdef LSF_SHORTALLOC
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>

#include "shortalloc.h"

void *
malloc(size_t n)
{
	return sa_malloc(n);
}

void *
calloc(size_t n, size_t size)
{
	return sa_calloc(n, size);
}

void *
realloc(void *p, size_t n)
{
	return sa_realloc(p, n);
}

void
free(void *p)
{
	sa_free(p);
}

void *
aligned_alloc(size_t align, size_t n)
{
	return sa_memalign(align, n);
}

void *
memalign(size_t align, size_t n)
{
	return sa_memalign(align, n);
}

int
posix_memalign(void **res, size_t align, size_t n)
{
	void *p;

	if (align < sizeof(void *))
		return EINVAL;
	if ((p = sa_memalign(align, n)) == NULL)
		return errno;
	*res = p;
	return 0;
}

size_t
malloc_usable_size(void *p)
{
	return sa_usable_size(p);
}
#else
typedef int cmd_malloc_unused;	/* ISO C wants something in a file */
#endif
