/*
 * rheap.h - the remote heap behind rmalloc(): an allocator whose whole
 * state lives inside the region it manages, as offsets, never pointers.
 * So any rank can run it on a region in another rank's memory through the
 * region's SMARTMAP address exactly as the owner runs it locally.
 *
 * Pure logic (no SMARTMAP, no locking: callers serialise), the same file
 * builds into libsmap and into its host unit test.
 *
 * Layout: a 64-byte struct rheap, then blocks back to back to the end of
 * the region.  Every block starts with a 64-byte header (its size, the
 * size of the block before it for coalescing, a magic word saying used or
 * free and where, and one word for the caller); payloads are 64-byte
 * aligned, a cache line, so two blocks never share one.
 */
#ifndef RHEAP_H
#define RHEAP_H

#include <stddef.h>
#include <stdint.h>

#define RHEAP_UNIT	64

enum rheap_policy {
	RHEAP_NEXT_FIT,		/* first hole from where the last search stopped */
	RHEAP_BEST_FIT,		/* the smallest hole that fits */
	RHEAP_WORST_FIT,	/* the largest hole */
};

struct rheap {
	uint64_t size;		/* bytes of the region, a multiple of RHEAP_UNIT */
	uint64_t rover;		/* next fit: the block where the next search starts */
	uint64_t pad[6];
};

struct rheap_stats {
	uint64_t used, free;		/* blocks */
	uint64_t free_bytes;		/* payload bytes in free blocks */
	uint64_t largest;		/* largest payload an allocation could get now */
};

/* The smallest region worth making a heap of: the header and one block. */
#define RHEAP_MIN	(3 * RHEAP_UNIT)

/* Makes the region [h, h + size) a heap with one free block; size is
 * rounded down to RHEAP_UNIT.  h is 64-byte aligned.  -1 if too small. */
int rheap_init(struct rheap *h, uint64_t size);
/* The offset from h of a payload of at least `bytes` (0 is 1), or 0 when
 * no hole fits. */
uint64_t rheap_alloc(struct rheap *h, uint64_t bytes, enum rheap_policy policy);
/* Frees the payload at offset off: 0, or -1 if off is not an allocated
 * payload (never allocated, already freed, out of the region). */
int rheap_free(struct rheap *h, uint64_t off);
/* The heap's owner where the allocator runs elsewhere, on its own copy of
 * the headers (rpipe between nodes): the allocation at off is no longer
 * one here; the allocator frees it in its copy.  0, or -1 if off is not
 * an allocation. */
int rheap_forget(struct rheap *h, uint64_t off);
/* Payload bytes of the allocation at off, or 0 if off is not one. */
uint64_t rheap_capacity(const struct rheap *h, uint64_t off);
/* The caller's word of the allocation at off (0 after rheap_alloc), or
 * NULL if off is not an allocation. */
uint64_t *rheap_tag(struct rheap *h, uint64_t off);
/* Walks every block: 0, or -1 if a header is corrupt. */
int rheap_stats(const struct rheap *h, struct rheap_stats *st);

#endif
