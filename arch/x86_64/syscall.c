/*
 * syscall.c - the SYSCALL instruction's C side: Linux registers in
 * (rax = number; rdi, rsi, rdx, r10, r8, r9), rax out.  A rank whose job
 * is being stopped never returns to user mode from here.
 */
#include <arch/arch.h>
#include <arch/memlayout.h>
#include "ksyms.h"
#include "printk.h"
#include "proc.h"
#include "signal.h"
#include "syscall.h"

void syscall_dispatch(struct trapframe *tf)
{
	struct proc *p = proc_current();
	uint64_t args[6] = { tf->rdi, tf->rsi, tf->rdx, tf->r10, tf->r8, tf->r9 };

	p->tf = tf;
	tf->rax = (uint64_t)syscall_run(p, tf->rax, args);
	signal_deliver(p);
	if (p->killed)
		proc_end_current();
}

_Noreturn void syscall_bad_return(struct trapframe *tf)
{
	struct proc *p = proc_current();

	pr_err("rank %u: refusing to return to non-canonical rip %#lx\n", p->rank, tf->rip);
	proc_end(p, 128 + SIGSEGV, 1);
}

static int kernel_readable(uint64_t a)
{
	return (a >= KSTACK_AREA && a < KSTACK_AREA + KSTACK_AREA_SIZE) ||
	       (a >= DIRECT_MAP_BASE && a < DIRECT_MAP_BASE + DIRECT_MAP_SIZE);
}

/* Follow saved frame pointers: [rbp] = caller's rbp, [rbp+8] = return. */
void arch_backtrace(uint64_t rbp, uint64_t rip, int user, int max)
{
	struct proc *p = user ? proc_current() : NULL;

	for (int i = 0; i < max; i++) {
		uint64_t off;
		const char *sym = user ? NULL : ksym_lookup(rip, &off);
		const uint64_t *frame;
		uint64_t ufr[2];

		if (sym)
			pr_err("  #%d %#lx %s+%#lx\n", i, rip, sym, off);
		else
			pr_err("  #%d %#lx\n", i, rip);
		if (!rbp || (rbp & 7))
			break;
		if (user) {
			frame = copy_from_user(p, ufr, rbp, sizeof(ufr)) < 0 ? NULL : ufr;
		} else {
			frame = kernel_readable(rbp) && kernel_readable(rbp + 15) ?
				(const uint64_t *)rbp : NULL;
		}
		if (!frame || frame[0] <= rbp)
			break;
		rip = frame[1];
		rbp = frame[0];
	}
}
