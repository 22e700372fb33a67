/*
 * sysmem.c - brk, mmap and friends inside the rank's region.
 *
 * The region is mapped in full before the rank starts, so these calls only
 * hand out address ranges (and zero them, as Linux's fresh pages are); they
 * never change page tables.  That is SMARTMAP's invariant: a peer may be
 * reading any of this memory at any time without a TLB shootdown.  mprotect
 * is accepted without effect for the same reason.
 *
 * Free space is one extent list over [brk_start, guard): brk takes from its
 * bottom, mmap from its top, munmap gives back.
 */
#include <string.h>
#include <arch/memlayout.h>
#include "errno.h"
#include "job.h"
#include "printk.h"
#include "proc.h"
#include "syscall.h"
#include "urange.h"

#define MAP_SHARED		0x01
#define MAP_PRIVATE		0x02
#define MAP_FIXED		0x10
#define MAP_ANONYMOUS		0x20
#define MAP_FIXED_NOREPLACE	0x100000
#define MADV_DONTNEED		4

/* v rounded up to pages; 0 when that wraps, which every caller refuses */
static uint64_t page_up(uint64_t v)
{
	return round_up_or_zero(v, PAGE_SIZE);
}

/* The direct-map address of [lo, hi) of p's heap area.  The callers have
 * checked the range; a range outside the region here is a kernel bug,
 * and stopping beats writing into another rank's memory. */
static void *heap_ptr(struct proc *p, uint64_t lo, uint64_t hi)
{
	if (hi < lo || !range_within(lo, hi - lo, p->brk_start, p->guard))
		panic("rank %u: heap range %#lx-%#lx outside %#lx-%#lx", p->rank, lo, hi,
		      p->brk_start, p->guard);
	return phys_to_virt(p->phys + (lo - p->base));
}

static void zero(struct proc *p, uint64_t lo, uint64_t hi)
{
	memset(heap_ptr(p, lo, hi), 0, hi - lo);
}

long sys_brk(struct proc *p, uint64_t addr)
{
	uint64_t old = page_up(p->brk), new = page_up(addr);

	if (!range_within(addr, 0, p->brk_start, p->guard) || addr == p->guard)
		return (long)p->brk;
	if (new > old) {
		if (!pmem_contains(&p->vfree, old, new))
			return (long)p->brk;	/* an mmap is in the way: Linux fails the same */
		pmem_reserve(&p->vfree, old, new);
		zero(p, old, new);
	} else if (new < old) {
		pmem_add(&p->vfree, new, old);
	}
	p->brk = addr;
	return (long)addr;
}

/* The part of [lo, hi) the heap area owns (image, brk and stack excluded). */
static int clip_heap(struct proc *p, uint64_t *lo, uint64_t *hi)
{
	uint64_t floor = page_up(p->brk);

	if (*lo < floor)
		*lo = floor;
	if (*hi > p->guard)
		*hi = p->guard;
	return *lo < *hi;
}

long sys_mmap(struct proc *p, uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags,
	      uint64_t fd, uint64_t off)
{
	uint64_t size = page_up(len), at;

	(void)prot;
	(void)off;
	if (len == 0 || size == 0 || (addr & (PAGE_SIZE - 1)))
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS))
		return (int64_t)fd >= 0 && fd <= 2 ? -ENODEV : -EBADF;
	if (!(flags & (MAP_SHARED | MAP_PRIVATE)))
		return -EINVAL;
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		if (!range_within(addr, size, p->brk_start, p->guard))
			return -ENOMEM;
		if (pmem_contains(&p->vfree, addr, addr + size)) {
			pmem_reserve(&p->vfree, addr, addr + size);
		} else if (flags & MAP_FIXED_NOREPLACE) {
			return -EEXIST;
		} else {
			/* MAP_FIXED replaces whatever was there (brk or an
			 * earlier mmap): it stays allocated, fresh and zero. */
			pmem_reserve(&p->vfree, addr, addr + size);
		}
		zero(p, addr, addr + size);
		return (long)addr;
	}
	/* A hint is taken only when all of it is free heap area; anything
	 * else (outside the region, wrapping past 2^64) is a plain request. */
	if (addr && range_within(addr, size, p->brk_start, p->guard) &&
	    pmem_contains(&p->vfree, addr, addr + size)) {
		at = addr;
		pmem_reserve(&p->vfree, at, at + size);
	} else {
		at = pmem_alloc(&p->vfree, size, PAGE_SIZE, 0, UINT64_MAX, 1);
		if (at == PMEM_NONE)
			return -ENOMEM;
	}
	zero(p, at, at + size);
	return (long)at;
}

long sys_munmap(struct proc *p, uint64_t addr, uint64_t len)
{
	uint64_t size = page_up(len), lo = addr, hi;

	if (len == 0 || size == 0 || (addr & (PAGE_SIZE - 1)) ||
	    !range_within(addr, size, 0, UINT64_MAX))
		return -EINVAL;
	hi = addr + size;
	/* Unmapping what is not ours to free (image, stack, brk) is a no-op,
	 * as unmapping an unmapped range is on Linux. */
	if (clip_heap(p, &lo, &hi)) {
		pmem_reserve(&p->vfree, lo, hi);
		pmem_add(&p->vfree, lo, hi);
	}
	return 0;
}

#define MREMAP_MAYMOVE	1

/* Resize a heap-area mapping: shrink in place, grow in place when the
 * range after it is free, else (MREMAP_MAYMOVE) move it: the kernel
 * copies through the direct map and frees the old range. */
long sys_mremap(struct proc *p, uint64_t old, uint64_t old_len, uint64_t new_len,
		uint64_t flags)
{
	uint64_t osz = page_up(old_len), nsz = page_up(new_len), at;

	/* MREMAP_FIXED and MREMAP_DONTUNMAP are not offered: EINVAL, as
	 * Linux answers flags it does not know */
	if ((old & (PAGE_SIZE - 1)) || !nsz || (flags & ~MREMAP_MAYMOVE))
		return -EINVAL;
	if (!osz || !range_within(old, osz, page_up(p->brk), p->guard))
		return -EFAULT;
	if (nsz <= osz) {
		if (nsz < osz)
			pmem_add(&p->vfree, old + nsz, old + osz);
		return (long)old;
	}
	if (range_within(old, nsz, p->brk_start, p->guard) &&
	    pmem_contains(&p->vfree, old + osz, old + nsz)) {
		pmem_reserve(&p->vfree, old + osz, old + nsz);
		zero(p, old + osz, old + nsz);
		return (long)old;
	}
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	at = pmem_alloc(&p->vfree, nsz, PAGE_SIZE, 0, UINT64_MAX, 1);
	if (at == PMEM_NONE)
		return -ENOMEM;
	memcpy(heap_ptr(p, at, at + osz), heap_ptr(p, old, old + osz), osz);
	zero(p, at + osz, at + nsz);
	pmem_add(&p->vfree, old, old + osz);
	return (long)at;
}

long sys_mprotect(struct proc *p, uint64_t addr, uint64_t len, uint64_t prot)
{
	(void)prot;
	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	if (!range_within(addr, len, p->base, p->end))
		return -ENOMEM;
	return 0;
}

long sys_madvise(struct proc *p, uint64_t addr, uint64_t len, uint64_t advice)
{
	uint64_t size = page_up(len), lo = addr, hi;

	if ((addr & (PAGE_SIZE - 1)) || (len && !size))
		return -EINVAL;
	if (!range_within(addr, size, p->base, p->end))
		return -ENOMEM;
	hi = addr + size;
	/* Linux refills DONTNEED anonymous pages with zeros; so do we, now. */
	if (advice == MADV_DONTNEED && clip_heap(p, &lo, &hi))
		zero(p, lo, hi);
	return 0;
}
