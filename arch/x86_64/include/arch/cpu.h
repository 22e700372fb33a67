/* arch/cpu.h - x86-64 instructions the kernel needs, as inline functions. */
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

#include <stdint.h>

#define MSR_APIC_BASE		0x0000001B
#define MSR_TSC_DEADLINE	0x000006E0
#define MSR_EFER		0xC0000080
#define MSR_STAR		0xC0000081
#define MSR_LSTAR		0xC0000082
#define MSR_FMASK		0xC0000084
#define MSR_FS_BASE		0xC0000100
#define MSR_GS_BASE		0xC0000101
#define MSR_KERNEL_GS_BASE	0xC0000102

#define EFER_SCE		(1u << 0)
#define EFER_NXE		(1u << 11)

#define CR0_MP			(1ul << 1)
#define CR0_EM			(1ul << 2)
#define CR0_TS			(1ul << 3)
#define CR0_NE			(1ul << 5)
#define CR0_WP			(1ul << 16)
#define CR4_PGE			(1ul << 7)
#define CR4_OSFXSR		(1ul << 9)
#define CR4_OSXMMEXCPT		(1ul << 10)
#define CR4_UMIP		(1ul << 11)
#define CR4_OSXSAVE		(1ul << 18)
#define CR4_SMEP		(1ul << 20)
#define CR4_SMAP		(1ul << 21)

#define RFLAGS_IF		(1ul << 9)
#define RFLAGS_AC		(1ul << 18)

static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b,
			 uint32_t *c, uint32_t *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

#define DEFINE_CR(n)							\
static inline uint64_t read_cr##n(void)					\
{									\
	uint64_t v;							\
	__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));		\
	return v;							\
}									\
static inline void write_cr##n(uint64_t v)				\
{									\
	__asm__ volatile("mov %0, %%cr" #n : : "r"(v) : "memory");	\
}
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
#undef DEFINE_CR

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

static inline void irq_enable(void)
{
	__asm__ volatile("sti" ::: "memory");
}

static inline void irq_disable(void)
{
	__asm__ volatile("cli" ::: "memory");
}

static inline uint64_t irq_save(void)
{
	uint64_t f;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(f) : : "memory");
	return f;
}

static inline void irq_restore(uint64_t f)
{
	if (f & RFLAGS_IF)
		irq_enable();
}

/* Enable interrupts and halt in one step: sti's one-instruction shadow
 * means a wake-up IPI cannot slip in between the check and the hlt. */
static inline void cpu_idle(void)
{
	__asm__ volatile("sti; hlt; cli" ::: "memory");
}

static inline void invlpg(uintptr_t va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

/* Open and close a window for supervisor access to user pages (SMAP). */
static inline void user_access_begin(void)
{
	__asm__ volatile("stac" ::: "memory", "cc");
}

static inline void user_access_end(void)
{
	__asm__ volatile("clac" ::: "memory", "cc");
}

#endif
