/* arch/context.h - a saved kernel execution point, setjmp style: the CPU
 * saves one before entering user mode and resumes it when the rank ends,
 * from whatever depth (syscall, fault, kill IPI) the end came. */
#ifndef ARCH_CONTEXT_H
#define ARCH_CONTEXT_H

#include <stdint.h>

struct kcontext {
	uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip;
};

/* Returns 0 when saving, 1 when resumed by kcontext_resume. */
int kcontext_save(struct kcontext *c) __attribute__((returns_twice));
_Noreturn void kcontext_resume(const struct kcontext *c);

#endif
