/*
 * main.c - the boot sequence, from the loader's hand-off to the jobs:
 *
 *   bootinfo + command line -> serial console -> physical pools -> kernel
 *   page tables -> own guarded stack -> ACPI -> TSC -> local APIC ->
 *   video console -> application processors -> jobs -> power off
 */
#include <arch/arch.h>
#include <arch/cpu.h>
#include <arch/memlayout.h>
#include <arch/paging.h>
#include "smapos_abi.h"
#include "acpi.h"
#include "bootinfo.h"
#include "cmdline.h"
#include "cpu.h"
#include "drivers.h"
#include "job.h"
#include "knet.h"
#include "nic.h"
#include "pci.h"
#include "kernel.h"
#include "kmem.h"
#include "power.h"
#include "printk.h"
#include "hwbarrier.h"
#include "random.h"
#include "syscall.h"
#include "time.h"
#include <string.h>

extern const struct kparam __param_start[], __param_end[];
extern char _kernel_end[];

uint64_t node_mem_usable, node_online_tsc;

static struct bootinfo bootinfo;
static struct cmdline cmdline;

static const char *kfault;
KPARAM(kfault, PARAM_STR, &kfault,
       "fault the kernel on purpose once all CPUs are up: page, gp, ud or div (tests the fault report)");

static void *early_p2v(uint64_t phys)
{
	return phys_to_virt(phys);
}

static const char *mem_type_name(uint32_t t)
{
	static const char *const names[] = { "?", "usable", "reserved", "ACPI data", "ACPI NVS", "bad" };

	return t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

static void ms(uint64_t ticks, uint64_t *whole, uint64_t *frac)
{
	uint64_t us = tsc_to_ns(ticks) / 1000;

	*whole = us / 1000;
	*frac = us % 1000;
}

static void deliberate_fault(const char *kind)
{
	pr_info("kfault: faulting on purpose (%s)\n", kind);
	if (!strcmp(kind, "page")) {
		uint64_t *volatile bad = (uint64_t *)0x10;

		*bad = 1;
	}
	else if (!strcmp(kind, "gp"))
		__asm__ volatile("mov %0, %%ds" : : "r"((uint16_t)0x68));
	else if (!strcmp(kind, "ud"))
		__asm__ volatile("ud2");
	else if (!strcmp(kind, "div"))
		__asm__ volatile("xor %%edx, %%edx; div %0" : : "r"(0u), "a"(1u) : "rdx");
	pr_err("kfault: unknown kind '%s' (page, gp, ud, div)\n", kind);
	power_end(SMAPOS_EXIT_BADCMD);
}

static _Noreturn void kmain_late(void)
{
	uint64_t w, f;
	unsigned online;

	cpu_setup(cpus[0], 1);
	acpi_init(bootinfo.rsdp);
	time_init();
	apic_init_bsp();
	cpus[0]->arch.apic_id = apic_id();
	cpus[0]->online = 1;
	video_init(&bootinfo);
	syscall_init_clock(arch_rtc_seconds(), rdtsc());
	pr_info("random: %s\n", random_source());
	hwbarrier_init();
	pci_init();
	nic_init();
	knet_init();
	online = smp_boot();
	node_online_tsc = rdtsc();
	ms(node_online_tsc, &w, &f);
	pr_info("smp: %u of %u CPUs online, %lu.%03lu ms after reset", online,
		acpi.ncpus ? acpi.ncpus : 1, w, f);
	ms(rdtsc() - tsc_boot, &w, &f);
	pr_info(" (%lu.%03lu ms in the kernel)\n", w, f);
	if (kfault)
		deliberate_fault(kfault);
	power_end(jobs_run(&cmdline, &bootinfo));
}

_Noreturn void kmain(uint32_t magic, uint64_t info_phys)
{
	int bi = bootinfo_parse(&bootinfo, magic, info_phys, early_p2v);
	int cl = bi < 0 ? 0 : cmdline_parse(&cmdline, bootinfo.cmdline, __param_start,
					     __param_end - __param_start);

	serial_init();
	printk_console_ready();
	pr_info("smapos: booting from %s (multiboot%d)\n", bootinfo.loader_name, bootinfo.loader);
	if (bi < 0)
		panic("boot information unusable");
	pr_info("cmdline: %s\n", bootinfo.cmdline);
	if (cl < 0) {
		pr_err("smapos: bad kernel command line (see docs/cmdline.md)\n");
		power_end(SMAPOS_EXIT_BADCMD);
	}
	for (unsigned i = 0; i < bootinfo.nmem; i++) {
		if (bootinfo.mem[i].type == MEM_USABLE)
			node_mem_usable += bootinfo.mem[i].len;
		pr_info("mem: %#014lx-%#014lx %s\n", bootinfo.mem[i].base,
			bootinfo.mem[i].base + bootinfo.mem[i].len - 1,
			mem_type_name(bootinfo.mem[i].type));
	}
	if (kmem_init(&bootinfo, virt_to_phys(_kernel_end)) < 0)
		panic("not enough memory");
	paging_init(&bootinfo);
	if (!cpu_create(0, 0, cpus[0]))
		panic("no memory for the boot CPU's stacks");
	pr_info("mem: %lu MiB for ranks, %lu MiB for the kernel\n", kmem_user_free() >> 20,
		kmem_kernel_free() >> 20);
	arch_call_on_stack(cpu_stack_top(0), kmain_late);
}
