/*
 * fault.c - explain a processor exception.  A rank's fault is reported in
 * terms of its own layout (null pointer, stack overflow, write to text,
 * a SMARTMAP address past a peer's region...) and kills the job; a kernel
 * fault is a panic with registers and a symbolic stack trace.
 */
#include <arch/arch.h>
#include <arch/memlayout.h>
#include "cpu.h"
#include "fault.h"
#include "format.h"
#include "job.h"
#include "printk.h"
#include "proc.h"
#include "power.h"
#include "smapos_abi.h"

/* What a faulting address means for rank p. */
static void describe_addr(const struct proc *p, const struct fault *f, char *buf, size_t size)
{
	uint64_t a = f->addr, slot = pml4_slot(a), off = a & (PML4_SLOT_SIZE - 1);
	const struct job *j = p->job;
	int peer = -1;

	if (slot == PML4_KERNEL_SLOT) {
		snprintf(buf, size, "access to kernel memory");
		return;
	}
	if (slot > 0) {
		if (slot - 1 >= j->nranks) {
			snprintf(buf, size, "SMARTMAP address of rank %lu, but the job has %u rank%s",
				 slot - 1, j->nranks, j->nranks == 1 ? "" : "s");
			return;
		}
		peer = (int)(slot - 1);
	}
	char who[32];

	if (peer >= 0)
		snprintf(who, sizeof(who), " (SMARTMAP, rank %d)", peer);
	else
		who[0] = '\0';
	if (off < p->base && off < 0x10000)
		snprintf(buf, size, "null pointer dereference%s", who);
	else if (off < p->base)
		snprintf(buf, size, "address below the rank's memory%s", who);
	else if (off >= p->end)
		snprintf(buf, size, "address beyond the rank's memory (%lu MiB)%s",
			 (p->end - p->base) >> 20, who);
	else if (off >= p->guard && off < p->guard + PAGE_SIZE)
		snprintf(buf, size, "stack overflow (guard page hit)%s", who);
	else if (f->present && f->exec)
		snprintf(buf, size, "execute from non-executable memory%s", who);
	else if (f->present && f->write)
		snprintf(buf, size, "write to read-only memory (text or rodata)%s", who);
	else
		snprintf(buf, size, "protection violation%s", who);
}

static const char *signame(int signo)
{
	switch (signo) {
	case 4: return "SIGILL";
	case 5: return "SIGTRAP";
	case 7: return "SIGBUS";
	case 8: return "SIGFPE";
	case 11: return "SIGSEGV";
	default: return "signal";
	}
}

_Noreturn void fault_user(struct trapframe *tf, const struct fault *f)
{
	struct proc *p = proc_current();
	char why[160];

	if (!p)
		fault_kernel(tf, f);
	if (f->has_addr) {
		describe_addr(p, f, why, sizeof(why));
		pr_err("rank %u (cpu %u): %s: %s at %#lx, rip %#lx\n", p->rank, p->cpu->id,
		       signame(f->signo), why, f->addr, f->rip);
	} else {
		/* A user #GP has no address to explain; name the usual causes. */
		const char *hint = f->vector == 13 ?
			" (privileged instruction, I/O port or non-canonical address)" : "";

		pr_err("rank %u (cpu %u): %s: %s%s (vector %u, error %#lx), rip %#lx\n", p->rank,
		       p->cpu->id, signame(f->signo), f->name, hint, f->vector, f->error, f->rip);
	}
	arch_dump_regs(tf);
	arch_backtrace(tf->rbp, tf->rip, 1, 6);
	proc_end(p, 128 + f->signo, 1);
}

_Noreturn void fault_kernel(struct trapframe *tf, const struct fault *f)
{
	struct cpu *c = this_cpu();

	pr_err("smapos: kernel fault on cpu %u: %s (vector %u, error %#lx) at rip %#lx\n",
	       c ? c->id : 0, f->name, f->vector, f->error, f->rip);
	if (f->has_addr)
		pr_err("  address %#lx (%s, %s)\n", f->addr, f->write ? "write" : "read",
		       f->present ? "protection" : "not mapped");
	arch_dump_regs(tf);
	arch_backtrace(tf->rbp, tf->rip, 0, 16);
	panic_reported("unrecoverable %s in the kernel", f->name);
}
