/*
 * shmem_heap.c - the symmetric heap: shmem_malloc and friends give the same
 * address on every PE, honour alignment, reuse freed blocks, and run out
 * at the size SHMEM_SYMMETRIC_SIZE asked for.
 *
 * usage: shmem_heap HEAP_BYTES    (what SHMEM_SYMMETRIC_SIZE is set to)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "shmemtest.h"

static size_t heap_bytes;
static void *published;

/* Every PE got the same address as PE 0. */
static void expect_symmetric(void *p, const char *what)
{
	void *p0;

	published = p;
	shmem_barrier_all();
	shmem_getmem(&p0, &published, sizeof p0, 0);
	EXPECT(p0 == p, "%s: expected PE 0's address %p, got %p", what, p0, p);
	shmem_barrier_all();
}

static void test_malloc(void)
{
	long *a = shmem_malloc(100 * sizeof *a), *b = shmem_malloc(1), mine[100];
	int i;

	expect_symmetric(a, "first block");
	expect_symmetric(b, "second block");
	t_case("malloc_returns_the_same_address_on_every_pe");

	EXPECT(((uintptr_t)a | (uintptr_t)b) % 64 == 0, "expected 64-byte alignment, got %p %p",
	       (void *)a, (void *)b);
	EXPECT(b >= a + 100, "expected blocks apart, got %p and %p", (void *)a, (void *)b);
	t_case("malloc_blocks_are_cache_lines_of_their_own");

	for (i = 0; i < 100; i++)
		mine[i] = me * 1000 + i;
	shmem_long_put(a, mine, 100, right);
	shmem_barrier_all();
	for (i = 0; i < 100; i++)
		EXPECT_EQ(left * 1000 + i, a[i]);
	t_case("heap_block_takes_puts_from_a_neighbour");
	shmem_free(b);
	shmem_free(a);
}

static void test_align(void)
{
	void *p = shmem_align(4096, 100), *q = shmem_align(1 << 20, 10);

	EXPECT((uintptr_t)p % 4096 == 0, "expected 4096-aligned, got %p", p);
	EXPECT((uintptr_t)q % (1 << 20) == 0, "expected 1 MiB-aligned, got %p", q);
	expect_symmetric(q, "aligned block");
	t_case("align_honours_the_alignment_on_every_pe");
	shmem_free(q);
	shmem_free(p);
}

static void test_reuse(void)
{
	char *a = shmem_malloc(1000), *b = shmem_malloc(1000), *c;
	int i;

	memset(a, 0xab, 1000);
	shmem_free(a);
	c = shmem_calloc(10, 100);
	EXPECT(c == a, "expected the freed block %p back, got %p", (void *)a, (void *)c);
	for (i = 0; i < 1000; i++)
		if (c[i]) {
			EXPECT(0, "expected calloc zeros, got %#x at %d", c[i], i);
			break;
		}
	t_case("calloc_reuses_a_freed_block_zeroed");
	shmem_free(b);
	shmem_free(c);

	EXPECT(shmem_malloc(0) == NULL, "expected NULL for 0 bytes");
	EXPECT(shmem_calloc(0, 8) == NULL, "expected NULL for 0 elements");
	EXPECT(shmem_calloc(SIZE_MAX / 2, 4) == NULL, "expected NULL for an overflowing calloc");
	t_case("zero_and_overflowing_sizes_return_null");
}

static void test_realloc(void)
{
	long *a = shmem_malloc(64 * sizeof *a), *fence = shmem_malloc(64), *b, *c;
	int i;

	for (i = 0; i < 64; i++)
		a[i] = me + i;
	b = shmem_realloc(a, 4096 * sizeof *b);
	EXPECT(b != NULL && b != a, "expected a moved block, got %p from %p", (void *)b, (void *)a);
	for (i = 0; i < 64; i++)
		EXPECT_EQ(me + i, b[i]);
	expect_symmetric(b, "moved block");
	shmem_long_p(&b[4095], me, right);
	shmem_barrier_all();
	EXPECT_EQ(left, b[4095]);
	t_case("realloc_moves_keeping_contents_symmetric_and_usable");

	c = shmem_realloc(b, 100 * sizeof *c);
	EXPECT(c == b, "expected shrinking in place at %p, got %p", (void *)b, (void *)c);
	for (i = 0; i < 64; i++)
		EXPECT_EQ(me + i, c[i]);
	t_case("realloc_shrinks_in_place");
	shmem_free(fence);
	c = shmem_realloc(c, 0);
	EXPECT(c == NULL, "expected NULL from realloc to 0, got %p", (void *)c);
	c = shmem_realloc(NULL, 64);
	EXPECT(c != NULL, "expected realloc(NULL) to allocate");
	t_case("realloc_of_null_allocates_and_to_zero_frees");
	shmem_free(c);
}

/* The whole heap is one block once everything is free again. */
static void test_exhaustion(void)
{
	void *all = shmem_malloc(heap_bytes), *more;

	EXPECT(all != NULL, "expected the whole %zu-byte heap in one block, got NULL", heap_bytes);
	more = shmem_malloc(64);
	EXPECT(more == NULL, "expected NULL once the heap is full, got %p", more);
	EXPECT(shmem_malloc(heap_bytes + 1) == NULL, "expected NULL past the heap size");
	t_case("heap_holds_exactly_shmem_symmetric_size");
	shmem_free(all);
}

static void test_hints_and_legacy(void)
{
	long *p = shmem_malloc_with_hints(64, SHMEM_MALLOC_ATOMICS_REMOTE);
	long *q = shmem_malloc_with_hints(64, 0);
	long *r = shmalloc(64), *s = shmemalign(256, 64);

	EXPECT(p && q && r && s, "expected 4 blocks, got %p %p %p %p", (void *)p, (void *)q,
	       (void *)r, (void *)s);
	EXPECT((uintptr_t)s % 256 == 0, "expected shmemalign 256, got %p", (void *)s);
	*p = 0;
	shmem_barrier_all();
	shmem_long_atomic_inc(p, 0);
	shmem_barrier_all();
	if (me == 0)
		EXPECT_EQ(npes, *p);
	r = shrealloc(r, 1 << 16);
	EXPECT(r != NULL, "expected shrealloc to grow");
	shfree(r);
	shfree(s);
	shmem_free(q);
	shmem_free(p);
	t_case("hints_and_legacy_names_allocate");
}

int main(int argc, char **argv)
{
	t_init();
	heap_bytes = argc > 1 ? strtoull(argv[1], NULL, 0) : 0;
	test_malloc();
	test_align();
	test_reuse();
	test_realloc();
	if (heap_bytes)
		test_exhaustion();
	test_hints_and_legacy();
	shmem_finalize();
	return 0;
}
