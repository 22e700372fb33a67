/*
 * signal.c - the x86-64 half of signal delivery: Linux's rt_sigframe on
 * the user stack, so musl's restorer (rt_sigreturn) and handlers reading
 * their ucontext work unchanged.
 *
 * Signals are delivered on the way out of a system call, where the ABI
 * already clobbers rcx and r11, or of the timer interrupt (SIGALRM), which
 * returns with IRETQ; rt_sigreturn restores every register, so it returns
 * with IRETQ too (VEC_SYSCALL_EXACT).
 * The x87/SSE state is saved with FXSAVE (a handler may use SSE freely;
 * upper halves of AVX registers are not saved).
 */
#include <stddef.h>
#include <string.h>
#include <arch/arch.h>
#include <arch/memlayout.h>
#include "proc.h"
#include "signal.h"
#include "uaccess.h"

struct sigcontext_u {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, rflags;
	uint16_t cs, gs, fs, ss;
	uint64_t err, trapno, oldmask, cr2, fpstate;
	uint64_t reserved[8];
};

struct ucontext_u {
	uint64_t flags, link;
	uint64_t ss_sp;
	uint32_t ss_flags, pad;
	uint64_t ss_size;
	struct sigcontext_u mc;
	uint64_t sigmask;
};

struct siginfo_u {
	int32_t signo, errno_, code, pad;
	int32_t pid, uid;
	uint8_t rest[104];
};

struct rt_sigframe {
	uint64_t pretcode;	/* where the handler returns: the restorer */
	struct ucontext_u uc;
	struct siginfo_u info;
};

_Static_assert(sizeof(struct sigcontext_u) == 256, "Linux's struct sigcontext");
_Static_assert(sizeof(struct ucontext_u) == 304, "Linux's struct ucontext");
_Static_assert(sizeof(struct siginfo_u) == 128, "Linux's siginfo_t");

#define FXSAVE_SIZE	512
#define SI_TKILL	(-6)
/* flags user code may change: CF PF AF ZF SF TF DF OF AC (Linux's FIX_EFLAGS) */
#define RFLAGS_USER	0x40DD5ul

struct fxarea {
	uint8_t b[FXSAVE_SIZE];
} __attribute__((aligned(16)));

int arch_signal_frame(struct proc *p, unsigned sig, const struct ksigaction *act,
		      uint64_t mask)
{
	struct trapframe *tf = p->tf;
	struct rt_sigframe f;
	struct fxarea fx;
	/* below the red zone: the FP area (64-aligned, as Linux), then the
	 * frame, placed so the handler starts as if called (rsp+8 aligned) */
	uint64_t fp = ((tf->rsp - 128) & ~63ul) - FXSAVE_SIZE;
	uint64_t frame = ((fp - sizeof(f)) & ~15ul) - 8;

	/* IRETQ to a non-canonical rip would fault in the kernel: refuse it */
	if (tf->rsp < 128 + FXSAVE_SIZE + sizeof(f) + 64 || !pml4_canonical(act->handler))
		return -1;
	__asm__ volatile("fxsave64 %0" : "=m"(fx));
	memset(&f, 0, sizeof(f));
	f.pretcode = act->restorer;
	f.uc.ss_flags = 2;	/* SS_DISABLE: no alternate stack */
	f.uc.mc = (struct sigcontext_u){
		.r8 = tf->r8, .r9 = tf->r9, .r10 = tf->r10, .r11 = tf->r11,
		.r12 = tf->r12, .r13 = tf->r13, .r14 = tf->r14, .r15 = tf->r15,
		.rdi = tf->rdi, .rsi = tf->rsi, .rbp = tf->rbp, .rbx = tf->rbx,
		.rdx = tf->rdx, .rax = tf->rax, .rcx = tf->rcx, .rsp = tf->rsp,
		.rip = tf->rip, .rflags = tf->rflags, .cs = (uint16_t)tf->cs,
		.ss = (uint16_t)tf->ss, .oldmask = mask, .fpstate = fp,
	};
	f.uc.sigmask = mask;
	f.info.signo = (int32_t)sig;
	f.info.code = SI_TKILL;
	f.info.pid = (int32_t)(p->rank + 1);
	if (copy_to_user(p, fp, &fx, sizeof(fx)) < 0 || copy_to_user(p, frame, &f, sizeof(f)) < 0)
		return -1;
	tf->rsp = frame;
	tf->rip = act->handler;
	tf->rdi = sig;
	tf->rsi = frame + offsetof(struct rt_sigframe, info);
	tf->rdx = frame + offsetof(struct rt_sigframe, uc);
	tf->rax = 0;
	tf->rflags &= ~(RFLAGS_USER & ~0xD5ul);	/* clear TF, DF, OF, AC; keep IF */
	return 0;
}

int arch_signal_return(struct proc *p, uint64_t *mask, uint64_t *rax)
{
	struct trapframe *tf = p->tf;
	struct ucontext_u uc;
	struct fxarea fx, cur;
	uint32_t mxcsr_mask;

	/* The handler's `ret` popped pretcode: the ucontext is at rsp. */
	if (copy_from_user(p, &uc, tf->rsp, sizeof(uc)) < 0)
		return -1;
	if (uc.mc.fpstate) {
		if (copy_from_user(p, &fx, uc.mc.fpstate, sizeof(fx)) < 0)
			return -1;
		/* MXCSR bits this CPU lacks would fault FXRSTOR in the kernel */
		__asm__ volatile("fxsave64 %0" : "=m"(cur));
		memcpy(&mxcsr_mask, cur.b + 28, 4);
		if (!mxcsr_mask)
			mxcsr_mask = 0xFFBF;
		*(uint32_t *)(fx.b + 24) &= mxcsr_mask;
		__asm__ volatile("fxrstor64 %0" : : "m"(fx));
	}
	tf->r8 = uc.mc.r8; tf->r9 = uc.mc.r9; tf->r10 = uc.mc.r10; tf->r11 = uc.mc.r11;
	tf->r12 = uc.mc.r12; tf->r13 = uc.mc.r13; tf->r14 = uc.mc.r14; tf->r15 = uc.mc.r15;
	tf->rdi = uc.mc.rdi; tf->rsi = uc.mc.rsi; tf->rbp = uc.mc.rbp; tf->rbx = uc.mc.rbx;
	tf->rdx = uc.mc.rdx; tf->rcx = uc.mc.rcx; tf->rsp = uc.mc.rsp;
	/* a non-canonical rip is refused on the way out (syscall_bad_return) */
	tf->rip = uc.mc.rip;
	tf->vector = VEC_SYSCALL_EXACT;
	tf->rflags = (tf->rflags & ~RFLAGS_USER) | (uc.mc.rflags & RFLAGS_USER);
	*mask = uc.sigmask;
	*rax = uc.mc.rax;
	return 0;
}
