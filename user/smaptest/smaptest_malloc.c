/*
 * smaptest_malloc - libsmap's malloc family, which replaces musl's in
 * every smapcc program: sizes, reuse, alignment, realloc, calloc, large
 * blocks handed back, and that the heap is SMARTMAP-reachable.
 */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <smap.h>
#include <smapos_abi.h>
#include "tap.h"

#define MANY	20000

static void *ptrs[MANY];

static int in_region(void *p, size_t n)
{
	return smap_is_remote_ok(smap_rank(), p, n);
}

int main(void)
{
	static const size_t sizes[] = { 0, 1, 15, 16, 17, 100, 128, 129, 1000, 4096, 65536, 65537,
					1 << 20, 5 << 20 };
	size_t i, j, bad = 0;
	unsigned char *p, *q;
	void *a;
	int all_in = 1, rc;
	uintptr_t was;
	volatile size_t huge = SIZE_MAX / 2;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		p = malloc(sizes[i]);
		if (!p || ((uintptr_t)p & 15) || malloc_usable_size(p) < sizes[i])
			bad++;
		if (!in_region(p, sizes[i]))
			all_in = 0;
		memset(p, 0x55, sizes[i]);
		free(p);
	}
	tap(bad == 0, "malloc of 0..5 MiB gives 16-byte aligned blocks of at least the size",
	    "expected 0 bad blocks, got %zu", bad);
	tap(all_in, "malloc'd blocks lie in the rank's SMARTMAP region",
	    "expected every block inside the region, one was not");

	p = malloc(200);
	was = (uintptr_t)p;
	free(p);
	q = malloc(210);
	tap((uintptr_t)q == was, "a freed block is reused by the next request of its class",
	    "expected %#lx again, got %p", (unsigned long)was, (void *)q);
	free(q);

	for (i = 0; i < MANY; i++) {
		ptrs[i] = malloc(1 + (i * 7919) % 3000);
		memset(ptrs[i], (int)(i & 0xff), 1 + (i * 7919) % 3000);
	}
	bad = 0;
	for (i = 0; i < MANY; i += 2)
		free(ptrs[i]);
	for (i = 1; i < MANY; i += 2)
		for (j = 0; j < 1 + (i * 7919) % 3000; j++)
			if (((unsigned char *)ptrs[i])[j] != (i & 0xff))
				bad++;
	for (i = 1; i < MANY; i += 2)
		free(ptrs[i]);
	tap(bad == 0, "20000 live blocks keep their contents while others are freed",
	    "expected 0 changed bytes, got %zu", bad);

	p = malloc(40);
	memset(p, 0x77, 40);
	free(p);
	q = calloc(5, 8);
	bad = 0;
	for (i = 0; i < 40; i++)
		bad += q[i] != 0;
	tap(bad == 0, "calloc zeroes a reused block", "expected 0 non-zero bytes, got %zu", bad);
	free(q);
	errno = 0;
	tap(calloc(huge, 4) == NULL && errno == ENOMEM, "calloc with an overflowing size fails with ENOMEM",
	    "expected NULL and ENOMEM, got errno %d", errno);

	p = malloc(100);
	for (i = 0; i < 100; i++)
		p[i] = (unsigned char)i;
	p = realloc(p, 100000);
	bad = 0;
	for (i = 0; i < 100; i++)
		bad += p[i] != (unsigned char)i;
	p = realloc(p, 50);
	for (i = 0; i < 50; i++)
		bad += p[i] != (unsigned char)i;
	tap(bad == 0, "realloc keeps the contents when growing and shrinking",
	    "expected 0 changed bytes, got %zu", bad);
	free(p);

	bad = 0;
	for (i = 32; i <= (1 << 21); i <<= 1) {
		a = aligned_alloc(i, 100);
		bad += !a || ((uintptr_t)a & (i - 1));
		free(a);
		rc = posix_memalign(&a, i, 3000);
		bad += rc || ((uintptr_t)a & (i - 1));
		a = realloc(a, 5000);
		free(a);
		a = memalign(i, 1);
		bad += !a || ((uintptr_t)a & (i - 1)) || malloc_usable_size(a) < 1;
		free(a);
	}
	tap(bad == 0, "aligned_alloc, posix_memalign and memalign honour 32 B..2 MiB alignments",
	    "expected 0 misaligned blocks, got %zu", bad);
	tap(posix_memalign(&a, 24, 8) == EINVAL, "posix_memalign refuses an alignment that is not a power of two",
	    "expected EINVAL, got another result");

	p = malloc(64 << 20);
	memset(p, 1, 64 << 20);
	was = (uintptr_t)p;
	free(p);
	q = malloc(64 << 20);
	tap((uintptr_t)q == was, "a large block goes back to the region on free and is reused",
	    "expected %#lx again, got %p", (unsigned long)was, (void *)q);
	tap(q && q[0] == 0 && q[(64 << 20) - 1] == 0, "a large block comes back zeroed",
	    "expected zero bytes, got %d", q ? q[0] : -1);
	free(q);

	errno = 0;
	tap(malloc((size_t)1 << 50) == NULL && errno == ENOMEM, "malloc beyond the region fails with ENOMEM",
	    "expected NULL and ENOMEM, got errno %d", errno);
	return tap_failed;
}
