/*
 * heap.h - the symmetric heap's allocator: offsets into a heap of a fixed
 * size, first fit over a sorted table of extents that tiles the heap.
 *
 * Deterministic: the offsets depend only on the sequence of calls, so PEs
 * that make the same calls (as OpenSHMEM requires) get the same offsets,
 * which is what makes the heap symmetric.  The table lives in private
 * memory, never in the heap: a PE writing past its block on another PE
 * cannot corrupt that PE's allocator.  Pure logic, also built into a host
 * unit test (user/shmemtest/shmem_heap_unit.c).
 */
#ifndef SHMEM_HEAP_H
#define SHMEM_HEAP_H

#include <stddef.h>

/* Every block starts on a cache line and covers whole lines: blocks on the
 * same PE never share a line, so atomics on one do not slow another. */
#define HEAP_MIN_ALIGN	64
#define HEAP_NONE	((size_t)-1)

struct heap_extent {
	size_t off, len;
	int used;
};

struct heap {
	size_t base;			/* address of offset 0: alignments are absolute */
	size_t size;
	struct heap_extent *ext;	/* sorted by off, tiles [0, size) */
	size_t n, cap;
};

/* A heap of size bytes at address base: 0, or -1 when the table cannot be
 * allocated. */
int heap_init(struct heap *h, size_t base, size_t size);
void heap_fini(struct heap *h);
/* Offset of a new block of len bytes whose address is aligned to align (a
 * power of two), or HEAP_NONE when it does not fit. */
size_t heap_alloc(struct heap *h, size_t len, size_t align);
/* 0, or -1 when off does not start a block in use. */
int heap_free(struct heap *h, size_t off);
/* The heap gains add bytes at its end (the reservation behind it grew):
 * 0, or -1 when the table cannot grow. */
int heap_grow(struct heap *h, size_t add);
/* Bytes of the block in use at off, or 0 when there is none. */
size_t heap_block_size(const struct heap *h, size_t off);
/* Grow or shrink the block at off without moving it: 0, or -1 when the
 * bytes after it are taken (or off starts no block). */
int heap_resize(struct heap *h, size_t off, size_t len);

#endif
