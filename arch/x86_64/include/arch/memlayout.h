/*
 * arch/memlayout.h - the virtual address map.
 *
 *   slot 0        user: the rank's own region (ELF at its link address)
 *   slot r+1      SMARTMAP: rank r's slot-0 PDPT, r = 0..509
 *   slot 511      the kernel, shared by every address space:
 *     0xFFFFFF8000000000  direct map of physical memory (PDPT 0..507, 508 GiB)
 *     0xFFFFFFFF00000000  kernel stacks with guard pages (PDPT 508)
 *     0xFFFFFFFF80000000  kernel image, KERNEL_VMA + physical (PDPT 510)
 */
#ifndef ARCH_MEMLAYOUT_H
#define ARCH_MEMLAYOUT_H

#include <stdint.h>

#define KERNEL_VMA		0xFFFFFFFF80000000ul
#define DIRECT_MAP_BASE		0xFFFFFF8000000000ul
#define DIRECT_MAP_SIZE		(508ul << 30)
#define KSTACK_AREA		0xFFFFFFFF00000000ul
#define KSTACK_AREA_SIZE	(1ul << 30)

#define PML4_SLOT_SIZE		(1ul << 39)
#define PML4_KERNEL_SLOT	511
#define USER_SLOTS		511	/* 0 (own) + 1..510 (SMARTMAP) */

#define PAGE_SIZE		4096ul
#define LARGE_PAGE_SIZE		(2ul << 20)
#define HUGE_PAGE_SIZE		(1ul << 30)

/* Slots 256..511 are the upper canonical half: their addresses carry bits
 * 63:48 set.  SMARTMAP slots 256..510 are user slots all the same. */
static inline int pml4_canonical(uint64_t a)
{
	return (uint64_t)((int64_t)(a << 16) >> 16) == a;
}

static inline unsigned pml4_slot(uint64_t a)
{
	return (unsigned)(a >> 39) & 511;
}

static inline void *phys_to_virt(uint64_t phys)
{
	return (void *)(phys + DIRECT_MAP_BASE);
}

static inline uint64_t virt_to_phys(const void *v)
{
	uintptr_t a = (uintptr_t)v;

	return a >= KERNEL_VMA ? a - KERNEL_VMA : a - DIRECT_MAP_BASE;
}

#endif
