/* test_pmem.c - the physical extent allocator against a byte-map model. */
#include <stdint.h>
#include <stdlib.h>
#include "pmem.h"
#include "unit.h"

#define PAGE 4096ul
/* At most 250 ranges can exist, below PMEM_RANGES_MAX: every failure
 * the model sees is a real overlap, never a full table. */
#define MODEL_PAGES 500

static unsigned char model[MODEL_PAGES];	/* 1 = free */

static int same_as_model(const struct pmem *pm)
{
	unsigned char seen[MODEL_PAGES] = { 0 };

	for (unsigned i = 0; i < pm->n; i++) {
		if (pm->r[i].base >= pm->r[i].end)
			return 0;	/* empty range kept */
		if (i && pm->r[i - 1].end >= pm->r[i].base)
			return 0;	/* unsorted, overlapping or touching */
		for (uint64_t a = pm->r[i].base; a < pm->r[i].end; a += PAGE)
			seen[a / PAGE] = 1;
	}
	return memcmp(seen, model, sizeof(seen)) == 0;
}

static void test_add_merge(void)
{
	struct pmem pm;

	pmem_init(&pm);
	pmem_add(&pm, 0x1000, 0x3000);
	pmem_add(&pm, 0x5000, 0x6000);
	pmem_add(&pm, 0x3000, 0x5000);
	CHECK("adding the gap between two ranges merges all three", pm.n == 1 &&
	      pm.r[0].base == 0x1000 && pm.r[0].end == 0x6000, "%u ranges", pm.n);
	CHECK("adding an overlapping range is refused", pmem_add(&pm, 0x2000, 0x8000) == -1,
	      "accepted");
	CHECK("adding an empty range is a no-op", pmem_add(&pm, 0x9000, 0x9000) == 0 && pm.n == 1,
	      "%u ranges", pm.n);
	pmem_add(&pm, 0x6000, 0x7000);
	CHECK("adding right after the end extends the range", pm.n == 1 && pm.r[0].end == 0x7000,
	      "end %#lx", pm.r[0].end);
	pmem_add(&pm, 0x0, 0x1000);
	CHECK("adding right before the start extends the range", pm.n == 1 && pm.r[0].base == 0,
	      "base %#lx", pm.r[0].base);
}

static void test_reserve(void)
{
	struct pmem pm;

	pmem_init(&pm);
	pmem_add(&pm, 0x0, 0x10000);
	pmem_reserve(&pm, 0x4000, 0x8000);
	CHECK("reserving the middle splits the range", pm.n == 2 && pm.r[0].end == 0x4000 &&
	      pm.r[1].base == 0x8000, "%u ranges", pm.n);
	pmem_reserve(&pm, 0x2000, 0xA000);
	CHECK("reserving across a hole trims both sides", pm.n == 2 && pm.r[0].end == 0x2000 &&
	      pm.r[1].base == 0xA000, "%#lx %#lx", pm.r[0].end, pm.r[1].base);
	pmem_reserve(&pm, 0x0, 0x100000);
	CHECK("reserving everything leaves nothing", pm.n == 0 && pmem_free_bytes(&pm) == 0,
	      "%u ranges", pm.n);
}

static void test_alloc(void)
{
	struct pmem pm;
	uint64_t a, b;

	pmem_init(&pm);
	pmem_add(&pm, 0x1000, 0x400000);
	a = pmem_alloc(&pm, 0x200000, 0x200000, 0, UINT64_MAX, 0);
	CHECK("an aligned allocation is aligned", a == 0x200000, "got %#lx", a);
	b = pmem_alloc(&pm, 0x1000, 0x1000, 0, UINT64_MAX, 1);
	/* [0x200000, 0x400000) is gone: the highest free page is below it */
	CHECK("allocation from the top takes the highest free page", b == 0x1FF000, "got %#lx", b);
	a = pmem_alloc(&pm, 0x1000, 0x1000, 0x100000, 0x101000, 0);
	CHECK("allocation inside a window stays in it", a == 0x100000, "got %#lx", a);
	a = pmem_alloc(&pm, 0x400000, 0x1000, 0, UINT64_MAX, 0);
	CHECK("an allocation larger than any range fails", a == PMEM_NONE, "got %#lx", a);
	a = pmem_alloc(&pm, 0x1000, 0x3000, 0, UINT64_MAX, 0);
	CHECK("a non-power-of-two alignment is refused", a == PMEM_NONE, "got %#lx", a);
	a = pmem_alloc(&pm, 0, 0x1000, 0, UINT64_MAX, 0);
	CHECK("a zero-byte allocation is refused", a == PMEM_NONE, "got %#lx", a);
	CHECK("a free range is contained", pmem_contains(&pm, 0x2000, 0x3000), "not contained");
	CHECK("an allocated range is not contained", !pmem_contains(&pm, 0x200000, 0x201000),
	      "contained");
	/* a base + size that wrapped past 2^64 must not pass for free memory */
	CHECK("an inverted range is not contained", !pmem_contains(&pm, 0x3000, 0x2000) &&
	      !pmem_contains(&pm, 0x2000, 0x2000), "contained");
}

static void test_share(void)
{
	struct pmem pm;
	uint64_t M = 1ul << 20, s;

	pmem_init(&pm);
	/* 0-640K, 1M-3G, 4G-5G: a typical PC map */
	pmem_add(&pm, 0x1000, 0xA0000);
	pmem_add(&pm, M, 3072 * M);
	pmem_add(&pm, 4096 * M, 5120 * M);
	s = pmem_even_share(&pm, 4, 2 * M);
	CHECK("the even share of 4 ranks fits 4 extents", pmem_count_fit(&pm, s, 2 * M) >= 4,
	      "share %lu MiB fits %lu", s / M, pmem_count_fit(&pm, s, 2 * M));
	CHECK("the even share is the largest that fits", pmem_count_fit(&pm, s + 2 * M, 2 * M) < 4,
	      "share %lu MiB + 2 also fits", s / M);
	CHECK("the even share is 2 MiB aligned", s % (2 * M) == 0, "share %lu", s);
	CHECK("one rank's share is the largest aligned extent",
	      pmem_even_share(&pm, 1, 2 * M) == pmem_largest(&pm, 2 * M), "%lu vs %lu",
	      pmem_even_share(&pm, 1, 2 * M), pmem_largest(&pm, 2 * M));
	CHECK("no share when not even n x align fit", pmem_even_share(&pm, 100000, 2 * M) == 0,
	      "share %lu", pmem_even_share(&pm, 100000, 2 * M));
	for (unsigned i = 0; i < 4; i++)
		pmem_alloc(&pm, s, 2 * M, 0, UINT64_MAX, 0);
	CHECK("first fit places n shares", pmem_free_bytes(&pm) < 5120 * M - 4 * s,
	      "%lu MiB still free", pmem_free_bytes(&pm) / M);
}

/* Random adds, reserves, allocations and frees against the byte map. */
static void test_random_model(void)
{
	struct pmem pm;
	int ok = 1;

	srand(42);
	pmem_init(&pm);
	memset(model, 0, sizeof(model));
	for (int step = 0; step < 20000 && ok; step++) {
		unsigned lo = rand() % MODEL_PAGES, len = 1 + rand() % 64;
		unsigned hi = lo + len > MODEL_PAGES ? MODEL_PAGES : lo + len;
		int kind = rand() % 4;

		if (kind == 0) {
			int overlap = 0;

			for (unsigned p = lo; p < hi; p++)
				overlap |= model[p];
			int r = pmem_add(&pm, lo * PAGE, hi * PAGE);

			if (overlap != (r == -1)) {
				ok = 0;
				break;
			}
			if (r == 0)
				memset(model + lo, 1, hi - lo);
		} else if (kind == 1) {
			pmem_reserve(&pm, lo * PAGE, hi * PAGE);
			memset(model + lo, 0, hi - lo);
		} else {
			uint64_t align = PAGE << (rand() % 4);
			uint64_t a = pmem_alloc(&pm, len * PAGE, align, 0, UINT64_MAX, kind == 3);

			if (a != PMEM_NONE) {
				if (a % align)
					ok = 0;
				for (unsigned p = a / PAGE; p < a / PAGE + len; p++) {
					if (!model[p])
						ok = 0;
					model[p] = 0;
				}
			}
		}
		if (!same_as_model(&pm))
			ok = 0;
	}
	CHECK("20000 random operations agree with a page-map model", ok, "diverged");
}

int main(void)
{
	test_add_merge();
	test_reserve();
	test_alloc();
	test_share();
	test_random_model();
	return unit_failed;
}
