/*
 * smp.c - start the application processors.
 *
 * All APs are started together: INIT to each, one wait, SIPI to each, and
 * a second SIPI only to those that have not checked in.  Serial start-up
 * would cost the wait once per CPU; this costs it once.  The wait after
 * INIT is the MP specification's 10 ms only on CPUs that need it: like
 * Linux, none for Intel family 6 and later, AMD family 0xF and later, and
 * under a hypervisor.  Each AP finds its own stack by APIC id.
 */
#include <string.h>
#include <arch/arch.h>
#include <arch/cpu.h>
#include <arch/memlayout.h>
#include "acpi.h"
#include "apic.h"
#include "cpu.h"
#include "printk.h"
#include "time.h"

#define TRAMP_BASE	0x8000

extern char trampoline_blob[], trampoline_blob_end[];
extern char ap_long_entry[];
extern uint64_t boot_pml4[];

struct ap_boot_entry {
	uint64_t apic_id;
	uint64_t stack_top;
	struct cpu *cpu;
};

uint64_t ap_kernel_cr3;
struct ap_boot_entry ap_boot_table[CPU_MAX];
uint32_t ap_boot_count;

static uint64_t init_delay_us(void)
{
	uint32_t a, b, c, d;
	int intel, amd;

	cpuid(0, 0, &a, &b, &c, &d);
	intel = b == 0x756E6547 && d == 0x49656E69 && c == 0x6C65746E;	/* GenuineIntel */
	amd = b == 0x68747541 && d == 0x69746E65 && c == 0x444D4163;	/* AuthenticAMD */
	if ((cpu_features.leaf1_ecx & (1u << 31)) || (intel && cpu_features.family >= 6) ||
	    (amd && cpu_features.family >= 0xF))
		return 100;
	return 10000;
}

static unsigned count_online(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ncpus; i++)
		n += cpus[i]->online;
	return n;
}

unsigned smp_boot(void)
{
	size_t len = trampoline_blob_end - trampoline_blob;
	uint8_t *tramp = phys_to_virt(TRAMP_BASE);
	uint32_t self = apic_id();
	uint64_t deadline;

	/* Logical CPU 0 is us; the others follow in MADT order. */
	for (unsigned i = 0; i < acpi.ncpus; i++) {
		uint32_t id = acpi.cpu_apic_id[i];
		struct cpu *c;

		if (id == self)
			continue;
		if (!apic_can_reach(id)) {
			pr_warn("smp: APIC id %u needs x2APIC, which this CPU lacks: not started\n", id);
			continue;
		}
		c = cpu_create(ncpus, id, NULL);
		if (!c) {
			pr_err("smp: out of memory for CPU %u\n", ncpus);
			break;
		}
		ap_boot_table[ap_boot_count++] = (struct ap_boot_entry){
			id, cpu_stack_top(ncpus), c };
		ncpus++;
	}
	if (ncpus == 1)
		return 1;

	memcpy(tramp, trampoline_blob, len);
	/* parameter block: cr3 (u32), efer bits (u32), entry (u64) */
	*(uint32_t *)(tramp + len - 16) = (uint32_t)virt_to_phys(boot_pml4);
	*(uint32_t *)(tramp + len - 12) = (uint32_t)(rdmsr(MSR_EFER) & EFER_NXE);
	*(uint64_t *)(tramp + len - 8) = (uint64_t)ap_long_entry;
	ap_kernel_cr3 = read_cr3();
	__atomic_thread_fence(__ATOMIC_SEQ_CST);

	for (unsigned i = 0; i < ap_boot_count; i++)
		apic_send_init((uint32_t)ap_boot_table[i].apic_id);
	udelay(init_delay_us());
	for (unsigned i = 0; i < ap_boot_count; i++)
		apic_send_sipi((uint32_t)ap_boot_table[i].apic_id, TRAMP_BASE >> 12);
	udelay(200);
	for (unsigned i = 0; i < ap_boot_count; i++)
		if (!ap_boot_table[i].cpu->online)
			apic_send_sipi((uint32_t)ap_boot_table[i].apic_id, TRAMP_BASE >> 12);

	/* Generous for emulators: TCG runs dozens of vCPUs on a few cores. */
	deadline = rdtsc() + 5 * tsc_hz;
	while (count_online() < ncpus && rdtsc() < deadline)
		cpu_relax();
	for (unsigned i = 0; i < ap_boot_count; i++)
		if (!ap_boot_table[i].cpu->online)
			pr_err("smp: CPU %u (APIC id %lu) did not start\n",
			       ap_boot_table[i].cpu->id, ap_boot_table[i].apic_id);
	return count_online();
}
