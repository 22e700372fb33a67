/*
 * alloc.c - the symmetric heap routines: shmem_malloc, calloc, align,
 * realloc, free, malloc_with_hints and the legacy names.
 *
 * All of them are collective over the world: every PE makes the same calls
 * with the same arguments, heap.c gives the same offsets everywhere, and the
 * barriers where the specification puts them (on exit of an allocation, on
 * entry of a free, both for a realloc) make a block usable everywhere before
 * anyone uses it.  The arguments are checked, not trusted: each call is
 * logged, and after its barrier compared with the log of the node's first
 * PE, so a program whose PEs diverge fails at the call that diverged
 * instead of corrupting memory later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smap.h"
#include "smapos_abi.h"
#include "shmemi.h"

/* The heap grows in steps of whole large pages at least. */
#define ALLOC_GROW_STEP	(2UL << 20)

enum alloc_op { ALLOC_MALLOC, ALLOC_FREE, ALLOC_REALLOC };

static const char *const alloc_op_name[] = { "allocated", "freed", "reallocated" };

struct alloc_record {
	unsigned long seq;
	enum alloc_op op;
	size_t a, b;
};

/*
 * Two slots: the node's first PE can only overwrite slot (seq & 1) in call
 * seq + 2, which needs the barrier of call seq + 1, which needs this PE, so
 * the slot read after the barrier of call seq is still call seq's.
 */
static struct alloc_record alloc_log[2];
static unsigned long alloc_seq;

static void alloc_sync(const char *fn, enum alloc_op op, size_t a, size_t b)
{
	struct alloc_record mine = { ++alloc_seq, op, a, b }, first;
	struct alloc_record *slot = &alloc_log[mine.seq & 1];

	*slot = mine;
	shmem_barrier_all();
	memcpy(&first, shmemi_addr(slot, shmemi.node_first, fn), sizeof first);
	if (first.seq != mine.seq || first.op != op || first.a != a || first.b != b)
		shmemi_fail(fn, "this PE %s (%zu, %zu) as symmetric heap call %lu, PE %d %s "
			    "(%zu, %zu) as call %lu: every PE must make the same calls",
			    alloc_op_name[op], a, b, mine.seq, shmemi.node_first,
			    alloc_op_name[first.op], first.a, first.b, first.seq);
}

static size_t alloc_offset(const char *fn, const void *ptr)
{
	const char *p = ptr;
	size_t off = (size_t)(p - shmemi.heap_base);

	if (p < shmemi.heap_base || off >= shmemi.heap_size ||
	    !heap_block_size(&shmemi.heap, off))
		shmemi_fail(fn, "%p is not a block of the symmetric heap", ptr);
	return off;
}

/*
 * The heap is a reservation at the break, and unless SHMEM_SYMMETRIC_SIZE
 * fixed its size it grows into what the region has left when a block does
 * not fit: one more symmetric reservation, kept only if it lands right at
 * the heap's end on every PE (nothing was reserved after the heap), else
 * given back.  Growing is cheap because a rank's region is one physically
 * contiguous range mapped whole when the job starts (host mode: one memfd
 * mapped whole in every rank): moving the break touches no page table,
 * takes no fault and tells no peer, whose SMARTMAP slot already covers the
 * new part.  Every PE fails the same allocation (the heap is
 * deterministic), so every PE grows, collectively.  The reservation agrees
 * within a node; across nodes, where addresses are symmetric too (the same
 * binary and region layout), one AND over the world keeps it only if it
 * landed at the heap's end on every node.  0 when the heap grew.
 */
static int alloc_grow(const char *fn, size_t size, size_t align)
{
	size_t add = (size + align + ALLOC_GROW_STEP - 1) & ~(ALLOC_GROW_STEP - 1);
	char *end = shmemi.heap_base + shmemi.heap_size, *p;
	const struct smapos_jobinfo *ji = smap_jobinfo();
	int ok;

	if (getenv("SHMEM_SYMMETRIC_SIZE") || add < size)
		return -1;
	p = smap_sym_reserve(add, 4096);
	ok = p == end;
	if (shmemi.nnodes > 1)
		ok = shmemi_all(shmemi_team_group(SHMEM_TEAM_WORLD, fn), ok);
	if (ok && heap_grow(&shmemi.heap, add) == 0) {
		shmemi.heap_size += add;
		return 0;
	}
	if (p)
		smap_sym_release(p, add);
	if (shmemi.me == 0) {
		unsigned long long want = (ji->region_size + add + (64ULL << 20) - 1) >> 26 << 6;

		fprintf(stderr, "shmem PE 0: %s: %zu bytes do not fit in the symmetric heap "
			"(%zu MiB) and each PE's region (%llu MiB) has no room left to grow it: "
			"give each PE more memory (lwkrun --mem %lluM) or free blocks first\n",
			fn, size, shmemi.heap_size >> 20, (unsigned long long)ji->region_size >> 20,
			want);
	}
	return -1;
}

static void *alloc_block(const char *fn, size_t size, size_t align, int zero)
{
	size_t off;

	shmemi_check_ready(fn);
	if (size == 0)
		return NULL;
	if (align == 0 || (align & (align - 1)))
		shmemi_fail(fn, "alignment %zu is not a power of two", align);
	off = heap_alloc(&shmemi.heap, size, align);
	if (off == HEAP_NONE && alloc_grow(fn, size, align) == 0)
		off = heap_alloc(&shmemi.heap, size, align);
	if (off != HEAP_NONE && zero)
		memset(shmemi.heap_base + off, 0, size);
	alloc_sync(fn, ALLOC_MALLOC, size, align);
	return off == HEAP_NONE ? NULL : shmemi.heap_base + off;
}

static void alloc_free(const char *fn, void *ptr)
{
	size_t off;

	shmemi_check_ready(fn);
	if (!ptr)
		return;
	off = alloc_offset(fn, ptr);
	alloc_sync(fn, ALLOC_FREE, off, 0);
	heap_free(&shmemi.heap, off);
}

static void *alloc_realloc(const char *fn, void *ptr, size_t size)
{
	size_t off, old, to;

	if (!ptr)
		return alloc_block(fn, size, HEAP_MIN_ALIGN, 0);
	if (size == 0) {
		alloc_free(fn, ptr);
		return NULL;
	}
	shmemi_check_ready(fn);
	off = alloc_offset(fn, ptr);
	alloc_sync(fn, ALLOC_REALLOC, off, size);
	if (heap_resize(&shmemi.heap, off, size) == 0) {
		to = off;
	} else {
		to = heap_alloc(&shmemi.heap, size, HEAP_MIN_ALIGN);
		if (to == HEAP_NONE && alloc_grow(fn, size, HEAP_MIN_ALIGN) == 0)
			to = heap_alloc(&shmemi.heap, size, HEAP_MIN_ALIGN);
		if (to != HEAP_NONE) {
			old = heap_block_size(&shmemi.heap, off);
			memcpy(shmemi.heap_base + to, ptr, old < size ? old : size);
			heap_free(&shmemi.heap, off);
		}
	}
	shmem_barrier_all();
	return to == HEAP_NONE ? NULL : shmemi.heap_base + to;
}

void *shmem_malloc(size_t size)
{
	return alloc_block(__func__, size, HEAP_MIN_ALIGN, 0);
}

/* The hints only promise how memory will be used; none changes placement. */
/* Hints only describe the use: every block serves every use here, and
 * bits no hint names are ignored (as the reference implementation does:
 * programs clear a hint with ~FLAG). */
void *shmem_malloc_with_hints(size_t size, long hints)
{
	(void)hints;
	return alloc_block(__func__, size, HEAP_MIN_ALIGN, 0);
}

void *shmem_calloc(size_t count, size_t size)
{
	size_t bytes;

	if (count == 0 || size == 0) {
		shmemi_check_ready(__func__);
		return NULL;
	}
	/* An impossible size fails in heap_alloc, on every PE alike. */
	if (__builtin_mul_overflow(count, size, &bytes))
		bytes = (size_t)-1;
	return alloc_block(__func__, bytes, HEAP_MIN_ALIGN, 1);
}

void *shmem_align(size_t alignment, size_t size)
{
	return alloc_block(__func__, size, alignment, 0);
}

void *shmem_realloc(void *ptr, size_t size)
{
	return alloc_realloc(__func__, ptr, size);
}

void shmem_free(void *ptr)
{
	alloc_free(__func__, ptr);
}

void *shmalloc(size_t size)
{
	return alloc_block(__func__, size, HEAP_MIN_ALIGN, 0);
}

void *shmemalign(size_t alignment, size_t size)
{
	return alloc_block(__func__, size, alignment, 0);
}

void *shrealloc(void *ptr, size_t size)
{
	return alloc_realloc(__func__, ptr, size);
}

void shfree(void *ptr)
{
	alloc_free(__func__, ptr);
}
