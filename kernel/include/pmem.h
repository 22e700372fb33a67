/*
 * pmem.h - physical memory as a sorted list of free extents.
 *
 * The kernel keeps two pools: `kpool` for its own pages (page tables,
 * stacks, buffers), carved once at boot, and `upool` for the ranks'
 * regions, which takes everything else.  A job therefore never starves the
 * kernel, and "node memory left after the kernel" has a precise meaning:
 * what upool holds.  Pure logic: unit-tested on the host.
 */
#ifndef PMEM_H
#define PMEM_H

#include <stdint.h>

#define PMEM_RANGES_MAX		256
#define PMEM_NONE		UINT64_MAX

struct pmem_range {
	uint64_t base;		/* inclusive */
	uint64_t end;		/* exclusive */
};

struct pmem {
	unsigned n;
	struct pmem_range r[PMEM_RANGES_MAX];
};

void pmem_init(struct pmem *pm);
/* Add [base, end) as free; merges with neighbours.  -1 if it overlaps
 * memory already free or the table is full. */
int pmem_add(struct pmem *pm, uint64_t base, uint64_t end);
/* Take [base, end) out of the free list (whatever part of it is free). */
int pmem_reserve(struct pmem *pm, uint64_t base, uint64_t end);
/* First fit of `size` bytes aligned to `align` (a power of two) inside
 * [lo, hi); from the top of that window when `top`.  PMEM_NONE if none. */
uint64_t pmem_alloc(struct pmem *pm, uint64_t size, uint64_t align,
		    uint64_t lo, uint64_t hi, int top);
void pmem_free(struct pmem *pm, uint64_t base, uint64_t size);
/* 1 if all of [base, end) is free; 0 for an empty or inverted range. */
int pmem_contains(const struct pmem *pm, uint64_t base, uint64_t end);
uint64_t pmem_free_bytes(const struct pmem *pm);
/* How many extents of `size` bytes aligned to `align` fit at once. */
uint64_t pmem_count_fit(const struct pmem *pm, uint64_t size, uint64_t align);
/* The largest multiple of `align` of which `n` aligned extents fit at once
 * (0 if not even n x align do): the even share of n ranks. */
uint64_t pmem_even_share(const struct pmem *pm, unsigned n, uint64_t align);
/* The largest single free extent aligned to `align`. */
uint64_t pmem_largest(const struct pmem *pm, uint64_t align);

#endif
