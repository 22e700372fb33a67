/*
 * paging.c - x86-64 four-level page tables.
 *
 * The kernel owns PML4 slot 511 through one PDPT shared by every address
 * space, so a kernel mapping made once is visible everywhere.  All kernel
 * mappings are made at boot, before the APs run; afterwards only user
 * slots change, and only between jobs (SMARTMAP's invariant), which is
 * why this file needs no TLB shootdown.
 */
#include <string.h>
#include <arch/cpu.h>
#include <arch/memlayout.h>
#include <arch/paging.h>
#include "bootinfo.h"
#include "errno.h"
#include "kmem.h"
#include "printk.h"

#define PTE_P		(1ul << 0)
#define PTE_W		(1ul << 1)
#define PTE_U		(1ul << 2)
#define PTE_PWT		(1ul << 3)
#define PTE_PCD		(1ul << 4)
#define PTE_PS		(1ul << 7)
#define PTE_PAT4K	(1ul << 7)
#define PTE_G		(1ul << 8)
#define PTE_PATLG	(1ul << 12)
#define PTE_NX		(1ul << 63)
#define PTE_ADDR	0x000FFFFFFFFFF000ul
#define PTE_ADDR_LG	0x000FFFFFFFE00000ul	/* 2 MiB and 1 GiB frames */

#define MSR_PAT		0x277
/* PAT: 0 WB, 1 WC, 2 UC-, 3 UC, repeated: PWT alone selects WC. */
#define PAT_VALUE	0x0007010600070106ul

extern char _text_start[], _text_end[], _rodata_end[], _kernel_end[];

static uint64_t *kernel_pml4;
static uint64_t nx_bit;
static int have_1g_pages;

static uint64_t *table_of(uint64_t e)
{
	return phys_to_virt(e & PTE_ADDR);
}

/* Size mapped by one entry of a table at `level` (4 = PML4 .. 1 = PT). */
static uint64_t level_size(int level)
{
	return 1ul << (12 + 9 * (level - 1));
}

static unsigned level_index(uint64_t va, int level)
{
	return (va >> (12 + 9 * (level - 1))) & 511;
}

/* Turn a large page at *e (in a table at `level`) into a table of the
 * next level down that maps the same memory with the same attributes. */
static int split_large(uint64_t *e, int level)
{
	uint64_t *t = kpage_alloc();
	uint64_t old = *e, attrs, base = old & PTE_ADDR_LG;
	uint64_t step = level_size(level - 1);

	if (!t)
		return -ENOMEM;
	attrs = old & (PTE_P | PTE_W | PTE_U | PTE_PWT | PTE_PCD | PTE_G | PTE_NX);
	for (int i = 0; i < 512; i++) {
		uint64_t ent = (base + i * step) | attrs;

		if (level - 1 > 1)
			ent |= PTE_PS | (old & PTE_PATLG);
		else if (old & PTE_PATLG)
			ent |= PTE_PAT4K;
		t[i] = ent;
	}
	*e = virt_to_phys(t) | (old & (PTE_P | PTE_W | PTE_U));
	return 0;
}

/* The table below entry *e, created (or split out of a large page). */
static uint64_t *next_table(uint64_t *e, int level, uint64_t table_flags)
{
	if (!(*e & PTE_P)) {
		uint64_t *t = kpage_alloc();

		if (!t)
			return NULL;
		*e = virt_to_phys(t) | table_flags;
	} else if (*e & PTE_PS) {
		if (split_large(e, level) < 0)
			return NULL;
	}
	*e |= table_flags & (PTE_W | PTE_U);
	return table_of(*e);
}

/* Map [va, va+len) -> pa with leaf flags, large pages where alignment and
 * `allow` (a set of level_size values) permit and nothing smaller is
 * already mapped there.  Intermediate entries get table_flags. */
static int map_range(uint64_t *pml4, uint64_t va, uint64_t pa, uint64_t len,
		     uint64_t leaf, uint64_t table_flags, uint64_t allow)
{
	while (len) {
		uint64_t *t = pml4;
		int level = 4;

		for (;;) {
			uint64_t sz = level_size(level);
			uint64_t *e = &t[level_index(va, level)];

			if (level <= 3 && (allow & sz) && !((va | pa) & (sz - 1)) && len >= sz &&
			    (!(*e & PTE_P) || (*e & PTE_PS) || level == 1)) {
				*e = pa | leaf | (level > 1 ? PTE_PS : 0);
				invlpg(va);
				va += sz;
				pa += sz;
				len -= sz;
				break;
			}
			t = next_table(e, level, table_flags);
			if (!t)
				return -ENOMEM;
			level--;
		}
	}
	return 0;
}

static int kmap(uint64_t va, uint64_t pa, uint64_t len, uint64_t leaf, int large)
{
	uint64_t allow = PAGE_SIZE;

	if (large)
		allow |= LARGE_PAGE_SIZE | (have_1g_pages ? HUGE_PAGE_SIZE : 0);
	return map_range(kernel_pml4, va, pa, len, leaf | PTE_P | PTE_G, PTE_P | PTE_W, allow);
}

static uint64_t align_down(uint64_t v, uint64_t a)
{
	return v & ~(a - 1);
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

void paging_cpu_init(void)
{
	uint32_t a, b, c, d;
	uint64_t cr4 = read_cr4() | CR4_PGE;

	cpuid(7, 0, &a, &b, &c, &d);
	if (b & (1u << 7))
		cr4 |= CR4_SMEP;
	if (b & (1u << 20))
		cr4 |= CR4_SMAP;
	if (c & (1u << 2))
		cr4 |= CR4_UMIP;
	wrmsr(MSR_PAT, PAT_VALUE);
	write_cr4(cr4);
	write_cr0(read_cr0() | CR0_WP);
	if (kernel_pml4)
		paging_switch(kernel_pml4);
}

void paging_init(const struct bootinfo *bi)
{
	uint32_t a, b, c, d;
	uint64_t text = (uint64_t)_text_start, text_end = (uint64_t)_text_end;
	uint64_t ro_end = (uint64_t)_rodata_end, end = (uint64_t)_kernel_end;

	cpuid(0x80000001, 0, &a, &b, &c, &d);
	nx_bit = (d & (1u << 20)) ? PTE_NX : 0;
	have_1g_pages = !!(d & (1u << 26));

	kernel_pml4 = kpage_alloc();
	if (!kernel_pml4)
		panic("paging: no memory for the kernel page tables");

	/* Direct map of every RAM-like range, widened to 2 MiB (firmware
	 * MTRRs keep legacy holes uncached inside such pages). */
	for (unsigned i = 0; i < bi->nmem; i++) {
		const struct mem_range *m = &bi->mem[i];

		if (m->type == MEM_RESERVED || m->type == MEM_BAD)
			continue;
		uint64_t lo = align_down(m->base, LARGE_PAGE_SIZE);
		uint64_t hi = align_up(m->base + m->len, LARGE_PAGE_SIZE);

		if (hi > DIRECT_MAP_SIZE) {
			pr_warn("paging: memory above %lu GiB is not used\n", DIRECT_MAP_SIZE >> 30);
			hi = DIRECT_MAP_SIZE;
		}
		if (lo < hi && kmap(DIRECT_MAP_BASE + lo, lo, hi - lo, PTE_W | nx_bit, 1) < 0)
			panic("paging: out of memory building the direct map");
	}

	/* The image: text read-only and executable, the rest non-executable. */
	if (kmap(text, text - KERNEL_VMA, text_end - text, 0, 0) < 0 ||
	    kmap(text_end, text_end - KERNEL_VMA, ro_end - text_end, nx_bit, 0) < 0 ||
	    kmap(ro_end, ro_end - KERNEL_VMA, end - ro_end, PTE_W | nx_bit, 0) < 0)
		panic("paging: out of memory mapping the kernel image");

	paging_cpu_init();
}

void *paging_map_phys(uint64_t phys, uint64_t size, enum cache_mode mode)
{
	uint64_t lo = align_down(phys, PAGE_SIZE);
	uint64_t hi = align_up(phys + size, PAGE_SIZE);
	uint64_t cache = mode == CACHE_WB ? 0 : mode == CACHE_WC ? PTE_PWT : (PTE_PCD | PTE_PWT);

	if (hi > DIRECT_MAP_SIZE || kmap(DIRECT_MAP_BASE + lo, lo, hi - lo,
					 PTE_W | nx_bit | cache, 1) < 0)
		return NULL;
	return phys_to_virt(phys);
}

int paging_map_kstack(uintptr_t va, size_t size)
{
	for (size_t off = 0; off < size; off += PAGE_SIZE) {
		void *pg = kpage_alloc();

		if (!pg || kmap(va + off, virt_to_phys(pg), PAGE_SIZE, PTE_W | nx_bit, 0) < 0)
			return -ENOMEM;
	}
	return 0;
}

uint64_t *paging_kernel_pml4(void)
{
	return kernel_pml4;
}

uint64_t *paging_aspace_new(void)
{
	uint64_t *pml4 = kpage_alloc();

	if (pml4)
		pml4[PML4_KERNEL_SLOT] = kernel_pml4[PML4_KERNEL_SLOT];
	return pml4;
}

int paging_map_user(uint64_t *pml4, uint64_t va, uint64_t pa, uint64_t len,
		    unsigned prot)
{
	uint64_t leaf = PTE_P | PTE_U;

	if (prot & PROT_W)
		leaf |= PTE_W;
	if (!(prot & PROT_X))
		leaf |= nx_bit;
	return map_range(pml4, va, pa, len, leaf, PTE_P | PTE_W | PTE_U,
			 PAGE_SIZE | LARGE_PAGE_SIZE);
}

static void free_tables(uint64_t *t, int level)
{
	for (int i = 0; i < 512 && level > 1; i++)
		if ((t[i] & PTE_P) && !(t[i] & PTE_PS))
			free_tables(table_of(t[i]), level - 1);
	kpage_free(t);
}

void paging_aspace_free(uint64_t *pml4)
{
	for (unsigned s = 1; s < PML4_KERNEL_SLOT; s++)
		if (pml4[s])
			panic("paging: freeing an address space with SMARTMAP slot %u still set", s);
	if (pml4[0] & PTE_P)
		free_tables(table_of(pml4[0]), 3);
	kpage_free(pml4);
}

uint64_t paging_slot_get(const uint64_t *pml4, unsigned slot)
{
	return pml4[slot];
}

void paging_slot_set(uint64_t *pml4, unsigned slot, uint64_t entry)
{
	pml4[slot] = entry;
}

void paging_switch(const uint64_t *pml4)
{
	write_cr3(virt_to_phys(pml4));
}
