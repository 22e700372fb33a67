/*
 * trap.c - what the entry stubs call: exceptions are decoded into a
 * struct fault for kernel/fault.c, interrupts go to their handlers.
 * The only interrupts a running rank ever sees are IPIs and, while it
 * sleeps in nanosleep, its own timer: there is no periodic tick.
 */
#include <arch/arch.h>
#include <arch/cpu.h>
#include <arch/memlayout.h>
#include "apic.h"
#include "cpu.h"
#include "fault.h"
#include "printk.h"
#include "proc.h"
#include "signal.h"

static const struct {
	const char *name;
	int signo;
} exceptions[32] = {
	[0] = { "divide error", SIGFPE },
	[1] = { "debug", SIGTRAP },
	[2] = { "non-maskable interrupt", 0 },
	[3] = { "breakpoint", SIGTRAP },
	[4] = { "overflow", SIGSEGV },
	[5] = { "bound range exceeded", SIGSEGV },
	[6] = { "invalid opcode", SIGILL },
	[7] = { "device not available", SIGSEGV },
	[8] = { "double fault", SIGSEGV },
	[9] = { "coprocessor segment overrun", SIGFPE },
	[10] = { "invalid TSS", SIGSEGV },
	[11] = { "segment not present", SIGBUS },
	[12] = { "stack-segment fault", SIGBUS },
	[13] = { "general protection", SIGSEGV },
	[14] = { "page fault", SIGSEGV },
	[16] = { "x87 floating-point error", SIGFPE },
	[17] = { "alignment check", SIGBUS },
	[18] = { "machine check", SIGBUS },
	[19] = { "SIMD floating-point error", SIGFPE },
	[20] = { "virtualization exception", SIGSEGV },
	[21] = { "control protection", SIGSEGV },
};

static void exception(struct trapframe *tf)
{
	unsigned v = (unsigned)tf->vector;
	struct fault f = {
		.vector = v,
		.name = exceptions[v].name ? exceptions[v].name : "reserved exception",
		.signo = exceptions[v].signo ? exceptions[v].signo : SIGSEGV,
		.rip = tf->rip,
		.error = tf->error,
	};

	if (v == 14) {
		f.has_addr = 1;
		f.addr = read_cr2();
		f.present = tf->error & 1;
		f.write = !!(tf->error & 2);
		f.exec = !!(tf->error & 16);
	}
	if (v == 2) {
		/* NMIs are only sent by a panicking CPU: stop here for good. */
		for (;;)
			__asm__ volatile("cli; hlt");
	}
	if (trapframe_from_user(tf) && v != 8 && v != 18)
		fault_user(tf, &f);
	fault_kernel(tf, &f);
}

void trap_dispatch(struct trapframe *tf)
{
	struct cpu *c = this_cpu();

	c->intr_count++;
	if (tf->vector < 32) {
		exception(tf);
		return;
	}
	switch (tf->vector) {
	case VEC_IPI_WAKE:
		apic_eoi();
		break;
	case VEC_IPI_KILL:
		apic_eoi();
		/* In user mode the rank ends right here; in the kernel the
		 * interrupted wait sees the kill flag when it wakes. */
		if (trapframe_from_user(tf))
			proc_end_current();
		break;
	case VEC_TIMER:
		apic_eoi();
		proc_timer_interrupt(tf, trapframe_from_user(tf));
		break;
	case VEC_SPURIOUS:
		break;
	default:
		if (tf->vector >= 32 && tf->vector < 48) {
			/* a legacy PIC line firing despite the mask: ignore */
			break;
		}
		pr_warn("cpu %u: unexpected interrupt vector %lu\n", c->id, tf->vector);
		apic_eoi();
		break;
	}
}

void arch_dump_regs(const struct trapframe *tf)
{
	pr_err("  rax %016lx rbx %016lx rcx %016lx rdx %016lx\n", tf->rax, tf->rbx, tf->rcx, tf->rdx);
	pr_err("  rsi %016lx rdi %016lx rbp %016lx rsp %016lx\n", tf->rsi, tf->rdi, tf->rbp, tf->rsp);
	pr_err("  r8  %016lx r9  %016lx r10 %016lx r11 %016lx\n", tf->r8, tf->r9, tf->r10, tf->r11);
	pr_err("  r12 %016lx r13 %016lx r14 %016lx r15 %016lx\n", tf->r12, tf->r13, tf->r14, tf->r15);
	pr_err("  rip %016lx cs %04lx rflags %08lx ss %04lx cr2 %016lx\n", tf->rip, tf->cs,
	       tf->rflags, tf->ss, read_cr2());
}
