/*
 * kmem.c - physical memory for the kernel and for the ranks.
 *
 * kpool is one extent set aside at boot for the kernel's pages; upool is
 * everything else the firmware calls usable, minus the first MiB (BIOS
 * data, the AP trampoline), the kernel image and the boot modules (the
 * executables jobs are loaded from).  Whatever the map also calls
 * reserved, ACPI or bad is never handed out, even where a firmware's
 * ranges overlap.
 *
 * On a NUMA machine (an ACPI SRAT with two nodes or more) a rank's region
 * comes from its CPU's node; the even share is then the largest size at
 * which every rank fits on its own node, and only a node without room (or
 * without memory) sends its ranks elsewhere, which is logged.
 */
#include <string.h>
#include <arch/memlayout.h>
#include "acpi.h"
#include "bootinfo.h"
#include "cpu.h"
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
	for (unsigned i = 0; i < bi->nmem; i++) {
		const struct mem_range *m = &bi->mem[i];

		uint64_t lo = m->base & ~(PAGE_SIZE - 1);
		uint64_t hi = (m->base + m->len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);

		if (m->type != MEM_USABLE && pmem_reserve(all, lo, hi) < 0) {
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

static int numa(void)
{
	return acpi.nnodes > 1 && acpi.nmem > 0;
}

static int node_has_memory(unsigned node)
{
	for (unsigned i = 0; i < acpi.nmem; i++)
		if (acpi.mem[i].node == node)
			return 1;
	return 0;
}

/* From the node's memory if it has room, else from anywhere; *local
 * says which. */
static uint64_t alloc_near(struct pmem *pool, uint64_t size, unsigned node, int *local)
{
	for (unsigned i = 0; i < acpi.nmem; i++) {
		uint64_t pa;

		if (acpi.mem[i].node != node)
			continue;
		pa = pmem_alloc(pool, size, LARGE_PAGE_SIZE, acpi.mem[i].base,
				acpi.mem[i].base + acpi.mem[i].len, 0);
		if (pa != PMEM_NONE) {
			*local = 1;
			return pa;
		}
	}
	*local = 0;
	return pmem_alloc(pool, size, LARGE_PAGE_SIZE, 0, UINT64_MAX, 0);
}

uint64_t kmem_region_alloc(uint64_t size, const struct cpu *near)
{
	uint64_t f = spin_lock_irqsave(&upool_lock);
	unsigned node = acpi_cpu_node(near->arch.apic_id);
	int local = 1;
	uint64_t pa = numa() ? alloc_near(&upool, size, node, &local) :
		      pmem_alloc(&upool, size, LARGE_PAGE_SIZE, 0, UINT64_MAX, 0);

	spin_unlock_irqrestore(&upool_lock, f);
	if (pa != PMEM_NONE && !local)
		pr_warn("kmem: node %u has no %s for CPU %u's %lu MiB region: it comes from "
			"node %u\n", node, node_has_memory(node) ? "room" : "memory", near->id,
			size >> 20, acpi_mem_node(pa));
	return pa;
}

void kmem_region_free(uint64_t phys, uint64_t size)
{
	uint64_t f = spin_lock_irqsave(&upool_lock);

	pmem_free(&upool, phys, size);
	spin_unlock_irqrestore(&upool_lock, f);
}

/* Would ranks 0..n-1 (on CPUs 0..n-1) all get `size` bytes, each from its
 * own node when `local`?  Tried on a copy of upool, as the job will. */
static int fits(uint64_t size, unsigned n, int local)
{
	static struct pmem scratch;	/* 4 KiB: not on the stack */

	scratch = upool;
	for (unsigned r = 0; r < n; r++) {
		int here;

		if (alloc_near(&scratch, size, acpi_cpu_node(cpus[r]->arch.apic_id), &here) ==
		    PMEM_NONE || (local && !here))
			return 0;
	}
	return 1;
}

/* The largest multiple of 2 MiB up to `most` that fits(); 0 if none does. */
static uint64_t largest_fit(uint64_t most, unsigned n, int local)
{
	uint64_t lo = 0, hi = most / LARGE_PAGE_SIZE;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (fits(mid * LARGE_PAGE_SIZE, n, local))
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo * LARGE_PAGE_SIZE;
}

uint64_t kmem_region_share(unsigned n)
{
	uint64_t share = pmem_even_share(&upool, n, LARGE_PAGE_SIZE), f, local;

	if (!numa() || n == 0 || n > ncpus)
		return share;
	f = spin_lock_irqsave(&upool_lock);
	local = largest_fit(share, n, 1);
	spin_unlock_irqrestore(&upool_lock, f);
	if (local && local < share / 8 * 7)
		pr_info("kmem: %lu MiB per rank keeps each of %u ranks on its own NUMA node "
			"(an even split would give %lu MiB; mem= chooses)\n", local >> 20, n,
			share >> 20);
	if (local)
		return local;
	f = spin_lock_irqsave(&upool_lock);
	share = largest_fit(share, n, 0);
	spin_unlock_irqrestore(&upool_lock, f);
	return share;
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
