/* arch/paging.h - page tables: the kernel's slot 511, MMIO windows,
 * guarded kernel stacks, and user address spaces for aspace.c. */
#ifndef ARCH_PAGING_H
#define ARCH_PAGING_H

#include <stdint.h>
#include <stddef.h>

struct bootinfo;

/* Portable protection bits for user mappings. */
#define PROT_R		1u
#define PROT_W		2u
#define PROT_X		4u

/* Build the final kernel tables (direct map of RAM, image with W^X) and
 * switch to them; slots 0..510 are empty from here on. */
void paging_init(const struct bootinfo *bi);
/* Per-CPU paging setup (NX, global pages, SMEP/SMAP) and the switch to
 * the kernel tables on an AP. */
void paging_cpu_init(void);
/* Make [phys, phys+size) reachable through the direct map with the given
 * caching and return its address; NULL if it cannot be mapped.  Boot time
 * only: before the APs start. */
enum cache_mode { CACHE_WB, CACHE_WC, CACHE_UC };
void *paging_map_phys(uint64_t phys, uint64_t size, enum cache_mode mode);
/* Map `size` bytes of fresh kernel memory at `va` inside the kernel stack
 * area; the pages around it stay unmapped as guards. */
int paging_map_kstack(uintptr_t va, size_t size);

/* User address spaces: a PML4 whose slot 511 is the kernel's. */
uint64_t *paging_aspace_new(void);
/* Map [va, va+len) -> [pa, pa+len) for user access with PROT_* bits,
 * 2 MiB pages wherever both are aligned.  -ENOMEM if tables run out. */
int paging_map_user(uint64_t *pml4, uint64_t va, uint64_t pa, uint64_t len,
		    unsigned prot);
/* Free the slot-0 tables and the PML4.  Slots 1..510 must be clear. */
void paging_aspace_free(uint64_t *pml4);
uint64_t paging_slot_get(const uint64_t *pml4, unsigned slot);
void paging_slot_set(uint64_t *pml4, unsigned slot, uint64_t entry);
void paging_switch(const uint64_t *pml4);
/* The kernel's own PML4 (idle CPUs and the BSP between jobs). */
uint64_t *paging_kernel_pml4(void);

#endif
