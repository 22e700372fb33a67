/*
 * kmem.c - physical memory for the kernel and for the ranks.
 *
 * kpool is one extent set aside at boot for the kernel's pages; upool is
 * everything else the firmware calls usable, minus the first MiB (BIOS
 * data, the AP trampoline), the kernel image and the boot modules (the
 * executables jobs are loaded from).
 */
#include <string.h>
#include <arch/memlayout.h>
#include "bootinfo.h"
#include "kmem.h"
#include "param.h"
#include "printk.h"
#include "spinlock.h"

static struct pmem kpool, upool;
static struct spinlock kpool_lock = SPINLOCK_INIT, upool_lock = SPINLOCK_INIT;
static uint64_t user_total;

static uint64_t kmem_size;
KPARAM(kmem, PARAM_SIZE, &kmem_size,
       "memory kept for the kernel's own pages; default 16M + 1/256 of RAM");

#define LOW_MEMORY	(1ul << 20)

int kmem_init(const struct bootinfo *bi, uint64_t kernel_phys_end)
{
	struct pmem *all = &upool;
	uint64_t ram = 0, at;

	pmem_init(&upool);
	pmem_init(&kpool);
	for (unsigned i = 0; i < bi->nmem; i++) {
		const struct mem_range *m = &bi->mem[i];
		uint64_t lo = (m->base + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
		uint64_t hi = (m->base + m->len) & ~(PAGE_SIZE - 1);

		if (m->type != MEM_USABLE || hi <= lo)
			continue;
		if (hi > DIRECT_MAP_SIZE)
			hi = DIRECT_MAP_SIZE;
		/* Loaders have been seen to report overlapping ranges: take the
		 * union by reserving first. */
		if (lo < hi && (pmem_reserve(all, lo, hi) < 0 || pmem_add(all, lo, hi) < 0)) {
			pr_err("kmem: memory map too fragmented\n");
			return -1;
		}
	}
	pmem_reserve(all, 0, LOW_MEMORY);
	pmem_reserve(all, LOW_MEMORY, kernel_phys_end);
	for (unsigned i = 0; i < bi->nmods; i++)
		pmem_reserve(all, bi->mods[i].start & ~(PAGE_SIZE - 1), bi->mods[i].end);
	if (bi->loader == 2)
		pmem_reserve(all, bi->info_phys, bi->info_phys + bi->info_len);

	ram = pmem_free_bytes(all);
	if (!kmem_size)
		kmem_size = (16ul << 20) + ram / 256;
	kmem_size = (kmem_size + LARGE_PAGE_SIZE - 1) & ~(LARGE_PAGE_SIZE - 1);
	if (kmem_size > ram / 2) {
		pr_err("kmem: %lu MiB of usable memory is not enough to run (kernel wants %lu MiB)\n",
		       ram >> 20, kmem_size >> 20);
		return -1;
	}
	/* One extent, so kernel pages never fragment the rank regions. */
	at = pmem_alloc(all, kmem_size, LARGE_PAGE_SIZE, 0, UINT64_MAX, 0);
	if (at == PMEM_NONE) {
		pr_err("kmem: no contiguous %lu MiB for the kernel\n", kmem_size >> 20);
		return -1;
	}
	pmem_add(&kpool, at, at + kmem_size);
	user_total = pmem_free_bytes(&upool);
	return 0;
}

void *kpages_alloc(size_t npages)
{
	uint64_t f = spin_lock_irqsave(&kpool_lock);
	uint64_t pa = pmem_alloc(&kpool, npages * PAGE_SIZE, PAGE_SIZE, 0, UINT64_MAX, 0);

	spin_unlock_irqrestore(&kpool_lock, f);
	if (pa == PMEM_NONE)
		return NULL;
	return memset(phys_to_virt(pa), 0, npages * PAGE_SIZE);
}

void kpages_free(void *p, size_t npages)
{
	uint64_t f = spin_lock_irqsave(&kpool_lock);

	pmem_free(&kpool, virt_to_phys(p), npages * PAGE_SIZE);
	spin_unlock_irqrestore(&kpool_lock, f);
}

void *kpage_alloc(void)
{
	return kpages_alloc(1);
}

void kpage_free(void *page)
{
	kpages_free(page, 1);
}

uint64_t kmem_region_alloc(uint64_t size)
{
	uint64_t f = spin_lock_irqsave(&upool_lock);
	uint64_t pa = pmem_alloc(&upool, size, LARGE_PAGE_SIZE, 0, UINT64_MAX, 0);

	spin_unlock_irqrestore(&upool_lock, f);
	return pa;
}

void kmem_region_free(uint64_t phys, uint64_t size)
{
	uint64_t f = spin_lock_irqsave(&upool_lock);

	pmem_free(&upool, phys, size);
	spin_unlock_irqrestore(&upool_lock, f);
}

uint64_t kmem_region_share(unsigned n)
{
	return pmem_even_share(&upool, n, LARGE_PAGE_SIZE);
}

uint64_t kmem_region_largest(void)
{
	return pmem_largest(&upool, LARGE_PAGE_SIZE);
}

uint64_t kmem_user_free(void)
{
	return pmem_free_bytes(&upool);
}

uint64_t kmem_kernel_free(void)
{
	return pmem_free_bytes(&kpool);
}

uint64_t kmem_user_total(void)
{
	return user_total;
}

uint64_t kmem_kernel_total(void)
{
	return kmem_size;
}
