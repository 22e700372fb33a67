/*
 * acpi.c - find and read the ACPI tables the kernel needs.  Every table is
 * checked (signature, length, checksum) before use; a bad one is skipped
 * with a warning, never trusted.  No AML interpreter: \_S5 is found by
 * the well-known byte pattern, which is what every LWK and most hobby
 * kernels do and which works on QEMU and common firmware.
 */
#include <string.h>
#include <arch/cpu.h>
#include <arch/io.h>
#include <arch/memlayout.h>
#include <arch/paging.h>
#include "acpi.h"
#include "printk.h"
#include "time.h"

struct acpi_info acpi;

struct sdt_header {
	char sig[4];
	uint32_t length;
	uint8_t revision;
	uint8_t checksum;
	char oem[6];
	char oem_table[8];
	uint32_t oem_rev;
	uint32_t creator;
	uint32_t creator_rev;
} __attribute__((packed));

struct rsdp {
	char sig[8];
	uint8_t checksum;
	char oem[6];
	uint8_t revision;
	uint32_t rsdt;
	uint32_t length;
	uint64_t xsdt;
	uint8_t xchecksum;
	uint8_t reserved[3];
} __attribute__((packed));

struct gas_raw {
	uint8_t space, bit_width, bit_offset, access_size;
	uint64_t addr;
} __attribute__((packed));

static int sum_ok(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t s = 0;

	while (n--)
		s += *b++;
	return s == 0;
}

/* Map a table and check it; NULL with a warning when it is bad. */
static const struct sdt_header *map_table(uint64_t phys)
{
	const struct sdt_header *h = paging_map_phys(phys, sizeof(*h), CACHE_WB);

	if (!h)
		return NULL;
	if (h->length < sizeof(*h) || h->length > (16u << 20) ||
	    !paging_map_phys(phys, h->length, CACHE_WB)) {
		pr_warn("acpi: table at %#lx has a bad length\n", phys);
		return NULL;
	}
	if (!sum_ok(h, h->length)) {
		pr_warn("acpi: table %.4s at %#lx has a bad checksum, ignored\n", h->sig, phys);
		return NULL;
	}
	return h;
}

static const struct rsdp *find_rsdp_bios(void)
{
	/* The EBDA's first KiB, then the BIOS ROM area, on 16-byte boundaries. */
	uint64_t ebda = (uint64_t)*(const uint16_t *)phys_to_virt(0x40E) << 4;
	uint64_t ranges[2][2] = { { ebda, ebda + 1024 }, { 0xE0000, 0x100000 } };

	for (int r = 0; r < 2; r++) {
		if (ranges[r][0] < 0x80000 && r == 0)
			continue;
		for (uint64_t a = ranges[r][0]; a + 20 <= ranges[r][1]; a += 16) {
			const struct rsdp *p = phys_to_virt(a);

			if (!memcmp(p->sig, "RSD PTR ", 8) && sum_ok(p, 20))
				return p;
		}
	}
	return NULL;
}

static struct acpi_gas gas(const struct gas_raw *g, uint64_t legacy_port, unsigned legacy_len)
{
	struct acpi_gas out = { 0, 0, 0 };

	if (g && g->addr) {
		out.space = g->space;
		out.addr = g->addr;
		out.width = g->access_size ? (uint8_t)(1u << (g->access_size - 1)) :
			    (uint8_t)(g->bit_width / 8);
	} else if (legacy_port) {
		out.space = 1;
		out.addr = legacy_port;
		out.width = (uint8_t)legacy_len;
	}
	return out;
}

static void parse_madt(const struct sdt_header *h)
{
	const uint8_t *p = (const uint8_t *)h + 44, *end = (const uint8_t *)h + h->length;
	uint32_t flags;

	memcpy(&flags, (const uint8_t *)h + 40, 4);
	memcpy(&acpi.lapic_addr, (const uint8_t *)h + 36, 4);
	acpi.pcat_compat = flags & 1;
	for (; p + 2 <= end && p[1] >= 2 && p + p[1] <= end; p += p[1]) {
		uint32_t id, eflags, addr;
		int is_cpu = 0;

		switch (p[0]) {
		case 0:	/* processor local APIC */
			id = p[3];
			memcpy(&eflags, p + 4, 4);
			is_cpu = 1;
			break;
		case 9:	/* processor local x2APIC */
			memcpy(&id, p + 4, 4);
			memcpy(&eflags, p + 8, 4);
			is_cpu = 1;
			break;
		case 1:	/* I/O APIC */
			memcpy(&addr, p + 4, 4);
			if (acpi.nioapics < ACPI_IOAPIC_MAX)
				acpi.ioapic_addr[acpi.nioapics++] = addr;
			break;
		case 5:	/* local APIC address override */
			memcpy(&acpi.lapic_addr, p + 4, 8);
			break;
		}
		if (!is_cpu)
			continue;
		if (!(eflags & 1)) {
			acpi.disabled_cpus++;
			continue;
		}
		int dup = 0;

		for (unsigned i = 0; i < acpi.ncpus; i++)
			dup |= acpi.cpu_apic_id[i] == id;
		if (dup)
			continue;
		if (acpi.ncpus == CPU_MAX) {
			pr_warn("acpi: more than %d CPUs, the rest are not used\n", CPU_MAX);
			continue;
		}
		acpi.cpu_apic_id[acpi.ncpus++] = id;
	}
}

/* Find "_S5_" followed by a package in the AML and read its first two
 * integers (SLP_TYPa, SLP_TYPb). */
static void find_s5(const struct sdt_header *dsdt)
{
	const uint8_t *p = (const uint8_t *)dsdt + sizeof(*dsdt);
	const uint8_t *end = (const uint8_t *)dsdt + dsdt->length;

	for (; p + 8 < end; p++) {
		if (memcmp(p, "_S5_", 4) || p[4] != 0x12)
			continue;
		/* NameOp, optionally with a root prefix, must precede the name. */
		if (!(p[-1] == 0x08 || (p[-2] == 0x08 && p[-1] == '\\')))
			continue;
		const uint8_t *q = p + 5;
		unsigned pkglen_bytes = (*q >> 6) + 1;
		uint8_t vals[2];

		q += pkglen_bytes + 1;		/* PkgLength, NumElements */
		for (int i = 0; i < 2; i++) {
			if (q >= end)
				return;
			if (*q == 0x0A) {		/* BytePrefix */
				vals[i] = q[1];
				q += 2;
			} else if (*q == 0x00 || *q == 0x01) {	/* Zero, One */
				vals[i] = *q;
				q++;
			} else if (*q == 0xFF) {	/* Ones */
				vals[i] = 0xFF;
				q++;
			} else {
				return;
			}
		}
		acpi.slp_typa = vals[0];
		acpi.slp_typb = vals[1];
		acpi.s5_valid = 1;
		return;
	}
}

static void parse_fadt(const struct sdt_header *h)
{
	const uint8_t *f = (const uint8_t *)h;
	uint32_t pm1a = 0, pm1b = 0, pm_tmr = 0, dsdt32 = 0, flags = 0;
	uint64_t dsdt = 0;
	uint8_t pm1_len = 0;
	size_t len = h->length;

	memcpy(&dsdt32, f + 40, 4);
	memcpy(&acpi.smi_cmd, f + 48, 4);
	acpi.acpi_enable = f[52];
	memcpy(&pm1a, f + 64, 4);
	memcpy(&pm1b, f + 68, 4);
	pm1_len = f[89];
	if (len >= 111)
		memcpy(&acpi.boot_arch, f + 109, 2);
	if (len >= 116)
		memcpy(&flags, f + 112, 4);
	acpi.hw_reduced = !!(flags & (1u << 20));
	if (len >= 129 && (flags & (1u << 10))) {
		acpi.reset_reg = gas((const struct gas_raw *)(f + 116), 0, 0);
		acpi.reset_value = f[128];
		acpi.reset_supported = acpi.reset_reg.addr != 0;
	}
	dsdt = dsdt32;
	if (len >= 148) {
		uint64_t x;

		memcpy(&x, f + 140, 8);
		if (x)
			dsdt = x;
	}
	memcpy(&pm_tmr, f + 76, 4);
	if (f[91] == 4 || len >= 220)
		acpi.pm_timer = gas(len >= 220 ? (const struct gas_raw *)(f + 208) : NULL, pm_tmr, 4);
	acpi.pm_timer_32bit = !!(flags & (1u << 8));
	acpi.pm1a_cnt = gas(len >= 184 ? (const struct gas_raw *)(f + 172) : NULL, pm1a, pm1_len);
	acpi.pm1b_cnt = gas(len >= 196 ? (const struct gas_raw *)(f + 184) : NULL, pm1b, pm1_len);
	if (dsdt) {
		const struct sdt_header *d = map_table(dsdt);

		if (d && !memcmp(d->sig, "DSDT", 4))
			find_s5(d);
	}
}

static void parse_srat(const struct sdt_header *h)
{
	const uint8_t *p = (const uint8_t *)h + 48, *end = (const uint8_t *)h + h->length;
	uint32_t maxnode = 0;

	for (; p + 2 <= end && p[1] >= 2 && p + p[1] <= end; p += p[1]) {
		uint32_t dom = 0, flags = 0, id = 0;

		if (p[0] == 0 && p[1] >= 16) {		/* processor local APIC affinity */
			dom = p[2] | (uint32_t)p[9] << 8 | (uint32_t)p[10] << 16 | (uint32_t)p[11] << 24;
			id = p[3];
			memcpy(&flags, p + 4, 4);
		} else if (p[0] == 2 && p[1] >= 24) {	/* x2APIC affinity */
			memcpy(&dom, p + 4, 4);
			memcpy(&id, p + 8, 4);
			memcpy(&flags, p + 12, 4);
		} else if (p[0] == 1 && p[1] >= 40) {	/* memory affinity */
			memcpy(&dom, p + 2, 4);
			memcpy(&flags, p + 28, 4);
			if ((flags & 1) && acpi.nmem < ACPI_NUMA_MEM_MAX) {
				memcpy(&acpi.mem[acpi.nmem].base, p + 8, 8);
				memcpy(&acpi.mem[acpi.nmem].len, p + 16, 8);
				acpi.mem[acpi.nmem++].node = dom;
				if (dom > maxnode)
					maxnode = dom;
			}
			continue;
		} else {
			continue;
		}
		if (!(flags & 1))
			continue;
		for (unsigned i = 0; i < acpi.ncpus; i++)
			if (acpi.cpu_apic_id[i] == id)
				acpi.cpu_node[i] = dom;
		if (dom > maxnode)
			maxnode = dom;
	}
	acpi.nnodes = maxnode + 1;
}

/* One line per node: what the placement of rank regions follows. */
static void log_numa(void)
{
	for (unsigned node = 0; node < acpi.nnodes; node++) {
		uint64_t bytes = 0;
		unsigned ncpu = 0;

		for (unsigned i = 0; i < acpi.nmem; i++)
			if (acpi.mem[i].node == node)
				bytes += acpi.mem[i].len;
		pr_info("numa: node %u: APIC ids", node);
		for (unsigned i = 0; i < acpi.ncpus; i++)
			if (acpi.cpu_node[i] == node && ncpu++ < 16)
				pr_info(" %u", acpi.cpu_apic_id[i]);
		pr_info("%s; %lu MiB of memory", ncpu > 16 ? " ..." : ncpu ? "" : " none", bytes >> 20);
		for (unsigned i = 0; i < acpi.nmem; i++)
			if (acpi.mem[i].node == node)
				pr_info(" %#lx-%#lx", acpi.mem[i].base,
					acpi.mem[i].base + acpi.mem[i].len - 1);
		pr_info("\n");
	}
}

int acpi_init(const void *rsdp_copy)
{
	const struct rsdp *r = rsdp_copy ? rsdp_copy : find_rsdp_bios();
	const struct sdt_header *root, *madt = NULL, *srat = NULL;
	int xsdt;

	acpi.nnodes = 1;
	if (!r || memcmp(r->sig, "RSD PTR ", 8) || !sum_ok(r, 20)) {
		pr_warn("acpi: no valid RSDP\n");
		return -1;
	}
	acpi.revision = r->revision;
	memcpy(acpi.oem, r->oem, 6);
	xsdt = r->revision >= 2 && r->length >= sizeof(*r) && r->xsdt && sum_ok(r, sizeof(*r));
	root = map_table(xsdt ? r->xsdt : r->rsdt);
	if (!root) {
		pr_warn("acpi: no valid %s\n", xsdt ? "XSDT" : "RSDT");
		return -1;
	}
	unsigned esize = xsdt ? 8 : 4;
	unsigned n = (root->length - sizeof(*root)) / esize;

	for (unsigned i = 0; i < n; i++) {
		uint64_t pa = 0;
		const struct sdt_header *t;

		memcpy(&pa, (const uint8_t *)(root + 1) + i * esize, esize);
		t = pa ? map_table(pa) : NULL;
		if (!t)
			continue;
		if (!memcmp(t->sig, "APIC", 4))
			madt = t;
		else if (!memcmp(t->sig, "FACP", 4))
			parse_fadt(t);
		else if (!memcmp(t->sig, "SRAT", 4))
			srat = t;
		else if (!memcmp(t->sig, "HPET", 4) && t->length >= 56)
			memcpy(&acpi.hpet_addr, (const uint8_t *)t + 44, 8);
	}
	if (madt)
		parse_madt(madt);
	if (srat)
		parse_srat(srat);
	acpi.present = 1;
	pr_info("acpi: %.6s rev %u, %u CPUs", acpi.oem, acpi.revision, acpi.ncpus);
	if (acpi.disabled_cpus)
		pr_info(" (+%u disabled)", acpi.disabled_cpus);
	pr_info(", %u I/O APICs, %u NUMA node%s%s%s\n", acpi.nioapics, acpi.nnodes,
		acpi.nnodes == 1 ? "" : "s", acpi.hpet_addr ? ", HPET" : "",
		acpi.pm_timer.addr ? ", PM timer" : "");
	if (acpi.nnodes > 1)
		log_numa();
	return 0;
}

unsigned acpi_cpu_node(uint32_t apic_id)
{
	for (unsigned i = 0; i < acpi.ncpus; i++)
		if (acpi.cpu_apic_id[i] == apic_id)
			return acpi.cpu_node[i];
	return 0;
}

unsigned acpi_mem_node(uint64_t phys)
{
	for (unsigned i = 0; i < acpi.nmem; i++)
		if (phys - acpi.mem[i].base < acpi.mem[i].len)
			return acpi.mem[i].node;
	return ACPI_NO_NODE;
}

static void gas_write(const struct acpi_gas *g, uint32_t v)
{
	if (!g->addr)
		return;
	if (g->space == 1) {
		if (g->width == 1)
			outb((uint16_t)g->addr, (uint8_t)v);
		else if (g->width == 4)
			outl((uint16_t)g->addr, v);
		else
			outw((uint16_t)g->addr, (uint16_t)v);
	} else if (g->space == 0) {
		volatile void *p = phys_to_virt(g->addr);

		if (g->width == 1)
			*(volatile uint8_t *)p = (uint8_t)v;
		else if (g->width == 4)
			*(volatile uint32_t *)p = v;
		else
			*(volatile uint16_t *)p = (uint16_t)v;
	}
}

static uint32_t gas_read(const struct acpi_gas *g)
{
	if (g->space == 1)
		return g->width == 4 ? inl((uint16_t)g->addr) : inw((uint16_t)g->addr);
	if (g->space == 0)
		return g->width == 4 ? *(volatile uint32_t *)phys_to_virt(g->addr) :
		       *(volatile uint16_t *)phys_to_virt(g->addr);
	return 0;
}

void acpi_poweroff(void)
{
	if (!acpi.present || !acpi.s5_valid || !acpi.pm1a_cnt.addr)
		return;
	/* Firmware in legacy mode must hand the hardware to ACPI first. */
	if (!(gas_read(&acpi.pm1a_cnt) & 1) && acpi.smi_cmd && acpi.acpi_enable) {
		outb((uint16_t)acpi.smi_cmd, acpi.acpi_enable);
		for (int i = 0; i < 300 && !(gas_read(&acpi.pm1a_cnt) & 1); i++)
			udelay(10000);
	}
	gas_write(&acpi.pm1a_cnt, ((uint32_t)acpi.slp_typa << 10) | (1u << 13));
	if (acpi.pm1b_cnt.addr)
		gas_write(&acpi.pm1b_cnt, ((uint32_t)acpi.slp_typb << 10) | (1u << 13));
	udelay(100000);
}

void acpi_reset(void)
{
	if (!acpi.reset_supported)
		return;
	if (acpi.reset_reg.space == 1)
		outb((uint16_t)acpi.reset_reg.addr, acpi.reset_value);
	else if (acpi.reset_reg.space == 0)
		*(volatile uint8_t *)phys_to_virt(acpi.reset_reg.addr) = acpi.reset_value;
	udelay(100000);
}
