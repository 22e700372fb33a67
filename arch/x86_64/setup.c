/* setup.c - the C side of the boot path: the boot CPU's processor tables
 * come first, so that any fault from here on gets a readable report. */
#include <arch/arch.h>
#include <arch/cpu.h>
#include "cpu.h"
#include "kernel.h"
#include "time.h"

static struct cpu cpu0;

_Noreturn void arch_boot(uint32_t magic, uint64_t info_phys)
{
	tsc_boot = rdtsc();
	cpus[0] = &cpu0;
	ncpus = 1;
	arch_cpu_init(&cpu0, 1);
	kmain(magic, info_phys);
}

/* Run fn on a new stack; fn must not return. */
_Noreturn void arch_call_on_stack(uint64_t top, void (*fn)(void))
{
	__asm__ volatile("mov %0, %%rsp\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "call *%1\n\t"
			 "ud2"
			 : : "r"(top), "r"(fn) : "memory");
	__builtin_unreachable();
}

_Noreturn void arch_user_start(struct cpu *c, uint64_t entry, uint64_t sp)
{
	struct trapframe tf = {
		.rip = entry,
		.cs = SEL_UCODE,
		.rflags = RFLAGS_IF | 0x2,
		.rsp = sp,
		.ss = SEL_UDATA,
	};

	arch_fpu_init_user();
	wrmsr(MSR_FS_BASE, 0);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
	/* rsp0 sits at offset 4 of the (packed, hardware-defined) TSS */
	arch_enter_user(&tf, (char *)&c->arch.tss + __builtin_offsetof(struct tss, rsp));
}

int arch_set_fs(uint64_t base)
{
	/* canonical user addresses only: a kernel FS base would be usable as
	 * an oracle, and a non-canonical one faults on wrmsr */
	if (base >= (1ul << 47))
		return -1;
	wrmsr(MSR_FS_BASE, base);
	return 0;
}

uint64_t arch_get_fs(void)
{
	return rdmsr(MSR_FS_BASE);
}
