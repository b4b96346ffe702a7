/*
 * An allocator for processes that live a few milliseconds.
 *
 * Why: musl's allocator maps a fresh group of pages for each size class
 * the first time it is used and unmaps a group as soon as it is empty.
 * A bsub touches a dozen size classes reading three small files, so it
 * paid some fifteen page faults and a dozen mmap/munmap calls (each
 * munmap a TLB flush, which on a VM is dear): about 50 us of a 580 us
 * submission (docs/PERFORMANCE.md).  Here blocks come from one region in
 * .bss, then from 1 MiB regions, by powers of two, each class with its
 * free list; nothing small is given back to the system, which a command
 * never needs.  Blocks above 64 KiB are mapped and unmapped one by one,
 * so a long listing's buffers do not stay.
 *
 * Single-threaded, as the commands are.  Every block has a 16-byte
 * header just before it: the class (shifted left one bit), or the
 * mapping's length with the low bit set and the mapping's start.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shortalloc.h"

#define HDR		16
#define MIN_SHIFT	4		/* the smallest class: 16 bytes */
#define NCLASS		13		/* 16 bytes .. 64 KiB */
#define MAX_SMALL	((size_t)1 << (MIN_SHIFT + NCLASS - 1))
#define REGION		((size_t)1 << 20)
#define LARGE		1

struct hdr {
	size_t	 tag;
	char	*base;			/* a large block's mapping */
};

struct freeblk {
	struct freeblk	*next;
};

static char first_region[256 * 1024] __attribute__((aligned(HDR)));
static char *cur = first_region;
static char *end = first_region + sizeof(first_region);
static struct freeblk *freelist[NCLASS];

static struct hdr *
hdr_of(const void *p)
{
	return (struct hdr *)((uintptr_t)p - HDR);
}

static int
class_of(size_t n)
{
	if (n <= ((size_t)1 << MIN_SHIFT))
		return 0;
	return (int)(sizeof(long) * 8 - (size_t)__builtin_clzl(n - 1)) -
	    MIN_SHIFT;
}

static size_t
page_round(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return (n + pg - 1) & ~(pg - 1);
}

static void *
carve(size_t len)
{
	char *p;

	if ((size_t)(end - cur) < len) {
		p = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			errno = ENOMEM;
			return NULL;
		}
		cur = p;
		end = p + REGION;
	}
	p = cur;
	cur += len;
	return p;
}

/* Tag the block at p as the mapping of len bytes at base. */
static void *
set_large(char *p, char *base, size_t len)
{
	struct hdr *h = hdr_of(p);

	h->tag = len | LARGE;
	h->base = base;
	return p;
}

/* A mapped block of n bytes aligned to align (a power of two >= HDR). */
static void *
map_large(size_t n, size_t align)
{
	size_t len;
	char *base, *p;

	if (n > SIZE_MAX - align - HDR - (size_t)sysconf(_SC_PAGESIZE)) {
		errno = ENOMEM;
		return NULL;
	}
	len = page_round(n + HDR + (align > HDR ? align : 0));
	base = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		errno = ENOMEM;
		return NULL;
	}
	p = (char *)(((uintptr_t)base + HDR + align - 1) &
	    ~(uintptr_t)(align - 1));
	return set_large(p, base, len);
}

void *
sa_malloc(size_t n)
{
	struct freeblk *b;
	struct hdr *h;
	int c;

	if (n > MAX_SMALL)
		return map_large(n, HDR);
	c = class_of(n);
	if ((b = freelist[c]) != NULL) {
		freelist[c] = b->next;
		return b;
	}
	if ((h = carve(HDR + ((size_t)1 << (MIN_SHIFT + c)))) == NULL)
		return NULL;
	h->tag = (size_t)c << 1;
	return h + 1;
}

void
sa_free(void *p)
{
	struct hdr *h;
	struct freeblk *b = p;
	int c;

	if (p == NULL)
		return;
	h = hdr_of(p);
	if (h->tag & LARGE) {
		munmap(h->base, h->tag & ~(size_t)LARGE);
		return;
	}
	c = (int)(h->tag >> 1);
	b->next = freelist[c];
	freelist[c] = b;
}

size_t
sa_usable_size(const void *p)
{
	const struct hdr *h;

	if (p == NULL)
		return 0;
	h = hdr_of(p);
	if (h->tag & LARGE)
		return (h->tag & ~(size_t)LARGE) -
		    (size_t)((const char *)p - h->base);
	return (size_t)1 << (MIN_SHIFT + (h->tag >> 1));
}

void *
sa_calloc(size_t n, size_t size)
{
	void *p;

	if (size != 0 && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	if ((p = sa_malloc(n * size)) == NULL)
		return NULL;
	/* A fresh mapping is zero; a small block may have been used. */
	if (!(hdr_of(p)->tag & LARGE))
		memset(p, 0, n * size);
	return p;
}

void *
sa_realloc(void *p, size_t n)
{
	struct hdr *h;
	size_t old;
	void *q;

	if (p == NULL)
		return sa_malloc(n);
	old = sa_usable_size(p);
	if (n <= old)
		return p;
	h = hdr_of(p);
	/* A large block that starts its mapping grows where it can. */
	if ((h->tag & LARGE) && (char *)p == h->base + HDR &&
	    n <= SIZE_MAX - HDR - (size_t)sysconf(_SC_PAGESIZE)) {
		size_t len = page_round(n + HDR);
		char *base = mremap(h->base, h->tag & ~(size_t)LARGE, len,
		    MREMAP_MAYMOVE);

		if (base == MAP_FAILED) {
			errno = ENOMEM;
			return NULL;
		}
		return set_large(base + HDR, base, len);
	}
	if ((q = sa_malloc(n)) == NULL)
		return NULL;
	memcpy(q, p, old);
	sa_free(p);
	return q;
}

void *
sa_memalign(size_t align, size_t n)
{
	if (align == 0 || (align & (align - 1)) != 0) {
		errno = EINVAL;
		return NULL;
	}
	if (align <= HDR)
		return sa_malloc(n);
	return map_large(n, align);
}
