/* arch/percpu.h - the x86 part of a CPU's private data.  entry.asm reaches
 * the first three fields through %gs at the offsets below. */
#ifndef ARCH_PERCPU_H
#define ARCH_PERCPU_H

#include <stdint.h>

#define CPU_OFF_SELF		0
#define CPU_OFF_KERNEL_RSP	8
#define CPU_OFF_USER_RSP	16

/* Segment selectors; the order is what SYSCALL/SYSRET require. */
#define SEL_KCODE	0x08
#define SEL_KDATA	0x10
#define SEL_UDATA	0x23	/* 0x20 | RPL 3 */
#define SEL_UCODE	0x2B	/* 0x28 | RPL 3 */
#define SEL_TSS		0x30

/* Interrupt stack table slots */
#define IST_DF		1
#define IST_NMI		2
#define IST_MC		3

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

struct arch_cpu {
	void *self;			/* %gs:0 - the struct cpu */
	uint64_t kernel_rsp;		/* %gs:8 - top of the kernel stack */
	uint64_t user_rsp;		/* %gs:16 - scratch for syscall entry */
	uint32_t apic_id;
	uint64_t gdt[8] __attribute__((aligned(16)));
	struct tss tss __attribute__((aligned(16)));
};

#endif
