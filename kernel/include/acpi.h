/* acpi.h - what the kernel takes from the ACPI tables: CPUs and I/O APICs
 * (MADT), power and reset registers (FADT, \_S5 in the DSDT), the HPET,
 * and NUMA affinity (SRAT). */
#ifndef ACPI_H
#define ACPI_H

#include <stdint.h>
#include "cpu.h"

#define ACPI_IOAPIC_MAX		16
#define ACPI_NUMA_MEM_MAX	64

/* A Generic Address Structure, reduced to what we use. */
struct acpi_gas {
	uint8_t space;		/* 0 memory, 1 I/O port */
	uint8_t width;		/* access size in bytes, 0 = unknown */
	uint64_t addr;
};

struct acpi_info {
	int present;
	uint8_t revision;
	char oem[7];
	/* MADT */
	uint64_t lapic_addr;
	int pcat_compat;		/* legacy 8259 PICs present */
	unsigned ncpus;			/* enabled processors, BSP not necessarily first */
	uint32_t cpu_apic_id[CPU_MAX];
	uint32_t cpu_node[CPU_MAX];	/* proximity domain from the SRAT, else 0 */
	unsigned disabled_cpus;		/* MADT entries skipped as disabled */
	unsigned nioapics;
	uint64_t ioapic_addr[ACPI_IOAPIC_MAX];
	/* FADT */
	struct acpi_gas pm1a_cnt, pm1b_cnt, reset_reg;
	uint8_t reset_value;
	int reset_supported;
	uint32_t smi_cmd;
	uint8_t acpi_enable;
	int s5_valid;
	uint8_t slp_typa, slp_typb;
	uint16_t boot_arch;		/* IAPC_BOOT_ARCH flags */
	int hw_reduced;
	struct acpi_gas pm_timer;	/* 3.579545 MHz counter, 0 = none */
	int pm_timer_32bit;		/* else 24 bits */
	/* HPET */
	uint64_t hpet_addr;
	/* SRAT */
	unsigned nnodes;
	unsigned nmem;
	struct { uint64_t base, len; uint32_t node; } mem[ACPI_NUMA_MEM_MAX];
};

extern struct acpi_info acpi;

/* Read the tables from the RSDP the loader gave (or found in the BIOS
 * area when rsdp is NULL).  0, or -1 when there is no usable ACPI. */
int acpi_init(const void *rsdp);
/* The NUMA node (SRAT proximity domain) of the CPU with this APIC id; 0
 * without an SRAT. */
unsigned acpi_cpu_node(uint32_t apic_id);
/* The node whose SRAT memory holds phys; ACPI_NO_NODE if none does. */
#define ACPI_NO_NODE	(~0u)
unsigned acpi_mem_node(uint64_t phys);
/* Enter S5 (soft off); returns only if that failed. */
void acpi_poweroff(void);
/* Use the FADT reset register; returns only if unsupported or ignored. */
void acpi_reset(void);

#endif
