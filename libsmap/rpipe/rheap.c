/*
 * rheap.c - the remote heap: blocks in address order with boundary sizes
 * (each header knows its own size and its predecessor's), so a free
 * coalesces with both neighbours in O(1); a search walks the blocks from
 * the rover (next fit) or all of them (best and worst fit).  An implicit
 * list keeps the whole state in the headers: there is no free list for a
 * rank in another address space to follow.
 */
#include "rheap.h"

/* Magic words, xored with the block's offset so a stale or foreign
 * offset does not pass for a block. */
#define RHEAP_USED	0x5553454452484550ULL
#define RHEAP_FREE	0x4652454552484550ULL

struct rheap_blk {
	uint64_t size;		/* whole block, header included */
	uint64_t prev;		/* size of the block before, 0 for the first */
	uint64_t magic;
	uint64_t tag;
	uint64_t pad[4];
};

_Static_assert(sizeof(struct rheap) == RHEAP_UNIT, "rheap header is one unit");
_Static_assert(sizeof(struct rheap_blk) == RHEAP_UNIT, "block header is one unit");

static struct rheap_blk *rheap_blk(const struct rheap *h, uint64_t off)
{
	return (struct rheap_blk *)((char *)h + off);
}

static int rheap_is_free(const struct rheap *h, uint64_t off)
{
	return rheap_blk(h, off)->magic == (RHEAP_FREE ^ off);
}

int rheap_init(struct rheap *h, uint64_t size)
{
	struct rheap_blk *b;

	size &= ~(uint64_t)(RHEAP_UNIT - 1);
	if (size < RHEAP_MIN)
		return -1;
	h->size = size;
	h->rover = RHEAP_UNIT;
	b = rheap_blk(h, RHEAP_UNIT);
	b->size = size - RHEAP_UNIT;
	b->prev = 0;
	b->magic = RHEAP_FREE ^ RHEAP_UNIT;
	b->tag = 0;
	return 0;
}

/* Whether the block at off can hold `need` bytes; a corrupt size ends a
 * search rather than looping on it. */
static int rheap_fits(const struct rheap *h, uint64_t off, uint64_t need)
{
	return rheap_is_free(h, off) && rheap_blk(h, off)->size >= need;
}

static uint64_t rheap_next(const struct rheap *h, uint64_t off)
{
	uint64_t sz = rheap_blk(h, off)->size;

	return sz < 2 * RHEAP_UNIT || sz > h->size - off ? h->size : off + sz;
}

uint64_t rheap_alloc(struct rheap *h, uint64_t bytes, enum rheap_policy policy)
{
	uint64_t need, off, pick = 0, n, rest, steps = h->size / (2 * RHEAP_UNIT);
	struct rheap_blk *b, *r;

	if (bytes == 0)
		bytes = 1;
	if (bytes > h->size)
		return 0;
	need = RHEAP_UNIT + ((bytes + RHEAP_UNIT - 1) & ~(uint64_t)(RHEAP_UNIT - 1));
	if (policy == RHEAP_NEXT_FIT) {
		off = h->rover;
		do {
			if (rheap_fits(h, off, need)) {
				pick = off;
				break;
			}
			off = rheap_next(h, off);
			if (off >= h->size)
				off = RHEAP_UNIT;
		} while (off != h->rover && steps--);
	} else {
		for (off = RHEAP_UNIT; off < h->size; off = rheap_next(h, off)) {
			if (!rheap_fits(h, off, need))
				continue;
			if (!pick || (policy == RHEAP_BEST_FIT ?
				      rheap_blk(h, off)->size < rheap_blk(h, pick)->size :
				      rheap_blk(h, off)->size > rheap_blk(h, pick)->size))
				pick = off;
		}
	}
	if (!pick)
		return 0;
	b = rheap_blk(h, pick);
	if (b->size - need >= 2 * RHEAP_UNIT) {
		rest = pick + need;
		r = rheap_blk(h, rest);
		r->size = b->size - need;
		r->prev = need;
		r->magic = RHEAP_FREE ^ rest;
		r->tag = 0;
		b->size = need;
		n = rest + r->size;
		if (n < h->size)
			rheap_blk(h, n)->prev = r->size;
	}
	b->magic = RHEAP_USED ^ pick;
	b->tag = 0;
	n = pick + b->size;
	h->rover = n < h->size ? n : RHEAP_UNIT;
	return pick + RHEAP_UNIT;
}

/* The header of the allocation whose payload is at off, or NULL. */
static struct rheap_blk *rheap_used(const struct rheap *h, uint64_t off)
{
	struct rheap_blk *b;

	if (off < 2 * RHEAP_UNIT || off >= h->size || off % RHEAP_UNIT)
		return NULL;
	b = rheap_blk(h, off - RHEAP_UNIT);
	return b->magic == (RHEAP_USED ^ (off - RHEAP_UNIT)) ? b : NULL;
}

int rheap_free(struct rheap *h, uint64_t off)
{
	struct rheap_blk *b = rheap_used(h, off), *p;
	uint64_t n;

	if (!b)
		return -1;
	off -= RHEAP_UNIT;
	b->magic = RHEAP_FREE ^ off;
	n = off + b->size;
	if (n < h->size && rheap_is_free(h, n)) {
		b->size += rheap_blk(h, n)->size;
		rheap_blk(h, n)->magic = 0;
		if (h->rover == n)
			h->rover = off;
	}
	if (b->prev && rheap_is_free(h, off - b->prev)) {
		p = rheap_blk(h, off - b->prev);
		p->size += b->size;
		b->magic = 0;
		if (h->rover == off)
			h->rover = off - b->prev;
		off -= b->prev;
		b = p;
	}
	n = off + b->size;
	if (n < h->size)
		rheap_blk(h, n)->prev = b->size;
	return 0;
}

int rheap_forget(struct rheap *h, uint64_t off)
{
	struct rheap_blk *b = rheap_used(h, off);

	if (!b)
		return -1;
	b->magic = 0;
	return 0;
}

uint64_t rheap_capacity(const struct rheap *h, uint64_t off)
{
	const struct rheap_blk *b = rheap_used(h, off);

	return b ? b->size - RHEAP_UNIT : 0;
}

uint64_t *rheap_tag(struct rheap *h, uint64_t off)
{
	struct rheap_blk *b = rheap_used(h, off);

	return b ? &b->tag : NULL;
}

int rheap_stats(const struct rheap *h, struct rheap_stats *st)
{
	uint64_t off, sz, prev = 0;

	st->used = st->free = st->free_bytes = st->largest = 0;
	for (off = RHEAP_UNIT; off < h->size; off += sz) {
		const struct rheap_blk *b = rheap_blk(h, off);

		sz = b->size;
		if (sz < 2 * RHEAP_UNIT || sz % RHEAP_UNIT || sz > h->size - off || b->prev != prev)
			return -1;
		if (b->magic == (RHEAP_USED ^ off)) {
			st->used++;
		} else if (b->magic == (RHEAP_FREE ^ off)) {
			st->free++;
			st->free_bytes += sz - RHEAP_UNIT;
			if (sz - RHEAP_UNIT > st->largest)
				st->largest = sz - RHEAP_UNIT;
		} else {
			return -1;
		}
		prev = sz;
	}
	return 0;
}
