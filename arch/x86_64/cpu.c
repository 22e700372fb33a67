/*
 * cpu.c - per-CPU processor setup: GDT, TSS with IST stacks, the shared
 * IDT, SYSCALL MSRs, and the floating-point state user code starts with.
 *
 * The kernel itself is compiled without SSE, and a core runs one rank for
 * the rank's whole life, so user FPU/vector state is never saved or
 * switched: it is initialised once when a rank starts.
 */
#include <string.h>
#include <arch/cpu.h>
#include <arch/memlayout.h>
#include <arch/paging.h>
#include <arch/percpu.h>
#include <arch/arch.h>
#include "cpu.h"
#include "printk.h"

extern const uint64_t isr_table[256];
extern char syscall_entry[];

struct idt_entry {
	uint16_t off_lo;
	uint16_t sel;
	uint8_t ist;
	uint8_t type;
	uint16_t off_mid;
	uint32_t off_hi;
	uint32_t zero;
} __attribute__((packed));

static struct idt_entry idt[256] __attribute__((aligned(16)));

struct cpu_features cpu_features;

/* XSAVE area in its initial state: restoring it resets every component. */
static uint8_t xsave_init_area[4096] __attribute__((aligned(64)));

static void idt_set(int vec, uint64_t handler, int ist, int user)
{
	idt[vec] = (struct idt_entry){
		.off_lo = handler & 0xFFFF,
		.sel = SEL_KCODE,
		.ist = ist,
		.type = 0x8E | (user ? 0x60 : 0),	/* present, interrupt gate */
		.off_mid = (handler >> 16) & 0xFFFF,
		.off_hi = handler >> 32,
	};
}

static void idt_build(void)
{
	for (int v = 0; v < 256; v++)
		idt_set(v, isr_table[v], 0, 0);
	idt_set(2, isr_table[2], IST_NMI, 0);
	idt_set(8, isr_table[8], IST_DF, 0);
	idt_set(18, isr_table[18], IST_MC, 0);
	/* int3 from user mode is a breakpoint (SIGTRAP), as on Linux, not a
	 * #GP for using a gate user mode may not use */
	idt_set(3, isr_table[3], 0, 1);
}

static void detect_features(void)
{
	uint32_t a, b, c, d;

	cpuid(0, 0, &a, &b, &c, &d);
	cpu_features.max_leaf = a;
	cpuid(1, 0, &a, &b, &c, &d);
	cpu_features.leaf1_ecx = c;
	cpu_features.leaf1_edx = d;
	cpu_features.family = ((a >> 8) & 0xF) + (((a >> 8) & 0xF) == 0xF ? (a >> 20) & 0xFF : 0);
	cpu_features.model = ((a >> 4) & 0xF) | ((a >> 12) & 0xF0);
	if (cpu_features.max_leaf >= 7) {
		cpuid(7, 0, &a, &b, &c, &d);
		cpu_features.leaf7_ebx = b;
	}
	cpuid(0x80000001, 0, &a, &b, &c, &d);
	cpu_features.ext_ecx = c;
	cpu_features.ext_edx = d;
	cpu_features.xsave = !!(cpu_features.leaf1_ecx & (1u << 26));
	if (cpu_features.xsave) {
		uint64_t want = 0x7;	/* x87, SSE, AVX */

		cpuid(0xD, 0, &a, &b, &c, &d);
		want |= 0xE0;		/* AVX-512: opmask, ZMM_Hi256, Hi16_ZMM */
		cpu_features.xcr0 = (((uint64_t)d << 32) | a) & want;
		/* AVX-512 state is only usable as a whole */
		if ((cpu_features.xcr0 & 0xE0) != 0xE0)
			cpu_features.xcr0 &= ~0xE0ul;
		if (!(cpu_features.xcr0 & 4))
			cpu_features.xcr0 &= 3;
		write_cr4(read_cr4() | CR4_OSXSAVE);
		__asm__ volatile("xsetbv" : : "c"(0), "a"((uint32_t)cpu_features.xcr0),
				 "d"((uint32_t)(cpu_features.xcr0 >> 32)));
		cpuid(0xD, 0, &a, &b, &c, &d);
		cpu_features.xsave_size = b;
		if (b > sizeof(xsave_init_area))
			panic("cpu: XSAVE area of %u bytes is larger than expected", b);
		/* XRSTOR loads MXCSR from the image even for init-state SSE:
		 * the default masks every SIMD exception. */
		*(uint32_t *)(xsave_init_area + 24) = 0x1F80;
	}
}

void arch_cpu_init(struct cpu *c, int bsp)
{
	struct arch_cpu *ac = &c->arch;
	uint64_t tss = (uint64_t)&ac->tss;

	ac->self = c;
	ac->gdt[0] = 0;
	ac->gdt[1] = 0x00AF9A000000FFFF;	/* kernel code */
	ac->gdt[2] = 0x00CF92000000FFFF;	/* kernel data */
	ac->gdt[3] = 0;				/* (32-bit user code: unused) */
	ac->gdt[4] = 0x00CFF2000000FFFF;	/* user data */
	ac->gdt[5] = 0x00AFFA000000FFFF;	/* user code */
	ac->gdt[6] = (sizeof(struct tss) - 1) | ((tss & 0xFFFFFF) << 16) |
		     (0x89ul << 40) | (((tss >> 24) & 0xFF) << 56);
	ac->gdt[7] = tss >> 32;
	ac->tss.iomap_base = sizeof(struct tss);	/* no I/O bitmap: no ports for ring 3 */

	struct { uint16_t limit; uint64_t base; } __attribute__((packed))
		gdtr = { sizeof(ac->gdt) - 1, (uint64_t)ac->gdt },
		idtr = { sizeof(idt) - 1, (uint64_t)idt };

	if (bsp)
		idt_build();
	__asm__ volatile(
		"lgdt %0\n\t"
		"lidt %1\n\t"
		"pushq %2\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movw %w3, %%ax\n\t"
		"movw %%ax, %%ds\n\t"
		"movw %%ax, %%es\n\t"
		"movw %%ax, %%ss\n\t"
		"xorl %%eax, %%eax\n\t"
		"movw %%ax, %%fs\n\t"
		"movw %%ax, %%gs\n\t"
		"ltr %w4"
		: : "m"(gdtr), "m"(idtr), "i"(SEL_KCODE), "r"(SEL_KDATA), "r"(SEL_TSS)
		: "rax", "memory");
	wrmsr(MSR_GS_BASE, (uint64_t)c);
	wrmsr(MSR_KERNEL_GS_BASE, 0);

	/* SYSCALL: kernel CS/SS from STAR[47:32], user from STAR[63:48] (+16 CS, +8 SS) */
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	wrmsr(MSR_STAR, ((uint64_t)0x18 << 48) | ((uint64_t)SEL_KCODE << 32));
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	/* IF off until the stack is switched; DF, TF, AC cleared for the kernel */
	wrmsr(MSR_FMASK, RFLAGS_IF | (1 << 10) | (1 << 8) | RFLAGS_AC);

	if (bsp)
		detect_features();
	else if (cpu_features.xsave) {
		write_cr4(read_cr4() | CR4_OSXSAVE);
		__asm__ volatile("xsetbv" : : "c"(0), "a"((uint32_t)cpu_features.xcr0),
				 "d"((uint32_t)(cpu_features.xcr0 >> 32)));
	}
	write_cr0((read_cr0() | CR0_MP | CR0_NE) & ~(CR0_EM | CR0_TS));
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
}

int arch_cpu_set_ist(struct cpu *c, int ist, uint64_t top)
{
	c->arch.tss.ist[ist - 1] = top;
	return 0;
}

void arch_fpu_init_user(void)
{
	if (cpu_features.xsave) {
		/* XSTATE_BV = 0 in the header: every component to its init state. */
		uint32_t lo = (uint32_t)cpu_features.xcr0, hi = (uint32_t)(cpu_features.xcr0 >> 32);

		__asm__ volatile("xrstor64 %0" : : "m"(xsave_init_area), "a"(lo), "d"(hi));
	} else {
		uint32_t mxcsr = 0x1F80;

		__asm__ volatile("fninit; ldmxcsr %0" : : "m"(mxcsr));
	}
}

int arch_has_crc32c(void)
{
	return (cpu_features.leaf1_ecx >> 20) & 1;
}
