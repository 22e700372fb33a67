/* arch/trapframe.h - the registers entry.asm saves on the kernel stack, for
 * interrupts, exceptions and system calls alike. */
#ifndef ARCH_TRAPFRAME_H
#define ARCH_TRAPFRAME_H

#include <stdint.h>

/* vector value of a frame built by the syscall instruction */
#define VEC_SYSCALL	0x100
/* ... that must return with every register restored (rt_sigreturn):
 * IRETQ, since SYSRET loses rcx and r11 */
#define VEC_SYSCALL_EXACT	0x101

struct trapframe {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;
};

static inline int trapframe_from_user(const struct trapframe *tf)
{
	return (tf->cs & 3) == 3;
}

#endif
