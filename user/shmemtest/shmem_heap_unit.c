/*
 * shmem_heap_unit.c - host unit test of the symmetric heap's allocator
 * (libsmap/shmem/heap.c, the same source libsmap builds).  TAP lines.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "heap.h"

static int failures;

/* One TAP line; fmt says what was expected and what came. */
static void check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("ok %s\n", name);
		return;
	}
	printf("not ok %s - ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failures++;
}

#define EXPECT_EQ(name, want, got)					\
	do {								\
		long long w_ = (long long)(want), g_ = (long long)(got); \
		check(w_ == g_, name, "expected %lld, got %lld", w_, g_); \
	} while (0)

/* The table tiles [0, size) and no two free extents touch. */
static int heap_consistent(const struct heap *h)
{
	size_t i, at = 0;

	for (i = 0; i < h->n; i++) {
		if (h->ext[i].off != at || h->ext[i].len == 0)
			return 0;
		if (i > 0 && !h->ext[i].used && !h->ext[i - 1].used)
			return 0;
		at += h->ext[i].len;
	}
	return at == h->size;
}

static void test_small_blocks_take_whole_cache_lines(void)
{
	struct heap h;

	heap_init(&h, 0, 1 << 20);
	EXPECT_EQ("first_block_at_offset_0", 0, heap_alloc(&h, 1, 1));
	EXPECT_EQ("one_byte_block_takes_a_cache_line", 64, heap_alloc(&h, 1, 1));
	EXPECT_EQ("block_size_is_rounded_to_64", 64, heap_block_size(&h, 64));
	heap_fini(&h);
}

static void test_alignment_and_first_fit(void)
{
	struct heap h;

	heap_init(&h, 0, 1 << 20);
	heap_alloc(&h, 100, 0);
	EXPECT_EQ("aligned_block_starts_on_its_alignment", 4096, heap_alloc(&h, 10, 4096));
	EXPECT_EQ("next_block_fills_the_gap_before_it", 128, heap_alloc(&h, 64, 0));
	EXPECT_EQ("non_power_of_two_alignment_is_refused", (long long)HEAP_NONE,
		  heap_alloc(&h, 64, 96));
	heap_fini(&h);
	heap_init(&h, 0x1000, 1 << 20);
	EXPECT_EQ("alignment_is_of_the_address_not_the_offset", 0xff000,
		  heap_alloc(&h, 64, 1 << 20));
	check(heap_consistent(&h), "table_tiles_heap_after_aligned_allocs",
	      "expected extents tiling the heap with no free neighbours, got %zu extents", h.n);
	heap_fini(&h);
}

static void test_exhaustion(void)
{
	struct heap h;

	heap_init(&h, 0, 4096);
	EXPECT_EQ("too_large_block_is_refused", (long long)HEAP_NONE, heap_alloc(&h, 4097, 0));
	EXPECT_EQ("block_of_the_whole_heap_fits", 0, heap_alloc(&h, 4096, 0));
	EXPECT_EQ("full_heap_refuses_one_more_byte", (long long)HEAP_NONE, heap_alloc(&h, 1, 0));
	heap_fini(&h);
}

static void test_free_coalesces(void)
{
	enum { N = 200 };
	size_t off[N];
	struct heap h;
	int i, ok = 1;

	heap_init(&h, 0, N * 128);
	for (i = 0; i < N; i++)
		off[i] = heap_alloc(&h, 100, 0);
	/* Free in an order that leaves holes on both sides of later frees. */
	for (i = 0; i < N; i += 2)
		ok &= heap_free(&h, off[i]) == 0;
	for (i = N - 1; i > 0; i -= 2)
		ok &= heap_free(&h, off[i]) == 0;
	check(ok, "every_block_frees_once", "expected every heap_free to return 0, one did not");
	EXPECT_EQ("freed_heap_is_one_extent", 1, h.n);
	EXPECT_EQ("freed_heap_serves_its_whole_size", 0, heap_alloc(&h, N * 128, 0));
	heap_fini(&h);
}

static void test_free_rejects_bad_offsets(void)
{
	struct heap h;
	size_t a;

	heap_init(&h, 0, 1 << 16);
	a = heap_alloc(&h, 256, 0);
	heap_alloc(&h, 256, 0);
	EXPECT_EQ("free_inside_a_block_is_refused", -1, heap_free(&h, a + 64));
	EXPECT_EQ("free_of_a_block_succeeds", 0, heap_free(&h, a));
	EXPECT_EQ("second_free_is_refused", -1, heap_free(&h, a));
	heap_fini(&h);
}

static void test_resize(void)
{
	struct heap h;
	size_t a, b;

	heap_init(&h, 0, 1 << 16);
	a = heap_alloc(&h, 128, 0);
	EXPECT_EQ("resize_grows_into_free_space", 0, heap_resize(&h, a, 1024));
	EXPECT_EQ("grown_block_has_new_size", 1024, heap_block_size(&h, a));
	b = heap_alloc(&h, 64, 0);
	EXPECT_EQ("block_after_grown_one_follows_it", 1024, b);
	EXPECT_EQ("resize_into_a_used_block_is_refused", -1, heap_resize(&h, a, 2048));
	EXPECT_EQ("resize_shrinks_in_place", 0, heap_resize(&h, a, 256));
	EXPECT_EQ("shrunk_tail_is_reused", 256, heap_alloc(&h, 512, 0));
	check(heap_consistent(&h), "table_tiles_heap_after_resizes",
	      "expected extents tiling the heap with no free neighbours, got %zu extents", h.n);
	heap_fini(&h);
}

/* Random allocations, frees and resizes against a byte map of ownership. */
static void test_random_against_model(void)
{
	enum { SIZE = 1 << 16, SLOTS = 64, STEPS = 20000 };
	static unsigned char owner[SIZE];
	size_t off[SLOTS], len[SLOTS];
	struct heap h;
	int step, bad = 0;
	unsigned seed = 12345;

	heap_init(&h, 0, SIZE);
	memset(owner, 0, sizeof owner);
	for (step = 0; step < SLOTS; step++)
		off[step] = HEAP_NONE;
	for (step = 0; step < STEPS && !bad; step++) {
		int s = (seed = seed * 1103515245 + 12345) >> 16 & (SLOTS - 1);
		size_t want = ((seed >> 8) % 3000) + 1, i;

		if (off[s] == HEAP_NONE) {
			size_t align = (size_t)64 << ((seed >> 4) % 4);
			size_t o = heap_alloc(&h, want, align);

			if (o == HEAP_NONE)
				continue;
			len[s] = heap_block_size(&h, o);
			for (i = o; i < o + len[s]; i++)
				bad |= owner[i] != 0 || o % align != 0;
			memset(owner + o, s + 1, len[s]);
			off[s] = o;
		} else if (seed & 0x100) {
			if (heap_resize(&h, off[s], want) == 0) {
				size_t nl = heap_block_size(&h, off[s]);

				memset(owner + off[s], 0, len[s]);
				for (i = off[s]; i < off[s] + nl; i++)
					bad |= owner[i] != 0;
				memset(owner + off[s], s + 1, nl);
				len[s] = nl;
			}
		} else {
			bad |= heap_free(&h, off[s]) != 0;
			memset(owner + off[s], 0, len[s]);
			off[s] = HEAP_NONE;
		}
		bad |= !heap_consistent(&h);
	}
	check(!bad, "random_operations_never_overlap_blocks",
	      "expected disjoint aligned blocks in a tiled table, broken at step %d", step);
	heap_fini(&h);
}

int main(void)
{
	test_small_blocks_take_whole_cache_lines();
	test_alignment_and_first_fit();
	test_exhaustion();
	test_free_coalesces();
	test_free_rejects_bad_offsets();
	test_resize();
	test_random_against_model();
	return failures != 0;
}
