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
static struct { uintptr_t start, end; } sym_hole[SYM_MAX_HOLES];
static int sym_nholes;
static uintptr_t sym_base;	/* the break before the first reservation */

static uintptr_t sym_align(uintptr_t x, uintptr_t a)
{
	return (x + a - 1) & ~(a - 1);
}

static void sym_hole_remove(int i)
{
	for (; i + 1 < sym_nholes; i++)
		sym_hole[i] = sym_hole[i + 1];
	sym_nholes--;
}

/* Record [s, e) as free below the break, merging neighbours; sorted. */
static void sym_hole_add(uintptr_t s, uintptr_t e)
{
	int i = 0, j;

	if (s >= e)
		return;
	while (i < sym_nholes && sym_hole[i].start < s)
		i++;
	if (i > 0 && sym_hole[i - 1].end == s) {
		sym_hole[i - 1].end = e;
		if (i < sym_nholes && sym_hole[i].start == e) {
			sym_hole[i - 1].end = sym_hole[i].end;
			sym_hole_remove(i);
		}
		return;
	}
	if (i < sym_nholes && sym_hole[i].start == e) {
		sym_hole[i].start = s;
		return;
	}
	if (sym_nholes == SYM_MAX_HOLES)
		return;		/* the range stays reserved: lost, never reused twice */
	for (j = sym_nholes; j > i; j--)
		sym_hole[j] = sym_hole[j - 1];
	sym_hole[i].start = s;
	sym_hole[i].end = e;
	sym_nholes++;
}

static uintptr_t sym_fit(size_t size, size_t align)
{
	int i;

	for (i = 0; i < sym_nholes; i++) {
		uintptr_t a = sym_align(sym_hole[i].start, align);

		if (a < sym_hole[i].end && sym_hole[i].end - a >= size)
			return a;
	}
	return sym_align(core_page_up(mem_brk_get()), align);
}

/* Take [a, a + size) locally: from a hole, or by raising the break. */
static int sym_take(uintptr_t a, size_t size)
{
	uintptr_t brk = core_page_up(mem_brk_get());
	int i;

	for (i = 0; i < sym_nholes; i++) {
		uintptr_t s = sym_hole[i].start, e = sym_hole[i].end;

		if (a >= s && a + size <= e) {
			sym_hole_remove(i);
			sym_hole_add(s, a);
			sym_hole_add(a + size, e);
			return 1;
		}
	}
	if (a < brk || mem_brk_set(a + size) < 0)
		return 0;
	sym_hole_add(brk, a);
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
	sym_hole_add(s, e);
	/* The last hole reaching the break lowers it. */
	if (sym_nholes > 0 && sym_hole[sym_nholes - 1].end == brk &&
	    mem_brk_set(sym_hole[sym_nholes - 1].start) == 0)
		sym_hole_remove(sym_nholes - 1);
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
