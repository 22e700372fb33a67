/*
 * heap.c - first fit over a sorted extent table (see heap.h).
 *
 * The table always tiles [0, size) exactly, and no two free extents are
 * neighbours: every change re-merges, so a fully freed heap is one extent
 * again.  Lookups by offset are binary searches; inserts shift the table,
 * which is fine for the few hundred live blocks SHMEM programs keep.
 */
#include <stdlib.h>
#include <string.h>
#include "heap.h"

static size_t heap_round(size_t x, size_t a)
{
	return (x + a - 1) & ~(a - 1);
}

int heap_init(struct heap *h, size_t base, size_t size)
{
	h->cap = 16;
	h->ext = malloc(h->cap * sizeof *h->ext);
	if (!h->ext)
		return -1;
	h->base = base;
	h->size = size;
	h->n = 1;
	h->ext[0] = (struct heap_extent){ 0, size, 0 };
	return 0;
}

void heap_fini(struct heap *h)
{
	free(h->ext);
	memset(h, 0, sizeof *h);
}

/* Index of the extent starting at off, or h->n. */
static size_t heap_find(const struct heap *h, size_t off)
{
	size_t lo = 0, hi = h->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->ext[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < h->n && h->ext[lo].off == off ? lo : h->n;
}

/* Room for k more extents: 0, or -1 when the table cannot grow. */
static int heap_reserve(struct heap *h, size_t k)
{
	struct heap_extent *e;
	size_t cap = h->cap;

	while (h->n + k > cap)
		cap *= 2;
	if (cap == h->cap)
		return 0;
	e = realloc(h->ext, cap * sizeof *e);
	if (!e)
		return -1;
	h->ext = e;
	h->cap = cap;
	return 0;
}

/* Open a slot at index i (room reserved beforehand). */
static void heap_open(struct heap *h, size_t i)
{
	memmove(&h->ext[i + 1], &h->ext[i], (h->n - i) * sizeof *h->ext);
	h->n++;
}

static void heap_close(struct heap *h, size_t i)
{
	memmove(&h->ext[i], &h->ext[i + 1], (h->n - i - 1) * sizeof *h->ext);
	h->n--;
}

/* Merge free extent i with free neighbours. */
static void heap_merge(struct heap *h, size_t i)
{
	if (i + 1 < h->n && !h->ext[i + 1].used) {
		h->ext[i].len += h->ext[i + 1].len;
		heap_close(h, i + 1);
	}
	if (i > 0 && !h->ext[i - 1].used) {
		h->ext[i - 1].len += h->ext[i].len;
		heap_close(h, i);
	}
}

/*
 * Split extent i, which contains [off, off + len), so that the range is an
 * extent of its own, and return its index (HEAP_NONE when the table cannot
 * grow).
 */
static size_t heap_carve(struct heap *h, size_t i, size_t off, size_t len)
{
	struct heap_extent e = h->ext[i];
	size_t head = off - e.off, tail = e.off + e.len - (off + len);

	if (heap_reserve(h, (head > 0) + (tail > 0)) < 0)
		return HEAP_NONE;
	if (head > 0) {
		heap_open(h, i);
		h->ext[i] = (struct heap_extent){ e.off, head, e.used };
		i++;
	}
	h->ext[i] = (struct heap_extent){ off, len, e.used };
	if (tail > 0) {
		heap_open(h, i + 1);
		h->ext[i + 1] = (struct heap_extent){ off + len, tail, e.used };
	}
	return i;
}

size_t heap_alloc(struct heap *h, size_t len, size_t align)
{
	size_t i;

	if (align < HEAP_MIN_ALIGN)
		align = HEAP_MIN_ALIGN;
	if (len == 0 || len > h->size || (align & (align - 1)))
		return HEAP_NONE;
	len = heap_round(len, HEAP_MIN_ALIGN);
	for (i = 0; i < h->n; i++) {
		struct heap_extent *e = &h->ext[i];
		size_t at = heap_round(h->base + e->off, align) - h->base;

		if (e->used || at >= e->off + e->len || e->off + e->len - at < len)
			continue;
		i = heap_carve(h, i, at, len);
		if (i == HEAP_NONE)
			return HEAP_NONE;
		h->ext[i].used = 1;
		return at;
	}
	return HEAP_NONE;
}

int heap_free(struct heap *h, size_t off)
{
	size_t i = heap_find(h, off);

	if (i == h->n || !h->ext[i].used)
		return -1;
	h->ext[i].used = 0;
	heap_merge(h, i);
	return 0;
}

int heap_grow(struct heap *h, size_t add)
{
	if (heap_reserve(h, 1) < 0)
		return -1;
	if (h->n && !h->ext[h->n - 1].used) {
		h->ext[h->n - 1].len += add;
	} else {
		h->ext[h->n] = (struct heap_extent){ h->size, add, 0 };
		h->n++;
	}
	h->size += add;
	return 0;
}

size_t heap_block_size(const struct heap *h, size_t off)
{
	size_t i = heap_find(h, off);

	return i < h->n && h->ext[i].used ? h->ext[i].len : 0;
}

int heap_resize(struct heap *h, size_t off, size_t len)
{
	size_t i = heap_find(h, off), have, next;

	if (i == h->n || !h->ext[i].used || len == 0)
		return -1;
	len = heap_round(len, HEAP_MIN_ALIGN);
	have = h->ext[i].len;
	if (len == have)
		return 0;
	if (len < have) {
		if (heap_reserve(h, 1) < 0)
			return -1;
		heap_open(h, i + 1);
		h->ext[i].len = len;
		h->ext[i + 1] = (struct heap_extent){ off + len, have - len, 0 };
		heap_merge(h, i + 1);
		return 0;
	}
	next = i + 1;
	if (next == h->n || h->ext[next].used || have + h->ext[next].len < len)
		return -1;
	if (have + h->ext[next].len == len) {
		heap_close(h, next);
	} else {
		h->ext[next].off = off + len;
		h->ext[next].len -= len - have;
	}
	h->ext[i].len = len;
	return 0;
}
