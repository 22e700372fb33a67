/*
 * malloc.c - the C allocator of every smapcc program, on both platforms.
 *
 * It replaces musl's (a static link takes the first definition), so that
 * in host mode the heap lies in the shared region like everything else a
 * rank can name; on the kernel it is simply a compact allocator over the
 * region's pages.  musl's own internal calls (__libc_malloc and friends)
 * land here too, so no second allocator is linked.
 *
 * Small requests (up to 64 KiB) round up to one of 44 size classes (16-byte
 * steps to 128, then four per power of two) and are carved from 1 MiB
 * chunks; freed blocks go on their class's list and are reused first.
 * Larger requests get pages of their own, handed back on free, except the
 * last few freed (16 MiB in all): a program (or libsmap's own collectives) that
 * allocates and frees one big buffer in a loop would otherwise pay for
 * fresh pages every time (in host mode a fault and a zeroed page per 4 KiB:
 * a 1 MiB buffer cost about 1 ms on the development machine; glibc's
 * sliding mmap threshold avoids the same).  Every block
 * carries a 16-byte header in front, which also lets free() recognise
 * foreign and doubly freed pointers and stop the job instead of corrupting
 * it.  One lock: the ranks of a job are single-threaded as a rule.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"

#define MALLOC_HDR	16
#define MALLOC_SMALL	65536
#define MALLOC_CLASSES	44
#define MALLOC_CHUNK	(1UL << 20)

#define MAGIC_SMALL	0x5a11b10cu
#define MAGIC_LARGE	0x1a26eb10u
#define MAGIC_ALIGNED	0xa119edb1u
#define MAGIC_FREE	0xf4eeb10cu

struct malloc_hdr {
	uint32_t magic;
	uint32_t cls;
	uint64_t len;	/* large: pages mapped; aligned: offset to the real block */
};

struct malloc_free {
	struct malloc_free *next;
};

#define MALLOC_KEEP		8		/* large blocks kept after free */
#define MALLOC_KEEP_MAX		(16UL << 20)	/* the largest kept, and all kept */

static struct malloc_free *malloc_lists[MALLOC_CLASSES];
static struct malloc_hdr *malloc_kept[MALLOC_KEEP];	/* oldest first */
static size_t malloc_kept_bytes;
static char *malloc_bump, *malloc_bump_end;
static int malloc_lock;

static unsigned malloc_class(size_t n)
{
	unsigned b;

	if (n <= 128)
		return n == 0 ? 0 : (unsigned)((n + 15) / 16 - 1);
	b = 63 - __builtin_clzl(n - 1);
	return 8 + (b - 7) * 4 + (unsigned)((n - 1 - (1UL << b)) >> (b - 2));
}

static size_t malloc_class_size(unsigned c)
{
	unsigned b;

	if (c < 8)
		return (c + 1) * 16;
	b = 7 + (c - 8) / 4;
	return (1UL << b) + ((c - 8) % 4 + 1) * (1UL << (b - 2));
}

static struct malloc_hdr *malloc_header(void *p)
{
	return (struct malloc_hdr *)((char *)p - MALLOC_HDR);
}

/* A block of class c; *fresh says it was never used (so reads as zero). */
static void *malloc_small(unsigned c, int *fresh)
{
	size_t need = malloc_class_size(c) + MALLOC_HDR;
	struct malloc_hdr *h;
	struct malloc_free *f;

	core_lock(&malloc_lock);
	f = malloc_lists[c];
	if (f) {
		malloc_lists[c] = f->next;
		core_unlock(&malloc_lock);
		h = malloc_header(f);
		h->magic = MAGIC_SMALL;
		*fresh = 0;
		return f;
	}
	if ((size_t)(malloc_bump_end - malloc_bump) < need) {
		char *chunk = mem_map(MALLOC_CHUNK);

		if (!chunk) {
			core_unlock(&malloc_lock);
			return NULL;
		}
		/* The old chunk's tail still serves the largest class it holds. */
		if ((size_t)(malloc_bump_end - malloc_bump) > MALLOC_HDR + 16) {
			unsigned t = malloc_class(malloc_bump_end - malloc_bump - MALLOC_HDR);

			if (malloc_class_size(t) + MALLOC_HDR > (size_t)(malloc_bump_end - malloc_bump))
				t--;
			h = (struct malloc_hdr *)malloc_bump;
			h->magic = MAGIC_FREE;
			h->cls = t;
			h->len = 0;
			f = (struct malloc_free *)(h + 1);
			f->next = malloc_lists[t];
			malloc_lists[t] = f;
		}
		malloc_bump = chunk;
		malloc_bump_end = chunk + MALLOC_CHUNK;
	}
	h = (struct malloc_hdr *)malloc_bump;
	malloc_bump += need;
	core_unlock(&malloc_lock);
	h->magic = MAGIC_SMALL;
	h->cls = c;
	h->len = 0;
	*fresh = 1;
	return h + 1;
}

/* A kept block of len to len + len/4 bytes (any, for len 0), taken out,
 * or NULL. */
static struct malloc_hdr *malloc_reuse(size_t len)
{
	struct malloc_hdr *h = NULL;
	int best = -1;

	core_lock(&malloc_lock);
	for (int i = 0; i < MALLOC_KEEP && malloc_kept[i]; i++)
		if (!len || (malloc_kept[i]->len >= len && malloc_kept[i]->len <= len + len / 4 &&
			     (best < 0 || malloc_kept[i]->len < malloc_kept[best]->len)))
			best = i;
	if (best >= 0) {
		h = malloc_kept[best];
		malloc_kept_bytes -= h->len;
		for (int i = best; i < MALLOC_KEEP - 1; i++)
			malloc_kept[i] = malloc_kept[i + 1];
		malloc_kept[MALLOC_KEEP - 1] = NULL;
	}
	core_unlock(&malloc_lock);
	return h;
}

/* Keeps h if it fits, handing back the oldest kept blocks to make room. */
static void malloc_keep(struct malloc_hdr *h)
{
	struct malloc_hdr *out[MALLOC_KEEP];
	int i, n = 0;

	if (h->len > MALLOC_KEEP_MAX) {
		mem_unmap(h, h->len);
		return;
	}
	core_lock(&malloc_lock);
	while (malloc_kept[0] && (malloc_kept[MALLOC_KEEP - 1] ||
				  malloc_kept_bytes + h->len > MALLOC_KEEP_MAX)) {
		out[n++] = malloc_kept[0];
		malloc_kept_bytes -= malloc_kept[0]->len;
		for (i = 0; i < MALLOC_KEEP - 1; i++)
			malloc_kept[i] = malloc_kept[i + 1];
		malloc_kept[MALLOC_KEEP - 1] = NULL;
	}
	for (i = 0; malloc_kept[i]; i++)
		;
	malloc_kept[i] = h;
	malloc_kept_bytes += h->len;
	core_unlock(&malloc_lock);
	while (n--)
		mem_unmap(out[n], out[n]->len);
}

/* Hands back every kept block: memory ran out. */
static int malloc_unkeep(void)
{
	struct malloc_hdr *h;
	int n = 0;

	while ((h = malloc_reuse(0)))
		mem_unmap(h, h->len), n++;
	return n;
}

static void *malloc_large(size_t n, int *fresh)
{
	size_t len = core_page_up(n + MALLOC_HDR);
	struct malloc_hdr *h = malloc_reuse(len);

	*fresh = !h;
	if (h) {
		h->magic = MAGIC_LARGE;		/* h->len: the block's own pages */
		return h + 1;
	}
	h = mem_map(len);
	if (!h && malloc_unkeep())
		h = mem_map(len);
	if (!h)
		return NULL;
	h->magic = MAGIC_LARGE;
	h->cls = MALLOC_CLASSES;
	h->len = len;
	return h + 1;
}

static void *malloc_any(size_t n, int *fresh)
{
	void *p;

	if (n > PTRDIFF_MAX - CORE_PAGE) {
		errno = ENOMEM;
		return NULL;
	}
	*fresh = 1;
	p = n <= MALLOC_SMALL ? malloc_small(malloc_class(n), fresh) : malloc_large(n, fresh);
	if (!p)
		errno = ENOMEM;
	return p;
}

void *malloc(size_t n)
{
	int fresh;

	return malloc_any(n, &fresh);
}

void *calloc(size_t m, size_t n)
{
	int fresh;
	size_t total;
	void *p;

	if (__builtin_mul_overflow(m, n, &total)) {
		errno = ENOMEM;
		return NULL;
	}
	p = malloc_any(total, &fresh);
	if (p && !fresh)
		memset(p, 0, total);
	return p;
}

/* The header of the block p belongs to, checked; stops the job if bad. */
static struct malloc_hdr *malloc_owner(void *p, const char *call)
{
	struct malloc_hdr *h = malloc_header(p);

	if ((uintptr_t)p & 15)
		core_fatal("%s(): invalid pointer %p (not from malloc)", call, p);
	if (h->magic == MAGIC_ALIGNED)
		h = malloc_header((char *)p - h->len);
	if (h->magic == MAGIC_SMALL || h->magic == MAGIC_LARGE)
		return h;
	if (h->magic == MAGIC_FREE)
		core_fatal("%s(): pointer %p was already freed", call, p);
	core_fatal("%s(): invalid pointer %p (not from malloc)", call, p);
}

void free(void *p)
{
	struct malloc_hdr *h;
	struct malloc_free *f;

	if (!p)
		return;
	h = malloc_owner(p, "free");
	if (h->magic == MAGIC_LARGE) {
		h->magic = MAGIC_FREE;
		malloc_keep(h);
		return;
	}
	h->magic = MAGIC_FREE;
	f = (struct malloc_free *)(h + 1);
	core_lock(&malloc_lock);
	f->next = malloc_lists[h->cls];
	malloc_lists[h->cls] = f;
	core_unlock(&malloc_lock);
}

static size_t malloc_usable(void *p, const char *call)
{
	struct malloc_hdr *h = malloc_owner(p, call);
	size_t room = h->magic == MAGIC_LARGE ? h->len - MALLOC_HDR : malloc_class_size(h->cls);

	return room - (size_t)((char *)p - (char *)(h + 1));
}

size_t malloc_usable_size(void *p)
{
	return p ? malloc_usable(p, "malloc_usable_size") : 0;
}

void *realloc(void *p, size_t n)
{
	size_t have;
	void *q;

	if (!p)
		return malloc(n);
	have = malloc_usable(p, "realloc");
	if (n <= have && (n > MALLOC_SMALL / 2 || have <= MALLOC_SMALL))
		return p;
	q = malloc(n);
	if (!q)
		return NULL;
	memcpy(q, p, n < have ? n : have);
	free(p);
	return q;
}

void *aligned_alloc(size_t align, size_t n)
{
	struct malloc_hdr *h;
	char *p, *q;
	int fresh;

	if (align == 0 || (align & (align - 1))) {
		errno = EINVAL;
		return NULL;
	}
	if (align <= 16)
		return malloc(n);
	if (n > PTRDIFF_MAX - align) {
		errno = ENOMEM;
		return NULL;
	}
	p = malloc_any(n + align, &fresh);
	if (!p)
		return NULL;
	q = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
	if (q != p) {
		h = malloc_header(q);
		h->magic = MAGIC_ALIGNED;
		h->cls = 0;
		h->len = q - p;
	}
	return q;
}

void *memalign(size_t align, size_t n)
{
	return aligned_alloc(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	p = aligned_alloc(align, n);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

/* musl's internal entry points (locale, atexit, time zones...). */
void *__libc_malloc(size_t n) __attribute__((alias("malloc"), copy(malloc)));
void *__libc_calloc(size_t m, size_t n) __attribute__((alias("calloc"), copy(calloc)));
void *__libc_realloc(void *p, size_t n) __attribute__((alias("realloc"), copy(realloc)));
void __libc_free(void *p) __attribute__((alias("free"), copy(free)));
