/* pmem.c - the free-extent allocator (see pmem.h).  Invariant: ranges are
 * sorted by base, non-empty, and never touch (touching ones are merged). */
#include <string.h>
#include "pmem.h"

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

void pmem_init(struct pmem *pm)
{
	pm->n = 0;
}

static void remove_at(struct pmem *pm, unsigned i)
{
	memmove(&pm->r[i], &pm->r[i + 1], (pm->n - i - 1) * sizeof(pm->r[0]));
	pm->n--;
}

static int insert_at(struct pmem *pm, unsigned i, uint64_t base, uint64_t end)
{
	if (pm->n == PMEM_RANGES_MAX)
		return -1;
	memmove(&pm->r[i + 1], &pm->r[i], (pm->n - i) * sizeof(pm->r[0]));
	pm->r[i] = (struct pmem_range){ base, end };
	pm->n++;
	return 0;
}

int pmem_add(struct pmem *pm, uint64_t base, uint64_t end)
{
	unsigned i = 0;
	int left, right;

	if (end <= base)
		return 0;
	while (i < pm->n && pm->r[i].end <= base)
		i++;
	/* r[i] is the first range ending after base: it must start at or after end. */
	if (i < pm->n && pm->r[i].base < end)
		return -1;
	left = i > 0 && pm->r[i - 1].end == base;
	right = i < pm->n && pm->r[i].base == end;
	if (left && right) {
		pm->r[i - 1].end = pm->r[i].end;
		remove_at(pm, i);
	} else if (left) {
		pm->r[i - 1].end = end;
	} else if (right) {
		pm->r[i].base = base;
	} else {
		return insert_at(pm, i, base, end);
	}
	return 0;
}

int pmem_reserve(struct pmem *pm, uint64_t base, uint64_t end)
{
	for (unsigned i = 0; i < pm->n && base < end; i++) {
		struct pmem_range *r = &pm->r[i];

		if (r->end <= base || r->base >= end)
			continue;
		if (r->base >= base && r->end <= end) {
			remove_at(pm, i);
			i--;
		} else if (r->base < base && r->end > end) {
			if (insert_at(pm, i + 1, end, r->end) < 0)
				return -1;
			pm->r[i].end = base;
		} else if (r->base < base) {
			r->end = base;
		} else {
			r->base = end;
		}
	}
	return 0;
}

uint64_t pmem_alloc(struct pmem *pm, uint64_t size, uint64_t align,
		    uint64_t lo, uint64_t hi, int top)
{
	if (size == 0 || align == 0 || (align & (align - 1)))
		return PMEM_NONE;
	for (unsigned k = 0; k < pm->n; k++) {
		unsigned i = top ? pm->n - 1 - k : k;
		uint64_t b = pm->r[i].base > lo ? pm->r[i].base : lo;
		uint64_t e = pm->r[i].end < hi ? pm->r[i].end : hi;
		uint64_t at;

		if (e <= b || e - b < size)
			continue;
		if (top) {
			at = (e - size) & ~(align - 1);
			if (at < b)
				continue;
		} else {
			at = align_up(b, align);
			if (at < b || at > e || e - at < size)
				continue;
		}
		if (pmem_reserve(pm, at, at + size) < 0)
			return PMEM_NONE;
		return at;
	}
	return PMEM_NONE;
}

void pmem_free(struct pmem *pm, uint64_t base, uint64_t size)
{
	pmem_add(pm, base, base + size);
}

int pmem_contains(const struct pmem *pm, uint64_t base, uint64_t end)
{
	/* An inverted range (a wrapped base + size) is not free memory */
	if (end <= base)
		return 0;
	for (unsigned i = 0; i < pm->n; i++)
		if (pm->r[i].base <= base && end <= pm->r[i].end)
			return 1;
	return 0;
}

uint64_t pmem_free_bytes(const struct pmem *pm)
{
	uint64_t t = 0;

	for (unsigned i = 0; i < pm->n; i++)
		t += pm->r[i].end - pm->r[i].base;
	return t;
}

uint64_t pmem_count_fit(const struct pmem *pm, uint64_t size, uint64_t align)
{
	uint64_t count = 0;

	if (size == 0)
		return 0;
	for (unsigned i = 0; i < pm->n; i++) {
		uint64_t b = align_up(pm->r[i].base, align);

		/* size is a multiple of align, so slots after the first stay aligned */
		if (b < pm->r[i].end)
			count += (pm->r[i].end - b) / size;
	}
	return count;
}

uint64_t pmem_even_share(const struct pmem *pm, unsigned n, uint64_t align)
{
	uint64_t lo = 0, hi;

	if (n == 0)
		return 0;
	hi = pmem_largest(pm, align) / align;
	/* Largest k with count_fit(k * align) >= n; count_fit falls as k grows. */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (pmem_count_fit(pm, mid * align, align) >= n)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo * align;
}

uint64_t pmem_largest(const struct pmem *pm, uint64_t align)
{
	uint64_t best = 0;

	for (unsigned i = 0; i < pm->n; i++) {
		uint64_t b = align_up(pm->r[i].base, align);

		if (b < pm->r[i].end && pm->r[i].end - b > best)
			best = pm->r[i].end - b;
	}
	return best & ~(align - 1);
}
