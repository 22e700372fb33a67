/*
 * sym.c - symmetric reservations: the same virtual address on every rank
 * of the node, each backed by that rank's own memory (SHMEM's symmetric heap
 * and MPI windows sit on them).
 *
 * They come from the break, which starts at the end of the same image on
 * every rank and which nothing else moves (malloc takes pages from the top
 * of the region), plus the holes released reservations leave below it.  So
 * on symmetric programs every rank's own first fit is the same address.
 * That is checked, not hoped for: each rank posts its first fit and its
 * aligned break; if the fits agree that is the address, otherwise the
 * highest of the breaks, which is free on every rank.  Each rank then
 * reserves it and posts success, and only if all succeeded does anyone keep
 * it.  Two node barriers, no retries.
 */
#include <string.h>
#include "core.h"
#include "smap.h"

#define SYM_MAX_HOLES	64

struct sym_vote {
	uint64_t size, align;
	uint64_t fit;		/* this rank's first fit */
	uint64_t top;		/* this rank's break, aligned */
	uint32_t ok;
};

static volatile struct sym_vote sym_vote;
static struct extent sym_holes[SYM_MAX_HOLES];
/* Full: a released range stays reserved, never handed out twice. */
static struct extent_table sym_hole = { 0, SYM_MAX_HOLES, sym_holes };
static uintptr_t sym_base;	/* the break before the first reservation */

static uintptr_t sym_align(uintptr_t x, uintptr_t a)
{
	return (x + a - 1) & ~(a - 1);
}

static uintptr_t sym_fit(size_t size, size_t align)
{
	int i;

	for (i = 0; i < sym_hole.n; i++) {
		uintptr_t a = sym_align(sym_hole.e[i].start, align);

		if (a < sym_hole.e[i].end && sym_hole.e[i].end - a >= size)
			return a;
	}
	return sym_align(core_page_up(mem_brk_get()), align);
}

/* Take [a, a + size) locally: from a hole, or by raising the break. */
static int sym_take(uintptr_t a, size_t size)
{
	uintptr_t brk = core_page_up(mem_brk_get());
	int i;

	for (i = 0; i < sym_hole.n; i++) {
		uintptr_t s = sym_hole.e[i].start, e = sym_hole.e[i].end;

		if (a >= s && a + size <= e) {
			extent_remove(&sym_hole, i);
			extent_insert(&sym_hole, s, a);
			extent_insert(&sym_hole, a + size, e);
			return 1;
		}
	}
	if (a < brk || mem_brk_set(a + size) < 0)
		return 0;
	extent_insert(&sym_hole, brk, a);
	return 1;
}

void smap_sym_release(void *p, size_t size)
{
	uintptr_t s = (uintptr_t)p, e = s + core_page_up(size ? size : 1);
	uintptr_t brk = core_page_up(mem_brk_get());

	if (!p)
		return;
	if (!sym_base || s < sym_base || e > brk || (s & (CORE_PAGE - 1)))
		core_fatal("smap_sym_release: %p (%zu bytes) is not a symmetric reservation", p, size);
	extent_insert(&sym_hole, s, e);
	/* The last hole reaching the break lowers it. */
	if (sym_hole.n > 0 && sym_hole.e[sym_hole.n - 1].end == brk &&
	    mem_brk_set(sym_hole.e[sym_hole.n - 1].start) == 0)
		extent_remove(&sym_hole, sym_hole.n - 1);
}

void *smap_sym_reserve(size_t size, size_t align)
{
	unsigned n, r, me;
	uintptr_t agreed = 0, top = 0;
	int all_fit = 1, all_ok = 1, mine;

	core_ready();
	n = core.ji.nranks;
	me = core.ji.rank;
	if (align == 0 || (align & (align - 1))) {
		if (me == 0)
			core_warn("smap_sym_reserve: align %zu is not a power of two", align);
		return NULL;
	}
	if (!sym_base)
		sym_base = core_page_up(mem_brk_get());
	if (align < CORE_PAGE)
		align = CORE_PAGE;
	size = core_page_up(size ? size : 1);

	sym_vote.size = size;
	sym_vote.align = align;
	sym_vote.fit = sym_fit(size, align);
	sym_vote.top = sym_align(core_page_up(mem_brk_get()), align);
	smap_node_barrier();
	for (r = 0; r < n; r++) {
		volatile struct sym_vote *v = remote_address(r, &sym_vote);

		if (v->size != size || v->align != align)
			core_fatal("smap_sym_reserve: rank %u asked for %llu bytes aligned %llu, rank %u for %zu aligned %zu (the call is collective)",
				   r, (unsigned long long)v->size, (unsigned long long)v->align,
				   me, size, align);
		if (r == 0)
			agreed = v->fit;
		else if (v->fit != agreed)
			all_fit = 0;
		if (v->top > top)
			top = v->top;
	}
	if (!all_fit)
		agreed = top;
	mine = sym_take(agreed, size);
	sym_vote.ok = mine;
	smap_node_barrier();
	for (r = 0; r < n; r++)
		if (!((volatile struct sym_vote *)remote_address(r, &sym_vote))->ok)
			all_ok = 0;
	if (all_ok)
		return (void *)agreed;
	if (mine)
		smap_sym_release((void *)agreed, size);
	return NULL;
}
