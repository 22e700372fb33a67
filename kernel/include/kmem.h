/* kmem.h - the two physical pools (see pmem.h) and kernel page allocation. */
#ifndef KMEM_H
#define KMEM_H

#include <stddef.h>
#include <stdint.h>
#include "pmem.h"

struct bootinfo;
struct cpu;

/* Build both pools from the memory map, keeping the kernel image, the
 * boot modules and the first MiB out.  Returns 0 or -1. */
int kmem_init(const struct bootinfo *bi, uint64_t kernel_phys_end);

/* Zeroed kernel pages from kpool, by their direct-map address; NULL when
 * the pool is exhausted. */
void *kpage_alloc(void);
void kpage_free(void *page);
void *kpages_alloc(size_t npages);
void kpages_free(void *p, size_t npages);

/* User regions from upool: physically contiguous, 2 MiB aligned, from
 * the NUMA node of the CPU `near` when it has room. */
uint64_t kmem_region_alloc(uint64_t size, const struct cpu *near);
void kmem_region_free(uint64_t phys, uint64_t size);
/* The even share for ranks on CPUs 0..n-1 (each on its own node where
 * NUMA allows), and the largest single region possible. */
uint64_t kmem_region_share(unsigned n);
uint64_t kmem_region_largest(void);
uint64_t kmem_user_free(void);
uint64_t kmem_kernel_free(void);
/* Pool sizes at boot. */
uint64_t kmem_user_total(void);
uint64_t kmem_kernel_total(void);

#endif
